package atlas

// atlas/gmm: the VB Gaussian mixture of PRML §10.2 (core/model/gmm) against
// the exact evidence by enumerating the assignments.

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/score"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/experiments/datasets"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/is"
	"github.com/vbworkbench/vbw/samplers/mcmc"
	"gonum.org/v1/gonum/mat"
)

// GMMID is the Gaussian-mixture row of the atlas.
const GMMID = "atlas/gmm"

func init() {
	experiments.Add(GMMID, "atlas: the VB Gaussian mixture's ln p(X|K) by VB, BIC, Cheeseman-Stutz, Laplace, EP, IS with q and AIS against exact enumeration",
		DefaultGMM, RunGMM, PlotGrid)
}

// GMMConfig is the config of atlas/gmm. Its data sets are data_sets draws
// of n points in dim dimensions from true_k unit-variance clusters whose
// centres lie separation apart along the first axis (equal weights), or,
// with data set, the points of a CSV file (one column per dimension, every
// column standardised; `vbw compare -model gmm -data FILE -k 1..6`). Each
// (data set, K) of k is a data set of the grid, named "<set>/K=<k>".
//
// The gold standard is ln p(X | K) by enumerating the Kᴺ assignments
// (gmm.LogEvidenceExact) when n ≤ enum_max_n and Kᴺ ≤
// gmm.MaxAssignments, the closed form at K = 1 (gmm.LogEvidenceOne), and
// otherwise the pooled AIS of [gold_ais] with its standard error (kind
// "ais-long"). Each seed (seeds of them) reruns the methods from its own
// streams: VB from restarts random starts (its bound F after each budget of
// vb_budgets iterations of the best start), BIC at VB's posterior-mean
// parameters, Cheeseman–Stutz with the best fit's q(Z) as the completion at
// the same point (gmm.CheesemanStutz, + ln K!; Beal's CS at the MAP point
// of EM from that q(Z), at most em_iterations E steps, is the metric
// err_cs_em_median), Laplace at the mode of ln p(θ, X) in
// unconstrained coordinates (gmm.Unconstrained: π by additive log-ratios,
// Λ_k by Cholesky factors with log diagonals, Jacobians included) nearest
// the best fit's posterior mean, by core/approx.Laplace (Newton on
// Unconstrained.Grad with Unconstrained.Hess, central differences of the
// analytic gradient), + ln K! (the K! relabelled modes taken as separate;
// none where −∇∇ is not positive definite, note_laplace_indefinite), EP
// over (π, μ, Λ) in the family of VB's q, Dir × Π_k Normal-Wishart, one
// site per point (gmm.NewEP; the tilted densities projected by their
// expected sufficient statistics), started at the best fit's q
// (FamilyEP.StartAt), its ln Z_EP after each budget of ep_sweeps sweeps
// (damping ep.damping; the run stops early when no site moves by more
// than ep.tol) plus ln R(q), the relabellings of q counted by their
// overlaps (gmm.EPFamily.LogRelabellings: ln K! for a q in one mode, 0 for
// the symmetric q EP reaches when the modes overlap; none where EP's
// evidence is undefined, note_ep_no_evidence), beside EP from the
// symmetric prior run to convergence or ep.max_sweeps (the metric
// err_ep_symmetric_median_k2plus), IS
// with the best fit's q relabelled K! ways, flattened to
// q^(1/c²) (c = is.widen) and mixed with the prior at weight is.defensive
// as the proposal (gmm.NewDefensiveProposal; is.runs runs of each of
// is_samples samples, the pooled estimate; with q itself and 4 runs, 12
// of the 27 estimates lay more than 3 standard errors below the gold
// standard, up to 29), AIS over the assignments
// with the collapsed Gibbs sweep and split-merge moves (ais.runs runs of
// each of ais_steps temperatures, linear schedule).
//
// Operations are counted in point-component evaluations times D² (a
// Mahalanobis distance): VB restarts·iterations·N·K·D², BIC N·K·D², CS
// 2·N·K·D², Laplace its evaluations of ln p(θ, X) (a gradient 3 of them,
// a Hessian 2P gradients, P = UnconstrainedDim)·N·K·D², EP
// (sweeps + 1)·8·N·K·D² + K!·K·D² (a site update is 8 D×D passes per
// component: the cavity's and the updated Normal-Wishart's log-partitions
// and moments, the projection's factor and inverse; the evidence one more
// pass over the sites; the relabellings K! overlaps), IS
// runs·samples·(N·K + K!·K)·D², AIS runs·steps·N·K·D², enumeration
// Kᴺ·N·D².
type GMMConfig struct {
	experiments.Common
	// Data is a CSV file of points ("" draws the synthetic data sets).
	Data       string  `toml:"data"`
	K          []int   `toml:"k" range:"[1,8] integer len=1.. increasing"`
	DataSets   int     `toml:"data_sets" range:"[1,1e3] integer"`
	N          int     `toml:"n" range:"[2,1e5] integer"`
	Dim        int     `toml:"dim" range:"[1,10] integer"`
	TrueK      int     `toml:"true_k" range:"[1,20] integer"`
	Separation float64 `toml:"separation" range:"[0,1e3]"`
	Seeds      int     `toml:"seeds" range:"[1,1e3] integer"`
	Restarts   int     `toml:"restarts" range:"[1,1e4] integer"`
	// EMIterations caps the E steps of the MAP EM of Cheeseman–Stutz.
	EMIterations int `toml:"em_iterations" range:"[1,1e5] integer"`
	EnumMaxN     int `toml:"enum_max_n" range:"[0,40] integer"`
	Prior        struct {
		Alpha0  float64 `toml:"alpha0" range:"[1e-6,1e6]"`
		Beta0   float64 `toml:"beta0" range:"(0,1e6]"`
		W0Scale float64 `toml:"w0_scale" range:"[1e-6,1e6]"`
		// Nu0 is ν₀; 0 means D (ν₀ > D − 1 is required).
		Nu0 float64 `toml:"nu0" range:"[0,1e6]"`
	} `toml:"prior"`
	VB        config.FitSettings `toml:"vb"`
	VBBudgets []int              `toml:"vb_budgets" range:"[1,1e6] integer len=1.. increasing"`
	// IS: the best fit's q, relabelled, flattened to q^(1/widen²) and
	// mixed with the prior at weight defensive (gmm.NewDefensiveProposal).
	IS struct {
		config.IS
		Widen     float64 `toml:"widen" range:"[1,10]"`
		Defensive float64 `toml:"defensive" range:"[0,1)"`
	} `toml:"is"`
	ISSamples []int `toml:"is_samples" range:"[1,1e8] integer len=1.. increasing"`
	// EPSweeps is the ladder of EP's sweeps from the best fit's q; EP the
	// damping of every site update, the change below which a run stops
	// and the cap of the symmetric start's run (at least the ladder's
	// last rung).
	EPSweeps []int      `toml:"ep_sweeps" range:"[1,1e5] integer len=1.. increasing"`
	EP       epRun      `toml:"ep"`
	AIS      config.AIS `toml:"ais"`
	AISSteps []int      `toml:"ais_steps" range:"[2,1e8] integer len=1.. increasing"`
	GoldAIS  config.AIS `toml:"gold_ais"`
}

