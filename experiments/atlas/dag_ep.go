package atlas

import (
	"fmt"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/model/dag"
)

// The EP cell of atlas/dag: dag.EP (a product of Dirichlet rows, one
// monomial-mixture site per data point; Minka & Lafferty 2002) from VB's
// q, its evidence corrected for the relabellings of the hidden states.

// Estimates of the EP cell that are not columns of the grid, at the
// ladder's last rung (rowCell.alt: the metrics err_<name>_median).
const (
	// epSymmetric is EP from the symmetric prior, which keeps the
	// relabelling-symmetric fixed point (its alias correction is then 0).
	epSymmetric = "ep_symmetric"
	// epAllAliases is EP from VB's q + ln S with every alias counted as a
	// separate mode, the correction of BIC and CS (eq. (6.26)).
	epAllAliases = "ep_all_aliases"
)

// dagEPSiteOps is the operations of one site update of dag.EP for a
// problem of h joint hidden configurations, nn nodes and d parameters, in
// the row's units (a product of two entries 1, a transcendental 15, so
// that a Dirichlet density is 30 a parameter): the terms' weights
// (h·nn logarithms and products), their shifts of the expected logs (at
// most h·d), the cavity's expected logs (d digammas), the two log
// partitions of FamilyEP (2d ln Γ), and the projection's Newton solve of
// every row (dist.DirichletFromMeanLogTo: about 5 steps, measured on the
// shipped structures at 4–5.2, each about 8 transcendentals a parameter).
// LogEvidence's pass costs the same per site.
func dagEPSiteOps(h, nn, d int) float64 {
	return float64(h*nn)*(2+15) + float64(h*d) + float64(d)*(15+30+5*8*15)
}

// dagEP adds the EP cell to cl: the evidence of dag.EP started at VB's
// posterior alpha after each rung of the ladder of sweeps, plus the
// alias correction dagEPLogAliases of its q, and, at the last rung, the
// estimates epSymmetric (EP from the prior, corrected the same way) and
// epAllAliases (from VB's q, + ln S). Each run sweeps to the top of the
// ladder; a rung's operations are its sweeps and one evidence pass (not
// carried on), its CPU the run's so far. VB's own cost, shared with IS,
// is not included. A rung whose q or cavity is improper has no estimate
// (note_ep_no_evidence); skipped site updates are counted in
// note_ep_skipped (note_ep_symmetric_skipped), runs whose last sweep
// moved a site by more than ep.tol in note_ep_not_converged
// (note_ep_symmetric_not_converged).
func (c *DAGConfig) dagEP(cl *rowCell, p *dag.Problem, alpha dag.Params) error {
	s := p.Structure()
	perms := relabellings(s)
	top := slices.Max(c.EPSweeps)
	siteOps := dagEPSiteOps(p.HiddenConfigs(), s.Nodes(), s.Len()) * float64(p.N())
	nan := math.NaN()
	set := c.EP.settings()
	for _, fromVB := range []bool{true, false} {
		start := startClock()
		var st dag.Params
		prefix := "ep_symmetric"
		if fromVB {
			st, prefix = alpha, "ep"
		}
		e, err := p.NewEP(set, st)
		if err != nil {
			return fmt.Errorf("EP: %w", err)
		}
		// From VB's q the ladder's sweeps; from the prior until no site
		// moves by more than ep.tol or ep.max_sweeps, read at the end.
		lim := top
		if !fromVB {
			lim = c.EP.MaxSweeps
		}
		var change float64
		for k := 1; k <= lim; k++ {
			if change, err = e.Sweep(); err != nil {
				return fmt.Errorf("EP sweep %d: %w", k, err)
			}
			last := k == lim || (!fromVB && change <= c.EP.Tol)
			if (fromVB && !slices.Contains(c.EPSweeps, k)) || (!fromVB && !last) {
				continue
			}
			lz, err := e.LogEvidence()
			if err != nil {
				cl.note(prefix + "_no_evidence")
				continue
			}
			corr, err := dagEPLogAliases(s, perms, e.Posterior())
			if err != nil {
				return fmt.Errorf("EP sweep %d: %w", k, err)
			}
			ops := float64(k+1) * siteOps
			switch {
			case !fromVB:
				cl.alt(epSymmetric, lz+corr)
				k = lim // done
			case k == top:
				cl.alt(epAllAliases, lz+s.LogAliases(dag.AliasStrict))
				fallthrough
			default:
				cl.add(EP, k, lz+corr, nan, ops, start.elapsed(), nan, nan)
			}
		}
		if n := e.Skipped(); n > 0 {
			if cl.Notes == nil {
				cl.Notes = map[string]int{}
			}
			cl.Notes[prefix+"_skipped"] += n
		}
		if change > c.EP.Tol {
			cl.note(prefix + "_not_converged")
		}
	}
	return nil
}

// dagEPLogAliases is the alias correction of EP's q = Π Dir(α) (perms the
// S relabellings of the hidden states as permutations of the parameters,
// the identity among them): ln S_eff = ln S − ln Σ_π BC(q, q∘π)
// (approx.LogDistinctRelabellings over the Dirichlet rows; BC the
// Bhattacharyya coefficient). It is ln S when the relabelled q are
// separate modes, so that EP's p(y)/S is multiplied by S as BIC's and
// CS's (eq. (6.26)); 0 when q is itself relabelling-symmetric (EP's
// symmetric fixed point, which already spans every alias); ln(S/|G|) when
// q is invariant under a subgroup G; in between an interpolation, not a
// derived correction.
func dagEPLogAliases(s *dag.Structure, perms [][]int, alpha dag.Params) (float64, error) {
	var sizes []int
	for j := range s.Nodes() {
		for l := range s.Rows(j) {
			sizes = append(sizes, len(s.Row(alpha, j, l)))
		}
	}
	fam, err := approx.NewDirichlets(sizes)
	if err != nil {
		return math.NaN(), err
	}
	eta := make([]float64, len(alpha))
	for i, a := range alpha {
		eta[i] = a - 1
	}
	return approx.LogDistinctRelabellings(fam, eta, perms)
}
