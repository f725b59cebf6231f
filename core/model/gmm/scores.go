package gmm

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// The point scores of the mixture: a point estimate θ̂ = (π, μ, Λ), the E
// step at it, EM for the MAP point, the completed-data evidence at
// fractional responsibilities and the Cheeseman–Stutz score built from them
// (Beal (2003) eqs. (6.27)–(6.34), the mixture's counterpart of
// core/model/dag's CheesemanStutz).

// Params is a point θ̂ = (π, μ, Λ) of the mixture of K components in D
// dimensions. A component of weight 0 is empty: it takes no point, and its
// mean and precision are not read.
type Params struct {
	K, D       int
	Weights    []float64 // π_k (K), summing to 1
	Means      []float64 // μ_k (K×D)
	Precisions []float64 // Λ_k (K×D×D), symmetric positive definite
}

// newParams returns zero parameters of K components in D dimensions.
func newParams(k, d int) Params {
	return Params{K: k, D: d, Weights: make([]float64, k), Means: make([]float64, k*d), Precisions: make([]float64, k*d*d)}
}

// PosteriorMean returns VB's posterior-mean parameters: π_k = E[π_k] (the
// corrected (10.69)), μ_k = m_k and Λ_k = E[Λ_k] = ν_k W_k (B.80) of
// q(μ_k, Λ_k) (10.59).
func PosteriorMean(m *VB) (Params, error) {
	k, d := m.k, m.d
	t := newParams(k, d)
	m.MeanWeights(t.Weights)
	copy(t.Means, m.m)
	for c := range k {
		lc := t.Precisions[c*d*d : (c+1)*d*d]
		if _, ok := numeric.InverseSPD(lc, m.winv[c*d*d:(c+1)*d*d], d); !ok {
			return t, fmt.Errorf("gmm: W⁻¹ of component %d is not positive definite", c)
		}
		for i := range lc {
			lc[i] *= m.nu[c]
		}
	}
	return t, nil
}

// EStep writes the responsibilities r_nk = p(z_n = k | x_n, θ̂) (PRML
// (9.23)) into resp (K×N component-major, the layout of VB) and returns
// ln p(X | θ̂) = Σ_n ln Σ_k π_k N(x_n | μ_k, Λ_k⁻¹) (9.14) and the
// completed-data log-likelihood at these responsibilities,
// ln p(X, R | θ̂) = Σ_n Σ_k r_nk ln[π_k N(x_n | μ_k, Λ_k⁻¹)] (9.40), an empty
// component adding nothing (0·ln 0 = 0). It returns an error if a
// precision is not positive definite or the data are impossible under θ̂.
func (t Params) EStep(x, resp []float64) (logLik, completeLogLik float64, err error) {
	k, d := t.K, t.D
	n := len(x) / d
	ls := make([]float64, k*d*d)
	gc := make([]float64, k)
	for c := range k {
		if t.Weights[c] == 0 {
			gc[c] = math.Inf(-1)
			continue
		}
		lc := ls[c*d*d : (c+1)*d*d]
		copy(lc, t.Precisions[c*d*d:(c+1)*d*d])
		if !numeric.CholFactor(lc, d) {
			return 0, 0, fmt.Errorf("gmm: the precision of component %d is not positive definite", c)
		}
		gc[c] = math.Log(t.Weights[c]) + gaussConst(lc, d)
	}
	lp := make([]float64, k)
	for i := range n {
		xi := x[i*d : (i+1)*d]
		for c := range k {
			lp[c] = gc[c]
			if !math.IsInf(gc[c], -1) {
				lp[c] -= 0.5 * quadL(ls[c*d*d:(c+1)*d*d], xi, t.Means[c*d:(c+1)*d], d)
			}
		}
		lz := numeric.LogSumExp(lp)
		if math.IsInf(lz, -1) || math.IsNaN(lz) {
			return 0, 0, fmt.Errorf("gmm: point %d has probability 0 under θ̂", i)
		}
		logLik += lz
		for c := range k {
			r := math.Exp(lp[c] - lz)
			resp[c*n+i] = r
			if r > 0 {
				completeLogLik += r * lp[c]
			}
		}
	}
	return logLik, completeLogLik, nil
}

