package chapter3

import (
	"context"
	"math"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// TestTracesAndTermsAgree: every chapter 3 experiment writes trace.csv
// (run, iter, objective) and terms.csv (run, iter, term, value), and for
// every (run, iter) the terms sum to the objective within
// 1e-9·max(1, |objective|).
func TestTracesAndTermsAgree(t *testing.T) {
	for _, name := range []string{"synthetic.toml", "alice.toml", "model-order.toml"} {
		dir, err := experiments.RunConfig(context.Background(), configPath(name), experiments.RunOptions{
			Out: t.TempDir(), Quick: true, DataDir: experiments.TestDataDir(), NoPlot: true})
		if err != nil {
			t.Fatal(err)
		}
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
		obj := map[key]float64{}
		cr, _ := tr.Col("run")
		ci, _ := tr.Col("iter")
		co, err := tr.Col("objective")
		if err != nil {
			t.Fatal(err)
		}
		for i, row := range tr.Rows {
			it, _ := tr.Int(i, ci)
			v, _ := tr.Float(i, co)
			obj[key{row[cr], it}] = v
		}
		sum := map[key]float64{}
		mr, _ := tm.Col("run")
		mi, _ := tm.Col("iter")
		mv, err := tm.Col("value")
		if err != nil {
			t.Fatal(err)
		}
		for i, row := range tm.Rows {
			it, _ := tm.Int(i, mi)
			v, _ := tm.Float(i, mv)
			sum[key{row[mr], it}] += v
		}
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
