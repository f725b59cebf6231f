package bnn

import (
	"fmt"
	"math"
)

// HMCSettings are the settings of Hamiltonian Monte Carlo over the
// network's weights with Gibbs updates of α and β between trajectories
// (samplers/bnnhmc.SampleHMC). Every zero value means its documented
// default, the text's where it states one.
type HMCSettings struct {
	// Samples is the number of trajectories of each chain, Burn of them
	// dropped at the start (Table 5.1, L2183: 200 samples, the first 100
	// ignored). Defaults 200 and 100; NoBurn keeps every sample (Fig 5.3,
	// L2146: "no samples were rejected from the start of the chain").
	Samples, Burn int
	NoBurn        bool
	// Thin keeps every Thin-th sample after the burn-in (default 1).
	Thin int
	// Leapfrog is the number of leapfrog steps of a trajectory (default
	// 100: L2146 for the toy, the for Table 5.1, whose text does
	// not state it).
	Leapfrog int
	// Step is the leapfrog step size ε (default 2×10⁻³, L2146, the only
	// one the text states), jittered uniformly on [0.8, 1.2]·ε.
	Step float64
	// ScaleStep scales ε by √(Beta/β) with the current β of the Gibbs
	// updates (Beta the initial value), as the likelihood's curvature
	// scales with β (in the spirit of Neal 1996 §3.5's step sizes set from
	// the current hyperparameters; the step is a function of the other
	// Gibbs block, so each trajectory stays reversible). Invented, off by
	// default.
	ScaleStep bool
	// CapPriorStep caps the step of each weight at 1/√α_g of its group,
	// ε_k = ε·min(1, 1/(ε√α_g)) (a per-coordinate step, mcmc.HMC.Scale),
	// recomputed from the current α before every trajectory. The prior's
	// term α_g w_k²/2 is a harmonic oscillator of frequency √α_g, whose
	// leapfrog is unstable for ε√α_g > 2: a group the evidence procedure
	// has switched off (α_g → 10⁶…10¹⁰, an output bias of the toy) makes
	// every trajectory of the text's ε = 2×10⁻³ diverge and nothing is
	// accepted. Where every ε√α_g ≤ 1 nothing changes (the chain is the
	// same, bit for bit). Invented, off by default.
	CapPriorStep bool
	// AdaptAccept, when positive, tunes ε during the burn-in toward a mean
	// acceptance probability AdaptAccept (samplers/mcmc.DualAveraging,
	// Hoffman and Gelman 2014) and fixes it at the averaged step for the
	// kept samples. An invented detail, off by default: the text gives no
	// step for the real data.
	AdaptAccept float64
	// Persistence is ρ of the partial momentum refresh p ← ρp + √(1−ρ²)ν
	// (default 0.95, L2183); FullRefresh draws fresh momenta at every
	// trajectory instead (Fig 5.3, L2146: "without persistence").
	Persistence float64
	FullRefresh bool
	// Hyper is the gamma hyperprior of α and β (default DefaultHyper,
	// L2181).
	Hyper Hyper
	// Alpha (one value for all groups, or one per group) and Beta are the
	// initial hyperparameters (default 0.3 and 200, L2183); with FixHyper
	// they stay fixed (Fig 5.3: the evidence procedure's values).
	Alpha    []float64
	Beta     float64
	FixHyper bool
	// HyperFrom is the first trajectory after which α and β are
	// resampled: before it they stay at Alpha and Beta while the weights
	// move toward the data (Neal 1996 §3.5 starts with the hyperparameters
	// fixed; the text does not say). Default 0, at every trajectory.
	HyperFrom int
	// Start is the initial weight vector of every chain (Fig 5.3 starts at
	// the Laplace mode). Without it each chain draws its own start as
	// NETLAB's mlp does, N(0, 1/(I+1)) for the first layer and
	// N(0, 1/(H+1)) for the second (an invented detail).
	Start []float64
	// Chains is the number of independent chains (default 1), run on
	// Workers goroutines (≤ 0: GOMAXPROCS). Results do not depend on
	// Workers.
	Chains, Workers int
	// Probes are the inputs at which f(x, w) is traced for the effective
	// sample size and R̂ (default: the first, middle and last training
	// inputs).
	Probes [][]float64
}

// WithDefaults returns s with every zero value replaced by its default.
func (s HMCSettings) WithDefaults() HMCSettings {
	if s.Samples == 0 {
		s.Samples = 200
	}
	if s.Burn == 0 && !s.NoBurn {
		s.Burn = 100
	}
	if s.NoBurn {
		s.Burn = 0
	}
	if s.Thin == 0 {
		s.Thin = 1
	}
	if s.Leapfrog == 0 {
		s.Leapfrog = 100
	}
	if s.Step == 0 {
		s.Step = 2e-3
	}
	if s.Persistence == 0 && !s.FullRefresh {
		s.Persistence = 0.95
	}
	if s.FullRefresh {
		s.Persistence = 0
	}
	if s.Hyper == (Hyper{}) {
		s.Hyper = DefaultHyper()
	}
	if len(s.Alpha) == 0 {
		s.Alpha = []float64{0.3}
	}
	if s.Beta == 0 {
		s.Beta = 200
	}
	if s.Chains == 0 {
		s.Chains = 1
	}
	return s
}

