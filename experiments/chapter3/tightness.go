package chapter3

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/is"
)

// TightnessID is the registry key of the bound-tightness study (targets
// extension E3-X2): on data sets short enough for the exact marginal
// likelihood to be computed by enumerating every hidden path, VB's F, the
// Cheeseman-Stutz and BIC scores and importance-sampling estimates that use
// VB's q(θ) as the proposal (Beal 2003 §4.7, here for the HMM) are compared
// with the exact ln p(y|m).
const TightnessID = "chapter3/tightness"

// TightnessConfig is the config of chapter3/tightness.
type TightnessConfig struct {
	experiments.Common
	// KSweep: model.k lists 1 to 8 (k^T paths must be enumerable, see
	// hmm.MaxEvidencePaths); F, CS and BIC are each reported at their best
	// restart, and the samplers use the q(θ) of the restart with the
	// highest F.
	KSweep
	// IS is the [is] table of every sampler: Runs R independent runs of
	// Samples M draws; the estimate is the mean of the runs' ln Ẑ_r and its
	// standard error their standard deviation over √R (Beal 2003 Figure
	// 4.14, L3149).
	IS config.IS `toml:"is"`
}

// DefaultTightness returns the settings of extension E3-X2: 6 distinct data
// sets of three strings, one from each grammar of the synthetic experiment,
// each 3 to 5 symbols long (9-15 symbols in all, so 3^15 ≈ 1.4·10^7 paths
// at most); k = 2 and 3; the synthetic experiment's priors of strength 4 and
// VB started from the Cheeseman-Stutz point of each of 5 ML restarts; 20
// runs of 20000 samples per sampler.
func DefaultTightness() TightnessConfig {
	data := SyntheticData{Alphabet: "abc", Generator: "grammar3", Datasets: 6, SequencesPerGrammar: 1,
		MinLength: 3, MaxLength: 5, ABProb: 0.5, RandomPhase: true}
	return TightnessConfig{Common: experiments.Common{Experiment: TightnessID, Figures: []string{"tightness"}, Seed: 3005},
		KSweep: defaultKSweep(data, []int{2, 3}), IS: config.IS{Runs: 20, Samples: 20000}}
}

// Validate checks what relates the keys (each key's own range is its tag).
func (c *TightnessConfig) Validate() error {
	if err := c.Data.validate(); err != nil {
		return err
	}
	// model.k's range is KSweep's; the samplers make it smaller here.
	for _, k := range c.Model.K {
		if k > 8 {
			return config.FieldError("model.k", k, "must be in 1..8 (the samplers mix all k! relabellings of q)")
		}
	}
	if err := c.ML.validate("ml"); err != nil {
		return err
	}
	if err := c.VB.validate("vb"); err != nil {
		return err
	}
	if !c.VB.Hyper.Fixed() {
		return config.FieldError("vb.hyper", c.VB.Hyper, "every group must be 0: F and the exact ln p(y|m) must use the same fixed prior")
	}
	if c.Data.Generator != "" {
		// The longest data set the generator can draw must be enumerable.
		T := satMul(satMul(3, c.Data.SequencesPerGrammar), c.Data.MaxLength)
		for _, k := range c.Model.K {
			if _, ok := hmm.EvidencePaths(k, T); !ok {
				return config.FieldError("data.max_length", c.Data.MaxLength,
					fmt.Sprintf("gives up to %d symbols, and the exact ln p(y|m) at k = %d would enumerate %d^%d paths, more than hmm.MaxEvidencePaths = 2^26; shorten the strings", T, k, k, T))
			}
		}
	}
	return nil
}

// Proposal names of chapter3/tightness, in the order they are run.
const (
	// PropQ is the VB posterior q(θ) of the best restart (sampler 1 of
	// Beal 2003 Table 4.3).
	PropQ = "q"
	// PropAliases is the equal mixture of the k! relabellings of q(θ).
	PropAliases = "q-aliases"
	// PropDefensive is the equal mixture of PropAliases and of the k!
	// relabellings of q(θ) broadened to the prior's concentration.
	PropDefensive = "defensive"
)

// tightProposals lists the samplers' names.
var tightProposals = []string{PropQ, PropAliases, PropDefensive}

