package bnn

// bnn/ica-toy reproduces Lawrence's Bayesian ICA toy (section 6.5.5,
// L2493-2502; targets §3, "Figs 6.9/6.10"): 200 points of three observed
// dimensions mixed from two sources, each a two-component zero-mean
// mixture of Gaussians of variances 1 and 50, W ~ N(0, 1), fitted by a
// model of three sources of the same type from the PCA start, 100 inner
// updates of q(μ), q(x), q(W) and then q(α), q(β), 50 times
// (core/model/ica). The text: the true number of sources is found (Fig.
// 6.9) and one log₁₀ α_i rises very quickly three orders of magnitude
// above the others (Fig. 6.10). The text shows one run; this runs
// data_sets data sets and reports the spread.

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/core/model/ica"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// ICAToyID is the experiment of Figs 6.9/6.10.
const ICAToyID = "bnn/ica-toy"

func init() {
	experiments.Add(ICAToyID, "Bayesian ICA toy: ARD on the mixing columns finds 2 of 3 sources (Lawrence Figs 6.9, 6.10, eqs. 6.1-6.29)",
		DefaultICAToy, RunICAToy, PlotICAToy)
}

// ICASourceMixture is the source density of a config, the mixture of eq.
// 6.4 shared by every source.
type ICASourceMixture struct {
	Weights   []float64 `toml:"weights" range:"(0,1] len=1..4"`
	Means     []float64 `toml:"means" range:"[-1e3,1e3] len=1..4"`
	Variances []float64 `toml:"variances" range:"[1e-6,1e6] len=1..4"`
}

func (s ICASourceMixture) sources() ica.Sources {
	return ica.Sources{Weights: s.Weights, Means: s.Means, Variances: s.Variances}
}

// ICAToyConfig is the config of bnn/ica-toy.
type ICAToyConfig struct {
	experiments.Common
	// DataSets is the number of data sets drawn (the text's one run; 10).
	DataSets int `toml:"data_sets" range:"[1,1000] integer"`
	// N points of Observed dimensions from TrueSources sources (200, 3, 2:
	// L2495), fitted by a model of ModelSources sources (3).
	N            int `toml:"n" range:"[10,1e5] integer"`
	Observed     int `toml:"observed" range:"[1,8] integer"`
	TrueSources  int `toml:"true_sources" range:"[1,6] integer"`
	ModelSources int `toml:"model_sources" range:"[1,6] integer"`
	// Source is the mixture of every source, of the data and of the model
	// (two components of mean 0 and variances 1 and 50, L2495; equal
	// weights are ours, the text gives none).
	Source ICASourceMixture `toml:"source"`
	// NoisePrecision is β of the data (10⁴; see the config for why not the
	// printed 10⁻⁴) and MixingSD the standard deviation of W's elements (1).
	NoisePrecision float64 `toml:"noise_precision" range:"[1e-8,1e12]"`
	MixingSD       float64 `toml:"mixing_sd" range:"[1e-3,1e3]"`
	// InnerIterations updates of q(μ), q(x), q(W) per outer loop, and
	// OuterIterations outer loops each ending with q(α), q(β) (100, 50:
	// L2497).
	InnerIterations int `toml:"inner_iterations" range:"[1,1e5] integer"`
	OuterIterations int `toml:"outer_iterations" range:"[1,1e4] integer"`
	// OffOrders: a source is switched off when its log₁₀ E[α_i] is at least
	// this far above the smallest (ours: 2, two orders of magnitude).
	OffOrders float64 `toml:"off_orders" range:"(0,100]"`
	// Init is the start of q(W): "pca", the text's (L2497), or "random",
	// every element of E[W] from N(0, mixing_sd²) (ours: does ARD find the
	// sources without the principal subspace handed to it?).
	Init  string   `toml:"init"`
	Prior ICAPrior `toml:"prior"`
}

// DefaultICAToy returns the text's settings.
func DefaultICAToy() ICAToyConfig {
	return ICAToyConfig{DataSets: 10, N: 200, Observed: 3, TrueSources: 2, ModelSources: 3,
		Source:         ICASourceMixture{Weights: []float64{0.5, 0.5}, Means: []float64{0, 0}, Variances: []float64{1, 50}},
		NoisePrecision: 1e4, MixingSD: 1, InnerIterations: 100, OuterIterations: 50, OffOrders: 2, Init: "pca", Prior: defaultICAPrior()}
}

