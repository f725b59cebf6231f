package backfit

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// PlotRegression redraws dsouza_fig3_15a and dsouza_fig4_8 from the tables
// of a run.
func PlotRegression(dir string) error {
	if err := plotFig315a(dir); err != nil {
		return err
	}
	return plotFig48(dir)
}

// byN groups v by n and returns the sizes in increasing order with the
// median and quartiles of the finite values at each.
func byN(n, v []float64) (ns, med, lo, hi []float64) {
	groups := map[float64][]float64{}
	for i, x := range n {
		if !math.IsNaN(v[i]) {
			groups[x] = append(groups[x], v[i])
		}
	}
	for x := range groups {
		ns = append(ns, x)
	}
	slices.Sort(ns)
	for _, x := range ns {
		g := groups[x]
		med, lo, hi = append(med, results.Median(g)), append(lo, results.Quantile(g, 0.25)), append(hi, results.Quantile(g, 0.75))
	}
	return ns, med, lo, hi
}

// plotFig315a draws (a) the test nMSE against N of OLS, EM (at judge_size),
// VB with a shared α and with ARD, medians over the data sets with their
// interquartile bands, and (b) the inputs ARD keeps against N, by kind.
func plotFig315a(dir string) error {
	tab := results.ReadColumns(filepath.Join(dir, "regression.csv"))
	n, nm, method := tab.Floats("n"), tab.Floats("nmse"), tab.Strings("method")
	if err := tab.Err(); err != nil {
		return err
	}
	label := map[string]string{"ols": "batch (OLS)", "em": "EM (probabilistic backfitting)", "vb_shared": "VB, shared α", "vb_ard": "VB, ARD"}
	var series []plots.Series
	for _, m := range []string{"ols", "em", "vb_shared", "vb_ard"} {
		var xs, ys []float64
		for i := range n {
			if method[i] == m {
				xs, ys = append(xs, n[i]), append(ys, nm[i])
			}
		}
		ns, med, lo, hi := byN(xs, ys)
		s := plots.Series{Name: label[m], X: ns, Y: med, Lo: lo, Hi: hi, Points: true}
		if m == "em" {
			s.Lo, s.Hi, s.Markers = nil, nil, true
		}
		series = append(series, s)
	}
	a, _, err := plots.Lines(plots.Axes{Title: "(a) test nMSE, median and IQR over data sets", XLabel: "N", YLabel: "nMSE", LogX: true, LogY: true}, series...)
	if err != nil {
		return err
	}
	in := results.ReadColumns(filepath.Join(dir, "ard_inputs.csv"))
	seed, an, kind, kept := in.Floats("seed"), in.Floats("n"), in.Strings("kind"), in.Strings("kept")
	if err := in.Err(); err != nil {
		return err
	}
	type sk struct {
		seed, n float64
		kind    string
	}
	count := map[sk]float64{}
	for i := range an {
		k := sk{seed[i], an[i], kind[i]}
		if _, ok := count[k]; !ok {
			count[k] = 0
		}
		if kept[i] == "true" {
			count[k]++
		}
	}
	var kseries []plots.Series
	for _, kd := range []string{"relevant", "irrelevant", "redundant"} {
		var xs, ys []float64
		for k, v := range count {
			if k.kind == kd {
				xs, ys = append(xs, k.n), append(ys, v)
			}
		}
		if len(xs) == 0 {
			continue
		}
		ns, med, lo, hi := byN(xs, ys) // the medians do not depend on the map's order
		kseries = append(kseries, plots.Series{Name: kd + " inputs kept", X: ns, Y: med, Lo: lo, Hi: hi, Points: true})
	}
	b, _, err := plots.Lines(plots.Axes{Title: "(b) inputs ARD keeps (E[α_m] below keep_alpha)", XLabel: "N", YLabel: "inputs kept", LogX: true}, kseries...)
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "dsouza_fig3_15a", plots.Figure{Rows: 1, Cols: 2, Panels: []*plot.Plot{a, b},
		Title: "D'Souza Fig 3.15 (stationary weights, batch at each N): 5 relevant of 105 inputs"})
}

