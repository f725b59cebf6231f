package mcmc

import "math"

// Diagnostics of MCMC output: the effective sample size by Geyer's (1992)
// initial monotone sequence estimator, pooled over chains as in Gelman et
// al. (2013, BDA3 §11.5), and the split-R̂ of Gelman et al. (BDA3 §11.4).

// autocov writes the autocovariances γ_t = (1/n) Σ_{i<n−t} (x_i − x̄)(x_{i+t} − x̄)
// of x for t = 0..len(dst)−1 into dst (the divisor n keeps the sequence
// positive definite) and returns x̄.
func autocov(dst, x []float64) float64 {
	n := len(x)
	var m float64
	for _, v := range x {
		m += v
	}
	m /= float64(n)
	for t := range dst {
		var s float64
		for i := 0; i+t < n; i++ {
			s += (x[i] - m) * (x[i+t] - m)
		}
		dst[t] = s / float64(n)
	}
	return m
}

// ESS returns the effective sample size n/τ̂ of one chain x, with the
// integrated autocorrelation time
//
//	τ̂ = −1 + 2 Σ_{k=0}^{K} Γ̂_k,   Γ̂_k = ρ̂_{2k} + ρ̂_{2k+1},
//
// where K is the last k before the first negative Γ̂_k and the Γ̂_k are
// made non-increasing (Geyer's initial monotone sequence estimator). For
// an AR(1) chain with coefficient φ, τ = (1+φ)/(1−φ). ESS is NaN for fewer
// than 4 values and 1 for a constant chain (a chain that never moved is
// worth one value; one whose values differ by rounding alone gets about 1
// too, its autocorrelations being near 1).
func ESS(x []float64) float64 { return ESSChains([][]float64{x}) }

// IntegratedTime returns τ̂ of ESS for one chain: ESS = n/τ̂.
func IntegratedTime(x []float64) float64 { return float64(len(x)) / ESS(x) }

// ESSChains returns the effective sample size of M chains of equal length
// n pooled as in BDA3 §11.5 (and Stan): the autocorrelation at lag t is
//
//	ρ̂_t = 1 − (W − (1/M) Σ_m γ̂_{t,m}) / var⁺,   var⁺ = (n−1)/n W + B/n,
//
// with W the mean within-chain variance and B/n the variance of the chain
// means, and ESS = M n / τ̂ with Geyer's initial monotone sequence as in
// ESS. For M = 1 it uses the chain's own ρ̂_t = γ̂_t/γ̂_0. Chains of
// unequal length are cut to the shortest. It is NaN for no chains or
// fewer than 4 values per chain.
func ESSChains(chains [][]float64) float64 {
	m := len(chains)
	if m == 0 {
		return math.NaN()
	}
	n := len(chains[0])
	for _, c := range chains {
		n = min(n, len(c))
	}
	if n < 4 {
		return math.NaN()
	}
	// Autocovariances are computed lag by lag, in blocks, until Geyer's
	// sequence turns negative: the cost is n times the lags needed.
	means := make([]float64, m)
	gam := make([][]float64, m)
	for c := range chains {
		gam[c] = make([]float64, 1)
		means[c] = autocov(gam[c], chains[c][:n])
	}
	var w, mm float64
	for c := range chains {
		w += gam[c][0] * float64(n) / float64(n-1)
		mm += means[c]
	}
	w /= float64(m)
	mm /= float64(m)
	var b float64 // B/n
	if m > 1 {
		for _, v := range means {
			b += (v - mm) * (v - mm)
		}
		b /= float64(m - 1)
	}
	varPlus := float64(n-1)/float64(n)*w + b
	if !(varPlus > 0) {
		if varPlus == 0 {
			return 1 // every value the same: one value's worth
		}
		return math.NaN()
	}
	rho := func(t int) float64 {
		var s float64
		for c := range chains {
			for len(gam[c]) <= t {
				// extend by a block of lags
				l := min(n, 2*len(gam[c])+8)
				gam[c] = make([]float64, l)
				autocov(gam[c], chains[c][:n])
			}
			s += gam[c][t]
		}
		s /= float64(m)
		if m == 1 {
			return s / gam[0][0]
		}
		return 1 - (w-s)/varPlus
	}
	// Geyer: τ = −1 + 2 Σ_k Γ_k while Γ_k > 0, Γ_k non-increasing.
	tau := -1.0
	prev := math.Inf(1)
	for k := 0; 2*k+1 < n; k++ {
		g := rho(2*k) + rho(2*k+1)
		if !(g > 0) {
			break
		}
		g = min(g, prev)
		prev = g
		tau += 2 * g
	}
	tau = max(tau, 1/math.Log10(float64(m*n))) // Stan's floor against antithetic chains
	return float64(m*n) / tau
}

// SplitRHat returns the split-R̂ of Gelman et al. (BDA3 §11.4) over the
// chains: each chain is cut into halves (its middle value dropped when its
// length is odd, all cut to the shortest), and with W the mean of the
// halves' variances (divisor n−1) and B/n the variance of their means,
//
//	R̂ = √(var⁺/W),   var⁺ = (n−1)/n W + B/n.
//
// R̂ is near 1 for chains that have mixed and well above 1 for chains in
// different regions (a single chain split in two tests its stationarity).
// It is NaN for fewer than 4 values per chain and when every value is the
// same (nothing to compare; the ESS and the acceptance rate tell a stuck
// chain).
func SplitRHat(chains [][]float64) float64 {
	if len(chains) == 0 {
		return math.NaN()
	}
	n := len(chains[0])
	for _, c := range chains {
		n = min(n, len(c))
	}
	h := n / 2
	if h < 2 {
		return math.NaN()
	}
	halves := make([][]float64, 0, 2*len(chains))
	for _, c := range chains {
		halves = append(halves, c[:h], c[n-h:n])
	}
	m := len(halves)
	means := make([]float64, m)
	var w, mm float64
	for j, c := range halves {
		var s float64
		for _, v := range c {
			s += v
		}
		means[j] = s / float64(h)
		var ss float64
		for _, v := range c {
			ss += (v - means[j]) * (v - means[j])
		}
		w += ss / float64(h-1)
		mm += means[j]
	}
	w /= float64(m)
	mm /= float64(m)
	var b float64
	for _, v := range means {
		b += (v - mm) * (v - mm)
	}
	b /= float64(m - 1)
	if w == 0 {
		if b == 0 {
			return math.NaN()
		}
		return math.Inf(1)
	}
	return math.Sqrt((float64(h-1)/float64(h)*w + b) / w)
}
