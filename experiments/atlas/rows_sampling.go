package atlas

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/is"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// What the rows clutter, logistic and dag share: a cell (its estimates
// as grid_cells.go stores them), importance sampling from a VB posterior along a ladder of draws,
// and the cells flattened for WriteGrid.

// rowCell is one data set and seed of a row: its gold standard and every
// method's estimates.
type rowCell struct {
	Dataset      string
	Seed         uint64
	Gold, GoldSE experiments.Float
	GoldKind     string
	Est          []cellEst
	Notes        map[string]int `json:",omitempty"`
	// BICp is the DAG row's BICp, which is not a column of the grid.
	BICp experiments.Float `json:",omitempty"`
	// GoldMeanSE is the largest Monte Carlo standard error of the gold
	// standard's posterior mean, where its moments are sampled.
	GoldMeanSE experiments.Float `json:",omitempty"`
	// Alt are estimates of ln p(D) that are not columns of the grid (a
	// method's variant), by name: the summary's metric err_<name>_median
	// is their median |Alt − Gold| over the cells (altMetrics).
	Alt map[string]experiments.Float `json:",omitempty"`
}

// cellKey is one (data set, seed) cell of a row.
type cellKey struct {
	set  int
	seed uint64
}

// setSeedCells lists the cells of sets data sets × seeds seeds, data set
// major: seed s (0-based) of set i is named name(i, s) and seeded seed0 + s.
func setSeedCells(sets, seeds int, seed0 uint64, name func(i, s int) string) ([]string, []cellKey) {
	var names []string
	var keys []cellKey
	for i := range sets {
		for s := range seeds {
			names = append(names, name(i, s))
			keys = append(keys, cellKey{i, seed0 + uint64(s)})
		}
	}
	return names, keys
}

// knownCell is a cell of a row whose weights are known (sbn, bm): the
// grid's estimates, the mixture of mean-field distributions' bound (NaN
// when not fitted or failed) with its operations, the richer fits that
// failed or rose above the exact value, and the sweeps EP took to converge
// (0: not within ep.max_sweeps).
type knownCell struct {
	rowCell
	Mix      experiments.Float `json:"mix"`
	MixOps   experiments.Float `json:"mix_ops"`
	Failed   int               `json:"failed"`
	EPSweeps int               `json:"ep_sweeps"`
}

// knownMetrics sets the metrics of the known-weights rows' cells: the
// mixture's error and operations (err_mix<M>_median, ops_mix<M>_median,
// M components) and EP's convergence (ep_converged, ep_sweeps_median,
// ep_sweeps_max), and returns the cells' grid parts and the failed fits.
func knownMetrics(s *results.Summary, cells []knownCell, components int) ([]rowCell, int) {
	rows := make([]rowCell, len(cells))
	var mixErr, mixOps, epSweeps []float64
	bad := 0
	for i, cl := range cells {
		rows[i] = cl.rowCell
		bad += cl.Failed
		if cl.EPSweeps > 0 {
			epSweeps = append(epSweeps, float64(cl.EPSweeps))
		}
		if !math.IsNaN(float64(cl.Mix)) {
			mixErr, mixOps = append(mixErr, float64(cl.Gold-cl.Mix)), append(mixOps, float64(cl.MixOps))
		}
	}
	mix := "mix" + strconv.Itoa(components)
	if len(mixErr) > 0 {
		s.SetMetric("err_"+mix+"_median", results.Median(mixErr))
		s.SetMetric("ops_"+mix+"_median", results.Median(mixOps))
	}
	s.SetMetric("ep_converged", float64(len(epSweeps)))
	if len(epSweeps) > 0 {
		s.SetMetric("ep_sweeps_median", results.Median(epSweeps))
		s.SetMetric("ep_sweeps_max", slices.Max(epSweeps))
	}
	return rows, bad
}

// knownAbsent are the empty cells of a known-weights row whose quantity
// (ln P(V) of one net, ln Z of one machine) has no parameter posterior.
func knownAbsent(quantity string) []Absent {
	why := "not applicable: the weights are known; the question is " + quantity + ", with no parameter posterior"
	return []Absent{{Method: BIC, Why: why}, {Method: CS, Why: why}, {Method: Laplace, Why: why}}
}

