package atlas

// The shared part of every row: the tidy estimates, the grid of cells, the
// summary metrics, the per-cell criteria and the crossover budgets.

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/vbworkbench/vbw/results"
)

// The columns of the grid, in the order the tables and the report show
// them (Methods).
const (
	VB      = "vb"      // the variational bound F (a lower bound on ln p(D))
	BIC     = "bic"     // the Bayesian information criterion at the ML/MAP point
	CS      = "cs"      // Cheeseman-Stutz
	Laplace = "laplace" // the Laplace approximation at the mode
	EP      = "ep"      // expectation propagation
	IS      = "is"      // importance sampling with VB's q as the proposal
	AIS     = "ais"     // annealed importance sampling over a temperature ladder
	Gold    = "gold"    // the gold standard itself (not a column of estimates)
)

// Methods are the columns of the grid in order.
var Methods = []string{VB, BIC, CS, Laplace, EP, IS, AIS}

// The kinds of gold standard (GoldStandard.Kind).
const (
	GoldClosedForm  = "closed-form"
	GoldQuadrature  = "quadrature"
	GoldEnumeration = "enumeration"
	GoldAISLong     = "ais-long" // a long AIS run, its standard error stated
)

// Estimate is one method's ln p(D) on one data set and seed at one compute
// budget.
type Estimate struct {
	Dataset string
	Seed    uint64
	Method  string // one of Methods
	// Budget is the method's knob: VB iterations, EP sweeps, AIS
	// temperatures, IS samples; 0 for a one-shot method (BIC, CS, Laplace).
	Budget int
	// LnZ is the estimate of ln p(D); SE its stated standard error, NaN
	// for a deterministic method.
	LnZ, SE float64
	// Ops are the operations the estimate cost, counted (each row's doc
	// says its unit); CPUSeconds the CPU time it took.
	Ops, CPUSeconds float64
	// MeanErr and VarErr are the posterior mean and variance errors
	// against the gold standard's posterior (the row says the norm); NaN
	// where they do not apply.
	MeanErr, VarErr float64
}

// GoldStandard is the reference ln p(D) of one data set: closed form,
// quadrature, enumeration (SE 0) or a long AIS run (Kind GoldAISLong, SE
// its standard error).
type GoldStandard struct {
	Dataset string
	// Seed is the estimates' seed it applies to; 0 means every seed of the
	// data set (a deterministic gold standard). A gold standard of the
	// data set and the seed is preferred to one of the data set alone.
	Seed    uint64
	LnZ, SE float64
	Kind    string
}

// Absent is an empty cell and why: "not applicable: …" or "not built: …".
type Absent struct{ Method, Why string }

// Within is the number of standard errors within which a sampled estimate
// must agree with the gold standard (issue 36: "within 3 stated standard
// errors").
const Within = 3

// Cell is one method's column of a row: the spread of |ln Z − gold| over
// the data sets and seeds at the method's largest budget.
type Cell struct {
	Method string
	Budget int // the largest budget
	N      int // estimates at it (data sets × seeds)
	// ErrMedian, ErrQ25 and ErrQ75 are the median and quartiles of
	// |LnZ − gold| (nats); Bias the median of LnZ − gold.
	ErrMedian, ErrQ25, ErrQ75, Bias float64
	// MeanErr and VarErr are the medians of the posterior errors (NaN: not
	// applicable).
	MeanErr, VarErr float64
	// Ops and CPUSeconds are the medians of the cost at the largest budget.
	Ops, CPUSeconds float64
	// Within3SE is the fraction of the estimates within Within combined
	// standard errors (√(SE² + gold SE²)) of the gold standard, and MaxZ
	// the largest |error| in those standard errors; NaN for a method
	// without a stated SE.
	Within3SE, MaxZ float64
	// CrossoverOps is, for a method other than VB with a budget ladder,
	// the operations at which its median |error| first falls to VB's at
	// VB's largest budget (Crossover); NaN when it never does or there is
	// no VB column. CrossoverBudget is the first budget at or below VB's
	// error (0 when none).
	CrossoverOps    float64
	CrossoverBudget int
}

