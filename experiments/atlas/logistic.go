package atlas

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/experiments/datasets"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/is"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// LogisticID is Bayesian logistic regression's row of the atlas.
const LogisticID = "atlas/logistic"

func init() {
	experiments.Add(LogisticID, "atlas row: Bayesian logistic regression on Pima's training set and synthetic sets, ln p(t) by VB (Jaakkola–Jordan), Laplace, EP, BIC, IS from VB's q and AIS against a long AIS, against counted operations",
		DefaultLogistic, RunLogistic, PlotGrid)
}

// LogisticConfig is the config of atlas/logistic: the prior w ~ N(0,
// α⁻¹I) on the weights of (1, z), z the standardised inputs, on a
// labelled file's rows (Pima's training set) and on synthetic sets drawn
// from the model.
type LogisticConfig struct {
	experiments.Common
	// Data is a labelled table (its class column Class, Positive the
	// value that is t = 1, Inputs its inputs: none, every other column);
	// "" leaves it out.
	Data     string   `toml:"data"`
	Class    string   `toml:"class" range:"len=1.."`
	Positive string   `toml:"positive" range:"len=1.."`
	Inputs   []string `toml:"inputs" range:"len=0.."`
	// SyntheticN and SyntheticInputs are the synthetic data sets (paired):
	// n points with that many standard-normal inputs, w drawn from the
	// prior and t ~ Bernoulli(σ(φᵀw)), each seed a new draw.
	SyntheticN      []int `toml:"synthetic_n" range:"[2,1e5] len=0.."`
	SyntheticInputs []int `toml:"synthetic_inputs" range:"[1,50] len=0.."`
	Seeds           int   `toml:"seeds" range:"[1,1000]"`
	Prior           struct {
		Alpha float64 `toml:"alpha" range:"[1e-6,1e6]"`
	} `toml:"prior"`
	VBIterations []int `toml:"vb_iterations" range:"[1,1e5] len=1.. increasing"`
	EPSweeps     []int `toml:"ep_sweeps" range:"[1,1e5] len=1.. increasing"`
	// IS: a Student t on VB's q (the last rung), widened, mixed with the
	// prior at weight defensive; the ladder is the draws of each run used.
	IS struct {
		config.IS
		Ladder    []int   `toml:"ladder" range:"[1,1e9] len=1.. increasing"`
		Nu        float64 `toml:"nu" range:"[1,1e6]"`
		Widen     float64 `toml:"widen" range:"[0.1,10]"`
		Defensive float64 `toml:"defensive" range:"(0,1)"`
	} `toml:"is"`
	// AIS from the prior with HMC (step: a fraction of the tempered
	// posterior's smallest scale 1/√(α + β h_max), h_max the largest
	// diagonal of ¼ΦᵀΦ); one set of runs per rung of the ladder.
	AIS hmcLadder `toml:"ais"`
	// GoldAIS is the gold standard: a long AIS of the same kernel, its
	// pooled estimate and standard error stated.
	GoldAIS struct {
		config.AIS
		config.HMC
	} `toml:"gold_ais"`
	// GoldHMC gives the gold posterior moments of w: HMC chains from
	// w = 0 with the [ais] kernel's step at β = 1 (goldHMC.moments).
	GoldHMC goldHMC `toml:"gold_hmc"`
}

// DefaultLogistic returns Pima's training set (200 rows, 7 inputs) and two
// synthetic sets.
func DefaultLogistic() LogisticConfig {
	c := LogisticConfig{Data: "pima_train.csv", Class: "type", Positive: "Yes", SyntheticN: []int{30, 100}, SyntheticInputs: []int{2, 4}, Seeds: 3,
		VBIterations: []int{1, 2, 5, 10, 20, 50}, EPSweeps: []int{1, 2, 5, 10}}
	c.Prior.Alpha = 1
	c.IS.IS = config.IS{Runs: 8, Samples: 12500}
	c.IS.Ladder, c.IS.Nu, c.IS.Widen, c.IS.Defensive = []int{12, 125, 1250, 12500}, 5, 1.5, 0.05
	c.AIS.AIS = config.AIS{Runs: 16, Steps: 1000, AISSchedule: config.DefaultSchedule(config.ScheduleGeometric)}
	c.AIS.HMC = config.HMC{Leapfrog: 10, Step: 0.3}
	c.AIS.Ladder = []int{10, 30, 100, 300, 1000}
	c.GoldAIS.AIS = config.AIS{Runs: 32, Steps: 4000, AISSchedule: config.DefaultSchedule(config.ScheduleGeometric)}
	c.GoldAIS.HMC = c.AIS.HMC
	c.GoldHMC.HMC, c.GoldHMC.Chains, c.GoldHMC.Burn, c.GoldHMC.Samples = c.AIS.HMC, 4, 500, 10000
	return c
}

