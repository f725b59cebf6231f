// Package chapter6 holds the experiments of Beal (2003) chapter 6,
// "Learning the structure of discrete-variable graphical models with hidden
// variables" (thesis text ../shared/seeds/000_055f6e591db3cc60.txt, lines
// 4226–5032; targets ../shared/targets/ch6-dag.md): every one of the 136
// bipartite DAGs with two binary hidden parents and four 5-valued observed
// children is scored by MAP, BIC, BICp, Cheeseman–Stutz (CS, CS†), the VB
// lower bound and annealed importance sampling (AIS), on nested data sets
// of 20 sizes drawn from the true structure of Figure 6.1.
//
// The experiments, each a registry entry with its config in
// configs/chapter6:
//
//	chapter6/single-instance   one true model (the thesis's parameters):
//	                           Figs 6.1–6.4, 6.11, 6.12, Tables 6.1, 6.3,
//	                           6.4, the VB-below-CS count (section 6.6) and
//	                           the exact marginal likelihood at n = 10
//	                           (targets §3.14), with per-score times
//	chapter6/single-instance-k8192, chapter6/single-instance-em-converged
//	                           the same with K = 8192 AIS steps, with EM run
//	                           to convergence: extensions of the thesis
//	chapter6/prior-average     true models drawn from the prior
//	                           (section 6.4.2): Figs 6.5–6.9, Tables 6.2, 6.5
//	chapter6/ais-granularity   AIS estimate against schedule length (Fig 6.10)
//	chapter6/schedules         the schedules (6.73) (Fig 6.13) and the
//	                           forward/reverse hysteresis of lines 4942–4953
//	chapter6/dimensionality    Algorithm 6.2: d and d′ of every structure
//
// The models and scores are core/model/dag's, the sampler samplers/ais
// with the Metropolis–Hastings kernel of samplers/mcmc.
package chapter6

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments/config"
)

// ThesisSizes are the 20 data-set sizes of section 6.4 (line 4712).
var ThesisSizes = []int{10, 20, 40, 80, 110, 160, 230, 320, 400, 430, 480, 560, 640, 800, 960, 1120, 1280, 2560, 5120, 10240}

// ModelSettings are the [model] keys shared by the chapter's experiments.
type ModelSettings struct {
	// PruneChildless removes the hidden nodes without children from every
	// candidate (targets §1.6, an ablation): the thesis keeps them, which
	// costs VB about ½ ln n per such node.
	PruneChildless bool `toml:"prune_childless_hidden"`
	// TrueCode is the generating structure as c3c4c5c6 (targets §3.0);
	// "1332" is the reconstruction of Fig. 6.1, "1331" the alternative of
	// targets §4 item 1.
	TrueCode string `toml:"true_code"`
}

func defaultModel() ModelSettings { return ModelSettings{TrueCode: dag.TrueCode.String()} }

// ours reports whether the [model] keys are ours rather than the
// thesis's: another true structure, or the childless hidden nodes pruned.
func (m ModelSettings) ours() bool {
	return m.PruneChildless || !strings.EqualFold(m.TrueCode, dag.TrueCode.String())
}

// PriorSettings is the [prior] table: λ_jlk, the pseudo-count of every
// Dirichlet prior of the parameters (eqs. (6.4)–(6.6)); the thesis uses 1
// (line 4694). With λ = 1 the MAP estimate (6.23) is the ML estimate.
type PriorSettings struct {
	Lambda float64 `toml:"lambda" range:"(0,1e6]"`
}

func defaultPrior() PriorSettings { return PriorSettings{Lambda: 1} }

// ours reports whether λ is ours rather than the thesis's 1.
func (p PriorSettings) ours() bool { return p != defaultPrior() }

// retired are the keys of chapter 6 renamed or moved: the prior's
// strength to [prior], the AIS tables' number of steps to steps, and
// ais-granularity's [anneal] table to [ais].
var retired = map[string]string{"model.prior_lambda": "prior.lambda", "ais.k": "ais.steps", "anneal": "ais",
	"k_grid": "steps_grid", "hysteresis.k_values": "hysteresis.steps_grid"}

func (m ModelSettings) validate() error {
	c, err := dag.ParseCode(m.TrueCode)
	if err != nil {
		return config.FieldError("model.true_code", m.TrueCode, "must be four digits 0–3, e.g. \"1332\"")
	}
	if c.HUsed() == 0 {
		return config.FieldError("model.true_code", m.TrueCode, "must give some observed node a hidden parent")
	}
	return nil
}

// trueCode returns the canonical code of the true structure and its index
// among dag.Candidates.
func (m ModelSettings) trueCode() (dag.Code, int) {
	c, err := dag.ParseCode(m.TrueCode)
	if err != nil {
		panic(err) // validated
	}
	if !c.Canonical() {
		c = c.Swap()
	}
	return c, slices.Index(dag.Candidates(), c)
}

