package results

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
)

// Table is a tidy CSV table: a header naming the columns and rows of cells
// as text. Every row has len(Header) cells.
//
// Build one with NewTable and AddRow, write it with WriteCSV, read it back
// with ReadCSV, and look values up with Col and Float.
type Table struct {
	Header []string
	Rows   [][]string

	// Path is the file the table was read from (set by ReadCSV); errors
	// from Col, Float and Int name it. It may be empty.
	Path string

	// lines[i] is the line of Path on which Rows[i] starts (1-based), set by
	// ReadCSV; nil means row i is on line i+2.
	lines []int
}

// NewTable returns an empty table with the given column names.
func NewTable(header ...string) *Table {
	return &Table{Header: append([]string(nil), header...)}
}

// AddRow appends a row built from one value per column. Strings are used as
// they are; floats are formatted with FormatFloat; integers in decimal; bools
// as true or false; other fmt.Stringer values by their String method. Named
// types with a numeric, string or bool underlying type are formatted like
// that type.
//
// AddRow panics if the number of values differs from the number of columns
// or a value has another type: both are programming errors.
func (t *Table) AddRow(values ...any) {
	if len(values) != len(t.Header) {
		panic(fmt.Sprintf("results: AddRow: %d values for %d columns", len(values), len(t.Header)))
	}
	row := make([]string, len(values))
	for i, v := range values {
		row[i] = formatCell(v, t.Header[i])
	}
	t.Rows = append(t.Rows, row)
}

func formatCell(v any, col string) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return FormatFloat(v)
	case float32:
		return formatFloatBits(float64(v), 32)
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case bool:
		return strconv.FormatBool(v)
	case fmt.Stringer:
		return v.String()
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String:
		return rv.String()
	case reflect.Float64:
		return FormatFloat(rv.Float())
	case reflect.Float32:
		return formatFloatBits(rv.Float(), 32)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(rv.Uint(), 10)
	case reflect.Bool:
		return strconv.FormatBool(rv.Bool())
	}
	panic(fmt.Sprintf("results: AddRow: column %q: unsupported value type %T", col, v))
}

// FormatFloat formats x so that ParseFloat reads back exactly x: the shortest
// decimal that round-trips ('g' format), and NaN, +Inf or -Inf for
// non-finite values.
func FormatFloat(x float64) string { return formatFloatBits(x, 64) }

func formatFloatBits(x float64, bits int) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "+Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(x, 'g', -1, bits)
}

// ParseFloat parses a float written by FormatFloat. Like strconv.ParseFloat
// it also accepts other spellings of the same numbers ("1e3", "inf").
func ParseFloat(s string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) {
			err = ne.Err
		}
		return 0, fmt.Errorf("cannot parse %q as a number: %w", s, err)
	}
	return x, nil
}

// Col returns the index of the column called name, or an error naming the
// column and the table's file.
func (t *Table) Col(name string) (int, error) {
	for i, h := range t.Header {
		if h == name {
			return i, nil
		}
	}
	return -1, fmt.Errorf("%s: no column %q (columns: %q)", t.source(), name, t.Header)
}

// Float parses the cell in row (0-based, not counting the header) and column
// col as a float. The error names the file, the line and the column.
// Float panics if row or col is out of range.
func (t *Table) Float(row, col int) (float64, error) {
	x, err := ParseFloat(t.Rows[row][col])
	if err != nil {
		return 0, t.cellError(row, col, err)
	}
	return x, nil
}

// Int parses the cell in row and column col as a decimal integer, like Float.
func (t *Table) Int(row, col int) (int, error) {
	s := t.Rows[row][col]
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, t.cellError(row, col, fmt.Errorf("cannot parse %q as an integer", s))
	}
	return n, nil
}

// Floats returns the column called name parsed as floats.
func (t *Table) Floats(name string) ([]float64, error) {
	c, err := t.Col(name)
	if err != nil {
		return nil, err
	}
	xs := make([]float64, len(t.Rows))
	for i := range t.Rows {
		if xs[i], err = t.Float(i, c); err != nil {
			return nil, err
		}
	}
	return xs, nil
}

// Line returns the line of the table's file on which row starts (1-based;
// the header is line 1).
func (t *Table) Line(row int) int {
	if row < len(t.lines) {
		return t.lines[row]
	}
	return row + 2
}

func (t *Table) cellError(row, col int, err error) error {
	return fmt.Errorf("%s:%d: column %q: %w", t.source(), t.Line(row), t.Header[col], err)
}

func (t *Table) source() string {
	if t.Path == "" {
		return "<table>"
	}
	return t.Path
}

// check reports a header that is empty or repeats a name, and rows of the
// wrong width.
func (t *Table) check() error {
	if len(t.Header) == 0 {
		return errors.New("table has no columns")
	}
	seen := make(map[string]bool, len(t.Header))
	for _, h := range t.Header {
		if h == "" {
			return errors.New("empty column name in header")
		}
		if seen[h] {
			return fmt.Errorf("column %q appears twice in header", h)
		}
		seen[h] = true
	}
	for i, r := range t.Rows {
		if len(r) != len(t.Header) {
			return fmt.Errorf("row %d has %d cells for %d columns", i, len(r), len(t.Header))
		}
	}
	return nil
}

// WriteCSV writes t to path atomically (WriteFileAtomic) as RFC 4180 CSV
// with "\n" line endings; cells containing commas, quotes or newlines are
// quoted. It returns an error, writing nothing, if the header is empty or
// repeats a name or a row has the wrong number of cells.
func WriteCSV(path string, t Table) error {
	if err := t.check(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(t.Header); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	for _, r := range t.Rows {
		if len(r) == 1 && r[0] == "" {
			// encoding/csv writes a lone empty cell as an empty line, which
			// readers skip; quote it so that the row survives.
			w.Flush()
			buf.WriteString("\"\"\n")
			continue
		}
		if err := w.Write(r); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return WriteFileAtomic(path, buf.Bytes())
}

// ReadCSV reads a table written by WriteCSV. Every record must have as many
// fields as the header; errors name the file and the line.
func ReadCSV(path string) (Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Table{}, err
	}
	return ParseCSV(path, b)
}

// ParseCSV reads a table written by WriteCSV from its bytes, as ReadCSV
// reads it from the file path (which errors name).
func ParseCSV(path string, b []byte) (Table, error) {
	r := csv.NewReader(bytes.NewReader(b))
	header, err := r.Read()
	if err == io.EOF {
		return Table{}, fmt.Errorf("%s: empty file, expected a CSV header", path)
	}
	if err != nil {
		return Table{}, fmt.Errorf("%s: %w", path, err)
	}
	t := Table{Header: header, Path: path}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Table{}, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		t.Rows = append(t.Rows, rec)
		t.lines = append(t.lines, line)
	}
	if err := t.check(); err != nil {
		return Table{}, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}
