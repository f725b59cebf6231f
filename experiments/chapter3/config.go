// Package chapter3 holds the experiments of Beal (2003) chapter 3,
// "Variational Bayesian Hidden Markov Models": the synthetic
// structure-discovery experiment of section 3.5.1 (Figures 3.2 and 3.3).
package chapter3

import (
	"fmt"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
)

// Strength is the [prior] table of the VB HMM: a symmetric Dirichlet prior
// strength f for each parameter group, every row of the group getting
// total pseudo-count f spread evenly (eq. 3.43); 4 in the synthetic
// experiment (L2129).
type Strength struct {
	Pi float64 `toml:"pi" range:"(0,1e8]"`
	A  float64 `toml:"A" range:"(0,1e8]"`
	C  float64 `toml:"C" range:"(0,1e8]"`
}

// prior returns the symmetric prior of these strengths (eq. 3.43).
func (s Strength) prior(k, p int) hmm.Prior { return hmm.SymmetricPrior(k, p, s.Pi, s.A, s.C) }

// retiredPrior is the former place of the [prior] table.
var retiredPrior = map[string]string{"vb.prior_strength": "prior"}

// MLSettings control Baum-Welch (config.FitSettings; the thesis does
// not state its stop rule, targets §4 item 2). Default max_iterations
// 5000, rel_tol 1e-6, abs_tol 1e-3 nats, monotone_tol 1e-9.
type MLSettings struct {
	config.FitSettings
}

// VBSettings control VBEM.
type VBSettings struct {
	// Init is "from-ml" (Dirichlets with the ML parameters as means and
	// strength InitStrength, the thesis's choice, L2129), "from-cs" (one VBM
	// step from the exact E step at the ML parameters: the Cheeseman-Stutz
	// point, from which F ≥ ln p_CS, Corollary 2.5), "random" (a random θ
	// improved by InitMLIterations Baum-Welch iterations, then that
	// Cheeseman-Stutz step: hmm.RandomStart) or "random-means" (random
	// means with strength InitStrength, the random start before
	// hmm.RandomStart; TestRandomStarts compares them).
	Init string `toml:"init"`
	// InitStrength is the total pseudo-count of each row of the initial
	// q(θ) of "from-ml" and "random-means", a prior strength's units.
	// Default 10 (L2129).
	InitStrength float64 `toml:"init_strength" range:"(0,1e8]"`
	// InitMLIterations is the number of Baum-Welch iterations of the
	// "random" start. Default hmm.DefaultStartIterations (20).
	InitMLIterations int `toml:"init_ml_iterations" range:"[0,1e8]"`
	// InitFloor is the smallest initial pseudo-count (ML zeros would give
	// ψ(0) = −∞), a fraction of one count. Default 1e-10.
	InitFloor float64 `toml:"init_floor" range:"(0,1)"`
	// FitSettings end VBEM (max_iterations, rel_tol, abs_tol,
	// monotone_tol; see config.FitSettings) and schedule the updates
	// of the three prior strengths ([vb.hyper] u_pi, u_A, u_C: the first
	// iteration after whose VBM step F is maximised over that strength,
	// eq. 2.79; 0 never). Default 5000, 1e-6, 1e-3 nats, 1e-9, and the
	// strengths fixed, as the thesis keeps them (L2083): vbFit.
	config.FitSettings
}

// hmmGroups are the hyperparameter groups of the VB HMM, hmm.VB.HyperGroups:
// the prior strengths u_pi, u_A, u_C.
func hmmGroups() []string { return new(hmm.VB).HyperGroups() }

// vbFit returns config.DefaultFit(maxIterations) with every prior
// strength fixed (the thesis's, L2083).
func vbFit(maxIterations int) config.FitSettings {
	f := config.DefaultFit(maxIterations)
	f.Hyper = config.ScheduleOf(hmmGroups(), nil)
	return f
}

func (s VBSettings) validate(prefix string) error {
	if s.Init != "from-ml" && s.Init != "from-cs" && !s.randomStart() {
		return config.FieldError(prefix+".init", s.Init, `must be "from-ml", "from-cs", "random" or "random-means"`)
	}
	return s.FitSettings.Validate(prefix, hmmGroups())
}

func (s MLSettings) validate(prefix string) error { return s.FitSettings.Validate(prefix, nil) }

// randomStart reports whether VB starts from a random point rather than
// from the ML solution.
func (s VBSettings) randomStart() bool { return s.Init == "random" || s.Init == "random-means" }

// initialPosterior builds the starting q(θ) of VB from the ML solution (or
// a random draw from rnd), as VBSettings.Init says; only its shape is read
// from ml for a random start.
func (s VBSettings) initialPosterior(data hmm.Data, u hmm.Prior, ml hmm.Params, rnd *rand.Rand) (hmm.Posterior, error) {
	switch s.Init {
	case "from-cs":
		_, n := hmm.ExpectedCounts(data, ml)
		return hmm.PosteriorFromCounts(u, n), nil
	case "random":
		return hmm.RandomStart(data, u, ml.K, s.InitMLIterations, rnd)
	case "random-means":
		return hmm.PosteriorFromParams(hmm.RandomParams(ml.K, ml.P, rnd), s.InitStrength, s.InitFloor), nil
	}
	return hmm.PosteriorFromParams(ml, s.InitStrength, s.InitFloor), nil
}

