package chapter3

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// This file reads out chapter3/synthetic and chapter3/synthetic-grammar:
// the metrics and the acceptance criteria of targets §E3.1-E3.2.

// syntheticSummary computes the metrics and the acceptance criteria of
// targets §E3.1-E3.2. Criteria stated for "10 data sets, one random init
// each" are computed over every (data set, restart) run, each of which is
// one random initialisation. A claim stated as a fraction of runs or of
// data sets is judged by results.Summary.JudgeSeeds, which keeps the spread
// of its per-run (or per-data-set) measure beside the fraction.
func syntheticSummary(env *experiments.Env, c *SyntheticConfig, runs []Run, best []int) *results.Summary {
	s := &results.Summary{Experiment: c.Experiment, ConfigHash: env.Hash, Quick: env.Quick, Criteria: syntheticCriteria}
	thr := c.Analysis.ActiveThreshold
	u := c.Prior.prior(c.Model.K, c.Data.pOf())

	fig := runs[best[0]]
	hasML := c.runsML()
	mlMetric := func(x float64) float64 {
		if !hasML {
			return math.NaN()
		}
		return x
	}
	s.SetMetric("F_best", float64(fig.F))
	s.SetMetric("ml_loglik", float64(fig.MLLogLik))
	s.SetMetric("ml_iterations", mlMetric(float64(fig.MLIterations)))
	s.SetMetric("vb_iterations", float64(fig.VBIterations))
	s.SetMetric("ml_active_states", mlMetric(float64(len(Active(fig.MLOccupancy, thr)))))
	s.SetMetric("vb_active_states", float64(len(fig.Structure.Active)))
	s.SetMetric("structure_recovered", float64(b2i(fig.Structure.Recovered)))
	s.SetMetric("figure_dataset", float64(fig.Dataset))
	s.SetMetric("figure_restart", float64(fig.Restart))
	s.SetMetric("datasets", float64(len(best)))
	s.SetMetric("runs", float64(len(runs)))

	var mlIt, vbIt, mlAct, vbAct, msPerIter, itGap, runRecovered []float64
	nonMono, recovered := 0, 0
	for _, r := range runs {
		if hasML {
			mlIt = append(mlIt, float64(r.MLIterations))
			mlAct = append(mlAct, float64(len(Active(r.MLOccupancy, thr))))
		}
		vbIt = append(vbIt, float64(r.VBIterations))
		vbAct = append(vbAct, float64(len(r.Structure.Active)))
		msPerIter = append(msPerIter, 1000*r.VBSeconds/float64(max(r.VBIterations, 1)))
		mlTr, _ := r.trace("ML")
		vbTr, _ := r.trace("VB")
		if !mlTr.Monotone(c.ML.MonotoneTol) || !vbTr.Monotone(c.VB.MonotoneTol) ||
			r.MLStatus == vb.BoundDecreased.String() || r.VBStatus == vb.BoundDecreased.String() {
			nonMono++
		}
		itGap = append(itGap, float64(r.MLIterations-r.VBIterations))
		runRecovered = append(runRecovered, b2f(r.Structure.Recovered))
		if r.Structure.Recovered {
			recovered++
		}
	}
	n := float64(len(runs))
	s.SetMetric("ml_iterations_median", results.Median(mlIt))
	s.SetMetric("vb_iterations_median", results.Median(vbIt))
	s.SetMetric("ml_active_states_median", results.Median(mlAct))
	s.SetMetric("vb_active_states_median", results.Median(vbAct))
	s.SetMetric("vb_ms_per_iteration_median", results.Median(msPerIter))
	s.SetMetric("runs_recovered_fraction", float64(recovered)/n)

	bestRecovered := 0
	var setRecovered, setSelected []float64
	inactiveBad := 0
	var maxOcc, maxDev float64
	for d, b := range best {
		r := runs[b]
		if r.Structure.Recovered {
			bestRecovered++
		}
		setRecovered = append(setRecovered, b2f(r.Structure.Recovered))
		any := false
		for _, q := range runs {
			if q.Dataset == d && q.Structure.Recovered {
				any = true
			}
		}
		if any {
			setSelected = append(setSelected, b2f(r.Structure.Recovered))
		}
		occ, dev := inactiveDeviation(r, u, thr)
		maxOcc, maxDev = math.Max(maxOcc, occ), math.Max(maxDev, dev)
		if occ >= 0.5 || dev > 0.5 {
			inactiveBad++
		}
	}
	nd := float64(len(best))
	s.SetMetric("datasets_recovered_fraction", float64(bestRecovered)/nd)
	s.SetMetric("inactive_max_occupancy", maxOcc)
	s.SetMetric("inactive_max_prior_deviation", maxDev)

	// The data-independent check applies to every run; the others state
	// what the thesis's setting should give (targets §E3.1-E3.2) and do not
	// apply to a user's data, another k, or (the ML ones) a run without ML.
	crit := syntheticCriteria.Get
	s.Judge(crit("fig3.2-monotone"), float64(nonMono))
	na := thesisSettingMismatch(env, c)
	noML := na
	if noML == "" && !hasML {
		noML = `no ML baseline was run (vb.init = "random" or "random-means", ml.baseline = false)`
	}
	judge := func(why, id string, value float64) {
		if why != "" {
			s.NotJudged(crit(id), why)
			return
		}
		s.Judge(crit(id), value)
	}
	// judgeSeeds judges a claim over every run or data set: the fraction
	// of values that hold, with their spread.
	judgeSeeds := func(why, id string, values []float64, holds func(float64) bool) {
		if why != "" {
			s.NotJudged(crit(id), why)
			return
		}
		s.JudgeSeeds(crit(id), values, holds)
	}
	positive := func(v float64) bool { return v > 0 }
	judge(noML, "fig3.2-ml-iterations", results.Median(mlIt))
	judge(na, "fig3.2-vb-iterations", results.Median(vbIt))
	judgeSeeds(noML, "fig3.2-vb-fewer-iterations", itGap, positive)
	judge(noML, "fig3.3-ml-active", results.Median(mlAct))
	judgeSeeds(na, "fig3.3-best-f-recovers", setRecovered, positive)
	judgeSeeds(na, "fig3.3-runs-recover", runRecovered, positive)
	judge(na, "fig3.3-vb-active", results.Median(vbAct))
	judge(na, "fig3.3-inactive-at-prior", float64(inactiveBad))
	why := na
	if why == "" && len(setSelected) == 0 {
		why = "no data set has a run that recovers the structure"
	}
	judgeSeeds(why, "fig3.3-f-selects-recovered", setSelected, positive)
	s.Claims = syntheticClaims
	s.AddFindingsFromChecks(map[string]string{
		"fig3.3-inactive-at-prior": "On the thesis's own strings (abc21.txt) four (acb)* strings contain a 'babc' glitch; the highest-F solution spends an eighth state on them (occupancy about 4 symbols, below the 1% activity line), so that state's pseudo-counts are not back at the prior. On generated data (chapter3/synthetic-grammar) the check passes.",
	})
	return s
}

