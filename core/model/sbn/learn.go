package sbn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/vb"
)

// Learning (Lawrence 2000 §2.5.2, L1145-1150; L1119: "Learning consists of
// optimisation of the parameters W ... through gradient based optimisation
// methods"): with q fitted to a pattern, the bound is a function of the
// weights and biases through Λ alone (eq. 2.13; the entropies and the
// mutual-information terms of eq. 2.24 do not involve W), so its gradient
// is Σ_m Q(m) ∂Λ_m/∂W at the fitted μ_m, ξ_m (eq. 2.25).

// Layers returns the layer sizes, top first (a copy).
func (n *Net) Layers() []int { return append([]int(nil), n.layers...) }

// Params returns copies of the weights w[i][j] and biases b[i] in NewNet's
// layout.
func (n *Net) Params() (w [][]float64, b []float64) {
	w = make([][]float64, len(n.w))
	for i := range n.w {
		w[i] = append([]float64(nil), n.w[i]...)
	}
	return w, append([]float64(nil), n.b...)
}

// Step returns a new net whose weights and biases are n's plus rate times
// (gw, gb), in NewNet's layout (n is not changed).
func (n *Net) Step(rate float64, gw [][]float64, gb []float64) (*Net, error) {
	w, b := n.Params()
	if len(gw) != len(w) || len(gb) != len(b) {
		return nil, fmt.Errorf("sbn: a gradient of %d rows and %d biases for %d units", len(gw), len(gb), len(b))
	}
	for i := range w {
		if len(gw[i]) != len(w[i]) {
			return nil, fmt.Errorf("sbn: unit %d: %d weight gradients for %d weights", i, len(gw[i]), len(w[i]))
		}
		for j := range w[i] {
			w[i][j] += rate * gw[i][j]
		}
		b[i] += rate * gb[i]
	}
	return NewNet(n.layers, w, b)
}

// zeroGradient returns zero gradients in NewNet's layout.
func (n *Net) zeroGradient() ([][]float64, []float64) {
	gw := make([][]float64, len(n.w))
	for i := range gw {
		gw[i] = make([]float64, len(n.w[i]))
	}
	return gw, make([]float64, len(n.b))
}

// addLambdaGradient adds scale·∂Λ/∂W of component c to (gw, gb). Unit i's
// term of Λ is μ_i⟨z_i⟩ − ξ_i⟨z_i⟩ − ln(e^{l_a} + e^{l_b}), l_a =
// ln⟨e^{−ξ_i z_i}⟩ = −ξ_i b_i + Σ_j ln(1 − μ_j + μ_j e^{−ξ_i w_ij}) and l_b =
// ln⟨e^{(1−ξ_i) z_i}⟩ likewise (eqs. 2.12-2.13, A.5-A.7), so with ω_a, ω_b =
// 1 − ω_a the weights of the two exponentials and p_a, p_b the tilted
// parent means μ_j e^{−ξw_ij}/(1 − μ_j + μ_j e^{−ξw_ij}) and
// μ_j e^{(1−ξ)w_ij}/(1 − μ_j + μ_j e^{(1−ξ)w_ij}),
//
//	∂Λ/∂b_i  = μ_i − ω_b,
//	∂Λ/∂w_ij = (μ_i − ξ_i) μ_j + ξ_i ω_a p_a − (1 − ξ_i) ω_b p_b.
func (n *Net) addLambdaGradient(c component, scale float64, gw [][]float64, gb []float64) {
	for i := range n.Units() {
		xi := c.xi[i]
		lo, _ := n.parents(i)
		la, lb := -xi*n.b[i], (1-xi)*n.b[i]
		for j, w := range n.w[i] {
			m := c.mu[lo+j]
			la += math.Log(1 - m + m*math.Exp(-xi*w))
			lb += math.Log(1 - m + m*math.Exp((1-xi)*w))
		}
		wb := 1 / (1 + math.Exp(la-lb))
		wa := 1 - wb
		gb[i] += scale * (c.mu[i] - wb)
		for j, w := range n.w[i] {
			m := c.mu[lo+j]
			ea := m * math.Exp(-xi*w)
			eb := m * math.Exp((1-xi)*w)
			pa, pb := ea/(1-m+ea), eb/(1-m+eb)
			gw[i][j] += scale * ((c.mu[i]-xi)*m + xi*wa*pa - (1-xi)*wb*pb)
		}
	}
}

