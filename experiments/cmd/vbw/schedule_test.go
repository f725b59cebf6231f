package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// TestSharedWorkersBitIdentical: configs of two documents run by one vbw
// run, their cells on one budget of workers, write the same result files
// bit for bit as each config run alone; each manifest records its own CPU
// time (threads), and the run record the whole invocation's.
func TestSharedWorkersBitIdentical(t *testing.T) {
	data := experiments.TestDataDir()
	var cfgs []string
	for _, c := range []string{"chapter3/synthetic.toml", "chapter6/dimensionality.toml", "chapter3/model-order.toml"} {
		cfgs = append(cfgs, filepath.Join("..", "..", "..", "configs", filepath.FromSlash(c)))
	}
	together, alone := t.TempDir(), t.TempDir()
	args := append([]string{"run", "-quick", "-noplot", "-workers", "2", "-out", together, "-data", data}, cfgs...)
	if _, _, err := vbw(args...); err != nil {
		t.Fatal(err)
	}
	for _, c := range cfgs {
		if _, _, err := vbw("run", "-quick", "-noplot", "-workers", "2", "-out", alone, "-data", data, c); err != nil {
			t.Fatal(err)
		}
	}
	dirs := []string{"chapter3/synthetic", "chapter6/dimensionality", "chapter3/model-order"}
	for _, d := range dirs {
		a, b := filepath.Join(together, filepath.FromSlash(d)), filepath.Join(alone, filepath.FromSlash(d))
		files, err := os.ReadDir(b)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range files {
			if f.IsDir() || f.Name() == results.ManifestFile {
				continue
			}
			x, err1 := os.ReadFile(filepath.Join(a, f.Name()))
			y, err2 := os.ReadFile(filepath.Join(b, f.Name()))
			if err1 != nil || err2 != nil {
				t.Fatalf("%s/%s: %v %v", d, f.Name(), err1, err2)
			}
			if !sameResults(f.Name(), x, y) {
				t.Errorf("%s/%s differs between the shared run and the run alone", d, f.Name())
			}
			n++
		}
		if n < 2 {
			t.Errorf("%s: %d result files compared", d, n)
		}
		man, err := results.ReadManifest(filepath.Join(a, results.ManifestFile))
		if err != nil {
			t.Fatal(err)
		}
		if man.CPUScope != results.CPUThreads || !(man.CPUSeconds > 0) || !(man.WallSeconds > 0) {
			t.Errorf("%s: shared run's manifest CPU %v s (scope %q), wall %v s", d, man.CPUSeconds, man.CPUScope, man.WallSeconds)
		}
		solo, err := results.ReadManifest(filepath.Join(b, results.ManifestFile))
		if err != nil {
			t.Fatal(err)
		}
		if solo.CPUScope != "" {
			t.Errorf("%s: a config run alone records CPU scope %q, want the process's", d, solo.CPUScope)
		}
	}
	rec, err := results.ReadInvocation(filepath.Join(together, "quick", results.InvocationFile))
	if err != nil {
		rec, err = results.ReadInvocation(filepath.Join(together, results.InvocationFile))
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Jobs) != len(cfgs) || !(rec.WallSeconds > 0) || !(rec.CPUSeconds > 0) {
		t.Errorf("run record: %d jobs, wall %v s, CPU %v s", len(rec.Jobs), rec.WallSeconds, rec.CPUSeconds)
	}
	for _, j := range rec.Jobs {
		if !j.OK || !j.Started || !strings.HasSuffix(j.Config, ".toml") {
			t.Errorf("run record job %+v", j)
		}
	}
}

// sameResults compares two result files bit for bit, measured times
// (results.IsTiming columns and keys) left out.
func sameResults(name string, a, b []byte) bool {
	timing := func(k string) bool { return results.IsTiming(strings.ToLower(k)) }
	switch filepath.Ext(name) {
	case ".csv":
		ra, err1 := csv.NewReader(bytes.NewReader(a)).ReadAll()
		rb, err2 := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err1 != nil || err2 != nil || len(ra) != len(rb) || len(ra) == 0 {
			return err1 == nil && err2 == nil && len(ra) == len(rb)
		}
		for i := range ra {
			if len(ra[i]) != len(rb[i]) {
				return false
			}
			for j := range ra[i] {
				if !timing(ra[0][j]) && ra[i][j] != rb[i][j] {
					return false
				}
			}
		}
		return true
	case ".json":
		var x, y any
		da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
		da.UseNumber()
		db.UseNumber()
		if da.Decode(&x) != nil || db.Decode(&y) != nil {
			return false
		}
		var drop func(v any) any
		drop = func(v any) any {
			switch m := v.(type) {
			case map[string]any:
				for k := range m {
					if timing(k) {
						delete(m, k)
					} else {
						m[k] = drop(m[k])
					}
				}
			case []any:
				for i := range m {
					m[i] = drop(m[i])
				}
			}
			return v
		}
		return reflect.DeepEqual(drop(x), drop(y))
	}
	return bytes.Equal(a, b)
}

// TestJobsErrorNamesTheFailedConfig: of a shared run's outcomes the error
// is the failure that stopped the run, naming its config and the configs
// it stopped; after an interrupt, what each stopped config kept.
func TestJobsErrorNamesTheFailedConfig(t *testing.T) {
	dir := t.TempDir()
	job := func(name string) *experiments.Job {
		return &experiments.Job{Path: name + ".toml", Dir: filepath.Join(dir, name)}
	}
	a, b, c := job("a"), job("b"), job("c")
	outs := []experiments.JobOutcome{
		{Job: a, Err: context.Canceled, Started: true},
		{Job: b, Err: errors.New("chapter3/x: cell r1: boom"), Started: true, Cause: true},
		{Job: c, Err: context.Canceled},
	}
	err := jobsError(context.Background(), outs, time.Second, false, false)
	if err == nil || !strings.HasPrefix(err.Error(), "b.toml: chapter3/x: cell r1: boom") || !strings.Contains(err.Error(), "a.toml, c.toml") {
		t.Errorf("error %v, want b.toml's failure first and the configs it stopped", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	outs[1] = experiments.JobOutcome{Job: b, Err: context.Canceled}
	err = jobsError(ctx, outs, time.Second, false, false)
	var in *interrupted
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "in a.toml: 0 finished cells are kept") || !strings.Contains(err.Error(), "not started: b.toml, c.toml") {
		t.Errorf("interrupted: %v", err)
	}
	if err := jobsError(context.Background(), []experiments.JobOutcome{{Job: a}, {Job: b}}, time.Second, false, false); err != nil {
		t.Errorf("all committed: %v", err)
	}
}
