package gmm_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/core/vb"
)

// clusters returns n points in D = 2 from len(centres) unit-variance
// clusters (scaled by sd) taken in turn.
func clusters(rnd *rand.Rand, n int, sd float64, centres ...[2]float64) []float64 {
	x := make([]float64, 0, 2*n)
	for i := 0; i < n; i++ {
		c := centres[i%len(centres)]
		x = append(x, c[0]+sd*rnd.NormFloat64(), c[1]+sd*rnd.NormFloat64())
	}
	return x
}

// tiny is an 8-point, two-cluster data set for the enumeration tests.
func tiny() []float64 {
	return clusters(rand.New(rand.NewPCG(5, 8)), 8, 0.5, [2]float64{-1.5, 0}, [2]float64{1.5, 0.5})
}

func newVB(t testing.TB, x []float64, k int, p gmm.Prior, seed uint64) *gmm.VB {
	t.Helper()
	m, err := gmm.NewVB(x, 2, k, p, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// converge runs VBEM to a tight convergence and returns the result.
func converge(t testing.TB, m *gmm.VB) vb.Result {
	t.Helper()
	r := vb.Run(m, vb.Settings{MaxIterations: 2000, RelTol: 1e-13, AbsTol: 1e-11})
	if !r.Status.OK() {
		t.Fatalf("VBEM: %v %v", r.Status, r.Error())
	}
	return r
}

func defaultPrior(a0 float64) gmm.Prior { return gmm.DefaultPrior(2, a0) }
