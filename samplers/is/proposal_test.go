package is

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/vbworkbench/vbw/core/dist"
)

// proposals returns one of each proposal type of the package, including
// nested products and mixtures, for the identities shared by all of them.
func proposals(t *testing.T) map[string]Proposal {
	rnd := rand.New(rand.NewPCG(1, 1))
	g5 := NewGaussian(randVec(5, 2, rnd), cholOf(t, randSPD(5, 0.5, rnd)))
	t5 := NewStudentT(3, randVec(5, 2, rnd), cholOf(t, randSPD(5, 0.5, rnd)))
	t2 := NewStudentT(2, randVec(3, 1, rnd), cholOf(t, randSPD(3, 0.2, rnd)))
	dir := NewDirichlet([]float64{0.7, 3, 12.5, 1})
	gam := NewGamma([]float64{0.8, 2, 30}, []float64{1, 0.1, 4})
	// An MFA-like proposal: q(π) times rows of q(Λ̃), Gaussian or t.
	prodG := NewProduct(dir, g5, NewGaussian(randVec(5, 1, rnd), cholOf(t, randSPD(5, 1, rnd))))
	prodT := NewProduct(dir, t5, t2, gam)
	mix := NewMixture(g5, t5, NewGaussian(randVec(5, 3, rnd), cholOf(t, randSPD(5, 0.1, rnd))))
	mixProd := NewMixture(prodT, NewProduct(NewDirichlet([]float64{2, 2, 2, 2}), NewStudentT(2, randVec(5, 1, rnd), cholOf(t, randSPD(5, 1, rnd))), t2, gam))
	return map[string]Proposal{
		"Gaussian": g5, "StudentT3": t5, "StudentT2": t2, "Dirichlet": dir, "Gamma": gam,
		"ProductGaussian": prodG, "ProductT": prodT, "Mixture": mix, "MixtureOfProducts": mixProd,
	}
}

// TestRandLogProbMatchesLogProb checks, for every proposal type, that the
// log density returned with a draw equals LogProb at the drawn point and that
// the draw is finite and in the support.
func TestRandLogProbMatchesLogProb(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 1))
	for name, q := range proposals(t) {
		x := make([]float64, q.Dim())
		for i := 0; i < 2000; i++ {
			lr := q.RandLogProb(x, rnd)
			lp := q.LogProb(x)
			if math.IsInf(lr, 0) || math.IsNaN(lr) || !relClose(lr, lp, 1e-12) {
				t.Fatalf("%s: draw %d: RandLogProb %v, LogProb %v at %v", name, i, lr, lp, x)
			}
		}
	}
}

func TestGaussianMatchesDistmv(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 1))
	for _, d := range []int{1, 2, 7, 20} {
		mu := randVec(d, 3, rnd)
		sigma := randSPD(d, 0.3, rnd)
		g := NewGaussian(mu, cholOf(t, sigma))
		ref, ok := distmv.NewNormal(mu, sigma, nil)
		if !ok {
			t.Fatal("distmv.NewNormal failed")
		}
		for i := 0; i < 50; i++ {
			x := randVec(d, 4, rnd)
			if got, want := g.LogProb(x), ref.LogProb(x); !relClose(got, want, 1e-12) {
				t.Errorf("d=%d: LogProb = %v, distmv %v", d, got, want)
			}
		}
	}
}

