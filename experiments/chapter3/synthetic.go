package chapter3

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/datasets"
	"github.com/vbworkbench/vbw/results"
)

// Registry keys of the structure-discovery experiment: on the thesis's own
// strings (Figures 3.2, 3.3) and on 10 generated data sets (the robustness
// study of targets §E3.1). They share the code and differ in config.
const (
	SyntheticID        = "chapter3/synthetic"
	SyntheticGrammarID = "chapter3/synthetic-grammar"
)

// SyntheticData says where the training sequences come from.
type SyntheticData struct {
	// File names a one-sequence-per-line file in the data directory (an
	// absolute path is used as is). Default "abc21.txt", the thesis's own 21
	// strings. Ignored when Generator is set.
	File string `toml:"file"`
	// Alphabet maps characters to symbols 0..p−1. Default "abc".
	Alphabet string `toml:"alphabet"`
	// Generator, if "grammar3", draws the data from the reconstructed
	// three-grammar generator instead of reading File (targets §E3.1).
	Generator string `toml:"generator"`
	// Datasets is the number of independent generated data sets (data
	// seeds). It must be 1 when the data come from a file.
	Datasets int `toml:"datasets"`
	// SequencesPerGrammar, MinLength, MaxLength, ABProb and RandomPhase set
	// up the generator: 7 per grammar, lengths uniform on 10..39, P(a) = ½.
	SequencesPerGrammar int     `toml:"sequences_per_grammar"`
	MinLength           int     `toml:"min_length"`
	MaxLength           int     `toml:"max_length"`
	ABProb              float64 `toml:"ab_prob"`
	RandomPhase         bool    `toml:"random_phase"`
}

// SyntheticConfig is the config of chapter3/synthetic.
type SyntheticConfig struct {
	experiments.Common
	// Restarts is the number of random ML initialisations per data set; the
	// run with the highest F is reported (Figures 3.2, 3.3).
	Restarts int           `toml:"restarts"`
	Data     SyntheticData `toml:"data"`
	Model    struct {
		// K is the number of hidden states, 12 in the thesis (L2127).
		K int `toml:"k"`
	} `toml:"model"`
	ML       SyntheticML `toml:"ml"`
	VB       VBSettings  `toml:"vb"`
	Analysis Analysis    `toml:"analysis"`
}

// SyntheticML controls the Baum-Welch run of each cell.
type SyntheticML struct {
	MLSettings
	// Baseline runs Baum-Welch even when VB does not start from its
	// solution (vb.init = "random"), as a baseline to compare with. With
	// vb.init = "from-ml" or "from-cs" ML always runs. Default false.
	Baseline bool `toml:"baseline"`
}

// runsML reports whether a cell runs Baum-Welch.
func (c *SyntheticConfig) runsML() bool { return c.VB.Init != "random" || c.ML.Baseline }

// DefaultSynthetic returns the thesis's settings (section 3.5.1).
func DefaultSynthetic() SyntheticConfig {
	c := SyntheticConfig{Common: experiments.Common{Experiment: SyntheticID, Figures: []string{"fig3.2", "fig3.3"}, Seed: 3001}}
	c.Restarts = 10
	c.Data = SyntheticData{File: "abc21.txt", Alphabet: "abc", Datasets: 1, SequencesPerGrammar: 7,
		MinLength: 10, MaxLength: 39, ABProb: 0.5, RandomPhase: true}
	c.Model.K = 12
	c.ML = SyntheticML{MLSettings: MLSettings{experiments.DefaultFit(5000)}}
	c.VB = VBSettings{Init: "from-ml", InitStrength: 10, InitFloor: 1e-10, PriorStrength: Strength{4, 4, 4},
		FitSettings: vbFit(5000)}
	c.Analysis.ActiveThreshold = 0.01
	return c
}

// Validate checks every field.
func (c *SyntheticConfig) Validate() error {
	if c.Restarts < 1 {
		return experiments.FieldError("restarts", c.Restarts, "must be at least 1")
	}
	if c.Model.K < 1 {
		return experiments.FieldError("model.k", c.Model.K, "must be at least 1")
	}
	return validateFit(c.Data, c.ML.MLSettings, c.VB, c.Analysis)
}

