package dag

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/score"
	"github.com/vbworkbench/vbw/core/vb"
)

// AliasRule says how the number S of aliases (equivalent relabellings of
// the hidden variables, which give S identical modes of the parameter
// posterior) is counted (Beal (2003) section 6.3.2, lines 4383–4386).
type AliasRule int

const (
	// AliasThesis counts, among the hidden nodes with at least one child,
	// the permutations of a priori identical nodes (those of equal arity)
	// and the permutations of each node's state labels:
	// S = Π_groups (group size)! · Π_{used j∈H} |s_j|!. In chapter 6 this is
	// h_used!·2^h_used = 1, 2 or 8 (targets §2.6 and §4 item 5, the default).
	AliasThesis AliasRule = iota
	// AliasStrict replaces the permutations of identical nodes by those
	// permutations of the used hidden nodes that map the graph onto itself
	// (targets §2.6, the "strict" ablation): in chapter 6, S = 2^h_used,
	// doubled only for a swap-invariant structure with h_used = 2.
	AliasStrict
	// AliasNone sets S = 1.
	AliasNone
)

// LogAliases returns ln S(m) under the rule; the corrected BIC, BICp, CS,
// CS† and VB scores add it (eq. (6.26), lines 4436, 4508). A hidden node
// without children has no alias: it does not enter p(y|θ).
func (s *Structure) LogAliases(rule AliasRule) float64 {
	var used []int
	var ls float64
	for _, j := range s.hid {
		if s.children[j] > 0 {
			used = append(used, j)
			ls += numeric.LogGamma(float64(s.arity[j] + 1))
		}
	}
	switch rule {
	case AliasNone:
		return 0
	case AliasThesis:
		groups := map[int]int{}
		for _, j := range used {
			groups[s.arity[j]]++
		}
		for _, g := range groups {
			ls += numeric.LogGamma(float64(g + 1))
		}
		return ls
	case AliasStrict:
		return ls + math.Log(float64(s.automorphisms(used)))
	}
	panic("dag: unknown alias rule")
}

// automorphisms counts the permutations π of the nodes in used (fixing
// every other node) that preserve arities and the graph: pa(π(j)) = π(pa(j))
// as sets, for every node j.
func (s *Structure) automorphisms(used []int) int {
	perm := make([]int, len(s.arity))
	for j := range perm {
		perm[j] = j
	}
	count := 0
	var rec func(i int)
	rec = func(i int) {
		if i == len(used) {
			if s.preserved(perm) {
				count++
			}
			return
		}
		for k := i; k < len(used); k++ {
			a, b := used[i], used[k]
			if s.arity[a] != s.arity[b] {
				continue
			}
			perm[a], perm[b] = perm[b], perm[a]
			rec(i + 1)
			perm[a], perm[b] = perm[b], perm[a]
		}
	}
	rec(0)
	return count
}

func (s *Structure) preserved(perm []int) bool {
	for j, pa := range s.parents {
		img := s.parents[perm[j]]
		if len(img) != len(pa) {
			return false
		}
		for _, p := range pa {
			found := false
			for _, q := range img {
				found = found || q == perm[p]
			}
			if !found {
				return false
			}
		}
	}
	return true
}

// ExtraDims returns d′ − d, the complete-data dimensions not seen by the
// incomplete-data likelihood, as the CS† score counts them (section 6.5.2,
// lines 4985–4986): |s_j| − 1 for every hidden node with at least one child,
// i.e. h_used for binary hidden nodes, so that CS† adds ln n to a structure
// with two used hidden nodes, ½ ln n with one and nothing to the unconnected
// one (targets §2, §4 item 6). Algorithm 6.2 (Problem.Dimensions) estimates
// d and d′ from data instead.
func (s *Structure) ExtraDims() int {
	var d int
	for _, j := range s.hid {
		if s.children[j] > 0 {
			d += s.arity[j] - 1
		}
	}
	return d
}

