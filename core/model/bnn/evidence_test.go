package bnn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
	"gonum.org/v1/gonum/mat"
)

// linearTerm is a model linear in its weights, t ≈ Φw: its posterior is
// Gaussian, so the Laplace evidence is exact.
type linearTerm struct {
	phi [][]float64
	t   []float64
}

func (l linearTerm) numWeights() int { return len(l.phi[0]) }
func (l linearTerm) numPoints() int  { return len(l.t) }
func (l linearTerm) errorGrad(w, g []float64) float64 {
	if g != nil {
		clear(g)
	}
	var e float64
	for n, row := range l.phi {
		r := numeric.Dot(row, w) - l.t[n]
		e += r * r / 2
		for k := range g {
			g[k] += r * row[k]
		}
	}
	return e
}
func (l linearTerm) errorHessian(w, h []float64) float64 {
	k := l.numWeights()
	clear(h)
	for _, row := range l.phi {
		for p := range k {
			for q := range k {
				h[p*k+q] += row[p] * row[q]
			}
		}
	}
	return l.errorGrad(w, nil)
}

// exactLogEvidence is ln N(t | 0, Φ diag(1/α_g) Φᵀ + I/β), computed from
// the N×N marginal covariance (another formula than the Laplace one).
func (l linearTerm) exactLogEvidence(alpha []float64, group []int, beta float64) float64 {
	n := len(l.t)
	c := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			var s float64
			for k := range l.phi[i] {
				s += l.phi[i][k] * l.phi[j][k] / alpha[group[k]]
			}
			if i == j {
				s += 1 / beta
			}
			c.SetSym(i, j, s)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(c) {
		panic("not positive definite")
	}
	tv := mat.NewVecDense(n, append([]float64(nil), l.t...))
	var z mat.VecDense
	if err := ch.SolveVecTo(&z, tv); err != nil {
		panic(err)
	}
	return -0.5*mat.Dot(tv, &z) - 0.5*ch.LogDet() - float64(n)/2*math.Log(2*math.Pi)
}

func newLinear(r *rand.Rand, n, k int) linearTerm {
	l := linearTerm{}
	w := make([]float64, k)
	for j := range w {
		w[j] = r.NormFloat64() * float64(j%2+1)
	}
	for range n {
		row := make([]float64, k)
		for j := range row {
			row[j] = r.NormFloat64()
		}
		l.phi = append(l.phi, row)
		l.t = append(l.t, numeric.Dot(row, w)+0.3*r.NormFloat64())
	}
	return l
}

// On a model linear in the weights the Laplace approximation is exact, so
// its log evidence, with every constant, equals the Gaussian marginal
// likelihood at every (α, β) — here at the mode reached by the optimiser.
func TestLaplaceEvidenceExactOnLinearModel(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	l := newLinear(r, 25, 4)
	group := []int{0, 1, 0, 1}
	for _, hp := range []struct {
		alpha []float64
		beta  float64
	}{{[]float64{0.3, 0.3}, 200}, {[]float64{2, 0.05}, 3}, {[]float64{1e-3, 10}, 0.5}} {
		w := make([]float64, 4)
		obj := func(w, g []float64) float64 {
			e := hp.beta * l.errorGrad(w, g)
			for k := range g {
				g[k] = hp.beta*g[k] + hp.alpha[group[k]]*w[k]
				e += hp.alpha[group[k]] * w[k] * w[k] / 2
			}
			return e
		}
		res := scg(obj, w, scgSettings{MaxIterations: 500, TolX: 1e-12, TolF: 1e-14})
		if !res.Converged {
			t.Fatalf("scg did not converge on a quadratic: %+v", res)
		}
		lap, err := laplaceAt(l, w, hp.alpha, hp.beta, group)
		if err != nil {
			t.Fatal(err)
		}
		want := l.exactLogEvidence(hp.alpha, group, hp.beta)
		if d := math.Abs(lap.LogEvidence - want); d > 1e-8*math.Abs(want) {
			t.Errorf("α %v β %v: Laplace log evidence %.12g, exact %.12g", hp.alpha, hp.beta, lap.LogEvidence, want)
		}
		var sum float64
		for _, tm := range lap.Terms {
			sum += tm.Value
		}
		if math.Abs(sum-lap.LogEvidence) > 1e-12*math.Abs(sum) {
			t.Errorf("terms sum to %v, log evidence %v", sum, lap.LogEvidence)
		}
	}
}

