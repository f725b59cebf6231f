package chapter6

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// Registry keys of the single-instance study of section 6.4.1 and the AIS
// analysis of section 6.5.1 (targets §3.1–3.4, 3.7–3.10, 3.13, 3.14): the
// thesis's settings, and two members of its family that change one
// setting of the thesis's to one of ours, extensions of the thesis
// (artefacts.go): K = 8192 annealing steps, half the thesis's 16384 (line
// 4722), and EM run to convergence rather than stopped by the thesis's
// rule (line 4718). Every member draws its streams under SingleID, so
// that they share the data, the restarts and the AIS runs.
const (
	SingleID            = "chapter6/single-instance"
	SingleK8192ID       = "chapter6/single-instance-k8192"
	SingleEMConvergedID = "chapter6/single-instance-em-converged"
)

// SingleConfig is the config of chapter6/single-instance.
type SingleConfig struct {
	experiments.Common
	Scoring
	// Sizes are the nested data-set sizes (line 4712), increasing: each
	// data set is the first n points of the next. At most 10⁷ points, a
	// thousand times the thesis's largest.
	Sizes []int `toml:"sizes" range:"[1,1e7] len=1.. increasing"`
	// DataSeeds label the data sets drawn from the true model, distinct
	// labels of random streams; the first is the main data set (every
	// figure and table, and AIS), the others give the medians of the rank
	// checks (targets §3.3).
	DataSeeds []int `toml:"data_seeds" range:"[0,1e9] len=1.. distinct"`
	// Fig62Rows are the sizes drawn in Figure 6.2 (line 4731), its rows
	// from top to bottom: at least one, each one of sizes.
	Fig62Rows []int `toml:"fig62_rows" range:"[1,1e7] len=1.. increasing"`
	// AIS runs on the main data set only.
	AIS AISSettings `toml:"ais"`
	// ExactN is the size at which ln p(y|m) is computed exactly by
	// enumeration for every structure (targets §3.14); 0 switches it off.
	// It must be one of sizes and at most 12 (the sum has 4^n terms).
	ExactN int `toml:"exact_n" range:"0|[1,12]"`
	// FromCSCheck runs, on the main data set, one more VBEM per structure
	// from the Cheeseman–Stutz point (targets §3.13).
	FromCSCheck bool `toml:"from_cs_check"`
}

// DefaultSingle returns the settings of targets §3.0–3.4 and §6.
func DefaultSingle() SingleConfig {
	c := SingleConfig{Common: experiments.Common{Experiment: SingleID, Figures: []string{"fig6.1", "fig6.2", "fig6.3", "fig6.4", "fig6.11", "fig6.12", "table6.1", "table6.3", "table6.4"}, Seed: 20030101}}
	c.Scoring = defaultScoring()
	c.Sizes = slices.Clone(ThesisSizes)
	c.DataSeeds = []int{1, 2, 3, 4, 5}
	c.Fig62Rows = []int{10, 160, 640, 1280, 2560, 5120, 10240}
	c.AIS = defaultAIS()
	c.ExactN = 10
	c.FromCSCheck = true
	return c
}

// defaultSingleK8192 returns the settings of SingleK8192ID: the thesis's
// with K = 8192 annealing steps.
func defaultSingleK8192() SingleConfig {
	c := DefaultSingle()
	c.AIS.Steps = 8192
	return c
}

// defaultSingleEMConverged returns the settings of SingleEMConvergedID:
// the thesis's with EM run to convergence (ScoreSettings.EMStop).
func defaultSingleEMConverged() SingleConfig {
	c := DefaultSingle()
	c.Scores.EMStop = "converged"
	return c
}

