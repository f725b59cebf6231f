package mixq

// mixq/samplers sets Gibbs sampling and annealed importance sampling
// (samplers/mcmc, samplers/ais) beside the variational fits of Lawrence's
// chapters 2 and 4 at matched compute (targets §7 P5, "AIS and Gibbs
// estimates of ln p(V) / ⟨s_i s_j⟩ at matched compute on the same nets"):
// on the random 2-4-6 sigmoid belief nets of mixq/sbn-random, ln P(V) by
// AIS and the latent means by Gibbs, each given the operations of the
// mean-field fit and of the M-component mixture's fit of that net; on the
// random ten-unit Boltzmann machines of mixq/bm-expectations, ln Z by AIS
// given the sweeps of mean field's and of the largest mixture's annealed
// fit. Everything is scored against exact enumeration.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/core/model/boltzmann"
	"github.com/vbworkbench/vbw/core/model/sbn"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// The posterior of a net is a target of the samplers by its method set.
var (
	_ ais.Model[[]float64]    = sbn.Posterior{}
	_ mcmc.Sweeper[[]float64] = sbn.Posterior{}
	_ ais.Model[[]float64]    = boltzmann.Gibbs{}
)

// SamplersID is the experiment of the samplers at matched compute.
const SamplersID = "mixq/samplers"

func init() {
	experiments.Add(SamplersID, "Gibbs sampling and AIS at the compute of the variational fits: ln P(V) and latent means of random 2-4-6 sigmoid belief nets, ln Z of random Boltzmann machines, against exact enumeration",
		DefaultSamplers, RunSamplers, PlotSamplers)
	experiments.AddExtensions(experiments.Lawrence, experiments.Extension{
		Label:       "Gibbs sampling and annealed importance sampling at the compute of the mean-field and mixture fits, on the nets of Figs 2.4-2.5 and the machines of Fig. 4.2 (targets §7 P5)",
		Experiments: []string{SamplersID}})
}

// SamplersSBN are the nets: those of mixq/sbn-random with its seed.
type SamplersSBN struct {
	// NetsSeed is mixq/sbn-random's seed (24), whose streams draw the nets
	// and the fits' starts, so the nets and the variational fits are
	// sbn-random's (at span 1).
	NetsSeed uint64 `toml:"nets_seed" range:"[0,inf)"`
	// Nets is the number of nets (sbn-random's first nets).
	Nets int `toml:"nets" range:"[1,1e5] integer"`
	// Layers and Span: 2-4-6, U(−1, 1) (L1127).
	Layers []int   `toml:"layers" range:"[1,10] integer len=2..4"`
	Span   float64 `toml:"span" range:"(0,20]"`
	// Components is the M of the mixture whose compute is matched, beside
	// mean field's (5, the largest of Fig. 2.4).
	Components int                `toml:"components" range:"[1,20] integer"`
	VB         config.FitSettings `toml:"vb"`
}

// SamplersBM are the machines: those of mixq/bm-expectations.
type SamplersBM struct {
	// MachinesSeed is mixq/bm-expectations' seed (1): the machines and the
	// fits' starts are its.
	MachinesSeed uint64  `toml:"machines_seed" range:"[0,inf)"`
	Machines     int     `toml:"machines" range:"[1,100000] integer"`
	Units        int     `toml:"units" range:"[2,16] integer"`
	Span         float64 `toml:"span" range:"(0,100]"`
	// Components is the largest mixture's M (10, L1702).
	Components     int                `toml:"components" range:"[2,64] integer"`
	TStart         float64            `toml:"t_start" range:"[1,1e6]"`
	TSteps         int                `toml:"t_steps" range:"[1,1000] integer"`
	StepIterations int                `toml:"step_iterations" range:"0|[1,100000] integer"`
	InitScale      float64            `toml:"init_scale" range:"(0,1)"`
	VB             config.FitSettings `toml:"vb"`
}

// SamplersConfig is the config of mixq/samplers.
type SamplersConfig struct {
	experiments.Common
	SBN SamplersSBN `toml:"sbn"`
	BM  SamplersBM  `toml:"bm"`
	// GibbsBurn is the fraction of a Gibbs chain's steps dropped as burn-in.
	GibbsBurn float64 `toml:"gibbs_burn" range:"[0,0.9]"`
	// AISRuns is the number G of annealing runs a budget is split into
	// (each of K = budget/G steps, linear schedule); ours.
	AISRuns int `toml:"ais_runs" range:"[1,1000] integer"`
}

