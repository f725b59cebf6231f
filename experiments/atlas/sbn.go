package atlas

// atlas/sbn: Lawrence's (2000) layered sigmoid belief networks with known
// weights (core/model/sbn), ln P(V) of a visible pattern against exact
// enumeration of the latent states.
//
// An EP sweep (sbn.EP, fully factorised EP over the latent units) enumerates
// for each unit i the 2^{k_i} states of the k_i latent units its factor
// P(s_i | pa(s_i)) touches (k_i = |pa(i)| + 1 latent, |pa(i)| visible),
// each state's field and log-weight: Net.EPSweepOps = Σ_i 2^{k_i}
// (|pa(i)| + k_i + 1) edge terms, 1064 on a 2-4-6 net; the evidence at a
// rung is one more such pass.

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/sbn"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/is"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// SBNID is the sigmoid belief networks' row of the atlas.
const SBNID = "atlas/sbn"

// The posterior of a net and the Bernoulli products are targets and
// proposals of the samplers by their method sets.
var (
	_ is.Target               = sbn.Posterior{}
	_ is.Proposal             = (*sbn.Bernoulli)(nil)
	_ ais.Model[[]float64]    = sbn.Posterior{}
	_ mcmc.Sweeper[[]float64] = sbn.Posterior{}
)

func init() {
	experiments.Add(SBNID, "atlas row: random sigmoid belief nets with known weights (Lawrence ch. 2), ln P(V) by mean field's bound, fully factorised EP over the latent units, IS from mean field's q mixed with the uniform, and AIS with Gibbs sweeps, against exact enumeration of the latent states; mixture and Markov-chain bounds as metrics",
		DefaultSBN, RunSBN, PlotGrid)
}

// SBNConfig is the config of atlas/sbn. A data set is one random net
// (every weight and bias uniform on (−span, span), Lawrence L1127) with
// its visible units clamped at 0 (the pattern of Figs 2.4-2.5), named
// "net<i>"; each of its seeds (the variational starts and the samplers'
// streams) is a cell. The weights are known: the quantity is ln P(V) of
// the net, whose gold standard is the sum over the 2^hidden latent states
// (Net.ExactLogLik, eq. 2.6).
//
// Operations are edge terms, as mixq/samplers counts them (one weight
// times a parent's state or mean, with its exponentials): a mean-field
// iteration is Net.IterationOps(0), an M-component mixture's
// IterationOps(M), an EP sweep Net.EPSweepOps (and one more for the
// evidence at a rung), an AIS temperature one mcmc.Gibbs step
// (Net.StepOps), an importance draw Net.DrawOps.
type SBNConfig struct {
	experiments.Common
	// Layers are the layer sizes, top first; the last is visible.
	Layers []int   `toml:"layers" range:"[1,10] integer len=2..4"`
	Span   float64 `toml:"span" range:"(0,20]"`
	Nets   int     `toml:"nets" range:"[1,1e4] integer"`
	Seeds  int     `toml:"seeds" range:"[1,1000] integer"`
	// VBIterations is mean field's ladder: its bound (eq. 2.15) after each
	// number of iterations of one run from a uniform (0, 1) start (L1149).
	VBIterations []int `toml:"vb_iterations" range:"[1,1e5] integer len=1.. increasing"`
	// EPSweeps is EP's ladder (the clutter, logistic and hmm rows' key):
	// its ln P(V) after each number of sweeps of one run ([ep]).
	EPSweeps []int `toml:"ep_sweeps" range:"[1,1e5] integer len=1.. increasing"`
	// Components is the M of the mixture of mean-field distributions
	// (eq. 2.19) whose bound 𝓛_λ (eq. 2.25) is a metric of the row, with
	// the Markov-chain q's (eqs. 2.38-2.50, started from mean field,
	// L1141) when markov is true; vb stops both fits' coordinate ascent.
	Components int                `toml:"components" range:"[1,20] integer"`
	Markov     bool               `toml:"markov"`
	VB         config.FitSettings `toml:"vb"`
	// EP is fully factorised EP over the latent units (sbn.EP: one site
	// per unit's P(s_i | pa(s_i)), Minka 2001 §3.3), one run from the
	// uniform q, each step moved a fraction damping of the way: its
	// ln P(V) after each rung of ep_sweeps, the run carried on until no
	// site's log-odds move by more than tol in a sweep (the sweeps it
	// took: metrics ep_sweeps_*) or max_sweeps (note_ep_not_converged).
	// EP is deterministic: a net's seeds repeat it.
	EP epRun `toml:"ep"`
	// IS: draws from mean field's q at the ladder's last rung mixed with
	// the uniform distribution on the latent states at weight defensive;
	// the ladder is the draws of each run used.
	IS struct {
		config.IS
		Ladder    []int   `toml:"ladder" range:"[1,1e9] integer len=1.. increasing"`
		Defensive float64 `toml:"defensive" range:"(0,1)"`
	} `toml:"is"`
	// AIS from the prior P(H) to P(H)P(V|H) with one Gibbs sweep (§2.3,
	// L834) per temperature; one set of runs per rung of the ladder.
	AIS struct {
		config.AIS
		Ladder []int `toml:"ladder" range:"[2,1e9] integer len=1.. increasing"`
	} `toml:"ais"`
}

