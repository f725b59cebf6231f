package backfit

import (
	"fmt"
	"math"
	"strconv"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// RVMCell is one data set (sinc) or split (Boston): every method's fit.
type RVMCell struct {
	Fits []RVMFit `json:"fits"`
}

// RVMCV is the cross-validation of one method at one λ: the mean over the
// folds of the held-out nMSE.
type RVMCV struct {
	NMSE experiments.Float `json:"nmse"`
}

// rvmData are the two problems of the experiment.
var rvmData = []string{"sinc", "boston"}

// RunRVM tunes λ, fits every cell and writes the tables.
func RunRVM(env *experiments.Env, c *RVMConfig) error {
	boston, err := c.readBoston(env)
	if err != nil {
		return err
	}
	task := func(ds string, i int) (*rvmTask, error) {
		if ds == "sinc" {
			return c.sincTask(i)
		}
		return c.bostonTask(boston, i)
	}
	grids := map[string][]float64{"sinc": c.Sinc.Lambdas, "boston": c.Boston.Lambdas}
	// Cross-validation on the first data set / split, each method its own λ.
	type cvKey struct {
		ds, method string
		lambda     float64
	}
	var keys []cvKey
	var names []string
	for _, ds := range rvmData {
		for _, m := range rvmMethods[:2] {
			for _, l := range grids[ds] {
				keys = append(keys, cvKey{ds, m, l})
				names = append(names, fmt.Sprintf("cv/%s/%s/lambda=%s", ds, m, experiments.FloatKey(l)))
			}
		}
	}
	cvs, complete, err := experiments.RunAllCells(env, names, nil, func(i int) (RVMCV, error) {
		k := keys[i]
		t, err := task(k.ds, 0)
		if err != nil {
			return RVMCV{}, err
		}
		fold := c.cvFolds(len(t.ytr), k.ds)
		var sum float64
		for f := 0; f < c.Folds; f++ {
			ft, err := cvTask(t, fold, f)
			if err != nil {
				return RVMCV{}, err
			}
			r, err := c.fit(env, ft, k.method, k.lambda, fitOptions{})
			if err != nil {
				return RVMCV{}, fmt.Errorf("%s fold %d: %w", names[i], f, err)
			}
			sum += float64(r.NMSE)
		}
		return RVMCV{NMSE: experiments.Float(sum / float64(c.Folds))}, nil
	})
	if err != nil || !complete {
		return err
	}
	chosen := map[string]float64{}
	cvTab := results.NewTable("data", "method", "lambda", "cv_nmse", "chosen")
	for _, ds := range rvmData {
		for _, m := range rvmMethods[:2] {
			best, bestL := math.Inf(1), math.NaN()
			for i, k := range keys {
				if k.ds == ds && k.method == m && float64(cvs[i].NMSE) < best {
					best, bestL = float64(cvs[i].NMSE), k.lambda
				}
			}
			if math.IsNaN(bestL) {
				return fmt.Errorf("cross-validation of %s on %s: no λ gave a finite nMSE", m, ds)
			}
			chosen[ds+"/"+m] = bestL
			for i, k := range keys {
				if k.ds == ds && k.method == m {
					cvTab.AddRow(ds, m, k.lambda, float64(cvs[i].NMSE), boolInt(k.lambda == bestL))
				}
			}
		}
		chosen[ds+"/brvm_fixed_noise"] = chosen[ds+"/brvm"]
	}
	// The cells: every sinc data set and Boston split.
	var cks []cellRef
	names = names[:0]
	for i := 0; i < c.Sinc.Sets; i++ {
		cks, names = append(cks, cellRef{"sinc", i}), append(names, "sinc/set="+strconv.Itoa(i))
	}
	for i := 0; i < c.Boston.Splits; i++ {
		cks, names = append(cks, cellRef{"boston", i}), append(names, "boston/split="+strconv.Itoa(i))
	}
	cells, complete, err := experiments.RunAllCells(env, names, nil, func(i int) (RVMCell, error) {
		k := cks[i]
		t, err := task(k.ds, k.i)
		if err != nil {
			return RVMCell{}, err
		}
		var cell RVMCell
		o := fitOptions{keep: k.ds == "sinc" && k.i == 0}
		for _, m := range c.methods() {
			f, err := c.fit(env, t, m, chosen[k.ds+"/"+m], o)
			if err != nil {
				return cell, fmt.Errorf("%s: %w", m, err)
			}
			if m == "rvm" {
				o.noiseVar = float64(f.NoiseVar)
			}
			cell.Fits = append(cell.Fits, f)
		}
		return cell, nil
	})
	if err != nil || !complete {
		return err
	}
	nb, pb := boston.Dims()
	return c.writeRVM(env, cvTab, cks, cells, nb, pb-1)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// cellRef names a cell by its data and index.
type cellRef struct {
	ds string
	i  int
}

// byMethod collects, for data set ds, a value of every cell's fit of each
// method.
func byMethod(refs []cellRef, cells []RVMCell, ds string, val func(RVMFit) float64) map[string][]float64 {
	out := map[string][]float64{}
	for i, r := range refs {
		if r.ds != ds {
			continue
		}
		for _, f := range cells[i].Fits {
			out[f.Method] = append(out[f.Method], val(f))
		}
	}
	return out
}

// ratios returns a[i]/b[i].
func ratios(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] / b[i]
	}
	return out
}

