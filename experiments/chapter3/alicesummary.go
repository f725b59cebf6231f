package chapter3

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// key addresses one aggregated series value.
type key struct {
	N      int
	K      int
	U0     float64
	Method string
	Score  string
}

// agg holds the values of one score over repeats.
type agg map[key][]float64

func aggregate(out []AliceCellResult) agg {
	a := agg{}
	for _, r := range out {
		for _, s := range r.Scores {
			k := key{r.N, r.K, float64(s.U0), s.Method, s.Score}
			a[k] = append(a[k], float64(s.Value))
		}
	}
	return a
}

// median returns the median over repeats, and false when the point was not
// run.
func (a agg) median(n, k int, u0 float64, method, score string) (float64, bool) {
	v, ok := a[key{n, k, u0, method, score}]
	if !ok || len(v) == 0 {
		return math.NaN(), false
	}
	return results.Quantile(v, 0.5), true
}

// pointsTable is the per-setting aggregate that Figure 3.4 is drawn from.
func pointsTable(a agg) *results.Table {
	t := results.NewTable("n", "k", "u0", "method", "score", "median", "q25", "q75", "mean", "count")
	keys := make([]key, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y key) int {
		return cmp.Or(comparePoints(Point{x.N, x.K, x.U0}, Point{y.N, y.K, y.U0}), cmp.Compare(x.Method, y.Method), cmp.Compare(x.Score, y.Score))
	})
	for _, k := range keys {
		v := a[k]
		var mean float64
		for _, x := range v {
			mean += x
		}
		mean /= float64(len(v))
		t.AddRow(k.N, k.K, k.U0, k.Method, k.Score, results.Quantile(v, 0.5), results.Quantile(v, 0.25), results.Quantile(v, 0.75), mean, len(v))
	}
	return t
}

// checker judges the criteria of Figure 3.4, not judging (with a warning)
// those whose points were not run, as under -quick. When na is set (the
// text is not the thesis's verified Alice extraction), the criteria that
// describe the thesis's data are not judged, with na as the reason.
type checker struct {
	s       *results.Summary
	skipped []string
	na      string
}

// crit returns the criterion id of the summary's table.
func (k *checker) crit(id string) results.Criterion { return k.s.Criteria.Get(id) }

// judge records criterion c with the measured value v, or why it is not
// judged: the data is not the thesis's (na), or ok is false (the settings
// it needs were not run).
func (k *checker) judge(c results.Criterion, ok bool, v float64, detail ...string) {
	if k.na != "" && !slices.Contains(aliceDataIndependent, results.BaseID(c.ID)) {
		k.s.NotJudged(c, k.na)
		return
	}
	if !ok {
		k.skipped = append(k.skipped, c.Text)
		k.s.NotJudged(c, "not computed: the settings it needs were not run (e.g. under -quick)")
		return
	}
	k.s.Judge(c, v, detail...)
}

func aliceSummary(env *experiments.Env, c *AliceConfig, d *aliceData, out []AliceCellResult) (*results.Summary, error) {
	a := aggregate(out)
	if err := results.WriteCSV(env.Path("points.csv"), *pointsTable(a)); err != nil {
		return nil, err
	}
	s := &results.Summary{Experiment: c.Experiment, ConfigHash: env.Hash, Quick: env.Quick, Criteria: aliceCriteria(c, d)}
	ck := &checker{s: s}
	for _, r := range env.DataRecords() {
		if r.File == c.Data.File && !r.Checked {
			ck.na = "the text is not the thesis's verified Alice extraction"
		}
	}
	aliceMetrics(s, a, c, d, out)
	tierA(ck, a, c, d)
	tierAC6(ck, a, c)
	// Tier B at the canonical u0 and at the diagnostic u0.
	us := tierBU0s(c)
	for _, u := range us {
		tierB(ck, a, c, u)
	}
	if !slices.Contains(us, 8) {
		for _, id := range []string{"fig3.4-diagnostic-k", "fig3.4-diagnostic-n"} {
			ck.s.NotJudged(ck.crit(id), "needs the slices at u0 = 8 (diagnostic_u0 = 8)")
		}
	}
	tierBC6(ck, a, c)
	if c.Mode == "grid" {
		tierBGrid(ck, a, c)
	} else {
		ck.s.NotJudged(ck.crit("fig3.4-c7-map-onset"), `needs every (n, u0) of the grid (mode = "grid", alice-grid-full.toml)`)
	}
	c8(ck, s, out, c, d)

	if len(ck.skipped) > 0 {
		s.Warnf("%d checks not computed because their settings were not run (e.g. under -quick): %s", len(ck.skipped), strings.Join(ck.skipped, "; "))
	}
	s.Claims = aliceClaims(s.Criteria)
	gap := "At the thesis's canonical u0 = 2 MAP and VB are nearly indistinguishable; the MAP/VB gap of Figure 3.4 appears at u0 = 8 (fig3_4_u0_8, the diagnostic checks), as the targets' independent prototype also found."
	s.AddFindingsFromChecks(map[string]string{"fig3.4-c3-vb-disc-ge-map": gap, "fig3.4-c5-disc-k60": gap, "fig3.4-c5-lp-k60-k20": gap, "fig3.4-c6-disc-u0": gap})
	return s, nil
}

