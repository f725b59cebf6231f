package chapter3

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// PlotAlice redraws Figure 3.4 (and, when the config has a diagnostic u0,
// its n and k slices at that u0) from points.csv and config.toml in dir.
func PlotAlice(dir string) error {
	c := DefaultAlice()
	if err := config.Load(filepath.Join(dir, "config.toml"), false, &c); err != nil {
		return err
	}
	t, err := results.ReadCSV(filepath.Join(dir, "points.csv"))
	if err != nil {
		return err
	}
	pts, err := readPoints(t)
	if err != nil {
		return err
	}
	f, err := figure3_4(pts, &c, c.Canonical.U0, true, "VB")
	if err != nil {
		return err
	}
	f.Title = fmt.Sprintf("Figure 3.4: forwards/backwards discrimination (medians of %d repeats, bands: interquartile range)", c.Restarts)
	if err := experiments.SaveFigure(dir, "fig3_4", f); err != nil {
		return err
	}
	if u := c.DiagnosticU0; u > 0 && u != c.Canonical.U0 {
		f, err := figure3_4(pts, &c, u, false, "VB")
		if err != nil {
			return err
		}
		f.Title = fmt.Sprintf("Figure 3.4, n and k slices at u0 = %g (diagnostic, targets §4 item 22)", u)
		if err := experiments.SaveFigure(dir, fmt.Sprintf("fig3_4_u0_%g", u), f); err != nil {
			return err
		}
	}
	f, err = figure3_4(pts, &c, c.Canonical.U0, true, "VBbound")
	if err != nil {
		return err
	}
	f.Title = "Figure 3.4 with VB scored by its predictive lower bound (the VBE normaliser of eq. 3.84; extension E3-X3)"
	return experiments.SaveFigure(dir, "fig3_4_vbbound", f)
}

// pointStat is one row of points.csv.
type pointStat struct{ median, q25, q75 float64 }

func readPoints(t results.Table) (map[key]pointStat, error) {
	cols := map[string]int{}
	for _, name := range []string{"n", "k", "u0", "method", "score", "median", "q25", "q75"} {
		i, err := t.Col(name)
		if err != nil {
			return nil, err
		}
		cols[name] = i
	}
	out := map[key]pointStat{}
	for r, row := range t.Rows {
		n, err1 := t.Int(r, cols["n"])
		k, err2 := t.Int(r, cols["k"])
		u, err3 := t.Float(r, cols["u0"])
		m, err4 := t.Float(r, cols["median"])
		lo, err5 := t.Float(r, cols["q25"])
		hi, err6 := t.Float(r, cols["q75"])
		for _, e := range []error{err1, err2, err3, err4, err5, err6} {
			if e != nil {
				return nil, e
			}
		}
		out[key{n, k, u, row[cols["method"]], row[cols["score"]]}] = pointStat{m, lo, hi}
	}
	return out, nil
}

// sliceSeries builds one method's median curve with its IQR band along one
// axis of the grid.
func sliceSeries(pts map[key]pointStat, method, score string, xs []float64, at func(x float64) key) plots.Series {
	s := plots.Series{Name: method, Points: true}
	for _, x := range xs {
		k := at(x)
		k.Method, k.Score = method, score
		p, ok := pts[k]
		if !ok {
			continue
		}
		s.X = append(s.X, x)
		s.Y = append(s.Y, p.median)
		s.Lo = append(s.Lo, p.q25)
		s.Hi = append(s.Hi, p.q75)
	}
	return s
}

// vbSeries is sliceSeries for VB scored by method ("VB": the posterior
// mean; "VBbound": the VB-bound predictive), labelled so in the legend.
func vbSeries(pts map[key]pointStat, method, score string, xs []float64, at func(x float64) key) plots.Series {
	s := sliceSeries(pts, method, score, xs, at)
	if method == "VBbound" {
		s.Name = "VB (bound, 3.84)"
	}
	return s
}

func finite(s plots.Series) bool {
	if len(s.Y) == 0 {
		return false
	}
	for _, y := range s.Y {
		if math.IsInf(y, 0) || math.IsNaN(y) {
			return false
		}
	}
	return true
}

// figure3_4 draws (a,b) the n slice, (c,d) the k slice and, if withU0,
// (e,f) the u0 slice: test log probability per symbol and discrimination
// rate, medians with interquartile bands (L2171). ML is drawn in the log
// probability panels only where its median is finite (L2171 omits it).
func figure3_4(pts map[key]pointStat, c *AliceConfig, u float64, withU0 bool, vbMethod string) (plots.Figure, error) {
	N0, K0 := c.Canonical.N, c.Canonical.K
	toF := func(is []int) []float64 {
		o := make([]float64, len(is))
		for i, v := range is {
			o[i] = float64(v)
		}
		sort.Float64s(o)
		return o
	}
	us := append([]float64(nil), c.Grid.U0...)
	sort.Float64s(us)
	type slice struct {
		label, xlabel string
		xs            []float64
		at            func(x float64) key
		log2          bool
	}
	sl := []slice{
		{fmt.Sprintf("k=%d, u0=%g", K0, u), "n (training sentences)", toF(c.Grid.N), func(x float64) key { return key{N: int(x), K: K0, U0: u} }, false},
		{fmt.Sprintf("n=%d, u0=%g", N0, u), "k (hidden states)", toF(c.Grid.K), func(x float64) key { return key{N: N0, K: int(x), U0: u} }, false},
	}
	if withU0 {
		sl = append(sl, slice{fmt.Sprintf("n=%d, k=%d", N0, K0), "u0 (prior strength)", us, func(x float64) key { return key{N: N0, K: K0, U0: x} }, true})
	}
	var panels []*plot.Plot
	letters := "abcdef"
	for i, s := range sl {
		// ML keeps its place (and colour) in the legend even when it is
		// not drawn.
		ml := sliceSeries(pts, "ML", "lp_per_symbol", s.xs, s.at)
		if !finite(ml) {
			ml = plots.Series{Name: "ML (-Inf, not drawn)"}
		}
		lp := []plots.Series{ml, sliceSeries(pts, "MAP", "lp_per_symbol", s.xs, s.at), vbSeries(pts, vbMethod, "lp_per_symbol", s.xs, s.at)}
		pa, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("(%c) test log probability, %s", letters[2*i], s.label), XLabel: s.xlabel,
			YLabel: "nats per symbol", LogX: !s.log2, Log2X: s.log2}, lp...)
		if err != nil {
			return plots.Figure{}, err
		}
		pb, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("(%c) discrimination, %s", letters[2*i+1], s.label), XLabel: s.xlabel,
			YLabel: "fraction correct", LogX: !s.log2, Log2X: s.log2},
			sliceSeries(pts, "ML", "disc", s.xs, s.at), sliceSeries(pts, "MAP", "disc", s.xs, s.at), vbSeries(pts, vbMethod, "disc", s.xs, s.at))
		if err != nil {
			return plots.Figure{}, err
		}
		panels = append(panels, pa, pb)
	}
	rows := len(sl)
	return plots.Figure{Rows: rows, Cols: 2, Panels: panels, Width: 2 * plots.PanelWidth * 1.15, Height: vg.Length(rows) * plots.PanelHeight}, nil
}
