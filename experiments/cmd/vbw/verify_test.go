package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// forge edits the file name of the results folder dir by edit and records
// its new size and SHA-256 in the manifest, as a deliberate forger would;
// editManifest, if not nil, edits the manifest too.
func forge(t *testing.T, dir, name string, edit func(string) string, editManifest func(*results.Manifest)) {
	t.Helper()
	cur, err := results.OpenFolder(dir).Current()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(cur, name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := edit(string(data))
	if text == string(data) {
		t.Fatalf("the edit of %s changed nothing", name)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	man, err := results.ReadManifest(filepath.Join(cur, results.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(text))
	for i := range man.Outputs {
		if man.Outputs[i].Name == name {
			man.Outputs[i].Size, man.Outputs[i].SHA256 = int64(len(text)), hex.EncodeToString(sum[:])
		}
	}
	if editManifest != nil {
		editManifest(man)
	}
	b, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cur, results.ManifestFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := results.VerifyOutputs(cur); err != nil {
		t.Fatalf("the forgery does not pass the checksums: %v", err)
	}
}

// TestVerifyByRecomputation: vbw verify passes an untouched folder, and
// catches a changed check value, a changed number of a table and a quick
// run relabelled full, each with its checksum updated (which the manifest's
// checksums cannot see).
func TestVerifyByRecomputation(t *testing.T) {
	cfg := filepath.Join("..", "..", "..", "configs", "vbgmm", "fig10_7.toml")
	data := experiments.TestDataDir()
	fresh := func(t *testing.T) string {
		out := t.TempDir()
		if _, _, err := vbw("run", "-quick", "-noplot", "-out", out, "-data", data, cfg); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(out, "vbgmm", "fig10_7")
	}
	verify := func(t *testing.T, dir string) *experiments.Verification {
		v, err := experiments.Verify(context.Background(), dir, experiments.VerifyOptions{Cells: 2, Seed: 7, DataDir: data, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if r := experiments.ReadVerification(dir); r == nil || r.OK != v.OK || r.Seed != 7 {
			t.Errorf("the record in the state: %+v", r)
		}
		return v
	}
	t.Run("untouched", func(t *testing.T) {
		dir := fresh(t)
		v := verify(t, dir)
		if !v.OK || len(v.Recomputed) != 2 || v.Cells != 3 {
			t.Errorf("untouched folder: %+v", v)
		}
	})
	for _, c := range []struct {
		name  string
		file  string
		edit  func(string) string
		man   func(*results.Manifest)
		wants string
	}{
		{"check value", results.SummaryFile, func(s string) string {
			// fig10.7-local-maxima-rare's value (0.83 on the quick run)
			// becomes 0.98: its verdict (at least 0.8) still follows from
			// its value and target.
			i := strings.Index(s, `"id": "fig10.7-local-maxima-rare"`)
			j := i + strings.Index(s[i:], `"value": `) + len(`"value": `)
			k := j + strings.Index(s[j:], ",")
			return s[:j] + `0.98` + s[k:]
		}, nil, "summary.json recomputed differs: check fig10.7-local-maxima-rare"},
		{"table number", "fig10_7_evidence.csv", func(s string) string {
			lines := strings.Split(s, "\n")
			f := strings.Split(lines[2], ",")
			f[2] = "-400.5"
			lines[2] = strings.Join(f, ",")
			return strings.Join(lines, "\n")
		}, nil, "fig10_7_evidence.csv recomputed differs: row 3, column f"},
		{"quick relabelled full", results.SummaryFile, func(s string) string {
			return strings.Replace(s, `"quick": true`, `"quick": false`, 1)
		}, func(m *results.Manifest) { m.Quick = false }, "config.toml is the quick resolution of its config file, but the manifest says a full run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := fresh(t)
			forge(t, dir, c.file, c.edit, c.man)
			v := verify(t, dir)
			if v.OK || !strings.Contains(strings.Join(v.Problems, "\n"), c.wants) {
				t.Errorf("problems %q, want one with %q", v.Problems, c.wants)
			}
		})
	}
}
