package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments/report"
	"github.com/vbworkbench/vbw/results"
)

// TestTimes: the run-times table has one row per config: a full run with
// its machine (cores busy = CPU/wall), a quick run of the same config from
// another results tree, an older manifest without CPU time or machine
// ("not recorded") that resumed 8 of its 10 cells (said, with their time),
// and a shipped config no tree holds ("not measured").
func TestTimes(t *testing.T) {
	full, quick := t.TempDir(), t.TempDir()
	write := func(root, dir, config string, quick bool, wall, cpu float64, m *results.Machine, cells ...*results.CellCounts) {
		t.Helper()
		d := filepath.Join(root, dir)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		man := &results.Manifest{Experiment: "chapter3/" + filepath.Base(dir), Config: config, Quick: quick,
			Start: "2026-11-25T20:00:00Z", WallSeconds: wall, CPUSeconds: cpu, Machine: m}
		if len(cells) > 0 {
			man.Cells = cells[0]
		}
		if err := results.WriteJSON(filepath.Join(d, results.ManifestFile), man); err != nil {
			t.Fatal(err)
		}
	}
	box := &results.Machine{Host: "box", OS: "linux", Arch: "amd64", CPUModel: "Some CPU", CPUs: 2, Workers: 2, LoadStart: 1, LoadEnd: 2.5}
	write(full, "chapter3/alice", "/abs/path/configs/chapter3/alice.toml", false, 200, 300, box)
	write(quick, "quick/chapter3/alice", "configs/chapter3/alice.toml", true, 1.5, 2, box)
	write(full, "chapter3/synthetic", "configs/chapter3/synthetic.toml", false, 54, 0, nil,
		&results.CellCounts{Computed: 2, Resumed: 8, ResumedSeconds: 125})
	cfgs := t.TempDir()
	shipped := []string{"alice", "synthetic", "tightness"}
	var configs []string
	for _, name := range shipped {
		p := filepath.Join(cfgs, "chapter3", name+".toml")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("experiment = \"chapter3/"+name+"\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		configs = append(configs, p)
	}
	rows, skipped := report.Times([]string{full, quick}, configs, "chapter")
	if len(skipped) != 0 || len(rows) != 3 {
		t.Fatalf("rows %+v, skipped %v: want 3 rows (alice, synthetic, tightness), none skipped", rows, skipped)
	}
	var b strings.Builder
	report.WriteTimes(&b, rows)
	lines := strings.Split(b.String(), "\n")
	want := []string{
		"| `configs/chapter3/alice.toml` | chapter3/alice | 3 min 20 s | 5 min 00 s | 1.5 / 2 | 1.0–2.5 | box, 2026-11-25 | 1.5 s |",
		"| `configs/chapter3/synthetic.toml` | chapter3/synthetic | 54 s (resumed 8 of 10 cells, 2 min 05 s when computed) | not recorded | not recorded | not recorded | not recorded, 2026-11-25 | not measured |",
		"| `configs/chapter3/tightness.toml` | chapter3/tightness | not measured |  |  |  |  | not measured |",
	}
	for i, w := range want {
		if lines[2+i] != w {
			t.Errorf("row %d:\n got %s\nwant %s", i, lines[2+i], w)
		}
	}
	if !strings.Contains(b.String(), "make chapter3: 2 of 3 configs measured, 4 min 14 s wall in all (1 of them resumed cells that took 2 min 05 s of cell time before); quick runs: 1, 1.5 s wall in all.") {
		t.Errorf("no total line for chapter 3 in\n%s", b.String())
	}
	if !strings.Contains(b.String(), "box: Some CPU, 2 CPUs, linux/amd64.") {
		t.Errorf("no line for the machine box in\n%s", b.String())
	}
	if rows, _ := report.Times([]string{full}, configs, "chapter4"); len(rows) != 0 {
		t.Errorf("prefix chapter4 kept %d rows of chapter 3", len(rows))
	}
}
