package backfit

// backfit/spiral: D'Souza (2004) Fig. 3.3 (L775, L791–795): a mixture
// grown by local 1-vs-2 splits (Algorithm 2, L771–786; the one-vs-two
// model of section 3.1.1.1 and App. B.2, L2243–2293) on the 3-D shrinking
// spiral, started from 5 components ("settle on a final estimate of 14"),
// with two kinds of component: VB factor analysers (core/model/mfa, the
// components of his section 3.1.3 and of Beal's spiral; targets §4.2 "reuse
// VB-MFA") and full-covariance Gaussians (core/model/gmm, his section
// 3.1.1's Normal-Wishart model). Each is set beside the birth/death search
// of the same model on the same data and the same budget of global
// iterations: Beal's VB-MFA search from one analyser (Beal (2003) section
// 4.5.3: 12–14 analysers) and the Gaussian mixture's births and deaths
// from the split search's start. The Gaussian mixture converged from the
// VB-MFA's final partition says whether the Gaussians' own bound prefers
// their smaller mixtures.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/experiments/datasets"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// SpiralID is D'Souza's Fig. 3.3.
const SpiralID = "backfit/spiral"

func init() {
	experiments.Add(SpiralID, "D'Souza Fig. 3.3: a Gaussian mixture grown by local 1-vs-2 splits on the spiral, beside birth/death searches",
		DefaultSpiral, RunSpiral, PlotSpiral)
}

// The four searches of every seed, as the tables name them.
const (
	searchSplit    = "split-mfa"      // mfa.Splitter from StartComponents analysers
	searchBDMFA    = "birthdeath-mfa" // Beal's VB-MFA search from one analyser
	searchSplitGau = "split-gmm"      // gmm.Splitter from StartComponents Gaussians (the same start)
	searchBDGauss  = "birthdeath-gmm" // gmm.VB's births and deaths from that start
	// searchFromMFA is not a search: one VBEM run of the Gaussian mixture
	// from the partition the VB-MFA search ends at.
	searchFromMFA = "gmm-from-mfa"
)

var spiralSearches = []string{searchSplit, searchBDMFA, searchSplitGau, searchBDGauss}

// SpiralConfig is the config of backfit/spiral.
type SpiralConfig struct {
	experiments.Common
	// Restarts is the number of seeds: new data and new searches each.
	Restarts int `toml:"restarts" range:"[1,1e4]"`
	// StartComponents is K of the split search's (and the Gaussian
	// birth/death search's) start, D'Souza's 5 (L775).
	StartComponents int                   `toml:"start_components" range:"[1,1e3]"`
	Data            datasets.Spiral       `toml:"data"`
	Prior           SpiralPrior           `toml:"prior"`
	Split           SpiralSplit           `toml:"split"`
	MFA             SpiralMFA             `toml:"mfa"`
	Search          config.SearchSettings `toml:"search"`
	VB              config.FitSettings    `toml:"vb"`
}

// SpiralPrior is the [prior] table: the Gaussian mixture's Normal-Wishart
// and Dirichlet prior (D'Souza's μ_m | P_m ~ N(0, (α₀P_m)⁻¹), P_m ~ W(ν,
// R), ζ ~ Beta(u₁, u₂), eq. (3.6); he gives no values), in z-scored units:
// m₀ = 0, β₀ (his α₀), ν₀ (his ν), W₀ = w0_scale·I (his R) and the
// Dirichlet's α₀ (his u₁ = u₂).
type SpiralPrior struct {
	Alpha0  float64 `toml:"alpha0" range:"[1e-6,1e6]"`
	Beta0   float64 `toml:"beta0" range:"[1e-6,1e6]"`
	Nu0     float64 `toml:"nu0" range:"(2,1e6]"`
	W0Scale float64 `toml:"w0_scale" range:"[1e-6,1e6]"`
}

// SpiralSplit is the [split] table: the local test (gmm.SplitSettings).
type SpiralSplit struct {
	// MinPoints is the fewest points a component must own to be tested.
	MinPoints int `toml:"min_points" range:"[2,1e6]"`
	// Margin: split iff F₂ > F₁ + margin (D'Souza's 0).
	Margin float64 `toml:"margin" range:"[-1e3,1e3]"`
}

// SpiralMFA is the [mfa] table: Beal's VB-MFA of chapter4/spiral (k_max
// factors per analyser, the ARD prior Ga(a*, b*)).
type SpiralMFA struct {
	KMax  int     `toml:"k_max" range:"[1,3]"`
	AStar float64 `toml:"a_star" range:"[1e-6,1e6]"`
	BStar float64 `toml:"b_star" range:"[1e-8,1e6]"`
}

