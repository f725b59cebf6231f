package lds

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// csHyper are non-default hyperparameters for the CS tests, so that every
// constant of the priors and of the x_0 prior is exercised.
var csHyper = Hyper{Alpha: []float64{2}, Gamma: []float64{0.5}, NoiseShape: 3, NoiseRate: 1.5, Mu0: []float64{0.3}, Lambda0: []float64{2}}

// csParams returns the scalar θ = (A, C, ρ) with the x_0 prior of csHyper.
func csParams(a, c, rho float64) *Params {
	return &Params{A: mat.NewDense(1, 1, []float64{a}), C: mat.NewDense(1, 1, []float64{c}), Rho: []float64{rho},
		Mu0: []float64{0.3}, Sigma0: mat.NewSymDense(1, []float64{0.5})}
}

// logNorm is ln N(x | m, 1/prec).
func logNorm(x, m, prec float64) float64 {
	return 0.5*math.Log(prec/(2*math.Pi)) - 0.5*prec*(x-m)*(x-m)
}

// TestCompletedMarginalQuad checks CompletedStats.LogJoint and LogMarginal
// for fully observed states x_{0:T} (T = 8, the statistics of the states
// themselves, through infer.LDSStats.AddSequence with zero covariances):
// LogJoint against the direct sum of ln N(x_0 | μ_0, 1/λ_0), ln N(x_t | A
// x_{t−1}, 1) and ln N(y_t | C x_t, 1/ρ) at random θ (relative 1e-12: the
// same sums in another order), and LogMarginal against iterated adaptive
// Gauss–Kronrod quadrature over (A, ln ρ, C) of Annealed.LogPrior (the
// priors' normalised density with the Jacobian of ln ρ) plus that direct
// sum. Each level runs to relative 1e-9 (absolute 1e-13, the integrand
// being ~1 at its peak and its integral ~0.1) on a box of ±12 posterior sd in
// A and C (given ρ) and in ln ρ from 9 below to 3 above the log of the ρ
// posterior's mean, whose faces are checked to lie over 60 nats below the
// peak, so the quadrature error is far below the 1e-8 nats allowed.
func TestCompletedMarginalQuad(t *testing.T) {
	rnd := rand.New(rand.NewPCG(71, 1))
	const T = 8
	a0, c0, rho0 := 0.7, 1.2, 3.0
	x := make([]float64, T+1)
	y := make([]float64, T)
	x[0] = 0.3 + rnd.NormFloat64()/math.Sqrt(2)
	for tt := 1; tt <= T; tt++ {
		x[tt] = a0*x[tt-1] + rnd.NormFloat64()
		y[tt-1] = c0*x[tt] + rnd.NormFloat64()/math.Sqrt(rho0)
	}
	post := infer.LDSPosterior{K: 1, T: T, X: x[1:], V: make([]float64, T), W: make([]float64, T-1),
		X0: x[:1], V0: []float64{0}, W0: []float64{0}}
	st := infer.NewLDSStats(1, 1, 0)
	st.AddSequence(&post, y, nil)
	var yy float64
	for _, v := range y {
		yy += v * v
	}
	s := completedStats(st, yy)
	// direct is Σ ln N(·) with the normalisers hoisted out of the sum.
	direct := func(a, c, rho float64) float64 {
		var dyn, out float64
		for tt := 1; tt <= T; tt++ {
			e, r := x[tt]-a*x[tt-1], y[tt-1]-c*x[tt]
			dyn += e * e
			out += r * r
		}
		return logNorm(x[0], 0.3, 2) - float64(T)*math.Log(2*math.Pi) + 0.5*float64(T)*math.Log(rho) - 0.5*dyn - 0.5*rho*out
	}
	for range 20 {
		a, c, rho := rnd.NormFloat64(), 2*rnd.NormFloat64(), math.Exp(rnd.NormFloat64())
		got, want := s.LogJoint(a, c, rho, csHyper), direct(a, c, rho)
		if math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
			t.Errorf("θ = (%.3g, %.3g, %.3g): LogJoint %.15g, direct %.15g", a, c, rho, got, want)
		}
	}

	seq := Sequence{Y: mat.NewDense(T, 1, y)}
	ann, err := NewAnnealed([]Sequence{seq}, 1, csHyper)
	if err != nil {
		t.Fatal(err)
	}
	th := make([]float64, 3)
	evals := 0
	g := func(a, c, lr float64) float64 {
		evals++
		th[0], th[1], th[2] = a, c, lr
		return ann.LogPrior(th) + direct(a, c, math.Exp(lr))
	}
	// The box: A | x ~ N(SA/(α+WA), 1/(α+WA)); C | ρ, x ~ N(SC/(γ+WC),
	// 1/(ρ(γ+WC))); ρ | x ~ Ga(a + T/2, b + G/2) (the posteriors whose
	// normalisers LogMarginal takes; a wrong one would cut mass and fail).
	al, ga := 2.0, 0.5
	mA, sA := s.SA/(al+s.WA), 1/math.Sqrt(al+s.WA)
	mC, pC := s.SC/(ga+s.WC), ga+s.WC
	shape, rate := 3+float64(T)/2, 1.5+(s.YY-s.SC*s.SC/pC)/2
	lrLo, lrHi := math.Log(shape/rate)-9, math.Log(shape/rate)+3
	ref := g(mA, mC, math.Log((shape-0.5)/rate))
	tol := numeric.QuadTol{Rel: 1e-9, Abs: 1e-13}
	var qerr error
	keep := func(err error) {
		if err != nil && qerr == nil {
			qerr = err
		}
	}
	z, err := numeric.Integrate(func(a float64) float64 {
		v, err := numeric.Integrate(func(lr float64) float64 {
			w := 12 / math.Sqrt(math.Exp(lr)*pC)
			v, err := numeric.Integrate(func(c float64) float64 { return math.Exp(g(a, c, lr) - ref) }, mC-w, mC+w, tol)
			keep(err)
			return v
		}, lrLo, lrHi, tol)
		keep(err)
		return v
	}, mA-12*sA, mA+12*sA, tol)
	keep(err)
	if qerr != nil {
		t.Fatal(qerr)
	}
	// The faces of the ln ρ range: the integrand there, maximised over A
	// and C, must be negligible.
	for _, lr := range []float64{lrLo, lrHi} {
		if d := g(mA, mC, lr) - ref; d > -60 {
			t.Errorf("ln ρ face %.3g is only %.3g nats below the reference", lr, -d)
		}
	}
	want := ref + math.Log(z)
	got := s.LogMarginal(csHyper)
	t.Logf("ln p(x, y): closed form %.12f, quadrature %.12f (%d evaluations)", got, want, evals)
	if math.Abs(got-want) > 1e-8 {
		t.Errorf("LogMarginal %.12f, quadrature %.12f (diff %.3g)", got, want, got-want)
	}
}