// DefaultSamplers returns the settings of the nets and machines of the
// text's figures, with our sampler settings.
func DefaultSamplers() SamplersConfig {
	return SamplersConfig{Common: experiments.Common{Seed: 28, Figures: []string{"lawrence_samplers"}},
		SBN: SamplersSBN{NetsSeed: 24, Nets: 1000, Layers: []int{2, 4, 6}, Span: 1, Components: 5,
			VB: config.FitSettings{MaxIterations: 500, RelTol: 1e-7, MonotoneTol: 1e-9}},
		BM: SamplersBM{MachinesSeed: 1, Machines: 100, Units: 10, Span: 1, Components: 10, TStart: 60, TSteps: 8, StepIterations: 1, InitScale: 0.5,
			VB: config.FitSettings{MaxIterations: 300, RelTol: 1e-8, MonotoneTol: 1e-9}},
		GibbsBurn: 0.1, AISRuns: 4}
}

// Validate checks what relates keys.
func (c *SamplersConfig) Validate() error {
	h := 0
	for _, k := range c.SBN.Layers[:len(c.SBN.Layers)-1] {
		h += k
	}
	if h > maxHidden {
		return config.FieldError("sbn.layers", c.SBN.Layers, fmt.Sprintf("has %d latent units; the exact ln P(V) enumerates at most %d", h, maxHidden))
	}
	if err := c.SBN.VB.Validate("sbn.vb", nil); err != nil {
		return err
	}
	return c.BM.VB.Validate("bm.vb", nil)
}

// Estimate counts per net the fits and the samplers at their compute (a
// sampler's work is the fit's), and per machine the annealed fits and AIS.
func (c *SamplersConfig) Estimate() experiments.Cost {
	units, pairs, hidden := 0, 0, 0
	for l, k := range c.SBN.Layers {
		units += k
		if l > 0 {
			pairs += k * c.SBN.Layers[l-1]
		}
		if l < len(c.SBN.Layers)-1 {
			hidden += k
		}
	}
	nets := experiments.Key("sbn.nets", c.SBN.Nets)
	machines := experiments.Key("bm.machines", c.BM.Machines)
	M := float64(c.SBN.Components + 1)
	bmIters := experiments.Key("bm.vb.max_iterations", c.BM.VB.MaxIterations).Plus(float64(c.BM.TSteps*max(c.BM.StepIterations, 1)), "annealing passes")
	bmM := experiments.KeyN("bm.components", c.BM.Components, float64(c.BM.Components*c.BM.Components+1), "M² + 1")
	bmPairs := experiments.KeyN("bm.units", c.BM.Units, float64(c.BM.Units*c.BM.Units), "units²")
	return experiments.Cost{
		Cells:  []experiments.Factor{nets.Plus(float64(c.BM.Machines), "machines")},
		Memory: []experiments.Part{experiments.Rows("rows", nets.Plus(float64(c.BM.Machines), "machines"), experiments.Fixed(12, "columns"))},
		Work: []experiments.Part{
			experiments.Ops("exact ln P(V)", 20, nets, experiments.KeyN("sbn.layers", c.SBN.Layers, math.Ldexp(float64(units+pairs), hidden), "latent states × weights")),
			experiments.Ops("fits and samplers at their compute", 2*componentIterOps, nets, experiments.Key("sbn.vb.max_iterations", c.SBN.VB.MaxIterations),
				experiments.KeyN("sbn.components", c.SBN.Components, M*M, "(M + 1)², the smoothing sums"), experiments.KeyN("sbn.layers", c.SBN.Layers, float64(max(pairs, 1)), "unit-parent pairs")),
			experiments.Ops("enumeration", 4, machines, experiments.KeyN("bm.units", c.BM.Units, math.Ldexp(float64(c.BM.Units*c.BM.Units), c.BM.Units), "2^units·units²")),
			experiments.Ops("annealed fits and AIS", 60+4, machines, bmIters, bmM, bmPairs),
		},
	}
}

