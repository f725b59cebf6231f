package dist

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
)

// strengthObjective is G(f) of FitSymmetricStrength.
func strengthObjective(R, K int, S, f float64) float64 {
	r, k := float64(R), float64(K)
	return r*(numeric.LogGamma(f)-k*numeric.LogGamma(f/k)) + (f/k-1)*S
}

func strengthGrad(R, K int, S, f float64) (g, scale float64) {
	r, k := float64(R), float64(K)
	a := r * (numeric.Digamma(f) - numeric.Digamma(f/k))
	return a + S/k, math.Abs(a) + math.Abs(S/k)
}

func TestFitSymmetricStrength(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 15))
	for trial := 0; trial < 300; trial++ {
		R := 1 + rnd.IntN(20)
		K := 2 + rnd.IntN(30)
		// S from real Dirichlet posteriors: rows Dir(f₀/K + counts).
		f0 := logUniform(rnd, 0.05, 50)
		var S float64
		el := make([]float64, K)
		for r := 0; r < R; r++ {
			alpha := make([]float64, K)
			for j := range alpha {
				alpha[j] = f0/float64(K) + float64(rnd.IntN(5))*rnd.Float64()
			}
			DirichletMeanLogTo(el, alpha)
			for _, v := range el {
				S += v
			}
		}
		f := FitSymmetricStrength(R, K, S)
		if f == strengthMin || f == strengthMax {
			t.Errorf("R=%d K=%d S=%g: fit at the boundary %g", R, K, S, f)
			continue
		}
		g, scale := strengthGrad(R, K, S, f)
		if !(math.Abs(g) <= 1e-10*scale) {
			t.Errorf("R=%d K=%d S=%g: G'(f*=%g) = %g (scale %g)", R, K, S, f, g, scale)
		}
		// f* maximises G: the update never decreases the bound.
		gStar := strengthObjective(R, K, S, f)
		for _, other := range []float64{f * (1 - 1e-4), f * (1 + 1e-4), 1e-3, 0.1, 1, 10, 1000} {
			if go_ := strengthObjective(R, K, S, other); go_ > gStar+1e-12*math.Abs(gStar) {
				t.Errorf("R=%d K=%d: G(%g) = %.15g > G(f*=%g) = %.15g", R, K, other, go_, f, gStar)
			}
		}
	}
}

func TestFitSymmetricStrengthRecovers(t *testing.T) {
	// With S computed from many exact draws θ_r ~ Dir(f₀/K), the maximiser
	// of G is the maximum-likelihood strength, which approaches f₀.
	rnd := rand.New(rand.NewPCG(1, 16))
	for _, f0 := range []float64{0.5, 3, 40} {
		const R, K = 5000, 6
		d := NewDirichlet([]float64{f0 / K, f0 / K, f0 / K, f0 / K, f0 / K, f0 / K})
		var S float64
		x := make([]float64, K)
		for r := 0; r < R; r++ {
			d.Rand(x, rnd)
			for _, v := range x {
				S += math.Log(v)
			}
		}
		if f := FitSymmetricStrength(R, K, S); math.Abs(f-f0) > 0.1*f0 {
			t.Errorf("f₀ = %g: fitted %g", f0, f)
		}
	}
}

func TestFitSymmetricStrengthEdges(t *testing.T) {
	// Exactly uniform rows: S = −RK ln K, G increases for ever.
	if f := FitSymmetricStrength(3, 4, -3*4*math.Log(4)); f != strengthMax {
		t.Errorf("uniform rows: f = %g, want the upper bound %g", f, strengthMax)
	}
	// Extremely sparse rows push f to the lower bound.
	if f := FitSymmetricStrength(1, 3, -1e12); f != strengthMin {
		t.Errorf("sparse rows: f = %g, want the lower bound %g", f, strengthMin)
	}
	for name, fn := range map[string]func(){
		"K=1":   func() { FitSymmetricStrength(1, 1, -1) },
		"R=0":   func() { FitSymmetricStrength(0, 3, -1) },
		"S NaN": func() { FitSymmetricStrength(1, 3, math.NaN()) },
	} {
		if !panics(fn) {
			t.Errorf("%s: no panic", name)
		}
	}
}
