package bnn

// The toy of Lawrence's section 5.5.1 (L2124-2172, Figs 5.3-5.5; targets
// §3): thirty noisy points of h(x) = 0.5 + 0.4 sin 2πx (eq. 5.48), a 1-5-1
// erf network with four weight groups, fitted by the evidence procedure
// (α_g = 0.1, β = 50 at the start; 10 cycles of 500 iterations), then a
// diagonal-Gaussian variational posterior started at the Laplace mean with
// variances 10⁻⁶ and α, β held at the evidence values (500 iterations), a
// mixture of five diagonal Gaussians started from it (1 % noise on the
// means; 10 rounds of 50 iterations on the smoothing distributions and λ,
// 50 on everything but Q(m), then the fixed point of Q(m)), and HMC from
// the mode at the same α, β (300 samples of 100 leapfrog steps of 2×10⁻³,
// no persistence, no burn-in). The text reports one data set; we draw
// seeds of them.

import (
	"fmt"
	"math"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/bnn"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/bnnhmc"
)

// ToyID is the registry key of the toy of Figs 5.3-5.5.
const ToyID = "bnn/toy"

// ToyData is the [data] table: points inputs drawn in equal shares from
// N(centre, spread²) for each centre, targets 0.5 + 0.4 sin 2πx +
// N(0, noise_sd²) (L2126-2128).
type ToyData struct {
	Points  int       `toml:"points" range:"[2,1e5]"`
	Centres []float64 `toml:"centres" range:"[-1e3,1e3] len=1..16"`
	Spread  float64   `toml:"spread" range:"(0,1e3]"`
	NoiseSD float64   `toml:"noise_sd" range:"[0,1e3]"`
}

// ToyEvidence is the [evidence] table: the evidence procedure's start and
// schedule (L2134, bnn.Evidence with scaled conjugate gradients):
// cycles of a MAP fit of at most iterations iterations, each followed by
// the re-estimation of α and β, from inits random starts (the toy's text
// trains one network).
type ToyEvidence struct {
	Alpha      float64 `toml:"alpha" range:"[1e-8,1e8]"`
	Beta       float64 `toml:"beta" range:"[1e-8,1e8]"`
	Cycles     int     `toml:"cycles" range:"[1,1000]"`
	Iterations int     `toml:"iterations" range:"[1,1e5]"`
	Inits      int     `toml:"inits" range:"[1,100]"`
}

// ToyVariational is the [variational] table: the variational posteriors'
// start and schedule (L2136-2140, bnn.VBSettings).
type ToyVariational struct {
	Components       int     `toml:"components" range:"[2,50]"`
	InitVariance     float64 `toml:"init_variance" range:"[1e-12,1e2]"`
	Rounds           int     `toml:"rounds" range:"[1,1000]"`
	WeightIterations int     `toml:"weight_iterations" range:"[1,1e5]"`
	SmoothIterations int     `toml:"smooth_iterations" range:"[1,1e5]"`
	Jitter           float64 `toml:"jitter" range:"[1e-8,1]"`
}

// ToyGrid is the [grid] table: where the predictive distributions are
// evaluated and what counts as away from the data.
type ToyGrid struct {
	// Range and Points are the grid of x of the figures and the checks
	// (ours: the text's axes are not given).
	Range  []float64 `toml:"range" range:"[-1e3,1e3] len=2 increasing"`
	Points int       `toml:"points" range:"[3,1e5]"`
	// Away is the distance from the nearest training input beyond which a
	// grid point is "away from the data" (ours, for Fig. 5.3(d)'s claim).
	Away float64 `toml:"away" range:"(0,1e3]"`
	// Draws is the number of samples of each posterior drawn in Fig. 5.3.
	Draws int `toml:"draws" range:"[0,1000]"`
	// Scale is the y-range of Fig. 5.3(c), outside which the Laplace
	// expectation of eq. 5.49 is "off scale" (ours).
	Scale []float64 `toml:"scale" range:"[-1e3,1e3] len=2 increasing"`
}

