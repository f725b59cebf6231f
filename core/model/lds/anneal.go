package lds

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Annealed is the tempered target of annealed importance sampling for the
// marginal likelihood p(y | α, γ, a, b, μ_0, Σ_0) of the LDS without inputs
// (Beal 2003 eqs. 5.2-5.13; AIS as in eqs. 6.49-6.61 with f_τ =
// p(θ) p(y|θ)^τ), the hyperparameters fixed at a Hyper's values. The state
// is the unconstrained vector
//
//	θ = (vec A (k×k, row-major), vec C (p×k, row-major), ln ρ_1, …, ln ρ_p),
//
// AnnealedDim(k, p) = k² + pk + p entries. LogPrior is the normalised
// density of θ under the priors of eqs. 5.8, 5.10, 5.12,
//
//	A_ji ~ N(0, 1/α_i),  C_sj | ρ_s ~ N(0, 1/(ρ_s γ_j)),  ρ_s ~ Ga(a, b),
//
// with the Jacobian ρ_s of ρ_s ↦ ln ρ_s included, so f_0 is exactly the
// prior and SamplePrior draws it exactly. LogLik is ln p(y|θ, μ_0, Σ_0) by
// the Kalman filter (eq. 5.83, via the smoother of package infer).
//
// The gradient of ln L is Fisher's identity, the expected complete-data
// gradient under the smoothed p(x_{0:T}|y, θ) (eqs. 5.77-5.86, 5.106-5.115):
//
//	∂/∂A = Σ_t (⟨x_t x_{t−1}ᵀ⟩ − A ⟨x_{t−1} x_{t−1}ᵀ⟩),
//	∂/∂c_s = ρ_s Σ_t (y_ts ⟨x_t⟩ − ⟨x_t x_tᵀ⟩ c_s),
//	∂/∂ln ρ_s = Σ_t (½ − ½ ρ_s ⟨(y_ts − c_s·x_t)²⟩),
//
// summed over sequences, so one smoother pass gives ln L and its gradient.
// Cost: LogLik and GradLogLik are one Kalman smoother pass each (LogLik
// could be the filter alone), so an HMC transition of L leapfrog steps is
// L + 2 smoother passes and an AIS estimate of G runs on K temperatures
// G·K such transitions.
//
// Annealed satisfies samplers/ais.Model[[]float64] and
// samplers/mcmc.GradTempered by its method set and is safe for concurrent
// use (scratch space from a pool).
type Annealed struct {
	y     [][]float64 // per sequence, T×p
	tmax  int
	k, p  int
	hyper Hyper
	lnC   float64 // the constant of ln p(θ)
	pool  sync.Pool
}

type ldsScratch struct {
	phi  *infer.LDSNatural
	ks   *infer.KalmanSmoother
	post infer.LDSPosterior
	rho  []float64
}

// AnnealedDim returns k² + pk + p.
func AnnealedDim(k, p int) int { return k*k + p*k + p }

// NewAnnealed returns the AIS target of a k-dimensional LDS without inputs
// on data, with the hyperparameters h (zero fields take their defaults, as
// in Settings.Hyper). It returns an error for data with inputs, an invalid
// k or invalid hyperparameters.
func NewAnnealed(data []Sequence, k int, h Hyper) (*Annealed, error) {
	if k < 1 {
		return nil, fmt.Errorf("lds: annealed target needs k ≥ 1, got %d", k)
	}
	ds, err := newDataset(data)
	if err != nil {
		return nil, err
	}
	if ds.d != 0 {
		return nil, errors.New("lds: the annealed target is for the model without inputs")
	}
	hh, err := h.withDefaults(k, 0)
	if err != nil {
		return nil, err
	}
	a := &Annealed{y: ds.y, tmax: ds.tmax, k: k, p: ds.p, hyper: hh}
	// ln p(θ) = Σ_ji [½ ln(α_i/2π) − ½ α_i A_ji²]
	//         + Σ_sj [½ ln(ρ_s γ_j/2π) − ½ ρ_s γ_j C_sj²]
	//         + Σ_s [a ln b − ln Γ(a) + a ln ρ_s − b ρ_s].
	l2π := math.Log(2 * math.Pi)
	for i := 0; i < k; i++ {
		a.lnC += float64(k) * 0.5 * (math.Log(hh.Alpha[i]) - l2π)
		a.lnC += float64(ds.p) * 0.5 * (math.Log(hh.Gamma[i]) - l2π)
	}
	an, bn := hh.NoiseShape, hh.NoiseRate
	a.lnC += float64(ds.p) * (an*math.Log(bn) - numeric.LogGamma(an))
	p := ds.p
	a.pool.New = func() any {
		s := &ldsScratch{phi: infer.NewLDSNatural(k, p, 0), ks: infer.NewKalmanSmoother(k, p, 0, ds.tmax), rho: make([]float64, p)}
		copy(s.phi.Mu0, hh.Mu0)
		copy(s.phi.Lambda0, hh.Lambda0)
		return s
	}
	return a, nil
}

