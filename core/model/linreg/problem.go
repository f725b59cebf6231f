package linreg

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/numeric"
)

// ln2Pi is ln 2π.
var ln2Pi = math.Log(2 * math.Pi)

// Prior is the gamma prior p(α) = Gam(α | A0, B0) on the weights'
// precision (PRML eq. 10.89), shape A0 and rate B0, both positive: the
// text's a₀ = b₀ = 0 (L704) is improper, and with it both the bound's
// constant ln Γ(a₀) and the evidence ∫ p(t|α) dα/α diverge (see doc.go).
type Prior struct {
	A0, B0 float64
}

func (p Prior) check() error {
	if !(p.A0 > 0) || !(p.B0 > 0) || math.IsInf(p.A0, 1) || math.IsInf(p.B0, 1) {
		return fmt.Errorf("linreg: prior a0 = %g, b0 = %g: both must be positive and finite", p.A0, p.B0)
	}
	return nil
}

// logDensity returns ln Gam(α | a0, b0) (PRML eq. B.26).
func (p Prior) logDensity(alpha float64) float64 {
	return p.A0*math.Log(p.B0) - numeric.LogGamma(p.A0) + (p.A0-1)*math.Log(alpha) - p.B0*alpha
}

// Polynomial returns the N × (order+1) design matrix of the polynomial
// basis φ_j(x) = x^j, j = 0…order (PRML section 1.1, the model of Fig. 10.9).
func Polynomial(x []float64, order int) *mat.Dense {
	if order < 0 {
		panic("linreg: negative polynomial order")
	}
	phi := mat.NewDense(len(x), order+1, nil)
	for i, xi := range x {
		v := 1.0
		for j := 0; j <= order; j++ {
			phi.Set(i, j, v)
			v *= xi
		}
	}
	return phi
}

// Problem is a regression data set t with design matrix Φ (N × M) and known
// noise precision β (PRML eq. 10.87), held in the form every method here
// works in: the thin singular value decomposition Φ = U diag(s) Vᵀ, K =
// min(N, M) singular values, so that ΦᵀΦ = V diag(s²) Vᵀ has the
// eigenvalues λ_i = s_i² (PRML eq. 3.87) and M − K more that are zero, with
// c = Uᵀt and the squared residual r² = ‖t − UUᵀt‖² outside the column
// space of Φ. In that basis every quantity of eqs. 10.99–10.112 and of the
// evidence (3.86) is a sum over K terms, exact for every α > 0 without the
// cancellation of tᵀt against mᵀΦᵀt or of the large and small eigenvalues
// of ΦᵀΦ that a polynomial of order 8 on (−5, 5) brings (condition numbers
// near 10¹⁶).
type Problem struct {
	n, m int
	beta float64
	s2   []float64  // λ_i = s_i², i < K
	c    []float64  // c = Uᵀt
	sc   []float64  // s_i c_i = (VᵀΦᵀt)_i
	r2   float64    // ‖t − UUᵀt‖²
	v    *mat.Dense // V, M × K
}

// NewProblem returns the problem of targets t, design matrix phi (N × M,
// one row φ(x_n)ᵀ per datum) and noise precision beta > 0.
func NewProblem(phi mat.Matrix, t []float64, beta float64) (*Problem, error) {
	n, m := phi.Dims()
	if n == 0 || m == 0 {
		return nil, errors.New("linreg: empty design matrix")
	}
	if len(t) != n {
		return nil, fmt.Errorf("linreg: %d targets for a design matrix of %d rows", len(t), n)
	}
	if !(beta > 0) || math.IsInf(beta, 1) {
		return nil, fmt.Errorf("linreg: noise precision beta = %g: must be positive and finite", beta)
	}
	for _, v := range t {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("linreg: a target is not finite")
		}
	}
	var svd mat.SVD
	if !svd.Factorize(phi, mat.SVDThin) {
		return nil, errors.New("linreg: the SVD of the design matrix did not converge")
	}
	s := svd.Values(nil)
	var u mat.Dense
	p := &Problem{n: n, m: m, beta: beta, v: &mat.Dense{}}
	svd.UTo(&u)
	svd.VTo(p.v)
	tv := mat.NewVecDense(n, t)
	c := mat.NewVecDense(len(s), nil)
	c.MulVec(u.T(), tv)
	res := mat.NewVecDense(n, nil)
	res.MulVec(&u, c)
	res.SubVec(tv, res)
	p.r2 = mat.Dot(res, res)
	for i, si := range s {
		p.s2 = append(p.s2, si*si)
		p.c = append(p.c, c.AtVec(i))
		p.sc = append(p.sc, si*c.AtVec(i))
	}
	return p, nil
}

// Dims returns N, the number of data, and M, the number of weights.
func (p *Problem) Dims() (n, m int) { return p.n, p.m }

