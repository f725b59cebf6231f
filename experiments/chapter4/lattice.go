package chapter4

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// LatticeID is the registry key of Figure 4.3: determining the number of
// components of a 2-D mixture of 18 Gaussians (Beal 2003 section 4.5.1,
// L2753-L2777; targets ch4-mfa.md §3.1).
const LatticeID = "chapter4/lattice"

// LatticeConfig is the config of chapter4/lattice; its snapshots are the
// model of panels (b)-(e).
type LatticeConfig = SeedSearchConfig[Lattice18]

// DefaultLatticeConfig returns the targets' settings (§3.1): one analyser,
// k_max = p − 1 = 1 with b* = 1, spatial splits, max_tries = 1, 10 seeds,
// at most 40000 iterations, snapshots after 7, 14, 16 and 22 accepted
// epochs; the lattice along the axes (configs/chapter4/lattice.toml;
// lattice-rotated.toml, rotated by 45 degrees, is a variant of ours).
func DefaultLatticeConfig() LatticeConfig {
	c := LatticeConfig{Common: experiments.Common{Experiment: LatticeID, Figures: []string{"fig4.3"}, Seed: 4301},
		SeedSearch: defaultSeedSearch(1, 40000, 7, 14, 16, 22), Data: DefaultLattice18()}
	c.Model, c.Prior = defaultModel(1), prior2D()
	return c
}

// LatticeRun is one seed's search, and the state the model reaches from
// the true labels on the same data.
type LatticeRun struct {
	SearchOutcome
	// ARI is the adjusted Rand index of the hard VB assignments against
	// the true clusters.
	ARI float64
	// TrueF, TrueComponents and TrueStatus are F, the analysers with at
	// least one point and the status of the model converged from the true
	// labels (SeedSearch.fromLabels); TrueARI is its adjusted Rand index.
	TrueF          experiments.Float
	TrueComponents int
	TrueStatus     string
	TrueARI        float64
}

func runLatticeCell(c *LatticeConfig, seed int, stop func() error) (LatticeRun, error) {
	x, labels := c.Data.Generate(rng.New(c.Seed, LatticeID, "data", strconv.Itoa(seed)))
	o, model, _, err := c.runSeed(c.Seed, LatticeID, seed, x, stop)
	r := LatticeRun{SearchOutcome: o}
	if err != nil {
		return r, err
	}
	r.ARI = AdjustedRand(labels, hardAssign(model))
	tm, res, err := c.fromLabels(model.Data(), labels, c.Data.Clusters(), stop)
	if err != nil {
		return r, err
	}
	r.TrueF, r.TrueStatus, r.TrueARI = experiments.Float(res.F), res.Status.String(), AdjustedRand(labels, hardAssign(tm))
	for _, v := range tm.Counts() {
		if v >= 1 {
			r.TrueComponents++
		}
	}
	return r, nil
}

// hardAssign returns each point's most responsible analyser.
func hardAssign(m *mfa.VB) []int {
	resp := m.Resp()
	n, S := resp.Dims()
	assign := make([]int, n)
	for i := range assign {
		best := 0
		for s := 1; s < S; s++ {
			if resp.At(i, s) > resp.At(i, best) {
				best = s
			}
		}
		assign[i] = best
	}
	return assign
}

// latticeCriteria are the criteria of Figure 4.3 (targets §3.1) for config
// c. The thesis reports that the search finds the 18 Gaussians; the number
// is judged against what the model itself prefers on each data set, the
// number of analysers it keeps when converged from the true labels
// (LatticeRun.TrueComponents), since F, not the generator, decides between
// structures. S and the adjusted Rand index are judged over the seeds
// (fractions of seeds, with the spread of S − S(true labels) and of the
// index), F on their median. They are claims of the thesis on the lattice along the axes
// (the targets' reading of the unstated generator, §3.1), and claims of
// ours, extensions, on a lattice rotated off them (lattice-rotated.toml).
func latticeCriteria(c *LatticeConfig) results.Criteria {
	ours := !alongAxes(c.Data.Rotation)
	return results.Criteria{
		fMonotone,
		results.ClaimOn(ours, results.Criterion{ID: "fig4.3-s-true-labels", Text: "final S within one of the S the model keeps when converged from the true labels (fraction of seeds; per seed S - S(true labels); " +
			"the targets' 8 of 10 for S = 18, with 18 replaced by the model's own choice; one either way because near that state a birth " +
			"followed by a death changes F by a few nats, L2757, so the search may stop one analyser off)",
			Target: results.AtLeast(0.8)},
			"the 18 Gaussians found \"with little difficulty\"", "L2755"),
		results.ClaimOn(ours, results.Criterion{ID: "fig4.3-f-true-labels", Text: "median over seeds of F(true-label state) - F(found state), nats (at most 1: no evidence either way between the two states)",
			Target: results.AtMost(1)},
			"\"the birth heuristics are successful at avoiding local maxima\"", "L2755"),
		results.ClaimOn(ours, results.Criterion{ID: "fig4.3-ari", Text: "adjusted Rand index >= 0.95 in the seeds with S = 18 (fraction of them)", Target: results.Equal(1)},
			"the 18 analysers model the 18 clusters (Figure 4.3(e))", "L2755, L2777"),
	}
}

// alongAxes reports whether a lattice rotated by rot degrees has its rows
// and columns along the axes.
func alongAxes(rot float64) bool { return math.Mod(rot, 90) == 0 }