// dirichletProduct returns Π_rows Dir(rows[i]) laid out in the flat layout
// of hmm.ParamDim (rows from hmm.Posterior.Rows).
func dirichletProduct(rows [][]float64) *is.Product {
	blocks := make([]is.Proposal, len(rows))
	for i, r := range rows {
		blocks[i] = is.NewDirichlet(r)
	}
	return is.NewProduct(blocks...)
}

// aliases returns the products of the k! relabellings of w
// (hmm.Posterior.Relabel), the identity first.
func aliases(w hmm.Posterior) []is.Proposal {
	var out []is.Proposal
	for _, perm := range hmm.StatePermutations(w.K) {
		out = append(out, dirichletProduct(w.Relabel(perm).Rows()))
	}
	return out
}

// Broadened returns q(θ) with each Dirichlet row's pseudo-counts scaled
// by the largest factor s ≤ 1 that leaves none above the prior's,
// s = min(1, min_l u_l / w_l): the row's mean is kept and its concentration
// brought down to at most the prior's. The exact posterior is a mixture over
// hidden paths of the conjugate posteriors Dir(u + n(s)) (see
// hmm.ExactLogEvidence), so it has the prior's tails θ_l^(u_l − 1) at every
// face of the simplex, while q's pseudo-counts w = u + E[n] are larger: the
// weight p(θ|y)/q(θ) grows without bound there, and its variance is
// infinite when some w_l ≥ 2u_l (the Dirichlet analogue of eq. 4.121). A
// broadened row with pseudo-counts b ≤ u makes p*(θ)/Dir(θ|b) ∝
// p(y|θ) Π θ^(u − b) bounded on the simplex.
func Broadened(w hmm.Posterior, u hmm.Prior) hmm.Posterior {
	b := w.Clone()
	prior := u.Rows(w.K)
	for i, row := range b.Rows() {
		s := 1.0
		for l, v := range row {
			s = math.Min(s, prior[i][l]/v)
		}
		for l := range row {
			row[l] *= s
		}
	}
	return b
}

// TightProposal returns the importance distribution name for the VB
// posterior w under the prior u (see PropQ, PropAliases, PropDefensive).
//
// The exact posterior of an HMM with a symmetric prior is invariant to the
// k! relabellings of the hidden states, and VB's q(θ) locks onto one of its
// aliased modes (Beal 2003 L3096): with q alone, an importance sampler sees
// one alias and underestimates p(y|m) by up to ln k! when the modes are
// separated, an error its standard error does not show. The equal mixture
// (1/k!) Σ_σ q∘σ covers every alias and is itself a normalised density, so
// Ẑ stays unbiased whether the modes overlap or not;
// it is the precise form of the correction by the number of aliases that
// L3096 calls imprecise. The defensive mixture adds, with weight ½, the
// relabellings of Broadened(w, u); since the mixture is at least 1/(2·k!)
// times Broadened(w, u), the weights are bounded by 2·k!·max p*/Broadened
// and have finite variance whatever the tails, at the price of half the
// draws (a mixture of q with broader members of its family, the approach of
// Miskin 2000 cited at L3094).
func TightProposal(name string, w hmm.Posterior, u hmm.Prior) (is.Proposal, error) {
	switch name {
	case PropQ:
		return dirichletProduct(w.Rows()), nil
	case PropAliases:
		return is.NewMixture(aliases(w)...), nil
	case PropDefensive:
		return is.NewMixture(append(aliases(w), aliases(Broadened(w, u))...)...), nil
	}
	return nil, fmt.Errorf("unknown proposal %q (known: %s)", name, strings.Join(tightProposals, ", "))
}

// tightComponents returns the posteriors whose Dirichlet products make up
// the proposal name (with equal weights).
func tightComponents(name string, w hmm.Posterior, u hmm.Prior) []hmm.Posterior {
	var out []hmm.Posterior
	add := func(w hmm.Posterior) {
		for _, perm := range hmm.StatePermutations(w.K) {
			out = append(out, w.Relabel(perm))
		}
	}
	switch name {
	case PropQ:
		return []hmm.Posterior{w}
	case PropAliases:
		add(w)
	case PropDefensive:
		add(w)
		add(Broadened(w, u))
	}
	return out
}

