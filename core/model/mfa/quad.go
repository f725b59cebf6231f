package mfa

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// QuadSettings configure Annealed.LogEvidenceQuad. The zero value of every
// field means its default.
type QuadSettings struct {
	// Margin is how far, in nats, the log integrand ln p(Λ) p(y|Λ) must
	// lie below its peak everywhere on the boundary of the box; default 40
	// (the box is widened by half until it does).
	Margin float64
	// Step is the spacing of the quadrature's breaks in the bulk, as a
	// fraction of the smallest posterior standard deviation at the mode
	// (and of the prior's scale √(b*/(a*+p/2)) when the integrand at Λ = 0
	// is within Margin of the peak); default 0.5.
	Step float64
	// Bulk is the half-width of the bulk about the mirrored modes, in
	// posterior standard deviations at the mode; default 12.
	Bulk float64
	// Tol is the tolerance of the outer adaptive integral (the inner ones
	// are ten times tighter); default Rel 1e-10, Abs 1e-14.
	Tol numeric.QuadTol
}

func (s QuadSettings) withDefaults() QuadSettings {
	if s.Margin <= 0 {
		s.Margin = 40
	}
	if s.Step <= 0 {
		s.Step = 0.5
	}
	if s.Bulk <= 0 {
		s.Bulk = 12
	}
	if s.Tol.Rel <= 0 {
		s.Tol.Rel = 1e-10
	}
	if s.Tol.Abs <= 0 {
		s.Tol.Abs = 1e-14
	}
	return s
}

// QuadResult is the exact evidence of a one-factor analyser in two
// dimensions by quadrature, and the posterior moments of the
// sign-invariant ΛΛᵀ.
type QuadResult struct {
	// LnZ is ln p(y) = ln ∫ p(Λ) p(y|Λ) dΛ over the whole plane.
	LnZ float64
	// ErrEst is the quadrature's estimate of |error| of LnZ in nats: the
	// outer rule's error estimate plus the integral of the inner rules'
	// error estimates, over Z.
	ErrEst float64
	// Mode is one of the two mirrored modes ±Λ̂ of the posterior, and
	// LogPeak the log integrand there (or at a higher point of the scan).
	Mode    []float64
	LogPeak float64
	// Half holds the half-widths of the box [−Half_0, Half_0] ×
	// [−Half_1, Half_1] integrated over; EdgeGap is how far below LogPeak
	// the log integrand is at its largest on the box's boundary (at least
	// QuadSettings.Margin).
	Half    [2]float64
	EdgeGap float64
	// Second is E[ΛΛᵀ | y] (2×2, row-major) and ProdVar the posterior
	// variances Var[Λ_qΛ_t | y] of its entries (2×2).
	Second, ProdVar []float64
	// Evaluations counts the evaluations of the integrand.
	Evaluations int
}