// Point is one budget of a method's curve: the medians over the data sets
// and seeds at that budget.
type Point struct {
	Budget               int
	Ops, ErrMedian       float64
	ErrQ25, ErrQ75       float64
	N                    int
	CPUSeconds, GoldSE   float64
	MeanErr, VarErr      float64
	Within3SE, MaxZ      float64
	errs, zs, mean, vars []float64
}

// Grid is the outcome of a row: its cells (in Methods order), each
// method's curve by budget, and the absent cells.
type Grid struct {
	Row    string
	Cells  []Cell
	Curves map[string][]Point
	Absent []Absent
}

// Cell returns the cell of method m and whether it is filled.
func (g Grid) Cell(m string) (Cell, bool) {
	for _, c := range g.Cells {
		if c.Method == m {
			return c, true
		}
	}
	return Cell{}, false
}

// goldOf returns the gold standard of (dataset, seed): one of the data set
// and the seed, else one of the data set with seed 0.
func goldOf(gold []GoldStandard, dataset string, seed uint64) (GoldStandard, bool) {
	var any GoldStandard
	found := false
	for _, g := range gold {
		if g.Dataset != dataset {
			continue
		}
		if g.Seed == seed && seed != 0 {
			return g, true
		}
		if g.Seed == 0 {
			any, found = g, true
		}
	}
	return any, found
}

// validMethod reports whether m is a column of the grid.
func validMethod(m string) bool { return slices.Contains(Methods, m) }

// check refuses what would make a grid wrong silently: an unknown method,
// an estimate without a gold standard, a method both estimated and absent,
// a non-finite gold standard.
func check(gold []GoldStandard, est []Estimate, absent []Absent) error {
	for _, g := range gold {
		if math.IsNaN(g.LnZ) || math.IsInf(g.LnZ, 0) || math.IsNaN(g.SE) || g.SE < 0 {
			return fmt.Errorf("atlas: gold standard of %s seed %d: ln Z = %v, SE = %v", g.Dataset, g.Seed, g.LnZ, g.SE)
		}
	}
	has := map[string]bool{}
	for _, e := range est {
		if !validMethod(e.Method) {
			return fmt.Errorf("atlas: estimate of unknown method %q", e.Method)
		}
		if _, ok := goldOf(gold, e.Dataset, e.Seed); !ok {
			return fmt.Errorf("atlas: no gold standard for data set %q seed %d (method %s)", e.Dataset, e.Seed, e.Method)
		}
		has[e.Method] = true
	}
	for _, a := range absent {
		if !validMethod(a.Method) {
			return fmt.Errorf("atlas: absent cell of unknown method %q", a.Method)
		}
		if has[a.Method] {
			return fmt.Errorf("atlas: method %s both estimated and absent (%s)", a.Method, a.Why)
		}
		if !strings.HasPrefix(a.Why, "not applicable") && !strings.HasPrefix(a.Why, "not built") {
			return fmt.Errorf("atlas: absent %s: the reason %q must begin \"not applicable\" or \"not built\"", a.Method, a.Why)
		}
	}
	return nil
}

// z is |err| in combined standard errors √(se² + gse²): 0 when |err| ≤
// 10⁻⁹ nats (an exact estimate with SE 0), NaN when se is NaN, +Inf when
// the combined SE is 0 and the error is not.
func z(err, se, gse float64) float64 {
	if math.IsNaN(se) {
		return math.NaN()
	}
	if math.Abs(err) <= 1e-9 {
		return 0
	}
	return math.Abs(err) / math.Hypot(se, gse)
}

// medianFinite is the median of the non-NaN values (NaN if none).
func medianFinite(xs []float64) float64 {
	k, _ := results.DropNaN(xs)
	if len(k) == 0 {
		return math.NaN()
	}
	return results.Median(k)
}

