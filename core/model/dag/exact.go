package dag

import (
	"errors"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// MaxExactTerms is the largest number of terms Exact will sum.
const MaxExactTerms = 1 << 32

// ErrTooLarge is returned by Exact when the sum has more than MaxExactTerms
// terms.
var ErrTooLarge = errors.New("dag: too many hidden completions to enumerate")

// ExactTerms returns the number of terms Exact sums: Π_p C(w_p + H − 1,
// H − 1) over the patterns p with multiplicity w_p, for H joint hidden
// configurations per datum. For n distinct data points it is H^n, the count
// of Dirichlet integrals of eq. (6.12) (line 4302); repeated patterns
// need fewer, since the completions of identical data points are
// exchangeable.
func (pr *Problem) ExactTerms() float64 {
	h := pr.pl.h
	var ln float64
	for _, w := range pr.pl.w {
		ln += lnChoose(w+float64(h)-1, float64(h)-1)
	}
	return math.Round(math.Exp(ln))
}

func lnChoose(n, k float64) float64 {
	return numeric.LogGamma(n+1) - numeric.LogGamma(k+1) - numeric.LogGamma(n-k+1)
}

// Exact returns the incomplete-data log marginal likelihood ln p(y|m) of
// eq. (6.12) exactly, by summing the complete-data marginal likelihood
// (6.9) over every completion of the hidden variables (targets §1.2; the
// thesis calls this intractable, and it is, beyond a dozen data points).
//
// The sum runs depth first over the data points, each taking one of the H
// joint hidden configurations, and builds (6.9) as the sequential Pólya-urn
// product Π_i Π_j (λ_jlk + N^{<i}_jlk)/(λ⁰_jl + N^{<i}_jl), updating the
// counts incrementally. The copies of a repeated pattern are exchangeable,
// so their configurations are enumerated in non-decreasing order and
// weighted by the multinomial coefficient. Without hidden nodes there is a
// single term, the closed form (6.9). Exact returns ErrTooLarge if
// ExactTerms > MaxExactTerms.
func (pr *Problem) Exact() (float64, error) {
	if pr.ExactTerms() > MaxExactTerms {
		return math.NaN(), ErrTooLarge
	}
	e := newEnumerator(pr)
	e.visit(0, 0, 0, 0)
	return e.m + math.Log(e.s), nil
}

// enumerator holds the state of Exact's depth-first sum.
type enumerator struct {
	pr     *Problem
	rowOf  []int32   // row of each θ entry
	u, u0  []float64 // λ per entry, λ⁰ per row
	n, n0  []float64 // counts per entry, per row
	kc     []int     // configurations used by each pattern's copies, patterns × H
	lnFact []float64 // ln k!, k ≤ max multiplicity
	m, s   float64   // running log-sum-exp of the leaves: Σ = e^m · s
}

func newEnumerator(pr *Problem) *enumerator {
	e := &enumerator{pr: pr, rowOf: make([]int32, len(pr.lambda)), u: pr.lambda,
		u0: make([]float64, len(pr.rowStart)), n: make([]float64, len(pr.lambda)),
		n0: make([]float64, len(pr.rowStart)), kc: make([]int, len(pr.pl.w)*pr.pl.h), m: math.Inf(-1)}
	for r, start := range pr.rowStart {
		for k := start; k < start+pr.rowLen[r]; k++ {
			e.rowOf[k] = int32(r)
			e.u0[r] += pr.lambda[k]
		}
	}
	maxW := 0
	for p := 0; p < pr.data.NumPatterns(); p++ {
		maxW = max(maxW, pr.data.Count(p))
	}
	e.lnFact = make([]float64, maxW+1)
	for k := range e.lnFact {
		e.lnFact[k] = numeric.LogGamma(float64(k) + 1)
	}
	return e
}

// visit places copy t of pattern p in a configuration ≥ cmin; lp is the log
// of the product so far.
func (e *enumerator) visit(p, t, cmin int, lp float64) {
	pl := &e.pr.pl
	if p == len(pl.w) {
		e.leaf(lp)
		return
	}
	w := e.pr.data.Count(p)
	if t == w { // pattern finished: the multinomial coefficient of its copies
		kc := e.kc[p*pl.h : (p+1)*pl.h]
		lw := e.lnFact[w]
		for _, k := range kc {
			lw -= e.lnFact[k]
		}
		e.visit(p+1, 0, 0, lp+lw)
		return
	}
	ci := pl.cidx[p*pl.jc : (p+1)*pl.jc]
	for c := cmin; c < pl.h; c++ {
		vi := pl.vidx[(p*pl.h+c)*pl.jv : (p*pl.h+c+1)*pl.jv]
		f := e.add(ci) * e.add(vi)
		e.kc[p*pl.h+c]++
		e.visit(p, t+1, c, lp+math.Log(f))
		e.kc[p*pl.h+c]--
		e.remove(ci)
		e.remove(vi)
	}
}

// add returns the Pólya-urn factor of the entries idx and then counts them.
func (e *enumerator) add(idx []int32) float64 {
	f := 1.0
	for _, i := range idx {
		r := e.rowOf[i]
		f *= (e.u[i] + e.n[i]) / (e.u0[r] + e.n0[r])
		e.n[i]++
		e.n0[r]++
	}
	return f
}

func (e *enumerator) remove(idx []int32) {
	for _, i := range idx {
		e.n[i]--
		e.n0[e.rowOf[i]]--
	}
}

func (e *enumerator) leaf(lp float64) {
	if lp > e.m {
		e.s = e.s*math.Exp(e.m-lp) + 1
		e.m = lp
		return
	}
	e.s += math.Exp(lp - e.m)
}
