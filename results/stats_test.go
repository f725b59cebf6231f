package results

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

func TestQuantile(t *testing.T) {
	// Expected values computed by hand with the type-7 rule h = (n-1)q,
	// Q = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]) on the
	// sorted data; they agree with R's quantile(x, q) (default type = 7).
	xs := []float64{7, 1, 3, 10, 4} // sorted: 1 3 4 7 10
	for _, c := range []struct{ q, want float64 }{
		{0, 1},
		{0.25, 3},    // h = 1
		{0.5, 4},     // h = 2
		{0.75, 7},    // h = 3
		{1, 10},      // h = 4
		{0.1, 1.8},   // h = 0.4: 1 + 0.4*2
		{0.9, 8.8},   // h = 3.6: 7 + 0.6*3
		{0.6, 5.2},   // h = 2.4: 4 + 0.4*3
		{0.33, 3.32}, // h = 1.32: 3 + 0.32*1
	} {
		if got := Quantile(xs, c.q); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Quantile(%v, %v) = %v, want %v", xs, c.q, got, c.want)
		}
	}
	if xs[0] != 7 {
		t.Error("Quantile modified its input")
	}
	even := []float64{4, 1, 2, 3} // sorted 1 2 3 4
	if got := Median(even); got != 2.5 {
		t.Errorf("Median = %v, want 2.5", got)
	}
	// IQR of 1..4: Q(0.75) = 3.25 (h = 2.25), Q(0.25) = 1.75 (h = 0.75).
	if got := IQR(even); got != 1.5 {
		t.Errorf("IQR = %v, want 1.5", got)
	}
	if got := Quantile([]float64{5}, 0.3); got != 5 {
		t.Errorf("Quantile of one value = %v, want 5", got)
	}
	if got := Mean([]float64{1, 2, 3, 10}); got != 4 {
		t.Errorf("Mean = %v, want 4", got)
	}
	for name, got := range map[string]float64{
		"empty median":  Median(nil),
		"empty mean":    Mean(nil),
		"empty IQR":     IQR([]float64{}),
		"NaN in input":  Median([]float64{1, math.NaN(), 3}),
		"-Inf and +Inf": Median([]float64{math.Inf(-1), math.Inf(1)}),
	} {
		if !math.IsNaN(got) {
			t.Errorf("%s: got %v, want NaN", name, got)
		}
	}
	if got := Median([]float64{math.Inf(1), math.Inf(1), 1}); !math.IsInf(got, 1) {
		t.Errorf("median of {1, Inf, Inf} = %v, want +Inf", got)
	}
	if got := Quantile([]float64{1, math.Inf(1)}, 0.5); !math.IsInf(got, 1) {
		t.Errorf("Quantile({1, Inf}, 0.5) = %v, want +Inf", got)
	}
	kept, dropped := DropNaN([]float64{math.NaN(), 2, math.NaN(), 1})
	if dropped != 2 || len(kept) != 2 || kept[0] != 2 || kept[1] != 1 {
		t.Errorf("DropNaN = %v, %d", kept, dropped)
	}
	defer func() {
		if recover() == nil {
			t.Error("Quantile(q = 1.5) did not panic")
		}
	}()
	Quantile(xs, 1.5)
}

func TestDir(t *testing.T) {
	if got := Dir("results", "chapter3/synthetic"); got != "results/chapter3/synthetic" {
		t.Errorf("Dir = %q", got)
	}
	if got := Dir("results/quick", "chapter6/dag"); got != "results/quick/chapter6/dag" {
		t.Errorf("Dir = %q", got)
	}
	if got := ArtifactName("fig3.4"); got != "fig3_4" {
		t.Errorf("ArtifactName = %q", got)
	}
}

