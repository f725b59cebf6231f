package dag

import (
	"errors"
	"fmt"
	"slices"
)

// Data is a data set of observed discrete vectors y_i (hidden variables are
// never observed), compressed into its distinct patterns with their
// multiplicities (targets §1.3, exact): every per-datum quantity of the E
// step, the likelihood (6.11) and the counts (6.22)/(6.40), depends on y_i
// only, so a pattern seen w times is processed once with weight w. With 4
// five-valued observed nodes there are at most 625 patterns whatever n is.
//
// Patterns are stored in lexicographic order, so a Data does not depend on
// the order of the rows it was built from.
type Data struct {
	width  int
	values []int // patterns × width, row-major
	counts []int
	n      int
}

// NewData compresses rows, one observed vector per datum (the values of the
// structure's Observed nodes, in that order, 0-based), into patterns. It
// returns an error if there are no rows, the rows differ in length or have
// length zero, or a value is negative. Whether values fit a structure's
// arities is checked by NewProblem.
func NewData(rows [][]int) (Data, error) {
	if len(rows) == 0 {
		return Data{}, errors.New("dag: no data")
	}
	w := len(rows[0])
	if w == 0 {
		return Data{}, errors.New("dag: empty data vector")
	}
	sorted := make([][]int, len(rows))
	for i, r := range rows {
		if len(r) != w {
			return Data{}, fmt.Errorf("dag: row %d has %d values, row 0 has %d", i, len(r), w)
		}
		for _, v := range r {
			if v < 0 {
				return Data{}, fmt.Errorf("dag: row %d has negative value %d", i, v)
			}
		}
		sorted[i] = r
	}
	slices.SortStableFunc(sorted, slices.Compare)
	d := Data{width: w, n: len(rows)}
	for i, r := range sorted {
		if i > 0 && slices.Equal(r, sorted[i-1]) {
			d.counts[len(d.counts)-1]++
			continue
		}
		d.values = append(d.values, r...)
		d.counts = append(d.counts, 1)
	}
	return d, nil
}

// N returns the number of data points n.
func (d Data) N() int { return d.n }

// Width returns the number of observed values per datum.
func (d Data) Width() int { return d.width }

// NumPatterns returns the number of distinct observed vectors.
func (d Data) NumPatterns() int { return len(d.counts) }

// Pattern returns the p-th distinct vector (not to be modified).
func (d Data) Pattern(p int) []int { return d.values[p*d.width : (p+1)*d.width : (p+1)*d.width] }

// Count returns the multiplicity of the p-th pattern.
func (d Data) Count(p int) int { return d.counts[p] }

// Rows expands the data back into n rows (each pattern repeated by its
// count, patterns in order), a permutation of the rows given to NewData.
func (d Data) Rows() [][]int {
	out := make([][]int, 0, d.n)
	for p, c := range d.counts {
		for range c {
			out = append(out, slices.Clone(d.Pattern(p)))
		}
	}
	return out
}
