package datasets

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestLoadMatrixCSV(t *testing.T) {
	for _, c := range []struct {
		name, data string
		header     []string
		want       []float64
		cols       int
	}{
		{"header, commas", "eruptions,waiting\n3.6,79\n1.8,54\n", []string{"eruptions", "waiting"}, []float64{3.6, 79, 1.8, 54}, 2},
		{"quoted header, CRLF, BOM", "\xEF\xBB\xBF\"a\", \"b\"\r\n1, 2\r\n\"3\",4e1\r\n", []string{"a", "b"}, []float64{1, 2, 3, 40}, 2},
		{"blanks, comments, no header", "# y1 y2 y3\n1 2\t3\n\n  -4   5e-1 6\n", nil, []float64{1, 2, 3, -4, 0.5, 6}, 3},
		{"one column", "x\n1\n2\n", []string{"x"}, []float64{1, 2}, 1},
	} {
		X, header, err := LoadMatrixCSVHeader("u.csv", []byte(c.data))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		n, p := X.Dims()
		if p != c.cols || n*p != len(c.want) || !slices.Equal(X.RawMatrix().Data, c.want) || !slices.Equal(header, c.header) {
			t.Errorf("%s: got %d×%d %v header %q, want %v (%d columns) header %q", c.name, n, p, X.RawMatrix().Data, header, c.want, c.cols, c.header)
		}
	}

	for _, c := range []struct {
		name, data, want string
	}{
		{"empty", "", "u.csv: no data rows"},
		{"header only", "a,b\n", "u.csv: no data rows"},
		{"NaN", "a,b\n1,2\n3,NaN\n", `u.csv:3:3: "NaN" is not allowed`},
		{"Inf", "1 2\n+Inf 3\n", `u.csv:2:1: "+Inf" is not allowed`},
		{"overflow", "1,1e999\n", `u.csv:1:3: "1e999" is beyond the float64 range`},
		{"word", "a,b\n1,2\n3, x\n", `u.csv:3:4: "x" is not a number`},
		{"mixed first line", "a,1\n2,3\n", `u.csv:1:1: "a" is not a number (a header line has no numeric field)`},
		{"short row", "a,b\n1,2\n3\n", "u.csv:3: 1 fields, want 2 (as the header on line 1)"},
		{"long row", "1 2\n\n3 4 5\n", "u.csv:3: 3 fields, want 2 (as the row on line 1)"},
		{"empty field", "a,b\n1,\n", "u.csv:2:3: empty field"},
	} {
		_, err := LoadMatrixCSV("u.csv", []byte(c.data))
		if err == nil {
			t.Errorf("%s: no error, want %q", c.name, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error\n\t%s\nwant one line starting\n\t%s", c.name, err, c.want)
		}
	}
}

// FuzzLoadMatrixCSV: whatever the file holds, LoadMatrixCSVHeader returns
// either a finite matrix (with a header as wide) or a one-line error
// naming the file, never panics.
func FuzzLoadMatrixCSV(f *testing.F) {
	f.Add([]byte("eruptions,waiting\n3.6,79\n1.8,54\n"))
	f.Add([]byte("# c\n1 2 3\n4 5 6\r\n"))
	f.Add([]byte("a,b\n1,NaN\n"))
	f.Add([]byte("\"x\",\"y\"\n\"1\",2\n3\n"))
	f.Add([]byte("1e999 0x1p-2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		X, header, err := LoadMatrixCSVHeader("f.csv", data)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "f.csv:") || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q: want one line starting with the file name", msg)
			}
			return
		}
		_, p := X.Dims()
		if header != nil && len(header) != p {
			t.Fatalf("header of %d names for %d columns", len(header), p)
		}
		for _, v := range X.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("value %v", v)
			}
		}
	})
}

// TestNumber: every data value is finite and small enough to square, and
// a bad one is refused at its file, line and column.
func TestNumber(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"1.5", ""}, {"-1e154", ""},
		{"", "f.csv:3:7: empty field"},
		{"NaN", `f.csv:3:7: "NaN" is not allowed`},
		{"-inf", `f.csv:3:7: "-inf" is not allowed`},
		{"1e308", `f.csv:3:7: "1e308" is too large: its square overflows`},
		{"2e400", `f.csv:3:7: "2e400" is beyond the float64 range`},
		{"x", `f.csv:3:7: "x" is not a number`},
	} {
		_, err := Number("f.csv", 3, 7, c.text)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	if _, err := LoadMatrixCSV("m.csv", []byte("a,b\n1,2\n3,1e200\n")); err == nil || !strings.HasPrefix(err.Error(), `m.csv:3:3: "1e200" is too large`) {
		t.Errorf("LoadMatrixCSV of a value whose square overflows: %v", err)
	}
}