// Validate checks the ladders and the synthetic sets' pairing.
func (c *LogisticConfig) Validate() error {
	switch {
	case len(c.SyntheticN) != len(c.SyntheticInputs):
		return config.FieldError("synthetic_inputs", c.SyntheticInputs, fmt.Sprintf("must have one entry per synthetic_n (%d)", len(c.SyntheticN)))
	case c.Data == "" && len(c.SyntheticN) == 0:
		return config.FieldError("data", c.Data, "give a data file or synthetic_n: there is no data set")
	case slices.Max(c.IS.Ladder) > c.IS.Samples:
		return config.FieldError("is.ladder", slices.Max(c.IS.Ladder), fmt.Sprintf("must be at most is.samples (%d)", c.IS.Samples))
	case slices.Max(c.AIS.Ladder) > c.AIS.Steps:
		return config.FieldError("ais.ladder", slices.Max(c.AIS.Ladder), fmt.Sprintf("must be at most ais.steps (%d)", c.AIS.Steps))
	case c.AIS.Runs < 2:
		return config.FieldError("ais.runs", c.AIS.Runs, "must be at least 2 (a standard error)")
	case c.GoldAIS.Runs < 2:
		return config.FieldError("gold_ais.runs", c.GoldAIS.Runs, "must be at least 2 (a standard error)")
	}
	return config.FirstError(c.AIS.Validate("ais"), c.GoldAIS.Validate("gold_ais"))
}

// Estimate counts each data set's evaluations of ln p(t, w) (rows ×
// features multiply-adds, a few times over) by every method.
func (c *LogisticConfig) Estimate() experiments.Cost {
	var synth, maxIn int
	for i, n := range c.SyntheticN {
		synth += n * (c.SyntheticInputs[i] + 1)
		maxIn = max(maxIn, c.SyntheticInputs[i]+1)
	}
	// The sizes: the synthetic sets' rows × features, and the file's
	// rows × columns (data read when Prepare measures it).
	sizes := [][]experiments.Factor{{experiments.KeyN("synthetic_n", c.SyntheticN, float64(max(synth, 1)), "synthetic rows × features")}}
	if c.Data != "" {
		sizes = append(sizes, []experiments.Factor{experiments.DataRows("data", c.Data, "rows"), experiments.DataCols("data", c.Data, "columns")})
	}
	seeds := experiments.Key("seeds", c.Seeds)
	var ladder int
	for _, k := range c.AIS.Ladder {
		ladder += k
	}
	var work []experiments.Part
	per := func(what string, unit float64, of ...experiments.Factor) {
		for _, size := range sizes {
			work = append(work, experiments.Ops(what, 4*unit, append(append(slices.Clone(size), seeds), of...)...))
		}
	}
	per("VB and EP", 2000, experiments.KeyN("vb_iterations", c.VBIterations, float64(slices.Max(c.VBIterations)+slices.Max(c.EPSweeps)), "iterations"))
	per("IS", 2, experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs))
	per("AIS ladder", 2, experiments.KeyN("ais.ladder", c.AIS.Ladder, float64(ladder), "steps summed over the ladder"), experiments.Key("ais.runs", c.AIS.Runs), experiments.Key("ais.leapfrog", c.AIS.Leapfrog+1))
	per("gold AIS", 2, experiments.Key("gold_ais.steps", c.GoldAIS.Steps), experiments.Key("gold_ais.runs", c.GoldAIS.Runs), experiments.Key("gold_ais.leapfrog", c.GoldAIS.Leapfrog+1))
	per("gold HMC", 2, experiments.KeyN("gold_hmc.samples", c.GoldHMC.Samples, float64(c.GoldHMC.Samples+c.GoldHMC.Burn), "transitions a chain"), experiments.Key("gold_hmc.chains", c.GoldHMC.Chains), experiments.Key("gold_hmc.leapfrog", c.GoldHMC.Leapfrog+1))
	sets := experiments.KeyN("synthetic_n", c.SyntheticN, float64(len(c.SyntheticN)+1), "data sets")
	return experiments.Cost{
		Cells: []experiments.Factor{sets, seeds},
		Memory: []experiments.Part{experiments.Words("IS draws and weights", experiments.Fixed(float64(max(maxIn, 9)+1), "values a draw"),
			experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs))},
		Work: work,
	}
}

