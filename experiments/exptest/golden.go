package exptest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/results"
)

// Update rewrites the golden files instead of comparing with them:
//
//	go test ./experiments/... -run Golden -update   (make golden)
//
// Rewrite them only when a change is meant to move the numbers (a fix, a new
// default), and say in the commit which numbers moved and why; never to make
// a failing test pass.
var Update = flag.Bool("update", false, "rewrite the golden files in testdata")

// GoldenRelTol is the relative tolerance of a golden number that is not an
// integer: loose enough for a machine that fuses multiply-adds (arm64), tight
// enough that any change of a result shows. A golden number that is an
// integer (a count, an iteration number, a rank, a pass flag, and also a
// float that came out exactly 0) must match exactly. A golden number below
// GoldenRoundOff in magnitude is round-off (a quantity that is zero in exact
// arithmetic, such as the second singular value of a rank-one matrix) and
// matches any number below GoldenRoundOff.
const GoldenRelTol = 1e-7

// GoldenRoundOff is the magnitude below which a non-integer golden number
// is taken as round-off (see GoldenRelTol).
const GoldenRoundOff = 1e-12

// Golden is the content of a golden file, testdata/<config>.golden.json: the
// machine-independent numbers of a shipped config's [quick] run.
type Golden struct {
	Experiment string `json:"experiment"`
	// Metrics are summary.json's metrics without the timings
	// (results.IsTiming); null is a non-finite value.
	Metrics map[string]*float64 `json:"metrics"`
	// Lists are summary.json's named lists.
	Lists map[string][]*float64 `json:"lists,omitempty"`
	// Checks are the acceptance checks in the order they were made: their
	// verdict ("pass", "FAIL", "n/a") and measured value.
	Checks []GoldenCheck `json:"checks"`
	// Tables fingerprint every CSV table of the results folder (cells/
	// aside), keyed by file name: see TableFingerprint.
	Tables map[string]TableFingerprint `json:"tables,omitempty"`
}

// TableFingerprint is a CSV table in a few numbers that any change of a
// cell moves: the rows, and per column (timings left out) either the
// numeric summary or, for a text column, a hash of its cells.
type TableFingerprint struct {
	Rows    int                    `json:"rows"`
	Columns map[string]ColumnPrint `json:"columns"`
}

// ColumnPrint is one column of a TableFingerprint. A numeric column (every
// cell a number, NaN or ±Inf) has N finite values, NonFinite others, and
// their Sum, SumAbs, Min and Max; a text column has Text, the first 16 hex
// digits of the SHA-256 of its cells.
type ColumnPrint struct {
	N         int      `json:"n,omitempty"`
	NonFinite int      `json:"non_finite,omitempty"`
	Sum       *float64 `json:"sum,omitempty"`
	SumAbs    *float64 `json:"sum_abs,omitempty"`
	Min       *float64 `json:"min,omitempty"`
	Max       *float64 `json:"max,omitempty"`
	Text      string   `json:"text,omitempty"`
}

// GoldenCheck is one acceptance check of a golden file.
type GoldenCheck struct {
	ID      string   `json:"id"`
	Verdict string   `json:"verdict"`
	Value   *float64 `json:"value"`
}

// GoldenOfRun extracts the golden numbers of a results folder: its
// summary and its tables.
func GoldenOfRun(r QuickRun) (Golden, error) {
	g := GoldenOf(r.Summary)
	files, err := filepath.Glob(filepath.Join(r.Dir, "*.csv"))
	if err != nil {
		return g, err
	}
	for _, f := range files {
		tab, err := results.ReadCSV(f)
		if err != nil {
			return g, err
		}
		if g.Tables == nil {
			g.Tables = map[string]TableFingerprint{}
		}
		g.Tables[filepath.Base(f)] = Fingerprint(tab)
	}
	return g, nil
}

