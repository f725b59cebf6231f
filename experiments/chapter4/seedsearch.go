package chapter4

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// SeedSearch holds the keys of the experiments that run one birth/death
// search per seed on one generated data set (Figures 4.3 and 4.5-4.7).
type SeedSearch struct {
	// Restarts is the number of seeds (new data and a new search each).
	// Default 10.
	Restarts int                   `toml:"restarts" range:"[1,1e6]"`
	Model    ModelSettings         `toml:"model"`
	Prior    PriorSettings         `toml:"prior"`
	Search   config.SearchSettings `toml:"search"`
	VB       config.FitSettings    `toml:"vb"`
	// Snapshots are the accepted epochs after which the figures draw the
	// model (seed 0), counted from 1; an epoch the search does not reach
	// is not drawn.
	Snapshots []int `toml:"snapshots" range:"[1,1e9]"`
}

// defaultSeedSearch returns the targets' search of Figures 4.3 and
// 4.5-4.7 (§3.1, §3.3): 10 seeds, analysers of at most kMax factors, the
// default search (spatial splits, max_tries = 1) of at most maxTotal
// iterations, chapter4/embedded's [vb], and snapshots after the given
// accepted epochs.
func defaultSeedSearch(kMax, maxTotal int, snapshots ...int) SeedSearch {
	s := SeedSearch{Restarts: 10, Model: defaultModel(kMax), Prior: defaultPrior(), Search: DefaultSearch(), VB: vbFit(2000), Snapshots: snapshots}
	s.Search.MaxTotalIterations = maxTotal
	return s
}

func (s SeedSearch) validate() error {
	return config.FirstError(s.Search.Validate(), s.VB.Validate("vb", mfaGroups()))
}

// SeedSearchConfig is the config of an experiment that draws a data set
// from the generator D ([data]) for every seed and runs one search on it:
// chapter4/lattice (LatticeConfig) and chapter4/spiral (SpiralConfig).
type SeedSearchConfig[D interface {
	Validate() error
	sized
}] struct {
	experiments.Common
	// SeedSearch: restarts, [model], [search], [vb] and snapshots.
	SeedSearch
	Data D `toml:"data"`
}

// Validate checks what relates the keys: the generator's own rules, and
// k_max against the data's dimension.
func (c *SeedSearchConfig[D]) Validate() error {
	if err := c.Data.Validate(); err != nil {
		return err
	}
	_, p, _ := c.Data.shape()
	return config.FirstError(c.Model.checkKMax(p), c.SeedSearch.validate())
}

// SearchOutcome is what every seed's search records.
type SearchOutcome struct {
	Seed int
	SearchRecord
	Components int // analysers with at least one point of responsibility
	// For seed 0 only: the data (original units), the snapshots and F
	// after every sweep.
	Data      []float64   `json:",omitempty"`
	Snapshots []Snapshot  `json:",omitempty"`
	Path      []PathPoint `json:",omitempty"`
	Seconds   float64
}

// PathPoint is one sweep of a search's F trajectory.
type PathPoint struct {
	Sweep    int
	F        experiments.Float
	Epoch    int
	Accepted bool
}

// runSeed z-scores x and runs the search of one seed, with the births'
// directions from the stream (id, "births", seed); it returns the outcome
// and the final model and search result for the experiment's own readout.
func (ss SeedSearch) runSeed(base uint64, id string, seed int, x *mat.Dense, stop func() error) (SearchOutcome, *mfa.VB, vb.SearchResult, error) {
	start := time.Now()
	o := SearchOutcome{Seed: seed}
	z, _, st, err := numeric.Standardise(x, nil, numeric.DropConstant)
	if err != nil {
		return o, nil, vb.SearchResult{}, err
	}
	births := rng.New(base, id, "births", strconv.Itoa(seed))
	model, res, snaps, path, dims, err := tracedSearch(z, st, ss.Model.settings(ss.Prior), ss.Search, ss.VB, births, stop, ss.Snapshots, seed == 0)
	if err != nil {
		return o, nil, res, err
	}
	o.Snapshots, o.Path = snaps, path
	o.record(res, dims)
	for _, v := range model.Counts() {
		if v >= 1 {
			o.Components++
		}
	}
	if seed == 0 {
		o.Data = append([]float64(nil), x.RawMatrix().Data...)
	}
	o.Seconds = time.Since(start).Seconds()
	return o, model, res, nil
}

// fromLabels converges a model started from the labels (one analyser per
// class, q(s_i) = 1 on the point's own) on the z-scored data z, by the
// rules of a search without births: the [search] epoch rule and deaths,
// then the final run of max_final_iterations. It is the state the model
// itself reaches from the truth, against which a search's F and S are
// judged.
func (ss SeedSearch) fromLabels(z mat.Matrix, labels []int, k int, stop func() error) (*mfa.VB, vb.SearchResult, error) {
	n, _ := z.Dims()
	resp := mat.NewDense(n, k, nil)
	for i, l := range labels {
		resp.Set(i, l, 1)
	}
	m, err := mfa.NewVB(z, resp, ss.Model.settings(ss.Prior))
	if err != nil {
		return nil, vb.SearchResult{}, err
	}
	m.Moves = moves(ss.Search, nil)
	res := ss.Search.Search(m, ss.VB.Settings(stop, m), nil)
	if res.Status == vb.Canceled {
		return nil, res, res.Err
	}
	return m, res, nil
}

