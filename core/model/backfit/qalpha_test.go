package backfit

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/dist"
)

// TestQAlphaTerms: klAlpha and coefTerms, with the shape's ln Γ and ψ
// computed once, equal the sums of dist.KLGamma and of dist.Gamma's
// MeanLog and Mean over every rate, shared and ARD.
func TestQAlphaTerms(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	prior := Prior{A: 1e-3, B: 2e-3}
	const d = 9
	ff, psiZ, mu, v := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
	for k := range ff {
		ff[k], psiZ[k], mu[k], v[k] = 1+r.Float64(), 0.1+r.Float64(), r.NormFloat64(), 0.01+r.Float64()
	}
	for _, ard := range []bool{false, true} {
		q := newQAlpha(prior, ard, 1, d, 0.5)
		for k := range q.bHat {
			q.bHat[k] *= math.Exp(3 * r.NormFloat64())
		}
		q.bHat[0] = prior.B // the d = 0 branch of the rate term
		want := 0.0
		for _, b := range q.bHat {
			want += dist.KLGamma(dist.Gamma{Alpha: q.aHat, Beta: b}, dist.Gamma{Alpha: prior.A, Beta: prior.B})
		}
		if got := q.klAlpha(prior); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("ard %v: klAlpha %.17g, want Σ KLGamma %.17g", ard, got, want)
		}
		wantPB := 0.0
		for k := range v {
			qa := q.alphaK(k)
			wantPB += 0.5 * (qa.MeanLog() - ln2Pi - qa.Mean()*(mu[k]*mu[k]+v[k]))
		}
		if _, pb, _ := q.coefTerms(ff, psiZ, mu, v); math.Abs(pb-wantPB) > 1e-12*math.Max(1, math.Abs(wantPB)) {
			t.Errorf("ard %v: E[ln p(b|α)] %.17g, want %.17g", ard, pb, wantPB)
		}
	}
}
