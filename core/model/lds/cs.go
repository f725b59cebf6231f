package lds

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/numeric"
)

// CompletedStats are the sufficient statistics of the complete-data
// likelihood p(x_{0:T}, y_{1:T} | θ) of the LDS with one hidden dimension,
// one output and no inputs (k = p = 1; Beal 2003 eqs. 5.2-5.5, 5.13),
// summed over sequences: with times t = 1, …, T_i of sequence i,
//
//	WA = Σ_i Σ_t x_{t−1}²,  SA = Σ_i Σ_t x_{t−1} x_t,  WC = Σ_i Σ_t x_t²,
//	SC = Σ_i Σ_t x_t y_t,   YY = Σ_i Σ_t y_t²,         T = Σ_i T_i,
//
// and, for the prior of x_0 (which does not depend on θ), X0 = Σ_i x_{i,0},
// X0Sq = Σ_i x_{i,0}², N sequences. For a completion x̂ they are the
// expectations under p(x | y, θ̂) (infer.LDSStats; eqs. 5.126-5.132 with
// point parameters); for known states the statistics of those states.
type CompletedStats struct {
	WA, SA, WC, SC, YY float64
	X0, X0Sq           float64
	T, N               int
}

// completedStats returns the scalar statistics of st (k = p = 1, d = 0)
// with Σ y_t² = yy.
func completedStats(st *infer.LDSStats, yy float64) CompletedStats {
	return CompletedStats{WA: st.WA[0], SA: st.SA[0], WC: st.WC[0], SC: st.SC[0], YY: yy,
		X0: st.X0Sum[0], X0Sq: st.X0Outer[0] + st.X0Cov[0], T: st.T, N: st.N}
}

// logBase returns ln f, the part of ln p(x, y | θ) that does not depend on
// θ: the x_0 prior Σ_i ln N(x_{i,0} | μ_0, 1/λ_0) at the statistics, the
// state noise's −½ Σ x_t² (its variance is fixed at 1) and the 2T
// normalisers −½ ln 2π of the state and output densities.
func (s CompletedStats) logBase(mu0, lam0 float64) float64 {
	l2π := math.Log(2 * math.Pi)
	n := float64(s.N)
	x0 := 0.5*n*(math.Log(lam0)-l2π) - 0.5*lam0*(s.X0Sq-2*mu0*s.X0+n*mu0*mu0)
	return x0 - 0.5*s.WC - float64(s.T)*l2π
}

// LogJoint returns the complete-data log-likelihood ln p(x, y | θ) of the
// scalar LDS at θ = (A, C, ρ), every constant included, as a function of
// the statistics s (the x_0 prior N(μ_0, 1/λ_0) from h, zero fields taking
// their defaults):
//
//	ln p(x, y | θ) = ln f + A·SA − ½A²·WA + (T/2) ln ρ − ½ρ (YY − 2C·SC + C²·WC),
//	ln f = Σ_i ln N(x_{i,0} | μ_0, 1/λ_0) − ½ WC − T ln 2π,
//
// the sum over t of ln N(x_t | A x_{t−1}, 1) + ln N(y_t | C x_t, 1/ρ)
// (eqs. 5.2-5.5) and of the x_0 prior (5.13). It is linear in the
// statistics, so at a completion's expected statistics it is
// ⟨ln p(x, y | θ)⟩ under p(x | y, θ̂). It panics if h is invalid for
// k = 1 (see Hyper).
func (s CompletedStats) LogJoint(a, c, rho float64, h Hyper) float64 {
	hh := mustHyper1(h)
	return s.logBase(hh.Mu0[0], hh.Lambda0[0]) + a*s.SA - 0.5*a*a*s.WA +
		0.5*float64(s.T)*math.Log(rho) - 0.5*rho*(s.YY-2*c*s.SC+c*c*s.WC)
}

