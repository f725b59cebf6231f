package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/vbworkbench/vbw/core/rng"
)

// Labelled is a table of inputs with a two-valued class: X the inputs of
// each row, T its class (1 for the positive value), Stratum the values of
// the strata columns joined by "/", Inputs the input columns' names.
type Labelled struct {
	X       [][]float64
	T       []int
	Stratum []string
	Inputs  []string // the input columns' names
}

// ReadLabelled reads a comma-separated table with a header: the class
// column class (positive is t = 1; exactly two values), the inputs (none:
// every column but the class and the strata), whose values pass
// Number, and the strata columns (Pima, the crabs: Lawrence Table 3.1).
func ReadLabelled(name string, data []byte, class, positive string, inputs, strata []string) (Labelled, error) {
	var out Labelled
	var header []string
	var in []int
	col := map[string]int{}
	cls, st := -1, make([]int, len(strata))
	values := map[string]bool{}
	for i, line := range Lines(data) {
		if IsBlank(line) {
			continue
		}
		fs := SplitComma(line)
		if header == nil {
			for j, f := range fs {
				if _, dup := col[f.Text]; dup {
					return out, fmt.Errorf("%s:%d: column %s twice in the header", name, i+1, Quote(f.Text))
				}
				col[f.Text] = j
				header = append(header, f.Text)
			}
			find := func(key, c string) (int, error) {
				j, ok := col[c]
				if !ok {
					return 0, fmt.Errorf("%s: %s: no column %s in the header (%s)", name, key, Quote(c), strings.Join(header, ","))
				}
				return j, nil
			}
			var err error
			if cls, err = find("class", class); err != nil {
				return out, err
			}
			skip := map[int]bool{cls: true}
			for k, s := range strata {
				if st[k], err = find("split.strata", s); err != nil {
					return out, err
				}
				skip[st[k]] = true
			}
			for _, c := range inputs {
				j, err := find("inputs", c)
				if err != nil {
					return out, err
				}
				if skip[j] {
					return out, fmt.Errorf("%s: inputs: column %s is the class or a stratum", name, Quote(c))
				}
				in = append(in, j)
			}
			if len(inputs) == 0 {
				for j := range header {
					if !skip[j] {
						in = append(in, j)
					}
				}
			}
			if len(in) == 0 {
				return out, fmt.Errorf("%s: no input columns", name)
			}
			for _, j := range in {
				out.Inputs = append(out.Inputs, header[j])
			}
			continue
		}
		if len(fs) != len(header) {
			return out, fmt.Errorf("%s:%d: %d fields, want %d (%s)", name, i+1, len(fs), len(header), strings.Join(header, ","))
		}
		row := make([]float64, len(in))
		for k, j := range in {
			v, err := Number(name, i+1, fs[j].Col, fs[j].Text)
			if err != nil {
				return out, err
			}
			row[k] = v
		}
		values[fs[cls].Text] = true
		if len(values) > 2 {
			return out, fmt.Errorf("%s:%d:%d: %s %s: a third value of the class", name, i+1, fs[cls].Col, class, Quote(fs[cls].Text))
		}
		t := 0
		if fs[cls].Text == positive {
			t = 1
		}
		out.T = append(out.T, t)
		key := make([]string, len(st))
		for k, j := range st {
			key[k] = fs[j].Text
		}
		out.Stratum = append(out.Stratum, strings.Join(key, "/"))
		out.X = append(out.X, row)
	}
	if len(out.X) == 0 {
		return out, fmt.Errorf("%s: no data rows", name)
	}
	if !values[positive] {
		return out, fmt.Errorf("%s: %s: no row has the positive value %s", name, class, Quote(positive))
	}
	return out, nil
}

// StratifiedSplit draws a split of the rows into train and test: in each
// stratum, in the order the strata first appear, a share of the train
// rows in proportion to its size (largest remainders, ties to the earlier
// stratum), the rows chosen by a permutation from rnd; both lists are in
// the file's order.
func StratifiedSplit(stratum []string, train int, rnd *rand.Rand) (tr, te []int) {
	var order []string
	rows := map[string][]int{}
	for i, s := range stratum {
		if _, ok := rows[s]; !ok {
			order = append(order, s)
		}
		rows[s] = append(rows[s], i)
	}
	n := len(stratum)
	share := make([]int, len(order))
	rem := make([]float64, len(order))
	left := train
	for k, s := range order {
		q := float64(train) * float64(len(rows[s])) / float64(n)
		share[k] = int(math.Floor(q))
		rem[k] = q - float64(share[k])
		left -= share[k]
	}
	for ; left > 0; left-- {
		best := 0
		for k := range rem {
			if rem[k] > rem[best] {
				best = k
			}
		}
		share[best]++
		rem[best] = -1
	}
	in := make([]bool, n)
	for k, s := range order {
		for _, j := range rnd.Perm(len(rows[s]))[:share[k]] {
			in[rows[s][j]] = true
		}
	}
	for i := range n {
		if in[i] {
			tr = append(tr, i)
		} else {
			te = append(te, i)
		}
	}
	return tr, te
}

// ReadLabelledPair reads a fixed split, the tables train and test (read
// gives a file's bytes, as experiments.Env.ReadData), with the columns of
// ReadLabelled and no strata; the two must have the same inputs.
func ReadLabelledPair(read func(string) ([]byte, error), train, test, class, positive string, inputs []string) (tr, te Labelled, err error) {
	for _, f := range []struct {
		name string
		dst  *Labelled
	}{{train, &tr}, {test, &te}} {
		data, err := read(f.name)
		if err != nil {
			return tr, te, err
		}
		if *f.dst, err = ReadLabelled(f.name, data, class, positive, inputs, nil); err != nil {
			return tr, te, err
		}
	}
	if !slices.Equal(tr.Inputs, te.Inputs) {
		return tr, te, fmt.Errorf("%s has inputs %s, %s has %s", train, strings.Join(tr.Inputs, ","), test, strings.Join(te.Inputs, ","))
	}
	return tr, te, nil
}

// Rows returns the rows idx of the table (X and T; the names kept).
func (d Labelled) Rows(idx []int) Labelled {
	out := Labelled{Inputs: d.Inputs}
	for _, i := range idx {
		out.X, out.T = append(out.X, d.X[i]), append(out.T, d.T[i])
	}
	return out
}

// SplitStream is the random stream of seeded split k under seed, the one
// that approx/pima, approx/crabs and mixq/ltu-crabs draw StratifiedSplit
// from, so that split k is the same rows in each.
func SplitStream(seed uint64, k int) *rand.Rand {
	return rng.New(seed, "pima", "split", strconv.Itoa(k))
}
