package mfa

import (
	"math"

	"github.com/vbworkbench/vbw/core/vb"
)

// agitationTo sets dst[s] to the agitation of component s (Beal (2003) eq.
// (4.72), line 2645),
//
//	ag(s) = Σ_i |q_is^(t) − q_is^(t−1)| / Σ_i q_is^(t),
//
// with q_is^(t) = cur[i·iStride + s·sStride] and q_is^(t−1) at the same
// place in prev, for n points and S components, and returns dst (allocated
// if nil or of another length). If valid is false or the lengths of cur and
// prev differ, every ag(s) is 1 ("if S changed in the sweep, agitation = 1",
// targets ch4-mfa.md §1.9). A component without responsibility before and
// after has agitation 0; one that lost all of it, +Inf. VB.Agitation and
// EM.Agitation share it.
func agitationTo(dst, cur, prev []float64, n, S, iStride, sStride int, valid bool) []float64 {
	if len(dst) != S {
		dst = make([]float64, S)
	}
	if !valid || len(prev) != len(cur) {
		for s := range dst {
			dst[s] = 1
		}
		return dst
	}
	for s := range dst {
		var num, den float64
		for i, j := 0, s*sStride; i < n; i, j = i+1, j+iStride {
			v := cur[j]
			num += math.Abs(v - prev[j])
			den += v
		}
		switch {
		case num == 0:
			dst[s] = 0
		case den == 0:
			dst[s] = math.Inf(1)
		default:
			dst[s] = num / den
		}
	}
	return dst
}

// agitator is a model whose components have an agitation (eq. (4.72)) over
// its last E step.
type agitator interface {
	Agitation(dst []float64) []float64
}

// agitationRule is the vb.Converger that ends an epoch of a model search
// (targets ch4-mfa.md §1.9): after an E step, the run has converged when
// at least minIterations E steps have run, every component's agitation is below
// tol and, if dF > 0, |ΔF|/n < dF. VB.EpochConverger and
// EM.EpochConverger document it; both use it, so that VB and ML end their
// epochs by the same rule ("the criterion for ending any particular epoch
// was again based on the rate of change of component posterior
// responsibilities", line 2873; targets §3.7 "both sides use the same
// agitation tolerance").
type agitationRule struct {
	a             agitator
	n             int
	tol, dF       float64
	minIterations int
	ag            []float64
}

// newAgitationRule returns the rule for the model a of n points; tol ≤ 0
// means DefaultAgitationTol and minIterations below 2 means 2.
func newAgitationRule(a agitator, n int, tol, dFPerDatum float64, minIterations int) *agitationRule {
	if !(tol > 0) {
		tol = DefaultAgitationTol
	}
	return &agitationRule{a: a, n: n, tol: tol, dF: dFPerDatum, minIterations: max(minIterations, 2)}
}

// Init does nothing: the rule keeps no history of its own (the model keeps
// the previous responsibilities).
func (c *agitationRule) Init() {}

// Converged applies the tests of the rule after E step it (counted from 0).
func (c *agitationRule) Converged(it int, _, delta float64) bool {
	if it+1 < c.minIterations {
		return false
	}
	if c.dF > 0 && !(math.Abs(delta)/float64(c.n) < c.dF) {
		return false
	}
	c.ag = c.a.Agitation(c.ag)
	for _, a := range c.ag {
		if !(a < c.tol) {
			return false
		}
	}
	return true
}

var _ vb.Converger = (*agitationRule)(nil)
