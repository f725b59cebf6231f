package is

import (
	"math/rand/v2"
	"strconv"

	"github.com/vbworkbench/vbw/core/parallel"
	"github.com/vbworkbench/vbw/core/rng"
)

const (
	badDim    = "is: dimension mismatch"
	badParam  = "is: invalid parameter"
	noSamples = "is: no samples"
)

// Target is an unnormalised log density ln p*(θ) = ln p(y | θ) + ln p(θ) of a
// flat parameter vector θ (Beal (2003) eq. (4.103), the joint p(θ, y) of
// eq. (4.113)). It may return −Inf outside the support. A Target may keep
// scratch space and need not be safe for concurrent use.
type Target interface {
	LogProb(theta []float64) float64
}

// Proposal is a normalised importance distribution q(θ) on vectors of length
// Dim (g(θ) in Beal (2003) eqs. (4.93)–(4.95)).
//
// RandLogProb draws θ ~ q into dst, which must have length Dim, using only
// rnd, and returns ln q(θ) of the draw; LogProb(θ) returns ln q(θ) at any θ
// (−Inf outside the support). The two must agree to rounding: the log
// weights of an exact proposal are then all equal. Implementations should
// not allocate in either method.
type Proposal interface {
	Target
	Dim() int
	RandLogProb(dst []float64, rnd *rand.Rand) float64
}

// LogWeight draws θ ~ q into theta and returns the log importance weight
//
//	ln w = ln p*(θ) − ln q(θ)
//
// (Beal (2003) eqs. (4.103)–(4.104) before normalisation by Z_ω). It panics
// if len(theta) != q.Dim(). LogWeight allocates nothing beyond what q and p
// allocate.
func LogWeight(theta []float64, q Proposal, p Target, rnd *rand.Rand) float64 {
	if len(theta) != q.Dim() {
		panic(badDim)
	}
	lq := q.RandLogProb(theta, rnd)
	return p.LogProb(theta) - lq
}

// LogWeightsTo fills dst with len(dst) log weights of independent draws from
// q (see LogWeight) and returns dst. theta is scratch of length q.Dim(); if
// it is nil it is allocated. The last draw is left in theta.
func LogWeightsTo(dst, theta []float64, q Proposal, p Target, rnd *rand.Rand) []float64 {
	if theta == nil {
		theta = make([]float64, q.Dim())
	}
	for m := range dst {
		dst[m] = LogWeight(theta, q, p, rnd)
	}
	return dst
}

// Run is one independent importance-sampling run: its log weights and the
// estimates computed from them.
type Run struct {
	LogW []float64
	Estimate
}

// Sample performs one run of m draws from q with the stream rnd and returns
// its log weights and estimates (Beal (2003) eqs. (4.106)–(4.112)). A run
// depends only on q, p, m and the state of rnd, so runs with separate streams
// are independent units of work. It panics if m < 1.
func Sample(m int, q Proposal, p Target, rnd *rand.Rand) Run {
	if m < 1 {
		panic(noSamples)
	}
	lw := LogWeightsTo(make([]float64, m), nil, q, p, rnd)
	return Run{LogW: lw, Estimate: EstimateFrom(lw)}
}

// SampleDraws is Sample that keeps the draws: the run's log weights and
// estimates, and draws[i] the θ of log weight i (len m·q.Dim(), row i at
// i·q.Dim()), for the self-normalised posterior moments (Moments). It
// draws the same random numbers as Sample.
func SampleDraws(m int, q Proposal, p Target, rnd *rand.Rand) (Run, []float64) {
	if m < 1 {
		panic(noSamples)
	}
	d := q.Dim()
	lw, th := make([]float64, m), make([]float64, m*d)
	for i := range lw {
		lw[i] = LogWeight(th[i*d:(i+1)*d], q, p, rnd)
	}
	return Run{LogW: lw, Estimate: EstimateFrom(lw)}, th
}

// RunStreams returns the stream of each run r of an experiment:
// rng.New(seed, labels..., "run", r). Pass it to SampleRuns.
func RunStreams(seed uint64, labels ...string) func(run int) *rand.Rand {
	base := append([]string(nil), labels...)
	return func(run int) *rand.Rand {
		l := append(append(make([]string, 0, len(base)+2), base...), "run", strconv.Itoa(run))
		return rng.New(seed, l...)
	}
}

// SampleRuns performs runs independent runs of m samples on up to workers
// goroutines (workers ≤ 0 means runtime.GOMAXPROCS(0)) and returns them in
// run order together with their Summary. Run r draws only from stream(r);
// every worker calls newWorker once for its own Proposal and Target, which
// must behave identically across calls. The result is therefore the same for
// any number of workers. The six runs of Figure 4.13 and the five of Figure
// 4.14 (Beal (2003) lines 3058, 3146) are such runs.
func SampleRuns(runs, m, workers int, stream func(run int) *rand.Rand, newWorker func() (Proposal, Target)) ([]Run, Summary) {
	if runs < 1 || m < 1 {
		panic(noSamples)
	}
	out := make([]Run, runs)
	type worker struct {
		q Proposal
		p Target
	}
	ws := make([]worker, parallel.Workers(workers, runs))
	for w := range ws {
		ws[w].q, ws[w].p = newWorker()
	}
	parallel.With(runs, ws, func(w worker, r int) {
		out[r] = Sample(m, w.q, w.p, stream(r))
	})
	ests := make([]Estimate, runs)
	for r := range out {
		ests[r] = out[r].Estimate
	}
	return out, Summarize(ests)
}
