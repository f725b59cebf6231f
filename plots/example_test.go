package plots_test

import (
	"bytes"
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/plots"
)

// A bound trace on a log axis: the zero change at iteration 3 cannot be
// drawn, so Lines drops it and says so instead of failing.
func ExampleLines() {
	trace := plots.Series{
		Name: "ΔF",
		X:    []float64{1, 2, 3, 4, 5},
		Y:    []float64{12, 0.9, 0, 0.02, 0.001},
	}
	p, dropped, err := plots.Lines(plots.Axes{XLabel: "iteration", YLabel: "ΔF (nats)", LogY: true}, trace)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range dropped {
		fmt.Println(d) // a warning for the results manifest
	}
	fmt.Printf("y axis [%g, %g]\n", p.Y.Min, p.Y.Max)
	// Output:
	// plots: series 0 ("ΔF"): dropped 1 point (NaN, ±Inf, or ≤ 0 on a log axis)
	// y axis [0.001, 12]
}

// The squares of a Hinton diagram, in data coordinates: side ∝ √|w|, white
// for positive weights, black for negative, nothing for zero.
func ExampleHinton_Squares() {
	h := plots.NewHinton(mat.NewDense(2, 2, []float64{
		4, -1,
		0, 0.25,
	}))
	for _, s := range h.Squares() {
		sign := "white"
		if s.Color == plots.HintonNegative {
			sign = "black"
		}
		fmt.Printf("row %d col %d: side %.3f %s\n", s.Row, s.Col, s.Side, sign)
	}
	// Output:
	// row 0 col 0: side 0.900 white
	// row 0 col 1: side 0.450 black
	// row 1 col 1: side 0.225 white
}

// A two-panel figure mixing a Hinton diagram and a line plot, rendered to
// SVG bytes that the caller writes out.
func ExampleRender() {
	hint, err := plots.HintonPlot("(a) W", mat.NewDense(3, 3, []float64{1, -2, 0, 0.5, 0, 3, -1, 1, 0}))
	if err != nil {
		log.Fatal(err)
	}
	curve, _, err := plots.Lines(plots.Axes{Title: "(b) F", XLabel: "iteration", YLabel: "F"},
		plots.Series{X: []float64{0, 1, 2, 3}, Y: []float64{-90, -60, -52, -50}})
	if err != nil {
		log.Fatal(err)
	}
	svg, err := plots.Render(plots.Figure{Rows: 1, Cols: 2, Panels: []*plot.Plot{hint, curve}}, "svg")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.HasPrefix(svg, []byte("<?xml")))
	// Output: true
}
