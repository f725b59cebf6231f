package hmm

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distmv"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// golden is the tiny data set of targets §1.5 item 5.
var golden = Data{P: 2, Seqs: [][]int{{0, 1, 1, 0}, {1, 1, 0}, {0, 0}}}

// uniformPrior sets every prior entry to v.
func uniformPrior(k, p int, v float64) Prior {
	return SymmetricPrior(k, p, v*float64(k), v*float64(k), v*float64(p))
}

// exactEvidence returns ln p(y|m) by enumerating every joint state path of
// all sequences and adding the closed-form Dirichlet-multinomial marginal of
// its complete-data counts (eq. 6.9 pattern), row by row.
func exactEvidence(d Data, k int, u Prior) float64 {
	var seqs [][]int = d.Seqs
	T := 0
	for _, s := range seqs {
		T += len(s)
	}
	states := make([]int, T)
	var terms []float64
	for {
		n := NewParams(k, d.P) // used as count arrays
		pos := 0
		for _, y := range seqs {
			for t, m := range y {
				s := states[pos]
				if t == 0 {
					n.Pi[s]++
				} else {
					n.A[states[pos-1]*k+s]++
				}
				n.C[s*d.P+m]++
				pos++
			}
		}
		lp := dist.DirichletLogMarginalCounts(u.Pi, n.Pi)
		for j := 0; j < k; j++ {
			lp += dist.DirichletLogMarginalCounts(u.A, n.A[j*k:(j+1)*k])
			lp += dist.DirichletLogMarginalCounts(u.C, n.C[j*d.P:(j+1)*d.P])
		}
		terms = append(terms, lp)
		i := 0
		for i < T {
			states[i]++
			if states[i] < k {
				break
			}
			states[i] = 0
			i++
		}
		if i == T {
			break
		}
	}
	return numeric.LogSumExp(terms)
}

// longFormF evaluates eq. 3.75 for the current w with q(s) from a fresh VBE
// pass: −ΣKL + Σ N E ln θ + H(q(s)), with H from the full marginals.
func longFormF(m *VB) float64 {
	w := m.W
	k, p := w.K, w.P
	bp := w.BayesPoint()
	c := bp.Chain()
	lnθ := func(x float64) float64 { return math.Log(x) }
	var f float64
	for _, y := range m.Data.Seqs {
		g, xi, _ := infer.ChainMarginals(c, y)
		f += infer.ChainEntropy(g, xi)
		for j := 0; j < k; j++ {
			f += g[0][j] * lnθ(bp.Pi[j])
		}
		for t := range y {
			for j := 0; j < k; j++ {
				f += g[t][j] * lnθ(bp.C[j*p+y[t]])
				if t > 0 {
					for l := 0; l < k; l++ {
						f += xi[t][j][l] * lnθ(bp.A[j*k+l])
					}
				}
			}
		}
	}
	a, b, cc := m.KL()
	return f - a - b - cc
}

func randomData(rnd *rand.Rand, n, p, minT, maxT int) Data {
	d := Data{P: p}
	for i := 0; i < n; i++ {
		y := make([]int, minT+rnd.IntN(maxT-minT+1))
		for t := range y {
			y[t] = rnd.IntN(p)
		}
		d.Seqs = append(d.Seqs, y)
	}
	return d
}

func runVB(t *testing.T, d Data, u Prior, w Posterior, s vb.Settings) (*VB, vb.Result) {
	t.Helper()
	m := NewVB(d, u, w)
	r := vb.Run(m, s)
	if err := r.Error(); err != nil {
		t.Fatalf("VB run: %v", err)
	}
	return m, r
}

func TestGoldenExactEvidence(t *testing.T) {
	// Values from targets §1.5 items 5 and 6 (computed independently while
	// the targets were drafted).
	u := uniformPrior(2, 2, 0.5)
	if got, want := exactEvidence(golden, 2, u), -7.462316373391; math.Abs(got-want) > 1e-10 {
		t.Errorf("k=2 exact ln p(y|m) = %.12f, want %.12f", got, want)
	}
	u1 := uniformPrior(1, 2, 0.5)
	if got, want := exactEvidence(golden, 1, u1), -7.535006827470; math.Abs(got-want) > 1e-10 {
		t.Errorf("k=1 exact ln p(y|m) = %.12f, want %.12f", got, want)
	}
}

