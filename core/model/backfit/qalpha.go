package backfit

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// qAlpha is q(α) = Gamma(α; â_α, b̂_α) of VB, StudentT and Classifier: one
// shape â_α and one rate (a shared α, eqs. 4.24, 4.26) or d rates (ARD, one
// α_m a coefficient, eqs. 4.27, 4.29). The three models embed it, so that
// the shape, the rates, their KL to the prior and the coefficient terms of
// the bound have one home.
type qAlpha struct {
	ard  bool
	aHat float64   // shape: fixed
	bHat []float64 // rates: one (shared) or d (ARD)
}

// startAlpha returns the starting E[α]: s.InitAlpha, or the prior mean
// a_α/b_α when it is 0; an error if that is not positive and finite.
func startAlpha(prior Prior, s Settings) (float64, error) {
	init := s.InitAlpha
	if init == 0 {
		init = prior.A / prior.B
	}
	if !(init > 0) || math.IsInf(init, 0) {
		return 0, fmt.Errorf("backfit: starting E[alpha] %g: must be positive and finite", init)
	}
	return init, nil
}

// newQAlpha returns q(α) with mean init for d coefficients, each α seen
// per times by the bound: â_α = a_α + per/2 with ARD, a_α + per·d/2 shared
// (per = 1 for VB and Classifier, eqs. 4.26, 4.29; per = N for StudentT,
// whose α also scales the N fake targets' noise, eq. 4.30).
func newQAlpha(prior Prior, ard bool, per float64, d int, init float64) qAlpha {
	q := qAlpha{ard: ard}
	if ard {
		q.aHat, q.bHat = prior.A+0.5*per, make([]float64, d)
	} else {
		q.aHat, q.bHat = prior.A+0.5*per*float64(d), make([]float64, 1)
	}
	for k := range q.bHat {
		q.bHat[k] = q.aHat / init
	}
	return q
}

// alphaIndex returns the index into bHat of coefficient k's precision.
func (q *qAlpha) alphaIndex(k int) int {
	if q.ard {
		return k
	}
	return 0
}

// alphaK returns q(α_k), the gamma factor of coefficient k's precision.
func (q *qAlpha) alphaK(k int) dist.Gamma {
	return dist.Gamma{Alpha: q.aHat, Beta: q.bHat[q.alphaIndex(k)]}
}

// klAlpha returns KL(q(α) ‖ p(α)), summed over the rates: dist.KLGamma of
// each q(α_k) = Ga(â_α, b̂_k), whose terms in the one shape â_α alone
// (ln Γ, ψ) are computed once for all d rates (TestQAlphaTerms).
func (q *qAlpha) klAlpha(prior Prior) float64 {
	pa, pb := prior.A, prior.B
	shape := numeric.LogGamma(pa) - numeric.LogGamma(q.aHat) - pa*math.Log(pb)
	if d := q.aHat - pa; d != 0 {
		shape += d * numeric.Digamma(q.aHat)
	}
	kl := float64(len(q.bHat)) * shape
	for _, b := range q.bHat {
		kl += pa * math.Log(b)
		if d := pb - b; d != 0 {
			kl += q.aHat * d / b
		}
	}
	return kl
}

// coefTerms returns the coefficient terms of VB's and Classifier's bound
// for q(b) = Π_m N(μ_bm, σ²_bm) (v holds σ²_bm) with fake-target noise ψ_z:
//
//	cv = −Σ_m σ²_bm Σ_i f_im²/(2ψ_zm)                        (TermCoefVar)
//	pb = Σ_m ½[⟨ln α_m⟩ − ln 2π − ⟨α_m⟩(μ_bm² + σ²_bm)]     (TermPriorB, E[ln p(b|α)])
//	hb = Σ_m ½ ln(2πe σ²_bm)                                 (TermEntropyB, H[q(b)])
//
// ff holds Σ_i f_im² (Problem.ff); ⟨ln α_m⟩ = ψ(â_α) − ln b̂_m, ψ(â_α) once.
func (q *qAlpha) coefTerms(ff, psiZ, mu, v []float64) (cv, pb, hb float64) {
	psiA := numeric.Digamma(q.aHat)
	for k, vk := range v {
		cv -= 0.5 * vk * ff[k] / psiZ[k]
		b := q.bHat[q.alphaIndex(k)]
		pb += 0.5 * (psiA - math.Log(b) - ln2Pi - q.aHat/b*(mu[k]*mu[k]+vk))
		hb += 0.5 * (math.Log(vk) + ln2Pi + 1)
	}
	return cv, pb, hb
}
