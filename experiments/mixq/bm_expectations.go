package mixq

// mixq/bm-expectations reproduces Lawrence's Fig. 4.2 (L1699-1713): 100
// fully connected ten-unit Boltzmann machines with their 55 weights and
// biases drawn from U(−1, 1), no unit observed, the joint approximated by
// mixtures of M = 1…10 mean-field distributions (eqs. 4.16-4.24) under an
// annealing schedule from T = 60 to T = 1 in 8 steps, and the pairwise
// expectations Σ_m Q(m)⟨s_i⟩_m⟨s_j⟩_m scored against the exact ⟨s_i s_j⟩ by
// enumeration of the 2¹⁰ states (eq. 4.26).

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/core/model/boltzmann"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// The machine is a target of samplers/mcmc by its method set.
var (
	_ mcmc.Tempered[[]float64] = boltzmann.Gibbs{}
	_ mcmc.Sweeper[[]float64]  = boltzmann.Gibbs{}
)

// BMExpectationsID is the experiment of Fig. 4.2.
const BMExpectationsID = "mixq/bm-expectations"

// BMExpectationsConfig is the config of mixq/bm-expectations.
type BMExpectationsConfig struct {
	experiments.Common
	// Machines is the number of random networks (100 in the text, L1701).
	Machines int `toml:"machines" range:"[1,100000] integer"`
	// Units is the number of units of each network (10, L1699).
	Units int `toml:"units" range:"[2,16] integer"`
	// Span: weights and biases are drawn from U(−span, span) (1, L1701).
	Span float64 `toml:"span" range:"(0,100]"`
	// Components lists the mixture sizes M (1…10, L1702).
	Components []int `toml:"components" range:"[1,64] integer len=1.. increasing"`
	// TStart and TSteps: the geometric schedule from t_start to 1 in
	// t_steps temperatures (60 and 8, L1703; the steps are ours).
	TStart float64 `toml:"t_start" range:"[1,1e6]"`
	TSteps int     `toml:"t_steps" range:"[1,1000] integer"`
	// StepIterations is the number of iteration passes at each temperature
	// above 1 (0: to convergence). The text gives none for Fig. 4.2; 1 is
	// its digits schedule (L1766).
	StepIterations int `toml:"step_iterations" range:"0|[1,100000] integer"`
	// InitScale: every component's means start from U(−init_scale,
	// init_scale) (not in the text).
	InitScale float64 `toml:"init_scale" range:"(0,1)"`
	// GibbsBurn is the fraction of the Gibbs sweeps dropped as burn-in. The
	// Gibbs chain of each machine gets the compute of the largest mixture:
	// its iterations (over all temperatures) × M² sweeps, as an iteration of
	// M components costs about M² times a sweep (ours; targets §7 P5).
	GibbsBurn float64 `toml:"gibbs_burn" range:"[0,0.9]"`
	// VB holds the stop rule at T = 1 (max_iterations, rel_tol, abs_tol)
	// and monotone_tol, the slack of the run-time check that no update lowers
	// the bound.
	VB config.FitSettings `toml:"vb"`
}

// DefaultBMExpectations returns the text's settings.
func DefaultBMExpectations() BMExpectationsConfig {
	return BMExpectationsConfig{Machines: 100, Units: 10, Span: 1, Components: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
		TStart: 60, TSteps: 8, StepIterations: 1, InitScale: 0.5, GibbsBurn: 0.1,
		VB: config.FitSettings{MaxIterations: 300, RelTol: 1e-8, MonotoneTol: 1e-9}}
}

// Validate checks the keys that relate.
func (c *BMExpectationsConfig) Validate() error { return c.VB.Validate("vb", nil) }

func (c *BMExpectationsConfig) settings() boltzmann.Settings {
	return boltzmann.Settings{MaxIterations: c.VB.MaxIterations, RelTol: c.VB.RelTol, AbsTol: c.VB.AbsTol,
		StepIterations: c.StepIterations, MonotoneTol: c.VB.MonotoneTol}
}

