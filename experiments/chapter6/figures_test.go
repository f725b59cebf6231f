package chapter6

import (
	"math"
	"testing"
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
