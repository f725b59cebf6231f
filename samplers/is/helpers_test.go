package is

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randSPD returns a random symmetric positive-definite d×d matrix BBᵀ/d + s·I
// with B standard normal.
func randSPD(d int, s float64, rnd *rand.Rand) *mat.SymDense {
	b := mat.NewDense(d, d, nil)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			b.Set(i, j, rnd.NormFloat64())
		}
	}
	a := mat.NewSymDense(d, nil)
	a.SymOuterK(1/float64(d), b)
	for i := 0; i < d; i++ {
		a.SetSym(i, i, a.At(i, i)+s)
	}
	return a
}

func cholOf(t testing.TB, a mat.Symmetric) *mat.Cholesky {
	t.Helper()
	var c mat.Cholesky
	if !c.Factorize(a) {
		t.Fatal("matrix not positive definite")
	}
	return &c
}

func randVec(d int, scale float64, rnd *rand.Rand) []float64 {
	x := make([]float64, d)
	for i := range x {
		x[i] = scale * rnd.NormFloat64()
	}
	return x
}

// shifted is the target Z·q(θ): ln p*(θ) = lnZ + ln q(θ), so the normalised
// target is the proposal itself.
type shifted struct {
	q   Proposal
	lnZ float64
}

func (s shifted) LogProb(x []float64) float64 { return s.lnZ + s.q.LogProb(x) }

func panics(f func()) (ok bool) {
	defer func() { ok = recover() != nil }()
	f()
	return false
}

func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
