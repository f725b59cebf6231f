package backfit

// Bayesian supersmoothing (D'Souza 2004 §3.3, Fig. 3.19, L1054-1227 of
// ../shared/seeds/003_a56118dfa4fca769.txt; targets §4.1, §4.2, §4.3):
// core/model/supersmooth fitted at a grid of queries on three data sets,
// beside locally weighted regression with one Gaussian bandwidth chosen by
// leave-one-out CV (L1201, L1205). (a) The text's function
// y = x − sin³(2πx³)cos(2πx³)exp(x⁴) with noise of sd 0.1 (L1203-1205), (b) a
// sparse step with a linear trail-off and a noisy section (the text gives
// no formula, L1207: ours is stated in StepSet), (c) Old Faithful
// (L1209), the waiting time to the next eruption predicted from the
// eruption's duration. Several noise draws of (a) and (b); every claim is
// judged over all of them.

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/supersmooth"
	"github.com/vbworkbench/vbw/core/parallel"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/experiments/datasets"
	"github.com/vbworkbench/vbw/results"
)

// SupersmoothID is the registry key of Fig. 3.19.
const SupersmoothID = "backfit/supersmooth"

// SmoothPrior is the [prior] table: the hyperparameters of eqs. 3.18-3.22
// and the kernel of eq. 3.35 (the text's values, L1195, L1199).
type SmoothPrior struct {
	AH0        float64   `toml:"a_h0" range:"[1e-8,1e8]"`
	BH0        float64   `toml:"b_h0" range:"[1e-12,1e8]"`
	A0         float64   `toml:"a0" range:"[1e-6,1e8]"`
	N0         float64   `toml:"n0" range:"[1e-6,1e8]"`
	Sigma20    float64   `toml:"sigma2_0" range:"[1e-12,1e12]"`
	Beta0      []float64 `toml:"beta0" range:"[-1e12,1e12] len=2"`
	SigmaBeta0 float64   `toml:"sigma_beta0" range:"[1e-12,1e12]"`
	S          float64   `toml:"s" range:"[1e-12,1e12]"`
	P          float64   `toml:"p" range:"[0.5,16]"`
}

// model returns the prior as the model package takes it.
func (p SmoothPrior) model() supersmooth.Prior {
	return supersmooth.Prior{AH0: p.AH0, BH0: p.BH0, A0: p.A0, N0: p.N0, Sigma20: p.Sigma20,
		Beta0: [2]float64{p.Beta0[0], p.Beta0[1]}, SigmaBeta0: p.SigmaBeta0, S: p.S, P: p.P}
}

// WigglySet is the [wiggly] table, data set (a): points inputs uniform on
// interval, y = x − sin³(2πx³)cos(2πx³)exp(x⁴) + N(0, noise_sd²) (L1203-1205).
// The text states the noise only; N and the interval are ours (on (0, 1)
// the high-frequency part is "at the right of the plot", L1205).
type WigglySet struct {
	Points   int       `toml:"points" range:"[10,1e5]"`
	Interval []float64 `toml:"interval" range:"[-3,3] len=2 increasing"`
	NoiseSD  float64   `toml:"noise_sd" range:"[0,1e3]"`
	// SmoothBelow splits the interval into the slowly varying part
	// x < smooth_below, where the text says LWR overfits, and the
	// oscillating rest.
	SmoothBelow float64 `toml:"smooth_below" range:"[-3,3]"`
}

// StepSet is the [step] table, data set (b), ours (the text gives only "an
// initial step function with a linear trail-off, and a suddenly noisy
// section", L1207): points inputs uniform on (0, 1); f = 0 below step_at,
// 1 at step_at falling linearly to 0 at ramp_end, 0 after; noise sd
// noise_sd below noisy_from and noisy_sd from it on.
type StepSet struct {
	Points    int     `toml:"points" range:"[10,1e5]"`
	StepAt    float64 `toml:"step_at" range:"(0,1)"`
	RampEnd   float64 `toml:"ramp_end" range:"(0,1)"`
	NoiseSD   float64 `toml:"noise_sd" range:"[0,1e3]"`
	NoisyFrom float64 `toml:"noisy_from" range:"(0,1)"`
	NoisySD   float64 `toml:"noisy_sd" range:"[0,1e3]"`
	// CornerWindow is the half-width of the windows around step_at and
	// ramp_end in which the corners are judged.
	CornerWindow float64 `toml:"corner_window" range:"(0,0.5]"`
}

