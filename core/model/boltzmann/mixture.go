package boltzmann

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Mixture is the mixture of mean-field distributions Q_mix(S) = Σ_m Q(m)
// Π_i Q(s_i|m) (eq. 4.16) with the mutual-information bound of eqs.
// 4.17-4.21: factorised positive smoothing functions R(S|m) = Π_i R(s_i|m)
// (eq. 2.26) and one λ_m per component. All state is kept in logs.
type Mixture struct {
	m      *Machine
	c      Clamp
	T      float64
	K      int       // the number of components M
	A      []float64 // K×N natural parameters, Q(s_i|k) ∝ exp(A s_i)
	Mu     []float64 // K×N means ⟨s_i⟩_k
	LogR   []float64 // K×N×2: ln R(s_i = +1|k), ln R(s_i = −1|k)
	LogQ   []float64 // ln Q(k)
	LogLam []float64 // ln λ_k
	tol    float64
	err    error // a fall of the bound in the last M, for E to return
	// lf[(r*K+k)*N+i] caches logF(r, k, i) and lpi[r*K+k] their sum over
	// the free units, ln π(r, k); refresh recomputes both, the updates
	// keep them current.
	lf  []float64
	lpi []float64
	// scratch holds K values for one update at a time.
	scratch []float64
}

// RandomMeans returns k×n initial means drawn from U(−scale, scale).
func RandomMeans(k, n int, scale float64, r *rand.Rand) [][]float64 {
	out := make([][]float64, k)
	for i := range out {
		out[i] = make([]float64, n)
		for j := range out[i] {
			out[i][j] = scale * (2*r.Float64() - 1)
		}
	}
	return out
}

// NewMixture returns a mixture of len(mu0) components started from the
// means mu0 (each of N values, free ones in (−1, 1)), with equal Q(m),
// R ≡ 1 and the optimal λ: the mutual-information bound starts at 0 and
// the bound at the average of the components' mean-field bounds.
func NewMixture(m *Machine, c Clamp, mu0 [][]float64) (*Mixture, error) {
	k := len(mu0)
	if k < 1 {
		return nil, fmt.Errorf("boltzmann: a mixture needs at least one component")
	}
	n := m.N
	q := &Mixture{m: m, c: c, T: m.T, K: k, A: make([]float64, k*n), Mu: make([]float64, k*n),
		LogR: make([]float64, 2*k*n), LogQ: make([]float64, k), LogLam: make([]float64, k)}
	for j, mu := range mu0 {
		mf, err := NewMeanField(m, c, mu)
		if err != nil {
			return nil, fmt.Errorf("component %d: %w", j, err)
		}
		copy(q.A[j*n:], mf.A)
		copy(q.Mu[j*n:], mf.Mu)
		q.LogQ[j] = -math.Log(float64(k))
	}
	q.lf, q.lpi, q.scratch = make([]float64, k*k*n), make([]float64, k*k), make([]float64, k)
	q.refresh()
	q.updateLambda()
	return q, nil
}

// SetTemperature sets the temperature of the updates and the bound.
func (q *Mixture) SetTemperature(t float64) { q.T = t }

func (q *Mixture) lq(k, i, s int) float64 { return logQ(q.A[k*q.m.N+i], s) }

func (q *Mixture) lr(k, i, s int) float64 {
	if s > 0 {
		return q.LogR[2*(k*q.m.N+i)]
	}
	return q.LogR[2*(k*q.m.N+i)+1]
}

// logF returns ln Σ_{s_i} R(s_i|r) Q(s_i|k), a factor of π(r, k) (eq. 2.27).
func (q *Mixture) logF(r, k, i int) float64 {
	return numeric.LogAddExp(q.lr(r, i, 1)+q.lq(k, i, 1), q.lr(r, i, -1)+q.lq(k, i, -1))
}

// logPi returns ln π_{R,Q}(r, k) = Σ_i ln Σ_{s_i} R(s_i|r)Q(s_i|k) over the
// free units but skip (eq. 2.27; skip < 0 omits none, else it is π^j of
// eq. 2.36).
func (q *Mixture) logPi(r, k, skip int) float64 {
	l := q.lpi[r*q.K+k]
	if skip >= 0 && q.c.free(skip) {
		l -= q.lf[(r*q.K+k)*q.m.N+skip]
	}
	return l
}

// refresh recomputes the cache of logF and ln π.
func (q *Mixture) refresh() {
	for r := 0; r < q.K; r++ {
		for k := 0; k < q.K; k++ {
			var l float64
			for i := 0; i < q.m.N; i++ {
				if q.c.free(i) {
					q.lf[(r*q.K+k)*q.m.N+i] = q.logF(r, k, i)
					l += q.lf[(r*q.K+k)*q.m.N+i]
				}
			}
			q.lpi[r*q.K+k] = l
		}
	}
}

