package chapter4

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/is"
)

// This file draws the figures of the importance-sampling experiments of
// section 4.7: chapter4/is-tightness (Figures 4.12, 4.13), chapter4/is-samplers
// (Figure 4.14) and chapter4/is-hazard (the variance of the weights, eq.
// (4.121)), from their tables.

// PlotISTightness draws Figures 4.12 and 4.13 from snapshots.csv and
// is_tightness.csv.
func PlotISTightness(dir string) error {
	st := results.ReadColumns(filepath.Join(dir, "snapshots.csv"))
	sweep, comps, fvb, lnp := st.Floats("sweep"), st.Floats("components"), st.Floats("F_VB"), st.Floats("ln_p_mean")
	lnpSE, fhat, trErr, teErr := st.Floats("ln_p_se"), st.Floats("F_hat_mean"), st.Floats("train_error"), st.Floats("test_error")
	if err := st.Err(); err != nil {
		return err
	}
	if len(sweep) == 0 {
		return fmt.Errorf("%s: no snapshots", filepath.Join(dir, "snapshots.csv"))
	}
	band := func(y, e []float64) (lo, hi []float64) {
		for i := range y {
			w := e[i]
			if math.IsNaN(w) {
				w = 0
			}
			lo, hi = append(lo, y[i]-w), append(hi, y[i]+w)
		}
		return lo, hi
	}
	lo, hi := band(lnp, lnpSE)
	pa, _, err := plots.Lines(plots.Axes{Title: "(a) bounds and ln p̂ (mean ± s.e. of the IS runs)", XLabel: "VBEM sweeps", YLabel: "nats"},
		plots.Series{Name: "ln p̂(y)", X: sweep, Y: lnp, Lo: lo, Hi: hi, Points: true},
		plots.Series{Name: "F̂(π,Λ̃)", X: sweep, Y: fhat, Points: true},
		plots.Series{Name: "F(π,ν,Λ̃,x,s)", X: sweep, Y: fvb, Points: true})
	if err != nil {
		return err
	}
	pe, _, err := plots.Lines(plots.Axes{Title: "(a, continued) classification error, the right axis of the thesis's (a) (majority mapping)", XLabel: "VBEM sweeps", YLabel: "error fraction"},
		plots.Series{Name: "train", X: sweep, Y: trErr, Points: true},
		plots.Series{Name: "test", X: sweep, Y: teErr, Points: true})
	if err != nil {
		return err
	}
	diffPL := make([]float64, len(sweep))
	for i := range sweep {
		diffPL[i] = lnp[i] - fhat[i]
	}
	pb, _, err := plots.Lines(plots.Axes{Title: "(b) ln p̂ - F̂(π,Λ̃) (rescaled axis of (a))", XLabel: "VBEM sweeps", YLabel: "nats"},
		plots.Series{Name: "ln p̂ - F̂(π,Λ̃)", X: sweep, Y: diffPL, Points: true})
	if err != nil {
		return err
	}
	name, own, err := experiments.DataName(dir, optdigitsName)
	if err != nil {
		return err
	}
	digits := name + " 0-2"
	if own {
		digits = name + ", digits 0-2"
	}
	if err := experiments.SaveFigure(dir, "fig4_12", plots.Figure{Rows: 3, Cols: 1, Panels: []*plot.Plot{pa, pe, pb},
		Width: 6.5 * vg.Inch, Height: 9 * vg.Inch,
		Title: "Figure 4.12: ln p̂(y) by IS from q(π)q(Λ̃) against the bounds (" + digits + ")"}); err != nil {
		return err
	}
	rt := results.ReadColumns(filepath.Join(dir, "is_tightness.csv"))
	epoch, rsweep, rcomps, gapFull, klHat := rt.Floats("epoch"), rt.Floats("sweep"), rt.Floats("components"), rt.Floats("gap_full"), rt.Floats("kl_hat")
	if err := rt.Err(); err != nil {
		return err
	}
	// Per snapshot (the consecutive rows of one epoch): the median over the
	// runs, drawn as a line, and every run's estimate as a dot.
	type agg struct{ sweep, s, med []float64 }
	collect := func(v []float64) agg {
		var a agg
		for i := 0; i < len(v); {
			j := i
			for j < len(v) && epoch[j] == epoch[i] {
				j++
			}
			a.sweep, a.s = append(a.sweep, rsweep[i]), append(a.s, rcomps[i])
			a.med = append(a.med, results.Median(slices.Clone(v[i:j])))
			i = j
		}
		return a
	}
	ga, gb := collect(gapFull), collect(klHat)
	panel := func(title, xlabel string, x, y, allX, allY []float64) (*plot.Plot, error) {
		p, _, err := plots.Lines(plots.Axes{Title: title, XLabel: xlabel, YLabel: "nats", IntegerX: xlabel == "analysers S"},
			plots.Series{Name: "median of the runs", X: x, Y: y}, plots.Series{Name: "each run", X: allX, Y: allY, Markers: true})
		return p, err
	}
	// bySize orders a snapshot aggregate by S (then by sweep) for the
	// panels against S.
	bySize := func(a agg) (x, y []float64) {
		idx := make([]int, len(a.s))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(i, j int) int { return cmp.Compare(a.s[i], a.s[j]) })
		for _, i := range idx {
			x, y = append(x, a.s[i]), append(y, a.med[i])
		}
		return x, y
	}
	var panels []*plot.Plot
	pa13, err := panel("(a) ln p̂ - F(π,ν,Λ̃,x,s)", "VBEM sweeps", ga.sweep, ga.med, rsweep, gapFull)
	if err != nil {
		return err
	}
	pb13, err := panel("(b) ln p̂ - F̂(π,Λ̃)", "VBEM sweeps", gb.sweep, gb.med, rsweep, klHat)
	if err != nil {
		return err
	}
	pcS, _, err := plots.Lines(plots.Axes{Title: "(c) analysers S", XLabel: "VBEM sweeps", YLabel: "S"},
		plots.Series{X: sweep, Y: comps, Points: true})
	if err != nil {
		return err
	}
	xd, yd := bySize(ga)
	pd, err := panel("(d) ln p̂ - F(π,ν,Λ̃,x,s) against S", "analysers S", xd, yd, rcomps, gapFull)
	if err != nil {
		return err
	}
	xe, ye := bySize(gb)
	pe13, err := panel("(e) ln p̂ - F̂(π,Λ̃) against S", "analysers S", xe, ye, rcomps, klHat)
	if err != nil {
		return err
	}
	panels = append(panels, pa13, pb13, pcS, pd, pe13, nil)
	return experiments.SaveFigure(dir, "fig4_13", plots.Figure{Rows: 3, Cols: 2, Panels: panels,
		Width: 10 * vg.Inch, Height: 10 * vg.Inch,
		Title: "Figure 4.13: the gaps to ln p̂ along the search and against the number of analysers"})
}

