package chapter6

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// Methods are the scores whose ranks the chapter reports, in the column
// order of Table 6.1 followed by CS† (section 6.5.2): a star marks a score
// without the alias correction ln S (eq. (6.26), lines 4383–4386); MAP is
// never corrected.
var Methods = []string{"MAP", "BIC*", "BICp*", "CS*", "CSdagger*", "VB*", "BIC", "BICp", "CS", "CSdagger", "VB"}

// column returns the CSV column name of a method ("BIC*" → "bic_star").
func column(method string) string {
	switch method {
	case "MAP":
		return "map"
	case "AIS5":
		return "ais5"
	}
	c := ""
	for _, r := range method {
		switch {
		case r == '*':
			c += "_star"
		case r >= 'A' && r <= 'Z':
			c += string(r - 'A' + 'a')
		default:
			c += string(r)
		}
	}
	return c
}

// StructScore holds every EM- and VB-derived score of one structure on one
// data set (dag.Problem.Score with the protocol of section 6.4.1), the
// uncorrected values with ln S beside them, and the cost of each.
type StructScore struct {
	// LogLik is ln p(y|θ̂), the MAP score (6.64); BIC, BICp, CS and CSDagger
	// are the starred scores (6.26), line 4718, (6.31), section 6.5.2; VB is
	// the bound F at convergence, best of the restarts.
	LogLik, BIC, BICp, CS, CSDagger, VB experiments.Float
	// LogS is ln S(m), the alias correction.
	LogS float64
	// FromCS is F of one VBEM run started from the CS point of θ̂
	// (Corollary 2.5); NaN when not run.
	FromCS experiments.Float
	// EMIter and VBIter are the E steps of the selected restarts.
	EMIter, VBIter int
	// EMStatus and VBStatus are the vb.Status names of the selected
	// restarts, or "bound-decreased" when a run's objective fell.
	EMStatus, VBStatus string
	// EMSeconds and VBSeconds are the wall times of all EM restarts with
	// the EM-derived scores, and of all VBEM restarts.
	EMSeconds, VBSeconds float64
}

// Value returns the score of method m (one of Methods).
func (s StructScore) Value(m string) float64 {
	if m == "MAP" {
		return float64(s.LogLik)
	}
	// "X*" is the score without the alias correction, "X" with it.
	base, raw := strings.CutSuffix(m, "*")
	var v float64
	switch base {
	case "BIC":
		v = float64(s.BIC)
	case "BICp":
		v = float64(s.BICp)
	case "CS":
		v = float64(s.CS)
	case "CSdagger":
		v = float64(s.CSDagger)
	case "VB":
		v = float64(s.VB)
	default:
		panic("chapter6: unknown method " + m)
	}
	if raw {
		return v
	}
	return v + s.LogS
}

// scorer scores every candidate structure on a data set.
type scorer struct {
	model ModelSettings
	prior PriorSettings
	set   dag.Settings
	seed  uint64
	cands []dag.Code
}

// scorer returns the scorer of the settings, its random streams derived
// from seed.
func (s Scoring) scorer(seed uint64) scorer {
	m, set := s.Model, s.Scores.settings()
	if s.Prior.Lambda < 1 {
		// MAP-EM (6.23) needs λ ≥ 1 (line 4364); below it the EM scores
		// are taken at the ML estimate.
		set.Estimator = dag.ML
	}
	return scorer{model: m, prior: s.Prior, set: set, seed: seed, cands: dag.Candidates()}
}

// problem binds structure i to the data.
func (sc scorer) problem(i int, d dag.Data) (*dag.Problem, error) {
	s := sc.model.structure(sc.cands[i])
	return dag.NewProblem(s, s.SymmetricPrior(sc.prior.Lambda), d)
}

const statusDecreased = "bound-decreased"