// Check refuses settings (after WithDefaults) that cannot run on a network
// of K weights, naming the field.
func (s HMCSettings) Check(k int) error {
	switch {
	case s.Samples < 1 || s.Samples > 1e7:
		return fmt.Errorf("bnn: HMC samples = %d, want 1..1e7", s.Samples)
	case s.Burn < 0 || s.Burn >= s.Samples:
		return fmt.Errorf("bnn: HMC burn = %d, want 0 ≤ burn < samples = %d", s.Burn, s.Samples)
	case s.Thin < 1 || s.Thin > s.Samples-s.Burn:
		return fmt.Errorf("bnn: HMC thin = %d, want 1..%d (samples after the burn-in)", s.Thin, s.Samples-s.Burn)
	case s.Leapfrog < 1 || s.Leapfrog > 1e5:
		return fmt.Errorf("bnn: HMC leapfrog = %d, want 1..1e5", s.Leapfrog)
	case !(s.Step > 0) || s.Step > 10:
		return fmt.Errorf("bnn: HMC step = %v, want in (0, 10]", s.Step)
	case !(s.AdaptAccept >= 0 && s.AdaptAccept < 1):
		return fmt.Errorf("bnn: HMC adapt_accept = %v, want 0 (off) or in (0, 1)", s.AdaptAccept)
	case !(s.Persistence >= 0 && s.Persistence < 1):
		return fmt.Errorf("bnn: HMC persistence = %v, want in [0, 1)", s.Persistence)
	case !(s.Beta > 0) || math.IsInf(s.Beta, 1):
		return fmt.Errorf("bnn: HMC beta = %v, want a positive finite precision", s.Beta)
	case s.HyperFrom < 0 || s.HyperFrom > s.Samples:
		return fmt.Errorf("bnn: HMC hyper_from = %d, want 0..samples = %d", s.HyperFrom, s.Samples)
	case s.Chains < 1 || s.Chains > 1e4:
		return fmt.Errorf("bnn: HMC chains = %d, want 1..1e4", s.Chains)
	case s.Start != nil && len(s.Start) != k:
		return fmt.Errorf("bnn: HMC start has %d weights, the network %d", len(s.Start), k)
	}
	for _, v := range s.Start {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("bnn: HMC start has a non-finite weight %v", v)
		}
	}
	return s.Hyper.Check()
}

// HMCResult is the output of HMC over the weights: the kept samples of
// every chain and the chains' diagnostics. It is a Predictive.
type HMCResult struct {
	Arch Arch
	// W holds the kept weight vectors, chain after chain; Beta and Alpha
	// the β and α that went with each (the values the sample was drawn
	// under).
	W     [][]float64
	Beta  []float64
	Alpha [][]float64
	// Chains is the number of chains; each kept len(W)/Chains samples.
	Chains int

	// Accepted and Proposed count the trajectories after the burn-in;
	// AcceptRate is their ratio and MeanAcceptProb the mean of
	// min(1, e^{−ΔH}) over them. BurnAcceptRate is the burn-in's.
	Accepted, Proposed int
	AcceptRate         float64
	MeanAcceptProb     float64
	BurnAcceptRate     float64
	// Step is each chain's leapfrog step ε after the burn-in (Step of the
	// settings unless AdaptAccept tuned it; before ScaleStep's factor).
	Step []float64

	// Probes are the inputs traced; ProbeESS[j] the effective sample size
	// of f(Probes[j], w) pooled over the chains (samplers/mcmc.ESSChains),
	// ErrorESS that of the training error E_D(w), and ESSMin the least of
	// them (1 for a chain that never moved). ProbeRHat, ErrorRHat and
	// RHatMax are the split-R̂ of the same traces over the chains (NaN for
	// fewer than 4 kept samples or a trace without variation; RHatMax
	// skips NaNs).
	Probes             [][]float64
	ProbeESS           []float64
	ErrorESS, ESSMin   float64
	ProbeRHat          []float64
	ErrorRHat, RHatMax float64
	// ErrorTrace is E_D(w) of every kept sample, chain after chain.
	ErrorTrace []float64
}

// Predict returns the mean over the kept samples of f(x, w) and the
// predictive variance: the variance of f over the samples plus the mean
// noise variance 1/β (the Monte Carlo estimate of the predictive
// distribution, Neal 1996 §1.2.3; Lawrence L2146, L2184).
func (r *HMCResult) Predict(x []float64) (mean, variance float64) {
	n := float64(len(r.W))
	var m, m2, noise float64
	for s, w := range r.W {
		f := r.Arch.Forward(w, x, nil)
		d := f - m
		m += d / float64(s+1)
		m2 += d * (f - m)
		noise += 1 / r.Beta[s]
	}
	return m, m2/n + noise/n
}

// Kept returns the number of kept samples of each chain.
func (r *HMCResult) Kept() int { return len(r.W) / max(r.Chains, 1) }

var _ Predictive = (*HMCResult)(nil)

// Ops is the work of HMC with settings s (after WithDefaults) on n data
// points of network a, in operations of about a nanosecond (for an
// experiment's Estimate): every trajectory evaluates the gradient of E_D
// Leapfrog + 1 times and E_D once more, each 4·H·(I+1) + 7·H + 4
// arithmetic operations a point plus 2·H special functions (erf and exp,
// counted 20 each).
func (s HMCSettings) Ops(a Arch, n int) float64 {
	perPoint := float64(4*a.Hidden*(a.In+1) + 7*a.Hidden + 4 + 40*a.Hidden)
	return float64(s.Chains) * float64(s.Samples) * float64(s.Leapfrog+2) * float64(n) * perPoint
}

// Outputs writes f(x, w_s) of every kept sample into dst (reused when long
// enough) and returns it: the sampled curves of Fig 5.3(e).
func (r *HMCResult) Outputs(dst, x []float64) []float64 {
	if cap(dst) < len(r.W) {
		dst = make([]float64, len(r.W))
	}
	dst = dst[:len(r.W)]
	for s, w := range r.W {
		dst[s] = r.Arch.Forward(w, x, nil)
	}
	return dst
}
