package vbgmm

// The variational Gaussian mixture of PRML section 10.2 (core/model/gmm):
//
//   - vbgmm/fig10_6: Old Faithful, K = 6, the components kept for α₀ ∈
//     {10⁻³, 1, 10} (PRML L450–466, Fig. 10.6) and the ellipses at several
//     iterations;
//   - vbgmm/fig10_7: F + ln K! against K with many random starts (L530–552,
//     Fig. 10.7), beside AIS and IS estimates of ln p(X | K);
//   - vbgmm/dsouza_fig3_2: D'Souza's 1-vs-2 Gaussian evidence against the
//     separation of two clusters (../shared/seeds/003_a56118dfa4fca769.txt
//     L752–767, Fig. 3.2), with and without ln 2, beside AIS.
//
// This file holds what they share: the [prior] table's Gauss-Wishart
// part, the [ais] and [is] tables, the data, the restarts of a fit and the
// sampled evidence.

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/experiments/datasets"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/is"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

func init() {
	experiments.Add(Fig106ID, "PRML Fig. 10.6: VB mixture of K = 6 Gaussians on Old Faithful, components kept against α₀",
		DefaultFig106, RunFig106, PlotFig106)
	experiments.Add(Fig107ID, "PRML Fig. 10.7: F + ln K! against K on Old Faithful, beside AIS and IS estimates of ln p(X|K)",
		DefaultFig107, RunFig107, PlotFig107)
	experiments.Add(DSouzaID, "D'Souza Fig. 3.2: F of one and two Gaussians against cluster separation, with ln 2 and sampled evidence",
		DefaultDSouza, RunDSouza, PlotDSouza)
}

// Fits is the part of a config that fits mixtures: the random starts of
// each fit and the [vb] table (the [prior] table is each config's, with
// its α₀).
type Fits struct {
	Restarts int                `toml:"restarts" range:"[1,1e6]"`
	VB       config.FitSettings `toml:"vb"`
}

func defaultFits(restarts int) Fits {
	return Fits{Restarts: restarts, VB: config.DefaultFit(1000)}
}

func (f Fits) validate() error { return f.VB.Validate("vb", nil) }

// Evidence is the part of a config that samples ln p(X | K): the [ais]
// table (AIS over the assignments with the collapsed Gibbs sweep and its
// split-merge moves, the reference), the [ais_joint] table (AIS over
// (Z, π, μ, Λ) with the uncollapsed Gibbs sweep, kept as a variant: runs =
// 0 leaves it out) and the [is] table.
type Evidence struct {
	AIS      config.AIS `toml:"ais"`
	AISJoint config.AIS `toml:"ais_joint"`
	IS       ISSettings `toml:"is"`
}

func (e Evidence) validate() error {
	var joint error
	if e.AISJoint.Runs == 1 {
		joint = config.FieldError("ais_joint.runs", e.AISJoint.Runs, "must be 0 (no joint AIS) or at least 2 (a standard error)")
	}
	var runs error
	if e.AIS.Runs < 2 {
		runs = config.FieldError("ais.runs", e.AIS.Runs, "must be at least 2 (a standard error)")
	}
	return config.FirstError(runs, e.AIS.Validate("ais"), joint, e.AISJoint.Validate("ais_joint"))
}

// PriorSettings are the keys of the [prior] table that every config of
// the package has: the Gauss-Wishart prior of PRML (10.40) with m₀ = 0 (the
// data are centred), W₀ = w0_scale·I. PRML leaves β₀, W₀ and ν₀ open
// (targets §2.3). Each config adds its α₀, the concentration of the
// Dirichlet prior of the weights (10.39).
type PriorSettings struct {
	Beta0 float64 `toml:"beta0" range:"(0,1e6]"`
	// Nu0 is ν₀; 0 means D, and ν₀ > D − 1 is required.
	Nu0     float64 `toml:"nu0" range:"[0,1e6]"`
	W0Scale float64 `toml:"w0_scale" range:"[1e-6,1e6]"`
}

// defaultPrior is targets §2.3's suggestion: β₀ = 1, W₀ = I, ν₀ = D.
func defaultPrior() PriorSettings { return PriorSettings{Beta0: 1, W0Scale: 1} }

// prior returns the gmm prior in d dimensions with α₀ = alpha0 and W₀ =
// w0·I (w0 ≤ 0: w0_scale).
func (p PriorSettings) prior(d int, alpha0, w0 float64) (gmm.Prior, error) {
	if w0 <= 0 {
		w0 = p.W0Scale
	}
	q := gmm.DefaultPrior(d, alpha0)
	q.Beta0 = p.Beta0
	if p.Nu0 > 0 {
		q.Nu0 = p.Nu0
	}
	for i := 0; i < d; i++ {
		q.W0[i*d+i] = w0
	}
	if err := q.Validate(); err != nil {
		return q, config.FieldError("prior.nu0", p.Nu0, err.Error())
	}
	return q, nil
}

