package atlas

// atlas/hmm: the discrete-output Bayesian HMM of Beal (2003) chapter 3
// (core/model/hmm) against the exact evidence by enumerating the K^T
// hidden-state paths.

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/is"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// HMMID is the hidden Markov models' row of the atlas.
const HMMID = "atlas/hmm"

func init() {
	experiments.Add(HMMID, "atlas row: the discrete Bayesian HMM (chapter 3's model), ln p(y|K) by VB, BIC, CS, Laplace (log-ratio coordinates, + ln K!), EP (a site per sequence), IS from VB's q (over every relabelling) and AIS with HMC against the exact sum over the K^T hidden paths",
		DefaultHMM, RunHMM, PlotGrid)
}

// HMMConfig is the config of atlas/hmm. Its data sets are data_sets draws,
// for each K_true of true_k, of sequences sequences of length symbols over
// an alphabet of p symbols from a K_true-state HMM: π uniform, a_jj = stay
// and the rest of a row equal, state j emitting symbol j mod p with
// probability purity and the others equally. Each (set, K) of k is a data
// set of the grid, named "kt<K_true>-d<i>/K=<K>", and each of its seeds a
// cell.
//
// The gold standard is ln p(y|K) by enumerating the K^T joint hidden paths
// (hmm.ExactLogEvidence, eq. 3.44; T = sequences × length symbols), which
// Validate keeps within hmm.MaxEvidencePaths.
//
// Operations are counted in flops of the recursions: a forward pass over
// T symbols is T(2K² + 3K), a forward-backward pass with its expected
// counts three times that, a Dirichlet draw or density 30 per entry.
type HMMConfig struct {
	experiments.Common
	TrueK     []int   `toml:"true_k" range:"[1,4] len=1.."`
	DataSets  int     `toml:"data_sets" range:"[1,100]"`
	K         []int   `toml:"k" range:"[1,4] len=1.. increasing"`
	P         int     `toml:"p" range:"[2,10]"`
	Sequences int     `toml:"sequences" range:"[1,100]"`
	Length    int     `toml:"length" range:"[1,100]"`
	Stay      float64 `toml:"stay" range:"[0,1]"`
	Purity    float64 `toml:"purity" range:"[0,1]"`
	Seeds     int     `toml:"seeds" range:"[1,1000]"`
	// Prior holds the symmetric strengths f^(π), f^(A), f^(C) of eq. 3.43
	// (hmm.SymmetricPrior: each entry f/K or f/p).
	Prior struct {
		Pi float64 `toml:"pi" range:"[1e-3,1e3]"`
		A  float64 `toml:"a" range:"[1e-3,1e3]"`
		C  float64 `toml:"c" range:"[1e-3,1e3]"`
	} `toml:"prior"`
	// Restarts are the starts of VBEM (hmm.RandomStart with
	// start_iterations Baum-Welch iterations) and of EM (random θ).
	Restarts        int `toml:"restarts" range:"[1,100]"`
	StartIterations int `toml:"start_iterations" range:"[0,1e4]"`
	// VBIterations is VB's ladder: the best F over the restarts after each.
	VBIterations []int `toml:"vb_iterations" range:"[1,1e5] len=1.. increasing"`
	// EMIterations caps each Baum-Welch run (the point of BIC and CS; it
	// stops earlier at a relative change of 10⁻⁹).
	EMIterations int `toml:"em_iterations" range:"[2,1e5]"`
	// IS: the equal mixture over the K! relabellings of the best VB
	// posterior's Dirichlets (counts divided by widen²), mixed with the
	// prior at weight defensive; the ladder is the draws of each run used.
	IS struct {
		config.IS
		Ladder    []int   `toml:"ladder" range:"[1,1e9] len=1.. increasing"`
		Defensive float64 `toml:"defensive" range:"(0,1)"`
		// Widen divides every Dirichlet count of q by widen² (about widen²
		// times the variance): VB's q is narrower than the posterior, whose
		// tails are the prior's at every face of the simplex.
		Widen float64 `toml:"widen" range:"[1,10]"`
	} `toml:"is"`
	// AIS from the prior with HMC on hmm.Annealed's log-ratio coordinates,
	// step step/√(1 + β T/(4K)) (the heuristic of samplers/ais's HMM
	// test); one set of runs per rung of the ladder.
	AIS hmcLadder `toml:"ais"`
	// EPSweeps is EP's ladder (the clutter and logistic rows' key): EP
	// over θ with one site per sequence (hmm.EP: the sum over its K^{T_i}
	// paths), from the prior, undamped, its evidence after each rung.
	EPSweeps []int `toml:"ep_sweeps" range:"[1,1e4] len=1.. increasing"`
}

