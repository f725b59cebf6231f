package approx

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/experiments/datasets"
	"github.com/vbworkbench/vbw/results"
	"github.com/vbworkbench/vbw/samplers/ais"
	"github.com/vbworkbench/vbw/samplers/is"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// PimaConfig is the config of approx/pima: Bayesian logistic regression
// on Ripley's Pima split (PRML §10.6; Lawrence Table 3.1's baselines, L1436-1476).
type PimaConfig struct {
	experiments.Common
	Train string `toml:"train" range:"len=1.."`
	Test  string `toml:"test" range:"len=1.."`
	// Prior: alpha is the prior precision of every weight, bias included,
	// on inputs standardised by the training set's mean and standard
	// deviation (divisor n): w ~ N(0, α⁻¹I); a0 and b0 are the Gamma
	// hyperprior α ~ Gam(a0, b0) of the second VB fit, q(w)q(α) (PRML
	// §10.6.3), run beside the fit with α fixed.
	Prior struct {
		Alpha float64 `toml:"alpha" range:"[1e-8,1e8]"`
		A0    float64 `toml:"a0" range:"[1e-8,1e8]"`
		B0    float64 `toml:"b0" range:"[1e-8,1e8]"`
	} `toml:"prior"`
	// MLAlpha is the vanishing precision that makes the ML fit a Newton
	// iteration with a proper Hessian.
	MLAlpha float64 `toml:"ml_alpha" range:"[1e-12,1e-2]"`
	// VB ends both VB fits (the JJ bound, vb.Run).
	VB config.FitSettings `toml:"vb"`
	// EP ends EP's sweeps.
	EP EPSettings `toml:"ep"`
	// IS is a Student t on the VB posterior, its scale widened.
	IS struct {
		config.IS
		Nu    float64 `toml:"nu" range:"[1,1e6]"`     // Student-t degrees of freedom
		Widen float64 `toml:"widen" range:"[0.1,10]"` // scale of the VB covariance's standard deviations
	} `toml:"is"`
	// AIS with an HMC kernel, whose step is a fraction of the tempered
	// posterior's smallest standard deviation.
	AIS struct {
		config.AIS
		config.HMC
	} `toml:"ais"`
}

// EPSettings are the [ep] keys: at most max_iterations sweeps, until no
// site's natural parameters change by more than tol (core/approx
// EPSettings).
type EPSettings struct {
	MaxIterations int     `toml:"max_iterations" range:"[1,1e6]"`
	Tol           float64 `toml:"tol" range:"[1e-14,1]"`
}

// RetiredKeys: the prior into [prior], the runs' caps into [vb] and [ep],
// and the AIS length into ais.steps.
func (*PimaConfig) RetiredKeys() map[string]string {
	return map[string]string{"alpha": "prior.alpha", "hyper": "prior", "hyper.a0": "prior.a0", "hyper.b0": "prior.b0",
		"max_iterations": "vb.max_iterations", "ais.temperatures": "ais.steps"}
}

// DefaultPima returns the defaults.
func DefaultPima() PimaConfig {
	c := PimaConfig{Train: "pima_train.csv", Test: "pima_test.csv", MLAlpha: 1e-8,
		VB: config.FitSettings{MaxIterations: 500, AbsTol: 1e-10, MonotoneTol: 1e-9}, EP: EPSettings{MaxIterations: 500, Tol: 1e-8}}
	c.Prior.Alpha, c.Prior.A0, c.Prior.B0 = 1, 1e-2, 1e-2
	c.IS.Samples, c.IS.Runs, c.IS.Nu, c.IS.Widen = 20000, 5, 5, 1.5
	c.AIS.AIS = config.AIS{Runs: 16, Steps: 2000, AISSchedule: config.DefaultSchedule(config.ScheduleGeometric)}
	c.AIS.HMC = config.HMC{Leapfrog: 10, Step: 0.3}
	return c
}

