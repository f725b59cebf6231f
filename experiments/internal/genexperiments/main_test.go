package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGeneratedFileIsCurrent fails when experiments/cmd/vbw/experiments_gen.go
// is not what the generator writes: an experiment package was added,
// removed or moved without go generate.
func TestGeneratedFileIsCurrent(t *testing.T) {
	root := checkoutRoot(t)
	want, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, Output))
	if err != nil {
		t.Fatalf("%v: run go generate ./experiments/... (or make build)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go generate ./experiments/... (or make build)\n--- on disk\n%s--- generated\n%s", Output, got, want)
	}
}

// checkoutRoot returns the root of the module this test runs in.
func checkoutRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := moduleRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// writeFiles writes files (slash paths relative to root) under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPackages checks which packages count as experiment packages: those
// whose non-test files call Add or Register of the module's experiments
// package, under whatever local name, wherever under experiments/.
func TestPackages(t *testing.T) {
	root := t.TempDir()
	const imp = "import \"example.com/m/experiments\"\n"
	writeFiles(t, root, map[string]string{
		"go.mod":                         "module example.com/m\n\ngo 1.24\n",
		"experiments/experiment.go":      "package experiments\n\nfunc Add() {}\n",
		"experiments/chapter7/a.go":      "package chapter7\n\n" + imp + "func init() { experiments.Add(\"chapter7/a\", \"A\", nil, nil, nil) }\n",
		"experiments/docs/gmm/gmm.go":    "package gmm\n\nimport ex \"example.com/m/experiments\"\n\nfunc init() { ex.Register(ex.Spec{}) }\n",
		"experiments/docs/gmm/more.go":   "package gmm\n\n" + imp + "func init() { experiments.Add(\"gmm/b\", \"B\", nil, nil, nil) }\n",
		"experiments/helper/h.go":        "package helper\n\n" + imp + "var _ = config.FieldError\n",
		"experiments/onlytest/x_test.go": "package onlytest\n\n" + imp + "func init() { experiments.Add(\"x\", \"\", nil, nil, nil) }\n",
		"experiments/testdata/t/t.go":    "package t\n\n" + imp + "func init() { experiments.Add(\"t\", \"\", nil, nil, nil) }\n",
		"experiments/_old/o.go":          "package o\n\n" + imp + "func init() { experiments.Add(\"o\", \"\", nil, nil, nil) }\n",
		"experiments/other/o.go":         "package other\n\nimport experiments \"example.com/elsewhere\"\n\nfunc init() { experiments.Add() }\n",
		"experiments/generic/g.go":       "package generic\n\n" + imp + "func init() { experiments.Add[int, *int](\"g\", \"\", nil, nil, nil) }\n",
	})
	got, err := Packages(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"example.com/m/experiments/chapter7", "example.com/m/experiments/docs/gmm", "example.com/m/experiments/generic"}
	if !slices.Equal(got, want) {
		t.Errorf("Packages = %q, want %q", got, want)
	}
	src, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range want {
		if !strings.Contains(string(src), "_ \""+p+"\"") {
			t.Errorf("generated file lacks %s:\n%s", p, src)
		}
	}
	if !strings.HasPrefix(string(src), "// Code generated ") || !strings.Contains(string(src), "DO NOT EDIT.") {
		t.Errorf("generated file lacks the Code generated header:\n%s", src)
	}
	// A syntax error is reported, not skipped.
	writeFiles(t, root, map[string]string{"experiments/broken/b.go": "package broken\n\nfunc {\n"})
	if _, err := Packages(root); err == nil || !strings.Contains(err.Error(), "b.go") {
		t.Errorf("broken file: err = %v, want one naming b.go", err)
	}
}
