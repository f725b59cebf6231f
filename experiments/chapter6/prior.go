package chapter6

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// PriorID is the registry key of the prior-averaged study of section 6.4.2
// (Figs 6.5–6.9, Tables 6.2 and 6.5; targets §3.5, §3.12, §3.13).
const PriorID = "chapter6/prior-average"

// PriorConfig is the config of chapter6/prior-average.
type PriorConfig struct {
	experiments.Common
	Model ModelSettings `toml:"model"`
	// Sizes are the nested data-set sizes.
	Sizes []int `toml:"sizes"`
	// Instances is the number of true models, each with every parameter
	// row drawn from the prior and its own nested data (thesis 106).
	Instances int           `toml:"instances"`
	Scores    ScoreSettings `toml:"scores"`
}

// DefaultPrior returns the settings of targets §3.5.
func DefaultPrior() PriorConfig {
	c := PriorConfig{Common: experiments.Common{Experiment: PriorID, Figures: []string{"fig6.5", "fig6.6", "fig6.7", "fig6.8", "fig6.9", "table6.2", "table6.5"}, Seed: 4242}}
	c.Model = defaultModel()
	c.Sizes = slices.Clone(ThesisSizes)
	c.Instances = 106
	c.Scores = defaultScores()
	return c
}

// Validate checks every key.
func (c *PriorConfig) Validate() error {
	return experiments.FirstError(validateSizes("sizes", c.Sizes), experiments.AtLeast("instances", c.Instances, 1),
		c.Model.validate(), c.Scores.validate())
}

// PriorCell is one (instance, size): the rank of the true structure and
// its score difference Δ = score(m*) − max score under every method of
// Methods, and the bookkeeping of the 136 scorings.
type PriorCell struct {
	Ranks, Deltas []experiments.Float
	// VBBelowCS counts the structures with VB* < CS* (section 6.6).
	VBBelowCS, Scored int
	// Decreased counts scorings with a run stopped by a decrease of its
	// objective; VBLimit those whose VBEM hit max_iter.
	Decreased, VBLimit   int
	EMSeconds, VBSeconds float64
	EMIterSum, VBIterSum int
}

// RunPrior runs every (instance, size) cell and writes the tables,
// summary.json and scorecard.md.
func RunPrior(env *experiments.Env, c *PriorConfig) error {
	sc := newScorer(c.Model, c.Scores, c.Seed)
	_, truth := c.Model.trueCode()
	maxN := c.Sizes[len(c.Sizes)-1]
	type key struct{ inst, size int }
	var keys []key
	var names []string
	var cost []float64
	for i := 0; i < c.Instances; i++ {
		for j, n := range c.Sizes {
			keys = append(keys, key{i, j})
			names = append(names, fmt.Sprintf("i%03d-%s", i, sizeName(n)))
			cost = append(cost, 1e-4+6e-5*patterns(n))
		}
	}
	cells, done, err := experiments.RunCellsOrdered(env, names, cost, func(k int) (PriorCell, error) {
		i, n := keys[k].inst, c.Sizes[keys[k].size]
		inst := strconv.Itoa(i)
		theta := priorParams(c.Model, rng.New(c.Seed, PriorID, "params", inst))
		rows := drawData(c.Model, theta, maxN, rng.New(c.Seed, PriorID, "data", inst))
		ss, err := sc.scoreAll(rows, n, false, PriorID, "restarts", inst, strconv.Itoa(n))
		if err != nil {
			return PriorCell{}, err
		}
		return reduceCell(ss, truth), nil
	})
	if err != nil || env.Shard.Active() {
		return err
	}
	pd := &priorData{c: c, cells: make([][]PriorCell, c.Instances)}
	for i := range pd.cells {
		pd.cells[i] = make([]PriorCell, len(c.Sizes))
	}
	for k, cell := range cells {
		if !done[k] {
			return fmt.Errorf("cell %s did not finish", names[k])
		}
		pd.cells[keys[k].inst][keys[k].size] = cell
		env.AddRun(results.RunRecord{Name: names[k], Status: "ok", WallSeconds: cell.EMSeconds + cell.VBSeconds})
	}
	if err := pd.writeTables(env); err != nil {
		return err
	}
	s, intro := pd.summary()
	return env.WriteSummary(s, intro)
}

