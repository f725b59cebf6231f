package dag_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/dag"
)

// y6 is the test data set Y6 of targets §1.8, converted to 0-based states
// (the targets list it 1-based, in the order y3 y4 y5 y6).
func y6() [][]int {
	rows := [][]int{{1, 2, 3, 4}, {5, 5, 1, 2}, {3, 3, 3, 3}, {1, 2, 3, 5}, {4, 1, 2, 3}, {3, 3, 2, 3}}
	for _, r := range rows {
		for k := range r {
			r[k]--
		}
	}
	return rows
}

func mustData(t testing.TB, rows [][]int) dag.Data {
	t.Helper()
	d, err := dag.NewData(rows)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustCode(t testing.TB, s string) dag.Code {
	t.Helper()
	c, err := dag.ParseCode(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// problem builds the λ = 1 problem of a structure on rows.
func problem(t testing.TB, s *dag.Structure, rows [][]int) *dag.Problem {
	t.Helper()
	p, err := dag.NewProblem(s, s.SymmetricPrior(1), mustData(t, rows))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// trueData draws n observed vectors from the thesis's true model.
func trueData(n int, rnd *rand.Rand) [][]int {
	obs, _ := dag.Sample(dag.TrueCode.Structure(), dag.TrueParams(), n, rnd)
	return obs
}

// randomRows draws n uniformly random observed vectors of the class.
func randomRows(n int, rnd *rand.Rand) [][]int {
	rows := make([][]int, n)
	for i := range rows {
		rows[i] = make([]int, 4)
		for k := range rows[i] {
			rows[i][k] = rnd.IntN(dag.ObservedArity)
		}
	}
	return rows
}

func near(a, b, tol float64) bool { return a == b || (a-b <= tol && b-a <= tol) }
