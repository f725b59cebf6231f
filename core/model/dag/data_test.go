package dag_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/core/model/dag"
)

func TestNewDataRejects(t *testing.T) {
	for _, rows := range [][][]int{nil, {{}}, {{1, 2}, {1}}, {{0, -1}}} {
		if _, err := dag.NewData(rows); err == nil {
			t.Errorf("NewData(%v): no error", rows)
		}
	}
	d := mustData(t, [][]int{{0, 5}})
	if _, err := dag.NewProblem(dag.TrueCode.Structure(), dag.TrueCode.Structure().SymmetricPrior(1), d); err == nil {
		t.Error("NewProblem accepted data of width 2 for 4 observed nodes")
	}
	d = mustData(t, [][]int{{0, 5, 0, 0}})
	if _, err := dag.NewProblem(dag.TrueCode.Structure(), dag.TrueCode.Structure().SymmetricPrior(1), d); err == nil {
		t.Error("NewProblem accepted the value 5 for a 5-state node")
	}
}

// TestCompression checks the pattern compression identity: the patterns
// with their counts are exactly the rows, and the row order does not
// matter.
func TestCompression(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	rows := trueData(3000, rnd)
	d := mustData(t, rows)
	if d.N() != len(rows) || d.Width() != 4 {
		t.Fatalf("N = %d, width %d", d.N(), d.Width())
	}
	total := 0
	for p := 0; p < d.NumPatterns(); p++ {
		total += d.Count(p)
		if p > 0 && slices.Compare(d.Pattern(p-1), d.Pattern(p)) >= 0 {
			t.Fatalf("patterns %d and %d not strictly increasing", p-1, p)
		}
	}
	if total != len(rows) || d.NumPatterns() > 625 {
		t.Fatalf("counts sum to %d of %d; %d patterns", total, len(rows), d.NumPatterns())
	}
	key := func(rs [][]int) []string {
		out := make([]string, len(rs))
		for i, r := range rs {
			out[i] = fmt.Sprint(r)
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(key(d.Rows()), key(rows)) {
		t.Fatal("expanded patterns are not a permutation of the rows")
	}
	shuffled := slices.Clone(rows)
	rnd.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if fmt.Sprint(mustData(t, shuffled)) != fmt.Sprint(d) {
		t.Fatal("the compressed data depend on the row order")
	}
}

// TestCompressedLikelihood checks that the likelihood and the expected
// counts over patterns equal the sums over single data points.
func TestCompressedLikelihood(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	rows := trueData(400, rnd)
	s := dag.TrueCode.Structure()
	p := problem(t, s, rows)
	theta := s.RandomParams(rnd)
	lnp, n := p.ExpectedCounts(theta)
	var sum float64
	sumN := make(dag.Params, s.Len())
	for _, r := range rows {
		one := problem(t, s, [][]int{r})
		l, ni := one.ExpectedCounts(theta)
		sum += l
		for i, v := range ni {
			sumN[i] += v
		}
	}
	if !near(lnp, sum, 1e-9*(-sum)) || !near(p.LogLik(theta), lnp, 1e-9*(-sum)) {
		t.Errorf("ln p(y|θ) = %v over patterns, %v (LogLik %v) over points", lnp, sum, p.LogLik(theta))
	}
	for i := range n {
		if !near(n[i], sumN[i], 1e-9) {
			t.Fatalf("count %d: %v over patterns, %v over points", i, n[i], sumN[i])
		}
	}
}