// InfiniteWeightVariance reports whether the importance weights of the
// equal mixture g of the Dirichlet products of comps (posteriors of a
// k-state HMM in the flat layout) provably have infinite variance under g
// for the prior u. For k ≥ 2 some hidden path never uses a given parameter
// θ_c (an initial state, a transition, an emission), so the exact posterior,
// a mixture of Dir(u + n(s)) over paths (see hmm.ExactLogEvidence), keeps
// the prior's tail θ_c^(u_c − 1) at the face θ_c → 0, while g falls off as
// θ_c^(m_c − 1) with m_c the smallest pseudo-count of the components at c.
// E_g[w²] = ∫ p*²/g then diverges at that face when m_c ≥ 2u_c: the
// Dirichlet counterpart of the condition 2ν_p > ν_q of eq. 4.121 (L3070-
// L3087). It checks every coordinate c of a row longer than 1 and is a
// sufficient condition only (faces where several coordinates vanish are not
// examined). For k = 1 it is false: there is one path and q is exact.
func InfiniteWeightVariance(comps []hmm.Posterior, u hmm.Prior) bool {
	if len(comps) == 0 || comps[0].K < 2 {
		return false
	}
	prior := u.Rows(comps[0].K)
	rows := make([][][]float64, len(comps))
	for r, w := range comps {
		rows[r] = w.Rows()
	}
	for i, pr := range prior {
		if len(pr) < 2 {
			continue
		}
		for l := range pr {
			m := math.Inf(1)
			for _, w := range rows {
				m = math.Min(m, w[i][l])
			}
			if m >= 2*pr[l] {
				return true
			}
		}
	}
	return false
}

// TightRestart is one restart of a tightness cell: Baum-Welch from a random
// start, BIC and CS at its solution, then VBEM from the CS point.
type TightRestart struct {
	MLStatus     string
	MLIterations int
	MLLogLik     experiments.Float
	BIC, CS      experiments.Float
	VBStatus     string
	VBIterations int
	F            experiments.Float
}

// ISEstimate is the result of one sampler on one cell: R runs of M draws.
type ISEstimate struct {
	Proposal string
	// LogZ, MeanLogW and ESS are per run: ln Ẑ_r, F̂_r = mean ln w and the
	// effective sample size.
	LogZ, MeanLogW, ESS []experiments.Float
	// Mean and SE are the mean of the runs' ln Ẑ_r and its standard error;
	// Pooled is ln Ẑ from all R·M draws; F̂ is the pooled mean log weight,
	// the bound E_q[ln p*(θ)/q(θ)] of the proposal with the hidden states
	// integrated out exactly, and FSE its standard error over runs.
	Mean, SE, Pooled, FHat, FSE experiments.Float
	// InfiniteVariance: the weights provably have infinite variance
	// (InfiniteWeightVariance), so SE understates the error.
	InfiniteVariance bool
	Seconds          float64
}

// TightCell is the record of one (data set, k) cell.
type TightCell struct {
	Dataset, K, Symbols int
	Paths               int
	Exact               experiments.Float // ln p(y|m) by enumeration
	ExactSeconds        float64
	Restarts            []TightRestart
	Best                int           // the restart with the highest F
	W                   hmm.Posterior // its q(θ)
	IS                  []ISEstimate  // in the order of tightProposals
	Seconds             float64
}

func tightName(dataset, k int) string { return fmt.Sprintf("d%02d-k%d", dataset, k) }

