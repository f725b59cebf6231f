package chapter4

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/is"
)

// ISSamplersID is the registry key of Table 4.3 and Figure 4.14: the six
// importance samplers (single or mixture-of-10 VB posteriors, Gaussian or
// Student-t rows) on three 2-D data sets of increasing overlap (Beal 2003
// §4.7.3, L3098-L3149; targets ch4-mfa.md §1.11, §3.9).
const ISSamplersID = "chapter4/is-samplers"

// SamplersData are the [data] keys: the FourClusters generator at each δ.
type SamplersData struct {
	// Deltas are the centres' offsets of the data sets (L3127: well
	// separated, intermediate, overlapping), distinct (a data set is named
	// by its δ), in units of the clusters' standard deviation 1. Default
	// [4, 2, 1].
	Deltas []float64 `toml:"deltas" range:"(0,1e6] len=1.. distinct"`
	// NTotal and PointsPerCluster are those of FourClusters (set exactly
	// one, the other 0), with at most maxPoints points. Default 150 points
	// in all.
	NTotal           int `toml:"n_total" range:"[0,1e7]"`
	PointsPerCluster int `toml:"points_per_cluster" range:"[0,2.5e6]"`
}

// SamplersVB are the [vb_runs] keys: the VBMFA optimisations per data set.
type SamplersVB struct {
	// Count is the number of optimisations kept (L3127: 10), at most
	// max_attempts.
	Count int `toml:"count" range:"[1,1e6]"`
	// InitComponents is S at the start, at most the data's points (each
	// starts from a distinct point under "data_points"). Default 4.
	InitComponents int `toml:"init_components" range:"[1,1e6]"`
	// Init is how an optimisation starts (PCA loadings per analyser from
	// its responsibilities in both cases): "dirichlet" (every q(s_i) row
	// drawn from Dir(1,…,1), the targets' §3.9 reading of "random
	// initialisations") or "data_points" (InitComponents distinct data
	// points drawn at random as centres; each point gives InitSharpness of
	// its responsibility to the analyser of the nearest centre and shares
	// the rest equally). Default "data_points": from the Dirichlet rows
	// every analyser starts from nearly the whole data set, and on these
	// data sets every optimisation ends with S = 2.
	Init string `toml:"init"`
	// InitSharpness is the responsibility of the nearest centre under
	// "data_points": a probability, and more than the 1/S of a flat start
	// (in (1/init_components, 1]). Default 0.9.
	InitSharpness float64 `toml:"init_sharpness" range:"(0,1]"`
	// RequireS: a run ending with another number of analysers (of at
	// least one point) is discarded and replaced (L3127). At most
	// init_components: the optimisations have deaths and no births.
	// Default 4.
	RequireS int `toml:"require_S" range:"[1,1e6]"`
	// MaxAttempts bounds the optimisations tried per data set, at least
	// count. Default 200.
	MaxAttempts int `toml:"max_attempts" range:"[1,1e6]"`
	// FallbackModal: if fewer than Count of MaxAttempts optimisations end
	// with RequireS analysers, keep Count of those that end with the most
	// frequent S instead (reported as a finding) rather than fail.
	FallbackModal bool `toml:"fallback_modal"`
}

// SamplerSpec is one row of Table 4.3.
type SamplerSpec struct {
	// Key numbers the sampler as in Table 4.3 (1-6), distinct; it names
	// the sampler's cells and random streams.
	Key int `toml:"key" range:"[1,1e6]"`
	// Kind is "single" (one VB posterior chosen at random) or "mixture"
	// (the equal-weight mixture of all Count posteriors).
	Kind string `toml:"kind"`
	// DOF is 0 for the Gaussian rows of q(Λ̃) and ν > 0 for Student-t rows
	// with ν degrees of freedom and scale Γ_q (eqs. (4.122)-(4.127)).
	// Below ν = 0.1 the rows' tails are so heavy that draws overflow
	// (measured on a 2-D unit t: none of 10⁶ draws at ν = 0.05, 825 not
	// finite at ν = 0.02); past 10⁶ a t row is its Gaussian to within
	// rounding.
	DOF float64 `toml:"dof" range:"0|[0.1,1e6]"`
}

// SamplersIS are the [is] keys: per sampler, runs independent runs (5) of
// samples draws (L3146: 4000), and the samplers.
type SamplersIS struct {
	config.IS
	// Samplers are the rows of Table 4.3.
	Samplers []SamplerSpec `toml:"samplers" range:"len=1.."`
}

