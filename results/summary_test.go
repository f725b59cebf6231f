package results

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSummaryNaNRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.json")
	s := Summary{
		Experiment: "chapter3/synthetic",
		ConfigHash: "0123456789ab",
		Quick:      true,
		Warnings:   []string{"run 2 hit max_iter"},
		Extra: map[string]any{
			"trace":  []float64{1, math.NaN(), 3},
			"labels": []string{"a", "b"},
			"nested": map[string][]float64{"F": {math.Inf(-1), 2}},
		},
	}
	s.SetMetric("k_hat.median", 3)
	s.SetMetric("F.best", -1234.5678901234567)
	s.SetMetric("bad", math.NaN())
	s.SetMetric("worse", math.Inf(1))
	s.Judge(Criterion{ID: "k", Text: "k recovered", Target: Equal(3)}, 3)
	s.Judge(Criterion{ID: "undefined", Text: "undefined", Target: Below(0.1)}, math.NaN())
	if err := WriteJSON(path, s); err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 1 {
		t.Errorf("WriteJSON changed the summary's warnings: %q", s.Warnings)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{`"bad": null`, `"worse": null`, `"value": null`, `"target": "< 0.1"`, "\n  \"metrics\": {"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary.json lacks %q:\n%s", want, text)
		}
	}
	if !strings.HasSuffix(text, "}\n") {
		t.Error("summary.json lacks a trailing newline")
	}

	got, err := ReadSummary(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Experiment != s.Experiment || got.ConfigHash != s.ConfigHash || !got.Quick {
		t.Errorf("header fields = %+v", got)
	}
	if got.Metrics["k_hat.median"] != 3 || got.Metrics["F.best"] != -1234.5678901234567 {
		t.Errorf("finite metrics = %v", got.Metrics)
	}
	if !math.IsNaN(got.Metrics["bad"]) || !math.IsNaN(got.Metrics["worse"]) {
		t.Errorf("null metrics read back as %v, %v; want NaN", got.Metrics["bad"], got.Metrics["worse"])
	}
	if len(got.Checks) != 2 || got.Checks[0] != s.Checks[0] || !math.IsNaN(got.Checks[1].Value) {
		t.Errorf("checks = %+v", got.Checks)
	}
	if f := got.Failed(); len(f) != 1 || f[0] != "undefined" {
		t.Errorf("Failed = %q", f)
	}
	wantWarn := []string{
		"run 2 hit max_iter",
		`metric "bad" is NaN; written as null`,
		`metric "worse" is +Inf; written as null`,
		`check "undefined" value is NaN; written as null`,
		`extra "nested": 1 non-finite values; written as null`,
		`extra "trace": 1 non-finite values; written as null`,
	}
	if !slices.Equal(got.Warnings, wantWarn) {
		t.Errorf("warnings =\n%q\nwant\n%q", got.Warnings, wantWarn)
	}
	tr, err := got.ExtraFloats("trace")
	if err != nil || len(tr) != 3 || tr[0] != 1 || !math.IsNaN(tr[1]) || tr[2] != 3 {
		t.Errorf("ExtraFloats(trace) = %v, %v", tr, err)
	}
	if _, err := got.ExtraFloats("labels"); err == nil {
		t.Error("ExtraFloats accepted strings")
	}

	// Writing what was read adds no duplicate warnings.
	if err := WriteJSON(path, &got); err != nil {
		t.Fatal(err)
	}
	again, err := ReadSummary(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Warnings, wantWarn) {
		t.Errorf("warnings after a second write = %q", again.Warnings)
	}
}

