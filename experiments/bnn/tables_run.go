package bnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/bnn"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/experiments/datasets"
	"github.com/vbworkbench/vbw/samplers/bnnhmc"
	"gonum.org/v1/gonum/mat"
)

// tablesData is a data set of the tables: the standardised training and
// test patterns, and the map back to the target's units.
type tablesData struct {
	x, xTest   [][]float64
	t, tTest   []float64 // standardised targets
	tMean, tSD float64   // target = tMean + tSD · standardised
	// norm is the variance the squared errors are divided by (sunspots:
	// the NMSE by nmse_years; 1 on Tecator, whose error is the RMSE).
	norm float64
	// testRatio is norm over the variance of the test targets (divisor
	// n): an NMSE normalised by the test set's variance instead is the
	// NMSE times testRatio (sunspots only).
	testRatio float64
	// altRatio is norm over the variance of the series over
	// nmse_alt_years: the NMSE under the other normalisation is the NMSE
	// times altRatio (sunspots only).
	altRatio float64
	note     string
}

// score is the table's error of predictions pred (standardised units) of
// the targets tt (standardised): NMSE = mean squared error over norm on
// sunspots, RMSE on Tecator, both in the data's units.
func (d *tablesData) score(pred, tt []float64, sunspots bool) float64 {
	var s float64
	for i, p := range pred {
		e := (p - tt[i]) * d.tSD
		s += e * e
	}
	s /= float64(len(pred))
	if sunspots {
		return s / d.norm
	}
	return math.Sqrt(s)
}

func (c *TablesConfig) read(env *experiments.Env) (*tablesData, error) {
	raw, err := env.ReadData(c.Data)
	if err != nil {
		return nil, err
	}
	if c.sunspots() {
		return c.readSunspots(raw)
	}
	return c.readTecator(raw)
}

// readSunspots standardises the series by the mean and sd (divisor n) of
// the training years (L2193: "normalised to have a zero mean and unit
// variance") and builds the lagged patterns; the NMSE divides by the
// variance of the series over nmse_years (divisor n).
func (c *TablesConfig) readSunspots(raw []byte) (*tablesData, error) {
	s, err := datasets.ReadSunspots(c.Data, raw)
	if err != nil {
		return nil, err
	}
	train, err := s.Range(c.TrainYears[0], c.TrainYears[1])
	if err != nil {
		return nil, config.FieldError("train_years", c.TrainYears, err.Error())
	}
	all, err := s.Range(c.NMSEYears[0], c.NMSEYears[1])
	if err != nil {
		return nil, config.FieldError("nmse_years", c.NMSEYears, err.Error())
	}
	mean, sd := numeric.MeanSD(train)
	if !(sd > 0) {
		return nil, fmt.Errorf("%s: the training years %v are constant", c.Data, c.TrainYears)
	}
	_, vsd := numeric.MeanSD(all)
	if !(vsd > 0) {
		return nil, config.FieldError("nmse_years", c.NMSEYears, "the series is constant over these years")
	}
	z := make([]float64, len(s.Value))
	for i, v := range s.Value {
		z[i] = (v - mean) / sd
	}
	d := &tablesData{tMean: mean, tSD: sd, norm: vsd * vsd}
	if d.x, d.t, err = s.Lagged(z, c.Lags, c.TrainYears[0]+c.Lags, c.TrainYears[1]); err != nil {
		return nil, config.FieldError("train_years", c.TrainYears, err.Error())
	}
	if d.xTest, d.tTest, err = s.Lagged(z, c.Lags, c.TestYears[0], c.TestYears[1]); err != nil {
		return nil, config.FieldError("test_years", c.TestYears, err.Error())
	}
	alt, err := s.Range(c.NMSEAltYears[0], c.NMSEAltYears[1])
	if err != nil {
		return nil, config.FieldError("nmse_alt_years", c.NMSEAltYears, err.Error())
	}
	_, asd := numeric.MeanSD(alt)
	if !(asd > 0) {
		return nil, config.FieldError("nmse_alt_years", c.NMSEAltYears, "the series is constant over these years")
	}
	_, tsd := numeric.MeanSD(d.tTest)
	d.testRatio = d.norm / (tsd * tsd * sd * sd)
	d.altRatio = d.norm / (asd * asd)
	d.note = fmt.Sprintf("%s: %d training patterns (targets %d-%d, %d lags), %d test patterns (%d-%d); the series standardised by its training mean %.4g and sd %.4g (divisor n); NMSE = test MSE / %.6g, the variance of the series %d-%d (divisor n); nmse_alt_* = test MSE / %.6g, the variance of %d-%d",
		c.Data, len(d.t), c.TrainYears[0]+c.Lags, c.TrainYears[1], c.Lags, len(d.tTest), c.TestYears[0], c.TestYears[1], mean, sd, d.norm, c.NMSEYears[0], c.NMSEYears[1], asd*asd, c.NMSEAltYears[0], c.NMSEAltYears[1])
	return d, nil
}

