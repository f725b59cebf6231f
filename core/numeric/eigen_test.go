package numeric

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPrincipalAxis: the power iteration's axis is, up to sign, the
// eigenvector of the largest eigenvalue that gonum's EigenSym finds, on
// random SPD matrices with a clear gap (a rank-one spike added).
func TestPrincipalAxis(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 17))
	for it := 0; it < 20; it++ {
		n := 1 + rnd.IntN(6)
		a := randomSPD(rnd, n)
		u := make([]float64, n)
		for i := range u {
			u[i] = rnd.NormFloat64()
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				a[i*n+j] += 5 * u[i] * u[j]
			}
		}
		var es mat.EigenSym
		if !es.Factorize(mat.NewSymDense(n, a), true) {
			t.Fatal("EigenSym failed")
		}
		var vecs mat.Dense
		es.VectorsTo(&vecs)
		got := PrincipalAxis(a, n)
		var dot float64
		for i := 0; i < n; i++ {
			dot += got[i] * vecs.At(i, n-1) // eigenvalues ascending
		}
		if math.Abs(math.Abs(dot)-1) > 1e-8 {
			t.Errorf("n=%d: |<axis, eigenvector>| = %g, want 1", n, math.Abs(dot))
		}
	}
}
