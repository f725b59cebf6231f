package atlas

// atlas/bm: Lawrence's (2000, ch. 4) fully connected Boltzmann machines
// with known weights (core/model/boltzmann), ln Z of the joint (no clamp,
// eq. 4.3) against exact enumeration of the 2^N states (Machine.Exact).
//
// Operations are weight terms (one weight or bias times a unit's state or
// mean, with its exponentials): a mean-field iteration is N fields of N − 1
// weights and a bias, N²; a mixture iteration M² of those (mixq's measure
// of a mixture's compute, iterations × M²); an EP sweep 4 per site (the
// four states of its pair, boltzmann.EP.EPSweepOps; the evidence at a rung
// one more sweep); a Gibbs step of AIS the sweep's N² and φ's N(N + 1)/2;
// an importance draw φ's N(N + 1)/2 and 3N (the draw and the two
// densities of the defensive mixture).

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/boltzmann"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/is"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// BMID is the Boltzmann machines' row of the atlas.
const BMID = "atlas/bm"

// The machine is a target of the samplers and the product of ±1 units a
// proposal, by their method sets.
var (
	_ is.Target               = boltzmann.Gibbs{}
	_ is.Proposal             = (*boltzmann.Product)(nil)
	_ ais.Model[[]float64]    = boltzmann.Gibbs{}
	_ mcmc.Sweeper[[]float64] = boltzmann.Gibbs{}
)

func init() {
	experiments.Add(BMID, "atlas row: random fully connected Boltzmann machines with known weights (Lawrence ch. 4), ln Z of the joint by mean field's bound, fully factorised EP over the units, IS from mean field's q mixed with the uniform, and AIS with Gibbs sweeps, against exact enumeration of the states; the mixture of mean-field distributions' bound as a metric",
		DefaultBM, RunBM, PlotGrid)
}

// BMConfig is the config of atlas/bm. A data set is one random machine of
// units ±1 units (every weight and bias uniform on (−span, span), the
// networks of Fig. 4.2, L1701) at temperature t, named "m<i>"; each of
// its seeds (the mixture's start and the samplers' streams) is a cell.
// The weights are known: the quantity is ln Z of the joint (eq. 4.3), whose
// gold standard is the sum over the 2^units states (Machine.Exact). Mean
// field (from zero means) and EP (from the biases alone) are
// deterministic: a machine's seeds repeat them.
type BMConfig struct {
	experiments.Common
	Units int     `toml:"units" range:"[2,16] integer"`
	Span  float64 `toml:"span" range:"(0,20]"`
	T     float64 `toml:"t" range:"(0,100]"`
	// Machines is the number of random machines (data sets).
	Machines int `toml:"machines" range:"[1,1e4] integer"`
	Seeds    int `toml:"seeds" range:"[1,1000] integer"`
	// VBIterations is mean field's ladder: its bound L⁻ (eqs. 4.13-4.14)
	// after each number of asynchronous fixed-point passes (eqs. 4.10-4.11)
	// of one run from zero means.
	VBIterations []int `toml:"vb_iterations" range:"[1,1e5] integer len=1.. increasing"`
	// EPSweeps is EP's ladder (every FamilyEP row's key): its ln Z after
	// each number of sweeps of one run ([ep]).
	EPSweeps []int `toml:"ep_sweeps" range:"[1,1e5] integer len=1.. increasing"`
	// Components is the M of the mixture of mean-field distributions (eq.
	// 4.16) whose bound (eqs. 4.17, 4.21) is a metric of the row, fitted
	// at t from means U(−init_scale, init_scale) and stopped by [vb].
	Components int                `toml:"components" range:"[2,20] integer"`
	InitScale  float64            `toml:"init_scale" range:"(0,1)"`
	VB         config.FitSettings `toml:"vb"`
	// EP is fully factorised EP over the units (boltzmann.EP: one site per
	// pair with w_ij ≠ 0, the biases in the prior), one run from the
	// prior, each step moved a fraction damping of the way: its ln Z after
	// each rung of ep_sweeps, the run carried on until no site's log-odds
	// move by more than tol in a sweep (the sweeps it took: metrics
	// ep_sweeps_*) or max_sweeps (note_ep_not_converged).
	EP epRun `toml:"ep"`
	// IS: draws from mean field's q at the ladder's last rung mixed with
	// the uniform distribution on the 2^units states at weight defensive;
	// the ladder is the draws of each run used.
	IS struct {
		config.IS
		Ladder    []int   `toml:"ladder" range:"[1,1e9] integer len=1.. increasing"`
		Defensive float64 `toml:"defensive" range:"(0,1)"`
	} `toml:"is"`
	// AIS from the uniform distribution on the states to the machine with
	// one Gibbs sweep (section 4.3, L1569) per temperature; one set of
	// runs per rung of the ladder.
	AIS struct {
		config.AIS
		Ladder []int `toml:"ladder" range:"[2,1e9] integer len=1.. increasing"`
	} `toml:"ais"`
}

