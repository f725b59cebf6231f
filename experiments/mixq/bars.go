package mixq

// mixq/bars reproduces Lawrence's Fig. 2.7 (§2.5.2, L1143-1150): 1-8-16
// sigmoid belief nets learn the "bars" problem of Hinton et al. (1995) —
// 4×4 binary images of horizontal or vertical bars (each orientation with
// probability ½, each of the four bars on with probability ½) — by gradient
// ascent of the variational bound in the weights, with q mean field (M = 1)
// or a mixture of M = 2…5 mean-field components, and are scored by their
// exact log-likelihood per pattern (2⁹ latent states enumerated).

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/core/model/sbn"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// BarsID is the experiment of Fig. 2.7.
const BarsID = "mixq/bars"

func init() {
	experiments.Add(BarsID, "learning the 4×4 bars problem with 1-8-16 sigmoid belief nets, mean field against mixtures of 2-5 components, scored by the exact log-likelihood (Lawrence Fig. 2.7)",
		DefaultBars, RunBars, PlotBars)
	experiments.AddArtefacts(experiments.Lawrence,
		experiments.Artefact{Label: "Figure 2.7", Line: 1143, Caption: "true log-likelihood per pattern of nets trained on the bars problem against the number of mixture components M",
			Experiments: []string{BarsID}})
}

// barsSide is the side of the images (4, L1145).
const barsSide = 4

// BarsConfig is the config of mixq/bars.
type BarsConfig struct {
	experiments.Common
	// Layers are the layer sizes, top first (1-8-16, L1145); the last must
	// have barsSide² = 16 units, the pixels.
	Layers []int `toml:"layers" range:"[1,16] integer len=2..3"`
	// Components are the M of the learners; 1 is mean field (L1145: "between
	// 1 and 5 components").
	Components []int `toml:"components" range:"[1,10] integer len=1..10 increasing"`
	// Restarts is the number of trainings per M from different random
	// initial nets (10, L1148); restart r starts every M from one net and
	// presents one stream of patterns.
	Restarts int `toml:"restarts" range:"[1,1000] integer"`
	// Presentations is the number of patterns presented, each freshly drawn
	// (500, L1147), one gradient step each.
	Presentations int `toml:"presentations" range:"[1,1e6] integer"`
	// Rate is the learning rate of the step on one pattern's bound (ours:
	// the text gives none).
	Rate float64 `toml:"rate" range:"(0,10]"`
	// InitSpan: initial weights and biases are U(−init_span, init_span)
	// (ours: the text says "random parameter initialisations", L1148).
	InitSpan float64 `toml:"init_span" range:"(0,10]"`
	// CurveEvery: the exact log-likelihood is recorded every curve_every
	// presentations for the learning curves.
	CurveEvery int `toml:"curve_every" range:"[1,1e6] integer"`
	// VB stops each pattern's fit of q (ours: the text's rule is not given).
	VB config.FitSettings `toml:"vb"`
}

// DefaultBars returns the text's settings with our rate, start and stop rule.
func DefaultBars() BarsConfig {
	return BarsConfig{Common: experiments.Common{Seed: 27, Figures: []string{"lawrence_fig2_7"}},
		Layers: []int{1, 8, 16}, Components: []int{1, 2, 3, 4, 5}, Restarts: 10, Presentations: 500,
		Rate: 0.5, InitSpan: 0.1, CurveEvery: 50,
		VB: config.FitSettings{MaxIterations: 20, RelTol: 1e-6, MonotoneTol: 1e-9}}
}

// Validate checks what relates keys.
func (c *BarsConfig) Validate() error {
	if v := c.Layers[len(c.Layers)-1]; v != barsSide*barsSide {
		return config.FieldError("layers", c.Layers, fmt.Sprintf("ends in %d units; the bars images have %d pixels", v, barsSide*barsSide))
	}
	h := 0
	for _, k := range c.Layers[:len(c.Layers)-1] {
		h += k
	}
	if h > maxHidden {
		return config.FieldError("layers", c.Layers, fmt.Sprintf("has %d latent units; the exact log-likelihood enumerates at most %d", h, maxHidden))
	}
	return c.VB.Validate("vb", nil)
}

