package gmm

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// MoveBirth and MoveDeath are the moves of VB for vb.Search, the seam the
// mixture of factor analysers uses (Beal (2003) section 4.3): the birth of a
// component by splitting one in two, and the death of a component.
const MoveBirth, MoveDeath = "birth", "death"

// Propose returns the first move not tried since the last accepted one: the
// death of each component, smallest N_k first (while K > 1), then the birth
// from each component, largest N_k first. It ends the search (ok false) when
// every move has been rejected since the last acceptance.
func (m *VB) Propose(log []vb.MoveRecord) (vb.Move, bool) {
	order := make([]int, m.k)
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(m.alpha[a], m.alpha[b]) })
	var cands []vb.Move
	if m.k > 1 {
		for _, k := range order {
			cands = append(cands, vb.Move{Kind: MoveDeath, Component: k, Other: -1})
		}
	}
	for i := len(order) - 1; i >= 0; i-- {
		cands = append(cands, vb.Move{Kind: MoveBirth, Component: order[i], Other: -1})
	}
	return vb.Untried(log, cands)
}

// Apply performs a move on q(Z) and then runs M so that q(π, μ, Λ) matches:
//
//   - birth from j: a new component K takes j's responsibility for the
//     points on the positive side of the hyperplane through m_j normal to
//     the principal axis of W_j⁻¹ (the split of Beal (2003) eqs.
//     (4.73)–(4.76) with the responsibilities shared 0/1);
//   - death of j: j's responsibilities are removed and every point's
//     renormalised over the others (mixture.Remove).
//
// It returns an error for an unknown move or component, or the death of the
// only component; the model is then unchanged.
func (m *VB) Apply(mv vb.Move) error {
	j := mv.Component
	if j < 0 || j >= m.k {
		return fmt.Errorf("gmm: component %d of %d", j, m.k)
	}
	var resp []float64
	switch {
	case mv.Kind == MoveBirth:
		resp = m.split(j)
	case mv.Kind == MoveDeath && m.k > 1:
		resp = mixture.Remove(m.resp, m.n, j)
	case mv.Kind == MoveDeath:
		return fmt.Errorf("gmm: death of the only component")
	default:
		return fmt.Errorf("gmm: unknown move %q", mv.Kind)
	}
	m.resize(len(resp) / m.n)
	m.resp = resp
	m.M()
	return nil
}

// split returns the responsibilities of a birth from j (a new slice, with
// the new component last): the points on the positive side of the
// principal axis of W_j⁻¹ through m_j give their q(z = j) to the newcomer.
func (m *VB) split(j int) []float64 {
	k, n, d := m.k, m.n, m.d
	v := numeric.PrincipalAxis(m.winv[j*d*d:(j+1)*d*d], d)
	mj := m.m[j*d : (j+1)*d]
	resp := mixture.Add(m.resp, n)
	for i := 0; i < n; i++ {
		var s float64
		for a, va := range v {
			s += (m.x[i*d+a] - mj[a]) * va
		}
		if s >= 0 {
			resp[k*n+i], resp[j*n+i] = resp[j*n+i], 0
		}
	}
	return resp
}

// Size returns the number of components K.
func (m *VB) Size() int { return m.k }

// state is a snapshot of VB.
type state struct {
	k                                      int
	alpha, beta, nu, mean, winv, pc, q, rs []float64
}

// Save returns a deep copy of q(Z), q(π, μ, Λ) and K.
func (m *VB) Save() any {
	return state{m.k, slices.Clone(m.alpha), slices.Clone(m.beta), slices.Clone(m.nu), slices.Clone(m.m),
		slices.Clone(m.winv), slices.Clone(m.pchol), slices.Clone(m.qinv), slices.Clone(m.resp)}
}

// Restore puts back a snapshot made by Save.
func (m *VB) Restore(snapshot any) {
	s := snapshot.(state)
	m.resize(s.k)
	copy(m.alpha, s.alpha)
	copy(m.beta, s.beta)
	copy(m.nu, s.nu)
	copy(m.m, s.mean)
	copy(m.winv, s.winv)
	copy(m.pchol, s.pc)
	copy(m.qinv, s.q)
	m.resp = slices.Clone(s.rs)
	m.bad = nil
}
