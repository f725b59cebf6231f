package vbw_test

// The import policy of the module, written as a test (in the spirit of
// go/build's deps_test.go). It is a statement of policy: DO NOT EDIT THIS
// TABLE TO MAKE A BUILD PASS; change the code's dependencies instead.

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
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

func TestImportPolicy(t *testing.T) {
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
			// experiments/chapterN may not import experiments/chapterM.
			if strings.HasPrefix(slash, "experiments/chapter") && strings.HasPrefix(rel, "experiments/chapter") {
				own := strings.SplitN(strings.TrimPrefix(slash, "experiments/"), "/", 2)[0]
				other := strings.SplitN(strings.TrimPrefix(rel, "experiments/"), "/", 2)[0]
				if own != other {
					t.Errorf("%s imports %q: a chapter may not import another chapter", slash, p)
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