// barsPairOps is the work of one iteration of one component per
// unit-parent pair, in nanoseconds (measured on the 1-8-16 net: μ, ξ and
// the smoothing fixed points).
const barsPairOps = 2500

// Estimate counts every learner's fits to the iteration cap and the exact
// log-likelihoods of the curves.
func (c *BarsConfig) Estimate() experiments.Cost {
	units, pairs, hidden := 0, 0, 0
	for l, k := range c.Layers {
		units += k
		if l > 0 {
			pairs += k * c.Layers[l-1]
		}
		if l < len(c.Layers)-1 {
			hidden += k
		}
	}
	mMax := c.Components[len(c.Components)-1]
	sumM := mMax // the mean-field learner at matched compute: mMax× the presentations
	for _, m := range c.Components {
		sumM += m
	}
	restarts := experiments.Key("restarts", c.Restarts)
	pres := experiments.Key("presentations", c.Presentations)
	comps := experiments.KeyN("components", c.Components, float64(sumM), "Σ M, and the matched-compute mean field")
	learners := experiments.KeyN("components", c.Components, float64(len(c.Components)+1), "learners")
	perCurve := experiments.KeyN("curve_every", c.CurveEvery, 1/float64(c.CurveEvery)+1/float64(c.Presentations), "curve points per presentation")
	return experiments.Cost{
		Cells:      []experiments.Factor{restarts, learners},
		Memory:     []experiments.Part{experiments.Rows("curve points", restarts, learners, experiments.Fixed(float64(mMax), "× largest M"), pres, perCurve)},
		CellMemory: []experiments.Part{experiments.Words("a net and its fit", experiments.KeyN("layers", c.Layers, float64(units+pairs), "weights"), experiments.KeyN("components", c.Components, float64(4*mMax*units), "states"))},
		Work: []experiments.Part{
			experiments.Ops("fits", barsPairOps, restarts, pres, comps, experiments.Key("vb.max_iterations", c.VB.MaxIterations),
				experiments.KeyN("layers", c.Layers, float64(max(pairs, 1)), "unit-parent pairs")),
			experiments.Ops("exact log-likelihoods", 10*30, restarts, learners, experiments.Fixed(float64(mMax), "× largest M"), pres, perCurve,
				experiments.KeyN("layers", c.Layers, math.Ldexp(float64(units+pairs), hidden), "latent states × weights")),
		},
	}
}

// barsPattern draws one image (L1145): an orientation with probability ½,
// then each of the four bars on with probability ½; pixels row-major.
func barsPattern(r *rand.Rand, v []float64) []float64 {
	v = v[:0]
	for range barsSide * barsSide {
		v = append(v, 0)
	}
	vertical := r.IntN(2) == 1
	for l := range barsSide {
		if r.IntN(2) == 0 {
			continue
		}
		for k := range barsSide {
			if vertical {
				v[k*barsSide+l] = 1
			} else {
				v[l*barsSide+k] = 1
			}
		}
	}
	return v
}

// barsTestSet is the distribution of the bars images: the 30 distinct
// patterns (the empty and the full image arise from both orientations)
// with their probabilities. Scoring a net on it is scoring it on an
// infinite test set: E_true[ln P(V)].
func barsTestSet() (patterns [][]float64, probs []float64) {
	index := map[int]int{}
	for o := range 2 {
		for c := range 1 << barsSide {
			mask := 0
			for l := range barsSide {
				if (c>>l)&1 == 0 {
					continue
				}
				for k := range barsSide {
					if o == 0 {
						mask |= 1 << (l*barsSide + k)
					} else {
						mask |= 1 << (k*barsSide + l)
					}
				}
			}
			i, ok := index[mask]
			if !ok {
				i = len(patterns)
				index[mask] = i
				v := make([]float64, barsSide*barsSide)
				for p := range v {
					v[p] = float64((mask >> p) & 1)
				}
				patterns, probs = append(patterns, v), append(probs, 0)
			}
			probs[i] += 0.5 / float64(int(1)<<barsSide)
		}
	}
	return patterns, probs
}

// barsEntropy is the entropy of the bars distribution, so −barsEntropy is
// the largest expected log-likelihood any net can reach.
func barsEntropy() float64 {
	_, probs := barsTestSet()
	h := 0.0
	for _, p := range probs {
		h -= p * math.Log(p)
	}
	return h
}

