package mfa

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// The Cheeseman–Stutz score of ONE Bayesian factor analyser with k = 1
// factor (the model of Annealed: S = 1, Ψ, a*, b*, μ*, ν* fixed).
//
// Row q of the complete-data model is a linear regression of y_iq on z_i =
// (x_i, 1) with weights w_q = (Λ_q, μ_q) and noise variance ψ_q (eqs.
// (4.2)–(4.4) at S = 1):
//
//	ln p(x, y | Λ, μ) = ln f + Σ_q [−(N/2) ln 2πψ_q − (1/2ψ_q)(YY_q − 2w_qᵀb_q + w_qᵀ A w_q)],
//	ln f = Σ_i ln N(x_i | 0, 1) = −(N/2) ln 2π − ½ XX,
//	A = [XX X; X N],  b_q = (XY_q, Y_q),
//
// with the statistics X = Σ x_i, XX = Σ x_i², XY_q = Σ x_i y_iq, Y_q =
// Σ y_iq, YY_q = Σ y_iq² (CompletedStats): it is linear in (x_i, x_i²), so
// at the expected statistics of a Gaussian q(x) it is ⟨ln p(x, y | θ)⟩_q.
// Given the ARD precision ν the prior of w_q is N((0, μ*_q), P₀⁻¹), P₀ =
// diag(ν, ν*_q) (eqs. (4.17), (4.19)), independently over q, so the
// integral over (Λ_q, μ_q) is a Gaussian one per row, every constant kept:
//
//	ln I_q(ν) = −(N/2) ln 2πψ_q + ½ ln(ν ν*_q) − ½ ln|P_q| − ½ (YY_q/ψ_q + ν*_q μ*_q² − h_qᵀ P_q⁻¹ h_q),
//	P_q = P₀ + A/ψ_q,  h_q = (XY_q/ψ_q, ν*_q μ*_q + Y_q/ψ_q),
//
// (the evidence of Bayesian linear regression, Bishop (2006) eq. (3.86) with
// a non-zero prior mean), and the complete-data marginal is the 1-D
// integral over u = ln ν of the gamma prior (eq. (4.18)) times those rows,
//
//	ln p(x, y) = ln f + ln ∫ exp G(u) du,
//	G(u) = a* ln b* − ln Γ(a*) + a* u − b* eᵘ + Σ_q ln I_q(eᵘ)
//
// (a* u with the Jacobian dν = ν du), by adaptive Gauss–Kronrod quadrature
// (numeric.IntegrateBreaks, tolerance Rel 1e-10, Abs 1e-14 on exp(G − max
// G)) between breaks every 0.25 in u where G is within 50 nats of its peak
// (csMarginalRest).

// CompletedStats are the sufficient statistics of the complete-data
// likelihood p(x, y | Λ, μ) of one analyser with k = 1 factor (see the
// comment at the head of cs.go): N points, X = Σ_i x_i, XX = Σ_i x_i², and
// per output q (p each) XY_q = Σ_i x_i y_iq, Y_q = Σ_i y_iq, YY_q = Σ_i y_iq².
// For a completion they are expectations, X = Σ⟨x_i⟩, XX = Σ⟨x_i²⟩, XY_q =
// Σ⟨x_i⟩ y_iq (Annealed.Completion); for known factors those of the factors.
type CompletedStats struct {
	N         int
	X, XX     float64
	XY, Y, YY []float64
}

// LogBase returns ln f = Σ_i ln N(x_i | 0, 1) = −(N/2) ln 2π − ½ XX, the
// part of ln p(x, y | Λ, μ) that does not depend on (Λ, μ, ν): the factors'
// prior (eq. (4.3)) at the statistics.
func (s CompletedStats) LogBase() float64 { return -0.5*float64(s.N)*ln2Pi - 0.5*s.XX }

// checkStats returns an error unless s has p outputs, N ≥ 1, finite
// entries and XX > 0 (the factors' statistics; XX = 0 only if every x_i
// is 0, when A is singular).
func (a *Annealed) checkStats(s CompletedStats) error {
	if a.k != 1 {
		return fmt.Errorf("mfa: the completed-data marginal is for k = 1 (got k = %d)", a.k)
	}
	if s.N < 1 || len(s.XY) != a.p || len(s.Y) != a.p || len(s.YY) != a.p {
		return fmt.Errorf("mfa: completed statistics with N = %d and %d, %d, %d outputs; want N ≥ 1 and p = %d", s.N, len(s.XY), len(s.Y), len(s.YY), a.p)
	}
	fin := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	ok := fin(s.X) && fin(s.XX) && s.XX > 0
	for q := range a.p {
		ok = ok && fin(s.XY[q]) && fin(s.Y[q]) && fin(s.YY[q])
	}
	if !ok {
		return errors.New("mfa: completed statistics not finite, or XX ≤ 0")
	}
	return nil
}