// fraction returns the share of xs for which ok holds.
func fraction(xs []float64, ok func(float64) bool) float64 {
	k := 0
	for _, x := range xs {
		if ok(x) {
			k++
		}
	}
	return float64(k) / float64(len(xs))
}

// writeRVM writes the tables, the summary and the figures.
func (c *RVMConfig) writeRVM(env *experiments.Env, cvTab *results.Table, refs []cellRef, cells []RVMCell, nBoston, dBoston int) error {
	if err := results.WriteCSV(env.Path("rvm_cv.csv"), *cvTab); err != nil {
		return err
	}
	t := results.NewTable("data", "cell", "method", "lambda", "nmse", "kept", "cpu_seconds", "iterations", "status", "objective", "decreases", "noise_var")
	badB, badR, decreases := 0, 0, 0
	for i, r := range refs {
		for _, f := range cells[i].Fits {
			t.AddRow(r.ds, r.i, f.Method, f.Lambda, float64(f.NMSE), f.Kept, f.CPUSeconds, f.Iterations, f.Status, float64(f.Objective), f.Decreases, float64(f.NoiseVar))
			switch {
			case f.Method == "rvm" && f.Status == "failed":
				badR++
			case f.Method != "rvm" && f.Status != "converged" && f.Status != "iteration-limit":
				badB++
			}
			decreases += f.Decreases
		}
	}
	if err := results.WriteCSV(env.Path("rvm_cells.csv"), *t); err != nil {
		return err
	}
	if err := c.writeFig49(env, refs, cells); err != nil {
		return err
	}
	nmseOf := func(f RVMFit) float64 { return float64(f.NMSE) }
	secs := func(f RVMFit) float64 { return f.CPUSeconds }
	kept := func(f RVMFit) float64 { return float64(f.Kept) }
	iters := func(f RVMFit) float64 { return float64(f.Iterations) }
	s := results.Summary{Criteria: rvmCriteria}
	cr := rvmCriteria
	s.Judge(cr.Get("brvm-runs-ok"), float64(badB))
	edges := 0
	for _, ds := range rvmData {
		grid := map[string][]float64{"sinc": c.Sinc.Lambdas, "boston": c.Boston.Lambdas}[ds]
		for _, m := range rvmMethods[:2] {
			if l := chosenOf(cvTab, ds, m); len(grid) > 2 && (l == grid[0] || l == grid[len(grid)-1]) {
				edges++
			}
		}
	}
	s.Judge(cr.Get("cv-lambda-interior"), float64(edges))
	s.Judge(cr.Get("rvm-runs-ok"), float64(badR))
	tab := results.NewTable("data", "n_train", "d", "rvm_seconds", "brvm_seconds", "time_ratio_rvm_over_brvm", "rvm_iterations", "brvm_iterations", "brvm_at_cap")
	med := map[string]map[string]float64{}
	for _, ds := range rvmData {
		n := map[string]float64{}
		nm, sc, kp, it := byMethod(refs, cells, ds, nmseOf), byMethod(refs, cells, ds, secs), byMethod(refs, cells, ds, kept), byMethod(refs, cells, ds, iters)
		if len(nm["rvm"]) == 0 {
			continue
		}
		ratioT := ratios(sc["rvm"], sc["brvm"])
		ratioN := ratios(nm["brvm"], nm["rvm"])
		ratioK := ratios(kp["brvm"], kp["rvm"])
		atCap := fraction(it["brvm"], func(x float64) bool { return x >= float64(c.VB.MaxIterations) })
		n["rvm_nmse"], n["brvm_nmse"] = results.Median(nm["rvm"]), results.Median(nm["brvm"])
		n["rvm_vectors"], n["brvm_vectors"] = results.Median(kp["rvm"]), results.Median(kp["brvm"])
		n["speedup"], n["nmse_ratio"], n["vectors_ratio"] = results.Median(ratioT), results.Median(ratioN), results.Median(ratioK)
		n["speedup_frac"] = fraction(ratioT, func(x float64) bool { return x > 1 })
		n["nmse_frac"] = fraction(ratioN, func(x float64) bool { return x <= 1.1 })
		if fx := nm["brvm_fixed_noise"]; len(fx) > 0 {
			n["fixed_noise_ratio"] = results.Median(ratios(fx, nm["rvm"]))
			n["brvm_fixed_noise_nmse"] = results.Median(fx)
		}
		med[ds] = n
		var ntr, d int
		if ds == "sinc" {
			ntr, d = c.Sinc.Points, 1
		} else {
			ntr = nBoston - int(math.Round(c.Boston.TestFraction*float64(nBoston)))
			d = dBoston
		}
		tab.AddRow(ds, ntr, d, results.Median(sc["rvm"]), results.Median(sc["brvm"]), n["speedup"], results.Median(it["rvm"]), results.Median(it["brvm"]), atCap)
		prefix := ""
		if ds == "sinc" {
			prefix = "sinc_"
		}
		s.SetMetric(prefix+"rvm_nmse", n["rvm_nmse"])
		s.SetMetric(prefix+"brvm_nmse", n["brvm_nmse"])
		s.SetMetric(prefix+"rvm_vectors", n["rvm_vectors"])
		s.SetMetric(prefix+"brvm_vectors", n["brvm_vectors"])
		s.SetMetric(prefix+"brvm_speedup", n["speedup"])
		s.SetMetric(prefix+"brvm_at_iteration_cap_frac", atCap)
		s.SetMetric(prefix+"brvm_median_iterations", results.Median(it["brvm"]))
		s.SetMetric(prefix+"rvm_median_iterations", results.Median(it["rvm"]))
		if v, ok := n["brvm_fixed_noise_nmse"]; ok {
			s.SetMetric(prefix+"brvm_fixed_noise_nmse", v)
		}
	}
	if err := results.WriteCSV(env.Path("table4_2.csv"), *tab); err != nil {
		return err
	}
	b, sn := med["boston"], med["sinc"]
	if b == nil || sn == nil {
		return fmt.Errorf("backfit/rvm: every run needs sinc data sets and Boston splits")
	}
	const why = "a quick run: CPU times are machine- and load-dependent, judged on the full run only"
	if env.Quick {
		s.NotJudged(cr.Get("table4.2-speedup-boston"), why)
		s.NotJudged(cr.Get("table4.2-speedup-boston-frac"), why)
		s.NotJudged(cr.Get("table4.2-speedup-sinc"), why)
	} else {
		s.Judge(cr.Get("table4.2-speedup-boston"), b["speedup"], fmt.Sprintf("RVM %.3g s, bRVM %.3g s (medians)", results.Median(byMethod(refs, cells, "boston", secs)["rvm"]), results.Median(byMethod(refs, cells, "boston", secs)["brvm"])))
		s.Judge(cr.Get("table4.2-speedup-boston-frac"), b["speedup_frac"])
		s.Judge(cr.Get("table4.2-speedup-sinc"), sn["speedup"])
	}
	s.Judge(cr.Get("fig4.11-nmse-boston"), b["nmse_ratio"], fmt.Sprintf("median nMSE RVM %.4f, bRVM %.4f", b["rvm_nmse"], b["brvm_nmse"]))
	s.Judge(cr.Get("fig4.11-nmse-boston-frac"), b["nmse_frac"])
	s.Judge(cr.Get("fig4.9-nmse-sinc"), sn["nmse_ratio"], fmt.Sprintf("median nMSE RVM %.4f, bRVM %.4f", sn["rvm_nmse"], sn["brvm_nmse"]))
	s.Judge(cr.Get("fig4.13-vectors-boston"), b["vectors_ratio"], fmt.Sprintf("median kept RVM %g, bRVM %g", b["rvm_vectors"], b["brvm_vectors"]))
	nTrain := float64(nBoston - int(math.Round(c.Boston.TestFraction*float64(nBoston))))
	s.Judge(cr.Get("fig4.13-rvm-sparse"), b["rvm_vectors"]/nTrain, fmt.Sprintf("of %g training points", nTrain))
	s.Judge(cr.Get("rvm-mackay-monotone"), float64(decreases))
	if v, ok := sn["fixed_noise_ratio"]; ok {
		s.Judge(cr.Get("brvm-fixed-noise-nmse-sinc"), v, fmt.Sprintf("median nMSE %.4f", sn["brvm_fixed_noise_nmse"]))
	} else {
		s.NotJudged(cr.Get("brvm-fixed-noise-nmse-sinc"), "fixed_noise = false")
	}
	if v, ok := b["fixed_noise_ratio"]; ok {
		s.Judge(cr.Get("brvm-fixed-noise-nmse-boston"), v, fmt.Sprintf("median nMSE %.4f", b["brvm_fixed_noise_nmse"]))
	} else {
		s.NotJudged(cr.Get("brvm-fixed-noise-nmse-boston"), "fixed_noise = false")
	}
	s.Claims = []results.Claim{
		{Artifact: "Table 4.2", Checks: []string{"table4.2-speedup-boston", "table4.2-speedup-boston-frac", "table4.2-speedup-sinc"},
			Statement: "the backfitting RVM converges faster than the RVM: 372 s against 155 s on Boston, 18.71 s against 6.24 s on sinc (the ratio, not the seconds)"},
		{Artifact: "Figure 4.11", Figures: []string{"dsouza_fig4_11"}, Checks: []string{"fig4.11-nmse-boston", "fig4.11-nmse-boston-frac"},
			Statement: "on Boston (20 % test, 100 splits) the backfitting RVM's nMSE is competitive with the RVM's (targets §7 P6: within 10 %)"},
		{Artifact: "Figure 4.9", Figures: []string{"dsouza_fig4_9"}, Checks: []string{"fig4.9-nmse-sinc"},
			Statement: "on sinc the backfitting RVM \"suffers no penalty in generalization error\" against the RVM"},
		{Artifact: "Figure 4.13", Figures: []string{"dsouza_fig4_13"}, Checks: []string{"fig4.13-vectors-boston", "fig4.13-rvm-sparse"},
			Statement: "both RVMs keep few basis vectors, the backfitting RVM no more than the RVM"},
	}
	s.Findings = append(s.Findings, fmt.Sprintf("λ by %d-fold CV: sinc RVM %g, bRVM %g; Boston RVM %g, bRVM %g (rvm_cv.csv). Boston: median nMSE RVM %.4f, bRVM %.4f, bRVM with ψ fixed at the RVM's 1/β %.4f; kept vectors %g and %g of %g; the bRVM reached vb.max_iterations = %d in %.0f %% of the splits (median %g iterations, the RVM %g).",
		c.Folds, chosenOf(cvTab, "sinc", "rvm"), chosenOf(cvTab, "sinc", "brvm"), chosenOf(cvTab, "boston", "rvm"), chosenOf(cvTab, "boston", "brvm"),
		b["rvm_nmse"], b["brvm_nmse"], b["brvm_fixed_noise_nmse"], b["rvm_vectors"], b["brvm_vectors"], nTrain, c.VB.MaxIterations,
		100*s.Metrics["brvm_at_iteration_cap_frac"], s.Metrics["brvm_median_iterations"], s.Metrics["rvm_median_iterations"]))
	s.AddFindingsFromChecks(rvmExplain)
	if err := env.WriteSummary(&s, "D'Souza §4.4.5-4.5.1 (L1757-1861): the RVM against the backfitting RVM; nMSE, kept vectors and CPU time over the sinc data sets and the Boston splits (medians; ratios per cell)."); err != nil {
		return err
	}
	return PlotRVM(env.Dir)
}

