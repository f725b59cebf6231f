package dist

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distmv"

	"github.com/vbworkbench/vbw/core/numeric"
)

func relErr(got, want float64) float64 {
	if got == want {
		return 0
	}
	return math.Abs(got-want) / math.Abs(want)
}

func TestDirichletGolden(t *testing.T) {
	// Golden values of ../shared/targets/ch3-hmm.md §0.2, computed there with
	// mpmath at 30 digits (the second agrees with Beta quadrature).
	third := 1.0 / 3
	for _, c := range []struct {
		q, p []float64
		want float64
	}{
		{[]float64{1, 2, 3}, []float64{0.5, 0.5, 0.5}, 0.90722162863144617},
		{[]float64{0.3, 4.7}, []float64{2, 2}, 5.8833090153004848},
		{[]float64{10.0 / 3, 10.0 / 3, 10.0 / 3, 0.01}, []float64{third, third, third, third}, 31.601078102467825},
	} {
		if got := DirichletKL(c.q, c.p); !(relErr(got, c.want) <= 1e-12) {
			t.Errorf("DirichletKL(%v, %v) = %.17g, want %.17g (rel %.3g)", c.q, c.p, got, c.want, relErr(got, c.want))
		}
		if got := KLDirichlet(NewDirichlet(c.q), NewDirichlet(c.p)); !(relErr(got, c.want) <= 1e-12) {
			t.Errorf("KLDirichlet(%v, %v) = %.17g, want %.17g", c.q, c.p, got, c.want)
		}
	}
	if got, want := NewDirichlet([]float64{1, 2, 3}).Entropy(), -1.2443445622221007; !(relErr(got, want) <= 1e-12) {
		t.Errorf("H(Dir(1,2,3)) = %.17g, want %.17g", got, want)
	}
}

// dirichletIdentityLHS returns −KL(Dir(u+N) ‖ Dir(u)) + Σ_j N_j E_{u+N}[ln π_j].
func dirichletIdentityLHS(u, n []float64) float64 {
	w := DirichletPosteriorTo(nil, u, n, 1)
	el := DirichletMeanLogTo(nil, w)
	v := -DirichletKL(w, u)
	for j := range n {
		v += n[j] * el[j]
	}
	return v
}

func TestDirichletMultinomialIdentity(t *testing.T) {
	// Golden from the target spec (mpmath, 30 digits).
	third := 1.0 / 3
	u := []float64{third, third, third}
	n := []float64{2.5, 0, 7.25}
	const want = -8.2482683665469959
	if got := DirichletLogMarginalCounts(u, n); !(relErr(got, want) <= 1e-12) {
		t.Errorf("DirichletLogMarginalCounts = %.17g, want %.17g", got, want)
	}
	if got := NewDirichlet(u).LogMarginalCounts(n); !(relErr(got, want) <= 1e-12) {
		t.Errorf("Dirichlet.LogMarginalCounts = %.17g, want %.17g", got, want)
	}
	if got := dirichletIdentityLHS(u, n); !(relErr(got, want) <= 1e-12) {
		t.Errorf("−KL + Σ N E[ln π] = %.17g, want %.17g", got, want)
	}
	// The identity holds for any real N ≥ 0 (for a Dirichlet posterior the
	// VB bound is exact).
	rnd := rand.New(rand.NewPCG(1, 7))
	for i := 0; i < 500; i++ {
		k := 2 + rnd.IntN(8)
		u := make([]float64, k)
		n := make([]float64, k)
		for j := range u {
			u[j] = logUniform(rnd, 0.01, 20)
			if rnd.IntN(4) > 0 {
				n[j] = 50 * rnd.Float64()
			}
		}
		lhs, rhs := dirichletIdentityLHS(u, n), DirichletLogMarginalCounts(u, n)
		if math.Abs(lhs-rhs) > 1e-10*math.Max(1, math.Abs(rhs)) {
			t.Errorf("u=%v N=%v: −KL + Σ N E[ln π] = %.15g, log marginal %.15g", u, n, lhs, rhs)
		}
	}
	// Zero counts give zero evidence.
	if v := DirichletLogMarginalCounts([]float64{0.5, 2}, []float64{0, 0}); v != 0 {
		t.Errorf("log marginal of no data = %v, want 0", v)
	}
	// One observation of category j has probability α_j/α₀.
	if got, want := DirichletLogMarginalCounts([]float64{1, 3}, []float64{0, 1}), math.Log(0.75); relErr(got, want) > 1e-14 {
		t.Errorf("single observation: %v, want ln ¾", got)
	}
}