// DefaultSBN returns 20 random 2-4-6 nets of span 1 (Figs 2.4-2.5), 3
// seeds each.
func DefaultSBN() SBNConfig {
	c := SBNConfig{Layers: []int{2, 4, 6}, Span: 1, Nets: 20, Seeds: 3, VBIterations: []int{1, 2, 3, 5, 10, 20},
		Components: 5, Markov: true, VB: config.FitSettings{MaxIterations: 500, RelTol: 1e-7, MonotoneTol: 1e-9}}
	c.EPSweeps = []int{1, 2, 3, 5, 10, 20}
	c.EP.Damping, c.EP.MaxSweeps, c.EP.Tol = 1, 200, 1e-8
	c.IS.IS = config.IS{Runs: 16, Samples: 4000}
	c.IS.Ladder, c.IS.Defensive = []int{1, 4, 40, 400, 4000}, 0.1
	c.AIS.AIS = config.AIS{Runs: 16, Steps: 1000, AISSchedule: config.DefaultSchedule(config.ScheduleLinear)}
	c.AIS.Ladder = []int{2, 3, 10, 30, 100, 300, 1000}
	return c
}

// sbnMaxHidden bounds the latent units enumerated for the gold standard.
const sbnMaxHidden = 16

// hidden is the number of latent units of the layers.
func (c *SBNConfig) hidden() int {
	h := 0
	for _, k := range c.Layers[:len(c.Layers)-1] {
		h += k
	}
	return h
}

// Validate checks the layers against the enumeration and the ladders
// against their caps.
func (c *SBNConfig) Validate() error {
	switch {
	case c.hidden() > sbnMaxHidden:
		return config.FieldError("layers", c.Layers, fmt.Sprintf("has %d latent units; the exact ln P(V) enumerates at most %d", c.hidden(), sbnMaxHidden))
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

// sbnIterNs is the work of one mean-field iteration per unit-parent pair in
// nanoseconds (mixq's componentIterOps, BenchmarkFit of core/model/sbn).
const sbnIterNs = 400

// sbnEPOpNs is the work of one edge term of an EP sweep in nanoseconds
// (a ln σ per parent configuration, an exponential per state, the
// cavities' and q's log-partitions; BenchmarkEPSweep of core/model/sbn:
// 16-20 ns on a 2-4-6 net).
const sbnEPOpNs = 20

// epSweepOps is Net.EPSweepOps of a net of the layers (the weights do not
// enter), 0 for layers no net has.
func (c *SBNConfig) epSweepOps() float64 {
	net, err := sbn.Random(c.Layers, 1, rng.New(0, SBNID, "estimate"))
	if err != nil {
		return 0
	}
	return float64(net.EPSweepOps())
}

// Estimate counts the enumeration, the fits to their caps, EP to its cap
// and the samplers, per unit-parent pair (EP per edge term of its sweep).
func (c *SBNConfig) Estimate() experiments.Cost {
	units, pairs := 0, 0
	for l, k := range c.Layers {
		units += k
		if l > 0 {
			pairs += k * c.Layers[l-1]
		}
	}
	h := c.hidden()
	nets, seeds := experiments.Key("nets", c.Nets), experiments.Key("seeds", c.Seeds)
	pp := experiments.KeyN("layers", c.Layers, float64(max(pairs, 1)), "unit-parent pairs")
	var ladder int
	for _, k := range c.AIS.Ladder {
		ladder += k
	}
	M := float64(c.Components + 1)
	fits := float64(slices.Max(c.VBIterations)) + float64(c.VB.MaxIterations)*M*M
	if c.Markov {
		fits += 5 * float64(c.VB.MaxIterations+500) // the Markov chain's mean field and L-BFGS (500 at most)
	}
	return experiments.Cost{
		Cells:  []experiments.Factor{nets, seeds},
		Memory: []experiments.Part{experiments.Words("IS draws and weights", experiments.KeyN("layers", c.Layers, float64(units+1), "values a draw"), experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs))},
		Work: []experiments.Part{
			experiments.Ops("exact ln P(V)", 10, nets, seeds, experiments.KeyN("layers", c.Layers, math.Ldexp(float64(units+pairs), h), "latent states × weights")),
			experiments.Ops("fits", sbnIterNs, nets, seeds, pp, experiments.KeyN("vb.max_iterations", c.VB.MaxIterations, fits, "mean-field iterations, (M + 1)² per mixture iteration")),
			experiments.Ops("EP", sbnEPOpNs, nets, seeds, experiments.KeyN("layers", c.Layers, c.epSweepOps(), "edge terms an EP sweep"),
				experiments.KeyN("ep.max_sweeps", c.EP.MaxSweeps, float64(c.EP.MaxSweeps+len(c.EPSweeps)), "sweeps and the rungs' evidence passes")),
			experiments.Ops("IS", 20, nets, seeds, pp, experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs)),
			experiments.Ops("AIS", 60, nets, seeds, pp, experiments.KeyN("ais.ladder", c.AIS.Ladder, float64(ladder), "steps summed over the ladder"), experiments.Key("ais.runs", c.AIS.Runs)),
		},
	}
}