// ISSamplersConfig is the config of chapter4/is-samplers.
type ISSamplersConfig struct {
	experiments.Common
	Data  SamplersData  `toml:"data"`
	Model ModelSettings `toml:"model"`
	Prior PriorSettings `toml:"prior"`
	// Search holds the epoch rule and the deaths of each optimisation
	// (births are never proposed).
	Search config.SearchSettings `toml:"search"`
	VB     config.FitSettings    `toml:"vb"`
	Runs   SamplersVB            `toml:"vb_runs"`
	IS     SamplersIS            `toml:"is"`
}

// DefaultSamplers returns the six samplers of Table 4.3.
func DefaultSamplers() []SamplerSpec {
	return []SamplerSpec{{1, "single", 0}, {2, "single", 3}, {3, "single", 2}, {4, "mixture", 0}, {5, "mixture", 3}, {6, "mixture", 2}}
}

// DefaultISSamplers returns the targets' settings (§3.9).
func DefaultISSamplers() ISSamplersConfig {
	c := ISSamplersConfig{Common: experiments.Common{Experiment: ISSamplersID, Figures: []string{"table4.3", "fig4.14"}, Seed: 4702}}
	c.Data = SamplersData{Deltas: []float64{4, 2, 1}, NTotal: 150}
	c.Model, c.Prior = defaultModel(1), prior2D()
	c.Search = DefaultSearch()
	c.Search.MaxTotalIterations = 0
	c.VB = vbFit(2000)
	c.Runs = SamplersVB{Count: 10, InitComponents: 4, Init: "data_points", InitSharpness: 0.9, RequireS: 4, MaxAttempts: 200, FallbackModal: true}
	c.IS = SamplersIS{IS: config.IS{Samples: 4000, Runs: 5}, Samplers: DefaultSamplers()}
	return c
}

// Validate checks what relates the keys: the generator's rules (exactly
// one of n_total and points_per_cluster), the starts against the points,
// require_S and max_attempts against the starts and count, the choices of
// vb_runs.init and every sampler's kind, distinct sampler keys, and k_max
// against the data's 2 dimensions.
func (c *ISSamplersConfig) Validate() error {
	for _, d := range c.Data.Deltas {
		if err := (FourClusters{Delta: d, NTotal: c.Data.NTotal, PointsPerCluster: c.Data.PointsPerCluster}).Validate(); err != nil {
			return err
		}
	}
	if n := max(c.Data.NTotal, 4*c.Data.PointsPerCluster); c.Runs.InitComponents > n {
		return config.FieldError("vb_runs.init_components", c.Runs.InitComponents, fmt.Sprintf("must be at most the %d points of a data set", n))
	}
	if c.Runs.Init != "dirichlet" && c.Runs.Init != "data_points" {
		return config.FieldError("vb_runs.init", c.Runs.Init, `must be "dirichlet" or "data_points"`)
	}
	if S := float64(c.Runs.InitComponents); !(c.Runs.InitSharpness > 1/S) {
		return config.FieldError("vb_runs.init_sharpness", c.Runs.InitSharpness, "must be in (1/init_components, 1]")
	}
	if c.Runs.RequireS > c.Runs.InitComponents {
		return config.FieldError("vb_runs.require_S", c.Runs.RequireS, fmt.Sprintf("must be at most init_components = %d (no births)", c.Runs.InitComponents))
	}
	if c.Runs.MaxAttempts < c.Runs.Count {
		return config.FieldError("vb_runs.max_attempts", c.Runs.MaxAttempts, fmt.Sprintf("must be at least count = %d", c.Runs.Count))
	}
	var keys []int
	for _, sp := range c.IS.Samplers {
		if sp.Kind != "single" && sp.Kind != "mixture" {
			return config.FieldError("is.samplers.kind", sp.Kind, `must be "single" or "mixture"`)
		}
		if slices.Contains(keys, sp.Key) {
			return config.FieldError("is.samplers.key", sp.Key, "keys must be distinct")
		}
		keys = append(keys, sp.Key)
	}
	return config.FirstError(c.Model.checkKMax(2), c.Search.Validate(), c.VB.Validate("vb", mfaGroups()))
}