func TestRanksSpearmanArgmax(t *testing.T) {
	if got, want := Ranks([]float64{10, 20, 20, 5}), []float64{2, 3.5, 3.5, 1}; !slices.Equal(got, want) {
		t.Errorf("Ranks = %v, want %v", got, want)
	}
	if got, want := Ranks([]float64{3, 3, 3}), []float64{2, 2, 2}; !slices.Equal(got, want) {
		t.Errorf("Ranks of ties = %v, want %v", got, want)
	}
	if got, want := Order([]float64{3, 1, 2, 1}), []int{1, 3, 2, 0}; !slices.Equal(got, want) {
		t.Errorf("Order = %v, want %v (ties in input order)", got, want)
	}
	if got := Ranks(nil); len(got) != 0 {
		t.Errorf("Ranks(nil) = %v", got)
	}
	x := []float64{1, 2, 3, 4, 5}
	for _, c := range []struct {
		y    []float64
		want float64
	}{
		{[]float64{1, 4, 9, 16, 25}, 1},      // monotone, not linear
		{[]float64{5, 4, 3, 2, 1}, -1},       // reversed
		{[]float64{20, 10, 40, 30, 50}, 0.8}, // 1 − 6·Σd²/(n(n²−1)) = 1 − 6·4/120
	} {
		if got := Spearman(x, c.y); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("Spearman(%v, %v) = %v, want %v", x, c.y, got, c.want)
		}
	}
	// Ties: ranks (1, 2, 3, 4) and (1, 2.5, 2.5, 4); Pearson of those is
	// 4.5/√(5·4.5) = 0.9486832980505138.
	if got := Spearman([]float64{1, 2, 3, 4}, []float64{1, 5, 5, 9}); math.Abs(got-0.9486832980505138) > 1e-15 {
		t.Errorf("Spearman with ties = %v", got)
	}
	// Equal to gonum's Correlation of the ranks, bit for bit, on a long
	// series with ties.
	a, b := make([]float64, 200), make([]float64, 200)
	for i := range a {
		a[i], b[i] = float64((i*37)%23), float64((i*11)%41)+0.5*float64(i%3)
	}
	if got, want := Spearman(a, b), stat.Correlation(Ranks(a), Ranks(b), nil); got != want {
		t.Errorf("Spearman = %v, gonum's correlation of the ranks = %v", got, want)
	}
	for name, got := range map[string]float64{
		"one pair":   Spearman([]float64{1}, []float64{2}),
		"no pairs":   Spearman(nil, nil),
		"constant x": Spearman([]float64{1, 1}, []float64{1, 2}),
		"constant y": Spearman([]float64{1, 2, 3}, []float64{7, 7, 7}),
	} {
		if !math.IsNaN(got) {
			t.Errorf("%s: Spearman = %v, want NaN", name, got)
		}
	}
	if got := Argmax([]float64{1, 5, 3, 5}); got != 1 {
		t.Errorf("Argmax = %d, want the first maximum 1", got)
	}
	if got := Argmax(nil); got != 0 {
		t.Errorf("Argmax(nil) = %d", got)
	}
	if got := Argmax([]float64{math.NaN(), 2}); got != 0 {
		t.Errorf("Argmax(NaN, 2) = %d, want 0 (NaN first is kept)", got)
	}
	if got := Sum([]float64{0.5, 1.5, -1}); got != 1 {
		t.Errorf("Sum = %v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Spearman of different lengths did not panic")
		}
	}()
	Spearman([]float64{1, 2}, []float64{1, 2, 3})
}

// TestSignTestP checks the sign test against hand-counted binomial tails:
// P(X ≥ 9 | n = 10) = 11/1024, P(X ≥ 5 | n = 5) = 1/32, P(X ≥ 0) = 1, and
// P(X ≥ 3 | n = 6) = 42/64.
func TestSignTestP(t *testing.T) {
	for _, c := range []struct {
		wins, losses int
		want         float64
	}{{9, 1, 11.0 / 1024}, {5, 0, 1.0 / 32}, {0, 7, 1}, {3, 3, 42.0 / 64}, {0, 0, 1}} {
		if got := SignTestP(c.wins, c.losses); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("SignTestP(%d, %d) = %.15g, want %.15g", c.wins, c.losses, got, c.want)
		}
	}
}
