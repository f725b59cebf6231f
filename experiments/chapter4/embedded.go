package chapter4

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// EmbeddedID is the registry key of the embedded-clusters experiment
// (Beal 2003 section 4.5.2, Table 4.1 and Figure 4.4; targets ch4-mfa.md
// §3.2). Its shipped config, embedded.toml, has the thesis's settings (200
// iterations in total, L2763); embedded-relaxed.toml, a variant of ours,
// the relaxed budget of 3000.
const EmbeddedID = "chapter4/embedded"

// EmbeddedConfig is the config of chapter4/embedded.
type EmbeddedConfig struct {
	experiments.Common
	// Restarts is the number of seeds per data size: each draws new data
	// and runs a new search. Default 10 (§3.2).
	Restarts int `toml:"restarts" range:"[1,1e6]"`
	// Data is the generator (L2761); its points_per_cluster is the size of
	// Figure 4.4.
	Data EmbeddedClusters `toml:"data"`
	// TableSizes are the points per cluster of Table 4.1, in any order
	// (the table sorts them, with points_per_cluster). Default
	// [8, 16, 32, 64, 128].
	TableSizes []int                 `toml:"table_sizes" range:"[1,1e7] len=1.."`
	Model      ModelSettings         `toml:"model"`
	Prior      PriorSettings         `toml:"prior"`
	Search     config.SearchSettings `toml:"search"`
	VB         config.FitSettings    `toml:"vb"`
	// Tau is the ARD readout threshold: a factor column is active when its
	// energy E‖Λ_·l‖² is at least Tau (targets §1.8). Default 0.1.
	Tau float64 `toml:"tau" range:"(0,1e6]"`
}

// DefaultEmbedded returns the thesis's settings (section 4.5.2) with the
// targets' readout and generator (§3.2, §6).
func DefaultEmbedded() EmbeddedConfig {
	c := EmbeddedConfig{Common: experiments.Common{Experiment: EmbeddedID, Figures: []string{"table4.1", "fig4.4"}, Seed: 4401}}
	c.Restarts = 10
	c.Data = DefaultEmbeddedClusters()
	c.TableSizes = []int{8, 16, 32, 64, 128}
	c.Model, c.Prior = defaultModel(7), defaultPrior()
	// The thesis's search: agitation epochs (L2643; the targets add
	// |ΔF|/n < 1e-6, §1.9), a move judged against the F before it (L2625),
	// 200 iterations in total (L2763) and the readout at their end.
	// embedded-relaxed.toml judges moves against a matched reference, runs
	// 3000 iterations and converges the final model (README, "Chapter 4").
	c.Search = DefaultSearch()
	c.Search.Epoch, c.Search.MaxFinalIterations, c.Search.MaxTotalIterations = config.EpochAgitation, 0, 200
	// Under search.epoch = "dF" an epoch ends on the relative test alone:
	// as the ARD precisions grow F keeps creeping up and the projected-limit
	// test would not end it (targets §6: ΔF < 1e-6 nats per datum).
	// max_iterations is the cap of every epoch rule (the targets'
	// epoch_max_sweeps).
	c.VB = vbFit(2000)
	c.Tau = 0.1
	return c
}

// Validate checks what relates the keys: the generator's own rules, every
// table size against the generator's limit, and k_max against data.p.
func (c *EmbeddedConfig) Validate() error {
	if err := c.Data.Validate(); err != nil {
		return err
	}
	for _, n := range c.TableSizes {
		if err := c.Data.checkSize("table_sizes", n); err != nil {
			return err
		}
	}
	return config.FirstError(c.Model.checkKMax(c.Data.P), c.Search.Validate(), c.VB.Validate("vb", mfaGroups()))
}

// sizes returns every points-per-cluster value run, ascending.
func (c *EmbeddedConfig) sizes() []int {
	s := append(slices.Clone(c.TableSizes), c.Data.PointsPerCluster)
	slices.Sort(s)
	return slices.Compact(s)
}