// aliceMetrics sets the metrics of the interface: the medians at the
// canonical point (and at u0 = 8), the cells and the test symbols.
func aliceMetrics(s *results.Summary, a agg, c *AliceConfig, d *aliceData, out []AliceCellResult) {
	N0, K0, U0 := c.Canonical.N, c.Canonical.K, c.Canonical.U0
	for _, m := range []struct{ name, method, score string }{
		{"disc_vb_canonical", "VB", "disc"}, {"disc_map_canonical", "MAP", "disc"}, {"disc_ml_canonical", "ML", "disc"},
		{"lp_vb_canonical", "VB", "lp_per_symbol"}, {"lp_map_canonical", "MAP", "lp_per_symbol"},
		{"lp_ml_canonical", "ML", "lp_per_symbol"}, {"lp_ml_floored_canonical", "ML", "lp_per_symbol_floored"},
		{"disc_vbbound_canonical", "VBbound", "disc"}, {"lp_vbbound_canonical", "VBbound", "lp_per_symbol"},
	} {
		v, _ := a.median(N0, K0, U0, m.method, m.score)
		s.SetMetric(m.name, v)
	}
	for _, m := range []struct{ name, method string }{{"disc_vb_u0_8", "VB"}, {"disc_map_u0_8", "MAP"}} {
		v, _ := a.median(N0, K0, 8, m.method, "disc")
		s.SetMetric(m.name, v)
	}
	s.SetMetric("cells", float64(len(out)))
	s.SetMetric("test_symbols", float64(d.testSymbols))
	var secs []float64
	for _, r := range out {
		secs = append(secs, r.Seconds)
	}
	s.SetMetric("cell_seconds_median", results.Median(secs))
	s.SetMetric("cell_seconds_total", results.Sum(secs))
}