// Estimate counts, per machine, the enumeration of 2^units states and, per
// mixture size M, the iterations (each about 60·M²·units² operations).
func (c *BMExpectationsConfig) Estimate() experiments.Cost {
	machines := experiments.Key("machines", c.Machines)
	var m2 float64
	for _, m := range c.Components {
		m2 += float64(m * m)
	}
	comps := experiments.KeyN("components", c.Components, m2, "Σ M²")
	iters := experiments.Key("vb.max_iterations", c.VB.MaxIterations).Plus(float64(c.TSteps*max(c.StepIterations, 1)), "annealing passes")
	pairs := experiments.KeyN("units", c.Units, float64(c.Units*c.Units), "units²")
	return experiments.Cost{
		Cells:  []experiments.Factor{machines},
		Memory: []experiments.Part{experiments.Rows("differences", machines, experiments.KeyN("components", c.Components, float64(len(c.Components)), "mixture sizes"), pairs)},
		Work: []experiments.Part{
			experiments.Ops("enumeration", 4, machines, experiments.KeyN("units", c.Units, math.Ldexp(float64(c.Units*c.Units), c.Units), "2^units·units²")),
			experiments.Ops("mixture iterations", 60, machines, comps, iters, pairs),
			experiments.Ops("Gibbs sweeps at the largest mixture's compute", 4, machines, iters, pairs,
				experiments.KeyN("components", c.Components, float64(c.Components[len(c.Components)-1]*c.Components[len(c.Components)-1]), "largest M²")),
		},
	}
}

// Criteria states the criteria a run of the config judges.
func (c *BMExpectationsConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return bmCriteria, nil
}

var bmCriteria = results.Criteria{
	results.Criterion{ID: "fig4.2-error-falls", Text: "Spearman correlation of M with the mean (over machines) sum over pairs of squared errors of ⟨s_i s_j⟩ (eq. 4.26)", Target: results.AtMost(-0.9)}.
		AsClaim("\"a clear and systematic improvement in the accuracy with which the expectations are approximated as the number of components in the mixture is increased\"", "L1713"),
	results.Criterion{ID: "fig4.2-error-ratio", Text: "mean sum of squared errors at the largest M over that at the smallest", Target: results.Below(1)}.
		AsClaim("the error at M = 10 is below mean field's (Fig. 4.2's summary plot)", "L1705, L1713"),
	results.Criterion{ID: "fig4.2-gibbs-matched", Text: "mean sum of squared errors of Gibbs estimates of ⟨s_i s_j⟩ at the largest mixture's compute over the largest mixture's", Target: results.Below(1)}.AsExtension(),
	results.Criterion{ID: "fig4.2-bounds-below-logz", Text: "(machine, M) pairs whose mixture bound on ln Z exceeds the exact ln Z by more than 1e-9", Target: results.Equal(0)}.AsSanity(),
	results.Criterion{ID: "fig4.2-m1-is-mean-field", Text: "largest |bound of the one-component mixture − mean-field bound| from the same start (nats)", Target: results.AtMost(1e-8)}.AsSanity(),
}

// bmCell is one machine's results.
type bmCell struct {
	LogZ   float64
	MF     float64     // the mean-field bound, from the M = 1 start
	Bounds []float64   // the mixture bound per M
	SumSq  []float64   // Σ_{i<j} d_ij² per M
	Diffs  [][]float64 // d_ij = Σ_m Q(m)⟨s_i⟩_m⟨s_j⟩_m − ⟨s_i s_j⟩ per M, pairs i<j
	// GibbsSweeps and GibbsSumSq: the Gibbs chain at the largest
	// mixture's compute and its Σ_{i<j} d_ij².
	GibbsSweeps int
	GibbsSumSq  float64
}

func (c *BMExpectationsConfig) machine(i int) (bmCell, error) {
	n := c.Units
	m := boltzmann.NewRandom(n, c.Span, rng.New(c.Seed, "mixq", "bm", "machine", strconv.Itoa(i)))
	ex, err := m.Exact(nil)
	if err != nil {
		return bmCell{}, err
	}
	sched := boltzmann.GeometricSchedule(c.TStart, 1, c.TSteps)
	cell := bmCell{LogZ: ex.LogZ, MF: math.NaN()}
	for _, k := range c.Components {
		init := boltzmann.RandomMeans(k, n, c.InitScale, rng.New(c.Seed, "mixq", "bm", "init", strconv.Itoa(i), strconv.Itoa(k)))
		if k == 1 {
			mf, err := boltzmann.NewMeanField(m, nil, init[0])
			if err != nil {
				return bmCell{}, err
			}
			r, err := mf.Anneal(sched, c.settings())
			if err != nil {
				return bmCell{}, fmt.Errorf("machine %d, mean field: %w", i, err)
			}
			cell.MF = r.Bound
		}
		mix, err := boltzmann.NewMixture(m, nil, init)
		if err != nil {
			return bmCell{}, err
		}
		r, err := mix.Anneal(sched, c.settings())
		if err != nil {
			return bmCell{}, fmt.Errorf("machine %d, M = %d: %w", i, k, err)
		}
		mo := mix.Moments()
		var d []float64
		var ss float64
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				x := mo.Pair[a*n+b] - ex.Pair[a*n+b]
				d = append(d, x)
				ss += x * x
			}
		}
		if k == c.Components[len(c.Components)-1] {
			cell.GibbsSweeps = r.Iterations * k * k
			cell.GibbsSumSq = bmGibbsSumSq(m, ex, cell.GibbsSweeps, c.GibbsBurn, rng.New(c.Seed, "mixq", "bm", "gibbs", strconv.Itoa(i)))
		}
		cell.Bounds = append(cell.Bounds, r.Bound)
		cell.SumSq = append(cell.SumSq, ss)
		cell.Diffs = append(cell.Diffs, d)
	}
	return cell, nil
}