// setF recomputes logF(r, k, i) in the cache and ln π(r, k) with it.
func (q *Mixture) setF(r, k, i int) {
	if !q.c.free(i) {
		return
	}
	idx := (r*q.K+k)*q.m.N + i
	v := q.logF(r, k, i)
	q.lpi[r*q.K+k] += v - q.lf[idx]
	q.lf[idx] = v
}

// componentTerm returns the coefficient of Q(k) in the bound: the k-th
// mean-field bound ⟨φ⟩_k/T + S(Q(·|k)), Σ_S Q(S|k) ln R(S|k) (eq. 2.28),
// −Σ_r λ_r π(r, k) and ln λ_k (the −E_k of eq. 2.34, signs as the bound
// gives them).
func (q *Mixture) componentTerm(k int) float64 {
	n := q.m.N
	l := q.m.Phi(q.Mu[k*n:k*n+n])/q.T + q.LogLam[k]
	for i := 0; i < n; i++ {
		if !q.c.free(i) {
			continue
		}
		l += unitEntropy(q.A[k*n+i])
		for _, s := range [2]int{1, -1} {
			l += math.Exp(q.lq(k, i, s)) * q.lr(k, i, s)
		}
	}
	for r := 0; r < q.K; r++ {
		l -= math.Exp(q.LogLam[r] + q.logPi(r, k, -1))
	}
	return l
}

// Bound returns L⁻(Q_mix) with the mutual information replaced by its
// lower bound of eq. 4.21: Σ_m Q(m) L⁻[Q(S|m)] + Σ_{m,S} Q(m)Q(S|m) ln
// R(S|m) − Σ_m Q(m) ln Q(m) − Σ_m λ_m Σ_S R(S|m)Q_mix(S) + Σ_m Q(m) ln λ_m
// + 1 ≤ L⁻(Q_mix) ≤ ln Z (eqs. 4.17-4.21, L1646-1676).
func (q *Mixture) Bound() float64 {
	l := 1.0
	for k := 0; k < q.K; k++ {
		p := math.Exp(q.LogQ[k])
		if p == 0 {
			continue
		}
		l += p * (q.componentTerm(k) - q.LogQ[k])
	}
	return l
}

// updateLambda sets λ_m = Q(m)/Σ_k Q(k) π(m, k), the maximiser of the
// bound in λ_m (eq. 2.37 with the weights α_k = Q(k) of eq. 2.36, which
// eq. 2.37 as printed leaves out).
func (q *Mixture) updateLambda() {
	terms := q.scratch
	for r := 0; r < q.K; r++ {
		for k := 0; k < q.K; k++ {
			terms[k] = q.LogQ[k] + q.logPi(r, k, -1)
		}
		q.LogLam[r] = q.LogQ[r] - numeric.LogSumExp(terms)
	}
}

// updateMeans updates each component's free units in turn by eqs.
// 4.22-4.24: ⟨s_k⟩_m = tanh E'(k, m) with E'(k, m) = (Σ_j w_kj⟨s_j⟩_m +
// b_k)/T + ½ ln[R(s_k = 1|m)/R(s_k = −1|m)] − ½ Σ_r λ_r π^k(r, m)
// [R(s_k = 1|r) − R(s_k = −1|r)], the free-form optimum of the bound in
// Q(s_k|m). (Eq. 4.23 as printed has λ_m alone and a sum of the R's; the
// bound's derivative has the sum over r and the difference, as eq. 2.31.)
func (q *Mixture) updateMeans() {
	n := q.m.N
	for m := 0; m < q.K; m++ {
		mu := q.Mu[m*n : m*n+n]
		for k := 0; k < n; k++ {
			if !q.c.free(k) {
				continue
			}
			a := q.m.Field(k, mu)/q.T + 0.5*(q.lr(m, k, 1)-q.lr(m, k, -1))
			for r := 0; r < q.K; r++ {
				w := math.Exp(q.LogLam[r] + q.logPi(r, m, k))
				a -= 0.5 * w * (math.Exp(q.lr(r, k, 1)) - math.Exp(q.lr(r, k, -1)))
			}
			q.A[m*n+k] = a
			mu[k] = math.Tanh(a)
			for r := 0; r < q.K; r++ {
				q.setF(r, m, k)
			}
		}
	}
}

// updateSmoothing sets each R(s_j|m) in turn to its maximiser
// Q(m)Q(s_j|m) / (λ_m Σ_k Q(k) π^j(m, k) Q(s_j|k)) (eq. 2.36).
func (q *Mixture) updateSmoothing() {
	n := q.m.N
	terms := q.scratch
	for m := 0; m < q.K; m++ {
		for j := 0; j < n; j++ {
			if !q.c.free(j) {
				continue
			}
			for si, s := range [2]int{1, -1} {
				for k := 0; k < q.K; k++ {
					terms[k] = q.LogQ[k] + q.logPi(m, k, j) + q.lq(k, j, s)
				}
				q.LogR[2*(m*n+j)+si] = q.LogQ[m] + q.lq(m, j, s) - q.LogLam[m] - numeric.LogSumExp(terms)
			}
			for k := 0; k < q.K; k++ {
				q.setF(m, k, j)
			}
		}
	}
}

