package chapter3

import (
	"slices"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
)

// This file holds the chapter's estimates (experiments.Cost), checked
// against the limits before a run starts. The sizes of data read from a
// file are bounded by the file's size in bytes (experiments.DataBytes,
// measured at Prepare): a file of strings has no more symbols, nor a longer
// string, than bytes, and a text no more characters. A run checks its
// memory once more when the data are read (env.CheckMemory with
// hmmMemory), with the exact sizes.

var (
	words = experiments.Words
	ops   = experiments.Ops
)

// hmmParts returns the memory of fits HMM fits running at once with the
// states k over p symbols on sequences of at most longest symbols
// (hmm.MemoryBytes): the parameter-sized arrays of k(k+p) words of each
// (eight: the posterior, its copies, the counts) and its forward messages
// over the longest sequence.
func hmmParts(fits float64, k experiments.Factor, p int, longest experiments.Factor) []experiments.Part {
	return []experiments.Part{
		words("HMM fits' parameter arrays", experiments.Fixed(8*fits, "arrays"), k, kPlusP(k, p)),
		words("HMM fits' forward messages", experiments.Fixed(fits, "fits"), longest, k),
	}
}

// kPlusP is k + p, the size of a row of A and C together.
func kPlusP(k experiments.Factor, p int) experiments.Factor {
	return k.Plus(float64(p), "states + symbols")
}

// fbOps is the work of one iteration of Baum-Welch or VBEM a symbol and
// state pair: the forward and backward passes and the expected counts,
// about 4 operations per entry of A and C.
const fbOps = 4

// shape returns the factors of the synthetic data: the symbols of one data
// set and its longest sequence.
func (d SyntheticData) shape() (symbols []experiments.Factor, longest experiments.Factor) {
	if d.Generator == "" {
		return []experiments.Factor{experiments.DataBytes("data.file", d.File, "bytes of the file (a bound of its symbols)")},
			experiments.DataBytes("data.file", d.File, "bytes of the file (a bound of its longest string)")
	}
	return []experiments.Factor{experiments.Fixed(3, "grammars"), experiments.Key("data.sequences_per_grammar", d.SequencesPerGrammar), experiments.Key("data.max_length", d.MaxLength)},
		experiments.Key("data.max_length", d.MaxLength)
}

// fitParts returns the cost of a sweep of cells, each fitting ML then VB
// to k-state HMMs over p symbols with their traces kept: the data of sets
// data sets, the kept results (a cell per element of the product of
// kept), the memory of a cell's fits at the largest k, kMax, and the work
// of the fits (the product of fitted, times kWork: k(k+p), or its sum over
// a list of k).
func fitParts(cells, kept, fitted []experiments.Factor, d SyntheticData, sets, kMax, kWork experiments.Factor,
	ml, vb config.FitSettings) experiments.Cost {
	p := d.pOf()
	symbols, longest := d.shape()
	with := func(fs []experiments.Factor, more ...experiments.Factor) []experiments.Factor {
		return append(slices.Clone(fs), more...)
	}
	mlIt, vbIt := experiments.Key("ml.max_iterations", ml.MaxIterations), experiments.Key("vb.max_iterations", vb.MaxIterations)
	c := experiments.Cost{Cells: cells,
		Memory: []experiments.Part{
			words("data", with([]experiments.Factor{sets}, symbols...)...),
			experiments.Rows("trace rows of ML (trace.csv, terms.csv)", with(kept, mlIt, experiments.Fixed(2, "rows an iteration"))...),
			experiments.Rows("trace rows of VB (trace.csv, terms.csv)", with(kept, vbIt, experiments.Fixed(5, "rows an iteration"))...),
			experiments.Rows("params.csv rows", with(kept, experiments.Fixed(3, "sets"), kMax, kPlusP(kMax, p))...),
		},
		CellMemory: hmmParts(2, kMax, p, longest),
	}
	for _, it := range []experiments.Factor{mlIt, vbIt} {
		c.Work = append(c.Work, ops("forward-backward passes", fbOps, with(with(fitted, it), append(symbols, kWork)...)...))
	}
	return c
}

// Estimate returns the cost of the data sets × restarts cells.
func (c *SyntheticConfig) Estimate() experiments.Cost {
	sets, restarts, k := experiments.Key("data.datasets", c.Data.Datasets), experiments.Key("restarts", c.Restarts), experiments.Key("model.k", c.Model.K)
	cells := []experiments.Factor{sets, restarts}
	return fitParts(cells, cells, cells, c.Data, sets, k,
		experiments.KeyN("model.k", c.Model.K, k.N*(k.N+float64(c.Data.pOf())), "k(k+p)"), c.ML.FitSettings, c.VB.FitSettings)
}

// sweepFactors returns the factors of a k sweep: the number of ks, the
// largest k and the sum of k(k+p) over the list.
func (w *KSweep) sweepFactors() (nk, kMax, kWork experiments.Factor) {
	var sum float64
	for _, k := range w.Model.K {
		sum += float64(k) * float64(k+w.Data.pOf())
	}
	return experiments.KeyN("model.k", w.Model.K, float64(len(w.Model.K)), "values of k"),
		experiments.KeyN("model.k", w.Model.K, float64(slices.Max(w.Model.K)), "largest k"),
		experiments.KeyN("model.k", w.Model.K, sum, "Σ k(k+p) over model.k")
}