// runTightCell computes one cell; every random stream is named by the data
// set, k and restart (or sampler and run), so the numbers do not depend on
// the worker that ran the cell or on the number of workers.
func runTightCell(c *TightnessConfig, data hmm.Data, dataset, k, workers int, stop func() error) (TightCell, error) {
	start := time.Now()
	p := data.P
	u := c.Prior.prior(k, p)
	cell := TightCell{Dataset: dataset, K: k, Symbols: data.Symbols(), Best: -1}
	cell.Paths, _ = hmm.EvidencePaths(k, cell.Symbols)
	t0 := time.Now()
	exact, err := hmm.ExactLogEvidence(data, k, u)
	if err != nil {
		return cell, err
	}
	cell.Exact, cell.ExactSeconds = experiments.Float(exact), time.Since(t0).Seconds()

	fit := &fitter{workers: workers, stop: stop}
	name := tightName(dataset, k)
	bestF := math.Inf(-1)
	for r := 0; r < c.Restarts; r++ {
		rnd := rng.New(c.Seed, c.Experiment, "init", fmt.Sprint(dataset), fmt.Sprint(k), fmt.Sprint(r))
		ml, mr := fit.ml(fmt.Sprintf("%s-r%02d/ML", name, r), data, hmm.RandomParams(k, p, rnd), c.ML.FitSettings)
		if mr.Status == vb.Canceled {
			return cell, mr.Err
		}
		tr := TightRestart{MLStatus: mr.Status.String(), MLIterations: mr.Iterations, MLLogLik: experiments.Float(mr.F),
			BIC: experiments.Float(hmm.BIC(data, ml.Params)), CS: experiments.Float(hmm.CheesemanStutz(data, ml.Params, u))}
		m, vr, err := fit.vbFrom(fmt.Sprintf("%s-r%02d/VB", name, r), data, u, c.VB, ml.Params, rnd)
		if err != nil {
			return cell, err
		}
		if vr.Status == vb.Canceled {
			return cell, vr.Err
		}
		tr.VBStatus, tr.VBIterations, tr.F = vr.Status.String(), vr.Iterations, experiments.Float(vr.F)
		if vr.Status.OK() && vr.F > bestF {
			bestF, cell.Best, cell.W = vr.F, r, m.W.Clone()
		}
		cell.Restarts = append(cell.Restarts, tr)
	}
	if cell.Best < 0 {
		return cell, fmt.Errorf("no VB restart of %s ended with a usable F", name)
	}

	joint, err := hmm.NewJoint(data, k, u)
	if err != nil {
		return cell, err
	}
	for _, prop := range tightProposals {
		if err := stop(); err != nil {
			return cell, err
		}
		q, err := TightProposal(prop, cell.W, u)
		if err != nil {
			return cell, err
		}
		t0 := time.Now()
		runs, sum := is.SampleRuns(c.IS.Runs, c.IS.Samples, workers,
			is.RunStreams(c.Seed, c.Experiment, "is", fmt.Sprint(dataset), fmt.Sprint(k), prop),
			func() (is.Proposal, is.Target) { return q, joint.Clone() })
		e := ISEstimate{Proposal: prop, Mean: experiments.Float(sum.Mean), SE: experiments.Float(sum.SE),
			Pooled: experiments.Float(sum.Pooled), FHat: experiments.Float(sum.MeanLogW),
			InfiniteVariance: InfiniteWeightVariance(tightComponents(prop, cell.W, u), u)}
		var fs []float64
		for _, r := range runs {
			e.LogZ = append(e.LogZ, experiments.Float(r.LogZ))
			e.MeanLogW = append(e.MeanLogW, experiments.Float(r.MeanLogW))
			e.ESS = append(e.ESS, experiments.Float(r.ESS))
			fs = append(fs, r.MeanLogW)
		}
		e.FSE = experiments.Float(sampleSD(fs) / math.Sqrt(float64(len(fs))))
		e.Seconds = time.Since(t0).Seconds()
		cell.IS = append(cell.IS, e)
	}
	cell.Seconds = time.Since(start).Seconds()
	return cell, nil
}