// Summarise computes the grid of a row from its estimates: each method's
// curve by budget and its cell at its largest budget, and the crossovers.
func Summarise(row string, gold []GoldStandard, est []Estimate, absent []Absent) (Grid, error) {
	if err := check(gold, est, absent); err != nil {
		return Grid{}, err
	}
	g := Grid{Row: row, Curves: map[string][]Point{}, Absent: slices.Clone(absent)}
	type key struct {
		m string
		b int
	}
	pts := map[key]*Point{}
	var ops, cpu, gse = map[key][]float64{}, map[key][]float64{}, map[key][]float64{}
	for _, e := range est {
		gd, _ := goldOf(gold, e.Dataset, e.Seed)
		k := key{e.Method, e.Budget}
		p := pts[k]
		if p == nil {
			p = &Point{Budget: e.Budget}
			pts[k] = p
		}
		d := e.LnZ - gd.LnZ
		p.errs = append(p.errs, d)
		p.zs = append(p.zs, z(d, e.SE, gd.SE))
		p.mean, p.vars = append(p.mean, e.MeanErr), append(p.vars, e.VarErr)
		ops[k], cpu[k], gse[k] = append(ops[k], e.Ops), append(cpu[k], e.CPUSeconds), append(gse[k], gd.SE)
	}
	for k, p := range pts {
		abs := make([]float64, len(p.errs))
		for i, d := range p.errs {
			abs[i] = math.Abs(d)
		}
		p.N = len(abs)
		p.ErrMedian, p.ErrQ25, p.ErrQ75 = results.Median(abs), results.Quantile(abs, 0.25), results.Quantile(abs, 0.75)
		p.Ops, p.CPUSeconds, p.GoldSE = results.Median(ops[k]), results.Median(cpu[k]), results.Median(gse[k])
		p.MeanErr, p.VarErr = medianFinite(p.mean), medianFinite(p.vars)
		p.Within3SE, p.MaxZ = math.NaN(), math.NaN()
		if zs, _ := results.DropNaN(p.zs); len(zs) > 0 {
			in := 0
			for _, v := range zs {
				if v <= Within {
					in++
				}
			}
			// An estimate without a stated SE among ones with (NaN) counts
			// as outside.
			p.Within3SE, p.MaxZ = float64(in)/float64(len(p.zs)), slices.Max(zs)
		}
		g.Curves[k.m] = append(g.Curves[k.m], *p)
	}
	for m, c := range g.Curves {
		slices.SortFunc(c, func(a, b Point) int { return cmp.Compare(a.Budget, b.Budget) })
		g.Curves[m] = c
	}
	for _, m := range Methods {
		c, ok := g.Curves[m]
		if !ok {
			continue
		}
		last := c[len(c)-1]
		bias := results.Median(last.errs)
		g.Cells = append(g.Cells, Cell{Method: m, Budget: last.Budget, N: last.N,
			ErrMedian: last.ErrMedian, ErrQ25: last.ErrQ25, ErrQ75: last.ErrQ75, Bias: bias,
			MeanErr: last.MeanErr, VarErr: last.VarErr, Ops: last.Ops, CPUSeconds: last.CPUSeconds,
			Within3SE: last.Within3SE, MaxZ: last.MaxZ, CrossoverOps: math.NaN()})
	}
	if vb, ok := g.Cell(VB); ok {
		for i := range g.Cells {
			c := &g.Cells[i]
			if c.Method == VB {
				continue
			}
			c.CrossoverOps, c.CrossoverBudget = Crossover(g.Curves[c.Method], vb.ErrMedian)
		}
	}
	return g, nil
}