func TestStudentTMatchesDistmv(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 1))
	for _, d := range []int{1, 3, 10} {
		for _, nu := range []float64{0.5, 2, 3, 30} {
			mu := randVec(d, 3, rnd)
			sigma := randSPD(d, 0.3, rnd)
			st := NewStudentT(nu, mu, cholOf(t, sigma))
			ref, ok := distmv.NewStudentsT(mu, sigma, nu, nil)
			if !ok {
				t.Fatal("distmv.NewStudentsT failed")
			}
			for i := 0; i < 50; i++ {
				// Points out to 40 scale units probe the polynomial tails.
				x := randVec(d, 10*float64(1+i%4), rnd)
				if got, want := st.LogProb(x), ref.LogProb(x); !relClose(got, want, 1e-12) {
					t.Errorf("d=%d ν=%v: LogProb = %v, distmv %v", d, nu, got, want)
				}
			}
		}
	}
	// Univariate case against distuv, whose Sigma is the scale √Σ.
	st := NewStudentT(3, []float64{1.5}, cholOf(t, mat.NewSymDense(1, []float64{4})))
	ref := distuv.StudentsT{Mu: 1.5, Sigma: 2, Nu: 3}
	for _, x := range []float64{-30, -1, 1.5, 2, 100} {
		if got, want := st.LogProb([]float64{x}), ref.LogProb(x); !relClose(got, want, 1e-13) {
			t.Errorf("x=%v: LogProb = %v, distuv %v", x, got, want)
		}
	}
}

// TestStudentTMoments checks the draws' mean μ and covariance ν/(ν−2)·Σ
// (Beal (2003) Table 4.3, "relative variance") for ν = 7, where the
// fourth moments exist, to 4 standard errors of each sample moment.
func TestStudentTMoments(t *testing.T) {
	const (
		d  = 3
		nu = 7.0
		n  = 200000
	)
	rnd := rand.New(rand.NewPCG(5, 1))
	mu := []float64{1, -2, 0.5}
	sigma := randSPD(d, 0.5, rnd)
	q := NewStudentT(nu, mu, cholOf(t, sigma))
	x := make([]float64, d)
	var s1 [d]float64
	var s2, s4 [d][d]float64
	for i := 0; i < n; i++ {
		q.RandLogProb(x, rnd)
		for a := 0; a < d; a++ {
			s1[a] += x[a] - mu[a]
			for b := 0; b < d; b++ {
				v := (x[a] - mu[a]) * (x[b] - mu[b])
				s2[a][b] += v
				s4[a][b] += v * v
			}
		}
	}
	c := nu / (nu - 2)
	for a := 0; a < d; a++ {
		m := s1[a] / n
		if se := math.Sqrt(c * sigma.At(a, a) / n); math.Abs(m) > 4*se {
			t.Errorf("mean[%d] − μ = %v, SE %v", a, m, se)
		}
		for b := 0; b < d; b++ {
			m2 := s2[a][b] / n
			se := math.Sqrt((s4[a][b]/n - m2*m2) / n)
			if want := c * sigma.At(a, b); math.Abs(m2-want) > 4*se {
				t.Errorf("cov[%d][%d] = %v, want %v (SE %v)", a, b, m2, want, se)
			}
		}
	}
}

func TestGaussianMoments(t *testing.T) {
	const (
		d = 4
		n = 100000
	)
	rnd := rand.New(rand.NewPCG(6, 1))
	mu := randVec(d, 2, rnd)
	sigma := randSPD(d, 0.2, rnd)
	q := NewGaussian(mu, cholOf(t, sigma))
	x := make([]float64, d)
	var s2 [d][d]float64
	var s1 [d]float64
	for i := 0; i < n; i++ {
		q.RandLogProb(x, rnd)
		for a := range x {
			s1[a] += x[a] - mu[a]
			for b := range x {
				s2[a][b] += (x[a] - mu[a]) * (x[b] - mu[b])
			}
		}
	}
	for a := 0; a < d; a++ {
		if m, se := s1[a]/n, math.Sqrt(sigma.At(a, a)/n); math.Abs(m) > 4*se {
			t.Errorf("mean[%d] − μ = %v, SE %v", a, m, se)
		}
		for b := 0; b < d; b++ {
			// Var[x_a x_b] = Σ_aa Σ_bb + Σ_ab² for centred Gaussians.
			se := math.Sqrt((sigma.At(a, a)*sigma.At(b, b) + sigma.At(a, b)*sigma.At(a, b)) / n)
			if got := s2[a][b] / n; math.Abs(got-sigma.At(a, b)) > 4*se {
				t.Errorf("cov[%d][%d] = %v, want %v (SE %v)", a, b, got, sigma.At(a, b), se)
			}
		}
	}
}

