package numeric

import "math"

// LogSumExp returns ln Σ_i exp(xs[i]) computed with the maximum subtracted,
//
//	m + ln Σ_i exp(xs[i] − m),   m = max_i xs[i],
//
// so that it neither overflows nor underflows for inputs near ±700. An empty
// slice, or one whose elements are all −Inf, gives −Inf (never NaN); a +Inf
// element gives +Inf; a NaN element gives NaN. LogSumExp does not allocate.
//
// It is the normaliser of the scaled forward pass and of responsibilities,
// for example ln ζ_t in Beal (2003) eqs. (3.21)–(3.23).
func LogSumExp(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		if math.IsNaN(x) {
			return x
		}
		if x > m {
			m = x
		}
	}
	if math.IsInf(m, 0) {
		// All −Inf (or empty) → −Inf; any +Inf → +Inf.
		return m
	}
	var s float64
	for _, x := range xs {
		s += math.Exp(x - m)
	}
	return m + math.Log(s)
}

// LogAddExp returns ln(exp(a) + exp(b)) without overflow or underflow.
// LogAddExp(−Inf, −Inf) = −Inf, a +Inf argument gives +Inf and a NaN argument
// gives NaN.
func LogAddExp(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	if a < b {
		a, b = b, a
	}
	if math.IsInf(a, 0) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// NormalizeLogTo sets dst[i] = exp(logw[i] − LogSumExp(logw)), the
// normalised weights of the log-weights logw, and returns the log normaliser
// LogSumExp(logw). It panics if the lengths differ. dst and logw may be the
// same slice. If the log normaliser is −Inf or +Inf, dst is filled with NaN,
// since no normalised weights exist. NormalizeLogTo does not allocate.
func NormalizeLogTo(dst, logw []float64) float64 {
	m, s := NormalizeLogShift(dst, logw)
	if math.IsNaN(s) {
		return m
	}
	return m + math.Log(s)
}

// NormalizeLogShift sets dst as NormalizeLogTo does and returns the log
// normaliser in two parts: m = max_i logw[i] and s = Σ_i exp(logw[i] − m),
// so that LogSumExp(logw) = m + ln s and ln dst[i] = (logw[i] − m) − ln s,
// the latter without the rounding of m + ln s to the ulp of m. If m is
// −Inf, +Inf or NaN (a NaN entry), dst is filled with NaN and s is NaN.
// It panics if the lengths differ; dst and logw may be the same slice.
func NormalizeLogShift(dst, logw []float64) (m, s float64) {
	if len(dst) != len(logw) {
		panic("numeric: length mismatch")
	}
	m = math.Inf(-1)
	for _, v := range logw {
		if math.IsNaN(v) {
			m = v
			break
		}
		if v > m {
			m = v
		}
	}
	if math.IsInf(m, 0) || math.IsNaN(m) {
		for i := range dst {
			dst[i] = math.NaN()
		}
		return m, math.NaN()
	}
	// Weights are exp(v − m)/s rather than exp(v − lse): lse is rounded to
	// the ulp of m, which would leave the weights summing to 1 ± |m|·ε.
	for i, v := range logw {
		e := math.Exp(v - m)
		dst[i] = e
		s += e
	}
	for i := range dst {
		dst[i] /= s
	}
	return m, s
}

// XLogY returns x·ln y with the convention 0·ln y = 0 for every y (in
// particular 0·ln 0 = 0), as needed by entropies and by the VB bound terms
// Σ count·E[ln θ] where a count is zero.
func XLogY(x, y float64) float64 {
	if x == 0 {
		return 0
	}
	return x * math.Log(y)
}

// Entropy returns the entropy −Σ_j p_j ln p_j (nats) of the categorical
// distribution p, with 0·ln 0 = 0. It does not check that p sums to one.
func Entropy(p []float64) float64 {
	var h float64
	for _, v := range p {
		h -= XLogY(v, v)
	}
	return h
}

// LogProduct accumulates Σ_i ln x_i as a product whose binary exponent is
// split off (math.Frexp) whenever it strays far from 1: about one multiply
// a term in place of a logarithm, and one logarithm in Log. The relative error of the
// product grows by about one rounding a term, so the sum is exact to about
// n·2⁻⁵³ in absolute terms. A term that is not positive and finite adds
// math.Log(x) (−Inf, +Inf or NaN) directly, so Log is what Σ math.Log(x_i)
// would be. The zero value is the empty sum.
type LogProduct struct {
	frac   float64 // the product's fraction, within [2⁻⁵⁰⁰, 2⁵⁰⁰]; 0 before the first term
	exp    int     // its binary exponent
	direct float64 // Σ ln x of the terms that are not positive and finite
}

// Add multiplies x into the product. The fraction is renormalised by
// Frexp only when it leaves [2⁻⁵⁰⁰, 2⁵⁰⁰] (a term outside that range is
// split first), so most terms cost one multiply and two comparisons.
func (p *LogProduct) Add(x float64) {
	if !(x > 0) || math.IsInf(x, 1) {
		p.direct += math.Log(x)
		return
	}
	if p.frac == 0 {
		p.frac = 1
	}
	if x < 0x1p-500 || x > 0x1p500 {
		f, e := math.Frexp(x)
		x, p.exp = f, p.exp+e
	}
	p.frac *= x
	if p.frac < 0x1p-500 || p.frac > 0x1p500 {
		f, e := math.Frexp(p.frac)
		p.frac, p.exp = f, p.exp+e
	}
}

// Log returns Σ ln x_i of the terms added (0 for none).
func (p *LogProduct) Log() float64 {
	if p.frac == 0 {
		return p.direct
	}
	return p.direct + math.Log(p.frac) + float64(p.exp)*math.Ln2
}
