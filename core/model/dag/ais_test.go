package dag_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/numeric"
)

// The module's import policy forbids core (tests included) to import
// samplers; these tests drive the AIS interface of a Problem with a
// minimal Metropolis–Hastings step and annealing loop of their own. The
// same pieces run through samplers/mcmc and samplers/ais in
// samplers/ais/dag_test.go.

// TestLogPrior checks ln p(θ|m) against dist.Dirichlet row by row, for a
// non-uniform prior, and its value Σ_rows ln Γ(|z_j|) at λ = 1.
func TestLogPrior(t *testing.T) {
	s, p, lambda := observedOnly(t)
	theta := s.RandomParams(rand.New(rand.NewPCG(23, 1)))
	var want float64
	for j := 0; j < s.Nodes(); j++ {
		for l := 0; l < s.Rows(j); l++ {
			want += dist.Dirichlet{Alpha: s.Row(lambda, j, l)}.LogProb(s.Row(theta, j, l))
		}
	}
	if got := p.LogPrior(theta); !near(got, want, 1e-10) {
		t.Errorf("LogPrior = %v, want %v", got, want)
	}
	tp := problem(t, dag.TrueCode.Structure(), y6())
	if got, want := tp.LogPrior(dag.TrueParams()), 12*math.Log(24); !near(got, want, 1e-12) {
		t.Errorf("λ = 1: LogPrior = %v, want 12 ln 24 = %v", got, want)
	}
}

// TestProposalRatio checks the Hastings ratio returned by the Dirichlet
// proposal against Dirichlet densities evaluated by package dist.
func TestProposalRatio(t *testing.T) {
	s := dag.TrueCode.Structure()
	p := problem(t, s, y6())
	rnd := rand.New(rand.NewPCG(24, 1))
	for _, alpha := range []float64{3, 50, 2500} {
		q := dag.NewDirichletProposal(s, alpha)
		x := p.SamplePrior(nil, rnd)
		y, lnr := q.Propose(nil, x, rnd)
		if err := s.CheckParams(y); err != nil {
			t.Fatal(err)
		}
		var want float64
		for j := 0; j < s.Nodes(); j++ {
			for l := 0; l < s.Rows(j); l++ {
				xr, yr := s.Row(x, j, l), s.Row(y, j, l)
				ax, ay := make([]float64, len(xr)), make([]float64, len(yr))
				for k := range xr {
					ax[k], ay[k] = alpha*xr[k], alpha*yr[k]
				}
				want += dist.Dirichlet{Alpha: ay}.LogProb(xr) - dist.Dirichlet{Alpha: ax}.LogProb(yr)
			}
		}
		if !near(lnr, want, 1e-9*math.Max(1, math.Abs(want))) {
			t.Errorf("α = %v: ln q ratio %v, want %v", alpha, lnr, want)
		}
	}
}

// referencePropose is the joint Dirichlet proposal written plainly: each row
// drawn by dist.Dirichlet.Rand from Dir(α θ_jl) and floored at 1e−300, and
// the Hastings ratio of (6.60) from ln Dir(y; α m) = Σ_k [(α m_k − 1) ln y_k
// − ln Γ(α m_k)] + ln Γ(Σ_k α m_k), summed row by row.
func referencePropose(s *dag.Structure, alpha float64, x dag.Params, rnd *rand.Rand) (dag.Params, float64) {
	logDir := func(y, m []float64) float64 {
		var a0, lp float64
		for k, v := range m {
			a := alpha * v
			a0 += a
			lp += (a-1)*math.Log(y[k]) - numeric.LogGamma(a)
		}
		return lp + numeric.LogGamma(a0)
	}
	y := make(dag.Params, len(x))
	var lnr float64
	for j := 0; j < s.Nodes(); j++ {
		for l := 0; l < s.Rows(j); l++ {
			cur, nxt := s.Row(x, j, l), s.Row(y, j, l)
			shape := make([]float64, len(cur))
			for k, v := range cur {
				shape[k] = alpha * v
			}
			dist.Dirichlet{Alpha: shape}.Rand(nxt, rnd)
			for k, v := range nxt {
				if !(v >= 0) {
					return y, math.Inf(-1)
				}
				nxt[k] = math.Max(v, 1e-300)
			}
			lnr += logDir(cur, nxt) - logDir(nxt, cur)
		}
	}
	return y, lnr
}

