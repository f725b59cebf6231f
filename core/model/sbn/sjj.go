package sbn

import (
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// component is one factorised distribution Q(H|m) = Π_i μ_i^{h_i}(1−μ_i)^{1−h_i}
// (eq. 2.10) with its Saul-Jaakkola-Jordan parameters ξ_i (eq. 2.12), one per
// unit. mu holds every unit: the visible ones fixed at their observed values
// (L865).
//
// The other fields cache what the bound's moments are built from (eqs.
// A.5-A.7 over every parent j of unit i): ea[i][j] = e^{−ξ_i w_ij} and
// eb[i][j] = e^{(1−ξ_i) w_ij}, set whenever ξ_i changes, and their
// products over the parents pa[i] = Π_j (1 − μ_j + μ_j ea[i][j]) =
// e^{ξ_i b_i}⟨e^{−ξ_i z_i}⟩ and pb[i] = e^{−(1−ξ_i) b_i}⟨e^{(1−ξ_i) z_i}⟩,
// set whenever a parent's μ changes. Every method keeps them consistent
// with mu and xi, so no exponential is taken but where ξ moves.
type component struct {
	mu, xi []float64
	ea, eb [][]float64
	pa, pb []float64
}

func newComponent(n *Net, v []float64) component {
	u := n.Units()
	c := component{mu: make([]float64, u), xi: make([]float64, u), ea: make([][]float64, u), eb: make([][]float64, u),
		pa: make([]float64, u), pb: make([]float64, u)}
	for i := range u {
		c.ea[i], c.eb[i] = make([]float64, len(n.w[i])), make([]float64, len(n.w[i]))
		c.pa[i], c.pb[i] = 1, 1
	}
	copy(c.mu[n.Hidden():], v)
	return c
}

// copyFrom sets c to d (same net).
func (c component) copyFrom(d component) {
	copy(c.mu, d.mu)
	copy(c.xi, d.xi)
	copy(c.pa, d.pa)
	copy(c.pb, d.pb)
	for i := range c.ea {
		copy(c.ea[i], d.ea[i])
		copy(c.eb[i], d.eb[i])
	}
}

// refresh recomputes every cached exponential and product from mu and xi.
func (n *Net) refresh(c component) {
	for i := range n.Units() {
		setExps(n, i, c.xi[i], c.ea[i], c.eb[i])
		n.products(i, c)
	}
}

// setExps fills ea[j] = e^{−ξ w_ij} and eb[j] = e^{(1−ξ) w_ij} = ea[j]·e^{w_ij}.
func setExps(n *Net, i int, xi float64, ea, eb []float64) {
	for j, w := range n.w[i] {
		ea[j] = math.Exp(-xi * w)
		eb[j] = ea[j] * n.expW[i][j]
	}
}

// products recomputes pa[i] and pb[i] from the cached exponentials.
func (n *Net) products(i int, c component) {
	lo := n.plo[i]
	pa, pb := 1.0, 1.0
	for j, ea := range c.ea[i] {
		m := c.mu[lo+j]
		pa *= 1 - m + m*ea
		pb *= 1 - m + m*c.eb[i][j]
	}
	c.pa[i], c.pb[i] = pa, pb
}

// sjj is unit i's SJJ upper bound on ⟨ln(1 + e^{z_i})⟩ (eq. 2.12, eq. A.2)
// at ξ, with ea, eb the exponentials of that ξ:
//
//	u = ξ⟨z_i⟩ + ln⟨e^{−ξz_i} + e^{(1−ξ)z_i}⟩ = ξ Σ_j w_ij μ_j + ln(pa + e^{b_i} pb),
//
// its first two derivatives in ξ (it is convex in ξ), and the products pa,
// pb of the moments (eqs. A.5, A.7 over every parent).
func (n *Net) sjj(i int, mu []float64, xi float64, ea, eb []float64) (u, du, d2u, pa, pb float64) {
	lo := n.plo[i]
	pa, pb = 1, 1
	var s, da, db, d2a, d2b float64
	for j, w := range n.w[i] {
		m := mu[lo+j]
		s += w * m
		xa, xb := m*ea[j], m*eb[j]
		fa, fb := 1-m+xa, 1-m+xb
		pa *= fa
		pb *= fb
		qa, qb := xa/fa, xb/fb
		da -= w * qa
		db -= w * qb
		d2a += w * w * qa * (1 - qa)
		d2b += w * w * qb * (1 - qb)
	}
	B := n.expB[i] * pb
	Z := pa + B
	wa, wb := pa/Z, B/Z
	g := wa*da + wb*db
	return xi*s + math.Log(Z), s + g, wa*(d2a+da*da) + wb*(d2b+db*db) - g*g, pa, pb
}

// meanField returns ⟨z_i⟩ = b_i + Σ_j w_ij μ_j.
func (n *Net) meanField(i int, mu []float64) float64 {
	lo := n.plo[i]
	z := n.b[i]
	for j, w := range n.w[i] {
		z += w * mu[lo+j]
	}
	return z
}

// binEntropy is −μ ln μ − (1−μ) ln(1−μ), 0 ln 0 = 0.
func binEntropy(m float64) float64 { return -numeric.XLogY(m, m) - numeric.XLogY(1-m, 1-m) }

// bound is the complete mean-field bound of eq. 2.15: Λ (eq. 2.13, every
// unit's ⟨s_i⟩⟨z_i⟩ minus its SJJ bound) plus the entropies of the latent
// units. Returns the two parts.
func (n *Net) bound(c component) (lambda, entropy float64) {
	for i := range n.Units() {
		lo := n.plo[i]
		s := 0.0
		for j, w := range n.w[i] {
			s += w * c.mu[lo+j]
		}
		u := c.xi[i]*s + math.Log(c.pa[i]+n.expB[i]*c.pb[i])
		lambda += c.mu[i]*(n.b[i]+s) - u
	}
	for k := range n.Hidden() {
		entropy += binEntropy(c.mu[k])
	}
	return
}

// work is the scratch space of the coordinate updates of one fit.
type work struct {
	beta, pa, pb, ea, eb []float64
}

func newWork(n *Net) *work {
	u := n.Units()
	return &work{beta: make([]float64, 0, u), pa: make([]float64, u), pb: make([]float64, u), ea: make([]float64, u), eb: make([]float64, u)}
}

// updateXi minimises unit i's SJJ bound over ξ_i (convex, L905: "adjustment
// of each variational parameter ξ_i to maximise the lower bound"; the text
// uses a one-dimensional minimiser, L1019) by safeguarded Newton steps that
// never raise it. It stops when a Newton step would gain less than
// xiGainTol·max(1, u) nats (the gain u′²/2u″ of the quadratic model), so a
// converged ξ costs no exponential.
func (n *Net) updateXi(i int, c component, wk *work) {
	if len(n.w[i]) == 0 {
		return // a top unit: the bound is ln(1 + e^{b_i}) for every ξ
	}
	var pa, pb float64 // of the last ξ evaluated
	eval := func(xi float64, ea, eb []float64) (u, du, d2u float64) {
		u, du, d2u, pa, pb = n.sjj(i, c.mu, xi, ea, eb)
		return u, du, d2u
	}
	xi, _ := newtonXi(n, i, c.xi[i], c.ea[i], c.eb[i], wk.ea[:len(n.w[i])], wk.eb[:len(n.w[i])], eval,
		func(ea, eb []float64) {
			copy(c.ea[i], ea)
			copy(c.eb[i], eb)
			c.pa[i], c.pb[i] = pa, pb
		})
	c.xi[i] = xi
}

// newtonXi minimises the convex u(ξ) of unit i (eval gives u, u′, u″ at ξ
// with its exponentials e^{−ξw}, e^{(1−ξ)w} in ea, eb) by Newton steps from
// xi, whose exponentials are ea0, eb0, each halved until u falls, within
// ±xiLimit, until the step's predicted gain is below xiGainTol of u. Each
// accepted step's exponentials, in the scratch ea, eb, go to accept. It
// returns the last ξ and whether any step was accepted.
func newtonXi(n *Net, i int, xi float64, ea0, eb0, ea, eb []float64, eval func(xi float64, ea, eb []float64) (u, du, d2u float64), accept func(ea, eb []float64)) (float64, bool) {
	u, du, d2u := eval(xi, ea0, eb0)
	moved := false
	for range 40 {
		if !(d2u > 0) || du*du <= 2*d2u*xiGainTol*math.Max(1, math.Abs(u)) {
			break
		}
		step := du / d2u
		accepted := false
		for range 30 {
			cand := math.Max(-xiLimit, math.Min(xiLimit, xi-step))
			if cand == xi {
				break
			}
			setExps(n, i, cand, ea, eb)
			nu, ndu, nd2u := eval(cand, ea, eb)
			if nu <= u {
				accepted, moved = true, true
				xi, u, du, d2u = cand, nu, ndu, nd2u
				accept(ea, eb)
				break
			}
			step /= 2
		}
		if !accepted {
			break
		}
	}
	return xi, moved
}

// xiGainTol is the relative gain below which updateXi takes no Newton step.
const xiGainTol = 1e-15

// xiLimit bounds |ξ| so that the moments never overflow; the optimum lies
// in [0, 1] for every net we have met, well inside.
const xiLimit = 30

// muObjective is the part of the bound that depends on μ_k, up to a
// constant, f(θ) with μ = σ(θ): μ·lin + H(μ) − Σ_c ln(1 + μ β_c)
// (eq. A.3: each child's ⟨e^{−ξz}⟩ + ⟨e^{(1−ξ)z}⟩ is linear in μ_k), with
// H(σ(θ)) = |θ|σ(−|θ|) + ln(1 + e^{−|θ|}).
func muObjective(theta, lin float64, beta []float64) float64 {
	e := math.Exp(-math.Abs(theta))
	m := 1 / (1 + e)
	if theta < 0 {
		m = e / (1 + e)
	}
	p := 1.0
	for _, b := range beta {
		p *= 1 + m*b
	}
	return m*lin + math.Abs(theta)*e/(1+e) + math.Log1p(e) - math.Log(p)
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

func logit(m float64) float64 { return math.Log(m / (1 - m)) }

// muCoefficients fills beta with each child's β_c and returns lin, the
// coefficient of μ_k in the bound (own ⟨z_k⟩ plus Σ_c w_ck(μ_c − ξ_c)),
// with extra added (the mixture's smoothing terms, eq. 2.31). With μ_k
// left out of child c's moments (eq. A.3), its ⟨e^{−ξz}⟩ + ⟨e^{(1−ξ)z}⟩
// is A_c(1 + μ_k β_c); wk.pa, wk.pb keep the left-out products.
func (n *Net) muCoefficients(k int, c component, extra float64, wk *work) float64 {
	lin := n.meanField(k, c.mu) + extra
	beta := wk.beta[:0]
	for ch := n.clo[k]; ch < n.chi[k]; ch++ {
		lo := n.plo[ch]
		jk := k - lo
		lin += n.w[ch][jk] * (c.mu[ch] - c.xi[ch])
		pa, pb := 1.0, 1.0
		for j, ea := range c.ea[ch] {
			if j != jk {
				m := c.mu[lo+j]
				pa *= 1 - m + m*ea
				pb *= 1 - m + m*c.eb[ch][j]
			}
		}
		wk.pa[ch], wk.pb[ch] = pa, pb
		B := n.expB[ch] * pb
		wa := pa / (pa + B)
		beta = append(beta, wa*(c.ea[ch][jk]-1)+(1-wa)*(c.eb[ch][jk]-1))
	}
	wk.beta = beta
	return lin
}

// updateMu sets μ_k to the best of its current value, the text's fixed
// point σ(E′) (eqs. 2.17-2.18 with φ_k of eq. A.8, or σ(E″) of eqs.
// 2.30-2.32 for a mixture component, extra carrying the smoothing terms)
// and the stationary point of the exact one-dimensional bound reached by
// safeguarded Newton steps from it; the bound therefore never falls. The
// children's cached products follow μ_k.
func (n *Net) updateMu(k int, c component, extra float64, wk *work) {
	lin := n.muCoefficients(k, c, extra, wk)
	beta := wk.beta
	theta0 := logit(math.Max(1e-300, math.Min(c.mu[k], 1-1e-16)))
	best, bestF := theta0, muObjective(theta0, lin, beta)
	p := 1.0
	for _, b := range beta {
		p *= 1 + b
	}
	phi := -math.Log(p)
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
	// A Newton step shorter than 1e-12 ends the search before the bracket
	// test: at the root one end of the bracket is t itself.
	for range 60 {
		g, dg := muSlope(t, lin, beta)
		if g > 0 {
			lo = t
		} else {
			hi = t
		}
		nt := t - g/dg
		if dg < 0 && math.Abs(nt-t) < 1e-12 {
			t = nt
			break
		}
		if dg >= 0 || nt <= lo || nt >= hi {
			nt = (lo + hi) / 2
		}
		if hi-lo < 1e-12 {
			t = nt
			break
		}
		t = nt
	}
	if f := muObjective(t, lin, beta); f > bestF {
		best = t
	}
	if best == theta0 {
		return
	}
	m := sigmoid(best)
	c.mu[k] = m
	for ch := n.clo[k]; ch < n.chi[k]; ch++ {
		jk := k - n.plo[ch]
		c.pa[ch] = wk.pa[ch] * (1 - m + m*c.ea[ch][jk])
		c.pb[ch] = wk.pb[ch] * (1 - m + m*c.eb[ch][jk])
	}
}

// thetaLimit bounds the logit of μ; σ(40) rounds to 1, so μ may be 0 or 1
// in floating point (0 ln 0 = 0 in the entropies).
const thetaLimit = 40

// setMuFixedPoint sets μ_k to the text's fixed point σ(E′) (eq. 2.18) or
// σ(E″) (eq. 2.32), whether or not the bound rises (Variant.RawFixedPoint).
func (n *Net) setMuFixedPoint(k int, c component, extra float64, wk *work) {
	lin := n.muCoefficients(k, c, extra, wk)
	p := 1.0
	for _, b := range wk.beta {
		p *= 1 + b
	}
	m := sigmoid(math.Max(-thetaLimit, math.Min(thetaLimit, lin-math.Log(p))))
	c.mu[k] = m
	for ch := n.clo[k]; ch < n.chi[k]; ch++ {
		jk := k - n.plo[ch]
		c.pa[ch] = wk.pa[ch] * (1 - m + m*c.ea[ch][jk])
		c.pb[ch] = wk.pb[ch] * (1 - m + m*c.eb[ch][jk])
	}
}
