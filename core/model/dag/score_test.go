package dag_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestBoundsOnTinyData is test T3 of targets §1.8 with the Corollary 2.5
// ordering: on Y6 and on random data sets of 4 to 7 points, for several
// structures, VB* ≤ ln p(y|m) (F is a lower bound), CS* ≤ ln p(y|m)
// (Theorem 2.3), max ln p(y|θ) ≥ ln p(y|m) (λ = 1, eq. (6.63)), and VBEM
// started from the CS point ends with F ≥ CS* (Corollary 2.5).
func TestBoundsOnTinyData(t *testing.T) {
	rnd := rand.New(rand.NewPCG(10, 1))
	type set struct {
		rows  [][]int
		codes []dag.Code
	}
	sets := []set{{y6(), []dag.Code{{0, 0, 0, 0}, {1, 0, 0, 0}, {1, 1, 0, 0}, dag.TrueCode, {3, 3, 3, 3}}}}
	cands := dag.Candidates()
	for k := 0; k < 6; k++ {
		s := set{rows: randomRows(4+k%4, rnd)}
		for range 4 {
			s.codes = append(s.codes, cands[rnd.IntN(len(cands))])
		}
		sets = append(sets, s)
	}
	const tol = 1e-8
	for i, st := range sets {
		for _, c := range st.codes {
			p := problem(t, c.Structure(), st.rows)
			exact, err := p.Exact()
			if err != nil {
				t.Fatal(err)
			}
			sc, err := p.Score(dag.Settings{Restarts: 5}, rnd)
			if err != nil {
				t.Fatal(err)
			}
			fromCS, err := p.ScoreVBFrom(p.CSPosterior(sc.EM.Theta), dag.Settings{})
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("set %d (n=%d), %v", i, len(st.rows), c)
			if sc.VB.F > exact+tol {
				t.Errorf("%s: VB* %v > exact %v", name, sc.VB.F, exact)
			}
			if sc.EM.CS > exact+tol {
				t.Errorf("%s: CS* %v > exact %v", name, sc.EM.CS, exact)
			}
			if sc.EM.LogLik < exact {
				t.Errorf("%s: ML %v < exact %v", name, sc.EM.LogLik, exact)
			}
			if fromCS.F < sc.EM.CS-tol || fromCS.F > exact+tol {
				t.Errorf("%s: VB from the CS point %v, CS* %v, exact %v", name, fromCS.F, sc.EM.CS, exact)
			}
		}
	}
}

// TestVBFromCSNeverBelowCS checks targets §3.13: with vb_init = "from_cs"
// the VB score is never below CS, over all 136 structures.
func TestVBFromCSNeverBelowCS(t *testing.T) {
	rows := trueData(80, rand.New(rand.NewPCG(11, 1)))
	rnd := rand.New(rand.NewPCG(11, 2))
	for _, c := range dag.Candidates() {
		p := problem(t, c.Structure(), rows)
		sc, err := p.Score(dag.Settings{VBInit: dag.FromCS}, rnd)
		if err != nil {
			t.Fatal(err)
		}
		if sc.VB.F < sc.EM.CS-1e-9*math.Abs(sc.EM.CS) {
			t.Errorf("%v: VB* %v < CS* %v", c, sc.VB.F, sc.EM.CS)
		}
	}
}

// TestBICByHand checks BIC (6.26), BICp and CS† against hand computation
// for the true structure, and T10: with λ = 1, ln p(θ̂|m) = ln 4! per
// observed row (ln 1! per binary row), so BICp − BIC = ln 24·(d − 2)/4.
func TestBICByHand(t *testing.T) {
	rows := trueData(200, rand.New(rand.NewPCG(12, 1)))
	p := problem(t, dag.TrueCode.Structure(), rows)
	sc, err := p.Score(dag.Settings{}, rand.New(rand.NewPCG(12, 2)))
	if err != nil {
		t.Fatal(err)
	}
	// d = 1 + 1 + 4·(2 + 4 + 4 + 2) = 50 parameters, 12 observed rows.
	if sc.D != 50 || sc.HUsed != 2 || !near(sc.LogAliases, math.Log(8), 1e-15) {
		t.Fatalf("d = %d, h_used = %d, ln S = %v", sc.D, sc.HUsed, sc.LogAliases)
	}
	// The MAP score is the E step's per-pattern sum to the bit, and
	// LogLik (the grouped sum of AIS) equals it to rounding.
	ll, _ := p.ExpectedCounts(sc.EM.Theta)
	if sc.EM.LogLik != ll || !near(p.LogLik(sc.EM.Theta), ll, 1e-13*math.Abs(ll)) {
		t.Errorf("ln p(y|θ̂) = %v, E step %v, LogLik %v", sc.EM.LogLik, ll, p.LogLik(sc.EM.Theta))
	}
	tol := 1e-9 * math.Abs(ll)
	if want := ll - 25*math.Log(200); !near(sc.EM.BIC, want, tol) {
		t.Errorf("BIC* = %v, want %v", sc.EM.BIC, want)
	}
	if want := 12 * math.Log(24); !near(sc.EM.LogPrior, want, 1e-12) || !near(sc.EM.BICp-sc.EM.BIC, want, tol) {
		t.Errorf("ln p(θ̂) = %v, BICp − BIC = %v, want %v", sc.EM.LogPrior, sc.EM.BICp-sc.EM.BIC, want)
	}
	if want := sc.EM.CS + math.Log(200); !near(sc.EM.CSDagger, want, tol) {
		t.Errorf("CS† = %v, want CS + ln n = %v", sc.EM.CSDagger, want)
	}
	if sc.EM.Objective != sc.EM.LogLik+sc.EM.LogPrior || !sc.EM.Status.OK() || !sc.VB.Status.OK() {
		t.Errorf("objective %v, statuses %v %v", sc.EM.Objective, sc.EM.Status, sc.VB.Status)
	}
	named := sc.Named()
	if len(named) != 11 || named[2].Name != "BIC" || named[2].Value != sc.EM.BIC+sc.LogAliases || named[0].Value != ll {
		t.Errorf("Named = %v", named)
	}
}

