package ltu

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/rng"
)

// logJointT is ln P(s_H, t | x) of the ±1 sigmoid belief network at
// temperature T written out from eqs. 3.2-3.6: each unit contributes
// (a_i/T)(s_i + 1)/2 − ln(1 + e^{a_i/T}).
func logJointT(n *Net, x, s []float64, t, temp float64) float64 {
	l := 0.0
	term := func(a, si float64) float64 { return a/temp*(si+1)/2 - math.Log1p(math.Exp(a/temp)) }
	for j := range n.H {
		l += term(n.hiddenField(j, x), s[j])
	}
	return l + term(n.outputField(s), t)
}

func randomPattern(n *Net, seed uint64) ([]float64, []float64, float64) {
	r := rng.New(seed, "ltu", "pattern")
	x := make([]float64, n.D)
	for i := range x {
		x[i] = 2*r.Float64() - 1
	}
	s := make([]float64, n.H)
	for j := range s {
		s[j] = float64(2*r.IntN(2) - 1)
	}
	return x, s, float64(2*r.IntN(2) - 1)
}

// TestFlipGain: with the other hidden units at ±1 states, T⁻¹Δ_j is the
// difference of the log joint (eqs. 3.2-3.6) between s_j = 1 and −1 at
// temperature T, and at T = 0 Δ_j is the difference of Objective (the
// zero-temperature limit, eq. 3.27); Δ_j(T) → Δ_j(0) as T → 0.
func TestFlipGain(t *testing.T) {
	for seed := range uint64(20) {
		n := NewNet(3, 4, rng.New(seed, "ltu", "net"))
		x, s, tg := randomPattern(n, seed)
		for j := range n.H {
			up, dn := append([]float64(nil), s...), append([]float64(nil), s...)
			up[j], dn[j] = 1, -1
			r := n.outputField(s) - n.V[j]*s[j]
			aj := n.hiddenField(j, x)
			for _, temp := range []float64{0.3, 1, 5} {
				want := logJointT(n, x, up, tg, temp) - logJointT(n, x, dn, tg, temp)
				if got := flipGain(aj, n.V[j], r, tg, temp) / temp; math.Abs(got-want) > 1e-10*(1+math.Abs(want)) {
					t.Fatalf("seed %d unit %d T %g: Δ/T = %g, log-joint difference %g", seed, j, temp, got, want)
				}
			}
			want := n.Objective(x, up, tg) - n.Objective(x, dn, tg)
			if got := flipGain(aj, n.V[j], r, tg, 0); math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
				t.Fatalf("seed %d unit %d: Δ(0) = %g, Objective difference %g", seed, j, got, want)
			}
			if got := flipGain(aj, n.V[j], r, tg, 1e-7); math.Abs(got-want) > 1e-5 {
				t.Fatalf("seed %d unit %d: Δ(1e-7) = %g, Δ(0) = %g", seed, j, got, want)
			}
		}
	}
}

// TestObjective: Objective ≤ 0, zero exactly for the forward pass's
// states when the output's forward value is the target (L1356).
func TestObjective(t *testing.T) {
	for seed := range uint64(30) {
		n := NewNet(2, 3, rng.New(seed, "ltu", "net"))
		x, s, tg := randomPattern(n, seed)
		if o := n.Objective(x, s, tg); o > 0 {
			t.Fatalf("objective %g > 0", o)
		}
		out := n.Forward(x, s)
		if o := n.Objective(x, s, out); o != 0 {
			t.Fatalf("forward states with their own output: objective %g, want 0", o)
		}
		if o := n.Objective(x, s, -out); !(o < 0) {
			t.Fatalf("forward states with the other output: objective %g, want < 0", o)
		}
	}
}