func TestDirichletMeans(t *testing.T) {
	d := NewDirichlet([]float64{1, 2, 3, 4})
	m := d.Mean(nil)
	for j, want := range []float64{0.1, 0.2, 0.3, 0.4} {
		if math.Abs(m[j]-want) > 1e-15 {
			t.Errorf("Mean = %v", m)
		}
	}
	mode, ok := NewDirichlet([]float64{2, 3, 5}).Mode(nil)
	if !ok {
		t.Fatal("Mode of Dir(2,3,5) not ok")
	}
	for j, want := range []float64{1.0 / 7, 2.0 / 7, 4.0 / 7} {
		if math.Abs(mode[j]-want) > 1e-15 {
			t.Errorf("Mode = %v", mode)
		}
	}
	if _, ok := NewDirichlet([]float64{2, 1, 5}).Mode(nil); ok {
		t.Error("Mode of Dir(2,1,5) ok, want false (α_j = 1)")
	}
	if _, ok := NewDirichlet([]float64{0.5, 3}).Mode(nil); ok {
		t.Error("Mode of Dir(0.5,3) ok, want false")
	}

	ml := d.MeanLog(nil)
	for j, a := range d.Alpha {
		if want := numeric.Digamma(a) - numeric.Digamma(10); ml[j] != want {
			t.Errorf("MeanLog[%d] = %v, want ψ(α_j) − ψ(α₀) = %v", j, ml[j], want)
		}
	}
}

func TestDirichletBayesPoint(t *testing.T) {
	// Eqs. (3.69)–(3.71): the Bayes point is sub-normalised, and tends to
	// the mean as the strength grows.
	rnd := rand.New(rand.NewPCG(1, 8))
	for i := 0; i < 200; i++ {
		d := randDirichlet(rnd, 2+rnd.IntN(8), 0.01, 100)
		bp := d.BayesPoint(nil)
		var s float64
		for _, v := range bp {
			s += v
		}
		if !(s < 1) {
			t.Errorf("Σ BayesPoint = %.17g ≥ 1 for %v", s, d)
		}
	}
	// Scaled by 1e6: exp ψ(α) = α − ½ + O(1/α), so
	// 1 − Σ_j BayesPoint_j ≈ (K − 1)/(2α₀), below 1e-5 for the α of order
	// 0.1–100 used here (the spec's criterion) and matching the asymptote.
	for i := 0; i < 200; i++ {
		d := randDirichlet(rnd, 2+rnd.IntN(8), 0.1, 100)
		big := make([]float64, len(d.Alpha))
		for j, a := range d.Alpha {
			big[j] = a * 1e6
		}
		db := NewDirichlet(big)
		var sb float64
		for _, v := range db.BayesPoint(nil) {
			sb += v
		}
		if !(sb > 1-1e-5 && sb < 1) {
			t.Errorf("Σ BayesPoint at 1e6 × α = %.17g, want in (1 − 1e-5, 1)", sb)
		}
		asym := float64(len(big)-1) / (2 * db.Alpha0())
		if e := math.Abs((1-sb)-asym) / asym; !(e <= 1e-2) {
			t.Errorf("1 − Σ BayesPoint = %.6g, asymptote (K−1)/(2α₀) = %.6g", 1-sb, asym)
		}
	}
}

func TestDirichletLogProbGonum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 9))
	for i := 0; i < 100; i++ {
		d := randDirichlet(rnd, 2+rnd.IntN(5), 0.2, 20)
		g := distmv.NewDirichlet(d.Alpha, nil)
		x := d.Rand(nil, rnd)
		if got, want := d.LogProb(x), g.LogProb(x); math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
			t.Errorf("LogProb = %.15g, distmv.Dirichlet.LogProb = %.15g", got, want)
		}
	}
	d := NewDirichlet([]float64{2, 3})
	if v := d.LogProb([]float64{0.5, 0.6}); !math.IsInf(v, -1) {
		t.Errorf("LogProb off the simplex = %v, want −Inf", v)
	}
	if v := d.LogProb([]float64{-0.1, 1.1}); !math.IsInf(v, -1) {
		t.Errorf("LogProb with a negative entry = %v, want −Inf", v)
	}
}

func TestDirichletRandSmallAlpha(t *testing.T) {
	// With α_j = 0.01 a naive Ga(α, 1) draw underflows to 0 for about 1 in
	// 10 draws per entry (P(G < 1e-308) ≈ (1e-308)^0.01/Γ(1.01)); the log-domain
	// sampler must still return points of the simplex.
	d := NewDirichlet([]float64{0.01, 0.01, 0.01})
	rnd := rand.New(rand.NewPCG(1, 10))
	x := make([]float64, 3)
	for i := 0; i < 10000; i++ {
		d.Rand(x, rnd)
		var s float64
		for _, v := range x {
			if !(v >= 0) {
				t.Fatalf("sample %v has a negative or NaN entry", x)
			}
			s += v
		}
		if math.Abs(s-1) > 1e-14 {
			t.Fatalf("sample %v sums to %v", x, s)
		}
	}
}

