package bnn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomProblem returns a problem of n random points for a net of shape a.
func randomProblem(a Arch, n int, r *rand.Rand) *Problem {
	x := make([][]float64, n)
	t := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, a.In)
		for j := range x[i] {
			x[i][j] = r.NormFloat64()
		}
		t[i] = r.NormFloat64()
	}
	p, err := NewProblem(a, x, t)
	if err != nil {
		panic(err)
	}
	return p
}

// The batched E_D and gradient equal Arch.ErrorGrad to rounding, across
// more than one block of points.
func TestBatchMatchesErrorGrad(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, c := range []struct {
		a Arch
		n int
	}{{Arch{In: 12, Hidden: 8}, 221}, {Arch{In: 3, Hidden: 5}, 2*batchCols + 17}, {Arch{In: 1, Hidden: 1}, 3}} {
		p := randomProblem(c.a, c.n, r)
		w := make([]float64, c.a.NumWeights())
		for k := range w {
			w[k] = r.NormFloat64()
		}
		g0, g1 := make([]float64, len(w)), make([]float64, len(w))
		e0 := c.a.ErrorGrad(w, p.X, p.T, g0, nil)
		b := NewBatch(p)
		e1 := b.ErrorGrad(w, g1)
		if math.Abs(e1-e0) > 1e-12*e0 || b.ErrorGrad(w, nil) != e1 {
			t.Errorf("%v, N=%d: E_D %v batched, %v by ErrorGrad", c.a, c.n, e1, e0)
		}
		var scale float64
		for _, v := range g0 {
			scale = max(scale, math.Abs(v))
		}
		for k := range g0 {
			if math.Abs(g1[k]-g0[k]) > 1e-12*scale {
				t.Errorf("%v, N=%d: ∂E/∂w[%d] %v batched, %v by ErrorGrad", c.a, c.n, k, g1[k], g0[k])
			}
		}
		if a := testing.AllocsPerRun(10, func() { b.ErrorGrad(w, g1) }); a != 0 {
			t.Errorf("Batch.ErrorGrad allocates %g times", a)
		}
	}
}

// The gradient of ln p(w | D, α, β) against central finite differences,
// with a grouped prior (distinct α per group).
func TestPosteriorGradientFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	a := Arch{In: 2, Hidden: 3}
	p := randomProblem(a, 9, r)
	q, err := NewPosterior(p, Grouped, []float64{0.5, 2, 0.1, 3}, 7)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, a.NumWeights())
	for k := range w {
		w[k] = r.NormFloat64()
	}
	gp, gl := make([]float64, len(w)), make([]float64, len(w))
	q.GradLogPrior(gp, w)
	q.GradLogLik(gl, w)
	for k := range w {
		const h = 1e-6
		w0 := w[k]
		w[k] = w0 + h
		up := q.LogDensity(w)
		w[k] = w0 - h
		dn := q.LogDensity(w)
		w[k] = w0
		fd := (up - dn) / (2 * h)
		if g := gp[k] + gl[k]; math.Abs(g-fd) > 1e-6*(1+math.Abs(fd)) {
			t.Errorf("∂ ln p/∂w[%d] = %v, finite difference %v", k, g, fd)
		}
	}
	// LogPrior by hand: −½ Σ α_g w_k².
	_, grp := a.Groups(Grouped)
	var want float64
	for k, v := range w {
		want -= q.Alpha[grp[k]] * v * v / 2
	}
	if got := q.LogPrior(w); math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("LogPrior %v, want %v", got, want)
	}
	if got, want := q.LogLik(w), -7*a.ErrorGrad(w, p.X, p.T, nil, nil); math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("LogLik %v, want −β E_D = %v", got, want)
	}
}

