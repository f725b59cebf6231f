package approx

import (
	"errors"
	"fmt"
	"math"
	"sync"

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
	// into mean and cov, which share no memory with m and v. It must not
	// keep its arguments.
	Tilted(m, v, mean, cov []float64) (lnZ float64, err error)
}

// ProjectedFactor is a factor that depends on θ through u = aᵀθ alone,
// f(θ) = g(aᵀθ): a logistic or probit likelihood (PRML §10.6, §4.5), or the
// one-dimensional clutter factor (PRML eq. (10.209)) with a = 1. Its tilted
// moments are those of u under g(u)N(u | μ_u, σ_u²) with μ_u = aᵀm and
// σ_u² = aᵀVa: with E_t and Var_t the tilted moments of u,
//
//	mean = m + Va (E_t[u] − μ_u)/σ_u²,  cov = V + Va aᵀV (Var_t[u] − σ_u²)/σ_u⁴.
//
// E_t and Var_t are expectations under the cavity's N(μ_u, σ_u²): Tilted
// takes them by Gauss–Hermite rules of 16 and 32 nodes, then 32 and 64,
// then 64 and 128 (gonum's quad.Hermite), and keeps the finer rule's values
// as soon as two rules agree within Tol on each of Σ_j w_j g(u_j) z_j^k,
// k = 0, 1, 2 (z_j the nodes in units of σ_u), as they do when g is smooth
// on the scale of σ_u; when no two agree, it takes them by adaptive
// quadrature (Density.Exact) over u on the box μ_u ± 12σ_u.
type ProjectedFactor struct {
	A    []float64
	LogG func(u float64) float64
	Tol  numeric.QuadTol
}