// settings returns the VB-MFA's settings of the table (chapter4/spiral's
// model), shared by spiral and localdim.
func (t SpiralMFA) settings() mfa.Settings {
	return mfa.Settings{K: t.KMax, Hyper: mfa.Hyper{A: t.AStar, B: t.BStar}}
}

// DefaultSpiral returns the settings of configs/backfit/spiral.toml.
func DefaultSpiral() SpiralConfig {
	return SpiralConfig{Common: experiments.Common{Seed: 3301}, Restarts: 10, StartComponents: 5,
		Data:  datasets.DefaultSpiral(),
		Prior: SpiralPrior{Alpha0: 1, Beta0: 1, Nu0: 3, W0Scale: 1},
		Split: SpiralSplit{MinPoints: 8},
		MFA:   SpiralMFA{KMax: 2, AStar: mfa.DefaultA, BStar: 0.01},
		Search: config.SearchSettings{MaxTries: 1, Birth: config.BirthSpatial, Children: config.ChildrenPCA,
			Epoch: config.EpochAgitationDF, AgitationTol: mfa.DefaultAgitationTol, DFTolPerDatum: 1e-6, MinEpochIterations: 2,
			DeathThreshold: 1, Death: config.DeathImmediate, Reference: config.ReferenceConverged, MaxTotalIterations: 20000},
		VB: config.FitSettings{MaxIterations: 2000, RelTol: 1e-6, AbsTol: 1e-3, MonotoneTol: 1e-9,
			Hyper: config.ScheduleOf(new(mfa.VB).HyperGroups(), mfa.DefaultSchedule())}}
}

// Validate checks what relates keys.
func (c *SpiralConfig) Validate() error {
	if c.StartComponents > c.Data.N {
		return config.FieldError("start_components", c.StartComponents, fmt.Sprintf("must be at most data.n = %d", c.Data.N))
	}
	return config.FirstError(c.Data.Validate(), c.Search.Validate(), c.VB.Validate("vb", new(mfa.VB).HyperGroups()))
}

// Estimate counts, per seed, the four searches' iterations at the budget
// search.max_total_iterations, each over n points and up to 60
// components, and the split searches' local fits (two a component and
// state, each within [vb] max_iterations over at most n points).
func (c *SpiralConfig) Estimate() experiments.Cost {
	seeds := experiments.Key("restarts", c.Restarts)
	n := experiments.Key("data.n", c.Data.N)
	budget := experiments.Key("search.max_total_iterations", c.Search.MaxTotalIterations)
	comps := experiments.Fixed(60, "components (bound)")
	return experiments.Cost{Cells: []experiments.Factor{seeds},
		Memory:     []experiments.Part{experiments.Words("data", n, experiments.Fixed(3, "dimensions"))},
		CellMemory: []experiments.Part{experiments.Words("responsibilities and snapshots", n, comps, experiments.Fixed(8, "copies"))},
		Work: []experiments.Part{
			experiments.Ops("Gaussian searches", 100, seeds, experiments.Fixed(2, "searches"), budget, n, comps),
			experiments.Ops("VB-MFA searches", 400, seeds, experiments.Fixed(2, "searches"), budget, n, comps),
			experiments.Ops("local 1-vs-2 fits (each on a component's points)", 400, seeds, experiments.Fixed(2, "searches"), comps,
				experiments.Key("vb.max_iterations", c.VB.MaxIterations), n),
		}}
}

// Criteria states the criteria a run of the config judges.
func (c *SpiralConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return spiralCriteria, nil
}

// spiralBand is the band of components judged "about 14" (D'Souza L775).
var spiralBand = [2]int{12, 16}