// Criteria states the criteria of a run.
func (c *LogisticConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return Criteria(true, IS, AIS), nil
}

// logisticSet is one data set: its name, features (1, z) and classes.
type logisticSet struct {
	name string
	phi  [][]float64
	t    []int
}

// logisticSets reads the labelled file (standardised by its own mean and
// sd, divisor n, a bias added) and lists the synthetic sets (drawn in
// their cells).
func (c *LogisticConfig) logisticSets(env *experiments.Env) ([]logisticSet, error) {
	var out []logisticSet
	if c.Data != "" {
		raw, err := env.ReadData(c.Data)
		if err != nil {
			return nil, err
		}
		d, err := datasets.ReadLabelled(c.Data, raw, c.Class, c.Positive, c.Inputs, nil)
		if err != nil {
			return nil, err
		}
		x := mat.NewDense(len(d.X), len(d.X[0]), nil)
		for i, r := range d.X {
			x.SetRow(i, r)
		}
		st, err := numeric.FitStandardisation(x, numeric.RefuseConstant)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Data, err)
		}
		z, err := st.Apply(x)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Data, err)
		}
		set := logisticSet{name: datasetName(c.Data), t: d.T}
		for i := range len(d.X) {
			set.phi = append(set.phi, append([]float64{1}, mat.Row(nil, i, z)...))
		}
		out = append(out, set)
	}
	for i, n := range c.SyntheticN {
		out = append(out, logisticSet{name: fmt.Sprintf("synth-n%d-m%d", n, c.SyntheticInputs[i]+1)})
	}
	return out, nil
}

// datasetName is a file's name without its folder and extension.
func datasetName(file string) string {
	b := file
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '/' || b[i] == '\\' {
			b = b[i+1:]
			break
		}
	}
	for i := len(b) - 1; i > 0; i-- {
		if b[i] == '.' {
			return b[:i]
		}
	}
	return b
}

// synthetic draws synthetic set i with the stream of seed: inputs
// N(0, I), w from the prior, t ~ Bernoulli(σ(φᵀw)).
func (c *LogisticConfig) synthetic(i int, seed uint64) ([][]float64, []int) {
	rnd := rng.New(c.Seed, "atlas-logistic", "synthetic", strconv.Itoa(i), strconv.FormatUint(seed, 10))
	m := c.SyntheticInputs[i] + 1
	w := make([]float64, m)
	for j := range w {
		w[j] = rnd.NormFloat64() / math.Sqrt(c.Prior.Alpha)
	}
	var phi [][]float64
	var t []int
	for range c.SyntheticN[i] {
		f := []float64{1}
		for range m - 1 {
			f = append(f, rnd.NormFloat64())
		}
		var a float64
		for j := range m {
			a += f[j] * w[j]
		}
		y := 0
		if rnd.Float64() < approx.Sigmoid(a) {
			y = 1
		}
		phi, t = append(phi, f), append(t, y)
	}
	return phi, t
}

// logisticAIS makes a set of AIS runs of a.Steps steps with HMC on target
// and returns them, their final states w (for ais.Moments) and the counted
// operations.
func (c *LogisticConfig) logisticAIS(a config.AIS, h config.HMC, target *approx.LogisticTarget, labels ...string) (runs []ais.Run, final [][]float64, ops float64, err error) {
	m := len(target.Phi[0])
	prec := c.hmcPrecision(target)
	sampler := ais.Sampler[[]float64]{Model: target, NewKernel: func() mcmc.Kernel[[]float64] {
		return &mcmc.HMC{Target: target, Steps: h.Leapfrog, StepSize: func(beta float64) float64 { return h.Step / prec(beta) }}
	}}
	runs, final, _, err = config.SampleFinal(a, sampler, 1, c.Seed, labels...)
	if err != nil {
		return nil, nil, 0, err
	}
	return runs, final, float64(a.Steps*a.Runs) * float64(h.Leapfrog+1) * logisticEvalFlops(len(target.Phi), m), nil
}

