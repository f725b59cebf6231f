package backfit

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// rmse returns the root mean squared difference of est from the truth
// over the queries with in(x); NaN if an estimate there is NaN or none is in.
func rmse(qs []SmoothQuery, est func(SmoothQuery) float64, in func(x float64) bool) float64 {
	s, n := 0.0, 0
	for _, q := range qs {
		if !in(q.X) {
			continue
		}
		d := est(q) - float64(q.Truth)
		s += d * d
		n++
	}
	if n == 0 {
		return math.NaN()
	}
	return math.Sqrt(s / float64(n))
}

// variation returns the total variation Σ|v_{j+1} − v_j| of est over the
// consecutive queries with in(x).
func variation(qs []SmoothQuery, est func(SmoothQuery) float64, in func(x float64) bool) float64 {
	tv, prev, have := 0.0, 0.0, false
	for _, q := range qs {
		if !in(q.X) {
			continue
		}
		v := est(q)
		if have {
			tv += math.Abs(v - prev)
		}
		prev, have = v, true
	}
	return tv
}

// medianEH returns the median E[h] over the queries with in(x).
func medianEH(qs []SmoothQuery, in func(x float64) bool) float64 {
	var v []float64
	for _, q := range qs {
		if in(q.X) {
			v = append(v, q.EH)
		}
	}
	if len(v) == 0 {
		return math.NaN()
	}
	return results.Median(v)
}

// hRatio returns max E[h] / min E[h] over the queries.
func hRatio(qs []SmoothQuery) float64 {
	lo, hi := math.Inf(1), 0.0
	for _, q := range qs {
		lo, hi = math.Min(lo, q.EH), math.Max(hi, q.EH)
	}
	return hi / lo
}

// globalFrac returns the fraction of queries whose kernel is nearly global:
// E[h]·R^p < 1, the prior weight of a point a whole input range R away at
// least half that of a point at the query.
func globalFrac(cell SmoothCell, p float64) float64 {
	r := slices.Max(cell.X) - slices.Min(cell.X)
	k := 0
	for _, q := range cell.Queries {
		if q.EH*math.Pow(r, p) < 1 {
			k++
		}
	}
	return float64(k) / float64(len(cell.Queries))
}

var (
	ssMean  = func(q SmoothQuery) float64 { return q.Mean }
	lwrMean = func(q SmoothQuery) float64 { return float64(q.LWR) }
	truthOf = func(q SmoothQuery) float64 { return float64(q.Truth) }
)

