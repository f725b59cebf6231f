package numeric

import "math"

// Sum returns Σ_i x_i with four partial sums, ((s0 + s1) + (s2 + s3)) over
// the elements i ≡ 0, 1, 2, 3 (mod 4): a fixed order of summation, and
// about four times faster than one running sum on the long loops over
// points (a responsibility mass N_s = Σ_i q_is, eq. (4.37)), which are
// latency-bound with one.
func Sum(x []float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i]
		s1 += x[i+1]
		s2 += x[i+2]
		s3 += x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// MeanSD returns the mean and the standard deviation of x with divisor n,
//
//	mean = (1/n) Σ_i x_i (as a running mean),  sd = √((1/n) Σ_i (x_i − mean)²),
//
// the statistics of vbw's one z-scoring convention, z = (x − mean)/sd. The
// divisor is n, not n − 1: the thesis rescales "each individual pixel to
// have variance 1 across all the examples" (Beal (2003) line 2826), which
// the population variance gives exactly (the z-scored data have mean 0 and
// mean square 1), and chapter 4's outputs were produced with it. The
// running mean does not overflow for values near the largest float64. An
// empty x gives NaN, NaN.
func MeanSD(x []float64) (mean, sd float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	for i, v := range x {
		mean += (v - mean) / float64(i+1)
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)))
}
