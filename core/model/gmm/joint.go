package gmm

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Joint is the Bayesian mixture of PRML (10.37)–(10.41) as a target for
// annealed importance sampling: the state (Z, π, μ, Λ) is split into the
// base density p(π) p(μ, Λ) p(Z | π) (LogPrior, normalised and sampled by
// SamplePrior) and the tempered factor p(X | Z, μ, Λ) (LogLik), so that
// f_τ = p(π)p(μ,Λ)p(Z|π) p(X|Z,μ,Λ)^τ and Z_1 = p(X | K) (Beal (2003)
// eqs. (6.50)–(6.53)). It satisfies samplers/ais.Model[*State] by its
// method set; Gibbs is its transition. A Joint is immutable and safe for
// concurrent use.
type Joint struct {
	x     []float64
	n, d  int
	k     int
	prior Prior
	c     consts
	lnC0  float64 // ln C(α₀) of the Dirichlet prior, PRML (B.23)
	lw0   []float64
}

// NewJoint returns the joint density of K components with the prior on the
// data x (N×D row-major, not copied).
func NewJoint(x []float64, d, k int, prior Prior) (*Joint, error) {
	if err := checkEvidenceArgs(x, d, prior); err != nil {
		return nil, err
	}
	if k < 1 {
		return nil, fmt.Errorf("gmm: K = %d", k)
	}
	j := &Joint{x: x, n: len(x) / d, d: d, k: k, prior: prior, c: newConsts(prior)}
	kf := float64(k)
	j.lnC0 = numeric.LogGamma(kf*prior.Alpha0) - kf*numeric.LogGamma(prior.Alpha0)
	j.lw0 = lowerChol(prior.W0, d)
	return j, nil
}

// lowerChol returns the Cholesky factor of the symmetric positive definite
// d×d matrix a (a copy); it panics if a is not positive definite.
func lowerChol(a []float64, d int) []float64 {
	l := append([]float64(nil), a...)
	if !numeric.CholFactor(l, d) {
		panic("gmm: matrix is not positive definite")
	}
	return l
}

// K returns the number of components.
func (j *Joint) K() int { return j.k }

// State is a point of the AIS chain: the assignments Z, ln π, and each
// component's mean and precision, the precision held by its Cholesky factor
// Λ_k = L_kL_kᵀ.
type State struct {
	Z     []int     // N
	LogPi []float64 // K
	Mu    []float64 // K×D
	L     []float64 // K×D×D, lower triangle of the factor of Λ_k
}

func (j *Joint) newState() *State {
	d := j.d
	return &State{Z: make([]int, j.n), LogPi: make([]float64, j.k), Mu: make([]float64, j.k*d), L: make([]float64, j.k*d*d)}
}

// Precision writes Λ_k = L_kL_kᵀ into dst (D×D).
func (s *State) Precision(k, d int, dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, d*d)
	}
	l := s.L[k*d*d : (k+1)*d*d]
	for a := 0; a < d; a++ {
		for b := 0; b <= a; b++ {
			var v float64
			for c := 0; c <= b; c++ {
				v += l[a*d+c] * l[b*d+c]
			}
			dst[a*d+b], dst[b*d+a] = v, v
		}
	}
	return dst
}

// quadL returns vᵀΛv = ‖Lᵀv‖² for the lower factor l of Λ (D×D), with
// v = x − μ formed on the fly; it allocates nothing.
func quadL(l, x, mu []float64, d int) float64 {
	var q float64
	for b := 0; b < d; b++ {
		var t float64
		for a := b; a < d; a++ {
			t += l[a*d+b] * (x[a] - mu[a])
		}
		q += t * t
	}
	return q
}

// halfLogDetL returns ½ ln|Λ| = Σ_i ln L_ii.
func halfLogDetL(l []float64, d int) float64 { return numeric.CholLogDet(l, d) / 2 }

// gaussConst returns the normaliser −(D/2) ln 2π + ½ ln|Λ| of N(· | μ, Λ⁻¹)
// for the factor l of Λ.
func gaussConst(l []float64, d int) float64 { return -float64(d)/2*ln2Pi + halfLogDetL(l, d) }

// gaussConsts writes gaussConst of each of the k factors in ls (k×D×D)
// into dst (reused when it has room) and returns it.
func gaussConsts(dst, ls []float64, k, d int) []float64 {
	dst = dst[:0]
	for c := 0; c < k; c++ {
		dst = append(dst, gaussConst(ls[c*d*d:(c+1)*d*d], d))
	}
	return dst
}

