package mfa

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/numeric"
)

// mlComp holds what ln N(y | μ^s, C_s), C_s = Λ^sΛ^sᵀ + Ψ, needs for one
// analyser of EM, by the Woodbury identity and the matrix determinant lemma
// (no p×p matrix is formed):
//
//	M_s = I + Λ^sᵀΨ⁻¹Λ^s = L Lᵀ,   |C_s| = |M_s| Π_q ψ_q,
//	(y−μ)ᵀC_s⁻¹(y−μ) = Σ_q (y_q−μ_q)²/ψ_q − ‖z‖²,   z = W(y−μ),  W = L⁻¹Λ^sᵀΨ⁻¹.
//
// The same z gives the posterior factor mean of the E step (targets
// ch4-mfa.md §2 item 1), E[x|y,s] = G_s Λ^sᵀΨ⁻¹(y−μ) = L⁻ᵀz, and the
// factor covariance G_s = M_s⁻¹ = L⁻ᵀL⁻¹.
type mlComp struct {
	k      int
	mu     []float64 // μ^s (p)
	w      []float64 // W (k×p, row-major)
	l      []float64 // L (k×k, row-major; the lower triangle is read)
	lnNorm float64   // −½(p ln 2π + ln|C_s|)
}

// mlComps is the precomputation of mlComp for every analyser, with 1/ψ_q:
// the workspace of EM's E step (see EM.E) and the content of a Density.
type mlComps struct {
	p, k  int
	ipsi  []float64 // 1/ψ_q (p)
	comps []mlComp
	work  []float64 // k×k scratch of covTo
}

// newMLComps returns the space of mlComps for S analysers of k factors in
// p dimensions.
func newMLComps(S, p, k int) *mlComps {
	c := &mlComps{p: p, k: k, ipsi: make([]float64, p), work: make([]float64, k*k)}
	c.resize(S)
	return c
}

// resize gives c the space for S analysers, keeping that of the first
// min(S, len(c.comps)); it allocates only when S grows.
func (c *mlComps) resize(S int) {
	for len(c.comps) < S {
		c.comps = append(c.comps, mlComp{k: c.k, mu: make([]float64, c.p), w: make([]float64, c.k*c.p), l: make([]float64, c.k*c.k)})
	}
	c.comps = c.comps[:S]
}

// set computes the precomputations of the analysers with means mu and
// loadings lambda (p×k, nil when k = 0) under the noise psi; len(mu) must
// be the size given to resize. It does not allocate. It fails if a ψ_q is
// not positive and finite or a matrix M_s is not positive definite (a
// loading that is not finite).
func (c *mlComps) set(mu [][]float64, lambda []*mat.Dense, psi []float64) error {
	p, k := c.p, c.k
	var lnPsi float64
	for q, v := range psi {
		if !(v > 0) || math.IsInf(v, 1) {
			return fmt.Errorf("mfa: ML noise ψ_%d = %v", q, v)
		}
		c.ipsi[q] = 1 / v
		lnPsi += math.Log(v)
	}
	for s := range c.comps {
		cs := &c.comps[s]
		copy(cs.mu, mu[s])
		cs.lnNorm = -0.5 * (float64(p)*ln2Pi + lnPsi)
		if k == 0 {
			continue
		}
		lam := lambda[s]
		// M = I + ΛᵀΨ⁻¹Λ (lower triangle), factorised in place.
		for a := 0; a < k; a++ {
			for b := 0; b <= a; b++ {
				var v float64
				for q := 0; q < p; q++ {
					row := lam.RawRowView(q)
					v += row[b] * row[a] * c.ipsi[q]
				}
				if a == b {
					v++
				}
				cs.l[a*k+b] = v
			}
		}
		if !numeric.CholFactor(cs.l, k) {
			return fmt.Errorf("mfa: ML analyser %d: I + ΛᵀΨ⁻¹Λ is not positive definite (loadings not finite?)", s)
		}
		cs.lnNorm -= 0.5 * numeric.CholLogDet(cs.l, k)
		// W = L⁻¹ΛᵀΨ⁻¹ by forward substitution.
		for q := 0; q < p; q++ {
			for a, v := range lam.RawRowView(q) {
				cs.w[a*p+q] = v * c.ipsi[q]
			}
		}
		numeric.CholSolve(cs.l, k, cs.w, p)
	}
	return nil
}