// DefaultBM returns 20 random machines of 10 units, span 1 (Fig. 4.2's
// networks), at T = 1, 3 seeds each.
func DefaultBM() BMConfig {
	c := BMConfig{Units: 10, Span: 1, T: 1, Machines: 20, Seeds: 3, VBIterations: []int{1, 2, 3, 5, 10, 20, 50},
		Components: 5, InitScale: 0.5, VB: config.FitSettings{MaxIterations: 1000, RelTol: 1e-10, MonotoneTol: 1e-9}}
	c.EPSweeps = []int{1, 2, 3, 5, 10, 20, 50, 100}
	c.EP.Damping, c.EP.MaxSweeps, c.EP.Tol = 0.5, 1000, 1e-8
	c.IS.IS = config.IS{Runs: 16, Samples: 4000}
	c.IS.Ladder, c.IS.Defensive = []int{1, 4, 40, 400, 4000}, 0.1
	c.AIS.AIS = config.AIS{Runs: 16, Steps: 1000, AISSchedule: config.DefaultSchedule(config.ScheduleLinear)}
	c.AIS.Ladder = []int{2, 3, 10, 30, 100, 300, 1000}
	return c
}

// Validate checks the ladders against their caps.
func (c *BMConfig) Validate() error {
	switch {
	case slices.Max(c.EPSweeps) > c.EP.MaxSweeps:
		return config.FieldError("ep_sweeps", slices.Max(c.EPSweeps), fmt.Sprintf("must be at most ep.max_sweeps (%d)", c.EP.MaxSweeps))
	case slices.Max(c.IS.Ladder) > c.IS.Samples:
		return config.FieldError("is.ladder", slices.Max(c.IS.Ladder), fmt.Sprintf("must be at most is.samples (%d)", c.IS.Samples))
	case slices.Max(c.AIS.Ladder) > c.AIS.Steps:
		return config.FieldError("ais.ladder", slices.Max(c.AIS.Ladder), fmt.Sprintf("must be at most ais.steps (%d)", c.AIS.Steps))
	case c.AIS.Runs < 2:
		return config.FieldError("ais.runs", c.AIS.Runs, "must be at least 2 (a standard error)")
	}
	return config.FirstError(c.VB.Validate("vb", nil), c.AIS.Validate("ais"))
}

// The row's operation counts (weight terms; the file's comment).
func bmIterOps(n int) float64    { return float64(n * n) }
func bmStepOps(n int) float64    { return float64(n*n + n*(n+1)/2) }
func bmDrawOps(n int) float64    { return float64(n*(n+1)/2 + 3*n) }
func bmPairs(n int) float64      { return float64(n * (n - 1) / 2) }
func bmEPSweepOps(n int) float64 { return 4 * bmPairs(n) }