// validate checks the data keys.
func (d SyntheticData) validate() error {
	switch d.Generator {
	case "":
		if d.File == "" {
			return experiments.FieldError("data.file", d.File, "must name a file when data.generator is not set")
		}
		if d.Datasets != 1 {
			return experiments.FieldError("data.datasets", d.Datasets, "must be 1 when the data come from a file")
		}
		if len(d.Alphabet) < 1 {
			return experiments.FieldError("data.alphabet", d.Alphabet, "must not be empty")
		}
	case "grammar3":
		if d.Alphabet != "abc" {
			return experiments.FieldError("data.alphabet", d.Alphabet, `must be "abc" for generator "grammar3"`)
		}
		if d.Datasets < 1 {
			return experiments.FieldError("data.datasets", d.Datasets, "must be at least 1")
		}
		if d.SequencesPerGrammar < 1 {
			return experiments.FieldError("data.sequences_per_grammar", d.SequencesPerGrammar, "must be at least 1")
		}
		if d.MinLength < 1 || d.MaxLength < d.MinLength {
			return experiments.FieldError("data.max_length", d.MaxLength, fmt.Sprintf("must be ≥ min_length = %d ≥ 1", d.MinLength))
		}
		if !(d.ABProb > 0 && d.ABProb < 1) {
			return experiments.FieldError("data.ab_prob", d.ABProb, "must be in (0, 1)")
		}
	default:
		return experiments.FieldError("data.generator", d.Generator, `must be "" (read data.file) or "grammar3"`)
	}
	return nil
}

// Run is the record of one (data set, restart) cell: ML from a random start
// to convergence, then VB continued from the ML point.
type Run struct {
	Dataset, Restart int
	InitSeed         uint64 // the first PCG seed of the init stream

	MLStatus     string
	MLIterations int
	MLLogLik     experiments.Float
	MLSeconds    float64
	MLOccupancy  []float64
	ML           hmm.Params

	VBStatus     string
	VBIterations int
	F            experiments.Float
	// Traces are the ML (if it ran) and VB traces: ln p(y|θ), and F with
	// its terms lnZ, -KL[pi], -KL[A], -KL[C], after each E step (VB's
	// iteration 0 is the hand-built q(θ)).
	Traces      []experiments.RunTrace
	VBSeconds   float64
	VBOccupancy []float64
	W           hmm.Posterior

	Symbols   int
	Structure Structure
}

// loadSyntheticData returns the data sets described by d; generated sets
// draw from streams named by the experiment ID and the data set's index.
func loadSyntheticData(env *experiments.Env, d SyntheticData, seed uint64, id string) ([]hmm.Data, error) {
	if d.Generator == "" {
		raw, err := env.ReadData(d.File)
		if err != nil {
			return nil, err
		}
		data, err := datasets.ParseSequences(d.File, raw, d.Alphabet)
		if err != nil {
			return nil, err
		}
		return []hmm.Data{data}, nil
	}
	g := GrammarSpec{PerGrammar: d.SequencesPerGrammar, MinLength: d.MinLength, MaxLength: d.MaxLength,
		ABProb: d.ABProb, RandomPhase: d.RandomPhase}
	sets := make([]hmm.Data, d.Datasets)
	for i := range sets {
		sets[i] = g.Generate(rng.New(seed, id, "data", fmt.Sprint(i)))
	}
	for i, s := range sets {
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("data set %d: %w", i, err)
		}
	}
	return sets, nil
}

// mlSkipped is the ML status of a cell that ran no Baum-Welch.
const mlSkipped = "skipped"