// chosenOf returns the λ the cross-validation chose.
func chosenOf(t *results.Table, ds, m string) float64 {
	for _, r := range t.Rows {
		if r[0] == ds && r[1] == m && r[4] == "1" {
			v, _ := strconv.ParseFloat(r[2], 64)
			return v
		}
	}
	return math.NaN()
}

// rvmExplain says why a criterion can fail on the text's setting.
var rvmExplain = map[string]string{
	"table4.2-speedup-boston": "the RVM prunes: once most α pass the cap (a few MacKay iterations) each iteration factors only the kept vectors, while the backfitting RVM sweeps all N + 1 columns every iteration and, its relaxation ω_m = ψ_zm/s shared among N + 1 correlated kernel columns, needs thousands of sweeps (D'Souza's bRVM does not prune either, L1795)",
	"fig4.11-nmse-boston":     "the backfitting bound with ψ_y, ψ_z fitted settles at a larger noise variance than the RVM's 1/β (noise_var in rvm_cells.csv) and fits less; brvm-fixed-noise-nmse-boston measures how much of the gap that is",
	"fig4.13-vectors-boston":  "E[α_m] of the factorised q(b)q(α) grows only as fast as the sweeps shrink ⟨b_m²⟩, so at the iteration cap many E[α_m] are still below the cap",
}
