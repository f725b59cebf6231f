package dag

import (
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// DirichletProposal is the Metropolis–Hastings proposal of the AIS sampler
// of Beal (2003) section 6.3.5 (eqs. (6.59)–(6.60), Algorithm 6.1; targets
// §2.7): every row of θ is redrawn at once from a Dirichlet centred on its
// current value with strength Alpha,
//
//	θ′_jl ~ Dir(Alpha·θ_jl),
//
// one joint proposal for all parameters with one accept/reject decision.
// It satisfies mcmc.Proposal[Params] of package samplers/mcmc, so that an
// mcmc.MH with a Problem as target (a Problem satisfies mcmc.Tempered and
// ais.Model) is the chapter-6 MCMC kernel; the thesis's α is not given, the
// targets' default is 2500 (§4 item 3).
//
// The Dirichlet draws are made in the log domain and floored at 1e-300,
// and the proposal densities are evaluated in the log domain at the stored
// values (targets §1.7 item 8), so shapes of 1e-7 and below are handled.
//
// A DirichletProposal holds scratch space: give each chain its own.
type DirichletProposal struct {
	s     *Structure
	alpha float64
	shape []float64
}

// NewDirichletProposal returns the proposal for parameters of s with
// strength alpha. It panics unless alpha is positive and finite.
func NewDirichletProposal(s *Structure, alpha float64) *DirichletProposal {
	if !(alpha > 0) || math.IsInf(alpha, 1) {
		panic("dag: proposal strength not positive and finite")
	}
	maxA := 0
	for j := 0; j < s.Nodes(); j++ {
		maxA = max(maxA, s.Arity(j))
	}
	return &DirichletProposal{s: s, alpha: alpha, shape: make([]float64, maxA)}
}

// Alpha returns the proposal strength.
func (q *DirichletProposal) Alpha() float64 { return q.alpha }

// Propose draws θ′ ~ q(·|θ) into dst (allocating if its capacity is short)
// and returns θ′ and ln q(θ|θ′) − ln q(θ′|θ), summed over rows of
//
//	ln Dir(θ_jl; α θ′_jl) − ln Dir(θ′_jl; α θ_jl),
//
// the Hastings correction of (6.60). The ratio is −Inf (a rejection) if a
// draw is not finite. x is not modified.
func (q *DirichletProposal) Propose(dst, x Params, rnd *rand.Rand) (Params, float64) {
	s := q.s
	if len(x) != s.Len() {
		panic("dag: parameter vector has the wrong length")
	}
	if cap(dst) < len(x) {
		dst = make(Params, len(x))
	}
	dst = dst[:len(x)]
	var lnr float64
	for j := 0; j < s.Nodes(); j++ {
		a := s.Arity(j)
		shape := q.shape[:a]
		for l := 0; l < s.Rows(j); l++ {
			o := s.Offset(j) + l*a
			cur, nxt := x[o:o+a], dst[o:o+a]
			for k, v := range cur {
				shape[k] = q.alpha * v
			}
			dist.Dirichlet{Alpha: shape}.Rand(nxt, rnd)
			for k, v := range nxt {
				if !(v >= 0) {
					return dst, math.Inf(-1)
				}
				nxt[k] = math.Max(v, minTheta)
			}
			lnr += logDirAt(cur, nxt, q.alpha) - logDirAt(nxt, cur, q.alpha)
		}
	}
	return dst, lnr
}

// logDirAt returns ln Dir(y; alpha·m) in the log domain.
func logDirAt(y, m []float64, alpha float64) float64 {
	var a0, lp float64
	for k, v := range m {
		a := alpha * v
		a0 += a
		lp += (a-1)*math.Log(y[k]) - numeric.LogGamma(a)
	}
	return lp + numeric.LogGamma(a0)
}
