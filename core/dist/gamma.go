package dist

import (
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Gamma is the gamma distribution with shape a and rate b,
//
//	Ga(τ | a, b) = b^a/Γ(a) · τ^(a−1) e^(−bτ),   τ > 0,
//
// so that E[τ] = a/b (Beal (2003) Appendix A, "shape α, inv. scale β"). It is
// the prior and posterior of noise and ARD precisions in chapters 4–5 (e.g.
// q(ρ) of eq. (5.42)).
//
// As an ExpFam, a sample is [τ], u(τ) = (ln τ, τ), η = (a − 1, −b) and
// A(η) = ln Γ(a) − a ln b.
type Gamma struct {
	// Alpha is the shape a > 0.
	Alpha float64
	// Beta is the rate b > 0 (not the scale).
	Beta float64
}

var _ ExpFam = Gamma{}

// NewGammaShapeRate returns Ga(shape, rate). It panics unless both are
// positive and finite.
func NewGammaShapeRate(shape, rate float64) Gamma {
	g := Gamma{Alpha: shape, Beta: rate}
	g.check()
	return g
}

func (g Gamma) check() {
	if !(g.Alpha > 0) || !(g.Beta > 0) || math.IsInf(g.Alpha, 1) || math.IsInf(g.Beta, 1) {
		panic("dist: gamma shape or rate not positive and finite")
	}
}

// Mean returns E[τ] = a/b.
func (g Gamma) Mean() float64 { return g.Alpha / g.Beta }

// MeanLog returns E[ln τ] = ψ(a) − ln b (Beal (2003) Appendix A).
func (g Gamma) MeanLog() float64 { return numeric.Digamma(g.Alpha) - math.Log(g.Beta) }

// Variance returns Var[τ] = a/b².
func (g Gamma) Variance() float64 { return g.Alpha / (g.Beta * g.Beta) }

// LogProb returns ln Ga(x | a, b), or −Inf for x ≤ 0.
func (g Gamma) LogProb(x float64) float64 {
	if !(x > 0) {
		return math.Inf(-1)
	}
	return (g.Alpha-1)*math.Log(x) - g.Beta*x - g.LogNormalizer()
}

// Rand returns a draw from Ga(a, b) using rnd (Marsaglia–Tsang, with the
// shape boosted for a < 1). It panics on invalid parameters.
func (g Gamma) Rand(rnd *rand.Rand) float64 {
	g.check()
	return math.Exp(randLogStdGamma(g.Alpha, rnd)) / g.Beta
}

// Entropy returns H = ln Γ(a) − ln b + (1 − a)ψ(a) + a (Beal (2003)
// Appendix A).
func (g Gamma) Entropy() float64 {
	return numeric.LogGamma(g.Alpha) - math.Log(g.Beta) + (1-g.Alpha)*numeric.Digamma(g.Alpha) + g.Alpha
}

// KLGamma returns
//
//	KL(Ga(a_q, b_q) ‖ Ga(a_p, b_p)) = (a_q − a_p)ψ(a_q) − ln Γ(a_q) + ln Γ(a_p)
//	                                + a_p(ln b_q − ln b_p) + a_q(b_p − b_q)/b_q
//
// in nats (Beal (2003) Appendix A; the KL[ρ] terms of eq. (5.147)).
func KLGamma(q, p Gamma) float64 {
	kl := numeric.LogGamma(p.Alpha) - numeric.LogGamma(q.Alpha) + p.Alpha*(math.Log(q.Beta)-math.Log(p.Beta))
	if d := q.Alpha - p.Alpha; d != 0 {
		kl += d * numeric.Digamma(q.Alpha)
	}
	if d := p.Beta - q.Beta; d != 0 {
		kl += q.Alpha * d / q.Beta
	}
	return kl
}

// Settings of FitFromMoments.
const (
	gammaFitMaxIter = 200
	gammaFitTol     = 1e-14 // on |Δ ln a|
	// gammaFitMaxStep caps |Δ ln a| per step. The (C.11) step from a far
	// too large a towards a tiny solution is of order −1/(a ψ'(a) − 1) ≈ −2a,
	// which would underflow a to 0; the cap leaves (C.11) unchanged near the
	// solution.
	gammaFitMaxStep = 3
)

// FitFromMoments returns the gamma distribution Ga(a, b) whose expectations
// match E[ln τ] = c and E[τ] = d, the fixed point of Beal (2003) eqs.
// (C.6)–(C.9): ψ(a) − ln a = c − ln d, then b = a/d (C.12). With c and d the
// averages of E[ln ρ_s] and E[ρ_s] over p precisions (C.8) this is the
// hyperparameter update of a shared gamma hyperprior.
//
// a is found with the multiplicative Newton step (C.11),
//
//	a ← a · exp(−(ψ(a) − ln a + ln d − c)/(aψ'(a) − 1)),
//
// which keeps a > 0, starting from the receiver's shape if it is positive
// and finite (else from 1). Each step's |ln-change| is capped at 3, which only
// matters far from the solution. ok is false if no solution exists (the
// moments must satisfy c < ln d, Jensen's inequality, and d > 0) or if the
// iteration did not converge.
func (g Gamma) FitFromMoments(c, d float64) (fit Gamma, ok bool) {
	if !(d > 0) || math.IsInf(d, 1) || math.IsNaN(c) || !(c < math.Log(d)) {
		return Gamma{}, false
	}
	a, ok := fitGammaShape(g.Alpha, c-math.Log(d), nil)
	if !ok {
		return Gamma{}, false
	}
	return Gamma{Alpha: a, Beta: a / d}, true
}

// fitGammaShape solves ψ(a) − ln a = target < 0 with the steps of
// FitFromMoments, starting from a0 (or 1 if a0 is not positive and finite).
// If trace is not nil it is called with every iterate.
func fitGammaShape(a0, target float64, trace func(a float64)) (float64, bool) {
	a := a0
	if !(a > 0) || math.IsInf(a, 1) {
		a = 1
	}
	for it := 0; it < gammaFitMaxIter; it++ {
		f := numeric.Digamma(a) - math.Log(a) - target
		den := a*numeric.Trigamma(a) - 1
		step := -f / den
		step = math.Max(-gammaFitMaxStep, math.Min(gammaFitMaxStep, step))
		a *= math.Exp(step)
		if trace != nil {
			trace(a)
		}
		if !(a > 0) || math.IsInf(a, 1) {
			return 0, false
		}
		if math.Abs(step) <= gammaFitTol {
			return a, true
		}
	}
	// Accept the last iterate if it satisfies the fixed point to rounding.
	if f := numeric.Digamma(a) - math.Log(a) - target; math.Abs(f) <= 1e-13*math.Max(1, math.Abs(target)) {
		return a, true
	}
	return 0, false
}

// NumParams returns 2.
func (g Gamma) NumParams() int { return 2 }

// NaturalParams returns η = (a − 1, −b).
func (g Gamma) NaturalParams(dst []float64) []float64 {
	dst = reuse(dst, 2)
	dst[0], dst[1] = g.Alpha-1, -g.Beta
	return dst
}

// ExpectedStats returns (E[ln τ], E[τ]) = (ψ(a) − ln b, a/b).
func (g Gamma) ExpectedStats(dst []float64) []float64 {
	dst = reuse(dst, 2)
	dst[0], dst[1] = g.MeanLog(), g.Mean()
	return dst
}

// Stats returns u(τ) = (ln τ, τ) for x = [τ].
func (g Gamma) Stats(dst, x []float64) []float64 {
	if len(x) != 1 {
		panic(badDim)
	}
	dst = reuse(dst, 2)
	dst[0], dst[1] = math.Log(x[0]), x[0]
	return dst
}

// LogNormalizer returns A = ln Γ(a) − a ln b.
func (g Gamma) LogNormalizer() float64 {
	return numeric.LogGamma(g.Alpha) - g.Alpha*math.Log(g.Beta)
}

// FromNatural returns Ga(η₀ + 1, −η₁).
func (g Gamma) FromNatural(eta []float64) ExpFam {
	if len(eta) != 2 {
		panic(badDim)
	}
	r := Gamma{Alpha: eta[0] + 1, Beta: -eta[1]}
	if !(r.Alpha > 0) || !(r.Beta > 0) || math.IsInf(r.Alpha, 1) || math.IsInf(r.Beta, 1) {
		panic(badNatural)
	}
	return r
}

// KL returns KLGamma(g, p); p must be a Gamma.
func (g Gamma) KL(p ExpFam) float64 { return expFamKL(g, p, KLGamma) }

// SampleLen returns 1.
func (g Gamma) SampleLen() int { return 1 }

// LogProbVec returns LogProb(x[0]).
func (g Gamma) LogProbVec(x []float64) float64 {
	if len(x) != 1 {
		panic(badDim)
	}
	return g.LogProb(x[0])
}

// RandVec returns [Rand(rnd)].
func (g Gamma) RandVec(dst []float64, rnd *rand.Rand) []float64 {
	dst = reuse(dst, 1)
	dst[0] = g.Rand(rnd)
	return dst
}
