package mfa

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestAgitationDuplicated checks the invariance of targets §1.13 item 13:
// the agitation (4.72) of the same responsibilities, before and after, on
// the data set and on the data set written out twice is the same.
func TestAgitationDuplicated(t *testing.T) {
	rnd := rand.New(rand.NewPCG(87, 88))
	const n, p, S = 25, 3, 4
	y := mat.NewDense(n, p, nil)
	y2 := mat.NewDense(2*n, p, nil)
	for i := 0; i < n; i++ {
		for q := 0; q < p; q++ {
			v := rnd.NormFloat64()
			y.Set(i, q, v)
			y2.Set(i, q, v)
			y2.Set(n+i, q, v)
		}
	}
	r0 := mat.NewDense(n, S, nil)
	for i := 0; i < n; i++ {
		for s := 0; s < S; s++ {
			r0.Set(i, s, rnd.Float64())
		}
	}
	m1, err := NewVB(y, r0, Settings{K: 1})
	if err != nil {
		t.Fatal(err)
	}
	m2, err := NewVB(y2, mat.NewDense(2*n, S, append(append([]float64(nil), r0.RawMatrix().Data...), r0.RawMatrix().Data...)), Settings{K: 1})
	if err != nil {
		t.Fatal(err)
	}
	// q(s) before and after: m1's before is its normalised start; after,
	// random rows; m2 gets each twice.
	m1.prevResp = append([]float64(nil), m1.resp...)
	m2.prevResp = append([]float64(nil), m2.resp...)
	for i := 0; i < n; i++ {
		var tot float64
		row := make([]float64, S)
		for s := range row {
			row[s] = rnd.Float64()
			tot += row[s]
		}
		for s, v := range row {
			m1.resp[s*n+i] = v / tot
			m2.resp[s*2*n+i] = v / tot
			m2.resp[s*2*n+n+i] = v / tot
		}
	}
	m1.agValid, m2.agValid = true, true
	a1, a2 := m1.Agitation(nil), m2.Agitation(nil)
	for s := range a1 {
		if !(a1[s] > 0.1) || math.Abs(a1[s]-a2[s]) > 1e-14*a1[s] {
			t.Errorf("analyser %d: agitation %v on the data, %v on the data twice (want equal and not small)", s, a1[s], a2[s])
		}
	}
}