var samplersCriteria = results.Criteria{
	results.Criterion{ID: "samplers-sbn-ais-vs-mf", Text: "mean |relative error| of the AIS ln P(V) at mean field's compute over mean field's mean relative error (L − 𝓛)/|L|", Target: results.Below(1)}.AsExtension(),
	results.Criterion{ID: "samplers-sbn-ais-vs-mixture", Text: "mean |relative error| of the AIS ln P(V) at the mixture's compute over the mixture's mean relative error", Target: results.Below(1)}.AsExtension(),
	results.Criterion{ID: "samplers-sbn-gibbs-vs-mixture", Text: "mean absolute error of the Gibbs latent means at the mixture's compute over the mixture's Σ_m Q(m)μ_m", Target: results.Below(1)}.AsExtension(),
	results.Criterion{ID: "samplers-bm-ais-vs-mixture", Text: "mean |relative error| of the AIS ln Z at the largest mixture's compute over that mixture's mean relative error (ln Z − bound)/|ln Z|", Target: results.Below(1)}.AsExtension(),
	results.Criterion{ID: "samplers-bounds-below-exact", Text: "variational bounds (nets and machines) above the exact value by more than 1e-9, plus fits that failed", Target: results.Equal(0)}.AsSanity(),
}

// Criteria states the criteria a run of the config judges.
func (c *SamplersConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return samplersCriteria, nil
}

// samplersCell is one net or one machine. For a net, the fits are mean
// field and the M-component mixture; for a machine, mean field and the
// largest mixture.
type samplersCell struct {
	Kind   string  `json:"kind"` // "sbn" or "bm"
	Index  int     `json:"index"`
	Exact  float64 `json:"exact"` // ln P(V) or ln Z
	Failed int     `json:"failed"`
	// per fit (mean field, mixture): the bound, its compute (operations
	// for a net, sweeps for a machine), the AIS estimate at that compute
	// and its steps, and (nets) the errors of the latent means of the fit
	// and of Gibbs at that compute.
	Bound     [2]float64 `json:"bound"`
	Compute   [2]float64 `json:"compute"`
	AIS       [2]float64 `json:"ais"`
	AISSteps  [2]int     `json:"ais_steps"`
	VarMeans  [2]float64 `json:"var_means"`
	GibbsErr  [2]float64 `json:"gibbs_err"`
	GibbsStep [2]int     `json:"gibbs_steps"`
}

// sbnSamplers fits net i as sbn-random does and runs the samplers at each
// fit's operations.
func (c *SamplersConfig) sbnSamplers(i int, stop func() error) (samplersCell, error) {
	name := fmt.Sprintf("w%g-n%05d", c.SBN.Span, i) // sbn-random's stream names
	net, err := sbn.Random(c.SBN.Layers, c.SBN.Span, rng.New(c.SBN.NetsSeed, SBNRandomID, "net", name))
	if err != nil {
		return samplersCell{}, err
	}
	v := make([]float64, net.Visible())
	means, L, err := net.ExactMeans(v)
	if err != nil {
		return samplersCell{}, err
	}
	post, err := sbn.NewPosterior(net, v)
	if err != nil {
		return samplersCell{}, err
	}
	cell := samplersCell{Kind: "sbn", Index: i, Exact: L}
	for f, m := range []int{0, c.SBN.Components} {
		q, fit, err := sbn.FitQ(net, v, sbn.Settings{Components: m, VB: c.SBN.VB.Settings(stop, nil)}, rng.New(c.SBN.NetsSeed, SBNRandomID, "start", name))
		if err != nil {
			if stop != nil && stop() != nil {
				return samplersCell{}, err
			}
			cell.Failed++
			cell.Bound[f] = math.NaN()
			continue
		}
		cell.Bound[f] = fit.Bound
		cell.VarMeans[f] = meanAbsDiff(q.Means(), means)
		ops := fit.Iterations * net.IterationOps(m)
		cell.Compute[f] = float64(ops)
		steps := max(1, ops/net.StepOps())
		tag := strconv.Itoa(f)
		cell.GibbsStep[f] = steps
		cell.GibbsErr[f] = meanAbsDiff(gibbsMeans(post, net.Hidden(), steps, c.GibbsBurn, rng.New(c.Seed, SamplersID, "gibbs", name, tag)), means)
		cell.AIS[f], cell.AISSteps[f] = aisLogZ[[]float64](post, func() mcmc.Kernel[[]float64] { return &mcmc.Gibbs[[]float64]{Target: post, Sweeper: post} },
			steps, c.AISRuns, c.Seed, name, tag)
	}
	return cell, nil
}