// tierA judges tier A on the slices through the canonical point: the data
// checksums, no decrease of any objective, finite scores, ML's overfitting
// (C1), the trends in n (C4), chance at k = 1 and VB's discrimination.
func tierA(ck *checker, a agg, c *AliceConfig, d *aliceData) {
	for _, sc := range d.checksums {
		cr := ck.crit("fig3.4-data-sha256").For(sc.part)
		if sc.off {
			ck.s.NotJudged(cr, sc.key+` is "": the sentences were not checked`)
		} else {
			ck.judge(cr, true, float64(sc.sentences))
		}
	}
	bad, nonFinite := 0.0, 0
	for k, v := range a {
		if k.Score == "bad_runs" {
			bad += results.Sum(v)
		}
		if (k.Method == "MAP" || k.Method == "VB" || k.Method == "VBbound") && strings.HasPrefix(k.Score, "lp_per_symbol") {
			for _, x := range v {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					nonFinite++
				}
			}
		}
	}
	ck.judge(ck.crit("fig3.4-monotone"), true, bad)
	ck.judge(ck.crit("fig3.4-finite"), true, float64(nonFinite))

	N0, K0, U0 := c.Canonical.N, c.Canonical.K, c.Canonical.U0
	med := a.median
	mlBelow, mlBelowN := 0, 0
	for _, p := range c.Points() {
		ml, ok1 := med(p.N, p.K, p.U0, "ML", "lp_per_symbol_floored")
		mp, ok2 := med(p.N, p.K, p.U0, "MAP", "lp_per_symbol")
		v, ok3 := med(p.N, p.K, p.U0, "VB", "lp_per_symbol")
		if ok1 && ok2 && ok3 {
			mlBelowN++
			if ml < mp && ml < v {
				mlBelow++
			}
		}
	}
	ck.judge(ck.crit("fig3.4-c1-ml-below"), mlBelowN > 0, float64(mlBelow))
	worstML, okML := math.Inf(-1), false
	for _, n := range c.Grid.N {
		if n > 4 {
			continue
		}
		if v, ok := med(n, K0, U0, "ML", "disc"); ok {
			worstML, okML = math.Max(worstML, v), true
		}
	}
	ck.judge(ck.crit("fig3.4-ml-disc-small-n"), okML, worstML)

	ns := append([]int(nil), c.Grid.N...)
	sort.Ints(ns)
	nMin, nMax := ns[0], ns[len(ns)-1]
	for _, m := range []string{"MAP", "VB"} {
		lo, ok1 := med(nMin, K0, U0, m, "lp_per_symbol")
		hi, ok2 := med(nMax, K0, U0, m, "lp_per_symbol")
		ck.judge(as(ck.crit("fig3.4-lp-gain").For(m), fmt.Sprintf("A %s lp/sym gain from n=%d to n=%d (k=%d, u0=%g)", m, nMin, nMax, K0, U0)),
			ok1 && ok2 && nMax >= 32 && nMin <= 1, hi-lo)
		drops := 0
		prev, have := math.NaN(), false
		for _, n := range ns {
			v, ok := med(n, K0, U0, m, "lp_per_symbol")
			if !ok {
				continue
			}
			if have && v < prev-0.02 {
				drops++
			}
			prev, have = v, true
		}
		ck.judge(as(ck.crit("fig3.4-lp-drops").For(m), fmt.Sprintf("A %s lp/sym local decreases > 0.02 along the n slice", m)),
			have && len(ns) >= 3, float64(drops))
	}
	mp, ok1 := med(nMax, K0, U0, "MAP", "lp_per_symbol")
	v, ok2 := med(nMax, K0, U0, "VB", "lp_per_symbol")
	ck.judge(ck.crit("fig3.4-c4-map-vb-lp"), ok1 && ok2 && nMax >= 32, math.Abs(mp-v))
	for _, m := range []string{"ML", "MAP", "VB"} {
		x, ok := med(N0, 1, U0, m, "disc")
		ck.judge(as(ck.crit("fig3.4-k1-chance").For(m), fmt.Sprintf("A k=1: %s discrimination is chance (unigram models tie)", m)), ok, x)
	}
	x, ok := med(N0, K0, U0, "VB", "disc")
	ck.judge(ck.crit("fig3.4-vb-disc-canonical"), ok, x)
	worstVB, okVB := math.Inf(1), false
	for _, n := range ns {
		if n < 4 {
			continue
		}
		if v, ok := med(n, K0, U0, "VB", "disc"); ok {
			worstVB, okVB = math.Min(worstVB, v), true
		}
	}
	ck.judge(ck.crit("fig3.4-vb-disc-large-n"), okVB, worstVB)
}

// tierAC6 judges the first part of claim C6: a stronger prior (u0 = 8)
// lowers MAP's and VB's test log probability.
func tierAC6(ck *checker, a agg, c *AliceConfig) {
	N0, K0, U0 := c.Canonical.N, c.Canonical.K, c.Canonical.U0
	for _, m := range []string{"MAP", "VB"} {
		lo, ok1 := a.median(N0, K0, U0, m, "lp_per_symbol")
		hi, ok2 := a.median(N0, K0, 8, m, "lp_per_symbol")
		ck.judge(as(ck.crit("fig3.4-c6-lp-u0").For(m), fmt.Sprintf("A C6: %s lp/sym lower at u0=8 than at u0=%g (difference)", m, U0)),
			ok1 && ok2 && U0 != 8, hi-lo)
	}
}

func tierBU0s(c *AliceConfig) []float64 {
	us := []float64{c.Canonical.U0}
	if c.DiagnosticU0 > 0 && c.DiagnosticU0 != c.Canonical.U0 {
		us = append(us, c.DiagnosticU0)
	}
	return us
}