// Validate checks the keys.
func (c *PimaConfig) Validate() error {
	if c.AIS.Runs < 2 {
		return config.FieldError("ais.runs", c.AIS.Runs, "must be at least 2 (a standard error)")
	}
	return config.FirstError(c.VB.Validate("vb", nil), c.AIS.Validate("ais"))
}

// Estimate counts IS, AIS and the fits, each evaluation of ln p(t, w) a
// few multiply-adds per entry of the training set (its rows times the
// columns: 7 inputs and the class, the bias in the class's place).
func (c *PimaConfig) Estimate() experiments.Cost {
	rows, cols := experiments.DataRows("train", c.Train, "training rows"), experiments.DataCols("train", c.Train, "columns")
	test := []experiments.Factor{experiments.DataRows("test", c.Test, "test rows"), experiments.DataCols("test", c.Test, "columns")}
	per := func(what string, unit float64, of ...experiments.Factor) experiments.Part {
		return experiments.Ops(what, 4*unit, append([]experiments.Factor{rows, cols}, of...)...)
	}
	return experiments.Cost{
		Memory: []experiments.Part{experiments.Words("IS log weights", experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs)),
			experiments.Words("the data", experiments.Fixed(4, "copies"), rows, cols),
			experiments.Words("the test data", append([]experiments.Factor{experiments.Fixed(4, "copies")}, test...)...)},
		Work: []experiments.Part{
			per("importance sampling", 1, experiments.Key("is.samples", c.IS.Samples), experiments.Key("is.runs", c.IS.Runs)),
			per("AIS with HMC", 2, experiments.Key("ais.steps", c.AIS.Steps), experiments.Key("ais.runs", c.AIS.Runs), experiments.Key("ais.leapfrog", c.AIS.Leapfrog)),
			per("VB iterations", 2000, experiments.Key("vb.max_iterations", c.VB.MaxIterations)),
			per("EP sweeps", 2000, experiments.Key("ep.max_iterations", c.EP.MaxIterations)),
		},
	}
}

// readPima reads a Pima table: a header, seven numeric inputs and the
// class "Yes"/"No" (MASS's Pima.tr and Pima.te).
func readPima(name string, data []byte) (x [][]float64, t []int, err error) {
	for i, line := range datasets.Lines(data) {
		if i == 0 || datasets.IsBlank(line) {
			continue
		}
		fs := datasets.SplitComma(line)
		if len(fs) != 8 {
			return nil, nil, fmt.Errorf("%s:%d: %d fields, want 8 (7 inputs and type)", name, i+1, len(fs))
		}
		row := make([]float64, 7)
		for j := range 7 {
			v, err := datasets.Number(name, i+1, fs[j].Col, fs[j].Text)
			if err != nil {
				return nil, nil, err
			}
			row[j] = v
		}
		switch fs[7].Text {
		case "Yes":
			t = append(t, 1)
		case "No":
			t = append(t, 0)
		default:
			return nil, nil, fmt.Errorf("%s:%d:%d: type %s, want Yes or No", name, i+1, fs[7].Col, datasets.Quote(fs[7].Text))
		}
		x = append(x, row)
	}
	if len(x) == 0 {
		return nil, nil, fmt.Errorf("%s: no data rows", name)
	}
	return x, t, nil
}

// standardise returns the features (1, z) of the training and test rows,
// z the inputs standardised by the training set's mean and sd
// (numeric.Standardisation, divisor n). A column constant in the training
// data, or one too large to standardise, is an error naming the file.
func standardise(trainName, testName string, train, test [][]float64) (phiTrain, phiTest [][]float64, err error) {
	xs := make([]*mat.Dense, 2)
	for k, rows := range [][][]float64{train, test} {
		xs[k] = mat.NewDense(len(rows), len(rows[0]), nil)
		for i, r := range rows {
			xs[k].SetRow(i, r)
		}
	}
	st, err := numeric.FitStandardisation(xs[0], numeric.RefuseConstant)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", trainName, err)
	}
	f := func(name string, x *mat.Dense) ([][]float64, error) {
		z, err := st.Apply(x)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		n, _ := z.Dims()
		out := make([][]float64, n)
		for i := range n {
			out[i] = append([]float64{1}, mat.Row(nil, i, z)...)
		}
		return out, nil
	}
	if phiTrain, err = f(trainName, xs[0]); err != nil {
		return nil, nil, err
	}
	phiTest, err = f(testName, xs[1])
	return phiTrain, phiTest, err
}