// ISSettings is the [is] table: importance sampling (runs, samples) with
// the relabelled VB posteriors of up to max_fits distinct optima of the
// restarts.
type ISSettings struct {
	config.IS
	MaxFits int `toml:"max_fits" range:"[1,1e4]"`
}

// defaultAIS returns runs runs of steps steps on the linear schedule
// adapted to 4 pilot runs of 1000 steps in 50 bins, floor 0.05.
func defaultAIS(runs, steps int) config.AIS {
	a := config.AIS{Runs: runs, Steps: steps, AISSchedule: config.DefaultSchedule(config.ScheduleLinear)}
	a.PilotRuns = 4
	return a
}

// retired are the keys moved: α₀ and the W₀ scales into [prior], and the
// AIS schedule's shape, which e_tau = 0 (linear) or tau1 > 0 (geometric)
// implied, is now the key schedule.
var retired = map[string]string{"alpha0": "prior.alpha0", "w0_scales": "prior.w0_scales"}

// RetiredKeys: see retired.
func (*Fig106Config) RetiredKeys() map[string]string { return retired }

// RetiredKeys: see retired.
func (*Fig107Config) RetiredKeys() map[string]string { return retired }

// RetiredKeys: see retired.
func (*DSouzaConfig) RetiredKeys() map[string]string { return retired }

// faithful reads Old Faithful and standardises each column (mean 0,
// variance 1 with divisor N, numeric.Standardisation): PRML's "rescaled"
// data (targets §2.2). It returns the N×2 values row-major and the names
// of the two columns: the file's header (eruptions, waiting for Old
// Faithful), or x1, x2 for a file without one or with a repeated name.
func faithful(env *experiments.Env, file string) ([]float64, [2]string, error) {
	names := [2]string{"x1", "x2"}
	raw, err := env.ReadData(file)
	if err != nil {
		return nil, names, err
	}
	m, header, err := datasets.LoadMatrixCSVHeader(file, raw)
	if err != nil {
		return nil, names, err
	}
	n, d := m.Dims()
	if d != 2 || n < 2 {
		return nil, names, fmt.Errorf("%s: %d columns and %d rows, want the 2 columns of Old Faithful", file, d, n)
	}
	if len(header) == 2 && header[0] != "" && header[1] != "" && header[0] != header[1] {
		names = [2]string{header[0], header[1]}
	}
	_, _, st, err := numeric.Standardise(m, nil, numeric.RefuseConstant)
	if err != nil {
		return nil, names, fmt.Errorf("%s: %w", file, err)
	}
	z, err := st.Apply(m)
	if err != nil {
		return nil, names, fmt.Errorf("%s: %w", file, err)
	}
	return z.RawMatrix().Data, names, nil
}

// Restart is one VB fit from a random start.
type Restart struct {
	F          experiments.Float `json:"f"`
	Iterations int               `json:"iterations"`
	Status     string            `json:"status"`
	Monotone   bool              `json:"monotone"`
}

// fits runs restarts VB fits of k components from the streams
// rng.New(seed, labels…, "restart", r) and returns them with the models
// (in restart order).
func fits(x []float64, d, k int, p gmm.Prior, restarts int, fit config.FitSettings, stop func() error,
	seed uint64, labels ...string) ([]Restart, []*gmm.VB, error) {
	out := make([]Restart, restarts)
	models := make([]*gmm.VB, restarts)
	for r := range out {
		rnd := rng.New(seed, append(slices.Clone(labels), "restart", strconv.Itoa(r))...)
		m, err := gmm.NewVB(x, d, k, p, rnd)
		if err != nil {
			return nil, nil, err
		}
		res := vb.Run(m, fit.Settings(stop, m))
		if res.Status == vb.Canceled {
			return nil, nil, res.Err
		}
		out[r] = Restart{F: experiments.Float(res.F), Iterations: res.Iterations, Status: res.Status.String(),
			Monotone: res.Status != vb.BoundDecreased}
		models[r] = m
	}
	return out, models, nil
}

// best returns the index of the restart with the highest F (−1 if none is
// finite).
func best(rs []Restart) int {
	b, bf := -1, math.Inf(-1)
	for i, r := range rs {
		if f := float64(r.F); f > bf {
			b, bf = i, f
		}
	}
	return b
}

// distinct returns the models of up to max distinct optima among the
// restarts (F differing by more than 10⁻⁶ nats), highest F first.
func distinct(rs []Restart, models []*gmm.VB, max int) []*gmm.VB {
	order := make([]int, len(rs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(float64(rs[b].F), float64(rs[a].F)) })
	var out []*gmm.VB
	var fs []float64
	for _, i := range order {
		f := float64(rs[i].F)
		if math.IsNaN(f) || math.IsInf(f, 0) || slices.ContainsFunc(fs, func(g float64) bool { return math.Abs(g-f) < 1e-6 }) {
			continue
		}
		out, fs = append(out, models[i]), append(fs, f)
		if len(out) == max {
			break
		}
	}
	return out
}