func TestOneStateFIsExactEvidence(t *testing.T) {
	// For k = 1 the posterior factorises exactly, so after one VBM the bound
	// equals the Dirichlet-multinomial evidence of the symbol counts
	// (targets §1.5 item 6).
	u := uniformPrior(1, 2, 0.5)
	w := PosteriorFromParams(RandomParams(1, 2, rand.New(rand.NewPCG(1, 2))), 10, 1e-10)
	_, r := runVB(t, golden, u, w, vb.Settings{MaxIterations: 50})
	if want := -7.535006827470; math.Abs(r.F-want) > 1e-10 {
		t.Fatalf("k=1 F = %.12f, want %.12f", r.F, want)
	}
	// The same on random data against the closed form.
	rnd := rand.New(rand.NewPCG(5, 5))
	d := randomData(rnd, 6, 4, 3, 20)
	u = SymmetricPrior(1, 4, 1, 1, 1.7)
	w = PosteriorFromParams(RandomParams(1, 4, rnd), 3, 1e-10)
	_, r = runVB(t, d, u, w, vb.Settings{MaxIterations: 50})
	counts := make([]float64, 4)
	for _, y := range d.Seqs {
		for _, m := range y {
			counts[m]++
		}
	}
	if want := dist.DirichletLogMarginalCounts(u.C, counts); math.Abs(r.F-want) > 1e-9*math.Abs(want) {
		t.Fatalf("k=1 F = %.12f, closed form %.12f", r.F, want)
	}
}

func TestFBelowExactEvidence(t *testing.T) {
	u := uniformPrior(2, 2, 0.5)
	exact := exactEvidence(golden, 2, u)
	for seed := uint64(1); seed <= 20; seed++ {
		w := PosteriorFromParams(RandomParams(2, 2, rand.New(rand.NewPCG(seed, 7))), 10, 1e-10)
		_, r := runVB(t, golden, u, w, vb.Settings{MaxIterations: 2000, RelTol: 1e-10})
		if r.F > exact+1e-12 {
			t.Fatalf("seed %d: F = %v exceeds exact ln p(y|m) = %v", seed, r.F, exact)
		}
	}
}

func TestShortFormEqualsLongForm(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	d := randomData(rnd, 5, 3, 5, 15)
	u := SymmetricPrior(4, 3, 4, 4, 4)
	m := NewVB(d, u, PosteriorFromParams(RandomParams(4, 3, rnd), 10, 1e-10))
	for it := 0; it < 6; it++ {
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		if long := longFormF(m); math.Abs(b.F-long) > 1e-9*math.Abs(long) {
			t.Fatalf("iteration %d: short form F = %.12g, long form %.12g", it, b.F, long)
		}
		m.M()
	}
}

func TestObjectivesNeverDecrease(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 3))
	for trial := 0; trial < 8; trial++ {
		k := 2 + trial
		d := randomData(rnd, 8, 3, 10, 40)
		init := RandomParams(k, 3, rnd)
		s := vb.Settings{MaxIterations: 300, RelTol: 1e-12, MonotoneTol: 1e-9}
		ml := vb.Run(NewEM(d, init, nil), s)
		if ml.Status == vb.BoundDecreased {
			t.Fatalf("k=%d ML log-likelihood decreased: %v", k, ml.Error())
		}
		u := SymmetricPrior(k, 3, 2, 2, 2)
		mp := vb.Run(NewEM(d, init, &u), s)
		if mp.Status == vb.BoundDecreased {
			t.Fatalf("k=%d MAP objective decreased: %v", k, mp.Error())
		}
		vr := vb.Run(NewVB(d, u, PosteriorFromParams(init, 10, 1e-10)), s)
		if vr.Status == vb.BoundDecreased {
			t.Fatalf("k=%d F decreased: %v", k, vr.Error())
		}
		for i := 1; i < len(vr.Trace.F); i++ {
			if vr.Trace.F[i] < vr.Trace.F[i-1]-1e-9*math.Abs(vr.Trace.F[i]) {
				t.Fatalf("k=%d F trace decreases at %d", k, i)
			}
		}
	}
}

