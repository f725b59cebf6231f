package mcmc

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// ring5 is a target on the states {0,…,4}: ln f_β(x) = lp[x] + β·ll[x].
type ring5 struct {
	lp, ll [5]float64
}

func (r *ring5) LogPrior(x int) float64 { return r.lp[x] }
func (r *ring5) LogLik(x int) float64   { return r.ll[x] }

// probs returns the normalised target at inverse temperature beta.
func (r *ring5) probs(beta float64) [5]float64 {
	var p [5]float64
	var s float64
	for i := range p {
		p[i] = math.Exp(r.lp[i] + beta*r.ll[i])
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

func newRing5() *ring5 {
	// Unequal masses so that a wrong Hastings correction shows.
	return &ring5{
		lp: [5]float64{math.Log(0.1), math.Log(0.3), math.Log(0.15), math.Log(0.25), math.Log(0.2)},
		ll: [5]float64{-1, 0.5, 2, -0.3, 0},
	}
}

// driftRing proposes x+1 (mod 5) with probability Up and x−1 otherwise: a
// non-symmetric proposal whose Hastings ratio is ln(1−Up) − ln Up for a
// step up and the negative for a step down. With Lie set it reports a zero
// ratio instead (a deliberately wrong kernel for the negative control).
type driftRing struct {
	Up  float64
	Lie bool
}

func (d driftRing) Propose(_, x int, rnd *rand.Rand) (int, float64) {
	lr := math.Log(1-d.Up) - math.Log(d.Up)
	if rnd.Float64() < d.Up {
		x = (x + 1) % 5
	} else {
		x = (x + 4) % 5
		lr = -lr
	}
	if d.Lie {
		lr = 0
	}
	return x, lr
}

// chiSquareP returns the p-value of Pearson's goodness-of-fit statistic for
// counts against the probabilities p.
func chiSquareP(counts []int, p []float64) float64 {
	n := 0
	for _, c := range counts {
		n += c
	}
	var x2 float64
	for i, c := range counts {
		e := float64(n) * p[i]
		x2 += (float64(c) - e) * (float64(c) - e) / e
	}
	return distuv.ChiSquared{K: float64(len(counts) - 1)}.Survival(x2)
}

// A long tempered chain with a non-symmetric proposal visits the five
// states in the target's proportions. Thinning by 25 steps makes the
// retained states close to independent (the chain forgets its state within
// a few steps on five states), so Pearson's test applies.
func TestMHLongChainFiveStates(t *testing.T) {
	for _, beta := range []float64{0, 0.7, 1} {
		target := newRing5()
		m := &MH[int]{Target: target, Proposal: driftRing{Up: 0.7}}
		rnd := rand.New(rand.NewPCG(11, uint64(beta*10)))
		p := NewPoint[int](target, 0)
		const samples, thin = 40000, 25
		counts := make([]int, 5)
		for i := 0; i < 1000; i++ { // burn-in
			m.Step(&p, beta, rnd)
		}
		for i := 0; i < samples; i++ {
			for j := 0; j < thin; j++ {
				m.Step(&p, beta, rnd)
			}
			counts[p.X]++
		}
		want := target.probs(beta)
		if pv := chiSquareP(counts, want[:]); pv < 1e-3 {
			t.Errorf("β=%g: counts %v against %v: χ² p = %.3g < 1e-3", beta, counts, want, pv)
		}
		if r := m.Stats.Rate(); !(r > 0 && r < 1) {
			t.Errorf("β=%g: acceptance rate %g, want in (0,1)", beta, r)
		}
	}
}

// The same test has the power to reject a kernel that omits the Hastings
// correction of its non-symmetric proposal.
func TestMHLongChainDetectsMissingHastingsRatio(t *testing.T) {
	target := newRing5()
	m := &MH[int]{Target: target, Proposal: driftRing{Up: 0.7, Lie: true}}
	rnd := rand.New(rand.NewPCG(11, 7))
	p := NewPoint[int](target, 0)
	counts := make([]int, 5)
	for i := 0; i < 40000; i++ {
		for j := 0; j < 25; j++ {
			m.Step(&p, 0.7, rnd)
		}
		counts[p.X]++
	}
	want := target.probs(0.7)
	if pv := chiSquareP(counts, want[:]); pv > 1e-6 {
		t.Errorf("wrong kernel not detected: counts %v against %v, p = %.3g", counts, want, pv)
	}
}

// Invariance exactly: states drawn from f_β stay distributed as f_β after
// one MH step. Every chain is independent, so Pearson's test is exact.
func TestMHInvarianceFromExactDraws(t *testing.T) {
	target := newRing5()
	const beta = 0.7
	want := target.probs(beta)
	cdf := [5]float64{}
	acc := 0.0
	for i, v := range want {
		acc += v
		cdf[i] = acc
	}
	m := &MH[int]{Target: target, Proposal: driftRing{Up: 0.8}}
	rnd := rand.New(rand.NewPCG(3, 4))
	counts := make([]int, 5)
	for i := 0; i < 50000; i++ {
		u, x := rnd.Float64(), 4
		for j, c := range cdf {
			if u < c {
				x = j
				break
			}
		}
		p := NewPoint[int](target, x)
		m.Step(&p, beta, rnd)
		counts[p.X]++
	}
	if pv := chiSquareP(counts, want[:]); pv < 1e-3 {
		t.Errorf("counts %v against %v: χ² p = %.3g < 1e-3", counts, want, pv)
	}
}

// gauss is the tempered Gaussian target ln p(x) = −x²/2,
// ln L(x) = −λx²/2, so f_β = N(0, 1/(1+βλ)) per coordinate.
type gauss struct{ lambda float64 }

func (g gauss) LogPrior(x []float64) float64 {
	var s float64
	for _, v := range x {
		s -= v * v / 2
	}
	return s
}

func (g gauss) LogLik(x []float64) float64 { return g.lambda * g.LogPrior(x) }

// The random-walk MH leaves the tempered Gaussian invariant: exact draws,
// three steps each, binned into ten equiprobable bins.
func TestRandomWalkInvariance(t *testing.T) {
	g := gauss{lambda: 3}
	const beta = 0.5
	sd := 1 / math.Sqrt(1+beta*g.lambda)
	norm := distuv.Normal{Mu: 0, Sigma: sd}
	m := &MH[[]float64]{Target: g, Proposal: RandomWalk{Sigma: 1.2 * sd}}
	rnd := rand.New(rand.NewPCG(5, 6))
	const bins = 10
	counts := make([]int, bins)
	p := Point[[]float64]{X: make([]float64, 1)}
	for i := 0; i < 40000; i++ {
		p.X[0] = sd * rnd.NormFloat64()
		p.LogPrior, p.LogLik = g.LogPrior(p.X), g.LogLik(p.X)
		for j := 0; j < 3; j++ {
			m.Step(&p, beta, rnd)
		}
		b := int(norm.CDF(p.X[0]) * bins)
		counts[min(b, bins-1)]++
	}
	want := make([]float64, bins)
	for i := range want {
		want[i] = 1.0 / bins
	}
	if pv := chiSquareP(counts, want); pv < 1e-3 {
		t.Errorf("counts %v: χ² p = %.3g < 1e-3", counts, pv)
	}
	if r := m.Stats.Rate(); !(r > 0.2 && r < 0.9) {
		t.Errorf("acceptance rate %g for a step of 1.2 sd, want between 0.2 and 0.9", r)
	}
}

// countingTarget is supported on {0, 1} and counts its evaluations.
type countingTarget struct{ prior, lik int }

func (c *countingTarget) LogPrior(x int) float64 {
	c.prior++
	if x == 0 || x == 1 {
		return 0
	}
	return math.Inf(-1)
}

func (c *countingTarget) LogLik(x int) float64 {
	c.lik++
	return float64(x)
}

// up proposes x+1 with a fixed Hastings ratio.
type up struct{ lr float64 }

func (u up) Propose(_, x int, _ *rand.Rand) (int, float64) { return x + 1, u.lr }

// Counts are exact on a deterministic path: from 0 the move to 1 raises
// the density and is accepted; every later move leaves the support and is
// rejected without a likelihood evaluation.
func TestMHStatsCount(t *testing.T) {
	c := &countingTarget{}
	m := &MH[int]{Target: c, Proposal: up{}}
	rnd := rand.New(rand.NewPCG(1, 1))
	p := NewPoint[int](c, 0)
	c.prior, c.lik = 0, 0
	var sum Stats
	for i := 0; i < 10; i++ {
		st := m.Step(&p, 1, rnd)
		if want := (Stats{Proposed: 1, Accepted: b2i(i == 0)}); st != want {
			t.Errorf("step %d: got %+v, want %+v", i, st, want)
		}
		sum.Add(st)
	}
	if want := (Stats{Proposed: 10, Accepted: 1}); m.Stats != want || sum != want {
		t.Errorf("MH.Stats %+v, summed steps %+v, want %+v", m.Stats, sum, want)
	}
	if r := m.Stats.Rate(); r != 0.1 {
		t.Errorf("rate %g, want 0.1", r)
	}
	if p.X != 1 || p.LogLik != 1 || p.LogPrior != 0 {
		t.Errorf("final point %+v, want X=1 with cached terms 0 and 1", p)
	}
	if c.prior != 10 || c.lik != 1 {
		t.Errorf("evaluated LogPrior %d and LogLik %d times, want 10 and 1", c.prior, c.lik)
	}

	// A proposal ratio of −Inf is rejected before the target is evaluated.
	c2 := &countingTarget{}
	m2 := &MH[int]{Target: c2, Proposal: up{lr: math.Inf(-1)}}
	p2 := Point[int]{X: 0}
	if st := m2.Step(&p2, 1, rnd); st != (Stats{Proposed: 1}) || c2.prior != 0 || p2.X != 0 {
		t.Errorf("−Inf proposal ratio: stats %+v, %d target evaluations, state %d", st, c2.prior, p2.X)
	}
	// A NaN proposal ratio is a rejection too.
	m3 := &MH[int]{Target: c2, Proposal: up{lr: math.NaN()}}
	if st := m3.Step(&p2, 1, rnd); st.Accepted != 0 || p2.X != 0 {
		t.Errorf("NaN proposal ratio accepted: %+v", st)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Accepted fraction of a single move type matches min(1, a): from state 0
// of the two-state target (0.7, 0.3) with a flip proposal, a = 3/7.
func TestMHAcceptanceProbability(t *testing.T) {
	target := &ring5{lp: [5]float64{math.Log(0.7), math.Log(0.3), math.Inf(-1), math.Inf(-1), math.Inf(-1)}}
	m := &MH[int]{Target: target, Proposal: flip{}}
	rnd := rand.New(rand.NewPCG(9, 9))
	const n = 100000
	for i := 0; i < n; i++ {
		p := NewPoint[int](target, 0)
		m.Step(&p, 1, rnd)
	}
	a := 3.0 / 7
	sd := math.Sqrt(n * a * (1 - a))
	if d := float64(m.Stats.Accepted) - n*a; math.Abs(d) > 4*sd {
		t.Errorf("accepted %d of %d, expected %.0f ± %.0f", m.Stats.Accepted, n, n*a, sd)
	}
}

type flip struct{}

func (flip) Propose(_, x int, _ *rand.Rand) (int, float64) { return 1 - x, 0 }

func TestAccept(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 2))
	ref := rand.New(rand.NewPCG(2, 2))
	if !Accept(0, rnd) || !Accept(1, rnd) || !Accept(math.Inf(1), rnd) {
		t.Error("ln a ≥ 0 must be accepted")
	}
	if Accept(math.NaN(), rnd) || Accept(math.Inf(-1), rnd) {
		t.Error("NaN or −Inf ln a accepted")
	}
	if rnd.Uint64() != ref.Uint64() {
		t.Error("Accept drew random numbers when the outcome was certain")
	}
	u := ref.Float64()
	if got := Accept(math.Log(u)+1e-9, rnd); !got {
		t.Error("ln U < ln a not accepted")
	}
	u = ref.Float64()
	if got := Accept(math.Log(u)-1e-9, rnd); got {
		t.Error("ln U > ln a accepted")
	}
}

func TestStats(t *testing.T) {
	var s Stats
	if !math.IsNaN(s.Rate()) {
		t.Errorf("rate of no proposals = %g, want NaN", s.Rate())
	}
	s.Add(Stats{Proposed: 4, Accepted: 1})
	s.Add(Stats{Proposed: 4, Accepted: 2})
	if s != (Stats{Proposed: 8, Accepted: 3}) || s.Rate() != 3.0/8 {
		t.Errorf("got %+v rate %g", s, s.Rate())
	}
}

func TestPointLogDensity(t *testing.T) {
	p := Point[int]{LogPrior: -2, LogLik: math.Inf(-1)}
	if got := p.LogDensity(0); got != -2 {
		t.Errorf("β=0 with ln L = −Inf: got %g, want −2", got)
	}
	p.LogLik = -3
	if got := p.LogDensity(0.5); got != -3.5 {
		t.Errorf("got %g, want −3.5", got)
	}
}

// After the proposal buffer exists, a step allocates nothing, and the
// random walk leaves its input unchanged.
func TestMHStepAllocs(t *testing.T) {
	g := gauss{lambda: 1}
	m := &MH[[]float64]{Target: g, Proposal: RandomWalk{Sigma: 0.5}}
	rnd := rand.New(rand.NewPCG(1, 2))
	p := NewPoint(g, []float64{0.1, -0.2, 0.3})
	m.Step(&p, 1, rnd)
	m.Step(&p, 1, rnd)
	if a := testing.AllocsPerRun(100, func() { m.Step(&p, 1, rnd) }); a != 0 {
		t.Errorf("MH.Step allocates %g times per call", a)
	}
	x := []float64{1, 2, 3}
	dst, lr := RandomWalk{Sigma: 1}.Propose(nil, x, rnd)
	if x[0] != 1 || x[1] != 2 || x[2] != 3 || len(dst) != 3 || lr != 0 {
		t.Errorf("Propose modified x=%v or returned %v, %g", x, dst, lr)
	}
}

func TestMHPanicsWithoutProposal(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for an MH without a Proposal")
		}
	}()
	m := &MH[int]{Target: newRing5()}
	p := Point[int]{}
	m.Step(&p, 1, rand.New(rand.NewPCG(1, 1)))
}