// LogMarginal returns the completed-data marginal likelihood
//
//	ln p(x, y) = ln ∫ p(θ) p(x, y | θ) dθ
//
// of the scalar LDS under the priors A ~ N(0, 1/α), C | ρ ~ N(0, 1/(γρ)),
// ρ ~ Ga(a, b) (eqs. 5.8, 5.10, 5.12) at the statistics s (h's
// hyperparameters, zero fields taking their defaults). p(x, y | θ) (see
// LogJoint) is Gaussian in A, and Gaussian in C given ρ times ρ^{T/2}
// e^{−ρ(·)/2}, so the integral is the product of a Gaussian and a
// Normal-Gamma normaliser ratio:
//
//	ln p(x, y) = ln f + ½ ln(α/(α + WA)) + ½ SA²/(α + WA)
//	           + ½ ln(γ/(γ + WC)) + a ln b − ln Γ(a) + ln Γ(a + T/2) − (a + T/2) ln(b + G/2),
//	G = YY − SC²/(γ + WC),
//
// the evidence of the Bayesian regressions of x_t on x_{t−1} (noise variance
// 1) and of y_t on x_t (Normal-Gamma), eqs. 5.35-5.47 at the statistics
// (q(A) and q(C, ρ) of the VBM step are these regressions' posteriors).
// Expected statistics satisfy YY·WC ≥ SC² (the expectation of
// Σ(y_t − c x_t)² ≥ 0 for every c), so G > 0 unless YY = 0. It panics if h
// is invalid for k = 1.
func (s CompletedStats) LogMarginal(h Hyper) float64 {
	hh := mustHyper1(h)
	al, ga, an, bn := hh.Alpha[0], hh.Gamma[0], hh.NoiseShape, hh.NoiseRate
	T := float64(s.T)
	lA := 0.5*math.Log(al/(al+s.WA)) + 0.5*s.SA*s.SA/(al+s.WA)
	g := s.YY - s.SC*s.SC/(ga+s.WC)
	an1 := an + T/2
	lCR := 0.5*math.Log(ga/(ga+s.WC)) + an*math.Log(bn) - numeric.LogGamma(an) + numeric.LogGamma(an1) - an1*math.Log(bn+g/2)
	return s.logBase(hh.Mu0[0], hh.Lambda0[0]) + lA + lCR
}

// mustHyper1 returns h with its defaults for k = 1, d = 0, or panics.
func mustHyper1(h Hyper) Hyper {
	hh, err := h.withDefaults(1, 0)
	if err != nil {
		panic(err)
	}
	return hh
}

// CSResult is the outcome of CheesemanStutz.
type CSResult struct {
	// LnZ is ln p_CS(y) = LogMarginal + LogLik − LogJoint (no ln 2 for
	// the mirror mode).
	LnZ float64
	// LogLik is ln p(y | θ̂) by the Kalman filter (eq. 5.83).
	LogLik float64
	// LogJoint is ln p(x̂, y | θ̂) and LogMarginal ln p(x̂, y), at the
	// completed statistics Stats.
	LogJoint, LogMarginal float64
	// Stats are the expected statistics under p(x | y, θ̂).
	Stats CompletedStats
}

