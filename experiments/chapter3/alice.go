package chapter3

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// AliceID and AliceGridID are the registry keys of the forwards/backwards
// English discrimination experiment (section 3.5.2, Figure 3.4): the three
// slices around the canonical point, and the full grid (3.86).
const (
	AliceID     = "chapter3/alice"
	AliceGridID = "chapter3/alice-grid"
)

// Point is a setting (n, k, u0) of the grid (3.86): n training sentences
// (at most data.train_pool), k hidden states (at most 10⁶, as model.k of
// the synthetic studies) and the symmetric prior strength u0 (a total
// pseudo-count, as the [prior] strengths).
type Point struct {
	N  int     `toml:"n" range:"[1,1e6]"`
	K  int     `toml:"k" range:"[1,1e6]"`
	U0 float64 `toml:"u0" range:"(0,1e8]"`
}

// AliceGrid lists the values of each axis of Figure 3.4 (3.86), in
// increasing order, each as Point's.
type AliceGrid struct {
	N  []int     `toml:"n" range:"[1,1e6] len=1.. increasing"`
	K  []int     `toml:"k" range:"[1,1e6] len=1.. increasing"`
	U0 []float64 `toml:"u0" range:"(0,1e8] len=1.. increasing"`
}

// EMSettings control an EM-type optimiser (ML or MAP): when it stops.
type EMSettings struct {
	config.FitSettings
}

// AliceVB are the VB settings; the prior is u0 spread evenly (3.43).
type AliceVB struct {
	// InitStrength and InitFloor are VBSettings's.
	InitStrength float64 `toml:"init_strength" range:"(0,1e8]"`
	InitFloor    float64 `toml:"init_floor" range:"(0,1)"`
	// FitSettings end VBEM (max_iterations, rel_tol, abs_tol,
	// monotone_tol) and schedule the prior strengths' updates ([vb.hyper];
	// default fixed, as in the thesis).
	config.FitSettings
}

// AliceEval configures scoring.
type AliceEval struct {
	// TieRel: two log probabilities a, b tie when |a−b| ≤ TieRel·max(|a|,|b|)
	// (or both are −Inf); a tie counts ½. Default 1e-12.
	TieRel float64 `toml:"tie_rel" range:"[0,1)"`
	// MLFloor: ML probabilities are floored at this value and renormalised
	// for the "floored" ML score, used for reporting only. Default 1e-10.
	MLFloor float64 `toml:"ml_floor" range:"(0,1)"`
}

// AliceConfig is the config of chapter3/alice and chapter3/alice-grid.
type AliceConfig struct {
	experiments.Common
	// Restarts is the number of random ML initialisations per setting (10,
	// L2165); the data are fixed.
	Restarts int `toml:"restarts" range:"[1,1e6]"`
	// Mode is "slices" (vary n, k, u0 one at a time around Canonical) or
	// "grid" (every combination).
	Mode      string `toml:"mode"`
	Canonical Point  `toml:"canonical"`
	// DiagnosticU0, if > 0, adds the n and k slices at this u0 (targets §4
	// item 22: the thesis's MAP/VB gap appears at u0 = 8), a prior
	// strength as grid.u0. 0 disables.
	DiagnosticU0 float64    `toml:"diagnostic_u0" range:"0|(0,1e8]"`
	Data         AliceData  `toml:"data"`
	Grid         AliceGrid  `toml:"grid"`
	ML           EMSettings `toml:"ml"`
	MAP          EMSettings `toml:"map"`
	VB           AliceVB    `toml:"vb"`
	Eval         AliceEval  `toml:"eval"`
}

// defaultAliceGrid returns the defaults of chapter3/alice-grid: those of
// chapter3/alice over the full grid.
func defaultAliceGrid() AliceConfig {
	c := DefaultAlice()
	c.Mode = "grid"
	return c
}

// DefaultAlice returns the thesis's settings (section 3.5.2; targets §E3.3).
func DefaultAlice() AliceConfig {
	c := AliceConfig{Common: experiments.Common{Experiment: AliceID, Figures: []string{"fig3.4"}, Seed: 3002}}
	c.Restarts = 10
	c.Mode = "slices"
	c.Canonical = Point{N: 2, K: 40, U0: 2}
	c.DiagnosticU0 = 8
	c.Data = defaultAliceData()
	c.Grid = AliceGrid{N: []int{1, 2, 3, 4, 5, 6, 8, 16, 32}, K: []int{1, 2, 4, 10, 20, 40, 60}, U0: []float64{1, 2, 4, 8}}
	c.ML = EMSettings{config.DefaultFit(2000)}
	c.MAP = EMSettings{config.DefaultFit(2000)}
	c.VB = AliceVB{InitStrength: 10, InitFloor: 1e-10, FitSettings: vbFit(2000)}
	c.Eval = AliceEval{TieRel: 1e-12, MLFloor: 1e-10}
	return c
}

