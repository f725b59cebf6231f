package chapter4

import (
	"math"
	"slices"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
)

// This file holds the chapter's estimates (experiments.Cost), checked
// against the limits before a run starts. The digit experiments take the
// shape of the published optdigits files.

var (
	cfgKey = experiments.Key
	fixed  = experiments.Fixed
	words  = experiments.Words
	ops    = experiments.Ops
)

// The optdigits files' shapes in the estimates are the files' own
// (experiments.DataRows, DataCols, measured at Prepare): an image a row,
// and its fields (the pixels and the label, a bound of the pixels kept).

// digitShape returns the factors of the digit files d: the training
// images, the test images and the fields of a row.
func digitShape(d DigitFiles) (train, test, pixels experiments.Factor) {
	return experiments.DataRows("data.train", d.Train, "training images"),
		experiments.DataRows("data.test", d.Test, "test images"),
		experiments.DataCols("data.train", d.Train, "fields a row (a bound of the pixels)")
}

// mfaShape is the size of one VBMFA search: its points (a product), their
// dimension, a bound on the analysers it grows and the columns of an
// analyser (k_max factors and the mean).
type mfaShape struct {
	n    []experiments.Factor
	p    experiments.Factor
	s, k experiments.Factor
}

// newShape returns the shape of searches with the [model] m on n points
// of p dimensions growing at most s analysers.
func newShape(m ModelSettings, p, s experiments.Factor, n ...experiments.Factor) mfaShape {
	return mfaShape{n: n, p: p, s: s, k: experiments.KeyN("model.k_max", m.KMax, float64(m.KMax+1), "columns (k_max + 1)")}
}

// of returns the factors f followed by the points.
func (m mfaShape) of(f ...experiments.Factor) []experiments.Factor { return append(f, m.n...) }

// memory returns the memory of one search: the data (a few copies), the
// responsibilities and factor means of every point and analyser, and the
// loadings' row covariances and the scatter of every analyser.
func (m mfaShape) memory() []experiments.Part {
	return []experiments.Part{
		words("data of a search", m.of(fixed(4, "copies"), m.p)...),
		words("responsibilities and factor means", m.of(m.s, m.k)...),
		words("loadings' row covariances", m.s, m.p, m.k, m.k),
		words("analysers' scatter", m.s, m.p, m.p),
	}
}

// work returns the work of the searches, iterations of them in all (the
// factors of iterations multiplied): about 4 operations per point,
// analyser, dimension and column in an iteration (the E step's q(x) and
// q(s), the M step's statistics).
func (m mfaShape) work(what string, iterations ...experiments.Factor) experiments.Part {
	return ops(what, 4, append(m.of(iterations...), m.s, m.p, m.k)...)
}

// searchIterations returns the iterations of one search: its budget
// search.max_total_iterations and the final iterations, or, without a
// budget, an epoch of vb.max_iterations for every proposal (max_tries for
// each of at most s analysers, twice for a matched reference).
func searchIterations(s config.SearchSettings, fit config.FitSettings, analysers experiments.Factor) experiments.Factor {
	if s.MaxTotalIterations > 0 {
		return experiments.KeyN("search.max_total_iterations", s.MaxTotalIterations,
			float64(s.MaxTotalIterations)+float64(s.MaxFinalIterations), "iterations of a search")
	}
	epochs := 2*analysers.N*float64(s.MaxTries) + 1
	return experiments.KeyN("vb.max_iterations", fit.MaxIterations, float64(fit.MaxIterations)*epochs+float64(s.MaxFinalIterations),
		"iterations of a search (no search.max_total_iterations: max_iterations for each of its epochs)")
}

// searchCost returns the cost of cells searches (the product of cells),
// each on the shape m with at most its iterations, keeping path table
// rows an iteration of the first search (its F trajectory, for the
// figures).
func searchCost(cells []experiments.Factor, m mfaShape, iterations experiments.Factor, path float64) experiments.Cost {
	return experiments.Cost{
		Cells: cells,
		Memory: []experiments.Part{
			experiments.Rows("F trajectory of the first search", iterations, fixed(path, "rows an iteration")),
			experiments.Rows("moves.csv rows (two moves an analyser)", append(slices.Clone(cells), m.s, fixed(2, "moves"))...),
		},
		CellMemory: m.memory(),
		Work:       []experiments.Part{m.work("VBEM iterations of the searches", append(slices.Clone(cells), iterations)...)},
	}
}