func TestMAPOptimumIsStationary(t *testing.T) {
	// At a MAP-EM fixed point the softmax-basis update maps θ to itself, and
	// the objective exceeds its value at nearby perturbed parameters.
	rnd := rand.New(rand.NewPCG(12, 1))
	d := randomData(rnd, 5, 3, 10, 20)
	u := SymmetricPrior(3, 3, 2, 2, 2)
	m := NewEM(d, RandomParams(3, 3, rnd), &u)
	r := vb.Run(m, vb.Settings{MaxIterations: 20000, RelTol: 1e-14})
	if r.Error() != nil {
		t.Fatal(r.Error())
	}
	best := r.F
	for trial := 0; trial < 20; trial++ {
		q := NewEM(d, m.Params.Clone(), &u)
		row := q.Params.A[0:3]
		i, j := rnd.IntN(3), rnd.IntN(3)
		eps := 1e-4 * math.Min(row[i], row[j])
		row[i] += eps
		row[j] -= eps
		b, _ := q.E()
		if b.F > best+1e-9 {
			t.Fatalf("perturbed MAP objective %v exceeds optimum %v", b.F, best)
		}
	}
}

func TestVBMOptimality(t *testing.T) {
	// For fixed q(s), −KL + Σ N E ln θ after a VBM equals Σ_rows
	// LogMarginalCounts(u, N) (targets §1.5 item 10).
	rnd := rand.New(rand.NewPCG(13, 1))
	d := randomData(rnd, 4, 3, 5, 12)
	k, p := 3, 3
	u := SymmetricPrior(k, p, 3, 2, 5)
	m := NewVB(d, u, PosteriorFromParams(RandomParams(k, p, rnd), 10, 1e-10))
	if _, err := m.E(); err != nil {
		t.Fatal(err)
	}
	m.M()
	c := m.Counts()
	lnθ := m.W.BayesPoint()
	var got float64
	want := dist.DirichletLogMarginalCounts(u.Pi, c.Pi)
	for j := 0; j < k; j++ {
		got += c.Pi[j] * math.Log(lnθ.Pi[j])
		nC := make([]float64, p)
		for o := 0; o < p; o++ {
			nC[o] = c.E[o*k+j]
			got += nC[o] * math.Log(lnθ.C[j*p+o])
		}
		for l := 0; l < k; l++ {
			got += c.A[j*k+l] * math.Log(lnθ.A[j*k+l])
		}
		want += dist.DirichletLogMarginalCounts(u.A, c.A[j*k:(j+1)*k]) + dist.DirichletLogMarginalCounts(u.C, nC)
	}
	a, b, cc := m.KL()
	got -= a + b + cc
	if math.Abs(got-want) > 1e-10*math.Abs(want) {
		t.Fatalf("−KL + Σ N E ln θ = %.14g, Σ LogMarginalCounts = %.14g", got, want)
	}
}

func TestBayesPointSubNormalised(t *testing.T) {
	rnd := rand.New(rand.NewPCG(14, 1))
	w := PosteriorFromParams(RandomParams(5, 4, rnd), 10, 1e-10)
	rowSums := func(θ Params) []float64 {
		s := []float64{0}
		for _, v := range θ.Pi {
			s[0] += v
		}
		for j := 0; j < θ.K; j++ {
			var a, c float64
			for l := 0; l < θ.K; l++ {
				a += θ.A[j*θ.K+l]
			}
			for o := 0; o < θ.P; o++ {
				c += θ.C[j*θ.P+o]
			}
			s = append(s, a, c)
		}
		return s
	}
	for _, s := range rowSums(w.BayesPoint()) {
		if !(s < 1) {
			t.Fatalf("Bayes-point row sums to %v, want < 1", s)
		}
	}
	big := w.Clone()
	for _, v := range [][]float64{big.Pi, big.A, big.C} {
		for i := range v {
			v[i] *= 1e6
		}
	}
	for _, s := range rowSums(big.BayesPoint()) {
		if !(s < 1 && s > 1-1e-5) {
			t.Fatalf("Bayes-point row of scaled counts sums to %v, want in (1−1e-5, 1)", s)
		}
	}
}

