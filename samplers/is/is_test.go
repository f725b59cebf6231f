package is

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"

	"github.com/vbworkbench/vbw/core/rng"
)

// linReg is Bayesian linear regression with known noise variance,
//
//	y = Xβ + ε,   ε ~ N(0, σ²I),   β ~ N(0, α⁻¹I),
//
// whose evidence is closed form: y ~ N(0, σ²I + XXᵀ/α). As a Target it is
// ln p(y | β) + ln p(β), with one residual buffer, so it is not safe for
// concurrent use.
type linReg struct {
	n, d          int
	x             []float64 // n×d row-major
	y             []float64
	sigma2, alpha float64
	res           []float64
}

func newLinReg(n, d int, rnd *rand.Rand) *linReg {
	m := &linReg{n: n, d: d, x: randVec(n*d, 1, rnd), sigma2: 0.25, alpha: 1, y: make([]float64, n)}
	beta := randVec(d, 1.5, rnd)
	for i := range m.y {
		for j := 0; j < d; j++ {
			m.y[i] += m.x[i*d+j] * beta[j]
		}
		m.y[i] += math.Sqrt(m.sigma2) * rnd.NormFloat64()
	}
	m.res = make([]float64, n)
	return m
}

func (m *linReg) clone() *linReg {
	c := *m
	c.res = make([]float64, m.n)
	return &c
}

func (m *linReg) LogProb(beta []float64) float64 {
	var lp, rr, bb float64
	for i := 0; i < m.n; i++ {
		m.res[i] = m.y[i]
		for j, b := range beta {
			m.res[i] -= m.x[i*m.d+j] * b
		}
		rr += m.res[i] * m.res[i]
	}
	for _, b := range beta {
		bb += b * b
	}
	lp -= 0.5 * (float64(m.n)*(ln2Pi+math.Log(m.sigma2)) + rr/m.sigma2)
	lp -= 0.5 * (float64(m.d)*(ln2Pi-math.Log(m.alpha)) + m.alpha*bb)
	return lp
}

// evidence returns ln p(y) = ln N(y | 0, σ²I + XXᵀ/α).
func (m *linReg) evidence(t *testing.T) float64 {
	x := mat.NewDense(m.n, m.d, m.x)
	c := mat.NewSymDense(m.n, nil)
	c.SymOuterK(1/m.alpha, x)
	for i := 0; i < m.n; i++ {
		c.SetSym(i, i, c.At(i, i)+m.sigma2)
	}
	nrm, ok := distmv.NewNormal(make([]float64, m.n), c, nil)
	if !ok {
		t.Fatal("evidence covariance not positive definite")
	}
	return nrm.LogProb(m.y)
}

// posterior returns the exact posterior mean and covariance of β.
func (m *linReg) posterior(t *testing.T) ([]float64, *mat.SymDense) {
	x := mat.NewDense(m.n, m.d, m.x)
	prec := mat.NewSymDense(m.d, nil)
	prec.SymOuterK(1/m.sigma2, x.T())
	for j := 0; j < m.d; j++ {
		prec.SetSym(j, j, prec.At(j, j)+m.alpha)
	}
	var ch mat.Cholesky
	if !ch.Factorize(prec) {
		t.Fatal("posterior precision not positive definite")
	}
	cov := mat.NewSymDense(m.d, nil)
	if err := ch.InverseTo(cov); err != nil {
		t.Fatal(err)
	}
	var xty, mean mat.VecDense
	xty.MulVec(x.T(), mat.NewVecDense(m.n, m.y))
	mean.MulVec(cov, &xty)
	mean.ScaleVec(1/m.sigma2, &mean)
	return mean.RawVector().Data, cov
}

func scaledSym(a mat.Symmetric, f float64) *mat.SymDense {
	var s mat.SymDense
	s.ScaleSym(f, a)
	return &s
}

func offset(mu []float64, cov mat.Symmetric, f float64) []float64 {
	o := make([]float64, len(mu))
	for i := range mu {
		o[i] = mu[i] + f*math.Sqrt(cov.At(i, i))
	}
	return o
}

