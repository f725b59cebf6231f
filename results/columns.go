package results

// Strings returns the cells of the column called name.
func (t *Table) Strings(name string) ([]string, error) {
	c, err := t.Col(name)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		out[i] = r[c]
	}
	return out, nil
}

// Columns reads the columns of a table with one error for all of them, so
// that a figure reads what it draws and checks once:
//
//	c := results.ReadColumns(filepath.Join(dir, "dimensions.csv"))
//	modes, diff := c.Strings("data"), c.Floats("dprime_minus_d")
//	if err := c.Err(); err != nil {
//		return err
//	}
//
// The first error (reading the file, a missing column, a cell that is not
// a number) sticks: later reads return nil and Err returns it.
type Columns struct {
	t   Table
	err error
}

// ReadColumns reads the CSV file at path (ReadCSV) for Columns.
func ReadColumns(path string) *Columns {
	t, err := ReadCSV(path)
	return &Columns{t: t, err: err}
}

// Columns returns a Columns reader of t.
func (t *Table) Columns() *Columns { return &Columns{t: *t} }

// Strings returns the cells of the column called name (nil after an
// error).
func (c *Columns) Strings(name string) []string {
	if c.err != nil {
		return nil
	}
	v, err := c.t.Strings(name)
	c.err = err
	return v
}

// Floats returns the column called name parsed as floats (nil after an
// error).
func (c *Columns) Floats(name string) []float64 {
	if c.err != nil {
		return nil
	}
	v, err := c.t.Floats(name)
	c.err = err
	return v
}

// Table returns the table read (for its Line numbers and Rows).
func (c *Columns) Table() *Table { return &c.t }

// Err returns the first error of the reads so far, or nil.
func (c *Columns) Err() error { return c.err }
