package bnnhmc

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/bnn"
	"github.com/vbworkbench/vbw/samplers/mcmc"
)

// SampleHMC draws from the posterior p(w, α, β | D) of the network of p
// under prior: each of s.Chains chains makes s.Samples trajectories of
// s.Leapfrog leapfrog steps on ln p(w | D, α, β) = −βE_D − Σ_g α_g E_{w,g}
// (bnn.Posterior; persistent momenta unless s.FullRefresh), and after each
// trajectory redraws α and β from their gamma conditionals (unless
// s.FixHyper); the first s.Burn samples are dropped and every s.Thin-th of
// the rest kept. Chain c draws only from the stream
// mcmc.ChainStream(seed, c, "bnn/hmc") with seed drawn once from r, so the
// result does not depend on s.Workers.
//
// The result is a bnn.Predictive (the samples' mean of f and its variance
// plus the mean of 1/β) and carries the acceptance statistics, the
// effective sample sizes of f at the probe inputs and of E_D, and their
// split-R̂ over the chains.
func SampleHMC(p *bnn.Problem, prior bnn.Prior, s bnn.HMCSettings, r *rand.Rand) (*bnn.HMCResult, error) {
	if p == nil {
		return nil, fmt.Errorf("bnnhmc: nil problem")
	}
	if err := p.Arch.Check(); err != nil {
		return nil, err
	}
	s = s.WithDefaults()
	k := p.Arch.NumWeights()
	if err := s.Check(k); err != nil {
		return nil, err
	}
	if _, err := bnn.NewPosterior(p, prior, s.Alpha, s.Beta); err != nil {
		return nil, err
	}
	probes := s.Probes
	if len(probes) == 0 {
		n := len(p.X)
		probes = [][]float64{p.X[0], p.X[n/2], p.X[n-1]}
	}
	for j, x := range probes {
		if len(x) != p.In {
			return nil, fmt.Errorf("bnnhmc: probe %d has %d inputs, the network %d", j, len(x), p.In)
		}
	}
	plan := mcmc.Plan{Burn: s.Burn, Keep: (s.Samples - s.Burn) / s.Thin, Thin: s.Thin}
	seed := r.Uint64()
	chains, err := mcmc.Chains(s.Chains, s.Workers, seed, []string{"bnn/hmc"}, func(c int, rnd *rand.Rand) (*chain, error) {
		return runChain(p, prior, s, plan, probes, rnd)
	})
	if err != nil {
		return nil, err
	}
	return collect(p.Arch, chains, probes), nil
}

// chain is the output of one chain.
type chain struct {
	w, alpha     [][]float64
	beta, errorD []float64
	probe        [][]float64 // [probe][kept]
	kept, burn   mcmc.Stats
	sumProb      float64
	step         float64
}

// runChain runs one chain of SampleHMC.
func runChain(p *bnn.Problem, prior bnn.Prior, s bnn.HMCSettings, plan mcmc.Plan, probes [][]float64, rnd *rand.Rand) (*chain, error) {
	post, err := bnn.NewPosterior(p, prior, s.Alpha, s.Beta)
	if err != nil {
		return nil, err
	}
	w0 := make([]float64, p.NumWeights())
	if s.Start != nil {
		copy(w0, s.Start)
	} else {
		netlabInit(p.Arch, w0, rnd)
	}
	eps := s.Step
	h := &mcmc.HMC{Target: post, Steps: s.Leapfrog, Persistence: s.Persistence,
		StepSize: func(float64) float64 {
			if s.ScaleStep {
				return eps * math.Sqrt(s.Beta/post.Beta)
			}
			return eps
		}}
	scale := make([]float64, len(w0))
	capStep := func() {
		h.Scale = nil
		if !s.CapPriorStep {
			return
		}
		for k := range scale {
			scale[k] = math.Min(1, 1/(eps*math.Sqrt(post.Alpha[post.Group[k]])))
			if scale[k] < 1 {
				h.Scale = scale
			}
		}
	}
	pt := mcmc.NewPoint[[]float64](post, w0)
	if !(pt.LogLik > math.Inf(-1)) {
		return nil, fmt.Errorf("bnnhmc: the start's log likelihood is %v", pt.LogLik)
	}
	out := &chain{probe: make([][]float64, len(probes))}
	for j := range probes {
		out.probe[j] = make([]float64, 0, plan.Keep)
	}
	var da *mcmc.DualAveraging
	if s.AdaptAccept > 0 {
		da = mcmc.NewDualAveraging(eps, s.AdaptAccept)
	}
	for t := range plan.Transitions() {
		capStep()
		st := h.Step(&pt, 1, rnd)
		if t < plan.Burn {
			out.burn.Add(st)
			if da != nil {
				// Dual averaging toward the target acceptance
				// probability; its averaged step after the burn-in.
				eps = da.Update(h.LastAcceptProb)
				if t == plan.Burn-1 {
					eps = da.Final()
				}
			}
		} else {
			out.kept.Add(st)
			out.sumProb += h.LastAcceptProb
		}
		var ed float64
		if s.FixHyper || t < s.HyperFrom {
			ed = -pt.LogLik / post.Beta
		} else {
			ed = post.Resample(pt.X, s.Hyper, true, true, rnd)
			pt.LogPrior, pt.LogLik = post.LogPrior(pt.X), -post.Beta*ed
		}
		if _, ok := plan.Kept(t); !ok {
			continue
		}
		out.w = append(out.w, append([]float64(nil), pt.X...))
		out.alpha = append(out.alpha, append([]float64(nil), post.Alpha...))
		out.beta = append(out.beta, post.Beta)
		out.errorD = append(out.errorD, ed)
		for j, x := range probes {
			out.probe[j] = append(out.probe[j], p.Forward(pt.X, x, nil))
		}
	}
	out.step = eps
	return out, nil
}