// Validate checks what relates the keys (each key's own range is its tag).
func (c *AliceConfig) Validate() error {
	if c.Mode != "slices" && c.Mode != "grid" {
		return config.FieldError("mode", c.Mode, `must be "slices" or "grid"`)
	}
	// The data first: grid.n is checked against data.train_pool.
	if err := c.Data.Validate(); err != nil {
		return err
	}
	for _, n := range c.Grid.N {
		if n > c.Data.TrainPool {
			return config.FieldError("grid.n", n, fmt.Sprintf("must be at most data.train_pool = %d", c.Data.TrainPool))
		}
	}
	if c.Mode == "slices" {
		if !slices.Contains(c.Grid.N, c.Canonical.N) {
			return config.FieldError("canonical.n", c.Canonical.N, "must be one of grid.n")
		}
		if !slices.Contains(c.Grid.K, c.Canonical.K) {
			return config.FieldError("canonical.k", c.Canonical.K, "must be one of grid.k")
		}
		if !slices.Contains(c.Grid.U0, c.Canonical.U0) {
			return config.FieldError("canonical.u0", c.Canonical.U0, "must be one of grid.u0")
		}
	}
	return config.FirstError(c.ML.Validate("ml", nil), c.MAP.Validate("map", nil),
		c.VB.FitSettings.Validate("vb", hmmGroups()))
}

// Points returns the settings the config covers, sorted by (n, k, u0).
func (c *AliceConfig) Points() []Point {
	set := map[Point]bool{}
	if c.Mode == "grid" {
		for _, n := range c.Grid.N {
			for _, k := range c.Grid.K {
				for _, u := range c.Grid.U0 {
					set[Point{n, k, u}] = true
				}
			}
		}
	} else {
		c0 := c.Canonical
		u0s := []float64{c0.U0}
		if c.DiagnosticU0 > 0 {
			u0s = append(u0s, c.DiagnosticU0)
		}
		for _, u := range u0s {
			for _, n := range c.Grid.N {
				set[Point{n, c0.K, u}] = true
			}
			for _, k := range c.Grid.K {
				set[Point{c0.N, k, u}] = true
			}
		}
		for _, u := range c.Grid.U0 {
			set[Point{c0.N, c0.K, u}] = true
		}
	}
	var ps []Point
	for p := range set {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, comparePoints)
	return ps
}

// comparePoints orders points by n, then k, then u0.
func comparePoints(a, b Point) int {
	return cmp.Or(cmp.Compare(a.N, b.N), cmp.Compare(a.K, b.K), cmp.Compare(a.U0, b.U0))
}

// aliceCell is one unit of work: both directions' ML fits at (n, k) for one
// repeat, and MAP and VB from them at every u0 the config needs at (n, k).
type aliceCell struct {
	N, K, Repeat int
	U0s          []float64
}

func (a aliceCell) name() string { return fmt.Sprintf("n%02d-k%02d-r%02d", a.N, a.K, a.Repeat) }

// cells groups the points by (n, k) and crosses them with the repeats.
func (c *AliceConfig) cells() []aliceCell {
	type nk struct{ n, k int }
	u0s := map[nk][]float64{}
	var order []nk
	for _, p := range c.Points() {
		key := nk{p.N, p.K}
		if _, ok := u0s[key]; !ok {
			order = append(order, key)
		}
		u0s[key] = append(u0s[key], p.U0)
	}
	var cs []aliceCell
	for _, key := range order {
		for r := 0; r < c.Restarts; r++ {
			cs = append(cs, aliceCell{N: key.n, K: key.k, Repeat: r, U0s: u0s[key]})
		}
	}
	return cs
}

// Score is one row of cells.csv: the value of one score of one method at
// one setting and repeat.
type Score struct {
	U0     experiments.Float `json:"u0"`
	Method string            `json:"method"`
	Score  string            `json:"score"`
	Value  experiments.Float `json:"value"`
}