// denseChain returns the posterior mean and covariance of x_{0:T} given
// y_{1:T} under θ = (a, c, rho) and x_0 ~ N(mu0, 1/lam0), from the joint
// precision of the chain (tridiagonal) as one dense Gaussian.
func denseChain(y []float64, a, c, rho, mu0, lam0 float64) (m []float64, cov *mat.SymDense) {
	n := len(y) + 1
	j := mat.NewSymDense(n, nil)
	h := make([]float64, n)
	j.SetSym(0, 0, lam0)
	h[0] = lam0 * mu0
	for tt := 1; tt < n; tt++ {
		// −½(x_t − a x_{t−1})² − ½ρ(y_t − c x_t)².
		j.SetSym(tt, tt, j.At(tt, tt)+1+rho*c*c)
		j.SetSym(tt-1, tt-1, j.At(tt-1, tt-1)+a*a)
		j.SetSym(tt-1, tt, -a)
		h[tt] += rho * c * y[tt-1]
	}
	var ch mat.Cholesky
	if !ch.Factorize(j) {
		panic("denseChain: precision not positive definite")
	}
	cov = mat.NewSymDense(n, nil)
	if err := ch.InverseTo(cov); err != nil {
		panic(err)
	}
	mv := mat.NewVecDense(n, nil)
	mv.MulVec(cov, mat.NewVecDense(n, h))
	return mv.RawVector().Data, cov
}

