package atlas

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/rng"
)

// quickHMM is the default config at a size a test runs in well under a
// second.
func quickHMM() HMMConfig {
	c := DefaultHMM()
	c.TrueK, c.DataSets, c.K, c.Length, c.Seeds = []int{2}, 1, []int{1, 2}, 4, 1
	c.VBIterations = []int{1, 5, 20}
	c.IS.Samples, c.IS.Ladder = 250, []int{10, 250}
	c.AIS.Runs, c.AIS.Steps, c.AIS.Ladder = 8, 100, []int{10, 100}
	return c
}

// TestHMMGoldOneState checks the gold standard at K = 1 against the
// closed form: with one state π and A are the point 1, so p(y|K=1) is the
// Dirichlet-multinomial marginal of the symbol counts n_m,
// Γ(f)/Γ(f + T) Π_m Γ(u_m + n_m)/Γ(u_m) (eq. 6.9's pattern; u_m = f^(C)/p),
// written here with math.Lgamma, independent of hmm.ExactLogEvidence.
func TestHMMGoldOneState(t *testing.T) {
	c := DefaultHMM()
	for _, kt := range c.TrueK {
		d := c.hmmData(kt, 0)
		n := make([]float64, c.P)
		for _, s := range d.Seqs {
			for _, m := range s {
				n[m]++
			}
		}
		um := c.Prior.C / float64(c.P)
		lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
		want := lg(c.Prior.C) - lg(c.Prior.C+float64(d.Symbols()))
		for _, v := range n {
			want += lg(um+v) - lg(um)
		}
		got, err := hmm.ExactLogEvidence(d, 1, hmm.SymmetricPrior(1, c.P, c.Prior.Pi, c.Prior.A, c.Prior.C))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-10 {
			t.Errorf("K_true = %d: ln p(y|K=1) = %.12f, closed form %.12f", kt, got, want)
		}
	}
}

// TestHMMGoldMonteCarlo checks the gold standard at K = 2 on the quick
// data set against simple Monte Carlo from the prior, ln (1/M) Σ p(y|θ_i)
// with θ_i ~ p(θ) (hmm.Annealed.SamplePrior, LogLik), M = 2·10⁵, within
// 4 of its delta-method standard errors (a fixed stream: a correct
// enumeration fails with probability about 6·10⁻⁵).
func TestHMMGoldMonteCarlo(t *testing.T) {
	c := quickHMM()
	d := c.hmmData(2, 0)
	u := hmm.SymmetricPrior(2, c.P, c.Prior.Pi, c.Prior.A, c.Prior.C)
	gold, err := hmm.ExactLogEvidence(d, 2, u)
	if err != nil {
		t.Fatal(err)
	}
	a, err := hmm.NewAnnealed(d, 2, u)
	if err != nil {
		t.Fatal(err)
	}
	const m = 200000
	rnd := rng.New(1, "atlas-hmm-test", "mc")
	ll := make([]float64, m)
	eta := make([]float64, a.Dim())
	for i := range ll {
		eta = a.SamplePrior(eta, rnd)
		ll[i] = a.LogLik(eta)
	}
	top := slices.Max(ll)
	var s, s2 float64
	for _, v := range ll {
		w := math.Exp(v - top)
		s, s2 = s+w, s2+w*w
	}
	mean := s / m
	sd := math.Sqrt(math.Max(s2/m-mean*mean, 0))
	est, se := top+math.Log(mean), sd/mean/math.Sqrt(m)
	if math.Abs(est-gold) > 4*se {
		t.Errorf("ln p(y|K=2): enumeration %.5f, Monte Carlo %.5f ± %.5f", gold, est, se)
	}
	if !(se < 0.02) {
		t.Errorf("Monte Carlo SE %.4f: too large for the check to mean anything", se)
	}
}

// TestHMMCellInvariants runs cells of the quick config and checks what
// holds whatever the seeds: at K = 1 the hidden path is known, so q(θ) is
// the exact posterior and F and CS equal ln p(y) (Corollary 2.5 with the
// exact E step); VB's F never exceeds the gold standard and does not
// decrease along the ladder; every method has an estimate at every rung.
func TestHMMCellInvariants(t *testing.T) {
	c := quickHMM()
	for _, k := range c.K {
		cl, err := c.runHMMCell(hmmKey{kt: 2, i: 0, k: k, seed: 0})
		if err != nil {
			t.Fatal(err)
		}
		gold := float64(cl.Gold)
		count := map[string]int{}
		prevF := math.Inf(-1)
		for _, e := range cl.Est {
			count[e.Method]++
			lnz := float64(e.LnZ)
			if math.IsNaN(lnz) || math.IsInf(lnz, 0) {
				t.Errorf("K=%d: %s at %d: ln Z = %v", k, e.Method, e.Budget, lnz)
			}
			switch e.Method {
			case VB:
				if lnz > gold+1e-9 {
					t.Errorf("K=%d: F = %.6f above ln p(y) = %.6f at %d iterations", k, lnz, gold, e.Budget)
				}
				if lnz < prevF-1e-9 {
					t.Errorf("K=%d: F decreased along the ladder, %.6f then %.6f", k, prevF, lnz)
				}
				prevF = lnz
				if k == 1 && e.Budget >= 5 && math.Abs(lnz-gold) > 1e-9 {
					t.Errorf("K=1: F = %.12f, want ln p(y) = %.12f (q exact)", lnz, gold)
				}
			case CS:
				if k == 1 && math.Abs(lnz-gold) > 1e-9 {
					t.Errorf("K=1: CS = %.12f, want ln p(y) = %.12f", lnz, gold)
				}
				if lnz > gold+1e-9 {
					t.Errorf("K=%d: CS = %.6f above ln p(y) = %.6f (Theorem 2.3)", k, lnz, gold)
				}
			}
		}
		want := map[string]int{VB: len(c.VBIterations), BIC: 1, CS: 1, Laplace: 1, IS: len(c.IS.Ladder), AIS: len(c.AIS.Ladder)}
		for m, n := range want {
			if count[m] != n {
				t.Errorf("K=%d: %d estimates of %s, want %d", k, count[m], m, n)
			}
		}
	}
}

// TestHMMValidate checks that a data set beyond the enumeration is refused
// by naming the key.
func TestHMMValidate(t *testing.T) {
	c := DefaultHMM()
	c.Length = 40
	err := c.Validate()
	if err == nil || !strings.Contains(err.Error(), "length") {
		t.Errorf("Validate with 3^80 paths: %v, want an error naming length", err)
	}
	c = DefaultHMM()
	if err := c.Validate(); err != nil {
		t.Errorf("default config: %v", err)
	}
}
