package vbtest

import (
	"fmt"
	"slices"

	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/vb"
)

// Moves of GaussianMixture, the toy model of the driver's move seam
// (vb.Mover, vb.Search): the birth of a component by a responsibility split
// and the death of one, the shapes of Beal (2003) section 4.3 for mixtures
// of factor analysers (eqs. 4.73-4.76 with α_h = 1).
const (
	MoveBirth = "birth"
	MoveDeath = "death"
)

var _ vb.Mover = (*GaussianMixture)(nil)

// Size returns the number of components K.
func (m *GaussianMixture) Size() int { return m.K }

// Propose returns the first move not yet tried since the last accepted one:
// the death of each component (while K > 1), then the birth from each
// component, in component order. When every move has been rejected since
// the last acceptance the search is over.
func (m *GaussianMixture) Propose(log []vb.MoveRecord) (vb.Move, bool) {
	var tried []vb.Move
	for i := len(log) - 1; i >= 0 && !log[i].Accepted; i-- {
		tried = append(tried, log[i].Move)
	}
	var cands []vb.Move
	if m.K > 1 {
		for j := 0; j < m.K; j++ {
			cands = append(cands, vb.Move{Kind: MoveDeath, Component: j, Other: -1})
		}
	}
	for j := 0; j < m.K; j++ {
		cands = append(cands, vb.Move{Kind: MoveBirth, Component: j, Other: -1})
	}
	for _, c := range cands {
		if !slices.Contains(tried, c) {
			return c, true
		}
	}
	return vb.Move{}, false
}

// Apply performs a birth or a death on q(z) and then runs M, so that q(θ)
// matches the new components:
//
//   - birth from j: a new component K takes the responsibility of j for the
//     points at or above Mu_j (the split of eqs. 4.73-4.74 with α_h = 1);
//   - death of j: column j of q(z) is removed and each row renormalised
//     (a row that was all j's becomes uniform).
func (m *GaussianMixture) Apply(mv vb.Move) error {
	j := mv.Component
	if j < 0 || j >= m.K {
		return fmt.Errorf("vbtest: component %d of %d", j, m.K)
	}
	k, n := m.K, len(m.X)
	switch mv.Kind {
	case MoveBirth:
		resp := mixture.Add(m.Resp, n)
		for i, x := range m.X {
			if x >= m.Mu[j] {
				resp[k*n+i], resp[j*n+i] = resp[j*n+i], 0
			}
		}
		m.resize(k + 1)
		m.Resp = resp
	case MoveDeath:
		if k < 2 {
			return fmt.Errorf("vbtest: death of the only component")
		}
		m.resize(k - 1)
		m.Resp = mixture.Remove(m.Resp, n, j)
	default:
		return fmt.Errorf("vbtest: unknown move %q", mv.Kind)
	}
	m.M()
	return nil
}

// resize sets K and gives every per-component slice the new length.
func (m *GaussianMixture) resize(k int) {
	m.K = k
	for _, s := range []*[]float64{&m.Alpha, &m.Mu, &m.Beta, &m.A, &m.B, &m.elnpi, &m.c, &m.et} {
		*s = make([]float64, k)
	}
}

// mixtureState is a snapshot of GaussianMixture.
type mixtureState struct {
	k                          int
	prior                      MixturePrior
	alpha, mu, beta, a, b, rsp []float64
}

// Save returns a deep copy of q(z), q(θ), K and the prior.
func (m *GaussianMixture) Save() any {
	return mixtureState{m.K, m.Prior, slices.Clone(m.Alpha), slices.Clone(m.Mu), slices.Clone(m.Beta),
		slices.Clone(m.A), slices.Clone(m.B), slices.Clone(m.Resp)}
}

// Restore puts back a snapshot made by Save.
func (m *GaussianMixture) Restore(snapshot any) {
	s := snapshot.(mixtureState)
	m.resize(s.k)
	m.Prior = s.prior
	m.Alpha, m.Mu, m.Beta = slices.Clone(s.alpha), slices.Clone(s.mu), slices.Clone(s.beta)
	m.A, m.B, m.Resp = slices.Clone(s.a), slices.Clone(s.b), slices.Clone(s.rsp)
}