// TestCSTermsDense checks CheesemanStutz term by term on one sequence of
// T = 3 against the posterior of x_{0:3} as one dense Gaussian (its joint
// precision inverted, so no recursion is shared with the smoother):
// the expected statistics (⟨Σ x_{t−1}²⟩ = Σ (m_{t−1}² + Σ_{t−1,t−1}), …)
// against the smoother's; ln p(y | θ̂) against ln p(x*, y | θ̂) −
// ln p(x* | y, θ̂) at the posterior mean x*; ln p(y | θ̂) − ln p(x̂, y |
// θ̂) against the entropy ½ ln|2πe Σ|; LnZ = LogMarginal + LogLik −
// LogJoint; and LogMarginal and LogJoint against the Stats' own. All to
// 1e-10 relative (a 4×4 inverse: round-off ~1e-15).
func TestCSTermsDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(72, 1))
	y := []float64{0.8, -0.4, 1.7}
	seq := Sequence{Y: mat.NewDense(3, 1, y)}
	for range 5 {
		a, c, rho := 1.2*rnd.NormFloat64(), 2*rnd.NormFloat64(), math.Exp(rnd.NormFloat64())
		res, err := CheesemanStutz([]Sequence{seq}, csParams(a, c, rho), csHyper)
		if err != nil {
			t.Fatal(err)
		}
		m, cov := denseChain(y, a, c, rho, 0.3, 2)
		e2 := func(i, j int) float64 { return m[i]*m[j] + cov.At(i, j) }
		var want CompletedStats
		for tt := 1; tt <= 3; tt++ {
			want.WA += e2(tt-1, tt-1)
			want.SA += e2(tt-1, tt)
			want.WC += e2(tt, tt)
			want.SC += m[tt] * y[tt-1]
			want.YY += y[tt-1] * y[tt-1]
		}
		want.X0, want.X0Sq, want.T, want.N = m[0], e2(0, 0), 3, 1
		got := res.Stats
		close := func(name string, g, w float64) {
			if math.Abs(g-w) > 1e-10*(1+math.Abs(w)) {
				t.Errorf("θ = (%.3g, %.3g, %.3g): %s %.15g, dense %.15g", a, c, rho, name, g, w)
			}
		}
		for _, q := range []struct {
			name string
			g, w float64
		}{{"WA", got.WA, want.WA}, {"SA", got.SA, want.SA}, {"WC", got.WC, want.WC}, {"SC", got.SC, want.SC},
			{"YY", got.YY, want.YY}, {"X0", got.X0, want.X0}, {"X0Sq", got.X0Sq, want.X0Sq}} {
			close(q.name, q.g, q.w)
		}
		if got.T != 3 || got.N != 1 {
			t.Errorf("T = %d, N = %d, want 3, 1", got.T, got.N)
		}
		// ln p(y|θ) = ln p(x*, y|θ) − ln p(x*|y, θ) at x* = m.
		lj := logNorm(m[0], 0.3, 2)
		for tt := 1; tt <= 3; tt++ {
			lj += logNorm(m[tt], a*m[tt-1], 1) + logNorm(y[tt-1], c*m[tt], rho)
		}
		var ch mat.Cholesky
		ch.Factorize(cov)
		logDet := ch.LogDet()
		close("LogLik", res.LogLik, lj+0.5*(4*math.Log(2*math.Pi)+logDet))
		close("LogLik − LogJoint (the entropy)", res.LogLik-res.LogJoint, 0.5*(4*(1+math.Log(2*math.Pi))+logDet))
		close("LnZ", res.LnZ, res.LogMarginal+res.LogLik-res.LogJoint)
		close("LogMarginal", res.LogMarginal, got.LogMarginal(csHyper))
		close("LogJoint", res.LogJoint, got.LogJoint(a, c, rho, csHyper))
	}
}

// chainEntropy returns the entropy of the Gauss–Markov posterior of
// x_{0:T} (k = 1) from its pairwise marginals: H = Σ_{t=1}^T H(x_{t−1},
// x_t) − Σ_{t=1}^{T−1} H(x_t).
func chainEntropy(post *infer.LDSPosterior) float64 {
	h1 := func(v float64) float64 { return 0.5 * math.Log(2*math.Pi*math.E*v) }
	h2 := func(v1, w, v2 float64) float64 { return math.Log(2*math.Pi*math.E) + 0.5*math.Log(v1*v2-w*w) }
	h := h2(post.V0[0], post.W0[0], post.V[0])
	for tt := 1; tt < post.T; tt++ {
		h += h2(post.V[tt-1], post.W[tt-1], post.V[tt]) - h1(post.V[tt-1])
	}
	return h
}

