package vembias

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Param names one of the seven parameters of the two-chain, two-step
// linear-Gaussian state-space model of T&S §1.4.1 (eqs. 1.24-1.29).
type Param int

// The parameters: the dynamics λ and innovations variance σ_x² shared by
// both chains, the observation noise σ_y², and the emission weights
// w_k = |w_k| [cos φ_k, sin φ_k] (eqs. 1.28-1.29).
const (
	Lambda  Param = iota // λ
	SigmaX2              // σ_x²
	SigmaY2              // σ_y²
	Phi1                 // φ_1 (radians)
	Phi2                 // φ_2 (radians)
	Norm1                // |w_1|
	Norm2                // |w_2|
	NumParams
)

var paramNames = [NumParams]string{"lambda", "sigma_x2", "sigma_y2", "phi1", "phi2", "w1_norm", "w2_norm"}

// String returns the parameter's name as the configs spell it.
func (p Param) String() string { return nameOf(paramNames[:], int(p), "Param") }

// ParseParam returns the parameter named s (see Param.String).
func ParseParam(s string) (Param, error) {
	i, err := parseName(paramNames[:], s, "parameter")
	return Param(i), err
}

// nameOf returns names[i], or kind(i) outside the table.
func nameOf(names []string, i int, kind string) string {
	if i < 0 || i >= len(names) {
		return fmt.Sprintf("%s(%d)", kind, i)
	}
	return names[i]
}

