package plots

import (
	"math"
	"testing"

	"gonum.org/v1/plot"
)

func TestTickLabel(t *testing.T) {
	for _, c := range []struct {
		v, step float64
		want    string
	}{
		{25, 2.5, "25"},
		{2.5, 2.5, "2.5"},
		{0.25, 0.25, "0.25"},
		{-0.1, 0.1, "-0.1"},
		{0.1 + 0.2, 0.1, "0.3"},
		{1e-17, 0.5, "0"},
		{-40, 20, "-40"},
		{1234.5, 0.5, "1234.5"},
		{1.5e6, 5e5, "1.5e6"},
		{2e-5, 1e-5, "2e-5"},
		{7, 0, "7"},
		{0.125, math.NaN(), "0.125"},
	} {
		if got := TickLabel(c.v, c.step); got != c.want {
			t.Errorf("TickLabel(%v, %v) = %q, want %q", c.v, c.step, got, c.want)
		}
	}
}

// TestTicksShortest checks that the default ticker of linear axes never
// prints trailing zeros, on ranges whose step is 2.5 × 10ᵏ (where
// plot.DefaultTicks prints "25.00") and others.
func TestTicksShortest(t *testing.T) {
	for _, r := range [][2]float64{{0, 100}, {0, 10}, {0, 1}, {-3, 3}, {0, 0.25}, {-1234, -1100}, {0.001, 0.004}} {
		ticks := Ticks{}.Ticks(r[0], r[1])
		var labels []string
		for _, tk := range ticks {
			if tk.Label == "" {
				continue
			}
			labels = append(labels, tk.Label)
			if l := tk.Label; len(l) > 1 && (l[len(l)-1] == '0' && containsDot(l) || l[len(l)-1] == '.') {
				t.Errorf("range %v: label %q has trailing zeros", r, l)
			}
		}
		if len(labels) < 2 {
			t.Errorf("range %v: labels %v, want at least two", r, labels)
		}
	}
	// The range that shows the defect of plot.DefaultTicks.
	var def []string
	for _, tk := range (plot.DefaultTicks{}).Ticks(0, 100) {
		if tk.Label != "" {
			def = append(def, tk.Label)
		}
	}
	var got []string
	for _, tk := range (Ticks{}).Ticks(0, 100) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	t.Logf("plot.DefaultTicks: %v; Ticks: %v", def, got)
}

func containsDot(s string) bool {
	for _, c := range s {
		if c == '.' {
			return true
		}
	}
	return false
}

func TestNewPlotUsesTicks(t *testing.T) {
	p, _, err := Lines(Axes{}, Series{X: []float64{0, 1}, Y: []float64{0, 100}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.X.Tick.Marker.(Ticks); !ok {
		t.Errorf("x marker %T, want plots.Ticks", p.X.Tick.Marker)
	}
	if _, ok := p.Y.Tick.Marker.(Ticks); !ok {
		t.Errorf("y marker %T, want plots.Ticks", p.Y.Tick.Marker)
	}
}

// TestLogLabelsSpread checks that a log axis spanning less than a decade
// never labels 0.9 beside 1 (Figure 5.8(c): the labels overlapped).
func TestLogLabelsSpread(t *testing.T) {
	var labels []string
	for _, tk := range (Log10Ticks{}).Ticks(0.88, 3.3) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	for _, l := range labels {
		if l == "0.9" {
			t.Errorf("labels %v: 0.9 beside 1", labels)
		}
	}
	if len(labels) < 2 {
		t.Errorf("labels %v, want at least two", labels)
	}
}

func TestIntegerTicks(t *testing.T) {
	for _, r := range [][2]float64{{1, 2}, {1, 12}, {0, 5}, {2, 3}, {1, 100}} {
		var labels []string
		for _, tk := range (IntegerTicks{}).Ticks(r[0], r[1]) {
			if tk.Value != math.Round(tk.Value) {
				t.Errorf("range %v: tick at %v", r, tk.Value)
			}
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if len(labels) < 2 {
			t.Errorf("range %v: labels %v, want at least two", r, labels)
		}
	}
}
