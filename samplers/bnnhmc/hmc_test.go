package bnnhmc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/bnn"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// tiny is a 1-1-1 network (w = u, b, v, c: f(x) = v g(ux + b) + c) on six
// points, small enough for its posterior to be integrated on a grid.
func tiny() *bnn.Problem {
	x := []float64{-1.5, -0.8, -0.2, 0.3, 0.9, 1.6}
	noise := []float64{0.21, -0.33, 0.05, 0.27, -0.12, -0.4}
	xs := make([][]float64, len(x))
	t := make([]float64, len(x))
	for n, v := range x {
		xs[n] = []float64{v}
		t[n] = 0.6*bnn.G(1.2*v) + 0.1 + noise[n]
	}
	p, err := bnn.NewProblem(bnn.Arch{In: 1, Hidden: 1}, xs, t)
	if err != nil {
		panic(err)
	}
	return p
}

// probeX are the inputs of the checked predictive means (inside and outside
// the data).
var probeX = []float64{-2, 0.4, 2.5}

// quantities returns the checked functions of one sample: f at probeX,
// c, v², u·v (the posterior is symmetric under (u, b, v) → −(u, b, v), so
// these are the same in either mirror mode), and β, α_v.
func quantities(dst, w []float64, beta float64, alpha []float64) []float64 {
	u, b, v, c := w[0], w[1], w[2], w[3]
	dst = dst[:0]
	for _, x := range probeX {
		dst = append(dst, v*bnn.G(u*x+b)+c)
	}
	return append(dst, c, v*v, u*v, beta, alpha[2])
}

var names = []string{"f(-2)", "f(0.4)", "f(2.5)", "c", "v²", "uv", "β", "α_v"}

// density is a posterior on the grid: ln p = Σ_k prior(k, w_k) + lik(E_D),
// with the conditional means E[β | w] = beta(E_D) and E[α_v | w] = alphaV(v).
type density struct {
	prior  func(k int, wk float64) float64
	lik    func(ed float64) float64
	beta   func(ed float64) float64
	alphaV func(v float64) float64
}

// grid returns the posterior expectations of quantities by the trapezoid
// rule on a grid of (u, b, v) ∈ [−r, r]³ and c ∈ [c̄ − r/2, c̄ + r/2] (n
// points each) under the density d, and the posterior mass within 10% of
// the box's edges (which must be negligible).
func grid(p *bnn.Problem, n int, r float64, d density) ([]float64, float64) {
	var st, st2 float64
	for _, t := range p.T {
		st += t
		st2 += t * t
	}
	nn := float64(len(p.T))
	cbar := st / nn
	// The grid values of each coordinate and their log prior terms.
	var val, lp [4][]float64
	av := make([]float64, n)
	for k := range 4 {
		lo, hi := -r, r
		if k == 3 {
			lo, hi = cbar-r/2, cbar+r/2
		}
		val[k], lp[k] = make([]float64, n), make([]float64, n)
		for i := range n {
			val[k][i] = lo + (hi-lo)*float64(i)/float64(n-1)
			lp[k][i] = d.prior(k, val[k][i])
		}
	}
	for i, v := range val[2] {
		av[i] = d.alphaV(v)
	}
	trap := func(i int) float64 { // trapezoid weight
		if i == 0 || i == n-1 {
			return 0.5
		}
		return 1
	}
	inner := func(i int) bool { return i >= n/10 && i < n-n/10 }
	gs := make([]float64, len(p.X))
	gp := make([]float64, len(probeX))
	lmax := math.Inf(-1)
	sums := make([]float64, len(names))
	var z, edge float64
	// Two passes: the maximum, then the weighted sums.
	for pass := 0; pass < 2; pass++ {
		for iu, u := range val[0] {
			for ib, b := range val[1] {
				var sg, sg2, sgt float64
				for k, x := range p.X {
					gs[k] = bnn.G(u*x[0] + b)
					sg += gs[k]
					sg2 += gs[k] * gs[k]
					sgt += gs[k] * p.T[k]
				}
				for j, x := range probeX {
					gp[j] = bnn.G(u*x + b)
				}
				lub := lp[0][iu] + lp[1][ib]
				wub := trap(iu) * trap(ib)
				for iv, v := range val[2] {
					for ic, c := range val[3] {
						ed := 0.5 * (v*v*sg2 + 2*v*c*sg + nn*c*c - 2*v*sgt - 2*c*st + st2)
						l := lub + lp[2][iv] + lp[3][ic] + d.lik(ed)
						if pass == 0 {
							lmax = max(lmax, l)
							continue
						}
						m := wub * trap(iv) * trap(ic) * math.Exp(l-lmax)
						z += m
						for j := range probeX {
							sums[j] += m * (v*gp[j] + c)
						}
						j := len(probeX)
						sums[j] += m * c
						sums[j+1] += m * v * v
						sums[j+2] += m * u * v
						sums[j+3] += m * d.beta(ed)
						sums[j+4] += m * av[iv]
						if !(inner(iu) && inner(ib) && inner(iv) && inner(ic)) {
							edge += m
						}
					}
				}
			}
		}
	}
	for j := range sums {
		sums[j] /= z
	}
	return sums, edge / z
}