// ratioScale is Σ_i |(α x_i − 1) ln y_i| + |(α y_i − 1) ln x_i| +
// |ln Γ(α x_i)| + |ln Γ(α y_i)|, the magnitude of the terms of the Hastings
// ratio between x and y (row terms ln Γ(Σ_k α m_k) are smaller).
func ratioScale(alpha float64, x, y dag.Params) float64 {
	var sc float64
	for i := range x {
		ax, ay := alpha*x[i], alpha*y[i]
		sc += math.Abs((ax-1)*math.Log(y[i])) + math.Abs((ay-1)*math.Log(x[i])) +
			math.Abs(numeric.LogGamma(ax)) + math.Abs(numeric.LogGamma(ay))
	}
	return sc
}

// TestProposalMemo checks that Propose, which reuses what it computed at
// the state it was last called at and at its last proposal, gives the
// draws of referencePropose bit for bit, and its ratios to 1e-15 of the
// sum of the terms' magnitudes (ln θ′ and ln Γ(α θ′) come from the
// log-domain draws; each term alone is rounded to about 1e-16 of its
// magnitude in either computation), along chains that
// accept and reject (so that it is called at its last proposal and at its
// last state), and at states it has not seen, including the same buffer
// changed in place.
func TestProposalMemo(t *testing.T) {
	s := dag.TrueCode.Structure()
	p := problem(t, s, y6())
	sel := rand.New(rand.NewPCG(26, 1))
	for _, alpha := range []float64{0.3, 50, 2500} {
		q := dag.NewDirichletProposal(s, alpha)
		r1, r2 := rand.New(rand.NewPCG(26, 2)), rand.New(rand.NewPCG(26, 2))
		x := p.SamplePrior(nil, sel)
		var dst dag.Params
		for step := 0; step < 400; step++ {
			var lnr float64
			dst, lnr = q.Propose(dst, x, r1)
			want, wantR := referencePropose(s, alpha, x, r2)
			if !(math.IsInf(lnr, -1) && math.IsInf(wantR, -1)) && !near(lnr, wantR, 1e-15*ratioScale(alpha, x, want)) {
				t.Fatalf("α = %v, step %d: ratio %v, reference %v", alpha, step, lnr, wantR)
			}
			if !math.IsInf(lnr, -1) {
				for i := range want {
					if math.Float64bits(dst[i]) != math.Float64bits(want[i]) {
						t.Fatalf("α = %v, step %d: θ′[%d] = %v, reference %v", alpha, step, i, dst[i], want[i])
					}
				}
			}
			switch u := sel.Float64(); {
			case u < 0.4 && !math.IsInf(lnr, -1): // accept: x and the proposal buffer swap
				x, dst = dst, x
			case u < 0.5: // a state the proposal has not seen, in x's buffer
				copy(x, p.SamplePrior(nil, sel))
			}
		}
	}
}

// mhStep is one Metropolis–Hastings step at inverse temperature beta
// (eq. (1.62), (6.59)–(6.60)).
func mhStep(p *dag.Problem, q *dag.DirichletProposal, x dag.Params, lp, ll *float64, beta float64, rnd *rand.Rand) dag.Params {
	y, lnr := q.Propose(nil, x, rnd)
	lpy, lly := p.LogPrior(y), p.LogLik(y)
	lna := lpy - *lp + lnr
	if beta > 0 {
		lna += beta * (lly - *ll)
	}
	if lna >= 0 || math.Log(rnd.Float64()) < lna {
		*lp, *ll = lpy, lly
		return y
	}
	return x
}