// generator returns the FourClusters generator of data set j.
func (c *ISSamplersConfig) generator(j int) FourClusters {
	return FourClusters{Delta: c.Data.Deltas[j], NTotal: c.Data.NTotal, PointsPerCluster: c.Data.PointsPerCluster}
}

// data returns data set j, z-scored (targets §3, "Global conventions").
func (c *ISSamplersConfig) data(j int) (*mat.Dense, error) {
	x, _ := c.generator(j).Generate(rng.New(c.Seed, ISSamplersID, "data", strconv.Itoa(j)))
	z, _, _, err := numeric.Standardise(x, nil, numeric.DropConstant)
	return z, err
}

// SamplersVBCell is one data set's optimisations.
type SamplersVBCell struct {
	Delta float64
	// Data are the z-scored points (n×2, row-major) for the figure.
	Data []float64
	// S is the number of analysers of the kept optimisations: RequireS,
	// or the most frequent final S under FallbackModal.
	S int
	// F holds the bound of every kept optimisation, Posts their
	// q(π)q(Λ̃) and hyperparameters; Single is the index of the model
	// chosen at random for samplers 1-3, Best that of the highest bound
	// (F′).
	F            []experiments.Float
	Iterations   []int
	Posts        []mfa.ISPosterior
	Single, Best int
	// Attempts counts the optimisations run, FinalS the final number of
	// analysers of each; Discarded those not kept.
	Attempts, Discarded int
	FinalS              []int
	Seconds             float64
}

// initResp returns the starting responsibilities of an optimisation (see
// SamplersVB.Init).
func (c *ISSamplersConfig) initResp(z *mat.Dense, rnd *rand.Rand) *mat.Dense {
	n, p := z.Dims()
	S := c.Runs.InitComponents
	r := mat.NewDense(n, S, nil)
	if c.Runs.Init == "dirichlet" {
		ones := make([]float64, S)
		for i := range ones {
			ones[i] = 1
		}
		d := dist.NewDirichlet(ones)
		for i := 0; i < n; i++ {
			d.Rand(r.RawRowView(i), rnd)
		}
		return r
	}
	centres := rnd.Perm(n)[:min(S, n)]
	rest := 0.0
	if S > 1 {
		rest = (1 - c.Runs.InitSharpness) / float64(S-1)
	}
	for i := 0; i < n; i++ {
		best, bd := 0, math.Inf(1)
		for s, k := range centres {
			var d float64
			for q := 0; q < p; q++ {
				e := z.At(i, q) - z.At(k, q)
				d += e * e
			}
			if d < bd {
				best, bd = s, d
			}
		}
		row := r.RawRowView(i)
		for s := range row {
			row[s] = rest
		}
		row[best] = c.Runs.InitSharpness
	}
	return r
}

// deathRun runs one VBMFA optimisation from the responsibilities resp: VBEM
// to convergence with deaths of analysers below the death threshold and no
// births (targets §3.9).
func (c *ISSamplersConfig) deathRun(z, resp *mat.Dense, stop func() error) (*mfa.VB, vb.SearchResult, error) {
	model, err := mfa.NewVB(z, resp, c.Model.settings(c.Prior))
	if err != nil {
		return nil, vb.SearchResult{}, err
	}
	model.Moves = moves(c.Search, nil) // no Rand: deaths only
	res := c.Search.Search(model, c.VB.Settings(stop, model), nil)
	if res.Status == vb.Canceled {
		return nil, res, res.Err
	}
	return model, res, nil
}

// optimisation is one finished optimisation of runVBCell.
type optimisation struct {
	S, iters int
	F        float64
	post     mfa.ISPosterior
}

