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
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/is"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// ClutterID is the clutter problem's row of the atlas.
const ClutterID = "atlas/clutter"

func init() {
	experiments.Add(ClutterID, "atlas row: the clutter problem (PRML §10.7.1), ln p(D) and the posterior's mean and variance by VB, EP, Laplace, BIC, Cheeseman-Stutz, IS from VB's q and AIS against the truth by quadrature, against counted operations",
		DefaultClutter, RunClutter, PlotGrid)
}

// ClutterConfig is the config of atlas/clutter: data sets of the clutter
// problem in one dimension (each size of n a data set, each seed a draw
// of it), every method at each rung of its budget ladder.
type ClutterConfig struct {
	experiments.Common
	N         []int   `toml:"n" range:"[1,1e4] len=1.. increasing"` // the data sets: their sizes
	Seeds     int     `toml:"seeds" range:"[1,1000]"`               // draws of each data set
	TrueTheta float64 `toml:"true_theta" range:"[-1e3,1e3]"`        // the θ that generates the data
	W         float64 `toml:"w" range:"(0,1)"`                      // clutter weight
	A         float64 `toml:"a" range:"[1e-3,1e6]"`                 // clutter variance
	Prior     struct {
		B float64 `toml:"b" range:"[1e-3,1e6]"` // θ ~ N(0, b)
	} `toml:"prior"`
	// VBIterations and EPSweeps are the ladders of VB's iterations and
	// EP's sweeps; LaplaceSteps the Newton steps of each Laplace start.
	VBIterations []int   `toml:"vb_iterations" range:"[1,1e5] len=1.. increasing"`
	EPSweeps     []int   `toml:"ep_sweeps" range:"[1,1e5] len=1.. increasing"`
	LaplaceSteps int     `toml:"laplace_steps" range:"[1,1e4]"`
	QuadRelTol   float64 `toml:"quad_rel_tol" range:"[1e-14,1e-4]"` // the truth's quadrature, per unit piece
	ScanCut      float64 `toml:"scan_cut" range:"[1,700]"`          // nats below the peak where pieces are left out
	// IS draws from a Student t on VB's q (at the last rung of
	// vb_iterations), its scale widened; the ladder is the draws of each
	// run used (prefixes of the same runs), each at most is.samples.
	IS struct {
		config.IS
		Ladder []int   `toml:"ladder" range:"[1,1e9] len=1.. increasing"`
		Nu     float64 `toml:"nu" range:"[1,1e6]"`
		Widen  float64 `toml:"widen" range:"[0.1,10]"`
		// Defensive is the prior's weight ε in the proposal (1 − ε) t + ε
		// prior (is.Defensive): VB's q sits on one mode, and the clutter
		// posterior can have another, which the prior's draws find.
		Defensive float64 `toml:"defensive" range:"(0,1)"`
	} `toml:"is"`
	// AIS from the prior with an HMC kernel whose step is a fraction of
	// the tempered posterior's scale 1/√(1/b + β n); the ladder is the
	// steps of each run (one set of runs per rung), each at most
	// ais.steps.
	AIS hmcLadder `toml:"ais"`
}

// DefaultClutter returns PRML's problem (w = 0.5, a = 10, b = 100, L1279)
// at three sizes.
func DefaultClutter() ClutterConfig {
	c := ClutterConfig{N: []int{10, 30, 100}, Seeds: 3, TrueTheta: 2, W: 0.5, A: 10,
		VBIterations: []int{1, 2, 5, 10, 20, 50}, EPSweeps: []int{1, 2, 5, 10, 20}, LaplaceSteps: 30,
		QuadRelTol: 1e-10, ScanCut: 40}
	c.Prior.B = 100
	c.IS.IS = config.IS{Runs: 8, Samples: 12500}
	c.IS.Ladder, c.IS.Nu, c.IS.Widen, c.IS.Defensive = []int{12, 125, 1250, 12500}, 5, 1.5, 0.1
	c.AIS.AIS = config.AIS{Runs: 16, Steps: 1000, AISSchedule: config.DefaultSchedule(config.ScheduleGeometric)}
	c.AIS.HMC = config.HMC{Leapfrog: 5, Step: 1.5}
	c.AIS.Ladder = []int{10, 30, 100, 300, 1000}
	return c
}