// TestRecoversConjugateEvidence is test (1) of the spec: ln p(y) of a
// conjugate model, recovered within 3 standard errors (over 10 runs of 2000
// samples) by proposals that are not the posterior: a shifted Gaussian of
// twice the posterior covariance, a t with ν = 3 and the posterior covariance
// as scale, a product of block marginals (correlations dropped, widened) and
// a mixture of shifted Gaussian and t components.
func TestRecoversConjugateEvidence(t *testing.T) {
	const (
		runs    = 10
		samples = 2000
	)
	model := newLinReg(20, 3, rand.New(rand.NewPCG(20, 1)))
	exact := model.evidence(t)
	mu, cov := model.posterior(t)
	blk0 := mat.NewSymDense(1, []float64{2 * cov.At(0, 0)})
	blk1 := mat.NewSymDense(2, []float64{2 * cov.At(1, 1), 2 * cov.At(1, 2), 2 * cov.At(2, 1), 2 * cov.At(2, 2)})
	props := map[string]Proposal{
		"Gaussian": NewGaussian(offset(mu, cov, 0.5), cholOf(t, scaledSym(cov, 2))),
		"StudentT": NewStudentT(3, mu, cholOf(t, cov)),
		"Product": NewProduct(
			NewGaussian(mu[:1], cholOf(t, blk0)),
			NewGaussian(mu[1:], cholOf(t, blk1))),
		"Mixture": NewMixture(
			NewGaussian(offset(mu, cov, 1), cholOf(t, scaledSym(cov, 2))),
			NewStudentT(5, offset(mu, cov, -1), cholOf(t, cov))),
	}
	for name, q := range props {
		rs, s := SampleRuns(runs, samples, 2, RunStreams(21, "TestRecoversConjugateEvidence", name),
			func() (Proposal, Target) { return q, model.clone() })
		t.Logf("%s: exact %.5f, mean %.5f ± %.5f, pooled %.5f, F̂ %.5f, ESS[0] %.0f",
			name, exact, s.Mean, s.SE, s.Pooled, s.MeanLogW, rs[0].ESS)
		if !(s.SE > 0 && s.SE < 0.05) {
			t.Errorf("%s: SE %v outside (0, 0.05): the comparison would be meaningless", name, s.SE)
		}
		if math.Abs(s.Mean-exact) > 3*s.SE {
			t.Errorf("%s: mean ln Ẑ %v, exact %v, SE %v", name, s.Mean, exact, s.SE)
		}
		if math.Abs(s.Pooled-exact) > 3*s.SE {
			t.Errorf("%s: pooled ln Ẑ %v, exact %v, SE %v", name, s.Pooled, exact, s.SE)
		}
		// F(q) = ln Z − KL(q‖p) < ln Z for a proposal that is not the
		// posterior, and KL̂ ≥ 0 for every run.
		if !(s.MeanLogW < exact) {
			t.Errorf("%s: F̂ %v not below ln Z %v", name, s.MeanLogW, exact)
		}
		for r, run := range rs {
			if !(run.KL() >= 0) || run.N != samples || !(run.ESS >= 1 && run.ESS <= samples) {
				t.Errorf("%s run %d: KL̂ %v, N %d, ESS %v", name, r, run.KL(), run.N, run.ESS)
			}
		}
	}
}

// TestExactProposal is test (2) of the spec: when the normalised target is
// the proposal, p* = Z·q, every weight equals Z, the ESS is N, the standard
// error is 0 and KL̂ = 0 (to rounding), for every proposal type.
func TestExactProposal(t *testing.T) {
	const lnZ = -123.4
	for name, q := range proposals(t) {
		p := shifted{q: q, lnZ: lnZ}
		rs, s := SampleRuns(4, 500, 2, RunStreams(22, name), func() (Proposal, Target) { return q, p })
		for r, run := range rs {
			for m, lw := range run.LogW {
				if math.Abs(lw-lnZ) > 1e-10 {
					t.Fatalf("%s run %d sample %d: ln w = %v, want %v", name, r, m, lw, lnZ)
				}
			}
			if math.Abs(run.ESS-500) > 1e-9 || math.Abs(run.KL()) > 1e-10 {
				t.Errorf("%s run %d: ESS %v, KL̂ %v", name, r, run.ESS, run.KL())
			}
		}
		if math.Abs(s.Mean-lnZ) > 1e-10 || math.Abs(s.Pooled-lnZ) > 1e-10 || s.SD > 1e-10 || s.SE > 1e-10 {
			t.Errorf("%s: summary %+v", name, s)
		}
	}
}

