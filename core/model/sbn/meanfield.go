package sbn

import (
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/vb"
)

// MeanField is the mean-field fit of one pattern (L857-909, Saul et al.
// 1996): a product of Bernoullis over the latent units (eq. 2.10) and one ξ_i
// per unit (eq. 2.12). It is a vb.Model: E updates every μ_k in turn (eq.
// 2.18, kept only where the exact bound rises, see updateMu) and returns
// the bound of eq. 2.15; M updates every ξ_i.
type MeanField struct {
	net *Net
	c   component
	wk  *work
}

// NewMeanField starts a mean-field fit of visible pattern v with every μ_k
// and ξ_i drawn uniform on (0, 1) (the initialisation of L1149).
func NewMeanField(n *Net, v []float64, r *rand.Rand) (*MeanField, error) {
	if err := n.checkVisible(v); err != nil {
		return nil, err
	}
	mf := &MeanField{net: n, c: newComponent(n, v), wk: newWork(n)}
	initComponent(n, mf.c, r)
	return mf, nil
}

func initComponent(n *Net, c component, r *rand.Rand) {
	for k := range n.Hidden() {
		c.mu[k] = r.Float64()
	}
	for i := range n.Units() {
		c.xi[i] = r.Float64()
	}
	n.refresh(c)
}

// E updates every μ_k and returns the bound of eq. 2.15 with its terms
// "<lnP>" (Λ of eq. 2.13) and "H[q]" (the entropies).
func (m *MeanField) E() (vb.Bound, error) {
	for k := range m.net.Hidden() {
		m.net.updateMu(k, m.c, 0, m.wk)
	}
	return m.Bound(), nil
}

// M updates every ξ_i (L905).
func (m *MeanField) M() {
	for i := range m.net.Units() {
		m.net.updateXi(i, m.c, m.wk)
	}
}

// Bound is the current bound of eq. 2.15 (every constant included: a lower
// bound on ln P(V)).
func (m *MeanField) Bound() vb.Bound {
	l, h := m.net.bound(m.c)
	return vb.Bound{F: l + h, Terms: []vb.Term{{Name: "<lnP>", Value: l}, {Name: "H[q]", Value: h}}}
}

// Mu returns the latent units' means μ_k (not a copy).
func (m *MeanField) Mu() []float64 { return m.c.mu[:m.net.Hidden()] }