// sized is a generator of SeedSearchConfig: its points, their dimension
// and a bound on the analysers a search of them grows.
type sized interface {
	shape() (n experiments.Factor, p int, analysers experiments.Factor)
	// labelRuns is the number of models converged from the true labels
	// beside each search (SeedSearch.fromLabels).
	labelRuns() float64
}

func (Lattice18) labelRuns() float64 { return 1 }

func (Spiral) labelRuns() float64 { return 0 }

func (g Lattice18) shape() (experiments.Factor, int, experiments.Factor) {
	n := experiments.KeyN("data.points_per_cluster", g.PointsPerCluster, float64(g.Clusters())*float64(g.PointsPerCluster), "points")
	return n, 2, experiments.KeyN("data.grid", g.Grid[:], 2*float64(g.Clusters()), "analysers (twice the clusters)")
}

func (g Spiral) shape() (experiments.Factor, int, experiments.Factor) {
	return cfgKey("data.n", g.N), 3, fixed(60, "analysers (bound)")
}

// Estimate returns the cost of the restarts searches.
func (c *SeedSearchConfig[D]) Estimate() experiments.Cost {
	n, p, s := c.Data.shape()
	m := newShape(c.Model, fixed(float64(p), "dimensions"), s, n)
	cells := []experiments.Factor{cfgKey("restarts", c.Restarts)}
	cost := searchCost(cells, m, searchIterations(c.Search, c.VB, s), 1)
	if r := c.Data.labelRuns(); r > 0 {
		cost.Work = append(cost.Work, m.work("VBEM iterations from the true labels",
			cfgKey("restarts", c.Restarts), fixed(r, "runs a search"), searchIterations(c.Search, c.VB, s)))
	}
	cost.Memory = append(cost.Memory,
		experiments.Rows("params.csv rows of the snapshots", fixed(float64(len(c.Snapshots)), "snapshots"), s, fixed(float64(p*p+p), "values an analyser")),
		experiments.Rows("params.csv rows of the first seed's data", n, fixed(float64(p), "dimensions")))
	return cost
}

// Estimate returns the cost of the sizes × restarts searches: the memory
// at the largest size, the work summed over the sizes.
func (c *EmbeddedConfig) Estimate() experiments.Cost {
	sizes := c.sizes()
	var sum float64
	for _, n := range sizes {
		sum += float64(n)
	}
	clusters := experiments.KeyN("data.dims", c.Data.Dims, float64(len(c.Data.Dims)), "clusters")
	s := experiments.KeyN("data.dims", c.Data.Dims, 2*clusters.N, "analysers (twice the clusters)")
	p := cfgKey("data.p", c.Data.P)
	restarts := cfgKey("restarts", c.Restarts)
	nsizes := experiments.KeyN("table_sizes", c.TableSizes, float64(len(sizes)), "sizes")
	sizeKey := "table_sizes"
	if c.Data.PointsPerCluster > slices.Max(c.TableSizes) {
		sizeKey = "data.points_per_cluster"
	}
	largest := newShape(c.Model, p, s, experiments.KeyN(sizeKey, sizes, float64(slices.Max(sizes)), "points a cluster (largest size)"), clusters)
	cost := searchCost([]experiments.Factor{nsizes, restarts}, largest, searchIterations(c.Search, c.VB, s), 0)
	all := newShape(c.Model, p, s, experiments.KeyN("table_sizes", c.TableSizes, sum, "points a cluster, summed over the sizes"), clusters)
	cost.Work = []experiments.Part{all.work("VBEM iterations of the searches", restarts, searchIterations(c.Search, c.VB, s))}
	cost.Memory = append(cost.Memory, experiments.Rows("params.csv rows of the figure's loadings", s, p, largest.k))
	return cost
}

// digitImages returns the training images a digit experiment uses: all
// of the training file, or perClass of each digit.
func digitImages(d DigitFiles, perClass int) experiments.Factor {
	if perClass > 0 {
		return experiments.KeyN("per_class", perClass, float64(perClass)*OptdigitsClasses, "images")
	}
	train, _, _ := digitShape(d)
	return train
}

// digitData is the memory of both digit files, read and z-scored.
func digitData(d DigitFiles) []experiments.Part {
	train, test, pixels := digitShape(d)
	return []experiments.Part{
		words("the training file", fixed(3, "copies"), train, pixels),
		words("the test file", fixed(3, "copies"), test, pixels),
	}
}