// Analysis holds the settings of the structure analysis.
type Analysis struct {
	// ActiveThreshold: a state is active if its expected occupancy is at
	// least this fraction of all symbols (targets §E3.2). Default 0.01.
	ActiveThreshold float64 `toml:"active_threshold" range:"(0,1)"`
}

// KSweep are the keys of the studies that fit every number of hidden
// states k of a list to the synthetic data (chapter3/model-order,
// chapter3/tightness): for each data set and k, Restarts random
// Baum-Welch initialisations, each followed by VBEM.
type KSweep struct {
	// Restarts is the number of random ML initialisations per (data set,
	// k); each score is reported at its best restart.
	Restarts int           `toml:"restarts" range:"[1,1e6]"`
	Data     SyntheticData `toml:"data"`
	Model    struct {
		// K lists the numbers of hidden states to compare, in increasing
		// order (the axis of the figures). At most 10⁶: a k-state HMM holds
		// k² transition probabilities, and the estimate refuses far fewer
		// states than that on any machine.
		K []int `toml:"k" range:"[1,1e6] len=1.. increasing"`
	} `toml:"model"`
	ML    MLSettings `toml:"ml"`
	VB    VBSettings `toml:"vb"`
	Prior Strength   `toml:"prior"`
}

// defaultKSweep returns the k sweep over ks on data with the synthetic
// experiment's ML and VB settings (its priors of strength 4) and VB
// started from the Cheeseman-Stutz point of each of 5 ML restarts.
func defaultKSweep(data SyntheticData, ks []int) KSweep {
	s := DefaultSynthetic()
	w := KSweep{Restarts: 5, Data: data, ML: s.ML.MLSettings, VB: s.VB, Prior: s.Prior}
	w.Model.K = ks
	w.VB.Init = "from-cs"
	return w
}

// validateFit checks the keys the synthetic-data experiments share.
func validateFit(d SyntheticData, ml MLSettings, v VBSettings) error {
	return config.FirstError(d.validate(), ml.validate("ml"), v.validate("vb"))
}

// hmmMemory describes the memory of a sweep of HMM fits for
// experiments.CheckMemory: cells cells run on up to workers goroutines;
// each holds fits fits at once (hmm.MemoryBytes) of a k-state model on data
// whose longest sequence has maxLen symbols (nSeq sequences) and keeps
// params more parameter sets (k + k² + k·p words each); every finished
// cell's result of resultWords words is kept until the tables are written.
type hmmMemory struct {
	k, p, maxLen, nSeq   int
	workers, cells, fits int
	params               int
	resultWords          float64
	dataWords            float64 // the data themselves (one word a symbol)
}

// satMul returns a·b for non-negative a, b, saturating at 2⁴⁰ (far beyond
// any machine) instead of overflowing.
func satMul(a, b int) int {
	const cap = 1 << 40
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > cap/b {
		return cap
	}
	return a * b
}

// traceWords is the memory, in words, of the trace of a fit of at most
// maxIter iterations with terms named terms: F, ΔF and the time per
// iteration, and a name (two words) and value per term.
func traceWords(maxIter, terms int) float64 { return float64(maxIter) * float64(3+3*terms) }

func (h hmmMemory) need() experiments.MemoryNeed {
	K, P := float64(h.k), float64(h.p)
	perCell := float64(h.fits)*hmm.MemoryBytes(h.k, h.p, h.maxLen, h.nSeq, 1) + 8*float64(h.params)*(K+K*K+K*P)
	w := float64(max(min(h.workers, h.cells), 1))
	return experiments.MemoryNeed{
		Bytes: w*perCell + float64(h.cells)*8*h.resultWords + 8*h.dataWords,
		What: fmt.Sprintf("%.0f parallel cell(s), each with %d HMM fit(s) of k = %d states over p = %d symbols, longest sequence %d; %d cell results",
			w, h.fits, h.k, h.p, h.maxLen, h.cells),
	}
}

// dataShape returns the longest sequence and the number of sequences.
func dataShape(ds ...hmm.Data) (maxLen, nSeq int) {
	for _, d := range ds {
		for _, y := range d.Seqs {
			maxLen = max(maxLen, len(y))
		}
		nSeq = max(nSeq, len(d.Seqs))
	}
	return maxLen, nSeq
}

// RetiredKeys: the prior strengths moved from [vb] to [prior].
func (*SyntheticConfig) RetiredKeys() map[string]string { return retiredPrior }

// RetiredKeys: the prior strengths moved from [vb] to [prior].
func (*ModelOrderConfig) RetiredKeys() map[string]string { return retiredPrior }

// RetiredKeys: the prior strengths moved from [vb] to [prior].
func (*TightnessConfig) RetiredKeys() map[string]string { return retiredPrior }