// CheesemanStutz returns the uncorrected Cheeseman–Stutz score (CS*) at θ̂
// (eqs. (6.27)–(6.34), lines 4390–4438),
//
//	ln p_CS = ln p(ŝ, y|m) + ln p(y|θ̂) − ln p(ŝ, y|θ̂),
//
// where the completion ŝ has the expected counts N̂ of an exact E step at θ̂
// (the garbled remark at line 4432 corrected, targets §2), ln p(ŝ, y|m) is
// (6.9) at the fractional N̂ (6.32, corrected denominator) and
// ln p(ŝ, y|θ̂) = Σ_jlk N̂_jlk ln θ̂_jlk (6.34). It is a lower bound on
// ln p(y|m) for any θ̂ (Theorem 2.3). It returns −Inf if the data are
// impossible under θ̂.
func (pr *Problem) CheesemanStutz(thetaHat Params) float64 {
	lnp, n := pr.ExpectedCounts(thetaHat)
	if math.IsInf(lnp, -1) {
		return lnp
	}
	cs := lnp
	for r, start := range pr.rowStart {
		end := start + pr.rowLen[r]
		cs += score.CSRow(pr.lambda[start:end], n[start:end], thetaHat[start:end])
	}
	return cs
}

// EMScores are the scores derived from an EM estimate θ̂, all uncorrected
// for aliases (the thesis's starred scores; add Scores.LogAliases).
type EMScores struct {
	Theta     Params  // θ̂
	Objective float64 // the EM objective at θ̂ (MAP: ln p(y|θ̂) + ln p(θ̂|m))
	LogLik    float64 // ln p(y|θ̂), the "MAP" score (6.64)
	LogPrior  float64 // ln p(θ̂|m)
	BIC       float64 // ln p(y|θ̂) − d(m)/2·ln n (6.26)
	BICp      float64 // BIC + ln p(θ̂|m) (line 4718)
	CS        float64 // Cheeseman–Stutz (6.31)
	CSDagger  float64 // CS + (d′ − d)/2·ln n with d′ − d = ExtraDims (section 6.5.2)

	Restart    int       // index of the selected restart
	Iterations int       // its E steps
	Status     vb.Status // its status
}

// VBScore is the result of VBEM.
type VBScore struct {
	Alpha      Params  // q(θ) = Π Dir(α_jl)
	F          float64 // the bound at convergence, uncorrected (VB*)
	Restart    int
	Iterations int
	Status     vb.Status
}

// Scores are all the chapter-6 scores of one structure on one data set.
type Scores struct {
	N          int     // data points
	D          int     // d(m), eq. (6.24)
	HUsed      int     // hidden nodes with children
	LogAliases float64 // ln S(m)
	EM         EMScores
	VB         VBScore
}

// Named is one named score.
type Named struct {
	Name  string
	Value float64
}

// Named returns the scores of Table 6.1 by name, a star marking the
// uncorrected ones: MAP, BIC*, BIC, BICp*, BICp, CS*, CS, CSdagger*,
// CSdagger, VB*, VB (MAP is never corrected, targets §2).
func (s Scores) Named() []Named {
	ls := s.LogAliases
	return []Named{
		{"MAP", s.EM.LogLik},
		{"BIC*", s.EM.BIC}, {"BIC", s.EM.BIC + ls},
		{"BICp*", s.EM.BICp}, {"BICp", s.EM.BICp + ls},
		{"CS*", s.EM.CS}, {"CS", s.EM.CS + ls},
		{"CSdagger*", s.EM.CSDagger}, {"CSdagger", s.EM.CSDagger + ls},
		{"VB*", s.VB.F}, {"VB", s.VB.F + ls},
	}
}

// VBInit selects how VBEM is started.
type VBInit int

const (
	// SameInit starts VBEM from the same random θ_init as each EM restart
	// (targets §3.0, vb_init = "same_theta").
	SameInit VBInit = iota
	// FromCS starts one VBEM run from the Cheeseman–Stutz point of the
	// selected EM estimate, q(θ) = Dir(CSPosterior(θ̂)) (Corollary 2.5;
	// targets §3.13, vb_init = "from_cs"), so that VB* ≥ CS* exactly.
	FromCS
)

// EMStop selects the stop rule of EM.
type EMStop int