// DefaultHMM returns two data sets of two 6-symbol sequences over 3
// symbols from each of 1-, 2- and 3-state HMMs, fitted with K = 1, 2, 3.
func DefaultHMM() HMMConfig {
	c := HMMConfig{Common: experiments.Common{Seed: 3604}, TrueK: []int{1, 2, 3}, DataSets: 2, K: []int{1, 2, 3}, P: 3,
		Sequences: 2, Length: 6, Stay: 0.8, Purity: 0.8, Seeds: 3, Restarts: 3, StartIterations: hmm.DefaultStartIterations,
		VBIterations: []int{1, 2, 5, 10, 20, 50, 100}, EMIterations: 500}
	c.Prior.Pi, c.Prior.A, c.Prior.C = 2, 2, 2
	c.IS.IS = config.IS{Runs: 32, Samples: 2500}
	c.IS.Ladder, c.IS.Defensive, c.IS.Widen = []int{10, 100, 1000, 2500}, 0.05, 1.5
	c.AIS.AIS = config.AIS{Runs: 16, Steps: 1000, AISSchedule: config.DefaultSchedule(config.ScheduleNonlinear)}
	c.AIS.HMC = config.HMC{Leapfrog: 10, Step: 0.4}
	c.AIS.Ladder = []int{10, 30, 100, 300, 1000}
	c.EPSweeps = []int{1, 2, 5, 10, 20, 50}
	return c
}

// symbols is T, the symbols of a data set.
func (c *HMMConfig) symbols() int { return c.Sequences * c.Length }

// Validate checks the enumeration's size and the ladders.
func (c *HMMConfig) Validate() error {
	if n, ok := hmm.EvidencePaths(slices.Max(c.K), c.symbols()); !ok {
		return config.FieldError("length", c.Length, fmt.Sprintf("sequences × length = %d symbols need %d^%d > %d paths at K = %d (hmm.MaxEvidencePaths); shorten them",
			c.symbols(), slices.Max(c.K), c.symbols(), n, slices.Max(c.K)))
	}
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

// hmmFwdOps is the flops of a forward pass over T symbols with K states,
// and hmmFBOps of a forward-backward pass with its expected counts.
func hmmFwdOps(t, k int) float64 { return float64(t * (2*k*k + 3*k)) }
func hmmFBOps(t, k int) float64  { return 3 * hmmFwdOps(t, k) }

// Estimate counts the enumeration and every method's passes at the
// largest K (see HMMConfig for the units).
func (c *HMMConfig) Estimate() experiments.Cost {
	kmax := slices.Max(c.K)
	paths, _ := hmm.EvidencePaths(kmax, c.symbols())
	sets := experiments.KeyN("true_k", c.TrueK, float64(len(c.TrueK)), "true models")
	draws := experiments.Key("data_sets", c.DataSets)
	ks := experiments.KeyN("k", c.K, float64(len(c.K)), "values of K")
	seeds := experiments.Key("seeds", c.Seeds)
	fb := experiments.KeyN("length", c.Length, hmmFBOps(c.symbols(), kmax), "flops a forward-backward pass (largest K)")
	var ladder int
	for _, s := range c.AIS.Ladder {
		ladder += s
	}
	fact := math.Gamma(float64(kmax) + 1)
	dim := float64(hmm.ParamDim(kmax, c.P))
	return experiments.Cost{
		Cells:  []experiments.Factor{sets, draws, ks, seeds},
		Memory: []experiments.Part{experiments.Words("IS draws and weights", experiments.KeyN("p", c.P, dim+1, "values a draw"), experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs))},
		Work: []experiments.Part{
			experiments.Ops("the exact sums", 30, sets, draws, ks, seeds, experiments.KeyN("length", c.Length, float64(paths), "K^T paths (largest K)")),
			experiments.Ops("VB and EM", 1, sets, draws, ks, seeds, experiments.Key("restarts", c.Restarts), fb,
				experiments.KeyN("vb_iterations", c.VBIterations, float64(slices.Max(c.VBIterations)+c.EMIterations+c.StartIterations), "iterations")),
			experiments.Ops("IS", 1, sets, draws, ks, seeds, experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs),
				experiments.KeyN("k", c.K, hmmFwdOps(c.symbols(), kmax)+(fact+2)*dim*30, "flops a draw")),
			experiments.Ops("EP", 1, sets, draws, ks, seeds, experiments.KeyN("ep_sweeps", c.EPSweeps, float64(2*slices.Max(c.EPSweeps)), "sweeps (from the prior and from VB's q)"),
				experiments.KeyN("length", c.Length, 16*float64(c.Sequences)*math.Pow(float64(kmax), float64(c.Length))*float64(c.Length), "flops a sweep (largest K)")),
			experiments.Ops("AIS", 1, sets, draws, ks, seeds, experiments.KeyN("ais.ladder", c.AIS.Ladder, float64(ladder), "steps summed over the ladder"),
				experiments.Key("ais.runs", c.AIS.Runs), experiments.Key("ais.leapfrog", c.AIS.Leapfrog+1), fb),
		},
	}
}