// muStar returns μ*_q (Annealed keeps r = ȳ − μ*).
func (a *Annealed) muStar(q int) float64 { return a.ybar[q] - a.r[q] }

// csJointRest returns ln p(x, y | Λ, μ) − ln f at the statistics s.
func (a *Annealed) csJointRest(s CompletedStats, lambda, mu []float64) float64 {
	n := float64(s.N)
	var l float64
	for q := range a.p {
		ps, lq, mq := a.psi[q], lambda[q], mu[q]
		sq := s.YY[q] - 2*(lq*s.XY[q]+mq*s.Y[q]) + lq*lq*s.XX + 2*lq*mq*s.X + n*mq*mq
		l += -0.5*n*(ln2Pi+math.Log(ps)) - 0.5*sq/ps
	}
	return l
}

// csRowFlops is the multiply-adds charged for ln I_q(ν) of one row.
const csRowFlops = 30

// csLogRow returns ln I_q(ν) at u = ln ν (see cs.go's head comment); ν =
// eᵘ may underflow to 0, the ½ ln ν term uses u itself.
func (a *Annealed) csLogRow(s CompletedStats, q int, u float64) float64 {
	n, ps := float64(s.N), a.psi[q]
	nus, m0 := 1/a.v[q], a.muStar(q)
	p11, p12, p22 := math.Exp(u)+s.XX/ps, s.X/ps, nus+n/ps
	det := p11*p22 - p12*p12
	h1, h2 := s.XY[q]/ps, nus*m0+s.Y[q]/ps
	quad := (p22*h1*h1 - 2*p12*h1*h2 + p11*h2*h2) / det
	return -0.5*n*(ln2Pi+math.Log(ps)) + 0.5*(u+math.Log(nus)) - 0.5*math.Log(det) - 0.5*(s.YY[q]/ps+nus*m0*m0-quad)
}

// csMarginalRest returns ln p(x, y) − ln f = ln ∫ exp G(u) du at the
// statistics s (see cs.go's head comment), the quadrature's error estimate
// in nats and the evaluations of G. G is scanned every 0.25 on [−60, 40];
// from the scan's ends the walk goes outward (steps 0.25, growing by 1.5)
// until G is 50 nats below the highest value seen (G falls like (a* +
// p/2)u as u → −∞ and like −b*eᵘ as u → ∞, so the walks end); the breaks
// are the scanned and walked points, trimmed from each end while the next
// point is still 50 nats below the peak. The tail beyond each end is then
// at most e⁻⁵⁰/(a* + p/2) ≤ 4e-22 times the peak's value (in units of
// u), far below the tolerance.
func (a *Annealed) csMarginalRest(s CompletedStats) (lnI, errEst float64, evals int, err error) {
	const (
		margin       = 50.0
		step         = 0.25
		scanLo       = -60.0
		scanHi       = 40.0
		walkLimit    = 1e5
		quadRel, abs = 1e-10, 1e-14
	)
	lnPrior := a.a*math.Log(a.b) - numeric.LogGamma(a.a)
	g := func(u float64) float64 {
		evals++
		v := lnPrior + a.a*u - a.b*math.Exp(u)
		for q := range a.p {
			v += a.csLogRow(s, q, u)
		}
		return v
	}
	var us, gs []float64
	peak := math.Inf(-1)
	nScan := int(math.Round((scanHi - scanLo) / step))
	for j := 0; j <= nScan; j++ {
		u := scanLo + float64(j)*step
		v := g(u)
		if math.IsNaN(v) {
			return 0, 0, evals, fmt.Errorf("mfa: completed-data marginal: G(%g) is NaN", u)
		}
		us, gs = append(us, u), append(gs, v)
		peak = max(peak, v)
	}
	walk := func(dir float64) ([]float64, []float64, error) {
		var wu, wg []float64
		u, w := scanHi, step
		if dir < 0 {
			u = scanLo
		}
		v := gs[len(gs)-1]
		if dir < 0 {
			v = gs[0]
		}
		for v >= peak-margin {
			u += dir * w
			w *= 1.5
			if math.Abs(u) > walkLimit {
				return nil, nil, errors.New("mfa: completed-data marginal: the integrand over ln ν does not fall 50 nats below its peak")
			}
			v = g(u)
			if math.IsNaN(v) {
				return nil, nil, fmt.Errorf("mfa: completed-data marginal: G(%g) is NaN", u)
			}
			peak = max(peak, v)
			wu, wg = append(wu, u), append(wg, v)
		}
		return wu, wg, nil
	}
	lu, lg, err := walk(-1)
	if err != nil {
		return 0, 0, evals, err
	}
	hu, hg, err := walk(1)
	if err != nil {
		return 0, 0, evals, err
	}
	// The lower walk's points are decreasing: reverse them in front.
	var bu, bg []float64
	for j := len(lu) - 1; j >= 0; j-- {
		bu, bg = append(bu, lu[j]), append(bg, lg[j])
	}
	bu, bg = append(append(bu, us...), hu...), append(append(bg, gs...), hg...)
	lo, hi := 0, len(bu)-1
	for hi-lo > 1 && bg[lo+1] < peak-margin {
		lo++
	}
	for hi-lo > 1 && bg[hi-1] < peak-margin {
		hi--
	}
	val, e, err := numeric.IntegrateBreaks(func(u float64) float64 { return math.Exp(g(u) - peak) }, bu[lo:hi+1], numeric.QuadTol{Rel: quadRel, Abs: abs})
	if err != nil {
		return 0, 0, evals, fmt.Errorf("mfa: completed-data marginal: %w", err)
	}
	if !(val > 0) {
		return 0, 0, evals, errors.New("mfa: completed-data marginal: the integral over ln ν is not positive")
	}
	return peak + math.Log(val), e / val, evals, nil
}

