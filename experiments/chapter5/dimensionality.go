package chapter5

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/lds"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// DimensionalityID is the registry key of Figures 5.4 and 5.5.
const DimensionalityID = "chapter5/dimensionality"

// DimModel are the [model] keys of chapter5/dimensionality: k (default 10,
// line 4076), cross_init and compare_cross_init.
type DimModel struct {
	LDSModel
	// CompareCrossInit also runs the longest sequence with the other
	// cross_init, to report diagonal dominance under both (targets §3.1
	// criterion 4). Default true.
	CompareCrossInit bool `toml:"compare_cross_init"`
}

// DimensionalityConfig is the config of chapter5/dimensionality.
type DimensionalityConfig struct {
	experiments.Common
	// Seeds is the number of data seeds (one sequence each). Default 5.
	Seeds int `toml:"seeds" range:"[1,1e6]"`
	// TGrid are the prefix lengths T (targets §4 #11), increasing, each
	// from 2 to data.t_max. Default [10, 20, 30, 50, 100, 150, 200, 250,
	// 300].
	TGrid []int      `toml:"t_grid" range:"[2,1e7] len=1.. increasing"`
	Data  NoInputLDS `toml:"data"`
	ARDSettings[DimModel]
	// Extended continues the run on the longest prefix.
	Extended Extension `toml:"extended"`
}

// DefaultDimensionality returns the thesis's settings (section 5.4.1;
// targets §3.1-§3.2): 500 iterations of VBEM with the staged schedule;
// the run on the longest sequence continued to 10000 iterations without
// a relative stop (not in the thesis), and no comparison run.
func DefaultDimensionality() DimensionalityConfig {
	c := DimensionalityConfig{Common: experiments.Common{Experiment: DimensionalityID, Figures: []string{"fig5.4", "fig5.5"}, Seed: 5401},
		ARDSettings: defaultARD(DimModel{LDSModel: LDSModel{K: 10, CrossInit: CrossIdentity}, CompareCrossInit: true}, 500, false)}
	c.Seeds = 5
	c.TGrid = []int{10, 20, 30, 50, 100, 150, 200, 250, 300}
	c.Data = DefaultNoInputLDS()
	c.Extended = Extension{MaxTotalIterations: 10000}
	return c
}

// Validate checks the keys that relate to others.
func (c *DimensionalityConfig) Validate() error {
	if T := c.TGrid[len(c.TGrid)-1]; T > c.Data.TMax {
		return config.FieldError("t_grid", c.TGrid, fmt.Sprintf("must not exceed data.t_max = %d", c.Data.TMax))
	}
	return config.FirstError(
		c.Model.validate(),
		c.VB.Validate("vb", lds.HyperGroupsOf(lds.Variational, false)),
		c.Extended.CompareHyper.Validate("extended.compare_hyper", lds.HyperGroupsOf(lds.Variational, false)),
		c.Thresholds.validate())
}

// validate checks that the [thresholds] are ordered.
func (th Thresholds) validate() error {
	if th.Extinct > th.Alive {
		return config.FieldError("thresholds.extinct_threshold", th.Extinct, "must not exceed alive_threshold")
	}
	return nil
}

// DimRun is one (seed, T, cross_init) cell, or the comparison run of a
// seed (Compare). Its F holds the bound after every E step, the
// continuation included.
type DimRun struct {
	Seed, T int
	Cross   string
	// Compare marks the run with [extended.compare_hyper] in place of
	// [vb.hyper] (longest prefix, main cross_init).
	Compare bool `json:",omitempty"`
	FitOutcome
	Iterations int // of the [vb] phase
	// InvAlpha, InvGamma (k) are 1/α, 1/γ, and A (k×k), C (p×k) the
	// posterior means ⟨A⟩, ⟨C⟩, at the end of the [vb] phase.
	InvAlpha, InvGamma []float64
	A, C               []float64
	// Trajectory holds 1/α, 1/γ at every E step, the continuation
	// included (longest prefix, main cross_init only, not the comparison
	// run; Figure 5.5).
	Trajectory *HyperTrace `json:",omitempty"`
	// Ext is the end of the continuation (longest prefix, main
	// cross_init only: the continued run and the comparison run).
	Ext *DimExtended `json:",omitempty"`
	// TrueA (k_true×k_true) and TrueC (p×k_true): the generator's (longest
	// prefix only).
	TrueA, TrueC []float64 `json:",omitempty"`
}

