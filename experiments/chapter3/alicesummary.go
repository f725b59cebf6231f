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

// checker adds checks to a summary, skipping (with a warning) those whose
// points were not run, as under -quick. When na is set (the text is not the
// thesis's verified Alice extraction), the checks that describe the
// thesis's data are reported as not applicable with na as the reason.
type checker struct {
	s       *results.Summary
	skipped []string
	na      string
}

// dataIndependent lists the prefixes of the checks that hold on any text.
var dataIndependent = []string{"A k=1:"}

func (c *checker) add(name string, ok bool, pass bool, value float64, target string) {
	if c.na != "" && !slices.ContainsFunc(dataIndependent, func(p string) bool { return strings.HasPrefix(name, p) }) {
		c.s.AddCheckNA(name, target, c.na)
		return
	}
	if !ok {
		c.skipped = append(c.skipped, name)
		c.s.Checks = append(c.s.Checks, results.Check{Name: name, Value: math.NaN(), Target: target, NotApplicable: true,
			Why: "not computed: the settings it needs were not run (e.g. under -quick)"})
		return
	}
	c.s.AddCheck(name, pass, value, target)
}

func aliceSummary(env *experiments.Env, c *AliceConfig, d *aliceData, out []AliceCellResult, dataChecks []results.Check) (*results.Summary, error) {
	a := aggregate(out)
	if err := results.WriteCSV(env.Path("points.csv"), *pointsTable(a)); err != nil {
		return nil, err
	}
	s := &results.Summary{Experiment: c.Experiment, ConfigHash: env.Hash, Quick: env.Quick}
	ck := &checker{s: s}
	for _, r := range env.DataRecords() {
		if r.File == c.Data.File && !r.Checked {
			ck.na = "the text is not the thesis's verified Alice extraction"
		}
	}
	c0 := c.Canonical
	N0, K0, U0 := c0.N, c0.K, c0.U0
	med := a.median

	// Metrics required by the interface (medians at the canonical point).
	for _, m := range []struct{ name, method, score string }{
		{"disc_vb_canonical", "VB", "disc"}, {"disc_map_canonical", "MAP", "disc"}, {"disc_ml_canonical", "ML", "disc"},
		{"lp_vb_canonical", "VB", "lp_per_symbol"}, {"lp_map_canonical", "MAP", "lp_per_symbol"},
		{"lp_ml_canonical", "ML", "lp_per_symbol"}, {"lp_ml_floored_canonical", "ML", "lp_per_symbol_floored"},
		{"disc_vbbound_canonical", "VBbound", "disc"}, {"lp_vbbound_canonical", "VBbound", "lp_per_symbol"},
	} {
		v, _ := med(N0, K0, U0, m.method, m.score)
		s.SetMetric(m.name, v)
	}
	for _, m := range []struct{ name, method string }{{"disc_vb_u0_8", "VB"}, {"disc_map_u0_8", "MAP"}} {
		v, _ := med(N0, K0, 8, m.method, "disc")
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

	// Tier A.
	for _, dc := range dataChecks {
		s.AddCheck(dc.Name, dc.Pass, dc.Value, dc.Target)
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
	s.AddCheck("A every ML, MAP and VB run ends without a decrease of its objective (runs violating)", bad == 0, bad, "= 0")
	s.AddCheck("A MAP, VB and VB-bound test log probabilities are finite (non-finite values)", nonFinite == 0, float64(nonFinite), "= 0")

	points := c.Points()
	mlBelow, mlBelowN := 0, 0
	for _, p := range points {
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
	ck.add("A C1: ML median lp/sym (floored) below MAP and VB at every point (points where it is)", mlBelowN > 0, mlBelow == mlBelowN,
		float64(mlBelow), fmt.Sprintf("= %d", mlBelowN))
	worstML, okML := math.Inf(-1), false
	for _, n := range c.Grid.N {
		if n > 4 {
			continue
		}
		if v, ok := med(n, K0, U0, "ML", "disc"); ok {
			worstML, okML = math.Max(worstML, v), true
		}
	}
	ck.add("A ML median discrimination for n <= 4 (largest)", okML, worstML <= 0.6, worstML, "<= 0.6")

	ns := append([]int(nil), c.Grid.N...)
	sort.Ints(ns)
	nMin, nMax := ns[0], ns[len(ns)-1]
	for _, m := range []string{"MAP", "VB"} {
		lo, ok1 := med(nMin, K0, U0, m, "lp_per_symbol")
		hi, ok2 := med(nMax, K0, U0, m, "lp_per_symbol")
		ck.add(fmt.Sprintf("A %s lp/sym gain from n=%d to n=%d (k=%d, u0=%g)", m, nMin, nMax, K0, U0), ok1 && ok2 && nMax >= 32 && nMin <= 1,
			hi-lo >= 0.5, hi-lo, ">= 0.5")
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
		ck.add(fmt.Sprintf("A %s lp/sym local decreases > 0.02 along the n slice", m), have && len(ns) >= 3, drops <= 1, float64(drops), "<= 1")
	}
	mp, ok1 := med(nMax, K0, U0, "MAP", "lp_per_symbol")
	v, ok2 := med(nMax, K0, U0, "VB", "lp_per_symbol")
	ck.add(fmt.Sprintf("A C4: |MAP - VB| lp/sym at n=%d", nMax), ok1 && ok2 && nMax >= 32, math.Abs(mp-v) <= 0.1, math.Abs(mp-v), "<= 0.1")
	for _, m := range []string{"ML", "MAP", "VB"} {
		x, ok := med(N0, 1, U0, m, "disc")
		ck.add(fmt.Sprintf("A k=1: %s discrimination is chance (unigram models tie)", m), ok, math.Abs(x-0.5) <= 0.005, x, "0.5 ± 0.005")
	}
	x, ok := med(N0, K0, U0, "VB", "disc")
	ck.add("A VB median discrimination at the canonical point", ok, x >= 0.85, x, ">= 0.85")
	worstVB, okVB := math.Inf(1), false
	for _, n := range ns {
		if n < 4 {
			continue
		}
		if v, ok := med(n, K0, U0, "VB", "disc"); ok {
			worstVB, okVB = math.Min(worstVB, v), true
		}
	}
	ck.add("A VB median discrimination for n >= 4 (smallest)", okVB, worstVB >= 0.9, worstVB, ">= 0.9")
	for _, m := range []string{"MAP", "VB"} {
		lo, ok1 := med(N0, K0, U0, m, "lp_per_symbol")
		hi, ok2 := med(N0, K0, 8, m, "lp_per_symbol")
		ck.add(fmt.Sprintf("A C6: %s lp/sym lower at u0=8 than at u0=%g (difference)", m, U0), ok1 && ok2 && U0 != 8, hi < lo, hi-lo, "< 0")
	}

	// Tier B at the canonical u0 and at the diagnostic u0.
	for _, u := range tierBU0s(c) {
		tierB(ck, a, c, u)
	}
	// C6, second part, on the u0 slice.
	found, foundU := false, math.NaN()
	anyU := false
	for _, u := range c.Grid.U0 {
		mp, ok1 := med(N0, K0, u, "MAP", "disc")
		v, ok2 := med(N0, K0, u, "VB", "disc")
		if ok1 && ok2 && u <= 8 {
			anyU = true
			if mp <= 0.6 && v >= 0.85 && !found {
				found, foundU = true, u
			}
		}
	}
	ck.add("B C6: some u0 <= 8 where MAP discrimination <= 0.6 while VB >= 0.85 (first such u0)", anyU, found, foundU, "exists (thesis: u0 = 2)")
	if c.Mode == "grid" {
		tierBGrid(ck, a, c)
	}
	c8(ck, s, out, c, d)

	if len(ck.skipped) > 0 {
		s.Warnf("%d checks not computed because their settings were not run (e.g. under -quick): %s", len(ck.skipped), strings.Join(ck.skipped, "; "))
	}
	s.Claims = aliceClaims
	gap := "At the thesis's canonical u0 = 2 MAP and VB are nearly indistinguishable; the MAP/VB gap of Figure 3.4 appears at u0 = 8 (fig3_4_u0_8, the diagnostic checks), as the targets' independent prototype also found."
	s.AddFindingsFromChecks(map[string]string{"B C3": gap, "B C5": gap, "B C6": gap})
	return s, nil
}

func tierBU0s(c *AliceConfig) []float64 {
	us := []float64{c.Canonical.U0}
	if c.DiagnosticU0 > 0 && c.DiagnosticU0 != c.Canonical.U0 {
		us = append(us, c.DiagnosticU0)
	}
	return us
}

// tierB computes the thesis's claims C2, C3, C5 (and, at u0 = 8, the
// prototype's diagnostic) on the n and k slices at prior strength u.
func tierB(ck *checker, a agg, c *AliceConfig, u float64) {
	N0, K0 := c.Canonical.N, c.Canonical.K
	med := a.median
	tag := fmt.Sprintf("(u0=%g)", u)
	ok, all := true, true
	worst := math.Inf(1)
	for _, n := range []int{1, 2} {
		v, ok1 := med(n, K0, u, "VB", "lp_per_symbol")
		mp, ok2 := med(n, K0, u, "MAP", "lp_per_symbol")
		if !ok1 || !ok2 {
			ok = false
			continue
		}
		worst = math.Min(worst, v-mp)
		all = all && v > mp
	}
	ck.add("B C2: VB lp/sym > MAP at n in {1,2} (smallest VB - MAP) "+tag, ok, all, worst, "> 0")

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
	frac := float64(wins) / float64(max(total, 1))
	ck.add("B C3: fraction of slice points where VB discrimination >= MAP "+tag, total > 0, frac >= 0.7, frac, ">= 0.7")

	v60, ok1 := med(N0, 60, u, "VB", "disc")
	m60, ok2 := med(N0, 60, u, "MAP", "disc")
	ck.add("B C5: VB - MAP discrimination at k=60 "+tag, ok1 && ok2, v60-m60 >= 0.05, v60-m60, ">= 0.05")
	l60, ok3 := med(N0, 60, u, "VB", "lp_per_symbol")
	l20, ok4 := med(N0, 20, u, "VB", "lp_per_symbol")
	ck.add("B C5: VB lp/sym at k=60 minus at k=20 "+tag, ok3 && ok4, l60 < l20, l60-l20, "< 0")

	if u != 8 {
		return
	}
	okK, passK := false, true
	for _, k := range []int{20, 40, 60} {
		mp, ok1 := med(N0, k, u, "MAP", "disc")
		v, ok2 := med(N0, k, u, "VB", "disc")
		if ok1 && ok2 {
			okK = true
			passK = passK && mp <= 0.65 && v >= 0.85
		}
	}
	ck.add("B diagnostic (u0=8): MAP disc <= 0.65 and VB >= 0.85 for k in {20,40,60}", okK, passK, b2f(passK), "1")
	okN, passN := false, true
	minGap := math.Inf(1)
	for _, n := range c.Grid.N {
		mp, ok1 := med(n, K0, u, "MAP", "disc")
		v, ok2 := med(n, K0, u, "VB", "disc")
		if !ok1 || !ok2 {
			continue
		}
		okN = true
		minGap = math.Min(minGap, v-mp)
		passN = passN && v >= mp-0.01
		if n <= 2 {
			passN = passN && v >= mp+0.2
		}
	}
	ck.add("B diagnostic (u0=8): VB disc >= MAP - 0.01 at every n and >= MAP + 0.2 at n <= 2 (smallest VB - MAP)", okN, passN, minGap, "see name")
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

// tierBGrid computes C7 on the full grid: the smallest n at which MAP's
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
	ck.add("B C7: smallest n with MAP discrimination > 0.75 is non-decreasing in u0 ("+strings.Join(onsets, ", ")+")", true, mono, b2f(mono), "1")
}

// c8 lists the test sentences VB misclassifies at the canonical point and
// checks claim C8: they are short (median length below the test set's),
// like "alas", "pat", "oh", "oh dear" (L2184).
func c8(ck *checker, s *results.Summary, out []AliceCellResult, c *AliceConfig, d *aliceData) {
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
		ck.add("B C8", false, false, 0, "")
		return
	}
	var lens []float64
	var all []float64
	var list []string
	for i, txt := range d.sentences {
		all = append(all, float64(len(txt)))
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
	ck.add("B C8: median length of the test sentences VB misclassifies in most repeats (canonical point)", len(lens) > 0,
		mlen < results.Median(all), mlen, fmt.Sprintf("< %g (test set median)", results.Median(all)))
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
	ck.add(fmt.Sprintf("B C8: of the thesis's examples alas, pat, oh, oh dear, misclassified: [%s]", strings.Join(which, ", ")), true,
		named > 0, float64(named), ">= 1")
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// aliceScorecardIntro explains the tiers of the Alice checks in scorecard.md.
const aliceScorecardIntro = "Tier A: correctness and robust trends (must pass); Tier B: the thesis's claims (reported)."