var spiralCriteria = results.Criteria{
	results.Criterion{ID: "search-status", Text: "searches and fits that ended abnormally (a decrease of F within a VBEM run, a failed fit)", Target: results.Equal(0)}.AsSanity(),
	results.Criterion{ID: "search-never-lowers-f", Text: "searches in which an accepted state's F fell below the one before it", Target: results.Equal(0)}.AsSanity(),
	results.Criterion{ID: "dsouza3.3-grows", Text: "fraction of seeds at which the split search of factor analysers ends above its 5 start components (D'Souza: the model grows)", Target: results.AtLeast(0.8)}.
		AsClaim("\"Starting with an initial set of 5 components, the model grows in complexity\"", "L775"),
	results.Criterion{ID: "dsouza3.3-components", Text: fmt.Sprintf("fraction of seeds at which the split search of factor analysers ends with %d–%d components (D'Souza: 14)", spiralBand[0], spiralBand[1]), Target: results.AtLeast(0.8)}.
		AsClaim("\"… to settle on a final estimate of 14 components\"", "L775"),
	results.Criterion{ID: "spiral-split-beside-birthdeath", Text: "|median analysers of the split search − median of Beal's VB-MFA birth/death search| (targets §4.2: Beal reports 12–14)", Target: results.AtMost(2)}.AsExtension(),
	results.Criterion{ID: "spiral-split-cheaper", Text: "median over seeds of the split search's passes through the data (global iterations, and local ones weighted by their share of the points) over those of Beal's birth/death search (D'Souza: each decision is local and hence efficient, L793)", Target: results.Below(1)}.AsExtension(),
	results.Criterion{ID: "spiral-gmm-split-beside-birthdeath", Text: "|median components of the split search of full Gaussians − median of birth/death on the same Gaussian mixture|", Target: results.AtMost(1)}.AsExtension(),
	results.Criterion{ID: "spiral-gmm-fewer", Text: fmt.Sprintf("fraction of seeds at which full-covariance Gaussians grown by the same rule end below %d components", spiralBand[0]), Target: results.AtLeast(0.8)}.AsExtension(),
	results.Criterion{ID: "spiral-gaussians-prefer-fewer", Text: "median over seeds of F of the Gaussian mixture converged from the VB-MFA's final partition minus F at the Gaussian split search's end (negative: the Gaussians' own bound prefers their smaller mixture)", Target: results.Below(0)}.AsExtension(),
}

// SearchOutcome is one search of one seed.
type SearchOutcome struct {
	K          int               `json:"k"`
	F          experiments.Float `json:"f"`
	Iterations int               `json:"iterations"`
	// LocalIterations are the iterations of a split search's local fits,
	// LocalPointIterations the same weighted by each fit's points.
	LocalIterations      int               `json:"local_iterations"`
	LocalPointIterations int               `json:"local_point_iterations"`
	Accepted             int               `json:"accepted"`
	Rejected             int               `json:"rejected"`
	Status               string            `json:"status"`
	Monotone             bool              `json:"monotone"`
	CPUSeconds           experiments.Float `json:"cpu_seconds"`
	// Trace is F and K of the accepted state after each tried move, the
	// first entry the first converged run's.
	Trace []TracePoint `json:"trace"`
}

// TracePoint is the state of a search after a move.
type TracePoint struct {
	Iteration int               `json:"iteration"`
	F         experiments.Float `json:"f"`
	K         int               `json:"k"`
	Accepted  bool              `json:"accepted"`
}

// SpiralCell is the outcome of one seed: the four searches (in the order
// of spiralSearches), the final components of the two split searches, and
// the Gaussian mixture from the VB-MFA's partition.
type SpiralCell struct {
	Searches []SearchOutcome `json:"searches"`
	// Components are those of the split searches' ends: [0] the factor
	// analysers', [1] the Gaussians'.
	Components [2]Components `json:"components"`
	FromMFA    FromMFA       `json:"from_mfa"`
	// Points are the z-scored data (seed 0 only, for the figure).
	Points []experiments.Float `json:"points,omitempty"`
}

// Components are the components (with at least one point) of a mixture
// in 3-D: means, covariances (3×3 each; E[Λ_k]⁻¹ of a Gaussian,
// E[Λ]E[Λ]ᵀ + Ψ of an analyser) and counts, in z-scored units.
type Components struct {
	Means  []experiments.Float `json:"means"`
	Covs   []experiments.Float `json:"covs"`
	Counts []experiments.Float `json:"counts"`
}

// FromMFA is one VBEM run of the Gaussian mixture from the VB-MFA's final
// responsibilities: K components, Used of them with at least one point.
type FromMFA struct {
	K          int               `json:"k"`
	Used       int               `json:"used"`
	F          experiments.Float `json:"f"`
	Iterations int               `json:"iterations"`
	Status     string            `json:"status"`
	CPUSeconds experiments.Float `json:"cpu_seconds"`
}

// prior returns the Gaussian mixture's prior in d dimensions.
func (p SpiralPrior) prior(d int) gmm.Prior {
	g := gmm.DefaultPrior(d, p.Alpha0)
	g.Beta0, g.Nu0 = p.Beta0, p.Nu0
	for i := range g.W0 {
		g.W0[i] *= p.W0Scale
	}
	return g
}

// timed runs f on a locked OS thread and returns its CPU seconds (NaN
// where the thread's CPU time cannot be read).
func spiralTimed(f func()) float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok0 := results.ThreadCPUSeconds()
	f()
	c1, ok1 := results.ThreadCPUSeconds()
	if !ok0 || !ok1 {
		return math.NaN()
	}
	return c1 - c0
}