// reduceCell keeps what the prior-averaged study needs of 136 scorings.
func reduceCell(ss []StructScore, truth int) PriorCell {
	var cell PriorCell
	for _, m := range Methods {
		v := values(ss, m)
		cell.Ranks = append(cell.Ranks, experiments.Float(rankOf(v, truth)))
		cell.Deltas = append(cell.Deltas, experiments.Float(deltaOf(v, truth)))
	}
	for _, s := range ss {
		cell.EMSeconds += s.EMSeconds
		cell.VBSeconds += s.VBSeconds
		cell.EMIterSum += s.EMIter
		cell.VBIterSum += s.VBIter
		if s.EMStatus == statusDecreased || s.VBStatus == statusDecreased {
			cell.Decreased++
		}
		if s.VBStatus == vb.IterationLimit.String() {
			cell.VBLimit++
		}
		if math.IsNaN(float64(s.VB)) || math.IsNaN(float64(s.CS)) {
			continue
		}
		cell.Scored++
		if s.VB < s.CS {
			cell.VBBelowCS++
		}
	}
	return cell
}

// priorData holds the cells, [instance][size].
type priorData struct {
	c     *PriorConfig
	cells [][]PriorCell
}

// methodIndex returns the position of m in Methods.
func methodIndex(m string) int {
	i := slices.Index(Methods, m)
	if i < 0 {
		panic("chapter6: unknown method " + m)
	}
	return i
}

// ranks returns the true structure's rank under m at size j, one per
// instance.
func (pd *priorData) ranks(j int, m string) []float64 {
	k := methodIndex(m)
	out := make([]float64, len(pd.cells))
	for i := range pd.cells {
		out[i] = float64(pd.cells[i][j].Ranks[k])
	}
	return out
}

// deltas returns Δ under m at size j, one per instance.
func (pd *priorData) deltas(j int, m string) []float64 {
	k := methodIndex(m)
	out := make([]float64, len(pd.cells))
	for i := range pd.cells {
		out[i] = float64(pd.cells[i][j].Deltas[k])
	}
	return out
}

// successes returns the number of instances whose true structure m ranks
// first at size j (Table 6.5).
func (pd *priorData) successes(j int, m string) int {
	r := pd.ranks(j, m)
	return count(len(r), func(i int) bool { return r[i] == 1 })
}

// table62Columns are the competitors of Table 6.2, starred ones compared
// with VB*, the others with VB.
var table62Columns = []string{"BIC*", "BICp*", "CS*", "CSdagger*", "BIC", "BICp", "CS", "CSdagger"}

// thesisTable62 are the thesis's percentages of Table 6.2 (worse, same,
// better), in the order of table62Columns.
var thesisTable62 = [3][8]float64{
	{16.9, 30.2, 31.8, 32.8, 15.1, 29.6, 30.9, 31.9},
	{11.1, 15.0, 20.2, 22.1, 11.7, 15.5, 20.9, 22.2},
	{72.0, 54.8, 48.0, 45.1, 73.2, 55.0, 48.2, 45.9},
}

// table65Methods are the columns of Table 6.5 (alias-corrected scores).
var table65Methods = []string{"BIC", "BICp", "CS", "CSdagger", "VB"}

// thesisTable65 are the thesis's counts of Table 6.5 out of 106, per size
// of ThesisSizes, in the order of table65Methods.
var thesisTable65 = [][5]int{
	{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 1, 1}, {0, 0, 0, 0, 1},
	{0, 0, 1, 2, 3}, {0, 1, 3, 5, 6}, {0, 2, 8, 10, 12}, {1, 5, 8, 9, 11}, {1, 6, 10, 10, 11},
	{3, 7, 12, 12, 15}, {3, 8, 14, 16, 18}, {5, 11, 14, 17, 23}, {7, 15, 22, 23, 29}, {9, 18, 28, 33, 36},
	{11, 19, 32, 33, 40}, {15, 24, 38, 41, 48}, {35, 41, 59, 62, 66}, {56, 63, 76, 76, 80}, {73, 79, 82, 83, 84},
}

