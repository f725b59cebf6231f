package bnn

import "math"

// vbScratch holds the per-hidden-unit values of a block of up to
// momentBlock inputs under one diagonal Gaussian (unit h of the block's
// point b at b·H + h): the activation's mean μ_h and variance σ_h², the
// moments ⟨g⟩, ⟨g²⟩ and their derivatives, and the work space of
// gMomentsTo.
type vbScratch struct {
	mu, v, e1, e2 []float64
	d             [][4]float64
	s2            []float64 // the variances of the weights, exp(2 logs)
	mw            *momentWork
}

func newVBScratch(h int) *vbScratch {
	n := momentBlock * h
	return &vbScratch{mu: make([]float64, n), v: make([]float64, n), e1: make([]float64, n),
		e2: make([]float64, n), d: make([][4]float64, n), mw: newMomentWork(n)}
}

// variances sets sc.s2 to exp(2 logs).
func (sc *vbScratch) variances(logs []float64) []float64 {
	if len(sc.s2) != len(logs) {
		sc.s2 = make([]float64, len(logs))
	}
	for j, l := range logs {
		sc.s2[j] = math.Exp(2 * l)
	}
	return sc.s2
}

// blockMoments fills sc for the inputs x (at most momentBlock of them)
// under the diagonal Gaussian q(w) = N(mean, diag s2): with a_h = u_hᵀx̃ ~
// N(μ_h, σ_h²), μ_h = Σ_i ū_hi x̃_i, σ_h² = Σ_i s_hi² x̃_i², the moments
// ⟨g_h⟩, ⟨g_h²⟩ of gMoments (eqs. C.32, C.33 with the exact ⟨g²⟩) and, with
// grad true, their derivatives for momentsGrad.
func (a Arch) blockMoments(mean, s2 []float64, x [][]float64, sc *vbScratch, grad bool) {
	for b, xb := range x {
		for h := 0; h < a.Hidden; h++ {
			o := h * (a.In + 1)
			mu, v := mean[o+a.In], s2[o+a.In]
			for i, xi := range xb[:a.In] {
				mu += mean[o+i] * xi
				v += s2[o+i] * xi * xi
			}
			sc.mu[b*a.Hidden+h], sc.v[b*a.Hidden+h] = mu, v
		}
	}
	n := len(x) * a.Hidden
	var d [][4]float64
	if grad {
		d = sc.d[:n]
	}
	sc.mw.gMomentsTo(sc.mu[:n], sc.v[:n], sc.e1[:n], sc.e2[:n], d)
}

// outputMoments returns ⟨f(x, w)⟩ and Var f(x, w) of the block's point b
// after blockMoments: the terms v_h g(a_h) and the output bias are
// independent, so
//
//	⟨f⟩   = v̄_bias + Σ_h v̄_h ⟨g_h⟩,
//	Var f = s²_bias + Σ_h [(v̄_h² + s_vh²)⟨g_h²⟩ − v̄_h²⟨g_h⟩²].
func (a Arch) outputMoments(mean, s2 []float64, sc *vbScratch, b int) (ef, vf float64) {
	u := a.U()
	ef = mean[u+a.Hidden]
	vf = s2[u+a.Hidden]
	e1, e2 := sc.e1[b*a.Hidden:(b+1)*a.Hidden], sc.e2[b*a.Hidden:(b+1)*a.Hidden]
	for h := 0; h < a.Hidden; h++ {
		m, sv := mean[u+h], s2[u+h]
		ef += m * e1[h]
		vf += (m*m+sv)*e2[h] - m*m*e1[h]*e1[h]
	}
	return ef, vf
}

// momentsF returns ⟨f(x, w)⟩ and Var f(x, w) under the diagonal Gaussian
// q(w) = N(mean, diag s²), s = exp(logs) (eqs. C.32, C.33 with the output
// bias and the exact ⟨g²⟩ of gMoments; s2 the weights' variances), by
// blockMoments and outputMoments on the one input x; with grad true it
// also fills sc.d for momentsGrad(…, b = 0, …).
func (a Arch) momentsF(mean, s2, x []float64, sc *vbScratch, grad bool) (ef, vf float64) {
	a.blockMoments(mean, s2, [][]float64{x}, sc, grad)
	return a.outputMoments(mean, s2, sc, 0)
}

// momentsGrad adds c·∂⟨f⟩/∂θ + cv·∂Var f/∂θ to gm (θ the means) and gs (θ
// the log standard deviations) at the input x, the block's point b after
// blockMoments(…, grad = true).
func (a Arch) momentsGrad(mean, s2, x []float64, sc *vbScratch, b int, c, cv float64, gm, gs []float64) {
	u := a.U()
	gm[u+a.Hidden] += c
	gs[u+a.Hidden] += cv * 2 * s2[u+a.Hidden]
	for h := 0; h < a.Hidden; h++ {
		m, sv := mean[u+h], s2[u+h]
		e1, e2 := sc.e1[b*a.Hidden+h], sc.e2[b*a.Hidden+h]
		gm[u+h] += c*e1 + cv*2*m*(e2-e1*e1)
		gs[u+h] += cv * e2 * 2 * sv
		c1 := c*m - cv*2*m*m*e1 // coefficient of ∂⟨g⟩
		c2 := cv * (m*m + sv)   // coefficient of ∂⟨g²⟩
		d := &sc.d[b*a.Hidden+h]
		dmu := c1*d[0] + c2*d[2]
		dv := c1*d[1] + c2*d[3]
		o := h * (a.In + 1)
		gm[o+a.In] += dmu
		gs[o+a.In] += dv * 2 * s2[o+a.In]
		for i, xi := range x[:a.In] {
			gm[o+i] += dmu * xi
			gs[o+i] += dv * xi * xi * 2 * s2[o+i]
		}
	}
}

// expectED returns ⟨E_D⟩ = ½ Σ_n [(t_n − ⟨f_n⟩)² + Var f_n] under the
// diagonal Gaussian (mean, exp(logs)) (eq. C.22), and when gm is not nil
// adds its gradient in the means to gm and in the log standard deviations
// to gs. The points go in blocks of momentBlock (blockMoments); the sums
// run over the points in order, as one point at a time would.
func (a Arch) expectED(mean, logs []float64, x [][]float64, t []float64, sc *vbScratch, gm, gs []float64) float64 {
	var e float64
	s2 := sc.variances(logs)
	for n0 := 0; n0 < len(x); n0 += momentBlock {
		n1 := min(n0+momentBlock, len(x))
		a.blockMoments(mean, s2, x[n0:n1], sc, gm != nil)
		for n := n0; n < n1; n++ {
			ef, vf := a.outputMoments(mean, s2, sc, n-n0)
			r := ef - t[n]
			e += 0.5 * (r*r + vf)
			if gm != nil {
				a.momentsGrad(mean, s2, x[n], sc, n-n0, r, 0.5, gm, gs)
			}
		}
	}
	return e
}
