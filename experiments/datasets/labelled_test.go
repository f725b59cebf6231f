package datasets

import (
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/rng"
)

// crabsCols are the five measurements of MASS::crabs.
var crabsCols = []string{"FL", "RW", "CL", "CW", "BD"}

// TestStratifiedSplit: every stratum gives its share of the training
// rows (largest remainders when the shares are not whole), the two sets
// partition the rows in the file's order, and the draw is a function of
// its stream alone.
func TestStratifiedSplit(t *testing.T) {
	var strata []string
	for _, s := range []struct {
		key string
		n   int
	}{{"B/M", 50}, {"B/F", 50}, {"O/M", 50}, {"O/F", 50}} {
		for range s.n {
			strata = append(strata, s.key)
		}
	}
	for _, c := range []struct {
		strata []string
		train  int
		want   map[string]int
	}{
		{strata, 80, map[string]int{"B/M": 20, "B/F": 20, "O/M": 20, "O/F": 20}},
		{strata, 82, map[string]int{"B/M": 21, "B/F": 21, "O/M": 20, "O/F": 20}},
		{append(slices.Repeat([]string{"a"}, 30), slices.Repeat([]string{"b"}, 70)...), 10, map[string]int{"a": 3, "b": 7}},
	} {
		tr, te := StratifiedSplit(c.strata, c.train, rng.New(1, "split"))
		got := map[string]int{}
		for _, i := range tr {
			got[c.strata[i]]++
		}
		if len(tr) != c.train || len(tr)+len(te) != len(c.strata) || !maps(got, c.want) {
			t.Errorf("train %d of %d: %d and %d rows, per stratum %v, want %v", c.train, len(c.strata), len(tr), len(te), got, c.want)
		}
		all := append(slices.Clone(tr), te...)
		slices.Sort(all)
		for i, v := range all {
			if v != i {
				t.Fatalf("row %d is in both sets or neither", i)
			}
		}
		if !slices.IsSorted(tr) || !slices.IsSorted(te) {
			t.Error("the sets are not in the file's order")
		}
		again, _ := StratifiedSplit(c.strata, c.train, rng.New(1, "split"))
		other, _ := StratifiedSplit(c.strata, c.train, rng.New(2, "split"))
		if !slices.Equal(tr, again) || slices.Equal(tr, other) {
			t.Error("the split is not a function of its stream")
		}
	}
}

func maps(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestReadLabelled: the crabs' layout (two label columns, an index and
// five inputs) by column names, and the errors that name the file.
func TestReadLabelled(t *testing.T) {
	head := "sp,sex,index,FL,RW,CL,CW,BD\n"
	good := head + "B,M,1,8.1,6.7,16.1,19,7\nO,F,2,8.8,7.7,18.1,20.8,7.4\n"
	d, err := ReadLabelled("crabs.csv", []byte(good), "sex", "M", crabsCols, []string{"sp", "sex"})
	if err != nil || len(d.X) != 2 || !slices.Equal(d.X[1], []float64{8.8, 7.7, 18.1, 20.8, 7.4}) || !slices.Equal(d.T, []int{1, 0}) ||
		!slices.Equal(d.Stratum, []string{"B/M", "O/F"}) {
		t.Fatalf("readLabelled: %+v, %v", d, err)
	}
	all, err := ReadLabelled("crabs.csv", []byte(good), "sex", "M", nil, []string{"sp"})
	if err != nil || !slices.Equal(all.Inputs, []string{"index", "FL", "RW", "CL", "CW", "BD"}) {
		t.Errorf("every column but the class and the strata: %v, %v", all.Inputs, err)
	}
	for _, c := range []struct {
		text, class string
		inputs      []string
		want        string
	}{
		{good + "B,X,3,1,2,3,4,5\n", "sex", crabsCols, `crabs.csv:4:3: sex "X": a third value of the class`},
		{good, "colour", crabsCols, `crabs.csv: class: no column "colour"`},
		{good, "sex", []string{"FL", "sp"}, `crabs.csv: inputs: column "sp" is the class or a stratum`},
		{good + "B,M,3,1,2,NaN,4,5\n", "sex", crabsCols, `crabs.csv:4:`},
		{head + "B,F,1,1,2,3,4,5\n", "sex", crabsCols, `crabs.csv: sex: no row has the positive value "M"`},
		{good + "B,M,3,1,2\n", "sex", crabsCols, `crabs.csv:4: 5 fields, want 8`},
	} {
		if _, err := ReadLabelled("crabs.csv", []byte(c.text), c.class, "M", c.inputs, []string{"sp", "sex"}); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.want, err, c.want)
		}
	}
}

// TestReadLabelledPair: a fixed split read as one call, refused when the
// two tables' inputs differ; Rows keeps the rows asked for, in order.
func TestReadLabelledPair(t *testing.T) {
	files := map[string][]byte{
		"tr.csv":  []byte("a,b,y\n1,2,yes\n3,4,no\n5,6,yes\n"),
		"te.csv":  []byte("a,b,y\n7,8,no\n9,1,yes\n"),
		"bad.csv": []byte("a,c,y\n7,8,no\n9,1,yes\n"),
	}
	read := func(name string) ([]byte, error) { return files[name], nil }
	tr, te, err := ReadLabelledPair(read, "tr.csv", "te.csv", "y", "yes", nil)
	if err != nil || len(tr.X) != 3 || len(te.X) != 2 || te.X[0][1] != 8 || tr.T[1] != 0 {
		t.Fatalf("pair: %v %v %v", tr, te, err)
	}
	if _, _, err := ReadLabelledPair(read, "tr.csv", "bad.csv", "y", "yes", nil); err == nil || !strings.Contains(err.Error(), "bad.csv has a,c") {
		t.Errorf("different inputs: %v", err)
	}
	if r := tr.Rows([]int{2, 0}); len(r.X) != 2 || r.X[0][0] != 5 || r.T[1] != 1 || r.Inputs[1] != "b" {
		t.Errorf("Rows: %+v", r)
	}
}
