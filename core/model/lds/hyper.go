package lds

import (
	"fmt"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Hyperparameter groups of VB (Beal 2003 section 5.3.6, lines
// 3879-3907).
const (
	HyperAlpha = "alpha" // α, the ARD precisions of the columns of A
	HyperBeta  = "beta"  // β, of the columns of B (with inputs only)
	HyperGamma = "gamma" // γ, of the columns of C
	HyperDelta = "delta" // δ, of the columns of D (with inputs only)
	HyperNoise = "noise" // a, b of the gamma prior of the noise precisions
	HyperX0    = "x0"    // μ_0, Σ_0 of the prior of x_0
)

// HyperGroups returns the groups that UpdateHyper accepts: in Variational
// mode HyperAlpha, HyperBeta, HyperGamma, HyperDelta, HyperNoise and HyperX0
// (without the β and δ groups when d = 0); in the MAP modes only HyperX0,
// since the thesis's MAP LDS keeps every other hyperparameter at its
// initial value (section 5.5.1, lines 4160-4161; targets §2.1).
func (m *VB) HyperGroups() []string { return HyperGroupsOf(m.mode, m.d > 0) }

// HyperGroupsOf returns the groups of VB.HyperGroups for a model in
// mode with (inputs) or without inputs, before any model is built (a
// config's schedule is checked against them).
func HyperGroupsOf(mode Mode, inputs bool) []string {
	if mode != Variational {
		return []string{HyperX0}
	}
	if !inputs {
		return []string{HyperAlpha, HyperGamma, HyperNoise, HyperX0}
	}
	return []string{HyperAlpha, HyperBeta, HyperGamma, HyperDelta, HyperNoise, HyperX0}
}

// DefaultSchedule returns StagedSchedule(m.HyperGroups()).
func (m *VB) DefaultSchedule() []vb.Stage { return StagedSchedule(m.HyperGroups()) }

// StagedSchedule returns the staged schedule of section 5.4.2 and the
// author's toolbox ("hypit = [10, 20, 30]", targets §1.7, §4 #9) for the
// groups given (HyperGroupsOf): α and β from iteration 10, γ and δ from
// 20, a, b, μ_0 and Σ_0 from 30, each then at every iteration; in the MAP
// modes, whose only group is HyperX0, μ_0, Σ_0 from 30.
func StagedSchedule(groups []string) []vb.Stage {
	from := map[string]int{HyperAlpha: 10, HyperBeta: 10, HyperGamma: 20, HyperDelta: 20, HyperNoise: 30, HyperX0: 30}
	var s []vb.Stage
	for _, g := range groups {
		s = append(s, vb.Stage{Group: g, From: from[g], Every: 1})
	}
	return s
}

// UpdateHyper maximises F over one group of hyperparameters with q(θ) and
// q(x) fixed (Beal 2003 section 5.3.6; applied after a VBM step, as there):
//
//   - HyperAlpha: α_j = k/[⟨AᵀA⟩]_jj, the simple form of (5.133);
//   - HyperBeta: β_c = k/[⟨BᵀB⟩]_cc (5.134);
//   - HyperGamma: γ_j = p/[⟨CᵀR⁻¹C⟩]_jj, the simple form of (5.135), whose
//     printed prefactor 1/n must be 1/p (targets §1.7, §4 #3);
//   - HyperDelta: δ_c = p/[⟨DᵀR⁻¹D⟩]_cc (5.136);
//   - HyperNoise: a, b solve (5.138), ψ(a) − ln a = c − ln e and b = a/e with
//     c and e the averages of ⟨ln ρ_s⟩ and ρ̄_s, by appendix C.2's
//     multiplicative Newton step (C.11) (dist.Gamma.FitFromMoments, warm
//     started from the current a); a failed solve leaves a, b unchanged and
//     is counted in NoiseFitFailures;
//   - HyperX0: μ_0 = (1/n) Σ_i ω_{i,0} and Σ_0 = (1/n) Σ_i [Υ_{i,0,0} +
//     (ω_{i,0} − μ_0)(ω_{i,0} − μ_0)ᵀ] over the n sequences ((5.137) for
//     n = 1, (5.150)-(5.151)), from the last VBE step; of Σ_0 only the
//     diagonal, or only the mean of the diagonal, is kept in the modes
//     Sigma0Diagonal and Sigma0Isotropic, which maximise F over diagonal and
//     isotropic Σ_0.
//
// The ARD updates are clamped to [dist.ARDPrecisionFloor,
// dist.ARDPrecisionCeil] (targets §1.12, pitfalls 7 and 12) and skip the
// entries that Fixed marks. Each update is the maximiser of F in its group,
// so it cannot lower F. UpdateHyper panics on an unknown group.
func (m *VB) UpdateHyper(group string) {
	k, p, d := m.k, m.p, m.d
	phi := m.phi
	ard := func(prec []float64, fixed []bool, n int, mom []float64) {
		nn := len(prec)
		for j := range prec {
			if fixed != nil && fixed[j] {
				continue
			}
			prec[j] = dist.ARDPrecision(float64(n), mom[j*nn+j])
		}
	}
	switch {
	case group == HyperX0:
		m.updateX0()
	case m.mode != Variational:
		panic(fmt.Sprintf("lds: the MAP modes have no hyperparameter group %q", group))
	case group == HyperAlpha:
		ard(m.Hyper.Alpha, m.Fixed.Alpha, k, phi.AtA)
	case group == HyperGamma:
		ard(m.Hyper.Gamma, m.Fixed.Gamma, p, phi.CtRhoC)
	case group == HyperBeta && d > 0:
		ard(m.Hyper.Beta, m.Fixed.Beta, k, phi.BtB)
	case group == HyperDelta && d > 0:
		ard(m.Hyper.Delta, m.Fixed.Delta, p, phi.DtRhoD)
	case group == HyperNoise:
		var c, e float64
		for _, q := range m.rho {
			c += q.MeanLog()
			e += q.Mean()
		}
		c /= float64(p)
		e /= float64(p)
		fit, ok := dist.Gamma{Alpha: m.Hyper.NoiseShape, Beta: m.Hyper.NoiseRate}.FitFromMoments(c, e)
		if !ok {
			m.NoiseFitFailures++
			return
		}
		m.Hyper.NoiseShape, m.Hyper.NoiseRate = fit.Alpha, fit.Beta
	default:
		panic(fmt.Sprintf("lds: unknown hyperparameter group %q (the model has %q)", group, m.HyperGroups()))
	}
}

// updateX0 is the HyperX0 update (see UpdateHyper).
func (m *VB) updateX0() {
	updateX0(m.stats, m.Sigma0Update, m.Hyper.Mu0, m.Hyper.Lambda0, m.x0)
}

// updateX0 sets μ_0 (mu) and Λ_0 = Σ_0⁻¹ (lam) to the maximisers of
// Σ_i ⟨ln N(x_{i,0} | μ_0, Σ_0)⟩ over Σ_0 of the given form, from the x_0
// statistics of st (eqs. 5.137, 5.150-5.151), using the 2k² scratch S. In
// Sigma0Full mode, a Σ_0 that fails its Cholesky factorisation (it is
// positive definite in exact arithmetic) leaves Λ_0 unchanged. Nothing
// changes if st holds no sequence.
func updateX0(st *infer.LDSStats, mode Sigma0Mode, mu, lam, S []float64) {
	k := st.K
	if st.N == 0 {
		return
	}
	n := float64(st.N)
	S, work := S[:k*k], S[k*k:2*k*k]
	for j := range mu {
		mu[j] = st.X0Sum[j] / n
	}
	// S = X0Cov/n + (X0Outer/n − μ_0μ_0ᵀ); the scatter in brackets is
	// exactly 0 for one sequence.
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			S[i*k+j] = st.X0Cov[i*k+j]/n + (st.X0Outer[i*k+j]/n - mu[i]*mu[j])
		}
	}
	switch mode {
	case Sigma0Diagonal, Sigma0Isotropic:
		var tr float64
		for j := 0; j < k; j++ {
			tr += S[j*k+j]
		}
		clear(lam)
		for j := 0; j < k; j++ {
			v := S[j*k+j]
			if mode == Sigma0Isotropic {
				v = tr / float64(k)
			}
			lam[j*k+j] = 1 / v
		}
	case Sigma0Full:
		symmetrize(S, k)
		if !numeric.CholFactor(S, k) {
			return
		}
		numeric.CholInverse(lam, S, k, work)
	}
}
