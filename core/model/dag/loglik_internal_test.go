package dag

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/dist"
)

// loglikScale returns M = Σ_p w_p |ln Z_p| (each ln Z_p in the log
// domain), the size of the terms that ln p(y|θ) sums: rearranging the sum
// moves it by a few ε·M.
func loglikScale(pr *Problem, th Params) float64 {
	pl := &pr.pl
	h, jc, jv := pl.h, pl.jc, pl.jv
	var m float64
	for p, w := range pl.w {
		m += w * math.Abs(logPattern(th, pl.cidx[p*jc:(p+1)*jc], pl.vidx[p*h*jv:(p+1)*h*jv], h, jv, nil))
	}
	return m
}

// checkGrouped compares LogLik (the grouped sum) with the per-pattern sum
// of the E step at th: both −Inf, or within K·ε·M, M of loglikScale and K
// the number of terms the two sums add (patterns, groups and C entries,
// plus 4 for the rounding of each term), the bound of recursive summation
// (Higham, Accuracy and Stability of Numerical Algorithms, 2002, §4.2)
// for both. It returns |difference|/(ε·M).
func checkGrouped(t *testing.T, name string, pr *Problem, th Params) float64 {
	t.Helper()
	got, want := pr.LogLik(th), pr.pl.loglik(th)
	if math.IsInf(want, -1) || math.IsInf(got, -1) {
		if got != want {
			t.Errorf("%s: grouped %v, per pattern %v", name, got, want)
		}
		return 0
	}
	const eps = 0x1p-52
	scale := loglikScale(pr, th)
	r := math.Abs(got-want) / (eps * scale)
	k := float64(len(pr.pl.w) + len(pr.gr.gw) + len(pr.gr.cidx) + 4)
	if !(r <= k) {
		t.Errorf("%s: grouped %.17g, per pattern %.17g: difference %.3g = %.3g ε·M", name, got, want, got-want, r)
	}
	return r
}

// dirichletParams draws every row of θ from Dir(a) (without a floor).
func dirichletParams(s *Structure, a float64, rnd *rand.Rand) Params {
	th := make(Params, s.Len())
	for j := 0; j < s.Nodes(); j++ {
		alpha := make([]float64, s.Arity(j))
		for k := range alpha {
			alpha[k] = a
		}
		for l := 0; l < s.Rows(j); l++ {
			dist.Dirichlet{Alpha: alpha}.Rand(s.Row(th, j, l), rnd)
		}
	}
	return th
}

// TestGroupedLogLikClass checks the grouped ln p(y|θ) against the
// per-pattern sum for every structure of the chapter-6 class and its
// pruned form (no hidden node for 0000, one for codes using one), on data
// from the true model (n = 1, 6, 480, 10240) and uniform data, at prior
// draws, at draws from Dir(0.05) whose entries reach 0 (−Inf) or, floored
// as SamplePrior floors them, 1e−300 (group sums below 2^−500 and below
// tiny, logged alone and in the log domain), at entries of 1e−200 (sums
// between tiny and 2^−500, logged alone), and at parameters with exact
// zeros in entries no datum uses (finite: they do not enter the sum).
func TestGroupedLogLikClass(t *testing.T) {
	rnd := rand.New(rand.NewPCG(32, 1))
	sizes := []int{1, 6, 480, 10240}
	if testing.Short() {
		sizes = []int{1, 6, 480}
	}
	type dataset struct {
		name string
		rows [][]int
	}
	var sets []dataset
	all, _ := Sample(TrueCode.Structure(), TrueParams(), sizes[len(sizes)-1], rnd)
	for _, n := range sizes {
		sets = append(sets, dataset{fmt.Sprintf("true n=%d", n), all[:n]})
	}
	uni := make([][]int, 300)
	for i := range uni {
		uni[i] = []int{rnd.IntN(5), rnd.IntN(5), rnd.IntN(5), rnd.IntN(4)} // y6 never 4
	}
	sets = append(sets, dataset{"uniform n=300", uni})
	var worst float64
	var cases, neginf int
	for _, ds := range sets {
		d, err := NewData(ds.rows)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range Candidates() {
			for _, s := range []*Structure{c.Structure(), c.Structure().Prune()} {
				pr, err := NewProblem(s, s.SymmetricPrior(1), d)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s, %s (%d hidden)", ds.name, c, len(s.Hidden()))
				sparse := dirichletParams(s, 0.05, rnd)
				floored := dirichletParams(s, 0.05, rnd)
				for k, v := range floored {
					floored[k] = math.Max(v, minTheta)
				}
				// y3's state 0 at 1e−200 in every row: group sums between
				// tiny and 2^−500.
				band := pr.SamplePrior(nil, rnd)
				y3 := s.Observed()[0]
				for l := 0; l < s.Rows(y3); l++ {
					s.Row(band, y3, l)[0] = 1e-200
				}
				thetas := []Params{pr.SamplePrior(nil, rnd), sparse, floored, band}
				// Zero the entries of y6's state 4 (index 3 of the observed
				// nodes), which the uniform data never use.
				z := pr.SamplePrior(nil, rnd)
				y6 := s.Observed()[3]
				for l := 0; l < s.Rows(y6); l++ {
					s.Row(z, y6, l)[4] = 0
				}
				thetas = append(thetas, z)
				for k, th := range thetas {
					worst = max(worst, checkGrouped(t, fmt.Sprintf("%s, θ %d", name, k), pr, th))
					cases++
					if math.IsInf(pr.LogLik(th), -1) {
						neginf++
					}
				}
				if ds.name == "uniform n=300" {
					if v := pr.LogLik(z); math.IsInf(v, 0) || math.IsNaN(v) {
						t.Errorf("%s: zeros in unused entries give %v", name, v)
					}
				}
			}
		}
	}
	t.Logf("%d cases (%d −Inf), largest difference %.3g ε·M", cases, neginf, worst)
	if neginf == 0 {
		t.Error("no case reached −Inf: the Dir(0.05) draws no longer test zeros")
	}
}