// Resample draws α_g and β from their gamma conditionals: over many draws
// at fixed w the means are (a + K_g/2)/(b + ½|w_g|²) and
// (a_β + N/2)/(b_β + E_D), within 4 standard errors.
func TestResampleConditionals(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	a := Arch{In: 2, Hidden: 2}
	p := randomProblem(a, 12, r)
	q, err := NewPosterior(p, ARD, []float64{1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, a.NumWeights())
	for k := range w {
		w[k] = r.NormFloat64()
	}
	h := Hyper{AAlpha: 2, BAlpha: 0.5, ABeta: 3, BBeta: 0.2}
	const n = 40000
	sa := make([]float64, q.NGroups)
	var sb float64
	for range n {
		q.Resample(w, h, true, true, r)
		for g, v := range q.Alpha {
			sa[g] += v
		}
		sb += q.Beta
	}
	ss := make([]float64, q.NGroups)
	kg := make([]float64, q.NGroups)
	for k, v := range w {
		ss[q.Group[k]] += v * v
		kg[q.Group[k]]++
	}
	for g := range sa {
		shape, rate := h.AAlpha+kg[g]/2, h.BAlpha+ss[g]/2
		m, sd := shape/rate, math.Sqrt(shape)/rate
		if got := sa[g] / n; math.Abs(got-m) > 4*sd/math.Sqrt(n) {
			t.Errorf("group %d: mean α %v, want %v ± %v", g, got, m, sd/math.Sqrt(n))
		}
	}
	ed := a.ErrorGrad(w, p.X, p.T, nil, nil)
	shape, rate := h.ABeta+12.0/2, h.BBeta+ed
	if got, m, sd := sb/n, shape/rate, math.Sqrt(shape)/rate; math.Abs(got-m) > 4*sd/math.Sqrt(n) {
		t.Errorf("mean β %v, want %v ± %v", got, m, sd/math.Sqrt(n))
	}
}

func TestNewPosteriorRefuses(t *testing.T) {
	p := randomProblem(Arch{In: 1, Hidden: 2}, 3, rand.New(rand.NewPCG(1, 1)))
	for _, c := range []struct {
		prior Prior
		alpha []float64
		beta  float64
	}{
		{Grouped, []float64{1, 2}, 1},
		{Single, []float64{0}, 1},
		{Single, []float64{1}, math.Inf(1)},
		{Prior(42), []float64{1}, 1},
	} {
		if _, err := NewPosterior(p, c.prior, c.alpha, c.beta); err == nil {
			t.Errorf("%v α=%v β=%v accepted", c.prior, c.alpha, c.beta)
		}
	}
}

// The defaults are the text's (Table 5.1, L2183; Fig 5.3, L2146), and
// Check names a bad field.
func TestHMCSettingsDefaults(t *testing.T) {
	s := HMCSettings{}.WithDefaults()
	if s.Samples != 200 || s.Burn != 100 || s.Leapfrog != 100 || s.Persistence != 0.95 || s.Step != 2e-3 ||
		s.Beta != 200 || s.Alpha[0] != 0.3 || s.Hyper != DefaultHyper() || s.Chains != 1 || s.Thin != 1 {
		t.Errorf("defaults %+v", s)
	}
	toy := HMCSettings{Samples: 300, NoBurn: true, FullRefresh: true}.WithDefaults()
	if toy.Burn != 0 || toy.Persistence != 0 {
		t.Errorf("toy settings %+v", toy)
	}
	if err := s.Check(10); err != nil {
		t.Errorf("defaults refused: %v", err)
	}
	for _, bad := range []HMCSettings{{Burn: 200}, {Step: -1}, {Persistence: 1}, {Start: []float64{1}}, {Chains: -1}, {HyperFrom: 201}, {AdaptAccept: 1}, {Thin: 101}} {
		if err := bad.WithDefaults().Check(10); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// Predict is the samples' mean of f and their variance plus the mean 1/β.
func TestHMCResultPredict(t *testing.T) {
	a := Arch{In: 1, Hidden: 1}
	res := &HMCResult{Arch: a, Chains: 1,
		W:    [][]float64{{1, 0, 1, 0}, {1, 0, -1, 0.5}, {2, 1, 0.5, 0}},
		Beta: []float64{2, 4, 4}}
	x := []float64{0.3}
	var fs []float64
	for _, w := range res.W {
		fs = append(fs, a.Forward(w, x, nil))
	}
	m := (fs[0] + fs[1] + fs[2]) / 3
	v := ((fs[0]-m)*(fs[0]-m)+(fs[1]-m)*(fs[1]-m)+(fs[2]-m)*(fs[2]-m))/3 + (0.5+0.25+0.25)/3
	if out := res.Outputs(nil, x); len(out) != 3 || out[0] != fs[0] || out[1] != fs[1] || out[2] != fs[2] {
		t.Errorf("Outputs = %v, want %v", out, fs)
	}
	gm, gv := res.Predict(x)
	if math.Abs(gm-m) > 1e-15 || math.Abs(gv-v) > 1e-15 {
		t.Errorf("Predict = (%v, %v), want (%v, %v)", gm, gv, m, v)
	}
}

// Ops counts the Table 5.1 run of the sunspot shape: one chain of 200
// trajectories of 102 gradient-sized evaluations on 221 points.
func TestHMCSettingsOps(t *testing.T) {
	s := HMCSettings{}.WithDefaults()
	a := Arch{In: 12, Hidden: 8}
	want := 200.0 * 102 * 221 * float64(4*8*13+7*8+4+40*8)
	if got := s.Ops(a, 221); got != want {
		t.Errorf("Ops = %g, want %g", got, want)
	}
}
