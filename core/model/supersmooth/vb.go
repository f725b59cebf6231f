package supersmooth

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Term names of the bound of VB.E, in the order it reports them.
const (
	TermLik     = "E[ln p(y|w,beta,sigma2)]" // eq. 3.17 under q
	TermBeta    = "-KL[beta,sigma2]"         // eqs. 3.18-3.19 against q(β, σ²)
	TermWeights = "E[ln p~(w|h)] + H[q(w)]"  // eqs. 3.20, 3.35 with the convex bound of ln(1 + h d)
	TermH       = "-KL[h]"                   // eq. 3.22 against q(h)
)

// dim is the number of regression coefficients: the slope and the value
// of the local line at the query (β₁, β₀ of L1058).
const dim = 2

// Prior holds the hyperparameters of eqs. 3.18-3.22 and the kernel of eq.
// 3.35.
type Prior struct {
	AH0, BH0   float64    // a_{h,0}, b_{h,0}: shape and rate of p(h) (eq. 3.22)
	A0         float64    // a₀: shape of p(w_i | h) (eq. 3.20)
	N0         float64    // n₀: degrees of freedom of p(σ²) (eq. 3.19)
	Sigma20    float64    // σ²_{N,0}: scale of p(σ²) (eq. 3.19)
	Beta0      [2]float64 // β̂₀: prior mean of (slope, value at the query) (eq. 3.18)
	SigmaBeta0 float64    // Σ_{β,0} = SigmaBeta0 · I (eq. 3.18)
	S          float64    // s: scale of b_i = s(1 + h|x_i − x_q|^p) (eq. 3.35)
	P          float64    // p: exponent of the kernel (eq. 3.35)
}

// TextPrior returns the settings of L1195 and L1199: a_{h,0} =
// 0.1, b_{h,0} = 10⁻⁴, a₀ = 10, n₀ = 10, σ²_{N,0} = 0.1, β̂₀ = 0,
// Σ_{β,0} = 10⁶ I, s = 0.01, p = 4.
func TextPrior() Prior {
	return Prior{AH0: 0.1, BH0: 1e-4, A0: 10, N0: 10, Sigma20: 0.1, SigmaBeta0: 1e6, S: 0.01, P: 4}
}

// Check reports the first hyperparameter that is not positive and finite
// (β̂₀ need only be finite).
func (p Prior) Check() error {
	for _, v := range []struct {
		name string
		v    float64
	}{{"a_h0", p.AH0}, {"b_h0", p.BH0}, {"a0", p.A0}, {"n0", p.N0}, {"sigma2_0", p.Sigma20}, {"sigma_beta0", p.SigmaBeta0}, {"s", p.S}, {"p", p.P}} {
		if !(v.v > 0) || math.IsInf(v.v, 1) {
			return fmt.Errorf("supersmooth: prior %s = %g, want positive and finite", v.name, v.v)
		}
	}
	for _, b := range p.Beta0 {
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return errors.New("supersmooth: prior beta0 not finite")
		}
	}
	return nil
}

// Settings control NewVB. The zero value of every field means its default.
type Settings struct {
	// InitH is E[h] of the starting q(h), whose shape is a_{h,0}. Default
	// the prior mean a_{h,0}/b_{h,0} (10³ with the text's prior, "an
	// initial bias that h = 1000", L1197).
	InitH float64
}

// VB is the factorised approximation q(β, σ²) q(h) Π_i q(w_i) (eq. 3.24) of
// the model of eqs. 3.17-3.22 at one query point x_q, with the convex
// bound of ln(1 + h d_i) (L1162-1166) and its variational parameters λ_i.
// q(β, σ²) is normal-scaled-inverse-χ² (written here for the precision
// τ = 1/σ²: q(τ) = Gam(a_τ, b_τ), q(β|τ) = N(m, (τΛ)⁻¹)), q(w_i) =
// Gam(a₀ + ½, b_{w,i}) and q(h) = Gam(a_h, b_h).
//
// E updates q(β, σ²) (eqs. 3.25-3.26), then every q(w_i) (eq. 3.27), then
// q(h) (eq. 3.36), and returns the bound F̃ at the new q and the current
// λ; M sets every λ_i to its optimum (eq. 3.37, re-derived: see doc.go).
// Each update maximises F̃ in its own factor, so the bounds E returns never
// decrease; F̃ ≤ F ≤ ln p(y), every constant included.
type VB struct {
	prior Prior
	xq    float64
	n     int
	y     []float64
	u     []float64 // x_i − x_q, the first regressor (the second is 1)
	d     []float64 // d_i = |x_i − x_q|^p
	lnD   []float64 // ln d_i (−Inf where x_i = x_q)

	aw   float64   // a₀ + ½, the shape of every q(w_i) (eq. 3.27)
	bw   []float64 // rates of q(w_i)
	ew   []float64 // E[w_i]
	lam  []float64 // λ_i of the convex bound
	hLam []float64 // −λ_i ln λ_i − (1 − λ_i) ln(1 − λ_i), set with λ_i by M
	aTau float64   // (n₀ + N)/2 (eq. 3.26)
	bTau float64
	ah   float64
	bh   float64

	lam2   [dim * dim]float64 // Λ, then its factor
	lamInv [dim * dim]float64 // Λ⁻¹ (the text's Σ_β, eq. 3.25)
	work   [dim * dim]float64
	m      [dim]float64
	logDet float64 // ln|Λ|
	terms  [4]vb.Term
}

