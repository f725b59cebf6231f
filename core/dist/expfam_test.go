package dist

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// family describes one exponential family to the generic tests.
type family struct {
	name string
	// fixed are hand-picked instances; none of their expected statistics is
	// near zero, so relative finite-difference errors are meaningful.
	fixed []ExpFam
	// pair returns two random members of the same dimensions.
	pair func(rnd *rand.Rand) (q, p ExpFam)
	// mc are (q, p) pairs for the Monte Carlo checks.
	mc [][2]ExpFam
	// stats returns valid conjugate-update statistics for prior: adding any
	// non-negative multiple of them to η stays in the domain.
	stats func(rnd *rand.Rand, prior ExpFam) []float64
}

func logUniform(rnd *rand.Rand, lo, hi float64) float64 {
	return math.Exp(math.Log(lo) + (math.Log(hi)-math.Log(lo))*rnd.Float64())
}

// randSPD returns BBᵀ/d + c·I with B standard normal, a well-conditioned
// random SPD matrix with entries of order one.
func randSPD(rnd *rand.Rand, d int, c float64) *mat.SymDense {
	b := mat.NewDense(d, d, nil)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			b.Set(i, j, rnd.NormFloat64())
		}
	}
	s := mat.NewSymDense(d, nil)
	s.SymOuterK(1/float64(d), b)
	for i := 0; i < d; i++ {
		s.SetSym(i, i, s.At(i, i)+c)
	}
	return s
}

func randVec(rnd *rand.Rand, d int, sd float64) []float64 {
	v := make([]float64, d)
	for i := range v {
		v[i] = sd * rnd.NormFloat64()
	}
	return v
}

func mustGaussian(mu []float64, sigma mat.Symmetric) *Gaussian {
	g, ok := NewGaussian(mu, sigma)
	if !ok {
		panic("test: covariance not positive definite")
	}
	return g
}

func mustWishart(nu float64, s mat.Symmetric) *Wishart {
	w, ok := NewWishart(nu, s)
	if !ok {
		panic("test: scale not positive definite")
	}
	return w
}

func mustNormalGamma(a, b float64, m []float64, sigma mat.Symmetric) *NormalGamma {
	ng, ok := NewNormalGamma(a, b, m, sigma)
	if !ok {
		panic("test: covariance not positive definite")
	}
	return ng
}

func sym(d int, v ...float64) *mat.SymDense { return mat.NewSymDense(d, v) }

func randDirichlet(rnd *rand.Rand, k int, lo, hi float64) Dirichlet {
	a := make([]float64, k)
	for j := range a {
		a[j] = logUniform(rnd, lo, hi)
	}
	return NewDirichlet(a)
}