// TestSampleRunsIndependentOfWorkers checks that the runs do not depend on
// the number of goroutines and equal sequential runs on the same streams.
// Each worker has its own target, whose scratch the race detector watches.
func TestSampleRunsIndependentOfWorkers(t *testing.T) {
	model := newLinReg(10, 2, rand.New(rand.NewPCG(23, 1)))
	q := NewStudentT(2, []float64{0, 0}, cholOf(t, mat.NewSymDense(2, []float64{1, 0.3, 0.3, 1})))
	stream := RunStreams(24, "workers")
	newWorker := func() (Proposal, Target) { return q, model.clone() }
	ref, refSum := SampleRuns(7, 50, 1, stream, newWorker)
	for r, run := range ref {
		seq := Sample(50, q, model.clone(), stream(r))
		if !equalBits(seq.LogW, run.LogW) {
			t.Fatalf("run %d differs from a sequential run on its stream", r)
		}
	}
	for _, w := range []int{2, 3, 7, 16, 0} {
		got, sum := SampleRuns(7, 50, w, stream, newWorker)
		for r := range ref {
			if !equalBits(got[r].LogW, ref[r].LogW) || got[r].Estimate != ref[r].Estimate {
				t.Errorf("workers=%d: run %d differs", w, r)
			}
		}
		if sum != refSum {
			t.Errorf("workers=%d: summary %+v, want %+v", w, sum, refSum)
		}
	}
}

func equalBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func TestRunStreams(t *testing.T) {
	labels := []string{"chapter4", "is"}
	s := RunStreams(7, labels...)
	labels[0] = "changed" // the labels were copied
	if got, want := s(3).Uint64(), rng.New(7, "chapter4", "is", "run", "3").Uint64(); got != want {
		t.Errorf("stream 3 = %x, want rng.New(7, chapter4, is, run, 3) = %x", got, want)
	}
	if s(0).Uint64() == s(1).Uint64() {
		t.Error("runs 0 and 1 share a stream")
	}
	if !panics(func() { Sample(0, nil, nil, nil) }) {
		t.Error("Sample with no samples did not panic")
	}
}

// benchCase is a 50-dimensional Gaussian target N(μ, Σ) with a proposal
// centred at 0 with scale 1.5Σ, Gaussian or t with ν = 5: the per-sample cost
// of a draw, ln q and ln p*.
func benchCase(b *testing.B, heavy bool) (Proposal, Target) {
	const d = 50
	rnd := rand.New(rand.NewPCG(30, 1))
	sigma := randSPD(d, 0.5, rnd)
	p := NewGaussian(randVec(d, 1, rnd), cholOf(b, sigma))
	qc := cholOf(b, scaledSym(sigma, 1.5))
	if heavy {
		return NewStudentT(5, make([]float64, d), qc), p
	}
	return NewGaussian(make([]float64, d), qc), p
}

func BenchmarkLogWeightGaussian50(b *testing.B) {
	q, p := benchCase(b, false)
	theta := make([]float64, q.Dim())
	rnd := rand.New(rand.NewPCG(31, 1))
	b.ReportAllocs()
	for b.Loop() {
		LogWeight(theta, q, p, rnd)
	}
}

func BenchmarkLogWeightStudentT50(b *testing.B) {
	q, p := benchCase(b, true)
	theta := make([]float64, q.Dim())
	rnd := rand.New(rand.NewPCG(31, 1))
	b.ReportAllocs()
	for b.Loop() {
		LogWeight(theta, q, p, rnd)
	}
}

// TestSampleDraws: SampleDraws draws the same weights as Sample on the
// same stream, and each kept θ is the draw of its weight (its log weight
// recomputed from θ by the densities matches).
func TestSampleDraws(t *testing.T) {
	model := newLinReg(10, 2, rand.New(rand.NewPCG(25, 1)))
	q := NewStudentT(3, []float64{0, 0}, cholOf(t, mat.NewSymDense(2, []float64{1, 0.2, 0.2, 1})))
	ref := Sample(40, q, model.clone(), rand.New(rand.NewPCG(26, 1)))
	run, th := SampleDraws(40, q, model.clone(), rand.New(rand.NewPCG(26, 1)))
	if !equalBits(run.LogW, ref.LogW) || run.Estimate != ref.Estimate {
		t.Fatal("SampleDraws' weights differ from Sample's")
	}
	p := model.clone()
	for i := range 40 {
		x := th[2*i : 2*i+2]
		if lw := p.LogProb(x) - q.LogProb(x); math.Abs(lw-run.LogW[i]) > 1e-10*(1+math.Abs(lw)) {
			t.Fatalf("draw %d: ln w from θ %.12g, kept %.12g", i, lw, run.LogW[i])
		}
	}
}