// ToyConfig is the config of bnn/toy.
type ToyConfig struct {
	experiments.Common
	// Seeds is the number of data sets drawn, one cell each.
	Seeds       int            `toml:"seeds" range:"[1,1e4]"`
	Hidden      int            `toml:"hidden" range:"[1,100]"`
	Data        ToyData        `toml:"data"`
	Evidence    ToyEvidence    `toml:"evidence"`
	Variational ToyVariational `toml:"variational"`
	HMC         config.HMC     `toml:"hmc"`
	// HMCSamples is the number of HMC transitions kept (all, L2142).
	HMCSamples int `toml:"hmc_samples" range:"[2,1e6]"`
	// HMCCapPriorStep caps each weight's leapfrog step at 1/√α_g of its
	// group (bnn.HMCSettings.CapPriorStep; ours, the text does not say):
	// where the evidence procedure switches a group off (α_g ≥ 10⁶, the
	// output bias on 4 of the 10 data sets) the text's 2×10⁻³ is unstable
	// on that weight and the chain accepts nothing.
	HMCCapPriorStep bool    `toml:"hmc_cap_prior_step"`
	Grid            ToyGrid `toml:"grid"`
}

// DefaultToy returns the text's settings (L2124-2142) and ours for the
// grid.
func DefaultToy() ToyConfig {
	return ToyConfig{
		Common: experiments.Common{Experiment: ToyID, Figures: []string{"lawrence_fig5_3", "lawrence_fig5_4", "lawrence_fig5_5"}, Seed: 53},
		Seeds:  10, Hidden: 5,
		Data:        ToyData{Points: 30, Centres: []float64{0.125, 0.625}, Spread: 0.25, NoiseSD: 0.05},
		Evidence:    ToyEvidence{Alpha: 0.1, Beta: 50, Cycles: 10, Iterations: 500, Inits: 1},
		Variational: ToyVariational{Components: 5, InitVariance: 1e-6, Rounds: 10, WeightIterations: 50, SmoothIterations: 50, Jitter: 0.01},
		HMC:         config.HMC{Leapfrog: 100, Step: 2e-3},
		HMCSamples:  300, HMCCapPriorStep: true,
		Grid: ToyGrid{Range: []float64{-0.5, 1.5}, Points: 101, Away: 0.2, Draws: 10, Scale: []float64{-0.25, 1.25}},
	}
}

// Validate checks what relates keys.
func (c *ToyConfig) Validate() error {
	if c.Data.Points < len(c.Data.Centres) {
		return config.FieldError("data.points", c.Data.Points, fmt.Sprintf("must be at least the %d centres", len(c.Data.Centres)))
	}
	return nil
}

// toyNetOps is the work of one evaluation of the bound and its gradient
// per data point, hidden unit and component, in nanoseconds of one core (a
// 24-node Owen's T and a few exponentials): BenchmarkBound in
// core/model/bnn measures 1.6-2.6 µs on a machine at load 8 on 2 cores,
// so about 800 ns of an idle core.
const toyNetOps = 800