// logisticTarget is ln p(t, w) split as AIS needs it (prior N(0, α⁻¹I),
// likelihood Π σ((2t − 1)φᵀw)), with gradients for HMC; its LogProb is the
// importance sampler's target.
type logisticTarget struct {
	phi   [][]float64
	sign  []float64
	alpha float64
}

func (l *logisticTarget) LogPrior(w []float64) float64 {
	var s float64
	for _, v := range w {
		s += v * v
	}
	return 0.5*float64(len(w))*math.Log(l.alpha/(2*math.Pi)) - 0.5*l.alpha*s
}

func (l *logisticTarget) act(n int, w []float64) float64 {
	var a float64
	for i, v := range l.phi[n] {
		a += v * w[i]
	}
	return l.sign[n] * a
}

func (l *logisticTarget) LogLik(w []float64) float64 {
	var s float64
	for n := range l.phi {
		s += approx.LogSigmoid(l.act(n, w))
	}
	return s
}

func (l *logisticTarget) LogProb(w []float64) float64 { return l.LogPrior(w) + l.LogLik(w) }

func (l *logisticTarget) GradLogPrior(dst, w []float64) {
	for i, v := range w {
		dst[i] = -l.alpha * v
	}
}

func (l *logisticTarget) GradLogLik(dst, w []float64) {
	clear(dst)
	for n, f := range l.phi {
		r := l.sign[n] * (1 - approx.Sigmoid(l.act(n, w)))
		for i, v := range f {
			dst[i] += r * v
		}
	}
}

func (l *logisticTarget) SamplePrior(dst []float64, rnd *rand.Rand) []float64 {
	if len(dst) != len(l.phi[0]) {
		dst = make([]float64, len(l.phi[0]))
	}
	for i := range dst {
		dst[i] = rnd.NormFloat64() / math.Sqrt(l.alpha)
	}
	return dst
}

// testErrors counts the test points on the wrong side of w (the probit
// approximation of the predictive, PRML eq. (4.155), keeps the sign of
// the mean activation, so this is the Bayes decision of every Gaussian q).
func testErrors(phi [][]float64, t []int, w []float64) int {
	bad := 0
	for n, f := range phi {
		var a float64
		for i, v := range f {
			a += v * w[i]
		}
		if (a > 0) != (t[n] == 1) {
			bad++
		}
	}
	return bad
}

