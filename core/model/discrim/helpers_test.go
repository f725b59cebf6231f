package discrim_test

import (
	"math/rand/v2"
)

// twoClasses draws n points of each of two classes in d dimensions: class
// 0 about the origin, class 1 about (sep, ±3, 0, …): half its points
// at +3 on the second axis and half at −3 when d > 1 (two clusters),
// so that a mixture has something to find.
func twoClasses(n, d int, sep float64, seed uint64) (x [][]float64, class []int) {
	rnd := rand.New(rand.NewPCG(seed, 3))
	for c := range 2 {
		for i := range n {
			r := make([]float64, d)
			for a := range r {
				r[a] = rnd.NormFloat64()
			}
			if c == 1 {
				r[0] += sep
				if d > 1 {
					r[1] += 3 * float64(2*(i%2)-1)
				}
			}
			x, class = append(x, r), append(class, c)
		}
	}
	return x, class
}

func flat(x [][]float64) []float64 {
	var out []float64
	for _, r := range x {
		out = append(out, r...)
	}
	return out
}