// runVBCell runs the optimisations of data set j until Count of them end
// with RequireS analysers (or, under FallbackModal, MaxAttempts have run).
func (c *ISSamplersConfig) runVBCell(j int, stop func() error) (SamplersVBCell, error) {
	start := time.Now()
	cell := SamplersVBCell{Delta: c.Data.Deltas[j], S: c.Runs.RequireS}
	z, err := c.data(j)
	if err != nil {
		return cell, err
	}
	cell.Data = slices.Clone(z.RawMatrix().Data)
	var all []optimisation
	kept := func(S int) int {
		k := 0
		for _, o := range all {
			if o.S == S {
				k++
			}
		}
		return k
	}
	for kept(c.Runs.RequireS) < c.Runs.Count && cell.Attempts < c.Runs.MaxAttempts {
		rnd := rng.New(c.Seed, ISSamplersID, "init", strconv.Itoa(j), strconv.Itoa(cell.Attempts))
		cell.Attempts++
		m, res, err := c.deathRun(z, c.initResp(z, rnd), stop)
		if err != nil {
			return cell, err
		}
		if !res.Status.OK() {
			return cell, fmt.Errorf("data set δ = %g, attempt %d: VBEM ended with %s: %v", cell.Delta, cell.Attempts-1, res.Status, res.Err)
		}
		occupied := 0
		for _, v := range m.Counts() {
			if v >= 1 {
				occupied++
			}
		}
		S := m.Size()
		if occupied != S {
			S = -1 // death = "move": an analyser below one point whose death was refused; never kept
		}
		cell.FinalS = append(cell.FinalS, S)
		all = append(all, optimisation{S: S, iters: res.Iterations, F: res.F, post: m.ISPosterior()})
	}
	if kept(c.Runs.RequireS) < c.Runs.Count {
		if !c.Runs.FallbackModal {
			return cell, fmt.Errorf("data set δ = %g: only %d of %d optimisations ended with S = %d (raise vb_runs.max_attempts or set vb_runs.fallback_modal)",
				cell.Delta, kept(c.Runs.RequireS), cell.Attempts, c.Runs.RequireS)
		}
		best := 0
		for _, o := range all {
			if o.S > 0 && (kept(o.S) > kept(best) || (kept(o.S) == kept(best) && o.S > best)) {
				best = o.S
			}
		}
		if kept(best) < c.Runs.Count {
			return cell, fmt.Errorf("data set δ = %g: no number of analysers ended %d of %d optimisations", cell.Delta, c.Runs.Count, cell.Attempts)
		}
		cell.S = best
	}
	for _, o := range all {
		if o.S != cell.S || len(cell.Posts) == c.Runs.Count {
			cell.Discarded++
			continue
		}
		cell.F = append(cell.F, experiments.Float(o.F))
		cell.Iterations = append(cell.Iterations, o.iters)
		cell.Posts = append(cell.Posts, o.post)
	}
	cell.Single = rng.New(c.Seed, ISSamplersID, "single", strconv.Itoa(j)).IntN(len(cell.Posts))
	for r, f := range cell.F {
		if f > cell.F[cell.Best] {
			cell.Best = r
		}
	}
	cell.Seconds = time.Since(start).Seconds()
	return cell, nil
}

// SamplersISCell is one importance-sampling run of one sampler on one data
// set.
type SamplersISCell struct {
	Set, Key, Run       int
	LogZ, MeanLogW, ESS experiments.Float
	Seconds             float64
}

// samplerPieces returns the proposal and the target of a sampler on a data
// set. A single sampler uses the chosen model's q and its hyperparameters;
// a mixture uses the equal-weight mixture of every model's q (each with the
// sampler's rows) and the hyperparameters of the best model (F′): each
// optimisation fits its own Ψ, μ*, ν*, and ln p(y | Θ) ≥ F holds for the
// Θ at which F was computed (targets §3.9 acceptance).
func samplerPieces(z *mat.Dense, vbc SamplersVBCell, sp SamplerSpec) (is.Proposal, *mfa.ISTarget, error) {
	hyper := vbc.Posts[vbc.Single]
	var q is.Proposal
	if sp.Kind == "single" {
		p, err := mfaProposal(vbc.Posts[vbc.Single], sp.DOF)
		if err != nil {
			return nil, nil, err
		}
		q = p
	} else {
		hyper = vbc.Posts[vbc.Best]
		comps := make([]is.Proposal, len(vbc.Posts))
		for r, post := range vbc.Posts {
			p, err := mfaProposal(post, sp.DOF)
			if err != nil {
				return nil, nil, err
			}
			comps[r] = p
		}
		q = is.NewMixture(comps...)
	}
	t, err := mfa.NewISTarget(z, hyper.Layout(), hyper.Hyper)
	if err != nil {
		return nil, nil, err
	}
	return q, t, nil
}

