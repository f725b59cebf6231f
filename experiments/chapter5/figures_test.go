package chapter5

import (
	"testing"

	"github.com/vbworkbench/vbw/plots"
)

// TestTrajectoryLegendOffTheData: Figure 5.5's legend goes where the
// trajectories are not (plots.Lines places it with plots.PlaceLegend).
func TestTrajectoryLegendOffTheData(t *testing.T) {
	// Points crowd the bottom left and the top right (Figure 5.5's
	// extinct and surviving dimensions), a few in the top left.
	a := plots.Series{Name: "j=1", X: []float64{-10, -10, -9, -9, -10}, Y: []float64{-10, -9, -10, -9, 1}, Markers: true}
	b := plots.Series{Name: "j=2", X: []float64{0, 0.5, 1, -9.5}, Y: []float64{1, 1, 0.5, 0.8}, Markers: true}
	p, _, err := plots.Lines(plots.Axes{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plots.RenderPlot(p, plots.PanelWidth, plots.PanelHeight, "svg"); err != nil {
		t.Fatal(err)
	}
	if p.Legend.Top || p.Legend.Left {
		t.Errorf("legend top %v, left %v; want the bottom right", p.Legend.Top, p.Legend.Left)
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
