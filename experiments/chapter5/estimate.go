package chapter5

import (
	"slices"

	"github.com/vbworkbench/vbw/experiments"
)

// This file holds the chapter's estimates (experiments.Cost), checked
// against the limits before a run starts. chapter5/genes measures its data
// file at Prepare (experiments.DataRows, DataCols): the genes are bounded
// by the fields of a row and the table by the file's rows; the time points
// of a series are tcell.csv's, checked when the file is read.

// tcellTimes is the number of time points of a series of tcell.csv.
const tcellTimes = 10

// ldsSize is the size of one fit of a VB (or MAP) LDS: the time steps of
// its training sequences (a product of factors), its outputs p, its hidden
// dimensions k and k + d with its inputs.
type ldsSize struct {
	steps    []experiments.Factor
	p, k, kd experiments.Factor
}

// newSize returns the fit of k hidden dimensions (the key kKey, the size
// k) with d inputs and p outputs on the time steps steps.
func newSize(kKey string, kValue any, k, d float64, p experiments.Factor, steps ...experiments.Factor) ldsSize {
	return ldsSize{steps: steps, p: p, k: experiments.KeyN(kKey, kValue, k, "hidden dimensions"),
		kd: experiments.KeyN(kKey, kValue, k+d, "state and input dimensions")}
}

// memory returns what a fit holds: the smoothed means, covariances and
// cross-covariances of every time step, the data and inputs, and the
// posterior of the rows of [C D] with its statistics.
func (f ldsSize) memory() []experiments.Part {
	steps := func(more ...experiments.Factor) []experiments.Factor { return append(slices.Clone(f.steps), more...) }
	return []experiments.Part{
		experiments.Words("smoothed state moments", steps(experiments.Fixed(3, "moments"), f.k, f.k)...),
		experiments.Words("data of a fit", steps(experiments.Fixed(2, "copies"), f.p.Plus(f.kd.N-f.k.N, "outputs and inputs"))...),
		experiments.Words("posterior of [C D] and its statistics", experiments.Fixed(4, "matrices"), f.p.Plus(f.kd.N, "p + k + d"), f.kd),
	}
}

// work returns the work of iterations of the fit (the product of times):
// per time step the variational Kalman smoother's k³ and k²p, the
// statistics' (k + d)² and p(k + d); per iteration the M step's
// (k + d)²(k + d + p).
func (f ldsSize) work(what string, times ...experiments.Factor) []experiments.Part {
	of := func(more ...experiments.Factor) []experiments.Factor {
		return append(append(slices.Clone(times), f.steps...), more...)
	}
	return []experiments.Part{
		experiments.Ops(what+": smoother (k³)", 10, of(f.k, f.k, f.k)...),
		experiments.Ops(what+": smoother's outputs (k²p)", 4, of(f.k, f.k, f.p)...),
		experiments.Ops(what+": statistics ((k + d)²)", 2, of(f.kd, f.kd)...),
		experiments.Ops(what+": outputs' statistics (p(k + d))", 2, of(f.p, f.kd)...),
		experiments.Ops(what+": M steps", 2, append(slices.Clone(times), f.kd, f.kd, f.p.Plus(f.kd.N, "k + d + p"))...),
	}
}

