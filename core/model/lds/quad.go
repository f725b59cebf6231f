package lds

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// QuadSettings configure LogEvidenceQuad. The zero value of every field
// means its documented default.
type QuadSettings struct {
	// Points is the number of points of the final trapezoid rule on the
	// axis ln ρ, and, rounded up to a multiple of 3, of the midpoint rule
	// on v = u^{1/3}; it must be odd (so that every other point is the rule of
	// twice the step). Default 129.
	Points int
	// Scan is the number of points on each axis of the two coarse scans
	// that locate the posterior's box. Default 40.
	Scan int
}

// QuadResult is the outcome of LogEvidenceQuad.
type QuadResult struct {
	// LnZ is ln p(y) by the trapezoid rule on the final grid of step h.
	LnZ float64
	// Err is the difference from the coarser rule on a subset of the lines
	// (steps 3h in v, 2h in ln ρ), plus the adaptive rules' error
	// estimates over A relative to the total: for an analytic integrand
	// that has decayed at the box's faces these rules converge
	// geometrically, so Err bounds the error of LnZ with a wide margin.
	Err float64
	// Evals counts the evaluations of ln p(θ) + ln p(y|θ) (scans, lines
	// and the rules over A), each one scalar Kalman filter pass over every
	// sequence.
	Evals int
	// Lo and Hi are the box (A, u, ln ρ) of the final grid, u = C√(ργ)
	// from 0 (each line's A range lies within it).
	Lo, Hi [3]float64
}

// quadDrop is how far below the peak, in nats, a scan's region reaches;
// quadFace how far below the final grid's peak its faces must lie.
// Lines whose scan over A stays quadSkip nats below the scans' peak are
// left out.
const (
	quadDrop = 40
	quadFace = 30
	quadSkip = 100
)

