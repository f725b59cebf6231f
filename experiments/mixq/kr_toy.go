package mixq

// mixq/kr-toy reproduces Lawrence's Figs 4.5 and 4.6 (L1737-1757), the toy
// of Kappen and Rodriguez (1998): a Boltzmann machine of two visible units
// and no hidden ones learns the data {(1, 1), (1, 1), (−1, −1)}, whose
// distribution is bimodal, by gradient ascent with the model's expectations
// exact (eq. 4.6), mean-field (eq. 4.15) or from a two-component mixture
// (eq. 4.25). Mean-field learning oscillates as its single mode hops
// between the two modes of the joint; the mixture tracks exact learning.

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/boltzmann"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"

	"gonum.org/v1/plot"
)

// KRToyID is the experiment of Figs 4.5 and 4.6.
const KRToyID = "mixq/kr-toy"

// KRToyConfig is the config of mixq/kr-toy.
type KRToyConfig struct {
	experiments.Common
	// Iterations is the number of gradient steps (not given in the text).
	Iterations int `toml:"iterations" range:"[2,1e6] integer"`
	// Rate is the learning rate of gradient ascent on the average
	// log-likelihood of the three patterns (0.25, L1745).
	Rate float64 `toml:"rate" range:"(0,100]"`
	// WeightSD: the weight and both biases start from N(0, weight_sd²)
	// (0.1, L1745).
	WeightSD float64 `toml:"weight_sd" range:"[0,10]"`
	// Components is the size of the mixture (2, L1743).
	Components int `toml:"components" range:"[2,16] integer"`
	// InitScale: the variational means start from U(−init_scale,
	// init_scale) before the first step (not in the text); later steps
	// start from the previous step's (L1745).
	InitScale float64 `toml:"init_scale" range:"(0,1)"`
	// VB is the inner loop: at most max_iterations (20) until F_mft changes
	// by at most rel_tol (0.01% = 1e-4) (L1745); monotone_tol is the slack
	// of the check that no update lowers the bound on ln Z.
	VB config.FitSettings `toml:"vb"`
}

// DefaultKRToy returns the text's settings.
func DefaultKRToy() KRToyConfig {
	return KRToyConfig{Iterations: 200, Rate: 0.25, WeightSD: 0.1, Components: 2, InitScale: 0.5,
		VB: config.FitSettings{MaxIterations: 20, RelTol: 1e-4, MonotoneTol: 1e-9}}
}

// Validate checks the keys that relate.
func (c *KRToyConfig) Validate() error { return c.VB.Validate("vb", nil) }

// Estimate counts the steps of the three learners.
func (c *KRToyConfig) Estimate() experiments.Cost {
	steps := experiments.Key("iterations", c.Iterations)
	return experiments.Cost{
		Cells:  []experiments.Factor{experiments.Fixed(3, "learners")},
		Memory: []experiments.Part{experiments.Rows("traces", experiments.Fixed(3*12, "learners × columns"), steps)},
		Work: []experiments.Part{experiments.Ops("steps", 2000, experiments.Fixed(3, "learners"), steps,
			experiments.Key("vb.max_iterations", c.VB.MaxIterations), experiments.KeyN("components", c.Components, float64(c.Components*c.Components), "components²"))},
	}
}

// Criteria states the criteria a run of the config judges.
func (c *KRToyConfig) Criteria(*experiments.Env) (results.Criteria, error) { return krCriteria, nil }

var krCriteria = results.Criteria{
	results.Criterion{ID: "fig4.5-mf-oscillates", Text: "sign changes of the step-to-step change of KL(data‖model) under mean-field learning, over the last half of the steps", Target: results.AtLeast(4)}.
		AsClaim("\"The results from mean field theory (dotted curve) are wildly unstable\"", "L1748"),
	results.Criterion{ID: "fig4.5-mix-tracks-exact", Text: "|final KL of 2-component mixture learning − final KL of exact learning| / final KL of exact learning", Target: results.AtMost(0.1)}.
		AsClaim("the mixture's results are \"well behaved and indistinguishable from those found using the true log likelihood\"", "L1748"),
	results.Criterion{ID: "fig4.5-mix-smooth", Text: "sign changes of the step-to-step change of KL under mixture learning, over the last half of the steps", Target: results.AtMost(1)}.
		AsClaim("the mixture's curve is \"well behaved\"", "L1748"),
	results.Criterion{ID: "fig4.6-mf-mode-hops", Text: "sign changes of mean field's ⟨s_1⟩ over the learning steps (the single mode hopping between (1, 1) and (−1, −1))", Target: results.AtLeast(2)}.
		AsClaim("\"the uni-modal approximating distribution of mean field theory is oscillating between the two potential modes\"", "L1750"),
	results.Criterion{ID: "fig4.5-bounds-below-logz", Text: "steps at which the mean-field or mixture bound on ln Z exceeded the exact ln Z by more than 1e-9", Target: results.Equal(0)}.AsSanity(),
	results.Criterion{ID: "fig4.5-exact-descends", Text: "steps at which exact learning raised KL(data‖model) (gradient ascent on the exact likelihood at rate 0.25)", Target: results.Equal(0)}.AsSanity(),
}