// runISCell performs one run of one sampler on data set j.
func (c *ISSamplersConfig) runISCell(j int, vbc SamplersVBCell, sp SamplerSpec, run int) (SamplersISCell, error) {
	start := time.Now()
	z, err := c.data(j)
	if err != nil {
		return SamplersISCell{}, err
	}
	q, t, err := samplerPieces(z, vbc, sp)
	if err != nil {
		return SamplersISCell{}, err
	}
	r := is.Sample(c.IS.Samples, q, t, rng.New(c.Seed, ISSamplersID, "is", strconv.Itoa(j), strconv.Itoa(sp.Key), strconv.Itoa(run)))
	return SamplersISCell{Set: j, Key: sp.Key, Run: run, LogZ: experiments.Float(r.LogZ), MeanLogW: experiments.Float(r.MeanLogW),
		ESS: experiments.Float(r.ESS), Seconds: time.Since(start).Seconds()}, nil
}

// samplerRow is one (data set, sampler) line of table4_3.csv.
type samplerRow struct {
	set        int
	spec       SamplerSpec
	sum        is.Summary
	essMedian  float64
	F, FPrime  float64
	estimates  []float64
	essPerRuns []float64
}

// relativeVariance is the covariance of a t row relative to its scale,
// ν/(ν−2) (Table 4.3): 1 for a Gaussian, +Inf for ν ≤ 2.
func relativeVariance(dof float64) float64 {
	switch {
	case dof == 0:
		return 1
	case dof <= 2:
		return math.Inf(1)
	}
	return dof / (dof - 2)
}

// RunISSamplers runs the optimisations (one cell per data set, in every
// shard), then every
// (data set, sampler, run) importance-sampling cell, and writes
// table4_3.csv, is_runs.csv, vb_runs.csv, data.csv, analysers.csv and
// summary.json.
func RunISSamplers(env *experiments.Env, c *ISSamplersConfig) error {
	nsets := len(c.Data.Deltas)
	vbNames := make([]string, nsets)
	for j := range vbNames {
		vbNames[j] = fmt.Sprintf("vb-d%d", j)
	}
	vbCells := make([]SamplersVBCell, nsets)
	for j := range vbCells {
		var err error
		if vbCells[j], err = sharedCell(env, vbNames[j], func() (SamplersVBCell, error) { return c.runVBCell(j, env.Stop) }); err != nil {
			return err
		}
	}
	type key struct{ set, spec, run int }
	var names []string
	var keys []key
	for j := 0; j < nsets; j++ {
		for k, sp := range c.IS.Samplers {
			for r := 0; r < c.IS.Runs; r++ {
				names = append(names, fmt.Sprintf("is-d%d-s%d-r%d", j, sp.Key, r))
				keys = append(keys, key{j, k, r})
			}
		}
	}
	cells, complete, err := experiments.RunAllCells(env, names, nil, func(i int) (SamplersISCell, error) {
		k := keys[i]
		return c.runISCell(k.set, vbCells[k.set], c.IS.Samplers[k.spec], k.run)
	})
	if err != nil || !complete {
		return err
	}
	vt := results.NewTable("delta", "run", "F", "iterations", "single", "best")
	dt := results.NewTable("delta", "x", "y")
	at := results.NewTable("delta", "model", "analyser", "x", "y", "xx", "xy", "yy")
	for j, vbc := range vbCells {
		env.AddRun(results.RunRecord{Name: vbNames[j], Status: "ok", WallSeconds: vbc.Seconds})
		if vbc.S != c.Runs.RequireS {
			env.Warnf("data set δ = %g: fewer than %d of %d optimisations ended with S = %d; the %d kept end with S = %d (vb_runs.fallback_modal)",
				vbc.Delta, c.Runs.Count, vbc.Attempts, c.Runs.RequireS, c.Runs.Count, vbc.S)
		}
		if vbc.Discarded > 0 {
			hist := map[int]int{}
			for _, v := range vbc.FinalS {
				hist[v]++
			}
			fmt.Fprintf(env.Log, "%s: data set δ = %g: %d of %d optimisations were not kept (final S: count %v; -1: an analyser below one point)\n",
				ISSamplersID, vbc.Delta, vbc.Discarded, vbc.Attempts, hist)
		}
		for r, f := range vbc.F {
			vt.AddRow(vbc.Delta, r, float64(f), vbc.Iterations[r], b2i(r == vbc.Single), b2i(r == vbc.Best))
		}
		for i := 0; i+1 < len(vbc.Data); i += 2 {
			dt.AddRow(vbc.Delta, vbc.Data[i], vbc.Data[i+1])
		}
		for _, m := range []struct {
			name string
			r    int
		}{{"single", vbc.Single}, {"best", vbc.Best}} {
			for s, e := range analyserEllipses(vbc.Posts[m.r]) {
				at.AddRow(vbc.Delta, m.name, s, e.X, e.Y, e.XX, e.XY, e.YY)
			}
		}
	}
	var rows []samplerRow
	rt := results.NewTable("delta", "sampler", "run", "ln_p_hat", "F_hat", "ess")
	for j, vbc := range vbCells {
		for k, sp := range c.IS.Samplers {
			row := samplerRow{set: j, spec: sp, F: float64(vbc.F[vbc.Single]), FPrime: float64(vbc.F[vbc.Best])}
			var ests []is.Estimate
			for i, cell := range cells {
				if keys[i].set != j || keys[i].spec != k {
					continue
				}
				ests = append(ests, is.Estimate{N: c.IS.Samples, LogZ: float64(cell.LogZ), MeanLogW: float64(cell.MeanLogW), ESS: float64(cell.ESS)})
				row.estimates = append(row.estimates, float64(cell.LogZ))
				row.essPerRuns = append(row.essPerRuns, float64(cell.ESS))
				rt.AddRow(vbc.Delta, sp.Key, cell.Run, float64(cell.LogZ), float64(cell.MeanLogW), float64(cell.ESS))
			}
			row.sum = is.Summarize(ests)
			row.essMedian = results.Median(slices.Clone(row.essPerRuns))
			rows = append(rows, row)
		}
	}
	tt := results.NewTable("delta", "sampler", "type", "component_form", "dof", "relative_variance", "runs", "samples",
		"ln_p_mean", "ln_p_sd", "ln_p_se", "ln_p_pooled", "F_hat_mean", "ess_median", "F", "F_prime")
	for _, r := range rows {
		form := "Gaussian"
		if r.spec.DOF > 0 {
			form = "Student-t"
		}
		tt.AddRow(c.Data.Deltas[r.set], r.spec.Key, r.spec.Kind, form, r.spec.DOF, relativeVariance(r.spec.DOF), r.sum.Runs, c.IS.Samples,
			r.sum.Mean, r.sum.SD, r.sum.SE, r.sum.Pooled, r.sum.MeanLogW, r.essMedian, r.F, r.FPrime)
	}
	for _, f := range []struct {
		name string
		t    *results.Table
	}{{"table4_3.csv", tt}, {"is_runs.csv", rt}, {"vb_runs.csv", vt}, {"data.csv", dt}, {"analysers.csv", at}} {
		if err := results.WriteCSV(env.Path(f.name), *f.t); err != nil {
			return err
		}
	}
	s := samplersSummary(c, vbCells, rows)
	return env.WriteSummary(s, "Checks of targets ch4-mfa.md §3.9; estimates are the mean ± standard error of ln p̂ over the independent runs.")
}