// parseName returns the index of s in names.
func parseName(names []string, s, kind string) (int, error) {
	for i, n := range names {
		if n == s {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (want one of %v)", kind, s, names)
}

// Params holds θ, indexed by Param.
type Params [NumParams]float64

// With returns a copy of θ with parameter p set to v.
func (th Params) With(p Param, v float64) Params { th[p] = v; return th }

// Check returns an error unless θ is a valid stationary model: |λ| < 1 and
// positive variances.
func (th Params) Check() error {
	if !(math.Abs(th[Lambda]) < 1) {
		return fmt.Errorf("λ = %v: want |λ| < 1 (a stationary chain)", th[Lambda])
	}
	if !(th[SigmaX2] > 0) || !(th[SigmaY2] > 0) {
		return fmt.Errorf("σ_x² = %v, σ_y² = %v: want both > 0", th[SigmaX2], th[SigmaY2])
	}
	for _, v := range th {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("θ = %v is not finite", th)
		}
	}
	return nil
}

// Approx is a learning scheme of T&S §1.4.1: exact EM (maximum likelihood),
// the three uncertainty-preserving factorisations (eqs. 1.32-1.34) and
// zero-temperature EM.
type Approx int

// The schemes.
const (
	ML  Approx = iota // exact posterior: F = ln p(y|θ)
	MF                // q(x11) q(x21) q(x12) q(x22), eq. (1.32)
	FC                // factored over chains: q(x11, x12) q(x21, x22), eq. (1.33)
	FT                // factored over time: q(x11, x21) q(x12, x22), eq. (1.34)
	MAP               // zero-temperature EM: q a point mass at the posterior mode
	NumApprox
)

// Approxes lists every scheme in order.
var Approxes = []Approx{ML, MF, FC, FT, MAP}

var approxNames = [NumApprox]string{"ml", "mf", "fc", "ft", "map"}

// String returns "ml", "mf", "fc", "ft" or "map".
func (q Approx) String() string { return nameOf(approxNames[:], int(q), "Approx") }

// ParseApprox returns the scheme named s.
func ParseApprox(s string) (Approx, error) {
	i, err := parseName(approxNames[:], s, "approximation")
	return Approx(i), err
}

// blocks returns the index sets of q's factors over the latents ordered
// x = [x11, x21, x12, x22] (index k + 2t for chain k, time t); nil for ML
// and MAP.
func (q Approx) blocks() [][]int {
	switch q {
	case MF:
		return [][]int{{0}, {1}, {2}, {3}}
	case FC:
		return [][]int{{0, 2}, {1, 3}}
	case FT:
		return [][]int{{0, 1}, {2, 3}}
	}
	return nil
}

// Latents is the number of latent variables (two chains, two steps).
const Latents = 4

// ln2Pi is ln 2π.
const ln2Pi = 1.8378770664093454835606594728112

// parts are the factors from which Σ_y and Λ are assembled (and their
// derivatives with respect to one parameter, with the same layout):
// Σ_y = T ⊗ M + σ_y² I (eq. 1.27, y ordered [y_{1,1}, y_{2,1}, y_{1,2},
// y_{2,2}], time outer) and Λ = (P/σ_x²) ⊗ I_2 + I_2 ⊗ G/σ_y² (eq. 1.30, x
// ordered [x11, x21, x12, x22], time outer).
type parts struct {
	t    [4]float64 // T = s [[1, λ], [λ, 1]], s = σ_x²/(1−λ²): prior covariance over time
	m    [4]float64 // M = W Wᵀ (obs×obs, stride 2)
	s2   float64    // σ_y²
	p    [4]float64 // P/σ_x² = [[1, −λ], [−λ, 1]]/σ_x²: prior precision over time
	g    [4]float64 // G = Wᵀ W (2×2): emission overlaps w_kᵀ w_k'
	inv2 float64    // 1/σ_y²
}

// weights returns W (obs×2, row-major with stride 2): w_{dk} = |w_k| cos φ_k
// for d = 0 and |w_k| sin φ_k for d = 1 (eqs. 1.28-1.29).
func weights(th *Params) (w [4]float64) {
	w[0], w[1] = th[Norm1]*math.Cos(th[Phi1]), th[Norm2]*math.Cos(th[Phi2])
	w[2], w[3] = th[Norm1]*math.Sin(th[Phi1]), th[Norm2]*math.Sin(th[Phi2])
	return w
}

// dweights returns ∂W/∂θ_p (zero unless p is a weight parameter).
func dweights(th *Params, p Param) (dw [4]float64) {
	switch p {
	case Phi1:
		dw[0], dw[2] = -th[Norm1]*math.Sin(th[Phi1]), th[Norm1]*math.Cos(th[Phi1])
	case Phi2:
		dw[1], dw[3] = -th[Norm2]*math.Sin(th[Phi2]), th[Norm2]*math.Cos(th[Phi2])
	case Norm1:
		dw[0], dw[2] = math.Cos(th[Phi1]), math.Sin(th[Phi1])
	case Norm2:
		dw[1], dw[3] = math.Cos(th[Phi2]), math.Sin(th[Phi2])
	}
	return dw
}

// overlaps returns M = A Bᵀ-style products for obs observed dimensions:
// m_{dd'} = Σ_k a_{dk} b_{d'k} and g_{kk'} = Σ_{d<obs} a_{dk} b_{dk'}.
func overlaps(a, b *[4]float64, obs int) (m, g [4]float64) {
	for d := 0; d < obs; d++ {
		for e := 0; e < obs; e++ {
			m[d*2+e] = a[d*2]*b[e*2] + a[d*2+1]*b[e*2+1]
		}
	}
	for k := 0; k < 2; k++ {
		for l := 0; l < 2; l++ {
			for d := 0; d < obs; d++ {
				g[k*2+l] += a[d*2+k] * b[d*2+l]
			}
		}
	}
	return m, g
}

// partsOf returns the parts of θ with obs observed dimensions per step.
func partsOf(th *Params, obs int) parts {
	lam, sx := th[Lambda], th[SigmaX2]
	s := sx / (1 - lam*lam)
	w := weights(th)
	m, g := overlaps(&w, &w, obs)
	return parts{
		t: [4]float64{s, lam * s, lam * s, s}, m: m, s2: th[SigmaY2],
		p: [4]float64{1 / sx, -lam / sx, -lam / sx, 1 / sx}, g: g, inv2: 1 / th[SigmaY2],
	}
}

// dpartsOf returns the derivatives of the parts with respect to θ_p.
func dpartsOf(th *Params, obs int, p Param) parts {
	lam, sx := th[Lambda], th[SigmaX2]
	s := sx / (1 - lam*lam)
	var d parts
	switch p {
	case Lambda:
		ds := 2 * lam * sx / ((1 - lam*lam) * (1 - lam*lam))
		d.t = [4]float64{ds, ds*lam + s, ds*lam + s, ds}
		d.p = [4]float64{0, -1 / sx, -1 / sx, 0}
	case SigmaX2:
		d.t = [4]float64{s / sx, lam * s / sx, lam * s / sx, s / sx}
		d.p = [4]float64{-1 / (sx * sx), lam / (sx * sx), lam / (sx * sx), -1 / (sx * sx)}
	case SigmaY2:
		d.s2 = 1
		d.inv2 = -1 / (th[SigmaY2] * th[SigmaY2])
	default:
		w, dw := weights(th), dweights(th, p)
		m1, g1 := overlaps(&dw, &w, obs)
		m2, g2 := overlaps(&w, &dw, obs)
		for i := range d.m {
			d.m[i], d.g[i] = m1[i]+m2[i], g1[i]+g2[i]
		}
	}
	return d
}

// sigmaY writes Σ_y (n×n, n = 2·obs) of the parts c, or with d its
// derivative: T⊗M + σ²I, or dT⊗M + T⊗dM + dσ² I.
func sigmaY(dst []float64, c *parts, d *parts, obs int) {
	n := 2 * obs
	for t := 0; t < 2; t++ {
		for u := 0; u < 2; u++ {
			for a := 0; a < obs; a++ {
				for b := 0; b < obs; b++ {
					var v float64
					if d == nil {
						v = c.t[t*2+u] * c.m[a*2+b]
					} else {
						v = d.t[t*2+u]*c.m[a*2+b] + c.t[t*2+u]*d.m[a*2+b]
					}
					dst[(t*obs+a)*n+u*obs+b] = v
				}
			}
		}
	}
	s2 := c.s2
	if d != nil {
		s2 = d.s2
	}
	for i := 0; i < n; i++ {
		dst[i*n+i] += s2
	}
}

// precision writes Λ (4×4) of the parts c, or with d its derivative:
// (P/σ_x²)⊗I + I⊗G/σ_y², or d(P/σ_x²)⊗I + I⊗(dG/σ_y² + G d(1/σ_y²)).
func precision(dst []float64, c *parts, d *parts) {
	clear(dst[:16])
	for t := 0; t < 2; t++ {
		for u := 0; u < 2; u++ {
			pv := c.p[t*2+u]
			if d != nil {
				pv = d.p[t*2+u]
			}
			for k := 0; k < 2; k++ {
				dst[(2*t+k)*4+2*u+k] += pv
			}
		}
		for k := 0; k < 2; k++ {
			for l := 0; l < 2; l++ {
				v := c.g[k*2+l] * c.inv2
				if d != nil {
					v = d.g[k*2+l]*c.inv2 + c.g[k*2+l]*d.inv2
				}
				dst[(2*t+k)*4+2*t+l] += v
			}
		}
	}
}

// SSM evaluates the closed forms of the two-chain model with Obs observed
// dimensions per time step: 2 (the paper's model), or 1, the reading of
// targets §1.3 that drops the output y_{2,t} (with w_k = [1, 0] it is pure
// noise). Its methods keep scratch space: an SSM is not safe for concurrent
// use; make one per goroutine.
type SSM struct {
	Obs int

	sy, syl, syi   [16]float64
	lam, laml, lai [16]float64
	blk            [16]float64
	work, dm       [16]float64
}

// NewSSM returns an evaluator with obs (1 or 2) observed dimensions a step.
func NewSSM(obs int) *SSM {
	if obs != 1 && obs != 2 {
		panic("vembias: NewSSM: obs must be 1 or 2")
	}
	return &SSM{Obs: obs}
}

// N returns the dimension of y, 2·Obs.
func (m *SSM) N() int { return 2 * m.Obs }

// Sigma writes Σ_y(θ) (N×N, row-major) into dst (eq. 1.27).
func (m *SSM) Sigma(th Params, dst []float64) {
	c := partsOf(&th, m.Obs)
	sigmaY(dst, &c, nil, m.Obs)
}

// Precision writes the posterior precision Λ(θ) = Σ_{x|y}⁻¹ (4×4) into dst
// (eq. 1.30).
func (m *SSM) Precision(th Params, dst []float64) {
	c := partsOf(&th, m.Obs)
	precision(dst, &c, nil)
}

// PosteriorMeanMap writes K (4×N) with μ_{x|y} = K y, K = Λ⁻¹ W_bigᵀ/σ_y²
// (eq. 1.31), into dst.
func (m *SSM) PosteriorMeanMap(th Params, dst []float64) error {
	c := partsOf(&th, m.Obs)
	precision(m.laml[:], &c, nil)
	if !numeric.CholFactor(m.laml[:], 4) {
		return fmt.Errorf("vembias: Λ(θ) is not positive definite at θ = %v", th)
	}
	numeric.CholInverse(m.lai[:], m.laml[:], 4, m.work[:])
	n, w := m.N(), weights(&th)
	for i := 0; i < 4; i++ {
		for j := 0; j < n; j++ {
			tj, dj := j/m.Obs, j%m.Obs
			var v float64
			for k := 0; k < 2; k++ {
				v += m.lai[i*4+2*tj+k] * w[dj*2+k]
			}
			dst[i*n+j] = v * c.inv2
		}
	}
	return nil
}

// factor computes the Cholesky factors and inverses of Σ_y and Λ of the
// parts c, and the block-diagonal inverse blockdiag(Λ_bb⁻¹) of q in m.blk.
func (m *SSM) factor(c *parts, q Approx) bool {
	n := m.N()
	sigmaY(m.syl[:], c, nil, m.Obs)
	if !numeric.CholFactor(m.syl[:], n) {
		return false
	}
	numeric.CholInverse(m.syi[:], m.syl[:], n, m.work[:])
	precision(m.lam[:], c, nil)
	copy(m.laml[:], m.lam[:])
	if !numeric.CholFactor(m.laml[:], 4) {
		return false
	}
	numeric.CholInverse(m.lai[:], m.laml[:], 4, m.work[:])
	clear(m.blk[:])
	for _, b := range q.blocks() {
		var sub, subl, subi [4]float64
		nb := len(b)
		for i, a := range b {
			for j, e := range b {
				sub[i*nb+j] = m.lam[a*4+e]
			}
		}
		copy(subl[:], sub[:])
		if !numeric.CholFactor(subl[:], nb) {
			return false
		}
		numeric.CholInverse(subi[:], subl[:], nb, m.work[:])
		for i, a := range b {
			for j, e := range b {
				m.blk[a*4+e] = subi[i*nb+j]
			}
		}
	}
	return true
}

// klValue returns KL_q after factor: ½(Σ_b ln|Λ_bb| − ln|Λ|).
func (m *SSM) klValue(q Approx) float64 {
	var s float64
	for _, b := range q.blocks() {
		var sub [4]float64
		nb := len(b)
		for i, a := range b {
			for j, e := range b {
				sub[i*nb+j] = m.lam[a*4+e]
			}
		}
		numeric.CholFactor(sub[:], nb)
		s += numeric.CholLogDet(sub[:], nb)
	}
	if q.blocks() == nil {
		return 0
	}
	return 0.5 * (s - numeric.CholLogDet(m.laml[:], 4))
}

// KL returns the KL divergence of the optimal q of scheme q from the
// posterior p(x|y, θ), ½(Σ_b ln|Λ_bb| − ln|Λ|): eq. (1.35) corrected as in
// targets §1.4 (the printed ratio is upside down), independent of y. It is
// 0 for ML and +Inf for MAP (a point mass, L250).
func (m *SSM) KL(th Params, q Approx) float64 {
	switch q {
	case ML:
		return 0
	case MAP:
		return math.Inf(1)
	}
	c := partsOf(&th, m.Obs)
	if !m.factor(&c, q) {
		return math.NaN()
	}
	return m.klValue(q)
}

// LogLik returns the average log-likelihood of sequences whose second
// moment is S (N×N), −(N/2) ln 2π − ½ ln|Σ_y| − ½ tr(Σ_y⁻¹ S): eq. (1.41)
// with ⟨yyᵀ⟩ = S, the infinite-data limit when S = Σ_y(θ*) and the finite-
// data average (1/n) ln p(y_{1:n}|θ) when S = (1/n) Σ y_i y_iᵀ.
func (m *SSM) LogLik(th Params, S []float64) float64 {
	return m.Objective(th, S, ML)
}

// Objective returns the scheme's objective per sequence at θ, with q at
// its optimum for θ (the E step): ln p(y|θ) for ML, F_q(θ) = ln p(y|θ) −
// KL_q(θ) for MF, FC and FT (eqs. 1.5, 1.35-1.39), and the zero-temperature
// objective max_x ln p(y, x|θ) = ln p(y|θ) + ½ ln|Λ| − 2 ln 2π for MAP
// (L250, targets Appendix A). NaN where θ is not a valid model.
func (m *SSM) Objective(th Params, S []float64, q Approx) float64 {
	if th.Check() != nil {
		return math.NaN()
	}
	c := partsOf(&th, m.Obs)
	if !m.factor(&c, q) {
		return math.NaN()
	}
	return m.objective(S, q)
}

// objective evaluates after factor.
func (m *SSM) objective(S []float64, q Approx) float64 {
	n := m.N()
	var tr float64
	for i := 0; i < n*n; i++ {
		tr += m.syi[i] * S[i]
	}
	ll := -0.5*float64(n)*ln2Pi - 0.5*numeric.CholLogDet(m.syl[:], n) - 0.5*tr
	switch q {
	case ML:
		return ll
	case MAP:
		return ll + 0.5*numeric.CholLogDet(m.laml[:], 4) - 0.5*Latents*ln2Pi
	}
	return ll - m.klValue(q)
}

// Gradient returns the objective of scheme q at θ and writes its partial
// derivatives with respect to the parameters free into grad: ∂ℓ/∂θ =
// ½ tr((Σ_y⁻¹SΣ_y⁻¹ − Σ_y⁻¹) ∂Σ_y), ∂KL/∂θ = ½ tr((blockdiag(Λ_bb⁻¹) −
// Λ⁻¹) ∂Λ) and ∂(½ ln|Λ|)/∂θ = ½ tr(Λ⁻¹ ∂Λ), with ∂Σ_y and ∂Λ from eqs.
// (1.27) and (1.30).
func (m *SSM) Gradient(th Params, S []float64, q Approx, free []Param, grad []float64) float64 {
	if th.Check() != nil {
		for i := range free {
			grad[i] = math.NaN()
		}
		return math.NaN()
	}
	c := partsOf(&th, m.Obs)
	if !m.factor(&c, q) {
		for i := range free {
			grad[i] = math.NaN()
		}
		return math.NaN()
	}
	f := m.objective(S, q)
	n := m.N()
	// A_y = Σ⁻¹ S Σ⁻¹ − Σ⁻¹ and A_Λ, the weight of ∂Λ.
	var sis, ay, al [16]float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var v float64
			for k := 0; k < n; k++ {
				v += m.syi[i*n+k] * S[k*n+j]
			}
			sis[i*n+j] = v
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var v float64
			for k := 0; k < n; k++ {
				v += sis[i*n+k] * m.syi[k*n+j]
			}
			ay[i*n+j] = v - m.syi[i*n+j]
		}
	}
	for i := range al {
		switch q {
		case MAP:
			al[i] = m.lai[i]
		case MF, FC, FT:
			al[i] = m.lai[i] - m.blk[i]
		}
	}
	for i, p := range free {
		d := dpartsOf(&th, m.Obs, p)
		sigmaY(m.dm[:], &c, &d, m.Obs)
		var g float64
		for k := 0; k < n*n; k++ {
			g += ay[k] * m.dm[k]
		}
		if q != ML {
			precision(m.dm[:], &c, &d)
			for k := 0; k < 16; k++ {
				g += al[k] * m.dm[k]
			}
		}
		grad[i] = 0.5 * g
	}
	return f
}