// readTecator takes the first train_rows rows for training, the rest for
// the test, projects the absorbances on the first components principal
// axes of the training rows (each score scaled to unit training
// variance) and standardises the target by its training mean and sd; the
// RMSE is in the target's units (percent).
func (c *TablesConfig) readTecator(raw []byte) (*tablesData, error) {
	tc, err := datasets.ReadTecator(c.Data, raw)
	if err != nil {
		return nil, err
	}
	n := len(tc.Absorbance)
	if c.TrainRows >= n {
		return nil, config.FieldError("train_rows", c.TrainRows, fmt.Sprintf("must be below the %d rows of %s (the rest are the test set)", n, c.Data))
	}
	if c.Components > len(tc.Absorbance[0]) {
		return nil, config.FieldError("components", c.Components, fmt.Sprintf("more than the %d absorbances of %s", len(tc.Absorbance[0]), c.Data))
	}
	target := map[string][]float64{"fat": tc.Fat, "water": tc.Water, "protein": tc.Protein}[c.Target]
	x, xt, explained, err := datasets.PrincipalComponents(tc.Absorbance[:c.TrainRows], tc.Absorbance[c.TrainRows:], c.Components)
	if err != nil {
		return nil, config.FieldError("components", c.Components, err.Error())
	}
	mean, sd := numeric.MeanSD(target[:c.TrainRows])
	if !(sd > 0) {
		return nil, fmt.Errorf("%s: %s is constant on the training rows", c.Data, c.Target)
	}
	d := &tablesData{x: x, xTest: xt, tMean: mean, tSD: sd, norm: 1}
	for i, v := range target {
		if i < c.TrainRows {
			d.t = append(d.t, (v-mean)/sd)
		} else {
			d.tTest = append(d.tTest, (v-mean)/sd)
		}
	}
	var ex float64
	for _, e := range explained {
		ex += e
	}
	d.note = fmt.Sprintf("%s: rows 1-%d train, %d-%d test; inputs the first %d principal components of the %d absorbances (PCA of the training rows about their mean, covariance divisor n; %.6g of their variance), each scaled to unit training variance; target %s standardised by its training mean %.4g and sd %.4g (divisor n); RMSE in %s's units",
		c.Data, c.TrainRows, c.TrainRows+1, n, c.Components, len(tc.Absorbance[0]), ex, c.Target, mean, sd, c.Target)
	return d, nil
}

// rowResult is one row's result on one seed.
type rowResult struct {
	Method, Prior string
	Seed          int
	Error         float64 // the table's test error (NMSE or RMSE)
	TrainError    float64 // the same error on the training patterns
	// Extra are the method's own numbers (log evidence, γ, the bound,
	// acceptance, ESS, hidden units kept), finite values only.
	Extra map[string]float64
}

func (r rowResult) row() tableRow { return tableRow{r.Method, r.Prior} }

// tablesCell is one cell: a method group (early stopping, the evidence
// procedure, the variational fits — diagonal and mixture in one cell, the
// mixture starting from the diagonal fit —, HMC) with one prior on one seed.
type tablesCell struct {
	Group, Prior string
	Seed         int
	Rows         []rowResult
}