func families() []family {
	return []family{
		{
			name: "Dirichlet",
			fixed: []ExpFam{
				NewDirichlet([]float64{1, 2, 3}),
				NewDirichlet([]float64{0.3, 4.7}),
				NewDirichlet([]float64{0.5, 0.7, 12, 3.3, 1.1}),
			},
			pair: func(rnd *rand.Rand) (ExpFam, ExpFam) {
				k := 2 + rnd.IntN(6)
				return randDirichlet(rnd, k, 0.05, 50), randDirichlet(rnd, k, 0.05, 50)
			},
			mc: [][2]ExpFam{
				{NewDirichlet([]float64{1, 2, 3}), NewDirichlet([]float64{0.5, 0.5, 0.5})},
				{NewDirichlet([]float64{0.6, 5, 2.5, 9}), NewDirichlet([]float64{2, 1.5, 1, 3})},
			},
			stats: func(rnd *rand.Rand, prior ExpFam) []float64 {
				t := make([]float64, prior.NumParams())
				for j := range t {
					t[j] = 10 * rnd.Float64() // expected counts ≥ 0
				}
				return t
			},
		},
		{
			name: "Gamma",
			fixed: []ExpFam{
				NewGammaShapeRate(2, 3),
				NewGammaShapeRate(0.5, 0.1),
				NewGammaShapeRate(30, 0.7),
			},
			pair: func(rnd *rand.Rand) (ExpFam, ExpFam) {
				return NewGammaShapeRate(logUniform(rnd, 0.05, 100), logUniform(rnd, 0.01, 100)),
					NewGammaShapeRate(logUniform(rnd, 0.05, 100), logUniform(rnd, 0.01, 100))
			},
			mc: [][2]ExpFam{
				{NewGammaShapeRate(2, 3), NewGammaShapeRate(1, 1)},
				{NewGammaShapeRate(0.7, 0.2), NewGammaShapeRate(3, 2)},
			},
			stats: func(rnd *rand.Rand, prior ExpFam) []float64 {
				// n/2 and −½Σ(y−μ)² from Gaussian data with precision τ.
				n := float64(1 + rnd.IntN(20))
				return []float64{n / 2, -0.5 * n * logUniform(rnd, 0.1, 10)}
			},
		},
		{
			name: "Gaussian",
			fixed: []ExpFam{
				mustGaussian([]float64{1.5}, sym(1, 0.7)),
				mustGaussian([]float64{1, -2}, sym(2, 2, 0.5, 0.5, 1)),
				mustGaussian([]float64{0.5, 1.2, -0.8}, sym(3, 1.5, 0.3, -0.2, 0.3, 1, 0.4, -0.2, 0.4, 2)),
			},
			pair: func(rnd *rand.Rand) (ExpFam, ExpFam) {
				d := 1 + rnd.IntN(4)
				return mustGaussian(randVec(rnd, d, 2), randSPD(rnd, d, 0.2)),
					mustGaussian(randVec(rnd, d, 2), randSPD(rnd, d, 0.2))
			},
			mc: [][2]ExpFam{
				{mustGaussian([]float64{0, 0}, sym(2, 1, 0, 0, 1)), mustGaussian([]float64{1, 0}, sym(2, 2, 0, 0, 2))},
				{mustGaussian([]float64{0.5, 1.2, -0.8}, sym(3, 1.5, 0.3, -0.2, 0.3, 1, 0.4, -0.2, 0.4, 2)),
					mustGaussian([]float64{0, 1, 0}, sym(3, 1, 0.2, 0, 0.2, 2, 0.1, 0, 0.1, 1))},
			},
			stats: func(rnd *rand.Rand, prior ExpFam) []float64 {
				// Data y_i ~ N(x, P⁻¹) with known precision P: t = (P Σy,
				// packed −½ n P), which is the η of N(ȳ, (nP)⁻¹).
				d := prior.SampleLen()
				n := float64(1 + rnd.IntN(10))
				var np mat.SymDense
				np.ScaleSym(n, randSPD(rnd, d, 0.5))
				g, _ := NewGaussianPrecision(randVec(rnd, d, 1), &np)
				return g.NaturalParams(nil)
			},
		},
		{
			name: "Wishart",
			fixed: []ExpFam{
				mustWishart(5, sym(2, 2, 0.5, 0.5, 1)),
				mustWishart(0.7, sym(1, 1.3)),
				mustWishart(4.5, sym(3, 1.5, 0.3, -0.2, 0.3, 1, 0.4, -0.2, 0.4, 2)),
			},
			pair: func(rnd *rand.Rand) (ExpFam, ExpFam) {
				k := 1 + rnd.IntN(3)
				nu := func() float64 { return float64(k-1) + logUniform(rnd, 0.05, 30) }
				return mustWishart(nu(), randSPD(rnd, k, 0.2)), mustWishart(nu(), randSPD(rnd, k, 0.2))
			},
			mc: [][2]ExpFam{
				{mustWishart(5, sym(2, 2, 0.5, 0.5, 1)), mustWishart(3, sym(2, 1, 0, 0, 1))},
				{mustWishart(4.5, sym(3, 1.5, 0.3, -0.2, 0.3, 1, 0.4, -0.2, 0.4, 2)),
					mustWishart(6, sym(3, 0.5, 0, 0.1, 0, 0.4, 0, 0.1, 0, 0.3))},
			},
			stats: func(rnd *rand.Rand, prior ExpFam) []float64 {
				// n/2 and packed −½ Σ y_i y_iᵀ for zero-mean Gaussian data.
				k := prior.(*Wishart).Dim()
				n := 1 + rnd.IntN(10)
				scatter := mat.NewSymDense(k, nil)
				for i := 0; i < n; i++ {
					scatter.SymRankOne(scatter, 1, mat.NewVecDense(k, randVec(rnd, k, 1)))
				}
				t := make([]float64, prior.NumParams())
				t[0] = float64(n) / 2
				packSymNatural(t[1:], scatter)
				return t
			},
		},
		{
			name: "NormalGamma",
			fixed: []ExpFam{
				mustNormalGamma(3, 2, []float64{1.5}, sym(1, 0.7)),
				mustNormalGamma(2.5, 1.5, []float64{1, -2}, sym(2, 2, 0.5, 0.5, 1)),
				mustNormalGamma(4, 0.5, []float64{0.5, 1.2, -0.8}, sym(3, 1.5, 0.3, -0.2, 0.3, 1, 0.4, -0.2, 0.4, 2)),
			},
			pair: func(rnd *rand.Rand) (ExpFam, ExpFam) {
				d := 1 + rnd.IntN(3)
				mk := func() ExpFam {
					return mustNormalGamma(logUniform(rnd, 0.1, 50), logUniform(rnd, 0.05, 20), randVec(rnd, d, 2), randSPD(rnd, d, 0.2))
				}
				return mk(), mk()
			},
			mc: [][2]ExpFam{
				{mustNormalGamma(3, 2, []float64{1, -2}, sym(2, 2, 0.5, 0.5, 1)),
					mustNormalGamma(2, 1, []float64{0, -1}, sym(2, 1, 0, 0, 3))},
				{mustNormalGamma(6, 3, []float64{0.5}, sym(1, 0.5)),
					mustNormalGamma(1.5, 2, []float64{1.5}, sym(1, 2))},
			},
			stats: func(rnd *rand.Rand, prior ExpFam) []float64 {
				// Regression y = cᵀx + noise of precision ρ: t = (n/2,
				// −½Σy², Σ y x, packed −½ Σ x xᵀ).
				d := prior.(*NormalGamma).Dim()
				n := 1 + rnd.IntN(10)
				t := make([]float64, prior.NumParams())
				xx := mat.NewSymDense(d, nil)
				t[0] = float64(n) / 2
				for i := 0; i < n; i++ {
					x := randVec(rnd, d, 1)
					y := rnd.NormFloat64()
					t[1] -= 0.5 * y * y
					for j := 0; j < d; j++ {
						t[2+j] += y * x[j]
					}
					xx.SymRankOne(xx, 1, mat.NewVecDense(d, x))
				}
				packSymNatural(t[2+d:], xx)
				return t
			},
		},
	}
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// genericKL returns A(η_p) − A(η_q) − (η_p − η_q)ᵀE_q[u].
func genericKL(q, p ExpFam) float64 {
	eq, ep, u := q.NaturalParams(nil), p.NaturalParams(nil), q.ExpectedStats(nil)
	kl := p.LogNormalizer() - q.LogNormalizer()
	for i := range eq {
		kl -= (ep[i] - eq[i]) * u[i]
	}
	return kl
}

func TestKLSelfIsZero(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, f := range families() {
		qs := append([]ExpFam(nil), f.fixed...)
		for i := 0; i < 100; i++ {
			q, _ := f.pair(rnd)
			qs = append(qs, q)
		}
		for _, q := range qs {
			if kl := q.KL(q); !(math.Abs(kl) <= 1e-12) {
				t.Errorf("%s: KL(q, q) = %g for q = %v", f.name, kl, q)
			}
		}
	}
}

func TestKLNonNegative(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, f := range families() {
		for i := 0; i < 1000; i++ {
			q, p := f.pair(rnd)
			if kl := q.KL(p); !(kl >= 0) || math.IsInf(kl, 0) {
				t.Errorf("%s: KL = %v for pair %d", f.name, kl, i)
			}
		}
	}
}

func TestKLMatchesGenericFormula(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 3))
	for _, f := range families() {
		var pairs [][2]ExpFam
		// Self-pairs are left to TestKLSelfIsZero: a relative error of a
		// zero KL is meaningless.
		for i, q := range f.fixed {
			for j, p := range f.fixed {
				if i != j && q.NumParams() == p.NumParams() {
					pairs = append(pairs, [2]ExpFam{q, p})
				}
			}
		}
		for i := 0; i < 300; i++ {
			q, p := f.pair(rnd)
			pairs = append(pairs, [2]ExpFam{q, p})
		}
		worst := 0.0
		for _, qp := range pairs {
			q, p := qp[0], qp[1]
			got, want := q.KL(p), genericKL(q, p)
			if got == want {
				continue
			}
			e := math.Abs(got-want) / math.Abs(want)
			worst = math.Max(worst, e)
			if !(e <= 1e-10) {
				t.Errorf("%s: closed-form KL %.17g, generic %.17g (rel %.3g)", f.name, got, want, e)
			}
		}
		t.Logf("%s: worst relative difference %.3g over %d pairs", f.name, worst, len(pairs))
	}
}