// gibbsMeans runs an mcmc.Gibbs chain of steps sweeps from a prior draw and
// returns the averages of the h latent units after the burn-in.
func gibbsMeans(post sbn.Posterior, h, steps int, burn float64, r *rand.Rand) []float64 {
	k := mcmc.Gibbs[[]float64]{Target: post, Sweeper: post}
	p := mcmc.NewPoint[[]float64](post, post.SamplePrior(nil, r))
	drop := int(burn * float64(steps))
	sum := make([]float64, h)
	for t := range steps {
		k.Step(&p, 1, r)
		if t < drop {
			continue
		}
		for j := range h {
			sum[j] += p.X[j]
		}
	}
	for j := range sum {
		sum[j] /= float64(max(steps-drop, 1))
	}
	return sum
}

// aisLogZ splits a budget of steps kernel steps into G = min(runs, steps)
// runs of K = steps/G steps on the linear schedule and returns the pooled
// ln Ẑ (eq. 6.61 of Beal 2003) and K.
func aisLogZ[S any](model ais.Model[S], kernel func() mcmc.Kernel[S], steps, runs int, seed uint64, name, tag string) (float64, int) {
	g := min(runs, steps)
	k := steps / g
	sm := ais.Sampler[S]{Model: model, NewKernel: kernel, Tau: ais.Linear(k)}
	rnds := make([]*rand.Rand, g)
	for i := range rnds {
		rnds[i] = rng.New(seed, SamplersID, "ais", name, tag, strconv.Itoa(i))
	}
	logw := make([]float64, g)
	for i, r := range sm.Runs(rnds, 1) {
		logw[i] = r.LogW
	}
	lz, _ := ais.Pool(logw)
	return lz, k
}

func meanAbsDiff(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += math.Abs(a[i] - b[i])
	}
	return s / float64(len(a))
}

// bmSamplers fits machine i as bm-expectations does (mean field and the
// largest mixture, annealed) and runs AIS at each fit's sweeps (its
// iterations × M², bm-expectations' measure of a mixture's compute).
func (c *SamplersConfig) bmSamplers(i int) (samplersCell, error) {
	b := c.BM
	is := strconv.Itoa(i)
	m := boltzmann.NewRandom(b.Units, b.Span, rng.New(b.MachinesSeed, "mixq", "bm", "machine", is))
	ex, err := m.Exact(nil)
	if err != nil {
		return samplersCell{}, err
	}
	bc := BMExpectationsConfig{StepIterations: b.StepIterations, VB: b.VB}
	sched := boltzmann.GeometricSchedule(b.TStart, 1, b.TSteps)
	cell := samplersCell{Kind: "bm", Index: i, Exact: ex.LogZ}
	model := boltzmann.Gibbs{M: m} // AIS from the uniform on {±1}^N: ln w estimates ln(Z/2^N)
	for f, k := range []int{1, b.Components} {
		init := boltzmann.RandomMeans(k, b.Units, b.InitScale, rng.New(b.MachinesSeed, "mixq", "bm", "init", is, strconv.Itoa(k)))
		var r boltzmann.Result
		if k == 1 {
			mf, err := boltzmann.NewMeanField(m, nil, init[0])
			if err != nil {
				return samplersCell{}, err
			}
			r, err = mf.Anneal(sched, bc.settings())
			if err != nil {
				return samplersCell{}, fmt.Errorf("machine %d, mean field: %w", i, err)
			}
		} else {
			mix, err := boltzmann.NewMixture(m, nil, init)
			if err != nil {
				return samplersCell{}, err
			}
			r, err = mix.Anneal(sched, bc.settings())
			if err != nil {
				return samplersCell{}, fmt.Errorf("machine %d, M = %d: %w", i, k, err)
			}
		}
		sweeps := r.Iterations * k * k
		cell.Bound[f], cell.Compute[f] = r.Bound, float64(sweeps)
		lz, steps := aisLogZ[[]float64](model, func() mcmc.Kernel[[]float64] { return &mcmc.Gibbs[[]float64]{Target: model, Sweeper: model} },
			max(sweeps, 1), c.AISRuns, c.Seed, "machine-"+is, strconv.Itoa(f))
		cell.AIS[f], cell.AISSteps[f] = lz+float64(b.Units)*math.Ln2, steps
	}
	return cell, nil
}

