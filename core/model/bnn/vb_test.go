package bnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestOwenT checks owenT against an adaptive Gauss-Kronrod integral of
// its definition and against the closed forms T(0, a) = arctan(a)/2π and
// T(h, 1) = ½Φ(h)(1 − Φ(h)).
func TestOwenT(t *testing.T) {
	var worst float64
	for _, h := range []float64{0, 0.01, 0.3, 1, 2.5, 4, 6, 8, 10, 15, 25, 39} {
		for _, a := range []float64{1e-4, 0.05, 0.3, 0.7071, 0.95, 1} {
			want, err := numeric.Integrate(func(x float64) float64 {
				return math.Exp(-h*h*(1+x*x)/2) / (1 + x*x) / (2 * math.Pi)
			}, 0, a, numeric.QuadTol{Abs: 1e-18, Rel: 1e-15})
			if err != nil {
				t.Fatal(err)
			}
			got := owenT(h, a)
			worst = math.Max(worst, math.Abs(got-want))
			if math.Abs(got-want) > 2e-16 {
				t.Errorf("T(%v, %v) = %.17g, adaptive %.17g", h, a, got, want)
			}
			if owenT(-h, a) != got {
				t.Errorf("T(−h, a) ≠ T(h, a) at h = %v", h)
			}
		}
		phi := 0.5 * math.Erfc(-h/math.Sqrt2)
		if d := math.Abs(owenT(h, 1) - 0.5*phi*(1-phi)); d > 2e-16 {
			t.Errorf("T(%v, 1) off ½Φ(1−Φ) by %v", h, d)
		}
	}
	for _, a := range []float64{0.1, 0.5, 1} {
		if d := math.Abs(owenT(0, a) - math.Atan(a)/(2*math.Pi)); d > 1e-16 {
			t.Errorf("T(0, %v) off arctan(a)/2π by %v", a, d)
		}
	}
	t.Logf("largest |owenT − adaptive| = %.2g", worst)
}

// TestGMomentsMonteCarlo checks ⟨g(a)⟩ and ⟨g(a)²⟩ for a ~ N(μ, σ²)
// against 4·10⁵ draws (at 4.5 standard errors), σ → 0 against g(μ), g(μ)²,
// and their derivatives against central differences.
func TestGMomentsMonteCarlo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	const n = 400000
	for _, c := range [][2]float64{{0, 1}, {0.5, 0.04}, {-1.3, 2.5}, {2, 9}, {0.1, 100}, {-4, 0.5}} {
		mu, v := c[0], c[1]
		e1, e2 := gMoments(mu, v, nil)
		var s1, s2, q1, q2 float64
		for range n {
			g := G(mu + math.Sqrt(v)*r.NormFloat64())
			s1 += g
			q1 += g * g
			s2 += g * g
			q2 += g * g * g * g
		}
		m1, m2 := s1/n, s2/n
		se1, se2 := math.Sqrt((q1/n-m1*m1)/n), math.Sqrt((q2/n-m2*m2)/n)
		if math.Abs(e1-m1) > 4.5*se1 || math.Abs(e2-m2) > 4.5*se2 {
			t.Errorf("μ=%v σ²=%v: ⟨g⟩ = %.5f (MC %.5f ± %.5f), ⟨g²⟩ = %.5f (MC %.5f ± %.5f)", mu, v, e1, m1, se1, e2, m2, se2)
		}
		var d [4]float64
		gMoments(mu, v, &d)
		hh := 1e-6
		p1, p2 := gMoments(mu+hh, v, nil)
		n1, n2 := gMoments(mu-hh, v, nil)
		q1v, q2v := gMoments(mu, v+hh, nil)
		r1v, r2v := gMoments(mu, v-hh, nil)
		fd := [4]float64{(p1 - n1) / (2 * hh), (q1v - r1v) / (2 * hh), (p2 - n2) / (2 * hh), (q2v - r2v) / (2 * hh)}
		for i := range d {
			if math.Abs(d[i]-fd[i]) > 1e-7*(1+math.Abs(fd[i])) {
				t.Errorf("μ=%v σ²=%v: derivative %d = %v, finite difference %v", mu, v, i, d[i], fd[i])
			}
		}
	}
	for _, mu := range []float64{-2, 0.3, 1.7} {
		e1, e2 := gMoments(mu, 0, nil)
		if math.Abs(e1-G(mu)) > 1e-15 || math.Abs(e2-G(mu)*G(mu)) > 1e-14 {
			t.Errorf("σ² = 0, μ = %v: moments %v, %v; want %v, %v", mu, e1, e2, G(mu), G(mu)*G(mu))
		}
	}
}

