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
}

// withDefaults replaces every field ≤ 0 by its default (cmp.Or of the
// field clamped at 0).
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
func (pr *Problem) Dimensions(thetaHat Params, set DimSettings, rnd *rand.Rand) Dims {
	pr.checkLen(thetaHat)
	set = set.withDefaults()
	pl := &pr.pl
	np, h := len(pl.w), pl.h
	// Rows of C′: the distinct (pattern, configuration) pairs drawn.
	used := make([]bool, np*h)
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
	c := mat.NewDense(np, set.R, nil)
	cp := mat.NewDense(len(pairs), set.R, nil)
	plus, minus := make(Params, len(thetaHat)), make(Params, len(thetaHat))
	u := make([]float64, len(thetaHat))
	lp, lm := make([]float64, np), make([]float64, np)
	lpP, lmP := make([]float64, len(pairs)), make([]float64, len(pairs))
	for r := 0; r < set.R; r++ {
		for i := range u {
			u[i] = rnd.NormFloat64()
		}
		pr.perturb(plus, thetaHat, u, set.Epsilon)
		pr.perturb(minus, thetaHat, u, -set.Epsilon)
		pr.rowLogLiks(plus, lp, lpP, pairs)
		pr.rowLogLiks(minus, lm, lmP, pairs)
		for i := range lp {
			c.Set(i, r, 0.5*(lp[i]-lm[i]))
		}
		for i := range lpP {
			cp.Set(i, r, 0.5*(lpP[i]-lmP[i]))
		}
	}
	var d Dims
	d.D, d.Sigma = rank(c, set.RelTol)
	d.DPrime, d.SigmaPrime = rank(cp, set.RelTol)
	return d
}

// perturb sets dst ∝ θ · exp(eps·u) row by row.
func (pr *Problem) perturb(dst, theta Params, u []float64, eps float64) {
	for r, start := range pr.rowStart {
		end := start + pr.rowLen[r]
		var s float64
		for k := start; k < end; k++ {
			dst[k] = theta[k] * math.Exp(eps*u[k])
			s += dst[k]
		}
		for k := start; k < end; k++ {
			dst[k] /= s
		}
	}
}

// rowLogLiks sets inc[p] = ln p(y_p|θ) for every pattern and com[i] =
// ln p(s, y_p|θ) for every (pattern, configuration) pair pairs[i] = p·H + s.
func (pr *Problem) rowLogLiks(theta Params, inc, com []float64, pairs []int) {
	pl := &pr.pl
	h, jc, jv := pl.h, pl.jc, pl.jv
	for p := range pl.w {
		ci := pl.cidx[p*jc : (p+1)*jc]
		vi := pl.vidx[p*h*jv : (p+1)*h*jv]
		inc[p] = logPattern(theta, ci, vi, h, jv, nil)
	}
	for i, pc := range pairs {
		p, c := pc/h, pc%h
		var l float64
		for _, k := range pl.cidx[p*jc : (p+1)*jc] {
			l += math.Log(theta[k])
		}
		for _, k := range pl.vidx[(p*h+c)*jv : (p*h+c+1)*jv] {
			l += math.Log(theta[k])
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
