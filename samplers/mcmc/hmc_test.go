package mcmc

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// gauss2 is the correlated Gaussian N(0, Σ) with Σ = [[1, r], [r, 1]],
// all of it in LogPrior (LogLik is zero).
type gauss2 struct{ r float64 }

func (g gauss2) LogPrior(x []float64) float64 {
	d := 1 - g.r*g.r
	return -(x[0]*x[0] - 2*g.r*x[0]*x[1] + x[1]*x[1]) / (2 * d)
}
func (g gauss2) LogLik([]float64) float64 { return 0 }
func (g gauss2) GradLogPrior(dst, x []float64) {
	d := 1 - g.r*g.r
	dst[0] = -(x[0] - g.r*x[1]) / d
	dst[1] = -(x[1] - g.r*x[0]) / d
}
func (g gauss2) GradLogLik(dst, _ []float64) { clear(dst) }

// draw returns an exact draw of N(0, Σ).
func (g gauss2) draw(rnd *rand.Rand) (float64, float64) {
	a, b := rnd.NormFloat64(), rnd.NormFloat64()
	return a, g.r*a + math.Sqrt(1-g.r*g.r)*b
}

// banana is x₁ ~ N(0, 1), x₂ | x₁ ~ N(b(x₁² − 1), 1): E x₂ = 0,
// Var x₂ = 1 + 2b², a curved correlated target (Haario et al. 1999),
// split into a prior (x₁) and a likelihood (x₂ | x₁) term.
type banana struct{ b float64 }

func (t banana) LogPrior(x []float64) float64 { return -x[0] * x[0] / 2 }
func (t banana) LogLik(x []float64) float64 {
	d := x[1] - t.b*(x[0]*x[0]-1)
	return -d * d / 2
}
func (t banana) GradLogPrior(dst, x []float64) { dst[0], dst[1] = -x[0], 0 }
func (t banana) GradLogLik(dst, x []float64) {
	d := x[1] - t.b*(x[0]*x[0]-1)
	dst[0], dst[1] = 2*t.b*x[0]*d, -d
}

// twoModes is ½N(−μ, 1) + ½N(μ, 1) in one dimension.
type twoModes struct{ mu float64 }

func (t twoModes) LogPrior(x []float64) float64 {
	a, b := -(x[0]-t.mu)*(x[0]-t.mu)/2, -(x[0]+t.mu)*(x[0]+t.mu)/2
	m := max(a, b)
	return m + math.Log(math.Exp(a-m)+math.Exp(b-m))
}
func (t twoModes) LogLik([]float64) float64 { return 0 }
func (t twoModes) GradLogPrior(dst, x []float64) {
	a, b := -(x[0]-t.mu)*(x[0]-t.mu)/2, -(x[0]+t.mu)*(x[0]+t.mu)/2
	wa := 1 / (1 + math.Exp(b-a))
	dst[0] = -wa*(x[0]-t.mu) - (1-wa)*(x[0]+t.mu)
}
func (t twoModes) GradLogLik(dst, _ []float64) { clear(dst) }

func fixed(eps float64) func(float64) float64 { return func(float64) float64 { return eps } }

// trace runs plan on an HMC and returns the kept values of each
// coordinate, and of each coordinate squared.
func trace(h *HMC, x0 []float64, plan Plan, rnd *rand.Rand) (xs, sq [][]float64) {
	d := len(x0)
	xs, sq = make([][]float64, d), make([][]float64, d)
	for j := range d {
		xs[j], sq[j] = make([]float64, plan.Keep), make([]float64, plan.Keep)
	}
	pt := NewPoint[[]float64](h.Target, append([]float64(nil), x0...))
	Run[[]float64](h, &pt, 1, plan, rnd, func(i int, pt *Point[[]float64]) {
		for j, v := range pt.X {
			xs[j][i], sq[j][i] = v, v*v
		}
	})
	return xs, sq
}

