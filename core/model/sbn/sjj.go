package sbn

import (
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// component is one factorised distribution Q(H|m) = Π_i μ_i^{h_i}(1−μ_i)^{1−h_i}
// (eq. 2.10) with its Saul-Jaakkola-Jordan parameters ξ_i (eq. 2.12), one per
// unit. mu holds every unit: the visible ones fixed at their observed values
// (L865).
type component struct {
	mu, xi []float64
}

func newComponent(n *Net, v []float64) component {
	c := component{mu: make([]float64, n.Units()), xi: make([]float64, n.Units())}
	copy(c.mu[n.Hidden():], v)
	return c
}

func (c component) copyFrom(d component) {
	copy(c.mu, d.mu)
	copy(c.xi, d.xi)
}

// logMoments returns ln⟨e^{−ξ z_i}⟩ and ln⟨e^{(1−ξ) z_i}⟩ under the
// factorised q of the parents (eqs. A.5, A.7 with every parent), and the
// derivatives in ξ of both (first and second), for the ξ update.
func (n *Net) logMoments(i int, mu []float64, xi float64) (la, lb, da, db, d2a, d2b float64) {
	lo, _ := n.parents(i)
	b := n.b[i]
	la, lb = -xi*b, (1-xi)*b
	da, db = -b, -b
	for j, w := range n.w[i] {
		m := mu[lo+j]
		ea := m * math.Exp(-xi*w)
		fa := 1 - m + ea
		eb := m * math.Exp((1-xi)*w)
		fb := 1 - m + eb
		la += math.Log(fa)
		lb += math.Log(fb)
		pa, pb := ea/fa, eb/fb
		da -= w * pa
		db -= w * pb
		d2a += w * w * pa * (1 - pa)
		d2b += w * w * pb * (1 - pb)
	}
	return
}

// meanField returns ⟨z_i⟩ = b_i + Σ_j w_ij μ_j.
func (n *Net) meanField(i int, mu []float64) float64 {
	lo, _ := n.parents(i)
	z := n.b[i]
	for j, w := range n.w[i] {
		z += w * mu[lo+j]
	}
	return z
}

// upper is unit i's SJJ upper bound on ⟨ln(1 + e^{z_i})⟩,
// ξ⟨z⟩ + ln⟨e^{−ξz} + e^{(1−ξ)z}⟩ (eq. 2.12, eq. A.2), with its first two
// derivatives in ξ (it is convex in ξ).
func (n *Net) upper(i int, mu []float64, xi float64) (u, du, d2u float64) {
	la, lb, da, db, d2a, d2b := n.logMoments(i, mu, xi)
	lse := numeric.LogAddExp(la, lb)
	wa := math.Exp(la - lse)
	wb := 1 - wa
	g := wa*da + wb*db
	return xi*n.meanField(i, mu) + lse, n.meanField(i, mu) + g, wa*(d2a+da*da) + wb*(d2b+db*db) - g*g
}

// binEntropy is −μ ln μ − (1−μ) ln(1−μ), 0 ln 0 = 0.
func binEntropy(m float64) float64 { return -numeric.XLogY(m, m) - numeric.XLogY(1-m, 1-m) }

// bound is the complete mean-field bound of eq. 2.15: Λ (eq. 2.13, every
// unit's ⟨s_i⟩⟨z_i⟩ minus its SJJ bound) plus the entropies of the latent
// units. Returns the two parts.
func (n *Net) bound(c component) (lambda, entropy float64) {
	for i := range n.Units() {
		u, _, _ := n.upper(i, c.mu, c.xi[i])
		lambda += c.mu[i]*n.meanField(i, c.mu) - u
	}
	for k := range n.Hidden() {
		entropy += binEntropy(c.mu[k])
	}
	return
}

// updateXi minimises unit i's SJJ bound over ξ_i (convex, L905: "adjustment
// of each variational parameter ξ_i to maximise the lower bound"; the text
// uses a one-dimensional minimiser, L1019) by safeguarded Newton steps that
// never raise it.
func (n *Net) updateXi(i int, c component) {
	if lo, hi := n.parents(i); lo == hi {
		return // a top unit: the bound is ln(1 + e^{b_i}) for every ξ
	}
	xi := c.xi[i]
	u, du, d2u := n.upper(i, c.mu, xi)
	for range 40 {
		if d2u <= 0 || math.Abs(du) < 1e-13 {
			break
		}
		step := du / d2u
		var nu, ndu, nd2u float64
		accepted := false
		for range 30 {
			cand := math.Max(-xiLimit, math.Min(xiLimit, xi-step))
			nu, ndu, nd2u = n.upper(i, c.mu, cand)
			if nu <= u {
				accepted = cand != xi
				xi = cand
				break
			}
			step /= 2
		}
		if !accepted {
			break
		}
		moved := math.Abs(u - nu)
		u, du, d2u = nu, ndu, nd2u
		if moved < 1e-15*math.Max(1, math.Abs(u)) {
			break
		}
	}
	c.xi[i] = xi
}

// xiLimit bounds |ξ| so that the moments never overflow; the optimum lies
// in [0, 1] for every net we have met, well inside.
const xiLimit = 30

// muObjective is the part of the bound that depends on μ_k, up to a
// constant, f(θ) with μ = σ(θ): μ·lin + H(μ) − Σ_c ln(1 + μ β_c)
// (eq. A.3: each child's ⟨e^{−ξz}⟩ + ⟨e^{(1−ξ)z}⟩ is linear in μ_k).
func muObjective(theta, lin float64, beta []float64) float64 {
	m := sigmoid(theta)
	f := m*lin + binEntropy(m)
	for _, b := range beta {
		f -= math.Log1p(m * b)
	}
	return f
}

// muSlope is df/dθ / (μ(1−μ)) = lin − θ − Σ_c β_c / (1 + μ β_c), whose sign
// is that of df/dθ, and its derivative in θ.
func muSlope(theta, lin float64, beta []float64) (g, dg float64) {
	m := sigmoid(theta)
	g, dg = lin-theta, -1
	for _, b := range beta {
		d := 1 + m*b
		g -= b / d
		dg += b * b * m * (1 - m) / (d * d)
	}
	return
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

func logit(m float64) float64 { return math.Log(m) - math.Log1p(-m) }

// muCoefficients fills beta with each child's β_c and returns lin, the
// coefficient of μ_k in the bound (own ⟨z_k⟩ plus Σ_c w_ck(μ_c − ξ_c)),
// with extra added (the mixture's smoothing terms, eq. 2.31).
func (n *Net) muCoefficients(k int, c component, extra float64, beta []float64) (float64, []float64) {
	lin := n.meanField(k, c.mu) + extra
	lo, hi := n.children(k)
	beta = beta[:0]
	plo, _ := n.parents(lo)
	saved := c.mu[k]
	for ch := lo; ch < hi; ch++ {
		w := n.w[ch][k-plo]
		lin += w * (c.mu[ch] - c.xi[ch])
		c.mu[k] = 0
		la, lb, _, _, _, _ := n.logMoments(ch, c.mu, c.xi[ch])
		lse := numeric.LogAddExp(la, lb)
		wa := math.Exp(la - lse)
		beta = append(beta, wa*(math.Exp(-c.xi[ch]*w)-1)+(1-wa)*(math.Exp((1-c.xi[ch])*w)-1))
	}
	c.mu[k] = saved
	return lin, beta
}

// updateMu sets μ_k to the best of its current value, the text's fixed
// point σ(E′) (eqs. 2.17-2.18 with φ_k of eq. A.8, or σ(E″) of eqs.
// 2.30-2.32 for a mixture component, extra carrying the smoothing terms)
// and the stationary point of the exact one-dimensional bound reached by
// safeguarded Newton steps from it; the bound therefore never falls.
func (n *Net) updateMu(k int, c component, extra float64, beta []float64) []float64 {
	lin, beta := n.muCoefficients(k, c, extra, beta)
	theta0 := logit(math.Max(1e-300, math.Min(c.mu[k], 1-1e-16)))
	best, bestF := theta0, muObjective(theta0, lin, beta)
	phi := 0.0
	for _, b := range beta {
		phi -= math.Log1p(b)
	}
	fp := math.Max(-thetaLimit, math.Min(thetaLimit, lin+phi))
	if f := muObjective(fp, lin, beta); f > bestF {
		best, bestF = fp, f
	}
	// Newton on the slope, kept inside a bracket of its root: the slope
	// falls from +∞ to −∞, and |Σ β/(1+μβ)| ≤ Σ max(|β|, |β/(1+β)|).
	span := 0.0
	for _, b := range beta {
		span += math.Max(math.Abs(b), math.Abs(b/(1+b)))
	}
	lo, hi := math.Max(-thetaLimit, lin-span-1), math.Min(thetaLimit, lin+span+1)
	t := math.Max(lo, math.Min(hi, fp))
	for range 60 {
		g, dg := muSlope(t, lin, beta)
		if g > 0 {
			lo = t
		} else {
			hi = t
		}
		nt := t - g/dg
		if dg >= 0 || nt <= lo || nt >= hi {
			nt = (lo + hi) / 2
		}
		if math.Abs(nt-t) < 1e-12 || hi-lo < 1e-12 {
			t = nt
			break
		}
		t = nt
	}
	if f := muObjective(t, lin, beta); f > bestF {
		best = t
	}
	if best != theta0 {
		c.mu[k] = sigmoid(best)
	}
	return beta
}

// thetaLimit bounds the logit of μ: μ stays in (0, 1) with 1 − μ ≥ e^{−36}
// ≈ 2.3e-16, representable next to 1 (σ(40) rounds to 1, and a μ of
// exactly 1 made the mixture's R update 0/0 during learning).
const thetaLimit = 36
