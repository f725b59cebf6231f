package plots

import (
	"math"
	"strings"
	"testing"
)

func TestStackedBars(t *testing.T) {
	cats := []string{"50", "100", "150"}
	layers := [][]float64{{1, 2, 3}, {2, 2, 2}, {0, 1, 4}}
	p, err := StackedBars(Axes{Title: "t", XLabel: "n", YLabel: "S"}, cats, layers, []string{"0", "1", "2"})
	if err != nil {
		t.Fatal(err)
	}
	// The y range must reach the tallest stack, 3+2+4 = 9.
	if p.Y.Max < 9 || p.Y.Min > 0 {
		t.Errorf("y range [%v, %v], want it to hold [0, 9]", p.Y.Min, p.Y.Max)
	}
	if _, err := RenderPlot(p, PanelWidth, PanelHeight, "svg"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cats   []string
		layers [][]float64
		names  []string
		want   string
	}{
		{nil, layers, nil, "0 categories"},
		{cats, [][]float64{{1, 2}}, nil, "layer 0 has 2 values"},
		{cats, [][]float64{{1, math.NaN(), 2}}, nil, "is NaN"},
		{cats, [][]float64{{1, -1, 2}}, nil, "is -1"},
		{cats, layers, []string{"a"}, "1 names for 3 layers"},
	} {
		_, err := StackedBars(Axes{Title: "bad"}, tc.cats, tc.layers, tc.names)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("StackedBars(%v, %v): error %v, want %q", tc.cats, tc.layers, err, tc.want)
		}
	}
}
