package bnn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// gTo is G = math.Erf(a/√2) bit for bit, on every branch of math.Erf and
// at the special values.
func TestGToIsGBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	a := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e-300, -1e-300,
		1.25 * math.Sqrt2, -1.25 * math.Sqrt2, math.Sqrt2 / 0.35, -math.Sqrt2 / 0.35, 6 * math.Sqrt2, -6 * math.Sqrt2,
		math.Nextafter(6*math.Sqrt2, 0), math.Nextafter(1.25*math.Sqrt2, 10)}
	for range 200000 {
		a = append(a, 12*(2*r.Float64()-1))
	}
	for range 1000 {
		a = append(a, r.NormFloat64()*1e3)
	}
	sc := newErfScratch(len(a))
	dst := make([]float64, len(a))
	gTo(dst, a, &sc)
	for i, v := range a {
		want := G(v)
		if math.Float64bits(dst[i]) != math.Float64bits(want) && !(math.IsNaN(want) && math.IsNaN(dst[i])) {
			t.Fatalf("G(%v): gTo %v, math.Erf %v", v, dst[i], want)
		}
	}
	// In place.
	b := append([]float64(nil), a[:100]...)
	gTo(b, b, &sc)
	for i := range b {
		if math.Float64bits(b[i]) != math.Float64bits(dst[i]) && !math.IsNaN(b[i]) {
			t.Fatalf("in place: %v, %v", b[i], dst[i])
		}
	}
}