// TestCSWithoutHiddenIsExact: with no hidden variables the completion is
// the data and CS is the exact marginal likelihood (6.9) at any θ̂.
func TestCSWithoutHiddenIsExact(t *testing.T) {
	s, p, _ := observedOnly(t)
	exact, _ := p.Exact()
	if cs := p.CheesemanStutz(s.RandomParams(rand.New(rand.NewPCG(13, 1)))); !near(cs, exact, 1e-9) {
		t.Errorf("CS = %v, exact %v", cs, exact)
	}
}

// TestVBFullyObservedIsExact is test T6: without hidden variables q(θ)
// after one VBM step is the exact posterior and F = ln p(y|m) (6.9).
func TestVBFullyObservedIsExact(t *testing.T) {
	s, p, _ := observedOnly(t)
	exact, _ := p.Exact()
	m := p.NewVB(s.RandomParams(rand.New(rand.NewPCG(14, 1))))
	for it := 0; it < 3; it++ {
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		if !near(b.F, exact, 1e-9*math.Abs(exact)) {
			t.Errorf("iteration %d: F = %v, exact %v", it, b.F, exact)
		}
		m.M()
	}
}

// TestChildlessSlack is test T7: for the unconnected structure VBEM
// converges to the symmetric point q(s) = ½ of both childless hidden nodes,
// where each contributes n ln 2 + ln B(1 + n/2, 1 + n/2) to F. On Y6 (n = 6)
// that is −40.6561801 + 2(6 ln 2 − ln 140) = −42.2216988 by hand; targets §1.8
// prints −42.2216, the same value truncated rather than rounded.
func TestChildlessSlack(t *testing.T) {
	p := problem(t, dag.Code{}.Structure(), y6())
	exact, _ := p.Exact()
	m := p.NewVB(dag.Code{}.Structure().RandomParams(rand.New(rand.NewPCG(15, 1))))
	res := vb.Run(m, vb.Settings{MaxIterations: 3000, Converger: vb.FixedIterations{}})
	if err := res.Error(); err != nil {
		t.Fatal(err)
	}
	n := 6.0
	lnB := 2*numeric.LogGamma(1+n/2) - numeric.LogGamma(2+n)
	if want := exact + 2*(n*math.Ln2+lnB); !near(res.F, want, 1e-9) {
		t.Errorf("F = %.10f, want %.10f", res.F, want)
	}
	if !near(res.F, -42.2216988, 5e-8) {
		t.Errorf("F = %.8f, want −42.2216988", res.F)
	}
}

// TestVBTerms checks the bound's split: the KL terms against
// dist.DirichletKL row by row, and Σ ln Z̃ = Σ N ln θ̃ + Σ_i H[q_i]
// (eqs. (6.36)–(6.37)), with θ̃ from q(θ).
func TestVBTerms(t *testing.T) {
	rows := trueData(150, rand.New(rand.NewPCG(16, 1)))
	s := dag.TrueCode.Structure()
	p := problem(t, s, rows)
	m := p.NewVB(s.RandomParams(rand.New(rand.NewPCG(16, 2))))
	alpha := m.Posterior()
	b, err := m.E()
	if err != nil {
		t.Fatal(err)
	}
	lambda := p.Prior()
	var avg float64
	n := m.Counts()
	for j := 0; j < s.Nodes(); j++ {
		var kl float64
		for l := 0; l < s.Rows(j); l++ {
			a := s.Row(alpha, j, l)
			kl += dist.DirichletKL(a, s.Row(lambda, j, l))
			lt := dist.DirichletMeanLogTo(nil, a)
			for k, v := range s.Row(n, j, l) {
				avg += v * lt[k]
			}
		}
		got := b.Terms[j+1]
		if got.Name != fmt.Sprintf("-KL[theta%d]", j+1) || !near(got.Value, -kl, 1e-9) {
			t.Errorf("term %v, want -KL = %v", got, -kl)
		}
	}
	if b.Terms[0].Name != dag.TermLogZ {
		t.Fatalf("first term %v", b.Terms[0])
	}
	if lnz, h := b.Terms[0].Value, m.Entropy(); !near(lnz, avg+h, 1e-9*math.Abs(lnz)) || !(h > 0) {
		t.Errorf("Σ ln Z̃ = %v, ⟨ln p(s,y|θ)⟩ + H = %v + %v", lnz, avg, h)
	}
}

