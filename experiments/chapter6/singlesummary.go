package chapter6

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/results"
)

// monotoneCriterion: no EM or VBEM run of a structure scoring stopped
// because its objective fell (vb.Run's monotonicity guard, targets §1.7
// item 6), a sanity check.
var monotoneCriterion = results.Criterion{ID: "objectives-monotone",
	Text: "EM and VBEM objectives never decrease (structure scorings with a run stopped by a decrease)", Target: results.Equal(0)}.AsSanity()

// The rivals of VB in Table 6.1 (ranks) and Figure 6.4 (|Δ|), with the
// targets' counts of 20 sizes (§3.3, §3.4) and the thesis's statements:
// for Table 6.1 the counts of its 20 rows (lines 4754-4773) at which VB's
// rank is at least as good as the rival's.
var (
	table61Rivals = []rival{
		{"BIC", 17, "VB ranks it better than BIC for almost all n (VB ≤ BIC at 17 of 20 sizes)"},
		{"BICp", 15, "VB ranks it better than BICp for almost all n (VB ≤ BICp at 16 of 20 sizes)"},
		{"CS", 12, "VB ranks it better than CS for almost all n (VB ≤ CS at 16 of 20 sizes)"},
	}
	fig64Theirs = "VB's differences much less on the average than CS's, BICp's and BIC's"
	fig64Rivals = []rival{{"CS", 15, fig64Theirs}, {"BICp", 15, fig64Theirs}, {"BIC", 15, fig64Theirs}}
)

// singleCriteria are the acceptance criteria of the single-instance study
// (targets ch6-dag.md §3.1-3.4, 3.7-3.10, 3.13, 3.14) for a config, one
// table per thesis artefact. Counts of sizes are the targets' counts of 20
// scaled to the sizes run (need). Each is a claim of the thesis with its
// statement and line, or, for a member of the family with a setting of
// ours (SingleK8192ID, SingleEMConvergedID) or a key the thesis fixes set
// otherwise, a claim of ours; the structure's counts, the monotone
// objectives, the theorems (Theorem 2.3, Corollary 2.5) and the alias
// correction's construction are sanity checks, and the comparison with
// the exact ln p(y|m), which the thesis does not make, an extension.
//
// The claims of Figure 6.2 are judged on every data seed, and those of
// Figures 6.11 and 6.12 on every AIS run (each a "batch" of AIS scores of
// all structures, line 4877), never on the main seed or the first run
// alone: the target of such a criterion bounds the fraction of the seeds
// (runs) on which the claim holds, perSeed[ID] what it must meet on one.
type singleCriteria struct {
	fig61, fig62, table61, fig64, fig611, fig612, table63, table64, sec66, exact results.Criteria
	perSeed                                                                      map[string]results.Target
}

// The units of the claims judged over the seeds or runs of the study.
const (
	seedUnits = "data seeds"
	runUnits  = "AIS runs (main data set)"
)

// mostSeeds is the target of a claim judged over the seeds (or runs) of a
// run: it holds on at least 4 of 5.
var mostSeeds = results.AtLeast(0.8)

// ours reports whether the config's settings are ours rather than the
// thesis's (results.ClaimOn): a member of the family other than SingleID, or a key
// the thesis fixes set otherwise. The sizes, seeds, restarts and AIS
// budget, which [quick] reduces, do not count.
func (c *SingleConfig) ours() bool {
	return c.Experiment != SingleID || c.Scoring.ours() || AnnealSettings{AISSchedule: c.AIS.AISSchedule}.ours()
}