// PlotISSamplers draws Figure 4.14 from data.csv, analysers.csv and
// table4_3.csv: per data set, the data with the best model's analysers (2
// s.d.), and ln p̂ of every sampler (mean ± s.e.) against F and F′.
func PlotISSamplers(dir string) error {
	dt := results.ReadColumns(filepath.Join(dir, "data.csv"))
	at := results.ReadColumns(filepath.Join(dir, "analysers.csv"))
	tt := results.ReadColumns(filepath.Join(dir, "table4_3.csv"))
	d := [][]float64{dt.Floats("delta"), dt.Floats("x"), dt.Floats("y")}
	a := [][]float64{at.Floats("delta"), at.Floats("x"), at.Floats("y"), at.Floats("xx"), at.Floats("xy"), at.Floats("yy")}
	am := at.Strings("model")
	tv := [][]float64{tt.Floats("delta"), tt.Floats("sampler"), tt.Floats("ln_p_mean"), tt.Floats("ln_p_se"), tt.Floats("F"), tt.Floats("F_prime")}
	for _, c := range []*results.Columns{dt, at, tt} {
		if err := c.Err(); err != nil {
			return err
		}
	}
	var deltas []float64
	for _, v := range tv[0] {
		if !slices.Contains(deltas, v) {
			deltas = append(deltas, v)
		}
	}
	if len(deltas) == 0 {
		return fmt.Errorf("%s: no rows", filepath.Join(dir, "table4_3.csv"))
	}
	var panels []*plot.Plot
	for _, delta := range deltas {
		var xs, ys []float64
		for i, v := range d[0] {
			if v == delta {
				xs, ys = append(xs, d[1][i]), append(ys, d[2][i])
			}
		}
		var ells []plots.Ellipse
		for i, v := range a[0] {
			if v == delta && am[i] == "best" {
				ells = append(ells, plots.Ellipse{X: a[1][i], Y: a[2][i], XX: a[3][i], XY: a[4][i], YY: a[5][i], SD: 2})
			}
		}
		left, err := plots.ScatterEllipses(plots.Axes{Title: fmt.Sprintf("δ = %g: data (z-scored), best model (2 s.d.)", delta), XLabel: "y1", YLabel: "y2"}, xs, ys, ells)
		if err != nil {
			return err
		}
		var keys, mean, se []float64
		var F, Fp float64
		for i, v := range tv[0] {
			if v == delta {
				keys, mean, se = append(keys, tv[1][i]), append(mean, tv[2][i]), append(se, tv[3][i])
				F, Fp = tv[4][i], tv[5][i]
			}
		}
		lo, hi := slices.Min(keys)-0.5, slices.Max(keys)+0.5
		right, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("δ = %g: ln p̂ (mean ± s.e. of the runs)", delta), XLabel: "sampler (Table 4.3)", YLabel: "nats"},
			plots.Series{Name: "ln p̂", X: keys, Y: mean, Points: true},
			plots.Series{Name: "F (single model)", X: []float64{lo, hi}, Y: []float64{F, F}},
			plots.Series{Name: "F′ (best of the runs)", X: []float64{lo, hi}, Y: []float64{Fp, Fp}})
		if err != nil {
			return err
		}
		if _, err := plots.ErrorBars(right, 0, keys, mean, se); err != nil {
			return err
		}
		// Make room for the error bars and both bounds.
		ymin, ymax := math.Min(F, Fp), math.Max(F, Fp)
		for i := range mean {
			ymin, ymax = math.Min(ymin, mean[i]-se[i]), math.Max(ymax, mean[i]+se[i])
		}
		if !math.IsNaN(ymin) && !math.IsNaN(ymax) {
			pad := 0.05 * math.Max(ymax-ymin, 1e-9)
			right.Y.Min, right.Y.Max = math.Min(right.Y.Min, ymin-pad), math.Max(right.Y.Max, ymax+pad)
		}
		panels = append(panels, left, right)
	}
	return experiments.SaveFigure(dir, "fig4_14", plots.Figure{Rows: len(deltas), Cols: 2, Panels: panels,
		Width: 10 * vg.Inch, Height: vg.Length(len(deltas)) * 3.5 * vg.Inch,
		Title: "Figure 4.14: importance samplers 1-6 of Table 4.3 (no ln S! correction)"})
}