const (
	// EMStopThesis stops EM as VBEM (line 4718, targets §3.0 and §4 item
	// 10): when its objective rises by less than TolPerDatum·n in one
	// iteration, or after MaxIterations.
	EMStopThesis EMStop = iota
	// EMStopConverged runs EM until its objective is within ConvergedAbsTol
	// nats of the value it converges to (vb.BoundConverge's absolute test,
	// which extrapolates the decay of the last three increases), or after
	// ConvergedMaxIterations. Under the thesis's rule ML-EM can stop on a
	// slow plateau: at n = 10240 (1e-6·n = 0.01 nats an iteration) the true
	// structure's EM stops up to 29 nats short of where it converges, which
	// decides the CS and BICp ranks there (issue 20 item 9).
	EMStopConverged
)

// The limits of EMStopConverged.
const (
	ConvergedAbsTol        = 1e-3
	ConvergedMaxIterations = 100000
)

// Settings control the scoring protocol (targets §3.0). The zero value of
// every field is the documented default.
type Settings struct {
	// Restarts is the number of random initialisations, shared by EM and
	// VBEM. Default 3 (line 4718).
	Restarts int
	// MaxIterations is the maximum number of E steps per run. Default 1000.
	MaxIterations int
	// TolPerDatum stops a run when its objective rises by less than
	// TolPerDatum·n in one iteration (targets §4 item 10). Default 1e-6.
	TolPerDatum float64
	// Estimator is the EM estimator; default MAP (≡ ML at λ = 1).
	Estimator Estimator
	// EMStop is EM's stop rule; default EMStopThesis (MaxIterations and
	// TolPerDatum, as VBEM). VBEM always stops by the thesis's rule.
	EMStop EMStop
	// VBInit selects the VBEM start; default SameInit.
	VBInit VBInit
	// Alias is the alias rule of Scores.LogAliases; default AliasThesis.
	Alias AliasRule
}

func (s Settings) withDefaults() Settings {
	if s.Restarts <= 0 {
		s.Restarts = 3
	}
	if s.MaxIterations <= 0 {
		s.MaxIterations = 1000
	}
	if s.TolPerDatum <= 0 {
		s.TolPerDatum = 1e-6
	}
	return s
}

// increaseBelow declares convergence when the objective rose by less than
// tol in the last iteration.
type increaseBelow struct{ tol float64 }

func (increaseBelow) Init()                                    {}
func (c increaseBelow) Converged(_ int, _, delta float64) bool { return delta < c.tol }

// runSettings returns the stop rule of VBEM, and of EM under
// EMStopThesis.
func (pr *Problem) runSettings(set Settings) vb.Settings {
	return vb.Settings{MaxIterations: set.MaxIterations, Converger: increaseBelow{set.TolPerDatum * float64(pr.N())}}
}

// emRunSettings returns the stop rule of EM (Settings.EMStop).
func (pr *Problem) emRunSettings(set Settings) vb.Settings {
	if set.EMStop == EMStopConverged {
		return vb.Settings{MaxIterations: ConvergedMaxIterations, Converger: &vb.BoundConverge{Absolute: ConvergedAbsTol}}
	}
	return pr.runSettings(set)
}

// Inits draws restarts random initial parameter sets, every row from Dir(1)
// (targets §3.0, "dirichlet1").
func (pr *Problem) Inits(restarts int, rnd *rand.Rand) []Params {
	out := make([]Params, restarts)
	for r := range out {
		out[r] = pr.s.RandomParams(rnd)
	}
	return out
}

// Score runs the chapter-6 protocol (targets §3.0): set.Restarts initial
// parameter sets drawn from rnd, EM from each (the restart with the highest
// EM objective gives θ̂ and every EM-derived score), VBEM from each (the
// highest F is the VB score) or, with FromCS, from the CS point of θ̂.
func (pr *Problem) Score(set Settings, rnd *rand.Rand) (Scores, error) {
	set = set.withDefaults()
	inits := pr.Inits(set.Restarts, rnd)
	out := Scores{N: pr.N(), D: pr.s.NumParams(), HUsed: pr.s.HUsed(), LogAliases: pr.s.LogAliases(set.Alias)}
	var err error
	if out.EM, err = pr.ScoreEM(inits, set); err != nil {
		return out, err
	}
	if set.VBInit == FromCS {
		out.VB, err = pr.ScoreVBFrom(pr.CSPosterior(out.EM.Theta), set)
	} else {
		out.VB, err = pr.ScoreVB(inits, set)
	}
	return out, err
}