// NewVB returns VB for the data (x, y) at the query xq. q(h) starts at
// Gam(a_{h,0}, a_{h,0}/InitH), every λ_i at its optimum for that q(h), and
// every q(w_i) at the prior's mean weight, E[w_i] = a₀/(s(1 + E[h] d_i))
// (eq. 3.23); the first E step computes q(β, σ²) from them.
func NewVB(x, y []float64, xq float64, prior Prior, s Settings) (*VB, error) {
	if err := prior.Check(); err != nil {
		return nil, err
	}
	if len(x) != len(y) || len(x) == 0 {
		return nil, fmt.Errorf("supersmooth: %d inputs and %d targets, want the same positive number", len(x), len(y))
	}
	if math.IsNaN(xq) || math.IsInf(xq, 0) {
		return nil, errors.New("supersmooth: query not finite")
	}
	for i := range x {
		if math.IsNaN(x[i]) || math.IsInf(x[i], 0) || math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return nil, fmt.Errorf("supersmooth: data point %d not finite", i)
		}
	}
	init := s.InitH
	if init == 0 {
		init = prior.AH0 / prior.BH0
	}
	if !(init > 0) || math.IsInf(init, 1) {
		return nil, fmt.Errorf("supersmooth: InitH = %g, want positive and finite", init)
	}
	n := len(x)
	m := &VB{prior: prior, xq: xq, n: n, y: y,
		u: make([]float64, n), d: make([]float64, n), lnD: make([]float64, n),
		bw: make([]float64, n), ew: make([]float64, n), lam: make([]float64, n), hLam: make([]float64, n),
		aw: prior.A0 + 0.5, aTau: 0.5 * (prior.N0 + float64(n)),
		ah: prior.AH0, bh: prior.AH0 / init}
	for i, xi := range x {
		m.u[i] = xi - xq
		m.lnD[i] = prior.P * math.Log(math.Abs(m.u[i]))
		m.d[i] = math.Exp(m.lnD[i])
		if math.IsInf(m.d[i], 1) {
			return nil, fmt.Errorf("supersmooth: |x_%d − x_q|^p overflows", i)
		}
	}
	eh := m.ah / m.bh
	for i := range m.ew {
		m.ew[i] = prior.A0 / (prior.S * (1 + eh*m.d[i]))
	}
	m.M()
	m.terms = [4]vb.Term{{Name: TermLik}, {Name: TermBeta}, {Name: TermWeights}, {Name: TermH}}
	return m, nil
}

// ErrSingular is returned by E when Λ = Σ_{β,0}⁻¹ + Σ_i E[w_i] x_i x_iᵀ is
// not positive definite to working precision.
var ErrSingular = errors.New("supersmooth: posterior precision of beta not positive definite")

// E updates, in turn,
//
//	q(β, σ²): Λ = Σ_{β,0}⁻¹ + Σ E[w_i] x_i x_iᵀ, m = Λ⁻¹(Σ E[w_i] y_i x_i + Σ_{β,0}⁻¹β̂₀),
//	          a_τ = (n₀ + N)/2, b_τ = ½(n₀σ²_{N,0} + Σ E[w_i](y_i − mᵀx_i)² + (m − β̂₀)ᵀΣ_{β,0}⁻¹(m − β̂₀))
//	          (eqs. 3.25-3.26; σ²_N = b_τ/a_τ),
//	q(w_i):   a = a₀ + ½, b_{w,i} = s(1 + E[h] d_i) + ½(E[τ](y_i − mᵀx_i)² + x_iᵀΛ⁻¹x_i) (eq. 3.27),
//	q(h):     a_h = a_{h,0} + a₀ Σ λ_i, b_h = b_{h,0} + s Σ E[w_i] d_i (eq. 3.36),
//
// with x_i = (x_i − x_q, 1) and d_i = |x_i − x_q|^p, and returns the bound
// F̃ in four terms (see doc.go for each). It allocates nothing.
func (m *VB) E() (vb.Bound, error) {
	if err := m.updateBeta(); err != nil {
		return vb.Bound{}, err
	}
	m.updateWeights()
	if err := m.updateH(); err != nil {
		return vb.Bound{}, err
	}
	return m.bound(), nil
}