// Gradient returns the gradient of the mean-field bound (eq. 2.15) in the
// net's weights and biases at the current μ, ξ, in NewNet's layout.
func (m *MeanField) Gradient() (gw [][]float64, gb []float64) {
	gw, gb = m.net.zeroGradient()
	m.net.addLambdaGradient(m.c, 1, gw, gb)
	return gw, gb
}

// Gradient returns the gradient of 𝓛_λ (eq. 2.25) in the net's weights and
// biases at the current variational parameters: Σ_m Q(m) ∂Λ_m/∂W.
func (x *Mixture) Gradient() (gw [][]float64, gb []float64) {
	gw, gb = x.net.zeroGradient()
	for m, c := range x.comps {
		x.net.addLambdaGradient(c, x.q[m], gw, gb)
	}
	return gw, gb
}

// Means returns ⟨h_k⟩ of the latent units under q: Σ_m Q(m) μ_mk (eq.
// 2.19), a new slice.
func (x *Mixture) Means() []float64 {
	h := x.net.Hidden()
	out := make([]float64, h)
	for m, c := range x.comps {
		for k := range h {
			out[k] += x.q[m] * c.mu[k]
		}
	}
	return out
}

// Q is a fitted q of one pattern: mean field or a mixture.
type Q interface {
	vb.Model
	// Gradient is the bound's gradient in the net's weights and biases.
	Gradient() ([][]float64, []float64)
	// Means are the latent units' ⟨h_k⟩ under q.
	Means() []float64
}

// Means returns ⟨h_k⟩ = μ_k of the latent units, a new slice.
func (m *MeanField) Means() []float64 { return append([]float64(nil), m.Mu()...) }

// FitQ fits mean field (s.Components 0) or an s.Components mixture to
// pattern v of net n from random starts drawn from r, as FitPattern does,
// and returns the fitted q with the fit.
func FitQ(n *Net, v []float64, s Settings, r *rand.Rand) (Q, Fit, error) {
	var m Q
	var err error
	if s.Components == 0 {
		m, err = NewMeanField(n, v, r)
	} else {
		m, err = NewMixture(n, v, s.Components, r)
	}
	if err != nil {
		return nil, Fit{}, err
	}
	vs := s.VB
	if vs.AbsTol == 0 { // FitPattern's defaults
		vs.AbsTol = 1e-8
	}
	if vs.RelTol == 0 {
		vs.RelTol = -1
	}
	res := vb.Run(m, vs)
	if err := res.Error(); err != nil {
		return nil, Fit{}, fmt.Errorf("sbn: %d components: %w", s.Components, err)
	}
	return m, Fit{Bound: res.F, Iterations: res.Iterations, Status: res.Status}, nil
}

// LearnStep presents pattern v to net n (§2.5.2, L1145-1150): it fits q
// (FitQ) and returns the net moved by rate times the bound's gradient in
// the weights and biases, and the fit.
func LearnStep(n *Net, v []float64, s Settings, rate float64, r *rand.Rand) (*Net, Fit, error) {
	m, f, err := FitQ(n, v, s, r)
	if err != nil {
		return nil, Fit{}, err
	}
	gw, gb := m.Gradient()
	next, err := n.Step(rate, gw, gb)
	if err != nil {
		return nil, Fit{}, err
	}
	return next, f, nil
}

// ExactMeans returns the exact posterior means P(h_k = 1 | V) of the latent
// units and ln P(V), by enumerating the 2^Hidden latent states (eq. 2.6).
func (n *Net) ExactMeans(v []float64) ([]float64, float64, error) {
	if err := n.checkVisible(v); err != nil {
		return nil, 0, err
	}
	h := n.Hidden()
	s := make([]float64, n.Units())
	copy(s[h:], v)
	lps := make([]float64, 1<<h)
	mx := math.Inf(-1)
	for c := range lps {
		for j := range h {
			s[j] = float64((c >> j) & 1)
		}
		lps[c] = n.LogJoint(s)
		mx = math.Max(mx, lps[c])
	}
	means := make([]float64, h)
	z := 0.0
	for c, lp := range lps {
		p := math.Exp(lp - mx)
		z += p
		for j := range h {
			if (c>>j)&1 == 1 {
				means[j] += p
			}
		}
	}
	for j := range means {
		means[j] /= z
	}
	return means, mx + math.Log(z), nil
}