// CompletedLogEvidence returns ln p(X, R | K), the evidence of the data
// completed by the fractional assignments R (K×N component-major, each
// column summing to 1),
//
//	ln p(X, R) = ln ∫ Dir(π | α₀) Π_k π_k^{N_k} dπ + Σ_k ln ∫ p(μ_k, Λ_k) Π_n N(x_n | μ_k, Λ_k⁻¹)^{r_nk} dμ_k dΛ_k,
//
// N_k = Σ_n r_nk: the Dirichlet-multinomial of the expected counts (Beal
// (2003) eq. (6.32)) and each component's Normal-Wishart evidence of its
// weighted statistics N_k, Σ_n r_nk x_n, Σ_n r_nk x_n x_nᵀ, the ratio of the
// posterior and prior normalisers of (10.60)–(10.63) with (B.79) (the
// weighted likelihood is an exponential family in the same statistics, so
// the integral is closed form at fractional counts). At hard assignments it
// is one term of LogEvidenceExact's sum; at K = 1 it is LogEvidenceOne.
func CompletedLogEvidence(x []float64, d int, resp []float64, k int, p Prior) (float64, error) {
	if err := checkEvidenceArgs(x, d, p); err != nil {
		return 0, err
	}
	n := len(x) / d
	if k < 1 || len(resp) != k*n {
		return 0, fmt.Errorf("gmm: %d responsibilities for K = %d and N = %d", len(resp), k, n)
	}
	c := newConsts(p)
	u := make([]float64, k)
	counts := make([]float64, k)
	s := newNWStats(d)
	scratch := make([]float64, d+d*d)
	var lp float64
	for j := range k {
		u[j] = p.Alpha0
		s.reset()
		for i := range n {
			if r := resp[j*n+i]; r != 0 {
				if !(r > 0 && r <= 1+1e-12) {
					return 0, fmt.Errorf("gmm: responsibility r[%d][%d] = %v is not in [0, 1]", j, i, r)
				}
				s.add(x[i*d:(i+1)*d], r)
			}
		}
		counts[j] = s.n
		e := s.logEvidence(p, c, scratch)
		if math.IsNaN(e) {
			return 0, fmt.Errorf("gmm: the posterior scale of component %d is not positive definite", j)
		}
		lp += e
	}
	return lp + dist.DirichletLogMarginalCounts(u, counts), nil
}

// CheesemanStutz returns the Cheeseman–Stutz score at θ̂ with the
// completion R (Beal (2003) eqs. (6.27)–(6.31)),
//
//	ln p_CS = ln p(X, R | K) + ln p(X | θ̂) − ln p(X, R | θ̂),
//
// with CompletedLogEvidence and the two log-likelihoods of EStep. With R
// nil, R is the E step at θ̂ (Beal's CS: the expected sufficient statistics
// at θ̂); then, the joint being linear in the assignments,
// ln p_CS = ln p(X, R) + H(R) is VB's bound F at q(Z) = R and the optimal
// q(θ) given it, so it is a lower bound on ln p(X | K) for every θ̂ (Beal
// (2003) Theorem 2.3), and it equals ln p(X) at K = 1. Given another R (VB's
// q(Z)) it is F(R) + Σ_n KL(r_n ‖ p(z_n | x_n, θ̂)), not a bound. No ln K! is
// added.
func CheesemanStutz(x []float64, d int, p Prior, theta Params, resp []float64) (float64, error) {
	if theta.D != d || p.Dim() != d {
		return 0, fmt.Errorf("gmm: CheesemanStutz: θ̂ of dimension %d, prior %d, data %d", theta.D, p.Dim(), d)
	}
	n := len(x) / d
	own := make([]float64, theta.K*n)
	ll, cll, err := theta.EStep(x, own)
	if err != nil {
		return 0, err
	}
	if resp != nil {
		if len(resp) != theta.K*n {
			return 0, fmt.Errorf("gmm: CheesemanStutz: %d responsibilities for K = %d and N = %d", len(resp), theta.K, n)
		}
		// ln p(X, R | θ̂) = Σ_ik r_ik [ln r_ik(θ̂) + ln p(x_i | θ̂)] at the given
		// R, whose columns sum to 1, with the E step's own r_ik(θ̂).
		cll = ll
		for i := range n {
			var sum float64
			for c := range theta.K {
				r := resp[c*n+i]
				sum += r
				if r == 0 {
					continue
				}
				if own[c*n+i] == 0 {
					return 0, fmt.Errorf("gmm: CheesemanStutz: R gives point %d to component %d, impossible under θ̂", i, c)
				}
				cll += r * math.Log(own[c*n+i])
			}
			if math.Abs(sum-1) > 1e-9 {
				return 0, fmt.Errorf("gmm: CheesemanStutz: the responsibilities of point %d sum to %v, not 1", i, sum)
			}
		}
	} else {
		resp = own
	}
	lc, err := CompletedLogEvidence(x, d, resp, theta.K, p)
	if err != nil {
		return 0, err
	}
	return lc + ll - cll, nil
}

