package bnn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/dist"
)

// Posterior is the weight posterior of the network given the
// hyperparameters (eqs. 5.4-5.6 with the groups of eq. 5.43),
//
//	ln p(w | D, α, β) = −β E_D(w) − Σ_g α_g E_{w,g}(w) + const,
//	E_{w,g} = ½ Σ_{k∈g} w_k²,
//
// the target of Hamiltonian Monte Carlo over w (Neal 1996 §3; Lawrence's
// Fig 5.3 and Tables 5.1, 5.2). Its method set is that of
// samplers/mcmc.GradTempered: LogPrior is −Σ_g α_g E_{w,g}, LogLik is
// −β E_D, so that the tempered target at inverse temperature 1 is the
// posterior. Between trajectories Resample redraws α and β from their
// gamma conditionals (Neal 1996's Gibbs scheme), which leaves the joint
// posterior p(w, α, β | D) invariant.
//
// A Posterior holds scratch: it is not safe for concurrent use (give each
// chain its own, NewPosterior is cheap).
type Posterior struct {
	*Problem
	// Alpha is α_g of each group, Beta the noise precision β.
	Alpha []float64
	Beta  float64
	// NGroups and Group are Arch.Groups(prior).
	NGroups int
	Group   []int

	size  []int     // K_g
	batch *Batch    // E_D and its gradient
	sumsq []float64 // scratch, NGroups
}

// NewPosterior returns the posterior of p's weights under prior with
// precisions alpha (one per group of Arch.Groups(prior), or a single value
// for all groups) and noise precision beta.
func NewPosterior(p *Problem, prior Prior, alpha []float64, beta float64) (*Posterior, error) {
	if p == nil {
		return nil, fmt.Errorf("bnn: posterior of a nil problem")
	}
	if prior != Single && prior != Grouped && prior != ARD {
		return nil, fmt.Errorf("bnn: the HMC posterior takes the single, grouped or ARD prior, not %v", prior)
	}
	ng, grp := p.Arch.Groups(prior)
	a := make([]float64, ng)
	switch len(alpha) {
	case 1:
		for g := range a {
			a[g] = alpha[0]
		}
	case ng:
		copy(a, alpha)
	default:
		return nil, fmt.Errorf("bnn: %d values of alpha for %d groups of the %v prior", len(alpha), ng, prior)
	}
	for _, v := range a {
		if !(v > 0) || math.IsInf(v, 1) {
			return nil, fmt.Errorf("bnn: alpha %v, want positive finite precisions", a)
		}
	}
	if !(beta > 0) || math.IsInf(beta, 1) {
		return nil, fmt.Errorf("bnn: beta = %v, want a positive finite precision", beta)
	}
	size := make([]int, ng)
	for _, g := range grp {
		size[g]++
	}
	return &Posterior{Problem: p, Alpha: a, Beta: beta, NGroups: ng, Group: grp,
		size: size, batch: NewBatch(p), sumsq: make([]float64, ng)}, nil
}

// groupSquares writes Σ_{k∈g} w_k² of every group into q.sumsq.
func (q *Posterior) groupSquares(w []float64) {
	clear(q.sumsq)
	for k, v := range w {
		q.sumsq[q.Group[k]] += v * v
	}
}

// LogPrior is −Σ_g α_g E_{w,g}(w), the log prior of eq. 5.6 (grouped,
// eq. 5.43) up to its normalising constant.
func (q *Posterior) LogPrior(w []float64) float64 {
	var s float64
	for k, v := range w {
		s += q.Alpha[q.Group[k]] * v * v
	}
	return -s / 2
}

// LogLik is −β E_D(w), the log likelihood of eqs. 5.4, 5.5 up to its
// normalising constant.
func (q *Posterior) LogLik(w []float64) float64 {
	return -q.Beta * q.errorGrad(w, nil)
}

// GradLogPrior writes −α_{g(k)} w_k into dst.
func (q *Posterior) GradLogPrior(dst, w []float64) {
	for k, v := range w {
		dst[k] = -q.Alpha[q.Group[k]] * v
	}
}

// GradLogLik writes −β ∇E_D(w) into dst.
func (q *Posterior) GradLogLik(dst, w []float64) {
	q.errorGrad(w, dst)
	for k := range dst {
		dst[k] *= -q.Beta
	}
}

// LogDensity is ln p(w | D, α, β) up to a constant: LogPrior + LogLik.
func (q *Posterior) LogDensity(w []float64) float64 { return q.LogPrior(w) + q.LogLik(w) }

// ErrorD returns E_D(w) of eq. 5.5.
func (q *Posterior) ErrorD(w []float64) float64 { return q.errorGrad(w, nil) }

// errorGrad is Arch.ErrorGrad on the problem's data, by q's Batch.
func (q *Posterior) errorGrad(w, grad []float64) float64 {
	return q.batch.ErrorGrad(w, grad)
}

// Resample redraws the hyperparameters from their conditionals given the
// weights w (Neal 1996 §3.2, with the gamma hyperpriors of eqs. 5.7-5.9,
// 5.44 and Table 5.1's constants in h):
//
//	α_g | w ~ gam(a_α + K_g/2, b_α + ½ w_gᵀw_g)    (cf. eqs. 5.46, 5.47)
//	β | w, D ~ gam(a_β + N/2, b_β + E_D(w)),
//
// the α's when alpha is true, β when beta is true. It returns E_D(w).
func (q *Posterior) Resample(w []float64, h Hyper, alpha, beta bool, r *rand.Rand) float64 {
	ed := math.NaN()
	if alpha {
		q.groupSquares(w)
		for g := range q.Alpha {
			q.Alpha[g] = dist.Gamma{Alpha: h.AAlpha + float64(q.size[g])/2, Beta: h.BAlpha + q.sumsq[g]/2}.Rand(r)
		}
	}
	if beta {
		ed = q.ErrorD(w)
		q.Beta = dist.Gamma{Alpha: h.ABeta + float64(len(q.T))/2, Beta: h.BBeta + ed}.Rand(r)
	}
	return ed
}