// krData are the patterns of the toy (L1741).
var krData = []boltzmann.Clamp{{1, 1}, {1, 1}, {-1, -1}}

// krTrace is one learner's curve: per step (0 = the initial weights) the
// KL to the data, the parameters, the approximate objective and the
// variational means.
type krTrace struct {
	KL, W, B1, B2, LogZ, Bound []float64
	Mu1, Mu2                   [][]float64 // per step, per component
	Weights                    [][]float64 // Q(m) per step
	Above                      int
}

// krKLData returns KL(p_data‖P) exactly.
func krKLData(m *boltzmann.Machine) (float64, float64, error) {
	ex, err := m.Exact(nil)
	if err != nil {
		return 0, 0, err
	}
	kl := 0.0
	for _, st := range []struct {
		s []float64
		p float64
	}{{[]float64{1, 1}, 2.0 / 3}, {[]float64{-1, -1}, 1.0 / 3}} {
		kl += st.p * (math.Log(st.p) - (m.Phi(st.s)/m.T - ex.LogZ))
	}
	return kl, ex.LogZ, nil
}

var krLearners = []string{"exact", "mean-field", "mixture"}

func (c *KRToyConfig) learn(which int) (krTrace, error) {
	r := rng.New(c.Seed, "mixq", "kr", "weights")
	m := boltzmann.NewMachine(2)
	m.SetWeight(0, 1, c.WeightSD*r.NormFloat64())
	m.B[0], m.B[1] = c.WeightSD*r.NormFloat64(), c.WeightSD*r.NormFloat64()
	k := 1
	if which == 2 {
		k = c.Components
	}
	init := boltzmann.RandomMeans(k, 2, c.InitScale, rng.New(c.Seed, "mixq", "kr", "init", krLearners[which]))
	var mf *boltzmann.MeanField
	var mix *boltzmann.Mixture
	var err error
	switch which {
	case 1:
		mf, err = boltzmann.NewMeanField(m, nil, init[0])
	case 2:
		mix, err = boltzmann.NewMixture(m, nil, init)
	}
	if err != nil {
		return krTrace{}, err
	}
	var plus []boltzmann.Moments
	for _, v := range krData {
		plus = append(plus, boltzmann.Moments{Mean: []float64{v[0], v[1]}, Pair: []float64{1, v[0] * v[1], v[0] * v[1], 1}})
	}
	var tr krTrace
	record := func(bound float64, mu [][]float64, w []float64) error {
		kl, lz, err := krKLData(m)
		if err != nil {
			return err
		}
		tr.KL = append(tr.KL, kl)
		tr.LogZ = append(tr.LogZ, lz)
		tr.W = append(tr.W, m.W[1])
		tr.B1, tr.B2 = append(tr.B1, m.B[0]), append(tr.B2, m.B[1])
		tr.Bound = append(tr.Bound, bound)
		tr.Mu1 = append(tr.Mu1, krColumn(mu, 0))
		tr.Mu2 = append(tr.Mu2, krColumn(mu, 1))
		tr.Weights = append(tr.Weights, w)
		if bound > lz+1e-9 {
			tr.Above++
		}
		return nil
	}
	for step := 0; step <= c.Iterations; step++ {
		lplus := 0.0
		for _, v := range krData {
			lplus += m.Phi(v) / float64(len(krData))
		}
		var minus boltzmann.Moments
		bound := math.NaN()
		var mu [][]float64
		var w []float64
		switch which {
		case 0:
			ex, err := m.Exact(nil)
			if err != nil {
				return tr, err
			}
			minus, bound = ex.Moments, ex.LogZ         // the exact L⁻ is ln Z
			mu, w = [][]float64{ex.Mean}, []float64{1} // the exact means
		case 1, 2:
			var q interface {
				Bound() float64
				Iterate() (float64, error)
			} = mf
			if which == 2 {
				q = mix
			}
			l := q.Bound()
			for it := 0; it < c.VB.MaxIterations; it++ {
				nl, err := q.Iterate()
				if err != nil {
					return tr, err
				}
				if nl < l-c.VB.MonotoneTol*math.Max(1, math.Abs(l)) {
					return tr, fmt.Errorf("step %d: an iteration lowered the bound from %g to %g", step, l, nl)
				}
				// F_mft = L⁺ − L⁻ (eq. 4.12); L⁺ is fixed in the inner loop.
				f0, f1 := lplus-l, lplus-nl
				l = nl
				if math.Abs(f1-f0) <= c.VB.RelTol*math.Abs(f0) || math.Abs(f1-f0) <= c.VB.AbsTol {
					break
				}
			}
			bound = l
			if which == 1 {
				minus = mf.Moments()
				mu, w = [][]float64{append([]float64(nil), mf.Mu...)}, []float64{1}
			} else {
				minus = mix.Moments()
				for j := 0; j < mix.K; j++ {
					mu = append(mu, mix.Component(j))
				}
				w = mix.Weights()
			}
		}
		if err := record(bound, mu, w); err != nil {
			return tr, err
		}
		if step == c.Iterations {
			break
		}
		gW, gB := m.Gradient(plus, minus)
		nd := float64(len(krData))
		m.SetWeight(0, 1, m.W[1]+c.Rate*gW[1]/nd)
		m.B[0] += c.Rate * gB[0] / nd
		m.B[1] += c.Rate * gB[1] / nd
		if err := m.Check(); err != nil {
			return tr, fmt.Errorf("step %d: %w", step, err)
		}
	}
	return tr, nil
}