func TestSummaryEmptyAndStrict(t *testing.T) {
	data, err := json.Marshal(Summary{Experiment: "x"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"experiment":"x","config_hash":"","quick":false,"metrics":{},"checks":[],"warnings":[]}`
	if string(data) != want {
		t.Errorf("empty summary = %s\nwant %s", data, want)
	}
	dir := t.TempDir()
	typo := filepath.Join(dir, "typo.json")
	os.WriteFile(typo, []byte(`{"experiment":"x","metrcs":{}}`), 0o644)
	if _, err := ReadSummary(typo); err == nil || !strings.Contains(err.Error(), "metrcs") {
		t.Errorf("unknown field: err = %v", err)
	}
	broken := filepath.Join(dir, "broken.json")
	os.WriteFile(broken, []byte("{\n  \"experiment\": \"x\",\n  \"quick\": tru\n}\n"), 0o644)
	if _, err := ReadSummary(broken); err == nil || !strings.HasPrefix(err.Error(), broken+":3:") {
		t.Errorf("syntax error = %v; want it located at %s:3:", err, broken)
	}
}

func TestAddSpread(t *testing.T) {
	var s Summary
	s.AddSpread("F", []float64{4, math.NaN(), 1, 3, 2})
	want := map[string]float64{"F.n": 4, "F.median": 2.5, "F.q25": 1.75, "F.q75": 3.25}
	for k, v := range want {
		if s.Metrics[k] != v {
			t.Errorf("%s = %v, want %v", k, s.Metrics[k], v)
		}
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], `"F": 1 of 5`) {
		t.Errorf("warnings = %q", s.Warnings)
	}
}

func TestManifest(t *testing.T) {
	before := time.Now().Add(-time.Second)
	m := NewManifest("chapter3/synthetic", "0123456789ab", 2003, true)
	if m.GoVersion == "" || !strings.HasPrefix(m.GoVersion, "go") {
		t.Errorf("GoVersion = %q", m.GoVersion)
	}
	if st, err := time.Parse(time.RFC3339, m.Start); err != nil || st.Before(before) || st.After(time.Now()) {
		t.Errorf("Start = %q (%v), want about now", m.Start, err)
	}
	start := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	m.Start = start.Format(time.RFC3339)
	m.Status = "ok"
	m.Config = "configs/chapter3/synthetic.toml"
	m.AddRun(RunRecord{Name: "run0", Seed: 1<<63 + 5, Status: "converged", WallSeconds: 0.25, Iterations: 17})
	m.AddRun(RunRecord{Name: "run1", Seed: 2, Status: "failed", Error: "singular", Warnings: []string{"F decreased"}})
	m.Finish(start.Add(1500 * time.Millisecond))
	if m.WallSeconds != 1.5 {
		t.Errorf("WallSeconds = %v", m.WallSeconds)
	}
	path := filepath.Join(t.TempDir(), "manifest.json")
	if err := WriteJSON(path, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Experiment != m.Experiment || got.Status != "ok" || got.Config != m.Config || got.Seed != 2003 || !got.Quick || len(got.Runs) != 2 ||
		got.Runs[0].Seed != 1<<63+5 || got.Runs[1].Warnings[0] != "F decreased" || got.GoVersion != m.GoVersion {
		t.Errorf("read back %+v", got)
	}
	got.Finish(start.Add(2 * time.Second))
	if got.WallSeconds != 2 {
		t.Errorf("WallSeconds from Start = %v", got.WallSeconds)
	}
	t.Logf("main module %+v, %d deps, vcs %+v", m.MainModule, len(m.Modules), m.VCS)
}

func TestGitVCSOutsideRepository(t *testing.T) {
	if _, err := GitVCS(t.TempDir()); err == nil {
		t.Error("GitVCS succeeded outside a repository")
	} else if strings.Contains(err.Error(), "\n") {
		t.Errorf("error has a newline: %q", err)
	}
}

// TestSummaryLists: list metrics are written among the metrics as arrays
// (NaN as null) and read back.
func TestSummaryLists(t *testing.T) {
	s := Summary{Experiment: "x", Metrics: map[string]float64{"components": 6},
		Lists: map[string][]float64{"dims": {7, 4, 3, 2, 2, 1}, "bad": {1, math.NaN()}}}
	path := filepath.Join(t.TempDir(), "summary.json")
	if err := WriteJSON(path, s); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `"dims": [`) {
		t.Fatalf("dims not written as an array:\n%s", b)
	}
	got, err := ReadSummary(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Metrics["components"] != 6 || len(got.Lists["dims"]) != 6 || got.Lists["dims"][0] != 7 || !math.IsNaN(got.Lists["bad"][1]) {
		t.Fatalf("read back %+v %+v", got.Metrics, got.Lists)
	}
	s.Metrics["dims"] = 1
	if err := WriteJSON(path, s); err == nil {
		t.Fatal("a name that is both a metric and a list was written")
	}
}