// traceProd returns Tr(AΛ) = Σ_ab A_ab Λ_ab for the symmetric A and Λ = LLᵀ.
func traceProd(a, l []float64, d int) float64 {
	// Tr(A L Lᵀ) = Σ_c (L_{·c})ᵀ A L_{·c}.
	var tr float64
	for c := 0; c < d; c++ {
		for i := c; i < d; i++ {
			li := l[i*d+c]
			if li == 0 {
				continue
			}
			var s float64
			for k := c; k < d; k++ {
				s += a[i*d+k] * l[k*d+c]
			}
			tr += li * s
		}
	}
	return tr
}

// logNW returns ln N(μ | m, (βΛ)⁻¹) + ln W(Λ | W, ν) for the factor l of Λ,
// with winv = W⁻¹ and lnZW = ln Z(W, ν) (wishartLogZ).
func logNW(mu, l []float64, m []float64, beta, nu float64, winv []float64, lnZW float64, d int) float64 {
	df := float64(d)
	hld := halfLogDetL(l, d)
	lg := -df/2*ln2Pi + df/2*math.Log(beta) + hld - beta/2*quadL(l, mu, m, d)
	return lg + (nu-df-1)*hld - 0.5*traceProd(winv, l, d) - lnZW
}

// LogPrior returns ln p(π) + Σ_k ln p(μ_k, Λ_k) + ln p(Z | π) (PRML (10.37),
// (10.39), (10.40)), the Dirichlet density taken on (π_1, …, π_{K−1}).
func (j *Joint) LogPrior(s *State) float64 {
	d, p := j.d, j.prior
	lp := j.lnC0
	for _, lw := range s.LogPi {
		lp += (p.Alpha0 - 1) * lw
	}
	for k := 0; k < j.k; k++ {
		lp += logNW(s.Mu[k*d:(k+1)*d], s.L[k*d*d:(k+1)*d*d], p.M0, p.Beta0, p.Nu0, j.c.w0inv, j.c.lnZ0, d)
	}
	for _, z := range s.Z {
		lp += s.LogPi[z]
	}
	return lp
}

// LogLik returns ln p(X | Z, μ, Λ) = Σ_n ln N(x_n | μ_{z_n}, Λ_{z_n}⁻¹) (10.38).
// It does not allocate for K ≤ 16.
func (j *Joint) LogLik(s *State) float64 {
	d := j.d
	var buf [16]float64
	c := gaussConsts(buf[:], s.L, j.k, d)
	var ll float64
	for i, z := range s.Z {
		ll += c[z] - 0.5*quadL(s.L[z*d*d:(z+1)*d*d], j.x[i*d:(i+1)*d], s.Mu[z*d:(z+1)*d], d)
	}
	return ll
}

// SamplePrior draws (π, μ, Λ) from the prior and then Z | π (writing into
// dst when it is a state of this Joint's sizes) and returns the state.
func (j *Joint) SamplePrior(dst *State, rnd *rand.Rand) *State {
	if dst == nil || len(dst.Z) != j.n || len(dst.LogPi) != j.k {
		dst = j.newState()
	}
	g := j.NewGibbs()
	for k := range g.stats {
		g.stats[k].reset()
	}
	g.drawParams(dst, true, rnd)
	g.drawZ(dst, 0, rnd)
	return dst
}

// Gibbs is the Gibbs sampler of f_τ over (Z, π, μ, Λ): one Sweep draws every
// z_n from p(z_n | π, μ, Λ) ∝ π_k N(x_n | μ_k, Λ_k⁻¹)^τ, then π from
// Dir(α₀ + n_k), then each (μ_k, Λ_k) from its Normal-Wishart full
// conditional, the conjugate update (10.60)–(10.63) with every assigned
// point weighted by τ (N(x|μ,Λ⁻¹)^τ is a Gaussian likelihood term with
// weight τ). Each draw is exact, so the sweep leaves f_τ invariant. A Gibbs
// holds scratch space: one per chain.
type Gibbs struct {
	j       *Joint
	stats   []nwStats
	lp, gc  []float64 // K
	alpha   []float64 // K
	mN, wN  []float64 // D, D×D
	lw, inv []float64 // D×D
	eps     []float64 // D
}

// NewGibbs returns a Gibbs sampler for j.
func (j *Joint) NewGibbs() *Gibbs {
	d := j.d
	g := &Gibbs{j: j, stats: make([]nwStats, j.k), lp: make([]float64, j.k), gc: make([]float64, j.k), alpha: make([]float64, j.k),
		mN: make([]float64, d), wN: make([]float64, d*d), lw: make([]float64, d*d), inv: make([]float64, d*d),
		eps: make([]float64, d)}
	for k := range g.stats {
		g.stats[k] = newNWStats(d)
	}
	return g
}

