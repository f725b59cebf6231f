package moe

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// MoveSplit is the move of VB for vb.Search: the split of one component in
// two (D'Souza's Algorithm 2, L783–789).
const MoveSplit = "split"

// Settings control the local 1-vs-2 test of a split. The zero value of
// every field means its default.
type Settings struct {
	// Local controls the VBEM run of the local two-component model (its
	// MaxIterations defaults to 200, its tolerances to vb.Settings').
	Local vb.Settings
	// MinWeight is the smallest responsibility r_nj with which a point
	// enters the local test of component j (its data x_D_j, with weights
	// r_nj). Default 10⁻³.
	MinWeight float64
	// MinGain is the margin by which the local two-component bound must
	// beat the one-component one for the split to be proposed. Default 0.
	MinGain float64
	// MinPoints is the smallest number of points on either side of the
	// local start's cut; a cut with fewer is not tried. Default 2.
	MinPoints int
	// Axes is the number of principal axes of W_j⁻¹ whose cuts start a
	// local two-component fit, the one of the largest F2 kept. Default 1.
	Axes int
}

func (s Settings) withDefaults() Settings {
	if s.Local.MaxIterations <= 0 {
		s.Local.MaxIterations = 200
	}
	if s.MinWeight <= 0 {
		s.MinWeight = 1e-3
	}
	if s.MinPoints <= 0 {
		s.MinPoints = 2
	}
	if s.Axes <= 0 {
		s.Axes = 1
	}
	return s
}

// SetSettings sets the settings of the split test.
func (m *VB) SetSettings(s Settings) { m.s = s.withDefaults() }

// LocalTest is the outcome of the local 1-vs-2 test of a component.
type LocalTest struct {
	// Points is the number of points in the test (r_nj ≥ MinWeight).
	Points int
	// F1 is the exact log evidence of the component's weighted data under
	// one component (F at K = 1), F2 the converged bound of two.
	F1, F2 float64
	idx    []int     // the points
	q      []float64 // 2×Points: the local q(s)
}

// Split reports whether the test favours two components.
func (t LocalTest) Split(minGain float64) bool { return t.q != nil && t.F2 > t.F1+minGain }

// Local runs the local 1-vs-2 test of component j (D'Souza section 3.1.1.1
// and Algorithm 2, lines 4–5): the points with r_nj ≥ MinWeight, each with
// weight r_nj, are fitted by one component (F1, the exact evidence) and by
// two (F2, VBEM to convergence from the cut of the points by the hyperplane
// through m_j normal to the principal axis of W_j⁻¹; with Settings.Axes >
// 1 from the cuts normal to each of the leading axes, the largest F2 kept).
// Both use the model's prior. Without a cut that leaves MinPoints on each
// side, F2 = −∞.
func (m *VB) Local(j int) (LocalTest, error) {
	if j < 0 || j >= m.k {
		return LocalTest{}, fmt.Errorf("moe: component %d of %d", j, m.k)
	}
	d, n := m.d, m.n
	var t LocalTest
	for i := 0; i < n; i++ {
		if m.resp[j*n+i] >= m.s.MinWeight {
			t.idx = append(t.idx, i)
		}
	}
	t.Points = len(t.idx)
	t.F1, t.F2 = math.Inf(-1), math.Inf(-1)
	if t.Points < 2*m.s.MinPoints {
		return t, nil
	}
	xs, ys, ws := make([]float64, t.Points*d), make([]float64, t.Points), make([]float64, t.Points)
	for a, i := range t.idx {
		copy(xs[a*d:(a+1)*d], m.x[i*d:(i+1)*d])
		ys[a] = m.y[i]
		ws[a] = m.resp[j*n+i]
		if m.wt != nil {
			ws[a] *= m.wt[i]
		}
	}
	one, err := newVB(xs, ys, ws, d, 1, m.p)
	if err != nil {
		return t, err
	}
	for i := range one.resp {
		one.resp[i] = 1
	}
	one.M()
	b, err := one.E()
	if err != nil {
		return t, err
	}
	t.F1 = b.F
	axes := principalAxes(m.winv[j*d*d:(j+1)*d*d], d, min(m.s.Axes, d))
	mj := m.m[j*d : (j+1)*d]
	np := t.Points
	for _, v := range axes {
		two, err := newVB(xs, ys, ws, d, 2, m.p)
		if err != nil {
			return t, err
		}
		var side int
		for a := 0; a < np; a++ {
			var s float64
			for c := 0; c < d; c++ {
				s += (xs[a*d+c] - mj[c]) * v[c]
			}
			if s >= 0 {
				two.resp[np+a] = 1
				side++
			} else {
				two.resp[a] = 1
			}
		}
		if side < m.s.MinPoints || np-side < m.s.MinPoints {
			continue
		}
		two.M()
		res := vb.Run(two, m.s.Local)
		if !res.Status.OK() {
			return t, fmt.Errorf("moe: local test of component %d: %w", j, res.Error())
		}
		if res.F > t.F2 {
			t.F2, t.q = res.F, two.resp
		}
	}
	return t, nil
}