// Criteria states the criteria of a run.
func (c *HMMConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return Criteria(true, IS, AIS), nil
}

// hmmTrue returns the K_true-state HMM the data sets are drawn from.
func (c *HMMConfig) hmmTrue(kt int) hmm.Params {
	θ := hmm.NewParams(kt, c.P)
	for j := range kt {
		θ.Pi[j] = 1 / float64(kt)
		for l := range kt {
			switch {
			case kt == 1:
				θ.A[0] = 1
			case l == j:
				θ.A[j*kt+l] = c.Stay
			default:
				θ.A[j*kt+l] = (1 - c.Stay) / float64(kt-1)
			}
		}
		for m := range c.P {
			if m == j%c.P {
				θ.C[j*c.P+m] = c.Purity
			} else {
				θ.C[j*c.P+m] = (1 - c.Purity) / float64(c.P-1)
			}
		}
	}
	return θ
}

// hmmData draws data set i of K_true kt.
func (c *HMMConfig) hmmData(kt, i int) hmm.Data {
	rnd := rng.New(c.Seed, HMMID, "data", strconv.Itoa(kt), strconv.Itoa(i))
	return c.hmmTrue(kt).Sample(rnd, c.Sequences, c.Length)
}

// hmmKey is one cell: data set i of K_true kt fitted with K = k, at seed.
type hmmKey struct {
	kt, i, k int
	seed     uint64
}

func (h hmmKey) dataset() string { return fmt.Sprintf("kt%d-d%d/K=%d", h.kt, h.i, h.k) }

