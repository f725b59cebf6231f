package is

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDefensive checks the mixture's density against its two components,
// that each draw reports the density LogProb gives, that it integrates to
// one (a 1-D grid), and that the weights of a target p·L are bounded by
// L/ε: importance sampling from a q far from the posterior still finds
// the normaliser of a Gaussian target within its standard error.
func TestDefensive(t *testing.T) {
	one := func(mu, v float64) *Gaussian {
		var c mat.Cholesky
		if !c.Factorize(mat.NewSymDense(1, []float64{v})) {
			t.Fatal("variance")
		}
		return NewGaussian([]float64{mu}, &c)
	}
	q, prior := one(3, 0.04), one(0, 4)
	d := NewDefensive(q, prior, 0.2)
	for _, x := range []float64{-2, 0, 3, 5} {
		want := math.Log(0.8*math.Exp(q.LogProb([]float64{x})) + 0.2*math.Exp(prior.LogProb([]float64{x})))
		if got := d.LogProb([]float64{x}); math.Abs(got-want) > 1e-12 {
			t.Errorf("LogProb(%v) = %v, want %v", x, got, want)
		}
	}
	rnd := rand.New(rand.NewPCG(9, 1))
	x := make([]float64, 1)
	for range 200 {
		lp := d.RandLogProb(x, rnd)
		if want := d.LogProb(x); math.Abs(lp-want) > 1e-12 {
			t.Fatalf("draw %v: RandLogProb %v, LogProb %v", x[0], lp, want)
		}
	}
	var mass float64
	for i := range 20001 {
		u := -20 + 40*float64(i)/20000
		mass += math.Exp(d.LogProb([]float64{u})) * 40 / 20000
	}
	if math.Abs(mass-1) > 1e-6 {
		t.Errorf("the mixture integrates to %v", mass)
	}
	// Target: prior N(0, 4) × L(θ) = N(-1 | θ, 1) (a posterior near −0.8,
	// where q = N(3, 0.04) puts no mass): Z = N(−1 | 0, 5).
	target := targetFunc(func(th []float64) float64 {
		return prior.LogProb(th) - 0.5*math.Log(2*math.Pi) - 0.5*(th[0]+1)*(th[0]+1)
	})
	z := -0.5*math.Log(2*math.Pi*5) - 0.5/5
	var ests []Estimate
	for r := range 10 {
		ests = append(ests, Sample(20000, d, target, rand.New(rand.NewPCG(10, uint64(r)))).Estimate)
	}
	s := Summarize(ests)
	if math.Abs(s.Pooled-z) > 4*s.SE || !(s.SE < 0.05) {
		t.Errorf("ln Z = %v ± %v, want %v", s.Pooled, s.SE, z)
	}
}

type targetFunc func([]float64) float64

func (f targetFunc) LogProb(th []float64) float64 { return f(th) }