func TestExpectedStatsAreGradient(t *testing.T) {
	for _, f := range families() {
		for _, q := range f.fixed {
			eta := q.NaturalParams(nil)
			eu := q.ExpectedStats(nil)
			for i := range eta {
				h := 1e-5 * math.Max(1, math.Abs(eta[i]))
				ep := append([]float64(nil), eta...)
				em := append([]float64(nil), eta...)
				ep[i] += h
				em[i] -= h
				fd := (q.FromNatural(ep).LogNormalizer() - q.FromNatural(em).LogNormalizer()) / (2 * h)
				if e := math.Abs(fd-eu[i]) / math.Abs(eu[i]); !(e <= 1e-6) {
					t.Errorf("%s %v: ∂A/∂η[%d] = %.12g by finite difference, E[u] = %.12g (rel %.3g)", f.name, q, i, fd, eu[i], e)
				}
			}
		}
	}
}

func TestNaturalRoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 4))
	for _, f := range families() {
		for i := 0; i < 50; i++ {
			q, _ := f.pair(rnd)
			eta := q.NaturalParams(nil)
			back := q.FromNatural(eta)
			eta2 := back.NaturalParams(nil)
			for j := range eta {
				if math.Abs(eta2[j]-eta[j]) > 1e-10*math.Max(1, math.Abs(eta[j])) {
					t.Errorf("%s: η round trip %v → %v", f.name, eta, eta2)
					break
				}
			}
			if a, b := q.LogNormalizer(), back.LogNormalizer(); math.Abs(a-b) > 1e-10*math.Max(1, math.Abs(a)) {
				t.Errorf("%s: A changed in the round trip: %v → %v", f.name, a, b)
			}
		}
	}
}

