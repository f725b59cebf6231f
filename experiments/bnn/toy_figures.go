package bnn

import (
	"fmt"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// PlotToy redraws lawrence_fig5_3 (seed 0: the five panels of Fig. 5.3),
// lawrence_fig5_4 and lawrence_fig5_5 from the toy's tables.
func PlotToy(dir string) error {
	sc := results.ReadColumns(filepath.Join(dir, "toy_seeds.csv"))
	sSeed, sFig := sc.Floats("seed"), sc.Floats("figure")
	if err := sc.Err(); err != nil {
		return err
	}
	fig := 0.0
	for i := range sSeed {
		if sFig[i] == 1 {
			fig = sSeed[i]
		}
	}
	pc := results.ReadColumns(filepath.Join(dir, "toy_predictive.csv"))
	pSeed, pMethod, pX, pMean, pSD := pc.Floats("seed"), pc.Strings("method"), pc.Floats("x"), pc.Floats("mean"), pc.Floats("sd")
	dc := results.ReadColumns(filepath.Join(dir, "toy_data.csv"))
	dSeed, dX, dT := dc.Floats("seed"), dc.Floats("x"), dc.Floats("t")
	cc := results.ReadColumns(filepath.Join(dir, "toy_components.csv"))
	cSeed, cComp, cX, cMean := cc.Floats("seed"), cc.Floats("component"), cc.Floats("x"), cc.Floats("mean")
	wc := results.ReadColumns(filepath.Join(dir, "toy_draws.csv"))
	wMethod, wDraw, wX, wF := wc.Strings("method"), wc.Floats("draw"), wc.Floats("x"), wc.Floats("f")
	for _, c := range []*results.Columns{pc, dc, cc, wc} {
		if err := c.Err(); err != nil {
			return err
		}
	}
	var data plots.Series
	data.Name, data.Markers = "data", true
	for i := range dSeed {
		if dSeed[i] == fig {
			data.X, data.Y = append(data.X, dX[i]), append(data.Y, dT[i])
		}
	}
	curve := func(method string, sd float64) plots.Series {
		s := plots.Series{}
		for i := range pSeed {
			if pSeed[i] == fig && pMethod[i] == method {
				s.X, s.Y = append(s.X, pX[i]), append(s.Y, pMean[i]+sd*pSD[i])
			}
		}
		return s
	}
	draws := func(method string) []plots.Series {
		byDraw := map[float64]*plots.Series{}
		var order []float64
		for i := range wMethod {
			if wMethod[i] != method {
				continue
			}
			s, ok := byDraw[wDraw[i]]
			if !ok {
				s = &plots.Series{}
				byDraw[wDraw[i]] = s
				order = append(order, wDraw[i])
			}
			s.X, s.Y = append(s.X, wX[i]), append(s.Y, wF[i])
		}
		var out []plots.Series
		for _, d := range order {
			out = append(out, *byDraw[d])
		}
		return out
	}
	named := func(s plots.Series, name string) plots.Series { s.Name = name; return s }
	panel := func(title string, series ...plots.Series) (*plot.Plot, error) {
		p, _, err := plots.Lines(plots.Axes{Title: title, XLabel: "x", YLabel: "f(x)"}, append([]plots.Series{data}, series...)...)
		return p, err
	}
	var ps []*plot.Plot
	// (a) the components' expectations and the diagonal posterior's.
	comp := map[float64]*plots.Series{}
	var order []float64
	for i := range cSeed {
		if cSeed[i] != fig {
			continue
		}
		s, ok := comp[cComp[i]]
		if !ok {
			s = &plots.Series{}
			comp[cComp[i]] = s
			order = append(order, cComp[i])
		}
		s.X, s.Y = append(s.X, cX[i]), append(s.Y, cMean[i])
	}
	as := []plots.Series{named(curve("vb_diag", 0), "diagonal ⟨f⟩")}
	for k, c := range order {
		s := *comp[c]
		if k == 0 {
			s.Name = "components' ⟨f⟩"
		}
		as = append(as, s)
	}
	for _, spec := range []struct {
		title, method, draws string
		bars                 bool
	}{
		{"(b) mixture: draws, mean, ±1 sd", "vb_mix", "vb_mix", true},
		{"(c) Laplace: draws, eq. 5.49 mean, f at the mode", "laplace_eq5_49", "laplace", false},
		{"(d) diagonal: draws, mean, ±1 sd", "vb_diag", "vb_diag", true},
		{"(e) HMC: draws and mean", "hmc", "hmc", false},
	} {
		if spec.title[1] == 'b' {
			p, err := panel("(a) diagonal ⟨f⟩ and each component's", as...)
			if err != nil {
				return err
			}
			ps = append(ps, p)
		}
		ss := draws(spec.draws)
		if len(ss) > 0 {
			ss[0].Name = "draws"
		}
		ss = append(ss, named(curve(spec.method, 0), "mean"))
		if spec.bars {
			ss = append(ss, named(curve(spec.method, 1), "±1 sd"), curve(spec.method, -1))
		}
		if spec.method == "laplace_eq5_49" {
			ss = append(ss, named(curve("map", 0), "f at the mode"))
		}
		p, err := panel(spec.title, ss...)
		if err != nil {
			return err
		}
		p.Y.Min, p.Y.Max = -0.5, 1.5
		ps = append(ps, p)
	}
	if err := experiments.SaveFigure(dir, "lawrence_fig5_3", plots.Figure{Rows: 2, Cols: 3, Panels: ps,
		Title: fmt.Sprintf("Lawrence Fig. 5.3: the toy (seed %g), five posteriors", fig)}); err != nil {
		return err
	}
	for _, f := range []struct{ name, file, approx, title string }{
		{"lawrence_fig5_4", "lawrence_fig5_4.csv", "laplace", "Lawrence Fig. 5.4: ln posterior (solid) and Laplace (dashed) along the covariance eigenvectors, largest first; t in σ"},
		{"lawrence_fig5_5", "lawrence_fig5_5.csv", "mixture", "Lawrence Fig. 5.5: ln posterior and ln q along the lines through pairs of component means"},
	} {
		lc := results.ReadColumns(filepath.Join(dir, f.file))
		lab, t, tr, ap := lc.Strings(lc.Table().Header[0]), lc.Floats("t"), lc.Floats("true"), lc.Floats(f.approx)
		if err := lc.Err(); err != nil {
			return err
		}
		byLab := map[string][2]*plots.Series{}
		var labs []string
		for i := range lab {
			s, ok := byLab[lab[i]]
			if !ok {
				s = [2]*plots.Series{{Name: "true"}, {Name: f.approx}}
				byLab[lab[i]] = s
				labs = append(labs, lab[i])
			}
			s[0].X, s[0].Y = append(s[0].X, t[i]), append(s[0].Y, tr[i])
			s[1].X, s[1].Y = append(s[1].X, t[i]), append(s[1].Y, ap[i])
		}
		var lp []*plot.Plot
		if len(labs) == 0 { // no seed had a positive definite Hessian
			p, _, err := plots.Lines(plots.Axes{Title: "no seed has a positive definite Hessian at its mode", XLabel: "t", YLabel: "log density"})
			if err != nil {
				return err
			}
			lp = append(lp, p)
		}
		for _, l := range labs {
			title := "direction " + l
			if strings.Contains(l, "-") {
				title = "components " + l
			}
			p, _, err := plots.Lines(plots.Axes{Title: title, XLabel: "t", YLabel: "log density"}, *byLab[l][0], *byLab[l][1])
			if err != nil {
				return err
			}
			lp = append(lp, p)
		}
		cols := 4
		if err := experiments.SaveFigure(dir, f.name, plots.Figure{Rows: (len(lp) + cols - 1) / cols, Cols: cols, Panels: lp, Title: f.title}); err != nil {
			return err
		}
	}
	return nil
}