// Validate checks what relates the keys (each key's own range is its tag).
func (c *SingleConfig) Validate() error {
	for _, n := range c.Fig62Rows {
		if !slices.Contains(c.Sizes, n) {
			return config.FieldError("fig62_rows", n, "every row must be one of sizes")
		}
	}
	if c.ExactN != 0 && !slices.Contains(c.Sizes, c.ExactN) {
		return config.FieldError("exact_n", c.ExactN, "must be 0 or one of sizes")
	}
	if err := config.FirstError(c.Scoring.validate(), c.AIS.validate()); err != nil {
		return err
	}
	if _, err := thesisParams(c.Model); err != nil {
		return err
	}
	return nil
}

// singleCell is one cell of the sweep: the EM/VB scores of every structure
// on one (data seed, size), or one AIS run of every structure at one size,
// or the exact marginal likelihoods.
type singleCell struct {
	Scores       []StructScore       `json:",omitempty"`
	AIS          []AISResult         `json:",omitempty"`
	Exact        []experiments.Float `json:",omitempty"`
	ExactSeconds []float64           `json:",omitempty"`
}

// patterns estimates the distinct observed vectors among n points (at most
// 625), for the cost estimates of the cells.
func patterns(n int) float64 { return 600 * (1 - math.Exp(-float64(n)/500)) }

// singleData holds what the sweep produced, indexed [seed][size] and
// [size][run].
type singleData struct {
	c      *SingleConfig
	truth  int // index of the true structure among the candidates
	cands  []dag.Code
	scores [][][]StructScore // seed × size × structure
	ais    [][][]AISResult   // size × run × structure
	exact  []float64         // per structure (nil when not computed)
	exactT []float64
}

// RunSingle runs every cell and writes the tables, summary.json and
// scorecard.md.
func RunSingle(env *experiments.Env, c *SingleConfig) error {
	theta, err := thesisParams(c.Model)
	if err != nil {
		return err
	}
	maxN := c.Sizes[len(c.Sizes)-1]
	streams := make([][][]int, len(c.DataSeeds))
	for k, s := range c.DataSeeds {
		streams[k] = drawData(c.Model, theta, maxN, rng.New(c.Seed, SingleID, "data", strconv.Itoa(s)))
	}
	sc := c.scorer(c.Seed)
	nc := float64(dag.NumCandidates)
	type cellKey struct{ kind, seed, size, run int }
	var keys []cellKey
	var names []string
	var cost []float64
	for k, s := range c.DataSeeds {
		for j, n := range c.Sizes {
			keys = append(keys, cellKey{0, k, j, 0})
			names = append(names, fmt.Sprintf("scores-d%d-%s", s, sizeName(n)))
			cost = append(cost, nc*(1e-4+6e-5*patterns(n))*float64(c.Scores.Restarts)/3)
		}
	}
	for j, n := range c.Sizes {
		for g := 0; g < c.AIS.Runs; g++ {
			keys = append(keys, cellKey{1, 0, j, g})
			names = append(names, fmt.Sprintf("ais-%s-g%d", sizeName(n), g+1))
			cost = append(cost, nc*float64(c.AIS.Steps)*(4e-6+2.5e-8*patterns(n)))
		}
	}
	if c.ExactN > 0 {
		keys = append(keys, cellKey{2, 0, indexOf(c.Sizes, c.ExactN), 0})
		names = append(names, "exact-"+sizeName(c.ExactN))
		cost = append(cost, nc*0.2*math.Pow(4, float64(c.ExactN-10)))
	}
	main := strconv.Itoa(c.DataSeeds[0])
	cells, complete, err := experiments.RunAllCells(env, names, cost, func(i int) (singleCell, error) {
		k := keys[i]
		n := c.Sizes[k.size]
		switch k.kind {
		case 0:
			seed := strconv.Itoa(c.DataSeeds[k.seed])
			s, err := sc.scoreAll(streams[k.seed], n, c.FromCSCheck && k.seed == 0, SingleID, "restarts", seed, strconv.Itoa(n))
			return singleCell{Scores: s}, err
		case 1:
			a, err := sc.aisAll(streams[0], n, c.AIS, SingleID, "ais", main, strconv.Itoa(n), strconv.Itoa(k.run))
			return singleCell{AIS: a}, err
		}
		return exactCell(sc, streams[0], n)
	})
	if err != nil || !complete {
		return err
	}
	_, truth := c.Model.trueCode()
	sd := &singleData{c: c, truth: truth, cands: dag.Candidates(),
		scores: make([][][]StructScore, len(c.DataSeeds)), ais: make([][][]AISResult, len(c.Sizes))}
	for k := range sd.scores {
		sd.scores[k] = make([][]StructScore, len(c.Sizes))
	}
	for j := range sd.ais {
		sd.ais[j] = make([][]AISResult, c.AIS.Runs)
	}
	for i, cell := range cells {
		k := keys[i]
		var secs float64
		switch k.kind {
		case 0:
			sd.scores[k.seed][k.size] = cell.Scores
			for _, s := range cell.Scores {
				secs += s.EMSeconds + s.VBSeconds
			}
		case 1:
			sd.ais[k.size][k.run] = cell.AIS
			for _, a := range cell.AIS {
				secs += a.Seconds
			}
		case 2:
			sd.exact = make([]float64, len(cell.Exact))
			for s, v := range cell.Exact {
				sd.exact[s] = float64(v)
			}
			sd.exactT = cell.ExactSeconds
			for _, t := range cell.ExactSeconds {
				secs += t
			}
		}
		env.AddRun(results.RunRecord{Name: names[i], Status: "ok", WallSeconds: secs})
	}
	if err := sd.writeTables(env); err != nil {
		return err
	}
	s, intro := sd.summary()
	return env.WriteSummary(s, intro)
}