// DimExtended is the end of the continued run.
type DimExtended struct {
	Iterations         int // in all
	Status             string
	InvAlpha, InvGamma []float64
	// CrossAlpha, CrossGamma: the first E step (counted as in HyperTrace,
	// over both phases) at which 1/α_j, 1/γ_j fell below the extinction
	// threshold, or −1.
	CrossAlpha, CrossGamma []int
}

func dimCellName(seed, T int, cross string, compare bool) string {
	if compare {
		return fmt.Sprintf("s%02d-T%04d-%s-compare", seed, T, cross)
	}
	return fmt.Sprintf("s%02d-T%04d-%s", seed, T, cross)
}

// runDimCell fits the VB LDS to the first T steps of seed's sequence;
// compare: with [extended.compare_hyper] in place of [vb.hyper] (the
// longest prefix).
func runDimCell(c *DimensionalityConfig, seed, T int, cross string, compare bool, stop func() error) (DimRun, error) {
	start := time.Now()
	r := DimRun{Seed: seed, T: T, Cross: cross, Compare: compare}
	truth, y, _ := c.Data.Generate(rng.New(c.Seed, DimensionalityID, "data", strconv.Itoa(seed)))
	seq := lds.Sequence{Y: mat.DenseCopyOf(y.Slice(0, T, 0, c.Data.P))}
	// The initial states depend on (seed, T) only, so that the two
	// cross_init runs differ in Υ_{t−1,t} alone.
	m, err := lds.NewVB([]lds.Sequence{seq}, c.Model.settings(cross),
		rng.New(c.Seed, DimensionalityID, "init", strconv.Itoa(seed), strconv.Itoa(T)))
	if err != nil {
		return r, err
	}
	longest := T == c.TGrid[len(c.TGrid)-1]
	main := cross == c.Model.CrossInit
	var tr HyperTrace
	total := 0
	if longest && main {
		total = c.Extended.MaxTotalIterations
	}
	snapped := false
	onE := func() {
		tr.record(m)
	}
	snap := func() {
		snapped = true
		r.InvAlpha, r.InvGamma = slices.Clone(tr.Alpha[len(tr.Alpha)-1]), slices.Clone(tr.Gamma[len(tr.Gamma)-1])
		r.A, r.C = m.A().RawMatrix().Data, m.C().RawMatrix().Data
		r.Iterations = tr.Len()
	}
	fit := c.VB
	if compare {
		fit.Hyper = c.Extended.CompareHyper
	}
	r1, r2, f, ext := phases(m, fit.Settings(stop, m), total, c.Extended.RelTol, onE, snap)
	if r1.Status == vb.Canceled || r2.Status == vb.Canceled {
		return r, stop()
	}
	if !snapped || tr.Len() == 0 {
		return r, fmt.Errorf("no iteration ran")
	}
	r.Status, r.Error = status(r1, r2, ext)
	r.F = floats(f)
	if longest && main && !compare {
		r.Trajectory = &HyperTrace{Alpha: tr.Alpha, Gamma: tr.Gamma}
	}
	if ext {
		last := tr.Len() - 1
		r.Ext = &DimExtended{Iterations: tr.Len(), Status: r2.Status.String(),
			InvAlpha: slices.Clone(tr.Alpha[last]), InvGamma: slices.Clone(tr.Gamma[last]),
			CrossAlpha: firstBelow(tr.Alpha, c.Thresholds.Extinct), CrossGamma: firstBelow(tr.Gamma, c.Thresholds.Extinct)}
	} else if longest && main {
		r.Ext = &DimExtended{Iterations: tr.Len(), Status: r.Status, InvAlpha: r.InvAlpha, InvGamma: r.InvGamma,
			CrossAlpha: firstBelow(tr.Alpha, c.Thresholds.Extinct), CrossGamma: firstBelow(tr.Gamma, c.Thresholds.Extinct)}
	}
	if longest {
		r.TrueA, r.TrueC = truth.A.RawMatrix().Data, truth.C.RawMatrix().Data
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// RunDimensionality runs every (seed, T) cell, and the comparison run of
// every seed if [extended.compare_hyper] is given, and writes alive.csv,
// params.csv, hyper_trace.csv, trace.csv, ExtendedFile, ExtendedDimsFile
// and the summary.
func RunDimensionality(env *experiments.Env, c *DimensionalityConfig) error {
	type cell struct {
		seed, T int
		cross   string
		compare bool
	}
	var cells []cell
	var names []string
	var cost []float64
	other := CrossZero
	if c.Model.CrossInit == CrossZero {
		other = CrossIdentity
	}
	Tmax := c.TGrid[len(c.TGrid)-1]
	for s := 0; s < c.Seeds; s++ {
		for _, T := range c.TGrid {
			cells = append(cells, cell{s, T, c.Model.CrossInit, false})
			it := c.VB.MaxIterations
			if T == Tmax {
				it = max(it, c.Extended.MaxTotalIterations)
			}
			cost = append(cost, float64(T*it))
		}
		if c.Model.CompareCrossInit {
			cells = append(cells, cell{s, Tmax, other, false})
			cost = append(cost, float64(Tmax*c.VB.MaxIterations))
		}
		if c.Extended.CompareHyper != nil {
			cells = append(cells, cell{s, Tmax, c.Model.CrossInit, true})
			cost = append(cost, float64(Tmax*max(c.VB.MaxIterations, c.Extended.MaxTotalIterations)))
		}
	}
	for _, cl := range cells {
		names = append(names, dimCellName(cl.seed, cl.T, cl.cross, cl.compare))
	}
	all, err := runFits(env, names, cost, func(i int) (DimRun, error) {
		return runDimCell(c, cells[i].seed, cells[i].T, cells[i].cross, cells[i].compare, env.Stop)
	})
	if err != nil || all == nil {
		return err
	}
	th := c.Thresholds
	k := c.Model.K
	alive := results.NewTable("seed", "T", "cross_init", "alive_alpha", "alive_gamma", "extinct_alpha", "extinct_gamma", "status")
	params := experiments.NewParams()
	hyper := results.NewTable("run", "phase", "iter", "dim", "inv_alpha", "inv_gamma")
	var traces []experiments.RunTrace
	var runs []DimRun // the grid (and the other cross_init), not the comparison runs
	for i, r := range all {
		traces = append(traces, experiments.RunTrace{Run: names[i], F: r.F})
		if r.Compare {
			continue
		}
		runs = append(runs, r)
		alive.AddRow(r.Seed, r.T, r.Cross, len(th.aliveSet(inv(r.InvAlpha))), len(th.aliveSet(inv(r.InvGamma))),
			th.extinctCount(inv(r.InvAlpha)), th.extinctCount(inv(r.InvGamma)), r.Status)
		perm := results.Order(inv(r.InvGamma)) // Figure 5.4: hidden dimensions by increasing γ_j
		params.Add(names[i], "VB", "A", k, k, permute(r.A, k, k, perm, perm))
		params.Add(names[i], "VB", "C", c.Data.P, k, permute(r.C, c.Data.P, k, nil, perm))
		if r.TrueA != nil && r.Cross == c.Model.CrossInit {
			kt := len(c.Data.Eigenvalues)
			tp := orderByColumnNorm(r.TrueC, c.Data.P, kt)
			params.Add(fmt.Sprintf("s%02d-truth", r.Seed), "truth", "A", kt, kt, permute(r.TrueA, kt, kt, tp, tp))
			params.Add(fmt.Sprintf("s%02d-truth", r.Seed), "truth", "C", c.Data.P, kt, permute(r.TrueC, c.Data.P, kt, nil, tp))
		}
		if r.Trajectory != nil {
			// Every E step of the [vb] phase (phase 1, Figure 5.5 (a)),
			// then the continuation (phase 2) thinned and its last.
			n := r.Trajectory.Len()
			for it := 0; it < n; it++ {
				phase := 1
				if it >= r.Iterations {
					phase = 2
					if !keepThinned(it) && it != n-1 {
						continue
					}
				}
				for j := 0; j < k; j++ {
					hyper.AddRow(names[i], phase, it, j+1, r.Trajectory.Alpha[it][j], r.Trajectory.Gamma[it][j])
				}
			}
		}
	}
	for _, w := range []struct {
		file string
		t    *results.Table
	}{{"alive.csv", alive}, {"hyper_trace.csv", hyper}} {
		if err := results.WriteCSV(env.Path(w.file), *w.t); err != nil {
			return err
		}
	}
	if err := params.Write(env.Dir); err != nil {
		return err
	}
	if err := experiments.WriteTraces(env.Dir, traces); err != nil {
		return err
	}
	ends := extendedEnds(c, all, names)
	if err := writeExtended(env, c, ends); err != nil {
		return err
	}
	book := dimensionalitySummary(c, runs, ends)
	return book.writeSummary(env, "Acceptance criteria of targets ch5-lds.md §3.1 (Figure 5.4) and §3.2 (Figure 5.5). "+
		"A criterion judged per seed is reported as the fraction of seeds that pass: with the targets' fraction where they give one, more than half where they judge a median, else every seed. "+
		"Alive: 1/h > alive_threshold; extinct: 1/h < extinct_threshold (h an ARD precision); the readout is at the end of the [vb] iterations.")
}

// keepThinned reports whether the record of iteration it of a
// continuation is written: every 10th up to iteration 1000, then about a
// hundred per decade (every it/100th), so that a log-scaled iteration
// axis stays evenly covered.
func keepThinned(it int) bool { return it%max(10, it/100) == 0 }

// inv returns the reciprocals (precisions from prior variances).
func inv(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = 1 / x
	}
	return out
}

// orderByColumnNorm returns the columns of the r×c row-major m in
// decreasing order of their norm (the true C's, matching increasing γ).
func orderByColumnNorm(m []float64, r, c int) []int {
	norm := make([]float64, c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			norm[j] -= m[i*c+j] * m[i*c+j]
		}
	}
	return results.Order(norm)
}

