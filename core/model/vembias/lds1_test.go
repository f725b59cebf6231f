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

// TestLDS1Quadrature checks the quadrature's log evidence and posterior
// mean of A against importance sampling from the prior on a short series
// (T = 6, where the prior is a usable proposal), within 4 standard errors,
// and its convergence in the number of points, to 1e-3 there and to 1e-5
// on 100 steps drawn from A = 0.9, C = 1, ρ = 1 (the bridge's setting).
func TestLDS1Quadrature(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 9))
	prior := LDS1Prior{Alpha: 1, Gamma: 1, A: 2, B: 2, Sigma0: 1}
	y := []float64{0.5, 1.2, 0.9, 1.5, 0.3, -0.2}
	q, err := prior.LDS1Quadrature(y, [3]float64{0.5, 1, 0}, [3]float64{0.5, 0.5, 0.5}, 12, 28)
	if err != nil {
		t.Fatal(err)
	}
	q2, _ := prior.LDS1Quadrature(y, [3]float64{0.5, 1, 0}, [3]float64{0.5, 0.5, 0.5}, 12, 40)
	// Six points leave a ridge at C ≈ 0, |A| > 1 (an exploding state with
	// no output) that the grid resolves only slowly.
	if math.Abs(q.LogEvidence-q2.LogEvidence) > 1e-3 || math.Abs(q.MeanA-q2.MeanA) > 1e-3 {
		t.Errorf("28 points: %v, %v; 40 points: %v, %v", q.LogEvidence, q.MeanA, q2.LogEvidence, q2.MeanA)
	}
	if q.EdgeRatio > 1e-8 {
		t.Errorf("edge ratio %v", q.EdgeRatio)
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
	y := make([]float64, 100)
	x := r.NormFloat64()
	for i := range y {
		x = 0.9*x + r.NormFloat64()
		y[i] = x + r.NormFloat64()
	}
	prior := LDS1Prior{Alpha: 1, Gamma: 1, A: 1, B: 1, Sigma0: 1}
	c := [3]float64{0.9, 1, 0}
	s := [3]float64{0.1, 0.3, 0.3}
	a, err := prior.LDS1Quadrature(y, c, s, 12, 24)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := prior.LDS1Quadrature(y, c, s, 12, 36)
	if math.Abs(a.LogEvidence-b.LogEvidence) > 1e-5 || math.Abs(a.MeanA-b.MeanA) > 1e-5 || math.Abs(a.VarA-b.VarA) > 1e-3*b.VarA {
		t.Errorf("24 points: %+v\n36 points: %+v", a, b)
	}
}