// alt records the variant estimate lnz under name.
func (cl *rowCell) alt(name string, lnz float64) {
	if cl.Alt == nil {
		cl.Alt = map[string]experiments.Float{}
	}
	cl.Alt[name] = experiments.Float(lnz)
}

// altMetrics sets err_<name>_median, the median |Alt − Gold| over the
// cells that have the variant, for every variant name.
func altMetrics(s *results.Summary, cells []rowCell) {
	errs := map[string][]float64{}
	for _, cl := range cells {
		for k, v := range cl.Alt {
			errs[k] = append(errs[k], math.Abs(float64(v-cl.Gold)))
		}
	}
	for k, e := range errs {
		s.SetMetric("err_"+k+"_median", results.Median(e))
	}
}

// hmcLadder is the [ais] table of a row whose AIS runs HMC from the prior:
// the runs and schedule, the kernel, and the ladder of temperatures (one
// set of runs per rung).
type hmcLadder struct {
	config.AIS
	config.HMC
	Ladder []int `toml:"ladder" range:"[2,1e9] integer len=1.. increasing"`
}

// epRun is the [ep] table of a row whose EP is core/approx.FamilyEP (the
// ladder of sweeps is the row's ep_sweeps): each site's step moved a
// fraction damping of the way, a run stopped when no site's natural
// parameters move by more than tol in a sweep, or at max_sweeps (at least
// the ladder's last rung).
type epRun struct {
	Damping   float64 `toml:"damping" range:"(0,1]"`
	MaxSweeps int     `toml:"max_sweeps" range:"[1,1e5] integer"`
	Tol       float64 `toml:"tol" range:"(0,1e-2]"`
}

// settings are the approx.EPSettings of the table.
func (e epRun) settings() approx.EPSettings {
	return approx.EPSettings{Damping: e.Damping, MaxIterations: e.MaxSweeps, Tol: e.Tol}
}

// epRunner is an EP on core/approx.FamilyEP as the rows run it.
type epRunner interface {
	Sweep() (float64, error)
	Means() []float64
	Skipped() int
}

// ladder runs ep under the table and adds its ln Z (logZ) and the mean
// |error| of its means against gold after each rung of sweeps (ops: the
// sweeps and the rung's evidence pass at sweepOps each; CPU: the sweeps'
// and this rung's evidence, the earlier rungs' evidence not carried on),
// and returns the sweeps until no site's natural parameters moved by more
// than tol (0: not within max_sweeps), sweeping past the ladder to at most
// max_sweeps. A rung whose evidence is undefined has no estimate
// (note_ep_no_evidence); skipped site updates are counted in
// note_ep_skipped, runs that did not converge in note_ep_not_converged.
// The caller has locked its goroutine to its thread. The sbn and bm
// rows run their EP with it.
func (e epRun) ladder(cl *rowCell, sweeps []int, ep epRunner, logZ func() (float64, error), sweepOps float64, gold []float64) (int, error) {
	last := slices.Max(sweeps)
	var sweepCPU time.Duration
	converged := 0
	for k := 1; k <= e.MaxSweeps && (k <= last || converged == 0); k++ {
		start := startClock()
		change, err := ep.Sweep()
		sweepCPU += start.elapsed()
		if err != nil {
			return 0, err
		}
		if converged == 0 && change <= e.Tol {
			converged = k
		}
		if !slices.Contains(sweeps, k) {
			continue
		}
		start = startClock()
		lz, err := logZ()
		cpu := sweepCPU + start.elapsed()
		if err != nil {
			cl.note("ep_no_evidence")
			continue
		}
		cl.add(EP, k, lz, math.NaN(), float64(k+1)*sweepOps, cpu, meanAbsErr(ep.Means(), gold), math.NaN())
	}
	if converged == 0 {
		cl.note("ep_not_converged")
	}
	for range ep.Skipped() {
		cl.note("ep_skipped")
	}
	return converged, nil
}

// goldHMC is the [gold_hmc] table of a row whose gold posterior moments
// are sampled: chains HMC chains (the leapfrog steps and step of the
// embedded keys, the step in the row's units), burn transitions
// discarded, then samples kept.
type goldHMC struct {
	config.HMC
	Chains  int `toml:"chains" range:"[2,100]"`
	Burn    int `toml:"burn" range:"[0,1e7]"`
	Samples int `toml:"samples" range:"[10,1e7]"`
}