// DefaultGMM returns 3 data sets of 10 points in 2-D from 2 clusters 3
// apart, K = 1, 2, 3, 3 seeds.
func DefaultGMM() GMMConfig {
	c := GMMConfig{Common: experiments.Common{Seed: 1}, K: []int{1, 2, 3}, DataSets: 3, N: 10, Dim: 2, TrueK: 2,
		Separation: 3, Seeds: 3, Restarts: 5, EnumMaxN: 12, EMIterations: 1000,
		VB: config.DefaultFit(200), VBBudgets: []int{1, 2, 5, 10, 20, 50, 200},
		ISSamples: []int{10, 100, 1000, 10000},
		AIS:       config.AIS{Runs: 8, Steps: 2, AISSchedule: config.DefaultSchedule(config.ScheduleLinear)},
		AISSteps:  []int{10, 30, 100, 300, 1000},
		GoldAIS:   config.AIS{Runs: 16, Steps: 20000, AISSchedule: config.DefaultSchedule(config.ScheduleLinear)}}
	c.Prior.Alpha0, c.Prior.Beta0, c.Prior.W0Scale = 1, 1, 1
	c.AIS.PilotRuns, c.GoldAIS.PilotRuns = 0, 0
	c.IS.IS = config.IS{Runs: 16, Samples: 1}
	c.IS.Widen, c.IS.Defensive = 1.5, 0.2
	c.EP, c.EPSweeps = epRun{Damping: 1, Tol: 1e-9, MaxSweeps: 200}, []int{1, 2, 5, 10, 20, 50}
	return c
}

// Validate checks what relates the keys.
func (c *GMMConfig) Validate() error {
	var errs []error
	if k := c.K[len(c.K)-1]; k > gmm.MaxProposalK {
		errs = append(errs, config.FieldError("k", c.K, fmt.Sprintf("must be at most %d (the K! relabellings of the IS proposal)", gmm.MaxProposalK)))
	}
	if b := c.VBBudgets[len(c.VBBudgets)-1]; b > c.VB.MaxIterations {
		errs = append(errs, config.FieldError("vb_budgets", c.VBBudgets, fmt.Sprintf("must be at most vb.max_iterations = %d", c.VB.MaxIterations)))
	}
	if b := c.EPSweeps[len(c.EPSweeps)-1]; b > c.EP.MaxSweeps {
		errs = append(errs, config.FieldError("ep_sweeps", c.EPSweeps, fmt.Sprintf("must be at most ep.max_sweeps = %d", c.EP.MaxSweeps)))
	}
	if c.AIS.Runs < 2 {
		errs = append(errs, config.FieldError("ais.runs", c.AIS.Runs, "must be at least 2 (a standard error)"))
	}
	if c.GoldAIS.Runs < 2 {
		errs = append(errs, config.FieldError("gold_ais.runs", c.GoldAIS.Runs, "must be at least 2 (a standard error)"))
	}
	if c.Data == "" && c.N < c.TrueK {
		errs = append(errs, config.FieldError("n", c.N, fmt.Sprintf("must be at least true_k = %d", c.TrueK)))
	}
	if c.Prior.Nu0 != 0 && c.Prior.Nu0 <= float64(c.Dim)-1 && c.Data == "" {
		errs = append(errs, config.FieldError("prior.nu0", c.Prior.Nu0, fmt.Sprintf("must exceed dim − 1 = %d", c.Dim-1)))
	}
	errs = append(errs, c.VB.Validate("vb", nil), c.AIS.Validate("ais"), c.GoldAIS.Validate("gold_ais"))
	return config.FirstError(errs...)
}