// updateWeights sets Q(m) ∝ exp(−E_m) (eqs. 2.33-2.35), the maximiser of
// the bound in the mixing coefficients.
func (q *Mixture) updateWeights() {
	t := q.scratch
	for k := range t {
		t[k] = q.componentTerm(k)
	}
	z := numeric.LogSumExp(t)
	for k := range t {
		q.LogQ[k] = t[k] - z
	}
}

// E returns the bound (Bound) in three terms, Σ_m Q(m)(−E_m) (the
// components' terms, componentTerm), the entropy −Σ_m Q(m) ln Q(m) and the
// constant 1 of eq. 4.21: a vb.Model's E step. It returns the error of the
// last M, if a block of updates lowered the bound.
func (q *Mixture) E() (vb.Bound, error) {
	if q.err != nil {
		err := q.err
		q.err = nil
		return vb.Bound{F: math.NaN()}, err
	}
	l, comp, ent := 1.0, 0.0, 0.0
	for k := 0; k < q.K; k++ {
		p := math.Exp(q.LogQ[k])
		if p == 0 {
			continue
		}
		c := q.componentTerm(k)
		l += p * (c - q.LogQ[k])
		comp += p * c
		ent -= p * q.LogQ[k]
	}
	// The terms carry the bound's own sum: the entropy takes the rounding.
	return vb.Bound{F: l, Terms: []vb.Term{{Name: "sum_m Q(m) (-E_m)", Value: comp}, {Name: "H[Q(m)]", Value: l - 1 - comp}, {Name: "1", Value: 1}}}, nil
}

// M makes one pass of coordinate updates, each the exact maximiser of the
// bound in its block: the components' means, λ, the smoothing functions R,
// λ, the mixing coefficients Q(m) and λ. The bound is checked after every
// block; a fall is kept for the next E, an error wrapping ErrDecreased.
func (q *Mixture) M() {
	if _, err := q.Iterate(); err != nil {
		q.err = err
	}
}

// Iterate makes one pass of M's updates and returns the bound, or an error
// wrapping ErrDecreased if a block lowered it.
func (q *Mixture) Iterate() (float64, error) {
	tol := q.tol
	if tol == 0 {
		tol = 1e-9
	}
	q.refresh() // the running sums of ln π drift by rounding only
	l := q.Bound()
	for _, st := range mixtureBlocks {
		st.f(q)
		nl := q.Bound()
		if err := checkRise(l, nl, tol, st.name); err != nil {
			return nl, err
		}
		l = nl
	}
	return l, nil
}

// mixtureBlocks are M's blocks in order.
var mixtureBlocks = []struct {
	name string
	f    func(*Mixture)
}{{"the means", (*Mixture).updateMeans}, {"λ", (*Mixture).updateLambda}, {"R", (*Mixture).updateSmoothing}, {"λ", (*Mixture).updateLambda},
	{"Q(m)", (*Mixture).updateWeights}, {"λ", (*Mixture).updateLambda}}

// Run iterates at the current temperature until convergence (Settings).
func (q *Mixture) Run(s Settings) (Result, error) {
	s = s.withDefaults()
	q.tol = s.MonotoneTol
	return run(q, s, s.MaxIterations)
}

// Anneal runs the schedule of temperatures as MeanField.Anneal does.
func (q *Mixture) Anneal(schedule []float64, s Settings) (Result, error) {
	q.tol = s.withDefaults().MonotoneTol
	return anneal(q, schedule, s)
}

// Weights returns Q(m).
func (q *Mixture) Weights() []float64 {
	w := make([]float64, q.K)
	for k := range w {
		w[k] = math.Exp(q.LogQ[k])
	}
	return w
}

// Component returns the means ⟨s_i⟩_m of component m.
func (q *Mixture) Component(m int) []float64 {
	return append([]float64(nil), q.Mu[m*q.m.N:(m+1)*q.m.N]...)
}

// Moments returns the moments of Q_mix: ⟨s_i⟩ = Σ_m Q(m)⟨s_i⟩_m and
// ⟨s_i s_j⟩ = Σ_m Q(m)⟨s_i⟩_m⟨s_j⟩_m (i ≠ j), the approximation of eqs.
// 4.25-4.26.
func (q *Mixture) Moments() Moments {
	n := q.m.N
	mo := Moments{Mean: make([]float64, n), Pair: make([]float64, n*n)}
	for k := 0; k < q.K; k++ {
		p := math.Exp(q.LogQ[k])
		mu := q.Mu[k*n : k*n+n]
		for i := 0; i < n; i++ {
			mo.Mean[i] += p * mu[i]
			for j := 0; j < n; j++ {
				if i != j {
					mo.Pair[i*n+j] += p * mu[i] * mu[j]
				}
			}
		}
	}
	for i := 0; i < n; i++ {
		mo.Pair[i*n+i] = 1
	}
	return mo
}
