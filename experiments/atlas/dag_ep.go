package atlas

import (
	"fmt"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/results"
)

// The EP cell of atlas/dag: dag.EP (a product of Dirichlet rows, one
// monomial-mixture site per data point; Minka & Lafferty 2002) from VB's
// q, its evidence corrected for the relabellings of the hidden states.

// dagEPConfig is the [ep] table of atlas/dag.
type dagEPConfig struct {
	Damping float64 `toml:"damping" range:"(0,1]"`
	Ladder  []int   `toml:"ladder" range:"[1,1e5] len=1.. increasing"`
	Tol     float64 `toml:"tol" range:"[1e-14,1]"`
}

// Estimates of the EP cell that are not columns of the grid: runDAGCell
// adds them to a cell's estimates at the ladder's last rung and RunDAG
// takes them out, as the metrics err_<name>_median, before the grid is
// written.
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
	top := slices.Max(c.EP.Ladder)
	siteOps := dagEPSiteOps(p.HiddenConfigs(), s.Nodes(), s.Len()) * float64(p.N())
	nan := math.NaN()
	set := approx.EPSettings{Damping: c.EP.Damping, MaxIterations: top, Tol: c.EP.Tol}
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
		var change float64
		for k := 1; k <= top; k++ {
			if change, err = e.Sweep(); err != nil {
				return fmt.Errorf("EP sweep %d: %w", k, err)
			}
			if !slices.Contains(c.EP.Ladder, k) || (!fromVB && k < top) {
				continue
			}
			lz, err := e.LogEvidence()
			if err != nil {
				cl.note(prefix + "_no_evidence")
				continue
			}
			corr := dagEPLogAliases(s, perms, e.Posterior())
			ops := float64(k+1) * siteOps
			switch {
			case !fromVB:
				cl.add(epSymmetric, k, lz+corr, nan, ops, start.elapsed(), nan, nan)
			case k == top:
				cl.add(epAllAliases, k, lz+s.LogAliases(dag.AliasStrict), nan, ops, start.elapsed(), nan, nan)
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
// S relabellings of the hidden states, the identity among them):
//
//	ln S_eff = ln S − ln Σ_π BC(q, q∘π),
//
// with BC the Bhattacharyya coefficient ∫ √(q q∘π) ∈ (0, 1], for
// Dirichlet rows ln BC = Σ_rows [ln B((a + b)/2) − ½ ln B(a) − ½ ln B(b)],
// B the multivariate beta. S_eff counts q's distinct relabellings: S when
// they are separate modes (BC ≈ 0 but for the identity), so that EP's
// p(y)/S is multiplied by S as BIC's and CS's (eq. (6.26)); 1 when q is
// itself relabelling-symmetric (EP's symmetric fixed point, which already
// spans every alias); S/|G| when q is invariant under a subgroup G. In
// between, where the relabelled q overlap, it is an interpolation, not a
// derived correction.
func dagEPLogAliases(s *dag.Structure, perms [][]int, alpha dag.Params) float64 {
	moved := make(dag.Params, len(alpha))
	mid := make([]float64, 0, 32)
	var terms []float64
	for _, perm := range perms {
		for i := range moved {
			moved[i] = alpha[perm[i]]
		}
		var lbc float64
		for j := range s.Nodes() {
			for l := range s.Rows(j) {
				a, b := s.Row(alpha, j, l), s.Row(moved, j, l)
				mid = mid[:0]
				for k := range a {
					mid = append(mid, (a[k]+b[k])/2)
				}
				lbc += lnMultiBeta(mid) - lnMultiBeta(a)/2 - lnMultiBeta(b)/2
			}
		}
		terms = append(terms, math.Min(lbc, 0)) // BC ≤ 1; rounding only
	}
	return math.Log(float64(len(perms))) - numeric.LogSumExp(terms)
}

// lnMultiBeta is ln B(a) = Σ_k ln Γ(a_k) − ln Γ(Σ_k a_k).
func lnMultiBeta(a []float64) float64 {
	var s, a0 float64
	for _, v := range a {
		s += numeric.LogGamma(v)
		a0 += v
	}
	return s - numeric.LogGamma(a0)
}

// dagExtraMetrics takes the estimates epSymmetric and epAllAliases out of
// the cells (returning copies without them) and sets the metrics
// err_<name>_median, the median |estimate − gold| over the cells.
func dagExtraMetrics(s *results.Summary, cells []rowCell) []rowCell {
	errs := map[string][]float64{}
	out := make([]rowCell, len(cells))
	for i, cl := range cells {
		out[i] = cl
		out[i].Est = nil
		for _, e := range cl.Est {
			if e.Method == epSymmetric || e.Method == epAllAliases {
				errs[e.Method] = append(errs[e.Method], math.Abs(float64(e.LnZ-cl.Gold)))
				continue
			}
			out[i].Est = append(out[i].Est, e)
		}
	}
	for _, m := range []string{epSymmetric, epAllAliases} {
		if len(errs[m]) > 0 {
			s.SetMetric("err_"+m+"_median", results.Median(errs[m]))
		}
	}
	return out
}