// fitMLThenVB runs one cell. The init stream is named by the data set and
// restart, so a cell's numbers do not depend on which worker ran it.
func fitMLThenVB(c *SyntheticConfig, data hmm.Data, dataset, restart, workers int, stop func() error) (Run, error) {
	k, p := c.Model.K, data.P
	labels := []string{c.Experiment, "init", fmt.Sprint(dataset), fmt.Sprint(restart)}
	seed, _ := rng.Seeds(c.Seed, labels...)
	rnd := rng.New(c.Seed, labels...)
	r := Run{Dataset: dataset, Restart: restart, InitSeed: seed, Symbols: data.Symbols()}
	fit := &fitter{workers: workers, stop: stop, traces: true}
	name := runName(dataset, restart)

	u := c.VB.prior(k, p)
	mlParams := hmm.NewParams(k, p) // only its shape is used without ML
	if c.runsML() {
		start := time.Now()
		ml, mr := fit.ml(name+"/ML", data, hmm.RandomParams(k, p, rnd), c.ML.FitSettings)
		r.MLSeconds = time.Since(start).Seconds()
		if mr.Status == vb.Canceled {
			return r, mr.Err
		}
		r.MLStatus, r.MLIterations, r.MLLogLik = mr.Status.String(), mr.Iterations, experiments.Float(mr.F)
		r.ML = ml.Params.Clone()
		r.MLOccupancy = ml.Counts().Occupancy()
		mlParams = ml.Params
	} else {
		r.MLStatus, r.MLLogLik = mlSkipped, experiments.Float(math.NaN())
	}

	start := time.Now()
	m, vr := fit.vbem(name+"/VB", data, u, c.VB.initialPosterior(data, u, mlParams, rnd), c.VB.FitSettings)
	r.VBSeconds = time.Since(start).Seconds()
	if vr.Status == vb.Canceled {
		return r, vr.Err
	}
	r.VBStatus, r.VBIterations, r.F = vr.Status.String(), vr.Iterations, experiments.Float(vr.F)
	r.Traces = fit.kept
	r.W = m.W.Clone()
	r.VBOccupancy = m.Counts().Occupancy()
	r.Structure = CheckStructure(m.W.Mean(), r.VBOccupancy, c.Analysis.ActiveThreshold)
	return r, nil
}

// runName names a cell's fits in trace.csv: "d00-r03", then "/ML" or "/VB".
func runName(dataset, restart int) string { return fmt.Sprintf("d%02d-r%02d", dataset, restart) }

// trace returns the cell's trace of method ("ML" or "VB"), if it ran.
func (r Run) trace(method string) (experiments.RunTrace, bool) {
	for _, t := range r.Traces {
		if t.Run == runName(r.Dataset, r.Restart)+"/"+method {
			return t, true
		}
	}
	return experiments.RunTrace{}, false
}

// RunSynthetic runs every (data set, restart) cell, writes the tables and
// summary.json.
func RunSynthetic(env *experiments.Env, c *SyntheticConfig) error {
	// need is the memory estimate for data sets of the given shape; it is
	// checked before generating data (with the generator's sizes) and
	// again once the data are read.
	need := func(p, maxLen, nSeq, sets int) experiments.MemoryNeed {
		return hmmMemory{k: c.Model.K, p: p, maxLen: maxLen, nSeq: nSeq,
			workers: env.Workers, cells: satMul(sets, c.Restarts), fits: 2, params: 3,
			dataWords: float64(sets) * float64(nSeq) * float64(maxLen),
			// a cell keeps the ML and VB parameters and occupancies, and
			// the ML and VB traces with their terms.
			resultWords: 3*float64(c.Model.K)*float64(c.Model.K+p+3) + traceWords(c.ML.MaxIterations, 1) + traceWords(c.VB.MaxIterations, 4)}.need()
	}
	if c.Data.Generator != "" {
		if err := experiments.CheckMemory(need(3, c.Data.MaxLength, satMul(3, c.Data.SequencesPerGrammar), c.Data.Datasets)); err != nil {
			return err
		}
	}
	sets, err := loadSyntheticData(env, c.Data, c.Seed, c.Experiment)
	if err != nil {
		return err
	}
	if err := sets[0].Validate(); err != nil {
		return fmt.Errorf("%s: %w", c.Data.File, err)
	}
	maxLen, nSeq := dataShape(sets...)
	if err := experiments.CheckMemory(need(sets[0].P, maxLen, nSeq, len(sets))); err != nil {
		return err
	}
	var names []string
	type cell struct{ d, r int }
	var cells []cell
	for d := range sets {
		for r := 0; r < c.Restarts; r++ {
			names = append(names, fmt.Sprintf("d%02d-r%02d", d, r))
			cells = append(cells, cell{d, r})
		}
	}
	runs, done, err := experiments.RunCells(env, names, func(i int) (Run, error) {
		return fitMLThenVB(c, sets[cells[i].d], cells[i].d, cells[i].r, env.CellWorkers(len(cells)), env.Stop)
	})
	if err != nil {
		return err
	}
	if env.Shard.Active() {
		fmt.Fprintf(env.Log, "%s: shard %s done; merge the shards' cells to build the figures\n", env.ID, env.Shard)
		return nil
	}
	for i := range runs {
		if !done[i] {
			return fmt.Errorf("cell %s did not finish", names[i])
		}
	}
	for _, r := range runs {
		env.AddRun(results.RunRecord{Name: fmt.Sprintf("d%02d-r%02d", r.Dataset, r.Restart), Seed: r.InitSeed,
			Status: r.MLStatus + "/" + r.VBStatus, WallSeconds: r.MLSeconds + r.VBSeconds, Iterations: r.MLIterations + r.VBIterations})
		for _, s := range []string{r.MLStatus, r.VBStatus} {
			if s == mlSkipped {
				continue
			}
			if st, _ := vb.ParseStatus(s); !st.OK() {
				env.Warnf("run d%02d-r%02d ended with status %s", r.Dataset, r.Restart, s)
			}
		}
	}
	return writeSynthetic(env, c, runs, len(sets))
}

