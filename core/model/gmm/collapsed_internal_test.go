package gmm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
	"gonum.org/v1/gonum/stat/distuv"
)

// enumeration holds f_τ(Z) = p(Z) p(X|Z)^τ of every Z ∈ {0…K−1}^N,
// normalised, for a tiny data set.
type enumeration struct {
	m    *Collapsed
	tau  float64
	p    []float64 // probability of state index Σ_n z_n K^n
	cdf  []float64
	s    *Assignments
	mN   []float64
	kpow []int
}

func newEnumeration(t *testing.T, x []float64, k int, alpha0, tau float64) *enumeration {
	t.Helper()
	m, err := NewCollapsed(x, 2, k, DefaultPrior(2, alpha0))
	if err != nil {
		t.Fatal(err)
	}
	e := &enumeration{m: m, tau: tau, s: m.newAssignments(), mN: make([]float64, 2), kpow: make([]int, m.n+1)}
	e.kpow[0] = 1
	for i := 1; i <= m.n; i++ {
		e.kpow[i] = e.kpow[i-1] * k
	}
	lf := make([]float64, e.kpow[m.n])
	for idx := range lf {
		e.set(idx)
		lf[idx] = m.LogPrior(e.s) + tau*m.LogLik(e.s)
	}
	z := numeric.LogSumExp(lf)
	e.p, e.cdf = make([]float64, len(lf)), make([]float64, len(lf))
	var c float64
	for i, v := range lf {
		e.p[i] = math.Exp(v - z)
		c += e.p[i]
		e.cdf[i] = c
	}
	return e
}

// set writes state idx into e.s with its statistics.
func (e *enumeration) set(idx int) {
	for n := range e.s.Z {
		e.s.Z[n] = idx / e.kpow[n] % e.m.k
	}
	e.m.restat(e.s, e.mN)
}

func (e *enumeration) index(s *Assignments) int {
	idx := 0
	for n, z := range s.Z {
		idx += z * e.kpow[n]
	}
	return idx
}

// draw sets e.s to an exact draw from f_τ.
func (e *enumeration) draw(rnd *rand.Rand) {
	u := rnd.Float64() * e.cdf[len(e.cdf)-1]
	lo, hi := 0, len(e.cdf)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if e.cdf[mid] < u {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	e.set(lo)
}

// invariance draws Z ~ f_τ exactly, applies move once and tallies the
// state it leaves; if move leaves f_τ invariant the tallies follow f_τ.
// It returns the p-value of Pearson's χ² (states with expected counts
// below 5 pooled into one cell) and the number of states that changed.
func (e *enumeration) invariance(draws int, rnd *rand.Rand, move func(s *Assignments)) (pValue float64, changed int) {
	counts := make([]int, len(e.p))
	for range draws {
		e.draw(rnd)
		before := e.index(e.s)
		move(e.s)
		after := e.index(e.s)
		if after != before {
			changed++
		}
		counts[after]++
	}
	var x2, restE float64
	var restC, cells int
	for i, p := range e.p {
		ex := float64(draws) * p
		if ex < 5 {
			restE += ex
			restC += counts[i]
			continue
		}
		d := float64(counts[i]) - ex
		x2 += d * d / ex
		cells++
	}
	if restE > 0 {
		d := float64(restC) - restE
		x2 += d * d / restE
		cells++
	}
	return distuv.ChiSquared{K: float64(cells - 1)}.Survival(x2), changed
}

// Each part of the collapsed kernel (the split-merge move, the
// reallocation move, and the whole sweep) leaves f_τ(Z) = p(Z) p(X|Z)^τ
// invariant: one application to exact draws from f_τ, computed by
// enumerating the K^N assignments of 6 points, gives states distributed by
// f_τ (Pearson's χ², p > 10⁻⁴), at τ = 0, 0.6 and 1 and three α₀. A split
// whose Metropolis–Hastings ratio leaves out ln E (the choice of the empty
// component) fails it with p ≤ 3·10⁻⁶ in every case, a reallocation that
// leaves out q(Z)/q(Z′) with p = 0 (200000 draws).
func TestCollapsedKernelInvariance(t *testing.T) {
	x := []float64{-1.2, 0.1, -0.9, -0.2, -1.4, 0.3, 1.1, 0.4, 0.8, 0.6, 0.1, 1.5}
	for _, c := range []struct {
		k           int
		alpha0, tau float64
	}{{3, 1, 0.6}, {3, 0.3, 1}, {4, 1, 0}, {4, 2, 0.6}} {
		e := newEnumeration(t, x, c.k, c.alpha0, c.tau)
		g := e.m.NewGibbs()
		for i, mv := range []struct {
			name string
			move func(s *Assignments, rnd *rand.Rand)
		}{
			{"split-merge", func(s *Assignments, rnd *rand.Rand) { g.splitMerge(s, c.tau, rnd) }},
			{"reallocation", func(s *Assignments, rnd *rand.Rand) { g.reallocate(s, c.tau, rnd) }},
			{"sweep", func(s *Assignments, rnd *rand.Rand) { g.Sweep(s, c.tau, rnd) }},
		} {
			name := fmt.Sprintf("K=%d α₀=%g τ=%g %s", c.k, c.alpha0, c.tau, mv.name)
			rnd := rand.New(rand.NewPCG(uint64(c.k*100+i), uint64(c.tau*10)))
			draws := 200000
			if testing.Short() {
				draws = 100000
			}
			p, changed := e.invariance(draws, rnd, func(s *Assignments) { mv.move(s, rnd) })
			t.Logf("%s: p = %.3g, %d of %d draws changed", name, p, changed, draws)
			if changed < draws/100 {
				t.Errorf("%s: only %d of %d draws changed state: the test would not see a wrong ratio", name, changed, draws)
			}
			if p < 1e-4 {
				t.Errorf("%s: states after one move do not follow f_τ (χ² p = %.3g)", name, p)
			}
		}
	}
}
