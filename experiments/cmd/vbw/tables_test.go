package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
)

// sharedTables are the tables that more than one document uses, by their
// TOML name, and the experiments/config type each must be (or embed): an
// experiment declares only what is its own beside them. A statement of
// policy: an experiment package that needs another spelling of one of
// these extends the shared type instead.
var sharedTables = map[string][]reflect.Type{
	"vb":        {reflect.TypeOf(config.FitSettings{})},
	"ml":        {reflect.TypeOf(config.FitSettings{})},
	"map":       {reflect.TypeOf(config.FitSettings{})},
	"vem":       {reflect.TypeOf(config.FitSettings{})},
	"search":    {reflect.TypeOf(config.SearchSettings{})},
	"is":        {reflect.TypeOf(config.IS{})},
	"ais":       {reflect.TypeOf(config.AIS{}), reflect.TypeOf(config.AISSchedule{})},
	"ais_joint": {reflect.TypeOf(config.AIS{})},
	"hmc":       {reflect.TypeOf(config.HMC{})},
	"hyper":     {reflect.TypeOf(config.HyperSchedule{})},
}

// isOrEmbeds reports whether t is want or a struct that embeds want (at
// any depth).
func isOrEmbeds(t, want reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == want {
		return true
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.Anonymous && isOrEmbeds(f.Type, want) {
			return true
		}
	}
	return false
}

// TestSharedTablesHaveOneHome walks every registered experiment's config
// type: a [vb], [ml], [map], [vem], [search], [is], [ais], [ais_joint],
// [hmc] or [*.hyper] table anywhere in it must be the experiments/config
// type (or a struct that embeds it).
func TestSharedTablesHaveOneHome(t *testing.T) {
	for _, spec := range experiments.List() {
		var walk func(typ reflect.Type, prefix string, depth int)
		walk = func(typ reflect.Type, prefix string, depth int) {
			for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array {
				typ = typ.Elem()
			}
			if typ.Kind() != reflect.Struct || depth > 10 || typ.PkgPath() == "github.com/vbworkbench/vbw/experiments/config" {
				return
			}
			for i := 0; i < typ.NumField(); i++ {
				f := typ.Field(i)
				name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
				if f.Anonymous && name == "" {
					walk(f.Type, prefix, depth+1)
					continue
				}
				if !f.IsExported() || name == "-" {
					continue
				}
				if name == "" {
					name = f.Name
				}
				key := strings.TrimPrefix(prefix+"."+name, ".")
				if wants, ok := sharedTables[name]; ok {
					found := false
					for _, w := range wants {
						found = found || isOrEmbeds(f.Type, w)
					}
					if !found {
						t.Errorf("%s: [%s] is %s, not (an extension of) the shared %v", spec.ID, key, f.Type, wants)
					}
				}
				walk(f.Type, key, depth+1)
			}
		}
		walk(reflect.TypeOf(spec.NewConfig()), "", 0)
	}
}

// TestNoStopRulesInExperiments: no experiment package writes a
// vb.Settings, vb.BoundConverge or vb.SearchSettings literal: a run's stop
// rule comes from a [vb]-like table (config.FitSettings.Settings, or
// config.FixedBudget for a fixed budget), so that its tolerances are keys
// a user sees. experiments/config is where the one literal lives.
func TestNoStopRulesInExperiments(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	banned := map[string]bool{"Settings": true, "BoundConverge": true, "SearchSettings": true}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel, _ := filepath.Rel(root, path); rel == "config" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		vbName := ""
		for _, imp := range f.Imports {
			if strings.Trim(imp.Path.Value, `"`) == "github.com/vbworkbench/vbw/core/vb" {
				vbName = "vb"
				if imp.Name != nil {
					vbName = imp.Name.Name
				}
			}
		}
		if vbName == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			sel, ok := lit.Type.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == vbName && banned[sel.Sel.Name] {
				t.Errorf("%s: a vb.%s literal: take the run's settings from a [vb] table (config.FitSettings) or config.FixedBudget", fset.Position(lit.Pos()), sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
