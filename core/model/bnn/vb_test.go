package bnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestOwenT checks owenT against an adaptive Gauss-Kronrod integral of
// its definition and against the closed forms T(0, a) = arctan(a)/2π and
// T(h, 1) = ½Φ(h)(1 − Φ(h)).
func TestOwenT(t *testing.T) {
	var worst float64
	for _, h := range []float64{0, 0.01, 0.3, 1, 2.5, 4, 6, 8, 10, 15, 25, 39} {
		for _, a := range []float64{1e-4, 0.05, 0.3, 0.7071, 0.95, 1} {
			want, err := numeric.Integrate(func(x float64) float64 {
				return math.Exp(-h*h*(1+x*x)/2) / (1 + x*x) / (2 * math.Pi)
			}, 0, a, numeric.QuadTol{Abs: 1e-18, Rel: 1e-15})
			if err != nil {
				t.Fatal(err)
			}
			got := owenT(h, a)
			worst = math.Max(worst, math.Abs(got-want))
			if math.Abs(got-want) > 2e-16 {
				t.Errorf("T(%v, %v) = %.17g, adaptive %.17g", h, a, got, want)
			}
			if owenT(-h, a) != got {
				t.Errorf("T(−h, a) ≠ T(h, a) at h = %v", h)
			}
		}
		phi := 0.5 * math.Erfc(-h/math.Sqrt2)
		if d := math.Abs(owenT(h, 1) - 0.5*phi*(1-phi)); d > 2e-16 {
			t.Errorf("T(%v, 1) off ½Φ(1−Φ) by %v", h, d)
		}
	}
	for _, a := range []float64{0.1, 0.5, 1} {
		if d := math.Abs(owenT(0, a) - math.Atan(a)/(2*math.Pi)); d > 1e-16 {
			t.Errorf("T(0, %v) off arctan(a)/2π by %v", a, d)
		}
	}
	t.Logf("largest |owenT − adaptive| = %.2g", worst)
}

// TestGMomentsMonteCarlo checks ⟨g(a)⟩ and ⟨g(a)²⟩ for a ~ N(μ, σ²)
// against 4·10⁵ draws (at 4.5 standard errors), σ → 0 against g(μ), g(μ)²,
// and their derivatives against central differences.
func TestGMomentsMonteCarlo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	const n = 400000
	for _, c := range [][2]float64{{0, 1}, {0.5, 0.04}, {-1.3, 2.5}, {2, 9}, {0.1, 100}, {-4, 0.5}} {
		mu, v := c[0], c[1]
		e1, e2 := gMoments(mu, v, nil)
		var s1, s2, q1, q2 float64
		for range n {
			g := G(mu + math.Sqrt(v)*r.NormFloat64())
			s1 += g
			q1 += g * g
			s2 += g * g
			q2 += g * g * g * g
		}
		m1, m2 := s1/n, s2/n
		se1, se2 := math.Sqrt((q1/n-m1*m1)/n), math.Sqrt((q2/n-m2*m2)/n)
		if math.Abs(e1-m1) > 4.5*se1 || math.Abs(e2-m2) > 4.5*se2 {
			t.Errorf("μ=%v σ²=%v: ⟨g⟩ = %.5f (MC %.5f ± %.5f), ⟨g²⟩ = %.5f (MC %.5f ± %.5f)", mu, v, e1, m1, se1, e2, m2, se2)
		}
		var d [4]float64
		gMoments(mu, v, &d)
		hh := 1e-6
		p1, p2 := gMoments(mu+hh, v, nil)
		n1, n2 := gMoments(mu-hh, v, nil)
		q1v, q2v := gMoments(mu, v+hh, nil)
		r1v, r2v := gMoments(mu, v-hh, nil)
		fd := [4]float64{(p1 - n1) / (2 * hh), (q1v - r1v) / (2 * hh), (p2 - n2) / (2 * hh), (q2v - r2v) / (2 * hh)}
		for i := range d {
			if math.Abs(d[i]-fd[i]) > 1e-7*(1+math.Abs(fd[i])) {
				t.Errorf("μ=%v σ²=%v: derivative %d = %v, finite difference %v", mu, v, i, d[i], fd[i])
			}
		}
	}
	for _, mu := range []float64{-2, 0.3, 1.7} {
		e1, e2 := gMoments(mu, 0, nil)
		if math.Abs(e1-G(mu)) > 1e-15 || math.Abs(e2-G(mu)*G(mu)) > 1e-14 {
			t.Errorf("σ² = 0, μ = %v: moments %v, %v; want %v, %v", mu, e1, e2, G(mu), G(mu)*G(mu))
		}
	}
}