// Validate relates the keys: the PCA start gives at most observed columns,
// the mixture's lists have one length and weights summing to 1, and the
// bound comparison fits every model size up to model_sources.
func (c *ICAToyConfig) Validate() error {
	if c.ModelSources > c.Observed {
		return config.FieldError("model_sources", c.ModelSources, fmt.Sprintf("must be at most observed (%d): the PCA start gives one column per observed dimension", c.Observed))
	}
	if c.Init != "pca" && c.Init != "random" {
		return config.FieldError("init", c.Init, `want "pca" or "random"`)
	}
	return icaSourcesCheck("source.weights", c.Source.sources())
}

// icaComponents returns M^I for a mixture of m components and i sources.
func icaComponents(m, i int) float64 { return math.Pow(float64(m), float64(i)) }

// Estimate: each data set fits models of 1 … model_sources sources, each
// E step N·M^I·I² multiply-adds a component.
func (c *ICAToyConfig) Estimate() experiments.Cost {
	m := len(c.Source.Weights)
	var comp float64
	for i := 1; i <= c.ModelSources; i++ {
		comp += icaComponents(m, i) * float64(i*i+c.Observed*i)
	}
	cells := []experiments.Factor{experiments.Key("data_sets", c.DataSets)}
	return experiments.Cost{
		Cells:      cells,
		Memory:     []experiments.Part{experiments.Rows("alpha traces", experiments.Key("data_sets", c.DataSets), experiments.Key("outer_iterations", c.OuterIterations), experiments.Key("model_sources", c.ModelSources))},
		CellMemory: []experiments.Part{experiments.Words("data and moments", experiments.Key("n", c.N), experiments.KeyN("model_sources", c.ModelSources, float64(c.Observed+c.ModelSources*(c.ModelSources+2))+icaComponents(m, c.ModelSources)*float64(c.ModelSources+1), "values a point"))},
		Work: []experiments.Part{experiments.Ops("E-step component updates", 4, experiments.Key("data_sets", c.DataSets), experiments.Key("n", c.N),
			experiments.Key("inner_iterations", c.InnerIterations), experiments.Key("outer_iterations", c.OuterIterations), experiments.KeyN("model_sources", c.ModelSources, comp, "components × I²"))},
	}
}

// Criteria states the criteria of a run.
func (c *ICAToyConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return icaToyCriteria(c), nil
}

func icaToyCriteria(c *ICAToyConfig) results.Criteria {
	quick := max(1, c.OuterIterations/5)
	cs := results.Criteria{
		results.Criterion{ID: "fig6.9-sources-found", Text: fmt.Sprintf("data sets on which the %d-source model keeps exactly the %d true sources (a source is off when its log10 E[alpha] is %g or more above the smallest)", c.ModelSources, c.TrueSources, c.OffOrders), Target: results.AtLeast(0.8)}.
			AsClaim("\"Note that the true number of sources has been correctly determined\"", "L2499"),
		results.Criterion{ID: "fig6.9-sources-recovered", Text: "data sets on which every true source is matched by a kept source with |correlation| of E[x] at least 0.95 (up to permutation and scale)", Target: results.AtLeast(0.8)}.
			AsClaim("the discovered embedded dimensions lie on the true ones (Fig. 6.9)", "L2487"),
		results.Criterion{ID: "fig6.10-alpha-gap", Text: "data sets on which the largest log10 E[alpha_i] ends 2 to 4 above the next largest (about three orders of magnitude)", Target: results.AtLeast(0.8)}.
			AsClaim("\"one of the hyper-parameters becomes three orders of magnitude larger than the others\"", "L2499"),
		results.Criterion{ID: "fig6.10-quickly", Text: fmt.Sprintf("data sets on which that gap first reaches 2 within the first %d of the %d outer loops", quick, c.OuterIterations), Target: results.AtLeast(0.8)}.
			AsClaim("\"very quickly one of the hyper-parameters becomes three orders of magnitude larger\"", "L2499"),
		results.Criterion{ID: "ica-toy-noise-recovered", Text: "data sets on which E[beta] is within a factor of 2 of the data's noise precision", Target: results.AtLeast(0.8)}.AsSanity(),
		results.Criterion{ID: "ica-toy-bound-selects", Text: fmt.Sprintf("data sets on which the bound, which the text could not evaluate (L2532), is largest for the model of the true number of sources among 1 … %d", c.ModelSources), Target: results.AtLeast(0.8)}.AsExtension(),
	}
	if c.Ours() {
		return cs.AsOurs()
	}
	return cs
}

