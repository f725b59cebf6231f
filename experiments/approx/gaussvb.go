package approx

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// UnivariateConfig is the config of approx/univariate-gaussian.
type UnivariateConfig struct {
	experiments.Common
	// N data drawn from N(TrueMean, 1/TruePrecision) with the config's seed.
	N             int     `toml:"n" range:"[2,1e7]"`
	TrueMean      float64 `toml:"true_mean" range:"[-1e6,1e6]"`
	TruePrecision float64 `toml:"true_precision" range:"[1e-6,1e6]"`
	// Prior is the Normal–Gamma prior (10.22)-(10.23).
	Prior struct {
		Mu0     float64 `toml:"mu0" range:"[-1e6,1e6]"`
		Lambda0 float64 `toml:"lambda0" range:"[1e-8,1e8]"`
		A0      float64 `toml:"a0" range:"[1e-8,1e8]"`
		B0      float64 `toml:"b0" range:"[1e-8,1e8]"`
	} `toml:"prior"`
	// Init is the initial q(μ)q(τ) of Fig. 10.4(a).
	Init struct {
		MuMean      float64 `toml:"mu_mean" range:"[-1e6,1e6]"`
		MuPrecision float64 `toml:"mu_precision" range:"[1e-8,1e8]"`
		TauShape    float64 `toml:"tau_shape" range:"[1e-8,1e8]"`
		TauRate     float64 `toml:"tau_rate" range:"[1e-8,1e8]"`
	} `toml:"init"`
	// VB is the converged fit's run: max_iterations also sets the
	// improper prior's fixed-point iterations (10.33).
	VB       config.FitSettings `toml:"vb"`
	Numerics Numerics           `toml:"numerics"`
}

// RetiredKeys: the iteration cap moved into [vb].
func (*UnivariateConfig) RetiredKeys() map[string]string {
	return map[string]string{"max_iterations": "vb.max_iterations"}
}

// DefaultUnivariate returns the defaults.
func DefaultUnivariate() UnivariateConfig {
	c := UnivariateConfig{N: 10, TrueMean: 0, TruePrecision: 1, Numerics: defaultNumerics(),
		VB: config.FitSettings{MaxIterations: 200, AbsTol: 1e-12, MonotoneTol: 1e-9}}
	c.Numerics.GridPoints = 81
	c.Prior.Lambda0, c.Prior.A0, c.Prior.B0 = 0.1, 0.1, 0.1
	c.Init.MuMean, c.Init.MuPrecision, c.Init.TauShape, c.Init.TauRate = -0.6, 20, 5, 10
	return c
}

// Validate checks the keys.
func (c *UnivariateConfig) Validate() error {
	return c.VB.Validate("vb", nil)
}

// Estimate counts the four 2-D panels and the runs.
func (c *UnivariateConfig) Estimate() experiments.Cost {
	n := c.Numerics
	return experiments.Cost{
		Memory: []experiments.Part{experiments.Rows("grid points", experiments.Fixed(8, "contour sets"),
			experiments.KeyN("numerics.grid_points", n.GridPoints, float64(n.GridPoints*n.GridPoints), "grid points"))},
		Work: []experiments.Part{
			experiments.Ops("exact numbers and KLs", quadOps(2, 1), experiments.Fixed(4, "panels")),
			experiments.Ops("VB iterations", 20, experiments.Key("vb.max_iterations", c.VB.MaxIterations), experiments.Key("n", c.N)),
		},
	}
}

// ngQ is q(μ)q(τ) = N(μ | m, 1/l) Gam(τ | a, b), an approx.Q.
type ngQ struct{ m, l, a, b float64 }

func (q ngQ) LogDensity() (func(x []float64) float64, error) {
	g := dist.NewGammaShapeRate(q.a, q.b)
	return func(x []float64) float64 {
		if !(x[1] > 0) {
			return math.Inf(-1)
		}
		return 0.5*math.Log(q.l/(2*math.Pi)) - 0.5*q.l*(x[0]-q.m)*(x[0]-q.m) + g.LogProb(x[1])
	}, nil
}

// Box is ±sd standard deviations, τ cut at a tiny positive floor.
func (q ngQ) Box(sd float64) (lo, hi []float64) {
	smu, stau, mt := 1/math.Sqrt(q.l), math.Sqrt(q.a)/q.b, q.a/q.b
	return []float64{q.m - sd*smu, math.Max(mt-sd*stau, 1e-12*mt)}, []float64{q.m + sd*smu, mt + sd*stau}
}

// Moments returns the mean and (diagonal) covariance of (μ, τ).
func (q ngQ) Moments() approx.Normal {
	return approx.Normal{Mean: []float64{q.m, q.a / q.b}, Cov: []float64{1 / q.l, 0, 0, q.a / (q.b * q.b)}}
}

func qOf(g *approx.GaussVB) ngQ { return ngQ{g.MuN, g.LambdaN, g.AN, g.BN} }

