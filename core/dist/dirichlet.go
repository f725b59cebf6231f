package dist

import (
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Dirichlet is the Dirichlet distribution over the probability simplex,
//
//	p(π | α) = Γ(α₀)/Π_j Γ(α_j) · Π_j π_j^(α_j − 1),   α₀ = Σ_j α_j,
//
// with pseudo-counts α_j > 0 (Beal (2003) eq. (3.41) and Appendix A). It is
// the prior and the VB posterior of every row of the HMM parameters π, A and
// C (eqs. (3.37)–(3.40), (3.54)–(3.59)).
//
// As an ExpFam, a sample is the vector π (length K), u(π) = ln π,
// η = α − 1 and A(η) = ln B(α) = Σ_j ln Γ(α_j) − ln Γ(α₀). The density is
// with respect to Lebesgue measure on the first K−1 coordinates.
//
// The methods assume valid parameters (every α_j > 0 and finite); NewDirichlet
// checks them.
type Dirichlet struct {
	// Alpha holds the pseudo-counts α_j > 0.
	Alpha []float64
}

var _ ExpFam = Dirichlet{}

// NewDirichlet returns a Dirichlet with a copy of alpha. It panics if
// len(alpha) < 1 or some α_j is not positive and finite.
func NewDirichlet(alpha []float64) Dirichlet {
	if len(alpha) < 1 {
		panic("dist: empty Dirichlet parameter")
	}
	checkDirichlet(alpha)
	return Dirichlet{Alpha: append([]float64(nil), alpha...)}
}

func checkDirichlet(alpha []float64) {
	for _, a := range alpha {
		if !(a > 0) || math.IsInf(a, 1) {
			panic("dist: Dirichlet parameter not positive and finite")
		}
	}
}

// DirichletMeanLogTo sets dst[j] = E[ln π_j] = ψ(α_j) − ψ(Σα) (Beal eq. 3.68)
// and returns dst (allocating if dst is nil). exp(dst) is the sub-normalised
// "Bayes point" of eqs. (3.69)–(3.71) used by the VBE step. It panics if a
// non-nil dst has another length or if some α_j is not positive. It does not
// allocate when dst is non-nil; dst and alpha may be the same slice.
func DirichletMeanLogTo(dst, alpha []float64) []float64 {
	dst = reuse(dst, len(alpha))
	var a0 float64
	for _, a := range alpha {
		if !(a > 0) {
			panic("dist: Dirichlet parameter not positive")
		}
		a0 += a
	}
	p0 := numeric.Digamma(a0)
	for j, a := range alpha {
		dst[j] = numeric.Digamma(a) - p0
	}
	return dst
}

// DirichletKL returns KL(Dir(q) ‖ Dir(p)) in nats,
//
//	KL = ln Γ(q₀) − Σ_j ln Γ(q_j) − ln Γ(p₀) + Σ_j ln Γ(p_j)
//	     + Σ_j (q_j − p_j)(ψ(q_j) − ψ(q₀)),
//
// the Dirichlet entry of Beal (2003) Appendix A (whose rendering there is
// garbled; this is the correct form, cf. ../shared/targets/ch3-hmm.md §0.2).
// These are the KL[π], KL[A] and KL[C] terms of the HMM bound (3.79). It
// panics if the lengths differ or a parameter is not positive, and does not
// allocate.
func DirichletKL(q, p []float64) float64 {
	if len(q) != len(p) {
		panic(badDim)
	}
	var q0, p0 float64
	for j := range q {
		if !(q[j] > 0) || !(p[j] > 0) {
			panic("dist: Dirichlet parameter not positive")
		}
		q0 += q[j]
		p0 += p[j]
	}
	psiQ0 := numeric.Digamma(q0)
	kl := numeric.LogGamma(q0) - numeric.LogGamma(p0)
	for j := range q {
		kl += numeric.LogGamma(p[j]) - numeric.LogGamma(q[j])
		if d := q[j] - p[j]; d != 0 {
			kl += d * (numeric.Digamma(q[j]) - psiQ0)
		}
	}
	return kl
}

// DirichletLogMarginalCounts returns ln Γ(α0) − ln Γ(α0+ΣN) + Σ[ln Γ(α_j+N_j) − ln Γ(α_j)], the Dirichlet-multinomial log evidence of real counts N ≥ 0 (Beal eq. 6.9).
//
// It is the exact marginal likelihood of one Dirichlet-distributed row
// given complete-data counts, the building block of the BIC/CS comparisons
// of chapter 6 and, with expected counts, of the identity
// −KL(Dir(α+N) ‖ Dir(α)) + Σ_j N_j E_{α+N}[ln π_j] = DirichletLogMarginalCounts(α, N).
// It panics if the lengths differ, some α_j is not positive or some N_j is
// negative. It does not allocate.
func DirichletLogMarginalCounts(alpha, counts []float64) float64 {
	if len(alpha) != len(counts) {
		panic(badDim)
	}
	var a0, n0, s float64
	for j, a := range alpha {
		n := counts[j]
		if !(a > 0) {
			panic("dist: Dirichlet parameter not positive")
		}
		if !(n >= 0) {
			panic("dist: negative count")
		}
		a0 += a
		n0 += n
		if n != 0 {
			s += numeric.LogGamma(a+n) - numeric.LogGamma(a)
		}
	}
	return s + numeric.LogGamma(a0) - numeric.LogGamma(a0+n0)
}

// DirichletPosteriorTo sets dst = α + β·N, the (annealed) conjugate VBM update
// of a Dirichlet by expected counts N (Beal (2003) eqs. (3.54)–(3.59);
// β ≠ 1 is the annealed step (2.119)). It returns dst, allocating if dst is
// nil, and panics on a length mismatch. dst may alias alpha or counts.
func DirichletPosteriorTo(dst, alpha, counts []float64, beta float64) []float64 {
	if len(alpha) != len(counts) {
		panic(badDim)
	}
	dst = reuse(dst, len(alpha))
	for j := range alpha {
		dst[j] = alpha[j] + beta*counts[j]
	}
	return dst
}

// Dim returns the number of categories K.
func (d Dirichlet) Dim() int { return len(d.Alpha) }

// Alpha0 returns the strength α₀ = Σ_j α_j (Beal (2003) eq. (3.41)).
func (d Dirichlet) Alpha0() float64 {
	var a0 float64
	for _, a := range d.Alpha {
		a0 += a
	}
	return a0
}

// Mean returns E[π] = α/α₀. It is also the MAP estimate in the softmax basis
// (Beal (2003) section 3.3, L1901 of the thesis text).
func (d Dirichlet) Mean(dst []float64) []float64 {
	dst = reuse(dst, len(d.Alpha))
	a0 := d.Alpha0()
	for j, a := range d.Alpha {
		dst[j] = a / a0
	}
	return dst
}

// MeanLog returns E[ln π_j] = ψ(α_j) − ψ(α₀) (Beal (2003) eq. (3.68)).
func (d Dirichlet) MeanLog(dst []float64) []float64 {
	return DirichletMeanLogTo(dst, d.Alpha)
}

// BayesPoint returns the sub-normalised geometric mean exp E[ln π_j]
// (Beal (2003) eqs. (3.69)–(3.71)); its entries sum to less than one.
func (d Dirichlet) BayesPoint(dst []float64) []float64 {
	dst = DirichletMeanLogTo(dst, d.Alpha)
	for j, v := range dst {
		dst[j] = math.Exp(v)
	}
	return dst
}

// Mode returns the mode (α_j − 1)/(α₀ − K) and true if every α_j > 1. The
// mode is in the interior of the simplex only then; otherwise Mode returns
// dst unchanged (allocated if nil) and false. This is the MAP estimate in the
// original basis, eq. (3.42).
func (d Dirichlet) Mode(dst []float64) ([]float64, bool) {
	dst = reuse(dst, len(d.Alpha))
	for _, a := range d.Alpha {
		if !(a > 1) {
			return dst, false
		}
	}
	den := d.Alpha0() - float64(len(d.Alpha))
	for j, a := range d.Alpha {
		dst[j] = (a - 1) / den
	}
	return dst, true
}

// LogMarginalCounts returns DirichletLogMarginalCounts(d.Alpha, counts),
// the Dirichlet-multinomial log evidence of eq. (6.9).
func (d Dirichlet) LogMarginalCounts(counts []float64) float64 {
	return DirichletLogMarginalCounts(d.Alpha, counts)
}

// Posterior returns Dir(α + N), the conjugate update by counts N.
func (d Dirichlet) Posterior(counts []float64) Dirichlet {
	return Dirichlet{Alpha: DirichletPosteriorTo(nil, d.Alpha, counts, 1)}
}

// LogProb returns ln p(π | α), or −Inf if π is not in the simplex (a
// negative entry or a sum differing from 1 by more than 1e-12·K).
func (d Dirichlet) LogProb(pi []float64) float64 {
	if len(pi) != len(d.Alpha) {
		panic(badDim)
	}
	var s, lp float64
	for j, p := range pi {
		if p < 0 {
			return math.Inf(-1)
		}
		s += p
		if a := d.Alpha[j]; a != 1 {
			lp += (a - 1) * math.Log(p)
		}
	}
	if math.Abs(s-1) > 1e-12*float64(len(pi)) {
		return math.Inf(-1)
	}
	return lp - d.LogNormalizer()
}

// Rand draws π ~ Dir(α) into dst (allocating if nil), by normalising
// independent Ga(α_j, 1) draws; the draws are made in the log domain so that
// small α_j do not give 0/0.
func (d Dirichlet) Rand(dst []float64, rnd *rand.Rand) []float64 {
	dst = reuse(dst, len(d.Alpha))
	for j, a := range d.Alpha {
		dst[j] = randLogStdGamma(a, rnd)
	}
	numeric.NormalizeLogTo(dst, dst)
	return dst
}

// RandLog draws π ~ Dir(α) and writes ln π into dst (allocating if nil),
// normalised in the log domain from independent ln Ga(α_j, 1) draws, so that
// components far below the smallest normal float (α_j ≪ 1, PRML's α₀ =
// 10⁻³) keep a finite log weight where Rand would give π_j = 0. It does not
// allocate when dst is non-nil.
func (d Dirichlet) RandLog(dst []float64, rnd *rand.Rand) []float64 {
	dst = reuse(dst, len(d.Alpha))
	for j, a := range d.Alpha {
		dst[j] = randLogStdGamma(a, rnd)
	}
	lse := numeric.LogSumExp(dst)
	for j := range dst {
		dst[j] -= lse
	}
	return dst
}

// Entropy returns
//
//	H = ln B(α) + (α₀ − K)ψ(α₀) − Σ_j (α_j − 1)ψ(α_j)
//
// (Beal (2003) Appendix A).
func (d Dirichlet) Entropy() float64 {
	a0 := d.Alpha0()
	h := d.LogNormalizer() + (a0-float64(len(d.Alpha)))*numeric.Digamma(a0)
	for _, a := range d.Alpha {
		h -= (a - 1) * numeric.Digamma(a)
	}
	return h
}

// KLDirichlet returns KL(q ‖ p) = DirichletKL(q.Alpha, p.Alpha).
//
// Test oracle: models call the slice form DirichletKL, which does not
// allocate; the tests check the ExpFam method KL against this.
func KLDirichlet(q, p Dirichlet) float64 { return DirichletKL(q.Alpha, p.Alpha) }

// NumParams returns K.
func (d Dirichlet) NumParams() int { return len(d.Alpha) }

// NaturalParams returns η = α − 1.
func (d Dirichlet) NaturalParams(dst []float64) []float64 {
	dst = reuse(dst, len(d.Alpha))
	for j, a := range d.Alpha {
		dst[j] = a - 1
	}
	return dst
}

// ExpectedStats returns E[ln π] (as MeanLog).
func (d Dirichlet) ExpectedStats(dst []float64) []float64 { return d.MeanLog(dst) }

// Stats returns u(π) = ln π.
func (d Dirichlet) Stats(dst, pi []float64) []float64 {
	if len(pi) != len(d.Alpha) {
		panic(badDim)
	}
	dst = reuse(dst, len(d.Alpha))
	for j, p := range pi {
		dst[j] = math.Log(p)
	}
	return dst
}

// LogNormalizer returns ln B(α) = Σ_j ln Γ(α_j) − ln Γ(α₀).
func (d Dirichlet) LogNormalizer() float64 {
	var a0, s float64
	for _, a := range d.Alpha {
		a0 += a
		s += numeric.LogGamma(a)
	}
	return s - numeric.LogGamma(a0)
}

// FromNatural returns Dir(η + 1).
func (d Dirichlet) FromNatural(eta []float64) ExpFam {
	if len(eta) != len(d.Alpha) {
		panic(badDim)
	}
	alpha := make([]float64, len(eta))
	for j, e := range eta {
		alpha[j] = e + 1
		if !(alpha[j] > 0) || math.IsInf(alpha[j], 1) {
			panic(badNatural)
		}
	}
	return Dirichlet{Alpha: alpha}
}

// KL returns KLDirichlet(d, p); p must be a Dirichlet.
func (d Dirichlet) KL(p ExpFam) float64 { return expFamKL(d, p, KLDirichlet) }

// SampleLen returns K.
func (d Dirichlet) SampleLen() int { return len(d.Alpha) }

// LogProbVec returns LogProb(x).
func (d Dirichlet) LogProbVec(x []float64) float64 { return d.LogProb(x) }

// RandVec returns Rand(dst, rnd).
func (d Dirichlet) RandVec(dst []float64, rnd *rand.Rand) []float64 { return d.Rand(dst, rnd) }