// cellGroups lists the cells of the config.
func (c *TablesConfig) cellGroups() []tablesCell {
	var out []tablesCell
	seen := map[string]bool{}
	for _, r := range c.rows() {
		g := r.Method
		if g == mVBDiag || g == mVBMix {
			g = "vb"
		}
		key := g + "/" + r.Prior
		if seen[key] {
			continue
		}
		seen[key] = true
		for s := range c.Seeds {
			out = append(out, tablesCell{Group: g, Prior: r.Prior, Seed: s})
		}
	}
	return out
}

func (t tablesCell) name() string {
	if t.Prior == "" {
		return fmt.Sprintf("%s/seed=%d", t.Group, t.Seed)
	}
	return fmt.Sprintf("%s/%s/seed=%d", t.Group, t.Prior, t.Seed)
}

func predictAll(p bnn.Predictive, x [][]float64) []float64 {
	out := make([]float64, len(x))
	for i, xi := range x {
		out[i], _ = p.Predict(xi)
	}
	return out
}

func finite(m map[string]float64) map[string]float64 {
	for k, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			delete(m, k)
		}
	}
	return m
}

// runCell computes one cell.
func (c *TablesConfig) runCell(d *tablesData, cell tablesCell) (tablesCell, error) {
	p, err := bnn.NewProblem(bnn.Arch{In: len(d.x[0]), Hidden: c.Hidden}, d.x, d.t)
	if err != nil {
		return cell, err
	}
	r := rng.New(c.Seed, c.Experiment, cell.Group, cell.Prior, strconv.Itoa(cell.Seed))
	prior := priorNames[cell.Prior]
	result := func(method string, pred bnn.Predictive, extra map[string]float64) rowResult {
		return rowResult{Method: method, Prior: cell.Prior, Seed: cell.Seed,
			Error:      d.score(predictAll(pred, d.xTest), d.tTest, c.sunspots()),
			TrainError: d.score(predictAll(pred, d.x), d.t, c.sunspots()), Extra: finite(extra)}
	}
	switch cell.Group {
	case mEarly:
		e := c.EarlyStopping
		fit, err := bnn.EarlyStopping(p, bnn.EarlyStoppingSettings{Validation: e.Validation, MaxIterations: e.MaxIterations, Patience: e.Patience}, r)
		if err != nil {
			return cell, err
		}
		cell.Rows = append(cell.Rows, result(mEarly, fit, map[string]float64{"iterations": float64(fit.Iterations), "best_iteration": float64(fit.Best), "validation_mse": fit.ValidationMSE}))
	case mEvidence:
		e := c.Evidence
		lap, err := bnn.Evidence(p, prior, bnn.EvidenceSettings{Alpha0: e.Alpha0, Beta0: e.Beta0, Cycles: e.Cycles, MaxIterations: e.MaxIterations, Tol: e.Tol, Inits: e.Inits}, r)
		if err != nil {
			return cell, err
		}
		cell.Rows = append(cell.Rows, result(mEvidence, lap, map[string]float64{"log_evidence": lap.LogEvidence, "gamma": lap.Gamma, "beta": lap.Beta, "negative_eigenvalues": float64(lap.NegativeEigen)}))
	case "vb":
		rows, err := c.runVB(p, prior, cell, r, result)
		if err != nil {
			return cell, err
		}
		cell.Rows = rows
	case mHMC:
		h := c.HMC
		hs := bnn.HMCSettings{Samples: h.Samples, Burn: h.Burn, NoBurn: h.Burn == 0, Leapfrog: h.Leapfrog, Step: h.Step,
			Persistence: h.Persistence, FullRefresh: h.Persistence == 0, AdaptAccept: h.AdaptAccept, Hyper: c.hyper(),
			Alpha: []float64{c.Evidence.Alpha0}, Beta: c.Evidence.Beta0, Chains: h.Chains, Workers: 1}
		if h.Start == "evidence" {
			e := c.Evidence
			lap, err := bnn.Evidence(p, prior, bnn.EvidenceSettings{Alpha0: e.Alpha0, Beta0: e.Beta0, Cycles: e.Cycles, MaxIterations: e.MaxIterations, Tol: e.Tol, Inits: 1}, r)
			if err != nil {
				return cell, fmt.Errorf("the start of the chains: %w", err)
			}
			hs.Start, hs.Alpha, hs.Beta = lap.W, lap.Alpha, lap.Beta
		}
		res, err := bnnhmc.SampleHMC(p, prior, hs, r)
		if err != nil {
			return cell, err
		}
		cell.Rows = append(cell.Rows, result(mHMC, res, map[string]float64{"accept_rate": res.AcceptRate, "ess_min": res.ESSMin, "rhat_max": res.RHatMax}))
	default:
		return cell, fmt.Errorf("unknown cell group %q", cell.Group)
	}
	return cell, nil
}