// outcome records a finished search of a model whose size is k.
func outcome(res vb.SearchResult, k int, secs float64) SearchOutcome {
	acc, rej := res.MoveCounts()
	o := SearchOutcome{K: k, F: experiments.Float(res.F), Iterations: res.Iterations, Accepted: acc, Rejected: rej,
		Status: res.Status.String(), Monotone: true, CPUSeconds: experiments.Float(secs)}
	f := res.Runs[0].F
	o.Trace = append(o.Trace, TracePoint{Iteration: res.Runs[0].Iterations, F: experiments.Float(f), K: firstSize(res, k)})
	for _, mv := range res.Moves {
		if mv.Accepted {
			if mv.FAfter < f {
				o.Monotone = false
			}
			f = mv.FAfter
		} else if mv.FReference > f {
			f = mv.FReference // a matched reference run converged the unmoved model further
		}
		o.Trace = append(o.Trace, TracePoint{Iteration: mv.Iter + res.Runs[len(o.Trace)].Iterations, F: experiments.Float(f), K: mv.SizeAfter, Accepted: mv.Accepted})
	}
	return o
}

// firstSize returns the size of the model after the first converged run:
// the size before the first move (a move changes it by one), or k.
func firstSize(res vb.SearchResult, k int) int {
	for _, mv := range res.Moves {
		switch {
		case !mv.Accepted:
			return mv.SizeAfter
		case mv.Kind == gmm.MoveDeath || mv.Kind == mfa.MoveDeath:
			return mv.SizeAfter + 1
		default:
			return mv.SizeAfter - 1
		}
	}
	return k
}

// mfaMoves maps the [search] keys to the VB-MFA's move settings (as
// chapter4/spiral does).
func mfaMoves(s config.SearchSettings, rnd *rand.Rand) mfa.MoveSettings {
	ms := mfa.MoveSettings{Rand: rnd, MaxTries: s.MaxTries, DeathThreshold: s.DeathThreshold, Birth: mfa.SpatialSplit}
	if s.Death == config.DeathMove {
		ms.Death = mfa.DeathAsMove
	}
	if s.Birth == config.BirthResponsibility {
		ms.Birth = mfa.ResponsibilitySplit
	}
	if s.Children == config.ChildrenPCA {
		ms.Children = mfa.PCALoadings
	}
	return ms
}

// gmmComponents returns the components of m with at least one point.
func gmmComponents(m *gmm.VB) Components {
	var c Components
	for k, n := range m.Counts(nil) {
		if n < 1 {
			continue
		}
		_, _, mean, _ := m.Component(k)
		c.Means = append(c.Means, experiments.Floats(mean)...)
		c.Covs = append(c.Covs, experiments.Floats(m.Covariance(k, nil))...)
		c.Counts = append(c.Counts, experiments.Float(n))
	}
	return c
}

// mfaComponents returns the analysers of m with at least one point: E[μ]
// and the covariance E[Λ]E[Λ]ᵀ + Ψ of each.
func mfaComponents(m *mfa.VB) Components {
	var c Components
	for s, n := range m.Counts() {
		if n < 1 {
			continue
		}
		mean, cov := analyserMoments(m, s)
		c.Means = append(c.Means, experiments.Floats(mean)...)
		c.Covs = append(c.Covs, experiments.Floats(cov)...)
		c.Counts = append(c.Counts, experiments.Float(n))
	}
	return c
}

// analyserMoments returns E[μ^s] and E[Λ^s]E[Λ^s]ᵀ + Ψ (p×p) of analyser s.
func analyserMoments(m *mfa.VB, s int) (mean, cov []float64) {
	L := m.Loadings(s).MeanTo(nil)
	p, d := L.Dims()
	k := d - 1
	mean, cov = make([]float64, p), make([]float64, p*p)
	for a := range p {
		mean[a] = L.At(a, k)
		for b := range p {
			for l := range k {
				cov[a*p+b] += L.At(a, l) * L.At(b, l)
			}
		}
		cov[a*p+a] += m.Hyper.Psi[a]
	}
	return mean, cov
}

// used returns the number of analysers of m with at least one point.
func used(m *mfa.VB) int {
	var u int
	for _, v := range m.Counts() {
		if v >= 1 {
			u++
		}
	}
	return u
}