func TestDirichletAndGammaMatchReferences(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 1))
	alpha := []float64{0.3, 1, 4.5, 20}
	q := NewDirichlet(alpha)
	ref := dist.NewDirichlet(alpha)
	x := make([]float64, len(alpha))
	for i := 0; i < 100; i++ {
		ref.Rand(x, rnd)
		if got, want := q.LogProb(x), ref.LogProb(x); !relClose(got, want, 1e-12) {
			t.Errorf("Dirichlet LogProb = %v, dist %v", got, want)
		}
	}
	if lp := q.LogProb([]float64{0.5, 0.5, 0.5, -0.5}); !math.IsInf(lp, -1) {
		t.Errorf("negative entry: LogProb = %v, want −Inf", lp)
	}
	if lp := q.LogProb([]float64{0.5, 0.5, 0.5, 0}); !math.IsInf(lp, -1) {
		t.Errorf("off the simplex: LogProb = %v, want −Inf", lp)
	}

	shape, rate := []float64{0.5, 3, 40}, []float64{2, 0.5, 10}
	g := NewGamma(shape, rate)
	tau := make([]float64, 3)
	for i := 0; i < 100; i++ {
		g.RandLogProb(tau, rnd)
		var want float64
		for j := range tau {
			want += distuv.Gamma{Alpha: shape[j], Beta: rate[j]}.LogProb(tau[j])
		}
		if got := g.LogProb(tau); !relClose(got, want, 1e-12) {
			t.Errorf("Gamma LogProb = %v, distuv %v", got, want)
		}
	}
	if lp := g.LogProb([]float64{1, 0, 1}); !math.IsInf(lp, -1) {
		t.Errorf("τ = 0: LogProb = %v, want −Inf", lp)
	}
}

// TestProductLayout checks that block b is drawn into, and evaluated on,
// θ[Offset(b) : Offset(b)+Dim_b], and that the log density is the sum.
func TestProductLayout(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 1))
	dir := NewDirichlet([]float64{1, 2, 3})
	g := NewGaussian([]float64{100, 200}, cholOf(t, mat.NewSymDense(2, []float64{0.01, 0, 0, 0.01})))
	gam := NewGamma([]float64{5}, []float64{1})
	p := NewProduct(dir, g, gam)
	if p.Dim() != 6 || p.Offset(0) != 0 || p.Offset(1) != 3 || p.Offset(2) != 5 {
		t.Fatalf("Dim %d, offsets %d %d %d", p.Dim(), p.Offset(0), p.Offset(1), p.Offset(2))
	}
	x := make([]float64, 6)
	for i := 0; i < 100; i++ {
		lr := p.RandLogProb(x, rnd)
		if s := x[0] + x[1] + x[2]; math.Abs(s-1) > 1e-12 || math.Abs(x[3]-100) > 1 || math.Abs(x[4]-200) > 1 || !(x[5] > 0) {
			t.Fatalf("draw %v not laid out as Dir(3), N(2), Ga(1)", x)
		}
		want := dir.LogProb(x[:3]) + g.LogProb(x[3:5]) + gam.LogProb(x[5:])
		if !relClose(lr, want, 1e-12) {
			t.Fatalf("log density %v, sum of blocks %v", lr, want)
		}
	}
}