// Criteria states the criteria a run judges: VB's bound below the gold
// standard, IS and AIS within 3 standard errors of it.
func (c *GMMConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return Criteria(true, IS, AIS), nil
}

// gmmCases is the number of (data set, K) cases.
func (c *GMMConfig) points() experiments.Factor {
	if c.Data != "" {
		return experiments.DataRows("data", c.Data, "points")
	}
	return experiments.Key("n", c.N)
}

// Estimate counts the cells (data sets × K) and each method's operations
// at the largest K (see GMMConfig for the units).
func (c *GMMConfig) Estimate() experiments.Cost {
	kmax := c.K[len(c.K)-1]
	sets := experiments.Key("data_sets", c.DataSets)
	if c.Data != "" {
		sets = experiments.Fixed(1, "the data file")
	}
	ks := experiments.KeyN("k", c.K, float64(len(c.K)), "values of K")
	k := experiments.KeyN("k", c.K, float64(kmax), "components (largest K)")
	n := c.points()
	d2 := experiments.KeyN("dim", c.Dim, float64(c.Dim*c.Dim), "D²")
	seeds := experiments.Key("seeds", c.Seeds)
	enum := math.Min(math.Pow(float64(kmax), float64(min(c.N, c.EnumMaxN))), gmm.MaxAssignments)
	fact := experiments.KeyN("k", c.K, math.Gamma(float64(kmax)+1)*float64(kmax), "K!·K relabellings")
	sum := func(xs []int) float64 {
		s := 0
		for _, x := range xs {
			s += x
		}
		return float64(s)
	}
	isM := experiments.KeyN("is_samples", c.ISSamples, sum(c.ISSamples), "IS samples over the ladder")
	aisT := experiments.KeyN("ais_steps", c.AISSteps, sum(c.AISSteps), "AIS temperatures over the ladder")
	// Laplace: about 20 Newton steps, each a Hessian of 2P gradients (3
	// evaluations each) and a few evaluations, P the unconstrained
	// coordinates.
	np := float64(gmm.UnconstrainedDim(kmax, c.Dim))
	lapEvals := experiments.KeyN("k", c.K, 20*(6*np+5), "evaluations of ln p(θ, X) (largest K)")
	return experiments.Cost{Cells: []experiments.Factor{sets, ks},
		Memory:     []experiments.Part{experiments.Rows("estimates", sets, ks, seeds, experiments.Fixed(float64(len(c.VBBudgets)+len(c.EPSweeps)+len(c.ISSamples)+len(c.AISSteps)+1), "budgets"))},
		CellMemory: []experiments.Part{experiments.Words("data and responsibilities", n, k, experiments.Key("dim", c.Dim)), experiments.Words("relabellings", fact)},
		Work: []experiments.Part{
			experiments.Ops("enumeration", 4, sets, ks, experiments.KeyN("enum_max_n", c.EnumMaxN, enum, "Kᴺ assignments"), n, d2),
			experiments.Ops("VB iterations", 20, sets, ks, seeds, k, experiments.Key("restarts", c.Restarts), experiments.Key("vb.max_iterations", c.VB.MaxIterations), n, d2),
			experiments.Ops("CS: MAP EM", 20, sets, ks, seeds, k, experiments.Key("em_iterations", c.EMIterations), n, d2),
			experiments.Ops("Laplace", 20, sets, ks, seeds, k, lapEvals, n, d2),
			experiments.Ops("EP sweeps (from the fit and from the prior)", 20, sets, ks, seeds, k, experiments.Key("ep.max_sweeps", c.EP.MaxSweeps), experiments.Fixed(16, "D² passes per site and component (8), two starts"), n, d2),
			experiments.Ops("EP relabellings", 4, sets, ks, seeds, fact, d2),
			experiments.Ops("IS samples", 20, sets, ks, seeds, k, experiments.Key("is.runs", c.IS.Runs), isM, n, d2),
			experiments.Ops("IS relabellings", 4, sets, ks, seeds, experiments.Key("is.runs", c.IS.Runs), isM, fact, d2),
			experiments.Ops("AIS sweeps", 40, sets, ks, seeds, k, experiments.Key("ais.runs", c.AIS.Runs), aisT, n, d2),
			experiments.Ops("gold AIS sweeps (data beyond enumeration)", 40, sets, ks, k, experiments.Key("gold_ais.runs", c.GoldAIS.Runs), experiments.Key("gold_ais.steps", c.GoldAIS.Steps), n, d2),
		}}
}

