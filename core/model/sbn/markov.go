package sbn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Markov is the Markov-chain q of §2.4.3 (eqs. 2.38-2.50, L1028-1119): one
// chain per latent layer, the layers independent,
//
//	Q(H) = Π_layers Q(s_f) Π_{i>f} Q(s_i|s_{i−1}),  Q(s_i = 1|s_{i−1}) = μ_{i,s_{i−1}}  (eqs. 2.38-2.39),
//
// with the first unit f of a layer decoupled (μ_f0 = μ_f1, L1046) and one ξ_i
// per unit for the SJJ bound (eq. 2.12). Its bound (every constant kept) is
//
//	𝓛 = Σ_i [⟨s_i⟩⟨z_i⟩ − ξ_i⟨z_i⟩ − ln⟨e^{−ξ_i z_i} + e^{(1−ξ_i) z_i}⟩] + S(Q),
//
// ⟨s_i s_j⟩ = ⟨s_i⟩⟨s_j⟩ across layers (L1076), the marginals by the forward
// recursion of eqs. 2.41-2.43, the moments by the forward products of
// eqs. 2.44-2.49 over the parents' chain and the entropy by eq. 2.50. The
// parameters are the logits φ_{i0}, φ_{i1} of the μ's (App. B.1, L2765) and
// the ξ's; the gradient is the reverse of those recursions (App. B.1's
// partial products, eqs. B.1-B.5), and the bound is maximised by L-BFGS
// (the text used scaled conjugate gradients, L1141) from the mean-field
// solution (L1141).
type Markov struct {
	net *Net
	v   []float64
	x   []float64 // the parameters: φ's of the latent units, then ξ's

	i0, i1, ix []int // indices into x: φ_{i0}, φ_{i1} (= φ_{i0} for a layer's first unit), ξ_i (−1 for a top unit)
	first      []bool

	// scratch of Eval, one entry per unit
	mu0, mu1, s, z, coef, d0, d1, xi []float64
	stA, stB                         []chainStep // per parent of the child being evaluated
}

// chainStep is one step j of the forward products of eqs. 2.48-2.49: g =
// A_j·(previous), k the diagonal entry of K_ij (or K̃_ij), a = K_ij g.
type chainStep struct {
	g, a [2]float64
	k    float64
}

// NewMarkov starts a Markov-chain fit from the fitted mean field mf:
// μ_{i0} = μ_{i1} = μ_i and its ξ's, where the bound equals mean field's.
func NewMarkov(mf *MeanField) *Markov {
	n := mf.net
	u, h := n.Units(), n.Hidden()
	q := &Markov{net: n, v: append([]float64(nil), mf.c.mu[h:]...), i0: make([]int, h), i1: make([]int, h), ix: make([]int, u), first: make([]bool, h),
		mu0: make([]float64, u), mu1: make([]float64, u), s: make([]float64, u), z: make([]float64, u), coef: make([]float64, u),
		d0: make([]float64, u), d1: make([]float64, u), xi: make([]float64, u)}
	maxPar := 0
	for i := range u {
		maxPar = max(maxPar, len(n.w[i]))
	}
	q.stA, q.stB = make([]chainStep, maxPar), make([]chainStep, maxPar)
	for i := range h {
		th := logit(math.Max(1e-300, math.Min(mf.c.mu[i], 1-1e-16)))
		q.first[i] = i == n.start[n.layer(i)]
		q.i0[i] = len(q.x)
		q.x = append(q.x, th)
		q.i1[i] = q.i0[i]
		if !q.first[i] {
			q.i1[i] = len(q.x)
			q.x = append(q.x, th)
		}
	}
	for i := range u {
		q.ix[i] = -1
		if len(n.w[i]) > 0 {
			q.ix[i] = len(q.x)
			q.x = append(q.x, mf.c.xi[i])
		}
	}
	return q
}

// Params returns the parameters (not a copy): the logits of the latent
// units' μ's in unit order (one for a layer's first unit, then μ_{i0},
// μ_{i1}), then ξ_i of every unit with parents.
func (q *Markov) Params() []float64 { return q.x }

// Bound is 𝓛 at the current parameters.
func (q *Markov) Bound() float64 { return q.Eval(q.x, nil) }

// Marginals returns ⟨s_i⟩ of the latent units (eq. 2.43) at the current
// parameters, and μ_{i0}, μ_{i1}.
func (q *Markov) Marginals() (s, mu0, mu1 []float64) {
	q.Eval(q.x, nil)
	h := q.net.Hidden()
	return append([]float64(nil), q.s[:h]...), append([]float64(nil), q.mu0[:h]...), append([]float64(nil), q.mu1[:h]...)
}

