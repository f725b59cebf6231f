package vembias

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	vm "github.com/vbworkbench/vbw/core/model/vembias"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// fmtF formats a number for a metric or a criterion ID: 0.5, 0.99, 1000.
func fmtF(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// newPanel returns an empty panel with the house's font sizes.
func newPanel(title, xl, yl string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = plots.TitleSize
	p.X.Label.Text, p.Y.Label.Text = xl, yl
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = plots.LabelSize
		a.Tick.Label.Font.Size = plots.TickSize
	}
	return p
}

// gridXYZ is a plotter.GridXYZ over the axes xs, ys with z[i][j] at
// (xs[j], ys[i]).
type gridXYZ struct {
	xs, ys []float64
	z      [][]float64
}

func (g gridXYZ) Dims() (c, r int)   { return len(g.xs), len(g.ys) }
func (g gridXYZ) Z(c, r int) float64 { return g.z[r][c] }
func (g gridXYZ) X(c int) float64    { return g.xs[c] }
func (g gridXYZ) Y(r int) float64    { return g.ys[r] }

// heatPanel draws z over (xs, ys) with a diverging palette symmetric
// about 0 (white where |z| is small: "lighter colours indicate a bias of
// smaller magnitude", Fig 1.6 caption), its range ±lim.
func heatPanel(title, xl, yl string, xs, ys []float64, z [][]float64, lim float64) *plot.Plot {
	p := newPanel(title, xl, yl)
	lim = heatLimit(lim)
	h := plotter.NewHeatMap(gridXYZ{xs, ys, clampGrid(z, lim)}, heatScale(lim).Palette(heatColors))
	h.Min, h.Max = -lim, lim
	p.Add(h)
	return p
}

// heatColors is the number of colours of a heat panel.
const heatColors = 64

// heatLimit is the colour limit of heat panels asked for lim: lim, or 1
// when lim is not a positive finite number (an empty map, or an infinite
// bias, which the panels then clamp to ±1).
func heatLimit(lim float64) float64 {
	if !(lim > 0) || math.IsInf(lim, 1) {
		return 1
	}
	return lim
}

// heatScale is the colour map of the heat panels of limit lim (as
// heatPanel sets it): blue for −lim, grey for 0, red for +lim.
func heatScale(lim float64) palette.ColorMap {
	lim = heatLimit(lim)
	pal := moreland.SmoothBlueRed()
	pal.SetMin(-lim)
	pal.SetMax(lim)
	return pal
}

// heatBar is the colour bar of the heat panels of limit lim: a panel
// titled title whose axis, labelled label (the quantity and its units),
// gives the value of each colour.
func heatBar(title, label string, lim float64) (*plot.Plot, error) {
	return plots.ColorBar(title, heatScale(lim), label)
}

// clampGrid returns z with values clamped to ±lim and NaN set to 0.
func clampGrid(z [][]float64, lim float64) [][]float64 {
	out := make([][]float64, len(z))
	for i, row := range z {
		out[i] = make([]float64, len(row))
		for j, v := range row {
			if math.IsNaN(v) {
				v = 0
			}
			out[i][j] = math.Max(-lim, math.Min(lim, v))
		}
	}
	return out
}

// markerStyle returns the glyph of an approximation in the best-
// approximation maps: q_MF grey filled circles, q_FC black crosses, q_FT
// black open circles (Fig 1.6B caption).
func markerStyle(q vm.Approx) draw.GlyphStyle {
	switch q {
	case vm.MF:
		return draw.GlyphStyle{Color: color.Gray{Y: 140}, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}
	case vm.FC:
		return draw.GlyphStyle{Color: color.Black, Radius: vg.Points(2.2), Shape: draw.CrossGlyph{}}
	}
	return draw.GlyphStyle{Color: color.Black, Radius: vg.Points(2.2), Shape: draw.RingGlyph{}}
}

// addMarkers adds a scatter of the points (xs, ys) in q's marker style,
// with a legend entry.
func addMarkers(p *plot.Plot, q vm.Approx, xs, ys []float64) error {
	if len(xs) == 0 {
		return nil
	}
	pts := make(plotter.XYs, len(xs))
	for i := range xs {
		pts[i].X, pts[i].Y = xs[i], ys[i]
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	s.GlyphStyle = markerStyle(q)
	p.Add(s)
	p.Legend.Add("q_"+q.String(), s)
	return nil
}

// addLine adds a black line through the points.
func addLine(p *plot.Plot, xs, ys []float64, style draw.LineStyle, name string) error {
	pts := make(plotter.XYs, 0, len(xs))
	for i := range xs {
		if !math.IsNaN(ys[i]) && !math.IsInf(ys[i], 0) && !math.IsNaN(xs[i]) {
			pts = append(pts, plotter.XY{X: xs[i], Y: ys[i]})
		}
	}
	if len(pts) < 2 {
		return nil
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	l.LineStyle = style
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
	return nil
}

// solid and dashed are the black lines of the figures.
var (
	solid  = draw.LineStyle{Color: color.Black, Width: vg.Points(1.2)}
	dashed = draw.LineStyle{Color: color.Black, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
)

// vline adds a vertical line at x from lo to hi.
func vline(p *plot.Plot, x, lo, hi float64, style draw.LineStyle) error {
	return addLine(p, []float64{x, x}, []float64{lo, hi}, style, "")
}

// approxOf parses an approximation name read from a table.
func approxOf(s string) (vm.Approx, error) {
	q, err := vm.ParseApprox(s)
	if err != nil {
		return 0, fmt.Errorf("results table: %w", err)
	}
	return q, nil
}

// sortCriteria orders a criteria table by ID, so that tables built from
// maps are the same on every run.
func sortCriteria(cs results.Criteria) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].ID < cs[j].ID })
}

// thickGrey is the thick grey line of the optimal μ_q in Fig 1.1.
var thickGrey = draw.LineStyle{Color: color.Gray{Y: 150}, Width: vg.Points(2.5)}

// vemFit is the [vem] table of the experiments that run vEM to its
// optimum (core/model/vembias RunVEM): at most max_iterations iterations,
// until F is within abs_tol = 1e-11 nats of its limit.
func vemFit() config.FitSettings {
	return config.FitSettings{MaxIterations: 20000, AbsTol: 1e-11, MonotoneTol: 1e-9}
}

// retiredVEM: vEM's cap moved into [vem].
var retiredVEM = map[string]string{"vem_max_iterations": "vem.max_iterations"}

// claim is the claim on artefact, shown by figure (a file stem, or ""),
// stated in one line, of every criterion of cs whose ID begins with one of
// prefixes (an ID given whole names itself), so that a criterion added to
// a figure's table is claimed without another edit.
func claim(artefact, figure, statement string, cs results.Criteria, prefixes ...string) results.Claim {
	c := results.Claim{Artifact: artefact, Statement: statement}
	if figure != "" {
		c.Figures = []string{figure}
	}
	for _, x := range cs {
		for _, p := range prefixes {
			if strings.HasPrefix(x.ID, p) {
				c.Checks = append(c.Checks, x.ID)
				break
			}
		}
	}
	return c
}

// fMonotone is the sanity check that F never decreases in the runs of
// algo (vb.Run's check).
func fMonotone(algo string) results.Criterion {
	return results.Criterion{ID: "f-monotone", Text: algo + " runs in which F decreased (vb.Run's check)", Target: results.Equal(0)}.AsSanity()
}
