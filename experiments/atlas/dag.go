package atlas

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/is"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// DAGID is the discrete DAGs' row of the atlas.
const DAGID = "atlas/dag"

func init() {
	experiments.Add(DAGID, "atlas row: discrete DAGs with hidden variables (chapter 6's model), ln p(y|m) by VB, BIC, BICp, CS, Laplace (softmax basis, + ln S), EP from VB's q, IS from VB's q (over every relabelling) and AIS against the exact sum over the hidden completions",
		DefaultDAG, RunDAG, PlotGrid)
}

// DAGConfig is the config of atlas/dag: small data sets drawn from small
// discrete DAGs with hidden nodes, whose evidence is enumerated exactly,
// and the settings of VB, EM (BIC, BICp, CS), EP, IS and AIS. Laplace
// (from VB's best q(θ), in the softmax basis) has no keys.
type DAGConfig struct {
	experiments.Common
	// Structures name the data sets' graphs: "lc:H:a1,a2,…" is a latent
	// class model, one hidden node of H states and observed children of
	// arities a1, a2, …; "ch6" is chapter 6's true structure (two binary
	// hidden nodes, four 5-valued observed ones, Fig. 6.1) with its true
	// parameters. N is each data set's size.
	Structures []string `toml:"structures" range:"len=1.."`
	N          []int    `toml:"n" range:"[1,1e4] len=1.."`
	Seeds      int      `toml:"seeds" range:"[1,1000]"`
	// Lambda is the symmetric Dirichlet prior λ of every row (eq. (6.6)).
	Prior struct {
		Lambda float64 `toml:"lambda" range:"[1e-3,1e3]"`
	} `toml:"prior"`
	// MaxExactTerms caps the exact sum (Problem.ExactTerms); a data set
	// beyond it takes the long AIS of [gold_ais] as its gold standard.
	MaxExactTerms float64 `toml:"max_exact_terms" range:"[1,4.3e9]"`
	// VBIterations is VB's ladder; Restarts the starts of EM and VBEM
	// (the best kept at every rung), drawn from Dir(1).
	VBIterations []int `toml:"vb_iterations" range:"[1,1e5] len=1.. increasing"`
	Restarts     int   `toml:"restarts" range:"[1,100]"`
	// EMIterations caps each EM run (the point of BIC, BICp and CS).
	EMIterations int `toml:"em_iterations" range:"[1,1e5]"`
	// IS: the mixture over every relabelling of the hidden states of the
	// VB posterior's Dirichlets (at the last rung), mixed with the prior
	// at weight defensive; the ladder is the draws of each run used.
	IS struct {
		config.IS
		Ladder    []int   `toml:"ladder" range:"[1,1e9] len=1.. increasing"`
		Defensive float64 `toml:"defensive" range:"(0,1)"`
		// Widen divides every Dirichlet count of q by widen² (about widen²
		// times the variance): VB's q is narrower than the posterior, and
		// its light tails bias IS low with an understated SE.
		Widen float64 `toml:"widen" range:"[1,10]"`
	} `toml:"is"`
	// AIS: Algorithm 6.1, Metropolis–Hastings with the joint Dirichlet
	// proposal of strength alpha (eqs. (6.59)–(6.60)); one set of runs per
	// rung of the ladder.
	AIS struct {
		config.AIS
		Alpha  float64 `toml:"alpha" range:"[1,1e8]"`
		Ladder []int   `toml:"ladder" range:"[2,1e9] len=1.. increasing"`
	} `toml:"ais"`
	GoldAIS struct {
		config.AIS
		Alpha float64 `toml:"alpha" range:"[1,1e8]"`
	} `toml:"gold_ais"`
	// EPSweeps are the sweeps of dag.EP (a Dirichlet row family, one
	// monomial-mixture site per point) started at VB's q after which its
	// evidence is read; EP its damping, tol the largest site change of the
	// last sweep that counts as converged (note_ep_not_converged), and
	// max_sweeps the cap of the run from the symmetric prior (the metric
	// err_ep_symmetric_median), which stops at tol.
	EPSweeps []int `toml:"ep_sweeps" range:"[1,1e5] integer len=1.. increasing"`
	EP       epRun `toml:"ep"`
}

