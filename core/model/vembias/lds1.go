package vembias

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// LDS1Prior is the prior of Beal (2003)'s linear dynamical system with
// one hidden state and one output and no inputs (thesis eqs. 5.2-5.13
// with k = p = 1, state noise Q = 1): A ~ N(0, 1/α), C | ρ ~ N(0,
// 1/(ργ)), ρ ~ Ga(a, b) (shape, rate), x_0 ~ N(0, Σ_0). The prior mean of
// x_0 is 0, so that (C, x) and (−C, −x) have the same joint density: the
// posterior is symmetric in C, which LDS1Quadrature uses.
type LDS1Prior struct {
	Alpha, Gamma float64 // ARD precisions of A and of C
	A, B         float64 // shape and rate of the noise precision ρ
	Sigma0       float64 // Σ_0, the prior variance of x_0
}

// Check returns an error unless every hyperparameter is positive.
func (p LDS1Prior) Check() error {
	for _, v := range []float64{p.Alpha, p.Gamma, p.A, p.B, p.Sigma0} {
		if !(v > 0) || math.IsInf(v, 1) {
			return fmt.Errorf("vembias: LDS1Prior %+v: every hyperparameter must be positive and finite", p)
		}
	}
	return nil
}

// LDS1LogLik returns ln p(y_{1:T} | A, C, ρ) of the scalar linear dynamical
// system x_0 ~ N(0, Σ_0), x_t = A x_{t−1} + N(0, 1), y_t = C x_t +
// N(0, 1/ρ), by the Kalman filter (thesis eqs. 5.77-5.83 with k = p = 1).
func LDS1LogLik(y []float64, a, c, rho, sigma0 float64) float64 {
	m, P := 0.0, sigma0
	r := 1 / rho
	var quad float64
	// Σ ln s_t is taken as the log of a running product, flushed before
	// it can overflow or underflow (s_t ≥ 1/ρ > 0): one log per ~30 steps.
	logDet, prod := 0.0, 1.0
	for _, yt := range y {
		m, P = a*m, a*a*P+1
		s := c*c*P + r
		e := yt - c*m
		quad += e * e / s
		prod *= s
		if prod > 1e150 || prod < 1e-150 {
			logDet += math.Log(prod)
			prod = 1
		}
		k := P * c / s
		m += k * e
		P -= k * c * P
	}
	return -0.5 * (float64(len(y))*ln2Pi + logDet + math.Log(prod) + quad)
}

// LogJoint returns ln p(y, A, C, ln ρ) = ln p(y | A, C, ρ) + ln p(A) +
// ln p(C | ρ) + ln p(ρ) + ln ρ: the joint density in the coordinates
// (A, C, u = ln ρ) of LDS1Quadrature (the last term is the Jacobian).
func (p LDS1Prior) LogJoint(y []float64, a, c, u float64) float64 {
	rho := math.Exp(u)
	lp := 0.5*(math.Log(p.Alpha)-ln2Pi) - 0.5*p.Alpha*a*a
	lp += 0.5*(math.Log(rho*p.Gamma)-ln2Pi) - 0.5*rho*p.Gamma*c*c
	lg, _ := math.Lgamma(p.A)
	lp += p.A*math.Log(p.B) - lg + (p.A-1)*u - p.B*rho + u
	return lp + LDS1LogLik(y, a, c, rho, p.Sigma0)
}

// LDS1Posterior is the exact posterior of (A, C, ρ) summarised.
type LDS1Posterior struct {
	LogEvidence float64 // ln p(y) = ln ∫ p(y | θ) p(θ) dθ
	MeanA, VarA float64 // the posterior mean and variance of A
	// MeanAbsC, SDAbsC and MeanU, SDU are the posterior mean and standard
	// deviation of c̃ = |C|√(ργ), C standardised by its prior given ρ, and
	// of u = ln ρ (the box of the second pass).
	MeanAbsC, SDAbsC float64
	MeanU, SDU       float64
	// EdgeRatio is the largest density on a face of the box (the face
	// C = 0 aside, inside the support) relative to the largest inside: a
	// check that the box holds the mass.
	EdgeRatio float64
	Points    int // evaluations of the joint density

	mean [3]float64 // posterior mean of (A, c̃, u)
	cov  [9]float64 // and covariance
}

