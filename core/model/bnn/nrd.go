package bnn

import (
	"fmt"
	"math"
)

// NRD is node relevance determination (Lawrence section 6.5.8, eq. 6.32,
// Fig. 6.16): every node of the network, the two bias nodes included, has a
// precision, and a weight's prior precision is the product of the
// precisions of the two nodes it joins, α_i^(I) α_j^(H) for an
// input-to-hidden weight and α_j^(H) α^(O) for a hidden-to-output one. It
// is not a group assignment (Arch.Groups refuses it); PrecisionNodes gives
// its structure, which FitVB handles with factorised gamma q's (eqs.
// 6.40-6.49). The methods of other branches may refuse it.
const NRD Prior = ARD + 1

// PrecisionNodes returns the precision variables of prior p and, for every
// weight k of w's layout, the one or two of them whose product is its prior
// precision: first[k], and second[k] (−1 for a group prior, where the
// precision of weight k is α_first[k] alone).
//
// For Single, Grouped and ARD the variables are Arch.Groups'. For NRD they
// are the nodes, numbered
//
//	0 … In−1    the inputs, In the input bias node          (α^(I), In+1)
//	In+1 … In+Hidden   the hidden units, In+1+Hidden the hidden bias node (α^(H))
//	In+Hidden+2        the output node                        (α^(O))
//
// so that u_hi joins input i and hidden h, v_h hidden h and the output, and
// the output bias the hidden bias node and the output. Eqs. 6.44-6.49 count
// the bias nodes the same way (the sums from j = 0, the shapes (I+2)/2 and
// (H+1)/2); the hidden bias node, which the text's eq. 6.42 leaves out of
// α^(H) but eq. 6.49 sums over, carries one weight (ours: stated).
func (a Arch) PrecisionNodes(p Prior) (n int, first, second []int) {
	k := a.NumWeights()
	second = make([]int, k)
	for i := range second {
		second[i] = -1
	}
	if p != NRD {
		n, first = a.Groups(p)
		return n, first, second
	}
	first = make([]int, k)
	hid := func(h int) int { return a.In + 1 + h }
	out := a.In + a.Hidden + 2
	for h := 0; h < a.Hidden; h++ {
		for i := 0; i <= a.In; i++ {
			first[h*(a.In+1)+i], second[h*(a.In+1)+i] = i, hid(h)
		}
		first[a.U()+h], second[a.U()+h] = hid(h), out
	}
	first[a.U()+a.Hidden], second[a.U()+a.Hidden] = hid(a.Hidden), out
	return out + 1, first, second
}

// EffectiveParameters returns, for every hidden unit h, the number of
// well-determined parameters among the weights of the unit (its fan-in and
// its output weight), γ_h = Σ_k (1 − ⟨α_k⟩ Var_q w_k), with ⟨α_k⟩ the
// expected prior precision of weight k (MacKay's γ with the posterior
// precision 1/Var_q w_k). Node removal (L2665) tries the unit of least
// γ_h first.
//
// Eq. 6.53 prints γ_h = Σ_i α_h^(H) α_i^(I)/d_ih² + α_h^(H) α^(O)/σ_h²,
// which is largest for a pruned unit (α → ∞ and d² → 1/α give α²) and so
// would never select one: read as an erratum for the ratio the other way
// up, 1 − α d² (ours; the choice only orders the candidates, and the bound
// decides whether a removal is kept).
func (v *VB) EffectiveParameters() []float64 {
	a := v.arch
	g := make([]float64, a.Hidden)
	for h := 0; h < a.Hidden; h++ {
		for _, k := range a.unitWeights(h) {
			g[h] += v.effective(k)
		}
	}
	return g
}

// unitWeights lists the weights of hidden unit h: its fan-in (bias
// included) and its output weight.
func (a Arch) unitWeights(h int) []int {
	ks := make([]int, 0, a.In+2)
	for i := 0; i <= a.In; i++ {
		ks = append(ks, h*(a.In+1)+i)
	}
	return append(ks, a.U()+h)
}

// withoutHidden returns a copy of v with hidden unit h removed: the weights
// of the unit and, under NRD, its node; every other parameter is kept.
func (v *VB) withoutHidden(h int) (*VB, error) {
	a := v.arch
	if a.Hidden < 2 {
		return nil, fmt.Errorf("bnn: cannot remove the last hidden unit")
	}
	drop := make([]bool, a.NumWeights())
	for _, k := range a.unitWeights(h) {
		drop[k] = true
	}
	node := -1
	if v.prior == NRD {
		node = a.In + 1 + h
	}
	return v.without(Arch{In: a.In, Hidden: a.Hidden - 1}, drop, node, v.p.X, v.inputs), nil
}