// DefaultDAG returns three data sets: latent class models with binary and
// ternary children and chapter 6's structure on a few points.
func DefaultDAG() DAGConfig {
	c := DAGConfig{Structures: []string{"lc:2:2,2,2", "lc:2:3,3,3", "ch6"}, N: []int{40, 20, 8}, Seeds: 3, MaxExactTerms: 1e7,
		VBIterations: []int{1, 2, 5, 10, 20, 50, 100}, Restarts: 3, EMIterations: 1000}
	c.Prior.Lambda = 1
	c.IS.IS = config.IS{Runs: 8, Samples: 12500}
	c.IS.Ladder, c.IS.Defensive, c.IS.Widen = []int{12, 125, 1250, 12500}, 0.05, 1.5
	c.AIS.AIS = config.AIS{Runs: 16, Steps: 10000, AISSchedule: config.DefaultSchedule(config.ScheduleNonlinear)}
	c.AIS.Alpha, c.AIS.Ladder = 100, []int{30, 100, 300, 1000, 3000, 10000}
	c.GoldAIS.AIS = config.AIS{Runs: 32, Steps: 10000, AISSchedule: config.DefaultSchedule(config.ScheduleNonlinear)}
	c.GoldAIS.Alpha = 100
	c.EP, c.EPSweeps = epRun{Damping: 0.5, MaxSweeps: 200, Tol: 1e-6}, []int{1, 2, 5, 10, 20, 50, 100, 200}
	return c
}

// Validate checks the structures and the ladders.
func (c *DAGConfig) Validate() error {
	if len(c.N) != len(c.Structures) {
		return config.FieldError("structures", c.Structures, fmt.Sprintf("must have one entry per entry of n (%d), the data sets' sizes", len(c.N)))
	}
	for i, s := range c.Structures {
		if _, _, err := parseDAG(s); err != nil {
			return config.FieldError(fmt.Sprintf("structures[%d]", i), s, err.Error())
		}
	}
	switch {
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

// maxDAGLen is the largest parameter vector parseDAG accepts: a guard on
// the sizes of "lc" structures (the aliases' mixture has H! components of
// it).
const maxDAGLen = 2000

// parseDAG builds a structure name's graph; theta is nil for a latent
// class model (its parameters are drawn from the prior).
func parseDAG(name string) (*dag.Structure, dag.Params, error) {
	if name == "ch6" {
		return dag.TrueCode.Structure(), dag.TrueParams(), nil
	}
	rest, ok := strings.CutPrefix(name, "lc:")
	h, kids, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return nil, nil, errors.New(`want "ch6" or "lc:H:a1,a2,…"`)
	}
	hn, err := strconv.Atoi(h)
	if err != nil || hn < 2 || hn > 5 {
		return nil, nil, errors.New("the hidden node's states H must be an integer 2 to 5")
	}
	arity := []int{hn}
	parents := [][]int{nil}
	hidden := []bool{true}
	for _, a := range strings.Split(kids, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(a))
		if err != nil || k < 2 || k > 20 {
			return nil, nil, fmt.Errorf("observed arity %q: want an integer 2 to 20", a)
		}
		arity, parents, hidden = append(arity, k), append(parents, []int{0}), append(hidden, false)
	}
	if len(arity) > 9 {
		return nil, nil, errors.New("at most 8 observed children")
	}
	s, err := dag.NewStructure(arity, parents, hidden)
	if err != nil {
		return nil, nil, err
	}
	if s.Len() > maxDAGLen {
		return nil, nil, fmt.Errorf("%d parameters, more than %d", s.Len(), maxDAGLen)
	}
	return s, nil, nil
}

