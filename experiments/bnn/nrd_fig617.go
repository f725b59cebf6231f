package bnn

// Node relevance determination on the toy of Lawrence's section 6.5.10
// (L2658-2680, Fig. 6.17; targets §3): N points of 0.4 sin 2πx, x uniform
// on (0, 1), noise of variance 0.0025; a 1-5-1 network with the NRD prior
// (eq. 6.32) and the diagonal-Gaussian q(w) with gamma q's of every node's
// precision and of β (eqs. 6.41-6.49); ten cycles of a quasi-Newton fit of
// q(w), the updates of q(α), q(β), and an attempt to remove the hidden node
// of least effective number of parameters, kept when the bound rises (EM
// over structure, L2658-2665); N in {5, 10, 25, 50, 100, 200}, ten data
// sets each. Fig. 6.17 plots the mean number of hidden nodes kept (± sd)
// against N.

import (
	"fmt"
	"math"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/bnn"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// NRDID is the registry key of Fig. 6.17.
const NRDID = "bnn/nrd"

// NRDPrior is the [prior] table: the gamma hyperpriors of every node
// precision and of β (L2181, Table 5.1's, which chapter 6 reuses).
type NRDPrior struct {
	AAlpha float64 `toml:"a_alpha" range:"[1e-12,1e6]"`
	BAlpha float64 `toml:"b_alpha" range:"[1e-12,1e6]"`
	ABeta  float64 `toml:"a_beta" range:"[1e-12,1e6]"`
	BBeta  float64 `toml:"b_beta" range:"[1e-12,1e6]"`
}

// NRDFit is the [fit] table: the start and the schedule of every network.
type NRDFit struct {
	// InitAlpha and InitBeta start the MAP fit that starts q(w) and the
	// means of q(α), q(β) (L2181: 0.3 and 200; under NRD every node's
	// precision starts at √0.3, so a weight's starts at 0.3).
	InitAlpha float64 `toml:"init_alpha" range:"[1e-8,1e8]"`
	InitBeta  float64 `toml:"init_beta" range:"[1e-8,1e8]"`
	// Cycles is the text's ten cycles (L2671), each a vb round and one
	// attempt at removing a hidden node.
	Cycles int `toml:"cycles" range:"[1,1000]"`
	// WeightIterations caps the quasi-Newton iterations on q(w) per
	// cycle (ours: chapter 5's 200, L2195; chapter 6 gives none).
	WeightIterations int `toml:"weight_iterations" range:"[1,1e5]"`
	// StartIterations caps the MAP fit that starts q(w).
	StartIterations int     `toml:"start_iterations" range:"[1,1e5]"`
	InitVariance    float64 `toml:"init_variance" range:"[1e-12,1e2]"`
}

// NRDConfig is the config of bnn/nrd.
type NRDConfig struct {
	experiments.Common
	// Sizes are the N of Fig. 6.17; Nets the data sets (networks) per N.
	Sizes   []int    `toml:"sizes" range:"[2,1e5] len=2.. increasing"`
	Nets    int      `toml:"nets" range:"[1,1e4]"`
	Hidden  int      `toml:"hidden" range:"[2,100]"`
	NoiseSD float64  `toml:"noise_sd" range:"[0,1e3]"`
	Prior   NRDPrior `toml:"prior"`
	Fit     NRDFit   `toml:"fit"`
}

// DefaultNRD returns the text's settings (L2658-2680).
func DefaultNRD() NRDConfig {
	h := bnn.DefaultHyper()
	return NRDConfig{
		Common: experiments.Common{Experiment: NRDID, Figures: []string{"lawrence_fig6_17"}, Seed: 617},
		Sizes:  []int{5, 10, 25, 50, 100, 200}, Nets: 10, Hidden: 5, NoiseSD: 0.05,
		Prior: NRDPrior{AAlpha: h.AAlpha, BAlpha: h.BAlpha, ABeta: h.ABeta, BBeta: h.BBeta},
		Fit:   NRDFit{InitAlpha: 0.3, InitBeta: 200, Cycles: 10, WeightIterations: 200, StartIterations: 500, InitVariance: 1e-6},
	}
}

// Validate checks what relates keys (nothing beyond the ranges).
func (c *NRDConfig) Validate() error { return nil }

// Estimate counts every network's cycles over its points.
func (c *NRDConfig) Estimate() experiments.Cost {
	var total float64
	for _, n := range c.Sizes {
		total += float64(n)
	}
	sizes := experiments.KeyN("sizes", c.Sizes, total, "points summed over the sizes")
	nets := experiments.Key("nets", c.Nets)
	cells := experiments.KeyN("sizes", c.Sizes, float64(len(c.Sizes)), "sizes")
	h := experiments.Key("hidden", c.Hidden)
	return experiments.Cost{
		Cells:      []experiments.Factor{cells, nets},
		Memory:     []experiments.Part{experiments.Rows("nrd_nets.csv rows", cells, nets)},
		CellMemory: []experiments.Part{experiments.Words("data", sizes)},
		Work: []experiments.Part{
			experiments.Ops("VB cycles", toyNetOps, nets, sizes, h, experiments.Key("fit.cycles", c.Fit.Cycles),
				experiments.Key("fit.weight_iterations", c.Fit.WeightIterations), experiments.Fixed(4, "evaluations and a removal")),
			experiments.Ops("MAP starts", 60, nets, sizes, h, experiments.Key("fit.start_iterations", c.Fit.StartIterations), experiments.Fixed(3, "evaluations")),
		},
	}
}

// nrdCriteria are the criteria of bnn/nrd.
var nrdCriteria = results.Criteria{
	results.Criterion{ID: "nrd-bounds-finite", Text: "networks whose final bound is not finite", Target: results.Equal(0)}.AsSanity(),
	results.Criterion{ID: "fig6.17-fewer-at-small-n", Text: "mean hidden nodes kept at the largest N minus at the smallest N", Target: results.Above(0)}.
		AsClaim("Fig. 6.17: the average number of determined hidden nodes falls as the number of data falls", "L2680"),
	results.Criterion{ID: "fig6.17-monotone", Text: "pairs of adjacent sizes whose mean hidden nodes kept falls from the smaller N to the larger by more than two standard errors of the difference", Target: results.Equal(0)}.
		AsClaim("Fig. 6.17: hidden nodes kept plotted against N, rising with N", "L2680"),
	results.Criterion{ID: "fig6.17-prunes-small-n", Text: "mean hidden nodes kept at the smallest N, of the network's hidden units", Target: results.Below(5)}.AsExtension(),
}

// Criteria states the criteria a run of the config judges.
func (c *NRDConfig) Criteria(*experiments.Env) (results.Criteria, error) { return nrdCriteria, nil }

// NRDCell is one network: its size, seed and result.
type NRDCell struct {
	N      int       `json:"n"`
	Net    int       `json:"net"`
	Kept   int       `json:"kept"`
	F      float64   `json:"f"`
	Beta   float64   `json:"beta"`
	Gamma  []float64 `json:"gamma"`
	Finite bool      `json:"finite"`
}

// runNRDCell fits one network to its own data set.
func (c *NRDConfig) runNRDCell(n, net int) (NRDCell, error) {
	r := rng.New(c.Seed, NRDID, "data", strconv.Itoa(n), strconv.Itoa(net))
	x := make([][]float64, n)
	t := make([]float64, n)
	for i := range x {
		xi := r.Float64()
		x[i] = []float64{xi}
		t[i] = 0.4*math.Sin(2*math.Pi*xi) + c.NoiseSD*r.NormFloat64()
	}
	p, err := bnn.NewProblem(bnn.Arch{In: 1, Hidden: c.Hidden}, x, t)
	if err != nil {
		return NRDCell{}, err
	}
	f := c.Fit
	s := bnn.VBSettings{Hyper: bnn.Hyper{AAlpha: c.Prior.AAlpha, BAlpha: c.Prior.BAlpha, ABeta: c.Prior.ABeta, BBeta: c.Prior.BBeta},
		InitAlpha: []float64{f.InitAlpha}, InitBeta: f.InitBeta, InitVariance: f.InitVariance, StartIterations: f.StartIterations,
		Rounds: f.Cycles, WeightIterations: f.WeightIterations, Prune: true}
	v, err := bnn.FitVB(p, bnn.NRD, s, rng.New(c.Seed, NRDID, "start", strconv.Itoa(n), strconv.Itoa(net)))
	if err != nil {
		return NRDCell{}, err
	}
	b := v.Bound().F
	return NRDCell{N: n, Net: net, Kept: v.Arch().Hidden, F: b, Beta: v.Beta(), Gamma: v.EffectiveParameters(),
		Finite: !math.IsNaN(b) && !math.IsInf(b, 0)}, nil
}

// RunNRD fits every network as a cell and judges Fig. 6.17.
func RunNRD(env *experiments.Env, c *NRDConfig) error {
	type job struct{ n, net int }
	var jobs []job
	var names []string
	var cost []float64
	for _, n := range c.Sizes {
		for k := range c.Nets {
			jobs = append(jobs, job{n, k})
			names = append(names, fmt.Sprintf("n%04d-net%03d", n, k))
			cost = append(cost, float64(n))
		}
	}
	cells, complete, err := experiments.RunAllCells(env, names, cost, func(i int) (NRDCell, error) { return c.runNRDCell(jobs[i].n, jobs[i].net) })
	if err != nil || !complete {
		return err
	}
	nets := results.NewTable("n", "net", "hidden_kept", "f", "beta")
	fig := results.NewTable("n", "mean_kept", "sd_kept", "nets")
	s := &results.Summary{Criteria: nrdCriteria}
	bad := 0
	kept := map[int][]float64{}
	for i, cell := range cells {
		nets.AddRow(cell.N, cell.Net, cell.Kept, cell.F, cell.Beta)
		kept[cell.N] = append(kept[cell.N], float64(cell.Kept))
		if !cell.Finite {
			bad++
		}
		env.AddRun(results.RunRecord{Name: names[i], Status: "done"})
	}
	var ns, means, ses []float64
	for _, n := range c.Sizes {
		k := kept[n]
		m, sd := numeric.MeanSD(k) // the document's _sd (tables.go): divisor n
		fig.AddRow(n, m, sd, len(k))
		s.SetMetric(fmt.Sprintf("nrd_hidden_kept_N%d", n), m)
		s.SetMetric(fmt.Sprintf("nrd_hidden_kept_N%d_sd", n), sd)
		ns, means = append(ns, float64(n)), append(means, m)
		ses = append(ses, sd/math.Sqrt(float64(len(k))))
	}
	for _, out := range []struct {
		name string
		t    *results.Table
	}{{"nrd_nets.csv", nets}, {"lawrence_fig6_17.csv", fig}} {
		if err := results.WriteCSV(env.Path(out.name), *out.t); err != nil {
			return err
		}
	}
	get := nrdCriteria.Get
	s.Judge(get("nrd-bounds-finite"), float64(bad))
	s.Judge(get("fig6.17-fewer-at-small-n"), means[len(means)-1]-means[0])
	falls := 0
	for i := 1; i < len(means); i++ {
		if means[i-1]-means[i] > 2*math.Hypot(ses[i-1], ses[i]) {
			falls++
		}
	}
	s.Judge(get("fig6.17-monotone"), float64(falls))
	s.SetMetric("nrd_spearman_kept_n", results.Spearman(ns, means))
	s.Judge(get("fig6.17-prunes-small-n"), means[0])
	s.Claims = []results.Claim{{Artifact: "Figure 6.17", Figures: []string{"lawrence_fig6_17"},
		Checks:    []string{"fig6.17-fewer-at-small-n", "fig6.17-monotone", "nrd-bounds-finite"},
		Statement: "With the node relevance determination prior and node removal by the bound, the number of hidden nodes kept falls as the number of data falls (L2671)."}}
	s.AddFindingsFromChecks(nil)
	s.Findings = append(s.Findings, "Eq. 6.53's effective number of parameters is read as MacKay's γ_h = Σ_k (1 − ⟨α_k⟩ Var w_k) (core/model/bnn/nrd.go, EffectiveParameters): as printed it ranks a pruned node first; it only orders the candidates, and a removal is kept only when the bound rises.")
	return env.WriteSummary(s, "Checks of Lawrence (2000) Fig. 6.17 (L2658-2680; targets other-seeds.md §3).")
}

func init() {
	experiments.Add(NRDID, "node relevance determination: hidden nodes kept against N on 0.4 sin 2πx (Lawrence Fig 6.17)",
		DefaultNRD, RunNRD, PlotNRD)
}