// analyserEllipses returns each analyser's centre E[μ^s] and covariance
// E[Λ^s]E[Λ^s]ᵀ + Ψ in the first two coordinates.
func analyserEllipses(post mfa.ISPosterior) []plots.Ellipse {
	var out []plots.Ellipse
	for _, r := range post.Rows {
		m0, m1 := r.RowMean(0), r.RowMean(1)
		e := plots.Ellipse{X: m0[r.K], Y: m1[r.K], XX: post.Hyper.Psi[0], YY: post.Hyper.Psi[1], SD: 2}
		for l := 0; l < r.K; l++ {
			e.XX += m0[l] * m0[l]
			e.XY += m0[l] * m1[l]
			e.YY += m1[l] * m1[l]
		}
		out = append(out, e)
	}
	return out
}

// datasetName names data set j in metrics: "delta4", "delta0.5".
func datasetName(delta float64) string { return "delta" + strconv.FormatFloat(delta, 'g', -1, 64) }

// samplersCriteria are the criteria of Table 4.3 and Figure 4.14 (targets
// §3.9): three judged per data set (table4.3-runs-reach-s[delta4]) and
// three over the data sets, which must hold in 2/3 of the config's. They
// are claims of the thesis (L3127, L3146); the count of optimisations that
// end with S = 4 is one too (the thesis replaces any that ends with another
// S, so it had ten of them on every data set), not a sanity check: on
// overlapping clusters the model may rightly prefer fewer analysers.
func samplersCriteria(c *ISSamplersConfig) results.Criteria {
	n := len(c.Data.Deltas)
	most := results.AtLeast(math.Ceil(2.0 / 3 * float64(n))).OutOf(n)
	above := "\"all the estimates (1-6) ... yield estimates greater than the highest lower bound (F')\""
	return results.Criteria{
		results.Criterion{ID: "table4.3-runs-reach-s", Text: fmt.Sprintf("optimisations ending with S = %d, per data set", c.Runs.RequireS), Target: results.AtLeast(float64(c.Runs.Count))}.
			AsClaim("10 optimisations with 4 components on every data set (any other discarded and replaced)", "L3127"),
		results.Criterion{ID: "table4.3-single-above-f", Text: "min over samplers 1-3 of mean ln p̂ + 3 SE - F, per data set", Target: results.AtLeast(0)}.
			AsClaim(above, "L3146"),
		results.Criterion{ID: "fig4.14-mixture-gain", Text: "(mean of samplers 4-6 - mean of 1-3) / (F' - F), per data set with F' - F > 1", Target: results.Within(0.3, 3)}.
			AsClaim("the increase from (1,2,3) to (4,5,6) \"roughly the same as the increase in lower bounds from F to F'\"", "L3146"),
		results.Criterion{ID: "fig4.14-mixtures-above-fprime", Text: fmt.Sprintf("data sets where samplers 4-6 all have mean ln p̂ + 3 SE >= F' (of %d)", n), Target: most}.
			AsClaim(above, "Figure 4.14, L3146"),
		results.Criterion{ID: "table4.3-t2-above-gaussian", Text: fmt.Sprintf("data sets with sampler 3 (t, 2 dof) >= sampler 1 (Gaussian) (of %d)", n), Target: most}.
			AsClaim("Student-t rows \"for the most part\" raise the estimate, 2 dof further than 3", "L3146"),
		results.Criterion{ID: "table4.3-t2-mixture-above-mixture", Text: fmt.Sprintf("data sets with sampler 6 >= sampler 4 (mixtures) (of %d)", n), Target: most}.
			AsClaim("Student-t rows raise the mixture's estimate too, (5) to (6) \"for the most part\" further", "L3146"),
	}
}

