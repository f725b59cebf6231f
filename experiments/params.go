package experiments

import (
	"fmt"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/results"
)

// ParamsFile holds learnt parameter matrices in long form: run, source,
// matrix, row, col, value (one row per entry). Figures such as Hinton
// diagrams are drawn from it.
const ParamsFile = "params.csv"

// Params collects matrices for ParamsFile.
type Params struct{ t *results.Table }

// NewParams returns an empty collection.
func NewParams() *Params {
	return &Params{t: results.NewTable("run", "source", "matrix", "row", "col", "value")}
}

// Add records the rows×cols row-major matrix data under run (e.g.
// "d00-r03"), source (e.g. "VB_mean") and name (e.g. "A").
func (p *Params) Add(run, source, name string, rows, cols int, data []float64) {
	if len(data) != rows*cols {
		panic(fmt.Sprintf("experiments: matrix %s is %d×%d but has %d entries", name, rows, cols, len(data)))
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			p.t.AddRow(run, source, name, i, j, data[i*cols+j])
		}
	}
}

// Write writes ParamsFile into dir.
func (p *Params) Write(dir string) error {
	return results.WriteCSV(filepath.Join(dir, ParamsFile), *p.t)
}

// ReadMatrix rebuilds one matrix of a ParamsFile table; its size is that
// of the largest row and column indices recorded.
func ReadMatrix(t results.Table, run, source, name string) (*mat.Dense, error) {
	var cols [6]int
	for i, c := range []string{"run", "source", "matrix", "row", "col", "value"} {
		var err error
		if cols[i], err = t.Col(c); err != nil {
			return nil, err
		}
	}
	type entry struct {
		i, j int
		v    float64
	}
	var es []entry
	rows, ncols := 0, 0
	for r, row := range t.Rows {
		if row[cols[0]] != run || row[cols[1]] != source || row[cols[2]] != name {
			continue
		}
		i, err1 := t.Int(r, cols[3])
		j, err2 := t.Int(r, cols[4])
		v, err3 := t.Float(r, cols[5])
		for _, err := range []error{err1, err2, err3} {
			if err != nil {
				return nil, err
			}
		}
		if i < 0 || j < 0 || i > 1<<16 || j > 1<<16 {
			return nil, fmt.Errorf("%s: entry (%d, %d) of %s %s out of range", ParamsFile, i, j, source, name)
		}
		es = append(es, entry{i, j, v})
		rows, ncols = max(rows, i+1), max(ncols, j+1)
	}
	if len(es) == 0 {
		return nil, fmt.Errorf("%s: no %s entries for %s of run %s", ParamsFile, name, source, run)
	}
	m := mat.NewDense(rows, ncols, nil)
	for _, e := range es {
		m.Set(e.i, e.j, e.v)
	}
	return m, nil
}
