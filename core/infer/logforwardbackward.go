package infer

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// LogChain is a Chain whose entries are the natural logarithms of the
// weights (−Inf for a zero weight), in Chain's layouts. The log-domain
// recursion ForwardBackward.AddExpectedCountsLog runs on it where the
// weights themselves are not representable: the VBE step's Bayes-point
// weights exp(ψ(w) − ψ(Σw)) (Beal 2003 eqs. 3.66-3.71) are exactly 0 in
// float64 once ψ(w) − ψ(Σw) < −745.13 (math.Exp underflows), which
// pseudo-counts w far below one reach, though every path keeps a positive
// weight.
type LogChain Chain

// AddExpectedCountsLog is AddExpectedCounts on the log weights c: the
// scaled forward-backward recursion (Beal 2003 eqs. 3.19-3.35) in the log
// domain. With ln ζ_t the log-sum of the unnormalised forward message,
//
//	ln α_t(l) = ln c_{l,y_t} + ln Σ_j exp(ln α_{t−1}(j) + ln a_{jl}) − ln ζ_t,
//	ln β_{t−1}(j) = ln Σ_l exp(ln a_{jl} + ln c_{l,y_t} + ln β_t(l)) − ln ζ_t,
//
// each sum by numeric.LogSumExp, so that no weight, product or message
// under- or overflows and the messages stay near 0 as in the scaled
// recursion. It adds γ_t(j) = exp(ln α_t(j) + ln β_t(j)) and ξ_t(j,l) =
// exp(ln α_{t−1}(j) + ln a_{jl} + ln c_{l,y_t} + ln β_t(l) − ln ζ_t) to acc
// (eqs. 3.16-3.18) and returns ln Z = Σ_t ln ζ_t, the value
// AddExpectedCounts computes from the weights exp(c) when they are
// representable. It costs O(T K²) exponentials against AddExpectedCounts'
// multiplications, so it is the fallback for a sequence that the scaled
// recursion finds impossible. When the sequence is impossible under c
// itself (ln Z = −Inf) acc is left unchanged.
func (w *ForwardBackward) AddExpectedCountsLog(c *LogChain, y []int, acc *Counts) float64 {
	T := len(y)
	if T == 0 {
		return 0
	}
	k := c.K
	w.grow(T, k)
	la := w.alpha      // T×K: ln α_t
	lz := w.inv        // T: ln ζ_t
	v := w.chunk[:k]   // the terms of one log-sum
	tmp := w.outer[:k] // ln c_{·,y_t} + ln β_t
	var lnZ float64
	for t := 0; t < T; t++ {
		m := y[t]
		if m < 0 || m >= c.P {
			panic(fmt.Sprintf("infer: symbol %d at position %d outside [0,%d)", m, t, c.P))
		}
		e := c.E[m*k : (m+1)*k]
		cur := la[t*k : (t+1)*k]
		if t == 0 {
			for j := range cur {
				cur[j] = c.Pi[j] + e[j]
			}
		} else {
			prev := la[(t-1)*k : t*k]
			for l := range cur {
				for j, a := range prev {
					v[j] = a + c.A[j*k+l]
				}
				cur[l] = numeric.LogSumExp(v) + e[l]
			}
		}
		z := numeric.LogSumExp(cur)
		if !(z > math.Inf(-1)) || math.IsInf(z, 1) {
			return math.Inf(-1)
		}
		for j := range cur {
			cur[j] -= z
		}
		lz[t] = z
		lnZ += z
	}
	beta, prevBeta := w.beta, w.prev // ln β_t and ln β_{t−1}
	clear(beta)
	for t := T - 1; t >= 0; t-- {
		at := la[t*k : (t+1)*k]
		ge := acc.E[y[t]*k : (y[t]+1)*k]
		for j, a := range at {
			g := math.Exp(a + beta[j])
			ge[j] += g
			if t == 0 {
				acc.Pi[j] += g
			}
		}
		if t == 0 {
			break
		}
		e := c.E[y[t]*k : (y[t]+1)*k]
		for l := range tmp {
			tmp[l] = e[l] + beta[l] - lz[t]
		}
		prev := la[(t-1)*k : t*k]
		for j, a := range prev {
			row := c.A[j*k : (j+1)*k]
			for l, x := range row {
				v[l] = x + tmp[l]
			}
			prevBeta[j] = numeric.LogSumExp(v)
			if a == math.Inf(-1) {
				continue
			}
			xs := acc.A[j*k : (j+1)*k]
			for l, x := range v {
				xs[l] += math.Exp(a + x)
			}
		}
		beta, prevBeta = prevBeta, beta
	}
	w.beta, w.prev = beta, prevBeta
	return lnZ
}