// Estimate counts the exact sums at their cap, and the methods' E steps
// and likelihoods, each over at most n patterns × the joint hidden
// configurations × the nodes; Laplace's Newton steps (about 20, each a
// Hessian: an E step and the outer products of laplaceHessOps); EP's two
// runs (from VB's q and from the prior) at dagEPSiteOps per point and
// sweep, with an evidence pass per rung, and its sites, n × the
// parameters, held by each cell.
func (c *DAGConfig) Estimate() experiments.Cost {
	var sumN float64
	for _, n := range c.N {
		sumN += float64(n)
	}
	ns := experiments.KeyN("n", c.N, sumN, "data points summed over the data sets")
	seeds := experiments.Key("seeds", c.Seeds)
	var ladder int
	for _, k := range c.AIS.Ladder {
		ladder += k
	}
	per := 4.0 * 10 // configurations × nodes of the chapter-6 structure, the largest shipped
	// A draw of IS holds the parameters of the largest structure.
	maxLen := 0
	for _, name := range c.Structures {
		if st, _, err := parseDAG(name); err == nil {
			maxLen = max(maxLen, st.Len())
		} else {
			maxLen = maxDAGLen
		}
	}
	// EP's work per point and sweep at the largest structure (nodes ≤ 9,
	// hidden configurations ≤ 5 for an "lc" model, 4 for ch6).
	epSite := dagEPSiteOps(5, 9, maxLen)
	return experiments.Cost{
		Cells:      []experiments.Factor{experiments.KeyN("structures", c.Structures, float64(len(c.Structures)), "data sets"), seeds},
		Memory:     []experiments.Part{experiments.Words("IS draws and weights", experiments.KeyN("structures", c.Structures, float64(maxLen+1), "values a draw"), experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs))},
		CellMemory: []experiments.Part{experiments.Words("EP sites", experiments.KeyN("n", c.N, float64(slices.Max(c.N)), "points at most"), experiments.KeyN("structures", c.Structures, float64(maxLen), "parameters"))},
		Work: []experiments.Part{
			experiments.Ops("EP", 2*epSite, ns, seeds, experiments.KeyN("ep_sweeps", c.EPSweeps, float64(slices.Max(c.EPSweeps)+len(c.EPSweeps)), "sweeps and evidence passes")),
			experiments.Ops("the exact sums", 20, experiments.KeyN("structures", c.Structures, float64(len(c.Structures)), "data sets"), seeds, experiments.KeyN("max_exact_terms", c.MaxExactTerms, c.MaxExactTerms, "terms at most")),
			experiments.Ops("VB and EM", per, ns, seeds, experiments.Key("restarts", c.Restarts),
				experiments.KeyN("vb_iterations", c.VBIterations, float64(slices.Max(c.VBIterations)+c.EMIterations), "iterations")),
			experiments.Ops("Laplace", 20*(2*per+2*4*18*18), ns, seeds), // chapter 6's 4 configurations, m = 18
			experiments.Ops("IS", 6*per, ns, seeds, experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs)),
			experiments.Ops("AIS", 2*per, ns, seeds, experiments.KeyN("ais.ladder", c.AIS.Ladder, float64(ladder), "steps summed over the ladder"), experiments.Key("ais.runs", c.AIS.Runs)),
			experiments.Ops("gold AIS", 2*per, ns, seeds, experiments.Key("gold_ais.steps", c.GoldAIS.Steps), experiments.Key("gold_ais.runs", c.GoldAIS.Runs)),
		},
	}
}

// Criteria states the criteria of a run.
func (c *DAGConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return Criteria(true, IS, AIS), nil
}

// relabellings returns the parameter index maps of every relabelling of
// the states of s's hidden nodes that have children (the S aliases of
// AliasStrict when the graph has no automorphism): perm[i] is the index
// whose value moves to i. Node j's own rows have their entries permuted,
// and each child's rows are reordered by the permuted parent state.
func relabellings(s *dag.Structure) [][]int {
	id := make([]int, s.Len())
	for i := range id {
		id[i] = i
	}
	out := [][]int{id}
	for _, j := range s.Hidden() {
		if s.Children(j) == 0 {
			continue
		}
		var next [][]int
		for _, pi := range permutations(s.Arity(j)) {
			m := relabelNode(s, j, pi)
			for _, p := range out {
				q := make([]int, len(p))
				for i := range q {
					q[i] = p[m[i]]
				}
				next = append(next, q)
			}
		}
		out = next
	}
	return out
}

