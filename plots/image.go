package plots

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// GrayImage returns a panel that shows the matrix m as a grey-scale image,
// one pixel per entry (row 0 at the top): values at or below lo are white,
// at or above hi black (ink on paper, as digit images are drawn). Axes are
// hidden. It returns an error if m has a non-finite entry or lo ≥ hi.
func GrayImage(title string, m mat.Matrix, lo, hi float64) (*plot.Plot, error) {
	if !(lo < hi) {
		return nil, fmt.Errorf("plots: grey image range [%v, %v] is empty", lo, hi)
	}
	r, c := m.Dims()
	img := image.NewGray(image.Rect(0, 0, c, r))
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v := m.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("plots: grey image entry (%d, %d) is %v", i, j, v)
			}
			t := math.Min(1, math.Max(0, (v-lo)/(hi-lo)))
			img.SetGray(j, i, color.Gray{Y: uint8(math.Round(255 * (1 - t)))})
		}
	}
	p := newPlot(title)
	p.Add(plotter.NewImage(img, 0, 0, float64(c), float64(r)))
	p.HideAxes()
	return p, nil
}

// Empty returns a panel with only its title and no axes, for a cell of a
// grid that has nothing to show but should say so ("1: no analyser").
func Empty(title string) *plot.Plot {
	p := newPlot(title)
	p.HideAxes()
	return p
}
