package approx

import (
	"math"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// OneDimConfig is the config of approx/onedim.
type OneDimConfig struct {
	experiments.Common
	Numerics Numerics `toml:"numerics"`
}

// DefaultOneDim returns the defaults.
func DefaultOneDim() OneDimConfig { return OneDimConfig{Numerics: defaultNumerics()} }

// Validate checks the keys.
func (c *OneDimConfig) Validate() error { return c.Numerics.validate() }

// Estimate counts the three densities' quadratures and fits.
func (c *OneDimConfig) Estimate() experiments.Cost {
	n := c.Numerics
	panels := experiments.Fixed(3, "densities")
	return experiments.Cost{
		Memory: []experiments.Part{experiments.Rows("curve points", panels, experiments.Fixed(4, "methods"), experiments.Key("numerics.grid_points", n.GridPoints))},
		Work: []experiments.Part{
			experiments.Ops("exact numbers and KLs", quadOps(1, 4), panels),
			experiments.Ops("KL(q‖p) fits", fitEvals*evalOps, panels, experiments.Fixed(2, "starts"), n.hermiteNodes(1)),
		},
	}
}

// skewed is one density of the panels, with its derivatives for Laplace.
type skewed struct {
	label          string
	title          string // the density, as a panel's title shows it
	logp           func(z float64) float64
	grad, hess     func(z float64) float64
	lo, hi         float64 // quadrature box
	viewLo, viewHi float64
}

// oneDimDensities are PRML's p(z) ∝ exp(−z²/2)σ(20z+4) (Fig. 10.1, the
// density of Fig. 4.14) and Lawrence's exp(−x⁴ − 0.1x²) and
// exp(−0.7x⁴ + 1.5x³ − 0.1x²) (Figs 1.12, 1.13, L578, L629).
var oneDimDensities = []skewed{
	{label: "prml", title: "p(z) = exp(−z²/2)σ(20z + 4)/Z",
		logp: func(z float64) float64 { return -z*z/2 + approx.LogSigmoid(20*z+4) },
		grad: func(z float64) float64 { return -z + 20*(1-approx.Sigmoid(20*z+4)) },
		hess: func(z float64) float64 { s := approx.Sigmoid(20*z + 4); return -1 - 400*s*(1-s) },
		lo:   -12, hi: 12, viewLo: -2, viewHi: 4},
	{label: "a", title: "(a) p(x) = exp(−x⁴ − 0.1x²)/Z",
		logp: func(x float64) float64 { return -x*x*x*x - 0.1*x*x },
		grad: func(x float64) float64 { return -4*x*x*x - 0.2*x },
		hess: func(x float64) float64 { return -12*x*x - 0.2 },
		lo:   -5, hi: 5, viewLo: -2.5, viewHi: 2.5},
	{label: "b", title: "(b) p(x) = exp(−0.7x⁴ + 1.5x³ − 0.1x²)/Z",
		logp: func(x float64) float64 { return -0.7*x*x*x*x + 1.5*x*x*x - 0.1*x*x },
		grad: func(x float64) float64 { return -2.8*x*x*x + 4.5*x*x - 0.2*x },
		hess: func(x float64) float64 { return -8.4*x*x + 9*x - 0.2 },
		lo:   -5, hi: 6, viewLo: -1.5, viewHi: 3},
}

// gridArgmax returns the point of largest f on an n-point grid of [lo, hi].
func gridArgmax(f func(float64) float64, lo, hi float64, n int) float64 {
	best, arg := math.Inf(-1), lo
	for i := range n {
		x := lo + (hi-lo)*float64(i)/float64(n-1)
		if v := f(x); v > best {
			best, arg = v, x
		}
	}
	return arg
}

// onePanel returns the panel and Laplace's ln Z. It fits Laplace (from the grid's highest point: the global mode),
// the KL(q‖p) Gaussian (from Laplace and from the moments, the better kept)
// and moment matching to one density.
func onePanel(d skewed, n Numerics) (*panel, float64, error) {
	lp := func(x []float64) float64 { return d.logp(x[0]) }
	pn, err := newPanel(d.label, approx.Density{LogP: lp, Lo: []float64{d.lo}, Hi: []float64{d.hi}}, n.tol())
	if err != nil {
		return nil, 0, err
	}
	pn.viewLo, pn.viewHi = []float64{d.viewLo}, []float64{d.viewHi}
	lap, err := approx.Laplace(approx.Func{LogP: lp,
		Grad: func(dst, x []float64) { dst[0] = d.grad(x[0]) },
		Hess: func(dst, x []float64) { dst[0] = d.hess(x[0]) }},
		[]float64{gridArgmax(d.logp, d.lo, d.hi, 2001)})
	if err != nil {
		return nil, 0, err
	}
	vb, err := bestKLqp(lp, []approx.Normal{lap.Q, pn.ex.Moments()}, n)
	if err != nil {
		return nil, 0, err
	}
	for _, m := range []fitted{{mLaplace, lap.Q}, {mVB, vb}, {mMoments, pn.ex.Moments()}} {
		if err := pn.add(m.method, m.q, n.tol()); err != nil {
			return nil, 0, err
		}
	}
	return pn, lap.LnZ, nil
}

// bestKLqp fits the KL(q‖p) Gaussian from every start and keeps the one of
// smallest KL (the objective differs from KL(q‖p) by ln Z alone).
func bestKLqp(logp func([]float64) float64, starts []approx.Normal, n Numerics) (approx.Normal, error) {
	var best approx.FitResult
	for i, s := range starts {
		f, err := approx.FitKLqp(logp, s, approx.FitSettings{Order: n.HermiteOrder})
		if err != nil {
			return approx.Normal{}, err
		}
		if i == 0 || f.Objective < best.Objective {
			best = f
		}
	}
	return best.Q, nil
}

// RunOneDim computes the panels, writes the tables and curves, and judges
// the claims.
func RunOneDim(env *experiments.Env, c *OneDimConfig) error {
	n := c.Numerics
	var panels []*panel
	var lapLnZ []float64
	for _, d := range oneDimDensities {
		pn, lz, err := onePanel(d, n)
		if err != nil {
			return err
		}
		panels = append(panels, pn)
		lapLnZ = append(lapLnZ, lz)
	}
	prml := panels[0]
	// EP on N(z | 0, 1) × σ(20z + 4): one site.
	ep, err := approx.NewEP(approx.Normal{Mean: []float64{0}, Cov: []float64{1}},
		[]approx.Factor{approx.ProjectedFactor{A: []float64{1}, Tol: n.tol(), LogG: func(u float64) float64 { return approx.LogSigmoid(20*u + 4) }}},
		approx.EPSettings{})
	if err != nil {
		return err
	}
	if _, err := ep.Run(); err != nil {
		return err
	}
	if err := prml.add(mEP, ep.Q(), n.tol()); err != nil {
		return err
	}
	figs := []figure{
		{stem: "prml_fig10_1", panels: panels[:1], methods: []string{mLaplace, mVB}},
		{stem: "prml_fig10_14", panels: panels[:1], methods: []string{mLaplace, mVB, mEP}},
		{stem: "lawrence_fig1_12", panels: panels[1:], methods: []string{mLaplace}},
		{stem: "lawrence_fig1_13", panels: panels[1:], methods: []string{mVB}},
	}
	s := &results.Summary{Criteria: oneDimCriteria}
	for _, f := range figs {
		if err := f.write(env, n.GridPoints); err != nil {
			return err
		}
		f.setRowMetrics(s)
	}
	ex, lap, vb, epr := prml.row(mExact), prml.row(mLaplace), prml.row(mVB), prml.row(mEP)
	c1 := oneDimCriteria.Get
	s.Judge(c1("fig10.1-vb-mean-nearer"), math.Abs(lap.Mean[0]-ex.Mean[0])-math.Abs(vb.Mean[0]-ex.Mean[0]))
	s.Judge(c1("fig10.1-vb-klqp-below-laplace"), lap.KLqp-vb.KLqp)
	s.Judge(c1("fig10.14-ep-broader"), epr.Cov[0]-vb.Cov[0])
	s.Judge(c1("fig10.14-ep-moments"), math.Max(math.Abs(epr.Mean[0]-ex.Mean[0]), math.Abs(epr.Cov[0]-ex.Cov[0])))
	s.Judge(c1("fig10.14-ep-klpq-below-vb"), vb.KLpq-epr.KLpq)
	a, b := panels[1], panels[2]
	s.Judge(c1("fig1.12a-laplace-overestimates-tails"), a.row(mLaplace).Cov[0]/a.row(mExact).Cov[0])
	s.Judge(c1("fig1.12b-laplace-ignores-left"), b.row(mLaplace).Mean[0]-b.row(mExact).Mean[0])
	for _, pn := range []*panel{a, b} {
		s.Judge(c1("fig1.13-vb-follows-mass").For(pn.label), pn.row(mLaplace).KLpq-pn.row(mVB).KLpq)
	}
	s.SetMetric("ep_sweeps", float64(ep.Iterations))
	// The evidence approximations beside the exact ln Z: EP's (PRML eq.
	// (10.208); exact here, one factor) and Laplace's (eq. (4.135)).
	epLnZ, err := ep.LogEvidence()
	if err != nil {
		return err
	}
	s.SetMetric("prml.ln_z_exact", prml.ex.LnZ-0.5*math.Log(2*math.Pi)) // ln ∫ N(z | 0, 1) σ(20z + 4) dz
	s.SetMetric("prml.ln_z_ep", epLnZ)
	for k, pn := range panels {
		s.SetMetric(pn.label+".ln_z_laplace_error", lapLnZ[k]-pn.ex.LnZ)
	}
	s.Claims = []results.Claim{
		{Artifact: "PRML Figure 10.1", Figures: []string{"prml_fig10_1"}, Checks: []string{"fig10.1-vb-mean-nearer", "fig10.1-vb-klqp-below-laplace"},
			Statement: "On p(z) ∝ exp(−z²/2)σ(20z+4) the variational Gaussian sits on the mass where Laplace's sits on the mode (L45)."},
		{Artifact: "PRML Figure 10.14", Figures: []string{"prml_fig10_14"}, Checks: []string{"fig10.14-ep-broader", "fig10.14-ep-moments", "fig10.14-ep-klpq-below-vb"},
			Statement: "The EP distribution is broader than the variational one, a consequence of the other KL (L1194)."},
		{Artifact: "Lawrence Figure 1.12", Figures: []string{"lawrence_fig1_12"}, Checks: []string{"fig1.12a-laplace-overestimates-tails", "fig1.12b-laplace-ignores-left"},
			Statement: "Laplace over-estimates the tails of the sub-Gaussian density and is unaffected by the mass left of the skewed density's mode (L578)."},
		{Artifact: "Lawrence Figure 1.13", Figures: []string{"lawrence_fig1_13"}, Checks: []string{"fig1.13-vb-follows-mass"},
			Statement: "The variational Gaussians respond to the mass of both densities better than Laplace's (L629)."},
	}
	s.AddFindingsFromChecks(nil)
	return env.WriteSummary(s, "Exact numbers by adaptive Gauss–Kronrod quadrature; the VB Gaussian minimises KL(q‖p), moment matching KL(p‖q).")
}

// oneDimTitle titles a panel of the one-dimensional figures by its
// density (PRML Fig. 10.1's left-hand plot) or, for k = 1, as the
// negative logarithms of its right-hand plot.
func oneDimTitle(label string, k int) string {
	t := label
	for _, d := range oneDimDensities {
		if d.label == label {
			t = d.title
		}
	}
	if k == 1 {
		return "−ln of the densities at left"
	}
	return t
}

// PlotOneDim redraws the four figures.
func PlotOneDim(dir string) error {
	for _, f := range []struct {
		stem, title string
		negLog      bool
	}{
		{"prml_fig10_1", "PRML Fig. 10.1: Laplace and variational Gaussians", true},
		{"prml_fig10_14", "PRML Fig. 10.14: Laplace, variational and EP Gaussians", true},
		{"lawrence_fig1_12", "Lawrence Fig. 1.12: Laplace's approximation", false},
		{"lawrence_fig1_13", "Lawrence Fig. 1.13: the variational Gaussian", false},
	} {
		if err := plot1D(dir, f.stem, f.title, 2, f.negLog, oneDimTitle); err != nil {
			return err
		}
	}
	return nil
}