// moments runs the chains on target from x0 (chain c from
// mcmc.ChainStream(seed, c, labels…), one worker: the cell's thread) with
// the step step(β) at β = 1 and returns the mean and variance of the
// coordinates coords of the kept states (nil: every coordinate), pooled
// over the chains, and the largest Monte Carlo standard error of a mean,
// sd_i/√ESS_i (mcmc.ESSChains).
func (g goldHMC) moments(target mcmc.GradTempered, x0 []float64, coords []int, step func(beta float64) float64, seed uint64, labels ...string) (mean, vr []float64, se float64, err error) {
	if coords == nil {
		coords = make([]int, len(x0))
		for i := range coords {
			coords[i] = i
		}
	}
	plan := mcmc.Plan{Burn: g.Burn, Keep: g.Samples}
	traces, err := mcmc.Chains(g.Chains, 1, seed, labels, func(_ int, rnd *rand.Rand) ([][]float64, error) {
		h := &mcmc.HMC{Target: target, Steps: g.Leapfrog, StepSize: step}
		pt := mcmc.NewPoint[[]float64](target, slices.Clone(x0))
		tr := make([][]float64, len(coords))
		for i := range tr {
			tr[i] = make([]float64, g.Samples)
		}
		mcmc.Run[[]float64](h, &pt, 1, plan, rnd, func(k int, pt *mcmc.Point[[]float64]) {
			for i, c := range coords {
				tr[i][k] = pt.X[c]
			}
		})
		return tr, nil
	})
	if err != nil {
		return nil, nil, 0, err
	}
	mean, vr = make([]float64, len(coords)), make([]float64, len(coords))
	n := float64(g.Chains * g.Samples)
	for i := range coords {
		chains := make([][]float64, g.Chains)
		for ch, tr := range traces {
			chains[ch] = tr[i]
			for _, v := range tr[i] {
				mean[i] += v / n
			}
		}
		for _, tr := range traces {
			for _, v := range tr[i] {
				vr[i] += (v - mean[i]) * (v - mean[i]) / n
			}
		}
		se = math.Max(se, math.Sqrt(vr[i]/mcmc.ESSChains(chains)))
	}
	return mean, vr, se, nil
}

// cpuNow is the calling thread's CPU seconds (the caller locks its
// thread), or the wall clock's where the system does not say.
func cpuNow() float64 {
	if s, ok := results.ThreadCPUSeconds(); ok {
		return s
	}
	return float64(time.Now().UnixNano()) / 1e9
}

// stopwatch is a reading of the calling thread's CPU clock (cpuNow); a
// cell locks its goroutine to its thread so that its readings are of one
// thread and of its own work alone.
type stopwatch float64

func startClock() stopwatch { return stopwatch(cpuNow()) }

// elapsed is the thread's CPU time since s.
func (s stopwatch) elapsed() time.Duration {
	return time.Duration((cpuNow() - float64(s)) * float64(time.Second))
}

func (cl *rowCell) add(method string, budget int, lnz, se, ops float64, cpu time.Duration, meanErr, varErr float64) {
	cl.Est = append(cl.Est, cellEst{Dataset: cl.Dataset, Seed: cl.Seed, Method: method, Budget: budget, LnZ: experiments.Float(lnz), SE: experiments.Float(se), Ops: experiments.Float(ops),
		CPUSeconds: experiments.Float(cpu.Seconds()), MeanErr: experiments.Float(meanErr), VarErr: experiments.Float(varErr)})
}

func (cl *rowCell) note(key string) {
	if cl.Notes == nil {
		cl.Notes = map[string]int{}
	}
	cl.Notes[key]++
}

// dist2 is the Euclidean distance of a and b.
func dist2(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(s)
}

// studentTFlops is the count charged for one draw from a d-dimensional
// Student t and its density: a triangular solve and product (2d²), d
// normal draws, a gamma draw and the density's log (3 transcendentals at
// core/approx's 20).
func studentTFlops(d int) float64 { return float64(2*d*d+4*d) + 60 }

// gaussFlops is the count of a d-dimensional Gaussian's density at a point
// (a triangular solve, a square norm and a log).
func gaussFlops(d int) float64 { return float64(d*d+3*d) + 20 }

