package mfa

import (
	"fmt"
	"slices"

	"github.com/vbworkbench/vbw/core/mixture"
)

// Death is one removal of analysers by the rule of Beal (2003) section
// 4.3.1 inside an E step (MoveSettings.Death = DeathInSweep).
type Death struct {
	// ESteps is the number of E steps the model had made before the one
	// that removed them, counted from its construction (Restore does not
	// rewind it).
	ESteps int
	// Analysers are their indices before the removal, ascending, and Mass
	// their responsibility masses Σ_i q_is (each below the threshold).
	Analysers []int
	Mass      []float64
	// FBefore is F after the q(s) update of that E step with every
	// analyser; FAfter is F after the removal and the q(s) update over the
	// survivors. FAfter − FBefore is the change removalJump documents.
	FBefore, FAfter float64
}

// Deaths returns the log of the removals made inside E steps since the
// model was built, oldest first, as a new slice. It is a history, not part
// of the state: Save and Restore leave it alone, so it also holds the
// deaths of epochs that vb.Search rejected.
func (m *VB) Deaths() []Death { return slices.Clone(m.deaths) }

// sweepDeaths applies the death rule of section 4.3.1 (L2637) after a q(s)
// update, under MoveSettings.Death = DeathInSweep: every analyser whose
// Σ_i q_is is below the threshold is removed with q(Λ̃^s), q(ν^s), q(x|s)
// and its coordinate of q(π), and q(s) is updated again over the survivors
// (eq. (4.57) with the same T_x, T_y and ω, as the reference code's
// inferQns does); the test is repeated until no analyser is below the
// threshold. At least one analyser always survives (the one with the most
// responsibility). The next M step updates q(π) under the prior of the
// new S (eq. (4.37) with m* = 1/S).
//
// It returns the change of F that the removals made (see removalJump). It
// does not allocate when nothing dies.
func (m *VB) sweepDeaths() (float64, error) {
	thr := m.Moves.deathThreshold()
	if m.Moves.Death != DeathInSweep || !(thr > 0) {
		return 0, nil
	}
	var jump float64
	for len(m.comps) > 1 {
		ns := mixture.Counts(m.ell[:len(m.comps)], m.resp, m.n)
		if !slices.ContainsFunc(ns, func(v float64) bool { return v < thr }) {
			break
		}
		d := Death{ESteps: m.eSteps - 1}
		keep := 0
		for s, v := range ns {
			if v > ns[keep] {
				keep = s
			}
		}
		for s, v := range ns {
			if v < thr && s != keep {
				d.Analysers = append(d.Analysers, s)
				d.Mass = append(d.Mass, v)
			}
		}
		var err error
		d.FBefore, d.FAfter, err = m.removeAnalysers(d.Analysers)
		if err != nil {
			return jump, err
		}
		jump += d.FAfter - d.FBefore
		m.deaths = append(m.deaths, d)
	}
	return jump, nil
}

// removeAnalysers removes the analysers dead (ascending indices) from a
// state whose q(s) is the last updateS's, updates q(s) over the survivors
// and returns F before and after (eq. (4.29) at both states).
//
// removalJump: with q(s) at its optimum given the rest before and after
// (up to mixture.Floor), the data part of F is Σ_i ln Z_i with Z_i the
// normaliser of q(s_i), so that removing a set D of analysers changes F by
//
//	ΔF = Σ_{d∈D} (KL[q(ν^d) ‖ p(ν^d)] + ⟨KL[q(Λ̃^d) ‖ p(Λ̃^d | ν^d)]⟩)   their parameters, no longer coded (≥ 0)
//	   + Σ_i ln(1 − Σ_{d∈D} q_id)                                      the data they explained (≤ −Σ_D N_d)
//	   + n (ψ(ω_0) − ψ(ω_0 − Σ_D ω_d))                                 ⟨ln π_s⟩ of every survivor rises
//	   − KL[Dir(ω_{−D}) ‖ Dir(α*/S′)] + KL[Dir(ω) ‖ Dir(α*/S)]           q(π) without their coordinates, S′ = S − |D|
//	   + Σ_{d∈D} p(k_d + 1)                                            with Settings.ReferencePenalty only
//
// (TestRemovalJump checks it term by term). An analyser with no
// responsibility changes F by its parameters' KL and the q(π) terms only,
// the thesis's case (L2633: "the removal of this component leaves all other
// terms in F unchanged"); one holding less than a point can lower F, when
// the points it explains cost more than its parameters, which is why
// vb.Run is told the size of the jump rather than asked to ignore it.
func (m *VB) removeAnalysers(dead []int) (before, after float64, err error) {
	before = m.bound(true).F
	for j := len(dead) - 1; j >= 0; j-- {
		s := dead[j]
		m.resp = mixture.Remove(m.resp, m.n, s)
		m.comps = slices.Delete(m.comps, s, s+1)
		m.omega = slices.Delete(m.omega, s, s+1)
	}
	m.agValid = false // S changed in this sweep: agitation 1 (targets §1.9)
	m.resize()
	m.computeT()
	if err := m.updateS(); err != nil {
		return before, before, fmt.Errorf("mfa: q(s) after removing analysers %v: %w", dead, err)
	}
	return before, m.bound(true).F, nil
}