// Beta returns the known noise precision β.
func (p *Problem) Beta() float64 { return p.beta }

// LogLik returns ln p(t | α) = ln ∫ p(t|w) p(w|α) dw, the log evidence at a
// fixed α (PRML eq. 3.86),
//
//	ln p(t|α) = (M/2) ln α + (N/2) ln β − (N/2) ln 2π − ½ ln|A| − E(m_N),
//	A = αI + βΦᵀΦ,  m_N = βA⁻¹Φᵀt,  E(m_N) = (β/2)‖t − Φm_N‖² + (α/2) m_Nᵀm_N,
//
// in the eigenbasis of ΦᵀΦ: ln|A| = Σ_i ln(α + βλ_i) + (M − K) ln α and
// E(m_N) = (β/2)(r² + Σ_i c_i² α/(α + βλ_i)).
func (p *Problem) LogLik(alpha float64) float64 { return p.logLikConst() + p.logLikAlpha(alpha) }

// logLikConst returns the terms of LogLik that do not depend on α,
// (N/2)(ln β − ln 2π) − (β/2) r².
func (p *Problem) logLikConst() float64 {
	return 0.5*float64(p.n)*(math.Log(p.beta)-ln2Pi) - 0.5*p.beta*p.r2
}

// logLikAlpha returns the terms of LogLik that depend on α,
// (K/2) ln α − ½ Σ_i [ln(α + βλ_i) + β c_i² α/(α + βλ_i)]: the (M/2) ln α
// of eq. 3.86 less the (M − K)/2 ln α of the zero eigenvalues in ½ ln|A|.
func (p *Problem) logLikAlpha(alpha float64) float64 {
	ll := 0.5 * float64(len(p.s2)) * math.Log(alpha)
	for i, l := range p.s2 {
		d := alpha + p.beta*l
		ll -= 0.5*math.Log(d) + 0.5*p.beta*p.c[i]*p.c[i]*alpha/d
	}
	return ll
}

// QuadSettings control LogEvidence. The zero value of every field means its
// default.
type QuadSettings struct {
	// Grid is the step, in ln α, of the scan that finds the range and the
	// peaks of the integrand. Default 0.25.
	Grid float64
	// RelTol is the relative tolerance of the quadrature. Default 1e-12.
	RelTol float64
}

// Constants of LogEvidence: the integrand must fall quadDrop nats below its
// peak at both ends of the range, and the adaptive partition has at most
// quadMaxIntervals intervals.
const (
	quadDrop         = 60
	quadMaxIntervals = 20000
)

// logEvidenceRange bounds the scan in ln α: α from e⁻⁷⁰⁰ to e⁷⁰⁰.
const logEvidenceRange = 700