func newSingleCriteria(c *SingleConfig) singleCriteria {
	m := len(c.Sizes)
	code, _ := c.Model.trueCode()
	seeds := fmt.Sprintf("median over %d data seeds", len(c.DataSeeds))
	flat := count(len(c.Fig62Rows), func(i int) bool { return c.Fig62Rows[i] <= 2560 })
	late := count(m, func(j int) bool { return c.Sizes[j] >= 640 })
	exactAt := ""
	if c.ExactN > 0 {
		exactAt = fmt.Sprintf(" at n = %d", c.ExactN)
	}
	ours := c.ours()
	claim := func(cr results.Criterion, theirs, line string) results.Criterion {
		return results.ClaimOn(ours, cr, theirs, line)
	}
	perSeed := map[string]results.Target{}
	// over is criterion id judged on each of units (the data seeds, the
	// AIS runs) against t: what, measured on one, must meet t on
	// mostSeeds of them.
	over := func(id, what, units string, t results.Target) results.Criterion {
		perSeed[id] = t
		return results.Criterion{ID: id, Text: fmt.Sprintf("%s %s: fraction of the %s on which it holds", what, t, units), Target: mostSeeds}
	}
	return singleCriteria{
		perSeed: perSeed,
		fig61: results.Criteria{
			results.Criterion{ID: "fig6.1-true-edges", Text: fmt.Sprintf("Fig 6.1: edges of the true structure %s", code), Target: results.Equal(6)}.AsSanity(),
			results.Criterion{ID: "fig6.1-true-d", Text: fmt.Sprintf("Fig 6.1: d of the true structure %s", code), Target: results.Equal(50)}.AsSanity(),
			results.Criterion{ID: "fig6.1-candidates", Text: "Fig 6.1: candidate structures", Target: results.Equal(dag.NumCandidates)}.AsSanity(),
		},
		fig62: results.Criteria{
			claim(over("fig6.2-map-spearman", "Fig 6.2: smallest Spearman ρ(d, MAP) over the plotted n ≥ 160", seedUnits, results.Above(0.5)),
				"MAP trends upward with the number of parameters", "L4732"),
			claim(over("fig6.2-bic-spearman", "Fig 6.2: largest Spearman ρ(d, BIC) over the plotted n ≤ 1280", seedUnits, results.Below(-0.3)),
				"BIC and BICp trend steeply downward (they over-penalise complexity)", "L4732"),
			claim(over("fig6.2-vb-flatter-than-bic", "Fig 6.2: plotted n ≤ 2560 with |ρ(d, VB)| < |ρ(d, BIC)|", seedUnits, allOf(flat)),
				"no upward or downward trend for VB", "L4732"),
			claim(results.Criterion{ID: "fig6.2-ais-above-vb", Text: "Fig 6.2: fraction of structures with AIS^(G) ≥ VB* at every n ≤ 560 (smallest)", Target: results.AtLeast(0.8)},
				"AIS^(5) above the VB bound for the vast majority of structures and sizes", "L4732, L4737"),
			claim(over("fig6.2-top-rank-n10240", "Fig 6.2: worst rank of the true structure by VB, CS, BICp at n = 10240", seedUnits, results.AtMost(2)),
				"BICp, CS, VB and AIS rank the true structure first at n = 10240", "L4741"),
			claim(results.Criterion{ID: "fig6.2-ais-rank-n10240", Text: "Fig 6.2: rank of the true structure by AIS^(G) at n = 10240", Target: results.AtMost(10)},
				"AIS ranks the true structure first at n = 10240 (first at 960, reliably from 2560)", "L4741"),
		},
		table61: append(versus(ours, "table6.1-vb-le", "Table 6.1: sizes with rank VB ≤ %s (%s)", seeds, m, table61Rivals, "L4780; Table 6.1, L4754-L4773"), results.Criteria{
			claim(results.Criterion{ID: "table6.1-top-rank-n10240", Text: "Table 6.1: worst median rank of VB, CS, BICp at n = 10240", Target: results.AtMost(2)},
				"rank 1 by VB, CS and BICp at n = 10240", "Table 6.1, L4773"),
			claim(results.Criterion{ID: "table6.1-bic-rank-n10240", Text: "Table 6.1: median rank by BIC at n = 10240", Target: results.AtMost(6)},
				"rank 2 by BIC at n = 10240 (\"BIC still does not select the correct structure\")", "Table 6.1, L4773; L4741"),
			claim(results.Criterion{ID: "table6.1-bic-rank-small-n", Text: "Table 6.1: smallest median BIC rank over n ≤ 1120", Target: results.AtLeast(50)},
				"BIC ranks it 101-127 at every n ≤ 1120", "Table 6.1, L4754-L4769"),
			claim(results.Criterion{ID: "table6.1-map-rank", Text: "Table 6.1: largest median MAP rank over all n", Target: results.AtMost(30)},
				"MAP ranks it 3-28 at every n", "Table 6.1, L4754-L4773"),
			claim(results.Criterion{ID: "table6.1-ais-rank-large-n", Text: "Table 6.1: worst AIS^(G) rank at n ∈ {2560, 5120, 10240}", Target: results.AtMost(10)},
				"AIS^(5) ranks it 1 at n = 2560, 5120 and 10240", "Table 6.1, L4771-L4773"),
			claim(results.Criterion{ID: "table6.1-alias-never-worsens", Text: "Table 6.1: (seed, n, method) where the alias correction worsens the rank", Target: results.Equal(0)},
				"the correction nowhere degrades the rankings of any score", "L4782"),
		}...),
		fig64: versus(ours, "fig6.4-vb-delta-le", "Fig 6.4: sizes with |Δ_VB| ≤ |Δ_%s| (%s)", seeds, m, fig64Rivals, "L4786"),
		fig611: results.Criteria{
			claim(over("fig6.11-acceptance-falls", "Fig 6.11: largest rise in n of the mean MH acceptance (percentage points)", runUnits, results.AtMost(3)),
				"the acceptance rate drops with n, from rarely below 60% at n = 480 to 20% for the larger data sets", "L4874"),
			claim(over("fig6.11-acceptance-small-n", "Fig 6.11: smallest mean acceptance over n ≤ 560", runUnits, results.AtLeast(0.5)),
				"rarely below 60% at n = 480; MH rejection < 40.3% at every n ≤ 560", "L4874; Table 6.4, L4912"),
			claim(over("fig6.11-acceptance-n10240", "Fig 6.11: mean acceptance at n = 10240", runUnits, results.Within(0.12, 0.35)),
				"20% for the larger data sets (MH rejection 79.2% at n = 10240)", "L4874; Table 6.4, L4912"),
			claim(over("fig6.11-acceptance-log-linear", "Fig 6.11: R² of the mean acceptance against ln n over n ≥ 160", runUnits, results.AtLeast(0.8)),
				"the drop is only linear in the logarithm of the data size", "L4874"),
		},
		fig612: results.Criteria{
			claim(over("fig6.12-first-quarter-higher", "Fig 6.12: sizes n ≥ 640 with acceptance in the first quarter > in the last", runUnits, allOf(late)),
				"the rejection rate increases from the beginning of the schedule (the prior) to the end (the posterior)", "L4926"),
			claim(over("fig6.12-gap-grows", "Fig 6.12: gap Q1 − Q4 at n = 10240 minus the gap at n = 160", runUnits, results.Above(0)),
				"the degradation more pronounced for large data sets", "L4926"),
		},
		table63: results.Criteria{
			claim(results.Criterion{ID: "table6.3-rank-spread", Text: "Table 6.3: sizes where single-run ranks span ≥ 30", Target: atLeastOf(10, m)},
				"single-run ranks span ≥ 30 at 16 of 20 sizes (2 to 126 at n = 480)", "Table 6.3, L4885-L4904"),
			claim(results.Criterion{ID: "table6.3-worst-rank-n2560", Text: "Table 6.3: worst single-run rank at n = 2560", Target: results.AtMost(10)},
				"single-run ranks 1, 1, 4, 1, 1 at n = 2560", "Table 6.3, L4902"),
			claim(results.Criterion{ID: "table6.3-pooling-helps", Text: "Table 6.3: mean over n ≥ 1280 of AIS^(G) rank minus median single-run rank", Target: results.AtMost(0)},
				"AIS^(5) ranks 5, 1, 1, 1 at n = 1280-10240 against single-run medians 12, 1, 12, 1 (mean difference −4.5)", "Table 6.3, L4901-L4904"),
		},
		table64: results.Criteria{
			claim(results.Criterion{ID: "table6.4-rejection-small-n", Text: "Table 6.4: largest MH rejection over n ≤ 560 (%)", Target: results.AtMost(50)},
				"MH rejection < 40.3% over n = 10-560", "Table 6.4, L4912"),
			claim(results.Criterion{ID: "table6.4-rejection-rises", Text: "Table 6.4: MH rejection increases with n (largest fall, percentage points)", Target: results.AtMost(3)},
				"MH rejection < 40.3, 41.5, 43.7, 45.9, 47.7, 49.6, 59.2, 69.7, 79.2% from n ≤ 560 to n = 10240", "Table 6.4, L4912"),
			claim(results.Criterion{ID: "table6.4-violations-small-n", Text: "Table 6.4: largest % of structures with AIS^(1) < VB* over n ≤ 560", Target: results.AtMost(15)},
				"AIS^(1) < VB* for ≤ 5.7% of the structures over n = 10-560 (\"valid\" results)", "Table 6.4, L4910; L4881"),
			claim(results.Criterion{ID: "table6.4-rejection-n10240", Text: "Table 6.4: MH rejection at n = 10240 (%)", Target: results.AtLeast(65)},
				"MH rejection 79.2% at n = 10240", "Table 6.4, L4912"),
			claim(results.Criterion{ID: "table6.4-violations-n10240", Text: "Table 6.4: % of structures with AIS^(1) < VB* at n = 10240", Target: results.AtLeast(40)},
				"AIS^(1) < VB* for 71.7% of the structures at n = 10240", "Table 6.4, L4910"),
			claim(results.Criterion{ID: "table6.4-pooling-no-worse", Text: "Table 6.4: sizes where pooling does not raise the violations (AIS^(G) ≤ AIS^(1) rate)", Target: allOf(m)},
				"pooling violates the bound far less often: AIS^(5) < VB* for 0-50.0% of the structures against AIS^(1) 5.7-71.7%", "Table 6.4, L4910, L4914; L4881"),
			// VB = VB* + ln S with S ≥ 1, so an estimate below VB* is below VB.
			results.Criterion{ID: "table6.4-vb-violations-ge-vbstar", Text: "Table 6.4: sizes where violations of VB ≥ those of VB*", Target: allOf(m)}.AsSanity(),
		},
		sec66: results.Criteria{
			claim(results.Criterion{ID: "sec6.6-vb-below-cs", Text: "§6.6: fraction of scores with VB* < CS* (independent restarts)", Target: results.Below(0.01)},
				"VB below CS in 173 of 288320 scores (about 0.06%)", "L5031"),
			// Corollary 2.5 and VBEM's monotone bound.
			results.Criterion{ID: "sec6.6-vb-from-cs-below-cs", Text: "§6.6: VB started from the CS point below CS*", Target: results.Equal(0)}.AsSanity(),
		},
		exact: results.Criteria{
			// F ≤ ln p(y|m) and CS ≤ ln p(y|m) (Theorem 2.3).
			results.Criterion{ID: "exact-vb-over", Text: "§3.14: structures with VB* > exact ln p(y|m)" + exactAt, Target: results.Equal(0)}.AsSanity(),
			results.Criterion{ID: "exact-cs-over", Text: "§3.14: structures with CS* > exact ln p(y|m)" + exactAt, Target: results.Equal(0)}.AsSanity(),
			results.Criterion{ID: "exact-ais-within-3", Text: "§3.14: fraction of structures with |AIS^(G) − exact| ≤ 3 nats" + exactAt, Target: results.AtLeast(0.9)}.AsExtension(),
		},
	}
}

