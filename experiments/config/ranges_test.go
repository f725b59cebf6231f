package config

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

type rangedInner struct {
	Steps int     `toml:"steps" range:"[2,1e6]"`
	Tau1  float64 `toml:"tau1" range:"0|(0,1)"`
}

type rangedConfig struct {
	Restarts int                `toml:"restarts" range:"[1,1e6]"`
	Tol      float64            `toml:"tol" range:"[0,1)"`
	Scale    float64            `toml:"scale" range:"(0,inf)"`
	Limit    float64            `toml:"limit" range:"[0,inf]"`
	Missing  float64            `toml:"missing" range:"[0,1] nan"`
	Whole    float64            `toml:"whole" range:"[1,1e9] integer"`
	Sizes    []int              `toml:"sizes" range:"[1,1e7] len=1.. increasing"`
	Pair     [2]float64         `toml:"pair" range:"[-10,10] nondecreasing"`
	Names    []string           `toml:"names" range:"len=1..3"`
	Schedule map[string]int     `toml:"schedule" range:"[0,1e9]"`
	Inner    rangedInner        `toml:"inner"`
	Rows     []rangedInner      `toml:"rows" range:"len=0.."`
	Free     string             `toml:"free"`
	Weights  map[string]float64 `toml:"weights" range:"(0,inf)"`
}

func defaultRanged() *rangedConfig {
	return &rangedConfig{Restarts: 3, Tol: 1e-6, Scale: 1, Limit: 5, Whole: 4, Sizes: []int{1, 2},
		Names: []string{"a"}, Schedule: map[string]int{"a": 1}, Inner: rangedInner{Steps: 10}}
}

func TestCheckRanges(t *testing.T) {
	if err := CheckRanges(defaultRanged()); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, c := range []struct {
		edit func(*rangedConfig)
		want string // the whole error
	}{
		{func(c *rangedConfig) { c.Restarts = 0 }, "restarts = 0: must be from 1 to 1e6"},
		{func(c *rangedConfig) { c.Restarts = 2000000 }, "restarts = 2000000: must be from 1 to 1e6"},
		{func(c *rangedConfig) { c.Tol = 1 }, "tol = 1: must be in [0, 1)"},
		{func(c *rangedConfig) { c.Tol = math.NaN() }, "tol = NaN: must be a number (NaN is not allowed here)"},
		{func(c *rangedConfig) { c.Scale = 0 }, "scale = 0: must be > 0 and finite"},
		{func(c *rangedConfig) { c.Scale = math.Inf(1) }, "scale = +Inf: must be > 0 and finite"},
		{func(c *rangedConfig) { c.Limit = -1 }, "limit = -1: must be in [0, ∞]"},
		{func(c *rangedConfig) { c.Whole = 2.5 }, "whole = 2.5: must be a whole number"},
		{func(c *rangedConfig) { c.Sizes = nil }, "sizes = []: must list at least 1 value"},
		{func(c *rangedConfig) { c.Sizes = []int{3, 2} }, "sizes = [3, 2]: must be strictly increasing (values 1 and 2 are 3, 2)"},
		{func(c *rangedConfig) { c.Sizes = []int{1, 0} }, "sizes = [1, 0]: every value must be from 1 to 1e7 (value 2 is 0)"},
		{func(c *rangedConfig) { c.Sizes = []int{0} }, "sizes = [0]: its value must be from 1 to 1e7"},
		{func(c *rangedConfig) { c.Pair = [2]float64{2, 1} }, "pair = [2, 1]: must be in nondecreasing order (values 1 and 2 are 2, 1)"},
		{func(c *rangedConfig) { c.Pair = [2]float64{math.Inf(-1), 1} }, "pair = [-Inf, 1]: every value must be in [-10, 10] (value 1 is -Inf)"},
		{func(c *rangedConfig) { c.Names = nil }, "names = []: must list 1 to 3 values"},
		{func(c *rangedConfig) { c.Schedule["a"] = -1 }, "schedule.a = -1: must be from 0 to 1e9"},
		{func(c *rangedConfig) { c.Weights = map[string]float64{"x": math.NaN()} }, "weights.x = NaN: must be a number (NaN is not allowed here)"},
		{func(c *rangedConfig) { c.Inner.Steps = 1 }, "inner.steps = 1: must be from 2 to 1e6"},
		{func(c *rangedConfig) { c.Inner.Tau1 = 1 }, "inner.tau1 = 1: must be 0, or in (0, 1)"},
		{func(c *rangedConfig) { c.Rows = []rangedInner{{Steps: 10}, {Steps: 0}} }, "rows.steps = 0: must be from 2 to 1e6"},
	} {
		cfg := defaultRanged()
		c.edit(cfg)
		err := CheckRanges(cfg)
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	// What the tags admit.
	cfg := defaultRanged()
	cfg.Limit, cfg.Missing, cfg.Inner.Tau1, cfg.Tol = math.Inf(1), math.NaN(), 0.5, 0
	if err := CheckRanges(cfg); err != nil {
		t.Errorf("admissible values refused: %v", err)
	}
}

// TestRangesAtTheKeysLine: Load reports a range error at the line that set
// the key, also inside [quick].
func TestRangesAtTheKeysLine(t *testing.T) {
	for _, c := range []struct {
		text  string
		quick bool
		want  string
	}{
		{"restarts = 3\n\nscale = -2\n", false, ":3: scale = -2: must be > 0 and finite"},
		{"restarts = 3\nscale = nan\n", false, ":2: scale = NaN: must be a number (NaN is not allowed here)"},
		{"[inner]\nsteps = 1\n", false, ":2: inner.steps = 1: must be from 2 to 1e6"},
		{"restarts = 3\n[quick]\nrestarts = 0\n", false, ":3: restarts = 0: must be from 1 to 1e6"},
		{"restarts = 3\n[quick]\nrestarts = 0\n", true, ":3: restarts = 0: must be from 1 to 1e6"},
	} {
		cfg := defaultRanged()
		err := Load(writeConfig(t, c.text), c.quick, cfg)
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want …%s", c.text, err, c.want)
		}
	}
}

func TestParseRangePanicsOnBadTags(t *testing.T) {
	for _, tag := range []string{"[1,2", "(a,1)", "[2,1]", "len=x", "len=3..1", "[0,1] [2,3]", "increasing decreasing", "inf"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("tag %q: no panic", tag)
				}
			}()
			parseRange(tag)
		}()
	}
}

func TestUndeclared(t *testing.T) {
	type table struct {
		A int     `toml:"a" range:"[0,1]"`
		B float64 `toml:"b"`
	}
	type cfg struct {
		X     int            `toml:"x"`
		Y     float64        `toml:"y" range:"[0,1]"`
		S     string         `toml:"s"`
		L     []string       `toml:"l"`
		M     map[string]int `toml:"m"`
		T     table          `toml:"t"`
		Rows  []table        `toml:"rows"`
		Skip  int            `toml:"-"`
		Birth Birth          `toml:"birth"`
	}
	got := Undeclared(reflect.TypeOf(cfg{}))
	want := []string{"x", "l", "m", "t.b", "rows.b", "rows"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