// runVB fits the diagonal posterior from Variational.Inits starts, keeps
// the largest bound (L2201-2203), and starts the mixture from it (L2203).
func (c *TablesConfig) runVB(p *bnn.Problem, prior bnn.Prior, cell tablesCell, r *rand.Rand, result func(string, bnn.Predictive, map[string]float64) rowResult) ([]rowResult, error) {
	v := c.Variational
	var best *bnn.VB
	rounds := v.Rounds
	if prior == bnn.NRD {
		rounds = v.NRDRounds
	}
	for i := range v.Inits {
		fit, err := bnn.FitVB(p, prior, bnn.VBSettings{Components: 1, Hyper: c.hyper(), InitAlpha: []float64{c.Evidence.Alpha0}, InitBeta: c.Evidence.Beta0,
			Rounds: rounds, WeightIterations: v.WeightIterations, Prune: prior == bnn.NRD, PruneInputs: prior == bnn.NRD}, r)
		if err != nil {
			return nil, fmt.Errorf("diagonal fit %d: %w", i, err)
		}
		if best == nil || fit.Bound().F > best.Bound().F {
			best = fit
		}
	}
	extra := func(f *bnn.VB) map[string]float64 {
		return map[string]float64{"bound": f.Bound().F, "beta": f.Beta(), "hidden_kept": float64(f.Arch().Hidden), "inputs_kept": float64(len(f.Inputs()))}
	}
	var rows []rowResult
	if slices.Contains(c.Methods, mVBDiag) {
		rows = append(rows, result(mVBDiag, best, extra(best)))
	}
	if slices.Contains(c.Methods, mVBMix) {
		mix, err := bnn.FitVB(p, prior, bnn.VBSettings{Components: v.Components, Hyper: c.hyper(), From: best,
			Rounds: v.MixRounds, WeightIterations: v.MixIterations, SmoothIterations: v.SmoothIterations}, r)
		if err != nil {
			return nil, fmt.Errorf("mixture: %w", err)
		}
		e := extra(mix)
		e["mi_bound"], e["mi_min_overlap"] = mix.MutualInformation()
		rows = append(rows, result(mVBMix, mix, e))
	}
	return rows, nil
}

// regression fits the linear and quadratic least-squares baselines of
// Table 5.2 (Thodberg's rows, L2225-2226) on the same inputs and returns
// their test errors.
func (c *TablesConfig) regression(d *tablesData) (linear, quadratic float64, err error) {
	feats := func(x []float64, quad bool) []float64 {
		f := append([]float64{1}, x...)
		if quad {
			for i := range x {
				for j := i; j < len(x); j++ {
					f = append(f, x[i]*x[j])
				}
			}
		}
		return f
	}
	fit := func(quad bool) (float64, error) {
		k := len(feats(d.x[0], quad))
		if k >= len(d.x) {
			return math.NaN(), nil
		}
		a := mat.NewDense(len(d.x), k, nil)
		for i, x := range d.x {
			a.SetRow(i, feats(x, quad))
		}
		var qr mat.QR
		qr.Factorize(a)
		var beta mat.Dense
		if err := qr.SolveTo(&beta, false, mat.NewDense(len(d.t), 1, slices.Clone(d.t))); err != nil {
			return 0, fmt.Errorf("least squares: %w", err)
		}
		pred := make([]float64, len(d.xTest))
		for i, x := range d.xTest {
			f := feats(x, quad)
			for j := range f {
				pred[i] += f[j] * beta.At(j, 0)
			}
		}
		return d.score(pred, d.tTest, c.sunspots()), nil
	}
	if linear, err = fit(false); err != nil {
		return 0, 0, err
	}
	quadratic, err = fit(true)
	return linear, quadratic, err
}