// toyProblem draws the data of the toy of Fig. 5.3 (L2126-2128) with n
// points.
func toyProblem(t testing.TB, n, hidden int, seed uint64) *Problem {
	r := rand.New(rand.NewPCG(seed, 1))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		c := 0.125
		if i >= n/2 {
			c = 0.625
		}
		xi := c + 0.25*r.NormFloat64()
		x[i] = []float64{xi}
		y[i] = 0.5 + 0.4*math.Sin(2*math.Pi*xi) + 0.05*r.NormFloat64()
	}
	p, err := NewProblem(Arch{In: 1, Hidden: hidden}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// randomState sets v's parameters to a random point of moderate scale.
func randomState(v *VB, r *rand.Rand) {
	for m := range v.q {
		for j := range v.mean[m] {
			v.mean[m][j] = r.NormFloat64()
			v.logs[m][j] = -1 + 0.5*r.NormFloat64()
			if v.rmean != nil {
				v.rmean[m][j] = v.mean[m][j] + 0.3*r.NormFloat64()
				v.rlogs[m][j] = -0.5 + 0.5*r.NormFloat64()
			}
		}
		if v.rmean != nil {
			v.loglam[m] = 0.3 * r.NormFloat64()
		}
	}
	v.fresh = false
}

// TestExpectEDMonteCarlo checks the closed-form ⟨E_D⟩ and the predictive
// moments under a diagonal Gaussian against draws of w.
func TestExpectEDMonteCarlo(t *testing.T) {
	p := toyProblem(t, 12, 3, 7)
	r := rand.New(rand.NewPCG(11, 13))
	v, err := NewVB(p, Grouped, VBSettings{}, r)
	if err != nil {
		t.Fatal(err)
	}
	randomState(v, r)
	a := v.arch
	want := a.expectED(v.mean[0], v.logs[0], p.X, p.T, v.sc, nil, nil)
	const n = 200000
	w := make([]float64, a.NumWeights())
	var s, q float64
	for range n {
		for j := range w {
			w[j] = v.mean[0][j] + math.Exp(v.logs[0][j])*r.NormFloat64()
		}
		e := a.ErrorGrad(w, p.X, p.T, nil, nil)
		s += e
		q += e * e
	}
	m := s / n
	se := math.Sqrt((q/n - m*m) / n)
	if math.Abs(m-want) > 4.5*se {
		t.Errorf("⟨E_D⟩ = %v, Monte Carlo %v ± %v", want, m, se)
	}
}

// TestBoundGradient checks the gradient of the bound in every continuous
// parameter against central differences, for the diagonal posterior and
// mixtures, group priors and NRD, q(α), q(β) fitted and fixed.
func TestBoundGradient(t *testing.T) {
	for _, c := range []struct {
		prior Prior
		m     int
		fix   bool
	}{{Grouped, 1, false}, {NRD, 1, false}, {ARD, 3, false}, {Grouped, 2, true}, {NRD, 3, false}} {
		t.Run(fmt.Sprintf("%v/M=%d/fix=%v", c.prior, c.m, c.fix), func(t *testing.T) {
			p := toyProblem(t, 9, 3, 5)
			r := rand.New(rand.NewPCG(2, uint64(c.m)))
			v, err := NewVB(p, c.prior, VBSettings{FixHyper: c.fix, InitBeta: 20}, r)
			if err != nil {
				t.Fatal(err)
			}
			if c.m > 1 {
				v = v.spread(VBSettings{Components: c.m, FixHyper: c.fix, InitBeta: 20}.withDefaults(), r)
			}
			randomState(v, r)
			if !c.fix {
				v.updateHyper()
			}
			x := make([]float64, v.numParams())
			v.pack(x, false)
			g := make([]float64, len(x))
			v.objective(x, g, false)
			fd := vbtest.FDGradient(func(y []float64) float64 { return v.objective(y, nil, false) }, x, 1e-6)
			for i := range g {
				if math.Abs(g[i]-fd[i]) > 1e-6*(1+math.Abs(fd[i])) {
					t.Errorf("∂(−F)/∂θ[%d] = %.9g, finite difference %.9g", i, g[i], fd[i])
				}
			}
		})
	}
}

// TestBoundBelowEvidence checks F ≤ ln p(D|α, β) on a 1-1-1 network
// (K = 4 weights, α and β fixed), where ln p(D|α, β) is estimated by
// importance sampling: 4·10⁵ draws from the defensive mixture of the prior
// and of q(w) and its mirror image (u, b, v) → (−u, −b, −v), widened
// threefold. The estimate's standard error is computed and required below
// 0.01 nats.
func TestBoundBelowEvidence(t *testing.T) {
	p := toyProblem(t, 8, 1, 21)
	r := rand.New(rand.NewPCG(4, 4))
	const alpha, beta = 1.0, 25.0
	for _, m := range []int{1, 3} {
		v, err := FitVB(p, Single, VBSettings{FixHyper: true, InitAlpha: []float64{alpha}, InitBeta: beta, Components: m}, r)
		if err != nil {
			t.Fatal(err)
		}
		f := v.Bound().F
		k := p.NumWeights()
		logJoint := func(w []float64) float64 {
			e := p.ErrorGrad(w, p.X, p.T, nil, nil)
			var ww float64
			for _, x := range w {
				ww += x * x
			}
			n := float64(len(p.T))
			return n/2*math.Log(beta/(2*math.Pi)) - beta*e + float64(k)/2*math.Log(alpha/(2*math.Pi)) - alpha*ww/2
		}
		mean, sd := v.Mean(0)
		mirror := append([]float64(nil), mean...)
		for j := 0; j < 3; j++ { // u, b, v₀ change sign; the output bias does not
			mirror[j] = -mirror[j]
		}
		logN := func(w, mu []float64, s func(int) float64) float64 {
			var l float64
			for j := range w {
				z := (w[j] - mu[j]) / s(j)
				l += -0.5*z*z - math.Log(s(j)) - 0.5*ln2pi
			}
			return l
		}
		priorSD := func(int) float64 { return 1 / math.Sqrt(alpha) }
		wideSD := func(j int) float64 { return 3*sd[j] + 0.05 }
		zero := make([]float64, k)
		const n = 400000
		lw := make([]float64, n)
		w := make([]float64, k)
		for i := range lw {
			switch c := r.IntN(4); {
			case c < 2:
				for j := range w {
					w[j] = priorSD(j) * r.NormFloat64()
				}
			default:
				mu := mean
				if c == 3 {
					mu = mirror
				}
				for j := range w {
					w[j] = mu[j] + wideSD(j)*r.NormFloat64()
				}
			}
			lq := numeric.LogSumExp([]float64{math.Log(0.5) + logN(w, zero, priorSD),
				math.Log(0.25) + logN(w, mean, wideSD), math.Log(0.25) + logN(w, mirror, wideSD)})
			lw[i] = logJoint(w) - lq
		}
		lmax := lw[0]
		for _, x := range lw {
			lmax = math.Max(lmax, x)
		}
		var s, q float64
		for _, x := range lw {
			e := math.Exp(x - lmax)
			s += e
			q += e * e
		}
		mu := s / n
		se := math.Sqrt((q/n-mu*mu)/n) / mu // of ln p̂, by the delta method
		lnp := lmax + math.Log(mu)
		t.Logf("M=%d: F = %.4f, ln p(D|α,β) ≈ %.4f ± %.4f, gap %.4f", m, f, lnp, se, lnp-f)
		if se > 0.01 {
			t.Fatalf("importance-sampling standard error %v too large for the check", se)
		}
		if f > lnp+4*se {
			t.Errorf("M=%d: bound %v above ln p(D|α, β) = %v ± %v", m, f, lnp, se)
		}
	}
}

// TestMixtureOfIdenticalComponents checks the mixture's bound against the
// diagonal posterior's: M copies of the diagonal q with any mixing
// coefficients are the same q(w), so every term but the entropy's agrees
// exactly, and with broad smoothing distributions and λ at its optimum the
// mutual-information bound tends to the true mutual information, 0, from
// below: the mixture's F approaches the diagonal's and never exceeds it.
func TestMixtureOfIdenticalComponents(t *testing.T) {
	p := toyProblem(t, 10, 2, 3)
	r := rand.New(rand.NewPCG(8, 8))
	d, err := NewVB(p, Grouped, VBSettings{InitBeta: 30}, r)
	if err != nil {
		t.Fatal(err)
	}
	randomState(d, r)
	d.updateHyper()
	fd := d.Bound()
	for _, m := range []int{1, 2, 4} {
		w := d.spread(VBSettings{Components: m, Jitter: 1e-300, InitBeta: 30}.withDefaults(), r)
		for c := range w.q {
			w.q[c] = float64(c+1) / float64(m*(m+1)/2)
			copy(w.mean[c], d.mean[0])
			copy(w.rmean[c], d.mean[0])
			for j := range w.rlogs[c] {
				w.rlogs[c][j] = d.logs[0][j] + 8 // ρ = e⁸ s
			}
		}
		w.fresh = false
		w.updateLambda()
		fm := w.Bound()
		for i, tm := range fm.Terms {
			if tm.Name == termMI {
				continue
			}
			want, _ := termValue(fd, tm.Name)
			if math.Abs(tm.Value-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("M=%d: term %d %s = %v, diagonal %v", m, i, tm.Name, tm.Value, want)
			}
		}
		if fm.F > fd.F+1e-9 || fd.F-fm.F > 1e-5 {
			t.Errorf("M=%d: F = %.9f, diagonal %.9f", m, fm.F, fd.F)
		}
	}
}

func termValue(b vb.Bound, name string) (float64, bool) {
	for _, t := range b.Terms {
		if t.Name == name {
			return t.Value, true
		}
	}
	return 0, false
}

// TestFixedPointsMaximise checks that the updates of Q(m), λ, q(α) and q(β)
// never lower the bound from random states, and that the Q and λ updates
// are maxima: random perturbations of their results give a bound no
// higher.
func TestFixedPointsMaximise(t *testing.T) {
	p := toyProblem(t, 10, 3, 9)
	for seed := range uint64(5) {
		r := rand.New(rand.NewPCG(seed, 77))
		prior := []Prior{Grouped, NRD, ARD, Single, NRD}[seed]
		d, err := NewVB(p, prior, VBSettings{InitBeta: 30}, r)
		if err != nil {
			t.Fatal(err)
		}
		v := d.spread(VBSettings{Components: 3, InitBeta: 30}.withDefaults(), r)
		randomState(v, r)
		for _, step := range []struct {
			name string
			f    func()
		}{{"lambda", v.updateLambda}, {"Q", v.updateMixing}, {"hyper", v.updateHyper}, {"lambda", v.updateLambda}} {
			f0 := v.Bound().F
			step.f()
			f1 := v.Bound().F
			if f1 < f0-1e-9*math.Max(1, math.Abs(f0)) {
				t.Errorf("seed %d: the %s update lowered F from %.10g to %.10g", seed, step.name, f0, f1)
			}
		}
		v.updateMixing()
		f := v.Bound().F
		q0 := v.Mixing()
		for range 20 {
			var s float64
			for c := range v.q {
				v.q[c] = q0[c] * math.Exp(0.2*r.NormFloat64())
				s += v.q[c]
			}
			for c := range v.q {
				v.q[c] /= s
			}
			v.fresh = false
			if g := v.Bound().F; g > f+1e-9*math.Abs(f) {
				t.Errorf("seed %d: a perturbed Q(m) has F %.10g above the fixed point's %.10g", seed, g, f)
			}
		}
		copy(v.q, q0)
		v.fresh = false
		v.updateLambda()
		f = v.Bound().F
		l0 := append([]float64(nil), v.loglam...)
		for range 20 {
			for c := range v.loglam {
				v.loglam[c] = l0[c] + 0.2*r.NormFloat64()
			}
			v.fresh = false
			if g := v.Bound().F; g > f+1e-9*math.Abs(f) {
				t.Errorf("seed %d: a perturbed λ has F %.10g above the fixed point's %.10g", seed, g, f)
			}
		}
	}
}

// TestModelConformance runs the conformance suite of core/vbtest on the
// diagonal posterior and on mixtures, with q(α), q(β) fitted and fixed,
// under group priors and NRD. E allocates once (the copy of the terms it
// returns, which a recorder may keep); M never allocates.
func TestModelConformance(t *testing.T) {
	for _, c := range []struct {
		prior Prior
		m     int
		fix   bool
	}{{Grouped, 1, true}, {Grouped, 1, false}, {NRD, 1, false}, {ARD, 3, false}, {Grouped, 2, true}} {
		t.Run(fmt.Sprintf("%v/M=%d/fix=%v", c.prior, c.m, c.fix), func(t *testing.T) {
			p := toyProblem(t, 12, 3, 5)
			vbtest.CheckModel(t, func() vb.Model {
				r := rand.New(rand.NewPCG(6, 6))
				s := VBSettings{FixHyper: c.fix, Components: c.m, WeightIterations: 5, SmoothIterations: 5, StartIterations: 20}
				v, err := NewVB(p, c.prior, s, r)
				if err != nil {
					t.Fatal(err)
				}
				if c.m > 1 {
					v = v.spread(s.withDefaults(), r)
				}
				return v
			}, vbtest.CheckOptions{Iterations: 5, EAllocs: 1})
		})
	}
}

// TestNRDPrecisionNodes checks the node structure of eq. 6.32 on a 2-2-1
// network and the shapes of eqs. 6.44, 6.46 and 6.48 (the weights each
// node carries).
func TestNRDPrecisionNodes(t *testing.T) {
	a := Arch{In: 2, Hidden: 2}
	// layout: u_00 u_01 b_0 u_10 u_11 b_1 | v_0 v_1 v_bias
	// nodes: inputs 0 1, input bias 2, hidden 3 4, hidden bias 5, output 6
	n, f, s := a.PrecisionNodes(NRD)
	wantF := []int{0, 1, 2, 0, 1, 2, 3, 4, 5}
	wantS := []int{3, 3, 3, 4, 4, 4, 6, 6, 6}
	if n != 7 {
		t.Fatalf("%d nodes, want 7", n)
	}
	for k := range f {
		if f[k] != wantF[k] || s[k] != wantS[k] {
			t.Fatalf("nodes %v / %v, want %v / %v", f, s, wantF, wantS)
		}
	}
	p := toyProblem(t, 5, 2, 1)
	p.Arch = a
	for i := range p.X {
		p.X[i] = []float64{p.X[i][0], -p.X[i][0]}
	}
	v, err := NewVB(p, NRD, VBSettings{Mean: make([]float64, a.NumWeights())}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Shapes: a + H/2 per input node, a + (I+2)/2 per hidden node, a + (H+1)/2 at the output.
	want := []int{2, 2, 2, 4, 4, 1, 3}
	for j, c := range v.count {
		if c != want[j] {
			t.Errorf("node %d carries %d weights, want %d", j, c, want[j])
		}
	}
	// Under group priors PrecisionNodes is Arch.Groups with no second node.
	ng, g := a.Groups(Grouped)
	n, f, s = a.PrecisionNodes(Grouped)
	for k := range f {
		if n != ng || f[k] != g[k] || s[k] != -1 {
			t.Fatalf("Grouped: PrecisionNodes %d %v %v, Groups %d %v", n, f, s, ng, g)
		}
	}
}

// TestNRDRemovesIdleUnit fits NRD to data a network of one hidden unit
// explains exactly, with three hidden units: node removal must take the
// network down, and every accepted removal raised the bound (vb.Run's
// monotone check inside FitVB).
func TestNRDRemovesIdleUnit(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 3))
	n := 40
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		xi := r.Float64()*2 - 1
		x[i] = []float64{xi}
		y[i] = 0.8*G(1.5*xi) + 0.02*r.NormFloat64()
	}
	p, err := NewProblem(Arch{In: 1, Hidden: 3}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	v, err := FitVB(p, NRD, VBSettings{Prune: true, InitBeta: 100, Rounds: 10}, r)
	if err != nil {
		t.Fatal(err)
	}
	gamma := v.EffectiveParameters()
	t.Logf("hidden units kept %d (removed %d), γ %v, F %.3f", v.Arch().Hidden, v.Pruned(), gamma, v.Bound().F)
	if v.Arch().Hidden+v.Pruned() != 3 {
		t.Errorf("kept %d + removed %d ≠ 3", v.Arch().Hidden, v.Pruned())
	}
	if v.Pruned() == 0 {
		t.Errorf("no hidden unit removed from a 3-unit network on data of one unit")
	}
}