func TestDirichletPosterior(t *testing.T) {
	prior := NewDirichlet([]float64{0.25, 0.5, 0.25})
	counts := []float64{3.5, 0, 10.25}
	post := prior.Posterior(counts)
	for j, want := range []float64{3.75, 0.5, 10.5} {
		if post.Alpha[j] != want {
			t.Errorf("Posterior = %v", post.Alpha)
		}
	}
	// Online with a split into batches, and annealed with β = 1, are
	// identical (exactly, since these sums are exact in binary).
	online := prior.Posterior([]float64{1.5, 0, 0.25}).Posterior([]float64{2, 0, 10})
	annealed := DirichletPosteriorTo(nil, prior.Alpha, counts, 1)
	generic := Posterior(prior, counts, 1).(Dirichlet)
	for j := range counts {
		if online.Alpha[j] != post.Alpha[j] || annealed[j] != post.Alpha[j] || generic.Alpha[j] != post.Alpha[j] {
			t.Errorf("batch %v, online %v, annealed %v, generic %v", post.Alpha, online.Alpha, annealed, generic.Alpha)
		}
	}
	half := DirichletPosteriorTo(nil, prior.Alpha, counts, 0.5)
	for j := range counts {
		if want := prior.Alpha[j] + counts[j]/2; half[j] != want {
			t.Errorf("annealed β = ½: %v", half)
		}
	}
	// In place.
	a := append([]float64(nil), prior.Alpha...)
	DirichletPosteriorTo(a, a, counts, 1)
	for j := range a {
		if a[j] != post.Alpha[j] {
			t.Errorf("in-place posterior %v", a)
		}
	}
}

func TestDirichletSliceFuncs(t *testing.T) {
	alpha := []float64{0.5, 1.5, 7}
	dst := make([]float64, 3)
	if got := DirichletMeanLogTo(dst, alpha); &got[0] != &dst[0] {
		t.Error("DirichletMeanLogTo did not return dst")
	}
	if got := DirichletMeanLogTo(nil, alpha); len(got) != 3 || got[2] != dst[2] {
		t.Errorf("DirichletMeanLogTo(nil, α) = %v, want %v", got, dst)
	}
	inPlace := append([]float64(nil), alpha...)
	DirichletMeanLogTo(inPlace, inPlace)
	for j := range dst {
		if inPlace[j] != dst[j] {
			t.Errorf("in-place DirichletMeanLogTo = %v, want %v", inPlace, dst)
		}
	}
	for name, fn := range map[string]func(){
		"MeanLogTo dst length":     func() { DirichletMeanLogTo(make([]float64, 2), alpha) },
		"MeanLogTo zero α":         func() { DirichletMeanLogTo(nil, []float64{1, 0}) },
		"MeanLogTo NaN α":          func() { DirichletMeanLogTo(nil, []float64{1, math.NaN()}) },
		"KL length":                func() { DirichletKL(alpha, alpha[:2]) },
		"KL negative":              func() { DirichletKL([]float64{1, -1}, []float64{1, 1}) },
		"LogMarginalCounts length": func() { DirichletLogMarginalCounts(alpha, []float64{1}) },
		"LogMarginalCounts N < 0":  func() { DirichletLogMarginalCounts(alpha, []float64{1, -1, 0}) },
		"PosteriorTo length":       func() { DirichletPosteriorTo(nil, alpha, []float64{1}, 1) },
		"NewDirichlet":             func() { NewDirichlet([]float64{1, 0}) },
		"NewDirichlet empty":       func() { NewDirichlet(nil) },
		"KLDirichlet dims":         func() { KLDirichlet(NewDirichlet([]float64{1, 2}), NewDirichlet(alpha)) },
	} {
		if !panics(fn) {
			t.Errorf("%s: no panic", name)
		}
	}
}

func TestDirichletHotPathNoAlloc(t *testing.T) {
	alpha := []float64{0.5, 1.5, 7, 0.1, 3}
	p := []float64{1, 1, 1, 1, 1}
	n := []float64{0, 2, 3.5, 0, 1}
	dst := make([]float64, len(alpha))
	var sink float64
	if a := testing.AllocsPerRun(100, func() {
		DirichletMeanLogTo(dst, alpha)
		DirichletPosteriorTo(dst, alpha, n, 1)
		sink += DirichletKL(alpha, p) + DirichletLogMarginalCounts(alpha, n)
	}); a != 0 {
		t.Errorf("Dirichlet slice functions allocate %v times per call", a)
	}
	_ = sink
}

var benchSink float64

func BenchmarkDirichletMeanLogTo(b *testing.B) {
	for _, k := range []int{10, 100} {
		alpha := make([]float64, k)
		for j := range alpha {
			alpha[j] = 0.1 + float64(j)
		}
		dst := make([]float64, k)
		b.Run(map[int]string{10: "K=10", 100: "K=100"}[k], func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				DirichletMeanLogTo(dst, alpha)
			}
			benchSink += dst[0]
		})
	}
}

func BenchmarkDirichletKL(b *testing.B) {
	q := make([]float64, 10)
	p := make([]float64, 10)
	for j := range q {
		q[j] = 0.5 + float64(j)
		p[j] = 0.1
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		benchSink += DirichletKL(q, p)
	}
}
