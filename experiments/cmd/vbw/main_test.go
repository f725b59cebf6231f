package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
)

func vbw(args ...string) (stdout, stderr string, err error) {
	var o, e bytes.Buffer
	err = run(context.Background(), args, &o, &e)
	return o.String(), e.String(), err
}

func TestList(t *testing.T) {
	out, _, err := vbw("list")
	if err != nil || !strings.Contains(out, "chapter3/synthetic ") {
		t.Fatalf("list: %q, %v", out, err)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"frobnicate"}, {"run"}, {"plot"}, {"run", "-shard", "3/2", "x.toml"}} {
		if _, _, err := vbw(args...); err == nil {
			t.Errorf("vbw %q: no error", args)
		}
	}
}

func TestRunQuickAndPlot(t *testing.T) {
	out := t.TempDir()
	cfg := filepath.Join("..", "..", "..", "configs", "chapter3", "synthetic.toml")
	stdout, _, err := vbw("run", "-quick", "-out", out, "-data", experiments.TestDataDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(out, "chapter3", "synthetic")
	if !strings.Contains(stdout, dir) {
		t.Fatalf("stdout %q does not name %s", stdout, dir)
	}
	for _, f := range []string{"summary.json", "fig3_2.svg", "fig3_2.png", "fig3_3.svg", "fig3_3.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	for _, target := range []string{"chapter3", "chapter3/synthetic", "all", dir} {
		if _, _, err := vbw("plot", "-out", out, target); err != nil {
			t.Errorf("plot %s: %v", target, err)
		}
	}
	if _, _, err := vbw("plot", "-out", out, "chapter9"); err == nil {
		t.Error("plot of a chapter without results succeeded")
	}
}

func TestRunBadConfigIsOneLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(p, []byte("experiment = \"chapter3/synthetic\"\nrestarts = 2\n[vb]\nprior_strength = { pi = -1.0, A = 4.0, C = 4.0 }\n"), 0o644)
	_, _, err := vbw("run", "-out", t.TempDir(), p)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "prior_strength.pi = -1") {
		t.Fatalf("error %q, want one line naming vb.prior_strength.pi", err)
	}
	os.WriteFile(p, []byte("experiment = \"chapter3/nothing\"\n"), 0o644)
	if _, _, err := vbw("run", "-out", t.TempDir(), p); err == nil || !strings.Contains(err.Error(), "unknown experiment") {
		t.Fatalf("unknown experiment: %v", err)
	}
	if _, _, err := vbw("run", "-out", t.TempDir(), filepath.Join(t.TempDir(), "missing.toml")); err == nil {
		t.Fatal("missing config file accepted")
	}
}