// bmGibbsSumSq runs a Gibbs chain (samplers/mcmc) of the given sweeps from
// a uniform random state and returns Σ_{i<j} of the squared errors of its
// averages of s_i s_j after the burn-in fraction.
func bmGibbsSumSq(m *boltzmann.Machine, ex boltzmann.Exact, sweeps int, burn float64, r *rand.Rand) float64 {
	n := m.N
	g := boltzmann.Gibbs{M: m}
	s := make([]float64, n)
	for i := range s {
		s[i] = float64(2*r.IntN(2) - 1)
	}
	k := mcmc.Gibbs[[]float64]{Target: g, Sweeper: g}
	p := mcmc.NewPoint[[]float64](g, s)
	drop := int(burn * float64(sweeps))
	sum := make([]float64, n*n)
	for t := 0; t < sweeps; t++ {
		k.Step(&p, 1, r)
		if t < drop {
			continue
		}
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				sum[a*n+b] += p.X[a] * p.X[b]
			}
		}
	}
	kept := float64(max(sweeps-drop, 1))
	var ss float64
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			d := sum[a*n+b]/kept - ex.Pair[a*n+b]
			ss += d * d
		}
	}
	return ss
}

// RunBMExpectations computes the machines as cells and judges Fig. 4.2.
func RunBMExpectations(env *experiments.Env, c *BMExpectationsConfig) error {
	names := make([]string, c.Machines)
	for i := range names {
		names[i] = fmt.Sprintf("machine-%04d", i)
	}
	cells, _, err := experiments.RunCells(env, names, c.machine)
	if err != nil {
		return err
	}
	s := &results.Summary{Criteria: bmCriteria}
	get := bmCriteria.Get
	nm := len(c.Components)
	mean := make([]float64, nm)
	above, m1gap, gibbs, sweeps := 0, 0.0, 0.0, 0.0
	diffs := results.Table{Header: []string{"machine", "components", "pair", "difference"}}
	machines := results.Table{Header: []string{"machine", "components", "log_z", "bound", "sum_sq"}}
	for i, cell := range cells {
		gibbs += cell.GibbsSumSq / float64(len(cells))
		sweeps += float64(cell.GibbsSweeps) / float64(len(cells))
		for k, m := range c.Components {
			mean[k] += cell.SumSq[k] / float64(len(cells))
			if cell.Bounds[k] > cell.LogZ+1e-9 {
				above++
			}
			if m == 1 {
				m1gap = math.Max(m1gap, math.Abs(cell.Bounds[k]-cell.MF))
			}
			machines.Rows = append(machines.Rows, []string{strconv.Itoa(i), strconv.Itoa(m), bmFmt(cell.LogZ), bmFmt(cell.Bounds[k]), bmFmt(cell.SumSq[k])})
			for p, d := range cell.Diffs[k] {
				diffs.Rows = append(diffs.Rows, []string{strconv.Itoa(i), strconv.Itoa(m), strconv.Itoa(p), bmFmt(d)})
			}
		}
	}
	summary := results.Table{Header: []string{"components", "mean_sum_sq"}}
	ms := make([]float64, nm)
	for k, m := range c.Components {
		ms[k] = float64(m)
		s.SetMetric(fmt.Sprintf("bm_err_M%d", m), mean[k])
		summary.Rows = append(summary.Rows, []string{strconv.Itoa(m), bmFmt(mean[k])})
	}
	if nm >= 3 {
		s.Judge(get("fig4.2-error-falls"), results.Spearman(ms, mean))
	} else {
		s.NotJudged(get("fig4.2-error-falls"), "fewer than three mixture sizes")
	}
	if nm >= 2 {
		s.Judge(get("fig4.2-error-ratio"), mean[nm-1]/mean[0])
	} else {
		s.NotJudged(get("fig4.2-error-ratio"), "one mixture size")
	}
	s.SetMetric("gibbs_err_bm", gibbs)
	s.SetMetric("gibbs_sweeps_bm", sweeps)
	s.Judge(get("fig4.2-gibbs-matched"), gibbs/mean[nm-1])
	s.Judge(get("fig4.2-bounds-below-logz"), float64(above))
	if c.Components[0] == 1 {
		s.Judge(get("fig4.2-m1-is-mean-field"), m1gap)
	} else {
		s.NotJudged(get("fig4.2-m1-is-mean-field"), "M = 1 is not among the components")
	}
	for _, t := range []struct {
		name string
		t    results.Table
	}{{"lawrence_fig4_2_differences.csv", diffs}, {"lawrence_fig4_2_machines.csv", machines}, {"lawrence_fig4_2_summary.csv", summary}} {
		if err := results.WriteCSV(filepath.Join(env.Dir, t.name), t.t); err != nil {
			return err
		}
	}
	s.Claims = []results.Claim{{Artifact: "Lawrence Figure 4.2", Figures: []string{"lawrence_fig4_2"},
		Checks:    []string{"fig4.2-error-falls", "fig4.2-error-ratio", "fig4.2-bounds-below-logz", "fig4.2-m1-is-mean-field", "fig4.2-gibbs-matched"},
		Statement: "The error of the mixture's pairwise expectations falls systematically as M grows (L1713)."}}
	return env.WriteSummary(s, fmt.Sprintf("%d random %d-unit machines, weights and biases U(−%g, %g); mixtures of M mean-field components annealed over the geometric schedule %s with %d pass(es) per temperature above 1, then to convergence at T = 1; errors against exact enumeration.",
		c.Machines, c.Units, c.Span, c.Span, bmSchedule(boltzmann.GeometricSchedule(c.TStart, 1, c.TSteps)), c.StepIterations))
}

