package lds

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Hyper holds the hyperparameters of the VB LDS (Beal 2003 eqs. 5.6-5.16,
// lines 3238-3302): the ARD precisions of the columns of A, B, C and D, the
// shape and rate of the gamma prior of every output-noise precision, and the
// Gaussian prior of the auxiliary state x_0. In Settings.Hyper a nil slice or
// a zero number means its default (targets ch5-lds.md §1.2 and §4 #8).
type Hyper struct {
	// Alpha (k) are the precisions α_j of column j of A: every row
	// a_(j) ~ N(0, diag(α)⁻¹) (eq. 5.8). Default 1.
	Alpha []float64
	// Beta (d) are the precisions β_c of column c of B (eq. 5.9). Default 1.
	Beta []float64
	// Gamma (k) are the precisions γ_j of column j of C: every row
	// c_(s) ~ N(0, ρ_s⁻¹diag(γ)⁻¹) (eq. 5.10). Default 1.
	Gamma []float64
	// Delta (d) are the precisions δ_c of column c of D,
	// d_(s) ~ N(0, ρ_s⁻¹diag(δ)⁻¹) (eq. 5.11). Default 1.
	Delta []float64
	// NoiseShape and NoiseRate are a and b of ρ_s ~ Ga(a, b), shape and
	// rate (eq. 5.12). Defaults 1 and 1.
	NoiseShape, NoiseRate float64
	// Mu0 (k) is μ_0, the prior mean of x_0 (eq. 5.13). Default 0.
	Mu0 []float64
	// Lambda0 (k×k, row-major) is Σ_0⁻¹, the prior precision of x_0. The
	// precision rather than Σ_0 is kept because with one sequence the
	// x_0 update shrinks Σ_0 towards 0 (targets §1.7). Default I.
	Lambda0 []float64
}

// Fixed marks ARD precisions that UpdateHyper leaves alone (for example
// β_c = 10⁶ for the gene inputs of section 5.5.2, targets §4 #24). A nil
// slice fixes nothing; otherwise its length is that of the precisions.
type Fixed struct {
	Alpha, Beta, Gamma, Delta []bool
}

// Sigma0Mode says how the x_0 update (HyperX0) sets Σ_0.
type Sigma0Mode int

const (
	// Sigma0Diagonal keeps the diagonal of the maximiser (5.151): the
	// default, as the author's toolbox (targets §1.7, §4 #6).
	Sigma0Diagonal Sigma0Mode = iota
	// Sigma0Full sets Σ_0 to the full maximiser (5.137), (5.151).
	Sigma0Full
	// Sigma0Isotropic sets Σ_0 = σ²I with σ² its trace over k ("a multiple
	// of the identity", line 3296).
	Sigma0Isotropic
)

// CrossInit says how NewVB initialises the cross-covariances Υ_{t−1,t} of
// the hidden states (targets §1.10, §4 #7).
type CrossInit int

const (
	// CrossIdentity sets every Υ_{t−1,t} = I, as the author's toolbox (the
	// default; it makes the first ⟨A⟩ close to a shrunken identity).
	CrossIdentity CrossInit = iota
	// CrossZero sets every Υ_{t−1,t} = 0.
	CrossZero
)

// Mode selects the algorithm that a VB runs.
type Mode int

const (
	// Variational is variational Bayesian EM (section 5.3, Algorithm 5.3).
	Variational Mode = iota
	// MAPBoost is the thesis's "MAP" LDS (section 5.5.1, lines 4160-4161):
	// the VB code with every data and hidden-state statistic, and the count
	// T, multiplied by κ before each VBM step, so that q(θ) collapses to a
	// point near the maximum-likelihood parameters plus an O(1/κ) prior
	// (targets §2.1 "boost"). The VBE step sees the original data. Only
	// μ_0 and Σ_0 are learnt (HyperX0).
	MAPBoost
	// MAPTempered boosts the statistics and the prior by κ: the ARD
	// precisions become κα, κβ, κγ, κδ and the noise prior
	// Ga(κ(a − 1) + 1, κb), so that q(θ) concentrates on the exact MAP
	// parameters under the fixed priors (targets §2.1 "tempered").
	MAPTempered
)

// DefaultKappa is the default boost factor κ of the MAP modes (targets
// §2.1, §4 #19; the thesis gives no value).
const DefaultKappa = 1e4

// Settings configure NewVB. The zero value of every field means its
// documented default, except K, which must be set.
type Settings struct {
	// K is the dimension k of the hidden state.
	K int
	// Hyper holds the initial hyperparameters; nil or zero fields take
	// their defaults (see Hyper).
	Hyper Hyper
	// Fixed marks ARD precisions that are never updated.
	Fixed Fixed
	// Sigma0Update is the form of the Σ_0 update. Default Sigma0Diagonal.
	Sigma0Update Sigma0Mode
	// CrossInit is the initial Υ_{t−1,t}. Default CrossIdentity.
	CrossInit CrossInit
	// Mode is the algorithm. Default Variational.
	Mode Mode
	// Kappa is κ of the MAP modes. Default DefaultKappa. Keep κ ≤ 10⁶:
	// beyond, the prior is lost to round-off in the boosted precisions
	// (targets §1.12, pitfall 10).
	Kappa float64
}

// VB is the variational Bayesian linear dynamical system of Beal (2003)
// chapter 5 on a fixed set of sequences: q(θ) = q(A, B) q(C, D, ρ) and
// q(x_{0:T}) per sequence. It implements vb.Model and vb.HyperUpdater; run
// it with vb.Run and m.DefaultSchedule(). Build it with NewVB. A VB is not
// safe for concurrent use.
//
// The parameter posteriors are held as the joint Gaussians of the rows
// [a_(j); b_(j)] and [c_(s); d_(s)], which is the thesis's q(B) q(A|B) and
// q(D|ρ) q(C|ρ,D) (eq. 5.33) without the conditioning: row j of [A B] is
// N(m_j, Σ_AB) with one covariance for all rows,
//
//	Σ_AB⁻¹ = diag(α, β) + [[W_A, G_A], [G_Aᵀ, Ü]],   [m_1 … m_k] = Σ_AB [S_A; M̃],
//
// whose leading k×k block inverts to Σ_A (5.37), whose Schur complement is
// Σ_B⁻¹ (5.38), whose blocks of the covariance are Σ̂_A (5.41) and Σ_B, and
// whose means are ⟨A⟩ (5.52) and ⟨B⟩ (5.54). Likewise row s of [C D] given
// ρ_s is N(n_s, ρ_s⁻¹Σ_CD) with Σ_CD⁻¹ = diag(γ, δ) + [[W_C, G_C], [G_Cᵀ, Ü]]
// and [n_1 … n_p] = Σ_CD [S_C; U_Y] (5.43)-(5.50), and q(ρ_s) = Ga(a + T/2,
// b + G_ss/2) with G_ss = Ÿ_ss − [s_C,(s); u_Y,(s)]ᵀ Σ_CD [s_C,(s); u_Y,(s)]
// (5.42), (5.47). One Cholesky factorisation of each joint precision gives
// both blocks' log-determinants and avoids the cancellation in the Schur
// complements (targets §1.12, pitfall 3).
type VB struct {
	// Hyper holds the current hyperparameters. UpdateHyper changes them;
	// a caller may also set them between steps (keeping the lengths).
	Hyper Hyper
	// Fixed marks ARD precisions that UpdateHyper leaves alone.
	Fixed Fixed
	// Sigma0Update is the form of the Σ_0 update.
	Sigma0Update Sigma0Mode
	// NoiseFitFailures counts UpdateHyper(HyperNoise) calls whose Newton
	// solve failed and that left a, b unchanged.
	NoiseFitFailures int

	k, p, d int
	n1      int // k + d
	data    *dataset
	mode    Mode
	kappa   float64

	ks    *infer.KalmanSmoother
	post  []infer.LDSPosterior
	stats *infer.LDSStats
	phi   *infer.LDSNatural

	// q(A, B): the Cholesky factor of Σ_AB⁻¹, Σ_AB, the means as the n1×k
	// matrix [m_1 … m_k], and ln|Σ_A|, ln|Σ_B|.
	cholAB, covAB, meanAB []float64
	logDetA, logDetB      float64
	// q(C, D | ρ) and q(ρ): likewise, with the means n1×p.
	cholCD, covCD, meanCD []float64
	logDetC, logDetD      float64
	rho                   []dist.Gamma
	// Scratch: the second moments ⟨[A B]ᵀ[A B]⟩ and ⟨[C D]ᵀR⁻¹[C D]⟩.
	momAB, momCD []float64
	xwCD         []float64 // n1×p scratch: the means of q(C, D | ρ) scaled by ρ̄
	x0           []float64 // 2k² scratch of the x_0 update

	err error // of the last M step, returned by the next E
}

// Term names of the bound (eq. 5.147). In the MAP modes the first term is
// κ Σ_i ln Z'_i (see E).
const (
	TermLogZ  = "lnZ'"         // Σ_i ln Z'_i (Algorithm 5.1(c), corrected)
	TermKLB   = "-KL[B]"       // −KL(q(B) ‖ p(B|β))
	TermKLA   = "-KL[A|B]"     // −⟨KL(q(A|B) ‖ p(A|α))⟩_q(B)
	TermKLRho = "-KL[rho]"     // −Σ_s KL(q(ρ_s) ‖ Ga(a, b))
	TermKLD   = "-KL[D|rho]"   // −⟨KL(q(D|ρ) ‖ p(D|ρ,δ))⟩_q(ρ)
	TermKLC   = "-KL[C|rho,D]" // −⟨KL(q(C|ρ,D) ‖ p(C|ρ,γ))⟩_q(ρ,D)
	TermMAP   = "kappa*lnZ'"   // κ Σ_i ln Z'_i, the first term in the MAP modes
)

// NewVB returns a model with k = set.K hidden dimensions for the sequences
// data, initialised as the author's toolbox does (targets §1.10, §4 #7): the
// hidden-state statistics are those of ω_0 = 0, ω_t ~ N(0, I) drawn from
// rnd for t ≥ 1, Υ_{t,t} = I and Υ_{t−1,t} = I (or 0, set.CrossInit), and a
// first VBM step is taken from them, so that vb.Run can begin with the VBE
// step (Algorithm 5.3, lines 3967-4016). All sequences must have the same
// number of outputs p and of inputs d (d = 0: no Sequence has U).
func NewVB(data []Sequence, set Settings, rnd *rand.Rand) (*VB, error) {
	ds, err := newDataset(data)
	if err != nil {
		return nil, err
	}
	k := set.K
	if k <= 0 {
		return nil, fmt.Errorf("lds: hidden dimension K = %d", k)
	}
	m, err := newModel(ds, k, set)
	if err != nil {
		return nil, err
	}
	// The initial hidden-state statistics, through the same accumulator
	// as the VBE step's.
	kk := k * k
	var post infer.LDSPosterior
	for i := range ds.y {
		T := ds.seqLen(i)
		post.K, post.T = k, T
		post.X = make([]float64, T*k)
		post.V = make([]float64, T*kk)
		post.W = make([]float64, (T-1)*kk)
		post.X0 = make([]float64, k)
		post.V0 = make([]float64, kk)
		post.W0 = make([]float64, kk)
		for j := range post.X {
			post.X[j] = rnd.NormFloat64()
		}
		for j := 0; j < k; j++ {
			post.V0[j*k+j] = 1
			if set.CrossInit == CrossIdentity {
				post.W0[j*k+j] = 1
			}
			for t := 0; t < T; t++ {
				post.V[t*kk+j*k+j] = 1
				if t < T-1 && set.CrossInit == CrossIdentity {
					post.W[t*kk+j*k+j] = 1
				}
			}
		}
		m.stats.AddSequence(&post, ds.y[i], ds.u[i])
	}
	m.stats.LogZ = 0
	m.M()
	if m.err != nil {
		return nil, m.err
	}
	return m, nil
}

// newModel allocates a model and checks the settings.
func newModel(ds *dataset, k int, set Settings) (*VB, error) {
	p, d := ds.p, ds.d
	h, err := set.Hyper.withDefaults(k, d)
	if err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		mask []bool
		n    int
	}{{"Alpha", set.Fixed.Alpha, k}, {"Beta", set.Fixed.Beta, d}, {"Gamma", set.Fixed.Gamma, k}, {"Delta", set.Fixed.Delta, d}} {
		if f.mask != nil && len(f.mask) != f.n {
			return nil, fmt.Errorf("lds: Fixed.%s has length %d, want %d", f.name, len(f.mask), f.n)
		}
	}
	if set.Mode < Variational || set.Mode > MAPTempered {
		return nil, fmt.Errorf("lds: unknown mode %d", set.Mode)
	}
	if set.Sigma0Update < Sigma0Diagonal || set.Sigma0Update > Sigma0Isotropic {
		return nil, fmt.Errorf("lds: unknown Σ_0 mode %d", set.Sigma0Update)
	}
	kappa := 1.0
	if set.Mode != Variational {
		kappa = set.Kappa
		if kappa == 0 {
			kappa = DefaultKappa
		}
		if !(kappa >= 1) || math.IsInf(kappa, 1) {
			return nil, fmt.Errorf("lds: κ = %v, want a finite κ ≥ 1", set.Kappa)
		}
		if set.Mode == MAPTempered && !(kappa*(h.NoiseShape-1)+1 > 0) {
			return nil, fmt.Errorf("lds: the tempered noise prior Ga(κ(a − 1) + 1, κb) has shape %v ≤ 0 (a = %v, κ = %v)",
				kappa*(h.NoiseShape-1)+1, h.NoiseShape, kappa)
		}
	}
	n1 := k + d
	m := &VB{
		Hyper: h, Fixed: set.Fixed, Sigma0Update: set.Sigma0Update,
		k: k, p: p, d: d, n1: n1, data: ds, mode: set.Mode, kappa: kappa,
		ks:     infer.NewKalmanSmoother(k, p, d, ds.tmax),
		post:   make([]infer.LDSPosterior, len(ds.y)),
		stats:  infer.NewLDSStats(k, p, d),
		phi:    infer.NewLDSNatural(k, p, d),
		cholAB: make([]float64, n1*n1), covAB: make([]float64, n1*n1), meanAB: make([]float64, n1*k),
		cholCD: make([]float64, n1*n1), covCD: make([]float64, n1*n1), meanCD: make([]float64, n1*p),
		rho:   make([]dist.Gamma, p),
		momAB: make([]float64, n1*n1), momCD: make([]float64, n1*n1), xwCD: make([]float64, n1*p),
		x0: make([]float64, 2*k*k),
	}
	return m, nil
}