func TestPredictiveBoundBelowMonteCarlo(t *testing.T) {
	// ln Z̃(y′) ≤ ln ∫ q(θ) p(y′|θ) dθ, the latter by Monte Carlo over q(θ)
	// with 10^4 draws, allowing 3 standard errors (targets §1.5 item 9).
	rnd := rand.New(rand.NewPCG(15, 1))
	d := randomData(rnd, 4, 3, 8, 12)
	u := SymmetricPrior(2, 3, 2, 2, 2)
	m, _ := runVB(t, d, u, PosteriorFromParams(RandomParams(2, 3, rnd), 10, 1e-10), vb.Settings{MaxIterations: 500})
	y := []int{0, 1, 2, 2, 1, 0}
	bound := m.PredictiveBound(y)
	src := rand.New(rand.NewPCG(16, 1))
	draw := func(alpha []float64) []float64 {
		return distmv.NewDirichlet(alpha, src).Rand(nil)
	}
	const S = 10000
	lp := make([]float64, S)
	w := m.W
	for s := range lp {
		θ := NewParams(2, 3)
		copy(θ.Pi, draw(w.Pi))
		for j := 0; j < 2; j++ {
			copy(θ.A[j*2:(j+1)*2], draw(w.A[j*2:(j+1)*2]))
			copy(θ.C[j*3:(j+1)*3], draw(w.C[j*3:(j+1)*3]))
		}
		lp[s] = NewScorer(θ).LogProb(y)
	}
	est := numeric.LogSumExp(lp) - math.Log(S)
	// standard error of the log of a mean, by the delta method
	var mean, sq float64
	for _, v := range lp {
		e := math.Exp(v - est)
		mean += e
		sq += e * e
	}
	mean /= S
	se := math.Sqrt((sq/S-mean*mean)/S) / mean
	if bound > est+3*se {
		t.Fatalf("predictive bound %v exceeds Monte Carlo %v ± %v", bound, est, se)
	}
}

func TestSameSeedSameTrace(t *testing.T) {
	d := randomData(rand.New(rand.NewPCG(17, 1)), 5, 3, 10, 20)
	u := SymmetricPrior(4, 3, 4, 4, 4)
	run := func() []float64 {
		init := RandomParams(4, 3, rand.New(rand.NewPCG(18, 1)))
		ml := NewEM(d, init, nil)
		vb.Run(ml, vb.Settings{})
		m := NewVB(d, u, PosteriorFromParams(ml.Params, 10, 1e-10))
		return vb.Run(m, vb.Settings{}).Trace.F
	}
	a, b := run(), run()
	if len(a) != len(b) {
		t.Fatalf("trace lengths %d and %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("iteration %d: %v != %v", i, a[i], b[i])
		}
	}
}

func TestHyperUpdateNeverDecreasesF(t *testing.T) {
	// targets §0.3 loop test (3): with UpdateHyper enabled F never
	// decreases, and the strengths move away from their start.
	rnd := rand.New(rand.NewPCG(21, 1))
	d := randomData(rnd, 6, 3, 10, 30)
	u := SymmetricPrior(4, 3, 4, 4, 4)
	m := NewVB(d, u, PosteriorFromParams(RandomParams(4, 3, rnd), 10, 1e-10))
	r := vb.Run(m, vb.Settings{MaxIterations: 500, RelTol: 1e-10, Hyper: vb.Every(m.HyperGroups()...)})
	if r.Status == vb.BoundDecreased || r.Error() != nil {
		t.Fatalf("with hyperparameter updates: %v", r.Error())
	}
	if m.Prior.A[0]*4 == 4 || m.Prior.C[0]*3 == 4 {
		t.Fatalf("strengths did not change: f_A = %v, f_C = %v", m.Prior.A[0]*4, m.Prior.C[0]*3)
	}
	if u.A[0] != 1 {
		t.Fatal("NewVB did not copy the prior")
	}
	// Each update on its own cannot lower F: −KL is maximised over u.
	m2 := NewVB(d, SymmetricPrior(4, 3, 4, 4, 4), PosteriorFromParams(RandomParams(4, 3, rnd), 10, 1e-10))
	m2.E()
	m2.M()
	before, _ := m2.E()
	a, b, c := m2.KL()
	for _, g := range m2.HyperGroups() {
		m2.UpdateHyper(g)
	}
	a2, b2, c2 := m2.KL()
	if a2 > a+1e-12 || b2 > b+1e-12 || c2 > c+1e-12 {
		t.Fatalf("hyperparameter update raised a KL term: (%v,%v,%v) -> (%v,%v,%v); F was %v", a, b, c, a2, b2, c2, before.F)
	}
}