func TestLogProbIsExponentialForm(t *testing.T) {
	// All families here have base measure h = 1: ln p(x) = ηᵀu(x) − A(η).
	rnd := rand.New(rand.NewPCG(1, 5))
	for _, f := range families() {
		for _, q := range f.fixed {
			eta := q.NaturalParams(nil)
			for i := 0; i < 20; i++ {
				x := q.RandVec(nil, rnd)
				got := q.LogProbVec(x)
				want := dot(eta, q.Stats(nil, x)) - q.LogNormalizer()
				if math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
					t.Errorf("%s: LogProbVec %.15g, ηᵀu − A %.15g", f.name, got, want)
				}
			}
		}
	}
}

// meanSE returns the sample mean and its standard error.
func meanSE(xs []float64) (mean, se float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / (n - 1) / n)
}

// mcSamples is the Monte Carlo sample size of the 4-standard-error checks.
// The whole package runs in a few seconds with it, so -short keeps it.
func mcSamples() int { return 100000 }

func TestMonteCarlo(t *testing.T) {
	n := mcSamples()
	for _, f := range families() {
		for pi, qp := range f.mc {
			q, p := qp[0], qp[1]
			rnd := rand.New(rand.NewPCG(1, 1))
			np := q.NumParams()
			u := make([][]float64, np)
			for i := range u {
				u[i] = make([]float64, n)
			}
			lq := make([]float64, n)
			ratio := make([]float64, n)
			x := make([]float64, q.SampleLen())
			st := make([]float64, np)
			for s := 0; s < n; s++ {
				q.RandVec(x, rnd)
				q.Stats(st, x)
				for i := range st {
					u[i][s] = st[i]
				}
				lq[s] = q.LogProbVec(x)
				ratio[s] = lq[s] - p.LogProbVec(x)
			}
			eu := q.ExpectedStats(nil)
			for i := range eu {
				m, se := meanSE(u[i])
				if !(math.Abs(m-eu[i]) <= 4*se) {
					t.Errorf("%s pair %d: mean u[%d] = %.6g ± %.2g, E[u] = %.6g (%.1f SE)", f.name, pi, i, m, se, eu[i], (m-eu[i])/se)
				}
			}
			m, se := meanSE(lq)
			if h := q.Entropy(); !(math.Abs(-m-h) <= 4*se) {
				t.Errorf("%s pair %d: −mean ln q = %.6g ± %.2g, Entropy = %.6g", f.name, pi, -m, se, h)
			}
			m, se = meanSE(ratio)
			if kl := q.KL(p); !(math.Abs(m-kl) <= 4*se) {
				t.Errorf("%s pair %d: mean ln q/p = %.6g ± %.2g, KL = %.6g", f.name, pi, m, se, kl)
			}
		}
	}
}

