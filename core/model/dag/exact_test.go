package dag_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/numeric"
)

// TestExactY6 checks Exact against the values of targets §1.8, computed
// there by two independent programs and given to 5–6 decimals.
func TestExactY6(t *testing.T) {
	for _, c := range []struct {
		code string
		want float64
	}{
		{"0000", -40.65618}, {"1000", -40.342313}, {"1100", -39.822004}, {"1332", -39.371113}, {"3333", -38.817399},
	} {
		got, err := problem(t, mustCode(t, c.code).Structure(), y6()).Exact()
		if err != nil {
			t.Fatal(err)
		}
		if !near(got, c.want, 5e-6) {
			t.Errorf("%s: exact ln p(Y6|m) = %.7f, want %.6f", c.code, got, c.want)
		}
	}
}

// bruteExact is an independent oracle: every completion of every data point
// (no pattern compression, no exchangeability), each scored by the closed
// form (6.9) of its complete-data counts.
func bruteExact(s *dag.Structure, rows [][]int) float64 {
	hid := s.Hidden()
	h := 1
	for _, j := range hid {
		h *= s.Arity(j)
	}
	n := len(rows)
	total := 1
	for range n {
		total *= h
	}
	lambda := s.SymmetricPrior(1)
	terms := make([]float64, 0, total)
	z := make([]int, s.Nodes())
	for code := 0; code < total; code++ {
		counts := make(dag.Params, s.Len())
		c := code
		for _, r := range rows {
			for k, j := range s.Observed() {
				z[j] = r[k]
			}
			cfg := c % h
			c /= h
			for i := len(hid) - 1; i >= 0; i-- {
				z[hid[i]] = cfg % s.Arity(hid[i])
				cfg /= s.Arity(hid[i])
			}
			for j := 0; j < s.Nodes(); j++ {
				counts[s.Offset(j)+s.Config(j, z)*s.Arity(j)+z[j]]++
			}
		}
		terms = append(terms, s.LogMarginalCounts(lambda, counts))
	}
	return numeric.LogSumExp(terms)
}

// TestExactMatchesBruteForce compares Exact with the naive oracle on data
// with repeated points (which Exact enumerates by multiset) and on a
// structure with a hidden node that has a hidden parent.
func TestExactMatchesBruteForce(t *testing.T) {
	rows := append(y6()[:4], y6()[0], y6()[2], y6()[0])
	for _, code := range []string{"1332", "3120", "0000"} {
		s := mustCode(t, code).Structure()
		p := problem(t, s, rows)
		got, _ := p.Exact()
		if want := bruteExact(s, rows); !near(got, want, 1e-10) {
			t.Errorf("%s: Exact %v, brute force %v", code, got, want)
		}
		// 7 points in 4 patterns of counts 3, 1, 2, 1: C(6,3)·C(4,3)·C(5,3)·C(4,3)
		// multisets of configurations, against 4^7 = 16384 completions.
		if got, want := p.ExactTerms(), 20.0*4*10*4; got != want {
			t.Errorf("%s: ExactTerms = %v, want %v", code, got, want)
		}
	}
	// h (3 states) → g (2 states, hidden) → y (3), h → y.
	s, err := dag.NewStructure([]int{3, 2, 3}, [][]int{nil, {0}, {0, 1}}, []bool{true, true, false})
	if err != nil {
		t.Fatal(err)
	}
	rows = [][]int{{0}, {2}, {2}, {1}, {0}}
	got, _ := problem(t, s, rows).Exact()
	if want := bruteExact(s, rows); !near(got, want, 1e-10) {
		t.Errorf("hidden chain: Exact %v, brute force %v", got, want)
	}
}

// TestExactClosedForm is test T2: for the unconnected structure the hidden
// nodes sum out, and ln p(y|m) is the closed form (6.9) of the observed
// counts, Σ_j [ln Γ(5) − ln Γ(5 + n) + Σ_k ln Γ(1 + N_jk)] with λ = 1.
func TestExactClosedForm(t *testing.T) {
	for _, rows := range [][][]int{y6(), randomRows(9, rand.New(rand.NewPCG(9, 9)))} {
		got, _ := problem(t, mustCode(t, "0000").Structure(), rows).Exact()
		n := float64(len(rows))
		var want float64
		for k := 0; k < 4; k++ {
			var cnt [5]float64
			for _, r := range rows {
				cnt[r[k]]++
			}
			want += numeric.LogGamma(5) - numeric.LogGamma(5+n)
			for _, c := range cnt {
				want += numeric.LogGamma(1 + c)
			}
		}
		if !near(got, want, 1e-10) {
			t.Errorf("unconnected: Exact %v, closed form %v", got, want)
		}
	}
}

// TestExactFullyObserved checks that without hidden nodes Exact is the
// closed form (6.9) with a non-uniform prior.
func TestExactFullyObserved(t *testing.T) {
	s, p, lambda := observedOnly(t)
	got, err := p.Exact()
	if err != nil {
		t.Fatal(err)
	}
	_, counts := p.ExpectedCounts(s.RandomParams(rand.New(rand.NewPCG(1, 1))))
	if want := s.LogMarginalCounts(lambda, counts); !near(got, want, 1e-10) || p.ExactTerms() != 1 {
		t.Errorf("Exact %v, closed form %v, %v terms", got, want, p.ExactTerms())
	}
}

// observedOnly is a fully observed DAG a → b, a → c, b → c with a
// non-uniform prior and 60 data points.
func observedOnly(t testing.TB) (*dag.Structure, *dag.Problem, dag.Params) {
	s, err := dag.NewStructure([]int{2, 3, 4}, [][]int{nil, {0}, {0, 1}}, []bool{false, false, false})
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(8, 8))
	lambda := make(dag.Params, s.Len())
	for i := range lambda {
		lambda[i] = 0.3 + 2*rnd.Float64()
	}
	obs, _ := dag.Sample(s, s.RandomParams(rnd), 60, rnd)
	p, err := dag.NewProblem(s, lambda, mustData(t, obs))
	if err != nil {
		t.Fatal(err)
	}
	return s, p, lambda
}

func TestExactTooLarge(t *testing.T) {
	p := problem(t, dag.TrueCode.Structure(), randomRows(40, rand.New(rand.NewPCG(1, 5))))
	if _, err := p.Exact(); err != dag.ErrTooLarge {
		t.Errorf("Exact with %g terms: error %v", p.ExactTerms(), err)
	}
	if p.ExactTerms() <= dag.MaxExactTerms {
		t.Errorf("ExactTerms = %g, not above the limit", p.ExactTerms())
	}
}