// thesisSettingMismatch returns "" when the run is the thesis's setting that
// the E3.1-E3.2 criteria describe: the thesis's own strings (abc21.txt,
// verified by its checksum) or the reconstructed three-grammar generator,
// with k = 12 states. Otherwise it says what differs.
func thesisSettingMismatch(env *experiments.Env, c *SyntheticConfig) string {
	if c.Data.Generator == "" {
		ok := false
		for _, d := range env.DataRecords() {
			if d.File == c.Data.File && d.Checked && filepath.Base(d.File) == "abc21.txt" && c.Data.Alphabet == "abc" {
				ok = true
			}
		}
		if !ok {
			return fmt.Sprintf("data %s is not the thesis's (abc21.txt or the grammar3 generator)", c.Data.File)
		}
	}
	if c.Model.K != 12 {
		return fmt.Sprintf("model.k = %d, the criteria are stated for the thesis's k = 12", c.Model.K)
	}
	return ""
}

// inactiveDeviation returns the largest occupancy of an inactive state and
// the largest |w − u| over the rows of A and C of inactive states.
func inactiveDeviation(r Run, u hmm.Prior, thr float64) (occ, dev float64) {
	active := r.Structure.Active
	k, p := r.W.K, r.W.P
	for j := 0; j < k; j++ {
		if slices.Contains(active, j) {
			continue
		}
		occ = math.Max(occ, r.VBOccupancy[j])
		for l := 0; l < k; l++ {
			dev = math.Max(dev, math.Abs(r.W.A[j*k+l]-u.A[l]))
		}
		for m := 0; m < p; m++ {
			dev = math.Max(dev, math.Abs(r.W.C[j*p+m]-u.C[m]))
		}
	}
	return occ, dev
}
