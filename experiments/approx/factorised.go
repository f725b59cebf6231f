package approx

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// FactorisedConfig is the config of approx/factorised.
type FactorisedConfig struct {
	experiments.Common
	// PRMLCorrelation is the correlation of PRML Fig. 10.2's Gaussian
	// (unit variances; the text gives no numbers).
	PRMLCorrelation float64 `toml:"prml_correlation" range:"(-1,1)"`
	// Eigenvalues are the variances along (1,1)/√2 and (1,−1)/√2 of the
	// Gaussian of Lawrence Figs 1.9 and 5.6 (L482: 1 and 0.01).
	Eigenvalues []float64 `toml:"eigenvalues" range:"[1e-6,1e6] len=2"`
	// Correlations are D'Souza Fig. 2.5's sweep (unit variances; the text
	// gives none).
	Correlations []float64 `toml:"correlations" range:"(-1,1) len=2.. increasing"`
	// ARLambdas are the AR(1) coefficients of T&S Fig. 1.3 (not printed;
	// targets §1.2 suggests 0.5, 0.9, 0.99) and ARSteps the chain length.
	ARLambdas []float64 `toml:"ar_lambdas" range:"(0,1) len=1.."`
	ARSteps   int       `toml:"ar_steps" range:"[3,1e4]"`
	// MaxIterations is the budget of every mean-field run: exactly this
	// many iterations (vb.Run with config.FixedBudget).
	MaxIterations int      `toml:"max_iterations" range:"[2,1e7]"`
	Numerics      Numerics `toml:"numerics"`
}

// DefaultFactorised returns the defaults.
func DefaultFactorised() FactorisedConfig {
	n := defaultNumerics()
	n.GridPoints = 61
	return FactorisedConfig{PRMLCorrelation: 0.9, Eigenvalues: []float64{1, 0.01},
		Correlations: []float64{0, 0.5, 0.8, 0.95, 0.99}, ARLambdas: []float64{0.5, 0.9, 0.99}, ARSteps: 21,
		MaxIterations: 5000, Numerics: n}
}

// Validate checks the keys.
func (c *FactorisedConfig) Validate() error { return nil }

// Estimate counts the 2-D panels' quadratures, the mixture fit, the
// mean-field runs and the grids.
func (c *FactorisedConfig) Estimate() experiments.Cost {
	n := c.Numerics
	panels := experiments.KeyN("correlations", c.Correlations, float64(len(c.Correlations)), "correlations").
		Plus(float64(len(c.ARLambdas)+5), "other panels")
	grid := experiments.KeyN("numerics.grid_points", n.GridPoints, float64(n.GridPoints*n.GridPoints), "grid points per panel")
	return experiments.Cost{
		Memory: []experiments.Part{experiments.Rows("grid points", panels, experiments.Fixed(3, "curves"), grid)},
		Work: []experiments.Part{
			experiments.Ops("exact numbers and KLs", quadOps(2, 2), panels),
			experiments.Ops("mixture fit", fitEvals*evalOps*20, experiments.Fixed(2, "components"), n.hermiteNodes(2)),
			experiments.Ops("mean-field runs", 10, experiments.Key("max_iterations", c.MaxIterations), experiments.Key("ar_steps", c.ARSteps),
				experiments.Key("ar_steps", c.ARSteps)),
		},
	}
}

// meanField runs the mean-field updates on p from a point away from the
// mean, and returns q and the number of decreases of F.
func meanField(p approx.Normal, maxIter int) (approx.Normal, int, error) {
	init := make([]float64, p.Dim())
	for i := range init {
		init[i] = p.Mean[i] + 1 + 0.5*float64(i)
	}
	mf, err := approx.NewMeanField(p, init)
	if err != nil {
		return approx.Normal{}, 0, err
	}
	res := vb.Run(mf, config.FixedBudget(maxIter).Settings(nil, mf))
	if res.Err != nil {
		return approx.Normal{}, 0, res.Err
	}
	bad := 0
	if res.Status == vb.BoundDecreased {
		bad = 1
	}
	return mf.Q(), bad, nil
}

// gaussPanel is a panel whose exact density is the Gaussian p, on a
// ±6 sd box (the drawn view ±3.5 sd of the larger variance, square).
func gaussPanel(label string, p approx.Normal, n Numerics) (*panel, error) {
	d, err := gaussianDensity(p, 12)
	if err != nil {
		return nil, err
	}
	pn, err := newPanel(label, d, n.tol())
	if err != nil {
		return nil, err
	}
	pn.gaussian = true
	r := 3.5 * math.Sqrt(math.Max(p.Var(0), p.Var(1)))
	pn.viewLo = []float64{p.Mean[0] - r, p.Mean[1] - r}
	pn.viewHi = []float64{p.Mean[0] + r, p.Mean[1] + r}
	return pn, nil
}