// all returns the whole table, in the order the checks are made.
func (sc singleCriteria) all() results.Criteria {
	return slices.Concat(sc.fig61, results.Criteria{monotoneCriterion}, sc.fig62, sc.table61, sc.fig64, sc.fig611, sc.fig612,
		sc.table63, sc.table64, sc.sec66, sc.exact)
}

// singleSummary builds the summary of the single-instance study, one
// method per thesis artefact.
type singleSummary struct {
	*singleData
	judge
	crit singleCriteria
	m    int // sizes run
}

// at returns the index of size n, or −1 when it was not run.
func (ss *singleSummary) at(n int) int { return indexOf(ss.c.Sizes, n) }

// notRun is the reason a criterion about size n does not apply.
func notRun(n int) string { return fmt.Sprintf("n = %d not run", n) }

// summary computes the metrics and every acceptance criterion of targets
// §3.2–3.4, 3.7–3.10, 3.13 and 3.14, and returns the scorecard's intro
// with the timings.
func (sd *singleData) summary() (*results.Summary, string) {
	s := &results.Summary{Lists: map[string][]float64{}}
	ss := &singleSummary{singleData: sd, crit: newSingleCriteria(sd.c), m: len(sd.c.Sizes)}
	ss.judge = newJudge(s, ss.crit.all())
	ss.rankLists()
	ss.fig61()
	ss.monotone()
	ss.fig62()
	ss.table61()
	ss.fig64()
	ss.fig611()
	ss.fig612()
	ss.table63()
	ss.table64()
	ss.sec66()
	ss.exactCheck()
	ss.largestSize()
	if !slices.Equal(sd.c.Sizes, ThesisSizes) {
		s.Warnf("sizes differ from the thesis's 20: counts of sizes in the checks are scaled from 20 to %d", ss.m)
	}
	intro, timing := ss.timings()
	ss.claims(timing)
	return s, intro
}