// TestGroupedLogLikGeneral checks the grouped ln p(y|θ) on structures
// beyond the class: a hidden node with an observed parent, an observed
// child before its hidden parent in node order, a node whose table of
// observed values exceeds maxTable, and more than maxH joint hidden
// configurations (the last two take loglikFlat), and h = 18.
func TestGroupedLogLikGeneral(t *testing.T) {
	rnd := rand.New(rand.NewPCG(32, 2))
	for _, c := range []struct {
		name     string
		arity    []int
		parents  [][]int
		hidden   []bool
		flat     bool
		maxTable int
	}{
		{"hidden with observed parent", []int{3, 2, 4, 3}, [][]int{nil, {0}, {1}, {1, 0}}, []bool{false, true, false, false}, false, 0},
		{"child before hidden parent", []int{4, 3, 2, 5}, [][]int{{2}, {2}, nil, {1}}, []bool{false, true, true, false}, false, 0},
		{"h = 18", []int{3, 3, 2, 4, 4, 4}, [][]int{nil, {0}, nil, {0, 1}, {1, 2}, {2}}, []bool{true, true, true, false, false, false}, false, 0},
		{"large table", []int{2, 5, 5, 5, 5}, [][]int{nil, nil, nil, nil, {0, 1, 2, 3}}, []bool{true, false, false, false, false}, true, 2 * 625},
		{"many hidden", []int{2, 2, 2, 2, 2, 2, 2, 3, 3}, [][]int{nil, nil, nil, nil, nil, nil, nil, {0, 1, 2, 3}, {4, 5, 6}}, []bool{true, true, true, true, true, true, true, false, false}, true, 0},
	} {
		s, err := NewStructure(c.arity, c.parents, c.hidden)
		if err != nil {
			t.Fatal(err)
		}
		rows := make([][]int, 2000)
		for i := range rows {
			for _, j := range s.Observed() {
				rows[i] = append(rows[i], rnd.IntN(s.Arity(j)))
			}
		}
		for _, n := range []int{1, 50, 2000} {
			d, err := NewData(rows[:n])
			if err != nil {
				t.Fatal(err)
			}
			pr, err := NewProblem(s, s.SymmetricPrior(1), d)
			if err != nil {
				t.Fatal(err)
			}
			if flat := len(pr.gr.tsrc) > maxTable || pr.pl.h > maxH; flat != c.flat {
				t.Fatalf("%s: flat %v, want %v", c.name, flat, c.flat)
			}
			if c.maxTable > 0 && len(pr.gr.tsrc) != c.maxTable {
				t.Errorf("%s: table of %d entries, want %d", c.name, len(pr.gr.tsrc), c.maxTable)
			}
			floored := dirichletParams(s, 0.05, rnd)
			for k, v := range floored {
				floored[k] = math.Max(v, minTheta)
			}
			// The last node's state 0 at 1e−300 in every row: group sums
			// below tiny, in the log domain.
			deep := pr.SamplePrior(nil, rnd)
			last := s.Nodes() - 1
			for l := 0; l < s.Rows(last); l++ {
				s.Row(deep, last, l)[0] = 1e-300
			}
			for k, th := range []Params{pr.SamplePrior(nil, rnd), dirichletParams(s, 0.05, rnd), floored, deep} {
				checkGrouped(t, fmt.Sprintf("%s, n = %d, θ %d", c.name, n, k), pr, th)
			}
		}
	}
}

// TestGroupedLogLikBitsOfClass checks that for the chapter-6 class, whose
// hidden nodes come first, the group sums S_g equal the E step's
// per-pattern sums bit for bit: the grouping moves only the logarithms.
func TestGroupedLogLikBitsOfClass(t *testing.T) {
	rows, _ := Sample(TrueCode.Structure(), TrueParams(), 480, rand.New(rand.NewPCG(32, 3)))
	d, err := NewData(rows)
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(32, 4))
	for _, c := range Candidates() {
		s := c.Structure()
		pr, err := NewProblem(s, s.SymmetricPrior(1), d)
		if err != nil {
			t.Fatal(err)
		}
		th := pr.SamplePrior(nil, rnd)
		pl, g := &pr.pl, &pr.gr
		tab := make([]float64, len(g.tsrc))
		for k, i := range g.tsrc {
			tab[k] = th[i]
		}
		hp := make([]float64, pl.h)
		for cfg := range hp {
			hp[cfg] = prodAt(th, g.hsrc[cfg*g.nh:(cfg+1)*g.nh])
		}
		for q := range g.gw {
			p := int(g.first[q])
			var want float64
			for cfg := 0; cfg < pl.h; cfg++ {
				want += prodAt(th, pl.vidx[(p*pl.h+cfg)*pl.jv:(p*pl.h+cfg+1)*pl.jv])
			}
			got := g.groupSum(q, tab, hp)
			if got != want {
				t.Fatalf("%s, group %d: S = %.17g, pattern sum %.17g", c, q, got, want)
			}
		}
	}
}