// minDrawn is the smallest variance drawn on the log axis (near ν_q = ν_p
// the variance goes to 0).
const minDrawn = 1e-5

// PlotISHazard draws is_hazard.svg/png from is_hazard_runs.csv: eq. (4.121) (finite below ν_q/ν_p = 2) and every
// Monte Carlo estimate, on a log scale.
func PlotISHazard(dir string) error {
	rt := results.ReadColumns(filepath.Join(dir, "is_hazard_runs.csv"))
	rr, rn, rv := rt.Floats("ratio"), rt.Floats("samples"), rt.Floats("mc")
	if err := rt.Err(); err != nil {
		return err
	}
	if len(rn) == 0 {
		return fmt.Errorf("%s: no rows", filepath.Join(dir, "is_hazard_runs.csv"))
	}
	big, small := slices.Max(rn), slices.Min(rn)
	// The closed form on a fine grid below 2 (above it is infinite).
	fine := plots.Series{Name: "eq. (4.121)"}
	for i := 1; i < 200; i++ {
		r := 0.01 * float64(i)
		if v := is.GaussianWeightVariance(1, r); v > minDrawn {
			fine.X, fine.Y = append(fine.X, r), append(fine.Y, v)
		}
	}
	mc := []plots.Series{{Name: fmt.Sprintf("Monte Carlo, %g samples", big), Markers: true}, {Name: fmt.Sprintf("Monte Carlo, %g samples", small), Markers: true}}
	for i := range rr {
		if rv[i] > minDrawn && !math.IsInf(rv[i], 0) {
			k := 0
			if rn[i] != big {
				k = 1
			}
			mc[k].X, mc[k].Y = append(mc[k].X, rr[i]), append(mc[k].Y, rv[i])
		}
	}
	p, _, err := plots.Lines(plots.Axes{Title: "variance of the weights, p = N(0, 1/ν_p), q = N(0, 1/ν_q)", XLabel: "ν_q / ν_p", YLabel: "var(ω)", LogY: true},
		fine, mc[0], mc[1])
	if err != nil {
		return err
	}
	p.X.Min, p.X.Max = 0, slices.Max(rr)*1.02
	return experiments.SaveFigure(dir, "is_hazard", plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p}, Width: 7 * vg.Inch, Height: 4.5 * vg.Inch,
		Title: "Eq. (4.121): the weights' variance is infinite for ν_q ≥ 2ν_p"})
}
