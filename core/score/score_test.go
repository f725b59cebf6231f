package score

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/dist"
)

func TestBIC(t *testing.T) {
	// ln p − d/2 ln N, by hand: −100 − 3/2·ln 50.
	if got, want := BIC(-100, 3, 50), -100-1.5*math.Log(50); got != want {
		t.Fatalf("BIC = %v, want %v", got, want)
	}
}

func TestCSRowIsExactForMultinomial(t *testing.T) {
	// With no hidden variables (a single row of i.i.d. categorical data),
	// N̂ are the observed counts and ln p(y|θ̂) = Σ N ln θ̂, so the CS score
	// equals the exact Dirichlet-multinomial evidence for any θ̂.
	u := []float64{0.5, 1.5, 2}
	n := []float64{3, 0, 7}
	for _, theta := range [][]float64{{0.3, 0, 0.7}, {0.2, 0.3, 0.5}} {
		var lnp float64
		for j := range n {
			if n[j] > 0 {
				lnp += n[j] * math.Log(theta[j])
			}
		}
		got := lnp + CSRow(u, n, theta)
		if want := dist.DirichletLogMarginalCounts(u, n); math.Abs(got-want) > 1e-12 {
			t.Fatalf("θ̂ = %v: CS = %v, exact %v", theta, got, want)
		}
	}
}

func TestBICpAndCSDagger(t *testing.T) {
	// By hand: −100 + (−7) − 3/2·ln 50, and −90 + 2/2·ln 50.
	if got, want := BICp(-100, -7, 3, 50), -107-1.5*math.Log(50); got != want {
		t.Errorf("BICp = %v, want %v", got, want)
	}
	if got, want := CSDagger(-90, 2, 50), -90+math.Log(50); got != want {
		t.Errorf("CSDagger = %v, want %v", got, want)
	}
}