// withDefaults fills in the defaults and checks the lengths and values.
func (h Hyper) withDefaults(k, d int) (Hyper, error) {
	fill := func(name string, s []float64, n int) ([]float64, error) {
		if s == nil {
			s = make([]float64, n)
			for i := range s {
				s[i] = 1
			}
			return s, nil
		}
		if len(s) != n {
			return nil, fmt.Errorf("lds: Hyper.%s has length %d, want %d", name, len(s), n)
		}
		for _, v := range s {
			if !(v > 0) || math.IsInf(v, 1) {
				return nil, fmt.Errorf("lds: Hyper.%s has the value %v, want finite and > 0", name, v)
			}
		}
		return slices.Clone(s), nil
	}
	var err error
	var out Hyper
	if out.Alpha, err = fill("Alpha", h.Alpha, k); err != nil {
		return out, err
	}
	if out.Beta, err = fill("Beta", h.Beta, d); err != nil {
		return out, err
	}
	if out.Gamma, err = fill("Gamma", h.Gamma, k); err != nil {
		return out, err
	}
	if out.Delta, err = fill("Delta", h.Delta, d); err != nil {
		return out, err
	}
	out.NoiseShape, out.NoiseRate = h.NoiseShape, h.NoiseRate
	if out.NoiseShape == 0 {
		out.NoiseShape = 1
	}
	if out.NoiseRate == 0 {
		out.NoiseRate = 1
	}
	if !(out.NoiseShape > 0) || !(out.NoiseRate > 0) || math.IsInf(out.NoiseShape+out.NoiseRate, 1) {
		return out, fmt.Errorf("lds: noise hyperparameters a = %v, b = %v, want finite and > 0", h.NoiseShape, h.NoiseRate)
	}
	switch {
	case h.Mu0 == nil:
		out.Mu0 = make([]float64, k)
	case len(h.Mu0) != k:
		return out, fmt.Errorf("lds: Hyper.Mu0 has length %d, want %d", len(h.Mu0), k)
	default:
		out.Mu0 = slices.Clone(h.Mu0)
	}
	switch {
	case h.Lambda0 == nil:
		out.Lambda0 = make([]float64, k*k)
		for j := 0; j < k; j++ {
			out.Lambda0[j*k+j] = 1
		}
	case len(h.Lambda0) != k*k:
		return out, fmt.Errorf("lds: Hyper.Lambda0 has length %d, want %d", len(h.Lambda0), k*k)
	default:
		out.Lambda0 = slices.Clone(h.Lambda0)
		l := slices.Clone(h.Lambda0)
		if !numeric.CholFactor(l, k) {
			return out, errors.New("lds: Hyper.Lambda0 is not positive definite")
		}
	}
	return out, nil
}

// Clone returns a deep copy of h.
func (h Hyper) Clone() Hyper {
	h.Alpha, h.Beta, h.Gamma, h.Delta = slices.Clone(h.Alpha), slices.Clone(h.Beta), slices.Clone(h.Gamma), slices.Clone(h.Delta)
	h.Mu0, h.Lambda0 = slices.Clone(h.Mu0), slices.Clone(h.Lambda0)
	return h
}