// scoreAll scores every candidate on the first n rows with EM and VBEM
// (three shared random restarts each; dag.Problem.Score), and, if fromCS,
// also runs VBEM once from the Cheeseman–Stutz point (targets §3.13). The
// restarts of structure i draw from the stream (seed, label…, i), so the
// result does not depend on the order or the worker that computes it. A
// run whose objective decreases is recorded with status bound-decreased
// and NaN scores rather than stopping the sweep.
func (sc scorer) scoreAll(rows [][]int, n int, fromCS bool, label ...string) ([]StructScore, error) {
	d, err := dag.NewData(rows[:n])
	if err != nil {
		return nil, err
	}
	out := make([]StructScore, len(sc.cands))
	for i := range sc.cands {
		p, err := sc.problem(i, d)
		if err != nil {
			return nil, err
		}
		out[i] = sc.score(p, fromCS, rng.New(sc.seed, append(label, strconv.Itoa(i))...))
	}
	return out, nil
}

// score runs the protocol of dag.Problem.Score on p, timing EM and VBEM
// separately.
func (sc scorer) score(p *dag.Problem, fromCS bool, rnd *rand.Rand) StructScore {
	nan := experiments.Float(math.NaN())
	out := StructScore{LogS: p.Structure().LogAliases(sc.set.Alias), FromCS: nan}
	inits := p.Inits(sc.set.Restarts, rnd)
	start := time.Now()
	em, err := p.ScoreEM(inits, sc.set)
	out.EMSeconds = time.Since(start).Seconds()
	if err != nil {
		out.LogLik, out.BIC, out.BICp, out.CS, out.CSDagger, out.VB = nan, nan, nan, nan, nan, nan
		out.EMStatus, out.VBStatus = failure(err), "not-run"
		return out
	}
	out.LogLik, out.BIC, out.BICp = experiments.Float(em.LogLik), experiments.Float(em.BIC), experiments.Float(em.BICp)
	out.CS, out.CSDagger = experiments.Float(em.CS), experiments.Float(em.CSDagger)
	out.EMIter, out.EMStatus = em.Iterations, em.Status.String()
	start = time.Now()
	var v dag.VBScore
	if sc.set.VBInit == dag.FromCS {
		v, err = p.ScoreVBFrom(p.CSPosterior(em.Theta), sc.set)
	} else {
		v, err = p.ScoreVB(inits, sc.set)
	}
	out.VBSeconds = time.Since(start).Seconds()
	if err != nil {
		out.VB, out.VBStatus = nan, failure(err)
		return out
	}
	out.VB, out.VBIter, out.VBStatus = experiments.Float(v.F), v.Iterations, v.Status.String()
	switch {
	case sc.set.VBInit == dag.FromCS:
		out.FromCS = out.VB
	case fromCS:
		if w, err := p.ScoreVBFrom(p.CSPosterior(em.Theta), sc.set); err == nil {
			out.FromCS = experiments.Float(w.F)
		}
	}
	return out
}

// failure names the status of a failed run.
func failure(err error) string {
	if errors.Is(err, vb.ErrBoundDecreased) {
		return statusDecreased
	}
	return "error: " + err.Error()
}

// AISResult is one AIS run of Algorithm 6.1 on one structure.
type AISResult struct {
	// LogW is the run's estimate of ln p(y|m) (AIS^(1)).
	LogW experiments.Float
	// Accepted and Proposed count the MH proposals of the whole run;
	// QAccepted and QProposed those of the four quarters of the schedule
	// (Figure 6.12).
	Accepted, Proposed   int
	QAccepted, QProposed [4]int
	Seconds              float64
}

// schedule returns τ(0…K) of the [ais] keys.
func (a AISSettings) schedule() []float64 { return a.Tau(a.Steps) }

// sampler returns the AIS sampler of Algorithm 6.1 for p: the joint
// Dirichlet proposal (6.59) of strength alpha inside an MH kernel (6.60)
// with C_k = C′_k = 1, under schedule tau.
func sampler(p *dag.Problem, alpha float64, tau []float64) ais.Sampler[dag.Params] {
	s := p.Structure()
	return ais.Sampler[dag.Params]{
		Model: p,
		NewKernel: func() mcmc.Kernel[dag.Params] {
			return &mcmc.MH[dag.Params]{Target: p, Proposal: dag.NewDirichletProposal(s, alpha)}
		},
		Tau: tau,
	}
}

