package backfit

import (
	"fmt"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// PlotForgetting draws the figures of backfit/forgetting from its tables
// alone: dsouza_fig3_13 (the path and the three trackers' estimates at the
// largest noise precision, and their ⟨λ⟩ against the step), dsouza_fig3_14
// (the median MSE of each tracker against ψ_y with the interquartile range
// over the data sets as a band: the text's bars; and, as a reference, the
// Kalman filter at the path's increment precision and the true ψ_y), dsouza_fig3_16 (median MSE
// against the window, vkS and vkF, at each ψ_y) and dsouza_fig3_17 (φ_n/ζ_n,
// the mean over the data sets of each case, against the steps before the
// last, (a) by ψ_y and (b) by λ).
func PlotForgetting(dir string) error {
	return forgetFirstErr(plotForget313(dir), plotForget314(dir), plotForget316(dir), plotForget317(dir))
}

func forgetFirstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// forgetRows returns the indices of the rows whose column col equals v.
func forgetRows(col []float64, v float64) []int {
	var out []int
	for i, x := range col {
		if x == v {
			out = append(out, i)
		}
	}
	return out
}

func forgetPick(xs []float64, rows []int) []float64 {
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = xs[r]
	}
	return out
}

func forgetDistinct(xs []float64) []float64 {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

func plotForget313(dir string) error {
	tab := results.ReadColumns(filepath.Join(dir, "forgetting_trace.csv"))
	psi, step, w := tab.Floats("psi"), tab.Floats("step"), tab.Floats("w")
	vks, vkf, rls := tab.Floats("vks"), tab.Floats("vkf"), tab.Floats("rls")
	lks, lkf := tab.Floats("lambda_vks"), tab.Floats("lambda_vkf")
	if err := tab.Err(); err != nil {
		return err
	}
	levels := forgetDistinct(psi)
	if len(levels) == 0 {
		return fmt.Errorf("forgetting_trace.csv: no rows")
	}
	top := levels[len(levels)-1]
	rows := forgetRows(psi, top)
	x := forgetPick(step, rows)
	a, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("(a) w and its estimates, ψ_y = %g, first data set", top), XLabel: "step n", YLabel: "w_n"},
		plots.Series{Name: "true w", X: x, Y: forgetPick(w, rows)},
		plots.Series{Name: "vkS", X: x, Y: forgetPick(vks, rows)},
		plots.Series{Name: "vkF (tuned window)", X: x, Y: forgetPick(vkf, rows)},
		plots.Series{Name: "RLS (tuned γ)", X: x, Y: forgetPick(rls, rows)})
	if err != nil {
		return err
	}
	b, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("(b) ⟨λ⟩ used at each step, ψ_y = %g", top), XLabel: "step n", YLabel: "⟨λ⟩", LogY: true},
		plots.Series{Name: "vkS", X: x, Y: forgetPick(lks, rows)},
		plots.Series{Name: "vkF", X: x, Y: forgetPick(lkf, rows)})
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "dsouza_fig3_13", plots.Figure{Rows: 1, Cols: 2, Panels: []*plot.Plot{a, b},
		Title: "D'Souza Fig. 3.13: the drifting weight (our path) and the estimates of λ"})
}

func plotForget314(dir string) error {
	tab := results.ReadColumns(filepath.Join(dir, "forgetting_mse.csv"))
	psi := tab.Floats("psi")
	cols := map[string][]float64{}
	for _, m := range []string{"vks", "vkf", "rls", "kf_path"} {
		cols[m] = tab.Floats(m)
	}
	if err := tab.Err(); err != nil {
		return err
	}
	levels := forgetDistinct(psi)
	var series []plots.Series
	for _, m := range []struct{ col, name string }{{"vks", "vkS"}, {"vkf", "vkF (window tuned on the true w)"}, {"rls", "RLS (γ tuned on the true w)"},
		{"kf_path", "reference: Kalman filter at the path's λ and the true ψ_y"}} {
		s := plots.Series{Name: m.name, X: levels, Points: true}
		for _, l := range levels {
			xs := forgetPick(cols[m.col], forgetRows(psi, l))
			s.Y = append(s.Y, results.Median(xs))
			s.Lo = append(s.Lo, results.Quantile(xs, 0.25))
			s.Hi = append(s.Hi, results.Quantile(xs, 0.75))
		}
		series = append(series, s)
	}
	p, _, err := plots.Lines(plots.Axes{Title: "median MSE over the data sets (band: interquartile range)", XLabel: "noise precision ψ_y", YLabel: "MSE of w", LogX: true, LogY: true}, series...)
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "dsouza_fig3_14", plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p},
		Title: "D'Souza Fig. 3.14: MSE of the estimated w, vkS, vkF and RLS"})
}