// updateBeta sets q(β, σ²) from E[w] (eqs. 3.25-3.26).
func (m *VB) updateBeta() error {
	p := m.prior
	c := 1 / p.SigmaBeta0
	var s00, s01, s11, r0, r1 float64
	for i, w := range m.ew {
		u := m.u[i]
		s00 += w * u * u
		s01 += w * u
		s11 += w
		r0 += w * u * m.y[i]
		r1 += w * m.y[i]
	}
	m.lam2 = [dim * dim]float64{s00 + c, s01, s01, s11 + c}
	if !numeric.CholFactor(m.lam2[:], dim) {
		return ErrSingular
	}
	m.logDet = numeric.CholLogDet(m.lam2[:], dim)
	numeric.CholInverse(m.lamInv[:], m.lam2[:], dim, m.work[:])
	m.m = [dim]float64{r0 + c*p.Beta0[0], r1 + c*p.Beta0[1]}
	numeric.CholSolveVec(m.lam2[:], dim, m.m[:])
	numeric.CholSolveVecT(m.lam2[:], dim, m.m[:])
	wss := 0.0
	for i, w := range m.ew {
		r := m.y[i] - m.m[0]*m.u[i] - m.m[1]
		wss += w * r * r
	}
	m.bTau = 0.5 * (p.N0*p.Sigma20 + wss + m.priorQuad())
	return nil
}

// updateWeights sets every q(w_i) from q(β, σ²) and E[h] (eq. 3.27).
func (m *VB) updateWeights() {
	p := m.prior
	eTau := m.aTau / m.bTau
	eh := m.ah / m.bh
	i00, i01, i11 := m.lamInv[0], m.lamInv[1], m.lamInv[3]
	for i := range m.ew {
		u := m.u[i]
		r := m.y[i] - m.m[0]*u - m.m[1]
		quad := i00*u*u + 2*i01*u + i11
		m.bw[i] = p.S*(1+eh*m.d[i]) + 0.5*(eTau*r*r+quad)
		m.ew[i] = m.aw / m.bw[i]
	}
}

// updateH sets q(h) from λ and E[w] (eq. 3.36).
func (m *VB) updateH() error {
	p := m.prior
	sumLam, sumWD := 0.0, 0.0
	for i, l := range m.lam {
		sumLam += l
		sumWD += m.ew[i] * m.d[i]
	}
	m.ah = p.AH0 + p.A0*sumLam
	m.bh = p.BH0 + p.S*sumWD
	if !(m.bh > 0) || math.IsInf(m.bh, 1) || math.IsInf(m.ah, 1) {
		return fmt.Errorf("supersmooth: q(h) = Gam(%g, %g) not proper", m.ah, m.bh)
	}
	return nil
}

// priorQuad returns (m − β̂₀)ᵀΣ_{β,0}⁻¹(m − β̂₀).
func (m *VB) priorQuad() float64 {
	db0, db1 := m.m[0]-m.prior.Beta0[0], m.m[1]-m.prior.Beta0[1]
	return (db0*db0 + db1*db1) / m.prior.SigmaBeta0
}