// Estimate counts per cell the evidence cycles, the two variational fits
// (a few evaluations an iteration) and HMC.
func (c *ToyConfig) Estimate() experiments.Cost {
	seeds := experiments.Key("seeds", c.Seeds)
	n := experiments.Key("data.points", c.Data.Points)
	h := experiments.Key("hidden", c.Hidden)
	v := c.Variational
	m := experiments.Key("variational.components", v.Components)
	g := experiments.Key("grid.points", c.Grid.Points)
	return experiments.Cost{
		Cells: []experiments.Factor{seeds},
		Memory: []experiments.Part{
			experiments.Rows("predictive rows", seeds, g, experiments.Fixed(6, "methods")),
			experiments.Rows("component rows", seeds, g, m),
			experiments.Rows("drawn samples", g, experiments.Key("grid.draws", c.Grid.Draws), experiments.Fixed(4, "methods")),
		},
		CellMemory: []experiments.Part{experiments.Words("HMC samples", experiments.Key("hmc_samples", c.HMCSamples), h, experiments.Fixed(4, "weights per unit"))},
		Work: []experiments.Part{
			experiments.Ops("evidence cycles", 60, seeds, experiments.Key("evidence.inits", c.Evidence.Inits), experiments.Key("evidence.cycles", c.Evidence.Cycles), experiments.Key("evidence.iterations", c.Evidence.Iterations), experiments.Fixed(3, "evaluations"), n, h),
			experiments.Ops("diagonal VB", toyNetOps, seeds, experiments.Key("variational.rounds", v.Rounds), experiments.Key("variational.weight_iterations", v.WeightIterations), experiments.Fixed(3, "evaluations"), n, h),
			experiments.Ops("mixture VB", toyNetOps, seeds, experiments.Key("variational.rounds", v.Rounds),
				experiments.Key("variational.weight_iterations", v.WeightIterations).Plus(float64(v.WeightIterations+v.SmoothIterations), "iterations of both stages"), experiments.Fixed(3, "evaluations"), m, n, h),
			experiments.Ops("HMC", 60, seeds, experiments.Key("hmc_samples", c.HMCSamples), experiments.Key("hmc.leapfrog", c.HMC.Leapfrog), n, h),
			experiments.Ops("predictive on the grid", toyNetOps, seeds, g, m, h, experiments.Key("hmc_samples", c.HMCSamples)),
		},
	}
}

// toyDraw returns seed's data set from its own stream.
func (c *ToyConfig) toyDraw(seed int) *bnn.Problem {
	r := rng.New(c.Seed, ToyID, "data", strconv.Itoa(seed))
	d := c.Data
	x := make([][]float64, d.Points)
	t := make([]float64, d.Points)
	for i := range x {
		ctr := d.Centres[i*len(d.Centres)/d.Points]
		xi := ctr + d.Spread*r.NormFloat64()
		x[i] = []float64{xi}
		t[i] = toyH(xi) + d.NoiseSD*r.NormFloat64()
	}
	p, err := bnn.NewProblem(bnn.Arch{In: 1, Hidden: c.Hidden}, x, t)
	if err != nil {
		panic(err) // the shapes are the config's, checked by its ranges
	}
	return p
}

// toyH is eq. 5.48.
func toyH(x float64) float64 { return 0.5 + 0.4*math.Sin(2*math.Pi*x) }

// grid returns the x of the grid.
func (g ToyGrid) grid() []float64 {
	x := make([]float64, g.Points)
	for i := range x {
		x[i] = g.Range[0] + (g.Range[1]-g.Range[0])*float64(i)/float64(g.Points-1)
	}
	return x
}

// ToyCurve is one method's predictive mean and standard deviation of f on
// the grid.
type ToyCurve struct {
	Method string    `json:"method"`
	Mean   []float64 `json:"mean"`
	SD     []float64 `json:"sd"`
}

// ToyCell is one data set's fits and measures.
type ToyCell struct {
	Seed   int       `json:"seed"`
	X      []float64 `json:"x"`
	T      []float64 `json:"t"`
	AlphaG []float64 `json:"alpha_g"`
	Beta   float64   `json:"beta"`
	// NegativeEigen counts the data Hessian's negative eigenvalues at the
	// mode, which bnn.Evidence sets to zero.
	NegativeEigen int                    `json:"negative_eigen"`
	FDiag         float64                `json:"f_diag"`
	FMix          float64                `json:"f_mix"`
	MIBound       float64                `json:"mi_bound"`
	MIMin         float64                `json:"mi_min_overlap"`
	Mixing        []float64              `json:"mixing"`
	HMCAccept     float64                `json:"hmc_accept"`
	Curves        []ToyCurve             `json:"curves"`
	CompMeans     [][]float64            `json:"comp_means"`
	Draws         map[string][][]float64 `json:"draws,omitempty"`
	// The measures of the claims (NaN as experiments.Float).
	// The medians over the grid points away from the data (AwayPoints of
	// them) of Var f under the diagonal posterior and HMC and of the
	// components' spread of ⟨f⟩, and that spread's median near the data
	// (NearPoints); 0 where a region has no point.
	AwayPoints     int               `json:"away_points"`
	NearPoints     int               `json:"near_points"`
	VarAwayDiag    float64           `json:"var_away_diag"`
	VarAwayHMC     float64           `json:"var_away_hmc"`
	SpreadAway     float64           `json:"spread_away"`
	SpreadNear     float64           `json:"spread_near"`
	LaplaceOff     experiments.Float `json:"laplace_off_scale"`
	Fig54Largest   experiments.Float `json:"fig54_largest"`
	Fig54Smallest4 experiments.Float `json:"fig54_smallest4"`
	Fig55QDrop     experiments.Float `json:"fig55_q_drop"`
	Fig55PDrop     experiments.Float `json:"fig55_p_drop"`
	// Fig54 and Fig55 are the curves of Figs 5.4 and 5.5.
	Fig54 []ToyLine `json:"fig54,omitempty"`
	Fig55 []ToyLine `json:"fig55,omitempty"`
}