// Fingerprint returns the fingerprint of a table.
func Fingerprint(tab results.Table) TableFingerprint {
	fp := TableFingerprint{Rows: len(tab.Rows), Columns: map[string]ColumnPrint{}}
	for j, name := range tab.Header {
		if results.IsTiming(name) {
			continue
		}
		var c ColumnPrint
		numeric := true
		var sum, sumAbs float64
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := range tab.Rows {
			x, err := results.ParseFloat(tab.Rows[i][j])
			if err != nil {
				numeric = false
				break
			}
			if math.IsNaN(x) || math.IsInf(x, 0) {
				c.NonFinite++
				continue
			}
			c.N++
			sum += x
			sumAbs += math.Abs(x)
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		if !numeric {
			h := sha256.New()
			for i := range tab.Rows {
				h.Write([]byte(tab.Rows[i][j]))
				h.Write([]byte{0})
			}
			c = ColumnPrint{Text: hex.EncodeToString(h.Sum(nil))[:16]}
		} else if c.N > 0 {
			c.Sum, c.SumAbs, c.Min, c.Max = &sum, &sumAbs, &lo, &hi
		}
		fp.Columns[name] = c
	}
	return fp
}

// diff lists the differences of the column got from want. The sum is
// compared at GoldenRelTol of the sum of absolute values, so that a sum
// that nearly cancels is not held to a tighter tolerance than its terms.
func (want ColumnPrint) diff(got ColumnPrint) []string {
	var bad []string
	if got.N != want.N || got.NonFinite != want.NonFinite || got.Text != want.Text {
		bad = append(bad, fmt.Sprintf("n %d, non-finite %d, text %q; want %d, %d, %q", got.N, got.NonFinite, got.Text, want.N, want.NonFinite, want.Text))
	}
	for _, p := range []struct {
		name string
		g, w *float64
	}{{"sum_abs", got.SumAbs, want.SumAbs}, {"min", got.Min, want.Min}, {"max", got.Max, want.Max}} {
		if !GoldenEqual(p.g, p.w) {
			bad = append(bad, fmt.Sprintf("%s %s, want %s", p.name, show(p.g), show(p.w)))
		}
	}
	switch {
	case (got.Sum == nil) != (want.Sum == nil):
		bad = append(bad, fmt.Sprintf("sum %s, want %s", show(got.Sum), show(want.Sum)))
	case want.Sum == nil:
	case *want.Sum == math.Trunc(*want.Sum) && *want.SumAbs == math.Trunc(*want.SumAbs):
		if *got.Sum != *want.Sum {
			bad = append(bad, fmt.Sprintf("sum %s, want %s", show(got.Sum), show(want.Sum)))
		}
	case math.Abs(*got.Sum-*want.Sum) > GoldenRelTol*math.Max(*want.SumAbs, *got.SumAbs):
		bad = append(bad, fmt.Sprintf("sum %s, want %s", show(got.Sum), show(want.Sum)))
	}
	return bad
}

func show(p *float64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// GoldenOf extracts the golden numbers of a summary.
func GoldenOf(s results.Summary) Golden {
	g := Golden{Experiment: s.Experiment, Metrics: map[string]*float64{}, Checks: []GoldenCheck{}}
	for k, v := range s.Metrics {
		if !results.IsTiming(k) {
			g.Metrics[k] = finite(v)
		}
	}
	for k, xs := range s.Lists {
		if results.IsTiming(k) {
			continue
		}
		if g.Lists == nil {
			g.Lists = map[string][]*float64{}
		}
		l := make([]*float64, len(xs))
		for i, x := range xs {
			l[i] = finite(x)
		}
		g.Lists[k] = l
	}
	for _, c := range s.Checks {
		g.Checks = append(g.Checks, GoldenCheck{ID: c.Key(), Verdict: c.Verdict(), Value: finite(c.Value)})
	}
	return g
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// GoldenEqual reports whether got matches the golden number want: null only
// matches null, an integer exactly, round-off (below GoldenRoundOff) any
// round-off, anything else within GoldenRelTol.
func GoldenEqual(got, want *float64) bool {
	switch {
	case want == nil || got == nil:
		return want == nil && got == nil
	case *want == math.Trunc(*want):
		return *got == *want
	case math.Abs(*want) < GoldenRoundOff:
		return math.Abs(*got) < GoldenRoundOff
	}
	return math.Abs(*got-*want) <= GoldenRelTol*math.Max(math.Abs(*got), math.Abs(*want))
}

// Diff lists the differences of got from the golden want, one line each.
func (want Golden) Diff(got Golden) []string {
	var bad []string
	if got.Experiment != want.Experiment {
		bad = append(bad, fmt.Sprintf("experiment %q, want %q", got.Experiment, want.Experiment))
	}
	for k, w := range want.Metrics {
		g, ok := got.Metrics[k]
		switch {
		case !ok:
			bad = append(bad, "metric "+k+": missing")
		case !GoldenEqual(g, w):
			bad = append(bad, fmt.Sprintf("metric %s: %s, want %s", k, show(g), show(w)))
		}
	}
	for k := range got.Metrics {
		if _, ok := want.Metrics[k]; !ok {
			bad = append(bad, "metric "+k+": not in the golden file")
		}
	}
	for k, w := range want.Lists {
		g, ok := got.Lists[k]
		if !ok || len(g) != len(w) {
			bad = append(bad, fmt.Sprintf("list %s: %d values, want %d", k, len(g), len(w)))
			continue
		}
		for i := range w {
			if !GoldenEqual(g[i], w[i]) {
				bad = append(bad, fmt.Sprintf("list %s[%d]: %s, want %s", k, i, show(g[i]), show(w[i])))
			}
		}
	}
	for k := range got.Lists {
		if _, ok := want.Lists[k]; !ok {
			bad = append(bad, "list "+k+": not in the golden file")
		}
	}
	for f, w := range want.Tables {
		g, ok := got.Tables[f]
		switch {
		case !ok:
			bad = append(bad, "table "+f+": missing")
			continue
		case g.Rows != w.Rows:
			bad = append(bad, fmt.Sprintf("table %s: %d rows, want %d", f, g.Rows, w.Rows))
		}
		for col, wc := range w.Columns {
			gc, ok := g.Columns[col]
			if !ok {
				bad = append(bad, fmt.Sprintf("table %s: column %s missing", f, col))
				continue
			}
			for _, d := range wc.diff(gc) {
				bad = append(bad, fmt.Sprintf("table %s column %s: %s", f, col, d))
			}
		}
		for col := range g.Columns {
			if _, ok := w.Columns[col]; !ok {
				bad = append(bad, fmt.Sprintf("table %s: column %s not in the golden file", f, col))
			}
		}
	}
	for f := range got.Tables {
		if _, ok := want.Tables[f]; !ok {
			bad = append(bad, "table "+f+": not in the golden file")
		}
	}
	sort.Strings(bad)
	// Checks are compared in order: the same IDs, verdicts and values.
	for i := 0; i < max(len(got.Checks), len(want.Checks)); i++ {
		switch {
		case i >= len(got.Checks):
			bad = append(bad, fmt.Sprintf("check %d %q: missing", i, want.Checks[i].ID))
		case i >= len(want.Checks):
			bad = append(bad, fmt.Sprintf("check %d %q: not in the golden file", i, got.Checks[i].ID))
		default:
			g, w := got.Checks[i], want.Checks[i]
			if g.ID != w.ID || g.Verdict != w.Verdict || !GoldenEqual(g.Value, w.Value) {
				bad = append(bad, fmt.Sprintf("check %d %q: %s %s, want %q: %s %s", i, g.ID, g.Verdict, show(g.Value), w.ID, w.Verdict, show(w.Value)))
			}
		}
	}
	return bad
}

// CheckGoldens runs every config of configDir (*.toml) with its [quick]
// settings (through Quick, so the package's other tests reuse the runs)
// and compares each with testdata/<config>.golden.json; with -update it
// writes the golden files instead. A golden file without its config fails,
// so that no stale golden file lingers. On a mismatch it writes
// testdata/<config>.got.json beside the golden file for diffing.
func CheckGoldens(t *testing.T, configDir string) {
	t.Helper()
	configs, err := filepath.Glob(filepath.Join(configDir, "*.toml"))
	if err != nil || len(configs) == 0 {
		t.Fatalf("no configs in %s: %v", configDir, err)
	}
	have := map[string]bool{}
	for _, cfg := range configs {
		name := strings.TrimSuffix(filepath.Base(cfg), ".toml")
		have[name] = true
		t.Run(name, func(t *testing.T) {
			got, err := GoldenOfRun(Quick(t, cfg))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".golden.json")
			if *Update {
				writeGolden(t, path, got)
				return
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (create it with: go test . -run Golden -update, or make golden)", err)
			}
			var want Golden
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if bad := want.Diff(got); len(bad) > 0 {
				gotPath := filepath.Join("testdata", name+".got.json")
				writeGolden(t, gotPath, got)
				t.Errorf("%d numbers differ from %s (integers exactly, others at relative %g; all of them in %s):\n  %s",
					len(bad), path, GoldenRelTol, gotPath, strings.Join(bad, "\n  "))
			}
		})
	}
	stale, _ := filepath.Glob(filepath.Join("testdata", "*.golden.json"))
	for _, p := range stale {
		name := strings.TrimSuffix(filepath.Base(p), ".golden.json")
		if !have[name] {
			t.Errorf("%s has no config %s.toml in %s: remove it", p, name, configDir)
		}
	}
}

// writeGolden writes g as indented JSON with sorted keys.
func writeGolden(t *testing.T, path string, g Golden) {
	t.Helper()
	data, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