// Estimate counts the enumeration, the fits to their caps, EP to its cap
// and the samplers, per weight term at a few nanoseconds each.
func (c *BMConfig) Estimate() experiments.Cost {
	n := c.Units
	machines, seeds := experiments.Key("machines", c.Machines), experiments.Key("seeds", c.Seeds)
	var ladder int
	for _, k := range c.AIS.Ladder {
		ladder += k
	}
	M := float64(c.Components)
	fits := float64(slices.Max(c.VBIterations)) + float64(c.VB.MaxIterations)*M*M
	return experiments.Cost{
		Cells:  []experiments.Factor{machines, seeds},
		Memory: []experiments.Part{experiments.Words("IS draws and weights", experiments.KeyN("units", c.Units, float64(n+1), "values a draw"), experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs))},
		Work: []experiments.Part{
			experiments.Ops("exact ln Z", 5, machines, seeds, experiments.KeyN("units", c.Units, math.Ldexp(float64(n*n), n), "states × weight terms (two passes)")),
			experiments.Ops("fits", 5, machines, seeds, experiments.KeyN("units", c.Units, bmIterOps(n), "weight terms an iteration"),
				experiments.KeyN("vb.max_iterations", c.VB.MaxIterations, fits, "mean-field iterations, M² per mixture iteration")),
			experiments.Ops("EP", 20, machines, seeds, experiments.KeyN("units", c.Units, bmEPSweepOps(n), "weight terms an EP sweep"),
				experiments.KeyN("ep.max_sweeps", c.EP.MaxSweeps, float64(c.EP.MaxSweeps+len(c.EPSweeps)), "sweeps and the rungs' evidence passes")),
			experiments.Ops("IS", 10, machines, seeds, experiments.KeyN("units", c.Units, bmDrawOps(n), "weight terms a draw"), experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs)),
			experiments.Ops("AIS", 10, machines, seeds, experiments.KeyN("units", c.Units, bmStepOps(n), "weight terms a Gibbs step"),
				experiments.KeyN("ais.ladder", c.AIS.Ladder, float64(ladder), "steps summed over the ladder"), experiments.Key("ais.runs", c.AIS.Runs)),
		},
	}
}

// bmCriteria are the grid's criteria (VB below the gold standard, IS and
// AIS within 3 SE) and the mixture's bound below it.
func bmCriteria() results.Criteria {
	return append(Criteria(true, IS, AIS), results.Criterion{ID: "bm-mixture-below-gold",
		Text:   "mixture bounds above the exact ln Z by more than 1e-9·max(1, |ln Z|) nats, plus fits that failed",
		Target: results.Equal(0)}.AsSanity())
}

// Criteria states the criteria of a run.
func (c *BMConfig) Criteria(*experiments.Env) (results.Criteria, error) { return bmCriteria(), nil }

// bmMachine draws machine i of the config and names it.
func (c *BMConfig) bmMachine(i int) (*boltzmann.Machine, string) {
	name := fmt.Sprintf("m%03d", i)
	m := boltzmann.NewRandom(c.Units, c.Span, rng.New(c.Seed, BMID, "machine", name))
	m.T = c.T
	return m, name
}