// structure returns the DAG of code c under the [model] settings.
func (m ModelSettings) structure(c dag.Code) *dag.Structure {
	s := c.Structure()
	if m.PruneChildless {
		s = s.Prune()
	}
	return s
}

// ScoreSettings are the [scores] keys: the EM/VBEM protocol of section
// 6.4.1 (line 4718; targets §3.0).
type ScoreSettings struct {
	// Restarts is the number of random initialisations shared by EM and
	// VBEM, each parameter row drawn from Dir(1). Thesis 3.
	Restarts int `toml:"restarts" range:"[1,1e6]"`
	// MaxIterations caps the iterations of each EM and VBEM run. Thesis
	// 1000.
	MaxIterations int `toml:"max_iterations" range:"[1,1e8]"`
	// TolPerDatum stops a run once its objective rises by less than
	// tol_per_datum·n in one iteration: nats a datum, a fraction of the
	// one nat that already separates structures. Thesis 1e-6.
	TolPerDatum float64 `toml:"tol_per_datum" range:"(0,1)"`
	// AliasRule counts the aliases S of the corrected scores: "thesis"
	// (h_used!·2^h_used), "strict" (only graph automorphisms permute
	// nodes) or "none" (targets §2.6).
	AliasRule string `toml:"alias_rule"`
	// VBInit is "same_theta" (VBEM from the same random θ as EM, the
	// thesis's) or "from_cs" (one VBEM run from the Cheeseman–Stutz point
	// of the best EM restart, Corollary 2.5).
	VBInit string `toml:"vb_init"`
	// EMStop is EM's stop rule: "thesis" (max_iterations and
	// tol_per_datum, as VBEM) or "converged" (until the objective is
	// within dag.ConvergedAbsTol = 1e-3 nats of its limit, at most
	// dag.ConvergedMaxIterations = 100000 iterations; dag.EMStopConverged).
	// VBEM always stops by the thesis's rule.
	EMStop string `toml:"em_stop"`
}

func defaultScores() ScoreSettings {
	return ScoreSettings{Restarts: 3, MaxIterations: 1000, TolPerDatum: 1e-6, AliasRule: "thesis", VBInit: "same_theta", EMStop: "thesis"}
}

// ours reports whether a key of the protocol of line 4718 is set
// otherwise than the thesis's: the iteration cap, the tolerance, the alias
// rule, VB's initialisation or EM's stop rule. The restarts, which [quick]
// reduces, do not count (a quick run's claims are not judged).
func (s ScoreSettings) ours() bool {
	d := defaultScores()
	d.Restarts = s.Restarts
	return s != d
}

func (s ScoreSettings) validate() error {
	if !slices.Contains([]string{"thesis", "strict", "none"}, s.AliasRule) {
		return config.FieldError("scores.alias_rule", s.AliasRule, `must be "thesis", "strict" or "none"`)
	}
	if s.VBInit != "same_theta" && s.VBInit != "from_cs" {
		return config.FieldError("scores.vb_init", s.VBInit, `must be "same_theta" or "from_cs"`)
	}
	if s.EMStop != "thesis" && s.EMStop != "converged" {
		return config.FieldError("scores.em_stop", s.EMStop, `must be "thesis" or "converged"`)
	}
	return nil
}

// settings returns the dag.Settings of the [scores] keys.
func (s ScoreSettings) settings() dag.Settings {
	set := dag.Settings{Restarts: s.Restarts, MaxIterations: s.MaxIterations, TolPerDatum: s.TolPerDatum}
	switch s.AliasRule {
	case "strict":
		set.Alias = dag.AliasStrict
	case "none":
		set.Alias = dag.AliasNone
	}
	if s.VBInit == "from_cs" {
		set.VBInit = dag.FromCS
	}
	if s.EMStop == "converged" {
		set.EMStop = dag.EMStopConverged
	}
	return set
}

// Scoring are the keys of the experiments that score structures
// (single-instance, prior-average, ais-granularity, dimensionality): the
// [model] table, which fixes the candidates and their priors, and the
// [scores] table, the EM/VBEM protocol.
type Scoring struct {
	Model  ModelSettings `toml:"model"`
	Prior  PriorSettings `toml:"prior"`
	Scores ScoreSettings `toml:"scores"`
}

func defaultScoring() Scoring {
	return Scoring{Model: defaultModel(), Prior: defaultPrior(), Scores: defaultScores()}
}

// ours reports whether a key of [model], [prior] or [scores] is ours
// rather than the thesis's: the claims of a run with such a key are claims
// of ours (results.ClaimOn).
func (s Scoring) ours() bool { return s.Model.ours() || s.Prior.ours() || s.Scores.ours() }

func (s Scoring) validate() error {
	return config.FirstError(s.Model.validate(), s.Scores.validate())
}

