package datasets

import (
	"encoding/csv"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestLinesAndFields(t *testing.T) {
	lines := Lines([]byte("a, b\r\n\n c ,,d\n"))
	if len(lines) != 3 || string(lines[0]) != "a, b" || len(lines[1]) != 0 || string(lines[2]) != " c ,,d" {
		t.Fatalf("Lines = %q", lines)
	}
	if got := Lines([]byte("x")); len(got) != 1 || string(got[0]) != "x" {
		t.Errorf("no final newline: %q", got)
	}
	if !IsBlank([]byte(" \t")) || IsBlank([]byte(" x")) {
		t.Error("IsBlank")
	}
	// Columns of fields, from 1: an empty field sits just after its comma.
	if got, want := SplitComma(lines[2]), []Field{{"c", 2}, {"", 5}, {"d", 6}}; !slices.Equal(got, want) {
		t.Errorf("SplitComma = %+v, want %+v", got, want)
	}
	if got, want := SplitBlanks([]byte("  1\t 2e3  x")), []Field{{"1", 3}, {"2e3", 6}, {"x", 11}}; !slices.Equal(got, want) {
		t.Errorf("SplitBlanks = %+v, want %+v", got, want)
	}
	if got := Quote(strings.Repeat("y", 30)); got != `"yyyyyyyyyyyyyyyyyyyyyyyy"…` {
		t.Errorf("Quote of a long field = %s", got)
	}
	if got := Quote("a\nb"); got != `"a\nb"` {
		t.Errorf("Quote keeps one line: %s", got)
	}
}

func TestCSVError(t *testing.T) {
	r := csv.NewReader(strings.NewReader("a,b\n1,\"2\n"))
	var err error
	for err == nil {
		_, err = r.Read()
	}
	if got := CSVError("t.csv", err).Error(); !strings.HasPrefix(got, "t.csv:2: ") || strings.Contains(got, "\n") {
		t.Errorf("CSVError = %q, want one line starting t.csv:2:", got)
	}
	if got := CSVError("t.csv", io.ErrUnexpectedEOF).Error(); got != "t.csv: unexpected EOF" {
		t.Errorf("CSVError of another error = %q", got)
	}
}