// Estimate returns the cost of the restarts searches on the training
// images, each followed by K-means from its centres.
func (c *UnsupervisedConfig) Estimate() experiments.Cost {
	s := fixed(150, "analysers (bound)")
	n := digitImages(c.Data, c.PerClass)
	_, test, pixels := digitShape(c.Data)
	m := newShape(c.Model, pixels, s, n)
	restarts := cfgKey("restarts", c.Restarts)
	cost := searchCost([]experiments.Factor{restarts}, m, searchIterations(c.Search, c.VB, s), 0)
	cost.Memory = append(cost.Memory, digitData(c.Data)...)
	cost.Memory = append(cost.Memory, experiments.Rows("params.csv rows of the templates", restarts, s, m.p))
	cost.Work = append(cost.Work,
		ops("K-means", 3, restarts, cfgKey("max_kmeans_iterations", c.MaxKMeansIterations), n, s, m.p),
		ops("classifying the test file", 4, restarts, test, s, m.p, m.k))
	return cost
}

// Estimate returns the cost of the floors × sizes × repetitions cells, each
// a VB and a BIC-ML search per digit and the classification of the test
// file by both.
func (c *ClassifyConfig) Estimate() experiments.Cost {
	var sum float64
	for _, n := range c.Sizes {
		sum += float64(n)
	}
	s := fixed(50, "analysers (bound)")
	digits := fixed(OptdigitsClasses, "digits")
	_, test, pixels := digitShape(c.Data)
	floors := experiments.KeyN("psi_mins", c.PsiMins, float64(len(c.PsiMins)), "floors")
	reps := cfgKey("repetitions", c.Repetitions)
	nsizes := experiments.KeyN("sizes", c.Sizes, float64(len(c.Sizes)), "sizes")
	largest := newShape(c.Model, pixels, s, experiments.KeyN("sizes", c.Sizes, float64(slices.Max(c.Sizes)), "images (largest size)"))
	all := newShape(c.Model, pixels, s, experiments.KeyN("sizes", c.Sizes, sum, "images, summed over the sizes"))
	ml := newShape(ModelSettings{KMax: c.ML.K}, pixels, s, all.n...)
	mlIterations := experiments.KeyN("ml.max_total_iterations", c.ML.MaxTotalIterations, float64(c.ML.MaxTotalIterations), "EM iterations of a search")
	if c.ML.MaxTotalIterations == 0 {
		mlIterations = experiments.KeyN("ml.max_iterations", c.ML.MaxIterations, float64(c.ML.MaxIterations)*(2*s.N*float64(c.ML.MaxTries)+1),
			"EM iterations of a search (no ml.max_total_iterations: max_iterations for each of its epochs)")
	}
	cost := searchCost([]experiments.Factor{floors, nsizes, reps}, largest, searchIterations(c.Search, c.VB, s), 0)
	cost.Memory = append(cost.Memory, digitData(c.Data)...)
	cost.CellMemory = append(cost.CellMemory, words("ten models of each kind", digits, fixed(2, "kinds"), s, pixels, largest.k))
	cost.Work = []experiments.Part{
		all.work("VBEM iterations of the searches", floors, reps, digits, searchIterations(c.Search, c.VB, s)),
		ml.work("EM iterations of the BIC searches", floors, reps, digits, mlIterations),
		ops("classifying the test file", 8, floors, nsizes, reps, digits, test, s, pixels, largest.k),
	}
	return cost
}

// Estimate returns the cost of drawing the examples: reading both files.
func (c *DigitExamplesConfig) Estimate() experiments.Cost {
	train, test, pixels := digitShape(c.Data)
	return experiments.Cost{Memory: digitData(c.Data),
		Work: []experiments.Part{ops("reading the training file", 10, train, pixels), ops("reading the test file", 10, test, pixels)}}
}

