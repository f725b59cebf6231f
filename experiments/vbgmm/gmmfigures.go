package vbgmm

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// This file draws the figures of the Gaussian-mixture experiments from
// their CSV files alone.

// drawWeight is the E[π_k] above which a component's ellipse is drawn (PRML
// Fig. 10.6 leaves out the components whose weight is indistinguishable
// from zero).
const drawWeight = 1e-2

// stdSuffix ends the name of a standardised column of fig10_6_data.csv.
const stdSuffix = "_std"

// faithfulName is the text's name for the shipped data (PRML §10.2.1).
const faithfulName = "Old Faithful"

// dataColumns reads the two columns of fig10_6_data.csv and their axis
// labels: each column's name in the data file (the file's header, which
// the run wrote with stdSuffix), marked standardised.
func dataColumns(dir string) (xs, ys []float64, labels [2]string, err error) {
	t, err := results.ReadCSV(filepath.Join(dir, "fig10_6_data.csv"))
	if err != nil {
		return nil, nil, labels, err
	}
	if len(t.Header) != 2 {
		return nil, nil, labels, fmt.Errorf("%s: %d columns, want 2", t.Path, len(t.Header))
	}
	cols := [2][]float64{}
	for j, h := range t.Header {
		if cols[j], err = t.Floats(h); err != nil {
			return nil, nil, labels, err
		}
		labels[j] = strings.TrimSuffix(h, stdSuffix) + " (standardised)"
	}
	return cols[0], cols[1], labels, nil
}