// bestRuns returns, for each data set, the index into runs of the restart
// with the highest F (ties to the lowest restart).
func bestRuns(runs []Run, datasets int) []int {
	best := make([]int, datasets)
	for d := range best {
		best[d] = -1
	}
	for i, r := range runs {
		b := best[r.Dataset]
		f := float64(r.F)
		if math.IsNaN(f) {
			continue
		}
		if b < 0 || f > float64(runs[b].F) {
			best[r.Dataset] = i
		}
	}
	return best
}

func writeSynthetic(env *experiments.Env, c *SyntheticConfig, runs []Run, datasets int) error {
	best := bestRuns(runs, datasets)
	isBest := make(map[int]bool)
	for _, b := range best {
		isBest[b] = true
	}
	// runs.csv: one row per cell.
	rt := results.NewTable("dataset", "restart", "init_seed", "best", "ml_status", "ml_iterations", "ml_loglik",
		"ml_active", "vb_status", "vb_iterations", "F", "vb_active", "recovered", "ml_seconds", "vb_seconds", "vb_ms_per_iter")
	for i, r := range runs {
		rt.AddRow(r.Dataset, r.Restart, fmt.Sprint(r.InitSeed), b2i(isBest[i]), r.MLStatus, r.MLIterations, float64(r.MLLogLik),
			len(Active(r.MLOccupancy, c.Analysis.ActiveThreshold)), r.VBStatus, r.VBIterations, float64(r.F),
			len(r.Structure.Active), b2i(r.Structure.Recovered), r.MLSeconds, r.VBSeconds, 1000*r.VBSeconds/float64(max(r.VBIterations, 1)))
	}
	if err := results.WriteCSV(env.Path("runs.csv"), *rt); err != nil {
		return err
	}
	// trace.csv and terms.csv: every iteration of every fit.
	var traces []experiments.RunTrace
	for _, r := range runs {
		traces = append(traces, r.Traces...)
	}
	if err := experiments.WriteTraces(env.Dir, traces); err != nil {
		return err
	}
	// params.csv: the parameters of each data set's best run.
	pt := experiments.NewParams()
	for _, b := range best {
		if b < 0 {
			continue
		}
		r := runs[b]
		name := runName(r.Dataset, r.Restart)
		if r.ML.K > 0 {
			addParams(pt, name, "ML", r.ML.K, r.ML.P, r.ML.Pi, r.ML.A, r.ML.C)
		}
		addParams(pt, name, "VB_counts", r.W.K, r.W.P, r.W.Pi, r.W.A, r.W.C)
		mean := r.W.Mean()
		addParams(pt, name, "VB_mean", mean.K, mean.P, mean.Pi, mean.A, mean.C)
	}
	if err := pt.Write(env.Dir); err != nil {
		return err
	}
	sum := syntheticSummary(env, c, runs, best)
	return env.WriteSummary(sum, "")
}