// Estimate returns the cost of the seeds × prefix lengths cells (and the
// comparison runs with the other cross_init): every cell draws the whole
// sequence of data.t_max steps, then fits its prefix; the longest prefix
// continues to extended.max_total_iterations, its hyperparameters
// recorded at every iteration (twice with [extended.compare_hyper]).
func (c *DimensionalityConfig) Estimate() experiments.Cost {
	seeds := experiments.Key("seeds", c.Seeds)
	lengths := float64(len(c.TGrid))
	var sumT float64
	for _, T := range c.TGrid {
		sumT += float64(T)
	}
	if c.Model.CompareCrossInit {
		lengths++
		sumT += float64(c.TGrid[len(c.TGrid)-1])
	}
	perSeed := experiments.KeyN("t_grid", c.TGrid, lengths, "fits a seed")
	p, k := experiments.Key("data.p", c.Data.P), float64(c.Model.K)
	tMax := experiments.Key("data.t_max", c.Data.TMax)
	kTrue := experiments.KeyN("data.eigenvalues", c.Data.Eigenvalues, float64(len(c.Data.Eigenvalues)), "true dimensions")
	longest := newSize("model.k", c.Model.K, k, 0, p, experiments.KeyN("t_grid", c.TGrid, float64(slices.Max(c.TGrid)), "steps (longest prefix)"))
	all := newSize("model.k", c.Model.K, k, 0, p, experiments.KeyN("t_grid", c.TGrid, sumT, "steps, summed over the fits of a seed"))
	vbIt := experiments.Key("vb.max_iterations", c.VB.MaxIterations)
	ext := experiments.Key("extended.max_total_iterations", c.Extended.MaxTotalIterations)
	kk := experiments.Key("model.k", c.Model.K)
	if c.Extended.CompareHyper != nil {
		// The longest sequence fitted again, as long, with the other
		// hyperparameter schedule.
		ext = ext.Plus(ext.N, "iterations of both continued runs")
	}
	cost := experiments.Cost{
		Cells: []experiments.Factor{seeds, perSeed},
		Memory: []experiments.Part{
			experiments.Rows("trace.csv rows", seeds, perSeed, vbIt),
			experiments.Rows("params.csv rows of ⟨A⟩ and ⟨C⟩", seeds, perSeed, kk, p.Plus(k, "k + p")),
			experiments.Rows("trace.csv rows of the continued runs", seeds, ext),
			experiments.Rows("hyper_trace.csv rows", seeds, ext, kk),
		},
		CellMemory: append(longest.memory(),
			experiments.Words("the drawn sequence", tMax, p.Plus(kTrue.N, "outputs and states")),
			experiments.Words("the run's hyperparameter trajectory", ext, experiments.Fixed(2, "groups"), kk)),
		Work: append(all.work("VBEM", seeds, vbIt), longest.work("VBEM continued", seeds, ext)...),
	}
	cost.Work = append(cost.Work, experiments.Ops("drawing the sequences", 4, seeds, perSeed, tMax, kTrue, p.Plus(kTrue.N, "k_true + p")))
	return cost
}

// Estimate returns the cost of the noise inputs × seeds cells, each one
// VBEM run whose hyperparameters are recorded at every iteration.
func (c *InputsConfig) Estimate() experiments.Cost {
	const d = 3
	seeds := experiments.Key("seeds", c.Seeds)
	noise := experiments.KeyN("noise_inputs", c.NoiseInputs, float64(len(c.NoiseInputs)), "noise inputs")
	p, T := experiments.Key("data.p", c.Data.P), experiments.Key("data.t", c.Data.T)
	fit := newSize("model.k", c.Model.K, float64(c.Model.K), d, p, T)
	it := experiments.Key("vb.max_iterations", c.VB.MaxIterations)
	record := experiments.Fixed(2*float64(c.Model.K)+2*d+1, "words an iteration (1/α, 1/β, 1/γ, 1/δ, F)")
	return experiments.Cost{
		Cells: []experiments.Factor{noise, seeds},
		Memory: []experiments.Part{
			experiments.Words("kept hyperparameter traces", noise, seeds, it, record),
			experiments.Rows("trace.csv rows", noise, seeds, it),
			experiments.Rows("hyper_trace.csv rows of the first seeds", noise, it, record),
			experiments.Rows("fig5_6_data.csv rows", noise, T, p.Plus(3+float64(len(c.Data.Eigenvalues)), "inputs, states and outputs")),
		},
		CellMemory: fit.memory(),
		Work:       fit.work("VBEM", noise, seeds, it),
	}
}

