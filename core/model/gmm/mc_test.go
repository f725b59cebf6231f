package gmm_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/gmm"
)

// TestBoundMonteCarlo checks F = E_q[ln p(X, Z, π, μ, Λ) − ln q(Z, π, μ, Λ)]
// (PRML (10.70), first line) by Monte Carlo: Z, π, μ and Λ are drawn from
// the converged q with core/dist's samplers and every log density is
// evaluated by core/dist and gonum; the mean must be within 3 standard
// errors of the model's F.
func TestBoundMonteCarlo(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(21, 2)), 20, 0.7, [2]float64{-1.5, 0}, [2]float64{1.5, 0.5})
	p := gmm.Prior{Alpha0: 0.7, Beta0: 0.5, Nu0: 3, M0: []float64{0, 0.1}, W0: []float64{1, 0.2, 0.2, 1.5}}
	m := newVB(t, x, 2, p, 2)
	f := converge(t, m).F
	b, err := m.E()
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(b.F-f) > 1e-9 {
		t.Fatalf("F moved after convergence: %v, %v", f, b.F)
	}
	k, d, n := m.K(), m.D(), m.N()
	r := m.Responsibilities()
	var ch mat.Cholesky
	inv := func(a []float64) *mat.SymDense {
		var out mat.SymDense
		ch.Factorize(mat.NewSymDense(d, append([]float64(nil), a...)))
		ch.InverseTo(&out)
		return &out
	}
	pw, _ := dist.NewWishart(p.Nu0, mat.NewSymDense(d, append([]float64(nil), p.W0...)))
	pDir := dist.NewDirichlet(fill(k, p.Alpha0))
	qDir := dist.NewDirichlet(m.Alpha())
	qw := make([]*dist.Wishart, k)
	for j := 0; j < k; j++ {
		_, nu, _, winv := m.Component(j)
		qw[j], _ = dist.NewWishart(nu, inv(winv))
	}
	rnd := rand.New(rand.NewPCG(3, 3))
	const draws = 6000
	var s, ss float64
	lam := make([]mat.SymDense, k)
	mus := make([][]float64, k)
	for range draws {
		pi := qDir.Rand(nil, rnd)
		v := pDir.LogProb(pi) - qDir.LogProb(pi)
		for j := 0; j < k; j++ {
			beta, _, mj, _ := m.Component(j)
			qw[j].Rand(&lam[j], rnd)
			cov := inv(lam[j].RawSymmetric().Data)
			cov.ScaleSym(1/beta, cov)
			g, _ := dist.NewGaussian(mj, cov)
			mus[j] = g.Rand(nil, rnd)
			var pl mat.SymDense
			pl.ScaleSym(p.Beta0, &lam[j])
			pg, _ := dist.NewGaussianPrecision(p.M0, &pl)
			v += pg.LogProb(mus[j]) + pw.LogProb(&lam[j]) - g.LogProb(mus[j]) - qw[j].LogProb(&lam[j])
		}
		for i := 0; i < n; i++ {
			u := rnd.Float64()
			z := k - 1
			for j := 0; j < k; j++ {
				if u < r[j*n+i] {
					z = j
					break
				}
				u -= r[j*n+i]
			}
			lg, _ := dist.NewGaussianPrecision(mus[z], &lam[z])
			v += math.Log(pi[z]) + lg.LogProb(x[i*d:(i+1)*d]) - math.Log(r[z*n+i])
		}
		s += v
		ss += v * v
	}
	mean := s / draws
	se := math.Sqrt((ss/draws - mean*mean) / draws)
	if math.Abs(mean-f) > 3*se || !(se < 0.1) {
		t.Errorf("Monte Carlo F = %.4f ± %.4f, model F = %.4f", mean, se, f)
	}
}