// addParams records π (1×k), A (k×k) and C (k×p) of one source.
func addParams(t *experiments.Params, run, source string, k, p int, pi, a, c []float64) {
	t.Add(run, source, "pi", 1, k, pi)
	t.Add(run, source, "A", k, k, a)
	t.Add(run, source, "C", k, p, c)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// syntheticSummary computes the metrics and the acceptance criteria of
// targets §E3.1-E3.2. Criteria stated for "10 data sets, one random init
// each" are computed over every (data set, restart) run, each of which is
// one random initialisation.
func syntheticSummary(env *experiments.Env, c *SyntheticConfig, runs []Run, best []int) *results.Summary {
	s := &results.Summary{Experiment: c.Experiment, ConfigHash: env.Hash, Quick: env.Quick, Criteria: syntheticCriteria}
	thr := c.Analysis.ActiveThreshold
	u := c.VB.prior(c.Model.K, c.Data.pOf())

	fig := runs[best[0]]
	hasML := c.runsML()
	mlMetric := func(x float64) float64 {
		if !hasML {
			return math.NaN()
		}
		return x
	}
	s.SetMetric("F_best", float64(fig.F))
	s.SetMetric("ml_loglik", float64(fig.MLLogLik))
	s.SetMetric("ml_iterations", mlMetric(float64(fig.MLIterations)))
	s.SetMetric("vb_iterations", float64(fig.VBIterations))
	s.SetMetric("ml_active_states", mlMetric(float64(len(Active(fig.MLOccupancy, thr)))))
	s.SetMetric("vb_active_states", float64(len(fig.Structure.Active)))
	s.SetMetric("structure_recovered", float64(b2i(fig.Structure.Recovered)))
	s.SetMetric("figure_dataset", float64(fig.Dataset))
	s.SetMetric("figure_restart", float64(fig.Restart))
	s.SetMetric("datasets", float64(len(best)))
	s.SetMetric("runs", float64(len(runs)))

	var mlIt, vbIt, mlAct, vbAct, msPerIter []float64
	nonMono, fewer, recovered := 0, 0, 0
	for _, r := range runs {
		if hasML {
			mlIt = append(mlIt, float64(r.MLIterations))
			mlAct = append(mlAct, float64(len(Active(r.MLOccupancy, thr))))
		}
		vbIt = append(vbIt, float64(r.VBIterations))
		vbAct = append(vbAct, float64(len(r.Structure.Active)))
		msPerIter = append(msPerIter, 1000*r.VBSeconds/float64(max(r.VBIterations, 1)))
		mlTr, _ := r.trace("ML")
		vbTr, _ := r.trace("VB")
		if !mlTr.Monotone(c.ML.MonotoneTol) || !vbTr.Monotone(c.VB.MonotoneTol) ||
			r.MLStatus == vb.BoundDecreased.String() || r.VBStatus == vb.BoundDecreased.String() {
			nonMono++
		}
		if r.VBIterations < r.MLIterations {
			fewer++
		}
		if r.Structure.Recovered {
			recovered++
		}
	}
	n := float64(len(runs))
	s.SetMetric("ml_iterations_median", results.Median(mlIt))
	s.SetMetric("vb_iterations_median", results.Median(vbIt))
	s.SetMetric("ml_active_states_median", results.Median(mlAct))
	s.SetMetric("vb_active_states_median", results.Median(vbAct))
	s.SetMetric("vb_ms_per_iteration_median", results.Median(msPerIter))
	s.SetMetric("runs_recovered_fraction", float64(recovered)/n)

	bestRecovered, selectable, selected := 0, 0, 0
	inactiveBad := 0
	var maxOcc, maxDev float64
	for d, b := range best {
		r := runs[b]
		if r.Structure.Recovered {
			bestRecovered++
		}
		any := false
		for _, q := range runs {
			if q.Dataset == d && q.Structure.Recovered {
				any = true
			}
		}
		if any {
			selectable++
			if r.Structure.Recovered {
				selected++
			}
		}
		occ, dev := inactiveDeviation(r, u, thr)
		maxOcc, maxDev = math.Max(maxOcc, occ), math.Max(maxDev, dev)
		if occ >= 0.5 || dev > 0.5 {
			inactiveBad++
		}
	}
	nd := float64(len(best))
	s.SetMetric("datasets_recovered_fraction", float64(bestRecovered)/nd)
	s.SetMetric("inactive_max_occupancy", maxOcc)
	s.SetMetric("inactive_max_prior_deviation", maxDev)

	// The data-independent check applies to every run; the others state
	// what the thesis's setting should give (targets §E3.1-E3.2) and do not
	// apply to a user's data, another k, or (the ML ones) a run without ML.
	crit := syntheticCriteria.Get
	s.Judge(crit("fig3.2-monotone"), float64(nonMono))
	na := thesisSettingMismatch(env, c)
	noML := na
	if noML == "" && !hasML {
		noML = `no ML baseline was run (vb.init = "random", ml.baseline = false)`
	}
	judge := func(why, id string, value float64) {
		if why != "" {
			s.NotJudged(crit(id), why)
			return
		}
		s.Judge(crit(id), value)
	}
	judge(noML, "fig3.2-ml-iterations", results.Median(mlIt))
	judge(na, "fig3.2-vb-iterations", results.Median(vbIt))
	judge(noML, "fig3.2-vb-fewer-iterations", float64(fewer)/n)
	judge(noML, "fig3.3-ml-active", results.Median(mlAct))
	judge(na, "fig3.3-best-f-recovers", float64(bestRecovered)/nd)
	judge(na, "fig3.3-runs-recover", float64(recovered)/n)
	judge(na, "fig3.3-vb-active", results.Median(vbAct))
	judge(na, "fig3.3-inactive-at-prior", float64(inactiveBad))
	why := na
	if why == "" && selectable == 0 {
		why = "no data set has a run that recovers the structure"
	}
	judge(why, "fig3.3-f-selects-recovered", float64(selected)/float64(max(selectable, 1)))
	s.Claims = syntheticClaims
	s.AddFindingsFromChecks(map[string]string{
		"fig3.3-inactive-at-prior": "On the thesis's own strings (abc21.txt) four (acb)* strings contain a 'babc' glitch; the highest-F solution spends an eighth state on them (occupancy about 4 symbols, below the 1% activity line), so that state's pseudo-counts are not back at the prior. On generated data (chapter3/synthetic-grammar) the check passes.",
	})
	return s
}

// thesisSettingMismatch returns "" when the run is the thesis's setting that
// the E3.1-E3.2 criteria describe: the thesis's own strings (abc21.txt,
// verified by its checksum) or the reconstructed three-grammar generator,
// with k = 12 states. Otherwise it says what differs.
func thesisSettingMismatch(env *experiments.Env, c *SyntheticConfig) string {
	if c.Data.Generator == "" {
		ok := false
		for _, d := range env.DataRecords() {
			if d.File == c.Data.File && d.Checked && filepath.Base(d.File) == "abc21.txt" && c.Data.Alphabet == "abc" {
				ok = true
			}
		}
		if !ok {
			return fmt.Sprintf("data %s is not the thesis's (abc21.txt or the grammar3 generator)", c.Data.File)
		}
	}
	if c.Model.K != 12 {
		return fmt.Sprintf("model.k = %d, the criteria are stated for the thesis's k = 12", c.Model.K)
	}
	return ""
}

// inactiveDeviation returns the largest occupancy of an inactive state and
// the largest |w − u| over the rows of A and C of inactive states.
func inactiveDeviation(r Run, u hmm.Prior, thr float64) (occ, dev float64) {
	active := r.Structure.Active
	k, p := r.W.K, r.W.P
	for j := 0; j < k; j++ {
		if slices.Contains(active, j) {
			continue
		}
		occ = math.Max(occ, r.VBOccupancy[j])
		for l := 0; l < k; l++ {
			dev = math.Max(dev, math.Abs(r.W.A[j*k+l]-u.A[l]))
		}
		for m := 0; m < p; m++ {
			dev = math.Max(dev, math.Abs(r.W.C[j*p+m]-u.C[m]))
		}
	}
	return occ, dev
}

// pOf returns the alphabet size.
func (d SyntheticData) pOf() int { return utf8.RuneCountInString(d.Alphabet) }

func init() {
	experiments.Add(SyntheticID, "VB HMM structure discovery on the thesis's 21 strings (Figures 3.2, 3.3)", DefaultSynthetic, RunSynthetic, PlotSynthetic)
	experiments.Add(SyntheticGrammarID, "the same on 10 generated (abc)*, (acb)*, (a*b*)* data sets (targets §E3.1-E3.2)", DefaultSynthetic, RunSynthetic, PlotSynthetic)
}
