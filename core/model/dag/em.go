package dag

import (
	"errors"
	"math"

	"github.com/vbworkbench/vbw/core/vb"
)

// Estimator selects the M step of EM.
type Estimator int

const (
	// MAP is MAP-EM (eq. (6.23)): θ_jlk ∝ λ_jlk − 1 + N_jlk, maximising
	// ln p(y|θ) + ln p(θ|m). It needs every λ_jlk ≥ 1 (with λ < 1 the
	// update can be negative, line 4364); with λ = 1 it is ML.
	MAP Estimator = iota
	// ML is maximum-likelihood EM (eq. (6.21)): θ_jlk ∝ N_jlk, maximising
	// ln p(y|θ).
	ML
)

// EM is the EM algorithm for ML or MAP parameters of a discrete DAG with
// hidden variables (Beal (2003) section 6.3.1, eqs. (6.13)–(6.23)). It is a
// vb.Model: E runs the exact E step (6.16) at the current θ and returns the
// objective, ln p(y|θ) + ln p(θ|m) for MAP (with every normalising constant
// of (6.4)) or ln p(y|θ) for ML, which never decreases; M sets θ from the
// expected counts. A row whose expected count total is zero (possible under
// ML, or MAP with λ = 1) keeps its previous value (targets §1.7 item 4).
type EM struct {
	pr    *Problem
	est   Estimator
	theta Params
	n     Params // expected counts of the last E step
	phi   []float64
}

// NewEM returns EM started at init (copied), whose first E step is the E
// step at init (targets §3.0). It panics if init has the wrong length or,
// for MAP, some λ_jlk < 1.
func (pr *Problem) NewEM(init Params, est Estimator) *EM {
	pr.checkLen(init)
	if est == MAP {
		for _, u := range pr.lambda {
			if u < 1 {
				panic("dag: MAP-EM (6.23) needs every λ ≥ 1; use ML")
			}
		}
	}
	return &EM{pr: pr, est: est, theta: init.Clone(), n: make(Params, len(init)), phi: make([]float64, pr.pl.h)}
}

// ErrImpossible is returned by an E step at parameters under which some
// observed pattern has probability zero.
var ErrImpossible = errors.New("dag: a data point has zero probability under the parameters")

// Names of the EM objective's terms.
const (
	TermLogLik   = "lnp(y|theta)"
	TermLogPrior = "lnp(theta)"
)

// E runs the E step at θ and returns the objective with the terms
// "lnp(y|theta)" and, for MAP, "lnp(theta)".
func (m *EM) E() (vb.Bound, error) {
	clear(m.n)
	lnp := m.pr.pl.estep(m.theta, m.n, m.phi)
	if m.est == ML {
		b := vb.Bound{F: lnp, Terms: []vb.Term{{Name: TermLogLik, Value: lnp}}}
		if math.IsInf(lnp, -1) {
			return b, ErrImpossible
		}
		return b, nil
	}
	lp := m.pr.LogPrior(m.theta)
	b := vb.Bound{F: lnp + lp, Terms: []vb.Term{{Name: TermLogLik, Value: lnp}, {Name: TermLogPrior, Value: lp}}}
	if math.IsInf(lnp, -1) {
		return b, ErrImpossible
	}
	return b, nil
}

// M sets θ_jlk ∝ N_jlk (ML, eq. (6.21)) or ∝ λ_jlk − 1 + N_jlk (MAP,
// eq. (6.23)), with the counts of the last E step.
func (m *EM) M() {
	pr := m.pr
	for r, start := range pr.rowStart {
		end := start + pr.rowLen[r]
		var tot float64
		for k := start; k < end; k++ {
			tot += m.num(k)
		}
		if !(tot > 0) {
			continue
		}
		for k := start; k < end; k++ {
			m.theta[k] = m.num(k) / tot
		}
	}
}

func (m *EM) num(k int) float64 {
	if m.est == ML {
		return m.n[k]
	}
	return m.pr.lambda[k] - 1 + m.n[k]
}

// Params returns a copy of the current θ.
func (m *EM) Params() Params { return m.theta.Clone() }

// Counts returns a copy of the expected counts of the last E step.
func (m *EM) Counts() Params { return m.n.Clone() }