// meanSE returns the mean of the pooled chains and its standard error
// sd/√ESS with the ESS pooled over the chains.
func meanSE(chains [][]float64) (float64, float64) {
	var s, s2 float64
	n := 0
	for _, c := range chains {
		for _, v := range c {
			s += v
			s2 += v * v
			n++
		}
	}
	m := s / float64(n)
	sd := math.Sqrt(s2/float64(n) - m*m)
	return m, sd / math.Sqrt(ESSChains(chains))
}

// Persistent HMC (ρ = 0.95, two leapfrog steps a transition, Neal 1996's
// regime) on a correlated Gaussian: four chains, run as cells of
// core/parallel; means 0 and variances 1 within 4 standard errors
// computed from the pooled ESS, and R̂ near 1.
func TestHMCGaussianMoments(t *testing.T) {
	g := gauss2{r: 0.8}
	plan := Plan{Burn: 500, Keep: 20000}
	type out struct{ xs, sq [][]float64 }
	res, err := Chains(4, 0, 7, []string{"hmc", "gauss2"}, func(c int, rnd *rand.Rand) (out, error) {
		h := &HMC{Target: g, Steps: 2, StepSize: fixed(0.3), Persistence: 0.95}
		x0 := []float64{3 - 2*float64(c), 1}
		xs, sq := trace(h, x0, plan, rnd)
		if r := h.Stats.Rate(); !(r > 0.5 && r < 1) {
			t.Errorf("chain %d: acceptance %g, want in (0.5, 1)", c, r)
		}
		if m := h.SumAcceptProb / float64(h.Stats.Proposed); math.Abs(m-h.Stats.Rate()) > 0.02 {
			t.Errorf("chain %d: mean acceptance probability %g against the rate %g", c, m, h.Stats.Rate())
		}
		return out{xs, sq}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for j := range 2 {
		var cx, cs [][]float64
		for _, o := range res {
			cx, cs = append(cx, o.xs[j]), append(cs, o.sq[j])
		}
		if m, se := meanSE(cx); math.Abs(m) > 4*se || se > 0.05 {
			t.Errorf("x%d: mean %.4f ± %.4f, want 0 within 4 se (se < 0.05)", j, m, se)
		}
		if v, se := meanSE(cs); math.Abs(v-1) > 4*se || se > 0.05 {
			t.Errorf("x%d: E x² %.4f ± %.4f, want 1 within 4 se", j, v, se)
		}
		if r := SplitRHat(cx); !(r < 1.02) {
			t.Errorf("x%d: R̂ = %.4f for mixed chains, want < 1.02", j, r)
		}
	}
}

// On the banana the moments E x₂ = 0 and Var x₂ = 1 + 2b² hold within 4
// standard errors, and E x₁² = 1.
func TestHMCBanana(t *testing.T) {
	b := banana{b: 1}
	plan := Plan{Burn: 200, Keep: 20000, Thin: 1}
	type out struct{ xs, sq [][]float64 }
	res, err := Chains(4, 0, 11, []string{"hmc", "banana"}, func(c int, rnd *rand.Rand) (out, error) {
		h := &HMC{Target: b, Steps: 10, StepSize: fixed(0.15)}
		xs, sq := trace(h, []float64{0, 0}, plan, rnd)
		return out{xs, sq}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pick := func(j int, sq bool) [][]float64 {
		var cs [][]float64
		for _, o := range res {
			if sq {
				cs = append(cs, o.sq[j])
			} else {
				cs = append(cs, o.xs[j])
			}
		}
		return cs
	}
	for _, c := range []struct {
		name string
		j    int
		sq   bool
		want float64
	}{{"E x1", 0, false, 0}, {"E x1²", 0, true, 1}, {"E x2", 1, false, 0}, {"E x2²", 1, true, 1 + 2*b.b*b.b}} {
		m, se := meanSE(pick(c.j, c.sq))
		if math.Abs(m-c.want) > 4*se || se > 0.1 {
			t.Errorf("%s = %.4f ± %.4f, want %g within 4 se (se < 0.1)", c.name, m, se, c.want)
		}
	}
	if r := SplitRHat(pick(1, false)); !(r < 1.05) {
		t.Errorf("R̂ of x2 = %.4f, want < 1.05", r)
	}
}

// invariance starts chains at exact draws of the correlated Gaussian,
// makes c.transitions persistent transitions of three leapfrog steps (with
// a large step: many rejections, so the negation of the momentum matters)
// and returns the χ² p-values of x₁ in ten equiprobable bins and of the
// Mahalanobis radius in ten.
func invariance(c invCase, seed uint64) (float64, float64) {
	g := gauss2{r: 0.6}
	rnd := rand.New(rand.NewPCG(seed, 77))
	h := &HMC{Target: g, Steps: 3, StepSize: fixed(c.eps), Persistence: c.rho, Scale: c.scale,
		brokenKick: c.brokenKick, keepOnReject: c.keepOnReject}
	const bins, n = 10, 30000
	cx, cr := make([]int, bins), make([]int, bins)
	pt := Point[[]float64]{X: make([]float64, 2)}
	norm := distuv.UnitNormal
	for range n {
		pt.X[0], pt.X[1] = g.draw(rnd)
		pt.LogPrior, pt.LogLik = g.LogPrior(pt.X), 0
		h.ResetMomentum()
		for range c.transitions {
			h.Step(&pt, 1, rnd)
		}
		cx[min(int(norm.CDF(pt.X[0])*bins), bins-1)]++
		r2 := -2 * g.LogPrior(pt.X) // χ²₂: CDF 1 − exp(−r²/2)
		cr[min(int((1-math.Exp(-r2/2))*bins), bins-1)]++
	}
	want := make([]float64, bins)
	for i := range want {
		want[i] = 1.0 / bins
	}
	return chiSquareP(cx, want), chiSquareP(cr, want)
}

// invCase is a setting of the invariance test, and its broken variants.
type invCase struct {
	transitions              int
	eps, rho                 float64
	scale                    []float64
	brokenKick, keepOnReject bool
}

var (
	invShort = invCase{transitions: 3, eps: 0.9, rho: 0.8}
	invLong  = invCase{transitions: 10, eps: 0.7, rho: 0.99}
	invScale = invCase{transitions: 3, eps: 0.6, rho: 0.8, scale: []float64{1.3, 0.7}}
)

// Exact draws of the target stay distributed as the target after
// persistent HMC transitions (Pearson's test on two statistics), also with
// per-coordinate steps.
func TestHMCInvariance(t *testing.T) {
	for _, c := range []invCase{invShort, invLong, invScale} {
		px, pr := invariance(c, 1)
		if px < 1e-3 || pr < 1e-3 {
			t.Errorf("%+v: χ² p = %.3g (x₁), %.3g (radius): want ≥ 1e-3", c, px, pr)
		}
	}
}

// The same test rejects a leapfrog whose first half kick is a full kick (a
// volume-preserving but non-reversible map), and persistence without the
// negation of the momentum on rejection.
func TestHMCInvarianceDetectsBrokenKernels(t *testing.T) {
	kick := invShort
	kick.brokenKick = true
	keep := invLong
	keep.keepOnReject = true
	scaleKick := invScale
	scaleKick.brokenKick = true
	for _, c := range []invCase{kick, keep, scaleKick} {
		px, pr := invariance(c, 1)
		if min(px, pr) > 1e-6 {
			t.Errorf("%+v: broken kernel not detected: χ² p = %.3g (x₁), %.3g (radius)", c, px, pr)
		}
	}
}

// Persistence carries the momentum: a rejected transition negates the
// refreshed momentum, an accepted one keeps the end point's.
func TestHMCPersistentMomentum(t *testing.T) {
	g := gauss2{r: 0}
	src := rand.NewPCG(3, 3)
	rnd := rand.New(src)
	h := &HMC{Target: g, Steps: 1, StepSize: fixed(1e-3), Persistence: 0.5}
	pt := NewPoint[[]float64](g, []float64{0.1, 0.2})
	if h.Momentum() != nil {
		t.Fatal("momentum before the first step")
	}
	h.Step(&pt, 1, rnd)
	if h.Stats.Accepted != 1 {
		t.Fatalf("a tiny step was rejected: %+v", h.Stats)
	}
	p1 := append([]float64(nil), h.Momentum()...)
	// A huge step from a point far in the tail is rejected (the
	// trajectory flies off): the momentum is the negated refresh.
	h.StepSize = fixed(50)
	pt = NewPoint[[]float64](g, []float64{0, 0})
	saved := *src // the stream as the Step will see it
	ref := rand.New(&saved)
	h.Step(&pt, 1, rnd)
	if h.Stats.Accepted != 1 || h.Stats.Proposed != 2 {
		t.Fatalf("a step of 50 on a unit Gaussian was accepted: %+v, ΔH %g", h.Stats, h.LastDeltaH)
	}
	ref.Float64() // the jitter
	c := math.Sqrt(1 - 0.25)
	for i, v := range h.Momentum() {
		want := -(0.5*p1[i] + c*ref.NormFloat64())
		if math.Abs(v-want) > 1e-15 {
			t.Errorf("momentum[%d] = %g after a rejection, want %g", i, v, want)
		}
	}
	if pt.X[0] != 0 || pt.X[1] != 0 {
		t.Errorf("rejected step moved the point to %v", pt.X)
	}
}

// Chains gives each chain its own stream: the results do not depend on the
// number of workers.
func TestChainsWorkerIndependent(t *testing.T) {
	run := func(workers int) [][]float64 {
		res, err := Chains(5, workers, 3, []string{"w"}, func(c int, rnd *rand.Rand) ([]float64, error) {
			h := &HMC{Target: banana{b: 0.5}, Steps: 5, StepSize: fixed(0.2), Persistence: 0.9}
			xs, _ := trace(h, []float64{float64(c), 0}, Plan{Burn: 10, Keep: 50, Thin: 2}, rnd)
			return xs[1], nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(1), run(3)
	for c := range a {
		for i := range a[c] {
			if a[c][i] != b[c][i] {
				t.Fatalf("chain %d draw %d: %v with 1 worker, %v with 3", c, i, a[c][i], b[c][i])
			}
		}
	}
	if a[0][0] == a[1][0] {
		t.Error("two chains gave the same draw")
	}
}

func TestPlan(t *testing.T) {
	p := Plan{Burn: 3, Keep: 2, Thin: 2}
	if p.Transitions() != 7 {
		t.Errorf("transitions %d, want 7", p.Transitions())
	}
	var kept []int
	for tr := range p.Transitions() {
		if i, ok := p.Kept(tr); ok {
			if i != len(kept) {
				t.Errorf("kept index %d, want %d", i, len(kept))
			}
			kept = append(kept, tr)
		}
	}
	if len(kept) != 2 || kept[0] != 4 || kept[1] != 6 {
		t.Errorf("kept transitions %v, want [4 6]", kept)
	}
	for _, bad := range []Plan{{Burn: -1, Keep: 1}, {Keep: 0}, {Keep: 1, Thin: -1}} {
		if bad.Check() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// A persistent HMC step allocates nothing once its buffers exist.
func TestHMCStepAllocs(t *testing.T) {
	h := &HMC{Target: gauss2{r: 0.5}, Steps: 5, StepSize: fixed(0.2), Persistence: 0.95}
	rnd := rand.New(rand.NewPCG(1, 2))
	pt := NewPoint[[]float64](h.Target, []float64{0.1, 0.2})
	h.Step(&pt, 1, rnd)
	if a := testing.AllocsPerRun(100, func() { h.Step(&pt, 1, rnd) }); a != 0 {
		t.Errorf("HMC.Step allocates %g times per call", a)
	}
}