// TestMixtureDensity checks the mixture's log density against the direct
// ln((1/R) Σ_r exp(ln q_r)), that it integrates to 1 (with the heavy-tailed
// ν = 2 component and a narrow one), and the mean of its draws.
func TestMixtureDensity(t *testing.T) {
	one := func(v float64) *mat.Cholesky { return cholOf(t, mat.NewSymDense(1, []float64{v})) }
	comps := []Proposal{
		NewGaussian([]float64{-2}, one(0.25)),
		NewStudentT(2, []float64{1}, one(2.25)),
		NewGaussian([]float64{4}, one(1)),
		NewStudentT(5, []float64{0}, one(0.01)),
	}
	m := NewMixture(comps...)
	rnd := rand.New(rand.NewPCG(9, 1))
	for i := 0; i < 200; i++ {
		x := []float64{6 * rnd.NormFloat64()}
		var direct float64
		for _, q := range comps {
			direct += math.Exp(q.LogProb(x))
		}
		direct /= float64(len(comps))
		if got := m.LogProb(x); !relClose(got, math.Log(direct), 1e-13) {
			t.Errorf("x=%v: LogProb = %v, direct %v", x[0], got, math.Log(direct))
		}
	}

	// ∫ g(θ) dθ with θ = tan φ, dθ = dφ/cos²φ, by 2000-point Gauss–Legendre
	// on (−π/2, π/2); the integrand vanishes smoothly at the ends because
	// every component decays at least like |θ|^(−3).
	x := make([]float64, 1)
	integrand := func(phi float64) float64 {
		x[0] = math.Tan(phi)
		c := math.Cos(phi)
		return math.Exp(m.LogProb(x)) / (c * c)
	}
	if z := quad.Fixed(integrand, -math.Pi/2, math.Pi/2, 2000, nil, 0); math.Abs(z-1) > 1e-9 {
		t.Errorf("∫ g = %v, want 1", z)
	}

	// The mean of the draws is the average of the components' means. The
	// ν = 2 component has infinite variance, so this check leaves it out.
	fin := NewMixture(comps[0], comps[2], comps[3])
	const n = 100000
	var s, ss float64
	for i := 0; i < n; i++ {
		fin.RandLogProb(x, rnd)
		s += x[0]
		ss += x[0] * x[0]
	}
	mean := s / n
	se := math.Sqrt((ss/n - mean*mean) / n)
	if want := (-2.0 + 4 + 0) / 3; math.Abs(mean-want) > 4*se {
		t.Errorf("mixture mean %v, want %v (SE %v)", mean, want, se)
	}
}

func TestConstructorsPanic(t *testing.T) {
	c2 := cholOf(t, mat.NewSymDense(2, []float64{1, 0, 0, 1}))
	g1 := NewGaussian([]float64{0}, cholOf(t, mat.NewSymDense(1, []float64{1})))
	cases := map[string]func(){
		"Gaussian size":        func() { NewGaussian([]float64{0}, c2) },
		"StudentT ν=0":         func() { NewStudentT(0, []float64{0, 0}, c2) },
		"StudentT ν=Inf":       func() { NewStudentT(math.Inf(1), []float64{0, 0}, c2) },
		"Dirichlet α≤0":        func() { NewDirichlet([]float64{1, 0}) },
		"Gamma lengths":        func() { NewGamma([]float64{1}, []float64{1, 1}) },
		"Gamma rate≤0":         func() { NewGamma([]float64{1}, []float64{0}) },
		"Mixture dims":         func() { NewMixture(g1, NewGaussian([]float64{0, 0}, c2)) },
		"Mixture empty":        func() { NewMixture() },
		"Product empty":        func() { NewProduct() },
		"LogProb length":       func() { g1.LogProb([]float64{0, 0}) },
		"RandLogProb length":   func() { g1.RandLogProb(make([]float64, 2), rand.New(rand.NewPCG(1, 1))) },
		"LogWeight length":     func() { LogWeight(make([]float64, 2), g1, g1, rand.New(rand.NewPCG(1, 1))) },
		"Product LogProb size": func() { NewProduct(g1, g1).LogProb([]float64{0}) },
	}
	for name, f := range cases {
		if !panics(f) {
			t.Errorf("%s: no panic", name)
		}
	}
}

// TestNoAllocations checks that a draw, its log density and a log weight
// allocate nothing for every proposal type.
func TestNoAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	rnd := rand.New(rand.NewPCG(10, 1))
	for name, q := range proposals(t) {
		x := make([]float64, q.Dim())
		var p Target = shifted{q: q, lnZ: 1}
		if a := testing.AllocsPerRun(100, func() { LogWeight(x, q, p, rnd) }); a != 0 {
			t.Errorf("%s: %v allocations per log weight", name, a)
		}
	}
	lw := make([]float64, 64)
	if a := testing.AllocsPerRun(10, func() { EstimateFrom(lw) }); a != 0 {
		t.Errorf("EstimateFrom: %v allocations", a)
	}
}