// exactCell computes ln p(y|m) by enumeration (dag.Problem.Exact, eq.
// (6.12)) for every structure on the first n rows.
func exactCell(sc scorer, rows [][]int, n int) (singleCell, error) {
	d, err := dag.NewData(rows[:n])
	if err != nil {
		return singleCell{}, err
	}
	var cell singleCell
	for i := range sc.cands {
		p, err := sc.problem(i, d)
		if err != nil {
			return cell, err
		}
		start := time.Now()
		v, err := p.Exact()
		if err != nil {
			return cell, err
		}
		cell.Exact = append(cell.Exact, experiments.Float(v))
		cell.ExactSeconds = append(cell.ExactSeconds, time.Since(start).Seconds())
	}
	return cell, nil
}

// aisMethods are the AIS columns: AIS5 is the pooled score AIS^(G) (6.61)
// whatever G is, AIS1#g the g-th single run.
func aisRunName(g int) string { return fmt.Sprintf("AIS1#%d", g+1) }

// aisScores returns run g's estimates at size j (g < 0: the pooled score).
func (sd *singleData) aisScores(j, g int) []float64 {
	if g < 0 {
		return pooled(sd.ais[j])
	}
	v := make([]float64, len(sd.ais[j][g]))
	for i, r := range sd.ais[j][g] {
		v[i] = float64(r.LogW)
	}
	return v
}

// rank returns the rank of the true structure under method m on data seed
// k at size j.
func (sd *singleData) rank(k, j int, m string) float64 {
	return rankOf(values(sd.scores[k][j], m), sd.truth)
}

// medianRank returns the median over data seeds of the true structure's
// rank under m at size j.
func (sd *singleData) medianRank(j int, m string) float64 {
	r := make([]float64, len(sd.scores))
	for k := range r {
		r[k] = sd.rank(k, j, m)
	}
	return results.Median(r)
}

// medianAbsDelta returns the median over data seeds of |Δ_m| at size j.
func (sd *singleData) medianAbsDelta(j int, m string) float64 {
	r := make([]float64, len(sd.scores))
	for k := range r {
		r[k] = math.Abs(deltaOf(values(sd.scores[k][j], m), sd.truth))
	}
	return results.Median(r)
}