// Eval returns the bound 𝓛 at parameters x and, if grad is not nil, fills
// it with ∂𝓛/∂x.
func (q *Markov) Eval(x, grad []float64) float64 {
	n := q.net
	u, h := n.Units(), n.Hidden()
	// μ's, marginals (eqs. 2.41-2.43), ξ's and ⟨z_i⟩.
	for i := range h {
		q.mu0[i] = sigmoid(x[q.i0[i]])
		q.mu1[i] = sigmoid(x[q.i1[i]])
		if q.first[i] {
			q.s[i] = q.mu0[i]
		} else {
			p := q.s[i-1]
			q.s[i] = (1-p)*q.mu0[i] + p*q.mu1[i]
		}
	}
	copy(q.s[h:], q.v)
	for i := range u {
		q.xi[i] = 0
		if q.ix[i] >= 0 {
			q.xi[i] = x[q.ix[i]]
		}
		q.z[i] = n.meanField(i, q.s)
	}
	// entropy (eq. 2.50)
	F := 0.0
	for i := range h {
		if q.first[i] {
			F += binEntropy(q.mu0[i])
		} else {
			p := q.s[i-1]
			F += p*binEntropy(q.mu1[i]) + (1-p)*binEntropy(q.mu0[i])
		}
	}
	if grad != nil {
		for i := range u {
			q.coef[i], q.d0[i], q.d1[i] = 0, 0, 0
		}
	}
	for i := range u {
		if len(n.w[i]) == 0 {
			// a top unit: ⟨ln(1 + e^{z})⟩ = ln(1 + e^{b_i}) exactly.
			F += q.s[i]*q.z[i] - softplus(n.b[i])
			if grad != nil {
				q.coef[i] += q.z[i]
			}
			continue
		}
		xi := q.xi[i]
		// −ln(⟨e^{−ξz}⟩ + ⟨e^{(1−ξ)z}⟩) = ξ b − ln(S_a + e^{b} S_b), the S's
		// the forward products of eqs. 2.48-2.49 without the bias.
		Sa := q.chainMoment(i, xi, false, q.stA)
		Sb := q.chainMoment(i, xi, true, q.stB)
		Z := Sa + n.expB[i]*Sb
		F += (q.s[i]-xi)*q.z[i] + xi*n.b[i] - math.Log(Z)
		if grad == nil {
			continue
		}
		if i < h {
			q.coef[i] += q.z[i]
		}
		lo := n.plo[i]
		for j, w := range n.w[i] {
			q.coef[lo+j] += (q.s[i] - xi) * w
		}
		dxi := -q.z[i] + n.b[i]
		dxi += q.chainBack(i, q.stA, -1/Z)
		dxi += q.chainBack(i, q.stB, -n.expB[i]/Z)
		grad[q.ix[i]] = dxi
	}
	if grad == nil {
		return F
	}
	// the entropy's direct terms and its coupling to the previous marginal,
	// then the reverse of the marginals' recursion, layer by layer.
	for i := range h {
		if q.first[i] {
			q.d0[i] += -x[q.i0[i]]
			continue
		}
		p := q.s[i-1]
		q.d1[i] += p * -x[q.i1[i]]
		q.d0[i] += (1 - p) * -x[q.i0[i]]
		q.coef[i-1] += binEntropy(q.mu1[i]) - binEntropy(q.mu0[i])
	}
	G := 0.0
	for i := h - 1; i >= 0; i-- {
		last := i == h-1 || q.first[i+1]
		if last {
			G = q.coef[i]
		} else {
			G = q.coef[i] + G*(q.mu1[i+1]-q.mu0[i+1])
		}
		if q.first[i] {
			q.d0[i] += G
		} else {
			p := q.s[i-1]
			q.d0[i] += G * (1 - p)
			q.d1[i] += G * p
		}
	}
	for i := range h {
		if q.first[i] {
			grad[q.i0[i]] = q.mu0[i] * (1 - q.mu0[i]) * q.d0[i]
		} else {
			grad[q.i0[i]] = q.mu0[i] * (1 - q.mu0[i]) * q.d0[i]
			grad[q.i1[i]] = q.mu1[i] * (1 - q.mu1[i]) * q.d1[i]
		}
	}
	return F
}

