package chapter6

import (
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/experiments"
)

// This file holds the chapter's estimates (experiments.Cost), checked
// against the limits before a run starts. Every fit and every AIS step
// works on the distinct observed vectors of the data (at most 625,
// patterns), every drawn data point is kept as a row of four ints.

var (
	cfgKey = experiments.Key
	fixed  = experiments.Fixed
	words  = experiments.Words
	ops    = experiments.Ops
)

// Per-unit costs of the estimates.
const (
	// rowWords is the memory of one drawn data point: its row of four
	// observed values (a slice header and four ints) and the hidden
	// values drawn with it.
	rowWords = 12
	// patternOps is the work of one E step (EM or VBEM) or one likelihood
	// of an AIS step per distinct observed vector: the four joint hidden
	// configurations of four children.
	patternOps = 50
	// proposalOps is the work of one Dirichlet proposal of an AIS step.
	proposalOps = 200
	// stepWords is the memory of one AIS step: τ(k), ln R_k and the
	// kernel's counts.
	stepWords = 4
)

// candidates is the number of structures every sweep scores.
var candidates = fixed(dag.NumCandidates, "structures")

// patternSum returns Σ patterns(n) over sizes, the work of a sweep of
// them per unit of patternOps, as a factor of the key.
func patternSum(key string, sizes []int) experiments.Factor {
	var s float64
	for _, n := range sizes {
		s += math.Min(float64(n), 625)
	}
	return experiments.KeyN(key, sizes, s, "distinct observed vectors, summed over the sizes")
}

// scoring returns the work of scoring the candidates (EM and VBEM from
// every restart, at most max_iterations each) on data whose distinct
// vectors, summed, are patterns, times the factors of times.
func (s Scoring) scoring(patterns experiments.Factor, times ...experiments.Factor) experiments.Part {
	iterations := cfgKey("scores.max_iterations", s.Scores.MaxIterations)
	if s.Scores.EMStop == "converged" {
		// EM runs to dag.ConvergedMaxIterations, VBEM to max_iterations.
		iterations = experiments.KeyN("scores.em_stop", s.Scores.EMStop,
			float64(s.Scores.MaxIterations+dag.ConvergedMaxIterations)/2, "iterations of EM and VBEM, on average")
	}
	return ops("EM and VBEM restarts", 2*patternOps, append(slices.Clone(times), candidates,
		cfgKey("scores.restarts", s.Scores.Restarts), iterations, patterns)...)
}

// aisWork returns the work of AIS runs of k steps on data sets data sets
// whose distinct vectors, summed, are patterns (times the factors of
// times): a proposal and a likelihood each step.
func aisWork(what string, k, datasets, patterns experiments.Factor, times ...experiments.Factor) []experiments.Part {
	return []experiments.Part{
		ops(what+": likelihoods", patternOps, append(slices.Clone(times), k, patterns)...),
		ops(what+": proposals", proposalOps, append(slices.Clone(times), k, datasets)...),
	}
}

// Estimate returns the cost of the (data seed, size) scoring cells, the
// (size, run) AIS cells and the exact cell.
func (c *SingleConfig) Estimate() experiments.Cost {
	seeds := experiments.KeyN("data_seeds", c.DataSeeds, float64(len(c.DataSeeds)), "data seeds")
	sizes := experiments.KeyN("sizes", c.Sizes, float64(len(c.Sizes)), "sizes")
	maxN := experiments.KeyN("sizes", c.Sizes, float64(slices.Max(c.Sizes)), "points (largest size)")
	runs, k := cfgKey("ais.runs", c.AIS.Runs), cfgKey("ais.steps", c.AIS.Steps)
	patterns := patternSum("sizes", c.Sizes)
	scoring := fixed(float64(len(c.DataSeeds)), "data seeds")
	if c.FromCSCheck {
		scoring.N += 0.5 // one more VBEM per structure on the main data
	}
	cells := experiments.KeyN("ais.runs", c.AIS.Runs, (float64(len(c.DataSeeds))+float64(c.AIS.Runs))*sizes.N+1, "cells")
	var exact float64
	if c.ExactN > 0 {
		exact = math.Pow(4, float64(c.ExactN)) * float64(c.ExactN)
	}
	cost := experiments.Cost{
		Cells: []experiments.Factor{cells},
		Memory: []experiments.Part{
			words("drawn data", seeds, maxN, fixed(rowWords, "words a point")),
			experiments.Rows("score table rows", seeds, sizes, candidates, fixed(2, "tables")),
			experiments.Rows("AIS table rows", runs, sizes, candidates, fixed(2, "tables")),
		},
		CellMemory: []experiments.Part{words("an AIS run", k, fixed(stepWords, "words a step"))},
		Work: append([]experiments.Part{
			c.Scoring.scoring(patterns, scoring),
			ops("exact ln p(y|m)", 20, candidates, experiments.KeyN("exact_n", c.ExactN, exact, "paths × points")),
			ops("drawing the data", 20, seeds, maxN),
		}, aisWork("AIS", k, sizes, patterns, runs, candidates)...),
	}
	return cost
}

