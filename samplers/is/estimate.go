package is

import (
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// LogMeanExp returns ln((1/N) Σ_i exp(xs[i])) computed with the maximum
// subtracted; applied to log weights it is ln Ẑ, the log of the unbiased
// estimate of Z (Beal (2003) eqs. (4.106)–(4.107)). It panics if xs is empty
// and does not allocate.
func LogMeanExp(xs []float64) float64 {
	if len(xs) == 0 {
		panic(noSamples)
	}
	return numeric.LogSumExp(xs) - math.Log(float64(len(xs)))
}

// ESS returns the effective sample size of the log weights logw,
//
//	ESS = (Σ_m w_m)² / Σ_m w_m²,
//
// computed relative to the largest weight so that it never overflows
// (Beal (2003) §4.7; ch4-mfa spec §1.11). It lies in [1, N] when some weight
// is positive and finite; it is 0 when every weight is 0 and NaN when a log
// weight is NaN or +Inf. It panics if logw is empty and does not allocate.
func ESS(logw []float64) float64 {
	if len(logw) == 0 {
		panic(noSamples)
	}
	m := math.Inf(-1)
	for _, v := range logw {
		if math.IsNaN(v) || math.IsInf(v, 1) {
			return math.NaN()
		}
		m = math.Max(m, v)
	}
	if math.IsInf(m, -1) {
		return 0
	}
	var s1, s2 float64
	for _, v := range logw {
		e := math.Exp(v - m)
		s1 += e
		s2 += e * e
	}
	return s1 * s1 / s2
}

// Estimate holds the estimates of one run of N importance samples from q
// (Beal (2003) §4.7.1).
type Estimate struct {
	// N is the number of samples.
	N int
	// LogZ is ln Ẑ = ln (1/N) Σ_m w_m, eqs. (4.106)–(4.107): Ẑ is unbiased
	// for Z = p(y), so LogZ is biased low, and it is consistent.
	LogZ float64
	// MeanLogW is F̂ = (1/N) Σ_m ln w_m, eqs. (4.108)–(4.109): an unbiased
	// estimate of the lower bound F(q) = ∫ q ln(p*/q) of the proposal.
	MeanLogW float64
	// ESS is the effective sample size (Σ w)²/Σ w².
	ESS float64
}

// EstimateFrom returns the estimates of the log weights logw. It panics if
// logw is empty and does not allocate.
func EstimateFrom(logw []float64) Estimate {
	var s float64
	for _, v := range logw {
		s += v
	}
	return Estimate{
		N:        len(logw),
		LogZ:     LogMeanExp(logw),
		MeanLogW: s / float64(len(logw)),
		ESS:      ESS(logw),
	}
}

// KL returns KL̂ = ln Ẑ − F̂, the estimate of eq. (4.112) of
//
//	KL(q ‖ p(θ | y)) = ln Z − F(q),
//
// the divergence from the proposal q to the exact posterior p*(θ)/Z, i.e. the
// gap between ln p(y) and the bound F(q) over the sampled parameters. When q
// is the VB posterior q(π)q(Λ̃) this is the KL of Figure 4.13(b); the gap to
// the full VB bound F_VB, which also involves the hidden variables, is
// LogZ − F_VB (Beal (2003) line 3048). The thesis calls the estimator
// unbiased; in fact ln Ẑ is biased low, so KL̂ is biased low (but
// consistent), and by Jensen's inequality KL̂ ≥ 0 for every sample.
func (e Estimate) KL() float64 { return e.LogZ - e.MeanLogW }

// Summary summarises independent runs (Beal (2003) Figure 4.14, line 3149:
// "the error bars are the standard errors in the estimate, assuming the
// logarithm of the estimates from the five runs are Gaussian distributed").
type Summary struct {
	// Runs is the number of runs R.
	Runs int
	// Mean is the mean of ln Ẑ_r over runs.
	Mean float64
	// SD is the unbiased sample standard deviation (divisor R − 1) of ln Ẑ_r;
	// it is NaN for one run.
	SD float64
	// SE is SD/√R, the standard error of Mean.
	SE float64
	// Pooled is ln Ẑ from all samples of all runs together,
	// ln(Σ_r N_r Ẑ_r / Σ_r N_r); it has less bias than Mean.
	Pooled float64
	// MeanLogW is F̂ from all samples together.
	MeanLogW float64
}

// KL returns Pooled − MeanLogW, the estimate of eq. (4.112) from all samples
// together (see Estimate.KL).
func (s Summary) KL() float64 { return s.Pooled - s.MeanLogW }

// Summarize returns the Summary of the runs ests. It panics if ests is empty.
func Summarize(ests []Estimate) Summary {
	r := len(ests)
	if r == 0 {
		panic(noSamples)
	}
	var mean, f float64
	var n int
	var acc logSumAcc
	acc.reset()
	for _, e := range ests {
		mean += e.LogZ
		f += float64(e.N) * e.MeanLogW
		n += e.N
		acc.add(e.LogZ + math.Log(float64(e.N)))
	}
	mean /= float64(r)
	sd := math.NaN()
	if r > 1 {
		var ss float64
		for _, e := range ests {
			d := e.LogZ - mean
			ss += d * d
		}
		sd = math.Sqrt(ss / float64(r-1))
	}
	return Summary{
		Runs:     r,
		Mean:     mean,
		SD:       sd,
		SE:       sd / math.Sqrt(float64(r)),
		Pooled:   acc.value() - math.Log(float64(n)),
		MeanLogW: f / float64(n),
	}
}

// logSumAcc accumulates ln Σ exp(x_i) in one pass with a running maximum, so
// that no slice of terms is needed.
type logSumAcc struct {
	max, sum float64 // Σ exp(x_i − max)
	nan      bool
}

func (a *logSumAcc) reset() { *a = logSumAcc{max: math.Inf(-1)} }

func (a *logSumAcc) add(x float64) {
	switch {
	case math.IsNaN(x):
		a.nan = true
	case math.IsInf(x, -1):
	case x > a.max:
		if math.IsInf(x, 1) {
			a.max = x
			return
		}
		a.sum = a.sum*math.Exp(a.max-x) + 1
		a.max = x
	default:
		if !math.IsInf(a.max, 1) {
			a.sum += math.Exp(x - a.max)
		}
	}
}

func (a *logSumAcc) value() float64 {
	switch {
	case a.nan:
		return math.NaN()
	case math.IsInf(a.max, 0):
		return a.max
	}
	return a.max + math.Log(a.sum)
}

// Moments returns the self-normalised importance-sampling estimates of the
// mean and second moment of every coordinate of θ under the target,
//
//	E[θ_i] ≈ Σ_m w_m θ_mi / Σ_m w_m,   E[θ_i²] ≈ Σ_m w_m θ_mi² / Σ_m w_m,
//
// from the points x[m] = θ_m and their log weights logw[m]: the ratio
// estimate of self-normalised importance sampling, which needs the target
// only up to its normaliser (Neal 2001, "Annealed importance sampling",
// §3, where the points are the final states of AIS runs).
// The weights are taken relative to the largest, w_m = exp(ln w_m − max),
// which cancels in the ratio and keeps every term finite. The estimates are
// consistent but biased by O(1/ESS). ok is false, and mean and second nil,
// when the largest log weight is not finite (every weight zero, or a NaN or
// +Inf among them). It panics if logw is empty or x has another length.
func Moments(logw []float64, x [][]float64) (mean, second []float64, ok bool) {
	if len(logw) == 0 {
		panic(noSamples)
	}
	if len(x) != len(logw) {
		panic("is: Moments needs one point per log weight")
	}
	top := math.Inf(-1)
	for _, v := range logw {
		top = math.Max(top, v)
	}
	if math.IsInf(top, 0) || math.IsNaN(top) {
		return nil, nil, false
	}
	d := len(x[0])
	mean, second = make([]float64, d), make([]float64, d)
	var wsum float64
	for m, v := range logw {
		w := math.Exp(v - top)
		wsum += w
		for i, xi := range x[m][:d] {
			mean[i] += w * xi
			second[i] += w * xi * xi
		}
	}
	for i := range d {
		mean[i] /= wsum
		second[i] /= wsum
	}
	return mean, second, true
}