// Analyser is the readout of one analyser of a finished search.
type Analyser struct {
	Points   float64   // responsibility mass N_s
	Dim      int       // active factor columns (energy ≥ tau)
	Energies []float64 // column energies, in column order
	// Mass[c] is the fraction of the analyser's responsibility from true
	// cluster c; Shared when two or more clusters give more than 20%.
	Mass   []float64
	Shared bool
	// Loadings are the posterior means of Λ^s (p×k, row-major), kept for
	// Figure 4.4 only.
	Loadings []float64 `json:",omitempty"`
}

// EmbeddedRun is one (size, seed) cell.
type EmbeddedRun struct {
	Size, Seed int
	SearchRecord
	Analysers   []Analyser // with at least one point of responsibility
	Seconds     float64
	WithFigures bool
}

// dims returns the active dimensionalities of a run's analysers, largest
// first.
func (r EmbeddedRun) dims() []int {
	d := make([]int, len(r.Analysers))
	for i, a := range r.Analysers {
		d[i] = a.Dim
	}
	sort.Sort(sort.Reverse(sort.IntSlice(d)))
	return d
}

// dimsOff returns how far a run's analysers are from the true structure
// (truth: dimensionalities, largest first): Σ|d_i − t_i| over the run's
// dimensionalities and truth, largest first and padded with zeros, plus
// |S − len(truth)|. It is 0 exactly when the run has len(truth)
// analysers of the true dimensionalities (the recovery of Table 4.1 and
// Figure 4.4), and grows with every surplus or missing dimension and
// analyser.
func (r EmbeddedRun) dimsOff(truth []int) float64 {
	d := r.dims()
	off := max(len(d)-len(truth), len(truth)-len(d))
	for i := range max(len(d), len(truth)) {
		var a, b int
		if i < len(d) {
			a = d[i]
		}
		if i < len(truth) {
			b = truth[i]
		}
		off += max(a-b, b-a)
	}
	return float64(off)
}

// recovered reports whether a dimsOff value is a recovery.
func recovered(off float64) bool { return off == 0 }

func (r EmbeddedRun) totalDim() int {
	t := 0
	for _, d := range r.dims() {
		t += d
	}
	return t
}

// readout returns the analysers with at least one point of responsibility,
// with their active dimensionalities and the true clusters they serve.
func readout(model *mfa.VB, labels []int, clusters int, tau float64, withLoadings bool) []Analyser {
	resp := model.Resp()
	n, S := resp.Dims()
	counts := model.Counts()
	var out []Analyser
	for s := 0; s < S; s++ {
		if counts[s] < 1 {
			continue
		}
		a := Analyser{Points: counts[s], Dim: model.ActiveDims(s, tau), Energies: model.ColumnEnergies(s), Mass: make([]float64, clusters)}
		for i := 0; i < n; i++ {
			a.Mass[labels[i]] += resp.At(i, s)
		}
		big := 0
		for c := range a.Mass {
			a.Mass[c] /= counts[s]
			if a.Mass[c] > 0.2 {
				big++
			}
		}
		a.Shared = big >= 2
		if withLoadings {
			rows := model.Loadings(s)
			p, kk := rows.Dims()
			mean := mat.NewDense(p, kk, nil)
			rows.MeanTo(mean)
			k := model.Dim(s)
			a.Loadings = make([]float64, 0, p*k)
			for q := 0; q < p; q++ {
				a.Loadings = append(a.Loadings, mean.RawRowView(q)[:k]...)
			}
		}
		out = append(out, a)
	}
	return out
}