// gmmSet is one data set: n points in d dimensions, row-major.
type gmmSet struct {
	name string
	x    []float64
	n, d int
}

// gmmSets returns the data file's points, standardised, or data_sets
// draws of the synthetic mixture (data set i from rng.New(seed,
// "atlas/gmm", "data", i)), each standardised the same way.
func (c *GMMConfig) gmmSets(env *experiments.Env) ([]gmmSet, error) {
	if c.Data != "" {
		raw, err := env.ReadData(c.Data)
		if err != nil {
			return nil, err
		}
		m, _, err := datasets.LoadMatrixCSVHeader(c.Data, raw)
		if err != nil {
			return nil, err
		}
		n, d := m.Dims()
		if n < 2 {
			return nil, fmt.Errorf("%s: %d rows, want at least 2 points", c.Data, n)
		}
		x, err := standardise(m)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Data, err)
		}
		return []gmmSet{{name: strings.TrimSuffix(filepath.Base(c.Data), filepath.Ext(c.Data)), x: x, n: n, d: d}}, nil
	}
	var out []gmmSet
	for i := range c.DataSets {
		rnd := rng.New(c.Seed, GMMID, "data", strconv.Itoa(i))
		x := make([]float64, c.N*c.Dim)
		for p := range c.N {
			j := p % c.TrueK
			for a := range c.Dim {
				x[p*c.Dim+a] = rnd.NormFloat64()
			}
			x[p*c.Dim] += c.Separation * (float64(j) - float64(c.TrueK-1)/2)
		}
		z, err := standardise(mat.NewDense(c.N, c.Dim, x))
		if err != nil {
			return nil, fmt.Errorf("data set %d: %w", i, err)
		}
		out = append(out, gmmSet{name: "set" + strconv.Itoa(i), x: z, n: c.N, d: c.Dim})
	}
	return out, nil
}

// prior is the Gauss-Wishart prior of PRML (10.40) in d dimensions: m₀ = 0
// (the data are standardised), W₀ = w0_scale·I, ν₀ = nu0 (0: D).
func (c *GMMConfig) prior(d int) (gmm.Prior, error) {
	p := gmm.DefaultPrior(d, c.Prior.Alpha0)
	p.Beta0 = c.Prior.Beta0
	if c.Prior.Nu0 > 0 {
		p.Nu0 = c.Prior.Nu0
	}
	for i := range d {
		p.W0[i*d+i] = c.Prior.W0Scale
	}
	if err := p.Validate(); err != nil {
		return p, config.FieldError("prior.nu0", c.Prior.Nu0, err.Error())
	}
	return p, nil
}

// gmmCell is the outcome of one (data set, K): the gold standard and every
// estimate (JSON-safe for the stored cells).
type gmmCell struct {
	Gold cellGold  `json:"gold"`
	Est  []cellEst `json:"est"`
	// CSEM is, per seed, Cheeseman–Stutz at the MAP point of EM with the
	// E step there as the completion (+ ln K!), a metric of the row, not a
	// column.
	CSEM []experiments.Float `json:"cs_em,omitempty"`
	// EPSym is EP from the symmetric prior, run to convergence (a metric;
	// NaN where its evidence is undefined). It does not depend on the seed.
	EPSym experiments.Float `json:"ep_symmetric"`
	// EPLnKFact is, per seed with an EP estimate at the largest budget,
	// ln Z_EP + ln K! (the plain correction in place of ln R; a metric).
	EPLnKFact []experiments.Float `json:"ep_lnkfact,omitempty"`
	Notes     map[string]int      `json:"notes,omitempty"`
}