// LogEvidenceQuad returns the marginal likelihood
//
//	ln p(y | α, γ, a, b, μ_0, Σ_0) = ln ∫ p(y | θ) p(θ) dθ
//
// of the LDS with one hidden dimension and one output (k = p = 1, no
// inputs; Beal 2003 eqs. 5.2-5.13) by quadrature over θ = (A, C, ln ρ),
// the coordinates of Annealed: p(θ) is Annealed.LogPrior (priors eqs.
// 5.8, 5.10, 5.12 with the Jacobian of ln ρ) and p(y | θ) the Kalman
// filter's prediction-error decomposition (eq. 5.83; logLik1). The
// hyperparameters are h's, zero fields taking their defaults.
//
// The sign symmetry C ↦ −C (with x ↦ −x; μ_0 must then be 0, which
// LogEvidenceQuad requires) leaves p(y | θ) and p(θ) unchanged, so the
// integral is twice that over C ≥ 0, and the trapezoid rule on [0, C_max]
// with the half weight at C = 0, doubled, is the rule on the symmetric
// grid. The integral runs over u = C √(ργ), the output weight in units of
// its prior sd given ρ (dC = e^{−ln ρ/2} γ^{−½} du), so that the prior's
// extent in u does not depend on ρ. The box is found by two scans of
// Scan³ points: the first over A within 12 prior sd, u in [0, 12], ln ρ
// from 30 below −ln ȳ² to the prior's tail beyond (a + T + 100)/b; each
// next one over the last's region within 40 nats of its peak, padded by two
// steps, or, when that region reaches a face of the box (other than u =
// 0), over the box grown by half its width beyond that face; after two
// scans whose region stayed inside, the integral is the midpoint rule in v
// = u^{1/3} (du = 3v² dv) by the trapezoid rule in ln ρ on about Points²
// lines of the last region. The midpoint rule needs no point at u = 0,
// where ln p(y | θ) does not depend on A and the integral over A jumps
// from its limit as u → 0 (where |A| > 1 is cut off by the growth of the
// state) to the prior's whole mass, a set of no measure that a point at
// u = 0 would weigh by its step; the cube root crowds the points where
// that limit is approached, fast but not smoothly. The integral over A on
// each line the adaptive Gauss–Kronrod rule of numeric.IntegrateBreaks
// (relative tolerance 10⁻¹⁰, absolute 10⁻¹⁴ of the scans' peak; a line
// whose scan stays 100 nats below that peak left out) on the line's own
// range (its points within 40
// nats of its largest on a scan of Scan points over the region's A, broken
// at that point and a scan step either side; A's posterior is as wide as
// its prior where u ≈ 0 and narrow elsewhere), with Err from the rule of
// steps 3h in v and 2h in ln ρ on a subset of the lines, and the adaptive
// rules' estimates.
// It returns an error if 10 scans do not settle, if the final grid's faces
// are within 30 nats of its peak (the posterior is not inside the box), or
// for data it does not cover.
func LogEvidenceQuad(data []Sequence, h Hyper, set QuadSettings) (QuadResult, error) {
	if set.Points == 0 {
		set.Points = 129
	}
	if set.Scan == 0 {
		set.Scan = 40
	}
	if set.Points < 5 || set.Points%2 == 0 {
		return QuadResult{}, fmt.Errorf("lds: LogEvidenceQuad: Points = %d, want an odd number ≥ 5", set.Points)
	}
	if set.Scan < 8 {
		return QuadResult{}, fmt.Errorf("lds: LogEvidenceQuad: Scan = %d, want ≥ 8", set.Scan)
	}
	a, err := NewAnnealed(data, 1, h)
	if err != nil {
		return QuadResult{}, err
	}
	if a.p != 1 {
		return QuadResult{}, fmt.Errorf("lds: LogEvidenceQuad is for one output, the data have %d", a.p)
	}
	if a.hyper.Mu0[0] != 0 {
		return QuadResult{}, errors.New("lds: LogEvidenceQuad needs μ_0 = 0 (the sign symmetry in C)")
	}
	mu0, lam0 := a.hyper.Mu0[0], a.hyper.Lambda0[0]
	var yy float64
	var n int
	for _, y := range a.y {
		for _, v := range y {
			yy += v * v
		}
		n += len(y)
	}
	yy /= float64(n)
	var res QuadResult
	th := make([]float64, 3)
	hh := a.hyper
	lnSqrtG := 0.5 * math.Log(hh.Gamma[0])
	// g is ln p(θ) + ln p(y | θ) + ln |∂C/∂u| at (A, u, ln ρ).
	g := func(am, u, lr float64) float64 {
		res.Evals++
		c := u * math.Exp(-lr/2-lnSqrtG)
		th[0], th[1], th[2] = am, c, lr
		rho := math.Exp(lr)
		ll := 0.0
		for _, y := range a.y {
			ll += logLik1(y, am, c, rho, mu0, lam0)
		}
		return a.LogPrior(th) + ll - lr/2 - lnSqrtG
	}
	lo := [3]float64{-12 / math.Sqrt(hh.Alpha[0]), 0, math.Log(1/(yy+1e-12)) - 30}
	hi := [3]float64{12 / math.Sqrt(hh.Alpha[0]), 12, math.Log((hh.NoiseShape+float64(n)+100)/hh.NoiseRate) + 1}
	var scanPeak float64
	for it, shrunk := 0, 0; shrunk < 2; it++ {
		if it == quadScans {
			return res, fmt.Errorf("lds: LogEvidenceQuad: no box holds the posterior after %d scans (last A [%.3g, %.3g], u [%.3g, %.3g], ln ρ [%.3g, %.3g])",
				it, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2])
		}
		nlo, nhi, touched, pk, err := quadScan(g, lo, hi, set.Scan)
		if err != nil {
			return res, err
		}
		grown := false
		for d := range 3 {
			w := hi[d] - lo[d]
			if touched[d][0] {
				lo[d], grown = lo[d]-w/2, true
			}
			if touched[d][1] {
				hi[d], grown = hi[d]+w/2, true
			}
		}
		if !grown {
			lo, hi, scanPeak = nlo, nhi, pk
			shrunk++
		}
	}
	res.Lo, res.Hi = lo, hi
	// The midpoint rule in v = u^{1/3} by the trapezoid rule in ln ρ, each
	// line's integral over A by the adaptive rule of numeric.IntegrateBreaks
	// on the line's own range (its points within 40 nats of its largest on
	// a scan of Scan points over the box's A, padded by two steps), broken
	// at that largest point and a scan step either side: A's posterior is
	// as wide as its prior where u ≈ 0 and narrow elsewhere, and a line can
	// hold a narrow peak on a broad base. The coarser rule takes the lines
	// j ≡ 1 (mod 3) (the midpoints of step 3h) and every other one in ln ρ.
	// Exponentials are taken about a running reference.
	np, ns := set.Points, set.Scan
	nu := 3 * ((np + 2) / 3)
	// u = v³ on the grid of v: dense near u = 0, where the integral over
	// A changes fast (see LogEvidenceQuad), du = 3v² dv.
	vlo, vhi := math.Cbrt(lo[1]), math.Cbrt(hi[1])
	dv := (vhi - vlo) / float64(nu)
	dl := (hi[2] - lo[2]) / float64(np-1)
	ds := (hi[0] - lo[0]) / float64(ns-1)
	scan := make([]float64, ns)
	peak, face := math.Inf(-1), math.Inf(-1)
	ref := math.NaN()
	var sh, s2h, sErr float64
	breaks := make([]float64, 0, 5)
	for j := range nu {
		v := vlo + (float64(j)+0.5)*dv
		u, jac := v*v*v, 3*v*v
		for l := range np {
			lr := lo[2] + float64(l)*dl
			lineMax, iMax := math.Inf(-1), 0
			for i := range scan {
				scan[i] = g(lo[0]+float64(i)*ds, u, lr)
				if scan[i] > lineMax {
					lineMax, iMax = scan[i], i
				}
			}
			face = math.Max(face, math.Max(scan[0], scan[ns-1]))
			if j == nu-1 || (j == 0 && lo[1] > 0) || l == 0 || l == np-1 {
				face = math.Max(face, lineMax)
			}
			if math.IsNaN(lineMax) || lineMax < scanPeak-quadSkip {
				continue
			}
			imin, imax := ns, -1
			for i, v := range scan {
				if v >= lineMax-quadDrop {
					imin, imax = min(imin, i), max(imax, i)
				}
			}
			alo := max(lo[0], lo[0]+float64(imin-2)*ds)
			ahi := min(hi[0], lo[0]+float64(imax+2)*ds)
			am := lo[0] + float64(iMax)*ds
			breaks = append(breaks[:0], alo)
			for _, b := range []float64{am - ds, am, am + ds, ahi} {
				if b > breaks[len(breaks)-1] && b <= ahi {
					breaks = append(breaks, b)
				}
			}
			// The integrand in units of e^{scans' peak}, to relative 10⁻¹⁰
			// and absolute 10⁻¹⁴: a line far below the peak needs no
			// digits. A line whose rule misses its tolerance keeps its
			// value, its error estimate counted in Err.
			val, e, err := numeric.IntegrateBreaks(func(a float64) float64 {
				x := g(a, u, lr)
				peak = math.Max(peak, x)
				return math.Exp(x - scanPeak)
			}, breaks, numeric.QuadTol{Rel: 1e-10, Abs: 1e-14})
			if err != nil && (math.IsNaN(val) || math.IsInf(val, 0) || math.IsNaN(e) || math.IsInf(e, 0)) {
				return res, fmt.Errorf("lds: LogEvidenceQuad: the integral over A at u = %.4g, ln ρ = %.4g: %w", u, lr, err)
			}
			if val <= 0 {
				continue
			}
			lnL := scanPeak + math.Log(val)
			if math.IsNaN(ref) {
				ref = lnL
			}
			if lnL-ref > 600 {
				f := math.Exp(ref - lnL)
				sh, s2h, sErr, ref = sh*f, s2h*f, sErr*f, lnL
			}
			w := trapW(l, np) * jac
			sh += w * math.Exp(lnL-ref)
			sErr += w * math.Exp(scanPeak-ref) * e
			if j%3 == 1 && l%2 == 0 {
				s2h += 6 * trapW(l/2, (np+1)/2) * jac * math.Exp(lnL-ref)
			}
		}
	}
	if math.IsInf(peak, -1) || math.IsNaN(peak) {
		return res, errors.New("lds: LogEvidenceQuad: the integrand is not finite on the grid")
	}
	if face > peak-quadFace {
		return res, fmt.Errorf("lds: LogEvidenceQuad: the box's faces are %.3g nats below the peak (want ≥ %d): the posterior is not inside it", peak-face, quadFace)
	}
	vol := math.Log(2) + math.Log(dv) + math.Log(dl)
	res.LnZ = ref + math.Log(sh) + vol
	res.Err = math.Abs(res.LnZ-(ref+math.Log(s2h)+vol)) + sErr/sh
	return res, nil
}