// toyProblem draws the data of the toy of Fig. 5.3 (L2126-2128) with n
// points.
func toyProblem(t testing.TB, n, hidden int, seed uint64) *Problem {
	r := rand.New(rand.NewPCG(seed, 1))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		c := 0.125
		if i >= n/2 {
			c = 0.625
		}
		xi := c + 0.25*r.NormFloat64()
		x[i] = []float64{xi}
		y[i] = 0.5 + 0.4*math.Sin(2*math.Pi*xi) + 0.05*r.NormFloat64()
	}
	p, err := NewProblem(Arch{In: 1, Hidden: hidden}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// randomState sets v's parameters to a random point of moderate scale.
func randomState(v *VB, r *rand.Rand) {
	for m := range v.q {
		for j := range v.mean[m] {
			v.mean[m][j] = r.NormFloat64()
			v.logs[m][j] = -1 + 0.5*r.NormFloat64()
			if v.rmean != nil {
				v.rmean[m][j] = v.mean[m][j] + 0.3*r.NormFloat64()
				v.rlogs[m][j] = -0.5 + 0.5*r.NormFloat64()
			}
		}
		if v.rmean != nil {
			v.loglam[m] = 0.3 * r.NormFloat64()
		}
	}
	v.fresh = false
}

// TestExpectEDMonteCarlo checks the closed-form ⟨E_D⟩ and the predictive
// moments under a diagonal Gaussian against draws of w.
func TestExpectEDMonteCarlo(t *testing.T) {
	p := toyProblem(t, 12, 3, 7)
	r := rand.New(rand.NewPCG(11, 13))
	v, err := NewVB(p, Grouped, VBSettings{}, r)
	if err != nil {
		t.Fatal(err)
	}
	randomState(v, r)
	a := v.arch
	want := a.expectED(v.mean[0], v.logs[0], p.X, p.T, v.sc, nil, nil)
	const n = 200000
	w := make([]float64, a.NumWeights())
	var s, q float64
	for range n {
		for j := range w {
			w[j] = v.mean[0][j] + math.Exp(v.logs[0][j])*r.NormFloat64()
		}
		e := a.ErrorGrad(w, p.X, p.T, nil, nil)
		s += e
		q += e * e
	}
	m := s / n
	se := math.Sqrt((q/n - m*m) / n)
	if math.Abs(m-want) > 4.5*se {
		t.Errorf("⟨E_D⟩ = %v, Monte Carlo %v ± %v", want, m, se)
	}
}

// TestBoundGradient checks the gradient of the bound in every continuous
// parameter against central differences, for the diagonal posterior and
// mixtures, group priors and NRD, q(α), q(β) fitted and fixed.
func TestBoundGradient(t *testing.T) {
	for _, c := range []struct {
		prior Prior
		m     int
		fix   bool
	}{{Grouped, 1, false}, {NRD, 1, false}, {ARD, 3, false}, {Grouped, 2, true}, {NRD, 3, false}} {
		t.Run(fmt.Sprintf("%v/M=%d/fix=%v", c.prior, c.m, c.fix), func(t *testing.T) {
			p := toyProblem(t, 9, 3, 5)
			r := rand.New(rand.NewPCG(2, uint64(c.m)))
			v, err := NewVB(p, c.prior, VBSettings{FixHyper: c.fix, InitBeta: 20}, r)
			if err != nil {
				t.Fatal(err)
			}
			if c.m > 1 {
				v = v.spread(VBSettings{Components: c.m, FixHyper: c.fix, InitBeta: 20}.withDefaults(), r)
			}
			randomState(v, r)
			if !c.fix {
				v.updateHyper()
			}
			x := make([]float64, v.numParams())
			v.pack(x, false)
			g := make([]float64, len(x))
			v.objective(x, g, false)
			fd := vbtest.FDGradient(func(y []float64) float64 { return v.objective(y, nil, false) }, x, 1e-6)
			for i := range g {
				if math.Abs(g[i]-fd[i]) > 1e-6*(1+math.Abs(fd[i])) {
					t.Errorf("∂(−F)/∂θ[%d] = %.9g, finite difference %.9g", i, g[i], fd[i])
				}
			}
		})
	}
}