// rankLists records the sizes and the true structure's rank under every
// method on the main data seed.
func (ss *singleSummary) rankLists() {
	c, s := ss.c, ss.s
	sizes := make([]float64, ss.m)
	for j, n := range c.Sizes {
		sizes[j] = float64(n)
	}
	s.Lists["sizes"] = sizes
	for _, meth := range append(slices.Clone(Methods), "AIS5") {
		r := make([]float64, ss.m)
		for j := range c.Sizes {
			if meth == "AIS5" {
				r[j] = rankOf(ss.aisScores(j, -1), ss.truth)
			} else {
				r[j] = ss.rank(0, j, meth)
			}
		}
		s.Lists["rank."+meth] = r
		// Issue 11's interface: true_rank_<method>.n<size> for the
		// unstarred scores and AIS (the pooled AIS^(G) estimate).
		if name, ok := interfaceName(meth); ok {
			for j, n := range c.Sizes {
				s.SetMetric(fmt.Sprintf("true_rank_%s.n%d", name, n), r[j])
			}
		}
	}
}

// fig61 (targets §3.1): the generating structure as reconstructed has 6
// edges and d = 50, among the 136 candidates.
func (ss *singleSummary) fig61() {
	code, _ := ss.c.Model.trueCode()
	edges := 0
	for _, v := range code {
		edges += int(v&1) + int(v>>1)
	}
	ss.val("fig6.1-true-edges", float64(edges))
	ss.val("fig6.1-true-d", float64(code.NumParams()))
	ss.val("fig6.1-candidates", float64(len(ss.cands)))
	ss.s.SetMetric("true_structure_index", float64(ss.truth))
}

// monotone: no EM or VBEM run stopped because its objective fell.
func (ss *singleSummary) monotone() {
	bad, limit, emLimit, total := 0, 0, 0, 0
	for k := range ss.scores {
		for j := range ss.scores[k] {
			for _, sc := range ss.scores[k][j] {
				total++
				if sc.EMStatus == statusDecreased || sc.VBStatus == statusDecreased {
					bad++
				}
				if sc.VBStatus == vb.IterationLimit.String() {
					limit++
				}
				if sc.EMStatus == vb.IterationLimit.String() {
					emLimit++
				}
			}
		}
	}
	ss.val(monotoneCriterion.ID, float64(bad))
	ss.s.SetMetric("vb_iteration_limit_fraction", float64(limit)/float64(total))
	ss.s.SetMetric("em_iteration_limit_fraction", float64(emLimit)/float64(total))
}

// extreme returns the extreme (pick: math.Min or math.Max, from init) of
// v over the rows whose size keeps, and how many there were.
func extreme(rows []int, v []float64, keep func(n int) bool, pick func(a, b float64) float64, init float64) (float64, int) {
	w, k := init, 0
	for i, n := range rows {
		if keep(n) {
			w = pick(w, v[i])
			k++
		}
	}
	return w, k
}

// seeds judges criterion id over the seeds (or runs) of the study:
// values[k] is its measure on the k-th, which holds when it meets
// perSeed[id].
func (ss *singleSummary) seeds(id string, values []float64) {
	ss.s.JudgeSeeds(ss.cr.Get(id), values, ss.crit.perSeed[id].Met)
}

// fig62 (targets §3.2): the scores against d(m) at the plotted sizes, on
// every data seed; the metrics are the main seed's, the figure's.
func (ss *singleSummary) fig62() {
	c, s := ss.c, ss.s
	d := make([]float64, len(ss.cands))
	for i, code := range ss.cands {
		d[i] = float64(c.Model.structure(code).NumParams())
	}
	ns := len(c.DataSeeds)
	mapMin, bicMax, vbFlat := make([]float64, ns), make([]float64, ns), make([]float64, ns)
	var kMAP, kBIC int
	for k := range c.DataSeeds {
		var rhoMAP, rhoBIC, rhoVB []float64
		for _, n := range c.Fig62Rows {
			sc := ss.scores[k][ss.at(n)]
			a, b, v := results.Spearman(d, values(sc, "MAP")), results.Spearman(d, values(sc, "BIC")), results.Spearman(d, values(sc, "VB"))
			if k == 0 {
				s.SetMetric(fmt.Sprintf("spearman_d.MAP.n%d", n), a)
				s.SetMetric(fmt.Sprintf("spearman_d.BIC.n%d", n), b)
				s.SetMetric(fmt.Sprintf("spearman_d.VB.n%d", n), v)
			}
			rhoMAP, rhoBIC, rhoVB = append(rhoMAP, a), append(rhoBIC, b), append(rhoVB, v)
		}
		mapMin[k], kMAP = extreme(c.Fig62Rows, rhoMAP, func(n int) bool { return n >= 160 }, math.Min, math.Inf(1))
		bicMax[k], kBIC = extreme(c.Fig62Rows, rhoBIC, func(n int) bool { return n <= 1280 }, math.Max, math.Inf(-1))
		vbFlat[k] = float64(count(len(c.Fig62Rows), func(i int) bool {
			return c.Fig62Rows[i] <= 2560 && math.Abs(rhoVB[i]) < math.Abs(rhoBIC[i])
		}))
	}
	if kMAP > 0 {
		ss.seeds("fig6.2-map-spearman", mapMin)
	} else {
		ss.na("fig6.2-map-spearman", "no plotted size ≥ 160")
	}
	if kBIC > 0 {
		ss.seeds("fig6.2-bic-spearman", bicMax)
	} else {
		ss.na("fig6.2-bic-spearman", "no plotted size ≤ 1280")
	}
	ss.seeds("fig6.2-vb-flatter-than-bic", vbFlat)
	aisAbove, small := math.Inf(1), 0
	for j, n := range c.Sizes {
		if n > 560 {
			continue
		}
		small++
		p, v := ss.aisScores(j, -1), values(ss.scores[0][j], "VB*")
		f := float64(count(len(p), func(i int) bool { return p[i] >= v[i] })) / float64(len(p))
		aisAbove = math.Min(aisAbove, f)
	}
	ss.when("fig6.2-ais-above-vb", small > 0, "no size ≤ 560", func() float64 { return aisAbove })
	j := ss.at(10240)
	if j >= 0 {
		top := make([]float64, ns)
		for k := range top {
			top[k] = math.Max(math.Max(ss.rank(k, j, "VB"), ss.rank(k, j, "CS")), ss.rank(k, j, "BICp"))
		}
		ss.seeds("fig6.2-top-rank-n10240", top)
	} else {
		ss.na("fig6.2-top-rank-n10240", notRun(10240))
	}
	ss.when("fig6.2-ais-rank-n10240", j >= 0, notRun(10240), func() float64 { return rankOf(ss.aisScores(j, -1), ss.truth) })
}