// barsTestLogLik is E_true[ln P(V)] of net n, exact (eq. 2.6 per pattern).
func barsTestLogLik(n *sbn.Net) (float64, error) {
	patterns, probs := barsTestSet()
	s := 0.0
	for i, v := range patterns {
		l, err := n.ExactLogLik(v)
		if err != nil {
			return 0, err
		}
		s += probs[i] * l
	}
	return s, nil
}

// barsCell is one learner's training run.
type barsCell struct {
	Components    int       `json:"components"` // 1: mean field
	Restart       int       `json:"restart"`
	Presentations int       `json:"presentations"`
	Matched       bool      `json:"matched"` // mean field at the largest M's compute
	LogLik        float64   `json:"loglik"`  // exact E_true[ln P(V)] after training
	Curve         []float64 `json:"curve"`   // every curve_every presentations, from 0
	Iterations    int       `json:"iterations"`
	// Failed counts presentations whose fit ended in an error (no step made).
	Failed int `json:"failed"`
}

// barsLearner names learner k: the components in order, then the
// matched-compute mean field.
func (c *BarsConfig) barsLearner(k int) (m, presentations int, matched bool) {
	if k < len(c.Components) {
		return c.Components[k], c.Presentations, false
	}
	return 1, c.Presentations * c.Components[len(c.Components)-1], true
}

func (c *BarsConfig) train(k, restart int, stop func() error) (barsCell, error) {
	m, pres, matched := c.barsLearner(k)
	rs := strconv.Itoa(restart)
	net, err := sbn.Random(c.Layers, c.InitSpan, rng.New(c.Seed, BarsID, "net", rs))
	if err != nil {
		return barsCell{}, err
	}
	patterns := rng.New(c.Seed, BarsID, "patterns", rs)
	starts := rng.New(c.Seed, BarsID, "start", rs, strconv.Itoa(m), strconv.FormatBool(matched))
	s := sbn.Settings{Components: m, VB: c.VB.Settings(stop, nil)}
	if m == 1 {
		s.Components = 0 // mean field itself (the one-component mixture equals it)
	}
	cell := barsCell{Components: m, Restart: restart, Presentations: pres, Matched: matched}
	v := make([]float64, 0, barsSide*barsSide)
	for p := 0; p <= pres; p++ {
		if p%c.CurveEvery == 0 || p == pres {
			l, err := barsTestLogLik(net)
			if err != nil {
				return barsCell{}, err
			}
			if p%c.CurveEvery == 0 {
				cell.Curve = append(cell.Curve, l)
			}
			cell.LogLik = l
		}
		if p == pres {
			break
		}
		v = barsPattern(patterns, v)
		next, f, err := sbn.LearnStep(net, v, s, c.Rate, starts)
		if err != nil {
			if stop != nil && stop() != nil {
				return barsCell{}, err
			}
			cell.Failed++
			continue
		}
		net = next
		cell.Iterations += f.Iterations
	}
	return cell, nil
}

// barsCriteria are Fig. 2.7's criteria. A gain of the largest M over mean
// field would "justify the extra computational effort" if it beat mean
// field given the largest M's compute (its presentations × M, the cost
// being "approximately linear in the number of components", L1157): the
// criterion is the difference, median over restarts, of the
// matched-compute mean field and the largest M.
func (c *BarsConfig) barsCriteria() results.Criteria {
	mMax := c.Components[len(c.Components)-1]
	return results.Criteria{
		results.Criterion{ID: "fig2.7-loglik-rises-with-m", Text: "Spearman correlation of M with the median over restarts of the exact log-likelihood per pattern after training", Target: results.AtLeast(0.9)}.
			AsClaim("\"a systematic improvement in performance as M is increased\"", "L1143, L1148-1149"),
		results.Criterion{ID: "fig2.7-gain-not-worth-compute", Text: fmt.Sprintf("median log-likelihood per pattern of mean field trained on %d× the presentations (the compute of M = %d) minus that of M = %d (nats; ≥ 0: the mixture's gain does not pay for its cost)", mMax, mMax, mMax), Target: results.AtLeast(0)}.
			AsClaim("\"the improvement in performance is perhaps not great enough to justify the extra computational effort required\"", "L1150"),
		results.Criterion{ID: "fig2.7-below-entropy", Text: "largest log-likelihood per pattern over every learner and point of its curve, above −H(bars) (exact scoring: never above 0)", Target: results.AtMost(1e-9)}.AsSanity(),
		results.Criterion{ID: "fig2.7-failed-fits", Text: "fraction of presentations whose fit ended in an error (no step made)", Target: results.AtMost(0.01)}.AsSanity(),
	}
}

