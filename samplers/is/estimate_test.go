package is

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
)

func TestLogMeanExpAndESS(t *testing.T) {
	// Weights 1, 2, 3: mean 2; ESS = 6²/14 = 18/7.
	lw := []float64{0, math.Log(2), math.Log(3)}
	if got := LogMeanExp(lw); !relClose(got, math.Log(2), 1e-15) {
		t.Errorf("LogMeanExp = %v, want ln 2", got)
	}
	if got := ESS(lw); !relClose(got, 18.0/7, 1e-15) {
		t.Errorf("ESS = %v, want 18/7", got)
	}
	// Shifting every log weight by a constant changes ln Ẑ by it and not the
	// ESS, even far beyond the range of exp.
	for _, c := range []float64{-1e4, 1e4} {
		sh := []float64{lw[0] + c, lw[1] + c, lw[2] + c}
		if got := LogMeanExp(sh); !relClose(got, math.Log(2)+c, 1e-15) {
			t.Errorf("shift %v: LogMeanExp = %v", c, got)
		}
		if got := ESS(sh); !relClose(got, 18.0/7, 1e-12) {
			t.Errorf("shift %v: ESS = %v", c, got)
		}
	}
	if got := ESS([]float64{5, 5, 5, 5}); got != 4 {
		t.Errorf("equal weights: ESS = %v, want 4", got)
	}
	if got := ESS([]float64{0, -800, math.Inf(-1)}); got != 1 {
		t.Errorf("one dominant weight: ESS = %v, want 1", got)
	}
	inf := math.Inf(-1)
	if got := ESS([]float64{inf, inf}); got != 0 {
		t.Errorf("all weights zero: ESS = %v, want 0", got)
	}
	if got := ESS([]float64{0, math.NaN()}); !math.IsNaN(got) {
		t.Errorf("NaN weight: ESS = %v, want NaN", got)
	}
	if !panics(func() { LogMeanExp(nil) }) || !panics(func() { ESS(nil) }) || !panics(func() { Summarize(nil) }) {
		t.Error("empty input did not panic")
	}
}

func TestEstimateKLIsNonNegative(t *testing.T) {
	// Jensen: ln mean w ≥ mean ln w for any sample, with equality iff the
	// weights are equal.
	e := EstimateFrom([]float64{-3, 0.5, 2, -10, 7})
	if !(e.KL() > 0) {
		t.Errorf("KL̂ = %v, want > 0", e.KL())
	}
	if e.N != 5 || !relClose(e.MeanLogW, -3.5/5, 1e-15) {
		t.Errorf("N = %d, MeanLogW = %v", e.N, e.MeanLogW)
	}
	e = EstimateFrom([]float64{2.5, 2.5, 2.5})
	if e.KL() != 0 || e.LogZ != 2.5 || e.ESS != 3 {
		t.Errorf("equal weights: %+v, KL̂ %v", e, e.KL())
	}
}

func TestSummarize(t *testing.T) {
	runs := [][]float64{{0, 1, 2}, {-1, 0.5}, {3, 3, 3, 3}}
	ests := make([]Estimate, len(runs))
	var all []float64
	for i, lw := range runs {
		ests[i] = EstimateFrom(lw)
		all = append(all, lw...)
	}
	s := Summarize(ests)
	// Mean and unbiased SD of the three ln Ẑ_r, computed directly.
	z := []float64{LogMeanExp(runs[0]), LogMeanExp(runs[1]), 3}
	mean := (z[0] + z[1] + z[2]) / 3
	sd := math.Sqrt(((z[0]-mean)*(z[0]-mean) + (z[1]-mean)*(z[1]-mean) + (z[2]-mean)*(z[2]-mean)) / 2)
	if s.Runs != 3 || !relClose(s.Mean, mean, 1e-15) || !relClose(s.SD, sd, 1e-14) || !relClose(s.SE, sd/math.Sqrt(3), 1e-14) {
		t.Errorf("Summary %+v, want mean %v, SD %v", s, mean, sd)
	}
	pooled := EstimateFrom(all)
	if !relClose(s.Pooled, pooled.LogZ, 1e-14) || !relClose(s.MeanLogW, pooled.MeanLogW, 1e-14) {
		t.Errorf("pooled %v, F̂ %v; from all samples %v, %v", s.Pooled, s.MeanLogW, pooled.LogZ, pooled.MeanLogW)
	}
	if !relClose(s.KL(), pooled.KL(), 1e-13) {
		t.Errorf("Summary.KL %v, pooled KL̂ %v", s.KL(), pooled.KL())
	}
	if one := Summarize(ests[:1]); !math.IsNaN(one.SD) || !math.IsNaN(one.SE) || one.Mean != ests[0].LogZ {
		t.Errorf("one run: %+v", one)
	}
}

// TestLogSumAcc checks the one-pass accumulator against numeric.LogSumExp,
// including the special values.
func TestLogSumAcc(t *testing.T) {
	inf := math.Inf(1)
	cases := [][]float64{
		{1, 2, 3},
		{3, 2, 1},
		{-1000, 0, -inf, 700, 699},
		{-inf, -inf},
		{},
		{1, inf, 2},
		{inf, -inf},
		{1, math.NaN()},
	}
	for _, xs := range cases {
		var a logSumAcc
		a.reset()
		for _, x := range xs {
			a.add(x)
		}
		got, want := a.value(), numeric.LogSumExp(xs)
		if !(got == want || math.IsNaN(got) && math.IsNaN(want) || relClose(got, want, 1e-15)) {
			t.Errorf("%v: accumulator %v, LogSumExp %v", xs, got, want)
		}
	}
}

// Moments of three points with weights 1, 2, 1 by hand: coordinate 0 takes
// 0, 4, 8 (mean 16/4 = 4, second moment (0 + 32 + 64)/4 = 24) and
// coordinate 1 takes 1, −1, 3 (mean 2/4, second (1 + 2 + 9)/4 = 3). A common
// shift of the log weights (to near e^−10⁴, which exp alone would
// underflow, or e^700) leaves them unchanged up to the rounding of
// shift + ln 2 (an ulp of 10⁴ is 1.8·10⁻¹², hence the 10⁻¹¹ relative
// tolerance); no finite weight gives ok = false.
func TestMoments(t *testing.T) {
	x := [][]float64{{0, 1}, {4, -1}, {8, 3}}
	for _, shift := range []float64{0, -1e4, 700} {
		lw := []float64{shift, shift + math.Ln2, shift}
		mean, second, ok := Moments(lw, x)
		if !ok {
			t.Fatalf("shift %g: not ok", shift)
		}
		for i, want := range []float64{4, 0.5} {
			if !relClose(mean[i], want, 1e-11) {
				t.Errorf("shift %g: mean[%d] = %v, want %v", shift, i, mean[i], want)
			}
		}
		for i, want := range []float64{24, 3} {
			if !relClose(second[i], want, 1e-11) {
				t.Errorf("shift %g: second[%d] = %v, want %v", shift, i, second[i], want)
			}
		}
	}
	inf := math.Inf(1)
	for _, lw := range [][]float64{{-inf, -inf, -inf}, {0, math.NaN(), 0}, {0, inf, 0}} {
		if _, _, ok := Moments(lw, x); ok {
			t.Errorf("Moments(%v) ok, want not ok", lw)
		}
	}
}