// acceptance returns, for run g at size j, the acceptance rate of every
// structure over the whole schedule and in each quarter.
func (sd *singleData) acceptance(j, g int) (all []float64, quarters [4][]float64) {
	for _, r := range sd.ais[j][g] {
		all = append(all, float64(r.Accepted)/float64(r.Proposed))
		for q := range quarters {
			quarters[q] = append(quarters[q], float64(r.QAccepted[q])/float64(max(r.QProposed[q], 1)))
		}
	}
	return all, quarters
}

// table64Row returns the row of Table 6.4 at size j: the percentages of
// structures with AIS^(1) below VB* and VB (averaged over runs), the MH
// rejection rate (averaged over structures and runs) and the percentages
// with AIS^(G) below VB* and VB.
func (sd *singleData) table64Row(j int) (single, singleC, rej, pooledStar, pooledC float64) {
	vbs := values(sd.scores[0][j], "VB*")
	vbc := values(sd.scores[0][j], "VB")
	pct := func(a, b []float64) float64 {
		return 100 * float64(count(len(a), func(i int) bool { return a[i] < b[i] })) / float64(len(a))
	}
	G := len(sd.ais[j])
	var acc, prop int
	for g := 0; g < G; g++ {
		a := sd.aisScores(j, g)
		single += pct(a, vbs) / float64(G)
		singleC += pct(a, vbc) / float64(G)
		for _, r := range sd.ais[j][g] {
			acc += r.Accepted
			prop += r.Proposed
		}
	}
	rej = 100 * (1 - float64(acc)/float64(prop))
	p := sd.aisScores(j, -1)
	return single, singleC, rej, pct(p, vbs), pct(p, vbc)
}

// table61Methods are the columns of Table 6.1.
var table61Methods = []string{"MAP", "BIC*", "BICp*", "CS*", "VB*", "BIC", "BICp", "CS", "VB"}