// MAPEM runs EM for the MAP point of ln p(X | θ) + ln p(θ) under the prior
// of p (PRML §9.2.2 with the conjugate prior; Beal (2003) §6.3.1's EM with
// MAP M steps), from the responsibilities resp (K×N component-major, e.g.
// VB's q(Z)): the M step at expected counts N_k with the Normal-Wishart
// posterior (β_N, m_N, W_N, ν_N) of (10.60)–(10.63) sets
//
//	π_k ∝ max(0, N_k + α₀ − 1),  μ_k = m_N,  Λ_k = (ν_N − D) W_N,
//
// the joint mode of Dir(α₀ + N) and of NW(m_N, β_N, W_N, ν_N), and the E step
// is EStep. A component whose weight or ν_N − D falls to at most 1e-12
// (with ν₀ = D an emptying component's precision goes to 0 with its
// count) is made empty and stays so. It stops when no responsibility
// changes by more than tol, or after maxIter E steps, and returns θ̂, its
// responsibilities and the E steps made.
func MAPEM(x []float64, d int, p Prior, resp []float64, maxIter int, tol float64) (Params, []float64, int, error) {
	if err := checkEvidenceArgs(x, d, p); err != nil {
		return Params{}, nil, 0, err
	}
	n := len(x) / d
	if len(resp) == 0 || len(resp)%n != 0 {
		return Params{}, nil, 0, fmt.Errorf("gmm: MAPEM: %d responsibilities for N = %d", len(resp), n)
	}
	k := len(resp) / n
	c := newConsts(p)
	r := append([]float64(nil), resp...)
	next := make([]float64, len(r))
	t := newParams(k, d)
	s := newNWStats(d)
	winv := make([]float64, d*d)
	df := float64(d)
	empty := make([]bool, k)
	for it := 1; ; it++ {
		// M step.
		var tot float64
		for j := range k {
			if empty[j] {
				t.Weights[j] = 0
				continue
			}
			s.reset()
			for i := range n {
				if v := r[j*n+i]; v != 0 {
					s.add(x[i*d:(i+1)*d], v)
				}
			}
			_, nuN := s.posterior(p, c.w0inv, t.Means[j*d:(j+1)*d], winv)
			w := math.Max(0, s.n+p.Alpha0-1)
			if w <= 1e-12 || nuN-df <= 1e-12 {
				empty[j], t.Weights[j] = true, 0
				continue
			}
			lj := t.Precisions[j*d*d : (j+1)*d*d]
			if _, ok := numeric.InverseSPD(lj, winv, d); !ok {
				return t, r, it, fmt.Errorf("gmm: MAPEM: W_N⁻¹ of component %d is not positive definite", j)
			}
			for a := range lj {
				lj[a] *= nuN - df
			}
			t.Weights[j] = w
			tot += w
		}
		if tot == 0 {
			return t, r, it, errors.New("gmm: MAPEM: every component is empty")
		}
		for j := range t.Weights {
			t.Weights[j] /= tot
		}
		// E step.
		if _, _, err := t.EStep(x, next); err != nil {
			return t, r, it, fmt.Errorf("gmm: MAPEM: %w", err)
		}
		var change float64
		for i, v := range next {
			change = math.Max(change, math.Abs(v-r[i]))
		}
		r, next = next, r
		if change <= tol || it >= maxIter {
			return t, r, it, nil
		}
	}
}
