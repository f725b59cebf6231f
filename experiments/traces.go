package experiments

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/results"
)

// Files every experiment writes from the traces of its fits.
const (
	// TraceFile has one row per E step of every fit: run, iter,
	// objective, delta (NaN at iteration 0).
	TraceFile = "trace.csv"
	// TermsFile has one row per named term of the objective per E step:
	// run, iter, term, value. For every (run, iter) the values sum to the
	// objective within 1e-9·max(1, |objective|) (the sign contract of
	// vb.Bound: KL terms are carried as −KL).
	TermsFile = "terms.csv"
)

// Term is one named term of an objective, as stored in cells.
type Term struct {
	Name  string `json:"name"`
	Value Float  `json:"value"`
}

// RunTrace is the stored trace of one fit (one vb.Run): the objective
// after each E step and its named terms. Run names the fit within the
// experiment, e.g. "d00-r03/VB".
type RunTrace struct {
	Run   string   `json:"run"`
	F     []Float  `json:"f"`
	Terms [][]Term `json:"terms"`
}

// TraceOf returns the trace of a fit's result under the name run.
func TraceOf(run string, r vb.Result) RunTrace {
	t := RunTrace{Run: run, F: Floats(r.Trace.F), Terms: make([][]Term, len(r.Trace.Terms))}
	for i, terms := range r.Trace.Terms {
		t.Terms[i] = make([]Term, len(terms))
		for j, term := range terms {
			t.Terms[i][j] = Term{Name: term.Name, Value: Float(term.Value)}
		}
	}
	return t
}

// Objective returns the objective trace as float64s.
func (t RunTrace) Objective() []float64 { return Float64s(t.F) }

// Monotone reports whether the objective never decreases by more than
// tol·max(1, |F|) from one E step to the next.
func (t RunTrace) Monotone(tol float64) bool {
	f := t.Objective()
	for i := 1; i < len(f); i++ {
		if f[i] < f[i-1]-tol*math.Max(1, math.Abs(f[i])) {
			return false
		}
	}
	return true
}

// WriteTraces writes TraceFile and TermsFile into dir from the traces, in
// order.
func WriteTraces(dir string, traces []RunTrace) error {
	tt := results.NewTable("run", "iter", "objective", "delta")
	mt := results.NewTable("run", "iter", "term", "value")
	for _, tr := range traces {
		for it, v := range tr.F {
			d := math.NaN()
			if it > 0 {
				d = float64(v - tr.F[it-1])
			}
			tt.AddRow(tr.Run, it, float64(v), d)
			if it < len(tr.Terms) {
				for _, term := range tr.Terms[it] {
					mt.AddRow(tr.Run, it, term.Name, float64(term.Value))
				}
			}
		}
	}
	if err := results.WriteCSV(filepath.Join(dir, TraceFile), *tt); err != nil {
		return err
	}
	return results.WriteCSV(filepath.Join(dir, TermsFile), *mt)
}

// ReadTrace returns the iterations and objective of one run from a
// TraceFile table.
func ReadTrace(t results.Table, run string) (iter, obj []float64, err error) {
	cr, err1 := t.Col("run")
	ci, err2 := t.Col("iter")
	co, err3 := t.Col("objective")
	for _, e := range []error{err1, err2, err3} {
		if e != nil {
			return nil, nil, e
		}
	}
	for i, row := range t.Rows {
		if row[cr] != run {
			continue
		}
		it, err := t.Float(i, ci)
		if err != nil {
			return nil, nil, err
		}
		v, err := t.Float(i, co)
		if err != nil {
			return nil, nil, err
		}
		iter, obj = append(iter, it), append(obj, v)
	}
	if len(obj) == 0 {
		return nil, nil, fmt.Errorf("%s: no trace of run %q", TraceFile, run)
	}
	return iter, obj, nil
}
