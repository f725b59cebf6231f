package datasets_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/datasets"
	"github.com/vbworkbench/vbw/experiments/exptest"
)

// readGolden is what the readers make of one real data file: its shape and,
// per column of a matrix (per symbol of sequences), the sum and the sum of
// squares (the counts), so that a change to the numbers a reader returns
// fails here before it moves an experiment's golden.
type readGolden struct {
	File   string     `json:"file"`
	Rows   int        `json:"rows"`
	Cols   int        `json:"cols"`
	Header []string   `json:"header,omitempty"`
	Sums   []*float64 `json:"sums"`
	Sq     []*float64 `json:"sums_of_squares,omitempty"`
}

// TestGolden reads the data files the experiments read with these readers
// (../shared/data) and compares testdata/readers.golden.json; -update
// rewrites it. Numbers compare as exptest.GoldenEqual: integers exactly,
// others at relative 1e-7.
func TestGolden(t *testing.T) {
	dir := experiments.TestDataDir()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Skipf("data directory %s: %v", dir, err)
		}
		return b
	}
	var got []readGolden
	for _, name := range []string{"faithful.csv", "optdigits.tra", "optdigits.tes"} {
		m, header, err := datasets.LoadMatrixCSVHeader(name, read(name))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, matrixGolden(name, m, header))
	}
	seqs, err := datasets.ParseSequences("abc21.txt", read("abc21.txt"), "abc")
	if err != nil {
		t.Fatal(err)
	}
	g := readGolden{File: "abc21.txt", Rows: len(seqs.Seqs), Cols: seqs.P, Sums: make([]*float64, seqs.P)}
	counts := make([]float64, seqs.P)
	for _, s := range seqs.Seqs {
		for _, x := range s {
			counts[x]++
		}
	}
	for i := range counts {
		g.Sums[i] = &counts[i]
	}
	got = append(got, g)

	path := filepath.Join("testdata", "readers.golden.json")
	if *exptest.Update {
		b, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run '^TestGolden$' ./experiments/datasets -update writes it)", err)
	}
	var want []readGolden
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d files read, golden has %d", len(got), len(want))
	}
	for i := range want {
		for _, d := range diff(got[i], want[i]) {
			t.Errorf("%s: %s", want[i].File, d)
		}
	}
}

func matrixGolden(name string, m *mat.Dense, header []string) readGolden {
	r, c := m.Dims()
	g := readGolden{File: name, Rows: r, Cols: c, Header: header, Sums: make([]*float64, c), Sq: make([]*float64, c)}
	for j := range c {
		var s, q float64
		for i := range r {
			x := m.At(i, j)
			s += x
			q += x * x
		}
		g.Sums[j], g.Sq[j] = &s, &q
	}
	return g
}

func diff(got, want readGolden) []string {
	var bad []string
	if got.File != want.File || got.Rows != want.Rows || got.Cols != want.Cols || fmt.Sprint(got.Header) != fmt.Sprint(want.Header) {
		bad = append(bad, fmt.Sprintf("shape %s %d×%d %v, want %s %d×%d %v", got.File, got.Rows, got.Cols, got.Header, want.File, want.Rows, want.Cols, want.Header))
		return bad
	}
	for _, col := range [][2][]*float64{{got.Sums, want.Sums}, {got.Sq, want.Sq}} {
		if len(col[0]) != len(col[1]) {
			bad = append(bad, fmt.Sprintf("%d column sums, want %d", len(col[0]), len(col[1])))
			continue
		}
		for j := range col[1] {
			if !exptest.GoldenEqual(col[0][j], col[1][j]) {
				bad = append(bad, fmt.Sprintf("column %d: %v, want %v", j, *col[0][j], *col[1][j]))
			}
		}
	}
	return bad
}