// icaToyCell is one data set's fits.
type icaToyCell struct {
	Fit       icaFit    // the model_sources fit
	Found     int       // sources kept
	Gap       float64   // icaAlphaGap at the end
	FirstGap  int       // first outer loop with gap ≥ 2 (−1: never)
	MinCorr   float64   // icaMatch
	Bounds    []float64 // the final bound of the models of 1 … model_sources sources
	TrueW     []float64
	T         []float64 // the data, data set 0 only
	NoiseTrue float64
}

func (c *ICAToyConfig) data(k int) (t, x, w []float64) {
	src := c.Source.sources()
	r := rng.New(c.Seed, "bnn", "ica-toy", "sources", strconv.Itoa(k))
	x = drawMixture(r, c.N*c.TrueSources, src)
	w = icaMixing(c.Seed, k, c.Observed, c.TrueSources, c.MixingSD)
	t = icaMix(x, w, c.N, c.Observed, c.TrueSources, 1/c.NoisePrecision, rng.New(c.Seed, "bnn", "ica-toy", "noise", strconv.Itoa(k)))
	return t, x, w
}

func (c *ICAToyConfig) run(env *experiments.Env, k int) (icaToyCell, error) {
	t, x, w := c.data(k)
	src := c.Source.sources()
	cell := icaToyCell{TrueW: w, NoiseTrue: c.NoisePrecision}
	for i := 1; i <= c.ModelSources; i++ {
		var w0 []float64
		if c.Init == "random" {
			r := rng.New(c.Seed, "bnn", "ica-toy", "init", strconv.Itoa(k), strconv.Itoa(i))
			w0 = make([]float64, c.Observed*i)
			for j := range w0 {
				w0[j] = c.MixingSD * r.NormFloat64()
			}
		}
		fit, err := fitICA(env, t, c.Observed, i, src, c.Prior, c.InnerIterations, c.OuterIterations, w0, 0)
		if err != nil {
			return cell, fmt.Errorf("data set %d, %d sources: %w", k, i, err)
		}
		cell.Bounds = append(cell.Bounds, fit.F)
		if i == c.ModelSources {
			cell.Fit = fit
		}
	}
	last := cell.Fit.Log10Alpha[len(cell.Fit.Log10Alpha)-1]
	kept := icaKept(last, c.OffOrders)
	cell.Found = countTrue(kept)
	cell.Gap = icaAlphaGap(last)
	cell.FirstGap = -1
	for j, a := range cell.Fit.Log10Alpha {
		if icaAlphaGap(a) >= 2 {
			cell.FirstGap = j
			break
		}
	}
	cell.MinCorr, _ = icaMatch(x, c.TrueSources, cell.Fit.X, c.ModelSources, kept)
	cell.Fit.X = nil
	if k == 0 {
		cell.T = t
	}
	return cell, nil
}