// Dim returns AnnealedDim(k, p).
func (a *Annealed) Dim() int { return AnnealedDim(a.k, a.p) }

func (a *Annealed) check(theta []float64) {
	if len(theta) != a.Dim() {
		panic(fmt.Sprintf("lds: annealed state length %d, want %d", len(theta), a.Dim()))
	}
}

// split returns the views A, C and ln ρ of theta.
func (a *Annealed) split(theta []float64) (am, cm, lr []float64) {
	k, p := a.k, a.p
	return theta[:k*k], theta[k*k : k*k+p*k], theta[k*k+p*k:]
}

// LogPrior returns ln p(θ) of the priors eqs. 5.8, 5.10, 5.12 in the
// coordinates (A, C, ln ρ). It panics if len(theta) != Dim().
func (a *Annealed) LogPrior(theta []float64) float64 {
	a.check(theta)
	k, h := a.k, a.hyper
	am, cm, lr := a.split(theta)
	lp := a.lnC
	for idx, v := range am {
		lp -= 0.5 * h.Alpha[idx%k] * v * v
	}
	an, bn := h.NoiseShape, h.NoiseRate
	for s, l := range lr {
		rho := math.Exp(l)
		var q float64
		for j, v := range cm[s*k : (s+1)*k] {
			q += h.Gamma[j] * v * v
		}
		lp += 0.5*float64(k)*l - 0.5*rho*q + an*l - bn*rho
	}
	return lp
}

// GradLogPrior writes ∇ ln p(θ) into dst.
func (a *Annealed) GradLogPrior(dst, theta []float64) {
	a.check(theta)
	k, h := a.k, a.hyper
	am, cm, lr := a.split(theta)
	ga, gc, gr := a.split(dst[:a.Dim()])
	for idx, v := range am {
		ga[idx] = -h.Alpha[idx%k] * v
	}
	for s, l := range lr {
		rho := math.Exp(l)
		var q float64
		for j, v := range cm[s*k : (s+1)*k] {
			q += h.Gamma[j] * v * v
			gc[s*k+j] = -rho * h.Gamma[j] * v
		}
		gr[s] = 0.5*float64(k) - 0.5*rho*q + h.NoiseShape - h.NoiseRate*rho
	}
}

// smooth runs the smoother on every sequence at θ, calling f with each
// posterior and its outputs; it returns Σ_i ln p(y_i|θ) (−Inf if the
// smoother fails, which needs a non-finite θ).
func (a *Annealed) smooth(s *ldsScratch, theta []float64, f func(post *infer.LDSPosterior, y []float64)) float64 {
	a.check(theta)
	am, cm, lr := a.split(theta)
	for i, l := range lr {
		s.rho[i] = math.Exp(l)
	}
	for _, v := range theta {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return math.Inf(-1)
		}
	}
	s.phi.SetPoint(am, nil, cm, nil, s.rho)
	var ll float64
	for _, y := range a.y {
		if err := s.ks.Smooth(&s.post, s.phi, y, nil); err != nil {
			return math.Inf(-1)
		}
		ll += s.post.LogZ
		if f != nil {
			f(&s.post, y)
		}
	}
	if math.IsNaN(ll) {
		return math.Inf(-1)
	}
	return ll
}