// spiralSeed runs the four searches and the fit from the VB-MFA's
// partition on seed i's data.
func spiralSeed(env *experiments.Env, c *SpiralConfig, i int) (SpiralCell, error) {
	var cell SpiralCell
	X, _ := c.Data.Generate(rng.New(c.Seed, c.Experiment, "data", strconv.Itoa(i)))
	z, _, _, err := numeric.Standardise(X, nil, numeric.DropConstant)
	if err != nil {
		return cell, err
	}
	n, d := z.Dims()
	x := slices.Clone(z.RawMatrix().Data)
	p := c.Prior.prior(d)
	tag := strconv.Itoa(i)
	start := func() (*gmm.VB, error) {
		return gmm.NewVBStart(x, d, c.StartComponents, p, gmm.NearestPoints, rng.New(c.Seed, c.Experiment, "start", tag))
	}
	// The Gaussian mixture has no hyperparameters: its runs are [vb]'s
	// without the VB-MFA's schedule. The VB-MFA's local fits update Ψ
	// alone (mfa.SplitSettings).
	gfit, local := c.VB, c.VB
	gfit.Hyper = nil
	local.Hyper = config.HyperSchedule{mfa.HyperPsi: 1}
	fa := c.MFA.settings()
	var res vb.SearchResult

	// D'Souza's local splits of factor analysers, from the start's
	// partition into 5.
	g0, err := start()
	if err != nil {
		return cell, err
	}
	r0 := g0.Responsibilities()
	resp := mat.NewDense(n, c.StartComponents, nil)
	for s := range c.StartComponents {
		for j := range n {
			resp.Set(j, s, r0[s*n+j])
		}
	}
	ms, err := mfa.NewVB(z, resp, fa)
	if err != nil {
		return cell, err
	}
	ms.Moves = mfaMoves(c.Search, nil) // deaths only, inside the E step
	sp := mfa.NewSplitter(ms, mfa.SplitSettings{Run: local.Settings(env.Stop, ms), Rand: rng.New(c.Seed, c.Experiment, "split-births", tag),
		MinPoints: c.Split.MinPoints, Margin: c.Split.Margin})
	secs := spiralTimed(func() { res = c.Search.Search(sp, c.VB.Settings(env.Stop, ms), nil) })
	if res.Status == vb.Canceled {
		return cell, res.Err
	}
	o := outcome(res, used(ms), secs)
	o.LocalIterations, o.LocalPointIterations = sp.LocalIterations, sp.LocalPointIterations
	cell.Searches = append(cell.Searches, o)
	cell.Components[0] = mfaComponents(ms)

	// Beal's VB-MFA birth/death search from one analyser (chapter4/spiral).
	ones := mat.NewDense(n, 1, nil)
	for r := range n {
		ones.Set(r, 0, 1)
	}
	mb, err := mfa.NewVB(z, ones, fa)
	if err != nil {
		return cell, err
	}
	mb.Moves = mfaMoves(c.Search, rng.New(c.Seed, c.Experiment, "births", tag))
	secs = spiralTimed(func() { res = c.Search.Search(mb, c.VB.Settings(env.Stop, mb), nil) })
	if res.Status == vb.Canceled {
		return cell, res.Err
	}
	cell.Searches = append(cell.Searches, outcome(res, used(mb), secs))

	// D'Souza's local splits of full-covariance Gaussians, same start.
	m, err := start()
	if err != nil {
		return cell, err
	}
	split := gmm.NewSplitter(m, gmm.SplitSettings{Run: gfit.Settings(env.Stop, m), MinPoints: c.Split.MinPoints, Margin: c.Split.Margin})
	secs = spiralTimed(func() { res = vb.Search(split, c.Search.Plain(gfit.Settings(env.Stop, m), nil)) })
	if res.Status == vb.Canceled {
		return cell, res.Err
	}
	o = outcome(res, m.K(), secs)
	o.LocalIterations, o.LocalPointIterations = split.LocalIterations, split.LocalPointIterations
	cell.Searches = append(cell.Searches, o)
	cell.Components[1] = gmmComponents(m)

	// Birth and death of the same Gaussian mixture, from the same start.
	g, err := start()
	if err != nil {
		return cell, err
	}
	secs = spiralTimed(func() { res = vb.Search(g, c.Search.Plain(gfit.Settings(env.Stop, g), nil)) })
	if res.Status == vb.Canceled {
		return cell, res.Err
	}
	cell.Searches = append(cell.Searches, outcome(res, g.K(), secs))

	// The Gaussian mixture converged from the partition Beal's search ends
	// at: is F of the Gaussians higher there than where their own
	// searches stop?
	fr := mb.Resp()
	S := fr.RawMatrix().Cols
	from, err := gmm.NewVB(x, d, 1, p, nil)
	if err != nil {
		return cell, err
	}
	if S > 1 {
		if from, err = gmm.NewVB(x, d, S, p, rng.New(c.Seed, c.Experiment, "from-mfa", tag)); err != nil {
			return cell, err
		}
		r := make([]float64, S*n)
		for s := range S {
			for j := range n {
				r[s*n+j] = fr.At(j, s)
			}
		}
		if err := from.SetResponsibilities(r); err != nil {
			return cell, err
		}
	}
	var rr vb.Result
	secs = spiralTimed(func() { rr = vb.Run(from, gfit.Settings(env.Stop, from)) })
	if rr.Status == vb.Canceled {
		return cell, rr.Err
	}
	cell.FromMFA = FromMFA{K: S, F: experiments.Float(rr.F), Iterations: rr.Iterations, Status: rr.Status.String(), CPUSeconds: experiments.Float(secs)}
	for _, v := range from.Counts(nil) {
		if v >= 1 {
			cell.FromMFA.Used++
		}
	}
	if i == 0 {
		cell.Points = experiments.Floats(x)
	}
	return cell, nil
}