// Sampled is an estimate of ln p(X | K) with its standard error.
type Sampled struct {
	LogZ experiments.Float `json:"log_z"`
	SE   experiments.Float `json:"se"`
	// SELogW (AIS only) is sd(ln w)/√runs (ais.LogWSE), a floor under
	// SE when a few runs carry most of the weight.
	SELogW experiments.Float `json:"se_log_w,omitempty"`
}

// RobustSE is the larger of SE and SELogW.
func (s Sampled) RobustSE() float64 { return max(float64(s.SE), float64(s.SELogW)) }

// aisEvidence pools a.Runs AIS runs from the prior of K components over
// the assignments with the collapsed Gibbs sweep and its split-merge moves
// (gmm.Collapsed; ais.Pool, eq. (6.61) of Beal (2003)); run g draws from
// rng.New(seed, labels…, "ais", g), pilot run g from rng.New(seed,
// labels…, "ais", "pilot", g).
func aisEvidence(x []float64, d, k int, p gmm.Prior, a config.AIS, workers int, seed uint64, labels ...string) (Sampled, error) {
	m, err := gmm.NewCollapsed(x, d, k, p)
	if err != nil {
		return Sampled{}, err
	}
	s := gibbsAIS[*gmm.Assignments](m, func() mcmc.Sweeper[*gmm.Assignments] { return m.NewGibbs() })
	return poolAIS(s, a, workers, seed, append(slices.Clone(labels), "ais"))
}

// aisJointEvidence is aisEvidence over (Z, π, μ, Λ) with the uncollapsed
// Gibbs sweep (gmm.Joint), the variant [ais_joint]; it is (0, 0) when
// a.Runs = 0. Run g draws from rng.New(seed, labels…, "ais_joint", g).
func aisJointEvidence(x []float64, d, k int, p gmm.Prior, a config.AIS, workers int, seed uint64, labels ...string) (Sampled, error) {
	if a.Runs == 0 {
		return Sampled{}, nil
	}
	j, err := gmm.NewJoint(x, d, k, p)
	if err != nil {
		return Sampled{}, err
	}
	s := gibbsAIS[*gmm.State](j, func() mcmc.Sweeper[*gmm.State] { return j.NewGibbs() })
	return poolAIS(s, a, workers, seed, append(slices.Clone(labels), "ais_joint"))
}

// gibbsAIS is the AIS sampler of m with a Gibbs kernel of the sweeps
// newSweeper makes (one per run); poolAIS sets its schedule.
func gibbsAIS[S any](m ais.Model[S], newSweeper func() mcmc.Sweeper[S]) ais.Sampler[S] {
	return ais.Sampler[S]{Model: m, NewKernel: func() mcmc.Kernel[S] { return &mcmc.Gibbs[S]{Target: m, Sweeper: newSweeper()} }}
}

// poolAIS makes a.Runs runs of s (config.Sample: run g from rng.New(seed,
// labels…, g), on a's schedule, adapted to pilot runs from rng.New(seed,
// labels…, "pilot", g) when there are any), and pools them.
func poolAIS[S any](s ais.Sampler[S], a config.AIS, workers int, seed uint64, labels []string) (Sampled, error) {
	runs, _, err := config.Sample(a, s, workers, seed, labels...)
	if err != nil {
		return Sampled{}, err
	}
	lw := ais.LogWeights(runs)
	z, se := ais.Pool(lw)
	return Sampled{LogZ: experiments.Float(z), SE: experiments.Float(se), SELogW: experiments.Float(ais.LogWSE(lw))}, nil
}

// isEvidence estimates ln p(X | K) by importance sampling with the
// relabelled VB posteriors of the fits as the proposal: the mean over
// s.Runs runs of s.Samples samples, and its standard error (is.SampleRuns).
func isEvidence(x []float64, d, k int, p gmm.Prior, fits []*gmm.VB, s ISSettings, workers int, seed uint64, labels ...string) (Sampled, float64, error) {
	q, err := gmm.NewProposal(fits...)
	if err != nil {
		return Sampled{}, 0, err
	}
	t, err := gmm.NewTarget(x, d, k, p)
	if err != nil {
		return Sampled{}, 0, err
	}
	_, sum := is.SampleRuns(s.Runs, s.Samples, workers, is.RunStreams(seed, append(slices.Clone(labels), "is")...),
		func() (is.Proposal, is.Target) { return q.Clone(), t.Clone() })
	return Sampled{LogZ: experiments.Float(sum.Mean), SE: experiments.Float(sum.SE)}, sum.MeanLogW, nil
}

// zScore returns |d|/se, or 0 when |d| ≤ 10⁻⁶ nats (rounding: at K = 1
// AIS over the assignments and IS are exact, with se = 0).
func zScore(d, se float64) float64 {
	if math.Abs(d) <= 1e-6 {
		return 0
	}
	return math.Abs(d) / se
}

// fmtG formats a setting for a metric name or a case: 0.001, 1, 10.
func fmtG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
