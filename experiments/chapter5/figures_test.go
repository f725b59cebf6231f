package chapter5

import (
	"math"
	"testing"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/plots"
)

// TestEmptiestCorner: the legend goes where the points are not.
func TestEmptiestCorner(t *testing.T) {
	// Points crowd the bottom left and the top right (Figure 5.5's
	// extinct and surviving dimensions), a few in the top left.
	s := plots.Series{X: []float64{-10, -10, -9, -9, 0, 0.5, 1, -10}, Y: []float64{-10, -9, -10, -9, 1, 1, 0.5, 1}}
	p := plot.New()
	emptiestCorner(p, []plots.Series{s})
	if p.Legend.Top || p.Legend.Left {
		t.Errorf("legend top %v, left %v; want the bottom right", p.Legend.Top, p.Legend.Left)
	}
	s.X = append(s.X, 1, 1, 0.8)
	s.Y = append(s.Y, -10, -9, -10)
	emptiestCorner(p, []plots.Series{s})
	if !p.Legend.Top || !p.Legend.Left {
		t.Errorf("legend top %v, left %v; want the top left (one point there, more elsewhere)", p.Legend.Top, p.Legend.Left)
	}
	emptiestCorner(p, []plots.Series{{X: []float64{math.Inf(-1), 0}, Y: []float64{0, math.NaN()}}})
	if !p.Legend.Top || p.Legend.Left {
		t.Error("no finite point: the legend should stay at the top right")
	}
}

func TestPerSeedText(t *testing.T) {
	if got := perSeedText([]int{108, 105, 101}); got != "108, 105, 101 (median 105)" {
		t.Errorf("got %q", got)
	}
	if got := perSeedText([]int{51}); got != "51" {
		t.Errorf("one seed: got %q", got)
	}
	if got := perSeedText([]int{3, 4}); got != "3, 4 (median 3.5)" {
		t.Errorf("two seeds: got %q", got)
	}
}