// plotFig48 draws the logistic and its JJ bounds at each ξ with the points
// of tangency (a) on a linear and (b) on a log scale, and (c) the toy
// classification with backfitting's decision boundary.
func plotFig48(dir string) error {
	tab := results.ReadColumns(filepath.Join(dir, "fig4_8.csv"))
	x, ls, xi, bd := tab.Floats("x"), tab.Floats("log_sigmoid"), tab.Floats("xi"), tab.Floats("bound")
	if err := tab.Err(); err != nil {
		return err
	}
	var xis []float64
	for _, v := range xi {
		if !slices.Contains(xis, v) {
			xis = append(xis, v)
		}
	}
	var gx, gy, glog []float64
	for i := range x {
		if xi[i] == xis[0] {
			gx, gy, glog = append(gx, x[i]), append(gy, math.Exp(ls[i])), append(glog, ls[i])
		}
	}
	lin := []plots.Series{{Name: "logistic g(x)", X: gx, Y: gy}}
	logs := []plots.Series{{Name: "ln g(x)", X: gx, Y: glog}}
	for _, v := range xis {
		var bx, by, bl []float64
		for i := range x {
			if xi[i] == v {
				bx, by, bl = append(bx, x[i]), append(by, math.Exp(bd[i])), append(bl, bd[i])
			}
		}
		name := fmt.Sprintf("JJ bound, ξ = %g", v)
		lin = append(lin, plots.Series{Name: name, X: bx, Y: by})
		logs = append(logs, plots.Series{Name: name, X: bx, Y: bl})
	}
	for _, v := range xis {
		tx := []float64{-v, v}
		lin = append(lin, plots.Series{Name: "tangency (±ξ)", X: tx, Y: []float64{1 / (1 + math.Exp(v)), 1 / (1 + math.Exp(-v))}, Markers: true})
		logs = append(logs, plots.Series{Name: "tangency (±ξ)", X: tx, Y: []float64{-math.Log1p(math.Exp(v)), -math.Log1p(math.Exp(-v))}, Markers: true})
	}
	a, _, err := plots.Lines(plots.Axes{Title: "(a) the logistic and its bounds", XLabel: "x", YLabel: "g(x)"}, lin...)
	if err != nil {
		return err
	}
	b, _, err := plots.Lines(plots.Axes{Title: "(b) on a log scale", XLabel: "x", YLabel: "ln g(x)"}, logs...)
	if err != nil {
		return err
	}
	toy := results.ReadColumns(filepath.Join(dir, "fig4_8_toy.csv"))
	x1, x2, y, b1, b2, b0 := toy.Floats("x1"), toy.Floats("x2"), toy.Floats("y"), toy.Floats("b1"), toy.Floats("b2"), toy.Floats("b0")
	if err := toy.Err(); err != nil {
		return err
	}
	if len(y) == 0 {
		return fmt.Errorf("fig4_8_toy.csv: no rows")
	}
	var px, py, nx, ny []float64
	for i := range y {
		if y[i] > 0 {
			px, py = append(px, x1[i]), append(py, x2[i])
		} else {
			nx, ny = append(nx, x1[i]), append(ny, x2[i])
		}
	}
	lo, hi := slices.Min(x2), slices.Max(x2)
	var lx, ly []float64
	if b1[0] != 0 { // b1 x1 + b2 x2 + b0 = 0
		for _, t := range []float64{lo, hi} {
			lx, ly = append(lx, -(b2[0]*t+b0[0])/b1[0]), append(ly, t)
		}
	}
	c, _, err := plots.Lines(plots.Axes{Title: "(c) backfitting classification of a toy", XLabel: "x₁", YLabel: "x₂"},
		plots.Series{Name: "y = +1", X: px, Y: py, Markers: true}, plots.Series{Name: "y = −1", X: nx, Y: ny, Markers: true},
		plots.Series{Name: "p(y = +1) = ½", X: lx, Y: ly})
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "dsouza_fig4_8", plots.Figure{Rows: 1, Cols: 3, Panels: []*plot.Plot{a, b, c},
		Title: "D'Souza Fig 4.8: the Jaakkola-Jordan bound on the logistic, and a toy classification"})
}