// chainMoment runs the forward products of eq. 2.48 (b = false: K_ij =
// diag(1, e^{−ξ w_ij}), eq. 2.46) or eq. 2.49 (b = true: K̃_ij =
// diag(1, e^{(1−ξ) w_ij}), eq. 2.47) over the chain of unit i's parents,
// without the bias factor, keeping every step in st.
func (q *Markov) chainMoment(i int, xi float64, b bool, st []chainStep) float64 {
	n := q.net
	lo := n.plo[i]
	var a [2]float64
	for t, w := range n.w[i] {
		j := lo + t
		k := math.Exp(-xi * w)
		if b {
			k *= n.expW[i][t]
		}
		var g [2]float64
		if q.first[j] {
			g = [2]float64{1 - q.mu0[j], q.mu0[j]}
		} else {
			g = [2]float64{(1-q.mu0[j])*a[0] + (1-q.mu1[j])*a[1], q.mu0[j]*a[0] + q.mu1[j]*a[1]}
		}
		a = [2]float64{g[0], k * g[1]}
		st[t] = chainStep{g: g, a: a, k: k}
	}
	return a[0] + a[1]
}

// chainBack is the reverse of chainMoment's steps st with seed ∂𝓛/∂S: it
// adds the derivatives in the parents' μ_{j0}, μ_{j1} to d0, d1 and returns
// the one in ξ_i (eqs. B.1-B.5 by partial products; ∂k/∂ξ = −w k for both
// K and K̃).
func (q *Markov) chainBack(i int, st []chainStep, seed float64) float64 {
	n := q.net
	lo := n.plo[i]
	beta := [2]float64{seed, seed}
	dxi := 0.0
	for t := len(n.w[i]) - 1; t >= 0; t-- {
		j := lo + t
		w, c := n.w[i][t], st[t]
		dg := [2]float64{beta[0], beta[1] * c.k}
		dxi -= beta[1] * c.g[1] * w * c.k
		if q.first[j] {
			q.d0[j] += dg[1] - dg[0]
			continue
		}
		a := st[t-1].a
		q.d0[j] += (dg[1] - dg[0]) * a[0]
		q.d1[j] += (dg[1] - dg[0]) * a[1]
		beta = [2]float64{dg[0]*(1-q.mu0[j]) + dg[1]*q.mu0[j], dg[0]*(1-q.mu1[j]) + dg[1]*q.mu1[j]}
	}
	return dxi
}

// MarkovSettings controls FitMarkov. The zero value of every field means
// its default.
type MarkovSettings struct {
	// MaxIterations caps L-BFGS's major iterations; default 500.
	MaxIterations int
	// GradTol stops when every |∂𝓛/∂x| is below it; default 1e-7.
	GradTol float64
}

// Fit maximises the bound by L-BFGS (numeric.LBFGS, in the caller's
// goroutine, one evaluation of the bound and its gradient per trial point)
// from the current parameters and returns the fit. The bound at the end is
// never below the start's (an error otherwise); a line search that finds
// no higher bound ends the fit where it is.
func (q *Markov) Fit(s MarkovSettings) (Fit, error) {
	if s.MaxIterations == 0 {
		s.MaxIterations = 500
	}
	if s.GradTol == 0 {
		s.GradTol = 1e-7
	}
	f0 := q.Bound()
	negBound := func(x, g []float64) float64 {
		f := -q.Eval(x, g)
		for i := range g {
			g[i] = -g[i]
		}
		return f
	}
	m := numeric.LBFGS{MaxIterations: s.MaxIterations, GradTol: s.GradTol}
	x := slices.Clone(q.x)
	res, err := m.Minimize(negBound, x)
	if err != nil {
		return Fit{}, fmt.Errorf("sbn: Markov-chain fit: %v", err)
	}
	f := -res.F
	if !(f >= f0-1e-12*math.Max(1, math.Abs(f0))) {
		return Fit{}, fmt.Errorf("sbn: Markov-chain fit ended at %v, below its start %v", f, f0)
	}
	copy(q.x, x)
	return Fit{Bound: q.Bound(), Iterations: res.Iterations}, nil
}

// FitMarkovPattern fits mean field to pattern v of net n from r exactly
// as FitPattern with Components 0 does (the same stream gives the same mean
// field), then the Markov-chain q from that solution (L1141).
func FitMarkovPattern(n *Net, v []float64, s Settings, ms MarkovSettings, r *rand.Rand) (Fit, error) {
	mf, _, err := fitMeanField(n, v, s, r)
	if err != nil {
		return Fit{}, err
	}
	return NewMarkov(mf).Fit(ms)
}