// sampleSD is the standard deviation with divisor n − 1.
func sampleSD(xs []float64) float64 {
	m := results.Mean(xs)
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

// RunTightness runs every (data set, k) cell and writes datasets.csv,
// restarts.csv, is_runs.csv, tightness.csv and summary.json.
func RunTightness(env *experiments.Env, c *TightnessConfig) error {
	sets, streams, err := tightnessData(env, c)
	if err != nil {
		return err
	}
	for i, d := range sets {
		if err := d.Validate(); err != nil {
			return fmt.Errorf("data set %d: %w", i, err)
		}
		for _, k := range c.Model.K {
			if _, ok := hmm.EvidencePaths(k, d.Symbols()); !ok {
				return fmt.Errorf("%s: data set %d has %d symbols: the exact ln p(y|m) at k = %d would enumerate %d^%d paths, more than hmm.MaxEvidencePaths = 2^26; use shorter data",
					c.Data.File, i, d.Symbols(), k, k, d.Symbols())
			}
		}
	}
	maxLen, nSeq := dataShape(sets...)
	kMax := slices.Max(c.Model.K)
	pk := kMax + kMax*kMax + kMax*sets[0].P
	need := hmmMemory{k: kMax, p: sets[0].P, maxLen: maxLen, nSeq: nSeq,
		workers: env.Workers, cells: satMul(len(sets), len(c.Model.K)), fits: 2,
		// the best q(θ), and a sampler's 2·k! relabelled copies of it
		params: 1 + 2*factorial(kMax),
		// a cell keeps the restarts' scores, q(θ) and three samplers'
		// per-run estimates.
		resultWords: float64(8*c.Restarts) + float64(pk) + float64(3*3*c.IS.Runs)}.need()
	// Each parallel cell also holds the R·M log weights of one sampler.
	need.Bytes += 8 * float64(max(min(env.Workers, len(sets)*len(c.Model.K)), 1)) * float64(c.IS.Runs) * float64(c.IS.Samples)
	if err := env.CheckMemory(need); err != nil {
		return err
	}
	type cell struct{ d, k int }
	var cells []cell
	var names []string
	var cost []float64
	for d := range sets {
		for _, k := range c.Model.K {
			cells = append(cells, cell{d, k})
			names = append(names, tightName(d, k))
			paths, _ := hmm.EvidencePaths(k, sets[d].Symbols())
			// enumeration (tens of ns a path) and sampling (a forward pass
			// and 2·k! Dirichlet products per draw, a few µs).
			cost = append(cost, 3e-8*float64(paths)+3e-7*float64(c.IS.Runs)*float64(c.IS.Samples)*float64(1+2*factorial(k)))
		}
	}
	runs, complete, err := experiments.RunAllCells(env, names, cost, func(i int) (TightCell, error) {
		return runTightCell(c, sets[cells[i].d], cells[i].d, cells[i].k, env.CellWorkers(len(cells)), env.Stop)
	})
	if err != nil || !complete {
		return err
	}
	return writeTightness(env, c, sets, streams, runs)
}

// tightnessData returns the data sets and the index j of the stream
// rng.New(seed, id, "data", j) each was drawn from (0 for a file). Generated
// sets are distinct: a candidate equal to an earlier set is skipped and the
// next stream drawn, because the generator's short strings repeat (a
// string of 3-5 symbols from a cycle grammar is one of nine).
func tightnessData(env *experiments.Env, c *TightnessConfig) ([]hmm.Data, []int, error) {
	if c.Data.Generator == "" {
		sets, err := loadSyntheticData(env, c.Data, c.Seed, c.Experiment)
		return sets, []int{0}, err
	}
	g := GrammarSpec{PerGrammar: c.Data.SequencesPerGrammar, MinLength: c.Data.MinLength, MaxLength: c.Data.MaxLength,
		ABProb: c.Data.ABProb, RandomPhase: c.Data.RandomPhase}
	var sets []hmm.Data
	var streams []int
	seen := map[string]bool{}
	for j := 0; len(sets) < c.Data.Datasets; j++ {
		if j == 100*c.Data.Datasets {
			return nil, nil, config.FieldError("data.datasets", c.Data.Datasets,
				fmt.Sprintf("is more than the %d distinct data sets found in %d draws from the generator; ask for fewer or longer strings", len(sets), j))
		}
		d := g.Generate(rng.New(c.Seed, c.Experiment, "data", fmt.Sprint(j)))
		if key := fmt.Sprint(d.Seqs); !seen[key] {
			seen[key] = true
			sets = append(sets, d)
			streams = append(streams, j)
		}
	}
	return sets, streams, nil
}

func factorial(k int) int {
	f := 1
	for i := 2; i <= k; i++ {
		f *= i
	}
	return f
}

// best returns the highest value of f over a cell's restarts (NaN when
// every one is NaN).
func (t TightCell) best(f func(TightRestart) experiments.Float) float64 {
	b := math.NaN()
	for _, r := range t.Restarts {
		v := float64(f(r))
		if !math.IsNaN(v) && (math.IsNaN(b) || v > b) {
			b = v
		}
	}
	return b
}

// tightZ returns (estimate − exact)/SE, or 0 when the difference is
// within rounding of zero (a sampler whose weights are all equal, such as
// q at k = 1, where q(θ) is the exact posterior, has SE ≈ 0).
func tightZ(est, se, exact float64) float64 {
	d := est - exact
	if math.Abs(d) <= 1e-9*math.Max(1, math.Abs(exact)) {
		return 0
	}
	return d / se
}

func writeTightness(env *experiments.Env, c *TightnessConfig, sets []hmm.Data, streams []int, cells []TightCell) error {
	a, err := hmm.NewAlphabet(c.Data.Alphabet)
	if err != nil {
		return err
	}
	ds := results.NewTable("dataset", "data_stream", "sequence", "length", "symbols")
	for d, set := range sets {
		for i, y := range set.Seqs {
			ds.AddRow(d, streams[d], i, len(y), a.Decode(y))
		}
	}
	if err := results.WriteCSV(env.Path("datasets.csv"), *ds); err != nil {
		return err
	}
	rt := results.NewTable("dataset", "k", "restart", "best", "ml_status", "ml_iterations", "ml_loglik", "bic", "cs",
		"vb_status", "vb_iterations", "F")
	ir := results.NewTable("dataset", "k", "proposal", "run", "samples", "log_z", "mean_log_w", "ess")
	tt := results.NewTable("dataset", "k", "symbols", "method", "estimate", "se", "minus_exact", "z")
	for _, cl := range cells {
		iters := 0
		for _, x := range cl.Restarts {
			iters += x.MLIterations + x.VBIterations
		}
		b := cl.Restarts[cl.Best]
		env.AddRun(results.RunRecord{Name: tightName(cl.Dataset, cl.K), Status: b.MLStatus + "/" + b.VBStatus, WallSeconds: cl.Seconds,
			Iterations: iters, Seed: rng.Derive(c.Seed, c.Experiment, "init", fmt.Sprint(cl.Dataset), fmt.Sprint(cl.K), fmt.Sprint(cl.Best))})
		for r, x := range cl.Restarts {
			rt.AddRow(cl.Dataset, cl.K, r, b2i(r == cl.Best), x.MLStatus, x.MLIterations, float64(x.MLLogLik), float64(x.BIC), float64(x.CS),
				x.VBStatus, x.VBIterations, float64(x.F))
			for _, st := range []string{x.MLStatus, x.VBStatus} {
				if s, _ := vb.ParseStatus(st); !s.OK() {
					env.Warnf("cell %s restart %d ended with status %s", tightName(cl.Dataset, cl.K), r, st)
				}
			}
		}
		exact := float64(cl.Exact)
		row := func(method string, est, se, z float64) {
			tt.AddRow(cl.Dataset, cl.K, cl.Symbols, method, est, se, est-exact, z)
		}
		nan := math.NaN()
		row("exact", exact, nan, nan)
		row("F", float64(cl.Restarts[cl.Best].F), nan, nan)
		row("CS", cl.best(func(r TightRestart) experiments.Float { return r.CS }), nan, nan)
		row("BIC", cl.best(func(r TightRestart) experiments.Float { return r.BIC }), nan, nan)
		for _, e := range cl.IS {
			row("IS:"+e.Proposal, float64(e.Mean), float64(e.SE), tightZ(float64(e.Mean), float64(e.SE), exact))
			for r := range e.LogZ {
				ir.AddRow(cl.Dataset, cl.K, e.Proposal, r, c.IS.Samples, float64(e.LogZ[r]), float64(e.MeanLogW[r]), float64(e.ESS[r]))
			}
		}
		// F̂_θ: the bound of q(θ) with the hidden states integrated out
		// exactly, F_VB ≤ F̂_θ ≤ ln p(y|m).
		if e := cl.IS[0]; e.Proposal == PropQ {
			row("Ftheta", float64(e.FHat), float64(e.FSE), nan)
		}
	}
	for _, w := range []struct {
		name string
		t    *results.Table
	}{{"restarts.csv", rt}, {"is_runs.csv", ir}, {"tightness.csv", tt}} {
		if err := results.WriteCSV(env.Path(w.name), *w.t); err != nil {
			return err
		}
	}
	return env.WriteSummary(tightnessSummary(env, c, cells), tightnessIntro)
}

const tightnessIntro = "Every cell is one short data set and one k. The exact ln p(y|m) comes from enumerating every hidden path (hmm.ExactLogEvidence). F is a lower bound on it (eq. 3.79) and so is CS (Theorem 2.3); BIC is not a bound. The importance-sampling estimates are means over independent runs with their standard errors; a correct sampler is within 3 SE of the exact value except by chance (chance_beyond_3se_per_cell and chance_beyond_3se_any_cell in the metrics), and only if its weights have finite variance (infinite_variance_cells_* counts the cells where they provably do not)."

func tightnessSummary(env *experiments.Env, c *TightnessConfig, cells []TightCell) *results.Summary {
	s := &results.Summary{Experiment: c.Experiment, ConfigHash: env.Hash, Quick: env.Quick, Criteria: tightnessCriteria}
	s.SetMetric("cells", float64(len(cells)))
	s.SetMetric("datasets", float64(c.Data.Datasets))
	var symbols []float64
	for _, cl := range cells {
		symbols = append(symbols, float64(cl.Symbols))
	}
	s.SetMetric("symbols_min", slices.Min(symbols))
	s.SetMetric("symbols_max", slices.Max(symbols))
	tightnessGaps(s, c, cells)
	v := tightViolations(cells)
	for _, prop := range tightProposals {
		s.SetMetric("max_abs_z_"+prop, v.maxZ[prop])
		s.SetMetric("rms_z_"+prop, math.Sqrt(v.sumZ2[prop]/float64(len(cells))))
		s.SetMetric("infinite_variance_cells_"+prop, float64(v.infinite[prop]))
	}
	// The chance that a correct sampler, whose run estimates are Gaussian,
	// lands beyond 3 SE: (mean − exact)/SE is t with R − 1 degrees of
	// freedom.
	alarm := 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(c.IS.Runs - 1)}.CDF(-3)
	s.SetMetric("chance_beyond_3se_per_cell", alarm)
	s.SetMetric("chance_beyond_3se_any_cell", 1-math.Pow(1-alarm, float64(len(cells))))
	judgeTightness(s, c, len(cells), v, alarm)
	return s
}