// table61 (targets §3.3): Table 6.1 and Figure 6.3, ranks as medians over
// the data seeds.
func (ss *singleSummary) table61() {
	c := ss.c
	for _, x := range table61Rivals {
		ss.val(x.id("table6.1-vb-le"), float64(count(ss.m, func(j int) bool { return ss.medianRank(j, "VB") <= ss.medianRank(j, x.meth) })))
	}
	j := ss.at(10240)
	ss.when("table6.1-top-rank-n10240", j >= 0, notRun(10240), func() float64 {
		return math.Max(math.Max(ss.medianRank(j, "VB"), ss.medianRank(j, "CS")), ss.medianRank(j, "BICp"))
	})
	ss.when("table6.1-bic-rank-n10240", j >= 0, notRun(10240), func() float64 { return ss.medianRank(j, "BIC") })
	minBIC, mapWorst := math.Inf(1), 0.0
	for j, n := range c.Sizes {
		if n <= 1120 {
			minBIC = math.Min(minBIC, ss.medianRank(j, "BIC"))
		}
		mapWorst = math.Max(mapWorst, ss.medianRank(j, "MAP"))
	}
	ss.when("table6.1-bic-rank-small-n", !math.IsInf(minBIC, 1), "no size ≤ 1120", func() float64 { return minBIC })
	ss.val("table6.1-map-rank", mapWorst)
	var aisLarge []float64
	for _, n := range []int{2560, 5120, 10240} {
		if j := ss.at(n); j >= 0 {
			aisLarge = append(aisLarge, rankOf(ss.aisScores(j, -1), ss.truth))
		}
	}
	ss.when("table6.1-ais-rank-large-n", len(aisLarge) > 0, "none of these sizes run", func() float64 { return slices.Max(aisLarge) })
	worse := 0
	for k := range ss.scores {
		for j := range c.Sizes {
			for _, meth := range []string{"BIC", "BICp", "CS", "CSdagger", "VB"} {
				if ss.rank(k, j, meth) > ss.rank(k, j, meth+"*") {
					worse++
				}
			}
		}
	}
	ss.val("table6.1-alias-never-worsens", float64(worse))
}

// fig64 (targets §3.4): |Δ| of VB against CS, BICp and BIC.
func (ss *singleSummary) fig64() {
	for _, x := range fig64Rivals {
		k := count(ss.m, func(j int) bool { return ss.medianAbsDelta(j, "VB") <= ss.medianAbsDelta(j, x.meth) })
		ss.val(x.id("fig6.4-vb-delta-le"), float64(k))
	}
}

// meanAcceptance returns the mean MH acceptance of AIS run g (one
// "batch" of scores of all structures) at every size, over the whole
// schedule and in its first and last quarters.
func (ss *singleSummary) meanAcceptance(g int) (all, q1, q4 []float64) {
	all, q1, q4 = make([]float64, ss.m), make([]float64, ss.m), make([]float64, ss.m)
	for j := range ss.c.Sizes {
		a, qs := ss.acceptance(j, g)
		all[j] = results.Mean(a)
		q1[j], q4[j] = results.Mean(qs[0]), results.Mean(qs[3])
	}
	return all, q1, q4
}

// fig611 (targets §3.7): the MH acceptance falls with n, roughly linearly
// in ln n, in every AIS run; the figure's list is the first run's.
func (ss *singleSummary) fig611() {
	c := ss.c
	G := c.AIS.Runs
	rise, lowSmall, at10240, r2 := make([]float64, G), make([]float64, G), make([]float64, G), make([]float64, G)
	small := count(ss.m, func(j int) bool { return c.Sizes[j] <= 560 })
	logN := count(ss.m, func(j int) bool { return c.Sizes[j] >= 160 })
	for g := range G {
		meanAcc, _, _ := ss.meanAcceptance(g)
		if g == 0 {
			ss.s.Lists["acceptance_mean"] = meanAcc
		}
		rise[g] = 100 * largestRise(meanAcc)
		lowSmall[g] = math.Inf(1)
		var lx, ly []float64
		for j, n := range c.Sizes {
			if n <= 560 {
				lowSmall[g] = math.Min(lowSmall[g], meanAcc[j])
			}
			if n >= 160 {
				lx, ly = append(lx, math.Log(float64(n))), append(ly, meanAcc[j])
			}
		}
		if j := ss.at(10240); j >= 0 {
			at10240[g] = meanAcc[j]
		}
		if logN >= 3 {
			r2[g] = rSquared(lx, ly)
		}
	}
	ss.seeds("fig6.11-acceptance-falls", rise)
	if small > 0 {
		ss.seeds("fig6.11-acceptance-small-n", lowSmall)
	} else {
		ss.na("fig6.11-acceptance-small-n", "no size ≤ 560")
	}
	if ss.at(10240) >= 0 {
		ss.seeds("fig6.11-acceptance-n10240", at10240)
	} else {
		ss.na("fig6.11-acceptance-n10240", notRun(10240))
	}
	if logN >= 3 {
		ss.seeds("fig6.11-acceptance-log-linear", r2)
	} else {
		ss.na("fig6.11-acceptance-log-linear", "fewer than 3 sizes ≥ 160")
	}
}