// RunSpiral runs the seeds and writes the tables, the summary and the
// figure.
func RunSpiral(env *experiments.Env, c *SpiralConfig) error {
	cells, complete, err := runSeeds(env, c.Restarts, func(i int) (SpiralCell, error) { return spiralSeed(env, c, i) })
	if err != nil || !complete {
		return err
	}
	return writeSpiral(env, c, cells)
}

// runSeeds runs one cell a seed i < restarts, named "seed=i", by
// experiments.RunAllCells (spiral and localdim).
func runSeeds[T any](env *experiments.Env, restarts int, run func(i int) (T, error)) ([]T, bool, error) {
	names := make([]string, restarts)
	for i := range names {
		names[i] = "seed=" + strconv.Itoa(i)
	}
	return experiments.RunAllCells(env, names, nil, run)
}

// searchKey is a search's name in the summary's metric names.
func searchKey(name string) string {
	return map[string]string{searchSplit: "split", searchBDMFA: "birthdeath", searchSplitGau: "split_gmm",
		searchBDGauss: "birthdeath_gmm", searchFromMFA: "gmm_from_mfa"}[name]
}

// writeSpiral writes spiral_searches.csv (one row a seed and search, and
// the fit from the VB-MFA's partition), spiral_trace.csv (F and K after
// every move), spiral_components.csv (the split searches' components of
// seed 0), spiral_points.csv (seed 0's data) and the summary.
func writeSpiral(env *experiments.Env, c *SpiralConfig, cells []SpiralCell) error {
	st := results.NewTable("seed", "search", "k", "f", "iterations", "local_iterations", "local_point_iterations", "accepted", "rejected", "status", "cpu_seconds")
	tr := results.NewTable("seed", "search", "move", "iteration", "f", "k", "accepted")
	ks := map[string][]float64{}
	fs := map[string][]float64{}
	its := map[string][]float64{}
	secs := map[string][]float64{}
	locals := map[string][]float64{}
	ok := func(status string) bool {
		return status == vb.Converged.String() || status == vb.IterationLimit.String()
	}
	var abnormal, lowered, grew, inBand, gmmBelow int
	var ratio, fromGap []float64
	for i, cell := range cells {
		for j, o := range cell.Searches {
			name := spiralSearches[j]
			st.AddRow(i, name, o.K, float64(o.F), o.Iterations, o.LocalIterations, o.LocalPointIterations, o.Accepted, o.Rejected, o.Status, float64(o.CPUSeconds))
			for m, tp := range o.Trace {
				tr.AddRow(i, name, m, tp.Iteration, float64(tp.F), tp.K, tp.Accepted)
			}
			ks[name] = append(ks[name], float64(o.K))
			fs[name] = append(fs[name], float64(o.F))
			its[name] = append(its[name], float64(o.Iterations))
			locals[name] = append(locals[name], float64(o.LocalIterations))
			secs[name] = append(secs[name], float64(o.CPUSeconds))
			if !ok(o.Status) {
				abnormal++
			}
			if !o.Monotone {
				lowered++
			}
		}
		fm := cell.FromMFA
		st.AddRow(i, searchFromMFA, fm.Used, float64(fm.F), fm.Iterations, 0, 0, 0, 0, fm.Status, float64(fm.CPUSeconds))
		if !ok(fm.Status) {
			abnormal++
		}
		ks[searchFromMFA] = append(ks[searchFromMFA], float64(fm.Used))
		fs[searchFromMFA] = append(fs[searchFromMFA], float64(fm.F))
		fromGap = append(fromGap, float64(fm.F)-float64(cell.Searches[2].F))
		k := cell.Searches[0].K
		if k > c.StartComponents {
			grew++
		}
		if k >= spiralBand[0] && k <= spiralBand[1] {
			inBand++
		}
		if cell.Searches[2].K < spiralBand[0] {
			gmmBelow++
		}
		// Passes through the data: a global iteration reads every point, a
		// local one the points of its component.
		sp, bd := cell.Searches[0], cell.Searches[1]
		ratio = append(ratio, (float64(sp.Iterations)+float64(sp.LocalPointIterations)/float64(c.Data.N))/float64(bd.Iterations))
	}
	ct := results.NewTable("search", "component", "mean_x", "mean_y", "mean_z", "cxx", "cxy", "cyy", "count")
	c0 := cells[0]
	for j, name := range []string{searchSplit, searchSplitGau} {
		cp := c0.Components[j]
		for k := range len(cp.Counts) {
			mu, cv := cp.Means[3*k:3*k+3], cp.Covs[9*k:9*k+9]
			ct.AddRow(name, k, float64(mu[0]), float64(mu[1]), float64(mu[2]), float64(cv[0]), float64(cv[1]), float64(cv[4]), float64(cp.Counts[k]))
		}
	}
	pt := results.NewTable("x", "y", "z")
	for r := 0; r+2 < len(c0.Points); r += 3 {
		pt.AddRow(float64(c0.Points[r]), float64(c0.Points[r+1]), float64(c0.Points[r+2]))
	}
	for name, t := range map[string]*results.Table{"spiral_searches.csv": st, "spiral_trace.csv": tr, "spiral_components.csv": ct, "spiral_points.csv": pt} {
		if err := results.WriteCSV(env.Path(name), *t); err != nil {
			return err
		}
	}
	s := results.Summary{Criteria: spiralCriteria}
	med := results.Median
	for _, name := range append(slices.Clone(spiralSearches), searchFromMFA) {
		key := searchKey(name)
		s.SetMetric("spiral_components_"+key, med(ks[name]))
		s.SetMetric("components_min_"+key, slices.Min(ks[name]))
		s.SetMetric("components_max_"+key, slices.Max(ks[name]))
		s.SetMetric("f_median_"+key, med(fs[name]))
		if name != searchFromMFA {
			s.SetMetric("iterations_median_"+key, med(its[name]))
			if name == searchSplit || name == searchSplitGau {
				s.SetMetric("local_iterations_median_"+key, med(locals[name]))
			}
			s.SetMetric("cpu_seconds_median_"+key, med(secs[name]))
		}
	}
	nSeeds := float64(len(cells))
	rangeOf := func(name string) string {
		return fmt.Sprintf("median %g, %g–%g", med(ks[name]), slices.Min(ks[name]), slices.Max(ks[name]))
	}
	s.Judge(spiralCriteria.Get("search-status"), float64(abnormal))
	s.Judge(spiralCriteria.Get("search-never-lowers-f"), float64(lowered))
	s.Judge(spiralCriteria.Get("dsouza3.3-grows"), float64(grew)/nSeeds, fmt.Sprintf("%d of %d seeds", grew, len(cells)))
	s.Judge(spiralCriteria.Get("dsouza3.3-components"), float64(inBand)/nSeeds, fmt.Sprintf("%d of %d seeds; %s", inBand, len(cells), rangeOf(searchSplit)))
	s.Judge(spiralCriteria.Get("spiral-split-beside-birthdeath"), math.Abs(med(ks[searchSplit])-med(ks[searchBDMFA])),
		fmt.Sprintf("split %s; birth/death %s", rangeOf(searchSplit), rangeOf(searchBDMFA)))
	s.Judge(spiralCriteria.Get("spiral-split-cheaper"), med(ratio))
	s.Judge(spiralCriteria.Get("spiral-gmm-split-beside-birthdeath"), math.Abs(med(ks[searchSplitGau])-med(ks[searchBDGauss])),
		fmt.Sprintf("split %s; birth/death %s", rangeOf(searchSplitGau), rangeOf(searchBDGauss)))
	s.Judge(spiralCriteria.Get("spiral-gmm-fewer"), float64(gmmBelow)/nSeeds, fmt.Sprintf("%d of %d seeds; %s", gmmBelow, len(cells), rangeOf(searchSplitGau)))
	s.Judge(spiralCriteria.Get("spiral-gaussians-prefer-fewer"), med(fromGap), fmt.Sprintf("from %s components", rangeOf(searchFromMFA)))
	s.SetMetric("f_gmm_from_mfa_minus_split_gmm_median", med(fromGap))
	s.SetMetric("passes_ratio_split_birthdeath_median", med(ratio))
	s.Claims = []results.Claim{{Artifact: "Figure 3.3", Figures: []string{"dsouza_fig3_3"},
		Checks:    []string{"dsouza3.3-grows", "dsouza3.3-components"},
		Statement: "grown by local 1-vs-2 splits from 5 components, the mixture settles on about 14 components"}}
	s.Findings = append(s.Findings, fmt.Sprintf("components at the end over %d seeds: factor analysers split %s, Beal's birth/death %s; full Gaussians split %s, birth/death %s; the Gaussian mixture from the VB-MFA's partition keeps %s, its F %.1f nats (median) below that of the Gaussian split search's end",
		len(cells), rangeOf(searchSplit), rangeOf(searchBDMFA), rangeOf(searchSplitGau), rangeOf(searchBDGauss), rangeOf(searchFromMFA), -med(fromGap)))
	s.AddFindingsFromChecks(map[string]string{
		"dsouza3.3-components":               "see the full-Gaussian rows: the count depends on the component model",
		"spiral-split-cheaper":               "the local fits' iterations are counted with the global ones",
		"spiral-gmm-split-beside-birthdeath": "the split rule stops where no component's own points favour two Gaussians, births and deaths try every component",
	})
	if err := env.WriteSummary(&s, "D'Souza Fig. 3.3 (L775–795): mixtures grown by local splits on the 3-D spiral, beside birth/death."); err != nil {
		return err
	}
	return PlotSpiral(env.Dir)
}