// TestInferLocalOptimum: zero-temperature inference (eq. 3.23) from the
// forward states never lowers Objective, ends stable with ±1 states that
// no single flip improves, and is at most the best of all 2^H states (brute
// force); annealed inference ends stable and locally optimal too.
func TestInferLocalOptimum(t *testing.T) {
	better := 0
	for seed := range uint64(200) {
		n := NewNet(3, 5, rng.New(seed, "ltu", "net"))
		x, s, tg := randomPattern(n, seed)
		n.Forward(x, s)
		start := n.Objective(x, s, tg)
		for _, anneal := range []bool{false, true} {
			st := append([]float64(nil), s...)
			stats := n.Infer(x, st, tg, nil, rng.New(seed, "ltu", "order"), InferSettings{NoAnneal: !anneal})
			if !stats.Stable || stats.Decreased {
				t.Fatalf("seed %d anneal %v: %+v", seed, anneal, stats)
			}
			o := n.Objective(x, st, tg)
			if !anneal && o < start {
				t.Fatalf("seed %d: objective fell from %g to %g", seed, start, o)
			}
			for j := range n.H {
				if st[j] != 1 && st[j] != -1 {
					t.Fatalf("seed %d: s_%d = %g, want ±1", seed, j, st[j])
				}
				st[j] = -st[j]
				if f := n.Objective(x, st, tg); f > o+1e-12 {
					t.Fatalf("seed %d anneal %v: flipping unit %d raises the objective %g → %g", seed, anneal, j, o, f)
				}
				st[j] = -st[j]
			}
			best := math.Inf(-1)
			b := make([]float64, n.H)
			for m := range 1 << n.H {
				for j := range b {
					b[j] = float64(2*(m>>j&1) - 1)
				}
				best = math.Max(best, n.Objective(x, b, tg))
			}
			if o > best+1e-12 {
				t.Fatalf("seed %d: objective %g above the brute-force maximum %g", seed, o, best)
			}
			if !anneal && o > start {
				better++
			}
		}
	}
	if better == 0 {
		t.Error("inference never improved on the forward states: the test cannot tell")
	}
}

// TestAnnealedPasses: T_k = 1000·0.8^{k−1} ≥ 0.001 for k ≤ 62 (L1442).
func TestAnnealedPasses(t *testing.T) {
	if k := (InferSettings{}).AnnealedPasses(); k != 62 {
		t.Errorf("annealed passes %d, want 62", k)
	}
	if 1000*math.Pow(0.8, 61) < 1e-3 || 1000*math.Pow(0.8, 62) >= 1e-3 {
		t.Error("the 62nd temperature is not the last above 0.001")
	}
	if k := (InferSettings{NoAnneal: true}).AnnealedPasses(); k != 0 {
		t.Errorf("no annealing: %d passes", k)
	}
}

// xor is the four XOR patterns in ±1 coding: no single threshold unit
// separates them, two hidden units do.
var xorX = [][]float64{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
var xorT = []float64{-1, 1, 1, -1}

// TestFitXOR: over twenty initialisations with ten hidden units, learning
// stores every XOR pattern from most starts (36 of 40 at the time of
// writing; 22 of 40 with five units, 3 with two: the search is local), the best network's training
// errors are the minimum of its trace, and the run is a function of its seed.
func TestFitXOR(t *testing.T) {
	solved := 0
	for init := range uint64(20) {
		res, err := Fit(NewNet(2, 10, rng.New(init, "ltu", "xor")), xorX, xorT, rng.New(init, "ltu", "order"), Settings{C: 100})
		if err != nil {
			t.Fatal(err)
		}
		minErr := 5
		for _, e := range res.TrainErrors {
			minErr = min(minErr, e)
		}
		if got := res.Best.Errors(xorX, xorT); got != minErr || res.TrainErrors[res.BestIteration-1] != minErr {
			t.Fatalf("init %d: best network has %d errors at iteration %d, trace %v", init, got, res.BestIteration, res.TrainErrors)
		}
		if res.Decreased != 0 {
			t.Fatalf("init %d: %d zero-temperature updates lowered the objective", init, res.Decreased)
		}
		if minErr == 0 {
			solved++
		}
		again, _ := Fit(NewNet(2, 10, rng.New(init, "ltu", "xor")), xorX, xorT, rng.New(init, "ltu", "order"), Settings{C: 100})
		if again.SMOSteps != res.SMOSteps || again.Best.Errors(xorX, xorT) != minErr || again.Objective[len(again.Objective)-1] != res.Objective[len(res.Objective)-1] {
			t.Fatalf("init %d: a second run differs", init)
		}
	}
	if solved < 15 {
		t.Errorf("XOR stored by %d of 20 initialisations, want at least 15", solved)
	}
}

// TestFitRefuses: no penalty, mismatched shapes.
func TestFitRefuses(t *testing.T) {
	n := NewNet(2, 2, rng.New(1, "ltu"))
	if _, err := Fit(n, xorX, xorT, rng.New(1, "o"), Settings{}); err == nil {
		t.Error("C = 0: no error")
	}
	if _, err := Fit(n, xorX, xorT[:3], rng.New(1, "o"), Settings{C: 1}); err == nil {
		t.Error("3 targets for 4 patterns: no error")
	}
	if _, err := Fit(NewNet(3, 2, rng.New(1, "ltu")), xorX, xorT, rng.New(1, "o"), Settings{C: 1}); err == nil {
		t.Error("2 inputs for a 3-input net: no error")
	}
}