// sbnCriteria are the grid's criteria (VB below the gold standard, IS and
// AIS within 3 SE) and the richer bounds below it.
func sbnCriteria() results.Criteria {
	return append(Criteria(true, IS, AIS), results.Criterion{ID: "sbn-richer-q-below-gold",
		Text:   "mixture and Markov-chain bounds above the exact ln P(V) by more than 1e-9 nats, plus fits that failed",
		Target: results.Equal(0)}.AsSanity())
}

// Criteria states the criteria of a run.
func (c *SBNConfig) Criteria(*experiments.Env) (results.Criteria, error) { return sbnCriteria(), nil }

// sbnCell is one net and seed: a knownCell and the Markov chain's bound
// (NaN when not fitted or failed).
type sbnCell struct {
	knownCell
	Markov experiments.Float `json:"markov"`
}

// meanAbsErr is (1/h) Σ_k |a_k − b_k| over the first h entries of a
// (latent means against the exact ⟨h_k⟩, mixq/samplers' norm).
func meanAbsErr(a, b []float64) float64 {
	s := 0.0
	for k := range b {
		s += math.Abs(a[k] - b[k])
	}
	return s / float64(len(b))
}

// runSBNCell draws net i, enumerates its ln P(V) and latent means, and
// runs every method at seed.
func (c *SBNConfig) runSBNCell(i int, seed uint64) (sbnCell, error) {
	name := fmt.Sprintf("net%03d", i)
	sd := strconv.FormatUint(seed, 10)
	nan := math.NaN()
	cl := sbnCell{knownCell: knownCell{rowCell: rowCell{Dataset: name, Seed: seed, GoldKind: GoldEnumeration}, Mix: experiments.Float(nan), MixOps: experiments.Float(nan)}, Markov: experiments.Float(nan)}
	net, err := sbn.Random(c.Layers, c.Span, rng.New(c.Seed, SBNID, "net", name))
	if err != nil {
		return cl, err
	}
	v := make([]float64, net.Visible())
	means, L, err := net.ExactMeans(v)
	if err != nil {
		return cl, err
	}
	cl.Gold = experiments.Float(L)
	post, err := sbn.NewPosterior(net, v)
	if err != nil {
		return cl, err
	}
	stream := func(method string, more ...string) []string {
		return append([]string{SBNID, name, "seed", sd, method}, more...)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	// Mean field along its iterations (one run, a fixed budget).
	t0 := cpuNow()
	mf, err := sbn.NewMeanField(net, v, rng.New(c.Seed, stream("vb")...))
	if err != nil {
		return cl, err
	}
	top := slices.Max(c.VBIterations)
	f, me := map[int]float64{}, map[int]float64{}
	set := config.FixedBudget(top).Settings(nil, mf)
	set.Recorder = func(it vb.Iteration) {
		if b := it.Iter + 1; slices.Contains(c.VBIterations, b) {
			f[b], me[b] = it.F, meanAbsErr(mf.Mu(), means)
		}
	}
	if res := vb.Run(mf, set); res.Error() != nil {
		return cl, fmt.Errorf("%s seed %d: mean field: %w", name, seed, res.Error())
	}
	cpu := cpuNow() - t0
	iterOps := float64(net.IterationOps(0))
	for _, b := range c.VBIterations {
		cl.add(VB, b, f[b], nan, float64(b)*iterOps, secs(cpu*float64(b)/float64(top)), me[b], nan)
	}

	// EP from the uniform q along its sweeps, on to convergence.
	if err := c.runSBNEP(&cl, net, v, means); err != nil {
		return cl, fmt.Errorf("%s seed %d: EP: %w", name, seed, err)
	}

	// The richer q: the M-component mixture and the Markov chain.
	fs := sbn.Settings{Components: c.Components, VB: c.VB.Settings(nil, nil)}
	if fit, err := sbn.FitPattern(net, v, fs, rng.New(c.Seed, stream("mixture")...)); err != nil {
		cl.Failed++
	} else {
		cl.Mix, cl.MixOps = experiments.Float(fit.Bound), experiments.Float(float64(fit.Iterations*net.IterationOps(c.Components)))
		if fit.Bound > L+boundTolSBN {
			cl.Failed++
		}
	}
	if c.Markov {
		fit, err := sbn.FitMarkovPattern(net, v, sbn.Settings{VB: c.VB.Settings(nil, nil)}, sbn.MarkovSettings{}, rng.New(c.Seed, stream("markov")...))
		if err != nil {
			cl.Failed++
		} else {
			cl.Markov = experiments.Float(fit.Bound)
			if fit.Bound > L+boundTolSBN {
				cl.Failed++
			}
		}
	}

	// IS from mean field's q (its last rung) mixed with the uniform.
	h := net.Hidden()
	q, err := post.Bernoulli(mf.Mu())
	if err != nil {
		return cl, err
	}
	half := make([]float64, h)
	for k := range half {
		half[k] = 0.5
	}
	u, err := post.Bernoulli(half)
	if err != nil {
		return cl, err
	}
	// The samplers' errors from their self-normalised means of the latent
	// units (the first h coordinates of a state).
	moments := func(mean, _ []float64) (float64, float64) { return meanAbsErr(mean, means), nan }
	isRungs(&cl.rowCell, c.IS.IS, c.IS.Ladder, is.RunStreams(c.Seed, stream("is")...), is.NewDefensive(q, u, c.IS.Defensive), post,
		float64(net.DrawOps()), moments)

	// AIS from the prior with a Gibbs sweep per temperature; the weighted
	// final states give its latent means.
	sampler := ais.Sampler[[]float64]{Model: post, NewKernel: func() mcmc.Kernel[[]float64] {
		return &mcmc.Gibbs[[]float64]{Target: post, Sweeper: post}
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
		cl.add(AIS, k, lz, max(se, ais.LogWSE(lw)), float64(a.Runs*k*net.StepOps()), cpu, me, ve)
	}
	return cl, nil
}

// runSBNEP runs EP on pattern v of net along ep_sweeps (epRun.ladder: its
// ln P(V) and the mean error of its marginals after each rung) and records
// the sweeps until no site's log-odds moved by more than ep.tol.
func (c *SBNConfig) runSBNEP(cl *sbnCell, net *sbn.Net, v, means []float64) error {
	ep, err := sbn.NewEP(net, v, c.EP.settings())
	if err != nil {
		return err
	}
	cl.EPSweeps, err = c.EP.ladder(&cl.rowCell, c.EPSweeps, ep, ep.LogLik, float64(net.EPSweepOps()), means)
	return err
}

// boundTolSBN is the margin by which a bound may exceed the exact ln P(V):
// rounding of sums of a few dozen terms (mixq's boundTol).
const boundTolSBN = 1e-9

// RunSBN runs every (net, seed) cell and writes the grid.
func RunSBN(env *experiments.Env, c *SBNConfig) error {
	names, keys := setSeedCells(c.Nets, c.Seeds, 1, func(i, s int) string { return fmt.Sprintf("net%03d-s%02d", i, s+1) })
	cells, complete, err := experiments.RunAllCells(env, names, nil, func(k int) (sbnCell, error) {
		return c.runSBNCell(keys[k].set, keys[k].seed)
	})
	if err != nil || !complete {
		return err
	}
	s := &results.Summary{Metrics: map[string]float64{}, Criteria: sbnCriteria()}
	absent := knownAbsent("ln P(V) of one net")
	known := make([]knownCell, len(cells))
	var markovErr []float64
	for i, cl := range cells {
		known[i] = cl.knownCell
		if !math.IsNaN(float64(cl.Markov)) {
			markovErr = append(markovErr, float64(cl.Gold-cl.Markov))
		}
	}
	rows, bad := knownMetrics(s, known, c.Components)
	mix := fmt.Sprintf("mix%d", c.Components)
	if len(markovErr) > 0 {
		s.SetMetric("err_markov_median", results.Median(markovErr))
	}
	noteMetrics(s, rows)
	gold, est := rowEstimates(rows)
	if _, err := WriteGrid(env.Dir, s, "sbn", gold, est, absent); err != nil {
		return err
	}
	s.Judge(sbnCriteria().Get("sbn-richer-q-below-gold"), float64(bad))
	s.AddFindingsFromChecks(map[string]string{
		"within3se-is":  "mean field's q misses posterior mass that the uniform share does not cover at these draws, so the weights' spread understates the error",
		"within3se-ais": "too few temperatures for one Gibbs sweep each: the runs' log weights are biased low beyond their spread",
	})
	markov := "no Markov-chain q (markov = false)"
	if c.Markov {
		markov = "the Markov-chain q within each latent layer (eqs. 2.38-2.50) by L-BFGS from a mean-field solution (L1141; the metric err_markov_median)"
	}
	return env.WriteSummary(s, fmt.Sprintf("Atlas row: sigmoid belief networks with known weights (Lawrence 2000 ch. 2, core/model/sbn). Data sets: %d random %v nets, every weight and bias U(−%g, %g) (L1127), the visible units clamped at 0 (Figs 2.4-2.5), %d seeds each (the variational starts and the samplers' streams). "+
		"Gold standard: ln P(V) by enumerating the 2^%d latent states (Net.ExactLogLik, eq. 2.6), and the exact latent means. "+
		"VB: mean field's bound (eq. 2.15, the Saul-Jaakkola-Jordan bound with its ξ) after %v iterations of one run from a uniform (0, 1) start; beside it, not grid columns, the %d-component mixture's bound 𝓛_λ (eq. 2.25; metrics err_%s_median and ops_%s_median, gold − bound) and %s, both stopped by [vb]. "+
		"EP: fully factorised EP over the latent units (sbn.EP; Minka 2001 §3.3, loopy belief propagation by §4.4), one site per unit's P(s_i | pa(s_i)) projected by enumerating the states of the latent units it touches, from the uniform q with damping %g, ln P(V) = ln Z_EP + h ln 2 after %v sweeps (not a bound; deterministic, so a net's seeds repeat it); run on until no site's log-odds moved by more than %g or %d sweeps: %d of %d cells converged (metrics ep_sweeps_median and ep_sweeps_max; note_ep_not_converged counts the others). "+
		"IS: %d runs of up to %d draws from mean field's q at its last rung mixed with the uniform distribution on the latent states at %g (is.Defensive: a μ_k near 0 or 1 gives states of posterior mass a vanishing Q, and the uniform share bounds every weight by 2^h/ε times P(V)); "+
		"AIS: from the prior P(H) with one Gibbs sweep (§2.3) per temperature, %d runs per rung of %v temperatures, %s schedule, SE the larger of the delta method's and sd(ln w)/√G. "+
		"BIC, CS and Laplace do not apply (the weights are known: no parameter posterior). Posterior error: mean |⟨h_k⟩ − exact| over the latent units (VB: μ; EP: q's means; IS: self-normalised means; AIS: the means of its runs' final states weighted by their w, Neal 2001 §3); no variance error (a binary unit's variance is fixed by its mean). "+
		"Operations: edge terms as mixq/samplers counts them (Net.IterationOps per mean-field iteration, Net.EPSweepOps per EP sweep and per evidence pass, Net.StepOps per Gibbs step, Net.DrawOps per importance draw).",
		c.Nets, c.Layers, c.Span, c.Span, c.Seeds, c.hidden(), c.VBIterations, c.Components, mix, mix, markov,
		c.EP.Damping, c.EPSweeps, c.EP.Tol, c.EP.MaxSweeps, int(s.Metrics["ep_converged"]), len(cells),
		c.IS.Runs, c.IS.Samples, c.IS.Defensive, c.AIS.Runs, c.AIS.Ladder, c.AIS.Schedule))
}