// RunGMM runs every (data set, K) and writes the grid.
func RunGMM(env *experiments.Env, c *GMMConfig) error {
	sets, err := c.gmmSets(env)
	if err != nil {
		return err
	}
	type key struct {
		set gmmSet
		k   int
	}
	var keys []key
	var names []string
	var cost []float64
	for _, s := range sets {
		for _, k := range c.K {
			keys = append(keys, key{s, k})
			names = append(names, fmt.Sprintf("%s/K=%d", s.name, k))
			cost = append(cost, float64(k*s.n))
		}
	}
	cells, complete, err := experiments.RunAllCells(env, names, cost, func(i int) (gmmCell, error) {
		return c.runCell(env, keys[i].set, keys[i].k, names[i])
	})
	if err != nil || !complete {
		return err
	}
	var gold []GoldStandard
	var est []Estimate
	laplace, ep := false, false
	for _, cl := range cells {
		gold = append(gold, cl.Gold.gold())
		for _, e := range cl.Est {
			est = append(est, e.estimate())
			laplace = laplace || e.Method == Laplace
			ep = ep || e.Method == EP
		}
	}
	var absent []Absent
	if !ep {
		absent = append(absent, Absent{Method: EP, Why: "not applicable: EP's evidence was undefined in every cell (an improper cavity or a tilted density without a Normal-Wishart projection: note_ep_no_evidence)"})
	}
	if !laplace {
		absent = append(absent, Absent{Method: Laplace, Why: "not applicable: −∇∇ ln p(θ, X) was not positive definite at the mode found in any cell (note_laplace_indefinite)"})
	}
	s := &results.Summary{Metrics: map[string]float64{}, Criteria: Criteria(true, IS, AIS)}
	gmmMetrics(s, cells, func(i int) int { return keys[i].k }, c.VBBudgets[len(c.VBBudgets)-1])
	if _, err := WriteGrid(env.Dir, s, "gmm", gold, est, absent); err != nil {
		return err
	}
	s.AddFindingsFromChecks(map[string]string{
		"within3se-is":  "IS with one fit's q relabelled K! ways misses posterior modes the fit does not cover, and ln of a mean of weights is biased low at few samples",
		"within3se-ais": "too few temperatures or runs: the pooled estimate's SE understates its spread",
	})
	return env.WriteSummary(s, "atlas/gmm: ln p(X|K) of the VB Gaussian mixture by each method against the gold standard. "+
		"CS is Cheeseman–Stutz (Beal 2003 eqs. 6.27–6.31) with VB's q(Z) as the completion at VB's posterior-mean parameters (= F + Σ_n KL(q(z_n) ‖ p(z_n|x_n, θ̂)), not a bound), + ln K!; "+
		"Laplace is at the mode in additive-log-ratio / log-Cholesky coordinates nearest VB's posterior mean, + ln K! (the relabelled modes taken as separate). "+
		"EP is over (π, μ, Λ) in the family Dir × Π_k Normal-Wishart with one site per point (the tilted mixture projected by its expected sufficient statistics: the weights' expected logs, each component's E[Λ], E[Λμ], E[μᵀΛμ], E[ln|Λ|]), started at VB's q, its budget the sweeps, + ln R(q): the relabellings of q counted by their Bhattacharyya overlaps, ln K! for a q in one mode, 0 for a symmetric q (EP's symmetric fixed point, which it reaches from VB's q when the modes overlap). "+
		"Metrics: err_vb_median_k2plus and err_vb_lnkfact_median_k2plus are the median |F − gold| and |F + ln K! − gold| at the largest VB budget over the cells of K ≥ 2 (PRML §10.2.4's correction, a metric, F itself unchanged), "+
		"frac_vb_lnkfact_closer_k2plus the fraction of them that ln K! brings closer; err_ep_symmetric_median_k2plus is the median |ln Z_EP − gold| over the cells of K ≥ 2 of EP started at the symmetric prior and run to convergence (no relabelling term: its q is symmetric), err_ep_lnkfact_median_k2plus that of the column's EP at its largest budget with ln K! in place of ln R (the plain correction); err_cs_em_median is Beal's CS at the MAP point of EM started from VB's q(Z) with the E step there as the completion (a lower bound before its + ln K!), against err_cs_median of the column.")
}

// gmmMetrics sets the row's metrics beside the grid: whether ln K! brings
// VB's F at budget b closer to the gold standard over the cells of K ≥ 2
// (kOf the K of cell i), CS with VB's own q(Z), EP from the symmetric
// prior and EP with ln K! over the cells of K ≥ 2, and the cells' notes.
func gmmMetrics(s *results.Summary, cells []gmmCell, kOf func(int) int, b int) {
	var plain, corr, csm, epSym, epKF []float64
	closer := 0
	notes := map[string]int{}
	for i, cl := range cells {
		for key, v := range cl.Notes {
			notes[key] += v
		}
		g := float64(cl.Gold.LnZ)
		for _, v := range cl.CSEM {
			csm = append(csm, math.Abs(float64(v)-g))
		}
		if kOf(i) >= 2 {
			if v := float64(cl.EPSym); !math.IsNaN(v) {
				epSym = append(epSym, math.Abs(v-g))
			}
			for _, v := range cl.EPLnKFact {
				epKF = append(epKF, math.Abs(float64(v)-g))
			}
		}
		for _, e := range cl.Est {
			k := kOf(i)
			if e.Method != VB || e.Budget != b || k < 2 {
				continue
			}
			f := float64(e.LnZ)
			lk := gmm.LogFactorial(k)
			plain, corr = append(plain, math.Abs(f-g)), append(corr, math.Abs(f+lk-g))
			if math.Abs(f+lk-g) < math.Abs(f-g) {
				closer++
			}
		}
	}
	if len(plain) > 0 {
		s.SetMetric("err_vb_median_k2plus", results.Median(plain))
		s.SetMetric("err_vb_lnkfact_median_k2plus", results.Median(corr))
		s.SetMetric("frac_vb_lnkfact_closer_k2plus", float64(closer)/float64(len(plain)))
	}
	if len(csm) > 0 {
		s.SetMetric("err_cs_em_median", results.Median(csm))
	}
	if len(epSym) > 0 {
		s.SetMetric("err_ep_symmetric_median_k2plus", results.Median(epSym))
	}
	if len(epKF) > 0 {
		s.SetMetric("err_ep_lnkfact_median_k2plus", results.Median(epKF))
	}
	keys := make([]string, 0, len(notes))
	for key := range notes {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		s.SetMetric("note_"+key, float64(notes[key]))
	}
}