// Crossover returns where a method's curve (points in increasing budget)
// first has a median |error| at or below ref (VB's at its largest budget):
// the operations there, interpolated linearly in log ops against log error
// between the last point above ref and the first at or below it (the
// first point's ops when it is already at or below), and that first
// point's budget. It is (NaN, 0) when no point reaches ref or ref is not
// finite.
func Crossover(curve []Point, ref float64) (ops float64, budget int) {
	if math.IsNaN(ref) || math.IsInf(ref, 0) {
		return math.NaN(), 0
	}
	for i, p := range curve {
		if !(p.ErrMedian <= ref) {
			continue
		}
		if i == 0 {
			return p.Ops, p.Budget
		}
		q := curve[i-1]
		if !(q.ErrMedian > 0 && p.ErrMedian > 0 && ref > 0 && q.Ops > 0 && p.Ops > 0) || q.ErrMedian == p.ErrMedian {
			return p.Ops, p.Budget
		}
		t := (math.Log(q.ErrMedian) - math.Log(ref)) / (math.Log(q.ErrMedian) - math.Log(p.ErrMedian))
		return math.Exp(math.Log(q.Ops) + t*(math.Log(p.Ops)-math.Log(q.Ops))), p.Budget
	}
	return math.NaN(), 0
}

// The files WriteGrid writes in a row's results folder.
const (
	EstimatesFile = "estimates.csv"
	GridFile      = "grid.csv"
)

// estimatesHeader and gridHeader are the columns of the two tables.
var (
	estimatesHeader = []string{"row", "dataset", "seed", "method", "budget", "lnz", "se",
		"gold_lnz", "gold_se", "gold_kind", "error", "abs_error", "z", "ops", "cpu_s", "mean_err", "var_err"}
	gridHeader = []string{"row", "method", "status", "why", "budget", "n", "err_median", "err_q25", "err_q75", "bias",
		"mean_err", "var_err", "ops", "cpu_s", "within3se", "max_z", "crossover_ops", "crossover_budget"}
)

// Criteria returns the per-cell criteria of a row whose sampled columns
// are sampled (each a method with a stated SE, such as IS and AIS; the
// row's config states them in its Criteria method): for each, the
// estimate at its largest budget within Within combined standard errors
// of the gold standard on every data set and seed (an extension: our
// experiment), and, when bound is true, VB's F at most the gold standard
// plus Within of its standard errors on every data set and seed (a
// sanity check: F is a lower bound on ln p(D)). WriteGrid judges them.
func Criteria(bound bool, sampled ...string) results.Criteria {
	var cs results.Criteria
	if bound {
		cs = append(cs, results.Criterion{ID: "vb-below-gold",
			Text:   fmt.Sprintf("fraction of data sets × seeds on which VB's F ≤ gold + %d gold SE + 10⁻⁶ nats (F is a lower bound on ln p(D))", Within),
			Target: results.AtLeast(1)}.AsSanity())
	}
	for _, m := range sampled {
		cs = append(cs, results.Criterion{ID: "within3se-" + m,
			Text:   fmt.Sprintf("fraction of data sets × seeds on which %s's ln p(D) at its largest budget is within %d combined standard errors of the gold standard", strings.ToUpper(m), Within),
			Target: results.AtLeast(1)}.AsExtension())
	}
	return cs
}

