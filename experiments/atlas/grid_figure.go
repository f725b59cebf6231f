package atlas

// The figure of a row, drawn from its estimates.csv alone.

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// ReadEstimates reads a row's estimates.csv back: the row, the estimates
// and the gold standard of each (data set, seed) they name.
func ReadEstimates(dir string) (row string, gold []GoldStandard, est []Estimate, err error) {
	c := results.ReadColumns(filepath.Join(dir, EstimatesFile))
	rows, ds, seeds, ms := c.Strings("row"), c.Strings("dataset"), c.Strings("seed"), c.Strings("method")
	kinds := c.Strings("gold_kind")
	budget, lnz, se := c.Floats("budget"), c.Floats("lnz"), c.Floats("se")
	glnz, gse := c.Floats("gold_lnz"), c.Floats("gold_se")
	ops, cpu, me, ve := c.Floats("ops"), c.Floats("cpu_seconds"), c.Floats("mean_err"), c.Floats("var_err")
	if err := c.Err(); err != nil {
		return "", nil, nil, err
	}
	type key struct {
		d string
		s uint64
	}
	seen := map[key]bool{}
	for i := range ms {
		s, err := strconv.ParseUint(seeds[i], 10, 64)
		if err != nil {
			return "", nil, nil, fmt.Errorf("%s: line %d: seed %q: %w", EstimatesFile, i+2, seeds[i], err)
		}
		if row == "" {
			row = rows[i]
		}
		est = append(est, Estimate{Dataset: ds[i], Seed: s, Method: ms[i], Budget: int(budget[i]), LnZ: lnz[i], SE: se[i],
			Ops: ops[i], CPUSeconds: cpu[i], MeanErr: me[i], VarErr: ve[i]})
		if k := (key{ds[i], s}); !seen[k] {
			seen[k] = true
			// Each estimate's gold standard, keyed by its own seed (the
			// file has no record of a gold standard shared by seeds).
			gold = append(gold, GoldStandard{Dataset: ds[i], Seed: s, LnZ: glnz[i], SE: gse[i], Kind: kinds[i]})
		}
	}
	if row == "" {
		return "", nil, nil, fmt.Errorf("%s: no estimates", filepath.Join(dir, EstimatesFile))
	}
	return row, gold, est, nil
}

// FigureFloor is the smallest |error| the figures draw (nats).
const FigureFloor = 1e-6

// FigureName is the name of a row's figure: atlas_<row>.
func FigureName(row string) string { return "atlas_" + row }

// PlotGrid draws the figure atlas_<row> of the row whose results are in
// dir, from estimates.csv alone: the median |ln Z − gold| (nats) over the
// data sets and seeds against the median operations, on log-log axes, one
// line per method through its budgets with the interquartile range as a
// band (a one-shot method is a marker), and the median standard error of
// the gold standard as a horizontal line when it exceeds 10⁻⁹ nats (below
// it no error can be resolved). An error below FigureFloor nats (an exact
// estimate, a closed form's rounding) is drawn at the floor, so that the
// exact cells of a row (VB at K = 1) do not stretch the axis down to
// 10⁻¹⁵. Every row registers it as its Plot.
func PlotGrid(dir string) error {
	row, gold, est, err := ReadEstimates(dir)
	if err != nil {
		return err
	}
	// Seed 0 golds are stored per seed by ReadEstimates; a seed-0 estimate
	// finds its own.
	g, err := Summarise(row, gold, est, nil)
	if err != nil {
		return err
	}
	var series []plots.Series
	lo, hi := math.Inf(1), math.Inf(-1)
	var gse []float64
	for _, e := range est {
		if e.Ops > 0 {
			lo, hi = min(lo, e.Ops), max(hi, e.Ops)
		}
	}
	for _, gd := range gold {
		gse = append(gse, gd.SE)
	}
	for _, m := range Methods {
		c, ok := g.Curves[m]
		if !ok {
			continue
		}
		s := plots.Series{Name: Label(m), Points: true}
		for _, p := range c {
			s.X, s.Y = append(s.X, p.Ops), append(s.Y, max(p.ErrMedian, FigureFloor))
			s.Lo, s.Hi = append(s.Lo, max(p.ErrQ25, FigureFloor)), append(s.Hi, max(p.ErrQ75, FigureFloor))
		}
		if len(c) == 1 {
			s.Markers, s.Points, s.Lo, s.Hi = true, false, nil, nil
		}
		series = append(series, s)
	}
	// A deterministic gold standard's error estimate (quadrature's
	// rounding, ~10⁻¹⁵) would only stretch the axis.
	if m := results.Median(gse); m > 1e-9 && lo < hi {
		series = append(series, plots.Series{Name: "gold SE (median)", X: []float64{lo, hi}, Y: []float64{m, m}})
	}
	p, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("atlas/%s: evidence error against cost (median, IQR over data sets × seeds; floor %g)", row, FigureFloor),
		XLabel: "operations", YLabel: "|ln Z − gold| (nats)", LogX: true, LogY: true}, series...)
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, FigureName(row), plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p}})
}

// Label is a method's name in a legend or a table.
func Label(m string) string {
	switch m {
	case VB:
		return "VB (F)"
	case Laplace:
		return "Laplace"
	default:
		return strings.ToUpper(m)
	}
}