// CompletedLogJoint returns the complete-data log-likelihood ln p(x, y |
// Λ, μ) (Ψ fixed; eqs. (4.2)–(4.4) at S = 1, k = 1) at the statistics s,
// every constant included: ln f + Σ_q [−(N/2) ln 2πψ_q − (1/2ψ_q)(YY_q −
// 2w_qᵀb_q + w_qᵀAw_q)] (see cs.go's head comment). At a completion's
// expected statistics it is ⟨ln p(x, y | Λ, μ)⟩ under q(x). It returns an
// error for invalid statistics, k ≠ 1 or a point of the wrong length.
func (a *Annealed) CompletedLogJoint(s CompletedStats, lambda, mu []float64) (float64, error) {
	if err := a.checkStats(s); err != nil {
		return 0, err
	}
	if len(lambda) != a.p || len(mu) != a.p {
		return 0, fmt.Errorf("mfa: CompletedLogJoint: Λ, μ of lengths %d, %d; want p = %d", len(lambda), len(mu), a.p)
	}
	return s.LogBase() + a.csJointRest(s, lambda, mu), nil
}

// CompletedLogMarginal returns the complete-data marginal likelihood ln
// p(x, y) = ln ∫ p(ν) ∫ p(Λ, μ | ν) p(x, y | Λ, μ) dΛ dμ dν of the k = 1
// analyser at the statistics s, under the priors of Annealed's Hyper (ν ~
// Ga(a*, b*), Λ_q | ν ~ N(0, 1/ν), μ_q ~ N(μ*_q, 1/ν*_q); eqs. (4.17)–(4.19)),
// every constant included: the Gaussian integral over each row's (Λ_q, μ_q)
// in closed form, then the 1-D integral over ln ν by adaptive quadrature
// (see cs.go's head comment). errEst is the quadrature's error estimate in
// nats. It returns an error for invalid statistics, k ≠ 1 or a quadrature
// that fails.
func (a *Annealed) CompletedLogMarginal(s CompletedStats) (lnZ, errEst float64, err error) {
	if err := a.checkStats(s); err != nil {
		return 0, 0, err
	}
	rest, e, _, err := a.csMarginalRest(s)
	if err != nil {
		return 0, 0, err
	}
	return s.LogBase() + rest, e, nil
}