// ToyLine is one panel of Fig. 5.4 or 5.5: the true log posterior and the
// approximation's log density along a line through weight space,
// against the position t on it.
type ToyLine struct {
	Label  string    `json:"label"`
	T      []float64 `json:"t"`
	True   []float64 `json:"true"`
	Approx []float64 `json:"approx"`
}

// predictive returns a method's mean and sd of f on the grid from a
// function of x.
func predictive(method string, xs []float64, f func(x []float64) (float64, float64)) ToyCurve {
	c := ToyCurve{Method: method, Mean: make([]float64, len(xs)), SD: make([]float64, len(xs))}
	for i, x := range xs {
		m, v := f([]float64{x})
		c.Mean[i], c.SD[i] = m, math.Sqrt(math.Max(v, 0))
	}
	return c
}

// sampleCurve returns the mean and sd of f over weight samples.
func sampleCurve(method string, a bnn.Arch, xs []float64, ws [][]float64) ToyCurve {
	c := ToyCurve{Method: method, Mean: make([]float64, len(xs)), SD: make([]float64, len(xs))}
	for i, x := range xs {
		var s, q float64
		for _, w := range ws {
			f := a.Forward(w, []float64{x}, nil)
			s += f
			q += f * f
		}
		n := float64(len(ws))
		c.Mean[i] = s / n
		c.SD[i] = math.Sqrt(math.Max(q/n-c.Mean[i]*c.Mean[i], 0))
	}
	return c
}