// emPoint runs ML EM with μ_0, Σ_0 fixed at csHyper's from the moments of
// y, as atlas/lds does, and returns θ̂.
func emPoint(t *testing.T, data []Sequence) *Params {
	t.Helper()
	var yy float64
	var n int
	for _, s := range data {
		for r := range s.Y.RawMatrix().Rows {
			yy += s.Y.At(r, 0) * s.Y.At(r, 0)
			n++
		}
	}
	yy /= float64(n)
	em, err := NewEM(data, csParams(0.5, math.Sqrt(yy/2), 2/yy), EMSettings{FixX0: true})
	if err != nil {
		t.Fatal(err)
	}
	r := vb.Run(em, vb.Settings{MaxIterations: 3000, Converger: &vb.BoundConverge{Relative: 1e-12, Absolute: 1e-10}})
	if err := r.Error(); err != nil {
		t.Fatal(err)
	}
	return em.Params()
}

// TestCSIsVBBound checks Beal (2003) Corollary 2.5 (eqs. 2.145-2.148)
// exactly: CS at θ̂ equals VB's bound F(q(x), q(θ)) at q(x) = p(x | y, θ̂)
// (the smoother at θ̂) and q(θ) the VBM step from q(x)'s statistics, F
// assembled independently of cs.go as ⟨ln p(x, y | θ)⟩ under q(x)q(θ) (from
// VB's expected natural parameters φ̄ and the statistics) + H[q(x)] (the
// chain's pairwise entropies) − the KL terms of VB's bound; to 1e-9
// relative (sums of ~100 terms of size ~10). Then that VB's next VBE step
// gives F ≥ CS (it maximises over q(x)), and that CS ≤ ln p(y) by
// LogEvidenceQuad (Theorem 2.3: CS is a lower bound, here by a margin far
// above the quadrature's error), at θ̂ from EM and at a point away from it
// (two sequences of T = 25 and 15).
func TestCSIsVBBound(t *testing.T) {
	rnd := rand.New(rand.NewPCG(73, 1))
	par := csParams(0.8, 1.1, 3)
	var data []Sequence
	for _, T := range []int{25, 15} {
		s, _ := Simulate(rnd, par, T, nil)
		data = append(data, s)
	}
	quad, err := LogEvidenceQuad(data, Hyper{Alpha: []float64{2}, Gamma: []float64{0.5}, NoiseShape: 3, NoiseRate: 1.5, Lambda0: []float64{2}}, QuadSettings{Points: 41})
	if err != nil {
		t.Fatal(err)
	}
	hq := csHyper
	hq.Mu0 = []float64{0} // LogEvidenceQuad needs μ_0 = 0
	for _, th := range []*Params{emPoint(t, data), csParams(0.3, -0.6, 1)} {
		res, err := CheesemanStutz(data, th, csHyper)
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewVB(data, Settings{K: 1, Hyper: csHyper}, rnd)
		if err != nil {
			t.Fatal(err)
		}
		phi, err := th.natural()
		if err != nil {
			t.Fatal(err)
		}
		m.stats.Zero()
		var h float64
		for i := range m.data.y {
			var post infer.LDSPosterior
			if err := m.ks.Smooth(&post, phi, m.data.y[i], nil); err != nil {
				t.Fatal(err)
			}
			m.stats.AddSequence(&post, m.data.y[i], nil)
			h += chainEntropy(&post)
		}
		st := m.stats
		m.M()
		q := m.phi
		// ⟨ln p(x, y | θ)⟩: the x_0 prior, the dynamics and the outputs.
		x0 := st.X0Outer[0] + st.X0Cov[0]
		el := float64(st.N)*0.5*math.Log(2/(2*math.Pi)) - 0.5*2*(x0-2*0.3*st.X0Sum[0]+float64(st.N)*0.09)
		T := float64(st.T)
		el += -0.5*(st.WC[0]-2*q.A[0]*st.SA[0]+q.AtA[0]*st.WA[0]) - 0.5*T*math.Log(2*math.Pi)
		el += 0.5*T*q.LogDetRho - 0.5*T*math.Log(2*math.Pi) - 0.5*(q.Rho[0]*m.data.yy[0]-2*q.RhoC[0]*st.SC[0]+q.CtRhoC[0]*st.WC[0])
		f := el + h
		for _, term := range m.bound().Terms[1:] {
			f += term.Value
		}
		if math.Abs(res.LnZ-f) > 1e-9*math.Abs(f) {
			t.Errorf("θ̂ = (%.4g, %.4g, %.4g): CS %.12f, F(p(x|y,θ̂), q*(θ)) %.12f", th.A.At(0, 0), th.C.At(0, 0), th.Rho[0], res.LnZ, f)
		}
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		if b.F < res.LnZ-1e-9*math.Abs(res.LnZ) {
			t.Errorf("VBE after the CS point: F %.10f < CS %.10f", b.F, res.LnZ)
		}
		// The bound needs the same prior as the quadrature: μ_0 = 0.
		th0 := th.Clone()
		th0.Mu0 = []float64{0}
		res0, err := CheesemanStutz(data, th0, hq)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("θ̂ = (%.4g, %.4g, %.4g): CS %.6f, F after VBE %.6f; μ_0 = 0: CS %.6f, ln p(y) %.6f ± %.1g",
			th.A.At(0, 0), th.C.At(0, 0), th.Rho[0], res.LnZ, b.F, res0.LnZ, quad.LnZ, quad.Err)
		if res0.LnZ > quad.LnZ+quad.Err {
			t.Errorf("CS %.6f above ln p(y) = %.6f ± %.2g", res0.LnZ, quad.LnZ, quad.Err)
		}
	}
}