// ScoreEM runs EM from each initial θ (stopped by set.EMStop), keeps the
// run with the highest objective and returns its scores (EMScoresAt). It returns an error if a
// run fails (an objective that decreases, or data impossible under θ), or
// if the estimator is MAP and some λ_jlk < 1.
func (pr *Problem) ScoreEM(inits []Params, set Settings) (EMScores, error) {
	set = set.withDefaults()
	var best EMScores
	if set.Estimator == MAP && slices.Min(pr.lambda) < 1 {
		return best, errors.New("dag: MAP-EM (6.23) needs every λ ≥ 1; use the ML estimator")
	}
	vs := pr.emRunSettings(set)
	for r, init := range inits {
		m := pr.NewEM(init, set.Estimator)
		res := vb.Run(m, vs)
		if err := res.Error(); err != nil {
			return best, fmt.Errorf("dag: EM restart %d: %w", r, err)
		}
		if r == 0 || res.F > best.Objective {
			best = EMScores{Theta: m.Params(), Objective: res.F, Restart: r, Iterations: res.Iterations, Status: res.Status}
		}
	}
	sc := pr.EMScoresAt(best.Theta)
	sc.Objective, sc.Restart, sc.Iterations, sc.Status = best.Objective, best.Restart, best.Iterations, best.Status
	return sc, nil
}

// EMScoresAt returns the EM-derived scores at θ̂ (the bookkeeping fields
// zero): ln p(y|θ̂), ln p(θ̂|m), BIC*, BICp*, CS* and CS†*. ln p(y|θ̂) is
// the per-pattern sum Σ_p w_p ln Z_p of the E step (eq. (6.11)), which
// LogLik equals to rounding.
func (pr *Problem) EMScoresAt(thetaHat Params) EMScores {
	pr.checkLen(thetaHat)
	n, d := float64(pr.N()), pr.s.NumParams()
	sc := EMScores{Theta: thetaHat.Clone(), LogLik: pr.pl.loglik(thetaHat), LogPrior: pr.LogPrior(thetaHat)}
	sc.BIC = score.BIC(sc.LogLik, d, n)
	sc.BICp = score.BICp(sc.LogLik, sc.LogPrior, d, n)
	sc.CS = pr.CheesemanStutz(thetaHat)
	sc.CSDagger = score.CSDagger(sc.CS, float64(pr.s.ExtraDims()), n)
	return sc
}

// ScoreVB runs VBEM from each initial θ (NewVB) and returns the run with
// the highest F.
func (pr *Problem) ScoreVB(inits []Params, set Settings) (VBScore, error) {
	set = set.withDefaults()
	var best VBScore
	vs := pr.runSettings(set)
	for r, init := range inits {
		m := pr.NewVB(init)
		res := vb.Run(m, vs)
		if err := res.Error(); err != nil {
			return best, fmt.Errorf("dag: VBEM restart %d: %w", r, err)
		}
		if r == 0 || res.F > best.F {
			best = VBScore{Alpha: m.Posterior(), F: res.F, Restart: r, Iterations: res.Iterations, Status: res.Status}
		}
	}
	return best, nil
}

// ScoreVBFrom runs VBEM once from q(θ) = Dir(alpha) (NewVBPosterior).
func (pr *Problem) ScoreVBFrom(alpha Params, set Settings) (VBScore, error) {
	set = set.withDefaults()
	m := pr.NewVBPosterior(alpha)
	res := vb.Run(m, pr.runSettings(set))
	if err := res.Error(); err != nil {
		return VBScore{}, fmt.Errorf("dag: VBEM: %w", err)
	}
	return VBScore{Alpha: m.Posterior(), F: res.F, Iterations: res.Iterations, Status: res.Status}, nil
}