// runCell computes the gold standard and every method's estimates of one
// (data set, K) over the seeds.
func (c *GMMConfig) runCell(env *experiments.Env, set gmmSet, k int, name string) (gmmCell, error) {
	var out gmmCell
	p, err := c.prior(set.d)
	if err != nil {
		return out, err
	}
	x, n, d := set.x, float64(set.n), set.d
	d2 := float64(d * d)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// The gold standard.
	switch {
	case k == 1:
		z, err := gmm.LogEvidenceOne(x, d, p)
		if err != nil {
			return out, err
		}
		out.Gold = cellGold{Dataset: name, LnZ: experiments.Float(z), Kind: GoldClosedForm}
	case set.n <= c.EnumMaxN && math.Pow(float64(k), n) <= gmm.MaxAssignments:
		z, err := gmm.LogEvidenceExact(x, d, k, p)
		if err != nil {
			return out, err
		}
		out.Gold = cellGold{Dataset: name, LnZ: experiments.Float(z), Kind: GoldEnumeration}
	default:
		z, se, err := gmmAIS(x, d, k, p, c.GoldAIS, c.Seed, GMMID, name, "gold")
		if err != nil {
			return out, err
		}
		out.Gold = cellGold{Dataset: name, LnZ: experiments.Float(z), SE: experiments.Float(se), Kind: GoldAISLong}
	}
	nan := math.NaN()
	add := func(seed uint64, m string, b int, lnz, se, ops, cpu float64) {
		out.Est = append(out.Est, cellEst{Dataset: name, Seed: seed, Method: m, Budget: b, LnZ: experiments.Float(lnz),
			SE: experiments.Float(se), Ops: experiments.Float(ops), CPUSeconds: experiments.Float(cpu),
			MeanErr: experiments.Float(nan), VarErr: experiments.Float(nan)})
	}
	// EP from the symmetric prior, once (it uses no random numbers).
	out.EPSym = experiments.Float(nan)
	if z, ok, err := c.gmmEPSymmetric(x, d, k, p, &out); err != nil {
		return out, fmt.Errorf("%s: EP from the prior: %w", name, err)
	} else if ok {
		out.EPSym = experiments.Float(z)
	}
	for sd := range c.Seeds {
		seed := uint64(sd + 1)
		labels := []string{GMMID, name, "seed", strconv.Itoa(sd)}
		// VB from restarts random starts; the best final F's trace.
		t0 := cpuNow()
		var best vb.Result
		var bestM *gmm.VB
		iters := 0
		var its []int
		for r := range c.Restarts {
			rnd := rng.New(c.Seed, append(slices.Clone(labels), "restart", strconv.Itoa(r))...)
			m, err := gmm.NewVB(x, d, k, p, rnd)
			if err != nil {
				return out, err
			}
			res := vb.Run(m, c.VB.Settings(env.Stop, m))
			if res.Status == vb.Canceled {
				return out, res.Err
			}
			if err := res.Error(); err != nil {
				return out, fmt.Errorf("%s restart %d: %w", name, r, err)
			}
			iters += res.Iterations
			its = append(its, res.Iterations)
			if bestM == nil || res.F > best.F {
				best, bestM = res, m
			}
		}
		vbCPU := cpuNow() - t0
		for _, b := range c.VBBudgets {
			i := min(b, len(best.Trace.F)) - 1
			run := 0 // iterations of every restart up to budget b
			for _, it := range its {
				run += min(b, it)
			}
			frac := float64(run) / float64(max(iters, 1))
			add(seed, VB, b, best.Trace.F[i], nan, float64(run)*n*float64(k)*d2, vbCPU*frac)
		}
		// BIC at VB's posterior-mean parameters.
		t0 = cpuNow()
		ll := plugInLogLik(bestM, x)
		bic := score.BIC(ll, gmm.ParamDim(k, d)-1, n)
		add(seed, BIC, 0, bic, nan, n*float64(k)*d2, cpuNow()-t0)
		// Cheeseman–Stutz with the best fit's q(Z) as the completion at
		// its posterior-mean parameters (BIC's point), + ln K!.
		lnKf := gmm.LogFactorial(k)
		t0 = cpuNow()
		pm, err := gmm.PosteriorMean(bestM)
		if err != nil {
			return out, fmt.Errorf("%s, seed %d: %w", name, seed, err)
		}
		cs, err := gmm.CheesemanStutz(x, d, p, pm, bestM.Responsibilities())
		if err != nil {
			return out, fmt.Errorf("%s, seed %d: CS: %w", name, seed, err)
		}
		add(seed, CS, 0, cs+lnKf, nan, 2*n*float64(k)*d2, cpuNow()-t0)
		// Beal's CS beside it (a metric): the MAP point of EM from the
		// best fit's q(Z), the E step there the completion.
		mp, _, _, err := gmm.MAPEM(x, d, p, bestM.Responsibilities(), c.EMIterations, 1e-10)
		if err != nil {
			return out, fmt.Errorf("%s, seed %d: CS at the MAP point: %w", name, seed, err)
		}
		csm, err := gmm.CheesemanStutz(x, d, p, mp, nil)
		if err != nil {
			return out, fmt.Errorf("%s, seed %d: CS at the MAP point: %w", name, seed, err)
		}
		out.CSEM = append(out.CSEM, experiments.Float(csm+lnKf))
		// Laplace in unconstrained coordinates from the best fit's
		// posterior mean, + ln K!.
		t0 = cpuNow()
		un, err := gmm.NewUnconstrained(x, d, k, p)
		if err != nil {
			return out, err
		}
		u0, err := un.Pack(pm)
		if err != nil {
			return out, fmt.Errorf("%s, seed %d: Laplace: %w", name, seed, err)
		}
		// Newton on the analytic gradient and its central-difference
		// Jacobian; a gradient is counted as 3 evaluations of ln p(θ, X)
		// (the Mahalanobis distance, its gradients in L_k and μ_k).
		var evals float64
		np := float64(un.Dim())
		lap, err := approx.Laplace(approx.Func{
			LogP: func(u []float64) float64 { evals++; return un.LogProb(u) },
			Grad: func(dst, u []float64) { evals += 3; un.Grad(dst, u) },
			Hess: func(dst, u []float64) { evals += 6 * np; un.Hess(dst, u) },
		}, u0)
		if err != nil {
			// −∇∇ ln p not positive definite at the point found, or no
			// stationary point: no estimate (note_laplace_indefinite).
			out.note("laplace_indefinite")
		} else {
			add(seed, Laplace, 0, lap.LnZ+lnKf, nan, evals*n*float64(k)*d2, cpuNow()-t0)
		}
		// EP from the best fit's q, + ln R(q), after each budget of sweeps.
		if err := c.gmmEP(x, d, k, p, bestM, &out, func(b int, lnz, ops, cpu float64) {
			add(seed, EP, b, lnz, nan, ops, cpu)
		}); err != nil {
			return out, fmt.Errorf("%s, seed %d: EP: %w", name, seed, err)
		}
		// IS with the best fit's q, relabelled, as the proposal.
		q, err := gmm.NewDefensiveProposal(p, c.IS.Widen, c.IS.Defensive, bestM)
		if err != nil {
			return out, err
		}
		tg, err := gmm.NewTarget(x, d, k, p)
		if err != nil {
			return out, err
		}
		fact := math.Gamma(float64(k)+1) * float64(k)
		for _, m := range c.ISSamples {
			t0 = cpuNow()
			_, sum := is.SampleRuns(c.IS.Runs, m, 1, is.RunStreams(c.Seed, append(slices.Clone(labels), "is", strconv.Itoa(m))...),
				func() (is.Proposal, is.Target) { return q.Clone(), tg.Clone() })
			add(seed, IS, m, sum.Pooled, sum.SE, float64(c.IS.Runs*m)*(n*float64(k)+fact)*d2, cpuNow()-t0)
		}
		// AIS over the assignments.
		for _, steps := range c.AISSteps {
			t0 = cpuNow()
			a := c.AIS
			a.Steps = steps
			z, se, err := gmmAIS(x, d, k, p, a, c.Seed, append(slices.Clone(labels), "ais", strconv.Itoa(steps))...)
			if err != nil {
				return out, err
			}
			add(seed, AIS, steps, z, se, float64(a.Runs*steps)*n*float64(k)*d2, cpuNow()-t0)
		}
	}
	return out, nil
}

