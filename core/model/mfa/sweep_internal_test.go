package mfa

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/vb"
)

// sweepModel returns a model on four well-separated clusters in 6-D with
// analysers of k = 3, 0, 2, 5 after a few sweeps, so that many
// responsibilities are exactly 0.
func sweepModel(t *testing.T) *VB {
	t.Helper()
	rnd := rand.New(rand.NewPCG(91, 92))
	const per, p = 40, 6
	y := mat.NewDense(4*per, p, nil)
	resp := mat.NewDense(4*per, 4, nil)
	for c := 0; c < 4; c++ {
		for j := 0; j < per; j++ {
			i := c*per + j
			for q := 0; q < p; q++ {
				mu := 0.0
				if q == c {
					mu = 100
				}
				y.Set(i, q, mu+rnd.NormFloat64()*(1+0.3*float64(q)))
			}
			for s := 0; s < 4; s++ {
				resp.Set(i, s, 0.05)
			}
			resp.Set(i, c, 0.85)
		}
	}
	m, err := NewVB(y, resp, Settings{Ks: []int{3, 0, 2, 5}})
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := m.E(); err != nil {
			t.Fatal(err)
		}
		m.M()
		m.UpdateHyper(HyperPsi)
		m.UpdateHyper(HyperMuNu)
	}
	return m
}

// TestStatsScatterMatchesPoints checks the two ways of computing the
// statistics N_s, G_s = Σ_i q_is⟨x̃x̃ᵀ⟩ and Syx_s = Σ_i q_is y_i x̃̄ᵀ of an
// analyser against each other: from the weighted data scatter and the map
// x̄_i = W y_i − cv of the last q(x) update (statsScatter), and point by
// point (statsPoints), to 1e-12 of the largest entry, for analysers of
// different k and responsibilities with exact zeros; and that stats does
// not use the scatter when the factor means were not set by updateX.
func TestStatsScatterMatchesPoints(t *testing.T) {
	m := sweepModel(t)
	if !slices.Contains(m.resp, 0) {
		t.Fatal("no responsibility is exactly 0: the test has no power")
	}
	m.prepPsi()
	for s, c := range m.comps {
		if err := m.updateX(c); err != nil {
			t.Fatal(err)
		}
		m.statsPoints(s, c)
		g, syx, ns := slices.Clone(c.g), slices.Clone(c.syx), c.nsum
		m.statsScatter(s, c)
		close := func(name string, a, b []float64) {
			t.Helper()
			var scale, diff float64
			for j := range a {
				scale = math.Max(scale, math.Abs(a[j]))
				diff = math.Max(diff, math.Abs(a[j]-b[j]))
			}
			if diff > 1e-12*scale {
				t.Errorf("analyser %d (k = %d): %s from the scatter differs from the point sums by %.3g (scale %.3g)", s, c.k, name, diff, scale)
			}
		}
		close("G", g, c.g)
		close("Syx", syx, c.syx)
		close("N", []float64{ns}, []float64{c.nsum})
	}
	// Factor means not from updateX: the point sums are used.
	c := m.comps[0]
	c.xFresh = false
	c.xT[5] += 1
	m.stats(0, c)
	g := slices.Clone(c.g)
	m.statsPoints(0, c)
	if !slices.Equal(g, c.g) {
		t.Error("stats used the scatter for factor means that updateX did not set")
	}
}

// TestBoundFromNormalisers checks that the F of E, whose entropy of q(s)
// comes from the normalisers of the q(s) update, agrees with Bound, which
// takes ln q_is directly, term by term to 1e-12 relative.
func TestBoundFromNormalisers(t *testing.T) {
	m := sweepModel(t)
	for it := range 3 {
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		f, terms := b.F, slices.Clone(b.Terms)
		b2 := m.Bound()
		if math.Abs(f-b2.F) > 1e-12*math.Abs(f) {
			t.Errorf("sweep %d: F = %.15g from E, %.15g from Bound", it, f, b2.F)
		}
		for j := range terms {
			if math.Abs(terms[j].Value-b2.Terms[j].Value) > 1e-12*math.Abs(f) {
				t.Errorf("sweep %d: %s = %.15g from E, %.15g from Bound", it, terms[j].Name, terms[j].Value, b2.Terms[j].Value)
			}
		}
		m.M()
		m.UpdateHyper(HyperPsi)
	}
}

// TestSweepAllocs checks that a whole sweep (E, M and every
// hyperparameter update) does not allocate in the steady state, also
// right after a birth (whose first E builds new loading rows).
func TestSweepAllocs(t *testing.T) {
	m := sweepModel(t)
	sweep := func() {
		if _, err := m.E(); err != nil {
			t.Fatal(err)
		}
		m.M()
		for _, g := range m.HyperGroups() {
			m.UpdateHyper(g)
		}
	}
	for round := range 2 {
		sweep()
		if a := testing.AllocsPerRun(20, sweep); a != 0 {
			t.Errorf("round %d: a sweep allocates %v times", round, a)
		}
		m.Moves.Rand = rand.New(rand.NewPCG(5, 6))
		if err := m.Apply(vb.Move{Kind: MoveBirth, Component: 0, Other: -1}); err != nil {
			t.Fatal(err)
		}
	}
}
