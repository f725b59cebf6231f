package vbw_test

// The import policy of the module, written as a test (in the spirit of
// go/build's deps_test.go). It is a statement of policy: DO NOT EDIT THIS
// TABLE TO MAKE A BUILD PASS; change the code's dependencies instead.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/vbworkbench/vbw"

// allowed maps a top-level folder to the top-level folders of this module
// its packages may import.
var allowed = map[string][]string{
	"core":        {"core"},
	"samplers":    {"core", "samplers"},
	"plots":       {"plots"},
	"results":     {"results"},
	"experiments": {"core", "samplers", "plots", "results", "experiments"},
}

// coreLayers maps a package of core/ (a path below the module; "core/model/*"
// stands for every model package) to the packages of core/ it may import.
// The layers, bottom up: numeric, rng, parallel (the one worker pool); dist, infer, vb, score; mixture,
// approx (Laplace, KL fits, EP, the JJ bound);
// the models, which never import each other; vbtest, the conformance kit,
// which sees every layer but the models (model tests import it). A package
// of core/ that is not listed here fails the test: add it to its layer.
var coreLayers = map[string][]string{
	"core/numeric":  {},
	"core/rng":      {},
	"core/parallel": {},
	"core/dist":     {"core/numeric", "core/rng"},
	"core/infer":    {"core/numeric"},
	"core/vb":       {"core/numeric"},
	"core/score":    {"core/numeric", "core/dist"},
	"core/mixture":  {"core/numeric", "core/dist", "core/vb"},
	"core/approx":   {"core/numeric", "core/dist", "core/vb"},
	"core/model/*":  {"core/numeric", "core/rng", "core/parallel", "core/dist", "core/infer", "core/vb", "core/score", "core/mixture", "core/approx"},
	"core/vbtest":   {"core/numeric", "core/rng", "core/dist", "core/infer", "core/vb", "core/score", "core/mixture"},
}

// corePackage returns the key of coreLayers of the core package dir.
func corePackage(dir string) string {
	if strings.HasPrefix(dir, "core/model/") {
		return "core/model/*"
	}
	return dir
}

func TestImportPolicy(t *testing.T) {
	experimentPkgs := experimentPackages(t)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || !strings.Contains(path, string(filepath.Separator)) {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(path)
		top := strings.SplitN(slash, "/", 2)[0]
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "math/rand" {
				t.Errorf("%s imports math/rand (v1): use math/rand/v2 with a seeded source", slash)
			}
			if !strings.HasPrefix(p, module+"/") {
				continue
			}
			rel := strings.TrimPrefix(p, module+"/")
			dep := strings.SplitN(rel, "/", 2)[0]
			ok := false
			for _, a := range allowed[top] {
				if a == dep {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%s imports %q: %s/ may not depend on %s/", slash, p, top, dep)
			}
			dir := filepath.ToSlash(filepath.Dir(path))
			// An experiment package (one that registers experiments,
			// whatever its folder is called), tests included, may not
			// import another one; the commands under experiments/cmd gather
			// them, and other packages' tests may use them as fixtures.
			if experimentPkgs[rel] && rel != dir && !strings.HasPrefix(dir, "experiments/cmd/") &&
				(experimentPkgs[dir] || !strings.HasSuffix(slash, "_test.go")) {
				t.Errorf("%s imports %q: an experiment package may not import another experiment package (move what they share into experiments/, results/, plots/ or core/)", slash, p)
			}
			// core/ is layered (coreLayers); a model never imports another.
			// Tests may reach across a layer (a cycle would not compile).
			if top == "core" && dep == "core" && rel != dir && !strings.HasSuffix(slash, "_test.go") {
				own := corePackage(dir)
				deps, known := coreLayers[own]
				switch {
				case !known:
					t.Errorf("%s: core package %s is not in deps_test.go's coreLayers: add it to its layer", slash, dir)
				case strings.HasPrefix(rel, "core/model/") && own == "core/model/*":
					t.Errorf("%s imports %q: a model package may not import another model", slash, p)
				case !slices.Contains(deps, corePackage(rel)):
					t.Errorf("%s imports %q: %s may import only %v of core/", slash, p, own, deps)
				}
			}
			// core must not import samplers, and core/vbtest only from tests.
			if strings.HasPrefix(rel, "core/vbtest") && !strings.HasSuffix(slash, "_test.go") {
				t.Errorf("%s imports %q outside a test file", slash, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// experimentPackages returns the packages below experiments/ that register
// experiments: a non-test file calls experiments.Add (or a function of the
// experiments package whose name starts with "Register").
func experimentPackages(t *testing.T) map[string]bool {
	t.Helper()
	pkgs := map[string]bool{}
	files, err := filepath.Glob("experiments/*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("experiments/*/*/*.go")
	files = append(files, more...)
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		local := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == module+"/experiments" {
				local = "experiments"
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if local == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fun := call.Fun
			if ix, ok := fun.(*ast.IndexExpr); ok { // a generic call, Add[T](...)
				fun = ix.X
			}
			if sel, ok := fun.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == local && (sel.Sel.Name == "Add" || strings.HasPrefix(sel.Sel.Name, "Register")) {
					pkgs[filepath.ToSlash(filepath.Dir(path))] = true
				}
			}
			return true
		})
	}
	if len(pkgs) == 0 {
		t.Fatal("no experiment packages found: the detection in deps_test.go is broken")
	}
	return pkgs
}