// LDS1Quadrature returns the exact posterior of (A, C, ρ) and the log
// evidence by tensor-product trapezoid quadrature in (A, c̃, u) with
// u = ln ρ and c̃ = |C|√(ργ) (which undoes the funnel of C's prior given
// ρ, so that one spacing resolves C at every ρ; centre and scale are in
// these coordinates; where the box reaches c̃ = 0, c̃ = v³ on an even grid
// in v, whose points crowd at c̃ = 0, where the density has a narrow ridge for |A| > 1: a state that
// explodes is allowed only with C ≈ 0), with
// the density of C < 0 taken from its mirror image (the posterior is even
// in C). The first pass puts n1 points a side on centre ± 8·scale (scale:
// the widened spread of an approximation, say VB's); the second puts n
// points a side on the first pass's posterior mean ± 8 posterior standard
// deviations (whitened by the first pass's covariance where c̃ is far from
// 0), passes repeated from the previous one's moments at least once and
// until the density on the faces is below MaxEdgeRatio of its peak, the
// box widened (with the points) by half from the third pass, five passes
// at most (|C| clipped at 0, where the even integrand makes the
// trapezoid rule as accurate as inside). The trapezoid rule converges
// geometrically for such smooth, rapidly decaying integrands.
func (p LDS1Prior) LDS1Quadrature(y []float64, centre, scale [3]float64, n1, n int) (LDS1Posterior, error) {
	if err := p.Check(); err != nil {
		return LDS1Posterior{}, err
	}
	if n1 < 5 || n < 5 {
		return LDS1Posterior{}, errors.New("vembias: LDS1Quadrature: want at least 5 points a side")
	}
	for _, s := range scale {
		if !(s > 0) {
			return LDS1Posterior{}, fmt.Errorf("vembias: LDS1Quadrature: scale %v must be positive", scale)
		}
	}
	box := func(c, s [3]float64, width float64) [3][2]float64 {
		var b [3][2]float64
		for i := range b {
			b[i] = [2]float64{c[i] - width*s[i], c[i] + width*s[i]}
		}
		b[1][0] = math.Max(b[1][0], 0)
		return b
	}
	centre[1] = math.Abs(centre[1])
	first := p.grid(y, box(centre, scale, 8), n1)
	if math.IsNaN(first.LogEvidence) {
		return first, errors.New("vembias: LDS1Quadrature: the joint density is nowhere finite on the first box")
	}
	// Where the mode of c̃ is far from 0 the second pass is a grid in the
	// coordinates that whiten the first pass's covariance (the parameters
	// are correlated, and an axis-aligned grid would be coarse across the
	// ridge); otherwise it is axis-aligned with c̃ crowded at 0. Heavy
	// tails (short series) need a wider box: grow it, with the points,
	// until the density on its faces is below MaxEdgeRatio. Each pass is
	// centred and scaled by the moments of the one before, so that a poor
	// first guess is corrected; the box grows only after two passes at
	// the same width.
	prev, width, points := first, 8.0, first.Points
	var second LDS1Posterior
	for try := 0; ; try++ {
		c2 := [3]float64{prev.MeanA, prev.MeanAbsC, prev.MeanU}
		s2 := [3]float64{math.Sqrt(prev.VarA), prev.SDAbsC, prev.SDU}
		var l [9]float64
		copy(l[:], prev.cov[:])
		if c2[1]-8*s2[1] > 0 && numeric.CholFactor(l[:], 3) {
			second = p.rotGrid(y, c2, l, width, n)
		} else {
			second = p.grid(y, box(c2, s2, width), n)
		}
		points += second.Points
		if (second.EdgeRatio <= MaxEdgeRatio && try > 0) || try == 4 || math.IsNaN(second.LogEvidence) {
			break
		}
		if try >= 1 {
			width *= 1.5
			n = n * 3 / 2
		}
		prev = second
	}
	second.Points = points
	return second, nil
}

// MaxEdgeRatio is the largest density on the faces of LDS1Quadrature's box
// relative to its peak: below it the mass outside is negligible.
const MaxEdgeRatio = 1e-8