// permute returns the r×c row-major m with rows in the order rows (nil:
// unchanged) and columns in the order cols.
func permute(m []float64, r, c int, rows, cols []int) []float64 {
	out := make([]float64, r*c)
	for i := 0; i < r; i++ {
		si := i
		if rows != nil {
			si = rows[i]
		}
		for j := 0; j < c; j++ {
			out[i*c+j] = m[si*c+cols[j]]
		}
	}
	return out
}

// dimensionalityCriteria are the acceptance criteria of targets ch5-lds.md
// §3.1 (Figure 5.4) and §3.2 (Figure 5.5) for a config. Those judged seed
// by seed are the fraction of seeds that pass; the diagonal dominance is
// judged per cross_init (a case). They are claims of the thesis (lines
// 4071-4085) on the thesis's settings, and claims of ours, extensions, on
// a config of ours (ownSettings); the extended run is ours, its criteria
// extensions; F's monotonicity and the start at (1, 1) are sanity checks.
func dimensionalityCriteria(c *DimensionalityConfig) results.Criteria {
	kt := len(c.Data.Eigenvalues)
	Tmin, Tmax := c.TGrid[0], c.TGrid[len(c.TGrid)-1]
	ours := c.ownSettings()
	return slices.Concat(results.Criteria{
		results.ClaimOn(ours, results.Criterion{ID: "fig5.4-alpha-alive-monotone", Text: "Fig 5.4 (1) α-alive count non-decreasing in T, at most one violation of size 1", Target: results.Equal(1)},
			"a simple model for short sequences, the generating LDS for longer ones", "L4075"),
		results.ClaimOn(ours, results.Criterion{ID: "fig5.4-alpha-alive-counts", Text: fmt.Sprintf("Fig 5.4 (1) α-alive ≤ 2 at T = %d and exactly %d (the rest extinct) at T = %d", Tmin, kt, Tmax),
			Target: results.AtLeast(0.8)},
			"a simple dynamics model at T = 10; at T = 300 the generating LDS's k = 6", "Figure 5.4, L4071, L4075"),
		results.ClaimOn(ours, results.Criterion{ID: "fig5.4-gamma-alive-counts", Text: fmt.Sprintf("Fig 5.4 (2) γ-alive ≤ 4 at T = %d; at T = %d in {%d, %d, %d}, and those beyond the %dth have 1/α < extinct",
			Tmin, Tmax, kt, kt+1, kt+2, kt), Target: results.Equal(1)},
			"a simple output model at T = 10; at T = 300 six dimensions remain, four extinct", "L4075, L4077, L4085"),
		results.ClaimOn(true, results.Criterion{ID: "fig5.4-extended-run", Text: fmt.Sprintf("Fig 5.4 (3) extended run at T = %d: α-alive = %d and γ-alive in {%d, %d}", Tmax, kt, kt, kt+1),
			Target: results.AtLeast(0.8)},
			"six hyperparameters remain useful, k = 6 (after 500 iterations; the run continued is ours)", "L4085"),
		results.Criterion{ID: "fig5.4-f-monotone", Text: "Fig 5.4 (5) F never decreases, every run of the seed", Target: results.Equal(1)}.AsSanity(),
		results.Criterion{ID: "fig5.5-start", Text: "Fig 5.5 (i) trajectories start at (ln 1/α, ln 1/γ) = (0, 0)", Target: results.Equal(1)}.AsSanity(),
		results.ClaimOn(ours, results.Criterion{ID: "fig5.5-survivors", Text: "Fig 5.5 (iii) survivors end with ln(1/γ) > −2.5 and ln(1/α) > −5", Target: results.Equal(1)},
			"six remain in the top right with finite variances", "Figure 5.5, L4083"),
		results.ClaimOn(ours, bySeed("fig5.4-diagonal-dominance", "Fig 5.4 (4) diagonal dominance Σ_j A_jj²/Σ_ij A_ij² of the α-alive block of ⟨A⟩ at T_max"),
			"a predominantly diagonal dynamics matrix", "L4075"),
		results.ClaimOn(ours, results.Criterion{ID: "fig5.5-alpha-before-gamma", Text: "Fig 5.5 (ii) doubly-extinct dimensions losing α before γ, pooled over seeds", Target: results.AtLeast(0.75)},
			"L-shaped trajectories: the extinct dimensions are removed first from the dynamics, then from the output", "Figure 5.5, L4083"),
	}, extendedCriteria(kt, Tmax))
}