// Completion returns the expected statistics of the factors under p(x |
// y, Λ, μ) at the point (Λ, μ) (k = 1), and the variance of each x_i
// there: x_i | y_i ~ N(β ᵀ(y_i − μ), σ²) with σ² = 1/(1 + Σ_q Λ_q²/ψ_q)
// and β_q = σ²Λ_q/ψ_q (eqs. (4.53)–(4.55) at point loadings, Ghahramani and
// Hinton 1996), so with δ = ȳ − μ and M = S + Nδδᵀ (S the scatter about ȳ)
//
//	X = N βᵀδ,  XX = Nσ² + βᵀMβ,  XY_q = Σ_t β_t (S_tq + N δ_t ȳ_q),
//	Y_q = Nȳ_q,  YY_q = S_qq + Nȳ_q²:
//
// the E step on N points through the data's (N, ȳ, S), O(p²).
func (a *Annealed) Completion(lambda, mu []float64) (s CompletedStats, sigma2 float64, err error) {
	if a.k != 1 {
		return s, 0, fmt.Errorf("mfa: Completion is for k = 1 (got k = %d)", a.k)
	}
	p := a.p
	if len(lambda) != p || len(mu) != p {
		return s, 0, fmt.Errorf("mfa: Completion: Λ, μ of lengths %d, %d; want p = %d", len(lambda), len(mu), p)
	}
	prec := 1.0
	for q := range p {
		if math.IsNaN(lambda[q]) || math.IsInf(lambda[q], 0) || math.IsNaN(mu[q]) || math.IsInf(mu[q], 0) {
			return s, 0, errors.New("mfa: Completion: Λ, μ not finite")
		}
		prec += lambda[q] * lambda[q] / a.psi[q]
	}
	sigma2 = 1 / prec
	n := float64(a.n)
	beta, delta := make([]float64, p), make([]float64, p)
	for q := range p {
		beta[q] = sigma2 * lambda[q] / a.psi[q]
		delta[q] = a.ybar[q] - mu[q]
	}
	s = CompletedStats{N: a.n, XY: make([]float64, p), Y: make([]float64, p), YY: make([]float64, p), XX: n * sigma2}
	for t := range p {
		s.X += n * beta[t] * delta[t]
		for q := range p {
			s.XX += beta[t] * (a.scat[t*p+q] + n*delta[t]*delta[q]) * beta[q]
			s.XY[q] += beta[t] * (a.scat[t*p+q] + n*delta[t]*a.ybar[q])
		}
	}
	for q := range p {
		s.Y[q] = n * a.ybar[q]
		s.YY[q] = a.scat[q*p+q] + n*a.ybar[q]*a.ybar[q]
	}
	return s, sigma2, nil
}

// LogLikAt returns ln p(y | Λ, μ) = −(Np/2) ln 2π − (N/2) ln|C| − ½ tr(C⁻¹M),
// C = ΛΛᵀ + Ψ, M = S + N(ȳ − μ)(ȳ − μ)ᵀ (eq. (4.11) at S = 1, the factors
// integrated out, no prior), or −Inf where C is not positive definite. It
// panics if len(lambda) != Dim() or len(mu) != P().
func (a *Annealed) LogLikAt(lambda, mu []float64) float64 {
	a.check(lambda)
	p := a.p
	if len(mu) != p {
		panic(fmt.Sprintf("mfa: LogLikAt: μ of length %d, want %d", len(mu), p))
	}
	sc := a.pool.Get().(*annealScratch)
	defer a.pool.Put(sc)
	lnC, _, ok := a.factor(sc, lambda)
	if !ok {
		return math.Inf(-1)
	}
	n := float64(a.n)
	var tr float64
	for q := range p {
		for t := range p {
			m := a.scat[t*p+q] + n*(a.ybar[t]-mu[t])*(a.ybar[q]-mu[q])
			tr += sc.cinv[q*p+t] * m
		}
	}
	return -n*float64(p)/2*ln2Pi - n/2*lnC - 0.5*tr
}

