package results

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type status int

func (s status) String() string { return [...]string{"converged", "max_iter"}[s] }

type label string

func TestCSVRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chapter3", "x", "runs.csv")
	tab := NewTable("run", "method", "note", "value", "ok")
	awkward := []string{
		"plain",
		"with, comma",
		`with "quotes"`,
		"two\nlines",
		" leading space",
		"",
		`\.`,
		"ünïcödé ≥ 0.9",
	}
	values := []float64{
		0, math.Copysign(0, -1), 1, -2.5, 0.1, 1.0 / 3, math.Pi * 1e300,
		math.SmallestNonzeroFloat64, math.MaxFloat64, math.NaN(), math.Inf(1), math.Inf(-1),
	}
	for i, x := range values {
		tab.AddRow(i, awkward[i%len(awkward)], label("l"), x, status(i%2))
	}
	tab.AddRow(int64(-7), "float32", "f32", float32(0.1), true)
	if err := WriteCSV(path, *tab); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Header, ",") != "run,method,note,value,ok" {
		t.Errorf("header = %q", got.Header)
	}
	if len(got.Rows) != len(tab.Rows) {
		t.Fatalf("read %d rows, wrote %d", len(got.Rows), len(tab.Rows))
	}
	for i := range tab.Rows {
		for j := range tab.Rows[i] {
			if got.Rows[i][j] != tab.Rows[i][j] {
				t.Errorf("cell (%d,%d) = %q, want %q", i, j, got.Rows[i][j], tab.Rows[i][j])
			}
		}
	}
	col, err := got.Col("value")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range values {
		x, err := got.Float(i, col)
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(x) != math.Float64bits(want) && !(math.IsNaN(x) && math.IsNaN(want)) {
			t.Errorf("row %d: value %v, want %v", i, x, want)
		}
	}
	if s := got.Rows[len(values)][col]; s != "0.1" {
		t.Errorf("float32(0.1) written as %q, want 0.1", s)
	}
	if s := got.Rows[9][col] + got.Rows[10][col] + got.Rows[11][col]; s != "NaN+Inf-Inf" {
		t.Errorf("non-finite values written as %q", s)
	}
	if s := got.Rows[1][4]; s != "max_iter" {
		t.Errorf("Stringer written as %q", s)
	}
	if n, err := got.Int(3, 0); err != nil || n != 3 {
		t.Errorf("Int = %d, %v; want 3", n, err)
	}
	// Row 4 follows the two-line cell of row 3, so it starts on line 7.
	if got.Line(4) != 7 {
		t.Errorf("Line(4) = %d, want 7", got.Line(4))
	}
	xs, err := got.Floats("run")
	if err != nil || len(xs) != len(got.Rows) || xs[12] != -7 {
		t.Errorf("Floats(run) = %v, %v", xs, err)
	}
}

func TestCSVSingleEmptyCell(t *testing.T) {
	// encoding/csv writes a lone empty cell as a blank line, which readers
	// skip; WriteCSV must keep such a row.
	path := filepath.Join(t.TempDir(), "one.csv")
	tab := NewTable("x")
	tab.AddRow("")
	tab.AddRow("a")
	if err := WriteCSV(path, *tab); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 2 || got.Rows[0][0] != "" || got.Rows[1][0] != "a" {
		t.Errorf("rows = %q", got.Rows)
	}
}

func TestCSVErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(path, []byte("run,F\n0,1.5\n1,abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, err := ReadCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tab.Col("G"); err == nil || !strings.Contains(err.Error(), `"G"`) || !strings.Contains(err.Error(), path) {
		t.Errorf("Col error = %v; want the column and the file named", err)
	}
	c, _ := tab.Col("F")
	_, err = tab.Float(1, c)
	if want := path + `:3: column "F": cannot parse "abc" as a number`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Float error = %v; want prefix %s", err, want)
	}

	for name, content := range map[string]string{
		"ragged.csv": "a,b\n1,2\n3\n",
		"empty.csv":  "",
		"dup.csv":    "a,a\n1,2\n",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		if _, err := ReadCSV(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("ReadCSV(%s) error = %v; want an error naming the file", name, err)
		}
	}
	bad := Table{Header: []string{"a", "b"}, Rows: [][]string{{"1"}}}
	if err := WriteCSV(filepath.Join(dir, "bad.csv"), bad); err == nil {
		t.Error("WriteCSV accepted a short row")
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.csv")); !os.IsNotExist(err) {
		t.Error("WriteCSV wrote a file for an invalid table")
	}
}

func TestAddRowPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"width": func() { NewTable("a", "b").AddRow(1) },
		"type":  func() { NewTable("a").AddRow([]int{1}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: AddRow did not panic", name)
				}
			}()
			f()
		}()
	}
}
