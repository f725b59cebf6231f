package approx

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Expectation propagation (PRML §10.7, eqs. (10.184)–(10.208), Algorithm
// on L1240–1262) for a target
//
//	p(θ) ∝ N(θ | m₀, S₀) Π_i f_i(θ),
//
// approximated by q(θ) ∝ N(θ | m₀, S₀) Π_i f̃_i(θ) with Gaussian sites
// f̃_i(θ) = s_i exp(h_iᵀθ − ½ θᵀΛ_iθ). The sites live in natural
// parameters, so a site's Λ_i may be indefinite (a "negative variance",
// PRML Fig. 10.16, L1335–1345) as long as q and the cavities stay proper.
// One update of site i (eqs. (10.205)–(10.207)): the cavity q\i = q/f̃_i,
// the tilted distribution f_i q\i/Z_i and its moments (the Factor's
// job), the Gaussian with those moments as the new q (moment matching,
// minimising KL(tilted‖q)), the site as new q / cavity; with damping δ the
// site's natural parameters move a fraction δ of the way.

// Factor is one non-Gaussian factor f_i of the target.
type Factor interface {
	// Tilted returns ln Z = ln ∫ f(θ) N(θ | m, V) dθ and writes the mean
	// and covariance (row-major) of the tilted density f(θ)N(θ | m, V)/Z
	// into mean and cov. It must not keep its arguments.
	Tilted(m, v, mean, cov []float64) (lnZ float64, err error)
}

// ProjectedFactor is a factor that depends on θ through u = aᵀθ alone,
// f(θ) = g(aᵀθ): a logistic or probit likelihood (PRML §10.6, §4.5), or the
// one-dimensional clutter factor (PRML eq. (10.209)) with a = 1. Its tilted
// moments come from a one-dimensional adaptive quadrature over u ~
// N(aᵀm, aᵀVa), box ±12 standard deviations: with E_t and Var_t the tilted
// moments of u,
//
//	mean = m + Va (E_t[u] − μ_u)/σ_u²,  cov = V + Va aᵀV (Var_t[u] − σ_u²)/σ_u⁴.
type ProjectedFactor struct {
	A    []float64
	LogG func(u float64) float64
	Tol  numeric.QuadTol
}

// Tilted implements Factor.
func (f ProjectedFactor) Tilted(m, v, mean, cov []float64) (float64, error) {
	d := len(m)
	va := make([]float64, d)
	var mu, s2 float64
	for i := range d {
		mu += f.A[i] * m[i]
		for j := range d {
			va[i] += v[i*d+j] * f.A[j]
		}
	}
	for i := range d {
		s2 += f.A[i] * va[i]
	}
	if !(s2 > 0) {
		return math.NaN(), errors.New("approx: projected cavity variance not positive")
	}
	s := math.Sqrt(s2)
	g := Density{LogP: func(x []float64) float64 {
		z := (x[0] - mu) / s
		return f.LogG(x[0]) - 0.5*z*z
	}, Lo: []float64{mu - 12*s}, Hi: []float64{mu + 12*s}}
	ex, err := g.Exact(f.Tol)
	if err != nil {
		return math.NaN(), err
	}
	dm := (ex.Mean[0] - mu) / s2
	dv := (ex.Cov[0] - s2) / (s2 * s2)
	for i := range d {
		mean[i] = m[i] + va[i]*dm
		for j := range d {
			cov[i*d+j] = v[i*d+j] + va[i]*va[j]*dv
		}
	}
	return ex.LnZ - 0.5*math.Log(2*math.Pi*s2), nil
}

// EPSettings control EP. The zero value means the defaults.
type EPSettings struct {
	// Damping δ ∈ (0, 1]: the fraction of the step from the old site's
	// natural parameters to the new one's. Default 1 (no damping). If a
	// step would make q improper it is halved (up to 20 times) and the
	// site left unchanged if that fails.
	Damping float64
	// MaxIterations caps the sweeps over the sites. Default 100.
	MaxIterations int
	// Tol ends the run when no site's natural parameters moved by more
	// than Tol (max norm) in a sweep. Default 1e-9.
	Tol float64
}

func (s EPSettings) withDefaults() EPSettings {
	if s.Damping <= 0 || s.Damping > 1 {
		s.Damping = 1
	}
	if s.MaxIterations <= 0 {
		s.MaxIterations = 100
	}
	if s.Tol <= 0 {
		s.Tol = 1e-9
	}
	return s
}

// natural holds a Gaussian's (or a site's) natural parameters h, Λ.
type natural struct{ h, lam []float64 }

func newNatural(d int) natural { return natural{h: make([]float64, d), lam: make([]float64, d*d)} }

func (n natural) clone() natural {
	return natural{h: append([]float64(nil), n.h...), lam: append([]float64(nil), n.lam...)}
}

// addScaled sets n += c·o.
func (n natural) addScaled(c float64, o natural) {
	for i := range n.h {
		n.h[i] += c * o.h[i]
	}
	for i := range n.lam {
		n.lam[i] += c * o.lam[i]
	}
}

// moments returns the Gaussian N(Λ⁻¹h, Λ⁻¹) and its log-partition
// A = ½hᵀΛ⁻¹h − ½ln|Λ| + (d/2) ln 2π, or false if Λ is not positive
// definite.
func (n natural) moments() (Normal, float64, bool) {
	d := len(n.h)
	cov, ldet, ok := invertSPD(n.lam, d)
	if !ok {
		return Normal{}, 0, false
	}
	mean := make([]float64, d)
	var hm float64
	for i := range d {
		for j := range d {
			mean[i] += cov[i*d+j] * n.h[j]
		}
		hm += n.h[i] * mean[i]
	}
	return Normal{Mean: mean, Cov: cov}, 0.5*hm - 0.5*ldet + 0.5*float64(d)*math.Log(2*math.Pi), true
}

// fromMoments returns the natural parameters of q.
func fromMoments(q Normal) (natural, bool) {
	d := q.Dim()
	lam, _, ok := invertSPD(q.Cov, d)
	if !ok {
		return natural{}, false
	}
	n := natural{h: make([]float64, d), lam: lam}
	for i := range d {
		for j := range d {
			n.h[i] += lam[i*d+j] * q.Mean[j]
		}
	}
	return n, true
}

// EP is expectation propagation on a Gaussian prior and factors.
type EP struct {
	prior   natural
	factors []Factor
	sites   []natural
	q       natural
	s       EPSettings
	// Iterations is the number of sweeps run; Skipped counts site updates
	// left out because the cavity or the new q was improper.
	Iterations, Skipped int
}

// NewEP returns EP with every site at 1 (q = prior).
func NewEP(prior Normal, factors []Factor, s EPSettings) (*EP, error) {
	pn, ok := fromMoments(prior)
	if !ok {
		return nil, fmt.Errorf("approx: EP prior: %w", errNotProper)
	}
	e := &EP{prior: pn, factors: factors, q: pn.clone(), s: s.withDefaults()}
	for range factors {
		e.sites = append(e.sites, newNatural(prior.Dim()))
	}
	return e, nil
}

// Q returns the current approximation q.
func (e *EP) Q() Normal {
	q, _, _ := e.q.moments()
	return q
}

// Site returns site i's natural parameters h_i and Λ_i (copies): Λ_i may
// be indefinite.
func (e *EP) Site(i int) (h, lam []float64) {
	c := e.sites[i].clone()
	return c.h, c.lam
}

// Cavity returns q\i = q/f̃_i, or false if it is improper.
func (e *EP) Cavity(i int) (Normal, bool) {
	c := e.q.clone()
	c.addScaled(-1, e.sites[i])
	n, _, ok := c.moments()
	return n, ok
}

// Sweep updates every site once in order and returns the largest change
// of a site's natural parameters.
func (e *EP) Sweep() (float64, error) {
	d := len(e.q.h)
	mean, cov := make([]float64, d), make([]float64, d*d)
	var change float64
	for i, f := range e.factors {
		cav := e.q.clone()
		cav.addScaled(-1, e.sites[i])
		cn, _, ok := cav.moments()
		if !ok {
			e.Skipped++
			continue
		}
		if _, err := f.Tilted(cn.Mean, cn.Cov, mean, cov); err != nil {
			return change, fmt.Errorf("approx: EP site %d: %w", i, err)
		}
		tn, ok := fromMoments(Normal{Mean: mean, Cov: cov})
		if !ok {
			e.Skipped++
			continue
		}
		// Proposed site = tilted − cavity; step δ from the old site.
		step := tn.clone()
		step.addScaled(-1, cav)
		step.addScaled(-1, e.sites[i]) // now new − old
		delta := e.s.Damping
		applied := false
		for range 20 {
			q := e.q.clone()
			q.addScaled(delta, step)
			if _, _, ok := q.moments(); ok {
				e.q = q
				e.sites[i].addScaled(delta, step)
				applied = true
				break
			}
			delta /= 2
		}
		if !applied {
			e.Skipped++
			continue
		}
		for _, v := range step.h {
			change = math.Max(change, delta*math.Abs(v))
		}
		for _, v := range step.lam {
			change = math.Max(change, delta*math.Abs(v))
		}
	}
	// Recompute q from the prior and the sites, against drift.
	q := e.prior.clone()
	for _, s := range e.sites {
		q.addScaled(1, s)
	}
	if _, _, ok := q.moments(); ok {
		e.q = q
	}
	e.Iterations++
	return change, nil
}

// Run sweeps until the sites stop moving (EPSettings.Tol) or the cap, and
// reports whether it converged.
func (e *EP) Run() (bool, error) {
	for range e.s.MaxIterations {
		c, err := e.Sweep()
		if err != nil {
			return false, err
		}
		if c <= e.s.Tol {
			return true, nil
		}
	}
	return false, nil
}

// LogEvidence returns EP's approximation of ln ∫ N(θ | m₀, S₀) Π_i f_i(θ) dθ
// (PRML eq. (10.208) in natural parameters): with A the Gaussian
// log-partition and each site's scale s_i chosen so that ∫ q\i f̃_i =
// Z_i, the tilted normaliser,
//
//	ln Z_EP = A(q) − A(prior) + Σ_i [ln Z_i − A(q) + A(q\i)],
//
// evaluated at the current q (exact at a fixed point).
func (e *EP) LogEvidence() (float64, error) {
	d := len(e.q.h)
	mean, cov := make([]float64, d), make([]float64, d*d)
	_, aq, ok := e.q.moments()
	if !ok {
		return math.NaN(), errNotProper
	}
	_, ap, _ := e.prior.moments()
	lnz := aq - ap
	for i, f := range e.factors {
		cav := e.q.clone()
		cav.addScaled(-1, e.sites[i])
		cn, ac, ok := cav.moments()
		if !ok {
			return math.NaN(), fmt.Errorf("approx: EP evidence: cavity %d is improper", i)
		}
		lz, err := f.Tilted(cn.Mean, cn.Cov, mean, cov)
		if err != nil {
			return math.NaN(), err
		}
		lnz += lz - aq + ac
	}
	return lnz, nil
}