// RunUnivariate draws the data, runs VB, and writes the four panels, the
// trace and the exact numbers.
func RunUnivariate(env *experiments.Env, c *UnivariateConfig) error {
	n := c.Numerics
	rnd := rng.New(c.Seed, "univariate-gaussian", "data")
	x := make([]float64, c.N)
	for i := range x {
		x[i] = c.TrueMean + rnd.NormFloat64()/math.Sqrt(c.TruePrecision)
	}
	prior := approx.NGPrior{Mu0: c.Prior.Mu0, Lambda0: c.Prior.Lambda0, A0: c.Prior.A0, B0: c.Prior.B0}
	newVB := func(p approx.NGPrior) (*approx.GaussVB, error) {
		return approx.NewGaussVB(x, p, c.Init.MuMean, c.Init.MuPrecision, c.Init.TauShape, c.Init.TauRate)
	}
	g, err := newVB(prior)
	if err != nil {
		return err
	}
	post, err := g.ExactPosterior()
	if err != nil {
		return err
	}
	if !(post.A > 1) {
		return fmt.Errorf("the posterior shape a₀ + n/2 = %g must exceed 1 (increase n or prior.a0)", post.A)
	}
	// The exact posterior's box: ±15 marginal sd in μ (a Student t with
	// 2A degrees of freedom, variance B/(Λ(A − 1))), τ from near 0 to 14 sd
	// above its mean.
	gam := dist.NewGammaShapeRate(post.A, post.B)
	tLo, tHi := math.Max(gam.Mean()-12*math.Sqrt(gam.Variance()), 1e-6*gam.Mean()), gam.Mean()+14*math.Sqrt(gam.Variance())
	w := 15 * math.Sqrt(post.B/(post.Lambda*(post.A-1)))
	pd := approx.Density{LogP: func(v []float64) float64 { return post.LogDensity(v[0], v[1]) }, Lo: []float64{post.M - w, tLo}, Hi: []float64{post.M + w, tHi}}
	base, err := newPanel("exact", pd, n.tol())
	if err != nil {
		return err
	}
	ws := 4 / math.Sqrt(post.Lambda*gam.Mean())
	view := func(pn *panel) {
		pn.viewLo = []float64{post.M - ws, 0}
		pn.viewHi = []float64{post.M + ws, gam.Mean() + 4*math.Sqrt(gam.Variance())}
	}
	stage := func(label string) (*panel, error) {
		pn := &panel{label: label, p: base.p, ex: base.ex, rows: map[string]approx.Row{mExact: base.ex.Row()}}
		view(pn)
		return pn, pn.add(mVB, qOf(g), n.tol())
	}
	var panels []*panel
	for k, step := range []func(){func() {}, g.UpdateMu, g.UpdateTau} {
		step()
		pn, err := stage(string(rune('a' + k)))
		if err != nil {
			return err
		}
		panels = append(panels, pn)
	}

	// The converged fit, by vb.Run from the same start.
	g, err = newVB(prior)
	if err != nil {
		return err
	}
	trace := results.NewTable("iteration", "F")
	set := c.VB.Settings(env.Stop, g)
	set.Recorder = func(it vb.Iteration) { trace.AddRow(it.Iter, it.F) }
	res := vb.Run(g, set)
	if res.Err != nil {
		return res.Err
	}
	pd4, err := stage("d")
	if err != nil {
		return err
	}
	panels = append(panels, pd4)
	kl := g.KLToPosterior(post)

	s := &results.Summary{Criteria: univariateCriteria}
	get := univariateCriteria.Get
	bad := 0
	if res.Status == vb.BoundDecreased {
		bad = 1
	}
	s.Judge(get("fig10.4-bound-monotone"), float64(bad))
	s.Judge(get("fig10.4-gap-is-kl"), math.Abs(post.LogEvidence-res.F-kl))
	s.Judge(get("fig10.4-kl-quadrature"), math.Abs(pd4.row(mVB).KLqp-kl))
	s.Judge(get("fig10.4-bound-below-evidence"), post.LogEvidence-res.F)
	s.SetMetric("vb_kl_exact", kl)
	s.SetMetric("ln_evidence", post.LogEvidence)
	s.SetMetric("vb_bound", res.F)
	s.SetMetric("vb_iterations", float64(res.Iterations))

	// Eq. (10.33): the improper prior's fixed point.
	gi, err := newVB(approx.NGPrior{})
	if err != nil {
		return err
	}
	for range c.VB.MaxIterations {
		gi.UpdateMu()
		gi.UpdateTau()
	}
	mean, _ := numeric.MeanSD(x)
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	want := ss / float64(c.N-1)
	s.Judge(get("eq10.33-unbiased"), math.Abs(gi.BN/gi.AN-want)/want)

	if err := results.WriteCSV(env.Path("prml_fig10_4_trace.csv"), *trace); err != nil {
		return err
	}
	f := figure{stem: "prml_fig10_4", panels: panels}
	if err := f.write(env, n.GridPoints); err != nil {
		return err
	}
	f.setRowMetrics(s)
	s.Claims = []results.Claim{{Artifact: "PRML Figure 10.4", Figures: []string{"prml_fig10_4"},
		Checks:    []string{"fig10.4-bound-monotone", "fig10.4-gap-is-kl", "fig10.4-kl-quadrature", "fig10.4-bound-below-evidence", "eq10.33-unbiased"},
		Statement: "Re-estimating q(μ) and q(τ) in turn converges to the optimal factorised approximation of the Normal–Gamma posterior (L226-238); under the improper prior 1/E[τ] is the unbiased variance (eq. 10.33)."}}
	s.AddFindingsFromChecks(nil)
	return env.WriteSummary(s, fmt.Sprintf("N = %d draws from N(%g, 1/%g); the exact posterior is Normal–Gamma (PRML Exercise 2.44). a_N = a₀ + (N+1)/2 (PRML's printed (10.29) omits the +1 of p(μ|τ)).", c.N, c.TrueMean, c.TruePrecision))
}

// PlotUnivariate redraws Fig. 10.4.
func PlotUnivariate(dir string) error {
	return plot2D(dir, "prml_fig10_4", "PRML Fig. 10.4: (a) initial q(μ)q(τ), (b) after q(μ), (c) after q(τ), (d) converged", 2, "μ", "τ")
}