// FaithfulSet is the [faithful] table, data set (c): the input and target
// columns of the file (the text does not say which it predicts; ours: the
// waiting time from the eruption's duration, in minutes as recorded).
type FaithfulSet struct {
	Data   string `toml:"data" range:"len=1.."`
	Input  string `toml:"input" range:"len=1.."`
	Target string `toml:"target" range:"len=1.."`
}

// LWRSettings is the [lwr] table: the grid of the global bandwidth searched
// by leave-one-out CV, log-spaced, in units of 1/R² for R the data's input
// range (so the same grid serves every data set).
type LWRSettings struct {
	Bandwidths int       `toml:"bandwidths" range:"[2,1e4]"`
	HRange     []float64 `toml:"h_range" range:"[1e-8,1e12] len=2 increasing"`
}

// SupersmoothConfig is the config of backfit/supersmooth.
type SupersmoothConfig struct {
	experiments.Common
	// Seeds is the number of noise draws of (a) and (b), one cell each.
	Seeds int `toml:"seeds" range:"[1,1e4]"`
	// Queries is the number of equally spaced queries across each data
	// set's input range, at which both smoothers are drawn and judged.
	Queries int `toml:"queries" range:"[3,1e5]"`
	// NarrowStarts are the E[h] of further starts of VB at the queries of
	// the oscillating part of (a), in units of R^-p (R the input range):
	// does the bound have a narrow-kernel solution there above the one
	// found from the prior's start? (an extension of ours).
	NarrowStarts []float64          `toml:"narrow_starts" range:"[1e-6,1e12] len=0..8 increasing"`
	Prior        SmoothPrior        `toml:"prior"`
	Wiggly       WigglySet          `toml:"wiggly"`
	Step         StepSet            `toml:"step"`
	Faithful     FaithfulSet        `toml:"faithful"`
	LWR          LWRSettings        `toml:"lwr"`
	VB           config.FitSettings `toml:"vb"`
}

// DefaultSupersmooth returns the text's priors with our data settings.
func DefaultSupersmooth() SupersmoothConfig {
	t := supersmooth.TextPrior()
	return SupersmoothConfig{
		Common: experiments.Common{Experiment: SupersmoothID, Figures: []string{"dsouza-fig3.19"}, Seed: 319},
		Seeds:  10, Queries: 100, NarrowStarts: []float64{1e4, 1e6, 1e8},
		Prior: SmoothPrior{AH0: t.AH0, BH0: t.BH0, A0: t.A0, N0: t.N0, Sigma20: t.Sigma20, Beta0: []float64{0, 0},
			SigmaBeta0: t.SigmaBeta0, S: t.S, P: t.P},
		Wiggly:   WigglySet{Points: 500, Interval: []float64{0, 1}, NoiseSD: 0.1, SmoothBelow: 0.5},
		Step:     StepSet{Points: 60, StepAt: 0.2, RampEnd: 0.7, NoiseSD: 0.03, NoisyFrom: 0.7, NoisySD: 0.3, CornerWindow: 0.05},
		Faithful: FaithfulSet{Data: "faithful.csv", Input: "eruptions", Target: "waiting"},
		LWR:      LWRSettings{Bandwidths: 61, HRange: []float64{1, 1e6}},
		VB:       config.FitSettings{MaxIterations: 5000, AbsTol: 1e-6, MonotoneTol: 1e-9},
	}
}

// Validate checks what relates keys.
func (c *SupersmoothConfig) Validate() error {
	w, s := c.Wiggly, c.Step
	var errs []error
	if !(w.SmoothBelow > w.Interval[0] && w.SmoothBelow < w.Interval[1]) {
		errs = append(errs, config.FieldError("wiggly.smooth_below", w.SmoothBelow, fmt.Sprintf("must lie inside wiggly.interval %v", w.Interval)))
	}
	if !(s.RampEnd > s.StepAt) {
		errs = append(errs, config.FieldError("step.ramp_end", s.RampEnd, fmt.Sprintf("must exceed step.step_at = %g", s.StepAt)))
	}
	if c.Faithful.Input == c.Faithful.Target {
		errs = append(errs, config.FieldError("faithful.target", c.Faithful.Target, "must differ from faithful.input"))
	}
	errs = append(errs, c.VB.Validate("vb", nil))
	return config.FirstError(errs...)
}