// RunICAToy fits every data set and writes the tables of Figs 6.9/6.10.
func RunICAToy(env *experiments.Env, c *ICAToyConfig) error {
	names := make([]string, c.DataSets)
	for k := range names {
		names[k] = fmt.Sprintf("data-set=%d", k)
	}
	cells, _, err := experiments.RunCells(env, names, func(k int) (icaToyCell, error) { return c.run(env, k) })
	if err != nil {
		return err
	}
	crit := icaToyCriteria(c)
	s := &results.Summary{Criteria: crit}
	var found, gaps, first, corr, beta, selected []float64
	runs := results.NewTable("data_set", "sources_found", "alpha_gap", "first_gap_loop", "min_corr", "e_beta", "bound", "bound_start", "best_sources")
	alpha := results.NewTable("data_set", "outer", "source", "log10_alpha")
	for k, cl := range cells {
		best := 0
		for i, f := range cl.Bounds {
			if f > cl.Bounds[best] {
				best = i
			}
		}
		found = append(found, float64(cl.Found))
		gaps = append(gaps, cl.Gap)
		fg := float64(cl.FirstGap)
		if cl.FirstGap < 0 {
			fg = math.Inf(1)
		}
		first = append(first, fg)
		corr = append(corr, cl.MinCorr)
		beta = append(beta, cl.Fit.Beta)
		selected = append(selected, float64(best+1))
		runs.AddRow(k, cl.Found, cl.Gap, cl.FirstGap, cl.MinCorr, cl.Fit.Beta, cl.Fit.F, cl.Fit.FStart, best+1)
		for j, a := range cl.Fit.Log10Alpha {
			for i, v := range a {
				alpha.AddRow(k, j, i, v)
			}
		}
	}
	s.AddSpread("ica_sources_found", found)
	s.SetMetric("ica_sources_found", results.Median(found))
	s.AddSpread("ica_log10_alpha_gap", gaps)
	s.AddSpread("ica_min_corr", corr)
	s.AddSpread("ica_e_beta", beta)
	s.AddSpread("ica_bound_best_sources", selected)
	s.JudgeSeeds(crit.Get("fig6.9-sources-found"), found, func(v float64) bool { return int(v) == c.TrueSources })
	s.JudgeSeeds(crit.Get("fig6.9-sources-recovered"), corr, func(v float64) bool { return v >= 0.95 })
	s.JudgeSeeds(crit.Get("fig6.10-alpha-gap"), gaps, func(v float64) bool { return v >= 2 && v <= 4 })
	quick := float64(max(1, c.OuterIterations/5))
	s.JudgeSeeds(crit.Get("fig6.10-quickly"), first, func(v float64) bool { return v <= quick })
	s.JudgeSeeds(crit.Get("ica-toy-noise-recovered"), beta, func(v float64) bool { return math.Abs(math.Log(v/c.NoisePrecision)) <= math.Ln2 })
	s.JudgeSeeds(crit.Get("ica-toy-bound-selects"), selected, func(v float64) bool { return int(v) == c.TrueSources })
	for _, tb := range []struct {
		name string
		t    *results.Table
	}{{"ica_toy_runs.csv", runs}, {"ica_toy_alpha.csv", alpha}, {"ica_toy_points.csv", icaPointsTable(cells[0].T, c.Observed)},
		{"ica_toy_columns.csv", icaColumnsTable(cells[0].TrueW, c.TrueSources, cells[0].Fit.W, c.ModelSources, icaKept(cells[0].Fit.Log10Alpha[len(cells[0].Fit.Log10Alpha)-1], c.OffOrders), c.Observed)}} {
		if err := results.WriteCSV(env.Path(tb.name), *tb.t); err != nil {
			return err
		}
	}
	s.Claims = []results.Claim{
		{Artifact: "Lawrence Figure 6.9", Figures: []string{"lawrence_fig6_9"}, Checks: []string{"fig6.9-sources-found", "fig6.9-sources-recovered", "ica-toy-noise-recovered", "ica-toy-bound-selects"},
			Statement: "A three-source model with ARD on the mixing columns, fitted to data from two sources, keeps two and finds their directions (L2499, Fig. 6.9)."},
		{Artifact: "Lawrence Figure 6.10", Figures: []string{"lawrence_fig6_10"}, Checks: []string{"fig6.10-alpha-gap", "fig6.10-quickly"},
			Statement: "Very quickly one log10 alpha_i becomes three orders of magnitude larger than the others, switching its source off (L2499, Fig. 6.10)."},
	}
	s.AddFindingsFromChecks(nil)
	return env.WriteSummary(s, fmt.Sprintf("%d data sets of %d points: %d observed dimensions from %d sources, each a mixture of %v weights, %v means, %v variances; W ~ N(0, %g²), no offset, noise precision %g. Fitted by core/model/ica with %d sources of the same mixture from the %s start of q(W), %d outer loops of %d updates of q(mu), q(x), q(W) then q(alpha), q(beta); hyperpriors a_alpha = %g, b_alpha = %g, a_beta = %g, b_beta = %g, tau = %g. A source is off when its log10 E[alpha] is at least %g above the smallest; recovered sources are matched to the true ones by |correlation| of E[x]. The bound is complete (E[ln p(x)] + H[q(x)] = sum ln Z_n - E[A_n]); models of 1 to %d sources are compared by it.",
		c.DataSets, c.N, c.Observed, c.TrueSources, c.Source.Weights, c.Source.Means, c.Source.Variances, c.MixingSD, c.NoisePrecision, c.ModelSources, c.Init, c.OuterIterations, c.InnerIterations,
		c.Prior.AAlpha, c.Prior.BAlpha, c.Prior.ABeta, c.Prior.BBeta, c.Prior.Tau, c.OffOrders, c.ModelSources))
}

// icaPointsTable is the data (N×P), a row a point.
func icaPointsTable(t []float64, p int) *results.Table {
	h := []string{}
	for q := 0; q < p; q++ {
		h = append(h, fmt.Sprintf("t%d", q+1))
	}
	tab := results.NewTable(h...)
	for a := 0; a < len(t)/p; a++ {
		row := make([]any, p)
		for q := range row {
			row[q] = t[a*p+q]
		}
		tab.AddRow(row...)
	}
	return tab
}