// aisAll makes one AIS run for every candidate on the first n rows, run
// i drawing from the stream (seed, label…, i).
func (sc scorer) aisAll(rows [][]int, n int, a AISSettings, label ...string) ([]AISResult, error) {
	d, err := dag.NewData(rows[:n])
	if err != nil {
		return nil, err
	}
	tau := a.schedule()
	out := make([]AISResult, len(sc.cands))
	for i := range sc.cands {
		p, err := sc.problem(i, d)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		smp := sampler(p, a.Alpha, tau)
		run := smp.Run(rng.New(sc.seed, append(label, strconv.Itoa(i))...))
		st := run.Stats()
		r := AISResult{LogW: experiments.Float(run.LogW), Accepted: st.Accepted, Proposed: st.Proposed}
		if run.K() >= 4 {
			for q, s := range run.StatsByPart(4) {
				r.QAccepted[q], r.QProposed[q] = s.Accepted, s.Proposed
			}
		}
		r.Seconds = time.Since(start).Seconds()
		out[i] = r
	}
	return out, nil
}

// drawData draws a nested stream of n data points from the structure code
// with parameters theta (ancestral sampling; the data set of size m is the
// first m points, line 4712). The hidden values are discarded.
func drawData(m ModelSettings, theta dag.Params, n int, rnd *rand.Rand) [][]int {
	c, err := dag.ParseCode(m.TrueCode)
	if err != nil {
		panic(err)
	}
	obs, _ := dag.Sample(c.Structure(), theta, n, rnd)
	return obs
}

// thesisParams returns the thesis's true parameters (lines 4696–4704,
// rows renormalised) in the layout of the configured true structure, which
// must have the row counts of Fig. 6.1's (y3 and y6 one hidden parent, y4
// and y5 two).
func thesisParams(m ModelSettings) (dag.Params, error) {
	c, err := dag.ParseCode(m.TrueCode)
	if err != nil {
		return nil, err
	}
	s, ts := c.Structure(), dag.TrueCode.Structure()
	for j := 0; j < s.Nodes(); j++ {
		if s.Rows(j) != ts.Rows(j) {
			return nil, config.FieldError("model.true_code", m.TrueCode,
				fmt.Sprintf("the thesis's parameters need the row counts of %s (y3 and y6 with one hidden parent, y4 and y5 with two)", dag.TrueCode))
		}
	}
	return dag.TrueParams(), nil
}

// priorParams draws the parameters of the true structure from the prior,
// every row from Dir(λ) (section 6.4.2, line 4797).
func priorParams(m ModelSettings, pr PriorSettings, rnd *rand.Rand) dag.Params {
	c, err := dag.ParseCode(m.TrueCode)
	if err != nil {
		panic(err)
	}
	s := c.Structure()
	theta := make(dag.Params, s.Len())
	for j := 0; j < s.Nodes(); j++ {
		alpha := make([]float64, s.Arity(j))
		for k := range alpha {
			alpha[k] = pr.Lambda
		}
		for l := 0; l < s.Rows(j); l++ {
			dist.Dirichlet{Alpha: alpha}.Rand(s.Row(theta, j, l), rnd)
		}
	}
	return theta
}

// rankOf returns the rank of structure t under scores, 1 + #{m ≠ t:
// score(m) > score(t)} with a strict inequality and no tolerance (targets
// §1.7 item 10); NaN if score(t) is not a number.
func rankOf(scores []float64, t int) float64 {
	if math.IsNaN(scores[t]) {
		return math.NaN()
	}
	r := 1
	for m, v := range scores {
		if m != t && v > scores[t] {
			r++
		}
	}
	return float64(r)
}

// deltaOf returns score(t) − max_m score(m) ≤ 0, the score difference of
// Figure 6.4 (NaN scores ignored in the maximum).
func deltaOf(scores []float64, t int) float64 {
	best := math.Inf(-1)
	for _, v := range scores {
		if v > best {
			best = v
		}
	}
	return scores[t] - best
}

// values returns method m's score of every structure.
func values(ss []StructScore, m string) []float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = s.Value(m)
	}
	return v
}

// pooled returns the AIS^(G) score (6.61) of every structure from G runs.
func pooled(runs [][]AISResult) []float64 {
	if len(runs) == 0 {
		return nil
	}
	out := make([]float64, len(runs[0]))
	lw := make([]float64, len(runs))
	for i := range out {
		for g := range runs {
			lw[g] = float64(runs[g][i].LogW)
		}
		out[i], _ = ais.Pool(lw)
	}
	return out
}
