package chapter5

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/lds"
	"github.com/vbworkbench/vbw/experiments/datasets"
)

// TCellHours are the sampling times of the T-cell series, in hours after
// the stimulation (section 5.5, line 4119; targets §3.6).
var TCellHours = []float64{0, 2, 4, 6, 8, 18, 24, 32, 48, 72}

// TCell is the T-cell activation data of Rangel et al. (2004) as stored in
// tcell.csv (../shared/data/README.md): header set,time_h,replicate and
// one column per gene; one row per set, replicate and time.
type TCell struct {
	Genes  []string
	Hours  []float64
	Series []TCellSeries
}

// TCellSeries is one replicate time course.
type TCellSeries struct {
	Set       string
	Replicate int
	// Values (T×p) are the file's (log-scale) values, rows in the order of
	// Hours.
	Values *mat.Dense
	// Line is the file line of the series' first row.
	Line int
}

// ParseTCell reads tcell.csv from data (name is the file name that errors
// give) and checks it: every row has the header's number of fields, every
// value is a finite number, and every series (set, replicate) has exactly
// one row for each time of hours, in any order (they are sorted into the
// order of hours). Errors are single lines of the form name:line: message.
func ParseTCell(name string, data []byte, hours []float64) (*TCell, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.ReuseRecord = false
	header, err := r.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: the file is empty", name)
		}
		return nil, datasets.CSVError(name, err)
	}
	want := []string{"set", "time_h", "replicate"}
	if len(header) < len(want)+1 || !slices.Equal(header[:len(want)], want) {
		return nil, fmt.Errorf("%s:1: the header must be set,time_h,replicate followed by the gene names, not %q", name, truncate(strings.Join(header, ","), 60))
	}
	genes := header[len(want):]
	seen := map[string]bool{}
	for _, g := range genes {
		if g == "" || seen[g] {
			return nil, fmt.Errorf("%s:1: gene name %q is empty or repeated", name, g)
		}
		seen[g] = true
	}
	p := len(genes)
	type key struct {
		set string
		rep int
	}
	index := map[key]int{}
	out := &TCell{Genes: slices.Clone(genes), Hours: slices.Clone(hours)}
	filled := [][]bool{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, datasets.CSVError(name, err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) != len(header) {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d (set, time_h, replicate and %d genes)", name, line, len(rec), len(header), p)
		}
		if rec[0] == "" {
			return nil, fmt.Errorf("%s:%d: empty set name", name, line)
		}
		hour, err := strconv.ParseFloat(rec[1], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: time_h %q is not a number", name, line, rec[1])
		}
		ti := slices.Index(hours, hour)
		if ti < 0 {
			return nil, fmt.Errorf("%s:%d: time_h = %v is not one of the sampling times %v", name, line, hour, hours)
		}
		rep, err := strconv.Atoi(rec[2])
		if err != nil || rep < 1 {
			return nil, fmt.Errorf("%s:%d: replicate %q is not a positive integer", name, line, rec[2])
		}
		k := key{rec[0], rep}
		si, ok := index[k]
		if !ok {
			si = len(out.Series)
			index[k] = si
			out.Series = append(out.Series, TCellSeries{Set: k.set, Replicate: rep, Values: mat.NewDense(len(hours), p, nil), Line: line})
			filled = append(filled, make([]bool, len(hours)))
		}
		if filled[si][ti] {
			return nil, fmt.Errorf("%s:%d: set %s replicate %d has a second row for time %v h", name, line, k.set, rep, hour)
		}
		filled[si][ti] = true
		for j, f := range rec[len(want):] {
			_, col := r.FieldPos(len(want) + j)
			v, err := datasets.Number(name, line, col, strings.TrimSpace(f))
			if err != nil {
				err.(*datasets.ValueError).What = "gene " + genes[j]
				return nil, err
			}
			out.Series[si].Values.Set(ti, j, v)
		}
	}
	if len(out.Series) == 0 {
		return nil, fmt.Errorf("%s: no data rows", name)
	}
	for si, s := range out.Series {
		for ti, ok := range filled[si] {
			if !ok {
				return nil, fmt.Errorf("%s:%d: set %s replicate %d has no row for time %v h", name, s.Line, s.Set, s.Replicate, hours[ti])
			}
		}
	}
	return out, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Set returns the series of one set with replicates in [lo, hi] (both
// included), in increasing replicate order; it fails if any is missing.
func (d *TCell) Set(set string, lo, hi int) ([]TCellSeries, error) {
	// An unknown set, and a range beyond the set's last replicate, are
	// named before the loop (which a range of 10¹² would not end).
	last := 0
	for _, s := range d.Series {
		if s.Set == set {
			last = max(last, s.Replicate)
		}
	}
	if last == 0 {
		return nil, fmt.Errorf("tcell: no set %q (the file's sets are %s)", set, strings.Join(d.Sets(), ", "))
	}
	if hi > last {
		return nil, fmt.Errorf("tcell: set %q has no replicate %d (its last is %d)", set, hi, last)
	}
	var out []TCellSeries
	for rep := lo; rep <= hi; rep++ {
		i := slices.IndexFunc(d.Series, func(s TCellSeries) bool { return s.Set == set && s.Replicate == rep })
		if i < 0 {
			return nil, fmt.Errorf("tcell: set %q has no replicate %d", set, rep)
		}
		out = append(out, d.Series[i])
	}
	return out, nil
}

// Sets returns the names of the file's sets, sorted.
func (d *TCell) Sets() []string {
	var sets []string
	for _, s := range d.Series {
		if !slices.Contains(sets, s.Set) {
			sets = append(sets, s.Set)
		}
	}
	slices.Sort(sets)
	return sets
}

// Replicates returns the number of series of a set.
func (d *TCell) Replicates(set string) int {
	n := 0
	for _, s := range d.Series {
		if s.Set == set {
			n++
		}
	}
	return n
}

// Normalise returns the series as the thesis prepares them (section 5.5,
// line 4129; targets §4 #26b): with logBase > 0 the values are first
// exponentiated, v = logBase^x (the file holds log₂ intensities), then each
// gene's profile is divided by its mean over the time points, so that every
// gene of every series has mean 1. With logBase = 0 the values are used as
// they are. It fails if a mean is not positive and finite.
func Normalise(x *mat.Dense, logBase float64) (*mat.Dense, error) {
	T, p := x.Dims()
	y := mat.NewDense(T, p, nil)
	for j := 0; j < p; j++ {
		var mean float64
		for t := 0; t < T; t++ {
			v := x.At(t, j)
			if logBase > 0 {
				v = math.Pow(logBase, v)
			}
			y.Set(t, j, v)
			mean += v
		}
		mean /= float64(T)
		if !(mean > 0) || math.IsInf(mean, 0) {
			return nil, fmt.Errorf("gene %d: mean %v over the time points is not positive and finite", j+1, mean)
		}
		for t := 0; t < T; t++ {
			y.Set(t, j, y.At(t, j)/mean)
		}
	}
	return y, nil
}

// Feedback returns the sequence of the feedback model of section 5.5
// (eqs. 5.152-5.153; targets §1.1): the observations y_2, …, y_T of the
// series y (T×p) with the inputs u_t = [1; y_{t−1}] (a bias first, then
// the previous observation), d = p + 1.
func Feedback(y *mat.Dense) lds.Sequence {
	T, p := y.Dims()
	Y := mat.DenseCopyOf(y.Slice(1, T, 0, p))
	U := mat.NewDense(T-1, p+1, nil)
	for t := 0; t < T-1; t++ {
		U.Set(t, 0, 1)
		for j := 0; j < p; j++ {
			U.Set(t, j+1, y.At(t, j))
		}
	}
	return lds.Sequence{Y: Y, U: U}
}