func plotForget316(dir string) error {
	tab := results.ReadColumns(filepath.Join(dir, "forgetting_window.csv"))
	method, psi, win, med := tab.Strings("method"), tab.Floats("psi"), tab.Floats("window"), tab.Floats("median")
	q25, q75 := tab.Floats("q25"), tab.Floats("q75")
	if err := tab.Err(); err != nil {
		return err
	}
	var panels []*plot.Plot
	for _, m := range []struct{ key, name string }{{"vks", "(a) vkS"}, {"vkf", "(b) vkF"}} {
		var series []plots.Series
		for _, l := range forgetDistinct(psi) {
			var rows []int
			for i := range psi {
				if psi[i] == l && method[i] == m.key {
					rows = append(rows, i)
				}
			}
			series = append(series, plots.Series{Name: fmt.Sprintf("ψ_y = %g", l), X: forgetPick(win, rows), Y: forgetPick(med, rows),
				Lo: forgetPick(q25, rows), Hi: forgetPick(q75, rows), Points: true})
		}
		p, _, err := plots.Lines(plots.Axes{Title: m.name + ": median MSE against the window", XLabel: "window (steps)", YLabel: "MSE of w", LogX: true, LogY: true}, series...)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	return experiments.SaveFigure(dir, "dsouza_fig3_16", plots.Figure{Rows: 1, Cols: 2, Panels: panels,
		Title: "D'Souza Fig. 3.16: the estimation error against the window size"})
}

// forget317Lags is the last lag dsouza_fig3_17 draws: the horizons are
// tens of steps at most, and the table holds every lag.
const forget317Lags = 60

func plotForget317(dir string) error {
	tab := results.ReadColumns(filepath.Join(dir, "forgetting_horizon.csv"))
	panel, lambda, psi, lag, ratio := tab.Strings("panel"), tab.Floats("lambda"), tab.Floats("psi"), tab.Floats("lag"), tab.Floats("ratio_mean")
	if err := tab.Err(); err != nil {
		return err
	}
	var panels []*plot.Plot
	for _, pc := range []struct{ key, title string }{{"a", "(a) fixed λ, by ψ_y"}, {"b", "(b) fixed ψ_y, by λ"}} {
		type curve struct{ l, p float64 }
		var order []curve
		idx := map[curve][]int{}
		for i := range panel {
			if panel[i] != pc.key || lag[i] > forget317Lags {
				continue
			}
			k := curve{lambda[i], psi[i]}
			if _, ok := idx[k]; !ok {
				order = append(order, k)
			}
			idx[k] = append(idx[k], i)
		}
		var series []plots.Series
		for _, k := range order {
			name := fmt.Sprintf("ψ_y = %g", k.p)
			if pc.key == "b" {
				name = fmt.Sprintf("λ = %g", k.l)
			}
			series = append(series, plots.Series{Name: name, X: forgetPick(lag, idx[k]), Y: forgetPick(ratio, idx[k])})
		}
		p, _, err := plots.Lines(plots.Axes{Title: pc.title, XLabel: "steps before the last", YLabel: "φ_n / ζ_n, mean over the data sets"}, series...)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	return experiments.SaveFigure(dir, "dsouza_fig3_17", plots.Figure{Rows: 1, Cols: 2, Panels: panels,
		Title: "D'Souza Fig. 3.17: smoothed over filtered precision of w_n, back from the last step"})
}
