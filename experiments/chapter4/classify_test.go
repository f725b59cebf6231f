package chapter4

import (
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// TestClassifyConstantPixels runs the VB and BIC searches of the digit-0
// images of cell psi1e-05-n050-r01 of digits-classify.toml (the thesis's
// settings), whose 50 images leave 15 of the 62 pixels constant. Both must
// end normally. With ν* of those pixels set from a variance of rounding
// size (about 1e33; mfa's default prior, TestDefaultMeanPrior) the VB
// search ended bound-decreased after 92 iterations: F fell by 0.115 nats in
// the first iteration after its fifth birth, in the updates of q(Λ̃).
func TestClassifyConstantPixels(t *testing.T) {
	train, labels := readOptdigits(t, OptdigitsTrain)
	test, _ := readOptdigits(t, OptdigitsTest)
	ztr, _, _, err := numeric.Standardise(train, test, numeric.DropConstant)
	if err != nil {
		t.Fatal(err)
	}
	c := DefaultClassify()
	if err := config.Load(configPath("digits-classify.toml"), false, &c); err != nil {
		t.Fatal(err)
	}
	const size, rep, digit = 50, 1, 0
	d := DigitSplit{Train: ztr, TrainLabels: labels}
	rows, err := c.cellRows(d, size, rep)
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.fitClass(classImages(d, rows, digit), c.PsiMins[0], size, rep, digit, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		method, status string
		iterations     int
	}{{"VB", m.vbStatus, m.vbIt}, {"BIC", m.mlStatus, m.mlIt}} {
		if st, err := vb.ParseStatus(r.status); err != nil || !st.OK() {
			t.Errorf("digit %d of cell n = %d, repetition %d: %s search status %s after %d iterations", digit, size, rep, r.method, r.status, r.iterations)
		}
	}
}

// TestJudgeSearches: the statuses of every search are counted in the
// summary, and any abnormal one fails the check.
func TestJudgeSearches(t *testing.T) {
	var s results.Summary
	judgeSearches(&s, fMonotone, []string{"converged", "iteration-limit", "iteration-limit", "bound-decreased", "failed", ""})
	want := map[string]float64{"searches_converged": 1, "searches_iteration_limit": 2, "searches_bound_decreased": 1,
		"searches_failed": 1, "searches_not_finite": 0, "searches_canceled": 0}
	if len(s.Metrics) != len(want) {
		t.Errorf("metrics %v, want %v", s.Metrics, want)
	}
	for k, v := range want {
		if got, ok := s.Metrics[k]; !ok || got != v {
			t.Errorf("metric %s = %v (present %v), want %v", k, got, ok, v)
		}
	}
	if len(s.Checks) != 1 || s.Checks[0].Pass || s.Checks[0].Value != 3 ||
		s.Checks[0].Name != fMonotone.Text+" (1 bound-decreased, 1 failed, 1 without a status)" {
		t.Errorf("checks %+v, want f-monotone failing with 3", s.Checks)
	}
	s = results.Summary{}
	judgeSearches(&s, fMonotone, []string{"converged", "iteration-limit"})
	if len(s.Checks) != 1 || !s.Checks[0].Pass || s.Checks[0].Value != 0 || s.Checks[0].Name != fMonotone.Text {
		t.Errorf("checks %+v, want f-monotone passing with 0", s.Checks)
	}
}

// TestClassifyStatusFails: one search that ended bound-decreased, VB or
// BIC, at a floor the other checks leave out, fails f-monotone of
// chapter4/digits-classify.
func TestClassifyStatusFails(t *testing.T) {
	c := DefaultClassify()
	c.Sizes, c.PsiMins = []int{30, 60}, []float64{1e-5, 1e-2}
	var cells []ClassifyCell
	for _, psi := range c.PsiMins {
		for _, n := range c.Sizes {
			cell := ClassifyCell{PsiMin: psi, Size: n, VBAccuracy: 0.9, BICAccuracy: 0.8}
			for range OptdigitsClasses {
				cell.VBComponents, cell.BICComponents = append(cell.VBComponents, 1), append(cell.BICComponents, 1)
				cell.VBStatuses = append(cell.VBStatuses, vb.Converged.String())
				cell.BICStatuses = append(cell.BICStatuses, vb.IterationLimit.String())
			}
			cells = append(cells, cell)
		}
	}
	for _, method := range []string{"", "vb", "bic"} {
		cs := slices.Clone(cells)
		last := &cs[len(cs)-1] // floor 1e-2
		last.VBStatuses, last.BICStatuses = slices.Clone(last.VBStatuses), slices.Clone(last.BICStatuses)
		switch method {
		case "vb":
			last.VBStatuses[3] = vb.BoundDecreased.String()
		case "bic":
			last.BICStatuses[3] = vb.BoundDecreased.String()
		}
		_, s := classifySummary(&c, cs, OptdigitsPixels)
		ch, ok := s.CheckByID(fMonotone.ID)
		if bad := method != ""; !ok || ch.Pass == bad || s.Metrics["searches_bound_decreased"] != float64(b2i(bad)) {
			t.Errorf("bound-decreased in %q: check %+v (present %v), metrics %v", method, ch, ok, s.Metrics)
		}
		if got := s.Metrics["searches_converged"] + s.Metrics["searches_iteration_limit"] + s.Metrics["searches_bound_decreased"]; got != 2*float64(len(cs)*OptdigitsClasses) {
			t.Errorf("%q: %v searches counted, want %d", method, got, 2*len(cs)*OptdigitsClasses)
		}
	}
}