// samplersSummary computes the metrics and the checks of §3.9.
func samplersSummary(c *ISSamplersConfig, vbc []SamplersVBCell, rows []samplerRow) *results.Summary {
	s := &results.Summary{Lists: map[string][]float64{}, Criteria: samplersCriteria(c)}
	crit := s.Criteria.Get
	find := func(set, key int) *samplerRow {
		for i := range rows {
			if rows[i].set == set && rows[i].spec.Key == key {
				return &rows[i]
			}
		}
		return nil
	}
	notTable43 := ""
	for k := 1; k <= 6; k++ {
		if r := find(0, k); r == nil || r.spec != DefaultSamplers()[k-1] {
			notTable43 = "is.samplers is not the Table 4.3 list"
		}
	}
	mixOK, t2OK, t2mixOK := 0, 0, 0
	for j, cell := range vbc {
		name := datasetName(cell.Delta)
		F, Fp := float64(cell.F[cell.Single]), float64(cell.F[cell.Best])
		samplersSetMetrics(s, cell, name, F, Fp)
		reached := 0
		for _, v := range cell.FinalS {
			if v == c.Runs.RequireS {
				reached++
			}
		}
		s.Judge(as(crit("table4.3-runs-reach-s").For(name), fmt.Sprintf("%s: optimisations ending with S = %d (of %d tried)", name, c.Runs.RequireS, cell.Attempts)),
			float64(reached))
		for _, r := range rows {
			if r.set != j {
				continue
			}
			pre := fmt.Sprintf("%s.sampler%d.", name, r.spec.Key)
			s.SetMetric(pre+"ln_p_mean", r.sum.Mean)
			s.SetMetric(pre+"ln_p_se", r.sum.SE)
			s.SetMetric(pre+"ln_p_sd", r.sum.SD)
			s.SetMetric(pre+"ess_median", r.essMedian)
			s.Lists[pre+"ess_runs"] = r.essPerRuns
		}
		single := as(crit("table4.3-single-above-f").For(name), fmt.Sprintf("%s: min over samplers 1-3 of mean ln p̂ + 3 SE - F", name))
		gain := as(crit("fig4.14-mixture-gain").For(name), fmt.Sprintf("%s: (mean of samplers 4-6 - mean of 1-3) / (F' - F)", name))
		if notTable43 != "" {
			s.NotJudged(single, notTable43)
			s.NotJudged(gain, notTable43)
			continue
		}
		// Samplers 1-3 against F: the smallest (mean + 3 SE) - F.
		worst := math.Inf(1)
		for k := 1; k <= 3; k++ {
			r := find(j, k)
			worst = math.Min(worst, r.sum.Mean+3*r.sum.SE-F)
		}
		s.Judge(single, worst)
		mix := math.Inf(1)
		for k := 4; k <= 6; k++ {
			r := find(j, k)
			mix = math.Min(mix, r.sum.Mean+3*r.sum.SE-Fp)
		}
		if mix >= 0 {
			mixOK++
		}
		s.SetMetric(name+".mixture_margin_F_prime", mix)
		if find(j, 3).sum.Mean >= find(j, 1).sum.Mean {
			t2OK++
		}
		if find(j, 6).sum.Mean >= find(j, 4).sum.Mean {
			t2mixOK++
		}
		singleMean := (find(j, 1).sum.Mean + find(j, 2).sum.Mean + find(j, 3).sum.Mean) / 3
		mixture := (find(j, 4).sum.Mean + find(j, 5).sum.Mean + find(j, 6).sum.Mean) / 3
		if Fp-F > 1 {
			s.Judge(gain, (mixture-singleMean)/(Fp-F))
		} else {
			s.NotJudged(gain, fmt.Sprintf("F' - F = %.3g nats is at most 1", Fp-F))
		}
		s.SetMetric(name+".mixture_minus_single", mixture-singleMean)
	}
	for _, x := range []struct {
		id string
		v  int
	}{{"fig4.14-mixtures-above-fprime", mixOK}, {"table4.3-t2-above-gaussian", t2OK}, {"table4.3-t2-mixture-above-mixture", t2mixOK}} {
		if notTable43 != "" {
			s.NotJudged(crit(x.id), notTable43)
		} else {
			s.Judge(crit(x.id), float64(x.v))
		}
	}
	s.Claims = []results.Claim{
		{Artifact: "Table 4.3", Figures: []string{"table4_3"}, Checks: []string{"table4.3-single-above-f", "table4.3-t2-above-gaussian", "table4.3-t2-mixture-above-mixture"},
			Statement: "Heavy-tailed (Student-t) rows in place of the Gaussian rows of q(Λ̃) mostly raise the importance-sampling estimate of ln p(y), and 2 degrees of freedom raise it further than 3, suggesting posterior mass outside q (§4.7.3, L3146)."},
		{Artifact: "Figure 4.14", Figures: []string{"fig4_14"}, Checks: []string{"fig4.14-mixtures-above-fprime", "fig4.14-mixture-gain", "table4.3-runs-reach-s"},
			Statement: "Every estimate lies above the best bound F′; the mixtures of the 10 VB posteriors raise the estimate by about F′ - F, since a single run may be a poor optimum while the mixture performs like its best member (L3146-L3149)."},
	}
	s.AddFindingsFromChecks(nil)
	s.Warnings = append(s.Warnings,
		"each VB run optimises its own Ψ, μ*, ν*: single samplers target ln p(y | Θ) of the chosen run, mixtures that of the best run (F')",
		"no ln S! aliasing correction is applied (targets §1.11, L3096)")
	return s
}

// samplersSetMetrics sets the metrics of one data set's optimisations:
// F of the chosen run and F' of the best, the runs more than a nat below
// F', the discarded runs and attempts, S, and every run's F.
func samplersSetMetrics(s *results.Summary, cell SamplersVBCell, name string, F, Fp float64) {
	s.SetMetric(name+".F", F)
	s.SetMetric(name+".F_prime", Fp)
	poor := 0
	var fs []float64
	for _, f := range cell.F {
		if float64(f) < Fp-1 {
			poor++
		}
		fs = append(fs, float64(f))
	}
	s.SetMetric(name+".poor_runs", float64(poor))
	s.SetMetric(name+".discarded_runs", float64(cell.Discarded))
	s.SetMetric(name+".attempts", float64(cell.Attempts))
	s.SetMetric(name+".S", float64(cell.S))
	s.Lists[name+".F_runs"] = fs
}

func init() {
	experiments.Add(ISSamplersID, "heavy-tailed and mixture importance samplers built from VBMFA posteriors on three 2-D data sets (Table 4.3, Figure 4.14)", DefaultISSamplers, RunISSamplers, PlotISSamplers)
}