// smoothOps is the work of one VB iteration per data point, in
// nanoseconds of one core: two passes of a few multiply-adds and about four
// logarithms or exponentials (eqs. 3.25-3.27, 3.37 and the bound);
// BenchmarkIteration of core/model/supersmooth measures it.
const smoothOps = 100

// Estimate counts, per cell, VB at every query to the iteration cap over
// the data, and the LWR bandwidth search (every bandwidth a fit at each
// data point over the data); Old Faithful adds its leave-one-out fits at
// every data point.
func (c *SupersmoothConfig) Estimate() experiments.Cost {
	seeds := experiments.Key("seeds", c.Seeds)
	q := experiments.Key("queries", c.Queries)
	it := experiments.Key("vb.max_iterations", c.VB.MaxIterations)
	nw, ns := experiments.Key("wiggly.points", c.Wiggly.Points), experiments.Key("step.points", c.Step.Points)
	nf := experiments.DataRows("faithful.data", c.Faithful.Data, "eruptions")
	bw := experiments.Key("lwr.bandwidths", c.LWR.Bandwidths)
	return experiments.Cost{
		Cells: []experiments.Factor{seeds.Plus(float64(c.Seeds)+1, "noise draws of (a) and (b), and Old Faithful")},
		Memory: []experiments.Part{
			experiments.Rows("supersmooth_fits.csv rows", seeds, q, experiments.Fixed(2, "data sets")),
			experiments.Rows("supersmooth_data.csv rows", seeds, nw.Plus(float64(c.Step.Points), "points of (a) and (b)")),
			experiments.Rows("Old Faithful rows", nf, experiments.Fixed(2, "tables")),
		},
		CellMemory: []experiments.Part{experiments.Words("data and one fit's state per query", q, nw.Plus(float64(c.Step.Points), "points of (a) and (b)"), experiments.Fixed(8, "values per point"))},
		Work: []experiments.Part{
			experiments.Ops("VB at the queries of (a), and from narrow_starts", smoothOps, seeds, q,
				experiments.KeyN("narrow_starts", c.NarrowStarts, float64(len(c.NarrowStarts)+1), "starts"), it, nw),
			experiments.Ops("VB at the queries of (b)", smoothOps, seeds, q, it, ns),
			experiments.Ops("VB at the queries and leave-one-out fits of Old Faithful", smoothOps, nf.Plus(float64(c.Queries), "data points + queries"), it, nf),
			experiments.Ops("LWR bandwidth search", 20, seeds, bw, nw, nw),
			experiments.Ops("LWR bandwidth search (b)", 20, seeds, bw, ns, ns),
			experiments.Ops("LWR bandwidth search (c)", 20, bw, nf, nf),
		},
	}
}

// The data sets, in the order of Fig. 3.19's panels.
const (
	setWiggly   = "wiggly"
	setStep     = "step"
	setFaithful = "faithful"
)