// tightnessGaps sets the metrics of each k: the gaps of F, CS, BIC and
// F̂_θ below the exact ln p(y|m), q's importance-sampling deficit and the
// samplers' effective sample sizes.
func tightnessGaps(s *results.Summary, c *TightnessConfig, cells []TightCell) {
	for _, k := range c.Model.K {
		var gap, csGap, bicGap, thetaGap, deficit []float64
		ess := map[string][]float64{}
		for _, cl := range cells {
			if cl.K != k {
				continue
			}
			exact := float64(cl.Exact)
			gap = append(gap, exact-float64(cl.Restarts[cl.Best].F))
			csGap = append(csGap, exact-cl.best(func(r TightRestart) experiments.Float { return r.CS }))
			bicGap = append(bicGap, exact-cl.best(func(r TightRestart) experiments.Float { return r.BIC }))
			for _, e := range cl.IS {
				for _, v := range e.ESS {
					ess[e.Proposal] = append(ess[e.Proposal], float64(v)/float64(c.IS.Samples))
				}
				if e.Proposal == PropQ {
					thetaGap = append(thetaGap, exact-float64(e.FHat))
					deficit = append(deficit, exact-float64(e.Mean))
				}
			}
		}
		sfx := fmt.Sprintf("_k%d", k)
		s.SetMetric("gap_F_median"+sfx, results.Median(gap))
		s.SetMetric("gap_F_min"+sfx, slices.Min(gap))
		s.SetMetric("gap_F_max"+sfx, slices.Max(gap))
		s.SetMetric("gap_CS_median"+sfx, results.Median(csGap))
		s.SetMetric("gap_BIC_median"+sfx, results.Median(bicGap))
		s.SetMetric("gap_Ftheta_median"+sfx, results.Median(thetaGap))
		s.SetMetric("q_deficit_median"+sfx, results.Median(deficit))
		s.SetMetric("q_deficit_max"+sfx, slices.Max(deficit))
		s.SetMetric("ln_k_factorial"+sfx, math.Log(float64(factorial(k))))
		for _, prop := range tightProposals {
			s.SetMetric("ess_fraction_median_"+prop+sfx, results.Median(ess[prop]))
		}
	}
}