// Tilted implements Factor.
func (f ProjectedFactor) Tilted(m, v, mean, cov []float64) (float64, error) {
	d := len(m)
	va := mean // Va, until mean is written
	var mu, s2 float64
	for i := range d {
		mu += f.A[i] * m[i]
		va[i] = 0
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
	lnZ, eu, vu, err := f.moments(mu, s2)
	if err != nil {
		return math.NaN(), err
	}
	dm := (eu - mu) / s2
	dv := (vu - s2) / (s2 * s2)
	for i := range d {
		for j := range d {
			cov[i*d+j] = v[i*d+j] + va[i]*va[j]*dv
		}
	}
	for i := range d {
		mean[i] = m[i] + va[i]*dm
	}
	return lnZ, nil
}

// moments returns ln ∫ g(u) N(u | mu, s2) du and the mean and variance of
// u under g(u)N(u | mu, s2)/Z (see ProjectedFactor).
func (f ProjectedFactor) moments(mu, s2 float64) (lnZ, mean, vr float64, err error) {
	if lnZ, mean, vr, ok := f.hermiteMoments(mu, s2); ok {
		return lnZ, mean, vr, nil
	}
	s := math.Sqrt(s2)
	g := Density{LogP: func(x []float64) float64 {
		z := (x[0] - mu) / s
		return f.LogG(x[0]) - 0.5*z*z
	}, Lo: []float64{mu - 12*s}, Hi: []float64{mu + 12*s}}
	ex, err := g.Exact(f.Tol)
	if err != nil {
		return math.NaN(), math.NaN(), math.NaN(), err
	}
	return ex.LnZ - 0.5*math.Log(2*math.Pi*s2), ex.Mean[0], ex.Cov[0], nil
}

// hermiteMoments is moments by the Gauss–Hermite rules, or false if no two
// successive rules agree (see ProjectedFactor).
func (f ProjectedFactor) hermiteMoments(mu, s2 float64) (lnZ, mean, vr float64, ok bool) {
	s := math.Sqrt(s2)
	rules := tiltedRules()
	var coarse, fine hermiteSums
	coarse.eval(f.LogG, mu, s, rules[0])
	for _, r := range rules[1:] {
		fine.eval(f.LogG, mu, s, r)
		if fine.agrees(&coarse, f.Tol) {
			lnZ, mean, vr = fine.moments(r)
			return lnZ, mu + s*mean, s2 * vr, true
		}
		coarse = fine
	}
	return 0, 0, 0, false
}

// hermiteMaxNodes is the size of the finest rule of tiltedRules.
const hermiteMaxNodes = 128

// tiltedRules returns the Gauss–Hermite rules of 16, 32, 64 and 128 nodes
// that ProjectedFactor tries in turn.
var tiltedRules = sync.OnceValue(func() [4]hermiteRule {
	return [4]hermiteRule{newHermite(16), newHermite(32), newHermite(64), newHermite(hermiteMaxNodes)}
})

// hermiteSums holds one rule's sums for g(μ + σz): shift, the largest
// ln g(μ + σz_j), and sum[k] = Σ_j w_j e^{ln g(μ+σz_j) − shift} z_j^k,
// k = 0, 1, 2, with the terms w_j e^{…} in wg.
type hermiteSums struct {
	shift float64
	sum   [3]float64
	wg    [hermiteMaxNodes]float64
}

// eval computes the sums of rule r for ln g = logG at mu + s·z.
func (h *hermiteSums) eval(logG func(float64) float64, mu, s float64, r hermiteRule) {
	lg := h.wg[:len(r.u)]
	h.shift = math.Inf(-1)
	for j, z := range r.u {
		lg[j] = logG(mu + s*z)
		h.shift = math.Max(h.shift, lg[j])
	}
	h.sum = [3]float64{}
	for j, z := range r.u {
		wg := r.w[j] * math.Exp(lg[j]-h.shift)
		lg[j] = wg
		h.sum[0] += wg
		h.sum[1] += wg * z
		h.sum[2] += wg * z * z
	}
}

// agrees reports whether the sums of h and of the coarser rule c agree
// within tol, relative to h's sums, on the scale of h's shift, and are
// finite.
func (h *hermiteSums) agrees(c *hermiteSums, tol numeric.QuadTol) bool {
	if math.IsInf(h.shift, 0) || math.IsNaN(h.shift) || math.IsInf(c.shift, 0) || math.IsNaN(c.shift) {
		return false
	}
	r := math.Exp(c.shift - h.shift)
	for k, v := range h.sum {
		if !(math.Abs(c.sum[k]*r-v) <= tol.Scale(v)) {
			return false
		}
	}
	return h.sum[0] > 0
}

// moments returns ln Σ_j w_j g(μ + σz_j) and the mean and variance of z
// under the weights w_j g(μ + σz_j), for the rule r of the sums.
func (h *hermiteSums) moments(r hermiteRule) (lnZ, mean, vr float64) {
	z0 := h.sum[0]
	mean = h.sum[1] / z0
	for j, z := range r.u {
		vr += h.wg[j] * (z - mean) * (z - mean)
	}
	return h.shift + math.Log(z0), mean, vr / z0
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

// set copies o into n.
func (n natural) set(o natural) {
	copy(n.h, o.h)
	copy(n.lam, o.lam)
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
	q := Normal{Mean: make([]float64, d), Cov: make([]float64, d*d)}
	a, ok := n.momentsTo(q.Mean, q.Cov, make([]float64, 2*d*d))
	if !ok {
		return Normal{}, 0, false
	}
	return q, a, true
}

// momentsTo is moments writing the mean and covariance into mean and cov,
// with scratch of 2d² values.
func (n natural) momentsTo(mean, cov, scratch []float64) (float64, bool) {
	d := len(n.h)
	ldet, ok := inverseSPDTo(cov, n.lam, d, scratch)
	if !ok {
		return 0, false
	}
	var hm float64
	for i := range d {
		mean[i] = 0
		for j := range d {
			mean[i] += cov[i*d+j] * n.h[j]
		}
		hm += n.h[i] * mean[i]
	}
	return 0.5*hm - 0.5*ldet + 0.5*float64(d)*math.Log(2*math.Pi), true
}

// fromMoments returns the natural parameters of q.
func fromMoments(q Normal) (natural, bool) {
	d := q.Dim()
	n := newNatural(d)
	return n, n.setMoments(q.Mean, q.Cov, make([]float64, 2*d*d))
}

// setMoments sets n to the natural parameters of N(mean, cov), with scratch
// of 2d² values, or returns false if cov is not positive definite.
func (n natural) setMoments(mean, cov, scratch []float64) bool {
	d := len(n.h)
	if _, ok := inverseSPDTo(n.lam, cov, d, scratch); !ok {
		return false
	}
	for i := range d {
		n.h[i] = 0
		for j := range d {
			n.h[i] += n.lam[i*d+j] * mean[j]
		}
	}
	return true
}

// inverseSPDTo is numeric.InverseSPD (the same operations) with its
// scratch, 2n² values, supplied.
func inverseSPDTo(dst, a []float64, n int, scratch []float64) (logDet float64, ok bool) {
	l, work := scratch[:n*n], scratch[n*n:2*n*n]
	copy(l, a[:n*n])
	if !numeric.CholFactor(l, n) {
		return 0, false
	}
	numeric.CholInverse(dst, l, n, work)
	return numeric.CholLogDet(l, n), true
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

	// Scratch of Sweep and LogEvidence: the cavity, the tilted
	// distribution, the step of a site, a trial q; the moments of the
	// cavity and of the tilted distribution; an inverse's (inverseSPDTo).
	cav, tilt, step, try natural
	cmean, ccov          []float64
	tmean, tcov          []float64
	scratch              []float64
}

// NewEP returns EP with every site at 1 (q = prior).
func NewEP(prior Normal, factors []Factor, s EPSettings) (*EP, error) {
	pn, ok := fromMoments(prior)
	if !ok {
		return nil, fmt.Errorf("approx: EP prior: %w", errNotProper)
	}
	d := prior.Dim()
	e := &EP{prior: pn, factors: factors, q: pn.clone(), s: s.withDefaults(),
		cav: newNatural(d), tilt: newNatural(d), step: newNatural(d), try: newNatural(d),
		cmean: make([]float64, d), ccov: make([]float64, d*d), tmean: make([]float64, d), tcov: make([]float64, d*d),
		scratch: make([]float64, 2*d*d)}
	for range factors {
		e.sites = append(e.sites, newNatural(d))
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
// of a site's natural parameters. It does not allocate beyond what the
// factors' Tilted does.
func (e *EP) Sweep() (float64, error) {
	cav, tn, step := e.cav, e.tilt, e.step
	var change float64
	for i, f := range e.factors {
		cav.set(e.q)
		cav.addScaled(-1, e.sites[i])
		if _, ok := cav.momentsTo(e.cmean, e.ccov, e.scratch); !ok {
			e.Skipped++
			continue
		}
		if _, err := f.Tilted(e.cmean, e.ccov, e.tmean, e.tcov); err != nil {
			return change, fmt.Errorf("approx: EP site %d: %w", i, err)
		}
		if !tn.setMoments(e.tmean, e.tcov, e.scratch) {
			e.Skipped++
			continue
		}
		// Proposed site = tilted − cavity; step δ from the old site.
		step.set(tn)
		step.addScaled(-1, cav)
		step.addScaled(-1, e.sites[i]) // now new − old
		delta := e.s.Damping
		applied := false
		for range 20 {
			if e.tryQ(func(q natural) { q.set(e.q); q.addScaled(delta, step) }) {
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
	e.tryQ(func(q natural) {
		q.set(e.prior)
		for _, s := range e.sites {
			q.addScaled(1, s)
		}
	})
	e.Iterations++
	return change, nil
}

// tryQ sets a trial q by fill and makes it q if it is proper, reporting
// whether it was.
func (e *EP) tryQ(fill func(q natural)) bool {
	fill(e.try)
	if _, ok := e.try.momentsTo(e.cmean, e.ccov, e.scratch); !ok {
		return false
	}
	e.q, e.try = e.try, e.q
	return true
}

// Run sweeps until the sites stop moving (EPSettings.Tol) or the cap, and
// reports whether it converged.
func (e *EP) Run() (bool, error) { return e.s.run(e.Sweep) }

// run calls sweep until the largest change of a site is at most s.Tol or
// s.MaxIterations sweeps, and reports whether it converged: the loop of
// EP.Run and FamilyEP.Run.
func (s EPSettings) run(sweep func() (float64, error)) (bool, error) {
	for range s.MaxIterations {
		c, err := sweep()
		if err != nil {
			return false, err
		}
		if c <= s.Tol {
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
	aq, ok := e.q.momentsTo(e.cmean, e.ccov, e.scratch)
	if !ok {
		return math.NaN(), errNotProper
	}
	ap, _ := e.prior.momentsTo(e.cmean, e.ccov, e.scratch)
	lnz := aq - ap
	cav := e.cav
	for i, f := range e.factors {
		cav.set(e.q)
		cav.addScaled(-1, e.sites[i])
		ac, ok := cav.momentsTo(e.cmean, e.ccov, e.scratch)
		if !ok {
			return math.NaN(), fmt.Errorf("approx: EP evidence: cavity %d is improper", i)
		}
		lz, err := f.Tilted(e.cmean, e.ccov, e.tmean, e.tcov)
		if err != nil {
			return math.NaN(), err
		}
		lnz += lz - aq + ac
	}
	return lnz, nil
}