// runToyCell fits every method to seed's data set.
func (c *ToyConfig) runToyCell(seed int) (ToyCell, error) {
	p := c.toyDraw(seed)
	cell := ToyCell{Seed: seed, T: p.T}
	for _, x := range p.X {
		cell.X = append(cell.X, x[0])
	}
	ec := c.Evidence
	lap, err := bnn.Evidence(p, bnn.Grouped, bnn.EvidenceSettings{Alpha0: ec.Alpha, Beta0: ec.Beta, Cycles: ec.Cycles,
		MaxIterations: ec.Iterations, Inits: ec.Inits, Optimiser: bnn.SCG}, rng.New(c.Seed, ToyID, "evidence", strconv.Itoa(seed)))
	if err != nil {
		return cell, err
	}
	cell.AlphaG, cell.Beta, cell.NegativeEigen = lap.Alpha, lap.Beta, lap.NegativeEigen
	xs := c.Grid.grid()
	va := c.Variational
	s := bnn.VBSettings{FixHyper: true, InitAlpha: lap.Alpha, InitBeta: lap.Beta, Mean: lap.W, InitVariance: va.InitVariance,
		Rounds: va.Rounds, WeightIterations: va.WeightIterations, SmoothIterations: va.SmoothIterations, Jitter: va.Jitter}
	diag, err := bnn.FitVB(p, bnn.Grouped, s, nil)
	if err != nil {
		return cell, err
	}
	ms := s
	ms.Components, ms.From = va.Components, diag
	mix, err := bnn.FitVB(p, bnn.Grouped, ms, rng.New(c.Seed, ToyID, "mixture", strconv.Itoa(seed)))
	if err != nil {
		return cell, err
	}
	cell.FDiag, cell.FMix = diag.Bound().F, mix.Bound().F
	cell.MIBound, cell.MIMin = mix.MutualInformation()
	cell.Mixing = mix.Mixing()

	// HMC at the evidence α, β from the mode, without persistence or
	// burn-in (L2142).
	hmc, err := bnnhmc.SampleHMC(p, bnn.Grouped, bnn.HMCSettings{Samples: c.HMCSamples, NoBurn: true, Leapfrog: c.HMC.Leapfrog,
		Step: c.HMC.Step, FullRefresh: true, Alpha: lap.Alpha, Beta: lap.Beta, FixHyper: true, Start: lap.W, Chains: 1, Workers: 1,
		CapPriorStep: c.HMCCapPriorStep},
		rng.New(c.Seed, ToyID, "hmc", strconv.Itoa(seed)))
	if err != nil {
		return cell, err
	}
	samples := hmc.W
	cell.HMCAccept = hmc.AcceptRate
	post, err := bnn.NewPosterior(p, bnn.Grouped, lap.Alpha, lap.Beta)
	if err != nil {
		return cell, err
	}

	// The predictive curves of f (no noise) on the grid.
	mapCurve := predictive("map", xs, func(x []float64) (float64, float64) { return p.Forward(lap.W, x, nil), 0 })
	diagCurve := predictive("vb_diag", xs, diag.PredictF)
	mixCurve := predictive("vb_mix", xs, mix.PredictF)
	hmcCurve := sampleCurve("hmc", p.Arch, xs, samples)
	cell.Curves = []ToyCurve{mapCurve, diagCurve, mixCurve, hmcCurve}
	for m := range mix.Components() {
		row := make([]float64, len(xs))
		for i, x := range xs {
			row[i] = mix.ComponentMean(m, []float64{x})
		}
		cell.CompMeans = append(cell.CompMeans, row)
	}
	le, err := newLaplaceEigen(lap)
	if err != nil {
		return cell, err
	}
	lapCurve := predictive("laplace_eq5_49", xs, func(x []float64) (float64, float64) { return laplaceMean(p.Arch, lap.W, lap.Cov, x), 0 })
	lr := rng.New(c.Seed, ToyID, "laplace", strconv.Itoa(seed))
	lw := make([][]float64, c.HMCSamples)
	for i := range lw {
		lw[i] = make([]float64, p.NumWeights())
		le.sample(lw[i], lr)
	}
	lapCurve.SD = sampleCurve("laplace_samples", p.Arch, xs, lw).SD
	cell.Curves = append(cell.Curves, lapCurve)
	off := 0
	for _, m := range lapCurve.Mean {
		if m < c.Grid.Scale[0] || m > c.Grid.Scale[1] {
			off++
		}
	}
	cell.LaplaceOff = experiments.Float(float64(off) / float64(len(xs)))
	lines, largest, small4 := fig54Lines(post, le)
	cell.Fig54Largest, cell.Fig54Smallest4 = experiments.Float(largest), experiments.Float(small4)
	cell.Fig54 = lines
	if c.Grid.Draws > 0 {
		cell.Draws = map[string][][]float64{"laplace": drawCurves(p.Arch, xs, lw[:min(c.Grid.Draws, len(lw))])}
	}
	// Fig. 5.3(d)'s claim: Var f under the diagonal q against HMC's away
	// from the data; Fig. 5.3(a)'s: the components' spread away against
	// near the data.
	var vd, vh, spAway, spNear []float64
	for i, x := range xs {
		dist := math.Inf(1)
		for _, xn := range cell.X {
			dist = math.Min(dist, math.Abs(x-xn))
		}
		var s, q float64
		for _, row := range cell.CompMeans {
			s += row[i]
			q += row[i] * row[i]
		}
		k := float64(len(cell.CompMeans))
		sp := math.Sqrt(math.Max(q/k-(s/k)*(s/k), 0))
		if dist > c.Grid.Away {
			vd = append(vd, diagCurve.SD[i]*diagCurve.SD[i])
			vh = append(vh, hmcCurve.SD[i]*hmcCurve.SD[i])
			spAway = append(spAway, sp)
		} else {
			spNear = append(spNear, sp)
		}
	}
	cell.AwayPoints, cell.NearPoints = len(vd), len(spNear)
	if len(vd) > 0 {
		cell.VarAwayDiag, cell.VarAwayHMC, cell.SpreadAway = results.Median(vd), results.Median(vh), results.Median(spAway)
	}
	if len(spNear) > 0 {
		cell.SpreadNear = results.Median(spNear)
	}
	lines, qdrop, pdrop := fig55Lines(post, mix, true)
	cell.Fig55, cell.Fig55QDrop, cell.Fig55PDrop = lines, experiments.Float(qdrop), experiments.Float(pdrop)
	if c.Grid.Draws > 0 {
		if cell.Draws == nil {
			cell.Draws = map[string][][]float64{}
		}
		dr := rng.New(c.Seed, ToyID, "draws", strconv.Itoa(seed))
		for _, d := range []struct {
			name string
			q    *bnn.VB
		}{{"vb_diag", diag}, {"vb_mix", mix}} {
			name, q := d.name, d.q
			ws := make([][]float64, c.Grid.Draws)
			for i := range ws {
				ws[i] = make([]float64, p.NumWeights())
				q.Sample(ws[i], dr)
			}
			cell.Draws[name] = drawCurves(p.Arch, xs, ws)
		}
		step := max(1, len(samples)/c.Grid.Draws)
		var hs [][]float64
		for i := 0; i < len(samples) && len(hs) < c.Grid.Draws; i += step {
			hs = append(hs, samples[i])
		}
		cell.Draws["hmc"] = drawCurves(p.Arch, xs, hs)
	}
	return cell, nil
}