// check compares the HMC estimates of the quantities with the grid's,
// within 4 standard errors from the ESS pooled over the chains.
func check(t *testing.T, res *bnn.HMCResult, want []float64, skip map[string]bool) {
	t.Helper()
	k := res.Kept()
	traces := make([][][]float64, len(names)) // [quantity][chain][sample]
	for j := range traces {
		traces[j] = make([][]float64, res.Chains)
	}
	for s, w := range res.W {
		q := quantities(nil, w, res.Beta[s], res.Alpha[s])
		for j, v := range q {
			traces[j][s/k] = append(traces[j][s/k], v)
		}
	}
	for j, name := range names {
		if skip[name] {
			continue
		}
		var sum, sum2 float64
		var n int
		for _, c := range traces[j] {
			for _, v := range c {
				sum, sum2, n = sum+v, sum2+v*v, n+1
			}
		}
		m := sum / float64(n)
		ess := mcmc.ESSChains(traces[j])
		se := math.Sqrt(sum2/float64(n)-m*m) / math.Sqrt(ess)
		if math.Abs(m-want[j]) > 4*se {
			t.Errorf("E %s: HMC %.4f ± %.4f (ESS %.0f), grid %.4f: beyond 4 se", name, m, se, ess, want[j])
		} else {
			t.Logf("E %s: HMC %.4f ± %.4f (ESS %.0f), grid %.4f", name, m, se, ess, want[j])
		}
	}
}