// ownSettings reports whether c's settings are ours rather than the
// thesis's: a hyperparameter schedule other than the staged one of
// section 5.4.2 (dimensionality-hyper1.toml), or Υ_{t−1,t} initialised
// otherwise than the toolbox's identity (targets §4 #7; the thesis states
// neither for section 5.4.1, and the targets take both).
func (c *DimensionalityConfig) ownSettings() bool {
	return !maps.Equal(c.VB.Hyper, ldsFit(0, lds.Variational, false).Hyper) || c.Model.CrossInit != CrossIdentity
}

// dominanceFor returns the diagonal-dominance criterion of one cross_init:
// on a cross_init other than the toolbox's identity, the comparison the
// targets ask for (§3.1 criterion 4), a claim of ours.
func dominanceFor(c results.Criterion, cross string) results.Criterion {
	text := strings.TrimSuffix(c.Text, seedsSuffix)
	c = c.For(cross)
	c.Text = text + ", cross_init = " + cross + seedsSuffix
	if cross != CrossIdentity {
		c = c.AsExtension()
	}
	return c
}

// dimKey identifies one run of the dimensionality study.
type dimKey struct {
	seed, T int
	cross   string
}

// dimSummary computes the criteria of targets §3.1 and §3.2.
type dimSummary struct {
	c          *DimensionalityConfig
	book       *checkBook
	th         Thresholds
	kt         int // the generator's state dimension
	Tmin, Tmax int
	by         map[dimKey]DimRun
	// Pooled over seeds: the diagonal dominance at T_max under the main
	// and the other cross_init, and the doubly-extinct dimensions (Figure
	// 5.5 (ii)).
	ddMain, ddOther              []float64
	pooledAlphaFirst, pooledDims int
	ends                         []extEnd
}