// RunSamplers computes the nets and machines as cells and judges.
func RunSamplers(env *experiments.Env, c *SamplersConfig) error {
	var names []string
	for i := range c.SBN.Nets {
		names = append(names, fmt.Sprintf("sbn-%05d", i))
	}
	for i := range c.BM.Machines {
		names = append(names, fmt.Sprintf("bm-%04d", i))
	}
	cells, complete, err := experiments.RunAllCells(env, names, nil, func(k int) (samplersCell, error) {
		if k < c.SBN.Nets {
			return c.sbnSamplers(k, env.Stop)
		}
		return c.bmSamplers(k - c.SBN.Nets)
	})
	if err != nil || !complete {
		return err
	}
	s := &results.Summary{Criteria: samplersCriteria}
	get := samplersCriteria.Get
	rows := results.NewTable("kind", "index", "fit", "exact", "bound", "compute", "ais", "ais_steps", "var_means_err", "gibbs_means_err", "gibbs_steps")
	type acc struct{ varErr, aisErr, aisBias, varMeans, gibbs, compute, aisSteps, gibbsSteps []float64 }
	sums := map[string]*[2]acc{"sbn": {}, "bm": {}}
	bad := 0
	for _, cell := range cells {
		bad += cell.Failed
		a := sums[cell.Kind]
		for f := range 2 {
			if math.IsNaN(cell.Bound[f]) {
				continue
			}
			if cell.Bound[f] > cell.Exact+boundTol {
				bad++
			}
			fit := "MF"
			if f == 1 {
				fit = "mixture"
			}
			rows.AddRow(cell.Kind, cell.Index, fit, cell.Exact, cell.Bound[f], cell.Compute[f], cell.AIS[f], cell.AISSteps[f], cell.VarMeans[f], cell.GibbsErr[f], cell.GibbsStep[f])
			x := &a[f]
			x.varErr = append(x.varErr, relErr(cell.Exact, cell.Bound[f]))
			x.aisErr = append(x.aisErr, math.Abs(cell.AIS[f]-cell.Exact)/math.Abs(cell.Exact))
			x.aisBias = append(x.aisBias, (cell.Exact-cell.AIS[f])/math.Abs(cell.Exact))
			x.compute = append(x.compute, cell.Compute[f])
			x.aisSteps = append(x.aisSteps, float64(cell.AISSteps[f]))
			if cell.Kind == "sbn" {
				x.varMeans = append(x.varMeans, cell.VarMeans[f])
				x.gibbs = append(x.gibbs, cell.GibbsErr[f])
				x.gibbsSteps = append(x.gibbsSteps, float64(cell.GibbsStep[f]))
			}
		}
	}
	if err := results.WriteCSV(env.Path("samplers_cells.csv"), *rows); err != nil {
		return err
	}
	table := results.NewTable("model", "fit", "mean_compute", "var_rel_err", "ais_rel_err", "ais_steps", "var_means_err", "gibbs_means_err", "gibbs_steps")
	mean := func(xs []float64) float64 {
		if len(xs) == 0 {
			return math.NaN()
		}
		return results.Mean(xs)
	}
	fitNames := map[string][2]string{"sbn": {"MF", fmt.Sprintf("M%d", c.SBN.Components)}, "bm": {"MF", fmt.Sprintf("M%d", c.BM.Components)}}
	for _, kind := range []string{"sbn", "bm"} {
		for f := range 2 {
			x := sums[kind][f]
			fn := fitNames[kind][f]
			s.SetMetric(fmt.Sprintf("var_err_%s_%s", kind, fn), mean(x.varErr))
			s.SetMetric(fmt.Sprintf("ais_err_%s_%s", kind, fn), mean(x.aisErr))
			s.SetMetric(fmt.Sprintf("ais_bias_%s_%s", kind, fn), mean(x.aisBias))
			s.SetMetric(fmt.Sprintf("compute_%s_%s", kind, fn), mean(x.compute))
			if kind == "sbn" {
				s.SetMetric(fmt.Sprintf("var_means_err_sbn_%s", fn), mean(x.varMeans))
				s.SetMetric(fmt.Sprintf("gibbs_err_sbn_%s", fn), mean(x.gibbs))
			}
			table.AddRow(kind, fn, mean(x.compute), mean(x.varErr), mean(x.aisErr), mean(x.aisSteps), mean(x.varMeans), mean(x.gibbs), mean(x.gibbsSteps))
		}
	}
	if err := results.WriteCSV(env.Path("samplers_table.csv"), *table); err != nil {
		return err
	}
	sb, bm := sums["sbn"], sums["bm"]
	s.Judge(get("samplers-sbn-ais-vs-mf"), mean(sb[0].aisErr)/mean(sb[0].varErr))
	s.Judge(get("samplers-sbn-ais-vs-mixture"), mean(sb[1].aisErr)/mean(sb[1].varErr))
	s.Judge(get("samplers-sbn-gibbs-vs-mixture"), mean(sb[1].gibbs)/mean(sb[1].varMeans))
	s.Judge(get("samplers-bm-ais-vs-mixture"), mean(bm[1].aisErr)/mean(bm[1].varErr))
	s.Judge(get("samplers-bounds-below-exact"), float64(bad))
	s.AddFindingsFromChecks(nil)
	return env.WriteSummary(s, fmt.Sprintf("Samplers at the compute of the fits. Nets: mixq/sbn-random's first %d (seed %d), visible units at 0; compute in edge terms (sbn.Net.IterationOps, a lower count of the fit; a Gibbs step is sbn.Net.StepOps). Machines: mixq/bm-expectations' first %d (seed %d); compute in sweeps (iterations × M²). AIS: %d runs of a linear schedule, Gibbs sweeps as the kernel; Gibbs: one chain from a prior draw, %g burn-in.",
		c.SBN.Nets, c.SBN.NetsSeed, c.BM.Machines, c.BM.MachinesSeed, c.AISRuns, c.GibbsBurn))
}