// Estimate returns the cost of the (instance, size) cells, each of which
// draws its instance's data at the largest size and scores every
// structure.
func (c *PriorConfig) Estimate() experiments.Cost {
	inst := cfgKey("instances", c.Instances)
	sizes := experiments.KeyN("sizes", c.Sizes, float64(len(c.Sizes)), "sizes")
	maxN := experiments.KeyN("sizes", c.Sizes, float64(slices.Max(c.Sizes)), "points (largest size)")
	return experiments.Cost{
		Cells:      []experiments.Factor{inst, sizes},
		Memory:     []experiments.Part{experiments.Rows("rank and Δ table rows", inst, sizes, fixed(float64(len(Methods)), "methods"))},
		CellMemory: []experiments.Part{words("drawn data", maxN, fixed(rowWords, "words a point"))},
		Work: []experiments.Part{
			c.Scoring.scoring(patternSum("sizes", c.Sizes), inst),
			ops("drawing the data", 20, inst, sizes, maxN),
		},
	}
}

// mainData returns the memory of the data of MainData under the key
// prefix and their distinct vectors.
func (d MainData) mainData(prefix string) (experiments.Part, experiments.Factor) {
	n := cfgKey(prefix+"n", d.N)
	return words("drawn data", n, fixed(rowWords, "words a point")),
		experiments.KeyN(prefix+"n", d.N, math.Min(float64(d.N), 625), "distinct observed vectors")
}

// Estimate returns the cost of the traces (an AIS run at every K of the
// grid from one initial θ each) and the reference scores.
func (c *GranularityConfig) Estimate() experiments.Cost {
	data, patterns := c.MainData.mainData("")
	traces := experiments.KeyN("random_traces", c.RandomTraces, float64(c.RandomTraces+1), "traces")
	var sumK float64
	for _, k := range c.StepsGrid {
		sumK += float64(k)
	}
	k := experiments.KeyN("steps_grid", c.StepsGrid, sumK, "steps, summed over the grid")
	return experiments.Cost{
		Cells:      []experiments.Factor{traces},
		Memory:     []experiments.Part{data, experiments.Rows("fig6_10.csv rows", traces, experiments.KeyN("steps_grid", c.StepsGrid, float64(len(c.StepsGrid)), "runs a trace"))},
		CellMemory: []experiments.Part{words("an AIS run", experiments.KeyN("steps_grid", c.StepsGrid, float64(slices.Max(c.StepsGrid)), "steps (largest K)"), fixed(stepWords, "words a step"))},
		Work: append(aisWork("AIS", k, fixed(1, "data set"), patterns, traces),
			ops("reference scores", 2*patternOps, cfgKey("scores.restarts", c.Scores.Restarts), cfgKey("scores.max_iterations", c.Scores.MaxIterations), patterns)),
	}
}

// Estimate returns the cost of the plotted schedules and, when the
// hysteresis runs, of its (e_τ, K) cells of forward and reverse passes.
func (c *SchedulesConfig) Estimate() experiments.Cost {
	etau := experiments.KeyN("e_tau_values", c.ETauValues, float64(len(c.ETauValues)), "values of e_τ")
	points := cfgKey("points", c.Points)
	cost := experiments.Cost{
		Memory: []experiments.Part{experiments.Rows("fig6_13.csv rows", etau, points)},
		Work:   []experiments.Part{ops("the schedules", 30, etau, points)},
	}
	h := c.Hysteresis
	if !h.Enabled {
		return cost
	}
	data, patterns := h.MainData.mainData("hysteresis.")
	var sumK float64
	for _, k := range h.StepsGrid {
		sumK += float64(k)
	}
	nk := experiments.KeyN("hysteresis.steps_grid", h.StepsGrid, float64(len(h.StepsGrid)), "values of K")
	passes := experiments.KeyN("hysteresis.passes", h.Passes, 2*float64(h.Passes), "passes (forward and reverse)")
	cost.Cells = []experiments.Factor{etau, nk}
	cost.Memory = append(cost.Memory, data)
	cost.CellMemory = []experiments.Part{words("a forward and a reverse pass", fixed(2, "passes"),
		experiments.KeyN("hysteresis.steps_grid", h.StepsGrid, float64(slices.Max(h.StepsGrid)), "steps (largest K)"), fixed(stepWords, "words a step"))}
	cost.Work = append(cost.Work, aisWork("AIS passes", experiments.KeyN("hysteresis.steps_grid", h.StepsGrid, sumK, "steps, summed over steps_grid"),
		fixed(1, "data set"), patterns, etau, passes)...)
	return cost
}

// Estimate returns the cost of Algorithm 6.2 on every structure for each
// data mode, and on the known-answer model: EM for θ̂, then R
// perturbations of every parameter and their singular values.
func (c *DimsConfig) Estimate() experiments.Cost {
	modes := experiments.KeyN("data", c.DataModes, float64(len(c.DataModes)), "data modes")
	n := cfgKey("n_data", c.NData)
	patterns := experiments.KeyN("n_data", c.NData, math.Min(float64(c.NData), 625), "distinct observed vectors")
	r := cfgKey("R", c.R)
	params := fixed(80, "parameters (bound)")
	return experiments.Cost{
		Cells:      []experiments.Factor{fixed(modes.N+1, "cells")},
		Memory:     []experiments.Part{words("drawn data", n, fixed(rowWords, "words a point"))},
		CellMemory: []experiments.Part{words("perturbation matrices", fixed(2, "matrices"), r, params)},
		Work: []experiments.Part{
			c.Scoring.scoring(patterns, modes),
			ops("perturbations", patternOps, modes, candidates, r, params, patterns),
			ops("singular values", 10, modes, candidates, r, params, params),
		},
	}
}
