package mfa

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// mlData draws n points around each of the given centres in p dimensions,
// stretched along the first axis.
func mlData(rnd *rand.Rand, centres [][]float64, n int) *mat.Dense {
	p := len(centres[0])
	y := mat.NewDense(n*len(centres), p, nil)
	for c, mu := range centres {
		for i := 0; i < n; i++ {
			t := 2 * rnd.NormFloat64()
			row := y.RawRowView(c*n + i)
			for q := range row {
				row[q] = mu[q] + 0.3*rnd.NormFloat64()
			}
			row[0] += t
		}
	}
	return y
}

func TestEMNeverDecreases(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 9))
	y := mlData(rnd, [][]float64{{0, 0, 0, 0}, {8, 6, 0, 2}, {0, 7, 7, 0}}, 60)
	for _, S := range []int{1, 2, 3, 4} {
		for _, k := range []int{0, 1, 2} {
			m, err := NewEM(y, S, k, 1e-5, rand.New(rand.NewPCG(uint64(S), uint64(k))))
			if err != nil {
				t.Fatal(err)
			}
			r := vb.Run(m, vb.Settings{MaxIterations: 500, RelTol: 1e-10, AbsTol: -1, MonotoneTol: 1e-10})
			if err := r.Error(); err != nil {
				t.Fatalf("S=%d k=%d: %v", S, k, err)
			}
			vbtest.CheckMonotone(t, r.Trace.F, 1e-10)
		}
	}
}

// TestEMOneGaussian: one analyser without factors is the diagonal Gaussian
// of the sample mean and variance; its log-likelihood has a closed form.
func TestEMOneGaussian(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 9))
	y := mlData(rnd, [][]float64{{1, -2, 3}}, 200)
	m, err := NewEM(y, 1, 0, 1e-5, rnd)
	if err != nil {
		t.Fatal(err)
	}
	r := vb.Run(m, vb.Settings{MaxIterations: 5})
	if err := r.Error(); err != nil {
		t.Fatal(err)
	}
	n, p := y.Dims()
	var want float64
	for q := 0; q < p; q++ {
		var mean, ss float64
		for i := 0; i < n; i++ {
			mean += y.At(i, q)
		}
		mean /= float64(n)
		for i := 0; i < n; i++ {
			d := y.At(i, q) - mean
			ss += d * d
		}
		v := ss / float64(n)
		want += -0.5 * float64(n) * (math.Log(2*math.Pi*v) + 1)
		if math.Abs(m.Mu[0][q]-mean) > 1e-10 || math.Abs(m.Psi[q]-v) > 1e-10 {
			t.Fatalf("q=%d: μ %v ψ %v, want %v %v", q, m.Mu[0][q], m.Psi[q], mean, v)
		}
	}
	if math.Abs(m.LogLik()-want) > 1e-8*math.Abs(want) {
		t.Fatalf("log-likelihood %v, closed form %v", m.LogLik(), want)
	}
}

// TestEMBIC: the parameter count of eq. 4.89, and BIC preferring the true
// number of well-separated clusters.
func TestEMBIC(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 9))
	y := mlData(rnd, [][]float64{{0, 0, 0}, {10, 8, 0}}, 100)
	m, _ := NewEM(y, 2, 1, 1e-5, rnd)
	if d := m.NumFree(); d != 2-1+3+2*(3+3-0) {
		t.Fatalf("NumFree = %d, want 16", d)
	}
	best := map[int]float64{}
	for _, S := range []int{1, 2, 3} {
		best[S] = math.Inf(-1)
		for seed := range uint64(4) {
			mm, _ := NewEM(y, S, 1, 1e-5, rand.New(rand.NewPCG(seed, 4)))
			r := vb.Run(mm, vb.Settings{MaxIterations: 1000, RelTol: 1e-9})
			if r.Error() != nil {
				t.Fatal(r.Error())
			}
			best[S] = math.Max(best[S], mm.BIC())
		}
	}
	if !(best[2] > best[1] && best[2] > best[3]) {
		t.Fatalf("BIC by S: %v, want the maximum at 2", best)
	}
}