// tierB judges the thesis's claims C2, C3, C5 (and, at u0 = 8, the
// prototype's diagnostic) on the n and k slices at prior strength u. The
// thesis states them at its canonical u0 (L2169); at another u (the
// diagnostic u0 of targets §4 item 22) they are claims of ours.
func tierB(ck *checker, a agg, c *AliceConfig, u float64) {
	N0, K0 := c.Canonical.N, c.Canonical.K
	med := a.median
	tag := fmt.Sprintf("u0=%g", u)
	crit := func(id string) results.Criterion {
		cr := ck.crit(id).For(tag)
		if u != c.Canonical.U0 {
			cr = cr.AsExtension()
		}
		return cr
	}
	ok := true
	worst := math.Inf(1)
	for _, n := range []int{1, 2} {
		v, ok1 := med(n, K0, u, "VB", "lp_per_symbol")
		mp, ok2 := med(n, K0, u, "MAP", "lp_per_symbol")
		if !ok1 || !ok2 {
			ok = false
			continue
		}
		worst = math.Min(worst, v-mp)
	}
	ck.judge(crit("fig3.4-c2-vb-lp-small-n"), ok, worst)

	wins, total := 0, 0
	for _, p := range slicePoints(c, u) {
		v, ok1 := med(p.N, p.K, p.U0, "VB", "disc")
		mp, ok2 := med(p.N, p.K, p.U0, "MAP", "disc")
		if ok1 && ok2 {
			total++
			if v >= mp {
				wins++
			}
		}
	}
	ck.judge(crit("fig3.4-c3-vb-disc-ge-map"), total > 0, float64(wins)/float64(max(total, 1)))

	v60, ok1 := med(N0, 60, u, "VB", "disc")
	m60, ok2 := med(N0, 60, u, "MAP", "disc")
	ck.judge(crit("fig3.4-c5-disc-k60"), ok1 && ok2, v60-m60)
	l60, ok3 := med(N0, 60, u, "VB", "lp_per_symbol")
	l20, ok4 := med(N0, 20, u, "VB", "lp_per_symbol")
	ck.judge(crit("fig3.4-c5-lp-k60-k20"), ok3 && ok4, l60-l20)
	if u == 8 {
		diagnostic(ck, a, c, u)
	}
}

// diagnostic judges the targets' prototype's diagnostic at u0 = 8: MAP is
// near chance while VB discriminates well for k in {20, 40, 60}, and VB is
// no worse than MAP at any n, far better at n <= 2.
func diagnostic(ck *checker, a agg, c *AliceConfig, u float64) {
	N0, K0 := c.Canonical.N, c.Canonical.K
	okK, badK := false, 0
	for _, k := range []int{20, 40, 60} {
		mp, ok1 := a.median(N0, k, u, "MAP", "disc")
		v, ok2 := a.median(N0, k, u, "VB", "disc")
		if ok1 && ok2 {
			okK = true
			if !(mp <= 0.65 && v >= 0.85) {
				badK++
			}
		}
	}
	ck.judge(ck.crit("fig3.4-diagnostic-k"), okK, float64(badK))
	okN, badN := false, 0
	for _, n := range c.Grid.N {
		mp, ok1 := a.median(n, K0, u, "MAP", "disc")
		v, ok2 := a.median(n, K0, u, "VB", "disc")
		if !ok1 || !ok2 {
			continue
		}
		okN = true
		if !(v >= mp-0.01) || n <= 2 && !(v >= mp+0.2) {
			badN++
		}
	}
	ck.judge(ck.crit("fig3.4-diagnostic-n"), okN, float64(badN))
}

// tierBC6 judges the second part of claim C6 on the u0 slice: some prior
// strength u0 <= 8 leaves MAP near chance while VB discriminates well (the
// thesis: u0 = 2).
func tierBC6(ck *checker, a agg, c *AliceConfig) {
	N0, K0 := c.Canonical.N, c.Canonical.K
	foundU, anyU := math.NaN(), false
	for _, u := range c.Grid.U0 {
		mp, ok1 := a.median(N0, K0, u, "MAP", "disc")
		v, ok2 := a.median(N0, K0, u, "VB", "disc")
		if ok1 && ok2 && u <= 8 {
			anyU = true
			if mp <= 0.6 && v >= 0.85 && math.IsNaN(foundU) {
				foundU = u
			}
		}
	}
	ck.judge(ck.crit("fig3.4-c6-disc-u0"), anyU, foundU)
}