// tracedSearch runs searchMFA on the z-scored data z and, when keep is
// set, returns snapshots of the model (in the original units of st) after
// the accepted epochs listed in snapshots, and F after every sweep with
// the epoch it belongs to.
func tracedSearch(z *mat.Dense, st numeric.Standardisation, m mfa.Settings, s config.SearchSettings, fit config.FitSettings,
	births *rand.Rand, stop func() error, snapshots []int, keep bool) (*mfa.VB, vb.SearchResult, []Snapshot, []PathPoint, []string, error) {
	want := map[int]bool{}
	for _, e := range snapshots {
		want[e] = true
	}
	var snaps []Snapshot
	accepted := 0
	onMove := func(mv vb.MoveRecord, mm *mfa.VB) {
		if !mv.Accepted {
			return
		}
		accepted++
		if keep && want[accepted] {
			sn := TakeSnapshot(mm, accepted, mv.Iter, 1)
			toOriginal(&sn, st)
			snaps = append(snaps, sn)
		}
	}
	model, res, dims, err := searchMFA(z, m, s, fit, births, stop, onMove)
	if err != nil || !keep {
		return model, res, snaps, nil, dims, err
	}
	var path []PathPoint
	sweep := 0
	for k, run := range res.Runs {
		// Runs[0] is the first run, Runs[k] the epoch of Moves[k−1], and a
		// run beyond the moves the final sweeps of the accepted model.
		acc := k == 0 || k > len(res.Moves) || res.Moves[k-1].Accepted
		for _, f := range run.Trace.F {
			path = append(path, PathPoint{Sweep: sweep, F: experiments.Float(f), Epoch: k, Accepted: acc})
			sweep++
		}
	}
	return model, res, snaps, path, dims, nil
}

// toOriginal maps a snapshot of z-scored data back to the original units.
func toOriginal(sn *Snapshot, st numeric.Standardisation) {
	p := len(st.Mean)
	for s := range sn.Means {
		for q := 0; q < p; q++ {
			sn.Means[s][q] = sn.Means[s][q]*st.SD[q] + st.Mean[q]
			for r := 0; r < p; r++ {
				sn.Covs[s][q*p+r] *= st.SD[q] * st.SD[r]
			}
		}
	}
}

// runSeeds runs fn for every seed as resumable cells, records the runs for
// the manifest and returns the outcomes in seed order.
func runSeeds[T any](env *experiments.Env, restarts int, fn func(seed int) (T, error), outcome func(T) SearchOutcome) ([]T, error) {
	names := make([]string, restarts)
	for s := range names {
		names[s] = fmt.Sprintf("s%02d", s)
	}
	runs, complete, err := experiments.RunAllCells(env, names, nil, fn)
	if err != nil || !complete {
		return nil, err
	}
	for i, r := range runs {
		o := outcome(r)
		env.AddRun(results.RunRecord{Name: names[i], Status: o.Status, WallSeconds: o.Seconds, Iterations: o.Iterations})
		if st, _ := vb.ParseStatus(o.Status); !st.OK() {
			env.Warnf("run %s ended with status %s", names[i], o.Status)
		}
	}
	return runs, nil
}

// writeSeedOutputs writes moves.csv, fig path (pathFile, if not empty) and
// params.csv (seed 0's data and snapshots, p columns).
func writeSeedOutputs(env *experiments.Env, outs []SearchOutcome, p int, pathFile string) error {
	mt := newMovesTable("seed")
	pt := results.NewTable("seed", "sweep", "F", "epoch", "accepted")
	params := experiments.NewParams()
	for _, o := range outs {
		addMoves(mt, o.Moves, o.Seed)
		for _, q := range o.Path {
			pt.AddRow(o.Seed, q.Sweep, float64(q.F), q.Epoch, b2i(q.Accepted))
		}
		run := fmt.Sprintf("s%02d", o.Seed)
		if len(o.Data) > 0 {
			params.Add(run, "data", "points", len(o.Data)/p, p, o.Data)
		}
		addSnapshots(params, run, o.Snapshots, p)
	}
	if err := results.WriteCSV(env.Path("moves.csv"), *mt); err != nil {
		return err
	}
	if pathFile != "" {
		if err := results.WriteCSV(env.Path(pathFile), *pt); err != nil {
			return err
		}
	}
	return params.Write(env.Dir)
}

// addSnapshots stores snapshots in params (means S×p, covariances S×p²).
func addSnapshots(params *experiments.Params, run string, snaps []Snapshot, p int) {
	for _, sn := range snaps {
		means := make([]float64, 0, len(sn.Means)*p)
		covs := make([]float64, 0, len(sn.Covs)*p*p)
		for s := range sn.Means {
			means = append(means, sn.Means[s]...)
			covs = append(covs, sn.Covs[s]...)
		}
		src := fmt.Sprintf("epoch%02d", sn.Epoch)
		params.Add(run, src, "means", len(sn.Means), p, means)
		params.Add(run, src, "covs", len(sn.Covs), p*p, covs)
	}
}
