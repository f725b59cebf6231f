package chapter3

import (
	"fmt"
	"math"
	"time"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// Registry keys of the structure-discovery experiment: on the thesis's own
// strings (Figures 3.2, 3.3) and on 10 generated data sets (the robustness
// study of targets §E3.1). They share the code and differ in config.
const (
	SyntheticID        = "chapter3/synthetic"
	SyntheticGrammarID = "chapter3/synthetic-grammar"
)

// SyntheticConfig is the config of chapter3/synthetic.
type SyntheticConfig struct {
	experiments.Common
	// Restarts is the number of random ML initialisations per data set; the
	// run with the highest F is reported (Figures 3.2, 3.3).
	Restarts int           `toml:"restarts" range:"[1,1e6]"`
	Data     SyntheticData `toml:"data"`
	Model    struct {
		// K is the number of hidden states, 12 in the thesis (L2127); at
		// most 10⁶ (KSweep's model.k).
		K int `toml:"k" range:"[1,1e6]"`
	} `toml:"model"`
	ML       SyntheticML `toml:"ml"`
	VB       VBSettings  `toml:"vb"`
	Prior    Strength    `toml:"prior"`
	Analysis Analysis    `toml:"analysis"`
}

// SyntheticML controls the Baum-Welch run of each cell.
type SyntheticML struct {
	MLSettings
	// Baseline runs Baum-Welch even when VB does not start from its
	// solution (vb.init = "random" or "random-means"), as a baseline to
	// compare with. With vb.init = "from-ml" or "from-cs" ML always runs.
	// Default false.
	Baseline bool `toml:"baseline"`
}

// runsML reports whether a cell runs Baum-Welch.
func (c *SyntheticConfig) runsML() bool { return !c.VB.randomStart() || c.ML.Baseline }

// DefaultSynthetic returns the thesis's settings (section 3.5.1).
func DefaultSynthetic() SyntheticConfig {
	c := SyntheticConfig{Common: experiments.Common{Experiment: SyntheticID, Figures: []string{"fig3.2", "fig3.3"}, Seed: 3001}}
	c.Restarts = 10
	c.Data = SyntheticData{File: "abc21.txt", Alphabet: "abc", Datasets: 1, SequencesPerGrammar: 7,
		MinLength: 10, MaxLength: 39, ABProb: 0.5, RandomPhase: true}
	c.Model.K = 12
	c.ML = SyntheticML{MLSettings: MLSettings{config.DefaultFit(5000)}}
	c.VB = VBSettings{Init: "from-ml", InitStrength: 10, InitFloor: 1e-10, InitMLIterations: hmm.DefaultStartIterations,
		FitSettings: vbFit(5000)}
	c.Prior = Strength{4, 4, 4}
	c.Analysis.ActiveThreshold = 0.01
	return c
}

// Validate checks what relates the keys (each key's own range is its tag).
func (c *SyntheticConfig) Validate() error {
	return validateFit(c.Data, c.ML.MLSettings, c.VB)
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

	u := c.Prior.prior(k, p)
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
	m, vr, err := fit.vbFrom(name+"/VB", data, u, c.VB, mlParams, rnd)
	if err != nil {
		return r, err
	}
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
		if err := env.CheckMemory(need(3, c.Data.MaxLength, satMul(3, c.Data.SequencesPerGrammar), c.Data.Datasets)); err != nil {
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
	if err := env.CheckMemory(need(sets[0].P, maxLen, nSeq, len(sets))); err != nil {
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
	runs, complete, err := experiments.RunAllCells(env, names, nil, func(i int) (Run, error) {
		return fitMLThenVB(c, sets[cells[i].d], cells[i].d, cells[i].r, env.CellWorkers(len(cells)), env.Stop)
	})
	if err != nil {
		return err
	}
	if !complete {
		fmt.Fprintf(env.Log, "%s: shard %s done; merge the shards' cells to build the figures\n", env.ID, env.Shard)
		return nil
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

func init() {
	experiments.Add(SyntheticID, "VB HMM structure discovery on the thesis's 21 strings (Figures 3.2, 3.3)", DefaultSynthetic, RunSynthetic, PlotSynthetic)
	experiments.Add(SyntheticGrammarID, "the same on 10 generated (abc)*, (acb)*, (a*b*)* data sets (targets §E3.1-E3.2)", DefaultSynthetic, RunSynthetic, PlotSynthetic)
}