// supersmoothCriteria are the criteria of backfit/supersmooth. Claims of
// the text (L1201-1211), each judged over every noise draw (the fraction
// on which it holds against a threshold of ours, 0.8); the runs' ends and
// the LWR baseline's own correctness, sanity.
var supersmoothCriteria = results.Criteria{
	results.Criterion{ID: "f-monotone", Text: "VB fits not ending normally (the bound decreased, failed, not finite)", Target: results.Equal(0)}.AsSanity(),
	results.Criterion{ID: "lwr-loo-closed-form", Text: "largest relative difference of LWR's closed-form leave-one-out error from N refits, at the chosen bandwidth", Target: results.AtMost(1e-9)}.AsSanity(),
	results.Criterion{ID: "lwr-h-inside-grid", Text: "fraction of data sets whose LWR bandwidth lies strictly inside the searched grid", Target: results.AtLeast(1)}.AsSanity(),
	results.Criterion{ID: "fig3.19-h-orders", Text: "fraction of data sets (every draw of (a), (b), and Old Faithful) whose E[h] spans at least two orders of magnitude across the queries (max/min >= 100)", Target: results.AtLeast(0.8)}.
		AsClaim("\"Bayesian supersmoothing adjusts the bandwidth in all examples over orders of magnitude\"", "L1211"),
	results.Criterion{ID: "fig3.19a-h-follows-curvature", Text: "fraction of draws of (a) whose median E[h] in the oscillating part exceeds that in the smooth part (a narrower kernel where f varies faster)", Target: results.AtLeast(0.8)}.
		AsClaim("\"Bayesian supersmoothing correctly adjusts the bandwidth h with the curvature of the function\"", "L1205"),
	results.Criterion{ID: "fig3.19a-lwr-overfits-smooth", Text: "fraction of draws of (a) on which the supersmoother's RMSE against the true f in the smooth part is at most LWR's", Target: results.AtLeast(0.8)}.
		AsClaim("\"LWR overfits the data in low-frequency areas in order to accommodate the high-frequency region\"", "L1205"),
	results.Criterion{ID: "fig3.19a-no-underfit", Text: "fraction of draws of (a) on which the supersmoother's RMSE against f in the oscillating part is at most 1.25 times LWR's", Target: results.AtLeast(0.8)}.
		AsClaim("the supersmoother \"does not display any overfitting or underfitting trends\"", "L1205"),
	results.Criterion{ID: "fig3.19b-corners", Text: "fraction of draws of (b) on which the supersmoother's RMSE against f within corner_window of the step and of the ramp's end is at most LWR's", Target: results.AtLeast(0.8)}.
		AsClaim("\"it manages to chisel out the corners of the step function more accurately\" than LWR", "L1207"),
	results.Criterion{ID: "fig3.19b-noisy", Text: "fraction of draws of (b) on which the supersmoother's RMSE against f in the noisy section is at most LWR's", Target: results.AtLeast(0.8)}.
		AsClaim("\"while properly smoothing out the noisy regions\"", "L1207"),
	results.Criterion{ID: "fig3.19a-rougher-lwr", Text: "fraction of draws of (a) on which, in the smooth part, the total variation of LWR's curve over the queries departs from the true f's by more than the supersmoother's (overfitting as wiggliness)", Target: results.AtLeast(0.8)}.AsExtension(),
	results.Criterion{ID: "fig3.19a-global-best", Text: "fraction of the queries of the oscillating part of (a), over every draw, whose highest-F̃ fit over the prior's start and narrow_starts is a nearly global line (E[h]·R^p < 1)", Target: results.AtLeast(0.8)}.AsExtension(),
	results.Criterion{ID: "fig3.19c-comparable", Text: "supersmoother's leave-one-out MSE on Old Faithful over LWR's at its LOO-chosen bandwidth (comparable: at most 1.2)", Target: results.AtMost(1.2)}.
		AsClaim("\"The fitting results are comparable to LWR\"", "L1209"),
}

// Criteria states the criteria a run of the config judges.
func (c *SupersmoothConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return supersmoothCriteria, nil
}

// SmoothQuery is both smoothers at one query.
type SmoothQuery struct {
	X          float64           `json:"x"`
	Truth      experiments.Float `json:"truth"` // the true f (NaN for Old Faithful)
	Mean       float64           `json:"mean"`  // the supersmoother's E[β₀]
	Variance   experiments.Float `json:"variance"`
	EH         float64           `json:"eh"`
	Sigma2     float64           `json:"sigma2"`
	LWR        experiments.Float `json:"lwr"` // NaN where LWR's design is singular
	F          float64           `json:"f"`   // the converged bound F̃
	Iterations int               `json:"iterations"`
	Status     string            `json:"status"`
	// BestF and BestEH are F̃ and E[h] of the best of the fit above and
	// those from narrow_starts (the oscillating part of (a) only).
	BestF  experiments.Float `json:"best_f"`
	BestEH experiments.Float `json:"best_eh"`
}

// SmoothCell is one data set: its points, the queries, LWR's bandwidth and
// its check, and (Old Faithful) the leave-one-out errors.
type SmoothCell struct {
	Set     string        `json:"set"`
	Seed    int           `json:"seed"`
	X       []float64     `json:"x"`
	Y       []float64     `json:"y"`
	Queries []SmoothQuery `json:"queries"`
	LWRH    float64       `json:"lwr_h"`
	LWRLOO  float64       `json:"lwr_loo"`
	// LOODiff is |closed-form − refit LOO|/refit LOO at LWRH.
	LOODiff float64 `json:"loo_diff"`
	// HInside is whether LWRH lies strictly inside the grid.
	HInside bool `json:"h_inside"`
	// SmoothLOO is the supersmoother's leave-one-out MSE (Old Faithful).
	SmoothLOO experiments.Float `json:"smooth_loo"`
	// BadFits counts VB fits that did not end normally.
	BadFits int `json:"bad_fits"`
}

// wigglyF is the function of L1203-1205.
func wigglyF(x float64) float64 {
	a := 2 * math.Pi * x * x * x
	s := math.Sin(a)
	return x - s*s*s*math.Cos(a)*math.Exp(x*x*x*x)
}

