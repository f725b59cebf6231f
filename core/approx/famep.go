package approx

import (
	"errors"
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Expectation propagation in an exponential family (Minka 2001, §3.3;
// Minka & Lafferty 2002 for Dirichlet sites; PRML §10.7, eqs.
// (10.184)–(10.208), which EP specialises to the Gaussian). The target is
//
//	p(θ) ∝ p₀(θ) Π_i f_i(θ),   p₀(θ) = h(θ) exp(η₀ᵀT(θ) − A(η₀)),
//
// approximated by q(θ) = h(θ) exp(ηᵀT(θ) − A(η)) with η = η₀ + Σ_i η_i,
// each site f̃_i(θ) = s_i exp(η_iᵀT(θ)) in natural parameters. One update
// of site i: the cavity η\i = η − η_i, the tilted density f_i q\i/Z_i, its
// projection onto the family (the member with the tilted expected
// sufficient statistics, the minimiser of KL(tilted‖q): the Factor's job),
// and the site as projection − cavity, moved a fraction δ of the way
// (damping). A site may be outside the natural parameter space (a negative
// count or precision) as long as q and the cavities are inside it.
//
// Family is the approximating family; SiteFactor a factor of the target.
// EP (ep.go) is the Gaussian case with matrix natural parameters kept in
// their own layout.

// Family is an exponential family in natural parameters η, a flat vector.
type Family interface {
	// Dim is the length of η.
	Dim() int
	// LogPartition returns A(η) = ln ∫ h(θ) exp(ηᵀT(θ)) dθ and whether η
	// is in the natural parameter space (A finite: a proper q).
	LogPartition(eta []float64) (float64, bool)
}

// SiteFactor is one factor f_i of the target, seen through the family.
type SiteFactor interface {
	// Project writes into dst the natural parameters of the member of the
	// family whose expected sufficient statistics are the tilted density's,
	// f(θ)q\(θ)/Z with q\ the member of natural parameters cavity, and
	// returns ln Z = ln ∫ f(θ) q\(θ) dθ. dst and cavity do not overlap;
	// Project must not keep them. An error means the tilted moments could
	// not be projected (the caller skips the site).
	Project(dst, cavity []float64) (lnZ float64, err error)
}

// ErrNoProjection is returned by a SiteFactor whose tilted density has no
// member of the family with its moments (the update is skipped).
var ErrNoProjection = errors.New("approx: the tilted moments have no member of the family")

// FamilyEP is expectation propagation with sites in an exponential family.
type FamilyEP struct {
	fam     Family
	factors []SiteFactor
	prior   []float64
	q       []float64
	sites   [][]float64
	s       EPSettings
	// Iterations is the number of sweeps run; Skipped counts site updates
	// left out because the cavity was improper, the projection failed or
	// no damped step kept q proper.
	Iterations, Skipped int

	cav, tilt, step, try []float64
}

// NewFamilyEP returns EP with every site at 1 (q = p₀), the prior's natural
// parameters prior (copied), which must be proper.
func NewFamilyEP(fam Family, prior []float64, factors []SiteFactor, s EPSettings) (*FamilyEP, error) {
	d := fam.Dim()
	if len(prior) != d {
		return nil, fmt.Errorf("approx: FamilyEP: prior of length %d, the family's is %d", len(prior), d)
	}
	if _, ok := fam.LogPartition(prior); !ok {
		return nil, fmt.Errorf("approx: FamilyEP prior: %w", errNotProper)
	}
	e := &FamilyEP{fam: fam, factors: factors, prior: append([]float64(nil), prior...), q: append([]float64(nil), prior...),
		s: s.withDefaults(), cav: make([]float64, d), tilt: make([]float64, d), step: make([]float64, d), try: make([]float64, d)}
	e.sites = make([][]float64, len(factors))
	for i := range e.sites {
		e.sites[i] = make([]float64, d)
	}
	return e, nil
}

// StartAt sets q to the member of natural parameters q0 (copied) and every
// site to an equal share (q0 − η₀)/n of its difference from the prior: a
// start away from the prior, such as VB's q, which breaks the symmetry of
// a mixture's relabellings that a start at a symmetric prior keeps. It
// returns an error if q0 is improper or of the wrong length.
func (e *FamilyEP) StartAt(q0 []float64) error {
	if len(q0) != len(e.q) {
		return fmt.Errorf("approx: FamilyEP start of length %d, the family's is %d", len(q0), len(e.q))
	}
	if _, ok := e.fam.LogPartition(q0); !ok {
		return fmt.Errorf("approx: FamilyEP start: %w", errNotProper)
	}
	if len(e.sites) == 0 {
		return nil
	}
	n := float64(len(e.sites))
	for j, v := range q0 {
		e.q[j] = v
		for _, s := range e.sites {
			s[j] = (v - e.prior[j]) / n
		}
	}
	return nil
}

// Q returns q's natural parameters (a copy).
func (e *FamilyEP) Q() []float64 { return append([]float64(nil), e.q...) }

// Site returns site i's natural parameters η_i (a copy).
func (e *FamilyEP) Site(i int) []float64 { return append([]float64(nil), e.sites[i]...) }

// cavity writes η − η_i into e.cav and returns A(η\i) and whether it is
// proper.
func (e *FamilyEP) cavity(i int) (float64, bool) {
	for j, v := range e.q {
		e.cav[j] = v - e.sites[i][j]
	}
	return e.fam.LogPartition(e.cav)
}

// Sweep updates every site once in order and returns the largest change
// of a site's natural parameters (max norm). It allocates nothing beyond
// what the factors' Project does.
func (e *FamilyEP) Sweep() (float64, error) {
	var change float64
	for i, f := range e.factors {
		if _, ok := e.cavity(i); !ok {
			e.Skipped++
			continue
		}
		if _, err := f.Project(e.tilt, e.cav); err != nil {
			if errors.Is(err, ErrNoProjection) {
				e.Skipped++
				continue
			}
			return change, fmt.Errorf("approx: FamilyEP site %d: %w", i, err)
		}
		// step = (tilted − cavity) − old site = tilted − q.
		for j := range e.step {
			e.step[j] = e.tilt[j] - e.q[j]
		}
		delta := e.s.Damping
		applied := false
		for range 20 {
			for j := range e.try {
				e.try[j] = e.q[j] + delta*e.step[j]
			}
			if _, ok := e.fam.LogPartition(e.try); ok {
				applied = true
				break
			}
			delta /= 2
		}
		if !applied {
			e.Skipped++
			continue
		}
		e.q, e.try = e.try, e.q
		for j, v := range e.step {
			e.sites[i][j] += delta * v
			change = math.Max(change, delta*math.Abs(v))
		}
	}
	// Recompute q from the prior and the sites, against drift.
	for j := range e.try {
		e.try[j] = e.prior[j]
		for _, s := range e.sites {
			e.try[j] += s[j]
		}
	}
	if _, ok := e.fam.LogPartition(e.try); ok {
		e.q, e.try = e.try, e.q
	}
	e.Iterations++
	return change, nil
}

// Run sweeps until the sites stop moving (EPSettings.Tol) or the cap, and
// reports whether it converged.
func (e *FamilyEP) Run() (bool, error) { return e.s.run(e.Sweep) }

// LogEvidence returns EP's approximation of ln ∫ p₀(θ) Π_i f_i(θ) dθ, each
// site's scale s_i chosen so that ∫ q\i f̃_i = Z_i (Minka 2001, eq. (3.32);
// PRML eq. (10.208)):
//
//	ln Z_EP = A(η) − A(η₀) + Σ_i [ln Z_i + A(η\i) − A(η)],
//
// evaluated at the current q (exact at a fixed point; exact for one site,
// and for sites in the family).
func (e *FamilyEP) LogEvidence() (float64, error) {
	aq, ok := e.fam.LogPartition(e.q)
	if !ok {
		return math.NaN(), errNotProper
	}
	a0, _ := e.fam.LogPartition(e.prior)
	lnz := aq - a0
	for i, f := range e.factors {
		ac, ok := e.cavity(i)
		if !ok {
			return math.NaN(), fmt.Errorf("approx: FamilyEP evidence: cavity %d is improper", i)
		}
		lz, err := f.Project(e.tilt, e.cav)
		if err != nil {
			return math.NaN(), fmt.Errorf("approx: FamilyEP evidence: site %d: %w", i, err)
		}
		lnz += lz + ac - aq
	}
	return lnz, nil
}

// LogDistinctRelabellings returns the log of the number of distinct
// relabellings of q, counted smoothly by their overlaps,
//
//	ln S_eff = ln S − ln Σ_σ BC(q, q∘σ),
//	BC(q, q∘σ) = ∫ √(q · q∘σ) = exp(A((η + σ·η)/2) − ½A(η) − ½A(σ·η)),
//
// for q the member of natural parameters eta and perms the S relabellings
// σ of a model's hidden labels as permutations of η's entries ((σ·η)_i =
// η_{σ(i)}; the identity among them). BC, the Bhattacharyya coefficient,
// is that ratio of log-partitions in an exponential family with a base
// measure that the relabellings leave unchanged (the midpoint is proper:
// the natural parameter space is convex). S_eff is S for a q in one of S
// separate relabelled modes (each BC ≈ 0 but the identity's), 1 for a q
// that every relabelling leaves unchanged (EP's symmetric fixed point of
// a mixture, which already spreads over every mode), and S/|G| for a q
// invariant under a subgroup G. EP's ln Z_EP + ln S_eff then counts the
// mass of q's relabelled copies once each; where the copies partly
// overlap it is an interpolation of ours, not a result from a text.
func LogDistinctRelabellings(fam Family, eta []float64, perms [][]int) (float64, error) {
	a, ok := fam.LogPartition(eta)
	if !ok {
		return math.NaN(), fmt.Errorf("approx: relabellings of an improper q: %w", errNotProper)
	}
	moved := make([]float64, len(eta))
	mid := make([]float64, len(eta))
	terms := make([]float64, len(perms))
	for i, p := range perms {
		if len(p) != len(eta) {
			return math.NaN(), fmt.Errorf("approx: relabelling %d of length %d, η has %d", i, len(p), len(eta))
		}
		for j, src := range p {
			moved[j] = eta[src]
			mid[j] = (eta[j] + moved[j]) / 2
		}
		am, ok1 := fam.LogPartition(mid)
		as, ok2 := fam.LogPartition(moved)
		if !ok1 || !ok2 {
			return math.NaN(), fmt.Errorf("approx: relabelling %d: an improper relabelled q or midpoint", i)
		}
		terms[i] = math.Min(am-(a+as)/2, 0) // BC ≤ 1 (Cauchy–Schwarz); rounding aside
	}
	return math.Log(float64(len(perms))) - numeric.LogSumExp(terms), nil
}