// WriteGrid summarises a row (Summarise), writes dir/estimates.csv (one
// row per estimate, the gold standard beside it, the error LnZ − gold,
// |error| and its z) and dir/grid.csv (one row per method of Methods that
// is filled or absent: its cell at the largest budget, or status "absent"
// and why), sets the summary metrics err_<m>_median, err_<m>_q25,
// err_<m>_q75, bias_<m>, ops_<m>, cpu_<m>, budget_<m>, within3se_<m>,
// maxz_<m>, meanerr_<m>, varerr_<m>, crossover_<m>_ops (NaN metrics are
// left out) and judges every criterion of Criteria present in
// s.Criteria.
func WriteGrid(dir string, s *results.Summary, row string, gold []GoldStandard, est []Estimate, absent []Absent) (Grid, error) {
	g, err := Summarise(row, gold, est, absent)
	if err != nil {
		return g, err
	}
	et := results.NewTable(estimatesHeader...)
	for _, e := range est {
		gd, _ := goldOf(gold, e.Dataset, e.Seed)
		d := e.LnZ - gd.LnZ
		et.AddRow(row, e.Dataset, strconv.FormatUint(e.Seed, 10), e.Method, e.Budget, e.LnZ, e.SE,
			gd.LnZ, gd.SE, gd.Kind, d, math.Abs(d), z(d, e.SE, gd.SE), e.Ops, e.CPUSeconds, e.MeanErr, e.VarErr)
	}
	if err := results.WriteCSV(filepath.Join(dir, EstimatesFile), *et); err != nil {
		return g, err
	}
	gt := results.NewTable(gridHeader...)
	nan := math.NaN()
	for _, m := range Methods {
		if c, ok := g.Cell(m); ok {
			gt.AddRow(row, m, "filled", "", c.Budget, c.N, c.ErrMedian, c.ErrQ25, c.ErrQ75, c.Bias,
				c.MeanErr, c.VarErr, c.Ops, c.CPUSeconds, c.Within3SE, c.MaxZ, c.CrossoverOps, c.CrossoverBudget)
			continue
		}
		for _, a := range g.Absent {
			if a.Method == m {
				gt.AddRow(row, m, "absent", a.Why, 0, 0, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, 0)
				break
			}
		}
	}
	if err := results.WriteCSV(filepath.Join(dir, GridFile), *gt); err != nil {
		return g, err
	}
	set := func(name string, v float64) {
		if !math.IsNaN(v) {
			s.SetMetric(name, v)
		}
	}
	for _, c := range g.Cells {
		m := c.Method
		set("err_"+m+"_median", c.ErrMedian)
		set("err_"+m+"_q25", c.ErrQ25)
		set("err_"+m+"_q75", c.ErrQ75)
		set("bias_"+m, c.Bias)
		set("ops_"+m, c.Ops)
		set("cpu_"+m, c.CPUSeconds)
		set("budget_"+m, float64(c.Budget))
		set("within3se_"+m, c.Within3SE)
		set("maxz_"+m, c.MaxZ)
		set("meanerr_"+m, c.MeanErr)
		set("varerr_"+m, c.VarErr)
		set("crossover_"+m+"_ops", c.CrossoverOps)
	}
	g.judge(s, gold, est)
	return g, nil
}

// judge judges the criteria of Criteria that s.Criteria holds.
func (g Grid) judge(s *results.Summary, gold []GoldStandard, est []Estimate) {
	for _, c := range s.Criteria {
		switch {
		case c.ID == "vb-below-gold":
			curve, ok := g.Curves[VB]
			if !ok {
				s.NotJudged(c, "no VB column in this row")
				continue
			}
			last := curve[len(curve)-1].Budget
			var over []float64
			for _, e := range est {
				if e.Method == VB && e.Budget == last {
					gd, _ := goldOf(gold, e.Dataset, e.Seed)
					over = append(over, e.LnZ-gd.LnZ-Within*gd.SE)
				}
			}
			s.JudgeSeeds(c, over, func(v float64) bool { return v <= 1e-6 }, "F − gold − 3 gold SE")
		case strings.HasPrefix(c.ID, "within3se-"):
			m := strings.TrimPrefix(c.ID, "within3se-")
			curve, ok := g.Curves[m]
			if !ok {
				why := "no " + m + " estimates in this run"
				for _, a := range g.Absent {
					if a.Method == m {
						why = a.Why
					}
				}
				s.NotJudged(c, why)
				continue
			}
			last := curve[len(curve)-1]
			s.JudgeSeeds(c, last.zs, func(v float64) bool { return v <= Within }, "|error| / combined SE at budget "+strconv.Itoa(last.Budget))
		}
	}
}