// stepF is the function of StepSet.
func (s StepSet) f(x float64) float64 {
	switch {
	case x < s.StepAt:
		return 0
	case x < s.RampEnd:
		return 1 - (x-s.StepAt)/(s.RampEnd-s.StepAt)
	}
	return 0
}

// draw returns the points of a synthetic set from its own stream.
func (c *SupersmoothConfig) draw(set string, seed int) (truth func(float64) float64, xs, ys []float64) {
	rnd := rng.New(c.Seed, SupersmoothID, set, strconv.Itoa(seed))
	switch set {
	case setWiggly:
		w := c.Wiggly
		xs, ys = make([]float64, w.Points), make([]float64, w.Points)
		for i := range xs {
			xs[i] = w.Interval[0] + (w.Interval[1]-w.Interval[0])*rnd.Float64()
			ys[i] = wigglyF(xs[i]) + w.NoiseSD*rnd.NormFloat64()
		}
		return wigglyF, xs, ys
	default:
		s := c.Step
		xs, ys = make([]float64, s.Points), make([]float64, s.Points)
		for i := range xs {
			xs[i] = rnd.Float64()
			sd := s.NoiseSD
			if xs[i] >= s.NoisyFrom {
				sd = s.NoisySD
			}
			ys[i] = s.f(xs[i]) + sd*rnd.NormFloat64()
		}
		return s.f, xs, ys
	}
}

// readFaithful returns the input and target columns of the [faithful] file.
func (c *SupersmoothConfig) readFaithful(env *experiments.Env) (x, y []float64, err error) {
	f := c.Faithful
	raw, err := env.ReadData(f.Data)
	if err != nil {
		return nil, nil, err
	}
	m, header, err := datasets.LoadMatrixCSVHeader(f.Data, raw)
	if err != nil {
		return nil, nil, err
	}
	ix, iy := slices.Index(header, f.Input), slices.Index(header, f.Target)
	if ix < 0 {
		return nil, nil, config.FieldError("faithful.input", f.Input, fmt.Sprintf("must name a column of %s, whose header has %q", f.Data, header))
	}
	if iy < 0 {
		return nil, nil, config.FieldError("faithful.target", f.Target, fmt.Sprintf("must name a column of %s, whose header has %q", f.Data, header))
	}
	n, _ := m.Dims()
	if n < 10 {
		return nil, nil, config.FieldError("faithful.data", f.Data, fmt.Sprintf("has %d rows, want at least 10", n))
	}
	x, y = make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = m.At(i, ix), m.At(i, iy)
	}
	if slices.Min(x) == slices.Max(x) {
		return nil, nil, config.FieldError("faithful.input", f.Input, fmt.Sprintf("names a constant column of %s", f.Data))
	}
	return x, y, nil
}