// table62 returns the percentages of (instance, size) cases in which VB
// ranks the true structure worse, the same and better than each column of
// table62Columns.
func (pd *priorData) table62() [3][8]float64 {
	var out [3][8]float64
	for k, x := range table62Columns {
		v := "VB"
		if x[len(x)-1] == '*' {
			v = "VB*"
		}
		var w, s, b, n int
		for j := range pd.c.Sizes {
			rv, rx := pd.ranks(j, v), pd.ranks(j, x)
			for i := range rv {
				if math.IsNaN(rv[i]) || math.IsNaN(rx[i]) {
					continue
				}
				n++
				switch {
				case rv[i] > rx[i]:
					w++
				case rv[i] == rx[i]:
					s++
				default:
					b++
				}
			}
		}
		out[0][k] = 100 * float64(w) / float64(n)
		out[1][k] = 100 * float64(s) / float64(n)
		out[2][k] = 100 * float64(b) / float64(n)
	}
	return out
}

var rankFigMethods = []string{"BIC", "BICp", "CS", "VB"}

func (pd *priorData) writeTables(env *experiments.Env) error {
	c := pd.c
	ct := results.NewTable("instance", "n", "method", "rank", "delta")
	for i := range pd.cells {
		for j, n := range c.Sizes {
			for k, m := range Methods {
				ct.AddRow(i, n, m, float64(pd.cells[i][j].Ranks[k]), float64(pd.cells[i][j].Deltas[k]))
			}
		}
	}
	st := results.NewTable("n", "method", "instances", "median_rank", "best_rank", "successes", "success_rate", "median_delta", "q40_delta", "q60_delta", "max_delta")
	for j, n := range c.Sizes {
		for _, m := range Methods {
			r, d := pd.ranks(j, m), pd.deltas(j, m)
			rk, _ := results.DropNaN(r)
			dk, _ := results.DropNaN(d)
			best := math.NaN()
			if len(rk) > 0 {
				best = slices.Min(rk)
			}
			mx := math.NaN()
			if len(dk) > 0 {
				mx = slices.Max(dk)
			}
			succ := pd.successes(j, m)
			st.AddRow(n, m, c.Instances, results.Median(rk), best, succ, float64(succ)/float64(c.Instances),
				results.Median(dk), results.Quantile(dk, 0.4), results.Quantile(dk, 0.6), mx)
		}
	}
	t62 := results.NewTable(append([]string{"vb_ranks"}, colNames(table62Columns)...)...)
	tab := pd.table62()
	for r, name := range []string{"worse", "same", "better"} {
		row := []any{name}
		for k := range table62Columns {
			row = append(row, tab[r][k])
		}
		t62.AddRow(row...)
	}
	t65 := results.NewTable(append([]string{"n"}, colNames(table65Methods)...)...)
	for j, n := range c.Sizes {
		row := []any{n}
		for _, m := range table65Methods {
			row = append(row, pd.successes(j, m))
		}
		t65.AddRow(row...)
	}
	tt := results.NewTable("n", "em_seconds", "vb_seconds", "em_iter_mean", "vb_iter_mean", "vb_at_iteration_limit", "vb_below_cs")
	for j, n := range c.Sizes {
		var em, vbs float64
		var ei, vi, lim, below, scored int
		for i := range pd.cells {
			cl := pd.cells[i][j]
			em += cl.EMSeconds
			vbs += cl.VBSeconds
			ei += cl.EMIterSum
			vi += cl.VBIterSum
			lim += cl.VBLimit
			below += cl.VBBelowCS
			scored += cl.Scored
		}
		den := float64(c.Instances * dag.NumCandidates)
		tt.AddRow(n, em, vbs, float64(ei)/den, float64(vi)/den, lim, below)
	}
	for _, f := range []struct {
		name string
		t    *results.Table
	}{{"prior_ranks.csv", ct}, {"prior_summary.csv", st}, {"table6_2.csv", t62}, {"table6_5.csv", t65}, {"timing.csv", tt}} {
		if err := results.WriteCSV(env.Path(f.name), *f.t); err != nil {
			return err
		}
	}
	return nil
}

// colNames returns the CSV column names of methods.
func colNames(ms []string) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = column(m)
	}
	return out
}