// AnnealSettings are the keys of the sampler of Algorithm 6.1 (lines
// 4578–4608; targets §2.7) apart from its length and runs: the schedule
// (config.AISSchedule) and the proposal. They are the [ais] table of
// chapter6/ais-granularity, whose lengths are its steps_grid, and, with
// runs and steps, of AISSettings. The schedule is not adapted (pilot_runs =
// 0): with one MH step per temperature the runs lag far behind f_τ, and an
// adapted schedule ends below (6.73)'s (see ais.Adapted).
type AnnealSettings struct {
	config.AISSchedule
	// Alpha is the strength of the Dirichlet proposal centred on the
	// current parameters (6.59); the thesis does not give it (targets §4
	// item 3: 2500).
	Alpha float64 `toml:"alpha" range:"(0,1e12]"`
}

// defaultAnneal returns the thesis's schedule (6.73) with e_τ = 0.2 and
// targets §4 item 3's proposal strength.
func defaultAnneal() AnnealSettings {
	return AnnealSettings{AISSchedule: config.DefaultSchedule(config.ScheduleNonlinear), Alpha: 2500}
}

// ours reports whether the schedule is ours rather than the thesis's
// (6.73) with e_τ = 0.2. The proposal strength α is not the thesis's in
// any case (it gives none), nor does the number of steps count, which
// [quick] reduces.
func (a AnnealSettings) ours() bool {
	return a.Schedule != config.ScheduleNonlinear || a.ETau != defaultAnneal().ETau
}

func (a AnnealSettings) validate(prefix string) error {
	if a.PilotRuns != 0 {
		return config.FieldError(prefix+".pilot_runs", a.PilotRuns, "must be 0: chapter 6's AIS (one MH step per temperature) is not adapted, see ais.Adapted")
	}
	return a.AISSchedule.Validate(prefix)
}

// withSteps returns the [ais] keys of one run of k steps.
func (a AnnealSettings) withSteps(k int) AISSettings {
	return AISSettings{AIS: config.AIS{Runs: 1, Steps: k, AISSchedule: a.AISSchedule}, Alpha: a.Alpha}
}

// AISSettings are the [ais] keys of Algorithm 6.1: runs G of steps K
// steps each, one MH step at each of τ(0…K−1) (thesis 5 runs of 16384
// steps, line 4722, pooled by (6.61) into the AIS^(G) score), the schedule
// and the proposal strength.
type AISSettings struct {
	config.AIS
	Alpha float64 `toml:"alpha" range:"(0,1e12]"`
}

func defaultAIS() AISSettings {
	a := defaultAnneal().withSteps(16384)
	a.Runs = 5
	return a
}

func (a AISSettings) validate() error {
	if a.Runs < 1 {
		return config.FieldError("ais.runs", a.Runs, "must be at least 1: the AIS scores are part of every result")
	}
	return AnnealSettings{AISSchedule: a.AISSchedule, Alpha: a.Alpha}.validate("ais")
}

// MainData are the keys that select the data of the AIS analyses
// (chapter6/ais-granularity, the hysteresis of chapter6/schedules): the
// first N points of the main data set of chapter6/single-instance drawn
// with the data seed DataSeed (its data when seed agrees with its config).
// N is a data size as SingleConfig's sizes, DataSeed a label of a random
// stream as its data_seeds.
type MainData struct {
	N        int `toml:"n" range:"[1,1e7]"`
	DataSeed int `toml:"data_seed" range:"[0,1e9]"`
}

// problem binds the configured true structure (as configured, not its
// canonical swap, so that the thesis's parameters fit it) to the data; it
// returns the thesis's parameters too (nil when the structure is pruned).
func (d MainData) problem(m ModelSettings, pr PriorSettings, seed uint64) (*dag.Problem, dag.Params, error) {
	theta, err := thesisParams(m)
	if err != nil {
		return nil, nil, err
	}
	rows := drawData(m, theta, d.N, rng.New(seed, SingleID, "data", strconv.Itoa(d.DataSeed)))
	data, err := dag.NewData(rows)
	if err != nil {
		return nil, nil, err
	}
	code, _ := dag.ParseCode(m.TrueCode)
	s := m.structure(code)
	p, err := dag.NewProblem(s, s.SymmetricPrior(pr.Lambda), data)
	if err != nil {
		return nil, nil, err
	}
	if m.PruneChildless {
		theta = nil // the thesis's parameters have both hidden nodes
	}
	return p, theta, nil
}

// sizeName formats a data size for cell names and labels.
func sizeName(n int) string { return fmt.Sprintf("n%05d", n) }

// RetiredKeys: see retired.
func (*SingleConfig) RetiredKeys() map[string]string { return retired }

// RetiredKeys: see retired.
func (*GranularityConfig) RetiredKeys() map[string]string { return retired }

// RetiredKeys: see retired.
func (*SchedulesConfig) RetiredKeys() map[string]string { return retired }

// RetiredKeys: see retired.
func (*PriorConfig) RetiredKeys() map[string]string { return retired }

// RetiredKeys: see retired.
func (*DimsConfig) RetiredKeys() map[string]string { return retired }
