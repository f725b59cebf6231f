package lds

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/numeric"
)

// annealedState writes par into the coordinates of Annealed.
func annealedState(par *Params) []float64 {
	a, _, c, _ := par.raw()
	th := append(append([]float64(nil), a...), c...)
	for _, r := range par.Rho {
		th = append(th, math.Log(r))
	}
	return th
}

// TestAnnealedLogLik checks LogLik against Params.LogLikelihood (Σ_0 = I,
// the default Λ_0) on two sequences, and that the coordinates of a
// prior draw are finite.
func TestAnnealedLogLik(t *testing.T) {
	rnd := rand.New(rand.NewPCG(51, 1))
	for _, kp := range [][2]int{{1, 1}, {2, 3}, {3, 2}} {
		par := randomParams(rnd, kp[0], kp[1], 0)
		data := simulateAll(rnd, par, []int{7, 12})
		a, err := NewAnnealed(data, kp[0], Hyper{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := par.LogLikelihood(data)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.LogLik(annealedState(par)); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("k=%d p=%d: LogLik %v, Params.LogLikelihood %v", kp[0], kp[1], got, want)
		}
	}
}

// TestAnnealedGradients checks GradLogPrior and GradLogLik (Fisher's
// identity through the smoother) against central differences, with
// non-default hyperparameters.
func TestAnnealedGradients(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 1))
	for _, kp := range [][2]int{{1, 1}, {2, 3}, {3, 2}} {
		k, p := kp[0], kp[1]
		par := randomParams(rnd, k, p, 0)
		data := simulateAll(rnd, par, []int{6, 9})
		h := Hyper{Alpha: make([]float64, k), Gamma: make([]float64, k), NoiseShape: 2, NoiseRate: 0.5,
			Mu0: make([]float64, k), Lambda0: make([]float64, k*k)}
		for j := 0; j < k; j++ {
			h.Alpha[j], h.Gamma[j], h.Mu0[j] = 0.5+rnd.Float64(), 0.5+rnd.Float64(), rnd.NormFloat64()
			h.Lambda0[j*k+j] = 2
		}
		a, err := NewAnnealed(data, k, h)
		if err != nil {
			t.Fatal(err)
		}
		th := annealedState(par)
		for i := range th {
			th[i] += 0.1 * rnd.NormFloat64()
		}
		n := a.Dim()
		gp, gl := make([]float64, n), make([]float64, n)
		a.GradLogPrior(gp, th)
		a.GradLogLik(gl, th)
		x := append([]float64(nil), th...)
		const hstep = 1e-5
		for i := range th {
			x[i] = th[i] + hstep
			p1, l1 := a.LogPrior(x), a.LogLik(x)
			x[i] = th[i] - hstep
			p0, l0 := a.LogPrior(x), a.LogLik(x)
			x[i] = th[i]
			if fd := (p1 - p0) / (2 * hstep); math.Abs(fd-gp[i]) > 1e-6*(1+math.Abs(fd)) {
				t.Errorf("k=%d p=%d coord %d: ∂ ln p %v, difference %v", k, p, i, gp[i], fd)
			}
			if fd := (l1 - l0) / (2 * hstep); math.Abs(fd-gl[i]) > 1e-5*(1+math.Abs(fd)) {
				t.Errorf("k=%d p=%d coord %d: ∂ ln L %v, difference %v", k, p, i, gl[i], fd)
			}
		}
	}
}

// TestAnnealedPrior checks that the prior density of a 1-D LDS integrates
// to 1 over ln ρ and C (the normal-gamma pair with the Jacobian of ln ρ)
// and over A, by quadrature on its marginals, and that SamplePrior's draws
// have the moments of the priors: E[A²] = 1/α, E[ρ] = a/b (4 standard
// errors of 20000 draws).
func TestAnnealedPrior(t *testing.T) {
	y := mat.NewDense(3, 1, []float64{0.3, -0.2, 1.1})
	h := Hyper{Alpha: []float64{2}, Gamma: []float64{0.7}, NoiseShape: 3, NoiseRate: 2}
	a, err := NewAnnealed([]Sequence{{Y: y}}, 1, h)
	if err != nil {
		t.Fatal(err)
	}
	// ∫∫ exp(ln p(A=0, c, ln ρ)) dc dln ρ · 1/N(0|0, 1/α) = 1, with
	// c = v·e^{−ln ρ/2} (Jacobian e^{−ln ρ/2}) so that the box holds the
	// mass at every ρ.
	v, err := numeric.IntegrateVec2(nil, 1, func(lr, u float64, out []float64) {
		out[0] = math.Exp(a.LogPrior([]float64{0, u * math.Exp(-lr/2), lr}) - lr/2)
	}, [2]float64{-12, -15}, [2]float64{6, 15}, numeric.QuadTol{Rel: 1e-9, Abs: 1e-13})
	if err != nil {
		t.Fatal(err)
	}
	z := v[0] / math.Sqrt(2/(2*math.Pi))
	if math.Abs(z-1) > 1e-6 {
		t.Errorf("∫ p(θ) = %v", z)
	}
	rnd := rand.New(rand.NewPCG(53, 1))
	var sa2, sa4, sr, sr2 float64
	const m = 20000
	var th []float64
	for range m {
		th = a.SamplePrior(th, rnd)
		sa2 += th[0] * th[0]
		sa4 += th[0] * th[0] * th[0] * th[0]
		r := math.Exp(th[2])
		sr += r
		sr2 += r * r
	}
	ma, mr := sa2/m, sr/m
	if se := math.Sqrt((sa4/m - ma*ma) / m); math.Abs(ma-0.5) > 4*se {
		t.Errorf("E[A²] = %v ± %v, want 0.5", ma, se)
	}
	if se := math.Sqrt((sr2/m - mr*mr) / m); math.Abs(mr-1.5) > 4*se {
		t.Errorf("E[ρ] = %v ± %v, want 1.5", mr, se)
	}
}