// addAll adds several approximations to a panel.
func (pn *panel) addAll(n Numerics, fs ...fitted) error {
	for _, f := range fs {
		if err := pn.add(f.method, f.q, n.tol()); err != nil {
			return err
		}
	}
	return nil
}

func corrGaussian(rho float64) approx.Normal {
	return approx.Normal{Mean: []float64{0, 0}, Cov: []float64{1, rho, rho, 1}}
}

// RunFactorised computes the panels, writes the tables and grids, and
// judges the claims.
func RunFactorised(env *experiments.Env, c *FactorisedConfig) error {
	n := c.Numerics
	s := &results.Summary{Criteria: factorisedCriteria}
	get := factorisedCriteria.Get
	decreases := 0
	mf := func(p approx.Normal) (approx.Normal, error) {
		q, bad, err := meanField(p, c.MaxIterations)
		decreases += bad
		return q, err
	}

	// PRML Fig. 10.2.
	p := corrGaussian(c.PRMLCorrelation)
	q, err := mf(p)
	if err != nil {
		return err
	}
	fig102 := []*panel{}
	for _, f := range []fitted{{mFactQP, q}, {mFactPQ, approx.FactorisedKLpq(p)}} {
		pn, err := gaussPanel(map[string]string{mFactQP: "a", mFactPQ: "b"}[f.method], p, n)
		if err != nil {
			return err
		}
		if err := pn.addAll(n, f); err != nil {
			return err
		}
		fig102 = append(fig102, pn)
	}
	lam, _, _ := invert2(p.Cov)
	var meanErr, precErr, varRatio, margErr float64
	for i := range 2 {
		meanErr = math.Max(meanErr, math.Abs(q.Mean[i]-p.Mean[i]))
		precErr = math.Max(precErr, math.Abs(1/q.Var(i)-lam[i*2+i])/lam[i*2+i])
		varRatio = math.Max(varRatio, q.Var(i)/p.Var(i))
		margErr = math.Max(margErr, math.Abs(fig102[1].row(mFactPQ).Cov[i*3]-fig102[1].row(mExact).Cov[i*3]))
	}
	s.Judge(get("fig10.2a-mean-exact"), meanErr)
	s.Judge(get("fig10.2a-precision-matched"), precErr)
	s.Judge(get("fig10.2a-compact"), varRatio)
	s.Judge(get("fig10.2b-marginals"), margErr)

	// Lawrence Fig. 1.9.
	pl := rotated(c.Eigenvalues[0], c.Eigenvalues[1])
	sq, err := approx.SphericalKLqp(pl)
	if err != nil {
		return err
	}
	var fig19 []*panel
	for _, f := range []fitted{{mSphereQP, sq}, {mSpherePQ, approx.SphericalKLpq(pl)}} {
		pn, err := gaussPanel(map[string]string{mSphereQP: "klqp", mSpherePQ: "klpq"}[f.method], pl, n)
		if err != nil {
			return err
		}
		if err := pn.addAll(n, f); err != nil {
			return err
		}
		fig19 = append(fig19, pn)
	}
	s.Judge(get("fig1.9-klqp-compact"), fig19[0].row(mExact).Entropy-fig19[0].row(mSphereQP).Entropy)
	s.Judge(get("fig1.9-klpq-broad"), fig19[1].row(mSpherePQ).Entropy-fig19[1].row(mExact).Entropy)

	// D'Souza Fig. 2.5.
	var fig25 []*panel
	notCompact, notWorse := 0, 0
	for k, rho := range c.Correlations {
		p := corrGaussian(rho)
		q, err := mf(p)
		if err != nil {
			return err
		}
		pn, err := gaussPanel(fmt.Sprintf("rho%g", rho), p, n)
		if err != nil {
			return err
		}
		if err := pn.addAll(n, fitted{mFactQP, q}); err != nil {
			return err
		}
		if rho != 0 && !(pn.row(mFactQP).Entropy < pn.row(mExact).Entropy) {
			notCompact++
		}
		if k > 0 && !(pn.row(mFactQP).KLqp > fig25[k-1].row(mFactQP).KLqp) {
			notWorse++
		}
		fig25 = append(fig25, pn)
	}
	s.Judge(get("fig2.5-compact"), float64(notCompact))
	s.Judge(get("fig2.5-worse-with-correlation"), float64(notWorse))

	// T&S Fig. 1.3: the chain's mean-field fit; the panel shows the pair
	// of the two middle steps.
	var fig13 []*panel
	var varErr, maxVar float64
	for _, l := range c.ARLambdas {
		chain := ar1Chain(c.ARSteps, l)
		q, err := mf(chain)
		if err != nil {
			return err
		}
		t := c.ARSteps / 2
		varErr = math.Max(varErr, math.Abs(q.Var(t)-(1-l*l)/(1+l*l)))
		for i := range c.ARSteps {
			maxVar = math.Max(maxVar, q.Var(i))
		}
		pair := approx.Normal{Mean: []float64{0, 0}, Cov: []float64{1, l, l, 1}}
		qp := approx.Normal{Mean: []float64{q.Mean[t], q.Mean[t+1]}, Cov: []float64{q.Var(t), 0, 0, q.Var(t + 1)}}
		pn, err := gaussPanel(fmt.Sprintf("lambda%g", l), pair, n)
		if err != nil {
			return err
		}
		if err := pn.addAll(n, fitted{mMeanField, qp}); err != nil {
			return err
		}
		fig13 = append(fig13, pn)
	}
	s.Judge(get("tns1.3-interior-variance"), varErr)
	s.Judge(get("tns1.3-underestimates"), maxVar)

	// Lawrence Fig. 5.6: two diagonal components by KL(q‖p).
	fig56, err := mixturePanel(pl, n, s)
	if err != nil {
		return err
	}
	s.Judge(get("fig10.2a-bound-monotone"), float64(decreases))

	figs := []figure{
		{stem: "prml_fig10_2", panels: fig102},
		{stem: "lawrence_fig1_9", panels: fig19},
		{stem: "dsouza_fig2_5", panels: fig25},
		{stem: "turner_sahani_fig1_3", panels: fig13},
		{stem: "lawrence_fig5_6", panels: []*panel{fig56}},
	}
	for _, f := range figs {
		if err := f.write(env, n.GridPoints); err != nil {
			return err
		}
		f.setRowMetrics(s)
	}
	s.Claims = []results.Claim{
		{Artifact: "PRML Figure 10.2", Figures: []string{"prml_fig10_2"}, Checks: []string{"fig10.2a-mean-exact", "fig10.2a-precision-matched", "fig10.2a-compact", "fig10.2a-bound-monotone", "fig10.2b-marginals"},
			Statement: "Minimising KL(q‖p) gives the correct mean and a factorised q too compact; minimising KL(p‖q) gives the marginals, too broad (L98-150)."},
		{Artifact: "Lawrence Figure 1.9", Figures: []string{"lawrence_fig1_9"}, Checks: []string{"fig1.9-klqp-compact", "fig1.9-klpq-broad"},
			Statement: "A spherical Gaussian fitted to a highly correlated one under the two KLs: low where p is low, or high where p is high (L482-490)."},
		{Artifact: "D'Souza Figure 2.5", Figures: []string{"dsouza_fig2_5"}, Checks: []string{"fig2.5-compact", "fig2.5-worse-with-correlation"},
			Statement: "The factorial approximation worsens as the independence assumption is invalidated and tends to be more compact than the true distribution (L646-662)."},
		{Artifact: "Turner & Sahani Figure 1.3", Figures: []string{"turner_sahani_fig1_3"}, Checks: []string{"tns1.3-interior-variance", "tns1.3-underestimates"},
			Statement: "The mean-field marginal variance of an AR(1) chain is (1 − λ²)/(1 + λ²), tiny beside the true 1 (L181)."},
		{Artifact: "Lawrence Figure 5.6", Figures: []string{"lawrence_fig5_6"}, Checks: []string{"fig5.6-separated", "fig5.6-narrow", "fig5.6-inside", "fig5.6-mixture-better"},
			Statement: "Two diagonal Gaussians fitted by KL(q‖p) to a correlated Gaussian: two widely separated, narrow components within it (L2172-2177)."},
	}
	s.AddFindingsFromChecks(nil)
	return env.WriteSummary(s, "Exact numbers by iterated adaptive Gauss–Kronrod quadrature over ±12 standard deviations; mean-field fits by vb.Run.")
}