// TestCSLongSequence compares CS at ML EM's point, + ln 2 for the mirror
// mode, with ln p(y) by LogEvidenceQuad on one long sequence whose states
// and parameters are well determined (T = 500 from A = 0.9, C = 1, ρ = 4;
// the priors of atlas/lds, μ_0 = 0, Σ_0 = 1). Observed: CS + ln 2 − ln p(y)
// = −3.57 nats (the quadrature's Err 0.04), VB's F + ln 2 −2.73: CS is VB's
// bound at a q(x)q(θ) of the smoother at θ̂ (TestCSIsVBBound), and what
// both miss is the correlation of the states with (A, C, ρ) that the
// factorisation drops. The test requires CS ≤ ln p(y) + Err (Theorem 2.3)
// and CS + ln 2 within 5 nats of ln p(y) (the observed error with a margin
// for the data's draw; it would fail by far for a wrong Occam factor,
// whose terms are hundreds of nats here). Not asserted: where the
// likelihood has a flat ridge in ρ the ML point can sit far out on it,
// and CS there inherits the prior C | ρ ~ N(0, 1/(γρ)) at ρ̂: from (0.9, 2,
// 10), ρ̂ ≈ 50 after 5000 EM iterations and CS + ln 2 is 117 nats low
// (at the true θ, 22), while BIC, which ignores the prior, is 4 high.
func TestCSLongSequence(t *testing.T) {
	if testing.Short() {
		t.Skip("quadrature over T = 500")
	}
	rnd := rand.New(rand.NewPCG(74, 1))
	par := &Params{A: mat.NewDense(1, 1, []float64{0.9}), C: mat.NewDense(1, 1, []float64{1}), Rho: []float64{4},
		Mu0: []float64{0}, Sigma0: mat.NewSymDense(1, []float64{1})}
	s, _ := Simulate(rnd, par, 500, nil)
	data := []Sequence{s}
	h := Hyper{Alpha: []float64{1}, Gamma: []float64{1}, NoiseShape: 2, NoiseRate: 1, Mu0: []float64{0}, Lambda0: []float64{1}}
	quad, err := LogEvidenceQuad(data, h, QuadSettings{Points: 41})
	if err != nil {
		t.Fatal(err)
	}
	em, err := NewEM(data, par.Clone(), EMSettings{FixX0: true})
	if err != nil {
		t.Fatal(err)
	}
	r := vb.Run(em, vb.Settings{MaxIterations: 5000, Converger: &vb.BoundConverge{Relative: 1e-12, Absolute: 1e-10}})
	if err := r.Error(); err != nil {
		t.Fatal(err)
	}
	if r.Status != vb.Converged {
		t.Fatalf("EM did not converge in %d iterations", r.Iterations)
	}
	res, err := CheesemanStutz(data, em.Params(), h)
	if err != nil {
		t.Fatal(err)
	}
	cs := res.LnZ + math.Ln2
	t.Logf("T = 500: CS + ln 2 = %.6f, ln p(y) = %.6f ± %.1g, error %.4f; EM %d iterations", cs, quad.LnZ, quad.Err, cs-quad.LnZ, r.Iterations)
	if res.LnZ > quad.LnZ+quad.Err {
		t.Errorf("CS %.6f above ln p(y) = %.6f ± %.2g", res.LnZ, quad.LnZ, quad.Err)
	}
	if math.Abs(cs-quad.LnZ) > 5 {
		t.Errorf("CS + ln 2 = %.4f is %.3g nats from ln p(y) = %.4f", cs, cs-quad.LnZ, quad.LnZ)
	}
}
