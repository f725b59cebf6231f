package mfa

import (
	"math"

	"github.com/vbworkbench/vbw/core/vb"
)

// DefaultAgitationTol is e⁻⁶ ≈ 2.479e-3, the agitation tolerance of the
// reference code (maintol = 6; targets ch4-mfa.md §1.9).
var DefaultAgitationTol = math.Exp(-6)

// Agitation sets dst[s] to the agitation of analyser s over the last E step
// (Beal (2003) eq. (4.72), line 2645),
//
//	ag(s) = Σ_i |q_is^(t) − q_is^(t−1)| / Σ_i q_is^(t),
//
// q^(t−1) the responsibilities before that E step and q^(t) after it, and
// returns dst (allocated if nil or of another length). It does not depend
// on the number of points, analysers or dimensions: duplicating the data
// leaves it unchanged. An analyser without responsibility before and after
// has agitation 0; one that lost all of it, +Inf. Every ag(s) is 1 before
// the first E step, and after a birth, a death or a Restore until the
// second E step that follows it: the first compares q(s) with that of
// another model ("if S changed in the sweep, agitation = 1", targets
// §1.9).
func (m *VB) Agitation(dst []float64) []float64 {
	return agitationTo(dst, m.resp, m.prevResp, m.n, len(m.comps), 1, m.n, m.agValid)
}

// EpochConverger returns the rule that ends an epoch of the birth/death
// search (targets ch4-mfa.md §1.9; vb.SearchSettings.Run.Converger): after
// an E step, the run has converged when
//
//   - at least minIterations E steps have run (values below 2 mean 2: for S = 1
//     the agitation is identically 0, and the reference code would stop
//     after one sweep);
//   - every analyser's agitation (Agitation, eq. (4.72)) is below tol
//     (≤ 0 means DefaultAgitationTol, e⁻⁶); it is 1 in a sweep in which S
//     changed;
//   - if dFPerDatum > 0, |ΔF|/n < dFPerDatum (the targets add 1e-6 nats per
//     datum; dFPerDatum = 0 is the thesis's pure agitation criterion).
//
// The cap on the sweeps of an epoch (the targets' 2000) is
// vb.Settings.MaxIterations. The rule reads the model's responsibilities, so it
// must drive runs of m only, one at a time; Init resets it.
func (m *VB) EpochConverger(tol, dFPerDatum float64, minIterations int) vb.Converger {
	return newAgitationRule(m, m.n, tol, dFPerDatum, minIterations)
}