// runSmoothCell fits both smoothers to one data set (truth nil for Old
// Faithful, which adds the leave-one-out fits).
func (c *SupersmoothConfig) runSmoothCell(set string, seed int, x, y []float64, truth func(float64) float64, workers int, stop func() error) (SmoothCell, error) {
	cell := SmoothCell{Set: set, Seed: seed, X: x, Y: y, SmoothLOO: experiments.Float(math.NaN())}
	lo, hi := slices.Min(x), slices.Max(x)
	r2 := (hi - lo) * (hi - lo)
	grid := supersmooth.LogGrid(c.LWR.HRange[0]/r2, c.LWR.HRange[1]/r2, c.LWR.Bandwidths)
	lwr, err := supersmooth.NewLWR(x, y)
	if err != nil {
		return cell, err
	}
	h, loo, err := lwr.SelectBandwidth(grid)
	if err != nil {
		return cell, config.FieldError("lwr.h_range", c.LWR.HRange, fmt.Sprintf("gives no finite leave-one-out error on data set %s, draw %d: every bandwidth leaves a local fit undetermined", set, seed))
	}
	k := slices.Index(grid, h)
	cell.LWRH, cell.LWRLOO, cell.HInside = h, loo[k], k > 0 && k < len(grid)-1
	brute := lwr.LOOBrute(h)
	cell.LOODiff = math.Abs(cell.LWRLOO-brute) / brute
	queries := make([]float64, c.Queries)
	for j := range queries {
		queries[j] = lo + (hi-lo)*float64(j)/float64(c.Queries-1)
	}
	run := c.VB.Settings(stop, nil)
	prior := c.Prior.model()
	fits, err := supersmooth.Smooth(x, y, queries, false, prior, supersmooth.Settings{}, run, workers)
	if err != nil {
		return cell, err
	}
	for j, f := range fits {
		q := SmoothQuery{X: f.Query, Truth: experiments.Float(math.NaN()), Mean: f.Mean, Variance: experiments.Float(f.Variance),
			EH: f.EH, Sigma2: f.Sigma2, LWR: experiments.Float(math.NaN()), F: f.F, Iterations: f.Iterations, Status: f.Status.String(),
			BestF: experiments.Float(math.NaN()), BestEH: experiments.Float(math.NaN())}
		if truth != nil {
			q.Truth = experiments.Float(truth(f.Query))
		}
		if p, err := lwr.Predict(queries[j], h); err == nil {
			q.LWR = experiments.Float(p)
		}
		if !f.Status.OK() {
			cell.BadFits++
		}
		cell.Queries = append(cell.Queries, q)
	}
	if set == setWiggly && len(c.NarrowStarts) > 0 {
		if err := c.narrowStarts(&cell, x, y, run, workers); err != nil {
			return cell, err
		}
	}
	if truth == nil {
		fits, err := supersmooth.Smooth(x, y, x, true, prior, supersmooth.Settings{}, run, workers)
		if err != nil {
			return cell, err
		}
		s := 0.0
		for i, f := range fits {
			if !f.Status.OK() {
				cell.BadFits++
			}
			s += (y[i] - f.Mean) * (y[i] - f.Mean)
		}
		cell.SmoothLOO = experiments.Float(s / float64(len(x)))
	}
	return cell, nil
}

// narrowStarts refits VB at the queries of the oscillating part of (a)
// from each start of narrow_starts and keeps, per query, the fit of the
// highest F̃ (the prior's start included).
func (c *SupersmoothConfig) narrowStarts(cell *SmoothCell, x, y []float64, run vb.Settings, workers int) error {
	var idx []int
	for j, q := range cell.Queries {
		if st, _ := vb.ParseStatus(q.Status); q.X >= c.Wiggly.SmoothBelow && st.OK() {
			idx = append(idx, j)
			cell.Queries[j].BestF, cell.Queries[j].BestEH = experiments.Float(q.F), experiments.Float(q.EH)
		}
	}
	scale := math.Pow(slices.Max(x)-slices.Min(x), -c.Prior.P)
	prior := c.Prior.model()
	for _, h0 := range c.NarrowStarts {
		fits := make([]supersmooth.Fit, len(idx))
		err := parallel.ForErr(len(idx), workers, func(k int) error {
			var err error
			fits[k], err = supersmooth.FitQuery(x, y, cell.Queries[idx[k]].X, -1, prior, supersmooth.Settings{InitH: h0 * scale}, run)
			return err
		})
		if err != nil {
			return err
		}
		for k, f := range fits {
			q := &cell.Queries[idx[k]]
			if f.Status.OK() && f.F > float64(q.BestF) {
				q.BestF, q.BestEH = experiments.Float(f.F), experiments.Float(f.EH)
			}
		}
	}
	return nil
}

// RunSupersmooth fits every data set and writes supersmooth_fits.csv,
// supersmooth_data.csv, supersmooth_sets.csv and summary.json.
func RunSupersmooth(env *experiments.Env, c *SupersmoothConfig) error {
	fx, fy, err := c.readFaithful(env)
	if err != nil {
		return err
	}
	type job struct {
		set  string
		seed int
	}
	var jobs []job
	var names []string
	for _, set := range []string{setWiggly, setStep} {
		for s := 0; s < c.Seeds; s++ {
			jobs = append(jobs, job{set, s})
			names = append(names, fmt.Sprintf("%s-s%03d", set, s))
		}
	}
	jobs, names = append(jobs, job{setFaithful, 0}), append(names, setFaithful)
	workers := env.CellWorkers(len(jobs))
	cells, complete, err := experiments.RunAllCells(env, names, nil, func(i int) (SmoothCell, error) {
		j := jobs[i]
		if j.set == setFaithful {
			return c.runSmoothCell(j.set, 0, fx, fy, nil, workers, env.Stop)
		}
		truth, x, y := c.draw(j.set, j.seed)
		return c.runSmoothCell(j.set, j.seed, x, y, truth, workers, env.Stop)
	})
	if err != nil || !complete {
		return err
	}
	return c.summarise(env, cells, names)
}
