package hmm_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestRandomStart: the start is a valid posterior (w = u + expected counts
// whose totals are those of the data), a seed fixes it, the first E step
// from it gives a finite F, and VBEM from it runs normally.
func TestRandomStart(t *testing.T) {
	d := sampleHMM(3, 4, 6, 25, rand.New(rand.NewPCG(3, 1)))
	const k = 5
	u := hmm.SymmetricPrior(k, d.P, 1, 1, 1)
	n, T := float64(len(d.Seqs)), float64(d.Symbols())
	for _, iters := range []int{0, 1, hmm.DefaultStartIterations} {
		w, err := hmm.RandomStart(d, u, k, iters, rand.New(rand.NewPCG(7, 8)))
		if err != nil {
			t.Fatal(err)
		}
		if w.K != k || w.P != d.P || len(w.Pi) != k || len(w.A) != k*k || len(w.C) != k*d.P {
			t.Fatalf("iterations %d: shape K=%d P=%d (%d,%d,%d)", iters, w.K, w.P, len(w.Pi), len(w.A), len(w.C))
		}
		// Every pseudo-count is the prior's plus a non-negative count, and
		// the counts add up to the data: n initial states, T − n
		// transitions, T emissions.
		excess := func(name string, w []float64, u func(i int) float64) float64 {
			var s float64
			for i, v := range w {
				if !(v >= u(i)) || math.IsInf(v, 0) {
					t.Fatalf("iterations %d: %s[%d] = %v below its prior %v", iters, name, i, v, u(i))
				}
				s += v - u(i)
			}
			return s
		}
		sums := []float64{
			excess("pi", w.Pi, func(i int) float64 { return u.Pi[i] }),
			excess("A", w.A, func(i int) float64 { return u.A[i%k] }),
			excess("C", w.C, func(i int) float64 { return u.C[i%d.P] }),
		}
		for i, want := range []float64{n, T - n, T} {
			if math.Abs(sums[i]-want) > 1e-9*T {
				t.Errorf("iterations %d: counts of %s sum to %v, want %v", iters, []string{"pi", "A", "C"}[i], sums[i], want)
			}
		}

		again, err := hmm.RandomStart(d, u, k, iters, rand.New(rand.NewPCG(7, 8)))
		if err != nil || !reflect.DeepEqual(w, again) {
			t.Errorf("iterations %d: the same seed gave a different start (err %v)", iters, err)
		}
		other, err := hmm.RandomStart(d, u, k, iters, rand.New(rand.NewPCG(7, 9)))
		if err != nil || reflect.DeepEqual(w, other) {
			t.Errorf("iterations %d: another seed gave the same start (err %v)", iters, err)
		}

		m := hmm.NewVB(d, u, w)
		b, err := m.E()
		if err != nil || math.IsNaN(b.F) || math.IsInf(b.F, 0) {
			t.Fatalf("iterations %d: first E step F = %v, err %v", iters, b.F, err)
		}
		r := vb.Run(hmm.NewVB(d, u, w), vb.Settings{})
		if err := r.Error(); err != nil || r.F < b.F {
			t.Errorf("iterations %d: VBEM from the start: F %v → %v, err %v", iters, b.F, r.F, err)
		}
	}
}

// TestRandomStartZeroIterations: with no Baum-Welch iteration the start is
// the VBM step from the exact E step at the random parameters drawn from
// the same stream (RandomParams), i.e. the Cheeseman-Stutz point there.
func TestRandomStartZeroIterations(t *testing.T) {
	d := sampleHMM(2, 3, 4, 15, rand.New(rand.NewPCG(4, 1)))
	u := hmm.SymmetricPrior(3, d.P, 2, 2, 2)
	w, err := hmm.RandomStart(d, u, 3, 0, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	_, n := hmm.ExpectedCounts(d, hmm.RandomParams(3, d.P, rand.New(rand.NewPCG(1, 1))))
	want := hmm.PosteriorFromCounts(u, n)
	for i, pair := range [][2][]float64{{w.Pi, want.Pi}, {w.A, want.A}, {w.C, want.C}} {
		for j := range pair[0] {
			if math.Abs(pair[0][j]-pair[1][j]) > 1e-12*math.Abs(pair[1][j]) {
				t.Fatalf("group %d entry %d: %v, want %v", i, j, pair[0][j], pair[1][j])
			}
		}
	}
}

func TestRandomStartRejects(t *testing.T) {
	d := sampleHMM(2, 3, 2, 10, rand.New(rand.NewPCG(5, 1)))
	rnd := rand.New(rand.NewPCG(1, 2))
	if _, err := hmm.RandomStart(d, hmm.SymmetricPrior(3, d.P, 1, 1, 1), 3, -1, rnd); err == nil {
		t.Error("negative iterations accepted")
	}
	if _, err := hmm.RandomStart(d, hmm.SymmetricPrior(4, d.P, 1, 1, 1), 3, 0, rnd); err == nil {
		t.Error("a prior for k = 4 accepted for k = 3")
	}
}