// summary computes the metrics and the acceptance criteria of targets
// §3.5, §3.12 (Table 6.5) and §3.13.
func (pd *priorData) summary() (*results.Summary, string) {
	c := pd.c
	s := &results.Summary{Lists: map[string][]float64{}}
	m := len(c.Sizes)
	I := c.Instances
	sizes := make([]float64, m)
	for j, n := range c.Sizes {
		sizes[j] = float64(n)
	}
	s.Lists["sizes"] = sizes
	med := func(j int, meth string) float64 { r, _ := results.DropNaN(pd.ranks(j, meth)); return results.Median(r) }
	medD := func(j int, meth string) float64 {
		d, _ := results.DropNaN(pd.deltas(j, meth))
		return results.Median(d)
	}
	maxD := func(j int, meth string) float64 { d, _ := results.DropNaN(pd.deltas(j, meth)); return slices.Max(d) }
	best := func(j int, meth string) float64 { r, _ := results.DropNaN(pd.ranks(j, meth)); return slices.Min(r) }
	for _, meth := range Methods {
		mr, sr := make([]float64, m), make([]float64, m)
		for j := range c.Sizes {
			mr[j], sr[j] = med(j, meth), float64(pd.successes(j, meth))
		}
		s.Lists["median_rank."+meth] = mr
		s.Lists["successes."+meth] = sr
		// Issue 11's interface: <method>_success_rate, the fraction of
		// (instance, size) pairs ranking the true structure first.
		if name, ok := interfaceName(meth); ok {
			var tot float64
			for _, v := range sr {
				tot += v
			}
			s.SetMetric(name+"_success_rate", tot/float64(I*m))
		}
	}
	inst := fmt.Sprintf("%d instances", I)
	thesis := slices.Equal(c.Sizes, ThesisSizes)
	atN := func(n int) int { return indexOf(c.Sizes, n) }

	dec, lim, below, scored := 0, 0, 0, 0
	var emT, vbT float64
	for i := range pd.cells {
		for _, cl := range pd.cells[i] {
			dec += cl.Decreased
			lim += cl.VBLimit
			below += cl.VBBelowCS
			scored += cl.Scored
			emT += cl.EMSeconds
			vbT += cl.VBSeconds
		}
	}
	s.AddCheck("EM and VBEM objectives never decrease (structure scorings with a run stopped by a decrease)", dec == 0, float64(dec), "= 0")
	total := float64(I * m * dag.NumCandidates)
	s.SetMetric("vb_iteration_limit_fraction", float64(lim)/total)

	// Figure 6.5.
	for _, x := range []struct {
		m string
		k int
	}{{"BIC", 18}, {"BICp", 16}, {"CS", 12}} {
		k := count(m, func(j int) bool { return med(j, "VB") <= med(j, x.m) })
		s.AddCheck(fmt.Sprintf("Fig 6.5: sizes with median rank VB ≤ %s (%s)", x.m, inst), k >= need(x.k, m), float64(k), fmt.Sprintf(">= %d of %d", need(x.k, m), m))
	}
	// Table 6.2.
	tab := pd.table62()
	bw := count(8, func(k int) bool { return tab[2][k] > tab[0][k] })
	s.AddCheck("Table 6.2: columns where VB ranks better more often than worse", bw == 8, float64(bw), "= 8")
	worstDev := 0.0
	for r := 0; r < 3; r++ {
		for k := 0; k < 8; k++ {
			worstDev = math.Max(worstDev, math.Abs(tab[r][k]-thesisTable62[r][k]))
		}
	}
	if thesis {
		s.AddCheck("Table 6.2: largest deviation from the thesis's percentages (points)", worstDev <= 10, worstDev, "<= 10")
	} else {
		s.AddCheckNA("Table 6.2: largest deviation from the thesis's percentages (points)", "<= 10", "sizes differ from the thesis's 20")
	}
	order := 0
	for h := 0; h < 2; h++ {
		for k := 0; k < 3; k++ {
			if tab[2][4*h+k] >= tab[2][4*h+k+1]-3 {
				order++
			}
		}
	}
	s.AddCheck("Table 6.2: 'better' ordered BIC ≥ BICp ≥ CS ≥ CS† in both halves, 3-point slack (pairs in order)", order == 6, float64(order), "= 6")
	for k, x := range table62Columns {
		s.SetMetric("table6_2.better."+x, tab[2][k])
		s.SetMetric("table6_2.same."+x, tab[1][k])
		s.SetMetric("table6_2.worse."+x, tab[0][k])
	}
	// Figure 6.6.
	for _, x := range []string{"BIC", "BICp", "CS"} {
		k := count(m, func(j int) bool { return math.Abs(medD(j, "VB")) < math.Abs(medD(j, x)) })
		s.AddCheck(fmt.Sprintf("Fig 6.6: sizes with |median Δ_VB| < |median Δ_%s| (%s)", x, inst), k >= need(16, m), float64(k), fmt.Sprintf(">= %d of %d", need(16, m), m))
	}
	// Figure 6.7.
	// firstOne is the smallest n at which some instance ranks the true
	// structure first, 0 if none does.
	firstOne := func(meth string) float64 {
		for j, n := range c.Sizes {
			if best(j, meth) == 1 {
				return float64(n)
			}
		}
		return 0
	}
	for _, x := range []struct {
		m   string
		lim float64
	}{{"VB", 160}, {"CS", 320}, {"BICp", 480}, {"BIC", 800}} {
		f := firstOne(x.m)
		s.AddCheck(fmt.Sprintf("Fig 6.7: smallest n at which some instance ranks the true structure first by %s (%s; 0: never)", x.m, inst), f > 0 && f <= x.lim, f, fmt.Sprintf("in [1, %g]", x.lim))
	}
	b, bp := firstOne("BIC"), firstOne("BICp")
	early := math.Min(b, bp)
	if b == 0 || bp == 0 {
		early = math.Max(b, bp)
	}
	s.AddCheck("Fig 6.7: smallest n at which BIC or BICp ranks the true structure first (0: never)", early == 0 || early > 110, early, "0 or > 110")
	s.SetMetric("random_best_rank_baseline", expectedBestRandomRank(dag.NumCandidates, I))
	// Figure 6.8.
	k8 := count(m, func(j int) bool { return maxD(j, "VB") >= maxD(j, "BIC") })
	s.AddCheck(fmt.Sprintf("Fig 6.8: sizes with max Δ_VB ≥ max Δ_BIC (%s)", inst), k8 >= need(16, m), float64(k8), fmt.Sprintf(">= %d of %d", need(16, m), m))

	// Table 6.5.
	totals := map[string]float64{}
	for _, meth := range table65Methods {
		for j := range c.Sizes {
			totals[meth] += float64(pd.successes(j, meth))
		}
		s.SetMetric("table6_5.total."+meth, totals[meth])
	}
	ordered := totals["VB"] >= totals["CSdagger"] && totals["CSdagger"] >= totals["CS"] && totals["CS"] >= totals["BICp"] && totals["BICp"] >= totals["BIC"]
	s.AddCheck("Table 6.5: totals ordered VB ≥ CS† ≥ CS ≥ BICp ≥ BIC", ordered, b2f(ordered), "1")
	scale := float64(I) / 106
	if thesis {
		worstRel := 0.0
		for k, meth := range table65Methods {
			var th float64
			for _, row := range thesisTable65 {
				th += float64(row[k])
			}
			worstRel = math.Max(worstRel, math.Abs(totals[meth]-th*scale)/(th*scale))
		}
		s.AddCheck(fmt.Sprintf("Table 6.5: largest relative deviation of a total from the thesis's (scaled by %d/106)", I), worstRel <= 0.3, worstRel, "<= 0.3")
	} else {
		s.AddCheckNA("Table 6.5: largest relative deviation of a total from the thesis's", "<= 0.3", "sizes differ from the thesis's 20")
	}
	if j := atN(10240); j >= 0 {
		dev := 0.0
		for k, meth := range table65Methods {
			dev = math.Max(dev, math.Abs(float64(pd.successes(j, meth))-float64(thesisTable65[19][k])*scale))
		}
		tol := 15 * math.Sqrt(scale)
		s.AddCheck(fmt.Sprintf("Table 6.5: largest deviation of a count from the thesis's at n = 10240 (scaled by %d/106)", I), dev <= tol, dev, fmt.Sprintf("<= %.3g", tol))
	} else {
		s.AddCheckNA("Table 6.5: largest deviation of a count from the thesis's at n = 10240", "<= 15", "n = 10240 not run")
	}
	small := 0
	for j, n := range c.Sizes {
		if n <= 40 {
			for _, meth := range table65Methods {
				small = max(small, pd.successes(j, meth))
			}
		}
	}
	s.AddCheck("Table 6.5: largest count at n ≤ 40", small <= 2, float64(small), "<= 2")
	fall := 0.0
	for _, meth := range table65Methods {
		v := make([]float64, m)
		for j := range c.Sizes {
			v[j] = float64(pd.successes(j, meth))
		}
		fall = math.Max(fall, largestFall(v))
	}
	s.AddCheck("Table 6.5: counts non-decreasing in n (largest fall)", fall <= 3, fall, "<= 3")
	kd := count(m, func(j int) bool { return pd.successes(j, "CSdagger") >= pd.successes(j, "CS") })
	s.AddCheck("Table 6.5: sizes with CS† count ≥ CS count", kd >= need(17, m), float64(kd), fmt.Sprintf(">= %d of %d", need(17, m), m))

	// §6.6.
	frac := float64(below) / float64(max(scored, 1))
	s.SetMetric("vb_below_cs.count", float64(below))
	s.SetMetric("vb_below_cs.scores", float64(scored))
	s.AddCheck(fmt.Sprintf("§6.6: fraction of the %d scores with VB* < CS*", scored), frac < 0.01, frac, "< 0.01")
	if !thesis {
		s.Warnf("sizes differ from the thesis's 20: counts of sizes in the checks are scaled from 20 to %d", m)
	}

	emPer, vbPer := emT/total, vbT/total
	s.SetMetric("seconds_per_score.em", emPer)
	s.SetMetric("seconds_per_score.vb", vbPer)
	s.SetMetric("seconds_per_instance.em", emT/float64(I))
	s.SetMetric("seconds_per_instance.vb", vbT/float64(I))
	intro := fmt.Sprintf("Checks of targets ch6-dag.md §3.5, §3.12 (Table 6.5) and §3.13 over %d true models drawn from the prior. "+
		"Mean wall seconds per score (one structure, one size, %d restarts): EM with every EM-derived score %.4f, VBEM %.4f (thesis, Athlon 1800: 1.1 and 1.9); "+
		"per instance (all structures and sizes): EM %.0f s, VBEM %.0f s (thesis 2.4 h and 4.2 h).",
		I, c.Scores.Restarts, emPer, vbPer, emT/float64(I), vbT/float64(I))
	s.Claims = []results.Claim{
		{Artifact: "Figure 6.5", Figures: []string{"fig6_5"}, Checks: []string{"Fig 6.5"},
			Statement: "Over 106 true models from the prior, VB's median rank of the true structure is for the most part better than BIC's, BICp's and CS's, though CS is better in a region of n (line 4803)."},
		{Artifact: "Table 6.2", Checks: []string{"Table 6.2"},
			Statement: "VB ranks the true structure better than each competitor more often than worse, corrected or not (72-73% better than BIC, 55% than BICp, 48% than CS, 45-46% than CS†)."},
		{Artifact: "Figures 6.6-6.8", Figures: []string{"fig6_6", "fig6_7", "fig6_8"}, Checks: []string{"Fig 6.6", "Fig 6.7", "Fig 6.8"},
			Statement: "VB's score of the true structure is much closer to the top score than the others'; VB and CS reach rank 1 at small n, BICp and BIC only beyond 300-400 points."},
		{Artifact: "Figure 6.9, Table 6.5", Figures: []string{"fig6_9"}, Checks: []string{"Table 6.5"},
			Statement: "VB picks the true structure most often at every n, then CS†, CS, BICp and BIC (484, 433, 407, 299 and 219 of 2120)."},
		{Artifact: "section 6.6", Checks: []string{"§6.6"},
			Statement: "VB fell below CS in only 173 of 288320 scores (0.06%) (line 5031)."},
	}
	s.AddFindingsFromChecks(nil)
	s.Findings = append(s.Findings, fmt.Sprintf("Timing: %.4f s per EM score and %.4f s per VB score (ratio %.2f; thesis 1.1 s and 1.9 s, ratio 1.7); %.2f%% of VBEM runs hit max_iter = %d.",
		emPer, vbPer, vbPer/emPer, 100*float64(lim)/total, c.Scores.MaxIter))
	return s, intro
}

func init() {
	experiments.Add(PriorID, "all 136 DAGs scored by BIC, BICp, CS, CS† and VB for true models drawn from the prior (Figs 6.5-6.9, Tables 6.2, 6.5)", DefaultPrior, RunPrior, PlotPrior)
}