// runBMCell draws machine i, enumerates its ln Z and means, and runs every
// method at seed.
func (c *BMConfig) runBMCell(i int, seed uint64) (knownCell, error) {
	m, name := c.bmMachine(i)
	sd := strconv.FormatUint(seed, 10)
	nan := math.NaN()
	n := m.N
	cl := knownCell{rowCell: rowCell{Dataset: name, Seed: seed, GoldKind: GoldEnumeration}, Mix: experiments.Float(nan), MixOps: experiments.Float(nan)}
	ex, err := m.Exact(nil)
	if err != nil {
		return cl, err
	}
	cl.Gold = experiments.Float(ex.LogZ)
	means := ex.Mean
	stream := func(method string, more ...string) []string {
		return append([]string{BMID, name, "seed", sd, method}, more...)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	// Mean field along its iterations (one run from zero means): the bound
	// after b passes is vb.Run's E at iteration b (E before the b+1-th M).
	t0 := cpuNow()
	mf, err := boltzmann.NewMeanField(m, nil, nil)
	if err != nil {
		return cl, err
	}
	top := slices.Max(c.VBIterations)
	f, me := map[int]float64{}, map[int]float64{}
	set := config.FixedBudget(top+1).Settings(nil, mf)
	set.Recorder = func(it vb.Iteration) {
		if slices.Contains(c.VBIterations, it.Iter) {
			f[it.Iter], me[it.Iter] = it.F, meanAbsErr(mf.Mu, means)
		}
	}
	if res := vb.Run(mf, set); res.Error() != nil {
		return cl, fmt.Errorf("%s seed %d: mean field: %w", name, seed, res.Error())
	}
	cpu := cpuNow() - t0
	for _, b := range c.VBIterations {
		cl.add(VB, b, f[b], nan, float64(b)*bmIterOps(n), secs(cpu*float64(b)/float64(top)), me[b], nan)
	}
	// vb.Run stops after the E at iteration top, before another M: mf is
	// the last rung's q, IS's proposal below.

	// EP from the prior along its sweeps, on to convergence.
	ep, err := boltzmann.NewEP(m, c.EP.settings())
	if err != nil {
		return cl, err
	}
	if cl.EPSweeps, err = c.EP.ladder(&cl.rowCell, c.EPSweeps, ep, ep.LogZ, float64(ep.EPSweepOps()), means); err != nil {
		return cl, fmt.Errorf("%s seed %d: EP: %w", name, seed, err)
	}

	// The mixture of mean-field distributions at t.
	init := boltzmann.RandomMeans(c.Components, n, c.InitScale, rng.New(c.Seed, stream("mixture")...))
	if mix, err := boltzmann.NewMixture(m, nil, init); err != nil {
		cl.Failed++
	} else if r, err := mix.Run(boltzmann.Settings{MaxIterations: c.VB.MaxIterations, RelTol: c.VB.RelTol, AbsTol: c.VB.AbsTol, MonotoneTol: c.VB.MonotoneTol}); err != nil {
		cl.Failed++
	} else {
		cl.Mix, cl.MixOps = experiments.Float(r.Bound), experiments.Float(float64(r.Iterations*c.Components*c.Components)*bmIterOps(n))
		if r.Bound > ex.LogZ+boundTolSBN*math.Max(1, math.Abs(ex.LogZ)) {
			cl.Failed++
		}
	}

	// IS from mean field's q mixed with the uniform on the states.
	q, err := boltzmann.NewProduct(mf.Mu)
	if err != nil {
		return cl, err
	}
	u, err := boltzmann.NewProduct(make([]float64, n))
	if err != nil {
		return cl, err
	}
	target := boltzmann.Gibbs{M: m}
	moments := func(mean, _ []float64) (float64, float64) { return meanAbsErr(mean, means), nan }
	isRungs(&cl.rowCell, c.IS.IS, c.IS.Ladder, is.RunStreams(c.Seed, stream("is")...), is.NewDefensive(q, u, c.IS.Defensive), target,
		bmDrawOps(n), moments)

	// AIS from the uniform with a Gibbs sweep per temperature: ln w
	// estimates ln(Z/2^N) (Gibbs.SamplePrior); the weighted final states
	// give the means.
	sampler := ais.Sampler[[]float64]{Model: target, NewKernel: func() mcmc.Kernel[[]float64] {
		return &mcmc.Gibbs[[]float64]{Target: target, Sweeper: target}
	}}
	for _, k := range c.AIS.Ladder {
		t0 = cpuNow()
		a := c.AIS.AIS
		a.Steps = k
		runs, final, _, err := config.SampleFinal(a, sampler, 1, c.Seed, stream("ais", strconv.Itoa(k))...)
		if err != nil {
			return cl, err
		}
		lw := ais.LogWeights(runs)
		lz, se := ais.Pool(lw)
		cpu := secs(cpuNow() - t0)
		me, ve := aisErrs(runs, final, moments)
		cl.add(AIS, k, lz+float64(n)*math.Ln2, max(se, ais.LogWSE(lw)), float64(a.Runs*k)*bmStepOps(n), cpu, me, ve)
	}
	return cl, nil
}

// RunBM runs every (machine, seed) cell and writes the grid.
func RunBM(env *experiments.Env, c *BMConfig) error {
	names, keys := setSeedCells(c.Machines, c.Seeds, 1, func(i, s int) string { return fmt.Sprintf("m%03d-s%02d", i, s+1) })
	cells, complete, err := experiments.RunAllCells(env, names, nil, func(k int) (knownCell, error) {
		return c.runBMCell(keys[k].set, keys[k].seed)
	})
	if err != nil || !complete {
		return err
	}
	s := &results.Summary{Metrics: map[string]float64{}, Criteria: bmCriteria()}
	absent := knownAbsent("ln Z of one machine")
	rows, bad := knownMetrics(s, cells, c.Components)
	mix := fmt.Sprintf("mix%d", c.Components)
	noteMetrics(s, rows)
	gold, est := rowEstimates(rows)
	if _, err := WriteGrid(env.Dir, s, "bm", gold, est, absent); err != nil {
		return err
	}
	s.Judge(bmCriteria().Get("bm-mixture-below-gold"), float64(bad))
	s.AddFindingsFromChecks(map[string]string{
		"within3se-is":  "mean field's q sits in one mode of a machine with several, which the uniform share does not cover at these draws, so the weights' spread understates the error",
		"within3se-ais": "too few temperatures for one Gibbs sweep each: the runs' log weights are biased low beyond their spread",
	})
	return env.WriteSummary(s, fmt.Sprintf("Atlas row: fully connected Boltzmann machines with known weights (Lawrence 2000 ch. 4, core/model/boltzmann), ln Z of the joint (no clamp). Data sets: %d random machines of %d ±1 units, every weight and bias U(−%g, %g) (Fig. 4.2's networks, L1701), at T = %g, %d seeds each (the mixture's start and the samplers' streams; mean field and EP are deterministic, so their spread is over machines). "+
		"Gold standard: ln Z = ln Σ_s exp(φ(s)/T) by enumerating the 2^%d states (Machine.Exact, eq. 4.3), and the exact ⟨s_i⟩. "+
		"VB: mean field's bound L⁻ = ⟨φ⟩/T + Σ_i S(Q(s_i)) (eqs. 4.13-4.14, MeanField.Bound) after %v asynchronous passes of eqs. 4.10-4.11 from zero means; beside it, not a grid column, the %d-component mixture of mean-field distributions' bound (eqs. 4.16-4.21, from means U(−%g, %g), stopped by [vb]; metrics err_%s_median and ops_%s_median, gold − bound). "+
		"EP: fully factorised EP over the units (boltzmann.EP; approx.FamilyEP with approx.Bernoullis on b = (s + 1)/2, Minka 2001 §3.3, loopy belief propagation by §4.4), one site per pair f_ij = exp(w_ij s_i s_j/T) projected by its four states, the biases in the prior, ln Z = ln Z_EP + Σ_i ln 2cosh(b_i/T), from the prior with damping %g, after %v sweeps (not a bound); run on until no site's log-odds moved by more than %g or %d sweeps: %d of %d cells converged (metrics ep_sweeps_median and ep_sweeps_max; note_ep_not_converged counts the others, whose estimates are those of the unconverged sites). "+
		"IS: %d runs of up to %d draws from mean field's q (a product of ±1 units, boltzmann.Product) at its last rung mixed with the uniform distribution on the 2^%d states at %g (is.Defensive: a mode that mean field's q misses keeps Q ≥ ε 2^−N); "+
		"AIS: from the uniform distribution with one Gibbs sweep (section 4.3) per temperature, ln Z = ln w + N ln 2, %d runs per rung of %v temperatures, %s schedule, SE the larger of the delta method's and sd(ln w)/√G. "+
		"BIC, CS and Laplace do not apply (the weights are known: no parameter posterior). Posterior error: mean |⟨s_i⟩ − exact| over the units (VB: tanh A_i; EP: q's tanh(η_i/2); IS: self-normalised means; AIS: the means of its runs' final states weighted by their w, Neal 2001 §3); no variance error (a ±1 unit's variance is fixed by its mean). "+
		"Operations: weight terms (N² per mean-field iteration, M²N² per mixture iteration, 4 per pair per EP sweep and per evidence pass, N² + N(N + 1)/2 per Gibbs step, N(N + 1)/2 + 3N per importance draw).",
		c.Machines, c.Units, c.Span, c.Span, c.T, c.Seeds, c.Units, c.VBIterations, c.Components, c.InitScale, c.InitScale, mix, mix,
		c.EP.Damping, c.EPSweeps, c.EP.Tol, c.EP.MaxSweeps, int(s.Metrics["ep_converged"]), len(cells),
		c.IS.Runs, c.IS.Samples, c.Units, c.IS.Defensive, c.AIS.Runs, c.AIS.Ladder, c.AIS.Schedule))
}