func (cl *gmmCell) note(key string) { cl.noteN(key, 1) }

func (cl *gmmCell) noteN(key string, n int) {
	if n == 0 {
		return
	}
	if cl.Notes == nil {
		cl.Notes = map[string]int{}
	}
	cl.Notes[key] += n
}

// epSitePasses is the cost of one site update per component in D² passes
// (the cavity's and the updated Normal-Wishart's log-partitions and
// moments, the projection's factor and inverse), the row's unit.
const epSitePasses = 8

// gmmEP runs EP (gmm.NewEP) from m's q (FamilyEP.StartAt) and calls est
// at each budget b of ep_sweeps with ln Z_EP + ln R(q) (EPFamily.LogRelabellings),
// the operations (sweeps run + 1 evidence pass)·8·N·K·D² + K!·K·D² and the
// CPU seconds of the sweeps so far and of this evaluation. A run that
// converged (no site moved by more than ep.tol) is not swept further; a
// budget whose evidence is undefined gives no estimate (note_ep_no_evidence).
// Skipped site updates are counted in note_ep_skipped. It also records
// ln Z_EP + ln K! at the largest budget in cl.EPLnKFact.
func (c *GMMConfig) gmmEP(x []float64, d, k int, p gmm.Prior, m *gmm.VB, cl *gmmCell, est func(b int, lnz, ops, cpu float64)) error {
	t0 := cpuNow()
	ep, fam, err := gmm.NewEP(x, d, k, p, c.EP.settings())
	if err != nil {
		return err
	}
	q0, err := fam.FromVB(m)
	if err != nil {
		return err
	}
	if err := ep.StartAt(q0); err != nil {
		return err
	}
	n := float64(len(x) / d)
	pass := epSitePasses * n * float64(k*d*d)
	relabel := math.Gamma(float64(k)+1) * float64(k*d*d)
	sweepCPU := cpuNow() - t0
	sweeps, converged := 0, false
	last := c.EPSweeps[len(c.EPSweeps)-1]
	for _, b := range c.EPSweeps {
		t0 = cpuNow()
		for ; sweeps < b && !converged; sweeps++ {
			change, err := ep.Sweep()
			if err != nil {
				return err
			}
			converged = change <= c.EP.Tol
		}
		t1 := cpuNow()
		sweepCPU += t1 - t0
		lz, err := ep.LogEvidence()
		if err != nil {
			cl.note("ep_no_evidence")
			continue
		}
		lr, err := fam.LogRelabellings(ep.Q())
		if err != nil {
			return err
		}
		est(b, lz+lr, float64(sweeps+1)*pass+relabel, sweepCPU+cpuNow()-t1)
		if b == last {
			cl.EPLnKFact = append(cl.EPLnKFact, experiments.Float(lz+gmm.LogFactorial(k)))
		}
	}
	cl.noteN("ep_skipped", ep.Skipped)
	return nil
}