// logPdf returns ln N(y | μ^s, C_s) and, if z is not nil (length k), sets
// z = W(y−μ). It does not allocate.
//
// Where p ≤ maxLogPdfP it keeps y − μ in a stack array and takes the dot
// products of four rows of W with it in one pass over q: each is still one
// running sum in increasing q, and ‖z‖² is subtracted in increasing a, so
// the result is the plain loops' bit for bit, but the four sums, which
// each wait on their previous addition, proceed side by side.
func (c *mlComp) logPdf(y, ipsi, z []float64) float64 {
	p := len(y)
	if p > maxLogPdfP {
		return c.logPdfPlain(y, ipsi, z)
	}
	var buf [maxLogPdfP]float64
	e := buf[:p]
	mu, ipsi := c.mu[:p], ipsi[:p]
	var quad float64
	for q, v := range y {
		eq := v - mu[q]
		e[q] = eq
		quad += eq * eq * ipsi[q]
	}
	a := 0
	for ; a+4 <= c.k; a += 4 {
		r0, r1 := c.w[a*p:(a+1)*p], c.w[(a+1)*p:(a+2)*p]
		r2, r3 := c.w[(a+2)*p:(a+3)*p], c.w[(a+3)*p:(a+4)*p]
		var v0, v1, v2, v3 float64
		for q, eq := range e {
			v0 += r0[q] * eq
			v1 += r1[q] * eq
			v2 += r2[q] * eq
			v3 += r3[q] * eq
		}
		quad -= v0 * v0
		quad -= v1 * v1
		quad -= v2 * v2
		quad -= v3 * v3
		if z != nil {
			z[a], z[a+1], z[a+2], z[a+3] = v0, v1, v2, v3
		}
	}
	for ; a+2 <= c.k; a += 2 {
		r0, r1 := c.w[a*p:(a+1)*p], c.w[(a+1)*p:(a+2)*p]
		var v0, v1 float64
		for q, eq := range e {
			v0 += r0[q] * eq
			v1 += r1[q] * eq
		}
		quad -= v0 * v0
		quad -= v1 * v1
		if z != nil {
			z[a], z[a+1] = v0, v1
		}
	}
	for ; a < c.k; a++ {
		r0 := c.w[a*p : (a+1)*p]
		var v0 float64
		for q, eq := range e {
			v0 += r0[q] * eq
		}
		quad -= v0 * v0
		if z != nil {
			z[a] = v0
		}
	}
	return c.lnNorm - 0.5*quad
}

// maxLogPdfP is the largest p for which logPdf keeps y − μ on the stack.
const maxLogPdfP = 256

// logPdfPlain is logPdf by the plain loops (for p > maxLogPdfP).
func (c *mlComp) logPdfPlain(y, ipsi, z []float64) float64 {
	p := len(y)
	var quad float64
	for q, v := range y {
		e := v - c.mu[q]
		quad += e * e * ipsi[q]
	}
	for a := 0; a < c.k; a++ {
		row := c.w[a*p : (a+1)*p]
		var v float64
		for q, yq := range y {
			v += row[q] * (yq - c.mu[q])
		}
		quad -= v * v
		if z != nil {
			z[a] = v
		}
	}
	return c.lnNorm - 0.5*quad
}

// factorMean overwrites z = W(y−μ) (from logPdf) with L⁻ᵀz, the posterior
// factor mean G_s Λ^sᵀΨ⁻¹(y−μ) (targets §2 item 1), by back substitution.
func (c *mlComp) factorMean(z []float64) { numeric.CholSolveVecT(c.l, c.k, z) }

// covTo sets g (k×k, contiguous rows) to M_s⁻¹ = L⁻ᵀL⁻¹, the posterior
// covariance G_s of the factors of analyser s (targets §2 item 1). It does
// not allocate.
func (c *mlComps) covTo(g *mat.Dense, s int) {
	numeric.CholInverse(g.RawMatrix().Data, c.comps[s].l, c.k, c.work)
}

// Density is the predictive density of a fitted ML model (the classifier
// of targets ch4-mfa.md §3.7, "ML: argmax_c ln Σ_s π_s N(y′|μ^s,
// Λ^sΛ^sᵀ+Ψ)"), with the parameters as they were when (*EM).Density was
// called. Its methods do not allocate and do not write to it, so one
// Density may serve concurrent goroutines.
type Density struct {
	lnPi []float64
	c    *mlComps
}

// Density returns the predictive density of the current parameters. Each
// analyser costs O(p k² + k³) once here and O(p k) per test point (see
// mlComp); an analyser with π_s = 0 contributes nothing. It fails if Ψ or a
// loading matrix is not finite and positive as it must be.
func (m *EM) Density() (*Density, error) {
	c := newMLComps(len(m.Pi), m.p, m.k)
	if err := c.set(m.Mu, m.Lambda, m.Psi); err != nil {
		return nil, err
	}
	d := &Density{lnPi: make([]float64, len(m.Pi)), c: c}
	for s, v := range m.Pi {
		d.lnPi[s] = math.Log(v)
	}
	return d, nil
}

// LogDensity returns ln p(y|θ) = ln Σ_s π_s N(y | μ^s, Λ^sΛ^sᵀ + Ψ) (eq. 4.11
// with the ML parameters; Beal (2003) lines 2867-2869) for one point y of length
// p, by a running log-sum-exp. It panics if the length differs and does not
// allocate.
func (d *Density) LogDensity(y []float64) float64 {
	if len(y) != d.c.p {
		panic("mfa: Density dimension mismatch")
	}
	mx, sum := math.Inf(-1), 0.0
	for s := range d.c.comps {
		if math.IsInf(d.lnPi[s], -1) {
			continue
		}
		v := d.lnPi[s] + d.c.comps[s].logPdf(y, d.c.ipsi, nil)
		switch {
		case math.IsNaN(v):
			return math.NaN()
		case v > mx:
			sum = sum*math.Exp(mx-v) + 1
			mx = v
		default:
			sum += math.Exp(v - mx)
		}
	}
	return mx + math.Log(sum)
}

// LogDensity returns ln Σ_s π_s N(y | μ^s, Λ^sΛ^sᵀ + Ψ) at the current
// parameters for one point y (see Density.LogDensity); NaN if the
// parameters are not valid. It builds a Density on every call: for many
// points, call Density once.
func (m *EM) LogDensity(y []float64) float64 {
	d, err := m.Density()
	if err != nil {
		return math.NaN()
	}
	return d.LogDensity(y)
}