// icaColumnsTable lists the true and the fitted mixing columns.
func icaColumnsTable(trueW []float64, ti int, fitW []float64, fi int, kept []bool, p int) *results.Table {
	h := []string{"kind", "column", "kept"}
	for q := 0; q < p; q++ {
		h = append(h, fmt.Sprintf("w%d", q+1))
	}
	tab := results.NewTable(h...)
	add := func(kind string, w []float64, i, j int, k bool) {
		row := []any{kind, j, k}
		for q := 0; q < p; q++ {
			row = append(row, w[q*i+j])
		}
		tab.AddRow(row...)
	}
	for j := 0; j < ti; j++ {
		add("true", trueW, ti, j, true)
	}
	for j := 0; j < fi; j++ {
		add("fit", fitW, fi, j, kept[j])
	}
	return tab
}

// PlotICAToy redraws Figs 6.9 and 6.10.
func PlotICAToy(dir string) error {
	if err := plotICAScatter(dir, "ica_toy_points.csv", "ica_toy_columns.csv", "lawrence_fig6_9", "Lawrence Fig. 6.9: data set 0, the kept fitted mixing columns and the true ones"); err != nil {
		return err
	}
	return plotICAAlpha(dir, "ica_toy_alpha.csv", "lawrence_fig6_10", "Lawrence Fig. 6.10: log10 E[alpha_i] after each outer loop, data set 0")
}

// plotICAScatter draws the data in every pair of observed dimensions with
// the kept fitted mixing columns and the true ones as lines through the
// data's mean, each scaled to the data's spread.
func plotICAScatter(dir, points, columns, stem, title string) error {
	pt := results.ReadColumns(filepath.Join(dir, points))
	ct := results.ReadColumns(filepath.Join(dir, columns))
	var dims [][]float64
	for q := 1; ; q++ {
		name := fmt.Sprintf("t%d", q)
		if !slices.Contains(pt.Table().Header, name) {
			break
		}
		dims = append(dims, pt.Floats(name))
	}
	kind, kept, colName := ct.Strings("kind"), ct.Strings("kept"), ct.Strings("column")
	var wcols [][]float64
	for q := 1; q <= len(dims); q++ {
		wcols = append(wcols, ct.Floats(fmt.Sprintf("w%d", q)))
	}
	if err := pt.Err(); err != nil {
		return err
	}
	if err := ct.Err(); err != nil {
		return err
	}
	var panels []*plot.Plot
	for a := 0; a < len(dims); a++ {
		for b := a + 1; b < len(dims); b++ {
			ma, mb := results.Mean(dims[a]), results.Mean(dims[b])
			var spread float64
			for i := range dims[a] {
				spread = math.Max(spread, math.Hypot(dims[a][i]-ma, dims[b][i]-mb))
			}
			series := []plots.Series{{Name: "data", X: dims[a], Y: dims[b], Markers: true}}
			for r := range kind {
				if kind[r] == "fit" && kept[r] != "true" {
					continue
				}
				wa, wb := wcols[a][r], wcols[b][r]
				l := math.Hypot(wa, wb)
				if l == 0 {
					continue
				}
				sc := spread / l
				series = append(series, plots.Series{Name: fmt.Sprintf("%s %s", kind[r], colName[r]), X: []float64{ma - sc*wa, ma + sc*wa}, Y: []float64{mb - sc*wb, mb + sc*wb}})
			}
			pl, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("t%d against t%d", b+1, a+1), XLabel: fmt.Sprintf("t%d", a+1), YLabel: fmt.Sprintf("t%d", b+1)}, series...)
			if err != nil {
				return err
			}
			panels = append(panels, pl)
		}
	}
	return experiments.SaveFigure(dir, stem, plots.Figure{Rows: 1, Cols: len(panels), Panels: panels, Title: title})
}

// plotICAAlpha draws log₁₀ E[α_i] against the outer loop for data set 0.
func plotICAAlpha(dir, file, stem, title string) error {
	t := results.ReadColumns(filepath.Join(dir, file))
	set, outer, src, a := t.Floats("data_set"), t.Floats("outer"), t.Floats("source"), t.Floats("log10_alpha")
	if err := t.Err(); err != nil {
		return err
	}
	var series []plots.Series
	for i := range set {
		if set[i] != 0 {
			continue
		}
		j := int(src[i])
		for len(series) <= j {
			series = append(series, plots.Series{Name: fmt.Sprintf("alpha_%d", len(series)+1)})
		}
		series[j].X, series[j].Y = append(series[j].X, outer[i]), append(series[j].Y, a[i])
	}
	pl, _, err := plots.Lines(plots.Axes{Title: "log10 E[alpha_i]", XLabel: "outer loop"}, series...)
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, stem, plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{pl}, Title: title})
}
