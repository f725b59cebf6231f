package vembias

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/vbworkbench/vbw/core/numeric"
)

// TestLDS1LogLik checks the scalar Kalman filter against the Gaussian
// density of y_{1:T} with its covariance built directly:
// Cov(x_s, x_t) = A^{|t−s|} Var(x_min), y = C x + noise.
func TestLDS1LogLik(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 8))
	const T = 7
	a, c, rho, s0 := 0.8, 1.3, 2.0, 1.5
	y := make([]float64, T)
	for i := range y {
		y[i] = r.NormFloat64()
	}
	var vx [T]float64
	v := s0
	for i := 0; i < T; i++ {
		v = a*a*v + 1
		vx[i] = v
	}
	cov := make([]float64, T*T)
	for i := 0; i < T; i++ {
		for j := 0; j < T; j++ {
			lo, d := min(i, j), max(i, j)-min(i, j)
			cov[i*T+j] = c * c * math.Pow(a, float64(d)) * vx[lo]
		}
		cov[i*T+i] += 1 / rho
	}
	l := append([]float64(nil), cov...)
	numeric.CholFactor(l, T)
	z := append([]float64(nil), y...)
	numeric.CholSolveVec(l, T, z)
	var zz float64
	for _, v := range z {
		zz += v * v
	}
	want := -0.5*(T*ln2Pi+numeric.CholLogDet(l, T)) - 0.5*zz
	if got := LDS1LogLik(y, a, c, rho, s0); math.Abs(got-want) > 1e-10 {
		t.Errorf("Kalman filter %v, direct %v", got, want)
	}
}

// TestCollapsedLogJoint checks the closed-form integral over ρ: at fixed
// A, ∫ p(y, A, ℓ) dℓ against ∫∫ p(y, A, C, u) dC du of LogJoint (the Kalman
// filter in the model's own coordinates), both by nested Gauss-Kronrod.
func TestCollapsedLogJoint(t *testing.T) {
	prior := LDS1Prior{Alpha: 1.5, Gamma: 0.7, A: 2, B: 1.5, Sigma0: 1.2}
	y := []float64{0.5, 1.2, 0.9, 1.5, 0.3, -0.2, 0.8, 1.1}
	for _, a := range []float64{-0.3, 0.6, 1.2} {
		top, _, _ := prior.CollapsedLogJoint(y, a, 0)
		one, _, err := numeric.IntegrateBreaks(func(l float64) float64 {
			v, _, _ := prior.CollapsedLogJoint(y, a, l)
			return math.Exp(v - top)
		}, []float64{-80, -10, -3, -1, 0, 1, 3, 6}, numeric.QuadTol{Rel: 1e-12, MaxIntervals: 500})
		if err != nil {
			t.Fatal(err)
		}
		two, _, err := numeric.IntegrateBreaks(func(u float64) float64 {
			v, _, err := numeric.IntegrateBreaks(func(c float64) float64 { return math.Exp(prior.LogJoint(y, a, c, u) - top) },
				[]float64{-30, -3, -1, -0.3, 0, 0.3, 1, 3, 30}, numeric.QuadTol{Rel: 1e-12, MaxIntervals: 500})
			if err != nil {
				t.Fatal(err)
			}
			return v
		}, []float64{-12, -4, -2, -1, 0, 1, 2, 4}, numeric.QuadTol{Rel: 1e-10, MaxIntervals: 500})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(math.Log(one/two)) > 1e-8 {
			t.Errorf("A = %v: ρ in closed form %v, over (C, ln ρ) %v", a, math.Log(one)+top, math.Log(two)+top)
		}
	}
}

// TestLDS1Quadrature checks the quadrature's log evidence and posterior
// mean of A against importance sampling from the prior on a short series
// (T = 6, where the prior is a usable proposal), within 4 standard errors,
// and its convergence in the tolerance on 100 and 1000 steps drawn from
// A = 0.5 and 0.99, C = 1, ρ = 1 (the bridge's setting).
func TestLDS1Quadrature(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 9))
	prior := LDS1Prior{Alpha: 1, Gamma: 1, A: 2, B: 2, Sigma0: 1}
	y := []float64{0.5, 1.2, 0.9, 1.5, 0.3, -0.2}
	q, err := prior.LDS1Quadrature(y, [2]float64{0.5, 0}, 1e-9)
	if err != nil {
		t.Fatal(err)
	}
	// Importance sampling from the prior: w = p(y | θ).
	const n = 400000
	lw := make([]float64, n)
	as := make([]float64, n)
	for i := range lw {
		a := r.NormFloat64() / math.Sqrt(prior.Alpha)
		rho := distuv.Gamma{Alpha: prior.A, Beta: prior.B, Src: r}.Rand()
		c := r.NormFloat64() / math.Sqrt(rho*prior.Gamma)
		lw[i] = LDS1LogLik(y, a, c, rho, prior.Sigma0)
		as[i] = a
	}
	top := math.Inf(-1)
	for _, v := range lw {
		top = math.Max(top, v)
	}
	var s, s2, sa float64
	for i, v := range lw {
		w := math.Exp(v - top)
		s += w
		s2 += w * w
		sa += w * as[i]
	}
	mean := s / n
	se := math.Sqrt((s2/n - mean*mean) / n)
	logZ := top + math.Log(mean)
	seLog := se / mean
	if math.Abs(logZ-q.LogEvidence) > 4*seLog {
		t.Errorf("log evidence: quadrature %v, IS %v ± %v", q.LogEvidence, logZ, seLog)
	}
	if ma := sa / s; math.Abs(ma-q.MeanA) > 0.01 {
		t.Errorf("posterior mean of A: quadrature %v, IS %v", q.MeanA, ma)
	}
}

func TestLDS1QuadratureConverges(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 10))
	for _, c := range []struct {
		lam float64
		T   int
	}{{0.5, 100}, {0.5, 1000}, {0.99, 1000}} {
		y := make([]float64, c.T)
		x := r.NormFloat64()
		for i := range y {
			x = c.lam*x + r.NormFloat64()
			y[i] = x + r.NormFloat64()
		}
		prior := LDS1Prior{Alpha: 1, Gamma: 1, A: 1, B: 1, Sigma0: 1}
		a, err := prior.LDS1Quadrature(y, [2]float64{0.9, 0}, 1e-6)
		if err != nil {
			t.Fatal(err)
		}
		b, err := prior.LDS1Quadrature(y, [2]float64{0.9, 0}, 1e-10)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("λ = %v, T = %d: %d and %d points, %+v", c.lam, c.T, a.Points, b.Points, b)
		if math.Abs(a.LogEvidence-b.LogEvidence) > 1e-6 || math.Abs(a.MeanA-b.MeanA) > 1e-6 || math.Abs(a.VarA-b.VarA) > 1e-5*b.VarA {
			t.Errorf("λ = %v, T = %d: relTol 1e-6 %+v\n1e-10 %+v", c.lam, c.T, a, b)
		}
	}
}