// Validate checks the ladders against their caps.
func (c *ClutterConfig) Validate() error {
	switch {
	case slices.Max(c.IS.Ladder) > c.IS.Samples:
		return config.FieldError("is.ladder", slices.Max(c.IS.Ladder), fmt.Sprintf("must be at most is.samples (%d)", c.IS.Samples))
	case slices.Max(c.AIS.Ladder) > c.AIS.Steps:
		return config.FieldError("ais.ladder", slices.Max(c.AIS.Ladder), fmt.Sprintf("must be at most ais.steps (%d)", c.AIS.Steps))
	case c.AIS.Runs < 2:
		return config.FieldError("ais.runs", c.AIS.Runs, "must be at least 2 (a standard error)")
	}
	return c.AIS.Validate("ais")
}

// Estimate counts, per data set, the truth's quadrature, the methods'
// iterations and the samplers' evaluations of ln p(θ, D), each N terms.
func (c *ClutterConfig) Estimate() experiments.Cost {
	var sumN int
	for _, n := range c.N {
		sumN += n
	}
	ns := experiments.KeyN("n", c.N, float64(sumN), "data points summed over the sizes")
	seeds := experiments.Key("seeds", c.Seeds)
	var ladder int
	for _, k := range c.AIS.Ladder {
		ladder += k
	}
	return experiments.Cost{
		Cells:  []experiments.Factor{experiments.KeyN("n", c.N, float64(len(c.N)), "sizes"), seeds},
		Memory: []experiments.Part{experiments.Words("IS draws and weights", experiments.Fixed(2, "values"), experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs))},
		Work: []experiments.Part{
			experiments.Ops("truth by quadrature", 1e5, ns, seeds),
			experiments.Ops("VB, EP, Laplace", 300, ns, seeds, experiments.KeyN("vb_iterations", c.VBIterations, float64(slices.Max(c.VBIterations)+slices.Max(c.EPSweeps)+c.LaplaceSteps), "iterations")),
			experiments.Ops("IS", 100, ns, seeds, experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs)),
			experiments.Ops("AIS with HMC", 200, ns, seeds, experiments.KeyN("ais.ladder", c.AIS.Ladder, float64(ladder), "steps summed over the ladder"),
				experiments.Key("ais.runs", c.AIS.Runs), experiments.Key("ais.leapfrog", c.AIS.Leapfrog+1)),
		},
	}
}

// Criteria states the criteria of a run.
func (c *ClutterConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return Criteria(true, IS, AIS), nil
}

// clutterData draws a data set of n points (PRML eq. (10.209)).
func (c *ClutterConfig) clutterData(n int, seed uint64) approx.ClutterProblem {
	rnd := rng.New(c.Seed, "atlas-clutter", strconv.Itoa(n), strconv.FormatUint(seed, 10))
	p := approx.ClutterProblem{W: c.W, A: c.A, B: c.Prior.B}
	for range n {
		x := c.TrueTheta + rnd.NormFloat64()
		if rnd.Float64() < c.W {
			x = math.Sqrt(c.A) * rnd.NormFloat64()
		}
		p.X = append(p.X, []float64{x})
	}
	return p
}

// clutterCell is a cell of the row with, beside the grid's estimates,
// Beal's CS at the MAP point (a metric of the row, not a column).
type clutterCell struct {
	rowCell
	CSEM experiments.Float `json:"cs_em"`
}