// RunHMM runs every (data set, K, seed) cell and writes the grid.
func RunHMM(env *experiments.Env, c *HMMConfig) error {
	var keys []hmmKey
	var names []string
	for _, kt := range c.TrueK {
		for i := range c.DataSets {
			for _, k := range c.K {
				for s := range c.Seeds {
					h := hmmKey{kt, i, k, uint64(s)}
					keys, names = append(keys, h), append(names, fmt.Sprintf("%s/s%02d", h.dataset(), s))
				}
			}
		}
	}
	cells, complete, err := experiments.RunAllCells(env, names, nil, func(i int) (rowCell, error) {
		return c.runHMMCell(keys[i])
	})
	if err != nil || !complete {
		return err
	}
	s := &results.Summary{Metrics: map[string]float64{}, Criteria: Criteria(true, IS, AIS)}
	var absent []Absent
	noteMetrics(s, cells)
	altMetrics(s, cells)
	// F + ln K! is not a column (the VB column is F itself, a bound): its
	// error at VB's largest budget is the metric err_vb_lnkfact_median.
	top := slices.Max(c.VBIterations)
	var sym []float64
	for i, cl := range cells {
		for _, e := range cl.Est {
			if e.Method == VB && e.Budget == top {
				lg, _ := math.Lgamma(float64(keys[i].k) + 1)
				sym = append(sym, math.Abs(float64(e.LnZ)+lg-float64(cl.Gold)))
			}
		}
	}
	if len(sym) > 0 {
		s.SetMetric("err_vb_lnkfact_median", results.Median(sym))
	}
	gold, est := rowEstimates(cells)
	if _, err := WriteGrid(env.Dir, s, "hmm", gold, est, absent); err != nil {
		return err
	}
	s.AddFindingsFromChecks(map[string]string{
		"within3se-is":  "VB's q, widened and relabelled, misses posterior mass the defensive prior share does not cover, so the weights' spread understates the error",
		"within3se-ais": "too few temperatures or runs for HMC to follow the tempered posteriors: the pooled estimate's SE understates its spread",
	})
	return env.WriteSummary(s, fmt.Sprintf("Atlas row: the discrete Bayesian HMM (Beal 2003 ch. 3). Data: %d draws of %d sequences × %d symbols over %d symbols from each K_true-state HMM of true_k = %v (π uniform, a_jj = %g, state j emits symbol j mod p with probability %g), each fitted with K = %v (data set <set>/K=<K>), %d seeds each; symmetric prior strengths f^(π), f^(A), f^(C) = %g, %g, %g (eq. 3.43). "+
		"Gold standard: ln p(y|K) by enumerating the K^T hidden paths (hmm.ExactLogEvidence, eq. 3.44; T = %d, at most %d^%d paths). "+
		"VB: F (eq. 3.79, ln K! not added: the gmm row's convention, F stays a lower bound; err_vb_lnkfact_median is the error of F + ln K!) of the best of %d VBEM starts (hmm.RandomStart, %d Baum-Welch iterations) after %v iterations; BIC (eq. 1.49, N = T) and CS (eq. 1.54, hmm.CheesemanStutz) at the best of %d Baum-Welch runs (ML, at most %d iterations), no ln K! added (CS is a lower bound, Theorem 2.3). "+
		"Laplace: core/approx.Laplace on ln p(η) + ln p(y|θ(η)) in hmm.Annealed's additive log-ratio coordinates (the Jacobian in the prior), from VB's posterior mean, + ln K! for the K! relabelled modes (an overcount where states are unused, whose relabellings coincide). "+
		"IS: %d runs of up to %d draws from the equal mixture of VB's q over its K! relabellings (Dirichlet counts divided by %g²) mixed with the prior at %g; AIS from the prior, HMC on hmm.Annealed (%d leapfrog steps, step %g/√(1 + βT/(4K))), %d runs per rung of %v steps, %s schedule. "+
		"EP: over θ with one site per sequence, the sum over its K^{T_i} paths (hmm.EP; core/approx.FamilyEP with Dirichlet rows), from the prior, its evidence after %v sweeps, no ln K! (its fixed point is the relabelling-symmetric one); err_ep_vbstart_median is EP run to convergence from VB's q. "+
		"No posterior moments (the exact posterior of θ is label-symmetric, its mean the label average). Operations: flops of the recursions, a forward pass T(2K² + 3K), forward-backward 3× that, 30 per entry per Dirichlet draw or density.",
		c.DataSets, c.Sequences, c.Length, c.P, c.TrueK, c.Stay, c.Purity, c.K, c.Seeds, c.Prior.Pi, c.Prior.A, c.Prior.C,
		c.symbols(), slices.Max(c.K), c.symbols(), c.Restarts, c.StartIterations, c.VBIterations, c.Restarts, c.EMIterations,
		c.IS.Runs, c.IS.Samples, c.IS.Widen, c.IS.Defensive, c.AIS.Leapfrog, c.AIS.Step, c.AIS.Runs, c.AIS.Ladder, c.AIS.Schedule, c.EPSweeps))
}

// dirichletRows is the product of Dir(rows[i]) in the flat layout of
// hmm.ParamDim (rows from hmm.Posterior.Rows or hmm.Prior.Rows), each
// row's counts divided by div.
func dirichletRows(rows [][]float64, div float64) is.Proposal {
	blocks := make([]is.Proposal, len(rows))
	for i, r := range rows {
		a := make([]float64, len(r))
		for l, v := range r {
			a[l] = v / div
		}
		blocks[i] = is.NewDirichlet(a)
	}
	return is.NewProduct(blocks...)
}