// trapW is the trapezoid weight of point i of n: ½ at the ends, else 1.
func trapW(i, n int) float64 {
	if i == 0 || i == n-1 {
		return 0.5
	}
	return 1
}

// quadScans is the most scans LogEvidenceQuad makes.
const quadScans = 10

// quadScan evaluates g on n³ points of the box [lo, hi] and returns the
// bounding box of the points within quadDrop nats of the largest value,
// padded by two steps on each side (u clamped at 0), and which faces
// (low, high on each axis; never u = 0) that region reaches.
func quadScan(g func(a, c, lr float64) float64, lo, hi [3]float64, n int) (nlo, nhi [3]float64, touched [3][2]bool, peak float64, err error) {
	var step [3]float64
	for d := range 3 {
		step[d] = (hi[d] - lo[d]) / float64(n-1)
	}
	vals := make([]float64, n*n*n)
	peak = math.Inf(-1)
	for i := range n {
		for j := range n {
			for l := range n {
				v := g(lo[0]+float64(i)*step[0], lo[1]+float64(j)*step[1], lo[2]+float64(l)*step[2])
				vals[(i*n+j)*n+l] = v
				if v > peak {
					peak = v
				}
			}
		}
	}
	if math.IsInf(peak, -1) || math.IsNaN(peak) {
		return lo, hi, touched, peak, errors.New("lds: LogEvidenceQuad: the integrand is not finite on the scan")
	}
	imin := [3]int{n, n, n}
	imax := [3]int{-1, -1, -1}
	for i := range n {
		for j := range n {
			for l := range n {
				if vals[(i*n+j)*n+l] < peak-quadDrop {
					continue
				}
				for d, x := range [3]int{i, j, l} {
					imin[d], imax[d] = min(imin[d], x), max(imax[d], x)
				}
			}
		}
	}
	for d := range 3 {
		touched[d] = [2]bool{imin[d] == 0 && d != 1, imax[d] == n-1}
		nlo[d] = lo[d] + float64(imin[d]-2)*step[d]
		nhi[d] = lo[d] + float64(imax[d]+2)*step[d]
	}
	nlo[1] = max(nlo[1], 0)
	return nlo, nhi, touched, peak, nil
}