// SampleMoments returns the second moment (1/n) Σ y_i y_iᵀ of n sequences
// drawn from the model θ with obs observed dimensions (eqs. 1.24-1.26):
// the S of the finite-data objective (1/n) ln p(y_{1:n}|θ).
func SampleMoments(th Params, obs, n int, rnd *rand.Rand) ([]float64, error) {
	if err := th.Check(); err != nil {
		return nil, err
	}
	m := NewSSM(obs)
	d := m.N()
	l := make([]float64, d*d)
	m.Sigma(th, l)
	if !numeric.CholFactor(l, d) {
		return nil, fmt.Errorf("vembias: Σ_y(θ) is not positive definite at θ = %v", th)
	}
	S := make([]float64, d*d)
	z, y := make([]float64, d), make([]float64, d)
	for i := 0; i < n; i++ {
		for j := range z {
			z[j] = rnd.NormFloat64()
		}
		for a := 0; a < d; a++ {
			y[a] = 0
			for b := 0; b <= a; b++ {
				y[a] += l[a*d+b] * z[b]
			}
		}
		for a := 0; a < d; a++ {
			for b := 0; b < d; b++ {
				S[a*d+b] += y[a] * y[b]
			}
		}
	}
	for i := range S {
		S[i] /= float64(n)
	}
	return S, nil
}
