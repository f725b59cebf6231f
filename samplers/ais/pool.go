package ais

import (
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/samplers/is"
)

// LogWeights returns the LogW of each run.
func LogWeights(runs []Run) []float64 {
	lw := make([]float64, len(runs))
	for g := range runs {
		lw[g] = runs[g].LogW
	}
	return lw
}

// Moments returns the self-normalised estimates of the posterior mean and
// second moment of every coordinate from the final states of runs
// (RunsFinal: final[g] of runs[g]),
//
//	E[x_i] ≈ Σ_g w_g x_gi / Σ_g w_g,   E[x_i²] ≈ Σ_g w_g x_gi² / Σ_g w_g,
//
// with w_g = exp(LogW_g), the run's importance weight (Neal 2001,
// "Annealed importance sampling", §3): is.Moments of the runs' log
// weights. A state that is not a []float64, or a functional g(x) other
// than a coordinate, is mapped to the coordinates wanted first. ok is
// false when no weight is positive and finite; Moments panics if runs is
// empty or final has another length.
func Moments(runs []Run, final [][]float64) (mean, second []float64, ok bool) {
	return is.Moments(LogWeights(runs), final)
}

// Pool returns the pooled estimate of Beal (2003) eq. (6.61) (seed text
// lines 4612–4615),
//
//	ln Ẑ = ln[(1/G) Σ_g exp(ln w_g)],
//
// computed with a log-sum-exp so that weights near e^−59000 (chapter 6 at
// n = 10240) are handled, together with the standard error of ln Ẑ by the
// delta method,
//
//	se = sd_g(w_g) / (√G · mean_g(w_g)),
//
// with the sample standard deviation (divisor G − 1), evaluated on the
// weights scaled by 1/Ẑ. se is NaN when G < 2 or when ln Ẑ is not finite.
// Because the log of an unbiased estimate is biased low by about se²/2, se
// is meaningful only when it is small. Pool panics if logw is empty.
func Pool(logw []float64) (logZ, se float64) {
	g := len(logw)
	if g == 0 {
		panic("ais: no runs to pool")
	}
	logZ = numeric.LogSumExp(logw) - math.Log(float64(g))
	if g < 2 || math.IsInf(logZ, 0) || math.IsNaN(logZ) {
		return logZ, math.NaN()
	}
	var ss float64
	for _, v := range logw {
		d := math.Exp(v-logZ) - 1
		ss += d * d
	}
	return logZ, math.Sqrt(ss / float64(g*(g-1)))
}

// LogWSE returns sd(ln w)/√G over the G runs' log weights (sample
// standard deviation, divisor G − 1): the standard error of their mean
// ln w. When a few runs carry most of the weight, Pool's delta-method se
// understates the spread of ln Ẑ over repeated sets of runs; LogWSE is a
// floor under it (for log-normal weights of spread σ the true se is
// √((e^σ² − 1)/G) ≥ σ/√G). It is NaN when G < 2 or a log weight is not
// finite.
func LogWSE(logw []float64) float64 {
	g := len(logw)
	if g < 2 {
		return math.NaN()
	}
	var m, m2 float64 // Welford
	for i, v := range logw {
		d := v - m
		m += d / float64(i+1)
		m2 += d * (v - m)
	}
	return math.Sqrt(m2/float64(g-1)) / math.Sqrt(float64(g))
}

// PoolRatios returns the all-ratios combination of G runs with the same
// schedule,
//
//	ln Ẑ = Σ_k ln[(1/G) Σ_g R_k^(g)],
//
// which is step 2(b) of Algorithm 6.1 of Beal (2003) with C_k = G
// importance samples per temperature, taken from G independent chains
// instead of from one chain, followed by step 3. For G = 1 it equals the
// run's LogW, and for K = 1 it equals Pool's estimate. Unlike (6.61) it is
// not unbiased in general: each ratio is averaged separately and the
// product of averages is not the average of products (the nota bene at
// lines 4610–4611 says unbiasedness is unproved for C_k > 1); the thesis
// reports (6.61). PoolRatios panics if runs is empty or the runs differ in K.
func PoolRatios(runs []Run) float64 {
	g := len(runs)
	if g == 0 {
		panic("ais: no runs to pool")
	}
	k := runs[0].K()
	for i := range runs {
		if runs[i].K() != k {
			panic("ais: runs differ in the number of annealing steps")
		}
	}
	col := make([]float64, g)
	lnG := math.Log(float64(g))
	var sum float64
	for j := 0; j < k; j++ {
		for i := range runs {
			col[i] = runs[i].LogR[j]
		}
		sum += numeric.LogSumExp(col) - lnG
	}
	return sum
}
