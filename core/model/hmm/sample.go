package hmm

import "math/rand/v2"

// Sample draws n sequences of T symbols from the HMM θ (Beal 2003 eqs.
// 3.1-3.2: s_1 ~ π, s_t | s_{t−1} ~ a_{s_{t−1}·}, y_t | s_t ~ c_{s_t·}), using
// rnd. Each draw inverts the cumulative distribution of a row with one
// uniform variate.
func (θ Params) Sample(rnd *rand.Rand, n, T int) Data {
	k, p := θ.K, θ.P
	draw := func(row []float64) int {
		u, c := rnd.Float64(), 0.0
		for i, v := range row {
			c += v
			if u < c {
				return i
			}
		}
		return len(row) - 1
	}
	d := Data{P: p, Seqs: make([][]int, 0, n)}
	for range n {
		y := make([]int, T)
		s := draw(θ.Pi)
		for t := range y {
			if t > 0 {
				s = draw(θ.A[s*k : (s+1)*k])
			}
			y[t] = draw(θ.C[s*p : (s+1)*p])
		}
		d.Seqs = append(d.Seqs, y)
	}
	return d
}