// CSResult is the outcome of Annealed.CheesemanStutz.
type CSResult struct {
	// LnZ is ln p_CS(y) = LogMarginal + LogLik − LogJoint (no ln 2 for
	// the mirrored mode −Λ), computed with ln f left out of both.
	LnZ float64
	// LogLik is ln p(y | θ̂) (LogLikAt).
	LogLik float64
	// LogJoint is ln p(x̂, y | θ̂) and LogMarginal ln p(x̂, y), each with
	// ln f (Stats.LogBase) included, at the completed statistics Stats.
	LogJoint, LogMarginal float64
	// ErrEst is the ν quadrature's error estimate in nats.
	ErrEst float64
	// Stats are the expected statistics under p(x | y, θ̂), and FactorVar
	// the variance σ² of every x_i there; Entropy = (N/2)(ln 2πσ² + 1) is
	// the entropy of p(x | y, θ̂), which equals LogLik − LogJoint.
	Stats     CompletedStats
	FactorVar float64
	Entropy   float64
	// Evaluations counts the evaluations of the integrand over ln ν, and
	// Flops the multiply-adds: the completion (3p² + 4p), ln p(y | θ̂)
	// (EvalFlops) and 30p an evaluation.
	Evaluations int
	Flops       float64
}

// CheesemanStutz returns the Cheeseman–Stutz approximation to ln p(y | Ψ,
// a*, b*, μ*, ν*) of the analyser with k = 1 factor at the point θ̂ =
// (Λ̂, μ̂) (lambda, mu; the row's choice is MaxLikelihood's, the BIC point)
// (Cheeseman and Stutz 1996; Beal 2003 eq. (2.133) and section 6.3.3, eqs.
// (6.27)–(6.30)):
//
//	ln p_CS(y) = ln p(x̂, y) + ln p(y | θ̂) − ln p(x̂, y | θ̂),
//
// where the completion x̂ fills the factors in by their expected sufficient
// statistics under p(x | y, θ̂) (Completion), ln p(x̂, y) is
// CompletedLogMarginal (the (Λ, μ) integrals in closed form given ν, the ν
// integral by quadrature), ln p(x̂, y | θ̂) is CompletedLogJoint, both at
// those statistics, and ln p(y | θ̂) is LogLikAt. The θ-free part ln f =
// Σ_i ⟨ln N(x_i | 0, 1)⟩ = −(N/2) ln 2π − ½ XX appears in both ln p(x̂, y)
// and ln p(x̂, y | θ̂) and cancels; LnZ is computed without it:
//
//	ln p_CS(y) = ln p(y | θ̂) + ln ∫ p(θ) exp[h(θ) − h(θ̂)] dθ,
//	h(θ) = ln p(x̂, y | θ) − ln f,
//
// the likelihood at θ̂ times the Occam factor of the completed regressions.
// Since the complete-data likelihood is linear in the statistics,
// ln p(x̂, y | θ̂) = ⟨ln p(x, y | θ̂)⟩ under p(x | y, θ̂), and ln p(y | θ̂)
// minus it is the entropy of p(x | y, θ̂) (CSResult.Entropy), so ln p_CS =
// ln p(x̂, y) + H is VB's bound F at q(x) = p(x | y, θ̂) with the exact
// q(θ) = p(θ | x̂, y) (Beal 2003 eqs. (2.140)–(2.142), Theorem 2.3 and
// Corollary 2.5, eqs. (2.146)–(2.148)): a lower bound on ln p(y) for every
// θ̂. The completion fixes the sign of x̂, so q(θ) covers one of the two
// mirrored modes ±Λ of the posterior; no ln 2 is added.
//
// It returns an error for k ≠ 1, a point of the wrong length or not
// finite, or a quadrature that fails.
func (a *Annealed) CheesemanStutz(lambda, mu []float64) (CSResult, error) {
	var res CSResult
	s, sig, err := a.Completion(lambda, mu)
	if err != nil {
		return res, err
	}
	if err := a.checkStats(s); err != nil {
		return res, err
	}
	res.Stats, res.FactorVar = s, sig
	res.Entropy = 0.5 * float64(a.n) * (math.Log(2*math.Pi*sig) + 1)
	res.LogLik = a.LogLikAt(lambda, mu)
	jRest := a.csJointRest(s, lambda, mu)
	mRest, e, evals, err := a.csMarginalRest(s)
	if err != nil {
		return res, err
	}
	base := s.LogBase()
	res.LogJoint, res.LogMarginal, res.ErrEst, res.Evaluations = base+jRest, base+mRest, e, evals
	res.LnZ = res.LogLik + mRest - jRest
	p := float64(a.p)
	res.Flops = 3*p*p + 4*p + a.EvalFlops() + float64(evals)*csRowFlops*p
	if math.IsNaN(res.LnZ) || math.IsInf(res.LnZ, 0) {
		return res, errors.New("mfa: CheesemanStutz: the score is not finite")
	}
	return res, nil
}
