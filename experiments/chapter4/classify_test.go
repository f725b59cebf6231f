package chapter4

import (
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
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
	ztr, _, _, err := Standardise(train, test)
	if err != nil {
		t.Fatal(err)
	}
	c := DefaultClassify()
	if err := experiments.LoadConfig(configPath("digits-classify.toml"), false, &c); err != nil {
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
	if st, err := vb.ParseStatus(m.status); err != nil || !st.OK() {
		t.Errorf("digit %d of cell n = %d, repetition %d: search status %s after %d VB and %d BIC iterations", digit, size, rep, m.status, m.vbIt, m.mlIt)
	}
}