// Criteria states the criteria a run of the config judges.
func (c *BarsConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return c.barsCriteria(), nil
}

// RunBars trains every learner and writes bars_runs.csv (one row per
// learner and restart), bars_curves.csv and the summary.
func RunBars(env *experiments.Env, c *BarsConfig) error {
	nl := len(c.Components) + 1
	var names []string
	for k := range nl {
		m, pres, _ := c.barsLearner(k)
		for r := range c.Restarts {
			names = append(names, fmt.Sprintf("m%d-p%d-r%02d", m, pres, r))
		}
	}
	cells, complete, err := experiments.RunAllCells(env, names, nil, func(i int) (barsCell, error) {
		return c.train(i/c.Restarts, i%c.Restarts, env.Stop)
	})
	if err != nil || !complete {
		return err
	}
	crit := c.barsCriteria()
	s := &results.Summary{Criteria: crit}
	runs := results.NewTable("components", "matched", "restart", "presentations", "loglik", "iterations", "failed")
	curves := results.NewTable("components", "matched", "restart", "presentation", "loglik")
	negH := -barsEntropy()
	above, failed, total := math.Inf(-1), 0, 0
	med := make([]float64, nl)
	for k := range nl {
		m, pres, matched := c.barsLearner(k)
		var ls []float64
		for _, cell := range cells[k*c.Restarts : (k+1)*c.Restarts] {
			ls = append(ls, cell.LogLik)
			runs.AddRow(m, matched, cell.Restart, pres, cell.LogLik, cell.Iterations, cell.Failed)
			for p, l := range cell.Curve {
				curves.AddRow(m, matched, cell.Restart, p*c.CurveEvery, l)
				above = math.Max(above, l-negH)
			}
			failed += cell.Failed
			total += pres
		}
		med[k] = results.Median(ls)
		if matched {
			s.SetMetric("bars_loglik_MF_matched", med[k])
		} else {
			s.SetMetric(fmt.Sprintf("bars_loglik_M%d", m), med[k])
		}
	}
	for _, t := range []struct {
		name string
		t    *results.Table
	}{{"bars_runs.csv", runs}, {"bars_curves.csv", curves}} {
		if err := results.WriteCSV(env.Path(t.name), *t.t); err != nil {
			return err
		}
	}
	nc := len(c.Components)
	s.SetMetric("bars_neg_entropy", negH)
	s.SetMetric("bars_failed_presentations", float64(failed))
	ms := make([]float64, nc)
	for k, m := range c.Components {
		ms[k] = float64(m)
	}
	if nc >= 3 {
		s.Judge(crit.Get("fig2.7-loglik-rises-with-m"), results.Spearman(ms, med[:nc]))
	} else {
		s.NotJudged(crit.Get("fig2.7-loglik-rises-with-m"), "fewer than three values of M")
	}
	gain := med[nc-1] - med[0]
	s.SetMetric("bars_gain_largest_m", gain)
	if c.Components[0] == 1 {
		// the share of mean field's distance to the best attainable −H that
		// the largest mixture closes
		s.SetMetric("bars_gap_closed", gain/(negH-med[0]))
	}
	s.Judge(crit.Get("fig2.7-gain-not-worth-compute"), med[nc]-med[nc-1])
	s.Judge(crit.Get("fig2.7-below-entropy"), above)
	s.Judge(crit.Get("fig2.7-failed-fits"), float64(failed)/float64(max(total, 1)))
	s.Claims = []results.Claim{{Artifact: "Figure 2.7", Figures: []string{"lawrence_fig2_7"},
		Checks:    []string{"fig2.7-loglik-rises-with-m", "fig2.7-gain-not-worth-compute", "fig2.7-below-entropy", "fig2.7-failed-fits"},
		Statement: "The true log-likelihood per pattern of the trained nets rises with M, by too little to justify the extra compute (L1148-1150)."}}
	s.AddFindingsFromChecks(nil)
	return env.WriteSummary(s, fmt.Sprintf("%v nets, %d restarts per M, %d presentations of fresh bars patterns, one gradient step of the bound per pattern at rate %g; scored by the exact expected log-likelihood per pattern under the bars distribution (−H = %.4f nats is the best attainable). Mean field matched to the largest M's compute is trained on %d× the presentations.",
		c.Layers, c.Restarts, c.Presentations, c.Rate, negH, c.Components[nc-1]))
}

