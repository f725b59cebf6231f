package backfit

import (
	"fmt"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/model/backfit"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// inputKind names input m of the [data] layout.
func (d RegressionData) inputKind(m int) string {
	switch {
	case m < d.Relevant:
		return "relevant"
	case m < d.Relevant+d.Irrelevant:
		return "irrelevant"
	}
	return "redundant"
}

// ardCounts returns the relevant inputs ARD kept and the fractions of the
// irrelevant and redundant ones it pruned (E[α_m] ≥ keep).
func ardCounts(d RegressionData, alpha []experiments.Float, keep float64) (relKept int, irrPruned, redPruned float64) {
	var irr, red int
	for m, a := range alpha {
		kept := float64(a) < keep
		switch d.inputKind(m) {
		case "relevant":
			if kept {
				relKept++
			}
		case "irrelevant":
			if !kept {
				irr++
			}
		default:
			if !kept {
				red++
			}
		}
	}
	irrPruned, redPruned = math.NaN(), math.NaN()
	if d.Irrelevant > 0 {
		irrPruned = float64(irr) / float64(d.Irrelevant)
	}
	if d.Redundant > 0 {
		redPruned = float64(red) / float64(d.Redundant)
	}
	return relKept, irrPruned, redPruned
}

// RunRegression fits every data set at every size, runs the Gibbs
// comparison and the classification toy, and writes the tables, the
// summary and the figures.
func RunRegression(env *experiments.Env, c *RegressionConfig) error {
	var names []string
	var cost []float64
	type key struct{ seed, n int }
	var keys []key
	for s := 0; s < c.Seeds; s++ {
		for _, n := range c.Sizes {
			names = append(names, fmt.Sprintf("s%03d/n=%d", s, n))
			w := float64(n) * float64(c.VB.MaxIterations) * 2
			if n == c.JudgeSize {
				w += float64(n) * float64(c.ML.MaxIterations)
			}
			cost = append(cost, w)
			keys = append(keys, key{s, n})
		}
	}
	cells, complete, err := experiments.RunAllCells(env, names, cost, func(i int) (RegressionCell, error) {
		return c.runCell(keys[i].seed, keys[i].n, keys[i].n == c.Sizes[0], env.Stop)
	})
	if err != nil || !complete {
		return err
	}
	toy, err := c.classifyToy(env)
	if err != nil {
		return err
	}
	return writeRegression(env, c, cells, toy)
}

// toyResult is the classification toy of Fig 4.8.
type toyResult struct {
	X, Y   []float64 // points (x₁, x₂) row-major, labels ±1
	Coef   []float64 // E[b] on (x₁, x₂, 1)
	Error  float64
	Status vb.Status
}

// classifyToy draws the two-class toy and fits backfitting classification
// with a shared α on (x₁, x₂, 1).
func (c *RegressionConfig) classifyToy(env *experiments.Env) (toyResult, error) {
	k := c.Classify
	rnd := rng.New(c.Seed, RegressionID, "classify")
	var t toyResult
	f := make([]float64, 0, 3*k.Points)
	for i := 0; i < k.Points; i++ {
		y := 1.0
		if i%2 == 1 {
			y = -1
		}
		x1, x2 := rnd.NormFloat64()+y*k.Separation/2, rnd.NormFloat64()
		t.X, t.Y = append(t.X, x1, x2), append(t.Y, y)
		f = append(f, x1, x2, 1)
	}
	p, err := backfit.NewProblem(f, 3, t.Y)
	if err != nil {
		return t, err
	}
	m, err := backfit.NewClassifier(p, backfit.Prior{A: c.Prior.A, B: c.Prior.B}, c.Model.settings(false))
	if err != nil {
		return t, err
	}
	r := vb.Run(m, c.VB.Settings(env.Stop, m))
	if r.Status == vb.Canceled {
		return t, r.Err
	}
	t.Status, t.Coef = r.Status, slices.Clone(m.Mean())
	errs := 0
	for i := 0; i < k.Points; i++ {
		if _, _, pr := m.Predict(p.Row(i)); (pr > 0.5) != (t.Y[i] > 0) {
			errs++
		}
	}
	t.Error = float64(errs) / float64(k.Points)
	return t, nil
}

// jjTight reports whether the JJ bound at ξ lies below ln g on a grid of
// [−15, 15] and equals it at ±ξ (to 1e-12).
func jjTight(xi float64) bool {
	for x := -15.0; x <= 15; x += 0.01 {
		if approx.JJLogSigmoidBound(x, xi) > approx.LogSigmoid(x)+1e-12 {
			return false
		}
	}
	return math.Abs(approx.JJLogSigmoidBound(xi, xi)-approx.LogSigmoid(xi)) < 1e-12 &&
		math.Abs(approx.JJLogSigmoidBound(-xi, xi)-approx.LogSigmoid(-xi)) < 1e-12
}

// geoMean returns exp(mean ln(a_k/b_k)).
func geoMeanRatio(a, b []experiments.Float) float64 {
	s := 0.0
	for k := range a {
		s += math.Log(float64(a[k]) / float64(b[k]))
	}
	return math.Exp(s / float64(len(a)))
}

// writeRegression writes regression.csv, ard_inputs.csv, gibbs.csv,
// table4_1_standin.csv, fig4_8.csv and fig4_8_toy.csv, the summary and the
// figures.
func writeRegression(env *experiments.Env, c *RegressionConfig, cells []RegressionCell, toy toyResult) error {
	rt := results.NewTable("seed", "n", "method", "nmse", "iterations", "status", "seconds", "em_ols_max_diff")
	at := results.NewTable("seed", "n", "input", "kind", "alpha", "mean", "kept")
	gt := results.NewTable("seed", "coef", "vb_mean", "vb_var", "gibbs_mean", "gibbs_var", "var_ratio")
	s := &results.Summary{Criteria: regressionCriteria}
	get := regressionCriteria.Get
	bad, capped := 0, 0
	ok := func(st string) {
		if s, _ := vb.ParseStatus(st); !s.OK() {
			bad++
		}
	}
	var psiRatio []float64
	var emSubDiff []float64
	var emDiff, relKept, irrPruned, redPruned, ardBeats, sharedBeats, gibbsRatio, gibbsMeans []float64
	var ardJ, olsJ, sharedJ, emJ []float64
	for _, cell := range cells {
		nan := math.NaN()
		rt.AddRow(cell.Seed, cell.N, "ols", float64(cell.OLS.NMSE), 0, cell.OLS.Status, cell.OLS.Seconds, nan)
		if cell.EM != nil {
			rt.AddRow(cell.Seed, cell.N, "em", float64(cell.EM.NMSE), cell.EM.Iterations, cell.EM.Status, cell.EM.Seconds, float64(cell.EMDiff))
			rt.AddRow(cell.Seed, cell.N, "em_full_rank", nan, cell.EMSub.Iterations, cell.EMSub.Status, cell.EMSub.Seconds, float64(cell.EMSubDiff))
			ok(cell.EM.Status)
			ok(cell.EMSub.Status)
		}
		rt.AddRow(cell.Seed, cell.N, "vb_shared", float64(cell.Shared.NMSE), cell.Shared.Iterations, cell.Shared.Status, cell.Shared.Seconds, nan)
		rt.AddRow(cell.Seed, cell.N, "vb_ard", float64(cell.ARD.NMSE), cell.ARD.Iterations, cell.ARD.Status, cell.ARD.Seconds, nan)
		ok(cell.Shared.Status)
		ok(cell.ARD.Status)
		if cell.ARD.Status == vb.IterationLimit.String() {
			capped++
		}
		for m, a := range cell.Alpha {
			at.AddRow(cell.Seed, cell.N, m, c.Data.inputKind(m), float64(a), float64(cell.Mean[m]), float64(a) < c.KeepAlpha)
		}
		if cell.N == c.JudgeSize {
			emDiff, emSubDiff = append(emDiff, float64(cell.EMDiff)), append(emSubDiff, float64(cell.EMSubDiff))
			rk, ip, rp := ardCounts(c.Data, cell.Alpha, c.KeepAlpha)
			relKept, irrPruned, redPruned = append(relKept, float64(rk)), append(irrPruned, ip), append(redPruned, rp)
			ardBeats = append(ardBeats, float64(cell.OLS.NMSE-cell.ARD.NMSE))
			sharedBeats = append(sharedBeats, float64(cell.OLS.NMSE-cell.Shared.NMSE))
			ardJ, olsJ = append(ardJ, float64(cell.ARD.NMSE)), append(olsJ, float64(cell.OLS.NMSE))
			sharedJ, emJ = append(sharedJ, float64(cell.Shared.NMSE)), append(emJ, float64(cell.EM.NMSE))
		}
		if len(cell.GibbsVar) > 0 {
			within := 1.0
			for k := range cell.GibbsVar {
				r := float64(cell.VBVar[k] / cell.GibbsVar[k])
				gt.AddRow(cell.Seed, k, float64(cell.GibbsVB[k]), float64(cell.VBVar[k]), float64(cell.GibbsMean[k]), float64(cell.GibbsVar[k]), r)
				if math.Abs(float64(cell.GibbsVB[k]-cell.GibbsMean[k])) > 3*math.Sqrt(float64(cell.GibbsVar[k])) {
					within = 0
				}
			}
			gibbsRatio = append(gibbsRatio, geoMeanRatio(cell.VBVar, cell.GibbsVar))
			psiRatio = append(psiRatio, float64(cell.PsiZOverS))
			gibbsMeans = append(gibbsMeans, within)
		}
	}
	if !toy.Status.OK() {
		bad++
	}
	st := results.NewTable("method", "relevant_match", "irrelevant_pruned", "nmse_median")
	st.AddRow("vb_ard", results.Median(relKept)/float64(c.Data.Relevant), results.Median(irrPruned), results.Median(ardJ))
	st.AddRow("vb_shared", math.NaN(), math.NaN(), results.Median(sharedJ))
	st.AddRow("ols", math.NaN(), math.NaN(), results.Median(olsJ))
	st.AddRow("em", math.NaN(), math.NaN(), results.Median(emJ))
	jt := results.NewTable("x", "log_sigmoid", "xi", "bound")
	tight := true
	for _, xi := range c.Classify.Xi {
		tight = tight && jjTight(xi)
		for x := -12.0; x <= 12.0001; x += 0.05 {
			jt.AddRow(x, approx.LogSigmoid(x), xi, approx.JJLogSigmoidBound(x, xi))
		}
	}
	tt := results.NewTable("x1", "x2", "y", "b1", "b2", "b0")
	for i := range toy.Y {
		tt.AddRow(toy.X[2*i], toy.X[2*i+1], toy.Y[i], toy.Coef[0], toy.Coef[1], toy.Coef[2])
	}
	for _, out := range []struct {
		name string
		t    *results.Table
	}{{"regression.csv", rt}, {"ard_inputs.csv", at}, {"gibbs.csv", gt}, {"table4_1_standin.csv", st}, {"fig4_8.csv", jt}, {"fig4_8_toy.csv", tt}} {
		if err := results.WriteCSV(env.Path(out.name), *out.t); err != nil {
			return err
		}
	}
	jn := fmt.Sprintf("N = %d", c.JudgeSize)
	s.SetMetric("em_ols_max_diff", slices.Max(emSubDiff))
	s.SetMetric("em_ols_max_diff_redundant", slices.Max(emDiff))
	s.SetMetric("ard_relevant_kept", results.Median(relKept))
	s.SetMetric("ard_irrelevant_pruned_frac", results.Median(irrPruned))
	s.SetMetric("ard_redundant_pruned_frac", results.Median(redPruned))
	s.SetMetric("vb_gibbs_var_ratio", results.Median(gibbsRatio))
	s.SetMetric("nmse_ard_median", results.Median(ardJ))
	s.SetMetric("nmse_ols_median", results.Median(olsJ))
	s.SetMetric("nmse_shared_median", results.Median(sharedJ))
	s.SetMetric("nmse_em_median", results.Median(emJ))
	s.SetMetric("toy_error", toy.Error)
	s.Judge(get("f-monotone"), float64(bad))
	s.JudgeSeeds(get("em-ols"), emSubDiff, func(v float64) bool { return v <= 1e-6 }, "max |b_EM − b_OLS| per data set, "+jn)
	s.JudgeSeeds(get("em-ols-redundant"), emDiff, func(v float64) bool { return v <= 1e-6 }, "max |b_EM − b_OLS| per data set, "+jn)
	need := math.Ceil(0.8*float64(c.Data.Relevant) - 1e-9)
	s.JudgeSeeds(get("ard-relevant-kept"), relKept, func(v float64) bool { return v >= need }, fmt.Sprintf("relevant inputs kept of %d per data set, %s", c.Data.Relevant, jn))
	if c.Data.Irrelevant > 0 {
		s.JudgeSeeds(get("ard-irrelevant-pruned"), irrPruned, func(v float64) bool { return v >= 0.9 }, "fraction of irrelevant inputs pruned, "+jn)
	} else {
		s.NotJudged(get("ard-irrelevant-pruned"), "no irrelevant inputs (data.irrelevant = 0)")
	}
	if c.Data.Redundant > 0 {
		s.JudgeSeeds(get("ard-redundant-pruned"), redPruned, func(v float64) bool { return v >= 0.9 }, "fraction of redundant inputs pruned, "+jn)
	} else {
		s.NotJudged(get("ard-redundant-pruned"), "no redundant inputs (data.redundant = 0)")
	}
	s.JudgeSeeds(get("fig3.15a-ard-beats-ols"), ardBeats, func(v float64) bool { return v > 0 }, "OLS nMSE − ARD nMSE, "+jn)
	s.JudgeSeeds(get("fig3.15a-shared-beats-ols"), sharedBeats, func(v float64) bool { return v >= 0 }, "OLS nMSE − shared-α nMSE, "+jn)
	s.JudgeSeeds(get("vb-gibbs-means"), gibbsMeans, func(v float64) bool { return v == 1 }, "1 when every mean is within 3 sd")
	s.Judge(get("vb-gibbs-compact"), results.Median(gibbsRatio), fmt.Sprintf("%d problems", len(gibbsRatio)))
	s.JudgeBool(get("fig4.8-bound"), tight, fmt.Sprintf("ξ = %v", c.Classify.Xi))
	s.Judge(get("fig4.8-toy-error"), toy.Error)
	s.Claims = []results.Claim{
		{Artifact: "Figure 3.15", Figures: []string{"dsouza_fig3_15a"},
			Checks:    []string{"em-ols", "em-ols-redundant", "ard-relevant-kept", "ard-irrelevant-pruned", "ard-redundant-pruned", "fig3.15a-ard-beats-ols", "fig3.15a-shared-beats-ols", "f-monotone"},
			Statement: "On 5 relevant inputs embedded in 105 (50 irrelevant, 50 redundant), with a fixed regression vector, probabilistic backfitting converges to the batch (OLS) solution and Bayesian backfitting with ARD keeps the relevant inputs and prunes the rest (D'Souza L1019-1032, L1523-1525, L1654-1662); the text's RLS and vkS curves belong to the forgetting-rate experiment."},
		{Artifact: "Table 4.1", Checks: []string{"ard-relevant-kept", "ard-irrelevant-pruned"},
			Statement: "Stand-in for the private neuron-muscle data: the fraction of the relevant inputs that ARD finds (the text's \"neuron match\", 93.6%) and its nMSE against OLS, in table4_1_standin.csv (D'Souza L1797-1820)."},
		{Artifact: "Figure 4.8", Figures: []string{"dsouza_fig4_8"}, Checks: []string{"fig4.8-bound", "fig4.8-toy-error"},
			Statement: "The Jaakkola-Jordan bound at ξ = 3 and 7 lies below the logistic and touches it at ±ξ; backfitting classification solves a two-class toy (D'Souza L1688, eqs. 4.31-4.32)."},
		{Artifact: "D'Souza section 4.4, targets §7 P6 (VB against Gibbs)", Checks: []string{"vb-gibbs-means", "vb-gibbs-compact"},
			Statement: "Bayesian backfitting's q(b) (shared α) against a Gibbs sampler of p(b, α | y; ψ̂) on the same conjugate model, at VB's fitted noise."},
	}
	s.AddFindingsFromChecks(nil)
	if capped > 0 {
		s.Findings = append(s.Findings, fmt.Sprintf("%d of %d ARD runs ended at vb.max_iterations = %d: its pruned precisions grow without bound, so F creeps up and the stop rule never fires; the redundant inputs ARD keeps (median fraction pruned %.2f at N = %d) are copies whose coefficients are still moving to their originals along backfitting's slowest directions (configs/backfit/regression-full.toml runs longer)",
			capped, len(cells), c.VB.MaxIterations, results.Median(redPruned), c.JudgeSize))
	}
	if r := results.Median(gibbsRatio); r < 1 {
		s.Findings = append(s.Findings, fmt.Sprintf("VB's posterior variance of b is %.3g of the Gibbs posterior's (median over %d problems of the geometric mean over coefficients); with Q(Z)Q(b) factorised, q(b_m) sees its fake target z_m through ψ_zm alone, σ²_bm = (Σf_m²/ψ_zm + ⟨α⟩)⁻¹, where the exact posterior's spread is set by the marginal noise s = ψ_y + Σψ_z (fitted here: median ψ_z/s = %.3g) and widened by the collinearity of the copies, which q(b) ignores; the means agree",
			r, len(gibbsRatio), results.Median(psiRatio)))
	} else {
		s.Findings = append(s.Findings, fmt.Sprintf("VB's posterior variance of b is %.3g of the Gibbs posterior's (median over %d problems): not compact", r, len(gibbsRatio)))
	}
	if err := env.WriteSummary(s, "D'Souza Fig 3.15 (stationary half) and section 4.4: backfitting on 5 relevant of 105 inputs; targets other-seeds.md §4.2, §7 P6."); err != nil {
		return err
	}
	return PlotRegression(env.Dir)
}