// slicePoints are the points of the n and k slices at prior strength u,
// plus the u0 slice.
func slicePoints(c *AliceConfig, u float64) []Point {
	var ps []Point
	seen := map[Point]bool{}
	addp := func(p Point) {
		if !seen[p] {
			seen[p] = true
			ps = append(ps, p)
		}
	}
	for _, n := range c.Grid.N {
		addp(Point{n, c.Canonical.K, u})
	}
	for _, k := range c.Grid.K {
		addp(Point{c.Canonical.N, k, u})
	}
	if u == c.Canonical.U0 {
		for _, uu := range c.Grid.U0 {
			addp(Point{c.Canonical.N, c.Canonical.K, uu})
		}
	}
	return ps
}

// tierBGrid judges C7 on the full grid: the smallest n at which MAP's
// discrimination exceeds 0.75 (at the canonical k) does not decrease as u0
// grows.
func tierBGrid(ck *checker, a agg, c *AliceConfig) {
	ns := append([]int(nil), c.Grid.N...)
	sort.Ints(ns)
	us := append([]float64(nil), c.Grid.U0...)
	sort.Float64s(us)
	prev := -1
	mono := true
	var onsets []string
	for _, u := range us {
		onset := math.MaxInt
		for _, n := range ns {
			if v, ok := a.median(n, c.Canonical.K, u, "MAP", "disc"); ok && v > 0.75 {
				onset = n
				break
			}
		}
		if onset < prev {
			mono = false
		}
		prev = onset
		if onset == math.MaxInt {
			onsets = append(onsets, fmt.Sprintf("u0=%g: never", u))
		} else {
			onsets = append(onsets, fmt.Sprintf("u0=%g: n=%d", u, onset))
		}
	}
	ck.judge(ck.crit("fig3.4-c7-map-onset"), true, b2f(mono), strings.Join(onsets, ", "))
}

// c8 lists the test sentences VB misclassifies at the canonical point and
// judges claim C8: they are short (median length below the test set's),
// like "alas", "pat", "oh", "oh dear" (L2184).
func c8(ck *checker, s *results.Summary, out []AliceCellResult, c *AliceConfig, d *aliceData) {
	short, examples := ck.crit("fig3.4-c8-short"), ck.crit("fig3.4-c8-examples")
	u := results.FormatFloat(c.Canonical.U0)
	nt := len(d.sentences)
	wrong := make([]int, nt)
	repeats := 0
	for _, r := range out {
		cr, ok := r.Outcomes[u]
		if !ok || r.N != c.Canonical.N || r.K != c.Canonical.K || len(cr) != 2*nt {
			continue
		}
		repeats++
		for i := 0; i < nt; i++ {
			if cr[i] < 1 || cr[nt+i] < 1 {
				wrong[i]++
			}
		}
	}
	if repeats == 0 {
		ck.judge(short, false, math.NaN())
		ck.judge(examples, false, math.NaN())
		return
	}
	var lens []float64
	var list []string
	for i, txt := range d.sentences {
		if 2*wrong[i] > repeats {
			lens = append(lens, float64(len(txt)))
			list = append(list, txt)
		}
	}
	s.Extra = map[string]any{"vb_misclassified_canonical": list}
	mlen := results.Median(lens)
	if len(lens) == 0 {
		mlen = math.NaN()
	}
	s.SetMetric("vb_misclassified_canonical", float64(len(list)))
	ck.judge(short, len(lens) > 0, mlen)
	named := 0
	var which []string
	for _, w := range []string{"alas", "pat", "oh", "oh dear"} {
		for _, l := range list {
			if l == w {
				named++
				which = append(which, w)
			}
		}
	}
	ck.judge(as(examples, fmt.Sprintf("B C8: of the thesis's examples alas, pat, oh, oh dear, misclassified: [%s]", strings.Join(which, ", "))), true, float64(named))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// aliceScorecardIntro explains the tiers of the Alice checks in scorecard.md.
const aliceScorecardIntro = "Tier A: correctness and robust trends (must pass); Tier B: the thesis's claims (reported)."
