package mfa_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
)

// qSampler draws θ ~ q(π)q(Λ̃) of an ISPosterior with core/dist only (the
// tests of package core may not import the samplers) and returns ln q(θ).
type qSampler struct {
	pi    dist.Dirichlet
	lay   mfa.ISLayout
	means [][]float64     // per (s, q) row
	chols []*mat.Cholesky // per (s, q) row
	z     []float64
}

func newQSampler(t testing.TB, post mfa.ISPosterior) *qSampler {
	t.Helper()
	if err := post.Validate(); err != nil {
		t.Fatal(err)
	}
	qs := &qSampler{pi: dist.NewDirichlet(post.Omega), lay: post.Layout()}
	for _, r := range post.Rows {
		for q := 0; q < qs.lay.P; q++ {
			var c mat.Cholesky
			if !c.Factorize(r.RowCov(q)) {
				t.Fatal("row covariance not positive definite")
			}
			qs.means = append(qs.means, r.RowMean(q))
			qs.chols = append(qs.chols, &c)
		}
	}
	return qs
}

func (qs *qSampler) draw(theta []float64, rnd *rand.Rand) float64 {
	S := qs.lay.S()
	qs.pi.Rand(theta[:S], rnd)
	lq := qs.pi.LogProb(theta[:S])
	o := S
	for j, mu := range qs.means {
		d := len(mu)
		var l mat.TriDense
		qs.chols[j].LTo(&l)
		qs.z = append(qs.z[:0], make([]float64, d)...)
		var zz float64
		for a := range qs.z {
			qs.z[a] = rnd.NormFloat64()
			zz += qs.z[a] * qs.z[a]
		}
		for a := 0; a < d; a++ {
			v := mu[a]
			for b := 0; b <= a; b++ {
				v += l.At(a, b) * qs.z[b]
			}
			theta[o+a] = v
		}
		lq -= 0.5 * (float64(d)*math.Log(2*math.Pi) + qs.chols[j].LogDet() + zz)
		o += d
	}
	return lq
}