func bmFmt(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func bmSchedule(t []float64) string {
	s := ""
	for i, v := range t {
		if i > 0 {
			s += ", "
		}
		s += strconv.FormatFloat(v, 'g', 3, 64)
	}
	return s
}

// PlotBMExpectations redraws Fig. 4.2: histograms of the differences per M
// and the mean sum of squares against M.
func PlotBMExpectations(dir string) error {
	d := results.ReadColumns(filepath.Join(dir, "lawrence_fig4_2_differences.csv"))
	comp, diff := d.Floats("components"), d.Floats("difference")
	sm := results.ReadColumns(filepath.Join(dir, "lawrence_fig4_2_summary.csv"))
	ms, mean := sm.Floats("components"), sm.Floats("mean_sum_sq")
	if err := d.Err(); err != nil {
		return err
	}
	if err := sm.Err(); err != nil {
		return err
	}
	const bins = 41
	lo, hi := -1.0, 1.0
	for _, x := range diff {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	w := (hi - lo) / bins
	var panels []*plot.Plot
	for _, m := range ms {
		x, y := make([]float64, bins), make([]float64, bins)
		for b := range x {
			x[b] = lo + (float64(b)+0.5)*w
		}
		for j, cm := range comp {
			if cm == m {
				b := min(int((diff[j]-lo)/w), bins-1)
				y[b]++
			}
		}
		p, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("M = %g", m), XLabel: "difference", YLabel: "count"}, plots.Series{X: x, Y: y})
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	p, _, err := plots.Lines(plots.Axes{Title: "mean sum of squares", XLabel: "M", YLabel: "Σ d²", IntegerX: true}, plots.Series{X: ms, Y: mean, Points: true})
	if err != nil {
		return err
	}
	panels = append(panels, p)
	cols := 4
	return experiments.SaveFigure(dir, "lawrence_fig4_2", plots.Figure{Rows: (len(panels) + cols - 1) / cols, Cols: cols, Panels: panels,
		Title: "Lawrence Fig. 4.2: Σ_m Q(m)⟨s_i⟩_m⟨s_j⟩_m − ⟨s_i s_j⟩ over 10-unit machines"})
}