// PlotFig106 draws fig10_6: the data with the one-standard-deviation
// ellipses at each snapshot iteration, and the median number of components
// kept against α₀ for each prior scale. Its title and axes name the data
// (experiments.DataName, the data file's header): Old Faithful, or a
// user's file.
func PlotFig106(dir string) error {
	snap := results.ReadColumns(filepath.Join(dir, "fig10_6_snapshots.csv"))
	it, w := snap.Floats("iteration"), snap.Floats("mean_weight")
	mx, my := snap.Floats("mean_x"), snap.Floats("mean_y")
	cxx, cxy, cyy := snap.Floats("cov_xx"), snap.Floats("cov_xy"), snap.Floats("cov_yy")
	counts := results.ReadColumns(filepath.Join(dir, "fig10_6_counts.csv"))
	w0, a0, comps := counts.Floats("w0_scale"), counts.Floats("alpha0"), counts.Floats("components")
	for _, c := range []*results.Columns{snap, counts} {
		if err := c.Err(); err != nil {
			return err
		}
	}
	xs, ys, labels, err := dataColumns(dir)
	if err != nil {
		return err
	}
	title, err := fig106Title(dir, it)
	if err != nil {
		return err
	}
	var panels []*plot.Plot
	for _, t := range uniq(it) {
		var ells []plots.Ellipse
		for i := range it {
			if it[i] == t && w[i] > drawWeight {
				ells = append(ells, plots.Ellipse{X: mx[i], Y: my[i], XX: cxx[i], XY: cxy[i], YY: cyy[i], SD: 1})
			}
		}
		p, err := plots.ScatterEllipses(plots.Axes{Title: fmt.Sprintf("iteration %v (%d with E[π] > %g)", t, len(ells), drawWeight),
			XLabel: labels[0], YLabel: labels[1]}, xs, ys, ells)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	var series []plots.Series
	for _, s := range uniq(w0) {
		var xa, ym []float64
		for _, a := range uniq(a0) {
			var v []float64
			for i := range a0 {
				if a0[i] == a && w0[i] == s {
					v = append(v, comps[i])
				}
			}
			xa, ym = append(xa, a), append(ym, results.Median(v))
		}
		series = append(series, plots.Series{Name: fmt.Sprintf("W₀ = %g·I", s), X: xa, Y: ym, Points: true})
	}
	p, _, err := plots.Lines(plots.Axes{Title: "components kept (median over seeds)", XLabel: "α₀", YLabel: "components", LogX: true}, series...)
	if err != nil {
		return err
	}
	panels = append(panels, p)
	cols := min(len(panels), 3)
	return experiments.SaveFigure(dir, "fig10_6", plots.Figure{Rows: (len(panels) + cols - 1) / cols, Cols: cols, Panels: panels,
		Title: title})
}

// fig107Title is fig10_7's title: the text's figure on Old Faithful, or
// its experiment on a user's file.
func fig107Title(dir string) (string, error) {
	name, own, err := experiments.DataName(dir, faithfulName)
	if err != nil {
		return "", err
	}
	if own {
		return "PRML Fig. 10.7's experiment on " + name + ": choosing K by F + ln K!, beside the sampled evidence", nil
	}
	return "PRML Fig. 10.7: choosing K on " + name + " by F + ln K!, beside the sampled evidence", nil
}

// fig106Title is fig10_6's title: the text's figure on Old Faithful, or
// its experiment on a user's file; K is the number of components of a
// snapshot (rows per iteration of its table, it).
func fig106Title(dir string, it []float64) (string, error) {
	name, own, err := experiments.DataName(dir, faithfulName)
	if err != nil {
		return "", err
	}
	k := 0
	for _, v := range it {
		if v == it[0] {
			k++
		}
	}
	if own {
		return fmt.Sprintf("PRML Fig. 10.6's experiment on %s: VB mixture of %d Gaussians", name, k), nil
	}
	return fmt.Sprintf("PRML Fig. 10.6: VB mixture of %d Gaussians on %s", k, name), nil
}

// uniq returns the distinct values of xs in order of first appearance.
func uniq(xs []float64) []float64 {
	var out []float64
	for _, v := range xs {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// evidencePanel draws, against x, the series of ys (named by names) and
// the sampled estimates with error bars of ±2 standard errors.
func evidencePanel(ax plots.Axes, x []float64, names []string, ys [][]float64, sampled []string, est, se [][]float64) (*plot.Plot, error) {
	var series []plots.Series
	for i, n := range names {
		series = append(series, plots.Series{Name: n, X: x, Y: ys[i], Points: true})
	}
	for i, n := range sampled {
		series = append(series, plots.Series{Name: n, X: x, Y: est[i], Points: true})
	}
	p, _, err := plots.Lines(ax, series...)
	if err != nil {
		return nil, err
	}
	for i := range sampled {
		e := make([]float64, len(se[i]))
		for j, v := range se[i] {
			e[j] = 2 * v
		}
		if _, err := plots.ErrorBars(p, len(names)+i, x, est[i], e); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// finiteOr returns v, or NaN when it is not finite (a value a plot drops).
func finiteOr(v float64) float64 {
	if math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}

// PlotFig107 draws fig10_7: F + ln K! of every start against K (jittered,
// PRML Fig. 10.7) for the first α₀, and for each α₀ the gaps of the best F,
// F + ln K! and the AIS estimate to the IS estimate of ln p(X|K), with ±2
// standard errors of the two estimates (AIS's Sampled.RobustSE).
func PlotFig107(dir string) error {
	title, err := fig107Title(dir)
	if err != nil {
		return err
	}
	st := results.ReadColumns(filepath.Join(dir, "fig10_7_starts.csv"))
	sa, sk, sr, sf := st.Floats("alpha0"), st.Floats("k"), st.Floats("restart"), st.Floats("f_lnk")
	et := results.ReadColumns(filepath.Join(dir, "fig10_7_evidence.csv"))
	ea, ek := et.Floats("alpha0"), et.Floats("k")
	cols := map[string][]float64{}
	for _, n := range []string{"f", "f_lnk", "ln_p_ais", "ln_p_ais_se", "ln_p_is", "ln_p_is_se"} {
		cols[n] = et.Floats(n)
	}
	for _, c := range []*results.Columns{st, et} {
		if err := c.Err(); err != nil {
			return err
		}
	}
	// AIS's error bar: the larger of its delta-method se and sd(ln w)/√runs
	// (Sampled.RobustSE), when the table has the latter.
	if _, err := et.Table().Col("ln_p_ais_se_log_w"); err == nil {
		lw := et.Floats("ln_p_ais_se_log_w")
		if err := et.Err(); err != nil {
			return err
		}
		for i, v := range lw {
			cols["ln_p_ais_se"][i] = max(cols["ln_p_ais_se"][i], v)
		}
	}
	alphas := uniq(ea)
	if len(alphas) == 0 {
		return fmt.Errorf("%s: no evidence rows", dir)
	}
	// Starts of the first α₀, jittered by restart over ±0.15.
	rmax := slices.Max(append([]float64{1}, sr...))
	var jx, jy []float64
	for i := range sa {
		if sa[i] == alphas[0] && !math.IsNaN(sf[i]) {
			jx, jy = append(jx, sk[i]+0.3*(sr[i]/rmax-0.5)), append(jy, sf[i])
		}
	}
	var bk, bf []float64
	for i := range ea {
		if ea[i] == alphas[0] {
			bk, bf = append(bk, ek[i]), append(bf, finiteOr(cols["f_lnk"][i]))
		}
	}
	left, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("F + ln K! of every start (α₀ = %g)", alphas[0]), XLabel: "K", YLabel: "nats"},
		plots.Series{Name: "best of the starts", X: bk, Y: bf})
	if err != nil {
		return err
	}
	if err := addScatter(left, jx, jy); err != nil {
		return err
	}
	panels := []*plot.Plot{left}
	for _, a := range alphas {
		pick := func(name string) []float64 {
			var out []float64
			for i := range ea {
				if ea[i] == a {
					out = append(out, finiteOr(cols[name][i]))
				}
			}
			return out
		}
		var ks []float64
		for i := range ea {
			if ea[i] == a {
				ks = append(ks, ek[i])
			}
		}
		is := pick("ln_p_is")
		gap := func(name string) []float64 {
			out := pick(name)
			for i := range out {
				out[i] -= is[i]
			}
			return out
		}
		p, err := evidencePanel(plots.Axes{Title: fmt.Sprintf("gap to the IS estimate of ln p(X|K), α₀ = %g", a), XLabel: "K", YLabel: "nats"}, ks,
			[]string{"F − IS", "F + ln K! − IS"}, [][]float64{gap("f"), gap("f_lnk")},
			[]string{"AIS − IS", "IS (0, its se)"}, [][]float64{gap("ln_p_ais"), gap("ln_p_is")}, [][]float64{pick("ln_p_ais_se"), pick("ln_p_is_se")})
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	return experiments.SaveFigure(dir, "fig10_7", plots.Figure{Rows: 1, Cols: len(panels), Panels: panels,
		Title: title})
}

// addScatter adds the points (x, y) to p as markers of the second style.
func addScatter(p *plot.Plot, x, y []float64) error {
	xys := make(plotter.XYs, len(x))
	for i := range x {
		xys[i] = plotter.XY{X: x[i], Y: y[i]}
	}
	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	sc.GlyphStyle = plots.GlyphStyle(1)
	p.Add(sc)
	return nil
}