// geneCost returns the cost of the gene pipeline (genePipeline.cells) on
// train training sequences of T steps each, p genes (the inputs are the
// bias and the p genes at t − 1), tested on test more sequences; noisy
// counts the noisy interaction fit.
func (g GeneSettings) geneCost(seeds, p, train, test, T experiments.Factor, noisy bool) experiments.Cost {
	d := p.N + 1
	grid := g.Model.KGrid
	kMax := float64(slices.Max(grid))
	extra := 1.0
	if noisy {
		extra++
	}
	methods := experiments.Fixed(2, "methods")
	cells := []experiments.Factor{seeds, experiments.KeyN("model.k_grid", grid, 2*float64(len(grid))+1+extra, "cells a seed")}
	iters := experiments.Key("vb.max_iterations", max(g.VB.MaxIterations, g.MAP.MaxIterations))
	cost := experiments.Cost{
		Cells: cells,
		Memory: []experiments.Part{
			experiments.Rows("trace.csv rows", append(slices.Clone(cells), iters)...),
			experiments.Rows("interaction table rows", seeds, experiments.Fixed(4+extra, "fits"), p, p),
		},
		CellMemory: newSize("model.k_grid", grid, kMax, d, p, train, T).memory(),
	}
	// The fits at every k of the grid, and the one-step predictions,
	// which run the smoother on every prefix of every sequence.
	for _, k := range grid {
		f := newSize("model.k_grid", grid, float64(k), d, p, train, T)
		cost.Work = append(cost.Work, f.work("VB and MAP fits", seeds, methods, iters)...)
		f.steps = []experiments.Factor{train.Plus(test.N, "sequences"), T, T}
		cost.Work = append(cost.Work, f.work("one-step predictions", seeds, methods)[:2]...)
	}
	inter := newSize("interactions.k", g.Interactions.K, float64(g.Interactions.K), d, p, train, T)
	cost.Work = append(cost.Work, inter.work("interaction fits", seeds, experiments.Fixed(extra+1, "fits"), iters)...)
	return cost
}

// Estimate returns the cost of the pipeline on tcell.csv: 30 training
// and 4 + 10 test series of 10 time points, 58 genes.
func (c *GenesConfig) Estimate() experiments.Cost {
	train := float64(c.Data.TrainReplicates[1] - c.Data.TrainReplicates[0] + 1)
	test := float64(c.Data.TestReplicates[1]-c.Data.TestReplicates[0]+1) + 10
	// The replicates are those of the file; the ranges are checked
	// against it when it is read.
	genes := experiments.DataCols("data.file", c.Data.File, "fields a row (a bound of the genes)")
	cost := c.GeneSettings.geneCost(experiments.Key("seeds", c.Seeds), genes,
		experiments.KeyN("data.train_replicates", c.Data.TrainReplicates[:], train, "training series"),
		experiments.Fixed(test, "test series"), experiments.Fixed(tcellTimes-1, "time steps a series"), false)
	cost.Memory = append(cost.Memory, experiments.Rows("the data and its table",
		experiments.DataRows("data.file", c.Data.File, "rows (a series at a time point)"), genes))
	return cost
}

// Estimate returns the cost of the pipeline on the surrogate: every seed
// draws it (and its noisy variant) once, with D_true's eigenvalues.
func (c *SurrogateConfig) Estimate() experiments.Cost {
	p, T := experiments.Key("data.p", c.Data.P), experiments.Key("data.t", c.Data.T)
	train := experiments.Key("data.n_train", c.Data.NTrain)
	n := experiments.Key("data.n_sequences", c.Data.N)
	seeds := experiments.Key("seeds", c.Seeds)
	cost := c.GeneSettings.geneCost(seeds, p, train, experiments.Fixed(float64(c.Data.N-c.Data.NTrain), "test series"),
		experiments.KeyN("data.t", c.Data.T, float64(c.Data.T-1), "time steps a series"), c.NoisyObsNoiseSD > 0)
	variants := experiments.Fixed(2, "variants")
	cost.Memory = append(cost.Memory,
		experiments.Words("the drawn surrogates", seeds, variants, experiments.Fixed(3, "copies"), n, T, p),
		experiments.Rows("expression.csv rows", seeds, n, T, p),
		experiments.Words("D_true", seeds, variants, p, p))
	cost.Work = append(cost.Work, experiments.Ops("drawing the surrogates", 4, seeds, variants, n, T, p, p),
		experiments.Ops("D_true's eigenvalues", 30, seeds, variants, p, p, p))
	return cost
}