// drawCurves returns f(x, w) on the grid for each w.
func drawCurves(a bnn.Arch, xs []float64, ws [][]float64) [][]float64 {
	out := make([][]float64, len(ws))
	for k, w := range ws {
		out[k] = make([]float64, len(xs))
		for i, x := range xs {
			out[k][i] = a.Forward(w, []float64{x}, nil)
		}
	}
	return out
}

// fig55Lines returns, for every pair (i, j) of components, ln q(w) and
// the true ln p(w|D, α, β) + const along w(t) = w̄_i + t(w̄_j − w̄_i),
// t ∈ [−0.5, 1.5] (Fig. 5.5), and the measures: the smallest over pairs of
// the mixture's drop at the midpoint below the lower of its values at the
// two means (no overlap: a large drop), and the median over pairs of the
// true log posterior's drop there (within one mode: a small drop).
func fig55Lines(post *bnn.Posterior, mix *bnn.VB, keep bool) ([]ToyLine, float64, float64) {
	m := mix.Components()
	k := mix.Arch().NumWeights()
	w := make([]float64, k)
	qdrop, pdrops := math.Inf(1), []float64{}
	var lines []ToyLine
	for i := range m {
		mi, _ := mix.Mean(i)
		for j := i + 1; j < m; j++ {
			mj, _ := mix.Mean(j)
			at := func(t float64) (float64, float64) {
				for n := range w {
					w[n] = mi[n] + t*(mj[n]-mi[n])
				}
				return mix.LogQ(w), post.LogDensity(w)
			}
			q0, p0 := at(0)
			q1, p1 := at(1)
			qm, pm := at(0.5)
			qdrop = math.Min(qdrop, math.Min(q0, q1)-qm)
			pdrops = append(pdrops, math.Min(p0, p1)-pm)
			if !keep {
				continue
			}
			ln := ToyLine{Label: fmt.Sprintf("%d-%d", i+1, j+1)}
			for s := 0; s <= 80; s++ {
				t := -0.5 + 0.025*float64(s)
				q, pp := at(t)
				ln.T = append(ln.T, t)
				ln.True = append(ln.True, pp-p0)
				ln.Approx = append(ln.Approx, q-q0)
			}
			lines = append(lines, ln)
		}
	}
	if len(pdrops) == 0 {
		return nil, math.NaN(), math.NaN()
	}
	return lines, qdrop, results.Median(pdrops)
}
