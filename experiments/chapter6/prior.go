package chapter6

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// PriorID is the registry key of the prior-averaged study of section 6.4.2
// (Figs 6.5–6.9, Tables 6.2 and 6.5; targets §3.5, §3.12, §3.13).
const PriorID = "chapter6/prior-average"

// PriorConfig is the config of chapter6/prior-average.
type PriorConfig struct {
	experiments.Common
	Scoring
	// Sizes are the nested data-set sizes, as SingleConfig's.
	Sizes []int `toml:"sizes" range:"[1,1e7] len=1.. increasing"`
	// Instances is the number of true models, each with every parameter
	// row drawn from the prior and its own nested data (thesis 106).
	Instances int `toml:"instances" range:"[1,1e6]"`
}

// DefaultPrior returns the settings of targets §3.5.
func DefaultPrior() PriorConfig {
	c := PriorConfig{Common: experiments.Common{Experiment: PriorID, Figures: []string{"fig6.5", "fig6.6", "fig6.7", "fig6.8", "fig6.9", "table6.2", "table6.5"}, Seed: 4242}}
	c.Scoring = defaultScoring()
	c.Sizes = slices.Clone(ThesisSizes)
	c.Instances = 106
	return c
}

// Validate checks what relates the keys (each key's own range is its tag).
func (c *PriorConfig) Validate() error { return c.Scoring.validate() }

// PriorCell is one (instance, size): the rank of the true structure and
// its score difference Δ = score(m*) − max score under every method of
// Methods, and the bookkeeping of the 136 scorings.
type PriorCell struct {
	Ranks, Deltas []experiments.Float
	// VBBelowCS counts the structures with VB* < CS* (section 6.6).
	VBBelowCS, Scored int
	// Decreased counts scorings with a run stopped by a decrease of its
	// objective; VBLimit those whose VBEM hit max_iterations.
	Decreased, VBLimit   int
	EMSeconds, VBSeconds float64
	EMIterSum, VBIterSum int
}

// RunPrior runs every (instance, size) cell and writes the tables,
// summary.json and scorecard.md.
func RunPrior(env *experiments.Env, c *PriorConfig) error {
	sc := c.scorer(c.Seed)
	_, truth := c.Model.trueCode()
	maxN := c.Sizes[len(c.Sizes)-1]
	type key struct{ inst, size int }
	var keys []key
	var names []string
	var cost []float64
	for i := 0; i < c.Instances; i++ {
		for j, n := range c.Sizes {
			keys = append(keys, key{i, j})
			names = append(names, fmt.Sprintf("i%03d-%s", i, sizeName(n)))
			cost = append(cost, 1e-4+6e-5*patterns(n))
		}
	}
	cells, complete, err := experiments.RunAllCells(env, names, cost, func(k int) (PriorCell, error) {
		i, n := keys[k].inst, c.Sizes[keys[k].size]
		inst := strconv.Itoa(i)
		theta := priorParams(c.Model, c.Prior, rng.New(c.Seed, PriorID, "params", inst))
		rows := drawData(c.Model, theta, maxN, rng.New(c.Seed, PriorID, "data", inst))
		ss, err := sc.scoreAll(rows, n, false, PriorID, "restarts", inst, strconv.Itoa(n))
		if err != nil {
			return PriorCell{}, err
		}
		return reduceCell(ss, truth), nil
	})
	if err != nil || !complete {
		return err
	}
	pd := &priorData{c: c, cells: make([][]PriorCell, c.Instances)}
	for i := range pd.cells {
		pd.cells[i] = make([]PriorCell, len(c.Sizes))
	}
	for k, cell := range cells {
		pd.cells[keys[k].inst][keys[k].size] = cell
		env.AddRun(results.RunRecord{Name: names[k], Status: "ok", WallSeconds: cell.EMSeconds + cell.VBSeconds})
	}
	if err := pd.writeTables(env); err != nil {
		return err
	}
	s, intro := pd.summary()
	return env.WriteSummary(s, intro)
}