// With α and β fixed, HMC's means of f(x) (inside and outside the data)
// and of functions of the weights match the grid integral of
// p(w | D, α, β) within 4 standard errors.
func TestSampleHMCAgainstGridFixedHyper(t *testing.T) {
	p := tiny()
	alpha := []float64{1, 0.5, 1, 2}
	const beta = 10.0
	want, edge := grid(p, 80, 7, density{
		prior:  func(k int, wk float64) float64 { return -alpha[k] * wk * wk / 2 },
		lik:    func(ed float64) float64 { return -beta * ed },
		beta:   func(float64) float64 { return beta },
		alphaV: func(float64) float64 { return alpha[2] },
	})
	if edge > 1e-3 {
		t.Fatalf("grid box too small: mass %g near its edges", edge)
	}
	s := bnn.HMCSettings{Samples: 4000, Burn: 200, Leapfrog: 20, Step: 0.05, Chains: 4,
		Alpha: alpha, Beta: beta, FixHyper: true}
	res, err := SampleHMC(p, bnn.Grouped, s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	check(t, res, want, map[string]bool{"β": true, "α_v": true})
	if !(res.AcceptRate > 0.6) || !(res.RHatMax < 1.05) || !(res.ESSMin > 500) {
		t.Errorf("acceptance %.3f, R̂ max %.3f, ESS min %.0f: want > 0.6, < 1.05, > 500", res.AcceptRate, res.RHatMax, res.ESSMin)
	}
	// The predictive mean is the samples' mean of f.
	m, v := res.Predict([]float64{probeX[1]})
	if math.Abs(m-want[1]) > 0.05 || !(v > 1/beta) {
		t.Errorf("Predict(0.4) = (%.4f, %.4f), want mean near %.4f and variance above 1/β", m, v, want[1])
	}
}

// With the gamma hyperpriors and Gibbs updates of α and β, the samples are
// of the joint posterior: their means of f, of the weights' functions and
// of β and α_v match the grid integral of the marginal
//
//	p(w | D) ∝ Π_g (b_α + ½w_g²)^{−(a_α+K_g/2)} · (b_β + E_D)^{−(a_β+N/2)},
//
// with E[β | w] = (a_β + N/2)/(b_β + E_D) and E[α_g | w] = (a_α + ½)/(b_α + ½w_g²).
// The step is scaled by the current β and tuned in the burn-in, which must
// leave the kept samples' law unchanged.
func TestSampleHMCAgainstGridGibbs(t *testing.T) {
	p := tiny()
	h := bnn.Hyper{AAlpha: 10, BAlpha: 10, ABeta: 5, BBeta: 0.5}
	nn := float64(len(p.T))
	want, edge := grid(p, 80, 6, density{
		prior:  func(_ int, wk float64) float64 { return -(h.AAlpha + 0.5) * math.Log(h.BAlpha+wk*wk/2) },
		lik:    func(ed float64) float64 { return -(h.ABeta + nn/2) * math.Log(h.BBeta+ed) },
		beta:   func(ed float64) float64 { return (h.ABeta + nn/2) / (h.BBeta + ed) },
		alphaV: func(v float64) float64 { return (h.AAlpha + 0.5) / (h.BAlpha + v*v/2) },
	})
	if edge > 1e-3 {
		t.Fatalf("grid box too small: mass %g near its edges", edge)
	}
	s := bnn.HMCSettings{Samples: 4000, Burn: 200, Leapfrog: 20, Step: 0.04, Chains: 4,
		Hyper: h, Alpha: []float64{1}, Beta: 10, ScaleStep: true, AdaptAccept: 0.8}
	res, err := SampleHMC(p, bnn.Grouped, s, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	check(t, res, want, nil)
}

// The result does not depend on the number of workers.
func TestSampleHMCWorkers(t *testing.T) {
	p := tiny()
	run := func(workers int) *bnn.HMCResult {
		s := bnn.HMCSettings{Samples: 30, Burn: 10, Leapfrog: 5, Step: 0.05, Chains: 3, Workers: workers}
		res, err := SampleHMC(p, bnn.Single, s, rand.New(rand.NewPCG(9, 9)))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(1), run(2)
	if len(a.W) != 60 || len(b.W) != 60 {
		t.Fatalf("kept %d and %d samples, want 3 chains × 20", len(a.W), len(b.W))
	}
	for s := range a.W {
		for k := range a.W[s] {
			if a.W[s][k] != b.W[s][k] {
				t.Fatalf("sample %d weight %d: %v with 1 worker, %v with 2", s, k, a.W[s][k], b.W[s][k])
			}
		}
		if a.Beta[s] != b.Beta[s] {
			t.Fatalf("sample %d: β %v and %v", s, a.Beta[s], b.Beta[s])
		}
	}
}

func TestSampleHMCRefuses(t *testing.T) {
	p := tiny()
	r := rand.New(rand.NewPCG(1, 1))
	for _, s := range []bnn.HMCSettings{
		{Start: []float64{1, 2}},
		{Burn: 500},
		{Probes: [][]float64{{1, 2}}},
		{Hyper: bnn.Hyper{AAlpha: -1, BAlpha: 1, ABeta: 1, BBeta: 1}},
	} {
		if _, err := SampleHMC(p, bnn.Single, s, r); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	if _, err := SampleHMC(p, bnn.Prior(9), bnn.HMCSettings{Samples: 2, Burn: 1}, r); err == nil {
		t.Error("unknown prior accepted")
	}
}

// Settings at the edges of their ranges give a result or an error, never a
// panic or a NaN prediction from a kept sample.
func TestSampleHMCExtremeSettings(t *testing.T) {
	p := tiny()
	for _, s := range []bnn.HMCSettings{
		{Samples: 20, Burn: 10, Leapfrog: 5, Step: 10},
		{Samples: 20, Burn: 10, Leapfrog: 5, Persistence: 0.999999},
		{Samples: 20, Burn: 10, Leapfrog: 5, Beta: 1e300},
		{Samples: 20, Burn: 10, Leapfrog: 5, Alpha: []float64{1e-300}, Hyper: bnn.Hyper{AAlpha: 1e-300, BAlpha: 1e-300, ABeta: 1e-300, BBeta: 1e-300}},
		{Samples: 20, Burn: 10, Leapfrog: 5, AdaptAccept: 0.999, Step: 1e-12},
		{Samples: 2, NoBurn: true, Leapfrog: 1, Chains: 3},
	} {
		res, err := SampleHMC(p, bnn.ARD, s, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			continue
		}
		if m, v := res.Predict([]float64{0.3}); math.IsNaN(m) || math.IsNaN(v) {
			t.Errorf("%+v: prediction (%v, %v)", s, m, v)
		}
	}
}