// momentErrs returns a row's posterior errors (an Estimate's MeanErr and
// VarErr, in the row's norm against its gold moments) from a sampler's
// self-normalised means E[θ_i] and second moments E[θ_i²] of the
// coordinates it was given.
type momentErrs func(mean, second []float64) (meanErr, varErr float64)

// aisErrs returns the posterior errors that moments gives from the
// weighted final states of AIS runs (ais.Moments: x[g] holds the
// coordinates of run g's final state that moments is about), NaN where no
// run's weight is positive and finite.
func aisErrs(runs []ais.Run, x [][]float64, moments momentErrs) (meanErr, varErr float64) {
	mean, second, ok := ais.Moments(runs, x)
	if !ok {
		return math.NaN(), math.NaN()
	}
	return moments(mean, second)
}

// isRungs makes s.Runs importance-sampling runs of s.Samples draws from
// prop (run r from stream(r)) and adds an estimate per rung m of ladder to
// cl: ln p(D) pooled over the first m draws of every run (is.Summarize's
// Pooled), its standard error from the spread of the R runs' estimates
// (Summarize's SE), the budget R·m draws at perDraw operations each, the
// CPU time of the draws in proportion, and the posterior errors that
// moments returns from the self-normalised mean and second moments
// (E[θ_i²], is.Moments) of the draws (moments nil: NaN).
func isRungs(cl *rowCell, s config.IS, ladder []int, stream func(run int) *rand.Rand, prop is.Proposal, target is.Target,
	perDraw float64, moments momentErrs) {
	isRungsOf(cl, s, ladder, stream, prop, target, perDraw, nil, moments)
}

// isRungsOf is isRungs with the moments taken of feat(θ) (the functionals
// the row's posterior errors are about, e.g. the products Λ_qΛ_t of the
// factor analyser) instead of θ itself; feat nil is the identity.
func isRungsOf(cl *rowCell, s config.IS, ladder []int, stream func(run int) *rand.Rand, prop is.Proposal, target is.Target,
	perDraw float64, feat func(theta []float64) []float64, moments momentErrs) {
	d := prop.Dim()
	start := startClock()
	lw := make([][]float64, s.Runs)
	th := make([][]float64, s.Runs)
	for r := range s.Runs {
		rnd := stream(r)
		lw[r] = make([]float64, s.Samples)
		th[r] = make([]float64, s.Samples*d)
		for m := range s.Samples {
			lw[r][m] = is.LogWeight(th[r][m*d:(m+1)*d], prop, target, rnd)
		}
	}
	cpu := start.elapsed()
	for _, m := range ladder {
		ests := make([]is.Estimate, s.Runs)
		for r := range s.Runs {
			ests[r] = is.EstimateFrom(lw[r][:m])
		}
		sum := is.Summarize(ests)
		me, ve := math.NaN(), math.NaN()
		if moments != nil {
			// The first m draws of every run, in run order.
			lws, xs := make([]float64, 0, s.Runs*m), make([][]float64, 0, s.Runs*m)
			for r := range s.Runs {
				lws = append(lws, lw[r][:m]...)
				for k := range m {
					x := th[r][k*d : (k+1)*d]
					if feat != nil {
						x = feat(x)
					}
					xs = append(xs, x)
				}
			}
			if mean, second, ok := is.Moments(lws, xs); ok {
				me, ve = moments(mean, second)
			}
		}
		frac := float64(m) / float64(s.Samples)
		cl.add(IS, s.Runs*m, sum.Pooled, sum.SE, float64(s.Runs*m)*perDraw, time.Duration(frac*float64(cpu)), me, ve)
	}
}

// rowEstimates flattens a row's cells into the grid's estimates and gold
// standards.
func rowEstimates(cells []rowCell) ([]GoldStandard, []Estimate) {
	var gold []GoldStandard
	var est []Estimate
	for _, cl := range cells {
		gold = append(gold, GoldStandard{Dataset: cl.Dataset, Seed: cl.Seed, LnZ: float64(cl.Gold), SE: float64(cl.GoldSE), Kind: cl.GoldKind})
		for _, e := range cl.Est {
			est = append(est, e.estimate())
		}
	}
	return gold, est
}
