package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/results"
)

// The tiny experiment package and configs of TestNewDocument: a document
// "tiny" whose one experiment sums 1..n, registered by its own init.
var tinyDocument = map[string]string{
	"experiments/tiny/tiny.go": `// Package tiny is a document of one experiment, added by a test.
package tiny

import (
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// Config is the config of tiny/sum.
type Config struct {
	experiments.Common
	N int ` + "`toml:\"n\"`" + `
}

// Default returns the defaults.
func Default() Config { return Config{N: 3} }

// Validate checks n.
func (c *Config) Validate() error {
	if c.N < 1 {
		return config.FieldError("n", c.N, "must be at least 1")
	}
	return nil
}

// Estimate returns the cost of the loop: n additions.
func (c *Config) Estimate() experiments.Cost {
	return experiments.Cost{Work: []experiments.Part{experiments.Ops("additions", 1, experiments.Key("n", c.N))}}
}

// criteria are the experiment's acceptance criteria.
var criteria = results.Criteria{
	{ID: "gauss", Text: "the loop's sum equals Gauss's n(n+1)/2 (difference)", Target: results.Equal(0), Kind: results.KindSanity},
}

// Criteria states the criteria of a run.
func (c *Config) Criteria(*experiments.Env) (results.Criteria, error) { return criteria, nil }

// Run writes the sum 1 + … + n.
func Run(env *experiments.Env, c *Config) error {
	s := results.Summary{Criteria: criteria}
	sum := 0
	for i := 1; i <= c.N; i++ {
		sum += i
	}
	s.SetMetric("sum", float64(sum))
	s.Judge(criteria.Get("gauss"), float64(sum-c.N*(c.N+1)/2))
	return env.WriteSummary(&s, "")
}

func init() { experiments.Add("tiny/sum", "the sum 1 + … + n", Default, Run, nil) }
`,
	"configs/tiny/sum.toml":      "experiment = \"tiny/sum\"\nn = 4\n[quick]\nn = 2\n",
	"configs/tiny/sum-full.toml": "experiment = \"tiny/sum\"\nname = \"sum-long\"\nn = 100\n[quick]\nn = 2\n",
}

// copyModule copies the module at root to dst without its experiment
// packages (the chapters: vbw then links none of them unless the
// generator finds them), its test files, testdata, bin/ and output/.
func copyModule(t *testing.T, root, dst string, skip []string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || slash == "bin" || slash == "output" || slices.Contains(skip, slash) {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if strings.HasSuffix(d.Name(), "_test.go") || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNewDocument adds a document to a copy of the module the way a
// developer would, with its own folders only (experiments/tiny/ and
// configs/tiny/), and checks that the workbench takes it up with no edit of
// another file: make build regenerates the vbw command's list of
// experiment packages, vbw knows the experiment, make tiny runs its config
// but not its long variant, make tiny-full runs that, make all-documents
// includes it and make thesis does not. The copy leaves the chapters out,
// so the generated list cannot come from the file on disk.
func TestNewDocument(t *testing.T) {
	for _, tool := range []string{"go", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s command", tool)
		}
	}
	root := checkoutRoot(t)
	pkgs, err := Packages(root)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := modulePath(root)
	if err != nil {
		t.Fatal(err)
	}
	var skip []string
	for _, p := range pkgs {
		skip = append(skip, strings.TrimPrefix(p, mod+"/"))
	}
	dst := t.TempDir()
	copyModule(t, root, dst, skip)
	writeFiles(t, dst, tinyDocument)

	cmd := func(name string, args ...string) string {
		t.Helper()
		c := exec.Command(name, args...)
		c.Dir = dst
		c.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOWORK=off", "MAKEFLAGS=", "VBW_DATA="+dst)
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	cmd("make", "build")
	gen, err := os.ReadFile(filepath.Join(dst, Output))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gen), `_ "`+mod+`/experiments/tiny"`) || strings.Contains(string(gen), "chapter3") {
		t.Errorf("generated list in the copy:\n%s\nwant the tiny package alone", gen)
	}
	if out := cmd("bin/vbw", "list"); !strings.Contains(out, "tiny/sum") {
		t.Errorf("vbw list:\n%s\nwant tiny/sum", out)
	}

	dry := func(target string) string { return cmd("make", "-n", target) }
	if out := dry("tiny"); !strings.Contains(out, "configs/tiny/sum.toml") || strings.Contains(out, "sum-full") {
		t.Errorf("make -n tiny:\n%s\nwant configs/tiny/sum.toml without the long variant", out)
	}
	if out := dry("tiny-full"); !strings.Contains(out, "configs/tiny/sum-full.toml") || strings.Contains(out, "sum.toml") {
		t.Errorf("make -n tiny-full:\n%s\nwant configs/tiny/sum-full.toml alone", out)
	}
	if out := dry("all-documents"); !strings.Contains(out, "configs/tiny/sum.toml") || !strings.Contains(out, "configs/chapter3/") {
		t.Errorf("make -n all-documents:\n%s\nwant tiny's and the chapters' configs", out)
	}
	if out := dry("thesis"); strings.Contains(out, "tiny") || !strings.Contains(out, "configs/chapter6/") {
		t.Errorf("make -n thesis:\n%s\nwant the chapters' configs only", out)
	}
	if out := dry("quick"); !strings.Contains(out, "configs/tiny/sum.toml") || !strings.Contains(out, "-one-per-experiment") {
		t.Errorf("make -n quick:\n%s\nwant tiny's configs, one run per experiment", out)
	}

	out := filepath.Join(dst, "out")
	// make quick's vbw run: the long variant of tiny/sum is left out.
	if got := cmd("bin/vbw", "run", "-quick", "-one-per-experiment", "-out", filepath.Join(out, "quick"), "configs/tiny/sum-full.toml", "configs/tiny/sum.toml"); !strings.Contains(got, "sum-full.toml: left out") {
		t.Errorf("vbw run -quick -one-per-experiment:\n%s\nwant the long variant left out", got)
	}
	if _, err := os.Stat(filepath.Join(out, "quick", "tiny", "sum-long")); err == nil {
		t.Error("the long variant ran under -one-per-experiment")
	}
	cmd("make", "tiny", "OUT="+out)
	cmd("make", "tiny-full", "OUT="+out)
	for dir, want := range map[string]float64{"sum": 10, "sum-long": 5050} {
		s, err := results.ReadSummary(filepath.Join(out, "tiny", dir, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Metrics["sum"]; got != want {
			t.Errorf("%s: sum = %v, want %v", dir, got, want)
		}
		if c, ok := s.CheckByID("gauss"); !ok || !c.Pass {
			t.Errorf("%s: check gauss %+v", dir, c)
		}
	}
}