// dimensionalitySummary computes the criteria of targets §3.1 and §3.2
// on the runs and those of the end states of the extended runs, ends
// (extended.go).
func dimensionalitySummary(c *DimensionalityConfig, runs []DimRun, ends []extEnd) *checkBook {
	s := &results.Summary{}
	d := &dimSummary{c: c, book: newCheckBook(s, dimensionalityCriteria(c)), th: c.Thresholds, kt: len(c.Data.Eigenvalues),
		Tmin: c.TGrid[0], Tmax: c.TGrid[len(c.TGrid)-1], by: map[dimKey]DimRun{}, ends: ends}
	for _, r := range runs {
		d.by[dimKey{r.Seed, r.T, r.Cross}] = r
	}
	for seed := 0; seed < c.Seeds; seed++ {
		d.fig54Seed(seed, runs)
		d.fig55Seed(seed)
	}
	d.aliveMetrics()
	d.judge()
	s.Claims = []results.Claim{
		{Artifact: "Figure 5.4", Figures: []string{"fig5_4"}, Checks: []string{"fig5.4-alpha-alive-monotone", "fig5.4-alpha-alive-counts",
			"fig5.4-gamma-alive-counts", "fig5.4-diagonal-dominance", "fig5.4-f-monotone"},
			Statement: "For short sequences VB LDS chooses a simple model; for longer ones it recovers the 6-dimensional generating LDS, with a predominantly diagonal dynamics matrix (section 5.4.1, lines 4076-4077)."},
		{Artifact: "Figure 5.5", Figures: []string{"fig5_5"}, Checks: []string{"fig5.5-start", "fig5.5-alpha-before-gamma", "fig5.5-survivors"},
			Statement: "At T = 300 four hidden dimensions become extinct in both α and γ and six survive; the extinct ones are removed from the dynamics first, then from the output (L-shaped trajectories; lines 4081-4085)."},
	}
	// The extended run is ours: its claim names Figure 5.4, so that the
	// report shows its checks, extensions all, in the thesis's extensions
	// table beside the figure.
	s.Claims = append(s.Claims, results.Claim{Artifact: "Figure 5.4, extended run", Figures: []string{"fig5_5_extended"},
		Checks: []string{"fig5.4-extended-run", "fig5.4-extended-true-structure", "fig5.4-extended-local-optimum", "fig5.4-extended-true-higher-f"},
		Statement: "Not in the thesis, which warns (line 4115) that with larger data sets dimensions may end up modelling the dynamics or the output but not both, and did not observe it here: " +
			"the run on the longest sequence, continued to the end of its pruning, ends in the true structure, and the local optimum has the lower F."})
	s.AddFindingsFromChecks(map[string]string{
		"fig5.4-gamma-alive-counts": "After 500 iterations surplus output factors with extinct α (static factors) may still be on their way out (targets §3.1 prototype note).",
	})
	return d.book
}