// hmcPrecision is √(α + β h_max) at inverse temperature β, h_max the
// largest diagonal of ¼ΦᵀΦ: the logistic HMC kernels' step is the [ais]
// step divided by it, a fraction of the tempered posterior's smallest
// scale (σ(1 − σ) ≤ ¼).
func (c *LogisticConfig) hmcPrecision(target *approx.LogisticTarget) func(beta float64) float64 {
	m := len(target.Phi[0])
	hmax := 0.0
	for i := range m {
		var s float64
		for _, x := range target.Phi {
			s += 0.25 * x[i] * x[i]
		}
		hmax = math.Max(hmax, s)
	}
	return func(beta float64) float64 { return math.Sqrt(c.Prior.Alpha + beta*hmax) }
}

// logisticEvalFlops counts one evaluation of ln p(t, w) or of its
// gradient: n dot products of m (2m), a log-sigmoid (two transcendentals)
// and the gradient's axpy (2m).
func logisticEvalFlops(n, m int) float64 {
	return float64(n) * (float64(4*m) + 2*approx.TranscendentalFlops)
}

// runLogisticCell computes the gold standard and every method on set k
// (seed: the sampler's streams, and the draw of a synthetic set).
func (c *LogisticConfig) runLogisticCell(set logisticSet, k int, seed uint64, hasFile bool) (rowCell, error) {
	runtime.LockOSThread() // the CPU clock of one thread (startClock)
	defer runtime.UnlockOSThread()
	phi, t := set.phi, set.t
	if !hasFile || k > 0 {
		phi, t = c.synthetic(k-b2i(hasFile), seed)
	}
	n, m := len(phi), len(phi[0])
	sd := strconv.FormatUint(seed, 10)
	cl := rowCell{Dataset: set.name, Seed: seed, GoldKind: GoldAISLong}
	target := approx.NewLogisticTarget(phi, t, c.Prior.Alpha)
	gruns, _, _, err := c.logisticAIS(c.GoldAIS.AIS, c.GoldAIS.HMC, target, "atlas-logistic", "gold", set.name, sd)
	if err != nil {
		return cl, err
	}
	g, gse := ais.Pool(ais.LogWeights(gruns))
	cl.Gold, cl.GoldSE = experiments.Float(g), experiments.Float(gse)
	nan := math.NaN()
	// The gold posterior moments (chains from w = 0: the posterior is
	// log-concave) and each method's errors against them.
	prec := c.hmcPrecision(target)
	gm, gv, gmse, err := c.GoldHMC.moments(target, make([]float64, m), nil, func(beta float64) float64 { return c.GoldHMC.Step / prec(beta) },
		c.Seed, "atlas-logistic", "gold-hmc", set.name, sd)
	if err != nil {
		return cl, err
	}
	cl.GoldMeanSE = experiments.Float(gmse)
	posErr := func(mean, cov []float64) (float64, float64) {
		var v []float64
		for i := range m {
			v = append(v, cov[i*m+i])
		}
		return vecErr(mean, gm), vecErr(v, gv)
	}

	// VB with the JJ bound through vb.Run; an iteration builds S_N⁻¹ (n
	// m² multiply-adds), inverts it (m³) and updates ξ (n m²).
	start := startClock()
	v, err := approx.NewLogistic(phi, t, approx.LogisticPrior{Alpha: c.Prior.Alpha})
	if err != nil {
		return cl, err
	}
	vbOps := float64(4*n*m*m+m*m*m) + float64(n)*approx.TranscendentalFlops
	set2 := config.FixedBudget(slices.Max(c.VBIterations)).Settings(nil, v)
	set2.Recorder = func(it vb.Iteration) {
		if slices.Contains(c.VBIterations, it.Iter+1) {
			me, ve := posErr(v.Mean, v.Cov)
			cl.add(VB, it.Iter+1, it.F, nan, float64(it.Iter+1)*vbOps, start.elapsed(), me, ve)
		}
	}
	res := vb.Run(v, set2)
	if res.Err != nil {
		return cl, fmt.Errorf("%s, seed %d: VB: %w", set.name, seed, res.Err)
	}
	if res.Status == vb.BoundDecreased {
		cl.note("vb_decreased")
	}

	// Laplace by Newton's method; a step evaluates the gradient and
	// Hessian (n m² multiply-adds) and solves (m³).
	start = startClock()
	lap, err := approx.Laplace(approx.LogisticJoint(phi, t, c.Prior.Alpha), make([]float64, m))
	if err != nil {
		return cl, fmt.Errorf("%s, seed %d: Laplace: %w", set.name, seed, err)
	}
	lapOps := float64(lap.Iterations+1) * (float64(2*n*m*m+m*m*m) + logisticEvalFlops(n, m))
	// One-shot (budget 0): Newton runs to its mode, its steps in the ops.
	me, ve := posErr(lap.Q.Mean, lap.Q.Cov)
	cl.add(Laplace, 0, lap.LnZ, nan, lapOps, start.elapsed(), me, ve)
	// BIC at the MAP point: ln p(t | w*) − (m/2) ln n.
	cl.add(BIC, 0, target.LogLik(lap.Q.Mean)-0.5*float64(m)*math.Log(float64(n)), nan, lapOps+logisticEvalFlops(n, m), start.elapsed(), nan, nan)

	// EP with a ProjectedFactor per point; a site update is a rank-one
	// cavity and update (about 6m²) and the tilted moments by Gauss–Hermite
	// rules (about 60 evaluations of ln σ).
	start = startClock()
	var fs []approx.Factor
	for i, x := range phi {
		sg := 2*float64(t[i]) - 1
		fs = append(fs, approx.ProjectedFactor{A: x, LogG: func(u float64) float64 { return approx.LogSigmoid(sg * u) }, Tol: numeric.QuadTol{Rel: 1e-10}})
	}
	prior := approx.Normal{Mean: make([]float64, m), Cov: make([]float64, m*m)}
	for i := range m {
		prior.Cov[i*m+i] = 1 / c.Prior.Alpha
	}
	ep, err := approx.NewEP(prior, fs, approx.EPSettings{MaxIterations: slices.Max(c.EPSweeps), Tol: 1e-300})
	if err != nil {
		return cl, err
	}
	sweepOps := float64(n) * (float64(6*m*m) + 60*(2*approx.TranscendentalFlops+4))
	for k := 1; k <= slices.Max(c.EPSweeps); k++ {
		if _, err := ep.Sweep(); err != nil {
			return cl, fmt.Errorf("%s, seed %d: EP: %w", set.name, seed, err)
		}
		if slices.Contains(c.EPSweeps, k) {
			// No estimate where EP's evidence is undefined (an improper
			// cavity), counted in note_ep_no_evidence.
			if lz, err := ep.LogEvidence(); err != nil {
				cl.note("ep_no_evidence")
			} else {
				q := ep.Q()
				me, ve := posErr(q.Mean, q.Cov)
				cl.add(EP, k, lz, nan, float64(k)*sweepOps, start.elapsed(), me, ve)
			}
		}
	}

	// IS from a Student t on VB's q, widened, mixed with the prior.
	cov := mat.NewSymDense(m, nil)
	for i := range m {
		for j := range m {
			cov.SetSym(i, j, c.IS.Widen*c.IS.Widen*v.Cov[i*m+j])
		}
	}
	var chol, pchol mat.Cholesky
	if !chol.Factorize(cov) {
		return cl, fmt.Errorf("%s, seed %d: VB's covariance is not positive definite", set.name, seed)
	}
	pc := mat.NewSymDense(m, nil)
	for i := range m {
		pc.SetSym(i, i, 1/c.Prior.Alpha)
	}
	pchol.Factorize(pc)
	prop := is.NewDefensive(is.NewStudentT(c.IS.Nu, slices.Clone(v.Mean), &chol), is.NewGaussian(make([]float64, m), &pchol), c.IS.Defensive)
	// The samplers' errors from their self-normalised moments of w.
	moments := func(mean, second []float64) (float64, float64) {
		v := make([]float64, m)
		for i := range v {
			v[i] = second[i] - mean[i]*mean[i]
		}
		return vecErr(mean, gm), vecErr(v, gv)
	}
	isRungs(&cl, c.IS.IS, c.IS.Ladder, is.RunStreams(c.Seed, "atlas-logistic", "is", set.name, sd), prop, target,
		logisticEvalFlops(n, m)+studentTFlops(m)+gaussFlops(m), moments)

	// AIS, one set of runs per rung; the weighted final states give its
	// moments.
	for _, k := range c.AIS.Ladder {
		start = startClock()
		a := c.AIS.AIS
		a.Steps = k
		runs, final, ops, err := c.logisticAIS(a, c.AIS.HMC, target, "atlas-logistic", "ais", set.name, sd, strconv.Itoa(k))
		if err != nil {
			return cl, err
		}
		lz, se := ais.Pool(ais.LogWeights(runs))
		cpu := start.elapsed()
		me, ve := aisErrs(runs, final, moments)
		cl.add(AIS, k, lz, se, ops, cpu, me, ve)
	}
	return cl, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// RunLogistic runs every (data set, seed) cell and writes the grid.
func RunLogistic(env *experiments.Env, c *LogisticConfig) error {
	sets, err := c.logisticSets(env)
	if err != nil {
		return err
	}
	names, keys := setSeedCells(len(sets), c.Seeds, 0, func(k, s int) string { return fmt.Sprintf("%s-s%02d", sets[k].name, s) })
	cells, complete, err := experiments.RunAllCells(env, names, nil, func(i int) (rowCell, error) {
		return c.runLogisticCell(sets[keys[i].set], keys[i].set, keys[i].seed, c.Data != "")
	})
	if err != nil || !complete {
		return err
	}
	s := &results.Summary{Metrics: map[string]float64{}, Criteria: Criteria(true, IS, AIS)}
	absent := []Absent{{Method: CS, Why: "not applicable: logistic regression has no hidden variables, so there is no completed-data marginal for Cheeseman–Stutz"}}
	noteMetrics(s, cells)
	var mcse []float64
	for _, cl := range cells {
		mcse = append(mcse, float64(cl.GoldMeanSE))
	}
	s.SetMetric("gold_mean_mcse_max", slices.Max(mcse))
	gold, est := rowEstimates(cells)
	if _, err := WriteGrid(env.Dir, s, "logistic", gold, est, absent); err != nil {
		return err
	}
	s.AddFindingsFromChecks(nil)
	data := "no file"
	if c.Data != "" {
		data = fmt.Sprintf("%s (class %s = %s is t = 1; the inputs standardised by the file's mean and sd, divisor n; a bias added)", c.Data, c.Class, c.Positive)
	}
	return env.WriteSummary(s, fmt.Sprintf("Atlas row: Bayesian logistic regression, w ~ N(0, I/%g). Data: %s, and synthetic sets of n = %v points with %v standard-normal inputs, w from the prior; %d seeds each (the samplers' streams, and a new draw of a synthetic set). "+
		"Gold standard: AIS with HMC, %d runs of %d steps (%s schedule), its pooled ln p(t) and standard error stated (Kind ais-long). "+
		"VB: the Jaakkola–Jordan bound after %v iterations; Laplace: Newton to the mode; BIC = ln p(t | w*) − (M/2) ln n at Laplace's mode; EP: a projected factor per point, evidence after %v sweeps. "+
		"IS: %d runs of up to %d draws from a Student t (ν = %g) on VB's q widened %g× mixed with the prior at %g, estimates on prefixes %v; AIS: %d runs per rung of %v steps, HMC with %d leapfrog steps. "+
		"Posterior errors: ‖E_q[w] − E[w|t]‖₂ and ‖diag Var_q[w] − diag Var[w|t]‖₂ (VB's q, Laplace's and EP's Gaussians, IS's self-normalised moments, AIS's of its runs' final states weighted by their w (Neal 2001 §3); none for BIC) against %d HMC chains of %d samples after %d (the [ais] kernel at β = 1, from w = 0), whose largest Monte Carlo error of a mean (sd/√ESS) is the metric gold_mean_mcse_max. Operations are counted per formula (per evaluation of ln p(t, w): n(4M + 40)).",
		c.Prior.Alpha, data, c.SyntheticN, c.SyntheticInputs, c.Seeds, c.GoldAIS.Runs, c.GoldAIS.Steps, c.GoldAIS.Schedule, c.VBIterations, c.EPSweeps,
		c.IS.Runs, c.IS.Samples, c.IS.Nu, c.IS.Widen, c.IS.Defensive, c.IS.Ladder, c.AIS.Runs, c.AIS.Ladder, c.AIS.Leapfrog, c.GoldHMC.Chains, c.GoldHMC.Samples, c.GoldHMC.Burn))
}