// fig612 (targets §3.10): the acceptance falls from the first to the last
// quarter of the schedule, more so at large n, in every AIS run.
func (ss *singleSummary) fig612() {
	G := ss.c.AIS.Runs
	higher, gap := make([]float64, G), make([]float64, G)
	nq := count(ss.m, func(j int) bool { return ss.c.Sizes[j] >= 640 })
	a, b := ss.at(10240), ss.at(160)
	for g := range G {
		_, q1, q4 := ss.meanAcceptance(g)
		higher[g] = float64(count(ss.m, func(j int) bool { return ss.c.Sizes[j] >= 640 && q1[j] > q4[j] }))
		if a >= 0 && b >= 0 {
			gap[g] = (q1[a] - q4[a]) - (q1[b] - q4[b])
		}
	}
	if nq > 0 {
		ss.seeds("fig6.12-first-quarter-higher", higher)
	} else {
		ss.na("fig6.12-first-quarter-higher", "no size ≥ 640")
	}
	if a >= 0 && b >= 0 {
		ss.seeds("fig6.12-gap-grows", gap)
	} else {
		ss.na("fig6.12-gap-grows", "n = 160 or 10240 not run")
	}
}

// singleRanks returns the true structure's rank under each single AIS run
// at size j.
func (ss *singleSummary) singleRanks(j int) []float64 {
	var r []float64
	for g := 0; g < ss.c.AIS.Runs; g++ {
		r = append(r, rankOf(ss.aisScores(j, g), ss.truth))
	}
	return r
}

// table63 (targets §3.8): single AIS runs rank erratically; pooling helps.
func (ss *singleSummary) table63() {
	if ss.c.AIS.Runs < 2 {
		for _, c := range ss.crit.table63 {
			ss.na(c.ID, "needs ais.runs ≥ 2")
		}
		return
	}
	spread := count(ss.m, func(j int) bool {
		r := ss.singleRanks(j)
		return slices.Max(r)-slices.Min(r) >= 30
	})
	ss.val("table6.3-rank-spread", float64(spread))
	j := ss.at(2560)
	ss.when("table6.3-worst-rank-n2560", j >= 0, notRun(2560), func() float64 { return slices.Max(ss.singleRanks(j)) })
	var pooledR, medSingle []float64
	for j, n := range ss.c.Sizes {
		if n >= 1280 {
			pooledR = append(pooledR, rankOf(ss.aisScores(j, -1), ss.truth))
			medSingle = append(medSingle, results.Median(ss.singleRanks(j)))
		}
	}
	ss.when("table6.3-pooling-helps", len(pooledR) > 0, "no size ≥ 1280", func() float64 { return results.Mean(pooledR) - results.Mean(medSingle) })
}

// table64 (targets §3.9): MH rejection and AIS estimates below the VB
// bound.
func (ss *singleSummary) table64() {
	s := ss.s
	rej := make([]float64, ss.m)
	var smallRej, smallViol float64
	pooledOK, corrOK := 0, 0
	var below []float64
	for j, n := range ss.c.Sizes {
		a, b, r, p1, p2 := ss.table64Row(j)
		below = append(below, a)
		rej[j] = r
		if n <= 560 {
			smallRej = math.Max(smallRej, r)
			smallViol = math.Max(smallViol, a)
		}
		if p1 <= a {
			pooledOK++
		}
		if b >= a && p2 >= p1 {
			corrOK++
		}
		s.SetMetric(fmt.Sprintf("ais1_below_vb_star_pct.n%d", n), a)
		s.SetMetric(fmt.Sprintf("ais5_below_vb_star_pct.n%d", n), p1)
		s.SetMetric(fmt.Sprintf("mh_rejection_pct.n%d", n), r)
	}
	// Issue 11's interface: the fraction of single AIS runs below VB*
	// (Table 6.4), pooled over the sizes.
	s.SetMetric("ais_below_vb_rate", results.Mean(below)/100)
	ss.val("table6.4-rejection-small-n", smallRej)
	ss.val("table6.4-rejection-rises", largestFall(rej))
	ss.val("table6.4-violations-small-n", smallViol)
	j := ss.at(10240)
	ss.when("table6.4-rejection-n10240", j >= 0, notRun(10240), func() float64 { _, _, r, _, _ := ss.table64Row(j); return r })
	ss.when("table6.4-violations-n10240", j >= 0, notRun(10240), func() float64 { a, _, _, _, _ := ss.table64Row(j); return a })
	ss.val("table6.4-pooling-no-worse", float64(pooledOK))
	ss.val("table6.4-vb-violations-ge-vbstar", float64(corrOK))
}

// sec66 (targets §3.13): VB falls below CS rarely, and never when started
// from the CS point (Corollary 2.5).
func (ss *singleSummary) sec66() {
	viol, nsc := 0, 0
	fromViol, fromN := 0, 0
	for k := range ss.scores {
		for j := range ss.c.Sizes {
			for _, sc := range ss.scores[k][j] {
				if math.IsNaN(float64(sc.VB)) || math.IsNaN(float64(sc.CS)) {
					continue
				}
				nsc++
				if sc.VB < sc.CS {
					viol++
				}
				if f := float64(sc.FromCS); !math.IsNaN(f) {
					fromN++
					if f < float64(sc.CS)-1e-9*math.Abs(float64(sc.CS)) {
						fromViol++
					}
				}
			}
		}
	}
	ss.s.SetMetric("vb_below_cs.count", float64(viol))
	ss.s.SetMetric("vb_below_cs.scores", float64(nsc))
	ss.val("sec6.6-vb-below-cs", float64(viol)/float64(max(nsc, 1)))
	if fromN == 0 {
		ss.na("sec6.6-vb-from-cs-below-cs", "from_cs_check is off")
		return
	}
	ss.val("sec6.6-vb-from-cs-below-cs", float64(fromViol), fmt.Sprintf("of %d", fromN))
}