// PlotBars redraws Fig. 2.7 from bars_runs.csv and bars_curves.csv: the
// log-likelihood per pattern against M (every restart and the median,
// with mean field at the largest M's compute and −H as lines), and the
// median learning curves.
func PlotBars(dir string) error {
	t := results.ReadColumns(filepath.Join(dir, "bars_runs.csv"))
	comp, matched, ll := t.Floats("components"), t.Strings("matched"), t.Floats("loglik")
	cv := results.ReadColumns(filepath.Join(dir, "bars_curves.csv"))
	ccomp, cmatched, cpres, cll := cv.Floats("components"), cv.Strings("matched"), cv.Floats("presentation"), cv.Floats("loglik")
	if err := t.Err(); err != nil {
		return err
	}
	if err := cv.Err(); err != nil {
		return err
	}
	var ms []float64
	byM := map[float64][]float64{}
	var mfMatched []float64
	for i := range comp {
		if matched[i] == "true" {
			mfMatched = append(mfMatched, ll[i])
			continue
		}
		if !slices.Contains(ms, comp[i]) {
			ms = append(ms, comp[i])
		}
		byM[comp[i]] = append(byM[comp[i]], ll[i])
	}
	slices.Sort(ms)
	var sx, sy, mx, my []float64
	for _, m := range ms {
		for _, l := range byM[m] {
			sx, sy = append(sx, m), append(sy, l)
		}
		mx, my = append(mx, m), append(my, results.Median(byM[m]))
	}
	series := []plots.Series{{Name: "restarts", X: sx, Y: sy, Markers: true}, {Name: "median", X: mx, Y: my, Points: true}}
	if len(mfMatched) > 0 && len(ms) > 0 {
		v := results.Median(mfMatched)
		series = append(series, plots.Series{Name: "mean field, largest M's compute", X: []float64{ms[0], ms[len(ms)-1]}, Y: []float64{v, v}})
	}
	negH := -barsEntropy()
	series = append(series, plots.Series{Name: "−H (best attainable)", X: []float64{ms[0], ms[len(ms)-1]}, Y: []float64{negH, negH}})
	p1, _, err := plots.Lines(plots.Axes{Title: "log-likelihood per pattern after training", XLabel: "components M", YLabel: "E[ln P(V)] (nats)", IntegerX: true}, series...)
	if err != nil {
		return err
	}
	// median curves per learner
	type key struct {
		m       float64
		matched string
	}
	pts := map[key]map[float64][]float64{}
	var keys []key
	for i := range ccomp {
		k := key{ccomp[i], cmatched[i]}
		if pts[k] == nil {
			pts[k] = map[float64][]float64{}
			keys = append(keys, k)
		}
		pts[k][cpres[i]] = append(pts[k][cpres[i]], cll[i])
	}
	var cs []plots.Series
	for _, k := range keys {
		var xs []float64
		for x := range pts[k] {
			xs = append(xs, x)
		}
		slices.Sort(xs)
		var ys []float64
		for _, x := range xs {
			ys = append(ys, results.Median(pts[k][x]))
		}
		name := fmt.Sprintf("M = %g", k.m)
		if k.m == 1 {
			name = "mean field"
		}
		if k.matched == "true" {
			name = "mean field, longer"
		}
		cs = append(cs, plots.Series{Name: name, X: xs, Y: ys})
	}
	p2, _, err := plots.Lines(plots.Axes{Title: "median learning curves", XLabel: "presentations", YLabel: "E[ln P(V)] (nats)"}, cs...)
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "lawrence_fig2_7", plots.Figure{Rows: 1, Cols: 2, Panels: []*plot.Plot{p1, p2},
		Title: "Lawrence Fig. 2.7: the bars problem, true log-likelihood per pattern against M"})
}