// reduceCell keeps what the prior-averaged study needs of 136 scorings.
func reduceCell(ss []StructScore, truth int) PriorCell {
	var cell PriorCell
	for _, m := range Methods {
		v := values(ss, m)
		cell.Ranks = append(cell.Ranks, experiments.Float(rankOf(v, truth)))
		cell.Deltas = append(cell.Deltas, experiments.Float(deltaOf(v, truth)))
	}
	for _, s := range ss {
		cell.EMSeconds += s.EMSeconds
		cell.VBSeconds += s.VBSeconds
		cell.EMIterSum += s.EMIter
		cell.VBIterSum += s.VBIter
		if s.EMStatus == statusDecreased || s.VBStatus == statusDecreased {
			cell.Decreased++
		}
		if s.VBStatus == vb.IterationLimit.String() {
			cell.VBLimit++
		}
		if math.IsNaN(float64(s.VB)) || math.IsNaN(float64(s.CS)) {
			continue
		}
		cell.Scored++
		if s.VB < s.CS {
			cell.VBBelowCS++
		}
	}
	return cell
}

// priorData holds the cells, [instance][size].
type priorData struct {
	c     *PriorConfig
	cells [][]PriorCell
}

// methodIndex returns the position of m in Methods.
func methodIndex(m string) int {
	i := slices.Index(Methods, m)
	if i < 0 {
		panic("chapter6: unknown method " + m)
	}
	return i
}

// ranks returns the true structure's rank under m at size j, one per
// instance.
func (pd *priorData) ranks(j int, m string) []float64 {
	k := methodIndex(m)
	out := make([]float64, len(pd.cells))
	for i := range pd.cells {
		out[i] = float64(pd.cells[i][j].Ranks[k])
	}
	return out
}

// deltas returns Δ under m at size j, one per instance.
func (pd *priorData) deltas(j int, m string) []float64 {
	k := methodIndex(m)
	out := make([]float64, len(pd.cells))
	for i := range pd.cells {
		out[i] = float64(pd.cells[i][j].Deltas[k])
	}
	return out
}

// successes returns the number of instances whose true structure m ranks
// first at size j (Table 6.5).
func (pd *priorData) successes(j int, m string) int {
	r := pd.ranks(j, m)
	return count(len(r), func(i int) bool { return r[i] == 1 })
}

// table62Columns are the competitors of Table 6.2, starred ones compared
// with VB*, the others with VB.
var table62Columns = []string{"BIC*", "BICp*", "CS*", "CSdagger*", "BIC", "BICp", "CS", "CSdagger"}

// thesisTable62 are the thesis's percentages of Table 6.2 (worse, same,
// better), in the order of table62Columns.
var thesisTable62 = [3][8]float64{
	{16.9, 30.2, 31.8, 32.8, 15.1, 29.6, 30.9, 31.9},
	{11.1, 15.0, 20.2, 22.1, 11.7, 15.5, 20.9, 22.2},
	{72.0, 54.8, 48.0, 45.1, 73.2, 55.0, 48.2, 45.9},
}

// table65Methods are the columns of Table 6.5 (alias-corrected scores).
var table65Methods = []string{"BIC", "BICp", "CS", "CSdagger", "VB"}

// thesisTable65 are the thesis's counts of Table 6.5 out of 106, per size
// of ThesisSizes, in the order of table65Methods.
var thesisTable65 = [][5]int{
	{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 1, 1}, {0, 0, 0, 0, 1},
	{0, 0, 1, 2, 3}, {0, 1, 3, 5, 6}, {0, 2, 8, 10, 12}, {1, 5, 8, 9, 11}, {1, 6, 10, 10, 11},
	{3, 7, 12, 12, 15}, {3, 8, 14, 16, 18}, {5, 11, 14, 17, 23}, {7, 15, 22, 23, 29}, {9, 18, 28, 33, 36},
	{11, 19, 32, 33, 40}, {15, 24, 38, 41, 48}, {35, 41, 59, 62, 66}, {56, 63, 76, 76, 80}, {73, 79, 82, 83, 84},
}