// runHMMCell draws the cell's data set, computes its gold standard and
// every method at its seed.
func (c *HMMConfig) runHMMCell(h hmmKey) (rowCell, error) {
	name, k := h.dataset(), h.k
	sd := strconv.FormatUint(h.seed, 10)
	cl := rowCell{Dataset: name, Seed: h.seed, GoldKind: GoldEnumeration}
	d := c.hmmData(h.kt, h.i)
	u := hmm.SymmetricPrior(k, c.P, c.Prior.Pi, c.Prior.A, c.Prior.C)
	gold, err := hmm.ExactLogEvidence(d, k, u)
	if err != nil {
		return cl, err
	}
	cl.Gold = experiments.Float(gold)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	nan := math.NaN()
	T := d.Symbols()
	fb, fwd := hmmFBOps(T, k), hmmFwdOps(T, k)
	lnKF, _ := math.Lgamma(float64(k) + 1)
	stream := func(method string, more ...string) []string {
		return append([]string{HMMID, name, "seed", sd, method}, more...)
	}

	// VBEM from every start, the best F at each rung.
	t0 := cpuNow()
	top := slices.Max(c.VBIterations)
	best := make([]float64, top)
	for i := range best {
		best[i] = math.Inf(-1)
	}
	var w hmm.Posterior
	bestF := math.Inf(-1)
	for r := range c.Restarts {
		w0, err := hmm.RandomStart(d, u, k, c.StartIterations, rng.New(c.Seed, stream("vb", strconv.Itoa(r))...))
		if err != nil {
			return cl, fmt.Errorf("%s seed %d: VB start %d: %w", name, h.seed, r, err)
		}
		m := hmm.NewVB(d, u, w0)
		set := config.FixedBudget(top).Settings(nil, m)
		set.Recorder = func(it vb.Iteration) { best[it.Iter] = math.Max(best[it.Iter], it.F) }
		res := vb.Run(m, set)
		if err := res.Error(); err != nil {
			return cl, fmt.Errorf("%s seed %d: VBEM restart %d: %w", name, h.seed, r, err)
		}
		if res.F > bestF {
			bestF, w = res.F, m.W.Clone()
		}
	}
	vbCPU := cpuNow() - t0
	for _, b := range c.VBIterations {
		ops := float64(c.Restarts*(c.StartIterations+b)) * fb
		frac := float64(c.StartIterations+b) / float64(c.StartIterations+top)
		cl.add(VB, b, best[b-1], nan, ops, secs(vbCPU*frac), nan, nan)
	}

	// Baum-Welch from random θ; BIC and CS at the best point.
	t0 = cpuNow()
	var θ hmm.Params
	bestL, emIters := math.Inf(-1), 0
	for r := range c.Restarts {
		em := hmm.NewEM(d, hmm.RandomParams(k, c.P, rng.New(c.Seed, stream("em", strconv.Itoa(r))...)), nil)
		fit := config.FitSettings{MaxIterations: c.EMIterations, RelTol: 1e-9, MonotoneTol: 1e-9}
		res := vb.Run(em, fit.Settings(nil, em))
		if err := res.Error(); err != nil {
			return cl, fmt.Errorf("%s seed %d: EM restart %d: %w", name, h.seed, r, err)
		}
		emIters += res.Iterations
		if res.F > bestL {
			bestL, θ = res.F, em.Params.Clone()
		}
	}
	emOps := float64(emIters) * fb
	cl.add(BIC, 0, hmm.BIC(d, θ), nan, emOps+fwd, secs(cpuNow()-t0), nan, nan)
	cl.add(CS, 0, hmm.CheesemanStutz(d, θ, u), nan, emOps+fb, secs(cpuNow()-t0), nan, nan)

	// Laplace in the log-ratio coordinates of hmm.Annealed, from VB's
	// posterior mean, + ln K!.
	a, err := hmm.NewAnnealed(d, k, u)
	if err != nil {
		return cl, err
	}
	t0 = cpuNow()
	var nf, ng int
	g2 := make([]float64, a.Dim())
	f := approx.Func{
		LogP: func(x []float64) float64 { nf++; return a.LogPrior(x) + a.LogLik(x) },
		Grad: func(dst, x []float64) {
			ng++
			a.GradLogPrior(dst, x)
			a.GradLogLik(g2, x)
			for i := range dst {
				dst[i] += g2[i]
			}
		},
	}
	if lap, err := approx.Laplace(f, a.Coords(w.Mean())); err != nil {
		cl.note("laplace_failed")
	} else {
		cl.add(Laplace, 0, lap.LnZ+lnKF, nan, float64(nf)*fwd+float64(ng)*fb, secs(cpuNow()-t0), nan, nan)
	}

	if err := c.hmmEP(&cl, d, k, u, w); err != nil {
		return cl, fmt.Errorf("%s seed %d: %w", name, h.seed, err)
	}

	// IS from the mixture of VB's q over its relabellings, with the prior.
	var comps []is.Proposal
	for _, perm := range hmm.StatePermutations(k) {
		comps = append(comps, dirichletRows(w.Relabel(perm).Rows(), c.IS.Widen*c.IS.Widen))
	}
	prop := is.NewDefensive(is.NewMixture(comps...), dirichletRows(u.Rows(k), 1), c.IS.Defensive)
	joint, err := hmm.NewJoint(d, k, u)
	if err != nil {
		return cl, err
	}
	dim := float64(hmm.ParamDim(k, c.P))
	isRungs(&cl, c.IS.IS, c.IS.Ladder, is.RunStreams(c.Seed, stream("is")...), prop, joint, fwd+float64(len(comps)+2)*dim*30, nil)

	// AIS from the prior with HMC, one set of runs per rung.
	hm := c.AIS.HMC
	n := float64(T) / float64(k)
	sampler := ais.Sampler[[]float64]{Model: a, NewKernel: func() mcmc.Kernel[[]float64] {
		return &mcmc.HMC{Target: a, Steps: hm.Leapfrog, StepSize: func(beta float64) float64 { return hm.Step / math.Sqrt(1+beta*n/4) }}
	}}
	for _, steps := range c.AIS.Ladder {
		t0 = cpuNow()
		as := c.AIS.AIS
		as.Steps = steps
		runs, _, err := config.Sample(as, sampler, 1, c.Seed, stream("ais", strconv.Itoa(steps))...)
		if err != nil {
			return cl, err
		}
		lz, se := ais.Pool(ais.LogWeights(runs))
		ops := float64(as.Runs*steps) * (float64(hm.Leapfrog+1)*fb + fwd)
		cl.add(AIS, steps, lz, se, ops, secs(cpuNow()-t0), nan, nan)
	}
	return cl, nil
}

