package vembias

import (
	"math"
	"math/rand/v2"
	"testing"
)

// appendixA holds the optima of targets Appendix A (one parameter free,
// the others at the truth, infinite data, two observed dimensions); NaN
// marks a divergence (q_MAP's |w₂| → ∞).
var appendixA = []struct {
	truth Params
	p     Param
	want  map[Approx]float64
}{
	{fig14, Lambda, map[Approx]float64{ML: 0.900, MF: 0.735, FC: 0.816, FT: 0.735, MAP: 0.735}},
	{fig14, SigmaY2, map[Approx]float64{ML: 0.430, MF: 0.431, FC: 0.590, FT: 0.389, MAP: 0.272}},
	{fig15, Phi2, map[Approx]float64{ML: 0.393, MF: 0.827, FC: 0.827, FT: 0.676, MAP: 0.827}},
	{fig15, Norm2, map[Approx]float64{ML: 1.000, MF: 1.055, FC: 0.000, FT: 1.248, MAP: math.NaN()}},
}

// TestAppendixA checks the grid, gradient and vEM optima against Appendix
// A to 1e-3 (its values are rounded to 3 decimals, so within 5e-4 + the
// optimisers' spread), the three against one another to 1e-3, and the
// divergence of q_MAP's |w₂| to the edge of the search box.
func TestAppendixA(t *testing.T) {
	for _, c := range appendixA {
		for q, want := range c.want {
			pr := &Problem{Obs: 2, Truth: c.truth, Approx: q, Free: []Param{c.p}}
			g, err := pr.Grid(2001)
			if err != nil {
				t.Fatal(err)
			}
			if math.IsNaN(want) {
				if !g.Edge {
					t.Errorf("%v %v: grid optimum %v inside the box, want a divergence to its edge", c.p, q, g.X[0])
				}
				continue
			}
			gr, err := pr.Gradient(g.X)
			if err != nil {
				t.Fatal(err)
			}
			v, res, err := pr.RunVEM([]float64{c.truth[c.p] * 0.8}, Converged(100000))
			if err != nil {
				t.Fatalf("%v %v: vEM: %v", c.p, q, err)
			}
			for name, x := range map[string]float64{"grid": g.X[0], "gradient": gr.X[0], "vEM": v.X[0]} {
				if math.Abs(x-want) > 1e-3 {
					t.Errorf("%v %v: %s optimum %.5f, Appendix A %.3f", c.p, q, name, x, want)
				}
			}
			if d := max(math.Abs(g.X[0]-gr.X[0]), math.Abs(g.X[0]-v.X[0]), math.Abs(gr.X[0]-v.X[0])); d > 1e-3 {
				t.Errorf("%v %v: the optimisers disagree by %v (vEM %d iterations, %v)", c.p, q, d, res.Iterations, res.Status)
			}
		}
	}
}

// TestOneDimensionalReading checks targets §1.3: with y_{2,t} dropped the
// λ optima are unchanged and q_MAP's σ_y² runs to 0, while with it q_MAP's
// σ_y² optimum is interior (0.272).
func TestOneDimensionalReading(t *testing.T) {
	for _, q := range []Approx{MF, FC, FT, MAP} {
		a, _ := (&Problem{Obs: 2, Truth: fig14, Approx: q, Free: []Param{Lambda}}).Grid(2001)
		b, _ := (&Problem{Obs: 1, Truth: fig14, Approx: q, Free: []Param{Lambda}}).Grid(2001)
		if math.Abs(a.X[0]-b.X[0]) > 1e-6 {
			t.Errorf("%v: λ̂ %v with two outputs, %v with one", q, a.X[0], b.X[0])
		}
	}
	one, _ := (&Problem{Obs: 1, Truth: fig14, Approx: MAP, Free: []Param{SigmaY2}}).Grid(2001)
	two, _ := (&Problem{Obs: 2, Truth: fig14, Approx: MAP, Free: []Param{SigmaY2}}).Grid(2001)
	if !one.Edge || two.Edge {
		t.Errorf("q_MAP σ_y²: one output %v (edge %v), two %v (edge %v); want the first at the edge only", one.X[0], one.Edge, two.X[0], two.Edge)
	}
}

// TestFiniteData checks that the finite-data objective, with S the second
// moment of 200000 sequences drawn from the model, has its optimum near the
// infinite-data one (eq. 1.41 is its limit).
func TestFiniteData(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 6))
	S, err := SampleMoments(fig14, 2, 200000, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []Approx{ML, FC} {
		inf, _ := (&Problem{Obs: 2, Truth: fig14, Approx: q, Free: []Param{Lambda}}).Grid(801)
		fin, _ := (&Problem{Obs: 2, Truth: fig14, S: S, Approx: q, Free: []Param{Lambda}}).Grid(801)
		if d := math.Abs(inf.X[0] - fin.X[0]); d > 0.01 || d == 0 {
			t.Errorf("%v: λ̂ %v with infinite data, %v with 200000 sequences", q, inf.X[0], fin.X[0])
		}
	}
}

// TestJointLearning checks that the gradient and vEM optimisers started
// from the grid's best point of a two-parameter problem (λ, σ_y²) do not
// lower the objective and agree with each other (L334).
func TestJointLearning(t *testing.T) {
	for _, q := range []Approx{MF, FC, FT} {
		pr := &Problem{Obs: 2, Truth: fig14, Approx: q, Free: []Param{Lambda, SigmaY2}}
		g, err := pr.Grid(60)
		if err != nil {
			t.Fatal(err)
		}
		gr, err := pr.Gradient(g.X)
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := pr.RunVEM(g.X, Converged(100000))
		if err != nil {
			t.Fatal(err)
		}
		if gr.F < g.F-1e-12 || v.F < g.F-1e-12 {
			t.Errorf("%v: grid %v, gradient %v, vEM %v: a refinement lowered F", q, g.F, gr.F, v.F)
		}
		for i := range g.X {
			if d := math.Abs(gr.X[i] - v.X[i]); d > 1e-3 {
				t.Errorf("%v: parameter %d: gradient %v, vEM %v", q, i, gr.X[i], v.X[i])
			}
		}
	}
}