// fig54Seed records one seed's outcomes of Figure 5.4: the alive counts
// against T, the extended run, the diagonal dominance and F.
func (d *dimSummary) fig54Seed(seed int, runs []DimRun) {
	c, th, kt, book := d.c, d.th, d.kt, d.book
	u := unitName(seed)
	// Alive counts against T (main cross_init).
	var na []int
	for _, T := range c.TGrid {
		na = append(na, len(th.aliveSet(inv(d.by[dimKey{seed, T, c.Model.CrossInit}].InvAlpha))))
	}
	viol, worst := 0, 0
	for i := 1; i < len(na); i++ {
		if dn := na[i-1] - na[i]; dn > 0 {
			viol++
			worst = max(worst, dn)
		}
	}
	book.unit(book.get("fig5.4-alpha-alive-monotone").Text, u, viol <= 1 && worst <= 1, float64(viol))
	first, last := d.by[dimKey{seed, d.Tmin, c.Model.CrossInit}], d.by[dimKey{seed, d.Tmax, c.Model.CrossInit}]
	aFirst, aLast := inv(first.InvAlpha), inv(last.InvAlpha)
	gFirst, gLast := inv(first.InvGamma), inv(last.InvGamma)
	book.unit(book.get("fig5.4-alpha-alive-counts").Text, u, len(th.aliveSet(aFirst)) <= 2 && th.exactly(aLast, kt), float64(len(th.aliveSet(aLast))))
	nga := len(th.aliveSet(gLast))
	surplus := 0 // γ-alive dimensions whose α is not extinct
	for _, j := range th.aliveSet(gLast) {
		if 1/aLast[j] >= th.Extinct {
			surplus++
		}
	}
	book.unit(book.get("fig5.4-gamma-alive-counts").Text, u, len(th.aliveSet(gFirst)) <= 4 && nga >= kt && nga <= kt+2 && surplus <= kt, float64(nga))
	if last.Ext != nil && last.Ext.Iterations > last.Iterations {
		ea, eg := inv(last.Ext.InvAlpha), inv(last.Ext.InvGamma)
		n := len(th.aliveSet(eg))
		book.unit(book.get("fig5.4-extended-run").Text, u, len(th.aliveSet(ea)) == kt && (n == kt || n == kt+1), float64(n))
	}
	dom := book.get("fig5.4-diagonal-dominance")
	for _, cr := range []string{c.Model.CrossInit, otherCross(c.Model.CrossInit)} {
		r, ok := d.by[dimKey{seed, d.Tmax, cr}]
		if !ok {
			continue
		}
		// Without an α-alive dimension there are no dynamics whose
		// dominance the criterion judges: the claim does not hold on the
		// seed (NaN), which has no unit (the alive counts fail it).
		dd := math.NaN()
		if alive := th.aliveSet(inv(r.InvAlpha)); len(alive) > 0 {
			dd = DiagonalDominance(mat.NewDense(c.Model.K, c.Model.K, r.A), alive)
			book.unit("Fig 5.4 (4) diagonal dominance of the α-alive block of ⟨A⟩ at T_max ≥ 0.5 (cross_init = "+cr+")", u, book.seedTarget(dom.ID).Met(dd), dd, dominanceFor(dom, cr).ID)
		}
		if cr == c.Model.CrossInit {
			d.ddMain = append(d.ddMain, dd)
		} else {
			d.ddOther = append(d.ddOther, dd)
		}
	}
	ok, bad := true, 0.0
	for _, r := range runs {
		if r.Seed == seed && (!monotone(experiments.Float64s(r.F), MonotoneCheckTol) || r.Error != "") {
			ok = false
			bad++
		}
	}
	book.unit(book.get("fig5.4-f-monotone").Text, u, ok, bad)
	d.book.s.SetMetric(fmt.Sprintf("alive_alpha.s%d.T%d", seed, d.Tmax), float64(len(th.aliveSet(aLast))))
	d.book.s.SetMetric(fmt.Sprintf("alive_gamma.s%d.T%d", seed, d.Tmax), float64(nga))
}