// invert2 inverts a 2×2 covariance.
func invert2(c []float64) ([]float64, float64, bool) {
	det := c[0]*c[3] - c[1]*c[2]
	if !(det > 0) {
		return nil, det, false
	}
	return []float64{c[3] / det, -c[1] / det, -c[2] / det, c[0] / det}, det, true
}

// ar1Chain is the stationary AR(1) chain of T&S eq. (1.19) with unit
// marginal variance (σ² = 1 − λ²): Cov_ij = λ^|i−j|.
func ar1Chain(steps int, l float64) approx.Normal {
	q := approx.Normal{Mean: make([]float64, steps), Cov: make([]float64, steps*steps)}
	for i := range steps {
		for j := range steps {
			q.Cov[i*steps+j] = math.Pow(l, math.Abs(float64(i-j)))
		}
	}
	return q
}

// mixturePanel fits two diagonal components to p by KL(q‖p), from two
// narrow components on p's long axis, and judges Lawrence's claims.
func mixturePanel(p approx.Normal, n Numerics, s *results.Summary) (*panel, error) {
	get := factorisedCriteria.Get
	a := 0.5 * math.Sqrt(p.Cov[0]+p.Cov[1]) // half a long-axis sd along (1, 1)/√2, per coordinate
	sd2 := 0.5 * p.Cov[0]
	init := approx.Mixture{Weights: []float64{0.5, 0.5}, Comps: []approx.Normal{
		{Mean: []float64{a, a}, Cov: []float64{sd2 / 4, 0, 0, sd2 / 4}},
		{Mean: []float64{-a, -a}, Cov: []float64{sd2 / 4, 0, 0, sd2 / 4}},
	}}
	lp, err := p.LogDensity()
	if err != nil {
		return nil, err
	}
	mix, _, err := approx.FitMixtureKLqp(lp, init, approx.FitSettings{Order: n.HermiteOrder})
	if err != nil {
		return nil, err
	}
	fq, err := approx.FactorisedKLqp(p)
	if err != nil {
		return nil, err
	}
	pn, err := gaussPanel("a", p, n)
	if err != nil {
		return nil, err
	}
	if err := pn.addAll(n, fitted{mMixture, mix}, fitted{mFactQP, fq}); err != nil {
		return nil, err
	}
	// The exact density and fq are drawn as ellipses; the grid holds the
	// mixture alone, so it covers the mixture's box (±4.5 of its sd).
	pn.viewLo, pn.viewHi = mix.Box(4.5)
	c0, c1 := mix.Comps[0], mix.Comps[1]
	dist := math.Hypot(c0.Mean[0]-c1.Mean[0], c0.Mean[1]-c1.Mean[1])
	var maxSD, maha float64
	lam, _, _ := invert2(p.Cov)
	for _, c := range mix.Comps {
		maxSD = math.Max(maxSD, math.Sqrt(math.Max(c.Var(0), c.Var(1))))
		dx, dy := c.Mean[0]-p.Mean[0], c.Mean[1]-p.Mean[1]
		maha = math.Max(maha, math.Sqrt(dx*dx*lam[0]+2*dx*dy*lam[1]+dy*dy*lam[3]))
	}
	s.Judge(get("fig5.6-separated"), dist/maxSD)
	s.Judge(get("fig5.6-narrow"), maxSD/math.Sqrt(math.Min(p.Var(0), p.Var(1))))
	s.Judge(get("fig5.6-inside"), maha)
	s.Judge(get("fig5.6-mixture-better"), pn.row(mFactQP).KLqp-pn.row(mMixture).KLqp)
	s.SetMetric("lawrence_fig5_6.weight_0", mix.Weights[0])
	return pn, nil
}

// PlotFactorised redraws the five figures.
func PlotFactorised(dir string) error {
	for _, f := range []struct {
		stem, title string
		cols        int
	}{
		{"prml_fig10_2", "PRML Fig. 10.2: factorised q under (a) KL(q‖p), (b) KL(p‖q)", 2},
		{"lawrence_fig1_9", "Lawrence Fig. 1.9: spherical q under both KLs", 2},
		{"dsouza_fig2_5", "D'Souza Fig. 2.5: factorised q as the correlation grows", 3},
		{"turner_sahani_fig1_3", "T&S Fig. 1.3: mean field over time, adjacent steps", 3},
		{"lawrence_fig5_6", "Lawrence Fig. 5.6: two diagonal components by KL(q‖p)", 1},
	} {
		if err := plot2D(dir, f.stem, f.title, f.cols, "z₁", "z₂"); err != nil {
			return err
		}
	}
	return nil
}