// AliceCellResult is what a cell stores.
type AliceCellResult struct {
	N, K, Repeat int
	Scores       []Score
	// Outcomes holds, at the canonical (n, k) for each u0 the cell ran,
	// VB's per-test-sentence credit (1 correct, ½ tie, 0 wrong): first the
	// forward test sentences, then the reversed ones (claim C8).
	Outcomes map[string][]float64 `json:",omitempty"`
	// Traces are the fits' traces, kept at the canonical (n, k) only.
	Traces  []experiments.RunTrace `json:",omitempty"`
	Seconds float64
}

// aliceData is the encoded corpus shared by every cell.
type aliceData struct {
	trainFwd, trainBwd hmm.Data // the whole training pool
	testFwd, testBwd   hmm.Data
	testSymbols        int
	sentences          []string           // test sentence texts
	checksums          []sentenceChecksum // the checks of data.sha256_*
}

func (d *aliceData) train(n int, backward bool) hmm.Data {
	src := d.trainFwd
	if backward {
		src = d.trainBwd
	}
	return hmm.Data{P: src.P, Seqs: src.Seqs[:n]}
}

// dirFit holds the fitted models of one direction.
type dirFit struct {
	ml     hmm.Params
	mlRun  vb.Result
	maps   []hmm.Params // per u0
	mapRun []vb.Result
	vbs    []hmm.Params // posterior means per u0
	bayes  []hmm.Params // sub-normalised Bayes-point weights exp E[ln θ] per u0
	vbRun  []vb.Result
}

// initStream names the random stream of a cell's ML initialisation. It
// uses the family name AliceID for both the slices and the grid, so a
// setting gets the same numbers whichever config runs it, and the grid's
// slice points equal the slices run's.
func initStream(cell aliceCell, dir string) []string {
	return []string{AliceID, "ml-init", fmt.Sprint(cell.N), fmt.Sprint(cell.K), fmt.Sprint(cell.Repeat), dir}
}

// fitDirection trains ML from a random start, then MAP and VB from the ML
// solution for every u0 (L2165: "MAP and VB algorithms were initialised at
// the ML estimate").
func fitDirection(c *AliceConfig, data hmm.Data, cell aliceCell, dir string, fit *fitter) (dirFit, error) {
	k, p := cell.K, data.P
	rnd := rng.New(c.Seed, initStream(cell, dir)...)
	name := cell.name() + "/" + dir
	var f dirFit
	ml, mlRun := fit.ml(name+"/ML", data, hmm.RandomParams(k, p, rnd), c.ML.FitSettings)
	f.mlRun = mlRun
	if f.mlRun.Status == vb.Canceled {
		return f, f.mlRun.Err
	}
	f.ml = ml.Params.Clone()
	for _, u0 := range cell.U0s {
		u := hmm.SymmetricPrior(k, p, u0, u0, u0)
		mp, r := fit.mapEM(fmt.Sprintf("%s/MAP-u0=%g", name, u0), data, f.ml, u, c.MAP.FitSettings)
		if r.Status == vb.Canceled {
			return f, r.Err
		}
		f.maps, f.mapRun = append(f.maps, mp.Params.Clone()), append(f.mapRun, r)
		m, r := fit.vbem(fmt.Sprintf("%s/VB-u0=%g", name, u0), data, u, hmm.PosteriorFromParams(f.ml, c.VB.InitStrength, c.VB.InitFloor), c.VB.FitSettings)
		if r.Status == vb.Canceled {
			return f, r.Err
		}
		f.vbs, f.vbRun = append(f.vbs, m.W.Mean()), append(f.vbRun, r)
		f.bayes = append(f.bayes, m.W.BayesPoint())
	}
	return f, nil
}

// logProbs scores every sequence of d under θ.
func logProbs(θ hmm.Params, d hmm.Data) []float64 {
	s := hmm.NewScorer(θ)
	out := make([]float64, len(d.Seqs))
	for i, y := range d.Seqs {
		out[i] = s.LogProb(y)
	}
	return out
}