// otherCross returns the cross_init that is not cross.
func otherCross(cross string) string {
	if cross == CrossZero {
		return CrossIdentity
	}
	return CrossZero
}

// fig55Seed records one seed's outcomes of Figure 5.5: the start of the
// trajectories, the order of extinction and the survivors.
func (d *dimSummary) fig55Seed(seed int) {
	th, book := d.th, d.book
	u := unitName(seed)
	last := d.by[dimKey{seed, d.Tmax, d.c.Model.CrossInit}]
	if tr := last.Trajectory; tr != nil && tr.Len() > 0 {
		start := true
		for j := range tr.Alpha[0] {
			start = start && tr.Alpha[0][j] == 1 && tr.Gamma[0][j] == 1
		}
		book.unit(book.get("fig5.5-start").Text, u, start, b2f(start))
	}
	if e := last.Ext; e != nil {
		first, n := 0, 0
		for j := range e.InvAlpha {
			if e.InvAlpha[j] < th.Extinct && e.InvGamma[j] < th.Extinct && e.CrossAlpha[j] >= 0 && e.CrossGamma[j] >= 0 {
				n++
				if e.CrossAlpha[j] < e.CrossGamma[j] {
					first++
				}
			}
		}
		d.pooledAlphaFirst += first
		d.pooledDims += n
		f := float64(first) / float64(max(n, 1))
		book.unit("Fig 5.5 (ii) doubly-extinct dimensions lose α before γ (fraction of the seed's)", u, n > 0 && book.get("fig5.5-alpha-before-gamma").Target.Met(f), f, "fig5.5-alpha-before-gamma")
	}
	// Criterion (iii) is about the survivors: a seed without one has no
	// unit (the alive counts fail it).
	surv, n := true, 0
	minG := math.Inf(1)
	for j := range last.InvAlpha {
		if last.InvAlpha[j] > th.Alive && last.InvGamma[j] > th.Alive {
			n++
			minG = math.Min(minG, math.Log(last.InvGamma[j]))
			surv = surv && math.Log(last.InvGamma[j]) > -2.5 && math.Log(last.InvAlpha[j]) > -5
		}
	}
	if n > 0 {
		book.unit(book.get("fig5.5-survivors").Text, u, surv, minG)
	}
}