// LogEvidenceQuad returns the evidence ln p(y) of the analyser (see
// Annealed: ν, μ and x integrated out in closed form, so the integral is
// over Λ alone) for k = 1 factor in p = 2 dimensions, by iterated adaptive
// Gauss–Kronrod quadrature (numeric.IntegrateVecBreaks over Λ_1 of the
// same over Λ_2) of exp(ln p(Λ) + ln p(y|Λ) − LogPeak) on a box about the
// origin that holds both mirrored modes ±Λ̂ (the integrand is symmetric
// under Λ ↦ −Λ; the whole plane is integrated, no factor 2 is applied).
//
// The box: Λ̂ is found by L-BFGS (numeric.LBFGS) from the
// maximum-likelihood loadings (MaxLikelihood), its posterior standard
// deviations σ_q from the Hessian by central differences of the gradient;
// the bulk is |Λ̂_q| + Bulk·σ_q on each axis, with breaks every Step·σ_min,
// and the box is widened by half, the breaks growing geometrically (ratio
// 1.5) beyond the bulk, until the log integrand on all four edges (1001
// points each) is at least Margin nats below the peak. A 201×201 scan of
// the box raises LogPeak if it finds a higher point. It returns an error
// for a target other than k = 1, p = 2, a box that does not close within
// 10⁶ prior scales, or a quadrature that does not meet its tolerance.
func (a *Annealed) LogEvidenceQuad(set QuadSettings) (QuadResult, error) {
	var res QuadResult
	if a.p != 2 || a.k != 1 {
		return res, fmt.Errorf("mfa: LogEvidenceQuad is for k = 1, p = 2 (got k = %d, p = %d)", a.k, a.p)
	}
	set = set.withDefaults()
	g := func(x []float64) float64 { return a.LogProb(x) }
	mode, err := a.posteriorMode()
	if err != nil {
		return res, err
	}
	peak := g(mode)
	sd, ok := a.modeSD(mode)
	priorScale := math.Sqrt(a.b / a.tShape)
	if !ok {
		sd = [2]float64{priorScale, priorScale}
	}
	h := set.Step * min(sd[0], sd[1])
	if g0 := g([]float64{0, 0}); g0 > peak-set.Margin {
		h = min(h, set.Step*priorScale)
		peak = max(peak, g0)
	}
	var bulk, half [2]float64
	for q := range 2 {
		bulk[q] = math.Abs(mode[q]) + set.Bulk*sd[q]
		half[q] = bulk[q]
	}
	x := make([]float64, 2)
	edge := func() float64 {
		m := math.Inf(-1)
		for j := 0; j <= 1000; j++ {
			t := -1 + 2*float64(j)/1000
			for _, pt := range [][2]float64{{t * half[0], half[1]}, {t * half[0], -half[1]}, {half[0], t * half[1]}, {-half[0], t * half[1]}} {
				x[0], x[1] = pt[0], pt[1]
				m = max(m, g(x))
			}
		}
		return m
	}
	for it := 0; ; it++ {
		if it == 100 || half[0] > 1e6*priorScale+1e6*bulk[0] {
			return res, errors.New("mfa: LogEvidenceQuad: the integrand does not fall Margin nats below its peak on any box")
		}
		for j := 0; j <= 200; j++ {
			for i := 0; i <= 200; i++ {
				x[0], x[1] = half[0]*(-1+float64(j)/100), half[1]*(-1+float64(i)/100)
				peak = max(peak, g(x))
			}
		}
		if e := edge(); e <= peak-set.Margin {
			res.EdgeGap = peak - e
			break
		}
		half[0], half[1] = 1.5*half[0], 1.5*half[1]
	}
	var breaks [2][]float64
	for q := range 2 {
		breaks[q] = quadBreaks(bulk[q], half[q], h)
	}
	const m = 8 // 1, Λ₁², Λ₁Λ₂, Λ₂², Λ₁⁴, Λ₁²Λ₂², Λ₂⁴, the inner error
	inner := numeric.QuadTol{Abs: set.Tol.Abs / 10, Rel: set.Tol.Rel / 10, MaxIntervals: set.Tol.MaxIntervals}
	var firstErr error
	var row []float64
	pt := make([]float64, 2)
	evals := 0
	val, errEst, err := numeric.IntegrateVecBreaks(nil, m, func(u float64, out []float64) {
		var ie []float64
		var e error
		row, ie, e = numeric.IntegrateVecBreaks(row, m-1, func(v float64, o []float64) {
			pt[0], pt[1] = u, v
			evals++
			w := math.Exp(g(pt) - peak)
			u2, v2 := u*u, v*v
			o[0], o[1], o[2], o[3] = w, w*u2, w*u*v, w*v2
			o[4], o[5], o[6] = w*u2*u2, w*u2*v2, w*v2*v2
		}, breaks[1], inner)
		if e != nil && firstErr == nil {
			firstErr = e
		}
		copy(out, row)
		out[m-1] = 0
		if ie != nil {
			out[m-1] = ie[0]
		}
	}, breaks[0], set.Tol)
	if err == nil {
		err = firstErr
	}
	if err != nil {
		return res, fmt.Errorf("mfa: LogEvidenceQuad: %w", err)
	}
	if !(val[0] > 0) {
		return res, errors.New("mfa: LogEvidenceQuad: the integral is not positive")
	}
	res.LnZ = peak + math.Log(val[0])
	res.ErrEst = (errEst[0] + math.Abs(val[m-1])) / val[0]
	res.Mode, res.LogPeak, res.Half, res.Evaluations = mode, peak, half, evals
	e := func(j int) float64 { return val[j] / val[0] }
	res.Second = []float64{e(1), e(2), e(2), e(3)}
	res.ProdVar = []float64{e(4) - e(1)*e(1), e(5) - e(2)*e(2), e(5) - e(2)*e(2), e(6) - e(3)*e(3)}
	return res, nil
}