// relabelNode is the index map of relabelling node j's states by pi
// (state k becomes pi[k]).
func relabelNode(s *dag.Structure, j int, pi []int) []int {
	m := make([]int, s.Len())
	for i := range m {
		m[i] = i
	}
	a := s.Arity(j)
	for l := range s.Rows(j) {
		o := s.Offset(j) + l*a
		for k := range a {
			m[o+pi[k]] = o + k
		}
	}
	for c := range s.Nodes() {
		pa := s.Parents(c)
		pos := slices.Index(pa, j)
		if pos < 0 {
			continue
		}
		z := make([]int, s.Nodes())
		for l := range s.Rows(c) {
			// Decode l (mixed radix over the parents, the last fastest).
			r := l
			for i := len(pa) - 1; i >= 0; i-- {
				z[pa[i]] = r % s.Arity(pa[i])
				r /= s.Arity(pa[i])
			}
			z[j] = pi[z[j]]
			l2 := s.Config(c, z)
			ac := s.Arity(c)
			for k := range ac {
				m[s.Offset(c)+l2*ac+k] = s.Offset(c) + l*ac + k
			}
		}
	}
	return m
}

// permutations lists the permutations of 0…n−1.
func permutations(n int) [][]int {
	if n == 1 {
		return [][]int{{0}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for pos := 0; pos <= len(p); pos++ {
			q := append(append(append([]int{}, p[:pos]...), n-1), p[pos:]...)
			out = append(out, q)
		}
	}
	return out
}

// rowProposal is the product of Dirichlets Dir(alpha_jl) over the rows
// of s, in the layout of Params.
func rowProposal(s *dag.Structure, alpha dag.Params) is.Proposal {
	var blocks []is.Proposal
	for j := range s.Nodes() {
		for l := range s.Rows(j) {
			blocks = append(blocks, is.NewDirichlet(s.Row(alpha, j, l)))
		}
	}
	return is.NewProduct(blocks...)
}

// dagTarget is ln p(θ) + ln p(y | θ) of a Problem as an is.Target.
type dagTarget struct{ p *dag.Problem }

func (t dagTarget) LogProb(theta []float64) float64 {
	lp := t.p.LogPrior(dag.Params(theta))
	if math.IsInf(lp, -1) {
		return lp
	}
	return lp + t.p.LogLik(dag.Params(theta))
}

// runDAGCell draws data set k for seed, computes its gold standard and
// every method.
func (c *DAGConfig) runDAGCell(k int, seed uint64) (rowCell, error) {
	runtime.LockOSThread() // the CPU clock of one thread (startClock)
	defer runtime.UnlockOSThread()
	name := c.Structures[k]
	s, theta, err := parseDAG(name)
	if err != nil {
		return rowCell{}, err
	}
	sd := strconv.FormatUint(seed, 10)
	ds := fmt.Sprintf("%s-n%d", strings.ReplaceAll(strings.ReplaceAll(name, ":", "_"), ",", ""), c.N[k])
	cl := rowCell{Dataset: ds, Seed: seed}
	rnd := rng.New(c.Seed, "atlas-dag", "data", strconv.Itoa(k), sd)
	if theta == nil {
		theta = s.RandomParams(rnd)
	}
	obs, _ := dag.Sample(s, theta, c.N[k], rnd)
	data, err := dag.NewData(obs)
	if err != nil {
		return cl, err
	}
	p, err := dag.NewProblem(s, s.SymmetricPrior(c.Prior.Lambda), data)
	if err != nil {
		return cl, err
	}
	nan := math.NaN()
	// Operations: an E step or a likelihood is a product over every
	// pattern, joint hidden configuration and node.
	evalOps := float64(data.NumPatterns()*p.HiddenConfigs()*s.Nodes()) * 2
	if terms := p.ExactTerms(); terms <= c.MaxExactTerms {
		g, err := p.Exact()
		if err != nil {
			return cl, err
		}
		cl.Gold, cl.GoldSE, cl.GoldKind = experiments.Float(g), 0, GoldEnumeration
		cl.note(fmt.Sprintf("exact_terms_%s", ds))
	} else {
		lz, se, _, err := c.dagAIS(p, c.GoldAIS.AIS, c.GoldAIS.Alpha, evalOps, "gold", ds, sd)
		if err != nil {
			return cl, err
		}
		cl.Gold, cl.GoldSE, cl.GoldKind = experiments.Float(lz), experiments.Float(se), GoldAISLong
	}
	inits := p.Inits(c.Restarts, rng.New(c.Seed, "atlas-dag", "inits", ds, sd))

	// VBEM from every start, the best F at each rung.
	start := startClock()
	best := map[int]float64{}
	var alpha dag.Params
	bestF := math.Inf(-1)
	for r, init := range inits {
		m := p.NewVB(init)
		set := config.FixedBudget(slices.Max(c.VBIterations)).Settings(nil, m)
		set.Recorder = func(it vb.Iteration) {
			if b := it.Iter + 1; slices.Contains(c.VBIterations, b) {
				if f, ok := best[b]; !ok || it.F > f {
					best[b] = it.F
				}
			}
		}
		res := vb.Run(m, set)
		if err := res.Error(); err != nil {
			return cl, fmt.Errorf("%s, seed %d: VBEM restart %d: %w", ds, seed, r, err)
		}
		if res.F > bestF {
			bestF, alpha = res.F, m.Posterior()
		}
	}
	cpu := start.elapsed()
	for _, b := range c.VBIterations {
		if f, ok := best[b]; ok {
			cl.add(VB, b, f, nan, float64(b*c.Restarts)*evalOps, time.Duration(float64(cpu)*float64(b)/float64(slices.Max(c.VBIterations))), nan, nan)
		}
	}

	// EM from the same starts; BIC, BICp and CS at its point, corrected by
	// the aliases (eq. (6.26)).
	start = startClock()
	em, err := p.ScoreEM(inits, dag.Settings{MaxIterations: c.EMIterations, Estimator: dag.ML})
	if err != nil {
		return cl, fmt.Errorf("%s, seed %d: %w", ds, seed, err)
	}
	ls := s.LogAliases(dag.AliasStrict)
	emOps := float64(em.Iterations*c.Restarts) * evalOps
	cl.add(BIC, 0, em.BIC+ls, nan, emOps, start.elapsed(), nan, nan)
	cl.add(CS, 0, em.CS+ls, nan, emOps+evalOps, start.elapsed(), nan, nan)
	cl.BICp = experiments.Float(em.BICp + ls)

	// Laplace in the softmax basis (dag.Unconstrained) from the posterior
	// mean of VB's best q(θ), + ln S of the aliases (the S relabelled
	// modes taken as separate, as for BIC and CS). Newton with the
	// analytic gradient and Hessian; a log density or a gradient costs an
	// E step, a Hessian an E step and the covariances of the gradient
	// over the hidden configurations (laplaceHessOps). No estimate where
	// −∇∇ is not positive definite at the point found or no stationary
	// point is found (note_laplace_indefinite).
	start = startClock()
	un := p.NewUnconstrained()
	x0, err := un.Pack(s.PosteriorMean(alpha))
	if err != nil {
		return cl, fmt.Errorf("%s, seed %d: Laplace: %w", ds, seed, err)
	}
	var lapOps float64
	hessOps := evalOps + laplaceHessOps(s, data.NumPatterns(), p.HiddenConfigs())
	lap, err := approx.Laplace(approx.Func{
		LogP:     func(x []float64) float64 { lapOps += evalOps; return un.LogProb(x) },
		Grad:     func(dst, x []float64) { lapOps += evalOps; un.Grad(dst, x) },
		Hess:     func(dst, x []float64) { lapOps += hessOps; un.Hess(dst, x) },
		GradHess: func(g, h, x []float64) { lapOps += hessOps; un.GradHess(g, h, x) },
	}, x0)
	if err != nil {
		cl.note("laplace_indefinite")
	} else {
		cl.add(Laplace, 0, lap.LnZ+ls, nan, lapOps, start.elapsed(), nan, nan)
	}

	// IS from the mixture of VB's q over every relabelling, with the prior.
	var comps []is.Proposal
	for _, perm := range relabellings(s) {
		a := make(dag.Params, len(alpha))
		for i := range a {
			a[i] = alpha[perm[i]] / (c.IS.Widen * c.IS.Widen)
		}
		comps = append(comps, rowProposal(s, a))
	}
	prop := is.NewDefensive(is.NewMixture(comps...), rowProposal(s, s.SymmetricPrior(c.Prior.Lambda)), c.IS.Defensive)
	drawOps := evalOps + float64(len(comps)+2)*float64(s.Len())*30
	isRungs(&cl, c.IS.IS, c.IS.Ladder, is.RunStreams(c.Seed, "atlas-dag", "is", ds, sd), prop, dagTarget{p}, drawOps, nil)

	if err := c.dagEP(&cl, p, alpha); err != nil {
		return cl, fmt.Errorf("%s, seed %d: %w", ds, seed, err)
	}

	// AIS, one set of runs per rung.
	for _, kk := range c.AIS.Ladder {
		start = startClock()
		a := c.AIS.AIS
		a.Steps = kk
		lz, se, ops, err := c.dagAIS(p, a, c.AIS.Alpha, evalOps, "ais", ds, sd, strconv.Itoa(kk))
		if err != nil {
			return cl, err
		}
		cl.add(AIS, kk, lz, se, ops, start.elapsed(), nan, nan)
	}
	return cl, nil
}

// laplaceHessOps counts the covariance part of dag.Unconstrained.Hess:
// per pattern and joint hidden configuration, the outer product of the
// varying part of ∇ℓ_s, at most m = Σ_{j hidden or with a hidden parent}
// (|z_j| − 1) coordinates, 2m² operations (the E step's part is evalOps).
func laplaceHessOps(s *dag.Structure, patterns, configs int) float64 {
	var m int
	for j := range s.Nodes() {
		varies := s.IsHidden(j)
		for _, q := range s.Parents(j) {
			varies = varies || s.IsHidden(q)
		}
		if varies {
			m += s.Arity(j) - 1
		}
	}
	return 2 * float64(patterns*configs*m*m)
}

// dagAIS makes a.Runs runs of Algorithm 6.1 and returns the pooled
// estimate (6.61), its SE and the operations (a likelihood and a
// proposal's draw of every row per step).
func (c *DAGConfig) dagAIS(p *dag.Problem, a config.AIS, alpha, evalOps float64, labels ...string) (lz, se, ops float64, err error) {
	s := p.Structure()
	sampler := ais.Sampler[dag.Params]{Model: p, NewKernel: func() mcmc.Kernel[dag.Params] {
		return &mcmc.MH[dag.Params]{Target: p, Proposal: dag.NewDirichletProposal(s, alpha)}
	}}
	runs, _, err := config.Sample(a, sampler, 1, c.Seed, append([]string{"atlas-dag"}, labels...)...)
	if err != nil {
		return 0, 0, 0, err
	}
	lz, se = ais.Pool(ais.LogWeights(runs))
	return lz, se, float64(a.Steps*a.Runs) * (evalOps + float64(s.Len())*30), nil
}

// RunDAG runs every (data set, seed) cell and writes the grid.
func RunDAG(env *experiments.Env, c *DAGConfig) error {
	names, keys := setSeedCells(len(c.Structures), c.Seeds, 0, func(k, s int) string { return fmt.Sprintf("d%d-s%02d", k, s) })
	cells, complete, err := experiments.RunAllCells(env, names, nil, func(i int) (rowCell, error) {
		return c.runDAGCell(keys[i].set, keys[i].seed)
	})
	if err != nil || !complete {
		return err
	}
	s := &results.Summary{Metrics: map[string]float64{}, Criteria: Criteria(true, IS, AIS)}
	var absent []Absent
	laplace := false
	for _, cl := range cells {
		for _, e := range cl.Est {
			laplace = laplace || e.Method == Laplace
		}
	}
	if !laplace {
		absent = append(absent, Absent{Method: Laplace, Why: "not applicable: in no cell was a stationary point found with −∇∇ ln p(η, y) positive definite (note_laplace_indefinite)"})
	}
	noteMetrics(s, cells)
	// BICp is not a column of the grid: its error is a metric of the row.
	var bicp []float64
	for _, cl := range cells {
		bicp = append(bicp, math.Abs(float64(cl.BICp-cl.Gold)))
	}
	s.SetMetric("err_bicp_median", results.Median(bicp))
	altMetrics(s, cells)
	gold, est := rowEstimates(cells)
	if _, err := WriteGrid(env.Dir, s, "dag", gold, est, absent); err != nil {
		return err
	}
	s.AddFindingsFromChecks(nil)
	return env.WriteSummary(s, fmt.Sprintf("Atlas row: discrete DAGs with hidden variables (Beal 2003 ch. 6), structures %v with n = %v points drawn from them (a latent class model's parameters from Dir(1) rows, chapter 6's its true ones, lines 4696-4704), %d seeds; prior λ = %g on every row. "+
		"Gold standard: ln p(y|m) by summing every completion of the hidden variables (Problem.Exact, eq. 6.12) where it has at most %g terms (the note_exact_terms_<set> metrics count the cells), else AIS of %d runs × %d steps. "+
		"VB: F (VB*, a bound) of the best of %d VBEM starts after %v iterations; BIC, CS at the best of the same EM starts (ML, at most %d iterations), each + ln S of the aliases (AliasStrict; eq. 6.26); BICp's error is the metric err_bicp_median (BICp is not a column of the grid). "+
		"Laplace: core/approx.Laplace (Newton, analytic gradient and Hessian) on ln p(θ|m) + ln p(y|θ) + ln Π θ in the softmax basis η = ln(θ_k/θ_K) of every row (dag.Unconstrained; MacKay 1998), from the posterior mean of VB's best q(θ), + ln S (the S relabelled modes taken as separate); none where −∇∇ is not positive definite at the point found (note_laplace_indefinite). "+
		"EP: dag.EP, a product of Dirichlet rows with one site per point, the point's likelihood summed over the hidden configurations (a monomial mixture, Minka & Lafferty 2002), started at the best VBEM run's q (FamilyEP.StartAt), damping %g, evidence after %v sweeps, + ln S_eff = ln S − ln Σ_π BC(q, q∘π) over the relabellings π (BC the Bhattacharyya coefficient: S for separate modes, 1 for a symmetric q); err_ep_all_aliases_median is the same EP + ln S, err_ep_symmetric_median EP from the symmetric prior (its fixed point relabelling-symmetric), both at the last rung; ops a sweep's site updates and one evidence pass, VB's cost not included. "+
		"IS: %d runs of up to %d draws from VB's q (its Dirichlet counts divided by %g²) mixed over every relabelling of the hidden states (the S aliases) and with the prior at %g; AIS: Algorithm 6.1 with the Dirichlet proposal of strength %g, %d runs per rung of %v steps, %s schedule. "+
		"No posterior moments: the exact posterior of θ (a mixture over the completions, Problem.Exact's terms) is symmetric under the relabellings of the hidden states, so its mean is the label average, which no single-mode q is meant to match. Operations: 2 × patterns × joint hidden configurations × nodes per E step or likelihood (Laplace's log densities and gradients), a Hessian that plus 2m² per pattern and configuration (m the coordinates that vary with the hidden states), 30 per parameter per Dirichlet draw or density.",
		c.Structures, c.N, c.Seeds, c.Prior.Lambda, c.MaxExactTerms, c.GoldAIS.Runs, c.GoldAIS.Steps, c.Restarts, c.VBIterations, c.EMIterations,
		c.EP.Damping, c.EPSweeps, c.IS.Runs, c.IS.Samples, c.IS.Widen, c.IS.Defensive, c.AIS.Alpha, c.AIS.Runs, c.AIS.Ladder, c.AIS.Schedule))
}
