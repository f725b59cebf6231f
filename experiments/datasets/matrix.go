package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// LoadMatrixCSV parses a table of numbers, one data point a line, into an
// n×p matrix. See LoadMatrixCSVHeader, which also returns the header.
func LoadMatrixCSV(name string, data []byte) (*mat.Dense, error) {
	X, _, err := LoadMatrixCSVHeader(name, data)
	return X, err
}

// LoadMatrixCSVHeader parses a table of numbers, one data point a line,
// into an n×p matrix, and returns its header (nil if it has none). The
// fields are separated by commas if the first line holds a comma, and by
// blanks and tabs otherwise; blanks around a field and double quotes
// around it ("1.5") are ignored. The first line is a header if none of its
// fields is a number. Blank lines, lines starting with '#' and a leading
// UTF-8 byte-order mark are skipped; lines may end in "\r\n". Every row
// must have as many fields as the first. Every value is read by Number.
// Errors name the file, line and column (in bytes, from 1): a field that is
// not a number, NaN or ±Inf, a number whose square overflows, a row of the
// wrong length.
func LoadMatrixCSVHeader(name string, data []byte) (*mat.Dense, []string, error) {
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	var (
		header []string
		vals   []float64
		p      int // fields per row; 0 until the first line
		first  int // line number of the first line
		n      int
		split  func([]byte) []Field
	)
	for l, line := range Lines(data) {
		lineNo := l + 1
		if IsBlank(line) || bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("#")) {
			continue
		}
		if split == nil {
			split = SplitBlanks
			if bytes.IndexByte(line, ',') >= 0 {
				split = SplitComma
			}
		}
		fs := split(line)
		for i := range fs {
			fs[i].Text = unquote(fs[i].Text)
		}
		if p == 0 {
			p, first = len(fs), lineNo
			numeric := false
			for _, f := range fs {
				if _, err := strconv.ParseFloat(f.Text, 64); err == nil || errors.Is(err, strconv.ErrRange) {
					numeric = true
				}
			}
			if !numeric {
				for _, f := range fs {
					header = append(header, f.Text)
				}
				continue
			}
		} else if len(fs) != p {
			what := "row"
			if header != nil {
				what = "header"
			}
			return nil, nil, fmt.Errorf("%s:%d: %d fields, want %d (as the %s on line %d)", name, lineNo, len(fs), p, what, first)
		}
		for _, f := range fs {
			v, err := Number(name, lineNo, f.Col, f.Text)
			if err != nil {
				if ve := err.(*ValueError); lineNo == first && f.Text != "" {
					ve.Msg += " (a header line has no numeric field)"
				}
				return nil, nil, err
			}
			vals = append(vals, v)
		}
		n++
	}
	if n == 0 {
		return nil, nil, fmt.Errorf("%s: no data rows", name)
	}
	return mat.NewDense(n, p, vals), header, nil
}