// TestMHLeavesPriorInvariant is test T12: started from prior draws,
// independent chains of MH steps at τ = 0 keep the prior Dir(1): a 5-valued
// row's entries have mean 0.2 and variance 4/(25·6) = 0.026667, a binary
// row's 0.5 and 1/12. Each moment is checked within 4 standard errors. The
// DAG is small (one binary hidden parent of a 5-valued node, three rows) and
// the proposal wide (α = 20), so that proposals move far and are often
// rejected: a wrong Hastings ratio shifts the moments by many standard
// errors.
func TestMHLeavesPriorInvariant(t *testing.T) {
	const chains, steps = 20000, 10
	s, err := dag.NewStructure([]int{2, 5}, [][]int{nil, {0}}, []bool{true, false})
	if err != nil {
		t.Fatal(err)
	}
	p := problem(t, s, [][]int{{0}, {3}, {3}})
	rnd := rand.New(rand.NewPCG(25, 1))
	q := dag.NewDirichletProposal(s, 20)
	x5, x2 := make([]float64, chains), make([]float64, chains)
	accepted := 0
	for c := range chains {
		x := p.SamplePrior(nil, rnd)
		lp, ll := p.LogPrior(x), p.LogLik(x)
		for range steps {
			prev := x
			x = mhStep(p, q, x, &lp, &ll, 0, rnd)
			if &x[0] != &prev[0] {
				accepted++
			}
		}
		x5[c], x2[c] = s.Row(x, 1, 1)[3], s.Row(x, 0, 0)[0]
	}
	if rate := float64(accepted) / (chains * steps); rate < 0.1 || rate > 0.9 {
		t.Fatalf("acceptance %.2f: the test would not probe the Hastings ratio", rate)
	}
	checkMoments(t, "5-valued row", x5, 0.2, 4.0/150)
	checkMoments(t, "binary row", x2, 0.5, 1.0/12)
}

func checkMoments(t *testing.T, name string, x []float64, mean, variance float64) {
	t.Helper()
	n := float64(len(x))
	var m, v, m4 float64
	for _, xi := range x {
		m += xi / n
	}
	for _, xi := range x {
		d := xi - m
		v += d * d / n
		m4 += d * d * d * d / n
	}
	if se := math.Sqrt(variance / n); math.Abs(m-mean) > 4*se {
		t.Errorf("%s: mean %.5f, want %.5f ± %.5f", name, m, mean, 4*se)
	}
	if se := math.Sqrt((m4 - v*v) / n); math.Abs(v-variance) > 4*se {
		t.Errorf("%s: variance %.5f, want %.5f ± %.5f", name, v, variance, 4*se)
	}
}

// TestAISUnbiasedOnY6 is test T13: the pooled estimate (6.61) of G runs of
// Algorithm 6.1 on Y6 with the true structure is within 3 bootstrap
// standard errors of the exact ln p(y|m), for K = 1 (importance sampling
// from the prior) and K = 256 (schedule (6.73), e_τ = 0.2, α = 2500), with
// G = 1000 runs each; K = 256 takes a second or two and is skipped under
// -short.
func TestAISUnbiasedOnY6(t *testing.T) {
	s := dag.TrueCode.Structure()
	p := problem(t, s, y6())
	exact, _ := p.Exact()
	rnd := rand.New(rand.NewPCG(26, 1))
	for _, k := range []int{1, 256} {
		if k > 1 && testing.Short() {
			t.Skip("K = 256 skipped under -short")
		}
		const runs = 1000
		q := dag.NewDirichletProposal(s, 2500)
		tau := make([]float64, k+1)
		for i := range tau {
			u := float64(i) / float64(k)
			tau[i] = 0.2 * u / (1 - u + 0.2)
		}
		logw := make([]float64, runs)
		for g := range logw {
			x := p.SamplePrior(nil, rnd)
			lp, ll := p.LogPrior(x), p.LogLik(x)
			for i := 1; i <= k; i++ {
				if i > 1 { // at i = 1 the step would target the prior, from a prior draw
					x = mhStep(p, q, x, &lp, &ll, tau[i-1], rnd)
				}
				logw[g] += (tau[i] - tau[i-1]) * ll
			}
		}
		est := numeric.LogSumExp(logw) - math.Log(runs)
		boot := make([]float64, 200)
		re := make([]float64, runs)
		for b := range boot {
			for i := range re {
				re[i] = logw[rnd.IntN(runs)]
			}
			boot[b] = numeric.LogSumExp(re) - math.Log(runs)
		}
		var m, v float64
		for _, e := range boot {
			m += e / float64(len(boot))
		}
		for _, e := range boot {
			v += (e - m) * (e - m) / float64(len(boot)-1)
		}
		if se := math.Sqrt(v); math.Abs(est-exact) > 3*se || !(se < 1) {
			t.Errorf("K = %d: AIS %.4f ± %.4f, exact %.4f", k, est, se, exact)
		}
	}
}