// CheesemanStutz returns the Cheeseman–Stutz approximation to ln p(y | α,
// γ, a, b, μ_0, Σ_0) of the LDS with one hidden dimension and one output
// (k = p = 1, no inputs) at the point θ̂ = par (Cheeseman and Stutz 1996;
// Beal 2003 eq. 2.133 and section 6.3.3, eqs. 6.27-6.30):
//
//	ln p_CS(y) = ln p(x̂, y) + ln p(y | θ̂) − ln p(x̂, y | θ̂),
//
// where the completion x̂ is the hidden states filled in by their expected
// sufficient statistics under p(x | y, θ̂) (the Kalman smoother at θ̂, eqs.
// 5.77-5.86, 5.106-5.115; CompletedStats), ln p(x̂, y) is LogMarginal and
// ln p(x̂, y | θ̂) is LogJoint at those statistics, and ln p(y | θ̂) is the
// filter's (eq. 5.83). The θ-free part ln f of the complete-data
// likelihood (the x_0 prior, −½ Σ x_t² of the unit state noise and the
// −T ln 2π) appears in both ln p(x̂, y) and ln p(x̂, y | θ̂) and cancels, so
//
//	ln p_CS(y) = ln p(y | θ̂) + ln ∫ p(θ) exp[h(θ) − h(θ̂)] dθ,
//	h(θ) = A·SA − ½A²·WA + (T/2) ln ρ − ½ρ (YY − 2C·SC + C²·WC):
//
// the likelihood at θ̂ times the Occam factor of the conjugate regressions
// at the completed statistics. Since ln p(x̂, y | θ̂) = ⟨ln p(x, y | θ̂)⟩
// under p(x | y, θ̂) (the statistics enter linearly) and ln p(y | θ̂) minus
// that is the entropy H of p(x | y, θ̂) (the completion of eq. 2.143, which
// exists because ln p(x, y | θ) is linear in the statistics),
// ln p_CS = ln p(x̂, y) + H is VB's bound F at q(x) = p(x | y, θ̂) and q(θ)
// the VBM step from it (Beal 2003 eqs. 2.140-2.142, Theorem 2.3, and
// Corollary 2.5, eqs. 2.146-2.148), so it is a lower bound on ln p(y) for
// every θ̂. The completion fixes the sign of x̂ and so covers
// one of the two modes C ↦ −C (x ↦ −x) of the posterior; no ln 2 is added.
//
// par's x_0 prior must be h's: μ_0 = h.Mu0, Σ_0 = 1/h.Lambda0 (zero fields
// of h taking their defaults). It returns an error for data or parameters
// outside this case or when the smoother fails.
func CheesemanStutz(data []Sequence, par *Params, h Hyper) (CSResult, error) {
	var res CSResult
	ds, err := newDataset(data)
	if err != nil {
		return res, err
	}
	if ds.p != 1 || ds.d != 0 {
		return res, fmt.Errorf("lds: CheesemanStutz is for one output and no inputs, the data have p = %d, d = %d", ds.p, ds.d)
	}
	k, p, d := par.dims()
	if k != 1 || p != 1 || d != 0 {
		return res, fmt.Errorf("lds: CheesemanStutz is for k = p = 1 and no inputs, θ̂ has k = %d, p = %d, d = %d", k, p, d)
	}
	hh, err := h.withDefaults(1, 0)
	if err != nil {
		return res, err
	}
	phi, err := par.natural()
	if err != nil {
		return res, err
	}
	if math.Abs(phi.Mu0[0]-hh.Mu0[0]) > 1e-12*(1+math.Abs(hh.Mu0[0])) || math.Abs(phi.Lambda0[0]-hh.Lambda0[0]) > 1e-12*hh.Lambda0[0] {
		return res, fmt.Errorf("lds: CheesemanStutz: θ̂'s x_0 prior N(%g, 1/%g) is not the hyperparameters' N(%g, 1/%g)",
			phi.Mu0[0], phi.Lambda0[0], hh.Mu0[0], hh.Lambda0[0])
	}
	if !(par.Rho[0] > 0) || math.IsInf(par.Rho[0], 1) {
		return res, fmt.Errorf("lds: CheesemanStutz: ρ̂ = %v, want finite and > 0", par.Rho[0])
	}
	ks := infer.NewKalmanSmoother(1, 1, 0, ds.tmax)
	st := infer.NewLDSStats(1, 1, 0)
	var post infer.LDSPosterior
	for i := range ds.y {
		if err := ks.Smooth(&post, phi, ds.y[i], ds.u[i]); err != nil {
			return res, fmt.Errorf("lds: CheesemanStutz, sequence %d: %w", i, err)
		}
		st.AddSequence(&post, ds.y[i], ds.u[i])
	}
	res.Stats = completedStats(st, ds.yy[0])
	res.LogLik = st.LogZ
	res.LogJoint = res.Stats.LogJoint(par.A.At(0, 0), par.C.At(0, 0), par.Rho[0], hh)
	res.LogMarginal = res.Stats.LogMarginal(hh)
	res.LnZ = res.LogMarginal + res.LogLik - res.LogJoint
	if math.IsNaN(res.LnZ) || math.IsInf(res.LnZ, 0) {
		return res, errors.New("lds: CheesemanStutz: the score is not finite")
	}
	return res, nil
}