// Sweep makes one Gibbs sweep at inverse temperature tau and returns s
// (modified in place). It does not allocate.
func (g *Gibbs) Sweep(s *State, tau float64, rnd *rand.Rand) *State {
	g.drawZ(s, tau, rnd)
	d := g.j.d
	for k := range g.stats {
		g.stats[k].reset()
	}
	for i, z := range s.Z {
		g.stats[z].add(g.j.x[i*d:(i+1)*d], tau)
	}
	g.drawParams(s, false, rnd)
	return s
}

// drawZ draws every z_n ∝ π_k N(x_n | μ_k, Λ_k⁻¹)^τ.
func (g *Gibbs) drawZ(s *State, tau float64, rnd *rand.Rand) {
	j, d := g.j, g.j.d
	g.gc = gaussConsts(g.gc, s.L, j.k, d)
	for i := range s.Z {
		xi := j.x[i*d : (i+1)*d]
		for k := range g.lp {
			v := s.LogPi[k]
			if tau != 0 && v > math.Inf(-1) {
				v += tau * (g.gc[k] - 0.5*quadL(s.L[k*d*d:(k+1)*d*d], xi, s.Mu[k*d:(k+1)*d], d))
			}
			g.lp[k] = v
		}
		s.Z[i] = drawLog(g.lp, rnd)
	}
}

// drawParams draws π ~ Dir(α₀ + n_k) (p(Z|π) is in the base density, so
// the counts n_k of s.Z are not tempered; fromPrior leaves them out) and
// each (μ_k, Λ_k) from the Normal-Wishart posterior of the statistics in
// g.stats (points weighted by τ; empty statistics give the prior).
func (g *Gibbs) drawParams(s *State, fromPrior bool, rnd *rand.Rand) {
	j, d, p := g.j, g.j.d, g.j.prior
	for k := range g.alpha {
		g.alpha[k] = p.Alpha0
	}
	if !fromPrior {
		for _, z := range s.Z {
			g.alpha[z]++
		}
	}
	dist.Dirichlet{Alpha: g.alpha}.RandLog(s.LogPi, rnd)
	for k := range g.stats {
		bN, nN := g.stats[k].posterior(p, j.c.w0inv, g.mN, g.wN)
		if !numeric.CholFactor(g.wN, d) {
			panic("gmm: Gibbs: posterior scale not positive definite")
		}
		numeric.CholInverse(g.inv, g.wN, d, g.lw) // W_N
		copy(g.lw, g.inv)
		numeric.CholFactor(g.lw, d)
		sampleNW(rnd, g.mN, bN, g.lw, nN, d, s.Mu[k*d:(k+1)*d], s.L[k*d*d:(k+1)*d*d], g.eps)
	}
}

// sampleNW draws Λ ~ W(W, ν) by the Bartlett decomposition and then
// μ ~ N(m, (βΛ)⁻¹), given the lower Cholesky factor lw of W. It writes μ
// into mu and the lower Cholesky factor B of Λ = BBᵀ into l: with A lower
// triangular, A_ii = √χ²(ν − i) (i = 0…D−1), A_ab ~ N(0, 1) below the
// diagonal, B = L_W A, and μ = m + B⁻ᵀε/√β with ε ~ N(0, I). eps is scratch
// of length D.
func sampleNW(rnd *rand.Rand, m []float64, beta float64, lw []float64, nu float64, d int, mu, l, eps []float64) {
	clear(l)
	// l temporarily holds A (lower triangle); B = L_W A is formed row by row
	// from the bottom so that each row of A is read before it is overwritten.
	for a := 0; a < d; a++ {
		l[a*d+a] = math.Sqrt(2 * math.Exp(dist.RandLogGamma((nu-float64(a))/2, rnd)))
		for b := 0; b < a; b++ {
			l[a*d+b] = rnd.NormFloat64()
		}
	}
	for a := d - 1; a >= 0; a-- {
		for b := 0; b <= a; b++ {
			var v float64
			for c := b; c <= a; c++ {
				v += lw[a*d+c] * l[c*d+b]
			}
			l[a*d+b] = v
		}
	}
	for a := range eps {
		eps[a] = rnd.NormFloat64()
	}
	numeric.CholSolveVecT(l, d, eps)
	sb := 1 / math.Sqrt(beta)
	for a := range mu {
		mu[a] = m[a] + sb*eps[a]
	}
}
