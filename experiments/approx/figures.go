package approx

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// This file redraws the gallery's figures from their CSV files alone.

// methodStyle numbers the methods so that a method has the same line style
// in every figure (exact first, solid).
var methodOrder = []string{mExact, mLaplace, mVB, mEP, mMoments, mFactQP, mFactPQ, mSphereQP, mSpherePQ, mMixture, mVBModeA, mVBModeB, mMeanField, mFactor, mSite, mCavity}

func methodStyle(m string) draw.LineStyle {
	i := slices.Index(methodOrder, m)
	if i < 0 {
		i = len(methodOrder)
	}
	s := plots.LineStyle(i)
	if m == mExact {
		s.Width *= 1.6
	}
	return s
}

// curveSet is one method's curve or grid in one panel.
type curveSet struct {
	method  string
	x, y, z []float64
}

// readPanels reads F_curves.csv or F_grid.csv into panels (in file order)
// of method curves (in file order).
func readPanels(dir, name string, twoD bool) ([]string, map[string][]*curveSet, error) {
	c := results.ReadColumns(filepath.Join(dir, name))
	panels, methods := c.Strings("panel"), c.Strings("method")
	x, dens := c.Floats("x"), c.Floats("density")
	var y []float64
	if twoD {
		y = c.Floats("y")
	}
	if err := c.Err(); err != nil {
		return nil, nil, err
	}
	var order []string
	sets := map[string][]*curveSet{}
	for i := range panels {
		pl, m := panels[i], methods[i]
		ss := sets[pl]
		if ss == nil {
			order = append(order, pl)
		}
		if len(ss) == 0 || ss[len(ss)-1].method != m {
			ss = append(ss, &curveSet{method: m})
			sets[pl] = ss
		}
		cs := ss[len(ss)-1]
		cs.x = append(cs.x, x[i])
		cs.z = append(cs.z, dens[i])
		if twoD {
			cs.y = append(cs.y, y[i])
		}
	}
	return order, sets, nil
}

