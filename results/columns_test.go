package results

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.csv")
	tab := NewTable("name", "x")
	tab.AddRow("a", 1.5)
	tab.AddRow("b", 2)
	if err := WriteCSV(path, *tab); err != nil {
		t.Fatal(err)
	}
	c := ReadColumns(path)
	names, xs := c.Strings("name"), c.Floats("x")
	if err := c.Err(); err != nil || !slices.Equal(names, []string{"a", "b"}) || !slices.Equal(xs, []float64{1.5, 2}) {
		t.Fatalf("got %q %v, %v", names, xs, err)
	}
	if c.Table().Line(1) != 3 {
		t.Errorf("Line(1) = %d, want 3", c.Table().Line(1))
	}

	// The first error sticks: a missing column, then reads that would
	// succeed return nil.
	c = ReadColumns(path)
	if v := c.Floats("y"); v != nil {
		t.Errorf("missing column: %v", v)
	}
	if v := c.Strings("name"); v != nil {
		t.Errorf("read after an error: %v", v)
	}
	if err := c.Err(); err == nil || !strings.Contains(err.Error(), `no column "y"`) || !strings.Contains(err.Error(), "t.csv") {
		t.Errorf("Err = %v, want the missing column and the file", err)
	}
	// A column of words read as numbers names the file and line.
	if c := ReadColumns(path); c.Floats("name") != nil || c.Err() == nil || !strings.Contains(c.Err().Error(), "t.csv:2") {
		t.Errorf("words as numbers: err %v", c.Err())
	}
	// A missing file is the first error.
	if c := ReadColumns(filepath.Join(t.TempDir(), "none.csv")); c.Strings("name") != nil || c.Err() == nil {
		t.Error("missing file: no error")
	}
	if v, err := tab.Strings("x"); err != nil || !slices.Equal(v, []string{"1.5", "2"}) {
		t.Errorf("Table.Strings = %q, %v", v, err)
	}
	if c := tab.Columns(); c.Floats("x") == nil || c.Err() != nil {
		t.Errorf("Table.Columns: %v", c.Err())
	}
}
