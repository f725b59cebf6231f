package dist

import (
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Search interval and tolerance of FitSymmetricStrength.
const (
	strengthMin = 1e-6
	strengthMax = 1e6
)

// FitSymmetricStrength returns the strength f of a symmetric Dirichlet prior
// Dir(f/K, …, f/K) shared by R rows of dimension K that maximises the
// f-dependent part of the bound,
//
//	G(f) = R[ln Γ(f) − K ln Γ(f/K)] + (f/K − 1)·S,   S = Σ_r Σ_j E[ln θ_rj],
//
// where the expectations are under the rows' current Dirichlet posteriors
// (Beal (2003) eqs. (3.43), (4.66)–(4.67); target spec §0.4). The stationary
// condition is
//
//	G'(f) = R[ψ(f) − ψ(f/K)] + S/K = 0,
//
// and G″(f) = R[ψ'(f) − ψ'(f/K)/K] < 0, so G is concave and the root is its
// maximum. It is found by Newton's method in ln f, safeguarded by bisection,
// on [1e-6, 1e6]; the result is clamped to that interval (it is 1e6 when
// S ≥ −RK ln K, i.e. when the rows are all exactly uniform, since G then
// increases without bound).
//
// FitSymmetricStrength panics if R < 1, K < 2 or S is not finite.
func FitSymmetricStrength(R, K int, S float64) float64 {
	if R < 1 || K < 2 {
		panic("dist: FitSymmetricStrength needs R ≥ 1 and K ≥ 2")
	}
	if math.IsNaN(S) || math.IsInf(S, 0) {
		panic("dist: FitSymmetricStrength statistic not finite")
	}
	r, k := float64(R), float64(K)
	grad := func(s float64) (h, dh float64) {
		f := math.Exp(s)
		h = r*(numeric.Digamma(f)-numeric.Digamma(f/k)) + S/k
		dh = f * r * (numeric.Trigamma(f) - numeric.Trigamma(f/k)/k)
		return h, dh
	}
	lo, hi := math.Log(strengthMin), math.Log(strengthMax)
	if h, _ := grad(hi); h >= 0 {
		return strengthMax
	}
	if h, _ := grad(lo); h <= 0 {
		return strengthMin
	}
	s := 0.0 // f = 1
	for it := 0; it < 200; it++ {
		h, dh := grad(s)
		if h == 0 {
			break
		}
		// G' is decreasing: a positive gradient means the root is above s.
		if h > 0 {
			lo = s
		} else {
			hi = s
		}
		next := s - h/dh
		if !(next > lo && next < hi) {
			next = 0.5 * (lo + hi)
		}
		if math.Abs(next-s) <= 1e-15*math.Max(1, math.Abs(s)) || hi-lo <= 1e-15*math.Max(1, math.Abs(s)) {
			s = next
			break
		}
		s = next
	}
	return math.Exp(s)
}