// plot1D draws F from F_curves.csv: one panel per panel of the file, the
// densities against x; with negLog, a second column of −ln density (PRML
// Figs 10.1 and 10.14, right-hand plots). A panel's title is
// panelTitle(label, k), k = 0 for the densities and 1 for −ln density; a
// nil panelTitle titles it with its label.
func plot1D(dir, stem, title string, cols int, negLog bool, panelTitle func(label string, k int) string) error {
	order, sets, err := readPanels(dir, stem+"_curves.csv", false)
	if err != nil {
		return err
	}
	var ps []*plot.Plot
	for _, pl := range order {
		for k := range 1 + b2i(negLog) {
			ylabel := "density"
			if k == 1 {
				ylabel = "−ln density"
			}
			pt := pl
			if panelTitle != nil {
				pt = panelTitle(pl, k)
			}
			p, _, err := plots.Lines(plots.Axes{Title: pt, XLabel: "z", YLabel: ylabel})
			if err != nil {
				return err
			}
			// The ranges of an empty plot; the lines set them.
			p.X.Min, p.X.Max = math.Inf(1), math.Inf(-1)
			p.Y.Min, p.Y.Max = math.Inf(1), math.Inf(-1)
			for _, cs := range sets[pl] {
				y := cs.z
				if k == 1 {
					y = make([]float64, len(cs.z))
					for i, v := range cs.z {
						y[i] = -math.Log(v)
					}
				}
				if err := addLine(p, cs.method, cs.x, y, k == 1); err != nil {
					return err
				}
			}
			if k == 0 {
				p.Y.Min = 0
			}
			ps = append(ps, p)
		}
	}
	if negLog {
		cols = 2
	}
	return save(dir, stem, title, ps, cols)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// addLine adds one method's curve in its style, with a legend entry;
// with clip, values above 30 (−ln of a vanishing density) are left out.
func addLine(p *plot.Plot, method string, x, y []float64, clip bool) error {
	var xys plotter.XYs
	for i := range x {
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) || clip && y[i] > 30 {
			continue
		}
		xys = append(xys, plotter.XY{X: x[i], Y: y[i]})
	}
	if len(xys) == 0 {
		return nil
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.LineStyle = methodStyle(method)
	p.Add(l)
	p.Legend.Add(method, l)
	return nil
}

// save lays the panels out in cols columns and writes F.svg and F.png.
func save(dir, stem, title string, ps []*plot.Plot, cols int) error {
	rows := (len(ps) + cols - 1) / cols
	w := max(vg.Length(cols)*3.2*vg.Inch, 6.5*vg.Inch) // room for the title
	h := vg.Length(rows)*2.8*vg.Inch + 0.4*vg.Inch
	if cols == 1 {
		h = w * 0.8
	}
	f := plots.Figure{Rows: rows, Cols: cols, Panels: ps, Title: title, Width: w, Height: h}
	return experiments.SaveFigure(dir, stem, f)
}

// grid is a plotter.GridXYZ over a curveSet sampled row by row (x outer).
type grid struct {
	cs *curveSet
	n  int
}

func (g grid) Dims() (c, r int)   { return g.n, g.n }
func (g grid) Z(c, r int) float64 { return g.cs.z[c*g.n+r] }
func (g grid) X(c int) float64    { return g.cs.x[c*g.n] }
func (g grid) Y(r int) float64    { return g.cs.y[r] }

// lineThumb is a legend entry drawn as a short line.
type lineThumb struct{ s draw.LineStyle }

func (t lineThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(t.s, c.Min.X, y, c.Max.X, y)
}

// plot2D draws F from F_table.csv and F_grid.csv: per panel, the contours
// of every method at e^{−k²/2} of its own maximum, k = 1, 2, 3 (the 1, 2
// and 3 standard deviation contours of a Gaussian, PRML Fig. 10.2): a
// Gaussian's as ellipses from its moments in the table, any other
// density's from its grid.
func plot2D(dir, stem, title string, cols int, xlabel, ylabel string) error {
	sets := map[string][]*curveSet{}
	if _, err := os.Stat(filepath.Join(dir, stem+"_grid.csv")); err == nil {
		if _, sets, err = readPanels(dir, stem+"_grid.csv", true); err != nil {
			return err
		}
	}
	tab := results.ReadColumns(filepath.Join(dir, stem+"_table.csv"))
	panels, methods := tab.Strings("panel"), tab.Strings("method")
	mom := floatColumns(tab, "mean_x", "mean_y", "var_x", "var_y", "cov_xy", "gaussian")
	if err := tab.Err(); err != nil {
		return err
	}
	var ps []*plot.Plot
	var p *plot.Plot
	for i, pl := range panels {
		if i == 0 || pl != panels[i-1] {
			p = plot.New()
			p.Title.Text = pl
			p.X.Label.Text, p.Y.Label.Text = xlabel, ylabel
			p.Legend.TextStyle.Font.Size = plots.LegendSize
			ps = append(ps, p)
		}
		// The legend goes where it covers the least of the contours
		// (PlaceLegend): of an ellipse its rings, of a grid density the
		// points inside its outer contour.
		var marks plots.Marks
		m, style := methods[i], methodStyle(methods[i])
		if mom[5][i] == 1 {
			for k := 1; k <= 3; k++ {
				xys, err := ellipse(mom[0][i], mom[1][i], mom[2][i], mom[3][i], mom[4][i], float64(k))
				if err != nil {
					return fmt.Errorf("%s_table.csv: panel %s, %s: %w", stem, pl, m, err)
				}
				l, err := plotter.NewLine(xys)
				if err != nil {
					return err
				}
				l.LineStyle = style
				p.Add(l)
				marks.Lines = append(marks.Lines, xys)
			}
		} else {
			inside, err := addContours(p, sets[pl], m, style)
			if err != nil {
				return fmt.Errorf("%s_grid.csv: panel %s: %w", stem, pl, err)
			}
			marks.Points = append(marks.Points, inside)
		}
		p.Legend.Add(m, lineThumb{style})
		plots.PlaceLegend(p, marks)
	}
	return save(dir, stem, title, ps, cols)
}

// floatColumns reads several float columns.
func floatColumns(c *results.Columns, names ...string) [][]float64 {
	out := make([][]float64, len(names))
	for i, n := range names {
		out[i] = c.Floats(n)
	}
	return out
}

// ellipse returns the k standard deviation contour of N((x, y), [[xx, xy],
// [xy, yy]]) as a closed polyline: centre + k·L(cos t, sin t), L the
// Cholesky factor.
func ellipse(x, y, xx, yy, xy, k float64) (plotter.XYs, error) {
	if !(xx > 0) || !(yy > 0) || xx*yy-xy*xy <= 0 {
		return nil, fmt.Errorf("covariance [[%v %v] [%v %v]] is not positive definite", xx, xy, xy, yy)
	}
	l11 := math.Sqrt(xx)
	l21 := xy / l11
	l22 := math.Sqrt(yy - l21*l21)
	const n = 192
	pts := make(plotter.XYs, n+1)
	for i := range pts {
		t := 2 * math.Pi * float64(i) / n
		c, s := math.Cos(t), math.Sin(t)
		pts[i] = plotter.XY{X: x + k*l11*c, Y: y + k*(l21*c+l22*s)}
	}
	return pts, nil
}

// addContours draws method's grid in sets as contours at e^{−k²/2} of its
// maximum, k = 1, 2, 3, and returns the grid points inside the outer one.
func addContours(p *plot.Plot, sets []*curveSet, method string, style draw.LineStyle) (plotter.XYs, error) {
	for _, cs := range sets {
		if cs.method != method {
			continue
		}
		n := int(math.Round(math.Sqrt(float64(len(cs.z)))))
		if n*n != len(cs.z) {
			return nil, fmt.Errorf("%s: %d points, not a square grid", method, len(cs.z))
		}
		top := slices.Max(cs.z)
		if !(top > 0) {
			return nil, nil
		}
		levels := []float64{top * math.Exp(-4.5), top * math.Exp(-2), top * math.Exp(-0.5)}
		c := plotter.NewContour(grid{cs, n}, levels, nil)
		c.LineStyles = []draw.LineStyle{style}
		p.Add(c)
		var inside plotter.XYs
		for i, z := range cs.z {
			if z >= levels[0] {
				inside = append(inside, plotter.XY{X: cs.x[i], Y: cs.y[i]})
			}
		}
		return inside, nil
	}
	return nil, fmt.Errorf("no grid for %s", method)
}