// PlotSamplers draws lawrence_samplers from samplers_table.csv: for the
// nets and for the machines, the mean relative error of the bound and of
// AIS at the same compute against that compute, and for the nets the
// mean error of the latent means of the fits and of Gibbs.
func PlotSamplers(dir string) error {
	t := results.ReadColumns(filepath.Join(dir, "samplers_table.csv"))
	model, comp, vr, ar, vm, gm := t.Strings("model"), t.Floats("mean_compute"), t.Floats("var_rel_err"), t.Floats("ais_rel_err"), t.Floats("var_means_err"), t.Floats("gibbs_means_err")
	if err := t.Err(); err != nil {
		return err
	}
	pick := func(kind string, ys []float64) (x, y []float64) {
		for i := range model {
			if model[i] == kind && !math.IsNaN(ys[i]) && ys[i] > 0 {
				x, y = append(x, comp[i]), append(y, ys[i])
			}
		}
		return
	}
	var panels []*plot.Plot
	for _, p := range []struct {
		kind, title, xl, yl string
		a, b                []float64
		an, bn              string
	}{
		{"sbn", "2-4-6 nets: ln P(V)", "edge terms (mean field, mixture)", "mean relative error", vr, ar, "bound (MF, mixture)", "AIS at the same compute"},
		{"sbn", "2-4-6 nets: latent means", "edge terms (mean field, mixture)", "mean |error| of ⟨h_k⟩", vm, gm, "q (MF, mixture)", "Gibbs at the same compute"},
		{"bm", "ten-unit machines: ln Z", "sweeps (mean field, largest mixture)", "mean relative error", vr, ar, "bound (MF, mixture)", "AIS at the same compute"},
	} {
		ax, ay := pick(p.kind, p.a)
		bx, by := pick(p.kind, p.b)
		pl, _, err := plots.Lines(plots.Axes{Title: p.title, XLabel: p.xl, YLabel: p.yl, LogX: true, LogY: true},
			plots.Series{Name: p.an, X: ax, Y: ay, Points: true}, plots.Series{Name: p.bn, X: bx, Y: by, Points: true})
		if err != nil {
			return err
		}
		panels = append(panels, pl)
	}
	return experiments.SaveFigure(dir, "lawrence_samplers", plots.Figure{Rows: 1, Cols: 3, Panels: panels,
		Title: "Variational fits against Gibbs and AIS at the fits' compute (Lawrence Figs 2.4-2.5, 4.2)"})
}