// RunLattice runs every seed and writes lattice_runs.csv, moves.csv,
// params.csv and summary.json.
func RunLattice(env *experiments.Env, c *LatticeConfig) error {
	runs, err := runSeeds(env, c.Restarts, func(seed int) (LatticeRun, error) { return runLatticeCell(c, seed, env.Stop) },
		func(r LatticeRun) SearchOutcome { return r.SearchOutcome })
	if err != nil || runs == nil {
		return err
	}
	rt := results.NewTable("seed", "components", "ari", "F", "iterations", "accepted", "rejected", "status", "seconds",
		"true_components", "true_ari", "F_true", "true_status")
	outs := make([]SearchOutcome, len(runs))
	for i, r := range runs {
		outs[i] = r.SearchOutcome
		rt.AddRow(r.Seed, r.Components, r.ARI, float64(r.F), r.Iterations, r.Accepted, r.Rejected, r.Status, r.Seconds,
			r.TrueComponents, r.TrueARI, float64(r.TrueF), r.TrueStatus)
	}
	if err := results.WriteCSV(env.Path("lattice_runs.csv"), *rt); err != nil {
		return err
	}
	if err := writeSeedOutputs(env, outs, 2, ""); err != nil {
		return err
	}
	return env.WriteSummary(latticeSummary(c, runs), "Checks of targets ch4-mfa.md §3.1.")
}

// latticeSummary judges the criteria of Figure 4.3 and records, per seed,
// S and F of the found state and of the state the model reaches from the
// true labels.
func latticeSummary(c *LatticeConfig, runs []LatticeRun) *results.Summary {
	s := &results.Summary{Criteria: latticeCriteria(c)}
	var S, trueS, F, trueF, gap, off, ari []float64
	found, keeps := 0, 0
	var statuses []string
	for _, r := range runs {
		S, trueS = append(S, float64(r.Components)), append(trueS, float64(r.TrueComponents))
		F, trueF = append(F, float64(r.F)), append(trueF, float64(r.TrueF))
		gap = append(gap, float64(r.TrueF-r.F))
		off = append(off, float64(r.Components-r.TrueComponents))
		if r.Components == 18 {
			found++
			ari = append(ari, r.ARI)
		}
		if r.TrueComponents == c.Data.Clusters() {
			keeps++
		}
		statuses = append(statuses, r.Status, r.TrueStatus)
	}
	s.SetMetric("components", results.Median(S))
	s.SetMetric("components_true_labels", results.Median(trueS))
	s.SetMetric("seeds_s18", float64(found))
	s.SetMetric("F_gap_median", results.Median(gap))
	s.Lists = map[string][]float64{"components_per_seed": S, "components_true_labels_per_seed": trueS,
		"F_per_seed": F, "F_true_labels_per_seed": trueF}
	crit := s.Criteria.Get
	judgeSearches(s, fMonotone, statuses)
	s.JudgeSeeds(crit("fig4.3-s-true-labels"), off, func(d float64) bool { return d >= -1 && d <= 1 })
	s.Judge(crit("fig4.3-f-true-labels"), results.Median(gap))
	if found > 0 {
		s.JudgeSeeds(crit("fig4.3-ari"), ari, func(a float64) bool { return a >= 0.95 })
	} else {
		s.NotJudged(crit("fig4.3-ari"), "no seed found 18 components")
	}
	s.Claims = []results.Claim{{Artifact: "Figure 4.3", Figures: []string{"fig4_3"}, Checks: []string{"fig4.3-s-true-labels", "fig4.3-f-true-labels", "fig4.3-ari"},
		Statement: "From one analyser, births and deaths find the 18 Gaussians of a 2-D mixture with little difficulty; once they are found most further splits are rejected (section 4.5.1, L2753-L2777)."}}
	s.AddFindingsFromChecks(nil)
	n := len(runs)
	s.Findings = append(s.Findings, fmt.Sprintf("The lattice is rotated by %g degrees (data.rotation) and b* = %g. The search ends with %g-%g analysers (18 in %d of %d seeds); converged from the true labels the model keeps %d of its %d analysers in %d of %d seeds (S %g-%g), and F(true-label state) - F(found state) is %.3g to %.3g nats (median %.3g).",
		c.Data.Rotation, c.Prior.BStar, slices.Min(S), slices.Max(S), found, n, c.Data.Clusters(), c.Data.Clusters(), keeps, n,
		slices.Min(trueS), slices.Max(trueS), slices.Min(gap), slices.Max(gap), results.Median(gap)))
	budget := 0
	for _, r := range runs {
		if c.Search.MaxTotalIterations > 0 && r.Iterations >= c.Search.MaxTotalIterations {
			budget++
		}
	}
	if budget > 0 {
		s.Findings = append(s.Findings, fmt.Sprintf("%d of %d searches used their whole budget of %d iterations (search.max_total_iterations).", budget, n, c.Search.MaxTotalIterations))
	}
	if alongAxes(c.Data.Rotation) && results.Median(gap) > 100 {
		s.Findings = append(s.Findings, "The search stops far below the state the model reaches from the true labels. With the lattice's rows and columns along the axes, one analyser with its single factor covers a whole row or column, the spread across it taken up by the shared diagonal Psi, and at the end every birth tried lowers F once its epoch converges, while the 18 clusters together are hundreds of nats higher: the structure the model prefers is there, but the births cannot reach it one analyser at a time. Rotated (lattice-rotated.toml, a variant of ours), the rows are not along an axis, the diagonal Psi cannot take up the spread across them, and the search finds the clusters.")
	}
	return s
}

func init() {
	experiments.Add(LatticeID, "VBMFA birth/death search on 18 Gaussians in 2-D: determining the number of components (Figure 4.3)", DefaultLatticeConfig, RunLattice, PlotLattice)
}