// tightCounts are the violations of the bounds over all cells, and per
// proposal the largest and the summed squared z-score of the importance
// sampling estimates and the cells where their weights have provably
// infinite variance.
type tightCounts struct {
	bad, fAbove, csAbove, csAboveF, fAboveTheta int
	maxZ, sumZ2                                 map[string]float64
	infinite                                    map[string]int
}

func tightViolations(cells []TightCell) tightCounts {
	v := tightCounts{maxZ: map[string]float64{}, sumZ2: map[string]float64{}, infinite: map[string]int{}}
	for _, cl := range cells {
		exact := float64(cl.Exact)
		tol := 1e-9 * math.Max(1, math.Abs(exact))
		for _, r := range cl.Restarts {
			if r.MLStatus == vb.BoundDecreased.String() || r.VBStatus == vb.BoundDecreased.String() {
				v.bad++
			}
			if float64(r.F) > exact+tol {
				v.fAbove++
			}
			if float64(r.CS) > exact+tol {
				v.csAbove++
			}
			if float64(r.CS) > float64(r.F)+tol {
				v.csAboveF++
			}
		}
		for _, e := range cl.IS {
			z := math.Abs(tightZ(float64(e.Mean), float64(e.SE), exact))
			if math.IsNaN(z) {
				z = math.Inf(1)
			}
			v.maxZ[e.Proposal] = math.Max(v.maxZ[e.Proposal], z)
			v.sumZ2[e.Proposal] += z * z
			if e.InfiniteVariance {
				v.infinite[e.Proposal]++
			}
			if e.Proposal == PropQ && float64(cl.Restarts[cl.Best].F) > float64(e.FHat)+3*float64(e.FSE)+tol {
				v.fAboveTheta++
			}
		}
	}
	return v
}

