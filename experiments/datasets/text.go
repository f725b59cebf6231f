package datasets

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Field is one field of a line and its byte column, counted from 1.
type Field struct {
	Text string
	Col  int
}

// Lines splits data at '\n' and drops a '\r' before each; a final newline
// does not start another line. Line i of the result is line i+1 of the
// file.
func Lines(data []byte) [][]byte {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	return lines
}

// IsBlank reports whether line holds nothing but blanks and tabs.
func IsBlank(line []byte) bool { return len(bytes.Trim(line, " \t")) == 0 }

// SplitComma splits a line at commas and trims blanks and tabs around each
// field; a field's column is that of its first character (of the comma's
// successor if the field is empty).
func SplitComma(line []byte) []Field {
	var fs []Field
	start := 0
	for i := 0; i <= len(line); i++ {
		if i < len(line) && line[i] != ',' {
			continue
		}
		f := line[start:i]
		lead := len(f) - len(bytes.TrimLeft(f, " \t"))
		fs = append(fs, Field{Text: string(bytes.Trim(f, " \t")), Col: start + lead + 1})
		start = i + 1
	}
	return fs
}

// SplitBlanks splits a line at runs of blanks and tabs.
func SplitBlanks(line []byte) []Field {
	var fs []Field
	for i := 0; i < len(line); {
		if line[i] == ' ' || line[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		fs = append(fs, Field{Text: string(line[i:j]), Col: i + 1})
		i = j
	}
	return fs
}

// unquote removes one pair of double quotes around s.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// Quote quotes a field for an error message, shortened to 24 bytes, so
// that the message stays on one line and short whatever the file holds.
func Quote(s string) string {
	const most = 24
	if len(s) > most {
		return strconv.Quote(s[:most]) + "…"
	}
	return strconv.Quote(s)
}

// CSVError turns an error of encoding/csv into "name:line: message" (the
// line where the faulty record starts), and any other error into
// "name: message".
func CSVError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %v", name, pe.StartLine, pe.Err)
	}
	return fmt.Errorf("%s: %v", name, err)
}

// MaxAbs is the largest magnitude a data value may have: its square is
// finite (√MaxFloat64 ≈ 1.34e154), so that sums of squares and the
// standardisation of a column of such values cannot overflow silently.
var MaxAbs = math.Sqrt(math.MaxFloat64)

// Number parses one numeric field of a data file, text at name:line:col:
// a finite float64 of magnitude at most MaxAbs. The error (a *ValueError)
// names the place and what is wrong: empty, not a number, NaN or ±Inf, too
// large.
func Number(name string, line, col int, text string) (float64, error) {
	v, err := strconv.ParseFloat(text, 64)
	bad := func(msg string) (float64, error) {
		return 0, &ValueError{Name: name, Line: line, Col: col, Msg: msg}
	}
	switch {
	case text == "":
		return bad("empty field (missing values must be removed or imputed first)")
	case errors.Is(err, strconv.ErrRange):
		return bad(Quote(text) + " is beyond the float64 range")
	case err != nil:
		return bad(Quote(text) + " is not a number")
	case math.IsNaN(v) || math.IsInf(v, 0):
		return bad(Quote(text) + " is not allowed: every value must be finite (remove or impute missing values first)")
	case math.Abs(v) > MaxAbs:
		return bad(fmt.Sprintf("%s is too large: its square overflows (values up to %.3g)", Quote(text), MaxAbs))
	}
	return v, nil
}

// ValueError is a bad value of a data file at name:line:col; What, if
// set, says which field it is ("gene G1").
type ValueError struct {
	Name      string
	Line, Col int
	What, Msg string
}

func (e *ValueError) Error() string {
	if e.What != "" {
		return fmt.Sprintf("%s:%d:%d: %s: %s", e.Name, e.Line, e.Col, e.What, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, e.Msg)
}