// netlabInit draws w as NETLAB's mlp initialises a two-layer network:
// first-layer weights and biases N(0, 1/(I+1)), second-layer N(0, 1/(H+1)).
func netlabInit(a bnn.Arch, w []float64, rnd *rand.Rand) {
	s1, s2 := 1/math.Sqrt(float64(a.In+1)), 1/math.Sqrt(float64(a.Hidden+1))
	for k := range w {
		if k < a.U() {
			w[k] = s1 * rnd.NormFloat64()
		} else {
			w[k] = s2 * rnd.NormFloat64()
		}
	}
}

// collect joins the chains into a result with its diagnostics.
func collect(a bnn.Arch, cs []*chain, probes [][]float64) *bnn.HMCResult {
	res := &bnn.HMCResult{Arch: a, Chains: len(cs), Probes: probes}
	var burn mcmc.Stats
	var sumProb float64
	ed := make([][]float64, len(cs))
	for c, ch := range cs {
		res.W = append(res.W, ch.w...)
		res.Alpha = append(res.Alpha, ch.alpha...)
		res.Beta = append(res.Beta, ch.beta...)
		res.ErrorTrace = append(res.ErrorTrace, ch.errorD...)
		res.Accepted += ch.kept.Accepted
		res.Proposed += ch.kept.Proposed
		res.Step = append(res.Step, ch.step)
		burn.Add(ch.burn)
		sumProb += ch.sumProb
		ed[c] = ch.errorD
	}
	res.AcceptRate = mcmc.Stats{Proposed: res.Proposed, Accepted: res.Accepted}.Rate()
	res.MeanAcceptProb = sumProb / float64(res.Proposed)
	res.BurnAcceptRate = burn.Rate()
	res.ErrorESS, res.ErrorRHat = mcmc.ESSChains(ed), mcmc.SplitRHat(ed)
	res.ESSMin, res.RHatMax = res.ErrorESS, res.ErrorRHat
	for j := range probes {
		tr := make([][]float64, len(cs))
		for c, ch := range cs {
			tr[c] = ch.probe[j]
		}
		e, rh := mcmc.ESSChains(tr), mcmc.SplitRHat(tr)
		res.ProbeESS = append(res.ProbeESS, e)
		res.ProbeRHat = append(res.ProbeRHat, rh)
		res.ESSMin = nanMin(res.ESSMin, e)
		res.RHatMax = nanMax(res.RHatMax, rh)
	}
	return res
}

// nanMin and nanMax ignore a NaN operand unless both are NaN.
func nanMin(a, b float64) float64 {
	if math.IsNaN(a) {
		return b
	}
	if math.IsNaN(b) {
		return a
	}
	return min(a, b)
}

func nanMax(a, b float64) float64 {
	if math.IsNaN(a) {
		return b
	}
	if math.IsNaN(b) {
		return a
	}
	return max(a, b)
}