// judgeTightness judges the criteria of the tightness study: the bounds
// of Theorem 2.3 and Corollary 2.5 in every run, and each importance
// sampler within 3 SE of the exact value in every cell, with the reason a
// sampler can fail as its finding.
func judgeTightness(s *results.Summary, c *TightnessConfig, cells int, v tightCounts, alarm float64) {
	crit := tightnessCriteria.Get
	s.Judge(crit("tightness-monotone"), float64(v.bad))
	s.Judge(crit("tightness-f-le-exact"), float64(v.fAbove))
	s.Judge(crit("tightness-cs-le-exact"), float64(v.csAbove))
	if c.VB.Init == "from-cs" {
		s.Judge(crit("tightness-cs-le-f"), float64(v.csAboveF))
	} else {
		s.NotJudged(crit("tightness-cs-le-f"), fmt.Sprintf("VB is not started from the CS point (vb.init = %q), so Corollary 2.5 does not order them", c.VB.Init))
	}
	s.Judge(crit("tightness-f-le-ftheta"), float64(v.fAboveTheta))
	explain := map[string]string{}
	for _, prop := range tightProposals {
		id := isZ(prop).ID
		s.Judge(crit(id), v.maxZ[prop])
		if n := v.infinite[prop]; n > 0 {
			explain[id] = fmt.Sprintf("Its weights have provably infinite variance in %d of the %d cells (a pseudo-count of the proposal at least twice the prior's at a face where the exact posterior keeps the prior's tail; the Dirichlet form of eq. 4.121), so the spread of the runs understates the error and the standard error is not a valid error bar.", n, cells)
		} else if prop == PropDefensive {
			explain[id] = fmt.Sprintf("Its weights are bounded, so this is a chance deviation unless its z-scores are miscalibrated (see rms_z_%s): a correct sampler lands beyond 3 SE with probability %.2g in one cell and %.2g in at least one of the %d cells (t with %d degrees of freedom).",
				prop, alarm, 1-math.Pow(1-alarm, float64(cells)), cells, c.IS.Runs-1)
		} else {
			explain[id] = "No face with provably infinite weight variance was found; the deviation is chance or comes from tails the single-face condition does not detect."
		}
	}
	s.Claims = tightnessClaims
	s.AddFindingsFromChecks(explain)
}

func init() {
	experiments.Add(TightnessID, "how tight is F for a small VB HMM: F, CS, BIC and importance sampling against the exact ln p(y|m) (extension E3-X2)", DefaultTightness, RunTightness, PlotTightness)
}