// aliveMetrics records the median alive counts over seeds at every T.
func (d *dimSummary) aliveMetrics() {
	c, s := d.c, d.book.s
	for _, T := range c.TGrid {
		var a, g []float64
		for seed := 0; seed < c.Seeds; seed++ {
			r := d.by[dimKey{seed, T, c.Model.CrossInit}]
			a = append(a, float64(len(d.th.aliveSet(inv(r.InvAlpha)))))
			g = append(g, float64(len(d.th.aliveSet(inv(r.InvGamma)))))
		}
		s.SetMetric(fmt.Sprintf("alive_alpha_median.T%d", T), medianOf(a))
		s.SetMetric(fmt.Sprintf("alive_gamma_median.T%d", T), medianOf(g))
		if T == d.Tmax {
			// Issue 10's interface: the state dimensions alive (α) at the
			// largest length, median over seeds, and the generator's.
			s.SetMetric("alive_state_dims", medianOf(a))
			s.SetMetric("true_state_dims", float64(d.kt))
		}
	}
}

// judge judges the criteria: the fractions of seeds (the diagonal
// dominance's against more than half, where the targets judge the median)
// and the pooled fraction. Those calibrated for the thesis's generator and T grid
// are not judged on others; F's monotonicity and the start at (1, 1) hold
// for any generator.
func (d *dimSummary) judge() {
	c, book, s := d.c, d.book, d.book.s
	na := ""
	if !(d.kt == 6 && c.Data.P == 10 && c.Model.K == 10) || !(slices.Contains(c.TGrid, 10) && d.Tmax == 300) {
		na = "the criteria are calibrated for the thesis's generator (k_true = 6, p = 10, k = 10) and a T grid from 10 to 300"
	}
	calibrated := func(id string) {
		if na != "" {
			book.na(id, na)
			return
		}
		book.fraction(book.get(id))
	}
	calibrated("fig5.4-alpha-alive-monotone")
	calibrated("fig5.4-alpha-alive-counts")
	calibrated("fig5.4-gamma-alive-counts")
	calibrated("fig5.4-extended-run")
	book.fraction(book.get("fig5.4-f-monotone"))
	book.fraction(book.get("fig5.5-start"))
	calibrated("fig5.5-survivors")
	dom := book.get("fig5.4-diagonal-dominance")
	for i, x := range []struct {
		cross string
		dd    []float64
	}{{c.Model.CrossInit, d.ddMain}, {otherCross(c.Model.CrossInit), d.ddOther}} {
		cd := dominanceFor(dom, x.cross)
		switch {
		case i == 1 && !c.Model.CompareCrossInit:
			s.NotJudged(cd, "compare_cross_init is off")
			continue
		case math.IsNaN(medianOf(x.dd)):
			s.NotJudged(cd, "no seed has an α-alive dimension at T_max")
			continue
		case na != "":
			s.NotJudged(cd, na)
		default:
			book.overSeeds(cd, x.dd)
		}
		s.SetMetric("diagonal_dominance_median."+x.cross, medianOf(x.dd))
	}
	s.SetMetric("alpha_before_gamma_dims", float64(d.pooledDims))
	switch {
	case na != "":
		book.na("fig5.5-alpha-before-gamma", na)
	case d.pooledDims == 0:
		book.na("fig5.5-alpha-before-gamma", "no dimension went extinct in both α and γ")
	default:
		book.judge("fig5.5-alpha-before-gamma", float64(d.pooledAlphaFirst)/float64(d.pooledDims), fmt.Sprintf("%d dimensions", d.pooledDims))
	}
	d.extendedChecks(d.ends, na)
}

func init() {
	experiments.Add(DimensionalityID, "VB LDS without inputs (k = 10) on prefixes of one sequence from a 6-state LDS: ARD finds the dimensionality as T grows; α, γ trajectories (Figures 5.4, 5.5)", DefaultDimensionality, RunDimensionality, PlotDimensionality)
}
