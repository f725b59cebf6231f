package bnn

import "math"

// vbScratch holds the per-hidden-unit values of one input under one
// diagonal Gaussian: the activation's mean μ_h and variance σ_h², the
// moments ⟨g⟩, ⟨g²⟩ and their derivatives.
type vbScratch struct {
	mu, v, e1, e2 []float64
	d             [][4]float64
}

func newVBScratch(h int) *vbScratch {
	return &vbScratch{mu: make([]float64, h), v: make([]float64, h), e1: make([]float64, h),
		e2: make([]float64, h), d: make([][4]float64, h)}
}

// momentsF returns ⟨f(x, w)⟩ and Var f(x, w) under the diagonal Gaussian
// q(w) = N(mean, diag s²), s = exp(logs) (eqs. C.32, C.33 with the output
// bias and the exact ⟨g²⟩ of gMoments): with a_h = u_hᵀx̃ ~ N(μ_h, σ_h²),
// μ_h = Σ_i ū_hi x̃_i, σ_h² = Σ_i s_hi² x̃_i², the terms v_h g(a_h) and the
// output bias are independent, so
//
//	⟨f⟩   = v̄_bias + Σ_h v̄_h ⟨g_h⟩,
//	Var f = s²_bias + Σ_h [(v̄_h² + s_vh²)⟨g_h²⟩ − v̄_h²⟨g_h⟩²].
//
// With grad true it also fills sc.d for momentsGrad.
func (a Arch) momentsF(mean, logs, x []float64, sc *vbScratch, grad bool) (ef, vf float64) {
	u := a.U()
	for h := 0; h < a.Hidden; h++ {
		o := h * (a.In + 1)
		mu, v := mean[o+a.In], math.Exp(2*logs[o+a.In])
		for i, xi := range x[:a.In] {
			mu += mean[o+i] * xi
			v += math.Exp(2*logs[o+i]) * xi * xi
		}
		sc.mu[h], sc.v[h] = mu, v
		var dp *[4]float64
		if grad {
			dp = &sc.d[h]
		}
		sc.e1[h], sc.e2[h] = gMoments(mu, v, dp)
	}
	ef = mean[u+a.Hidden]
	vf = math.Exp(2 * logs[u+a.Hidden])
	for h := 0; h < a.Hidden; h++ {
		m, s2 := mean[u+h], math.Exp(2*logs[u+h])
		ef += m * sc.e1[h]
		vf += (m*m+s2)*sc.e2[h] - m*m*sc.e1[h]*sc.e1[h]
	}
	return ef, vf
}

// momentsGrad adds c·∂⟨f⟩/∂θ + cv·∂Var f/∂θ to gm (θ the means) and gs (θ
// the log standard deviations), after momentsF(…, grad = true) on the same
// input.
func (a Arch) momentsGrad(mean, logs, x []float64, sc *vbScratch, c, cv float64, gm, gs []float64) {
	u := a.U()
	gm[u+a.Hidden] += c
	gs[u+a.Hidden] += cv * 2 * math.Exp(2*logs[u+a.Hidden])
	for h := 0; h < a.Hidden; h++ {
		m, s2 := mean[u+h], math.Exp(2*logs[u+h])
		e1, e2 := sc.e1[h], sc.e2[h]
		gm[u+h] += c*e1 + cv*2*m*(e2-e1*e1)
		gs[u+h] += cv * e2 * 2 * s2
		c1 := c*m - cv*2*m*m*e1 // coefficient of ∂⟨g⟩
		c2 := cv * (m*m + s2)   // coefficient of ∂⟨g²⟩
		d := &sc.d[h]
		dmu := c1*d[0] + c2*d[2]
		dv := c1*d[1] + c2*d[3]
		o := h * (a.In + 1)
		gm[o+a.In] += dmu
		gs[o+a.In] += dv * 2 * math.Exp(2*logs[o+a.In])
		for i, xi := range x[:a.In] {
			gm[o+i] += dmu * xi
			gs[o+i] += dv * xi * xi * 2 * math.Exp(2*logs[o+i])
		}
	}
}

// expectED returns ⟨E_D⟩ = ½ Σ_n [(t_n − ⟨f_n⟩)² + Var f_n] under the
// diagonal Gaussian (mean, exp(logs)) (eq. C.22), and when gm is not nil
// adds its gradient in the means to gm and in the log standard deviations
// to gs.
func (a Arch) expectED(mean, logs []float64, x [][]float64, t []float64, sc *vbScratch, gm, gs []float64) float64 {
	var e float64
	for n, xn := range x {
		ef, vf := a.momentsF(mean, logs, xn, sc, gm != nil)
		r := ef - t[n]
		e += 0.5 * (r*r + vf)
		if gm != nil {
			a.momentsGrad(mean, logs, xn, sc, r, 0.5, gm, gs)
		}
	}
	return e
}
