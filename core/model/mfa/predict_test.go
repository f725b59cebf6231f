package mfa_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestPredictiveBound checks the predictive lower bound of eq. (4.85)
// (targets §1.10) against a Monte Carlo estimate of the quantity it bounds,
// the "poor man's" predictive ln ∫ q(π) q(Λ̃) p(y′ | π, Λ̃, Ψ) (eq. (4.79)),
// at a few test points of a small fitted model: the bound must not exceed
// the estimate by more than 4 standard errors (delta method on the log of
// the sample mean; the estimate of a log is biased low, so this errs on the
// side of failing). It also checks that the responsibilities it returns sum
// to one and that the bound is their log-normaliser.
func TestPredictiveBound(t *testing.T) {
	draws := 40000
	if testing.Short() {
		draws = 10000
	}
	y, _ := clusters(rand.New(rand.NewPCG(51, 52)), [][]float64{{-2, 0}, {2, 1}}, 1, 15)
	m, err := mfa.NewVBRandom(y, 2, mfa.Settings{K: 1}, rand.New(rand.NewPCG(53, 54)))
	if err != nil {
		t.Fatal(err)
	}
	if r := vb.Run(m, vb.Settings{Hyper: mfa.DefaultSchedule()}); r.Error() != nil {
		t.Fatal(r.Error())
	}
	pr := m.Predictor()
	S, p := m.Size(), m.P()
	rnd := rand.New(rand.NewPCG(55, 56))
	rows := make([]*dist.GaussianRows, S)
	for s := range rows {
		rows[s] = m.Loadings(s)
	}
	tests := [][]float64{{-2, 0}, {2, 1}, {0, 0.5}, {4, -3}}
	lw := make([][]float64, len(tests))
	pi := make([]float64, S)
	lam := make([]*mat.Dense, S)
	for it := 0; it < draws; it++ {
		m.Pi().Rand(pi, rnd)
		for s := range lam {
			lam[s] = rows[s].Rand(lam[s], rnd)
		}
		// p(y′|θ) = Σ_s π_s N(y′ | μ_s, Λ_sΛ_sᵀ + Ψ), by a dense Cholesky.
		comps := make([]*distmv.Normal, S)
		for s := range comps {
			k := m.Dim(s)
			cov := mat.NewSymDense(p, nil)
			mu := make([]float64, p)
			for a := 0; a < p; a++ {
				mu[a] = lam[s].At(a, k)
				for b := a; b < p; b++ {
					var v float64
					for l := 0; l < k; l++ {
						v += lam[s].At(a, l) * lam[s].At(b, l)
					}
					if a == b {
						v += m.Hyper.Psi[a]
					}
					cov.SetSym(a, b, v)
				}
			}
			var ok bool
			if comps[s], ok = distmv.NewNormal(mu, cov, nil); !ok {
				t.Fatal("covariance not positive definite")
			}
		}
		for j, yt := range tests {
			terms := make([]float64, S)
			for s := range terms {
				terms[s] = math.Log(pi[s]) + comps[s].LogProb(yt)
			}
			lw[j] = append(lw[j], numeric.LogSumExp(terms))
		}
	}
	resp := make([]float64, S)
	for j, yt := range tests {
		b := pr.LogBound(yt, resp)
		if d := math.Abs(b - pr.LogBound(yt, nil)); d > 1e-12*math.Abs(b) {
			t.Errorf("y′ = %v: the bound depends on whether responsibilities are asked for (%g)", yt, d)
		}
		var sum float64
		for _, r := range resp {
			sum += r
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("y′ = %v: responsibilities sum to %v", yt, sum)
		}
		lse := numeric.LogSumExp(lw[j])
		est := lse - math.Log(float64(draws))
		var sq float64
		for _, v := range lw[j] {
			w := math.Exp(v - lse) // w_m / Σw
			sq += w * w
		}
		// se of ln(mean w) ≈ sd(w)/mean(w)/√M = √(M Σ(w/Σw)² − 1)/√M.
		se := math.Sqrt(math.Max(float64(draws)*sq-1, 0) / float64(draws))
		t.Logf("y′ = %v: bound %.4f, Monte Carlo ln ∫q p = %.4f ± %.4f", yt, b, est, se)
		if b > est+4*se {
			t.Errorf("y′ = %v: predictive bound %.5f above the Monte Carlo predictive %.5f ± %.5f", yt, b, est, se)
		}
	}
}