// table62 returns the percentages of (instance, size) cases in which VB
// ranks the true structure worse, the same and better than each column of
// table62Columns.
func (pd *priorData) table62() [3][8]float64 {
	var out [3][8]float64
	for k, x := range table62Columns {
		v := "VB"
		if x[len(x)-1] == '*' {
			v = "VB*"
		}
		var w, s, b, n int
		for j := range pd.c.Sizes {
			rv, rx := pd.ranks(j, v), pd.ranks(j, x)
			for i := range rv {
				if math.IsNaN(rv[i]) || math.IsNaN(rx[i]) {
					continue
				}
				n++
				switch {
				case rv[i] > rx[i]:
					w++
				case rv[i] == rx[i]:
					s++
				default:
					b++
				}
			}
		}
		out[0][k] = 100 * float64(w) / float64(n)
		out[1][k] = 100 * float64(s) / float64(n)
		out[2][k] = 100 * float64(b) / float64(n)
	}
	return out
}

var rankFigMethods = []string{"BIC", "BICp", "CS", "VB"}

func (pd *priorData) writeTables(env *experiments.Env) error {
	c := pd.c
	ct := results.NewTable("instance", "n", "method", "rank", "delta")
	for i := range pd.cells {
		for j, n := range c.Sizes {
			for k, m := range Methods {
				ct.AddRow(i, n, m, float64(pd.cells[i][j].Ranks[k]), float64(pd.cells[i][j].Deltas[k]))
			}
		}
	}
	st := results.NewTable("n", "method", "instances", "median_rank", "best_rank", "successes", "success_rate", "median_delta", "q40_delta", "q60_delta", "max_delta")
	for j, n := range c.Sizes {
		for _, m := range Methods {
			r, d := pd.ranks(j, m), pd.deltas(j, m)
			rk, _ := results.DropNaN(r)
			dk, _ := results.DropNaN(d)
			best := math.NaN()
			if len(rk) > 0 {
				best = slices.Min(rk)
			}
			mx := math.NaN()
			if len(dk) > 0 {
				mx = slices.Max(dk)
			}
			succ := pd.successes(j, m)
			st.AddRow(n, m, c.Instances, results.Median(rk), best, succ, float64(succ)/float64(c.Instances),
				results.Median(dk), results.Quantile(dk, 0.4), results.Quantile(dk, 0.6), mx)
		}
	}
	t62 := results.NewTable(append([]string{"vb_ranks"}, colNames(table62Columns)...)...)
	tab := pd.table62()
	for r, name := range []string{"worse", "same", "better"} {
		row := []any{name}
		for k := range table62Columns {
			row = append(row, tab[r][k])
		}
		t62.AddRow(row...)
	}
	t65 := results.NewTable(append([]string{"n"}, colNames(table65Methods)...)...)
	for j, n := range c.Sizes {
		row := []any{n}
		for _, m := range table65Methods {
			row = append(row, pd.successes(j, m))
		}
		t65.AddRow(row...)
	}
	tt := results.NewTable("n", "em_seconds", "vb_seconds", "em_iter_mean", "vb_iter_mean", "vb_at_iteration_limit", "vb_below_cs")
	for j, n := range c.Sizes {
		var em, vbs float64
		var ei, vi, lim, below, scored int
		for i := range pd.cells {
			cl := pd.cells[i][j]
			em += cl.EMSeconds
			vbs += cl.VBSeconds
			ei += cl.EMIterSum
			vi += cl.VBIterSum
			lim += cl.VBLimit
			below += cl.VBBelowCS
			scored += cl.Scored
		}
		den := float64(c.Instances * dag.NumCandidates)
		tt.AddRow(n, em, vbs, float64(ei)/den, float64(vi)/den, lim, below)
	}
	for _, f := range []struct {
		name string
		t    *results.Table
	}{{"prior_ranks.csv", ct}, {"prior_summary.csv", st}, {"table6_2.csv", t62}, {"table6_5.csv", t65}, {"timing.csv", tt}} {
		if err := results.WriteCSV(env.Path(f.name), *f.t); err != nil {
			return err
		}
	}
	return nil
}

// colNames returns the CSV column names of methods.
func colNames(ms []string) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = column(m)
	}
	return out
}

func init() {
	experiments.Add(PriorID, "all 136 DAGs scored by BIC, BICp, CS, CS† and VB for true models drawn from the prior (Figs 6.5-6.9, Tables 6.2, 6.5)", DefaultPrior, RunPrior, PlotPrior)
}