// The re-estimation α_g = γ_g/2E_{w,g}, β = (N − γ)/2E_D is MacKay's fixed
// point of the evidence: where it has converged on the linear model, the
// exact log evidence is stationary in every ln α_g and ln β.
func TestEvidenceFixedPointMaximisesEvidence(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	l := newLinear(r, 40, 5)
	group := []int{0, 0, 1, 1, 1}
	w := make([]float64, 5)
	lap, err := evidenceRun(l, w, group, 2, EvidenceSettings{Cycles: 200}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	f := func(la []float64, lb float64) float64 {
		return l.exactLogEvidence([]float64{math.Exp(la[0]), math.Exp(la[1])}, group, math.Exp(lb))
	}
	la := []float64{math.Log(lap.Alpha[0]), math.Log(lap.Alpha[1])}
	lb := math.Log(lap.Beta)
	const d = 1e-4
	for g := range 2 {
		p, m := append([]float64(nil), la...), append([]float64(nil), la...)
		p[g] += d
		m[g] -= d
		if grad := (f(p, lb) - f(m, lb)) / (2 * d); math.Abs(grad) > 1e-5 {
			t.Errorf("∂ ln p(D)/∂ ln α_%d = %v at the fixed point α = %v", g, grad, lap.Alpha)
		}
	}
	if grad := (f(la, lb+d) - f(la, lb-d)) / (2 * d); math.Abs(grad) > 1e-5 {
		t.Errorf("∂ ln p(D)/∂ ln β = %v at the fixed point β = %v", grad, lap.Beta)
	}
	// γ by the eigenvalues for one group equals K − α tr A⁻¹.
	one := []int{0, 0, 0, 0, 0}
	lap1, err := laplaceAt(l, lap.W, []float64{0.7}, 3, one)
	if err != nil {
		t.Fatal(err)
	}
	h := make([]float64, 25)
	l.errorHessian(lap.W, h)
	sym := mat.NewSymDense(5, nil)
	for i := range 5 {
		for j := i; j < 5; j++ {
			sym.SetSym(i, j, 3*h[i*5+j])
		}
	}
	var eig mat.EigenSym
	eig.Factorize(sym, false)
	var gamma float64
	for _, v := range eig.Values(nil) {
		gamma += v / (v + 0.7)
	}
	if math.Abs(gamma-lap1.Gamma) > 1e-10 {
		t.Errorf("γ = %v, Σ λ/(λ+α) = %v", lap1.Gamma, gamma)
	}
}

// A one-weight network f(x, w) = g(w x), nonlinear in w: the Laplace log
// evidence against the marginal likelihood by quadrature over w. With N =
// 200 points the Laplace error is O(1/N); a constant left out (½ ln 2π is
// 0.92) would be far outside the 0.02 nats allowed.
func TestLaplaceEvidenceAgainstQuadrature(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	const n, w0, alpha, beta = 200, 1.3, 0.5, 25.0
	x := make([]float64, n)
	tt := make([]float64, n)
	for i := range x {
		x[i] = 2*r.Float64() - 1
		tt[i] = G(w0*x[i]) + r.NormFloat64()/math.Sqrt(beta)
	}
	term := oneWeight{x, tt}
	w := []float64{0.5}
	obj := func(w, g []float64) float64 {
		e := beta * term.errorGrad(w, g)
		g[0] = beta*g[0] + alpha*w[0]
		return e + alpha*w[0]*w[0]/2
	}
	scg(obj, w, scgSettings{MaxIterations: 200, TolX: 1e-12, TolF: 1e-14})
	lap, err := laplaceAt(term, w, []float64{alpha}, beta, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	logJoint := func(v float64) float64 {
		e := term.errorGrad([]float64{v}, nil)
		return float64(n)/2*math.Log(beta/(2*math.Pi)) - beta*e + 0.5*math.Log(alpha/(2*math.Pi)) - alpha*v*v/2
	}
	peak := logJoint(w[0])
	sd := math.Sqrt(lap.Cov[0])
	z, err := numeric.Integrate(func(v float64) float64 { return math.Exp(logJoint(v) - peak) }, w[0]-12*sd, w[0]+12*sd, numeric.QuadTol{})
	if err != nil {
		t.Fatal(err)
	}
	exact := peak + math.Log(z)
	if d := math.Abs(lap.LogEvidence - exact); d > 0.02 {
		t.Errorf("Laplace log evidence %.6f, quadrature %.6f (difference %.3g)", lap.LogEvidence, exact, d)
	}
	t.Logf("Laplace %.6f, quadrature %.6f", lap.LogEvidence, exact)
}

type oneWeight struct{ x, t []float64 }

func (o oneWeight) numWeights() int { return 1 }
func (o oneWeight) numPoints() int  { return len(o.t) }
func (o oneWeight) errorGrad(w, g []float64) float64 {
	var e, d float64
	for i, x := range o.x {
		r := G(w[0]*x) - o.t[i]
		e += r * r / 2
		d += r * GPrime(w[0]*x) * x
	}
	if g != nil {
		g[0] = d
	}
	return e
}
func (o oneWeight) errorHessian(w, h []float64) float64 {
	var s float64
	for i, x := range o.x {
		a := w[0] * x
		r := G(a) - o.t[i]
		gp := GPrime(a)
		s += gp*gp*x*x + r*(-a*gp)*x*x
	}
	h[0] = s
	return o.errorGrad(w, nil)
}

func TestSCGRosenbrock(t *testing.T) {
	w := []float64{-1.2, 1}
	f := func(w, g []float64) float64 {
		a, b := 1-w[0], w[1]-w[0]*w[0]
		g[0] = -2*a - 400*w[0]*b
		g[1] = 200 * b
		return a*a + 100*b*b
	}
	res := scg(f, w, scgSettings{MaxIterations: 5000, TolX: 1e-10, TolF: 1e-16})
	if math.Abs(w[0]-1) > 1e-4 || math.Abs(w[1]-1) > 1e-4 {
		t.Errorf("scg on Rosenbrock ended at %v (%+v)", w, res)
	}
}

// The evidence procedure on a small network: the kept initialisation has
// the largest log evidence, the terms sum to it, the mode is stationary,
// 0 < γ < K, and the noise estimate is near the truth.
func TestEvidenceOnToy(t *testing.T) {
	for _, opt := range []Optimiser{SCG, QuasiNewton} {
		t.Run(opt.String(), func(t *testing.T) { evidenceOnToy(t, opt) })
	}
}

func evidenceOnToy(t *testing.T, opt Optimiser) {
	r := rand.New(rand.NewPCG(17, 18))
	const n = 30
	x := make([][]float64, n)
	tt := make([]float64, n)
	for i := range x {
		v := r.Float64()
		x[i] = []float64{v}
		tt[i] = 0.5 + 0.4*math.Sin(2*math.Pi*v) + 0.05*r.NormFloat64()
	}
	p, err := NewProblem(Arch{In: 1, Hidden: 3}, x, tt)
	if err != nil {
		t.Fatal(err)
	}
	lap, err := Evidence(p, Grouped, EvidenceSettings{Alpha0: 0.1, Beta0: 50, Inits: 3, Tol: 1e-300, Optimiser: opt}, r)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range lap.Inits {
		if v > lap.LogEvidence || (i == lap.Init && v != lap.LogEvidence) {
			t.Errorf("init %d: log evidence %v, kept %v (init %d)", i, v, lap.LogEvidence, lap.Init)
		}
	}
	var sum float64
	for _, tm := range lap.Terms {
		sum += tm.Value
	}
	if math.Abs(sum-lap.LogEvidence) > 1e-9*math.Abs(sum) {
		t.Errorf("terms %v sum to %v, log evidence %v", lap.Terms, sum, lap.LogEvidence)
	}
	k := p.NumWeights()
	if !(lap.Gamma > 0 && lap.Gamma < float64(k)) {
		t.Errorf("γ = %v, want in (0, %d)", lap.Gamma, k)
	}
	g := make([]float64, k)
	p.ErrorGrad(lap.W, p.X, p.T, g, nil)
	var gn float64
	for i := range g {
		v := lap.Beta*g[i] + lap.Alpha[lap.Group[i]]*lap.W[i]
		gn += v * v
	}
	// The optimiser runs to its cap (Tol 1e-300): the output bias is pruned
	// (α → 10¹⁰), which makes M stiff, and two hidden units mirror each
	// other (a flat valley), so 500 iterations leave |∇M| about 5×10⁻³.
	if math.Sqrt(gn) > 1e-2 {
		t.Errorf("|∇M| = %v at the mode", math.Sqrt(gn))
	}
	if sd := 1 / math.Sqrt(lap.Beta); sd < 0.03 || sd > 0.08 {
		t.Errorf("noise sd 1/√β = %v, true 0.05", sd)
	}
	if len(lap.Trace) != 10 {
		t.Errorf("%d cycles in the trace, want 10", len(lap.Trace))
	}
	// The predictive variance is gᵀA⁻¹g + 1/β ≥ 1/β, and the mean is the mode's output.
	for _, v := range []float64{0.2, 3} {
		m, s2 := lap.Predict([]float64{v})
		if m != p.Forward(lap.W, []float64{v}, nil) || s2 < 1/lap.Beta {
			t.Errorf("Predict(%v) = %v, %v", v, m, s2)
		}
	}
	if _, err := Evidence(p, Prior(99), EvidenceSettings{}, r); err == nil {
		t.Error("an unknown prior was accepted")
	}
}