// LogEvidence returns the exact log marginal likelihood
//
//	ln p(t) = ln ∫₀^∞ p(t|α) Gam(α|a₀, b₀) dα
//
// of the model of PRML eqs. 10.87–10.90 (w integrated out in closed form,
// LogLik, eq. 3.86), which the bound of VB.E (eq. 10.107) cannot exceed, and
// an estimate of the error of the quadrature in the log. The integral is
// taken over u = ln α, g(u) = ln p(t|eᵘ) + ln Gam(eᵘ) + u (computed without
// the cancellation of its large terms, see the code): a scan at steps
// of s.Grid locates the peaks of g, each refined by golden-section search
// and given breaks at ±{1, 2, 4, …, 32} times its width 1/√(−g”), so that
// a peak far narrower than the scan's step (a prior that nearly fixes α) is
// not stepped over; the range ends where g is 60 nats below its maximum;
// and exp(g − max g) is integrated by numeric.IntegrateBreaks. It returns an error
// if g has not fallen by 60 nats within α ∈ (e⁻⁷⁰⁰, e⁷⁰⁰) or the quadrature
// fails.
func (p *Problem) LogEvidence(prior Prior, s QuadSettings) (lnZ, errEst float64, err error) {
	if err := prior.check(); err != nil {
		return 0, 0, err
	}
	if s.Grid <= 0 {
		s.Grid = 0.25
	}
	if s.RelTol <= 0 {
		s.RelTol = 1e-12
	}
	// ln Gam(eᵘ|a₀, b₀) + u = C(a₀) − a₀(e^v − 1 − v), v = u − ln(a₀/b₀), with
	// C(a₀) = a₀ ln a₀ − a₀ − ln Γ(a₀): the form without the cancellation of
	// a₀ ln b₀, ln Γ(a₀) and a₀u, each near 10⁹ for a prior that nearly fixes α.
	// g leaves out C(a₀) and the terms of ln p(t|α) that do not depend on
	// α, (β/2) r² among them: a residual far outside the span of Φ makes
	// them large (10⁵ nats for a cubic fitted by a constant), and their
	// round-off, carried into every value of exp(g − max g), would exceed
	// the quadrature's relative tolerance.
	u0 := math.Log(prior.A0 / prior.B0)
	g := func(u float64) float64 {
		v := u - u0
		return p.logLikAlpha(math.Exp(u)) - prior.A0*(math.Expm1(v)-v)
	}
	n := int(2*logEvidenceRange/s.Grid) + 1
	us, gs := make([]float64, n), make([]float64, n)
	top := 0
	for i := range us {
		us[i] = -logEvidenceRange + float64(i)*s.Grid
		gs[i] = g(us[i])
		if gs[i] > gs[top] {
			top = i
		}
	}
	// Refine every local maximum of the scan, and the global one.
	var peaks []float64
	gmax := gs[top]
	for i := 1; i < n-1; i++ {
		if gs[i] >= gs[i-1] && gs[i] >= gs[i+1] && gs[i] > gmax-quadDrop {
			u := goldenMax(g, us[i-1], us[i+1])
			peaks = append(peaks, u)
			gmax = math.Max(gmax, g(u))
		}
	}
	// The range: every scan point and every peak within quadDrop of the
	// maximum, and one step more on each side.
	lo, hi := n, -1
	for i, v := range gs {
		if v > gmax-quadDrop {
			lo, hi = min(lo, i), max(hi, i)
		}
	}
	for _, u := range peaks {
		if g(u) > gmax-quadDrop {
			i := int(math.Floor((u + logEvidenceRange) / s.Grid))
			lo, hi = min(lo, i), max(hi, i+1)
		}
	}
	if lo <= 0 || hi >= n-1 {
		return 0, 0, fmt.Errorf("linreg: the integrand over ln α has not fallen %d nats below its peak within α ∈ (e^-%d, e^%d): is the prior proper?", quadDrop, logEvidenceRange, logEvidenceRange)
	}
	a, b := us[lo-1], us[hi+1]
	breaks := []float64{}
	for u := a; u <= b; u += s.Grid {
		breaks = append(breaks, u)
	}
	for _, u := range peaks {
		h := 1e-4
		curv := (g(u+h) - 2*g(u) + g(u-h)) / (h * h)
		w := s.Grid
		if curv < 0 {
			w = 1 / math.Sqrt(-curv)
		}
		breaks = append(breaks, u)
		for k := 1.0; k <= 32; k *= 2 {
			breaks = append(breaks, u-k*w, u+k*w)
		}
	}
	breaks = sortedWithin(breaks, a, b)
	f := func(u float64) float64 { return math.Exp(g(u) - gmax) }
	v, e, err := numeric.IntegrateBreaks(f, breaks, numeric.QuadTol{Rel: s.RelTol, MaxIntervals: quadMaxIntervals})
	if err != nil {
		return 0, 0, fmt.Errorf("linreg: evidence quadrature: %w", err)
	}
	return p.logLikConst() + gmax + math.Log(v) + gammaLogConst(prior.A0), e / v, nil
}

// gammaLogConst returns a ln a − a − ln Γ(a), by Stirling's series
// ½ ln(a/2π) − 1/(12a) + 1/(360a³) − 1/(1260a⁵) + 1/(1680a⁷) for a ≥ 10
// (truncation error below 10⁻¹²), where the direct form would lose the
// digits of a ln a against ln Γ(a).
func gammaLogConst(a float64) float64 {
	if a < 10 {
		return a*math.Log(a) - a - numeric.LogGamma(a)
	}
	r := 1 / a
	r2 := r * r
	return 0.5*math.Log(a/(2*math.Pi)) - r*(1.0/12-r2*(1.0/360-r2*(1.0/1260-r2/1680)))
}

// goldenMax returns the maximiser of g on [a, b] by golden-section search,
// to a bracket of 1e-10 relative to the scale of ln α.
func goldenMax(g func(float64) float64, a, b float64) float64 {
	const r = 0.6180339887498949
	c, d := b-r*(b-a), a+r*(b-a)
	gc, gd := g(c), g(d)
	for b-a > 1e-10*math.Max(1, math.Abs(a)) {
		if gc >= gd {
			b, d, gd = d, c, gc
			c = b - r*(b-a)
			gc = g(c)
		} else {
			a, c, gc = c, d, gd
			d = a + r*(b-a)
			gd = g(d)
		}
	}
	return (a + b) / 2
}

// sortedWithin returns the values of xs inside [a, b], with a and b, sorted
// and without points closer than 1e-12 to one another.
func sortedWithin(xs []float64, a, b float64) []float64 {
	out := []float64{a, b}
	for _, x := range xs {
		if x > a && x < b {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	keep := out[:1]
	for _, x := range out[1:] {
		if x-keep[len(keep)-1] > 1e-12 {
			keep = append(keep, x)
		}
	}
	if keep[len(keep)-1] < b {
		keep[len(keep)-1] = b
	}
	return keep
}