// runEmbeddedCell draws the data of one (size, seed) and runs the search.
func runEmbeddedCell(c *EmbeddedConfig, size, seed int, stop func() error) (EmbeddedRun, error) {
	start := time.Now()
	r := EmbeddedRun{Size: size, Seed: seed, WithFigures: size == c.Data.PointsPerCluster && seed == 0}
	gen := c.Data
	gen.PointsPerCluster = size
	x, labels := gen.Generate(rng.New(c.Seed, EmbeddedID, "data", strconv.Itoa(size), strconv.Itoa(seed)))
	z, _, _, err := numeric.Standardise(x, nil, numeric.DropConstant)
	if err != nil {
		return r, err
	}
	births := rng.New(c.Seed, EmbeddedID, "births", strconv.Itoa(size), strconv.Itoa(seed))
	model, res, dims, err := searchMFA(z, c.Model.settings(c.Prior), c.Search, c.VB, births, stop, nil)
	if err != nil {
		return r, err
	}
	r.record(res, dims)
	r.Analysers = readout(model, labels, len(c.Data.Dims), c.Tau, r.WithFigures)
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// RunEmbedded runs every (size, seed) cell and writes table4_1.csv,
// moves.csv, params.csv and summary.json.
func RunEmbedded(env *experiments.Env, c *EmbeddedConfig) error {
	// The memory and the work were checked before the run (Estimate).
	sizes := c.sizes()
	type cell struct{ size, seed int }
	var cells []cell
	var names []string
	var cost []float64
	for _, n := range sizes {
		for s := 0; s < c.Restarts; s++ {
			cells = append(cells, cell{n, s})
			names = append(names, fmt.Sprintf("n%03d-s%02d", n, s))
			cost = append(cost, float64(n))
		}
	}
	runs, complete, err := experiments.RunAllCells(env, names, cost, func(i int) (EmbeddedRun, error) {
		return runEmbeddedCell(c, cells[i].size, cells[i].seed, env.Stop)
	})
	if err != nil || !complete {
		return err
	}
	for i, r := range runs {
		env.AddRun(results.RunRecord{Name: names[i], Status: r.Status, WallSeconds: r.Seconds, Iterations: r.Iterations})
		if st, _ := vb.ParseStatus(r.Status); !st.OK() {
			env.Warnf("run %s ended with status %s", names[i], r.Status)
		}
	}
	tab := results.NewTable("points_per_cluster", "seed", "components", "dims", "total_dim", "shared", "F", "iterations", "accepted", "rejected", "status")
	mt := newMovesTable("points_per_cluster", "seed")
	for _, r := range runs {
		shared := 0
		for _, a := range r.Analysers {
			if a.Shared {
				shared++
			}
		}
		tab.AddRow(r.Size, r.Seed, len(r.Analysers), joinInts(r.dims()), r.totalDim(), shared, float64(r.F), r.Iterations, r.Accepted, r.Rejected, r.Status)
		addMoves(mt, r.Moves, r.Size, r.Seed)
	}
	if err := results.WriteCSV(env.Path("table4_1.csv"), *tab); err != nil {
		return err
	}
	if err := results.WriteCSV(env.Path("moves.csv"), *mt); err != nil {
		return err
	}
	pt := experiments.NewParams()
	for _, r := range runs {
		if !r.WithFigures {
			continue
		}
		for s, a := range r.Analysers {
			k := len(a.Energies)
			// Columns ordered by energy, the way Figure 4.4 draws them.
			order := make([]int, k)
			for j := range order {
				order[j] = j
			}
			sort.SliceStable(order, func(i, j int) bool { return a.Energies[order[i]] > a.Energies[order[j]] })
			p := len(a.Loadings) / max(k, 1)
			m := make([]float64, 0, len(a.Loadings))
			for q := 0; q < p; q++ {
				for _, j := range order {
					m = append(m, a.Loadings[q*k+j])
				}
			}
			pt.Add(fmt.Sprintf("n%03d-s%02d", r.Size, r.Seed), fmt.Sprintf("analyser%02d_dim%d", s, a.Dim), "Lambda", p, k, m)
		}
	}
	if err := pt.Write(env.Dir); err != nil {
		return err
	}
	return env.WriteSummary(embeddedSummary(c, runs), "Checks of Table 4.1 and Figure 4.4 (targets ch4-mfa.md §3.2).")
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// embeddedCriteria are the criteria of Table 4.1 (the tolerances of
// targets §3.2: fractions of seeds and medians over seeds) and Figure 4.4,
// each a claim of the thesis with its number (Table 4.1's rows are
// L2784-L2789), judged on every run: on the thesis's settings
// (embedded.toml) they are the verdict, on embedded-relaxed.toml claims of
// ours (results.Criteria.AsOurs). The recovery
// at 300, 128 and 64 points per cluster is judged per size
// (table4.1-recovered[n=300]), and Figure 4.4's at the figure's size, over
// every seed of it (the drawn one is seed 0); both are fractions of seeds
// whose spread is that of EmbeddedRun.dimsOff.
var embeddedCriteria = results.Criteria{
	fMonotone,
	results.Criterion{ID: "table4.1-recovered", Text: "S = 6 and dims = {7,4,3,2,2,1} at 300, 128 and 64 points per cluster (fraction of seeds; per seed Σ|dims - truth| + |S - 6|, 0 when recovered)", Target: results.AtLeast(0.7)}.
		AsClaim("S = 6 with dims 1 7 4 3 2 2 at 64 and 128 points per cluster (and at 300, Figure 4.4)", "Table 4.1, L2788-L2791"),
	results.Criterion{ID: "table4.1-recovered-32", Text: "S = 6 with total dimensionality in [15, 19] at 32 points per cluster (fraction of seeds)", Target: results.AtLeast(0.6)}.
		AsClaim("S = 6 with dims 1 6 3 3 2 2 (total 17) at 32 points per cluster", "Table 4.1, L2787"),
	results.Criterion{ID: "table4.1-median-s-16", Text: "median S at 16 points per cluster", Target: results.AtMost(4)}.
		AsClaim("3 analysers at 16 points per cluster", "Table 4.1, L2786"),
	results.Criterion{ID: "table4.1-median-s-8", Text: "median S at 8 points per cluster", Target: results.AtMost(3)}.
		AsClaim("2 analysers at 8 points per cluster (both configurations)", "Table 4.1, L2784-L2785"),
	results.Criterion{ID: "table4.1-s-monotone", Text: "median S non-decreasing in the points per cluster (sizes where it falls)", Target: results.Equal(0)}.
		AsClaim("S 2, 3, 6, 6, 6 at 8-128 points per cluster: the analysers drop with less data", "Table 4.1, L2791, L2793"),
	results.Criterion{ID: "table4.1-dims-monotone", Text: "median total dimensionality non-decreasing in the points per cluster (sizes where it falls)", Target: results.Equal(0)}.
		AsClaim("total dimensionality 3, 7, 17, 19, 19 at 8-128 points per cluster", "Table 4.1, L2791, L2793"),
	results.Criterion{ID: "fig4.4-dims", Text: "S = 6 and dims = {7,4,3,2,2,1} at the size of Figure 4.4, over its seeds (fraction of seeds; per seed Σ|dims - truth| + |S - 6|, 0 when recovered)", Target: results.AtLeast(0.7)}.
		AsClaim("S = 6 with dims (7,2,2,4,3,1) at 300 points per cluster", "Figure 4.4, L2763, L2780"),
}

// embeddedSummary computes the metrics and the criteria of Table 4.1 and
// Figure 4.4 (targets §3.2: fractions of and medians over seeds).
func embeddedSummary(c *EmbeddedConfig, runs []EmbeddedRun) *results.Summary {
	s := &results.Summary{Criteria: embeddedCriteria}
	truth := slices.Clone(c.Data.Dims)
	sort.Sort(sort.Reverse(sort.IntSlice(truth)))
	bySize := map[int][]EmbeddedRun{}
	for _, r := range runs {
		bySize[r.Size] = append(bySize[r.Size], r)
	}
	sizes := c.sizes()
	var medS, medD []float64
	for _, n := range sizes {
		var S, D []float64
		rec := 0
		for _, r := range bySize[n] {
			S = append(S, float64(len(r.Analysers)))
			D = append(D, float64(r.totalDim()))
			if recovered(r.dimsOff(truth)) {
				rec++
			}
		}
		medS, medD = append(medS, results.Median(S)), append(medD, results.Median(D))
		s.SetMetric(fmt.Sprintf("components_median.n%d", n), results.Median(S))
		s.SetMetric(fmt.Sprintf("total_dim_median.n%d", n), results.Median(D))
		s.SetMetric(fmt.Sprintf("recovered_fraction.n%d", n), float64(rec)/float64(len(bySize[n])))
	}
	// At the largest size: the median number of components and the most
	// common multiset of dimensionalities.
	largest := bySize[sizes[len(sizes)-1]]
	var S []float64
	count := map[string]int{}
	for _, r := range largest {
		S = append(S, float64(len(r.Analysers)))
		count[joinInts(r.dims())]++
	}
	best := ""
	for k, v := range count {
		if v > count[best] || v == count[best] && k < best {
			best = k
		}
	}
	s.SetMetric("components", results.Median(S))
	var dims []float64
	for _, f := range strings.Fields(best) {
		v, _ := strconv.Atoi(f)
		dims = append(dims, float64(v))
	}
	s.Lists = map[string][]float64{"dims": dims}
	var secs, its []float64
	var statuses []string
	for _, r := range runs {
		secs, its = append(secs, r.Seconds), append(its, float64(r.Iterations))
		statuses = append(statuses, r.Status)
	}
	s.SetMetric("seconds_per_search_median", results.Median(secs))
	s.SetMetric("iterations_per_search_median", results.Median(its))

	judgeTable41(s, c, bySize, truth, medS, medD, statuses)
	judgeFigure44(s, c, bySize[c.Data.PointsPerCluster], truth)
	s.Claims = []results.Claim{
		{Artifact: "Table 4.1", Checks: []string{"table4.1-recovered", "table4.1-recovered-32", "table4.1-median-s-16", "table4.1-median-s-8", "table4.1-s-monotone", "table4.1-dims-monotone"},
			Statement: "With 64 or more points per cluster VBMFA recovers the six embedded clusters and their dimensionalities (7,4,3,2,2,1); with less data it first lowers the dimensionalities and then merges clusters (section 4.5.2, L2759-L2793)."},
		{Artifact: "Figure 4.4", Figures: []string{"fig4_4"}, Checks: []string{"fig4.4-dims"},
			Statement: "Hinton diagrams of the learnt loadings at 300 points per cluster: ARD switches off the surplus factor columns of each analyser."},
	}
	s.AddFindingsFromChecks(nil)
	switch {
	case c.Search.Birth == "spatial":
		s.Findings = append(s.Findings, "Births are spatial splits (search.birth = \"spatial\", targets §1.9): the children clone the parent's loadings, with means displaced ±d.")
	case c.Search.Children == "pca":
		s.Findings = append(s.Findings, "Births are responsibility splits (search.birth = \"responsibility\") whose children's loadings are re-initialised by PCA (search.children = \"pca\"); with the thesis's inherited loadings a parent spanning two clusters with one factor often cannot be split (core/model/mfa, TestSearchThreeClusters).")
	default:
		s.Findings = append(s.Findings, "Births are responsibility splits with inherited loadings (search.birth = \"responsibility\", search.children = \"inherit\").")
	}
	s.Findings = append(s.Findings, fmt.Sprintf("Epochs end by the rule search.epoch = %q.", c.Search.Epoch))
	s.Findings = append(s.Findings, budgetFindings(c, runs, truth)...)
	if c.Search.Epoch == "agitation+dF" {
		s.Findings = append(s.Findings, "With the targets' epoch rule an epoch ends only when the responsibilities have settled and |ΔF|/n < 1e-6 (0.0018 nats an iteration at 1800 points). Measured on this problem (300 points per cluster, 3 seeds, spatial births; issue 20): after a birth every agitation falls below e^-6 within 9-74 iterations, F then rises by another 330-2350 nats over 120-900 iterations (to ΔF < 0.02 nats an iteration), and after 1000-2000 iterations it still rises by 2e-3 to 4e-2 nats an iteration, the loadings rotating and the switched-off columns shrinking under ARD. Converged from the true labels the same slow tail is 2e-5 to 1.4e-4 nats an iteration at iteration 500 and 6e-8 to 8e-6 at 3000. Most epochs therefore run to the 2000-iteration cap, and a 3000-iteration budget leaves room for about two births. Measured earlier, with deaths as moves (fraction of seeds recovering S = 6 with the true dims at 300/128/64 points per cluster): spatial + agitation+dF 0/0/0; spatial + agitation 0/0.1/0.1 (over-splits); responsibility (PCA children) + dF 0.4/0.3/0.4; unbounded iterations with the defaults recover 4 of 10 at 64 points per cluster.")
	}
	return s
}

// budgetFindings say how the budget and the reference shaped a run's
// searches: how many the budget ended, read out unconverged (no final
// iterations), and, on the thesis's rule (agitation epochs, each move
// judged against the F before it, L2625, L2643), why the structure and the
// dimensionalities at the largest size are off the truth.
func budgetFindings(c *EmbeddedConfig, runs []EmbeddedRun, truth []int) []string {
	var out []string
	if c.Search.MaxFinalIterations == 0 && c.Search.MaxTotalIterations > 0 {
		ended := 0
		for _, r := range runs {
			if r.Iterations >= c.Search.MaxTotalIterations {
				ended++
			}
		}
		out = append(out, fmt.Sprintf("%d of %d searches ran to the budget of %d iterations (search.max_total_iterations) and were read out there, their last epoch unfinished (search.max_final_iterations = 0).", ended, len(runs), c.Search.MaxTotalIterations))
	}
	if c.Search.Epoch != config.EpochAgitation || c.Search.Reference != config.ReferenceConverged {
		return out
	}
	sizes := c.sizes()
	n := sizes[len(sizes)-1]
	var S, D []float64
	for _, r := range runs {
		if r.Size == n {
			S, D = append(S, float64(len(r.Analysers))), append(D, float64(r.totalDim()))
		}
	}
	total := 0
	for _, d := range truth {
		total += d
	}
	out = append(out, fmt.Sprintf("On the thesis's rule an epoch ends once the responsibilities settle (every agitation < e^-6), 9-74 iterations after a birth at 300 points per cluster, while F goes on rising by hundreds of nats over hundreds of iterations and ARD shrinks the switched-off columns for thousands (README, Chapter 4). Two things follow. Judged against the F before it, a birth is credited with that creep of the whole model, so births are kept that a matched reference rejects (with 3000 iterations and the final model converged but this reference, the median S at 128 points per cluster is 8.5: README). And read out at the end of the budget, the columns ARD is switching off still carry energy above tau, so the dimensionalities read high. At %d points per cluster the median S is %g and the median total dimensionality %g (truth %d and %d). embedded-relaxed.toml, a run of ours, lifts both limits: a matched reference, 3000 iterations and the final model converged.", n, results.Median(S), results.Median(D), len(truth), total))
	return out
}

// thesisClusters is why the criteria of Table 4.1 and Figure 4.4 do not
// apply to c's clusters, or "" for the thesis's (7,4,3,2,2,1) in 10-D.
func thesisClusters(c *EmbeddedConfig) string {
	if !slices.Equal(c.Data.Dims, []int{7, 4, 3, 2, 2, 1}) || c.Data.P != 10 {
		return "the criteria are stated for the thesis's clusters (7,4,3,2,2,1) in 10-D"
	}
	return ""
}

// judgeFigure44 judges Figure 4.4's claim, S = 6 with the true
// dimensionalities at the figure's size (L2763, L2780), over every seed of
// that size (runs); the check names the drawn seed's dimensionalities.
// On clusters other than the thesis's it is not judged.
func judgeFigure44(s *results.Summary, c *EmbeddedConfig, runs []EmbeddedRun, truth []int) {
	cr := embeddedCriteria.Get("fig4.4-dims")
	na := thesisClusters(c)
	switch {
	case na != "":
		s.NotJudged(cr, na)
	case len(runs) == 0:
		s.NotJudged(cr, fmt.Sprintf("not computed: %d points per cluster were not run", c.Data.PointsPerCluster))
	default:
		off := make([]float64, len(runs))
		drawn := ""
		for i, r := range runs {
			off[i] = r.dimsOff(truth)
			if r.WithFigures {
				drawn = fmt.Sprintf("; drawn, seed %d: dims (%s)", r.Seed, joinInts(r.dims()))
			}
		}
		s.JudgeSeeds(cr, off, recovered, fmt.Sprintf("%d points per cluster, %d seeds%s", c.Data.PointsPerCluster, len(runs), drawn))
	}
}

// judgeTable41 judges the criteria of Table 4.1. They are stated for the
// thesis's clusters: on others, or where a size they name was not run,
// they are not judged.
func judgeTable41(s *results.Summary, c *EmbeddedConfig, bySize map[int][]EmbeddedRun, truth []int, medS, medD []float64, statuses []string) {
	crit := embeddedCriteria.Get
	judgeSearches(s, fMonotone, statuses)
	na := thesisClusters(c)
	// ready records why cr is not judged, if it is not.
	ready := func(cr results.Criterion, need int) bool {
		if na != "" {
			s.NotJudged(cr, na)
			return false
		}
		if _, ok := bySize[need]; !ok {
			s.NotJudged(cr, fmt.Sprintf("not computed: %d points per cluster were not run", need))
			return false
		}
		return true
	}
	judge := func(cr results.Criterion, need int, value float64) {
		if ready(cr, need) {
			s.Judge(cr, value)
		}
	}
	for _, n := range []int{300, 128, 64} {
		cr := as(crit("table4.1-recovered").For(fmt.Sprintf("n=%d", n)), fmt.Sprintf("S = 6 and dims = {7,4,3,2,2,1} at %d points per cluster (fraction of seeds; per seed Σ|dims - truth| + |S - 6|)", n))
		if ready(cr, n) {
			off := make([]float64, len(bySize[n]))
			for i, r := range bySize[n] {
				off[i] = r.dimsOff(truth)
			}
			s.JudgeSeeds(cr, off, recovered)
		}
	}
	f := math.NaN()
	if rs := bySize[32]; len(rs) > 0 {
		ok := 0
		for _, r := range rs {
			if len(r.Analysers) == 6 && r.totalDim() >= 15 && r.totalDim() <= 19 {
				ok++
			}
		}
		f = float64(ok) / float64(len(rs))
	}
	judge(crit("table4.1-recovered-32"), 32, f)
	for _, n := range []int{16, 8} {
		judge(crit(fmt.Sprintf("table4.1-median-s-%d", n)), n, s.Metrics[fmt.Sprintf("components_median.n%d", n)])
	}
	sizes := c.sizes()
	judge(crit("table4.1-s-monotone"), sizes[0], float64(falls(medS)))
	judge(crit("table4.1-dims-monotone"), sizes[0], float64(falls(medD)))
}

// PlotEmbedded draws Figure 4.4 from params.csv: a Hinton diagram of each
// analyser's loading matrix (p rows, columns ordered by energy).
func PlotEmbedded(dir string) error {
	t, err := results.ReadCSV(filepath.Join(dir, experiments.ParamsFile))
	if err != nil {
		return err
	}
	cs, err := t.Col("source")
	if err != nil {
		return err
	}
	cr, err := t.Col("run")
	if err != nil {
		return err
	}
	type key struct{ run, source string }
	var keys []key
	seen := map[key]bool{}
	for _, row := range t.Rows {
		k := key{row[cr], row[cs]}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return fmt.Errorf("%s: no loadings to draw", experiments.ParamsFile)
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Or(cmp.Compare(a.run, b.run), cmp.Compare(a.source, b.source)) })
	var panels []*plot.Plot
	for _, k := range keys {
		m, err := experiments.ReadMatrix(t, k.run, k.source, "Lambda")
		if err != nil {
			return err
		}
		p, err := plots.HintonPlot(strings.ReplaceAll(k.source, "_", " "), m)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	cols := min(len(panels), 4)
	rows := (len(panels) + cols - 1) / cols
	f := plots.Figure{Rows: rows, Cols: cols, Panels: panels, Width: vg.Length(cols) * 2.6 * vg.Inch, Height: vg.Length(rows) * 3.2 * vg.Inch,
		Title: fmt.Sprintf("Figure 4.4: posterior mean loadings E[Λ] (rows: data dimensions; columns by energy), %s", keys[0].run)}
	return experiments.SaveFigure(dir, "fig4_4", f)
}

func init() {
	// The thesis's 200 iterations were an experiment of their own,
	// reported without pass/fail; they are now embedded.toml's settings.
	experiments.Retire("chapter4/embedded-faithful", "its budget, the thesis's 200 iterations in total, is now that of chapter4/embedded, configs/chapter4/embedded.toml; the relaxed run of 3000 iterations is configs/chapter4/embedded-relaxed.toml")
	experiments.Add(EmbeddedID, "VBMFA on 6 embedded Gaussian clusters of dims (7,4,3,2,2,1) in 10-D: components and dimensionalities against data size (Table 4.1, Figure 4.4)", DefaultEmbedded, RunEmbedded, PlotEmbedded)
}