func krColumn(mu [][]float64, i int) []float64 {
	out := make([]float64, len(mu))
	for j, v := range mu {
		out[j] = v[i]
	}
	return out
}

// krSignChanges counts the sign changes of the successive differences of
// x[from:], ignoring differences of exactly zero.
func krSignChanges(x []float64, from int) int {
	n, prev := 0, 0.0
	for t := max(from, 0) + 1; t < len(x); t++ {
		d := x[t] - x[t-1]
		if d == 0 {
			continue
		}
		if prev != 0 && (d > 0) != (prev > 0) {
			n++
		}
		prev = d
	}
	return n
}

// krValueSignChanges counts the sign changes of x itself.
func krValueSignChanges(x []float64) int {
	n := 0
	for t := 1; t < len(x); t++ {
		if (x[t] > 0) != (x[t-1] > 0) {
			n++
		}
	}
	return n
}

// RunKRToy runs the three learners as cells and judges Figs 4.5 and 4.6.
func RunKRToy(env *experiments.Env, c *KRToyConfig) error {
	traces, _, err := experiments.RunCells(env, krLearners, c.learn)
	if err != nil {
		return err
	}
	s := &results.Summary{Criteria: krCriteria}
	get := krCriteria.Get
	ex, mf, mix := traces[0], traces[1], traces[2]
	last := func(x []float64) float64 { return x[len(x)-1] }
	s.SetMetric("kr_final_kl_exact", last(ex.KL))
	s.SetMetric("kr_final_kl_mf", last(mf.KL))
	s.SetMetric("kr_final_kl_mix2", last(mix.KL))
	half := c.Iterations / 2
	s.Judge(get("fig4.5-mf-oscillates"), float64(krSignChanges(mf.KL, half)))
	s.Judge(get("fig4.5-mix-tracks-exact"), math.Abs(last(mix.KL)-last(ex.KL))/last(ex.KL))
	s.Judge(get("fig4.5-mix-smooth"), float64(krSignChanges(mix.KL, half)))
	mu1 := make([]float64, len(mf.Mu1))
	for t := range mu1 {
		mu1[t] = mf.Mu1[t][0]
	}
	s.Judge(get("fig4.6-mf-mode-hops"), float64(krValueSignChanges(mu1)))
	s.Judge(get("fig4.5-bounds-below-logz"), float64(mf.Above+mix.Above))
	rises := 0
	for t := 1; t < len(ex.KL); t++ {
		if ex.KL[t] > ex.KL[t-1]+1e-12 {
			rises++
		}
	}
	s.Judge(get("fig4.5-exact-descends"), float64(rises))

	tab := results.Table{Header: []string{"learner", "step", "kl", "w", "b1", "b2", "log_z", "bound", "component", "q_m", "mu1", "mu2"}}
	for l, tr := range traces {
		for t := range tr.KL {
			for j := range tr.Mu1[t] {
				qm, m1, m2 := bmFmt(tr.Weights[t][j]), bmFmt(tr.Mu1[t][j]), bmFmt(tr.Mu2[t][j])
				tab.Rows = append(tab.Rows, []string{krLearners[l], strconv.Itoa(t), bmFmt(tr.KL[t]), bmFmt(tr.W[t]), bmFmt(tr.B1[t]), bmFmt(tr.B2[t]),
					bmFmt(tr.LogZ[t]), bmFmt(tr.Bound[t]), strconv.Itoa(j), qm, m1, m2})
			}
		}
	}
	if err := results.WriteCSV(filepath.Join(env.Dir, "lawrence_fig4_5_curves.csv"), tab); err != nil {
		return err
	}
	s.Claims = []results.Claim{
		{Artifact: "Lawrence Figure 4.5", Figures: []string{"lawrence_fig4_5"}, Checks: []string{"fig4.5-mf-oscillates", "fig4.5-mix-tracks-exact", "fig4.5-mix-smooth", "fig4.5-bounds-below-logz", "fig4.5-exact-descends"},
			Statement: "Mean-field learning is wildly unstable; 2-component mixture learning is well behaved and indistinguishable from exact learning (L1748)."},
		{Artifact: "Lawrence Figure 4.6", Figures: []string{"lawrence_fig4_6"}, Checks: []string{"fig4.6-mf-mode-hops"},
			Statement: "The mean-field distribution oscillates between the two modes of the joint (L1750)."},
	}
	return env.WriteSummary(s, fmt.Sprintf("Two visible units, data {(1,1),(1,1),(−1,−1)}; %d gradient steps at rate %g on the average log-likelihood from weights N(0, %g²); inner loop ≤ %d iterations until F_mft changes by ≤ %g relatively; variational means start U(−%g, %g), then each step from the last.",
		c.Iterations, c.Rate, c.WeightSD, c.VB.MaxIterations, c.VB.RelTol, c.InitScale, c.InitScale))
}