// mixedModel returns a VBMFA on n points in p = 4 dimensions with three
// analysers of k = 2, 0 and 1 factors, after a few iterations.
func mixedModel(t testing.TB, n int) *mfa.VB {
	t.Helper()
	rnd := rng.New(1, "mfa", "istarget", "mixed")
	y, labels := clusters(rnd, [][]float64{{0, 0, 0, 0}, {3, 1, -1, 2}, {-2, 3, 1, 0}}, 0.8, n/3)
	m, err := mfa.NewVB(y, labelResp(labels, 3, 0.9), mfa.Settings{Ks: []int{2, 0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	r := vb.Run(m, vb.Settings{MaxIterations: 20, Converger: vb.FixedIterations{}, Hyper: mfa.DefaultSchedule()})
	if err := r.Error(); err != nil && r.Status != vb.IterationLimit {
		t.Fatal(err)
	}
	return m
}

// TestISLayout: the flat layout puts π first, then each analyser's rows.
func TestISLayout(t *testing.T) {
	l := mfa.ISLayout{P: 4, Ks: []int{2, 0, 1}}
	if l.S() != 3 || l.Dim() != 3+4*3+4*1+4*2 {
		t.Fatalf("S = %d, Dim = %d", l.S(), l.Dim())
	}
	for _, c := range []struct{ s, q, want int }{{0, 0, 3}, {0, 1, 6}, {0, 3, 12}, {1, 0, 15}, {1, 3, 18}, {2, 0, 19}, {2, 3, 25}} {
		if got := l.RowOffset(c.s, c.q); got != c.want {
			t.Errorf("RowOffset(%d, %d) = %d, want %d", c.s, c.q, got, c.want)
		}
	}
}

// TestISPosterior: the plain-data posterior is the model's q(π), q(Λ̃) and
// hyperparameters.
func TestISPosterior(t *testing.T) {
	m := mixedModel(t, 60)
	post := m.ISPosterior()
	if err := post.Validate(); err != nil {
		t.Fatal(err)
	}
	for s, w := range m.Pi().Alpha {
		if post.Omega[s] != w {
			t.Errorf("ω_%d = %v, want %v", s, post.Omega[s], w)
		}
	}
	for s := 0; s < m.Size(); s++ {
		rows := m.Loadings(s)
		var cov mat.SymDense
		for q := 0; q < m.P(); q++ {
			if !floatsEqual(post.Rows[s].RowMean(q), rows.RowMeanTo(nil, q)) {
				t.Errorf("analyser %d row %d: mean differs", s, q)
			}
			rows.CovarianceTo(&cov, q)
			if !mat.Equal(post.Rows[s].RowCov(q), &cov) {
				t.Errorf("analyser %d row %d: covariance differs", s, q)
			}
		}
	}
	if l := post.Layout(); l.P != 4 || len(l.Ks) != 3 || l.Ks[0] != 2 || l.Ks[1] != 0 || l.Ks[2] != 1 {
		t.Errorf("layout %+v", l)
	}
	for q, v := range m.Hyper.Psi {
		if post.Hyper.Psi[q] != v {
			t.Errorf("ψ_%d differs", q)
		}
	}
	bad := post
	bad.Omega = []float64{1, 2}
	if bad.Validate() == nil {
		t.Error("Validate accepted 2 Dirichlet parameters for 3 analysers")
	}
}

func floatsEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestISTargetLikelihoodDense checks LogLik (Woodbury form, chunks of
// points) against a dense evaluation of Σ_i ln Σ_s π_s N(y_i | μ^s,
// Λ^sΛ^sᵀ + Ψ) with gonum's distmv.Normal, at draws from q, with n above
// one chunk of points and analysers of k = 2, 0, 1 (targets §1.13 item 11).
func TestISTargetLikelihoodDense(t *testing.T) {
	m := mixedModel(t, 720)
	post := m.ISPosterior()
	tg, err := m.ISTarget()
	if err != nil {
		t.Fatal(err)
	}
	qs := newQSampler(t, post)
	rnd := rng.New(2, "mfa", "istarget", "dense")
	lay := post.Layout()
	y := m.Data()
	n, p := y.Dims()
	theta := make([]float64, lay.Dim())
	for rep := 0; rep < 3; rep++ {
		qs.draw(theta, rnd)
		var comps []*distmv.Normal
		for s, k := range lay.Ks {
			d := k + 1
			mu := make([]float64, p)
			c := mat.NewSymDense(p, nil)
			for a := 0; a < p; a++ {
				ra := theta[lay.RowOffset(s, a) : lay.RowOffset(s, a)+d]
				mu[a] = ra[k]
				for b := a; b < p; b++ {
					rb := theta[lay.RowOffset(s, b) : lay.RowOffset(s, b)+d]
					var v float64
					for l := 0; l < k; l++ {
						v += ra[l] * rb[l]
					}
					if a == b {
						v += post.Hyper.Psi[a]
					}
					c.SetSym(a, b, v)
				}
			}
			nm, ok := distmv.NewNormal(mu, c, nil)
			if !ok {
				t.Fatal("dense covariance not positive definite")
			}
			comps = append(comps, nm)
		}
		var want float64
		terms := make([]float64, len(comps))
		for i := 0; i < n; i++ {
			yi := mat.Row(nil, i, y)
			for s, nm := range comps {
				terms[s] = math.Log(theta[s]) + nm.LogProb(yi)
			}
			want += numeric.LogSumExp(terms)
		}
		got := tg.LogLik(theta)
		if math.Abs(got-want) > 1e-10*math.Abs(want) {
			t.Errorf("draw %d: LogLik = %.15g, dense %.15g", rep, got, want)
		}
	}
}

// TestISTargetPrior checks LogPrior against separate evaluations: the
// Dirichlet prior with dist.Dirichlet, each column's Student-t by numerical
// integration of Ga(ν | a*, b*) N(Λ_{·l} | 0, I/ν) over ν (targets §1.2), and
// the analyser means with distuv.Normal.
func TestISTargetPrior(t *testing.T) {
	m := mixedModel(t, 60)
	m.Hyper.A, m.Hyper.B = 1.7, 0.3 // away from the defaults, so that a* and b* count
	post := m.ISPosterior()
	tg, err := m.ISTarget()
	if err != nil {
		t.Fatal(err)
	}
	h := post.Hyper
	lay := post.Layout()
	S, p := lay.S(), lay.P
	qs := newQSampler(t, post)
	theta := make([]float64, lay.Dim())
	qs.draw(theta, rng.New(3, "mfa", "istarget", "prior"))
	prior := make([]float64, S)
	for s := range prior {
		prior[s] = h.Alpha / float64(S)
	}
	want := dist.NewDirichlet(prior).LogProb(theta[:S])
	gam := distuv.Gamma{Alpha: h.A, Beta: h.B}
	for s, k := range lay.Ks {
		d := k + 1
		for l := 0; l < k; l++ {
			var e float64
			for q := 0; q < p; q++ {
				v := theta[lay.RowOffset(s, q)+l]
				e += v * v
			}
			// ∫ Ga(ν) N(λ | 0, I/ν) dν over u = ln ν.
			f := func(u float64) float64 {
				nu := math.Exp(u)
				return math.Exp(gam.LogProb(nu) + u + 0.5*float64(p)*(math.Log(nu)-math.Log(2*math.Pi)) - 0.5*nu*e)
			}
			want += math.Log(quad.Fixed(f, -60, 30, 4000, nil, 0))
		}
		for q := 0; q < p; q++ {
			mu := theta[lay.RowOffset(s, q)+d-1]
			want += distuv.Normal{Mu: h.Mu[q], Sigma: 1 / math.Sqrt(h.Nu[q])}.LogProb(mu)
		}
	}
	if got := tg.LogPrior(theta); math.Abs(got-want) > 1e-8*math.Abs(want) {
		t.Errorf("LogPrior = %.15g, separate evaluation %.15g", got, want)
	}
	if got, want := tg.LogProb(theta), tg.LogPrior(theta)+tg.LogLik(theta); got != want {
		t.Errorf("LogProb = %v, LogPrior + LogLik = %v", got, want)
	}
	theta[0] = -theta[0]
	if got := tg.LogProb(theta); !math.IsInf(got, -1) {
		t.Errorf("π outside the simplex: LogProb = %v, want −Inf", got)
	}
}

// TestISTargetExact (targets §1.13 item 3): with one analyser without
// factors and frozen hyperparameters, q(μ) after one E step is the exact
// posterior, so every importance weight p(θ, y)/q(θ) equals the evidence
// F = ln p(y): ln p̂ = F̂ = F and KL̂ = 0.
func TestISTargetExact(t *testing.T) {
	rnd := rng.New(4, "mfa", "istarget", "exact")
	const n, p = 25, 3
	y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for q := 0; q < p; q++ {
			y.Set(i, q, 1+float64(q)+rnd.NormFloat64())
		}
	}
	h := mfa.Hyper{Alpha: 2, A: 1, B: 0.01, Mu: []float64{0, 0.5, 1}, Nu: []float64{0.2, 0.5, 1}, Psi: []float64{0.8, 1.1, 1.5}}
	m, err := mfa.NewVBRandom(y, 1, mfa.Settings{K: 0, Hyper: h}, rnd)
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.E()
	if err != nil {
		t.Fatal(err)
	}
	m.M()
	f := m.Bound().F
	if math.Abs(f-b.F) > 1e-9*math.Abs(f) {
		t.Fatalf("F after M = %v, after E %v", f, b.F)
	}
	tg, err := m.ISTarget()
	if err != nil {
		t.Fatal(err)
	}
	qs := newQSampler(t, m.ISPosterior())
	theta := make([]float64, tg.Dim())
	for rep := 0; rep < 20; rep++ {
		lq := qs.draw(theta, rnd)
		if lw := tg.LogProb(theta) - lq; math.Abs(lw-f) > 1e-9*math.Abs(f) {
			t.Errorf("draw %d: ln w = %.15g, F = ln p(y) = %.15g", rep, lw, f)
		}
	}
}

// isToyModel is the toy problem of targets §1.13 item 5: n = 30 points in
// p = 2 from two clusters, S = 2 analysers of k = 1, fitted by VBEM with
// the default hyperparameter schedule.
func isToyModel(t testing.TB) *mfa.VB {
	t.Helper()
	rnd := rng.New(5, "mfa", "istarget", "toy")
	y, labels := clusters(rnd, [][]float64{{0, 0}, {3, 2}}, 0.7, 15)
	z := zscore(y)
	m, err := mfa.NewVB(z, labelResp(labels, 2, 0.9), mfa.Settings{K: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := vb.Run(m, vb.Settings{MaxIterations: 500, RelTol: 1e-10, Hyper: mfa.DefaultSchedule()})
	if err := r.Error(); err != nil && r.Status != vb.IterationLimit {
		t.Fatal(err)
	}
	return m
}

// TestISTargetBoundOrdering (targets §1.13 items 4 and 5): with q as the
// proposal, F̂(π, Λ̃) = mean ln w is an unbiased estimate of a bound that
// integrates ν, x and s exactly, so it is at least the VB bound F in
// expectation (10⁴ draws, 4 standard errors); and ln p̂ ≥ F̂ for every
// sample set (Jensen), so KL̂ ≥ 0.
func TestISTargetBoundOrdering(t *testing.T) {
	m := isToyModel(t)
	fvb := m.Bound().F
	tg, err := m.ISTarget()
	if err != nil {
		t.Fatal(err)
	}
	qs := newQSampler(t, m.ISPosterior())
	rnd := rng.New(6, "mfa", "istarget", "ordering")
	const M = 10000
	lw := make([]float64, M)
	theta := make([]float64, tg.Dim())
	var mean float64
	for i := range lw {
		lq := qs.draw(theta, rnd)
		lw[i] = tg.LogProb(theta) - lq
		mean += lw[i]
	}
	mean /= M
	var ss float64
	for _, v := range lw {
		ss += (v - mean) * (v - mean)
	}
	se := math.Sqrt(ss / (M - 1) / M)
	lnp := numeric.LogSumExp(lw) - math.Log(M)
	t.Logf("F_VB = %.4f, F̂(π,Λ̃) = %.4f ± %.4f, ln p̂ = %.4f", fvb, mean, se, lnp)
	if mean+4*se < fvb {
		t.Errorf("F̂(π,Λ̃) = %v ± %v below F_VB = %v", mean, se, fvb)
	}
	for b := 0; b < M; b += 1000 {
		chunk := lw[b : b+1000]
		var f float64
		for _, v := range chunk {
			f += v
		}
		if kl := numeric.LogSumExp(chunk) - math.Log(1000) - f/1000; kl < 0 {
			t.Errorf("KL̂ = %v < 0 on samples %d..%d", kl, b, b+999)
		}
	}
}

// TestISTargetAllocs: LogProb allocates nothing.
func TestISTargetAllocs(t *testing.T) {
	m := mixedModel(t, 600)
	tg, err := m.ISTarget()
	if err != nil {
		t.Fatal(err)
	}
	theta := make([]float64, tg.Dim())
	newQSampler(t, m.ISPosterior()).draw(theta, rng.New(7, "mfa", "istarget", "allocs"))
	if a := testing.AllocsPerRun(20, func() { tg.LogProb(theta) }); a != 0 {
		t.Errorf("LogProb allocates %v times per call", a)
	}
}

// TestNewISTargetErrors: inconsistent sizes and invalid hyperparameters
// are errors.
func TestNewISTargetErrors(t *testing.T) {
	m := mixedModel(t, 60)
	y := m.Data()
	lay := m.ISPosterior().Layout()
	good := m.ISPosterior().Hyper
	if _, err := mfa.NewISTarget(y, lay, good); err != nil {
		t.Fatalf("valid input: %v", err)
	}
	for name, f := range map[string]func() (mat.Matrix, mfa.ISLayout, mfa.Hyper){
		"p differs":    func() (mat.Matrix, mfa.ISLayout, mfa.Hyper) { return y, mfa.ISLayout{P: 3, Ks: lay.Ks}, good },
		"no analysers": func() (mat.Matrix, mfa.ISLayout, mfa.Hyper) { return y, mfa.ISLayout{P: 4}, good },
		"k > p":        func() (mat.Matrix, mfa.ISLayout, mfa.Hyper) { return y, mfa.ISLayout{P: 4, Ks: []int{5}}, good },
		"ψ = 0": func() (mat.Matrix, mfa.ISLayout, mfa.Hyper) {
			h := good
			h.Psi = []float64{1, 0, 1, 1}
			return y, lay, h
		},
		"b* = 0": func() (mat.Matrix, mfa.ISLayout, mfa.Hyper) {
			h := good
			h.B = 0
			return y, lay, h
		},
	} {
		if _, err := mfa.NewISTarget(f()); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// BenchmarkISTargetDigits times ln p(θ, y) (all points) at the shape of the
// importance sampling of Beal (2003) §4.7.2 on optdigits 0-2 (n = 1145,
// p = 62, k = 6) with S = 25 analysers, on synthetic data.
func BenchmarkISTargetDigits(b *testing.B) {
	y := factorClusters(rand.New(rand.NewPCG(41, 42)), 62, 6, 25, 1145)
	z := zscore(y)
	m, err := mfa.NewVBRandom(z, 25, mfa.Settings{K: 6}, rng.New(43, "bench"))
	if err != nil {
		b.Fatal(err)
	}
	for range 3 {
		iterate(b, m)
	}
	tg, err := m.ISTarget()
	if err != nil {
		b.Fatal(err)
	}
	theta := make([]float64, tg.Dim())
	newQSampler(b, m.ISPosterior()).draw(theta, rng.New(44, "bench"))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		tg.LogProb(theta)
	}
}