// TestEMStep checks the M steps against (6.21) and (6.23): after an E
// step, θ_jlk = N_jlk / Σ_k N_jlk (ML), and θ_jlk ∝ λ_jlk − 1 + N_jlk (MAP,
// λ = 2).
func TestEMStep(t *testing.T) {
	rows := trueData(100, rand.New(rand.NewPCG(17, 1)))
	s := dag.TrueCode.Structure()
	init := s.RandomParams(rand.New(rand.NewPCG(17, 2)))
	for _, c := range []struct {
		est    dag.Estimator
		lambda float64
	}{{dag.ML, 1}, {dag.MAP, 2}} {
		p, err := dag.NewProblem(s, s.SymmetricPrior(c.lambda), mustData(t, rows))
		if err != nil {
			t.Fatal(err)
		}
		m := p.NewEM(init, c.est)
		if _, err := m.E(); err != nil {
			t.Fatal(err)
		}
		n := m.Counts()
		m.M()
		theta := m.Params()
		for j := 0; j < s.Nodes(); j++ {
			for l := 0; l < s.Rows(j); l++ {
				row := s.Row(n, j, l)
				var tot float64
				for _, v := range row {
					tot += v + c.lambda - 1
				}
				for k, v := range row {
					if want := (v + c.lambda - 1) / tot; !near(s.Row(theta, j, l)[k], want, 1e-14) {
						t.Fatalf("λ = %v: θ[%d][%d][%d] = %v, want %v", c.lambda, j, l, k, s.Row(theta, j, l)[k], want)
					}
				}
			}
		}
	}
}

// TestModelConformance runs the conformance suite of core/vbtest (T5: the
// objective never decreases at any step; terms sum to it; same start, same
// trace; M does not allocate) on VBEM, MAP-EM and ML-EM. Each E step
// returns a freshly allocated Bound.Terms slice, which recorders keep (one
// allocation).
func TestModelConformance(t *testing.T) {
	hiddenChain, err := dag.NewStructure([]int{3, 2, 4, 5}, [][]int{nil, {0}, {0, 1}, {1}}, []bool{true, true, false, false})
	if err != nil {
		t.Fatal(err)
	}
	chainRows := randomRows(120, rand.New(rand.NewPCG(18, 3)))
	for i := range chainRows {
		chainRows[i] = chainRows[i][:2]
		chainRows[i][0] %= 4
	}
	for _, c := range []struct {
		name string
		s    *dag.Structure
		rows [][]int
	}{
		{"true/n=300", dag.TrueCode.Structure(), trueData(300, rand.New(rand.NewPCG(18, 1)))},
		{"3132/n=40", mustCode(t, "3132").Structure(), trueData(40, rand.New(rand.NewPCG(18, 2)))},
		{"hidden-chain/n=120", hiddenChain, chainRows},
	} {
		p := problem(t, c.s, c.rows)
		start := func() dag.Params { return c.s.RandomParams(rand.New(rand.NewPCG(18, 4))) }
		t.Run("VB/"+c.name, func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model { return p.NewVB(start()) }, vbtest.CheckOptions{EAllocs: 1})
		})
		t.Run("MAP/"+c.name, func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model { return p.NewEM(start(), dag.MAP) }, vbtest.CheckOptions{EAllocs: 1})
		})
		t.Run("ML/"+c.name, func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model { return p.NewEM(start(), dag.ML) }, vbtest.CheckOptions{EAllocs: 1})
		})
	}
}

// TestScoreRepeatable checks that a score depends only on its random
// stream.
func TestScoreRepeatable(t *testing.T) {
	p := problem(t, mustCode(t, "1312").Structure(), trueData(60, rand.New(rand.NewPCG(19, 1))))
	a, err := p.Score(dag.Settings{}, rand.New(rand.NewPCG(19, 2)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := p.Score(dag.Settings{}, rand.New(rand.NewPCG(19, 2)))
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("two scores from the same stream differ")
	}
}

func TestScoreEMRejectsMAPBelowOne(t *testing.T) {
	s := dag.TrueCode.Structure()
	p, err := dag.NewProblem(s, s.SymmetricPrior(0.5), mustData(t, y6()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ScoreEM(p.Inits(1, rand.New(rand.NewPCG(1, 1))), dag.Settings{}); err == nil {
		t.Error("MAP-EM with λ = 0.5: no error")
	}
	if _, err := p.ScoreEM(p.Inits(1, rand.New(rand.NewPCG(1, 1))), dag.Settings{Estimator: dag.ML}); err != nil {
		t.Errorf("ML-EM with λ = 0.5: %v", err)
	}
}