// Estimate returns the cost of the search on the chosen digits and of its
// snapshots' importance-sampling cells.
func (c *ISTightnessConfig) Estimate() experiments.Cost {
	s := fixed(60, "analysers (bound)")
	train, _, pixels := digitShape(c.Data)
	n := []experiments.Factor{train} // the chosen digits' images: at most the file's
	m := newShape(c.Model, pixels, s, n...)
	iterations := searchIterations(c.Search, c.VB, s)
	// An accepted epoch adds or removes an analyser and takes at least
	// min_epoch_iterations: at most min(2s, budget / min_epoch_iterations)
	// of them, thinned by snapshot_every, with s/2 analysers on average.
	accepted := 2 * s.N
	if c.Search.MaxTotalIterations > 0 {
		accepted = math.Min(accepted, float64(c.Search.MaxTotalIterations)/float64(c.Search.MinEpochIterations))
	}
	snaps := fixed(math.Floor(accepted/float64(c.IS.SnapshotEvery))+1, "snapshots (bound)")
	half := fixed(s.N/2, "analysers (on average)")
	runs, samples := cfgKey("is.runs", c.IS.Runs), cfgKey("is.samples", c.IS.Samples)
	return experiments.Cost{
		Cells: []experiments.Factor{snaps, runs},
		Memory: append(append(m.memory(), digitData(c.Data)...),
			words("snapshots' q(π)q(Λ̃)", snaps, half, m.p, m.k, m.k),
			experiments.Rows("moves.csv rows (two moves an analyser)", s, fixed(2, "moves"))),
		CellMemory: []experiments.Part{words("log weights of a run", samples), words("a sample", s, m.p, m.k)},
		Work: []experiments.Part{
			m.work("VBEM iterations of the search", iterations),
			ops("importance weights", 4, append([]experiments.Factor{snaps, runs, samples, half, m.p, m.k}, n...)...),
		},
	}
}

// Estimate returns the cost of the optimisations of every data set and of
// the (data set, sampler, run) importance-sampling cells.
func (c *ISSamplersConfig) Estimate() experiments.Cost {
	sets := experiments.KeyN("data.deltas", c.Data.Deltas, float64(len(c.Data.Deltas)), "data sets")
	n := cfgKey("data.n_total", c.Data.NTotal)
	if c.Data.PointsPerCluster > 0 {
		n = experiments.KeyN("data.points_per_cluster", c.Data.PointsPerCluster, 4*float64(c.Data.PointsPerCluster), "points")
	}
	s := cfgKey("vb_runs.init_components", c.Runs.InitComponents)
	m := newShape(c.Model, fixed(2, "dimensions"), s, n)
	attempts, count := cfgKey("vb_runs.max_attempts", c.Runs.MaxAttempts), cfgKey("vb_runs.count", c.Runs.Count)
	samplers := experiments.KeyN("is.samplers", len(c.IS.Samplers), float64(len(c.IS.Samplers)), "samplers")
	runs, samples := cfgKey("is.runs", c.IS.Runs), cfgKey("is.samples", c.IS.Samples)
	return experiments.Cost{
		Cells: []experiments.Factor{sets, samplers, runs},
		Memory: append(m.memory(),
			words("kept optimisations' q(π)q(Λ̃)", sets, count, s, m.p, m.k, m.k),
			words("kept final S of the attempts", sets, attempts),
			experiments.Rows("data.csv and analysers.csv rows", sets, n.Plus(count.N*s.N, "points and analysers"))),
		CellMemory: []experiments.Part{words("log weights of a run", samples), words("a mixture proposal", count, s, m.p, m.k, m.k)},
		Work: []experiments.Part{
			m.work("VBEM iterations of the optimisations", sets, attempts, searchIterations(c.Search, c.VB, s)),
			ops("importance weights", 4, sets, samplers, runs, samples, count, n, s, m.p, m.k),
		},
	}
}

// Estimate returns the cost of the ratios' Monte Carlo estimates: about
// 40 operations a weight (a Gaussian draw, two log densities, an exp).
func (c *ISHazardConfig) Estimate() experiments.Cost {
	steps, reps := cfgKey("grid.steps", c.Grid.Steps), cfgKey("repeats", c.Repeats)
	return experiments.Cost{
		Cells:  []experiments.Factor{steps},
		Memory: []experiments.Part{experiments.Rows("is_hazard_runs.csv rows", steps, reps, fixed(2, "estimates"))},
		Work: []experiments.Part{
			ops("Monte Carlo weights", 40, steps, reps, cfgKey("mc_samples", c.MCSamples)),
			ops("Monte Carlo weights of the growth estimates", 40, steps, reps, cfgKey("growth_samples", c.GrowthSamples)),
		},
	}
}