func TestPosteriorBatchOnlineAnnealed(t *testing.T) {
	// Beal (2003) eqs. (2.98)–(2.99) batch, (2.114)–(2.117) online, and
	// (2.118)–(2.119) annealed with β = 1 give the same posterior.
	rnd := rand.New(rand.NewPCG(1, 6))
	for _, f := range families() {
		for _, prior := range f.fixed {
			batches := make([][]float64, 1+rnd.IntN(5))
			total := make([]float64, prior.NumParams())
			for b := range batches {
				batches[b] = f.stats(rnd, prior)
				for i, v := range batches[b] {
					total[i] += v
				}
			}
			batch := Posterior(prior, total, 1)
			online := prior
			for _, tb := range batches {
				online = Posterior(online, tb, 1)
			}
			// Annealed with β = 1 from the β < 1 path: η + β·t at β = 1.
			annealed := Posterior(prior, total, 1.0)
			half := Posterior(Posterior(prior, total, 0.5), total, 0.5)

			eta := prior.NaturalParams(nil)
			want := make([]float64, len(eta))
			for i := range eta {
				want[i] = eta[i] + total[i]
			}
			for name, post := range map[string]ExpFam{"batch": batch, "online": online, "annealed": annealed, "β=½ twice": half} {
				got := post.NaturalParams(nil)
				for i := range got {
					if math.Abs(got[i]-want[i]) > 1e-10*math.Max(1, math.Abs(want[i])) {
						t.Errorf("%s %s: η̃[%d] = %.15g, want η + t = %.15g", f.name, name, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func TestKLFamilyMismatchPanics(t *testing.T) {
	fs := families()
	for i, f := range fs {
		g := fs[(i+1)%len(fs)]
		if !panics(func() { f.fixed[0].KL(g.fixed[0]) }) {
			t.Errorf("KL(%s, %s) did not panic", f.name, g.name)
		}
		// Different dimensions within a family.
		if f.name != "Gamma" {
			if !panics(func() { f.fixed[0].KL(f.fixed[1]) }) && f.fixed[0].NumParams() != f.fixed[1].NumParams() {
				t.Errorf("%s: KL between dimensions %d and %d did not panic", f.name, f.fixed[0].NumParams(), f.fixed[1].NumParams())
			}
		}
		if !panics(func() { Posterior(f.fixed[0], make([]float64, f.fixed[0].NumParams()+1), 1) }) {
			t.Errorf("%s: Posterior with wrong-length statistics did not panic", f.name)
		}
	}
}

// panics reports whether fn panics.
func panics(fn func()) (p bool) {
	defer func() {
		if recover() != nil {
			p = true
		}
	}()
	fn()
	return false
}

func (d Dirichlet) String() string { return fmt.Sprintf("Dir%v", d.Alpha) }
