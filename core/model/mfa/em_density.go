package mfa

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// mlComp holds what ln N(y | μ^s, C_s), C_s = Λ^sΛ^sᵀ + Ψ, needs for one
// analyser of ML, by the Woodbury identity and the matrix determinant lemma
// (no p×p matrix is formed):
//
//	M_s = I + Λ^sᵀΨ⁻¹Λ^s = L Lᵀ,   |C_s| = |M_s| Π_q ψ_q,
//	(y−μ)ᵀC_s⁻¹(y−μ) = Σ_q (y_q−μ_q)²/ψ_q − ‖z‖²,   z = W(y−μ),  W = L⁻¹Λ^sᵀΨ⁻¹.
//
// The same z gives the posterior factor mean of the E step (targets
// ch4-mfa.md §2 item 1), E[x|y,s] = G_s Λ^sᵀΨ⁻¹(y−μ) = L⁻ᵀz, since
// G_s = M_s⁻¹.
type mlComp struct {
	k      int
	mu     []float64 // μ^s (p)
	w      []float64 // W (k×p, row-major)
	l      []float64 // L (k×k, row-major, lower)
	lnNorm float64   // −½(p ln 2π + ln|C_s|)
}

// newMLComps returns the precomputations of mlComp for the analysers with
// means mu and loadings lambda (p×k, nil when k = 0) under the noise psi,
// and 1/ψ_q. It fails if a ψ_q is not positive and finite or a matrix M_s
// cannot be factorised (a loading that is not finite).
func newMLComps(mu [][]float64, lambda []*mat.Dense, psi []float64, k int) ([]mlComp, []float64, error) {
	p := len(psi)
	ipsi := make([]float64, p)
	var lnPsi float64
	for q, v := range psi {
		if !(v > 0) || math.IsInf(v, 1) {
			return nil, nil, fmt.Errorf("mfa: ML noise ψ_%d = %v", q, v)
		}
		ipsi[q] = 1 / v
		lnPsi += math.Log(v)
	}
	comps := make([]mlComp, len(mu))
	for s := range comps {
		c := mlComp{k: k, mu: append([]float64(nil), mu[s]...), lnNorm: -0.5 * (float64(p)*ln2Pi + lnPsi)}
		if k > 0 {
			lam := lambda[s]
			m := mat.NewSymDense(k, nil) // M = I + ΛᵀΨ⁻¹Λ
			for a := 0; a < k; a++ {
				for b := a; b < k; b++ {
					var v float64
					for q := 0; q < p; q++ {
						v += lam.At(q, a) * lam.At(q, b) * ipsi[q]
					}
					if a == b {
						v++
					}
					m.SetSym(a, b, v)
				}
			}
			var chol mat.Cholesky
			if !chol.Factorize(m) {
				return nil, nil, fmt.Errorf("mfa: ML analyser %d: I + ΛᵀΨ⁻¹Λ is not positive definite (loadings not finite?)", s)
			}
			c.lnNorm -= 0.5 * chol.LogDet()
			var lt mat.TriDense
			chol.LTo(&lt)
			c.l = make([]float64, k*k)
			for a := 0; a < k; a++ {
				for b := 0; b <= a; b++ {
					c.l[a*k+b] = lt.At(a, b)
				}
			}
			// W = L⁻¹ΛᵀΨ⁻¹ by forward substitution, column q at a time.
			c.w = make([]float64, k*p)
			for q := 0; q < p; q++ {
				for a := 0; a < k; a++ {
					v := lam.At(q, a) * ipsi[q]
					for b := 0; b < a; b++ {
						v -= c.l[a*k+b] * c.w[b*p+q]
					}
					c.w[a*p+q] = v / c.l[a*k+a]
				}
			}
		}
		comps[s] = c
	}
	return comps, ipsi, nil
}

// logPdf returns ln N(y | μ^s, C_s) and, if z is not nil (length k), sets
// z = W(y−μ). It does not allocate.
func (c *mlComp) logPdf(y, ipsi, z []float64) float64 {
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

// factorMean sets x = L⁻ᵀz, the posterior factor mean G_s Λ^sᵀΨ⁻¹(y−μ)
// (targets §2 item 1), by back substitution.
func (c *mlComp) factorMean(x, z []float64) {
	k := c.k
	for a := k - 1; a >= 0; a-- {
		v := z[a]
		for b := a + 1; b < k; b++ {
			v -= c.l[b*k+a] * x[b]
		}
		x[a] = v / c.l[a*k+a]
	}
}

// covTo sets g = M_s⁻¹ = L⁻ᵀL⁻¹, the posterior covariance G_s of the
// factors (targets §2 item 1).
func (c *mlComp) covTo(g *mat.Dense) {
	k := c.k
	li := make([]float64, k*k) // L⁻¹, lower
	for b := 0; b < k; b++ {
		for a := b; a < k; a++ {
			var v float64
			if a == b {
				v = 1
			}
			for j := b; j < a; j++ {
				v -= c.l[a*k+j] * li[j*k+b]
			}
			li[a*k+b] = v / c.l[a*k+a]
		}
	}
	for a := 0; a < k; a++ {
		for b := 0; b <= a; b++ {
			var v float64
			for j := a; j < k; j++ {
				v += li[j*k+a] * li[j*k+b]
			}
			g.Set(a, b, v)
			g.Set(b, a, v)
		}
	}
}

// Density is the predictive density of a fitted ML model (the classifier
// of targets ch4-mfa.md §3.7, "ML: argmax_c ln Σ_s π_s N(y′|μ^s,
// Λ^sΛ^sᵀ+Ψ)"), with the parameters as they were when (*EM).Density was
// called. Its methods do not allocate and do not write to it, so one
// Density may serve concurrent goroutines.
type Density struct {
	p     int
	lnPi  []float64
	ipsi  []float64
	comps []mlComp
}

// Density returns the predictive density of the current parameters. Each
// analyser costs O(p k² + k³) once here and O(p k) per test point (see
// mlComp); an analyser with π_s = 0 contributes nothing. It fails if Ψ or a
// loading matrix is not finite and positive as it must be.
func (m *EM) Density() (*Density, error) {
	comps, ipsi, err := newMLComps(m.Mu, m.Lambda, m.Psi, m.k)
	if err != nil {
		return nil, err
	}
	d := &Density{p: m.p, lnPi: make([]float64, len(m.Pi)), ipsi: ipsi, comps: comps}
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
	if len(y) != d.p {
		panic("mfa: Density dimension mismatch")
	}
	mx, sum := math.Inf(-1), 0.0
	for s := range d.comps {
		if math.IsInf(d.lnPi[s], -1) {
			continue
		}
		v := d.lnPi[s] + d.comps[s].logPdf(y, d.ipsi, nil)
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