// LogLik returns ln p(y|θ, μ_0, Σ_0) summed over the sequences (eq. 5.83).
// It panics if len(theta) != Dim().
func (a *Annealed) LogLik(theta []float64) float64 {
	s := a.pool.Get().(*ldsScratch)
	defer a.pool.Put(s)
	return a.smooth(s, theta, nil)
}

// GradLogLik writes ∇ ln p(y|θ) into dst by Fisher's identity (see
// Annealed); zeros where the likelihood is not finite.
func (a *Annealed) GradLogLik(dst, theta []float64) {
	s := a.pool.Get().(*ldsScratch)
	defer a.pool.Put(s)
	k, p := a.k, a.p
	dst = dst[:a.Dim()]
	clear(dst)
	am, cm, _ := a.split(theta)
	ga, gc, gr := a.split(dst)
	ll := a.smooth(s, theta, func(post *infer.LDSPosterior, y []float64) {
		T := post.T
		// ⟨x_t x_{t−1}ᵀ⟩ and ⟨x_{t−1} x_{t−1}ᵀ⟩ over t = 1…T.
		for t := 1; t <= T; t++ {
			xt := post.X[(t-1)*k : t*k]
			var xp, vp, w []float64
			if t == 1 {
				xp, vp, w = post.X0, post.V0, post.W0
			} else {
				xp, vp, w = post.X[(t-2)*k:(t-1)*k], post.V[(t-2)*k*k:(t-1)*k*k], post.W[(t-2)*k*k:(t-1)*k*k]
			}
			for j := 0; j < k; j++ {
				for i := 0; i < k; i++ {
					// ⟨x_t,j x_{t−1},i⟩ − Σ_l A_jl ⟨x_{t−1},l x_{t−1},i⟩
					g := xt[j]*xp[i] + w[i*k+j]
					for l := 0; l < k; l++ {
						g -= am[j*k+l] * (xp[l]*xp[i] + vp[l*k+i])
					}
					ga[j*k+i] += g
				}
			}
			vt := post.V[(t-1)*k*k : t*k*k]
			for sIdx := 0; sIdx < p; sIdx++ {
				c := cm[sIdx*k : (sIdx+1)*k]
				yts := y[(t-1)*p+sIdx]
				rho := s.rho[sIdx]
				var m, cvc float64
				for j := 0; j < k; j++ {
					m += c[j] * xt[j]
					var vc float64
					for l := 0; l < k; l++ {
						vc += vt[j*k+l] * c[l]
					}
					cvc += c[j] * vc
					// ρ_s (y_ts ⟨x_t,j⟩ − ⟨x_t x_tᵀ⟩_j· c_s)
					gc[sIdx*k+j] += rho * (yts*xt[j] - vc)
				}
				for j := 0; j < k; j++ {
					gc[sIdx*k+j] -= rho * xt[j] * m
				}
				r := yts - m
				gr[sIdx] += 0.5 - 0.5*rho*(r*r+cvc)
			}
		}
	})
	if math.IsInf(ll, -1) {
		clear(dst)
	}
}

// SamplePrior draws θ ~ p(θ) exactly: A_ji ~ N(0, 1/α_i), ln ρ_s = ln g −
// ln b with g ~ Ga(a, 1) (dist.RandLogGamma), C_sj ~ N(0, 1/(ρ_s γ_j)). It
// writes into dst when its capacity suffices.
func (a *Annealed) SamplePrior(dst []float64, rnd *rand.Rand) []float64 {
	if cap(dst) < a.Dim() {
		dst = make([]float64, a.Dim())
	}
	dst = dst[:a.Dim()]
	k, h := a.k, a.hyper
	am, cm, lr := a.split(dst)
	for idx := range am {
		am[idx] = rnd.NormFloat64() / math.Sqrt(h.Alpha[idx%k])
	}
	for s := range lr {
		lr[s] = dist.RandLogGamma(h.NoiseShape, rnd) - math.Log(h.NoiseRate)
		rho := math.Exp(lr[s])
		for j := 0; j < k; j++ {
			cm[s*k+j] = rnd.NormFloat64() / math.Sqrt(rho*h.Gamma[j])
		}
	}
	return dst
}