// exactCheck (targets §3.14): the bounds lie below the exact ln p(y|m),
// and AIS^(G) near it.
func (ss *singleSummary) exactCheck() {
	c := ss.c
	if ss.exact == nil {
		for _, cr := range ss.crit.exact {
			ss.na(cr.ID, "exact_n = 0")
		}
		return
	}
	j := ss.at(c.ExactN)
	sc := ss.scores[0][j]
	vbOver, csOver, within := 0, 0, 0
	p, a1 := ss.aisScores(j, -1), ss.aisScores(j, 0)
	errs := map[string][]float64{}
	for i, e := range ss.exact {
		if float64(sc[i].VB) > e+1e-8 {
			vbOver++
		}
		if float64(sc[i].CS) > e+1e-8 {
			csOver++
		}
		if math.Abs(p[i]-e) <= 3 {
			within++
		}
		errs["VB*"] = append(errs["VB*"], float64(sc[i].VB)-e)
		errs["CS*"] = append(errs["CS*"], float64(sc[i].CS)-e)
		errs["BIC*"] = append(errs["BIC*"], float64(sc[i].BIC)-e)
		errs["AIS1"] = append(errs["AIS1"], a1[i]-e)
		errs["AIS5"] = append(errs["AIS5"], p[i]-e)
	}
	for k, v := range errs {
		ss.s.AddSpread(fmt.Sprintf("exact_error.%s.n%d", k, c.ExactN), v)
	}
	ss.s.SetMetric(fmt.Sprintf("exact_rank.n%d", c.ExactN), rankOf(ss.exact, ss.truth))
	ss.val("exact-vb-over", float64(vbOver))
	ss.val("exact-cs-over", float64(csOver))
	ss.val("exact-ais-within-3", float64(within)/float64(len(ss.exact)))
}

// largestSize records, at the largest size run, the rank of the true
// structure and Δ (its score minus the best) by BIC, BICp, CS and VB on
// every data seed: at n = 10240 EM's stop rule decides the ranks by CS and
// BICp (issue 20 item 9; [scores] em_stop).
func (ss *singleSummary) largestSize() {
	c, s := ss.c, ss.s
	j := ss.m - 1
	n := c.Sizes[j]
	var parts []string
	for _, meth := range []string{"BIC", "BICp", "CS", "VB"} {
		name, _ := interfaceName(meth)
		var rs []string
		for k, seed := range c.DataSeeds {
			v := values(ss.scores[k][j], meth)
			r, d := rankOf(v, ss.truth), deltaOf(v, ss.truth)
			s.SetMetric(fmt.Sprintf("true_rank_by_seed_%s.n%d.d%d", name, n, seed), r)
			s.SetMetric(fmt.Sprintf("true_delta_by_seed_%s.n%d.d%d", name, n, seed), d)
			rs = append(rs, fmt.Sprintf("%g (Δ %.1f)", r, d))
		}
		parts = append(parts, meth+" "+strings.Join(rs, ", "))
	}
	s.Findings = append(s.Findings, fmt.Sprintf("At n = %d, with EM stopped by the rule %q, the ranks of the true structure on data seeds %v (Δ: its score minus the best, nats): %s.",
		n, c.Scores.EMStop, c.DataSeeds, strings.Join(parts, "; ")))
}

// timings (issue 11 item 4) records the per-score costs and the thesis's
// ratios, and returns the scorecard's intro and the finding that compares
// them.
func (ss *singleSummary) timings() (intro, finding string) {
	c, s := ss.c, ss.s
	var emT, vbT, aisT []float64
	for k := range ss.scores {
		for j := range c.Sizes {
			for _, sc := range ss.scores[k][j] {
				emT, vbT = append(emT, sc.EMSeconds), append(vbT, sc.VBSeconds)
			}
		}
	}
	for j := range c.Sizes {
		for _, runs := range ss.ais[j] {
			for _, r := range runs {
				aisT = append(aisT, r.Seconds)
			}
		}
	}
	G := c.AIS.Runs
	em, vbm, am := results.Mean(emT), results.Mean(vbT), results.Mean(aisT)
	s.SetMetric("seconds_per_score.em", em)
	s.SetMetric("seconds_per_score.vb", vbm)
	s.SetMetric("seconds_per_score.ais_run", am)
	s.SetMetric("seconds_per_score.ais_pooled", am*float64(G))
	if len(ss.exactT) > 0 {
		s.SetMetric("seconds_per_score.exact", results.Mean(ss.exactT))
	}
	s.SetMetric("time_ratio.vb_over_em", vbm/em)
	s.SetMetric("time_ratio.ais_pooled_over_vb", am*float64(G)/vbm)
	intro = fmt.Sprintf("Checks of targets ch6-dag.md §3.2-3.4, 3.7-3.10, 3.13, 3.14: Figure 6.2's claims on each of the %d data seeds, the ranks of Table 6.1 and Figure 6.4 medians over them, "+
		"AIS on the main data seed, Figures 6.11 and 6.12 on each of its %d runs. "+
		"Mean wall seconds per score (one structure, one size): EM with every EM-derived score %.4f, VBEM %.4f (ratio %.2f; thesis 575/200 = 2.9), "+
		"one AIS run of K = %d %.3f, AIS^(%d) %.3f (%.0f× VB; thesis AIS/VB ≈ 70 at K = 2^13 and n = 480)",
		len(c.DataSeeds), G, em, vbm, vbm/em, c.AIS.Steps, am, G, am*float64(G), am*float64(G)/vbm)
	if j := ss.at(480); j >= 0 {
		var e, v, a float64
		for _, sc := range ss.scores[0][j] {
			e += sc.EMSeconds
			v += sc.VBSeconds
		}
		for _, r := range ss.ais[j][0] {
			a += r.Seconds
		}
		s.SetMetric("seconds_all_structures_n480.em", e)
		s.SetMetric("seconds_all_structures_n480.vb", v)
		s.SetMetric("seconds_all_structures_n480.ais_run", a)
		intro += fmt.Sprintf("; all 136 structures at n = 480: EM %.1f s, VBEM %.1f s, one AIS run %.1f s (thesis, MATLAB on a 1 GHz PIII: 200, 575, 55000 s)", e, v, a)
	}
	if len(ss.exactT) > 0 {
		intro += fmt.Sprintf("; exact enumeration at n = %d: %.3f s per structure", c.ExactN, results.Mean(ss.exactT))
	}
	vbBetter := count(ss.m, func(j int) bool { return ss.rank(0, j, "VB") <= rankOf(ss.aisScores(j, -1), ss.truth) })
	s.SetMetric("sizes_vb_rank_le_ais_rank", float64(vbBetter))
	finding = fmt.Sprintf("Timing (wall seconds on the shared 2-core machine): per structure and size EM %.4f s, VBEM %.4f s, one AIS run (K = %d) %.3f s; AIS^(%d) costs %.0f× VB. VB ranked the true structure at least as well as AIS^(%d) at %d of %d sizes.",
		em, vbm, c.AIS.Steps, am, G, am*float64(G)/vbm, G, vbBetter, ss.m)
	return intro + ".", finding
}

