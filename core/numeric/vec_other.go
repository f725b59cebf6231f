//go:build !amd64 || purego

package numeric

// haveVec is false: the portable kernels of vec_go.go run.
const haveVec = false

func dotVec(x, y []float64) float64 { return dotGo(x, y) }

func axpyVec(alpha float64, x, y []float64) { axpyGo(alpha, x, y) }

func mulAddVec(m, n, k int, a []float64, ars, acs int, b []float64, ldb int, c []float64, ldc int) {
	mulAddGo(m, n, k, a, ars, acs, b, ldb, c, ldc)
}

func mulAddTVec(m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	mulAddTGo(m, n, k, a, lda, b, ldb, c, ldc)
}

func sqNormsLowerVec(dst, l []float64, n int, x []float64, ldx int, mu, work []float64) {
	sqNormsLowerGo(dst, l, n, x, ldx, mu, work)
}

func centerWeightVec(y, yr, x, r []float64, mu float64) { centerWeightGo(y, yr, x, r, mu) }

func expSubVec(dst, x, y []float64) int { return 0 }

func logVec(dst, x []float64) int { return 0 }

func gatherProdSum4Vec(dst, tab, h []float64, off []int32, m int) {
	gatherProdSum4Go(dst, tab, h, off, m)
}

func mulToVec(dst, x, y []float64)        { mulToGo(dst, x, y) }
func scaleVec(alpha float64, x []float64) { scaleGo(alpha, x) }
func addMulVec(dst, x, y []float64)       { addMulGo(dst, x, y) }