// TestNRDRemovesIrrelevantInput fits NRD with input removal to data whose
// second input is noise the target does not depend on: the input must go,
// Predict must keep taking inputs of the original length, and the bound
// never fell (vb.Run's check inside FitVB).
func TestNRDRemovesIrrelevantInput(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	n := 60
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = []float64{r.Float64()*2 - 1, r.NormFloat64(), r.Float64()*2 - 1}
		y[i] = 0.6*G(2*x[i][0]) - 0.4*x[i][2] + 0.03*r.NormFloat64()
	}
	p, err := NewProblem(Arch{In: 3, Hidden: 2}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	v, err := FitVB(p, NRD, VBSettings{Prune: true, PruneInputs: true, InitBeta: 100, Rounds: 8}, r)
	if err != nil {
		t.Fatal(err)
	}
	in := v.Inputs()
	t.Logf("inputs kept %v (removed %d), hidden %d, F %.3f", in, v.PrunedInputs(), v.Arch().Hidden, v.Bound().F)
	for _, i := range in {
		if i == 1 {
			t.Errorf("the irrelevant input 1 was kept: inputs %v", in)
		}
	}
	if len(in)+v.PrunedInputs() != 3 || v.Arch().In != len(in) {
		t.Errorf("inputs %v, removed %d, network %d inputs", in, v.PrunedInputs(), v.Arch().In)
	}
	m, s2 := v.Predict([]float64{0.5, 100, -0.5}) // input 1 ignored
	m2, _ := v.Predict([]float64{0.5, -100, -0.5})
	want := 0.6*G(1) + 0.2
	if m != m2 || math.Abs(m-want) > 0.1 || !(s2 > 0) {
		t.Errorf("Predict = %v (%v with input 1 changed), var %v; truth %v", m, m2, s2, want)
	}
}