// grid integrates over the box with n trapezoid points a side.
func (p LDS1Prior) grid(y []float64, b [3][2]float64, n int) LDS1Posterior {
	cube := b[1][0] == 0 // the box reaches C = 0: crowd points there
	var ax [3][]float64
	var h [3]float64
	for i := range ax {
		lo, hi := b[i][0], b[i][1]
		if i == 1 && cube {
			lo, hi = math.Cbrt(lo), math.Cbrt(hi)
		}
		ax[i] = Axis(lo, hi, n, false)
		h[i] = (hi - lo) / float64(n-1)
	}
	return p.integrate(y, n, h[0]*h[1]*h[2], b[1][0] > 0, func(i, j, k int) ([3]float64, float64) {
		c, jac := ax[1][j], 0.0
		if cube {
			c, jac = c*c*c, math.Log(3*c*c)
		}
		return [3]float64{ax[0][i], c, ax[2][k]}, jac
	})
}

// rotGrid integrates over θ = m + L z, z in the cube [−width, width]³ with
// n trapezoid points a side (L lower triangular, row-major), the points
// with c̃ ≤ 0 left out: the box must lie in c̃ > 0, where the mirror image
// c̃ < 0 doubles the integral.
func (p LDS1Prior) rotGrid(y []float64, m [3]float64, l [9]float64, width float64, n int) LDS1Posterior {
	zs := Axis(-width, width, n, false)
	h := 2 * width / float64(n-1)
	return p.integrate(y, n, h*h*h*l[0]*l[4]*l[8], true, func(i, j, k int) ([3]float64, float64) {
		z0, z1, z2 := zs[i], zs[j], zs[k]
		return [3]float64{m[0] + l[0]*z0, m[1] + l[3]*z0 + l[4]*z1, m[2] + l[6]*z0 + l[7]*z1 + l[8]*z2}, 0
	})
}

// integrate sums the joint density in (A, c̃, u) (C = c̃ e^{−u/2}/√γ,
// Jacobian e^{−u/2}/√γ) by the trapezoid rule over an n×n×n grid whose
// point (i, j, k) is at(i, j, k), a θ and the log Jacobian of the grid's
// own map, each cell of volume vol; the face j = 0 counts as a face of
// the box when lowFace (not where the box meets c̃ = 0). It returns the
// log evidence (doubled for the mirror c̃ < 0), the moments and the
// largest density on the faces relative to the peak.
func (p LDS1Prior) integrate(y []float64, n int, vol float64, lowFace bool, at func(i, j, k int) ([3]float64, float64)) LDS1Posterior {
	lj := make([]float64, n*n*n)
	th := make([][3]float64, n*n*n)
	top := math.Inf(-1)
	lg := 0.5 * math.Log(p.Gamma)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				t, jac := at(i, j, k)
				v := math.Inf(-1)
				if t[1] >= 0 {
					v = p.LogJoint(y, t[0], t[1]*math.Exp(-t[2]/2)/math.Sqrt(p.Gamma), t[2]) - t[2]/2 - lg + jac
					if math.IsNaN(v) {
						v = math.Inf(-1)
					}
				}
				idx := (i*n+j)*n + k
				lj[idx], th[idx] = v, t
				top = math.Max(top, v)
			}
		}
	}
	out := LDS1Posterior{Points: n * n * n, LogEvidence: math.NaN()}
	if math.IsInf(top, -1) {
		return out
	}
	wt := func(i int) float64 {
		if i == 0 || i == n-1 {
			return 0.5
		}
		return 1
	}
	var z, edge float64
	var s1 [3]float64
	var s2 [9]float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				idx := (i*n+j)*n + k
				d := math.Exp(lj[idx] - top)
				if i == 0 || i == n-1 || j == n-1 || (j == 0 && lowFace) || k == 0 || k == n-1 {
					edge = math.Max(edge, d)
				}
				w := d * wt(i) * wt(j) * wt(k)
				z += w
				for a := 0; a < 3; a++ {
					s1[a] += w * th[idx][a]
					for b := 0; b < 3; b++ {
						s2[a*3+b] += w * th[idx][a] * th[idx][b]
					}
				}
			}
		}
	}
	for a := range s1 {
		s1[a] /= z
	}
	for a := 0; a < 3; a++ {
		for b := 0; b < 3; b++ {
			out.cov[a*3+b] = s2[a*3+b]/z - s1[a]*s1[b]
		}
	}
	out.mean = s1
	out.LogEvidence = top + math.Log(2*z*vol)
	out.MeanA, out.VarA = s1[0], math.Max(out.cov[0], 0)
	out.MeanAbsC, out.SDAbsC = s1[1], math.Sqrt(math.Max(out.cov[4], 0))
	out.MeanU, out.SDU = s1[2], math.Sqrt(math.Max(out.cov[8], 0))
	out.EdgeRatio = edge
	return out
}
