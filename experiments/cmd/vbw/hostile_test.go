package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
)

// buildVBW builds the command once for the tests that run it as a process.
func buildVBW(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "vbw")
	cmd := exec.Command(gobin, "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestHostileInput: every refusal exits non-zero with at most three lines
// on stderr, no Go stack trace, and a first line that names the problem.
func TestHostileInput(t *testing.T) {
	bin := buildVBW(t)
	data := experiments.TestDataDir()
	shipped := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "configs", "chapter3", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	edit := func(text string, pairs ...string) string {
		for i := 0; i < len(pairs); i += 2 {
			if !strings.Contains(text, pairs[i]) {
				t.Fatalf("pattern %q not in the config", pairs[i])
			}
			text = strings.Replace(text, pairs[i], pairs[i+1], 1)
		}
		return text
	}
	syn, alice := shipped("synthetic.toml"), shipped("alice.toml")
	out := t.TempDir()
	// A finished full run, for the quick-into-full case.
	fullDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(fullDir, "synthetic.toml"), []byte(edit(syn, "restarts   = 10", "restarts   = 1")), 0o644); err != nil {
		t.Fatal(err)
	}
	if o, err := exec.Command(bin, "run", "-noplot", "-out", out, "-data", data, filepath.Join(fullDir, "synthetic.toml")).CombinedOutput(); err != nil {
		t.Fatalf("full run: %v\n%s", err, o)
	}

	cases := []struct {
		name   string
		config string   // config text written to <name>.toml; "" for none
		args   []string // after "run" (the config path is appended)
		want   string   // in the first line of stderr
	}{
		{"inf tolerance", edit(syn, "rel_tol        = 1e-6 ", "rel_tol        = inf "), nil, "ml.rel_tol = +Inf: must be in [0, 1)"},
		{"inf strength", edit(alice, "init_strength  = 10.0", "init_strength  = inf"), nil, "vb.init_strength = +Inf: must be in (0, 1e8]"},
		{"negative seed", edit(syn, "seed       = 3001", "seed       = -1"), nil, "seed = -1: must be ≥ 0"},
		{"wrong case", edit(syn, "restarts   = 10", "Restarts   = 10"), nil, `unknown key "Restarts" (did you mean "restarts"?`},
		{"bad quick value", edit(syn, "[quick]\nrestarts = 3", "[quick]\nrestarts = 0"), nil, "quick"},
		{"flag after config", syn, []string{"-bogus"}, "flag provided but not defined: -bogus"},
		{"impossible k", edit(syn, "\nk = 12 ", "\nk = 100000 "), nil, "needs about"},
		{"impossible restarts", edit(syn, "restarts   = 10", "restarts   = 1000000"), nil, "needs about"},
		{"impossible generated data", edit(shipped("synthetic-grammar.toml"), "sequences_per_grammar = 7", "sequences_per_grammar = 1000000"), nil, "needs about"},
		{"impossible alice restarts", edit(alice, "restarts   = 10", "restarts   = 1000000"), nil, "needs about"},
		{"missing data file", edit(syn, `file     = "abc21.txt"`, `file     = "nope.txt"`), nil, "nope.txt"},
		{"quick into a full folder", edit(syn, "restarts   = 10", "restarts   = 1"), []string{"-quick"}, "holds the results of a full run"},
		{"syntax error", "experiment = \"chapter3/synthetic\"\nrestarts = = 3\n", nil, ":2:"},
		{"empty out", syn, []string{"-out", ""}, "-out is empty"},
		{"empty out with quick", syn, []string{"-quick", "-out", ""}, "-out is empty"},
		{"file at the results path", syn, nil, "exists and is not a results folder of vbw (a regular file)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "synthetic.toml")
			if c.name == "quick into a full folder" {
				path = filepath.Join(fullDir, "synthetic.toml")
			}
			if c.config != "" && c.name != "quick into a full folder" {
				if err := os.WriteFile(path, []byte(c.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			o := t.TempDir()
			if c.name == "quick into a full folder" {
				o = out
			}
			if c.name == "file at the results path" {
				mine := filepath.Join(o, "chapter3", "synthetic")
				os.MkdirAll(filepath.Dir(mine), 0o755)
				if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
					t.Fatal(err)
				}
				defer func() {
					if data, err := os.ReadFile(mine); err != nil || string(data) != "mine" {
						t.Errorf("the file at the results path is now %q, %v", data, err)
					}
				}()
			}
			args := append([]string{"run", "-noplot", "-out", o, "-data", data}, c.args...)
			if c.name == "flag after config" {
				args = []string{"run", "-noplot", "-out", o, path, "-bogus"}
			} else {
				args = append(args, path)
			}
			var stderr bytes.Buffer
			cmd := exec.Command(bin, args...)
			cmd.Stderr = &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() == 0 {
				t.Fatalf("exit: %v (stderr %q), want a non-zero status", err, stderr.String())
			}
			text := strings.TrimRight(stderr.String(), "\n")
			lines := strings.Split(text, "\n")
			// The flag package prints its error and the flag list; the
			// one-line error is the last line there.
			first := lines[0]
			if c.name != "flag after config" && len(lines) > 3 {
				t.Errorf("%d lines on stderr:\n%s", len(lines), text)
			}
			if strings.Contains(text, "goroutine ") || strings.Contains(text, "panic:") {
				t.Errorf("stack trace on stderr:\n%s", text)
			}
			if !strings.Contains(first, c.want) && !strings.Contains(text, c.want) {
				t.Errorf("stderr %q, want %q", text, c.want)
			}
		})
	}
}