// quadBreaks returns the breaks of one axis: every h (at most) over
// [−bulk, bulk], then intervals growing by 1.5 out to ±half.
func quadBreaks(bulk, half, h float64) []float64 {
	n := int(math.Ceil(2 * bulk / h))
	step := 2 * bulk / float64(n)
	var out []float64
	for x, w := bulk, step; x < half; w *= 1.5 {
		x = min(x+w, half)
		out = append(out, -x)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	for i := 0; i <= n; i++ {
		out = append(out, -bulk+float64(i)*step)
	}
	for x, w := bulk, step; x < half; w *= 1.5 {
		x = min(x+w, half)
		out = append(out, x)
	}
	return out
}

// PosteriorMode returns a mode Λ̂ of ln p(Λ) + ln p(y|Λ) (one of the
// mirrored pair for k = 1) by L-BFGS from the maximum-likelihood
// loadings, or from 0.1·√ψ when those are 0.
func (a *Annealed) PosteriorMode() ([]float64, error) { return a.posteriorMode() }

func (a *Annealed) posteriorMode() ([]float64, error) {
	x, _, _, err := a.MaxLikelihood()
	if err != nil {
		return nil, err
	}
	zero := true
	for _, v := range x {
		zero = zero && v == 0
	}
	if zero {
		for q := 0; q < a.p; q++ {
			x[q*a.k] = 0.1 * math.Sqrt(a.psi[q])
		}
	}
	gl := make([]float64, len(x))
	var opt numeric.LBFGS
	opt.GradTol = 1e-9
	_, err = opt.Minimize(func(th, grad []float64) float64 {
		f := -a.LogProb(th)
		if grad != nil {
			a.GradLogPrior(grad, th)
			a.GradLogLik(gl, th)
			for i := range grad {
				grad[i] = -grad[i] - gl[i]
			}
		}
		if math.IsNaN(f) {
			return math.Inf(1)
		}
		return f
	}, x)
	if err != nil {
		return nil, fmt.Errorf("mfa: posterior mode: %w", err)
	}
	return x, nil
}

// NegHessian returns −∇∇(ln p(Λ) + ln p(y|Λ)) at theta (Dim×Dim,
// row-major) by central differences of the closed-form gradient (step
// 10⁻⁵·max(1, |θ_j|)), symmetrised.
func (a *Annealed) NegHessian(theta []float64) []float64 {
	d := a.Dim()
	hs := make([]float64, d*d)
	x := append([]float64(nil), theta...)
	gp, gm, tmp := make([]float64, d), make([]float64, d), make([]float64, d)
	grad := func(dst []float64) {
		a.GradLogPrior(dst, x)
		a.GradLogLik(tmp, x)
		for i := range dst {
			dst[i] += tmp[i]
		}
	}
	for j := range d {
		e := 1e-5 * max(1, math.Abs(theta[j]))
		x[j] = theta[j] + e
		grad(gp)
		x[j] = theta[j] - e
		grad(gm)
		x[j] = theta[j]
		for i := range d {
			hs[i*d+j] = -(gp[i] - gm[i]) / (2 * e)
		}
	}
	for i := range d {
		for j := range i {
			v := 0.5 * (hs[i*d+j] + hs[j*d+i])
			hs[i*d+j], hs[j*d+i] = v, v
		}
	}
	return hs
}

// modeSD returns the posterior standard deviations √((−∇∇)⁻¹)_qq at the
// mode, false if −∇∇ is not positive definite there.
func (a *Annealed) modeSD(mode []float64) ([2]float64, bool) {
	h := a.NegHessian(mode)
	inv := make([]float64, 4)
	if _, ok := numeric.InverseSPD(inv, h, 2); !ok {
		return [2]float64{}, false
	}
	return [2]float64{math.Sqrt(inv[0]), math.Sqrt(inv[3])}, true
}