// TestMixtureNodeRemoval runs node removal on a three-component mixture
// (the smoothing distributions lose the unit's weights with q(w)): the run
// ends normally (every round and every accepted removal raised the bound),
// and the smaller mixture's gradient still matches finite differences.
func TestMixtureNodeRemoval(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	n := 30
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		xi := r.Float64()*2 - 1
		x[i] = []float64{xi}
		y[i] = 0.8*G(1.5*xi) + 0.02*r.NormFloat64()
	}
	p, err := NewProblem(Arch{In: 1, Hidden: 3}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	v, err := FitVB(p, NRD, VBSettings{Prune: true, InitBeta: 100, Rounds: 6, Components: 3}, r)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hidden %d (removed %d), F %.3f", v.Arch().Hidden, v.Pruned(), v.Bound().F)
	if v.Arch().Hidden+v.Pruned() != 3 || v.Components() != 3 {
		t.Fatalf("hidden %d + removed %d, %d components", v.Arch().Hidden, v.Pruned(), v.Components())
	}
	xv := make([]float64, v.numParams())
	v.pack(xv, false)
	g := make([]float64, len(xv))
	v.objective(xv, g, false)
	fd := vbtest.FDGradient(func(y []float64) float64 { return v.objective(y, nil, false) }, xv, 1e-6)
	for i := range g {
		if math.Abs(g[i]-fd[i]) > 1e-5*(1+math.Abs(fd[i])) {
			t.Errorf("after removal: ∂(−F)/∂θ[%d] = %v, finite difference %v", i, g[i], fd[i])
		}
	}
}