// PlotSpiral draws dsouza_fig3_3: seed 0's z-scored spiral seen from
// above (x, y) with the final components of (a) the split search of
// factor analysers and (b) that of full Gaussians (2-sd ellipses of the
// (x, y) block of each covariance), and against the moves tried, for each
// search of seed 0, (c) F of the accepted state and (d) the components.
func PlotSpiral(dir string) error {
	pts := results.ReadColumns(filepath.Join(dir, "spiral_points.csv"))
	xs, ys := pts.Floats("x"), pts.Floats("y")
	comp := results.ReadColumns(filepath.Join(dir, "spiral_components.csv"))
	csearch := comp.Strings("search")
	col := map[string][]float64{}
	for _, n := range []string{"mean_x", "mean_y", "cxx", "cxy", "cyy"} {
		col[n] = comp.Floats(n)
	}
	tr := results.ReadColumns(filepath.Join(dir, "spiral_trace.csv"))
	seed, search, move, f, k := tr.Floats("seed"), tr.Strings("search"), tr.Floats("move"), tr.Floats("f"), tr.Floats("k")
	if err := config.FirstError(pts.Err(), comp.Err(), tr.Err()); err != nil {
		return err
	}
	var panels []*plot.Plot
	for j, name := range []string{searchSplit, searchSplitGau} {
		var ells []plots.Ellipse
		for r := range csearch {
			if csearch[r] == name {
				ells = append(ells, plots.Ellipse{X: col["mean_x"][r], Y: col["mean_y"][r], XX: col["cxx"][r], XY: col["cxy"][r], YY: col["cyy"][r], SD: 2})
			}
		}
		what := []string{"factor analysers", "full Gaussians"}[j]
		p, err := plots.ScatterEllipses(plots.Axes{Title: fmt.Sprintf("(%c) split search of %s, seed 0: %d components", 'a'+j, what, len(ells)),
			XLabel: "x (z-scored)", YLabel: "y (z-scored)"}, xs, ys, ells)
		if err != nil {
			return err
		}
		panels = append(panels, p)
	}
	var fser, kser []plots.Series
	for _, name := range spiralSearches {
		var mx, fy, ky []float64
		for r := range seed {
			if seed[r] == 0 && search[r] == name {
				mx, fy, ky = append(mx, move[r]), append(fy, f[r]), append(ky, k[r])
			}
		}
		fser = append(fser, plots.Series{Name: name, X: mx, Y: fy, Points: len(mx) < 40})
		kser = append(kser, plots.Series{Name: name, X: mx, Y: ky, Points: len(mx) < 40})
	}
	fp, _, err := plots.Lines(plots.Axes{Title: "(c) F of the accepted state, seed 0", XLabel: "moves tried", YLabel: "F (nats)"}, fser...)
	if err != nil {
		return err
	}
	kp, _, err := plots.Lines(plots.Axes{Title: "(d) components, seed 0", XLabel: "moves tried", YLabel: "K"}, kser...)
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "dsouza_fig3_3", plots.Figure{Rows: 2, Cols: 2, Panels: append(panels, fp, kp),
		Title: "D'Souza Fig. 3.3: mixtures grown by local splits on the spiral, beside birth/death"})
}