// Tie reports whether two log probabilities are equal within the tie rule
// of targets §E3.3: |a−b| ≤ rel·max(|a|,|b|), or both −Inf.
func Tie(a, b, rel float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

// credit is 1 if want > other, ½ for a tie, 0 otherwise.
func credit(want, other, rel float64) float64 {
	switch {
	case Tie(want, other, rel):
		return 0.5
	case want > other:
		return 1
	}
	return 0
}

// discriminate returns the per-sentence credits and the discrimination rate
// over the forward and reversed test sentences (L2167).
func discriminate(fwdOnFwd, bwdOnFwd, fwdOnBwd, bwdOnBwd []float64, rel float64) ([]float64, float64) {
	out := make([]float64, 0, len(fwdOnFwd)+len(fwdOnBwd))
	var sum float64
	for i := range fwdOnFwd {
		c := credit(fwdOnFwd[i], bwdOnFwd[i], rel)
		out = append(out, c)
		sum += c
	}
	for i := range fwdOnBwd {
		c := credit(bwdOnBwd[i], fwdOnBwd[i], rel)
		out = append(out, c)
		sum += c
	}
	return out, sum / float64(len(out))
}

// runAliceCell fits both directions and scores every method.
func runAliceCell(c *AliceConfig, d *aliceData, cell aliceCell, workers int, stop func() error) (AliceCellResult, error) {
	start := time.Now()
	res := AliceCellResult{N: cell.N, K: cell.K, Repeat: cell.Repeat}
	// Traces are kept at the canonical (n, k) only: every cell's would
	// make trace.csv hundreds of megabytes on the grid.
	fit := &fitter{workers: workers, stop: stop, traces: cell.N == c.Canonical.N && cell.K == c.Canonical.K}
	fwd, err := fitDirection(c, d.train(cell.N, false), cell, "fwd", fit)
	if err != nil {
		return res, err
	}
	bwd, err := fitDirection(c, d.train(cell.N, true), cell, "bwd", fit)
	if err != nil {
		return res, err
	}
	res.Traces = fit.kept
	T := float64(d.testSymbols)
	type named struct {
		score string
		value float64
	}
	// pairScores scores one pair of (forward, backward) models.
	pairScores := func(θf, θb hmm.Params, rf, rb vb.Result) ([]named, []float64) {
		ff, bf := logProbs(θf, d.testFwd), logProbs(θb, d.testFwd)
		fb, bb := logProbs(θf, d.testBwd), logProbs(θb, d.testBwd)
		credits, rate := discriminate(ff, bf, fb, bb, c.Eval.TieRel)
		bad := 0
		for _, r := range []vb.Result{rf, rb} {
			if r.Status == vb.BoundDecreased || r.Status == vb.NotFinite || r.Status == vb.Failed {
				bad++
			}
		}
		return []named{{"lp_per_symbol", results.Sum(ff) / T}, {"lp_per_symbol_bwd", results.Sum(bb) / T}, {"disc", rate},
			{"iterations", float64(rf.Iterations + rb.Iterations)}, {"bad_runs", float64(bad)}, {"objective_fwd", rf.F}}, credits
	}
	emit := func(u0 float64, method string, vals []named) {
		for _, v := range vals {
			res.Scores = append(res.Scores, Score{U0: experiments.Float(u0), Method: method, Score: v.score, Value: experiments.Float(v.value)})
		}
	}
	// ML does not depend on u0: score it once and repeat its rows at every
	// u0 of the cell, so that each slice finds it.
	mlScores, _ := pairScores(fwd.ml, bwd.ml, fwd.mlRun, bwd.mlRun)
	mlScores = append(mlScores, named{"lp_per_symbol_floored", results.Sum(logProbs(fwd.ml.Floored(c.Eval.MLFloor), d.testFwd)) / T})
	for i, u0 := range cell.U0s {
		emit(u0, "ML", mlScores)
		mapScores, _ := pairScores(fwd.maps[i], bwd.maps[i], fwd.mapRun[i], bwd.mapRun[i])
		emit(u0, "MAP", mapScores)
		vbScores, credits := pairScores(fwd.vbs[i], bwd.vbs[i], fwd.vbRun[i], bwd.vbRun[i])
		emit(u0, "VB", vbScores)
		// The VB-bound predictive (eqs. 3.82-3.84): a forward pass with the
		// Bayes-point weights gives ln Z̃(y′) ≤ ln ∫ q(θ) p(y′|θ) dθ
		// (targets extension E3-X3).
		boundScores, _ := pairScores(fwd.bayes[i], bwd.bayes[i], fwd.vbRun[i], bwd.vbRun[i])
		emit(u0, "VBbound", boundScores)
		if cell.N == c.Canonical.N && cell.K == c.Canonical.K {
			if res.Outcomes == nil {
				res.Outcomes = map[string][]float64{}
			}
			res.Outcomes[results.FormatFloat(u0)] = credits
		}
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// RunAlice runs every cell (in parallel, resumably, optionally one shard),
// then writes cells.csv and summary.json.
func RunAlice(env *experiments.Env, c *AliceConfig) error {
	d, err := loadAlice(env, c)
	if err != nil {
		return err
	}
	// The memory check comes before the cells are listed, from the
	// points alone: restarts = 10¹² is refused, not allocated.
	points := c.Points()
	kMax, u0Max, nk := 1, 1, map[[2]int]int{}
	for _, p := range points {
		kMax = max(kMax, p.K)
		nk[[2]int{p.N, p.K}]++
		u0Max = max(u0Max, nk[[2]int{p.N, p.K}])
	}
	trainLen, trainN := dataShape(d.trainFwd)
	testLen, _ := dataShape(d.testFwd)
	nCells := float64(len(nk)) * float64(c.Restarts)
	mem := hmmMemory{k: kMax, p: d.trainFwd.P, maxLen: max(trainLen, testLen), nSeq: trainN,
		workers: env.Workers, cells: int(min(nCells, 1<<40)), fits: 2,
		// both directions keep the ML solution and, per u0, the MAP, VB
		// mean and Bayes-point parameters; a cell's scores are a few
		// dozen numbers per u0, its traces (canonical (n, k) only) up to
		// max_iterations iterations of each fit.
		params:      2 * (1 + 3*u0Max),
		resultWords: float64(u0Max) * 4 * 16}.need()
	mem.Bytes += 8 * float64(c.Restarts) * 2 * (traceWords(c.ML.MaxIterations, 1) + float64(u0Max)*(traceWords(c.MAP.MaxIterations, 2)+traceWords(c.VB.MaxIterations, 4)))
	if err := env.CheckMemory(mem); err != nil {
		return err
	}
	cells := c.cells()
	names := make([]string, len(cells))
	cost := make([]float64, len(cells))
	for i, cell := range cells {
		names[i] = cell.name()
		// Forward-backward costs about Σ T · k² per iteration; run the
		// expensive cells first so the workers finish together.
		cost[i] = float64(len(cell.U0s)+1) * float64(d.train(cell.N, false).Symbols()) * float64(cell.K*cell.K+cell.K)
	}
	out, done, err := experiments.RunCellsOrdered(env, names, cost, func(i int) (AliceCellResult, error) {
		return runAliceCell(c, d, cells[i], env.CellWorkers(len(cells)), env.Stop)
	})
	if err != nil {
		return err
	}
	if env.Shard.Active() {
		fmt.Fprintf(env.Log, "%s: shard %s done (%d cells); run `vbw merge` with the same config and -out to assemble the results\n", env.ID, env.Shard, countTrue(done))
		return nil
	}
	for i, ok := range done {
		if !ok {
			return fmt.Errorf("cell %s did not finish", names[i])
		}
		env.AddRun(results.RunRecord{Name: names[i], Seed: rng.Derive(c.Seed, initStream(cells[i], "fwd")...),
			Status: "ok", WallSeconds: out[i].Seconds})
	}
	for _, r := range out {
		for _, s := range r.Scores {
			if s.Score == "bad_runs" && s.Value > 0 {
				env.Warnf("cell n=%d k=%d repeat %d: %v %s run(s) at u0=%g ended with a decrease of the objective, a non-finite value or a failure",
					r.N, r.K, r.Repeat, float64(s.Value), s.Method, float64(s.U0))
			}
		}
	}
	tab := results.NewTable("n", "k", "u0", "repeat", "method", "score", "value")
	for _, r := range out {
		for _, s := range r.Scores {
			tab.AddRow(r.N, r.K, float64(s.U0), r.Repeat, s.Method, s.Score, float64(s.Value))
		}
	}
	if err := results.WriteCSV(env.Path("cells.csv"), *tab); err != nil {
		return err
	}
	var traces []experiments.RunTrace
	for _, r := range out {
		traces = append(traces, r.Traces...)
	}
	if err := experiments.WriteTraces(env.Dir, traces); err != nil {
		return err
	}
	sum, err := aliceSummary(env, c, d, out)
	if err != nil {
		return err
	}
	return env.WriteSummary(sum, aliceScorecardIntro)
}

func countTrue(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}

func init() {
	experiments.Add(AliceID, "forwards/backwards English discrimination, slices around n=2, k=40, u0=2 (Figure 3.4)", DefaultAlice, RunAlice, PlotAlice)
	experiments.Add(AliceGridID, "the same over the full grid n × k × u0 (3.86), 252 settings", defaultAliceGrid, RunAlice, PlotAlice)
}