// PlotKRToy redraws Figs 4.5 (KL, w, b1, b2 against steps for the three
// learners) and 4.6 (mean field's b1 with its two means).
func PlotKRToy(dir string) error {
	t := results.ReadColumns(filepath.Join(dir, "lawrence_fig4_5_curves.csv"))
	learner, comp := t.Strings("learner"), t.Floats("component")
	step := t.Floats("step")
	cols := map[string][]float64{}
	for _, k := range []string{"kl", "w", "b1", "b2", "mu1", "mu2"} {
		cols[k] = t.Floats(k)
	}
	if err := t.Err(); err != nil {
		return err
	}
	series := func(name, key string) plots.Series {
		sr := plots.Series{Name: name}
		for i := range learner {
			if learner[i] == name && comp[i] == 0 {
				sr.X, sr.Y = append(sr.X, step[i]), append(sr.Y, cols[key][i])
			}
		}
		return sr
	}
	var panels []*plot.Plot
	for _, p := range []struct{ key, title string }{{"kl", "(a) KL(data‖model)"}, {"w", "(b) w₁₂"}, {"b1", "(c) b₁"}, {"b2", "(d) b₂"}} {
		var ss []plots.Series
		for _, l := range krLearners {
			ss = append(ss, series(l, p.key))
		}
		pl, _, err := plots.Lines(plots.Axes{Title: p.title, XLabel: "step"}, ss...)
		if err != nil {
			return err
		}
		panels = append(panels, pl)
	}
	if err := experiments.SaveFigure(dir, "lawrence_fig4_5", plots.Figure{Rows: 2, Cols: 2, Panels: panels,
		Title: "Lawrence Fig. 4.5: learning the Kappen-Rodriguez toy"}); err != nil {
		return err
	}
	b1 := series("mean-field", "b1")
	m1, m2 := series("mean-field", "mu1"), series("mean-field", "mu2")
	m1.Name, m2.Name = "⟨s₁⟩", "⟨s₂⟩"
	pa, _, err := plots.Lines(plots.Axes{Title: "mean field: b₁", XLabel: "step"}, b1)
	if err != nil {
		return err
	}
	pb, _, err := plots.Lines(plots.Axes{Title: "mean field: ⟨s₁⟩, ⟨s₂⟩", XLabel: "step"}, m1, m2)
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "lawrence_fig4_6", plots.Figure{Rows: 2, Cols: 1, Panels: []*plot.Plot{pa, pb},
		Title: "Lawrence Fig. 4.6: a bias and the mean-field means during mean-field learning"})
}