// withoutInput returns a copy of v with input i (of the current inputs)
// removed: its fan-out weights, its column of the data and, under NRD and
// ARD, its precision variable.
func (v *VB) withoutInput(i int) (*VB, error) {
	a := v.arch
	if a.In < 2 {
		return nil, fmt.Errorf("bnn: cannot remove the last input")
	}
	drop := make([]bool, a.NumWeights())
	for h := 0; h < a.Hidden; h++ {
		drop[h*(a.In+1)+i] = true
	}
	node := -1
	if v.prior == NRD || v.prior == ARD {
		node = i // the input's node (NRD) or group (ARD) comes first
	}
	x := make([][]float64, len(v.p.X))
	for n, row := range v.p.X {
		x[n] = append(append(make([]float64, 0, a.In-1), row[:i]...), row[i+1:]...)
	}
	inputs := v.inputList()
	inputs = append(append([]int(nil), inputs[:i]...), inputs[i+1:]...)
	return v.without(Arch{In: a.In - 1, Hidden: a.Hidden}, drop, node, x, inputs), nil
}

// inputList returns the original indices of the inputs the network uses.
func (v *VB) inputList() []int {
	if v.inputs != nil {
		return v.inputs
	}
	l := make([]int, v.arch.In)
	for i := range l {
		l[i] = i
	}
	return l
}

// without returns a copy of v on the network na, keeping the weights not
// in drop and the precision variables but node (−1: all), on inputs x.
func (v *VB) without(na Arch, drop []bool, node int, x [][]float64, inputs []int) *VB {
	keep := func(src []float64) []float64 {
		dst := make([]float64, 0, na.NumWeights())
		for k, x := range src {
			if !drop[k] {
				dst = append(dst, x)
			}
		}
		return dst
	}
	w := &VB{p: &Problem{Arch: na, X: x, T: v.p.T}, orig: v.orig, arch: na, prior: v.prior, s: v.s, inputs: inputs, pruned: v.pruned, prunedIn: v.prunedIn}
	w.q = append([]float64(nil), v.q...)
	w.loglam = append([]float64(nil), v.loglam...)
	for c := range v.q {
		w.mean = append(w.mean, keep(v.mean[c]))
		w.logs = append(w.logs, keep(v.logs[c]))
		if v.rmean != nil {
			w.rmean = append(w.rmean, keep(v.rmean[c]))
			w.rlogs = append(w.rlogs, keep(v.rlogs[c]))
		}
	}
	w.init()
	src := 0
	for dst := range w.ea {
		if src == node {
			src++
		}
		w.ea[dst], w.ela[dst] = v.ea[src], v.ela[src]
		if !v.s.FixHyper {
			w.qa[dst] = v.qa[src]
		}
		src++
	}
	w.qb, w.eb, w.elb = v.qb, v.eb, v.elb
	w.fresh = false
	return w
}

// InputEffectiveParameters returns, for every input the network uses,
// γ_i = Σ_h (1 − ⟨α_hi⟩ Var_q u_hi) over its fan-out (see
// EffectiveParameters).
func (v *VB) InputEffectiveParameters() []float64 {
	a := v.arch
	g := make([]float64, a.In)
	for i := range g {
		for h := 0; h < a.Hidden; h++ {
			g[i] += v.effective(h*(a.In+1) + i)
		}
	}
	return g
}

// effective is 1 − ⟨α_k⟩ Var_q w_k for weight k.
func (v *VB) effective(k int) float64 {
	var m1, m2 float64
	for c := range v.q {
		mu, s := v.mean[c][k], math.Exp(v.logs[c][k])
		m1 += v.q[c] * mu
		m2 += v.q[c] * (mu*mu + s*s)
	}
	return 1 - v.precision(k)*(m2-m1*m1)
}

// Inputs returns the original indices of the inputs the network still
// uses (all of them unless node removal took some).
func (v *VB) Inputs() []int { return append([]int(nil), v.inputList()...) }

// pruneStep is one structure step of node relevance determination, the
// "EM over structure" of L2658-2665: the hidden unit (and, with
// PruneInputs, then the input) of least effective number of parameters is
// removed, q(α) and q(β) are re-estimated for the smaller network, and the
// removal is kept if the bound rose. It returns the model to continue
// with.
func (v *VB) pruneStep() *VB {
	try := func(v *VB, g []float64, remove func(int) (*VB, error)) *VB {
		if len(g) < 2 {
			return v
		}
		f0 := v.Bound().F
		j := 0
		for i := range g {
			if g[i] < g[j] {
				j = i
			}
		}
		w, err := remove(j)
		if err != nil {
			return v
		}
		w.updateHyper()
		if w.Bound().F > f0 {
			return w
		}
		return v
	}
	if w := try(v, v.EffectiveParameters(), v.withoutHidden); w != v {
		w.pruned++
		v = w
	}
	if v.s.PruneInputs {
		if w := try(v, v.InputEffectiveParameters(), v.withoutInput); w != v {
			w.prunedIn++
			v = w
		}
	}
	return v
}
