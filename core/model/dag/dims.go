package dag

import (
	"cmp"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// DimSettings control Dimensions. The zero value of every field is the
// documented default.
type DimSettings struct {
	// R is the number of random perturbations. Default 100 (line 4981).
	R int
	// Epsilon is the perturbation size in the softmax basis. Default 1e-5.
	Epsilon float64
	// RelTol counts the singular values above RelTol·σ_max. Default 1e-6.
	RelTol float64
	// UniformMix is the weight w of the uniform distribution mixed into
	// every row of θ̂ before it is perturbed, θ̂_jl ← (1 − w)·θ̂_jl + w/|z_j|
	// [resolution, an option]. The default 0 perturbs θ̂ itself, as
	// Algorithm 6.2 does. A small w (1e-8) moves the exact zeros that ML-EM
	// can leave in θ̂ into the interior, so that every entry moves under the
	// perturbation and no row of the matrices is dropped; every entry moves
	// by at most w. The zero entries then count as directions: d′ is one
	// higher per zero that a drawn pair uses (9 rather than 8 in the
	// known-answer model with one zero). Values outside [0, 1) panic.
	UniformMix float64
}

// withDefaults replaces R, Epsilon and RelTol ≤ 0 by their defaults (cmp.Or
// of the field clamped at 0).
func (s DimSettings) withDefaults() DimSettings {
	s.R = cmp.Or(max(s.R, 0), 100)
	s.Epsilon = cmp.Or(max(s.Epsilon, 0), 1e-5)
	s.RelTol = cmp.Or(max(s.RelTol, 0), 1e-6)
	return s
}

// Dims is the outcome of Algorithm 6.2.
type Dims struct {
	D, DPrime int // incomplete- and complete-data dimensionalities d, d′
	// Sigma and SigmaPrime are the singular values of the perturbation
	// matrices of d and d′, in decreasing order.
	Sigma, SigmaPrime []float64
	// Dropped and DroppedPrime count the rows left out of the matrices of
	// d (distinct patterns) and d′ (distinct (pattern, s) pairs) because
	// their log-likelihood is −∞ at θ̂.
	Dropped, DroppedPrime int
}

// LargestGap returns the index i (the rank it suggests, i+1) at which the
// ratio σ_i/σ_{i+1} of consecutive positive singular values is largest, and
// that ratio; (0, NaN) when fewer than two are positive.
func LargestGap(sigma []float64) (int, float64) {
	best, ratio := 0, math.NaN()
	for i := 0; i+1 < len(sigma) && sigma[i+1] > 0; i++ {
		if r := sigma[i] / sigma[i+1]; !(r <= ratio) {
			best, ratio = i, r
		}
	}
	return best, ratio
}

// Dimensions estimates the effective dimensionalities d and d′ of the
// incomplete- and complete-data models around θ̂ by Algorithm 6.2 of Beal
// (2003) (lines 4965–4979) with the resolutions of targets §2.9:
//
//   - θ̂ is perturbed R times in the softmax basis,
//     θ_r ∝ θ̂ · exp(±ε u_r), u_r ~ N(0, I), which keeps every row on the
//     simplex (a zero entry of θ̂ cannot move);
//   - column r of the matrix of d holds ln p(y_i|θ_r) − ln p(y_i|θ̂); its
//     rank is d (the thesis's rank(C) − 1, numerically robust). The column
//     is the central difference of the +ε and −ε perturbations, which
//     removes the second-order term: with one-sided differences it is
//     ε times the first-order one and, for ε = 1e-5, above the rank
//     tolerance of 1e-6 [resolution];
//   - the matrix of d′ does the same with ln p(s_i, y_i|θ), s_i a uniformly
//     random hidden configuration for every datum (step (f));
//   - the rank counts singular values above RelTol·σ_max.
//
// Duplicate rows do not change a rank, so each distinct pattern (for d) and
// each distinct (pattern, s) pair (for d′) gives one row. The data should
// cover the observed configurations well (the thesis uses n = 1000); the
// rank cannot exceed R or the number of rows.
//
// Exact zeros in θ̂. ML-EM can leave exact zeros in θ̂ (an expected count
// that underflows: 13 of the 136 chapter-6 structures on 100 points). A
// (pattern, s) pair that uses a zero entry has ln p(s, y|θ) = −∞ at θ̂ and
// at every perturbation, which cannot move the entry: its row is −∞ − (−∞),
// carries no direction, and is dropped before the matrix is built
// [resolution]; so is a pattern impossible under θ̂ (Dims.Dropped,
// DroppedPrime). The zero entries themselves are then directions that no
// row sees, as the perturbation never moves them. DimSettings.UniformMix
// is the alternative that keeps every row.
func (pr *Problem) Dimensions(thetaHat Params, set DimSettings, rnd *rand.Rand) Dims {
	pr.checkLen(thetaHat)
	set = set.withDefaults()
	theta := pr.mixUniform(thetaHat, set.UniformMix)
	return pr.dimensionsOn(theta, pr.drawPairs(rnd), set, rnd)
}

// drawPairs draws a uniformly random hidden configuration s for every
// datum and returns the distinct (pattern, configuration) pairs drawn,
// p·H + s, in the order first drawn (step (f) of Algorithm 6.2).
func (pr *Problem) drawPairs(rnd *rand.Rand) []int {
	pl := &pr.pl
	h := pl.h
	used := make([]bool, len(pl.w)*h)
	var pairs []int
	for p, w := range pl.w {
		for range int(w) {
			c := rnd.IntN(h)
			if !used[p*h+c] {
				used[p*h+c] = true
				pairs = append(pairs, p*h+c)
			}
		}
	}
	return pairs
}

// dimensionsOn is Dimensions at θ with the (pattern, configuration) pairs
// of the matrix of d′ given: the rows whose log-likelihood is −∞ at θ are
// dropped, and the R perturbations drawn from rnd.
func (pr *Problem) dimensionsOn(theta Params, pairs []int, set DimSettings, rnd *rand.Rand) Dims {
	np := len(pr.pl.w)
	var d Dims
	lnTheta := make([]float64, len(theta))
	for k, v := range theta {
		lnTheta[k] = math.Log(v)
	}
	// The rows finite at θ, which the perturbations keep finite.
	l0, l0P := make([]float64, np), make([]float64, len(pairs))
	pr.rowLogLiks(lnTheta, l0, l0P, pairs)
	var rows []int
	for p, v := range l0 {
		if math.IsInf(v, -1) {
			d.Dropped++
		} else {
			rows = append(rows, p)
		}
	}
	kept := pairs[:0:0]
	for i, v := range l0P {
		if math.IsInf(v, -1) {
			d.DroppedPrime++
		} else {
			kept = append(kept, pairs[i])
		}
	}
	c := mat.NewDense(max(len(rows), 1), set.R, nil)
	cp := mat.NewDense(max(len(kept), 1), set.R, nil)
	plus, minus := make([]float64, len(theta)), make([]float64, len(theta))
	u := make([]float64, len(theta))
	lp, lm := make([]float64, np), make([]float64, np)
	lpP, lmP := make([]float64, len(kept)), make([]float64, len(kept))
	for r := 0; r < set.R; r++ {
		for i := range u {
			u[i] = rnd.NormFloat64()
		}
		pr.perturb(plus, lnTheta, u, set.Epsilon)
		pr.perturb(minus, lnTheta, u, -set.Epsilon)
		pr.rowLogLiks(plus, lp, lpP, kept)
		pr.rowLogLiks(minus, lm, lmP, kept)
		for i, p := range rows {
			c.Set(i, r, 0.5*(lp[p]-lm[p]))
		}
		for i := range lpP {
			cp.Set(i, r, 0.5*(lpP[i]-lmP[i]))
		}
	}
	d.D, d.Sigma = rank(c, set.RelTol)
	d.DPrime, d.SigmaPrime = rank(cp, set.RelTol)
	return d
}

// mixUniform returns θ with every row mixed with the uniform distribution
// by weight w, (1 − w)·θ_jl + w/|z_j| (DimSettings.UniformMix); θ itself
// when w = 0.
func (pr *Problem) mixUniform(theta Params, w float64) Params {
	if w == 0 {
		return theta
	}
	if !(w > 0 && w < 1) {
		panic("dag: DimSettings.UniformMix outside [0, 1)")
	}
	out := theta.Clone()
	for r, start := range pr.rowStart {
		for k := start; k < start+pr.rowLen[r]; k++ {
			out[k] = (1-w)*out[k] + w/float64(pr.rowLen[r])
		}
	}
	return out
}

// perturb sets lnDst to the logarithm of θ ∝ θ̂ · exp(eps·u) row by row,
// given lnTheta = ln θ̂, computed in the log domain,
//
//	ln θ_jlk = ln θ̂_jlk + eps·u_jlk − ln Σ_k′ θ̂_jlk′ exp(eps·u_jlk′),
//
// so that an entry too small for the probability domain (a subnormal θ̂,
// which ML-EM leaves where a count nearly underflows) moves by eps·u too;
// in the probability domain its perturbation would be lost to rounding.
func (pr *Problem) perturb(lnDst, lnTheta, u []float64, eps float64) {
	for r, start := range pr.rowStart {
		end := start + pr.rowLen[r]
		m := math.Inf(-1)
		for k := start; k < end; k++ {
			lnDst[k] = lnTheta[k] + eps*u[k]
			m = math.Max(m, lnDst[k])
		}
		var s float64
		for k := start; k < end; k++ {
			s += math.Exp(lnDst[k] - m)
		}
		lz := m + math.Log(s)
		for k := start; k < end; k++ {
			lnDst[k] -= lz
		}
	}
}

// rowLogLiks sets inc[p] = ln p(y_p|θ) for every pattern and com[i] =
// ln p(s, y_p|θ) for every (pattern, configuration) pair pairs[i] = p·H + s,
// given lnTheta = ln θ, in the log domain.
func (pr *Problem) rowLogLiks(lnTheta, inc, com []float64, pairs []int) {
	pl := &pr.pl
	h, jc, jv := pl.h, pl.jc, pl.jv
	lnAt := func(i int32) float64 { return lnTheta[i] }
	for p := range pl.w {
		ci := pl.cidx[p*jc : (p+1)*jc]
		vi := pl.vidx[p*h*jv : (p+1)*h*jv]
		inc[p] = logSumConfigs(lnAt, ci, vi, h, jv, nil)
	}
	for i, pc := range pairs {
		p, c := pc/h, pc%h
		var l float64
		for _, k := range pl.cidx[p*jc : (p+1)*jc] {
			l += lnTheta[k]
		}
		for _, k := range pl.vidx[(p*h+c)*jv : (p*h+c+1)*jv] {
			l += lnTheta[k]
		}
		com[i] = l
	}
}

// rank returns the number of singular values of a above tol·σ_max, and the
// singular values.
func rank(a *mat.Dense, tol float64) (int, []float64) {
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDNone) {
		panic("dag: SVD failed")
	}
	sv := svd.Values(nil)
	if len(sv) == 0 || sv[0] == 0 {
		return 0, sv
	}
	k := 0
	for _, v := range sv {
		if v > tol*sv[0] {
			k++
		}
	}
	return k, sv
}