func (sd *singleData) writeTables(env *experiments.Env) error {
	c := sd.c
	st := results.NewTable("structure", "code", "d", "h_used", "log_s", "is_true")
	dOf := make([]int, len(sd.cands)) // d(m) of the scored structures (pruned under prune_childless_hidden)
	for i, code := range sd.cands {
		s := c.Model.structure(code)
		dOf[i] = s.NumParams()
		st.AddRow(i, code.String(), s.NumParams(), s.HUsed(), s.LogAliases(c.Scores.settings().Alias), b2i(i == sd.truth))
	}
	header := []string{"seed", "n", "structure", "code", "d", "h_used", "log_s"}
	for _, m := range Methods {
		header = append(header, column(m))
	}
	header = append(header, "vb_from_cs", "em_iter", "vb_iter", "em_status", "vb_status", "em_seconds", "vb_seconds")
	sct := results.NewTable(header...)
	for k, seed := range c.DataSeeds {
		for j, n := range c.Sizes {
			for i, s := range sd.scores[k][j] {
				code := sd.cands[i]
				row := []any{seed, n, i, code.String(), dOf[i], code.HUsed(), s.LogS}
				for _, m := range Methods {
					row = append(row, s.Value(m))
				}
				row = append(row, float64(s.FromCS), s.EMIter, s.VBIter, s.EMStatus, s.VBStatus, s.EMSeconds, s.VBSeconds)
				sct.AddRow(row...)
			}
		}
	}
	at := results.NewTable("n", "run", "structure", "d", "log_w", "accepted", "proposed",
		"q1_accepted", "q1_proposed", "q2_accepted", "q2_proposed", "q3_accepted", "q3_proposed", "q4_accepted", "q4_proposed", "seconds")
	pt := results.NewTable("n", "structure", "d", "ais5", "vb_star")
	for j, n := range c.Sizes {
		for g, runs := range sd.ais[j] {
			for i, r := range runs {
				at.AddRow(n, g+1, i, dOf[i], float64(r.LogW), r.Accepted, r.Proposed,
					r.QAccepted[0], r.QProposed[0], r.QAccepted[1], r.QProposed[1], r.QAccepted[2], r.QProposed[2], r.QAccepted[3], r.QProposed[3], r.Seconds)
			}
		}
		p := sd.aisScores(j, -1)
		for i := range p {
			pt.AddRow(n, i, dOf[i], p[i], float64(sd.scores[0][j][i].VB))
		}
	}
	// Ranks and score differences of the true structure.
	rt := results.NewTable("seed", "n", "method", "rank", "delta")
	for k, seed := range c.DataSeeds {
		for j, n := range c.Sizes {
			for _, m := range Methods {
				v := values(sd.scores[k][j], m)
				rt.AddRow(seed, n, m, rankOf(v, sd.truth), deltaOf(v, sd.truth))
			}
			if k > 0 {
				continue
			}
			for g := -1; g < c.AIS.Runs; g++ {
				name := "AIS5"
				if g >= 0 {
					name = aisRunName(g)
				}
				v := sd.aisScores(j, g)
				rt.AddRow(seed, n, name, rankOf(v, sd.truth), deltaOf(v, sd.truth))
			}
		}
	}
	h61 := []string{"n"}
	for _, m := range table61Methods {
		h61 = append(h61, column(m))
	}
	t61 := results.NewTable(append(h61, "ais5")...)
	t61m := results.NewTable(append(append(h61, "csdagger_star", "csdagger"), "seeds")...)
	h63 := []string{"n"}
	for g := 0; g < c.AIS.Runs; g++ {
		h63 = append(h63, fmt.Sprintf("run%d", g+1))
	}
	t63 := results.NewTable(append(h63, "ais5")...)
	t64 := results.NewTable("n", "ais1_below_vb_star_pct", "ais1_below_vb_pct", "mh_rejection_pct", "ais5_below_vb_star_pct", "ais5_below_vb_pct")
	acc := results.NewTable("n", "mean", "sd", "sem", "q1", "q2", "q3", "q4", "q1_sem", "q2_sem", "q3_sem", "q4_sem")
	for j, n := range c.Sizes {
		row := []any{n}
		med := []any{n}
		for _, m := range table61Methods {
			row = append(row, sd.rank(0, j, m))
			med = append(med, sd.medianRank(j, m))
		}
		t61.AddRow(append(row, rankOf(sd.aisScores(j, -1), sd.truth))...)
		t61m.AddRow(append(med, sd.medianRank(j, "CSdagger*"), sd.medianRank(j, "CSdagger"), len(c.DataSeeds))...)
		r63 := []any{n}
		for g := 0; g < c.AIS.Runs; g++ {
			r63 = append(r63, rankOf(sd.aisScores(j, g), sd.truth))
		}
		t63.AddRow(append(r63, rankOf(sd.aisScores(j, -1), sd.truth))...)
		a, b, r, p1, p2 := sd.table64Row(j)
		t64.AddRow(n, a, b, r, p1, p2)
		all, qs := sd.acceptance(j, 0)
		m, s, e := meanSD(all)
		row = []any{n, m, s, e}
		var sems []any
		for q := range qs {
			qm, _, qe := meanSD(qs[q])
			row = append(row, qm)
			sems = append(sems, qe)
		}
		acc.AddRow(append(row, sems...)...)
	}
	tt := results.NewTable("n", "em_seconds", "vb_seconds", "ais_run_seconds", "ais_all_runs_seconds", "em_iter_mean", "vb_iter_mean", "vb_at_iteration_limit")
	for j, n := range c.Sizes {
		var em, vbs, its, vits float64
		lim := 0
		for _, s := range sd.scores[0][j] {
			em += s.EMSeconds
			vbs += s.VBSeconds
			its += float64(s.EMIter)
			vits += float64(s.VBIter)
			if s.VBStatus == vb.IterationLimit.String() {
				lim++
			}
		}
		var a float64
		for _, runs := range sd.ais[j] {
			for _, r := range runs {
				a += r.Seconds
			}
		}
		nc := float64(len(sd.cands))
		tt.AddRow(n, em, vbs, a/float64(c.AIS.Runs), a, its/nc, vits/nc, lim)
	}
	fr := results.NewTable("n")
	for _, n := range c.Fig62Rows {
		fr.AddRow(n)
	}
	files := []struct {
		name string
		t    *results.Table
	}{{"structures.csv", st}, {"fig62_rows.csv", fr}, {"scores.csv", sct}, {"ais.csv", at}, {"ais_pooled.csv", pt}, {"ranks.csv", rt},
		{"table6_1.csv", t61}, {"table6_1_median.csv", t61m}, {"table6_3.csv", t63}, {"table6_4.csv", t64},
		{"acceptance.csv", acc}, {"timing.csv", tt}}
	if sd.exact != nil {
		j := indexOf(c.Sizes, c.ExactN)
		h := []string{"structure", "code", "d", "exact", "seconds", "vb_star", "cs_star", "bic_star", "map"}
		for g := 0; g < c.AIS.Runs; g++ {
			h = append(h, fmt.Sprintf("ais1_%d", g+1))
		}
		et := results.NewTable(append(h, "ais5")...)
		runs := make([][]float64, c.AIS.Runs)
		for g := range runs {
			runs[g] = sd.aisScores(j, g)
		}
		pool := sd.aisScores(j, -1)
		for i, v := range sd.exact {
			s := sd.scores[0][j][i]
			row := []any{i, sd.cands[i].String(), dOf[i], v, sd.exactT[i], s.Value("VB*"), s.Value("CS*"), s.Value("BIC*"), s.Value("MAP")}
			for g := range runs {
				row = append(row, runs[g][i])
			}
			et.AddRow(append(row, pool[i])...)
		}
		files = append(files, struct {
			name string
			t    *results.Table
		}{"exact.csv", et})
	}
	for _, f := range files {
		if err := results.WriteCSV(env.Path(f.name), *f.t); err != nil {
			return err
		}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func b2f(b bool) float64 { return float64(b2i(b)) }

// rSquared returns the R² of the least-squares line of y on x.
func rSquared(x, y []float64) float64 {
	mx, my := results.Mean(x), results.Mean(y)
	var sxx, sxy, syy float64
	for i := range x {
		sxx += (x[i] - mx) * (x[i] - mx)
		sxy += (x[i] - mx) * (y[i] - my)
		syy += (y[i] - my) * (y[i] - my)
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy * sxy / (sxx * syy)
}

// interfaceName returns the lower-case name issue 11's interface uses for
// a score (map, bic, bicp, cs, csdagger, vb, ais), and false for the
// starred variants.
func interfaceName(meth string) (string, bool) {
	if strings.HasSuffix(meth, "*") {
		return "", false
	}
	if meth == "AIS5" {
		return "ais", true
	}
	return strings.ToLower(meth), true
}

func init() {
	experiments.Add(SingleID, "all 136 DAGs scored by MAP, BIC, BICp, CS, VB and AIS on nested data from the thesis's true model (Figs 6.1-6.4, 6.11-6.12, Tables 6.1, 6.3, 6.4; exact ln p(y|m) at n = 10)", DefaultSingle, RunSingle, PlotSingle)
	experiments.Add(SingleK8192ID, "the single-instance study with K = 8192 annealing steps, half the thesis's (an extension: what the AIS budget decides)", defaultSingleK8192, RunSingle, PlotSingle)
	experiments.Add(SingleEMConvergedID, "the single-instance study with EM run to convergence (an extension: what EM's stop rule decides at n = 10240)", defaultSingleEMConverged, RunSingle, PlotSingle)
}
