package hmm_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// enumerateLnZ returns ln Σ_s Π_t θ̃ along s for y, θ̃ = exp E[ln θ] of w,
// by enumerating every hidden path in the log domain.
func enumerateLnZ(w hmm.Posterior, y []int) float64 {
	k, p := w.K, w.P
	lpi := dist.DirichletMeanLogTo(nil, w.Pi)
	la, lc := make([][]float64, k), make([][]float64, k)
	for j := 0; j < k; j++ {
		la[j] = dist.DirichletMeanLogTo(nil, w.A[j*k:(j+1)*k])
		lc[j] = dist.DirichletMeanLogTo(nil, w.C[j*p:(j+1)*p])
	}
	s := make([]int, len(y))
	var terms []float64
	for {
		v := lpi[s[0]] + lc[s[0]][y[0]]
		for t := 1; t < len(y); t++ {
			v += la[s[t-1]][s[t]] + lc[s[t]][y[t]]
		}
		terms = append(terms, v)
		t := 0
		for ; t < len(y); t++ {
			if s[t]++; s[t] < k {
				break
			}
			s[t] = 0
		}
		if t == len(y) {
			return numeric.LogSumExp(terms)
		}
	}
}

// TestVBEWhereBayesPointWeightsUnderflow: from an initial q(θ) of strength
// 0.001 at the means θ (hmm.PosteriorFromParams, as vb.init_strength sets
// it), most weights exp(ψ(w) − ψ(Σw)) are 0 in float64 and every sequence
// is impossible under them, though every path has a positive weight. The
// VBE step still gives each sequence's ln Z̃ of enumerating every path, F
// is finite, the expected counts add up to the symbols, and VBEM from
// there converges without a decrease of F.
func TestVBEWhereBayesPointWeightsUnderflow(t *testing.T) {
	d, err := hmm.Strings("abc", "abcabca", "acbacb", "aabbab", "cabc")
	if err != nil {
		t.Fatal(err)
	}
	k := 3
	θ := hmm.RandomParams(k, d.P, rand.New(rand.NewPCG(4, 1)))
	w := hmm.PosteriorFromParams(θ, 1e-3, 1e-10)
	if l := w.BayesPoint().LogLik(d); !math.IsInf(l, -1) {
		t.Fatalf("the Bayes-point weights keep ln Z̃ = %v: the test needs weights that underflow", l)
	}
	m := hmm.NewVB(d, hmm.SymmetricPrior(k, d.P, 4, 4, 4), w)
	b, err := m.E()
	if err != nil || math.IsInf(b.F, 0) || math.IsNaN(b.F) {
		t.Fatalf("first VBE step: F = %v, %v", b.F, err)
	}
	for i, y := range d.Seqs {
		want := enumerateLnZ(w, y)
		if got := m.SeqLnZ()[i]; math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("sequence %d: ln Z̃ = %v, enumeration %v", i, got, want)
		}
	}
	if n, want := numeric.Sum(m.Counts().E), float64(d.Symbols()); math.Abs(n-want) > 1e-9 {
		t.Errorf("emission counts sum to %v, want %v", n, want)
	}
	r := vb.Run(m, vb.Settings{MaxIterations: 1000})
	if r.Status != vb.Converged || r.Err != nil {
		t.Errorf("VBEM from strength 0.001: %v, %v after %d iterations", r.Status, r.Err, r.Iterations)
	}
}