// hmmEPOps is the flops of one EP sweep: each term of a site (a hidden
// path of its sequence) costs about 16 per symbol (its weight, then its
// shifts of the expected logs), and each row's projection about 200 per
// entry (Newton's digammas and trigammas).
func hmmEPOps(d hmm.Data, k int) float64 {
	var ops float64
	for _, y := range d.Seqs {
		n, _ := hmm.EvidencePaths(k, len(y))
		ops += 16 * float64(n*len(y))
	}
	return ops + 200*float64(hmm.ParamDim(k, d.P))
}

// hmmEP adds EP's evidence after each rung of the sweeps' ladder, run from
// the prior (the standard start: on these data the fixed point is the
// relabelling-symmetric one, whatever the start), and notes EP from VB's q
// w for the metric err_ep_vbstart_median and the cells that did not
// converge or skipped updates.
func (c *HMMConfig) hmmEP(cl *rowCell, d hmm.Data, k int, u hmm.Prior, w hmm.Posterior) error {
	set := approx.EPSettings{MaxIterations: slices.Max(c.EPSweeps), Tol: 1e-9}
	t0 := cpuNow()
	e, err := hmm.NewEP(d, k, u, set)
	if err != nil {
		return err
	}
	sweep := hmmEPOps(d, k)
	for n := 1; n <= slices.Max(c.EPSweeps); n++ {
		if _, err := e.Sweep(); err != nil {
			return fmt.Errorf("EP: %w", err)
		}
		if !slices.Contains(c.EPSweeps, n) {
			continue
		}
		lz, err := e.LogEvidence()
		if err != nil {
			cl.note("ep_improper")
			continue
		}
		cl.add(EP, n, lz, math.NaN(), float64(n)*sweep, secs(cpuNow()-t0), math.NaN(), math.NaN())
	}
	if e.Skipped() > 0 {
		cl.note("ep_skipped")
	}
	// From VB's q: a metric, not a column.
	v, err := hmm.NewEP(d, k, u, set)
	if err != nil {
		return err
	}
	if err := v.StartAt(w); err != nil {
		return err
	}
	if ok, err := v.Run(); err != nil {
		return fmt.Errorf("EP from VB's q: %w", err)
	} else if !ok {
		cl.note("ep_vbstart_unconverged")
	}
	if lz, err := v.LogEvidence(); err == nil {
		cl.alt("ep_vbstart", lz)
	}
	return nil
}

// secs is s seconds as a Duration.
func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