// principalAxes returns the unit eigenvectors of the h largest eigenvalues
// of the symmetric positive definite D×D matrix a, each by 200 power
// iterations from (1, 1, …, 1)/√D on a deflated by the ones before
// (deterministic).
func principalAxes(a []float64, d, h int) [][]float64 {
	a = slices.Clone(a)
	var out [][]float64
	for range h {
		v := numeric.PrincipalAxis(a, d)
		// λ = vᵀav; a −= λvvᵀ.
		var lam float64
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				lam += v[i] * a[i*d+j] * v[j]
			}
		}
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				a[i*d+j] -= lam * v[i] * v[j]
			}
		}
		out = append(out, v)
	}
	return out
}

// Propose returns the split of the first component, in decreasing order of
// N_k, whose local test favours two components (LocalTest.Split with
// MinGain) and which has not been tried since the last accepted move; it
// ends the search (ok false) when no component's test does: D'Souza's
// Algorithm 2, "until no split occurs" (L789). A component whose test said
// no is not tested again until a move is accepted (the tests are
// deterministic, and a rejected move restores the state they saw).
func (m *VB) Propose(log []vb.MoveRecord) (vb.Move, bool) {
	accepted := 0
	for _, r := range log {
		if r.Accepted {
			accepted++
		}
	}
	if accepted != m.epoch || len(m.declined) != m.k {
		m.epoch, m.declined = accepted, make([]bool, m.k)
	}
	order := make([]int, m.k)
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(m.alpha[b], m.alpha[a]) })
	var tried []vb.Move
	for i := len(log) - 1; i >= 0 && !log[i].Accepted; i-- {
		tried = append(tried, log[i].Move)
	}
	for _, j := range order {
		mv := vb.Move{Kind: MoveSplit, Component: j, Other: -1}
		if m.declined[j] || slices.Contains(tried, mv) {
			continue
		}
		t, err := m.Local(j)
		if err == nil && t.Split(m.s.MinGain) {
			return mv, true
		}
		m.declined[j] = true
	}
	return vb.Move{}, false
}

// ErrNoSplit is returned by Apply when the local test of the component
// gives no two-component fit (too few points on a side of the cut).
var ErrNoSplit = errors.New("moe: no local two-component fit to split by")

// Apply splits component j into j and a new component K: each point i of
// the local test shares r_ij between them in the proportions of the local
// two-component fit's q(s) (Algorithm 2, lines 7–8, L787), and M then sets
// every other factor. It returns an error for an unknown move or component
// or when the local test has no two-component fit; the model is then
// unchanged.
func (m *VB) Apply(mv vb.Move) error {
	if mv.Kind != MoveSplit {
		return fmt.Errorf("moe: unknown move %q", mv.Kind)
	}
	j := mv.Component
	t, err := m.Local(j)
	if err != nil {
		return err
	}
	if t.q == nil {
		return ErrNoSplit
	}
	n, k, np := m.n, m.k, t.Points
	resp := mixture.Add(m.resp, n)
	for a, i := range t.idx {
		r := resp[j*n+i]
		resp[j*n+i], resp[k*n+i] = r*t.q[a], r*t.q[np+a]
	}
	m.resize(k + 1)
	copy(m.m[k*m.d:(k+1)*m.d], m.m[j*m.d:(j+1)*m.d])
	m.resp = resp
	m.M()
	return nil
}

// Size returns the number of components K.
func (m *VB) Size() int { return m.k }

// Occupied returns the number of components with N_k ≥ min.
func (m *VB) Occupied(min float64) int {
	c := 0
	for _, a := range m.alpha {
		if a-m.p.Alpha0 >= min {
			c++
		}
	}
	return c
}

// state is a snapshot of VB.
type state struct {
	k                                                             int
	alpha, beta, nu, mean, winv, pc, q, lam, linv, mw, a, b, resp []float64
}

// Save returns a deep copy of every factor of q and K.
func (m *VB) Save() any {
	c := slices.Clone[[]float64]
	return state{m.k, c(m.alpha), c(m.beta), c(m.nu), c(m.m), c(m.winv), c(m.pchol), c(m.qinv),
		c(m.lam), c(m.linv), c(m.mw), c(m.a), c(m.b), c(m.resp)}
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
	copy(m.lam, s.lam)
	copy(m.linv, s.linv)
	copy(m.mw, s.mw)
	copy(m.a, s.a)
	copy(m.b, s.b)
	m.resp = slices.Clone(s.resp)
	m.bad = nil
}
