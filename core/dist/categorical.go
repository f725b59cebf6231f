package dist

import (
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Categorical is a distribution over {0, …, K−1} with probabilities P, for
// example the responsibilities q(s = j) of a hidden state or mixture
// component (Beal (2003) eq. (2.94), and the single-slice marginals γ_t of
// eq. (3.34)).
type Categorical struct {
	// P holds the probabilities; they are non-negative and sum to one.
	P []float64
}

// CategoricalFromLog returns the categorical distribution with P_j ∝
// exp(logw_j), normalised with numeric.NormalizeLogTo, and the log normaliser
// ln Σ_j exp(logw_j). It panics if len(logw) == 0 or the normaliser is not
// finite (all weights −Inf, or a +Inf or NaN weight).
func CategoricalFromLog(logw []float64) (Categorical, float64) {
	if len(logw) == 0 {
		panic("dist: empty categorical")
	}
	p := make([]float64, len(logw))
	lse := numeric.NormalizeLogTo(p, logw)
	if math.IsInf(lse, 0) || math.IsNaN(lse) {
		panic("dist: categorical log weights have no finite normaliser")
	}
	return Categorical{P: p}, lse
}

// Dim returns K.
func (c Categorical) Dim() int { return len(c.P) }

// Entropy returns −Σ_j P_j ln P_j with 0·ln 0 = 0.
func (c Categorical) Entropy() float64 { return numeric.Entropy(c.P) }

// LogProb returns ln P_j, or −Inf if j is out of range.
func (c Categorical) LogProb(j int) float64 {
	if j < 0 || j >= len(c.P) {
		return math.Inf(-1)
	}
	return math.Log(c.P[j])
}

// Rand returns a draw j with probability P_j.
func (c Categorical) Rand(rnd *rand.Rand) int {
	u := rnd.Float64()
	var s float64
	last := 0
	for j, p := range c.P {
		if p > 0 {
			last = j
		}
		s += p
		if u < s {
			return j
		}
	}
	// Rounding left u ≥ Σ P; return the last category with mass.
	return last
}