// runClutterCell computes the truth and every method on one data set.
func (c *ClutterConfig) runClutterCell(n int, seed uint64) (clutterCell, error) {
	runtime.LockOSThread() // the CPU clock of one thread (startClock)
	defer runtime.UnlockOSThread()
	p := c.clutterData(n, seed)
	out := clutterCell{rowCell: rowCell{Dataset: fmt.Sprintf("n%d", n), Seed: seed, GoldKind: "quadrature"}}
	cl := &out.rowCell
	ex, err := p.ExactMoments(numeric.QuadTol{Rel: c.QuadRelTol}, c.ScanCut)
	if err != nil {
		return out, fmt.Errorf("n = %d, seed %d: %w", n, seed, err)
	}
	// The quadrature's error is about its relative tolerance of ln p(D).
	cl.Gold, cl.GoldSE = experiments.Float(ex.LnZ), experiments.Float(c.QuadRelTol*math.Abs(ex.LnZ))
	errs := func(mean []float64, v float64) (float64, float64) {
		return dist2(mean, ex.Mean), math.Abs(v - ex.Var[0])
	}

	// VB through vb.Run (the bound's check); the recorder runs after each
	// E step, when the bound is that of q(θ) from the M step before.
	start := startClock()
	v, err := approx.NewClutterVB(p)
	if err != nil {
		return out, err
	}
	maxIt := slices.Max(c.VBIterations)
	set := config.FixedBudget(maxIt).Settings(nil, v)
	set.Recorder = func(it vb.Iteration) {
		// Iter is 0-based: the budget is the number of E steps made.
		if slices.Contains(c.VBIterations, it.Iter+1) {
			me, ve := errs(v.Mean, v.V)
			cl.add(VB, it.Iter+1, it.F, math.NaN(), v.Flops, start.elapsed(), me, ve)
		}
	}
	res := vb.Run(v, set)
	if res.Err != nil {
		return out, fmt.Errorf("n = %d, seed %d: VB: %w", n, seed, res.Err)
	}
	if res.Status == vb.BoundDecreased {
		cl.note("vb_decreased")
	}

	// EP, its evidence after each rung (its cost not carried on).
	start = startClock()
	ep, err := approx.NewClutterEP(p)
	if err != nil {
		return out, err
	}
	for k := 1; k <= slices.Max(c.EPSweeps); k++ {
		ep.Sweep()
		if !slices.Contains(c.EPSweeps, k) {
			continue
		}
		f := ep.Flops
		lz, err := ep.LogEvidence()
		// An improper cavity leaves EP's evidence undefined (PRML eqs.
		// (10.223)–(10.224) need a fixed point of proper updates): no
		// estimate at this rung, counted in note_ep_improper.
		if err != nil || ep.Skipped > 0 {
			cl.note("ep_improper")
		} else {
			me, ve := errs(ep.Mean(), ep.Var())
			cl.add(EP, k, lz, math.NaN(), ep.Flops, start.elapsed(), me, ve)
		}
		ep.Flops = f
	}

	// Laplace from three starts (the data mean, the prior mean, the
	// highest data point), the run that ends highest kept, at its own cost.
	start = startClock()
	top, scan := p.HighestDataPoint()
	var best *approx.ClutterLaplace
	for j, th := range [][]float64{nil, {0}, top} {
		var l *approx.ClutterLaplace
		if th == nil {
			l, err = approx.NewClutterLaplace(p)
		} else {
			l, err = approx.NewClutterLaplaceAt(p, th)
		}
		if err != nil {
			return out, err
		}
		if j == 2 {
			l.Flops += scan
		}
		for range c.LaplaceSteps {
			l.Step()
		}
		if best == nil || l.LogJoint() > best.LogJoint()+1e-9*math.Max(1, math.Abs(l.LogJoint())) {
			best = l
		}
	}
	// No Laplace estimate where −∇∇ ln p is not positive definite at the
	// point reached (note_laplace_indefinite).
	if q, lz := best.Result(); math.IsNaN(lz) {
		cl.note("laplace_indefinite")
	} else {
		me, ve := errs(q.Mean, q.Cov[0])
		cl.add(Laplace, c.LaplaceSteps, lz, math.NaN(), best.Flops, start.elapsed(), me, ve)
	}
	// BIC at Laplace's mode (the MAP point; under the prior's variance b
	// it is the ML point to O(1/(b n))): ln p(D | θ*) − (D/2) ln n.
	target, err := p.Target()
	if err != nil {
		return out, err
	}
	cl.add(BIC, 0, target.LogLik(best.Theta)-0.5*math.Log(float64(n)), math.NaN(), best.Flops+target.Flops(false), start.elapsed(), math.NaN(), math.NaN())
	// Cheeseman–Stutz with VB's q(z) (at the last rung) as the completion
	// at VB's mean; Beal's CS at Laplace's mode (the MAP point) with the E
	// step there as the completion is the metric err_cs_em_median.
	start = startClock()
	cs, csOps, err := p.CheesemanStutz(v.Mean, v.R)
	if err != nil {
		return out, fmt.Errorf("n = %d, seed %d: CS: %w", n, seed, err)
	}
	cl.add(CS, 0, cs, math.NaN(), v.Flops+csOps, start.elapsed(), math.NaN(), math.NaN())
	csm, _, err := p.CheesemanStutz(best.Theta, nil)
	if err != nil {
		return out, fmt.Errorf("n = %d, seed %d: CS at the MAP point: %w", n, seed, err)
	}
	out.CSEM = experiments.Float(csm)

	// IS from a Student t on VB's q, widened.
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(1, []float64{c.IS.Widen * c.IS.Widen * v.V})) {
		return out, fmt.Errorf("n = %d, seed %d: VB's variance %v is not positive", n, seed, v.V)
	}
	var pchol mat.Cholesky
	pchol.Factorize(mat.NewSymDense(1, []float64{p.B}))
	prop := is.NewDefensive(is.NewStudentT(c.IS.Nu, slices.Clone(v.Mean), &chol), is.NewGaussian([]float64{0}, &pchol), c.IS.Defensive)
	// The samplers' errors from their self-normalised moments of θ.
	moments := func(mean, second []float64) (float64, float64) { return errs(mean, second[0]-mean[0]*mean[0]) }
	isRungs(cl, c.IS.IS, c.IS.Ladder, is.RunStreams(c.Seed, "atlas-clutter", "is", cl.Dataset, strconv.FormatUint(seed, 10)), prop, target,
		target.Flops(false)+studentTFlops(1)+gaussFlops(1), moments)

	// AIS, one set of runs per rung; the weighted final states give its
	// moments.
	for _, k := range c.AIS.Ladder {
		start = startClock()
		a := c.AIS.AIS
		a.Steps = k
		sampler := ais.Sampler[[]float64]{Model: target, NewKernel: func() mcmc.Kernel[[]float64] {
			return &mcmc.HMC{Target: target, Steps: c.AIS.Leapfrog, StepSize: func(beta float64) float64 {
				return c.AIS.Step / math.Sqrt(1/p.B+beta*float64(n))
			}}
		}}
		runs, final, _, err := config.SampleFinal(a, sampler, 1, c.Seed, "atlas-clutter", "ais", cl.Dataset, strconv.FormatUint(seed, 10), strconv.Itoa(k))
		if err != nil {
			return out, err
		}
		lz, se := ais.Pool(ais.LogWeights(runs))
		ops := float64(k*a.Runs) * (float64(c.AIS.Leapfrog)*target.Flops(true) + target.Flops(false))
		cpu := start.elapsed()
		me, ve := aisErrs(runs, final, moments)
		cl.add(AIS, k, lz, se, ops, cpu, me, ve)
	}
	return out, nil
}