// RunPima fits VB, Laplace, EP and ML and estimates ln p(t) five ways.
func RunPima(env *experiments.Env, c *PimaConfig) error {
	var xs [2][][]float64
	var ts [2][]int
	for k, name := range []string{c.Train, c.Test} {
		data, err := env.ReadData(name)
		if err != nil {
			return err
		}
		if xs[k], ts[k], err = readPima(name, data); err != nil {
			return err
		}
	}
	phi, phiTest, err := standardise(c.Train, c.Test, xs[0], xs[1])
	if err != nil {
		return err
	}
	t, tTest := ts[0], ts[1]
	m := len(phi[0])
	s := &results.Summary{Criteria: pimaCriteria}
	get := pimaCriteria.Get
	tab := results.NewTable("method", "test_errors", "lnp", "lnp_se")

	// VB (JJ bound) with α fixed and with q(α), through vb.Run's
	// monotonicity check.
	fitVB := func(p approx.LogisticPrior) (*approx.Logistic, vb.Result, error) {
		v, err := approx.NewLogistic(phi, t, p)
		if err != nil {
			return nil, vb.Result{}, err
		}
		res := vb.Run(v, c.VB.Settings(env.Stop, v))
		return v, res, res.Err
	}
	v, res, err := fitVB(approx.LogisticPrior{Alpha: c.Prior.Alpha})
	if err != nil {
		return err
	}
	vh, resH, err := fitVB(approx.LogisticPrior{Hyper: true, A0: c.Prior.A0, B0: c.Prior.B0})
	if err != nil {
		return err
	}
	s.Judge(get("pima-vb-monotone"), float64(b2i(res.Status == vb.BoundDecreased)+b2i(resH.Status == vb.BoundDecreased)))
	s.SetMetric("vb_hyper_alpha", vh.AN/vh.BN)
	s.SetMetric("vb_hyper_iterations", float64(resH.Iterations))
	// Laplace and ML.
	lap, err := approx.Laplace(approx.LogisticJoint(phi, t, c.Prior.Alpha), make([]float64, m))
	if err != nil {
		return err
	}
	ml, err := approx.Laplace(approx.LogisticJoint(phi, t, c.MLAlpha), make([]float64, m))
	if err != nil {
		return err
	}
	// EP with one ProjectedFactor per point.
	var fs []approx.Factor
	for n, f := range phi {
		sg := 2*float64(t[n]) - 1
		fs = append(fs, approx.ProjectedFactor{A: f, LogG: func(u float64) float64 { return approx.LogSigmoid(sg * u) }, Tol: numeric.QuadTol{Rel: 1e-10}})
	}
	prior := approx.Normal{Mean: make([]float64, m), Cov: make([]float64, m*m)}
	for i := range m {
		prior.Cov[i*m+i] = 1 / c.Prior.Alpha
	}
	ep, err := approx.NewEP(prior, fs, approx.EPSettings{MaxIterations: c.EP.MaxIterations, Tol: c.EP.Tol})
	if err != nil {
		return err
	}
	epConverged, err := ep.Run()
	if err != nil {
		return err
	}
	if !epConverged {
		env.Warnf("EP did not converge in %d sweeps", c.EP.MaxIterations)
	}
	lnEP, err := ep.LogEvidence()
	if err != nil {
		return err
	}

	// IS from a Student t on the VB posterior, its scale widened.
	cov := mat.NewSymDense(m, nil)
	for i := range m {
		for j := range m {
			cov.SetSym(i, j, c.IS.Widen*c.IS.Widen*v.Cov[i*m+j])
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(cov) {
		return fmt.Errorf("the VB covariance is not positive definite")
	}
	mean := append([]float64(nil), v.Mean...)
	signs := make([]float64, len(t))
	for n := range t {
		signs[n] = 2*float64(t[n]) - 1
	}
	_, isSum := is.SampleRuns(c.IS.Runs, c.IS.Samples, env.CellWorkers(c.IS.Runs), is.RunStreams(c.Seed, "pima", "is"),
		func() (is.Proposal, is.Target) {
			return is.NewStudentT(c.IS.Nu, mean, &chol), &logisticTarget{phi: phi, sign: signs, alpha: c.Prior.Alpha}
		})

	// AIS with HMC under a geometric schedule; the step is a fraction of
	// the tempered posterior's smallest standard deviation, from the VB
	// precision's largest diagonal entry.
	target := &logisticTarget{phi: phi, sign: signs, alpha: c.Prior.Alpha}
	hmax := 0.0
	for i := range m {
		var h float64
		for _, f := range phi {
			h += 0.25 * f[i] * f[i] // σ(1 − σ) ≤ ¼
		}
		hmax = math.Max(hmax, h)
	}
	sampler := ais.Sampler[[]float64]{Model: target,
		NewKernel: func() mcmc.Kernel[[]float64] {
			return &mcmc.HMC{Target: target, Steps: c.AIS.Leapfrog, StepSize: func(beta float64) float64 {
				return c.AIS.Step / math.Sqrt(c.Prior.Alpha+beta*hmax)
			}}
		}}
	runs, _, err := config.Sample(c.AIS.AIS, sampler, env.CellWorkers(c.AIS.Runs), c.Seed, "pima", "ais")
	if err != nil {
		return err
	}
	lnAIS, seAIS := ais.Pool(ais.LogWeights(runs))
	var acc mcmc.Stats
	for i := range runs {
		acc.Add(runs[i].Stats())
	}

	errs := map[string]int{"vb": testErrors(phiTest, tTest, v.Mean), "vb_hyper": testErrors(phiTest, tTest, vh.Mean), "laplace": testErrors(phiTest, tTest, lap.Q.Mean),
		"ep": testErrors(phiTest, tTest, ep.Q().Mean), "ml": testErrors(phiTest, tTest, ml.Q.Mean)}
	lnp := map[string][2]float64{"vb": {res.F, 0}, "vb_hyper": {resH.F, 0}, "laplace": {lap.LnZ, 0}, "ep": {lnEP, 0}, "is": {isSum.Pooled, isSum.SE}, "ais": {lnAIS, seAIS}}
	for _, k := range []string{"vb", "vb_hyper", "laplace", "ep", "ml"} {
		s.SetMetric("test_errors_"+k, float64(errs[k]))
		s.Judge(get("table3.1-ripley-66").For(strings.ReplaceAll(k, "_", "-")), float64(errs[k]))
		l := lnp[k]
		if k == "ml" {
			l = [2]float64{math.NaN(), math.NaN()}
		}
		tab.AddRow(k, errs[k], l[0], l[1])
	}
	for _, k := range []string{"is", "ais"} {
		tab.AddRow(k, "", lnp[k][0], lnp[k][1])
	}
	for k, l := range lnp {
		s.SetMetric("lnp_"+k, l[0])
	}
	s.SetMetric("lnp_ais_se", seAIS)
	s.SetMetric("lnp_is_se", isSum.SE)
	s.SetMetric("ais_acceptance", acc.Rate())
	s.SetMetric("vb_iterations", float64(res.Iterations))
	s.SetMetric("ep_sweeps", float64(ep.Iterations))
	s.Judge(get("pima-vb-below-ais"), lnAIS-res.F)
	s.Judge(get("pima-is-ais-agree"), math.Abs(isSum.Pooled-lnAIS)/math.Sqrt(isSum.SE*isSum.SE+seAIS*seAIS))
	if err := results.WriteCSV(env.Path("pima_table.csv"), *tab); err != nil {
		return err
	}
	s.Claims = []results.Claim{{Artifact: "Lawrence Table 3.1",
		Checks:    []string{"table3.1-ripley-66", "pima-vb-below-ais", "pima-is-ais-agree", "pima-vb-monotone"},
		Statement: "Ripley's logistic regression makes 66 errors on the 332 test points (Lawrence L1467); the Bayesian fits should be near it, and the VB bound below the sampled ln p(t)."}}
	s.AddFindingsFromChecks(nil)
	return env.WriteSummary(s, fmt.Sprintf("Pima: %d training and %d test points, the seven inputs standardised by the training mean and sd (divisor n) with a bias; prior w ~ N(0, I/%g) on all %d weights (PRML's isotropic prior 10.165 with α fixed; PRML gives no value); vb_hyper is the same VB fit with α ~ Gam(%g, %g) and q(w)q(α) (PRML §10.6.3), its bound a bound on the evidence of that model. ML is Newton with α = %g. IS: %d runs of %d draws from a Student t (ν = %g) on the VB posterior with its scale widened %g×. AIS: %d runs, %d steps of the %s schedule (τ(1) = %g if geometric), HMC with %d leapfrog steps.",
		len(phi), len(phiTest), c.Prior.Alpha, m, c.Prior.A0, c.Prior.B0, c.MLAlpha, c.IS.Runs, c.IS.Samples, c.IS.Nu, c.IS.Widen, c.AIS.Runs, c.AIS.Steps, c.AIS.Schedule, c.AIS.Tau1, c.AIS.Leapfrog))
}