// logLik1 returns ln p(y_{1:T} | A, C, ρ) of the scalar LDS x_0 ~ N(μ_0,
// 1/λ_0), x_t = A x_{t−1} + w_t, y_t = C x_t + v_t, w_t ~ N(0, 1), v_t ~
// N(0, 1/ρ), by the Kalman filter's prediction-error decomposition (eq.
// 5.83): with the predicted mean m and variance P of x_t,
//
//	m ← A m,  P ← A² P + 1,  S = C² P + 1/ρ,  e = y_t − C m,
//	ln p(y_t | y_{1:t−1}) = −½ (ln 2πS + e²/S),
//	m ← m + (P C / S) e,  P ← P − P² C²/S.
//
// It is Annealed.LogLik for k = p = 1 without the general smoother's
// overhead (TestLogLik1); ln S is accumulated as the log of a product,
// renormalised to keep it in range.
func logLik1(y []float64, a, c, rho, mu0, lam0 float64) float64 {
	m, p := mu0, 1/lam0
	r := 1 / rho
	var q, prod float64 = 0, 1
	var logS float64
	for t, yt := range y {
		m = a * m
		p = a*a*p + 1
		s := c*c*p + r
		e := yt - c*m
		q += e * e / s
		prod *= s
		if t%16 == 15 {
			logS += math.Log(prod)
			prod = 1
		}
		k := p * c / s
		m += k * e
		p -= k * c * p
	}
	logS += math.Log(prod)
	ll := -0.5 * (float64(len(y))*math.Log(2*math.Pi) + logS + q)
	if math.IsNaN(ll) {
		return math.Inf(-1)
	}
	return ll
}
