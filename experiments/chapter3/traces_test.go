package chapter3

import (
	"errors"
	"math"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// TestTracesAndTermsAgree: every chapter 3 experiment writes trace.csv
// (run, iter, objective) and terms.csv (run, iter, term, value), and for
// every (run, iter) the terms sum to the objective within
// 1e-9·max(1, |objective|).
func TestTracesAndTermsAgree(t *testing.T) {
	for _, name := range []string{"synthetic.toml", "alice.toml", "model-order.toml"} {
		dir := exptest.Quick(t, configPath(name)).Dir
		tr, err := results.ReadCSV(dir + "/" + experiments.TraceFile)
		if err != nil {
			t.Fatal(err)
		}
		tm, err := results.ReadCSV(dir + "/" + experiments.TermsFile)
		if err != nil {
			t.Fatal(err)
		}
		type key struct {
			run string
			it  int
		}
		// byRunIter adds the column col of table tab by (run, iter).
		byRunIter := func(tab results.Table, col string) map[key]float64 {
			m := map[key]float64{}
			cr, err1 := tab.Col("run")
			ci, err2 := tab.Col("iter")
			cv, err3 := tab.Col(col)
			if err := errors.Join(err1, err2, err3); err != nil {
				t.Fatal(err)
			}
			for i, row := range tab.Rows {
				it, _ := tab.Int(i, ci)
				v, _ := tab.Float(i, cv)
				m[key{row[cr], it}] += v
			}
			return m
		}
		obj, sum := byRunIter(tr, "objective"), byRunIter(tm, "value")
		if len(obj) == 0 || len(sum) != len(obj) {
			t.Fatalf("%s: %d traced iterations, terms for %d", name, len(obj), len(sum))
		}
		for k, f := range obj {
			s := sum[k]
			if math.IsInf(f, 0) && s == f {
				continue
			}
			if math.Abs(s-f) > 1e-9*math.Max(1, math.Abs(f)) {
				t.Errorf("%s: run %s iteration %d: terms sum to %v, objective %v", name, k.run, k.it, s, f)
			}
		}
	}
}
