package chapter6

import (
	"math"
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/plots"
)

// TestFig62TickNote checks that Figure 6.2's title states the y tick
// spacing each row actually uses (the title said 40 nats where the n = 6
// row ticked every 20).
func TestFig62TickNote(t *testing.T) {
	rowsN := []float64{6, 160}
	ranges := [][2]float64{{-75, -10}, {-1380, -930}}
	steps := make([]float64, len(ranges))
	for i, r := range ranges {
		steps[i] = scoreTickStep(r[0], r[1])
		ticks := stepTicks{steps[i]}.Ticks(r[0], r[1])
		if len(ticks) < 2 {
			t.Fatalf("row %d: %d ticks", i, len(ticks))
		}
		for j := 1; j < len(ticks); j++ {
			if d := ticks[j].Value - ticks[j-1].Value; math.Abs(d-steps[i]) > 1e-9 {
				t.Errorf("row %d: ticks %v and %v are %v apart, the note says %v", i, ticks[j-1].Value, ticks[j].Value, d, steps[i])
			}
		}
	}
	if got, want := tickNote(rowsN, steps), "y ticks every 20 nats at n = 6, 40 at n = 160"; got != want {
		t.Errorf("tickNote = %q, want %q", got, want)
	}
	if got, want := tickNote(rowsN, []float64{40, 40}), "y ticks every 40 nats"; got != want {
		t.Errorf("tickNote = %q, want %q", got, want)
	}
}

// TestGranularitySeriesLabelledAndInRange checks Figure 6.10's series:
// every trace is named (the figure had three unlabelled traces), and the
// plot's y range holds every estimate, however low (one ran off the axis).
func TestGranularitySeriesLabelledAndInRange(t *testing.T) {
	from := []string{"true", "true", "prior", "prior", "prior", "prior"}
	trace := []float64{0, 0, 1, 1, 2, 2}
	k := []float64{32, 512, 32, 512, 32, 512}
	logW := []float64{-950, -955, -1150, -1040, -1600, -1070}
	ser, err := granularitySeries(from, trace, k, logW, map[string]float64{"VB*": -986, "BIC": -1032})
	if err != nil {
		t.Fatal(err)
	}
	if len(ser) != 5 {
		t.Fatalf("%d series, want 3 traces and 2 references", len(ser))
	}
	for i, s := range ser {
		if s.Name == "" {
			t.Errorf("series %d has no name", i)
		}
	}
	p, _, err := plots.Lines(plots.Axes{Log2X: true}, ser...)
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Min > slices.Min(logW) || p.Y.Max < slices.Max(logW) {
		t.Errorf("y range [%v, %v] leaves out estimates in [%v, %v]", p.Y.Min, p.Y.Max, slices.Min(logW), slices.Max(logW))
	}
}
