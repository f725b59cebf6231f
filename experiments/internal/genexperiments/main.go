// Command genexperiments writes the list of experiment packages that the
// vbw command links, experiments/cmd/vbw/experiments_gen.go, so that adding
// an experiment package (a new document's experiments) needs no hand edit
// of another package. It is run by go generate (the directive is in
// experiments/cmd/vbw/main.go; make build runs it):
//
//	go generate ./experiments/...
//
// An experiment package is a package in the experiments/ tree of the
// module (test files, testdata and folders starting with '.' or '_' left
// out) one of whose files calls experiments.Add or experiments.Register,
// the registration that its init runs. The generated file imports each
// for its side effect, in import-path order. A test of this package fails
// when the file on disk differs from what the generator writes (as
// upspin's gendoc and gopls' documentation tests do), so a stale list
// shows in go test.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Output is the generated file, relative to the module root.
const Output = "experiments/cmd/vbw/experiments_gen.go"

func main() {
	out := flag.String("o", "", "the file to write (default: "+Output+" under the module root)")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintf(os.Stderr, "genexperiments: %v\n", err)
		os.Exit(1)
	}
}

func run(out string) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := moduleRoot(wd)
	if err != nil {
		return err
	}
	src, err := Generate(root)
	if err != nil {
		return err
	}
	if out == "" {
		out = filepath.Join(root, Output)
	}
	if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, src) {
		return nil // unchanged: keep the file's time, so make does not rebuild
	}
	return os.WriteFile(out, src, 0o644)
}

// moduleRoot returns the nearest directory at or above dir that holds a
// go.mod file.
func moduleRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("%s: no go.mod here or above", dir)
		}
		d = parent
	}
}

// modulePath returns the module path declared by root/go.mod.
func modulePath(root string) (string, error) {
	name := filepath.Join(root, "go.mod")
	data, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", name)
}

// Packages returns the import paths of the experiment packages under
// root/experiments, sorted.
func Packages(root string) ([]string, error) {
	mod, err := modulePath(root)
	if err != nil {
		return nil, err
	}
	base := filepath.Join(root, "experiments")
	found := map[string]bool{}
	err = filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != base && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		ok, err := registers(path, mod+"/experiments")
		if err != nil || !ok {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		found[mod+"/"+filepath.ToSlash(rel)] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	pkgs := make([]string, 0, len(found))
	for p := range found {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	return pkgs, nil
}

// registers reports whether the Go file calls Add or Register of the
// package with import path exp.
func registers(path, exp string) (bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return false, err
	}
	local := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == exp {
			local = "experiments"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	if local == "" || local == "_" || local == "." {
		return false, nil
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		fun := call.Fun
		if ix, ok := fun.(*ast.IndexListExpr); ok { // experiments.Add[C, P](…)
			fun = ix.X
		} else if ix, ok := fun.(*ast.IndexExpr); ok {
			fun = ix.X
		}
		if sel, ok := fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == local && (sel.Sel.Name == "Add" || sel.Sel.Name == "Register") {
				found = true
			}
		}
		return !found
	})
	return found, nil
}

// Generate returns the generated file for the module at root.
func Generate(root string) ([]byte, error) {
	pkgs, err := Packages(root)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, errors.New("no experiment package under " + filepath.Join(root, "experiments") + " (none calls experiments.Add)")
	}
	var b bytes.Buffer
	b.WriteString(`// Code generated by genexperiments (go generate ./experiments/...); DO NOT EDIT.

package main

// The experiment packages of the module: every package under experiments/
// that registers experiments (experiments.Add in its init). Linking one
// registers its experiments with vbw.
import (
`)
	for _, p := range pkgs {
		fmt.Fprintf(&b, "\t_ %q\n", p)
	}
	b.WriteString(")\n")
	return format.Source(b.Bytes())
}