// gmmEPSymmetric runs EP from the symmetric prior to convergence or
// ep.max_sweeps and returns ln Z_EP and whether it is defined (skipped
// updates in note_ep_symmetric_skipped, an undefined evidence in
// note_ep_symmetric_no_evidence).
func (c *GMMConfig) gmmEPSymmetric(x []float64, d, k int, p gmm.Prior, cl *gmmCell) (float64, bool, error) {
	ep, _, err := gmm.NewEP(x, d, k, p, c.EP.settings())
	if err != nil {
		return 0, false, err
	}
	if _, err := ep.Run(); err != nil {
		return 0, false, err
	}
	cl.noteN("ep_symmetric_skipped", ep.Skipped)
	lz, err := ep.LogEvidence()
	if err != nil {
		cl.note("ep_symmetric_no_evidence")
		return 0, false, nil
	}
	return lz, true, nil
}

// gmmAIS pools a.Runs AIS runs from the prior of K components over the
// assignments, the collapsed Gibbs sweep with split-merge moves as the
// kernel (gmm.Collapsed), run g drawing from rng.New(seed, labels…, g); it
// returns ln Ẑ and the larger of the delta-method SE and sd(ln w)/√runs.
func gmmAIS(x []float64, d, k int, p gmm.Prior, a config.AIS, seed uint64, labels ...string) (float64, float64, error) {
	m, err := gmm.NewCollapsed(x, d, k, p)
	if err != nil {
		return 0, 0, err
	}
	s := ais.Sampler[*gmm.Assignments]{Model: m, NewKernel: func() mcmc.Kernel[*gmm.Assignments] {
		return &mcmc.Gibbs[*gmm.Assignments]{Target: m, Sweeper: m.NewGibbs()}
	}}
	runs, _, err := config.Sample(a, s, 1, seed, labels...)
	if err != nil {
		return 0, 0, err
	}
	lw := ais.LogWeights(runs)
	z, se := ais.Pool(lw)
	return z, max(se, ais.LogWSE(lw)), nil
}

// plugInLogLik is ln p(X | θ̂) at VB's posterior-mean parameters: π̂_k =
// E[π_k], μ_k = m_k, Σ_k = W_k⁻¹/ν_k (the inverse of E[Λ_k], PRML
// (10.59)) — the point BIC is evaluated at (the model has no EM of its
// own). Components with E[π_k] ≈ 0 add nothing.
func plugInLogLik(m *gmm.VB, x []float64) float64 {
	k, d, n := m.K(), m.D(), m.N()
	w := m.MeanWeights(nil)
	ls := make([][]float64, k)
	consts := make([]float64, k)
	means := make([][]float64, k)
	for j := range k {
		_, nu, mean, winv := m.Component(j)
		l := make([]float64, d*d)
		for i := range l {
			l[i] = winv[i] / nu
		}
		if !numeric.CholFactor(l, d) {
			consts[j] = math.Inf(-1)
			continue
		}
		ls[j], means[j] = l, mean
		consts[j] = math.Log(w[j]) - float64(d)/2*math.Log(2*math.Pi) - numeric.CholLogDet(l, d)/2
	}
	terms := make([]float64, k)
	v := make([]float64, d)
	ll := 0.0
	for i := range n {
		for j := range k {
			if ls[j] == nil {
				terms[j] = math.Inf(-1)
				continue
			}
			for a := range d {
				v[a] = x[i*d+a] - means[j][a]
			}
			numeric.CholSolveVec(ls[j], d, v)
			terms[j] = consts[j] - numeric.Dot(v, v)/2
		}
		ll += numeric.LogSumExp(terms)
	}
	return ll
}