// summarise writes the tables and judges the criteria.
func (c *SupersmoothConfig) summarise(env *experiments.Env, cells []SmoothCell, names []string) error {
	ft := results.NewTable("set", "seed", "x", "truth", "ss_mean", "ss_var", "E_h", "sigma2_N", "lwr", "iterations", "status")
	dt := results.NewTable("set", "seed", "x", "y")
	st := results.NewTable("set", "seed", "measure", "value")
	s := &results.Summary{Criteria: supersmoothCriteria}
	w, sp := c.Wiggly, c.Step
	inSmooth := func(x float64) bool { return x < w.SmoothBelow }
	inOsc := func(x float64) bool { return x >= w.SmoothBelow }
	inCorner := func(x float64) bool {
		return math.Abs(x-sp.StepAt) <= sp.CornerWindow || math.Abs(x-sp.RampEnd) <= sp.CornerWindow
	}
	inNoisy := func(x float64) bool { return x > sp.NoisyFrom+sp.CornerWindow }
	var bad, capped int
	var ratios, curv, smoothOK, oscOK, cornerOK, noisyOK, rough []float64
	globalBest, oscQueries := 0, 0
	collect := map[string][]float64{}
	maxDiff, inside := 0.0, 0
	var faithful SmoothCell
	for i, cell := range cells {
		bad += cell.BadFits
		maxDiff = math.Max(maxDiff, cell.LOODiff)
		if cell.HInside {
			inside++
		}
		for _, q := range cell.Queries {
			if q.Iterations >= c.VB.MaxIterations {
				capped++
			}
			ft.AddRow(cell.Set, cell.Seed, q.X, float64(q.Truth), q.Mean, float64(q.Variance), q.EH, q.Sigma2, float64(q.LWR), q.Iterations, q.Status)
			if st, _ := vb.ParseStatus(q.Status); !st.OK() {
				env.Warnf("%s, draw %d, query %g: VB ended with status %s", cell.Set, cell.Seed, q.X, q.Status)
			}
		}
		for j := range cell.X {
			dt.AddRow(cell.Set, cell.Seed, cell.X[j], cell.Y[j])
		}
		ratio := hRatio(cell.Queries)
		ratios = append(ratios, ratio)
		m := map[string]float64{"lwr_h": cell.LWRH, "lwr_loo": cell.LWRLOO, "h_ratio": ratio, "global_frac": globalFrac(cell, c.Prior.P)}
		switch cell.Set {
		case setWiggly:
			m["rmse_smooth_ss"], m["rmse_smooth_lwr"] = rmse(cell.Queries, ssMean, inSmooth), rmse(cell.Queries, lwrMean, inSmooth)
			m["rmse_osc_ss"], m["rmse_osc_lwr"] = rmse(cell.Queries, ssMean, inOsc), rmse(cell.Queries, lwrMean, inOsc)
			m["median_h_smooth"], m["median_h_osc"] = medianEH(cell.Queries, inSmooth), medianEH(cell.Queries, inOsc)
			curv = append(curv, m["median_h_osc"]/m["median_h_smooth"])
			smoothOK = append(smoothOK, m["rmse_smooth_ss"]/m["rmse_smooth_lwr"])
			oscOK = append(oscOK, m["rmse_osc_ss"]/m["rmse_osc_lwr"])
			tvf := variation(cell.Queries, truthOf, inSmooth)
			m["tv_smooth_truth"], m["tv_smooth_ss"], m["tv_smooth_lwr"] = tvf, variation(cell.Queries, ssMean, inSmooth), variation(cell.Queries, lwrMean, inSmooth)
			rough = append(rough, math.Abs(m["tv_smooth_lwr"]-tvf)-math.Abs(m["tv_smooth_ss"]-tvf))
			rp := math.Pow(slices.Max(cell.X)-slices.Min(cell.X), c.Prior.P)
			for _, q := range cell.Queries {
				if !math.IsNaN(float64(q.BestEH)) {
					oscQueries++
					if float64(q.BestEH)*rp < 1 {
						globalBest++
					}
				}
			}
		case setStep:
			m["rmse_corner_ss"], m["rmse_corner_lwr"] = rmse(cell.Queries, ssMean, inCorner), rmse(cell.Queries, lwrMean, inCorner)
			m["rmse_noisy_ss"], m["rmse_noisy_lwr"] = rmse(cell.Queries, ssMean, inNoisy), rmse(cell.Queries, lwrMean, inNoisy)
			cornerOK = append(cornerOK, m["rmse_corner_ss"]/m["rmse_corner_lwr"])
			noisyOK = append(noisyOK, m["rmse_noisy_ss"]/m["rmse_noisy_lwr"])
		case setFaithful:
			m["smooth_loo"] = float64(cell.SmoothLOO)
			faithful = cell
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			st.AddRow(cell.Set, cell.Seed, k, m[k])
			collect[cell.Set+"_"+k] = append(collect[cell.Set+"_"+k], m[k])
		}
		env.AddRun(results.RunRecord{Name: names[i], Status: "done"})
	}
	for _, out := range []struct {
		name string
		t    *results.Table
	}{{"supersmooth_fits.csv", ft}, {"supersmooth_data.csv", dt}, {"supersmooth_sets.csv", st}} {
		if err := results.WriteCSV(env.Path(out.name), *out.t); err != nil {
			return err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(collect)) {
		s.SetMetric("smooth_"+k+"_median", results.Median(collect[k]))
	}
	looRatio := float64(faithful.SmoothLOO) / faithful.LWRLOO
	s.SetMetric("smooth_faithful_loo_ratio", looRatio)
	s.SetMetric("smooth_bad_fits", float64(bad))
	s.SetMetric("smooth_capped_fits", float64(capped))
	s.Judge(supersmoothCriteria.Get("f-monotone"), float64(bad))
	s.Judge(supersmoothCriteria.Get("lwr-loo-closed-form"), maxDiff)
	s.Judge(supersmoothCriteria.Get("lwr-h-inside-grid"), float64(inside)/float64(len(cells)))
	atMost := func(t float64) func(float64) bool { return func(v float64) bool { return v <= t } }
	s.JudgeSeeds(supersmoothCriteria.Get("fig3.19-h-orders"), ratios, func(v float64) bool { return v >= 100 }, "max/min E[h] of each data set")
	s.JudgeSeeds(supersmoothCriteria.Get("fig3.19a-h-follows-curvature"), curv, func(v float64) bool { return v > 1 }, "median E[h] oscillating / smooth, each draw")
	s.JudgeSeeds(supersmoothCriteria.Get("fig3.19a-lwr-overfits-smooth"), smoothOK, atMost(1), "RMSE supersmoother / LWR, smooth part, each draw")
	s.JudgeSeeds(supersmoothCriteria.Get("fig3.19a-no-underfit"), oscOK, atMost(1.25), "RMSE supersmoother / LWR, oscillating part, each draw")
	s.JudgeSeeds(supersmoothCriteria.Get("fig3.19b-corners"), cornerOK, atMost(1), "RMSE supersmoother / LWR near the corners, each draw")
	s.JudgeSeeds(supersmoothCriteria.Get("fig3.19b-noisy"), noisyOK, atMost(1), "RMSE supersmoother / LWR, noisy section, each draw")
	s.Judge(supersmoothCriteria.Get("fig3.19c-comparable"), looRatio)
	s.JudgeSeeds(supersmoothCriteria.Get("fig3.19a-rougher-lwr"), rough, func(v float64) bool { return v > 0 }, "|TV(LWR) − TV(f)| − |TV(supersmoother) − TV(f)|, smooth part, each draw")
	if oscQueries > 0 {
		s.SetMetric("smooth_wiggly_global_best_frac", float64(globalBest)/float64(oscQueries))
		s.Judge(supersmoothCriteria.Get("fig3.19a-global-best"), float64(globalBest)/float64(oscQueries), fmt.Sprintf("%d of %d queries", globalBest, oscQueries))
	} else {
		s.NotJudged(supersmoothCriteria.Get("fig3.19a-global-best"), "narrow_starts is empty (or no fit of the oscillating part ended normally)")
	}
	s.Claims = []results.Claim{
		{Artifact: "Figure 3.19", Figures: []string{"dsouza_fig3_19"},
			Checks:    []string{"fig3.19-h-orders", "fig3.19a-h-follows-curvature", "fig3.19a-lwr-overfits-smooth", "fig3.19a-no-underfit", "fig3.19b-corners", "fig3.19b-noisy", "fig3.19c-comparable", "f-monotone", "lwr-loo-closed-form", "lwr-h-inside-grid"},
			Statement: "Bayesian supersmoothing adapts its bandwidth over orders of magnitude with the curvature of the function, does not overfit the smooth part as LWR with one LOO-chosen bandwidth does, chisels out the corners of a step and smooths its noisy section, and on Old Faithful fits as well as LWR (D'Souza L1201-1211)."},
	}
	s.AddFindingsFromChecks(nil)
	s.Findings = append(s.Findings,
		fmt.Sprintf("With the text's priors the bound is higher, at most queries where the function varies faster than the kernel, for a nearly global line: the median fraction of queries with E[h]·R^p < 1 is %.2f on (a), %.2f on (b) and %.2f on Old Faithful (core/model/supersmooth doc, \"What the bound prefers\"). The adaptation over orders of magnitude is real, but it runs against the curvature there.",
			results.Median(collect[setWiggly+"_global_frac"]), results.Median(collect[setStep+"_global_frac"]), results.Median(collect[setFaithful+"_global_frac"])),
		"The λ update of eq. 3.37 as printed (L1183) is garbled; the run uses λ_i = φ_i/(1 + φ_i) with φ_i = (x_i − x_q)^p exp(ψ(a_h))/b_h, re-derived from the bound (targets §4.3), and the gamma density of w_i with exponent a₀ − 1.")
	return env.WriteSummary(s, "Checks of D'Souza (2004) Fig. 3.19 (targets other-seeds.md §4.2); data set (b) and the input ranges are ours (see the config).")
}

func init() {
	experiments.Add(SupersmoothID, "Bayesian supersmoothing against LWR with a global LOO bandwidth (D'Souza Fig 3.19)",
		DefaultSupersmooth, RunSupersmooth, PlotSupersmooth)
}