// Estimate returns the cost of the k × restarts cells.
func (c *ModelOrderConfig) Estimate() experiments.Cost {
	nk, kMax, kWork := c.sweepFactors()
	restarts := experiments.Key("restarts", c.Restarts)
	cells := []experiments.Factor{nk, restarts}
	return fitParts(cells, cells, []experiments.Factor{restarts}, c.Data, experiments.Fixed(1, "data set"), kMax, kWork, c.ML.FitSettings, c.VB.FitSettings)
}

// Estimate returns the cost of the data sets × k cells, each with its
// restarts, the exact ln p(y|m) by enumeration (at most
// hmm.MaxEvidencePaths = 2^26 paths, checked when the data are drawn) and
// the importance samplers.
func (c *TightnessConfig) Estimate() experiments.Cost {
	sets, restarts := experiments.Key("data.datasets", c.Data.Datasets), experiments.Key("restarts", c.Restarts)
	nk, kMax, kWork := c.sweepFactors()
	cost := fitParts([]experiments.Factor{sets, nk}, []experiments.Factor{sets, nk, restarts}, []experiments.Factor{sets, restarts},
		c.Data, sets, kMax, kWork, c.ML.FitSettings, c.VB.FitSettings)
	symbols, _ := c.Data.shape()
	runs, samples := experiments.Key("is.runs", c.IS.Runs), experiments.Key("is.samples", c.IS.Samples)
	cost.CellMemory = append(cost.CellMemory, words("log weights of a sampler", runs, samples))
	cost.Work = append(cost.Work,
		ops("exact evidence by enumeration", 1<<26, sets, nk),
		ops("importance samplers", 3*fbOps, append([]experiments.Factor{sets, runs, samples, kWork}, symbols...)...))
	return cost
}

// Estimate returns the cost of the (n, k) × restarts cells: both
// directions fitted by ML, then MAP and VB at every u0 of the cell, and
// every model scored on the test set.
func (c *AliceConfig) Estimate() experiments.Cost {
	const p = 27
	type nk struct{ n, k int }
	seen := map[nk]bool{}
	var train, test float64 // Σ n·k(k+p) and Σ k(k+p) over the (n, k) settings
	for _, pt := range c.Points() {
		if !seen[nk{pt.N, pt.K}] {
			seen[nk{pt.N, pt.K}] = true
			train += float64(pt.N) * float64(pt.K) * float64(pt.K+p)
			test += float64(pt.K) * float64(pt.K+p)
		}
	}
	kMax := experiments.KeyN("grid.k", c.Grid.K, float64(slices.Max(c.Grid.K)), "largest k")
	restarts := experiments.Key("restarts", c.Restarts)
	settings := experiments.Fixed(float64(len(seen)), "(n, k) settings")
	trainWork := experiments.KeyN("grid.k", c.Grid.K, train, "Σ n·k(k+27) over the settings")
	testWork := experiments.KeyN("grid.k", c.Grid.K, test, "Σ k(k+27) over the settings")
	longest := experiments.Key("data.train_max_len", c.Data.TrainMaxLen)
	dirs := experiments.Fixed(2, "directions")
	u := experiments.Fixed(float64(len(c.Grid.U0)+1), "u0 values (bound)")
	return experiments.Cost{
		Cells: []experiments.Factor{restarts, settings},
		Memory: []experiments.Part{
			words("data", experiments.Fixed(2, "directions"), experiments.DataBytes("data.file", c.Data.File, "characters of the text (a bound of its symbols)")),
			experiments.Rows("cells.csv rows", restarts, settings, u, experiments.Fixed(4*6, "scores")),
		},
		CellMemory: append(hmmParts(2, kMax, p, longest),
			words("kept parameter sets", experiments.Fixed(2*(1+3*u.N), "sets"), kMax, kPlusP(kMax, p)),
			// Traces are kept at the canonical (n, k) only.
			experiments.Rows("trace rows", dirs, u, experiments.Key("vb.max_iterations", c.VB.MaxIterations), experiments.Fixed(5, "rows an iteration"))),
		Work: []experiments.Part{
			ops("ML fits", fbOps, restarts, dirs, experiments.Key("ml.max_iterations", c.ML.MaxIterations), longest, trainWork),
			ops("MAP fits", fbOps, restarts, dirs, u, experiments.Key("map.max_iterations", c.MAP.MaxIterations), longest, trainWork),
			ops("VB fits", fbOps, restarts, dirs, u, experiments.Key("vb.max_iterations", c.VB.MaxIterations), longest, trainWork),
			ops("test scores", fbOps, restarts, dirs, u, experiments.Fixed(4, "models"),
				experiments.Key("data.test_count", c.Data.TestCount), experiments.Fixed(100, "symbols a sentence"), testWork),
		},
	}
}