// claims records the thesis's claims, the findings of the failed checks,
// the timing finding and the departures of the config from the thesis.
func (ss *singleSummary) claims(timing string) {
	c, s, cr := ss.c, ss.s, ss.crit
	s.Claims = []results.Claim{
		{Artifact: "Figure 6.2", Figures: []string{"fig6_2"}, Checks: ids(cr.fig62),
			Statement: "MAP rises with the number of parameters, BIC and BICp fall steeply, CS less; VB and AIS show no trend, and AIS^(5) lies above the VB bound for most structures (lines 4726-4741)."},
		{Artifact: "Table 6.1, Figure 6.3", Figures: []string{"fig6_3"}, Checks: ids(cr.table61),
			Statement: "VB ranks the true structure better than BIC, BICp and CS for almost all n, and all of VB, CS, BICp and AIS rank it first at n = 10240; the alias correction never worsens a rank (lines 4749-4783)."},
		{Artifact: "Figure 6.4", Figures: []string{"fig6_4"}, Checks: ids(cr.fig64),
			Statement: "The score difference between the true and the top structure is much smaller for VB than for CS, BICp and BIC (line 4786)."},
		{Artifact: "Figures 6.11, 6.12, Tables 6.3, 6.4", Figures: []string{"fig6_11", "fig6_12"}, Checks: ids(cr.fig611, cr.fig612, cr.table63, cr.table64),
			Statement: "The MH acceptance falls roughly linearly in ln n and from the first to the last quarter of the schedule; single AIS runs rank erratically and fall below the VB bound ever more often as n grows, pooling five runs repairs much of it (lines 4874-4920)."},
		{Artifact: "section 6.6", Checks: ids(cr.sec66),
			Statement: "Over all scored structures VB fell below CS in only 173 of 288320 cases (0.06%), and never when started from the CS point (Corollary 2.5, line 5031)."},
		// Beyond the thesis, the check Table 6.4 makes against the VB bound
		// made against the truth: named after Table 6.4 so that the report
		// shows its extension check beside the table's.
		{Artifact: "Table 6.4", Figures: []string{"fig_exact"}, Checks: ids(cr.exact),
			Statement: "Beyond the thesis (targets §3.14): at n = 10 the exact marginal likelihood of every structure is computable by enumeration; VB* and CS* lie below it (Theorem 2.3), and AIS^(5) is within 3 nats of it for at least 90% of the structures."},
		{Artifact: "section 6.4.1, computation time", Checks: []string{},
			Statement: "VB costs a small multiple of EM (575 s against 200 s for all structures at n = 480) and a small fraction of AIS (55000 s per run), at a reliability AIS matches only near K = 5000 (line 4870)."},
	}
	s.AddFindingsFromChecks(map[string]string{
		"table6.4-violations-small-n": "Single AIS runs are the weak point (targets §3.9).",
		"fig6.2-ais-above-vb":         "AIS is poorly mixed at small n (targets §3.14).",
	})
	s.Findings = append(s.Findings, timing)
	if c.AIS.Steps != 16384 {
		s.Findings = append(s.Findings, fmt.Sprintf("AIS ran with K = %d annealing steps, not the thesis's 16384 (line 4722); its violations of the VB bound (Table 6.4) depend on K.", c.AIS.Steps))
	}
	if c.Scores.EMStop != "thesis" {
		s.Findings = append(s.Findings, fmt.Sprintf("EM ran with the stop rule %q, not the thesis's (an increase below %g·n per iteration, at most %d iterations), which stops it on slow plateaus.",
			c.Scores.EMStop, c.Scores.TolPerDatum, c.Scores.MaxIterations))
	}
	if !strings.EqualFold(c.Model.TrueCode, dag.TrueCode.String()) {
		s.Findings = append(s.Findings, fmt.Sprintf("The true structure is %s, not the reconstruction 1332 of Fig. 6.1.", c.Model.TrueCode))
	}
}