// bound returns F̃ at the current q and λ (doc.go, "The bound").
func (m *VB) bound() vb.Bound {
	p := m.prior
	eTau := m.aTau / m.bTau
	lnTau := numeric.Digamma(m.aTau) - math.Log(m.bTau)
	qb := m.priorQuad()
	n := float64(m.n)
	c := 1 / p.SigmaBeta0
	eh := m.ah / m.bh
	lnH := numeric.Digamma(m.ah) - math.Log(m.bh)
	psiW := numeric.Digamma(m.aw)
	i00, i01, i11 := m.lamInv[0], m.lamInv[1], m.lamInv[3]
	// Per point: the likelihood's ½E[ln w_i] − ½E[w_i]E[τ(y_i − βᵀx_i)²],
	// the bounded prior of w_i and the entropy of q(w_i).
	lik, wts := 0.0, 0.0
	for i, bw := range m.bw {
		u := m.u[i]
		r := m.y[i] - m.m[0]*u - m.m[1]
		quad := i00*u*u + 2*i01*u + i11
		ew := m.ew[i]
		lnW := psiW - math.Log(bw)
		lik += 0.5*lnW - 0.5*ew*(eTau*r*r+quad)
		lnB := 0.0 // the bound of ln(1 + h d_i); 0 = ln 1 where d_i = 0
		if l := m.lam[i]; m.d[i] > 0 {
			lnB = l*(m.lnD[i]+lnH) + m.hLam[i]
		}
		wts += p.A0*lnB + (p.A0-1)*lnW - ew*p.S*(1+eh*m.d[i]) - math.Log(bw)
	}
	lik += n * 0.5 * (lnTau - math.Log(2*math.Pi))
	gw := dist.Gamma{Alpha: m.aw, Beta: 1}
	wts += n * (p.A0*math.Log(p.S) - numeric.LogGamma(p.A0) + gw.Entropy())
	// −KL of q(β, σ²): E[ln p(β|τ)] + E[ln p(τ)] + H[q(β, τ)], with
	// H[q(β|τ)] = (d/2)(1 + ln 2π) − ½ln|Λ| − (d/2)E[ln τ].
	trace := c * (i00 + i11)
	klTau := dist.KLGamma(dist.Gamma{Alpha: m.aTau, Beta: m.bTau}, dist.Gamma{Alpha: 0.5 * p.N0, Beta: 0.5 * p.N0 * p.Sigma20})
	beta := -0.5*dim*math.Log(p.SigmaBeta0) - 0.5*m.logDet + 0.5*dim - 0.5*(eTau*qb+trace) - klTau
	kh := -dist.KLGamma(dist.Gamma{Alpha: m.ah, Beta: m.bh}, dist.Gamma{Alpha: p.AH0, Beta: p.BH0})
	m.terms[0].Value, m.terms[1].Value, m.terms[2].Value, m.terms[3].Value = lik, beta, wts, kh
	return vb.Bound{F: lik + beta + wts + kh, Terms: m.terms[:]}
}

// M sets every λ_i to the maximiser of the convex bound of ln(1 + h d_i)
// under q(h) (eq. 3.37, re-derived, doc.go): λ_i = φ_i/(1 + φ_i) with
// φ_i = d_i exp(E[ln h]), E[ln h] = ψ(a_h) − ln b_h, the logistic function
// σ(t_i) of t_i = ln φ_i (λ_i = 0 where d_i = 0), and keeps its binary
// entropy for the bound, from one exp and one log1p: with e = exp(−|t|) and
// ℓ = ln(1 + e), ln σ(|t|) = −ℓ and ln σ(−|t|) = −|t| − ℓ, so that
// H(λ) = ℓ + min(λ, 1 − λ)|t|.
func (m *VB) M() {
	lnH := numeric.Digamma(m.ah) - math.Log(m.bh)
	for i, l := range m.lnD {
		if math.IsInf(l, -1) {
			m.lam[i], m.hLam[i] = 0, 0
			continue
		}
		t := l + lnH
		at := math.Abs(t)
		e := math.Exp(-at)
		lo := e / (1 + e) // σ(−|t|), the smaller of λ and 1 − λ
		if t >= 0 {
			m.lam[i] = 1 / (1 + e)
		} else {
			m.lam[i] = lo
		}
		m.hLam[i] = math.Log1p(e) + lo*at
	}
}

// Query returns x_q.
func (m *VB) Query() float64 { return m.xq }

// Predict returns the mean of the local line at the query, E[β₀] = m₁
// (the value of the tangent at x_q, L1058), and the variance of the
// predictive y_q under q: the Student-t of q(β, σ²) has variance
// E[σ²] (1 + (Λ⁻¹)₁₁) = b_τ/(a_τ − 1) · (1 + (Λ⁻¹)₁₁) for a_τ > 1, for a
// new point of weight 1. Both are from the last E step.
func (m *VB) Predict() (mean, variance float64) {
	variance = math.Inf(1)
	if m.aTau > 1 {
		variance = m.bTau / (m.aTau - 1) * (1 + m.lamInv[3])
	}
	return m.m[1], variance
}

// Slope returns E[β₁], the slope of the local line, from the last E step.
func (m *VB) Slope() float64 { return m.m[0] }

// QH returns q(h) = Gam(a_h, b_h) (eq. 3.36).
func (m *VB) QH() dist.Gamma { return dist.Gamma{Alpha: m.ah, Beta: m.bh} }

// NoiseVariance returns σ²_N = b_τ/a_τ of eq. 3.26 (1/E[τ]).
func (m *VB) NoiseVariance() float64 { return m.bTau / m.aTau }

// Weights copies E[w_i] into dst (grown as needed) and returns it.
func (m *VB) Weights(dst []float64) []float64 { return append(dst[:0], m.ew...) }

// Lambda copies λ_i into dst (grown as needed) and returns it.
func (m *VB) Lambda(dst []float64) []float64 { return append(dst[:0], m.lam...) }