// RunClutter runs every (n, seed) cell and writes the grid.
func RunClutter(env *experiments.Env, c *ClutterConfig) error {
	var names []string
	type key struct {
		n    int
		seed uint64
	}
	var keys []key
	var cost []float64
	for _, n := range c.N {
		for s := range c.Seeds {
			names = append(names, fmt.Sprintf("n%03d-s%02d", n, s))
			keys = append(keys, key{n, uint64(s)})
			cost = append(cost, float64(n))
		}
	}
	ccells, complete, err := experiments.RunAllCells(env, names, cost, func(i int) (clutterCell, error) {
		return c.runClutterCell(keys[i].n, keys[i].seed)
	})
	if err != nil || !complete {
		return err
	}
	s := &results.Summary{Metrics: map[string]float64{}, Criteria: Criteria(true, IS, AIS)}
	var absent []Absent
	cells := make([]rowCell, len(ccells))
	csm := make([]float64, len(ccells))
	for i, cl := range ccells {
		cells[i] = cl.rowCell
		csm[i] = math.Abs(float64(cl.CSEM - cl.Gold))
	}
	s.SetMetric("err_cs_em_median", results.Median(csm))
	noteMetrics(s, cells)
	gold, est := rowEstimates(cells)
	if _, err := WriteGrid(env.Dir, s, "clutter", gold, est, absent); err != nil {
		return err
	}
	s.AddFindingsFromChecks(nil)
	return env.WriteSummary(s, fmt.Sprintf("Atlas row: the clutter problem (PRML §10.7.1) in one dimension, w = %g, a = %g, b = %g, θ = %g; data sets of n ∈ %v points, %d seeded draws each. "+
		"Gold standard: ln p(D), E[θ|D] and Var[θ|D] by adaptive Gauss–Kronrod quadrature (relative tolerance %g per piece; its stated SE is that tolerance × |ln p(D)|). "+
		"VB: mean-field q(θ)q(z), its bound after %v iterations. EP: isotropic sites, its evidence after %v sweeps (left out where a cavity was improper, note_ep_improper). Laplace: %d Newton steps from 3 starts, the highest kept; BIC = ln p(D | θ*) − ½ ln n at Laplace's mode θ*. "+
		"CS: Cheeseman–Stutz (Beal 2003 eqs. 6.27–6.31) with VB's final q(z) as the fractional completion at VB's mean (= F + Σ_n KL(q(z_n) ‖ p(z_n | x_n, θ̂)), not a bound); err_cs_em_median is Beal's CS at θ* with the E step there as the completion (a lower bound). "+
		"IS: %d runs of up to %d draws from a Student t (ν = %g) on VB's final q widened %g×, mixed with the prior at weight %g (defensive importance sampling), estimates on prefixes %v of each run (SE from the spread of the runs). "+
		"AIS: %d runs from the prior per rung of %v steps, %s schedule, HMC with %d leapfrog steps of %g/√(1/b + βn); its posterior moments are those of the runs' final states weighted by their w (Neal 2001 §3). "+
		"Operations are counted as core/approx counts them (+ − × ÷ one, exp/log/sqrt %d); a sampler's are its evaluations of ln p(θ, D) times their count.",
		c.W, c.A, c.Prior.B, c.TrueTheta, c.N, c.Seeds, c.QuadRelTol, c.VBIterations, c.EPSweeps, c.LaplaceSteps,
		c.IS.Runs, c.IS.Samples, c.IS.Nu, c.IS.Widen, c.IS.Defensive, c.IS.Ladder, c.AIS.Runs, c.AIS.Ladder, c.AIS.Schedule, c.AIS.Leapfrog, c.AIS.Step, approx.TranscendentalFlops))
}

// noteMetrics counts the cells' notes (VB bounds that decreased, EP's
// improper cavities, …) as metrics note_<key>.
func noteMetrics(s *results.Summary, cells []rowCell) {
	tot := map[string]int{}
	for _, cl := range cells {
		for k, v := range cl.Notes {
			tot[k] += v
		}
	}
	keys := make([]string, 0, len(tot))
	for k := range tot {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		s.SetMetric("note_"+k, float64(tot[k]))
	}
}
