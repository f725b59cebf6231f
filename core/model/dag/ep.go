package dag

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/approx"
)

// EP is expectation propagation for the marginal likelihood ln p(y|m) of a
// Problem (Minka 2001, §3.3; Minka & Lafferty 2002, whose generative
// aspect model is the latent class case), run by approx.FamilyEP with
// q(θ) = Π_jl Dir(θ_jl | α_jl) over every row of the structure in the
// layout of Params (approx.Dirichlets, natural parameters η = α − 1).
//
// The target is p(θ|m) Π_i p(y_i|θ): the prior (6.4) as the family's base
// member, η₀ = λ − 1, and one site per data point i, its likelihood summed
// over the joint hidden configurations s (eq. (6.11); Beal 2003 eq. (6.12)
// integrates their product),
//
//	p(y_i|θ) = Σ_s Π_j θ_{j, l_j(s, y_i), z_j(s, y_i)},
//
// an approx.MonomialMixture with one term of weight 1 per s and, in each
// term, the entry of every node at its value (observed, or s's) given its
// parents' values: the factors φ_p(s) of Problem's E step. A pattern of
// multiplicity w gives w identical sites (sharing their terms), so that
// every site is a point's likelihood and EP's fixed-point conditions are
// the usual ones; a single site for p(y_p|θ)^w would not be a monomial
// mixture.
//
// Without hidden nodes every site is one monomial, in the family: EP's q
// is the posterior Dir(λ + N) after one sweep and its evidence the closed
// form (6.9). With one data point the cavity is the prior and the evidence
// the exact Σ_s Π_j λ_{jl k}/λ⁰_{jl}. In general it is EP's approximation
// (FamilyEP.LogEvidence, Minka 2001 eq. (3.32)).
//
// Started at the symmetric prior EP keeps the relabelling symmetry of the
// hidden states: the sites are symmetric, so q stays so, and its evidence
// is that of a symmetric q spread over every alias. Started at a VB
// posterior (NewEP's start, FamilyEP.StartAt) it settles near one mode;
// where the S aliases' modes are separate its evidence then approximates
// p(y|m)/S, and the alias correction + ln S (Structure.LogAliases) applies
// as for BIC and CS (eq. (6.26)).
type EP struct {
	pr  *Problem
	fam *approx.Dirichlets
	fe  *approx.FamilyEP
	fs  []approx.SiteFactor
}

// NewEP builds EP for ln p(y|m) with settings set. With start nil every
// site is 1 and q the prior; otherwise start holds Dirichlet counts α (a
// VB posterior, VB.Posterior) and EP starts at q = Dir(α) with the
// difference α − λ shared equally among the sites (FamilyEP.StartAt). It
// returns an error if start has the wrong length or a count that is not
// positive and finite.
func (pr *Problem) NewEP(set approx.EPSettings, start Params) (*EP, error) {
	fam, err := approx.NewDirichlets(pr.rowLen)
	if err != nil {
		return nil, err
	}
	rowOf := make([]int, len(pr.lambda))
	for r, st := range pr.rowStart {
		for k := range pr.rowLen[r] {
			rowOf[st+k] = r
		}
	}
	// monomial is the term of the entries idx (each in another row).
	monomial := func(idx ...[]int32) approx.Monomial {
		t := approx.Monomial{W: 1}
		for _, ii := range idx {
			for _, i := range ii {
				r := rowOf[i]
				t.Rows = append(t.Rows, r)
				t.Index = append(t.Index, int(i)-pr.rowStart[r])
			}
		}
		return t
	}
	pl := &pr.pl
	h, jc, jv := pl.h, pl.jc, pl.jv
	var fs []approx.SiteFactor
	for p, w := range pl.w {
		ci := pl.cidx[p*jc : (p+1)*jc]
		terms := make([]approx.Monomial, h)
		for c := range h {
			terms[c] = monomial(ci, pl.vidx[(p*h+c)*jv:(p*h+c+1)*jv])
		}
		for range int(w) {
			fs = append(fs, &approx.MonomialMixture{Fam: fam, Terms: terms})
		}
	}
	prior := make([]float64, len(pr.lambda))
	for i, u := range pr.lambda {
		prior[i] = u - 1
	}
	fe, err := approx.NewFamilyEP(fam, prior, fs, set)
	if err != nil {
		return nil, err
	}
	if start != nil {
		if len(start) != len(pr.lambda) {
			return nil, fmt.Errorf("dag: EP start has %d entries, the structure %d", len(start), len(pr.lambda))
		}
		q0 := make([]float64, len(start))
		for i, a := range start {
			if !(a > 0) || math.IsInf(a, 1) {
				return nil, fmt.Errorf("dag: EP start count %v not positive and finite", a)
			}
			q0[i] = a - 1
		}
		if err := fe.StartAt(q0); err != nil {
			return nil, err
		}
	}
	return &EP{pr: pr, fam: fam, fe: fe, fs: fs}, nil
}

// Sweep updates every site once (FamilyEP.Sweep) and returns the largest
// change of a site's counts.
func (e *EP) Sweep() (float64, error) { return e.fe.Sweep() }

// Run sweeps until no site's counts move by more than the settings' Tol,
// or the cap, and reports whether it converged (FamilyEP.Run).
func (e *EP) Run() (bool, error) { return e.fe.Run() }

// LogEvidence returns EP's ln p(y|m) at the current q (FamilyEP.LogEvidence,
// Minka 2001 eq. (3.32)), without the aliases' ln S. It returns an error if
// q or a cavity is improper.
func (e *EP) LogEvidence() (float64, error) { return e.fe.LogEvidence() }

// Posterior returns q's Dirichlet counts α = 1 + η in the layout of Params.
func (e *EP) Posterior() Params {
	q := e.fe.Q()
	for i := range q {
		q[i]++
	}
	return q
}

// Sweeps returns the number of sweeps run.
func (e *EP) Sweeps() int { return e.fe.Iterations }

// Skipped returns the number of site updates left out: an improper
// cavity, a failed projection, or no damped step that kept q proper.
func (e *EP) Skipped() int { return e.fe.Skipped }

// Sites returns the number of sites, one per data point.
func (e *EP) Sites() int { return len(e.fs) }

// FixedPointGap returns max_i max_k |η_proj,ik − η_k|/(1 + |η_k|), how far
// each site's projection of its tilted density (under its cavity) is from
// q, relative to q's counts: zero at a fixed point of EP, where every
// tilted density's expected logs are q's (Minka 2001, §3.3, the
// moment-matching condition). It returns +Inf if a cavity is improper or
// a projection fails.
func (e *EP) FixedPointGap() float64 {
	q := e.fe.Q()
	cav := make([]float64, len(q))
	proj := make([]float64, len(q))
	var gap float64
	for i, f := range e.fs {
		site := e.fe.Site(i)
		for j := range cav {
			cav[j] = q[j] - site[j]
		}
		if _, ok := e.fam.LogPartition(cav); !ok {
			return math.Inf(1)
		}
		if _, err := f.Project(proj, cav); err != nil {
			return math.Inf(1)
		}
		for j := range q {
			gap = math.Max(gap, math.Abs(proj[j]-q[j])/(1+math.Abs(q[j])))
		}
	}
	return gap
}