// longFormAt evaluates eq. 3.75 for posterior w with q(s) = p(s|y, θ) from
// an exact E step at θ (rather than from a VBE step).
func longFormAt(d Data, u Prior, w Posterior, θ Params) float64 {
	k, p := w.K, w.P
	lnθ := w.BayesPoint() // exp E[ln θ] under w
	c := θ.Chain()
	var f float64
	for _, y := range d.Seqs {
		g, xi, _ := infer.ChainMarginals(c, y)
		f += infer.ChainEntropy(g, xi)
		for j := 0; j < k; j++ {
			f += g[0][j] * math.Log(lnθ.Pi[j])
		}
		for t := range y {
			for j := 0; j < k; j++ {
				f += g[t][j] * math.Log(lnθ.C[j*p+y[t]])
				if t > 0 {
					for l := 0; l < k; l++ {
						f += xi[t][j][l] * math.Log(lnθ.A[j*k+l])
					}
				}
			}
		}
	}
	m := NewVB(d, u, w)
	a, b, cc := m.KL()
	return f - a - b - cc
}

func TestCheesemanStutzIdentity(t *testing.T) {
	// targets §1.5 item 7: with θ̂ a converged MAP-EM solution, q̂(s) =
	// p(s|y,θ̂) and one VBM, the long form of F equals ln p_CS; continuing
	// VBEM only increases F; and CS ≤ F ≤ exact on the golden case.
	u := uniformPrior(2, 2, 0.5)
	exact := exactEvidence(golden, 2, u)
	for seed := uint64(1); seed <= 5; seed++ {
		mp := NewEM(golden, RandomParams(2, 2, rand.New(rand.NewPCG(seed, 3))), &u)
		if r := vb.Run(mp, vb.Settings{MaxIterations: 5000, RelTol: 1e-12}); r.Error() != nil {
			t.Fatal(r.Error())
		}
		θ := mp.Params
		cs := CheesemanStutz(golden, θ, u)
		_, n := ExpectedCounts(golden, θ)
		w := PosteriorFromCounts(u, n)
		if long := longFormAt(golden, u, w, θ); math.Abs(long-cs) > 1e-10*math.Abs(cs) {
			t.Fatalf("seed %d: F at the CS point = %.12f, ln p_CS = %.12f", seed, long, cs)
		}
		m := NewVB(golden, u, w)
		r := vb.Run(m, vb.Settings{MaxIterations: 5000, RelTol: 1e-12})
		if r.Error() != nil {
			t.Fatal(r.Error())
		}
		if !(cs <= r.F+1e-10 && r.F <= exact+1e-12) {
			t.Fatalf("seed %d: want CS %.6f ≤ F %.6f ≤ exact %.6f", seed, cs, r.F, exact)
		}
	}
	// With an ML θ̂ (exact zeros allowed) CS is still a lower bound.
	ml := NewEM(golden, RandomParams(2, 2, rand.New(rand.NewPCG(9, 9))), nil)
	vb.Run(ml, vb.Settings{MaxIterations: 5000, RelTol: 1e-12})
	if cs := CheesemanStutz(golden, ml.Params, u); !(cs <= exact) || math.IsNaN(cs) {
		t.Fatalf("CS at the ML point = %v, exact %v", cs, exact)
	}
}

func TestCheesemanStutzOneState(t *testing.T) {
	// For k = 1 the E step is trivial and CS is exact at any θ̂.
	u := uniformPrior(1, 2, 0.5)
	θ := RandomParams(1, 2, rand.New(rand.NewPCG(2, 2)))
	if cs := CheesemanStutz(golden, θ, u); math.Abs(cs-(-7.535006827470)) > 1e-10 {
		t.Fatalf("k=1 CS = %.12f, want the exact -7.535006827470", cs)
	}
}
