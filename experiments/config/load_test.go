package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// testConfig is a small config with the shapes real experiment configs use:
// nested tables, slices, a float map decoded into a struct, and a map.
type testConfig struct {
	Experiment string             `toml:"experiment"`
	Figures    []string           `toml:"figures"`
	Seed       uint64             `toml:"seed"`
	Runs       int                `toml:"runs"`
	Model      testModel          `toml:"model"`
	VB         testVB             `toml:"vb"`
	Weights    map[string]float64 `toml:"weights"`
}

type testModel struct {
	KMax  int       `toml:"k_max"`
	Sizes []int     `toml:"sizes"`
	Noise []float64 `toml:"noise"`
}

type testVB struct {
	MaxIter       int           `toml:"max_iter"`
	Tol           float64       `toml:"tol"`
	PriorStrength priorStrength `toml:"prior_strength"`
}

type priorStrength struct {
	Pi float64 `toml:"pi"`
	A  float64 `toml:"A"`
	C  float64 `toml:"C"`
}

var defaultNoise = []float64{0.1, 0.2, 0.3} // shared on purpose: Load must not write to it

func defaultTestConfig() *testConfig {
	return &testConfig{
		Experiment: "test/config",
		Figures:    []string{"fig3.2"},
		Seed:       2003,
		Runs:       10,
		Model:      testModel{KMax: 5, Sizes: []int{50, 100}, Noise: defaultNoise},
		VB: testVB{
			MaxIter:       1000,
			Tol:           1e-6,
			PriorStrength: priorStrength{Pi: 4, A: 4, C: 4},
		},
		Weights: map[string]float64{"a": 1},
	}
}

func (c *testConfig) Validate() error {
	for name, x := range map[string]float64{"pi": c.VB.PriorStrength.Pi, "A": c.VB.PriorStrength.A, "C": c.VB.PriorStrength.C} {
		if !(x > 0) {
			return FieldError("vb.prior_strength."+name, x, "must be > 0")
		}
	}
	if c.Runs < 1 {
		return FieldError("runs", c.Runs, "must be at least 1")
	}
	return nil
}

// writeConfig writes a config file; the leading newline of text is dropped
// so that line numbers in tests match the text as written.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.toml")
	if err := os.WriteFile(path, []byte(strings.TrimPrefix(text, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// load loads text with the given quick flag into the defaults.
func load(t *testing.T, text string, quick bool) (*testConfig, error) {
	t.Helper()
	cfg := defaultTestConfig()
	err := Load(writeConfig(t, text), quick, cfg)
	return cfg, err
}

// wantError checks that err is a single line "<path>:<suffix>" containing
// each of the given substrings.
func wantError(t *testing.T, err error, suffix string, contains ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one starting with x.toml%s", suffix)
	}
	msg := err.Error()
	t.Logf("error: %s", msg)
	if strings.ContainsAny(msg, "\r\n") {
		t.Errorf("error has more than one line: %q", msg)
	}
	if !strings.Contains(msg, "x.toml"+suffix) {
		t.Errorf("error %q lacks location x.toml%s", msg, suffix)
	}
	for _, c := range contains {
		if !strings.Contains(msg, c) {
			t.Errorf("error %q lacks %q", msg, c)
		}
	}
}

const fullConfig = `
experiment = "test/config"
seed = 7
figures = ["fig3.4", "fig3.5"]

[model]
sizes = [10, 20, 30]

[vb]
tol = 1e-8
prior_strength = { pi = 2.0, A = 3.0, C = 5.0 }

[weights]
b = 2.5

[quick]
runs = 2

[quick.vb]
max_iter = 30
prior_strength = { pi = 1.5 }
`

func TestLoadConfigDefaultsAndValues(t *testing.T) {
	cfg, err := load(t, fullConfig, false)
	if err != nil {
		t.Fatal(err)
	}
	want := defaultTestConfig()
	want.Seed = 7
	want.Figures = []string{"fig3.4", "fig3.5"}
	want.Model.Sizes = []int{10, 20, 30}
	want.VB.Tol = 1e-8
	want.VB.PriorStrength = priorStrength{Pi: 2, A: 3, C: 5}
	want.Weights = map[string]float64{"a": 1, "b": 2.5} // tables merge into maps
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("quick=false:\n got %+v\nwant %+v", cfg, want)
	}

	cfg, err = load(t, fullConfig, true)
	if err != nil {
		t.Fatal(err)
	}
	want.Runs = 2
	want.VB.MaxIter = 30
	want.VB.PriorStrength.Pi = 1.5 // A and C keep the main file's values
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("quick=true:\n got %+v\nwant %+v", cfg, want)
	}
}

func TestLoadConfigEmptyFileKeepsDefaults(t *testing.T) {
	cfg, err := load(t, "# nothing but a comment\n", true)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg, defaultTestConfig()) {
		t.Errorf("got %+v, want the defaults", cfg)
	}
}

func TestLoadConfigDoesNotWriteToSharedDefaults(t *testing.T) {
	cfg, err := load(t, "[model]\nnoise = [9.0, 8.0]\n", false)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg.Model.Noise, []float64{9, 8}) {
		t.Errorf("noise = %v", cfg.Model.Noise)
	}
	if !reflect.DeepEqual(defaultNoise, []float64{0.1, 0.2, 0.3}) {
		t.Errorf("decoding wrote into the shared default slice: %v", defaultNoise)
	}
}

func TestLoadConfigUnknownKeys(t *testing.T) {
	cases := []struct {
		name, text, suffix string
		contains           []string
		quick              bool
	}{
		{
			name:     "top level",
			text:     "\nseed = 1\nrunz = 3\n",
			suffix:   `:2: unknown key "runz"`,
			contains: []string{`did you mean "runs"?`},
		},
		{
			name:     "nested",
			text:     "\n[vb]\ntol = 1e-3\n\nprior_strenght = 4.0\n",
			suffix:   `:4: unknown key "vb.prior_strenght"`,
			contains: []string{`did you mean "vb.prior_strength"?`},
		},
		{
			name:   "inside an inline table decoded into a struct",
			text:   "\n[vb]\nprior_strength = { pi = 4.0, B = 4.0 }\n",
			suffix: `:2: unknown key "vb.prior_strength.B"`,
		},
		{
			name:     "misspelt table name in a header",
			text:     "\n[vb]\ntol = 1.0\n[modle]\nk_max = 3\n",
			suffix:   `:3: unknown key "modle"`,
			contains: []string{`did you mean "model"?`},
		},
		{
			name:     "dotted key",
			text:     "\nvb.max_iterr = 3\n",
			suffix:   `:1: unknown key "vb.max_iterr"`,
			contains: []string{`"vb.max_iter"?`},
		},
		{
			name:     "inside [quick.vb], quick=false",
			text:     "\nruns = 3\n[quick]\nruns = 1\n[quick.vb]\nmax_iter = 3\nmaxiter = 4\n",
			suffix:   `:6: unknown key "quick.vb.maxiter"`,
			contains: []string{`did you mean "quick.vb.max_iter"?`},
		},
		{
			name:   "inside [quick.vb], quick=true",
			text:   "\n[quick.vb]\n\n\nmaxiter = 4\n",
			suffix: `:4: unknown key "quick.vb.maxiter"`,
			quick:  true,
		},
		{
			name:     "unknown table reported once",
			text:     "\nseed = 1\n[vbb]\nmax_iter = 3\ntol = 1.0\n",
			suffix:   `:2: unknown key "vbb"`,
			contains: []string{`did you mean "vb"?`},
		},
		{
			name:   "multi-line string value",
			text:   "\nnotes = \"\"\"\nfirst line\nsecond line\"\"\"\n",
			suffix: `:1: unknown key "notes"`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := load(t, c.text, c.quick)
			wantError(t, err, c.suffix, c.contains...)
			var ce *Error
			if !errors.As(err, &ce) || ce.Key == "" || ce.Line == 0 {
				t.Errorf("error %#v is not a located *Error", err)
			}
			if strings.Count(err.Error(), "unknown key") != 1 {
				t.Errorf("want one unknown key in %q", err)
			}
		})
	}
}

func TestLoadConfigSeveralUnknownKeys(t *testing.T) {
	_, err := load(t, "a = 1\n[vb]\nb = 2\n[quick]\nc = 3\n", false)
	wantError(t, err, `:1: unknown key "a"`, `x.toml:3: unknown key "vb.b"`, `x.toml:5: unknown key "quick.c"`)
	var ces Errors
	if !errors.As(err, &ces) || len(ces) != 3 {
		t.Errorf("error %#v is not a Errors of 3", err)
	}
}

func TestLoadConfigSyntaxError(t *testing.T) {
	_, err := load(t, "\nseed = 1\n[vb]\ntol = \n", false)
	// The parser reports the newline after "tol = " at line 3, column 7.
	wantError(t, err, ":3:7: ", "expected value", `(last key "vb.tol")`)
}

func TestLoadConfigWrongType(t *testing.T) {
	_, err := load(t, "\n[vb]\ntol = \"small\"\n", false)
	wantError(t, err, ":2: ", `key "vb.tol"`, "string")

	_, err = load(t, "\n[quick.vb]\nmax_iter = 2.5\n", false)
	wantError(t, err, ":2: ", `key "quick.vb.max_iter"`)

	_, err = load(t, "\nquick = 3\n", false)
	wantError(t, err, ":1: ", `key "quick"`, "expected table")

	_, err = load(t, "\n\nruns = 99999999999999999999\n", false)
	wantError(t, err, ":2:", "runs")
}

func TestLoadConfigValidate(t *testing.T) {
	_, err := load(t, "\n[vb]\nprior_strength = { pi = 4.0, A = -4.0, C = 4.0 }\n", false)
	wantError(t, err, ":2: vb.prior_strength.A = -4: must be > 0")
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Key != "vb.prior_strength.A" {
		t.Errorf("error %#v does not wrap the *ValueError", err)
	}

	// The line is the one in [quick] that set the value, with quick and
	// without it: the overlay is validated at every load.
	text := "\nruns = 3\n[quick]\nruns = 0\n"
	for _, quick := range []bool{true, false} {
		_, err = load(t, text, quick)
		wantError(t, err, ":3: runs = 0: must be at least 1")
	}

	// A value left at its default has no line.
	cfg := defaultTestConfig()
	cfg.Runs = -1
	path := writeConfig(t, "seed = 1\n")
	err = Load(path, false, cfg)
	if err == nil || err.Error() != path+": runs = -1: must be at least 1" {
		t.Errorf("error = %v", err)
	}

	sentinel := errors.New("first line\nsecond line")
	err = Load(path, false, &failingConfig{err: sentinel})
	if !errors.Is(err, sentinel) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error = %q; want one line wrapping the Validate error", err)
	}
}

type failingConfig struct {
	Seed uint64 `toml:"seed"`
	err  error
}

func (c *failingConfig) Validate() error { return c.err }

func TestLoadConfigBadTarget(t *testing.T) {
	path := writeConfig(t, "seed = 1\n")
	for _, cfg := range []any{nil, testConfig{}, new(int), (*testConfig)(nil)} {
		if err := Load(path, false, cfg); err == nil {
			t.Errorf("Load accepted %T", cfg)
		}
	}
	type withQuick struct {
		Seed  uint64
		Quick struct{ Runs int }
	}
	err := Load(writeConfig(t, "[quick]\nruns = 1\n"), true, &withQuick{})
	if err == nil || !strings.Contains(err.Error(), "reserved") {
		t.Errorf("config with a quick field: err = %v", err)
	}
	if err := Load(filepath.Join(t.TempDir(), "missing.toml"), false, defaultTestConfig()); err == nil {
		t.Error("no error for a missing file")
	}
}

func TestEncodeConfig(t *testing.T) {
	cfg := defaultTestConfig()
	cfg.Weights = map[string]float64{"z": 1, "b": 2, "m": 3}
	data1, hash1, err := Encode(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ { // map order must not matter
		data, hash, err := Encode(cfg)
		if err != nil || hash != hash1 || string(data) != string(data1) {
			t.Fatalf("encoding %d differs: %s vs %s", i, hash, hash1)
		}
	}
	if len(hash1) != 12 || strings.Trim(hash1, "0123456789abcdef") != "" {
		t.Errorf("hash = %q, want 12 hex digits", hash1)
	}

	// The encoding loads back to the same config.
	back := &testConfig{}
	if err := Load(writeConfig(t, string(data1)), false, back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, cfg) {
		t.Errorf("round trip:\n got %+v\nwant %+v\nTOML:\n%s", back, cfg, data1)
	}

	cfg.VB.PriorStrength.C = 4.000000001
	_, hash2, err := Encode(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if hash2 == hash1 {
		t.Error("hash did not change with a value")
	}
}

func TestFieldError(t *testing.T) {
	for _, c := range []struct {
		value any
		want  string
	}{
		{-4.0, "k = -4: why"},
		{0.1, "k = 0.1: why"},
		{3, "k = 3: why"},
		{"abc", `k = "abc": why`},
		{[]float64{1, 2.5}, "k = [1, 2.5]: why"},
		{map[string]float64{"b": 2, "a": 1}, "k = { a = 1, b = 2 }: why"},
		{true, "k = true: why"},
	} {
		if got := FieldError("k", c.value, "why").Error(); got != c.want {
			t.Errorf("FieldError(%v) = %q, want %q", c.value, got, c.want)
		}
	}
}

// TestLoadConfigKeysAreCaseSensitive: toml would decode Runs = 5 into the
// field of runs; the loader refuses it, in the main part and in [quick].
func TestLoadConfigKeysAreCaseSensitive(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Runs = 5\n", `:1: unknown key "Runs" (did you mean "runs"? keys are case-sensitive)`},
		{"[VB]\ntol = 1e-3\n", `unknown key "VB" (did you mean "vb"?`},
		{"[vb]\nTol = 1e-3\n", `:2: unknown key "vb.Tol" (did you mean "vb.tol"?`},
		{"[quick]\nRUNS = 2\n", `:2: unknown key "quick.RUNS" (did you mean "quick.runs"?`},
	} {
		p := filepath.Join(t.TempDir(), "x.toml")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		err := Load(p, false, defaultTestConfig())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// TestLoadConfigNegativeUnsigned: seed = -1 would wrap to 2⁶⁴−1.
func TestLoadConfigNegativeUnsigned(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"runs = 2\nseed = -1\n", `:2: seed = -1: must be ≥ 0`},
		{"[quick]\nseed = -5\n", `:2: quick.seed = -5: must be ≥ 0`},
	} {
		p := filepath.Join(t.TempDir(), "x.toml")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		err := Load(p, false, defaultTestConfig())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// TestLoadConfigValidatesQuickWithoutQuick: a bad [quick] value is an
// error at load, also when -quick is not given, at the [quick] line.
func TestLoadConfigValidatesQuickWithoutQuick(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.toml")
	if err := os.WriteFile(p, []byte("runs = 2\n[quick]\nruns = 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, quick := range []bool{false, true} {
		err := Load(p, quick, defaultTestConfig())
		if err == nil || !strings.Contains(err.Error(), ":3:") || !strings.Contains(err.Error(), "runs = 0") {
			t.Errorf("quick=%v: error %v, want the [quick] line 3 naming runs = 0", quick, err)
		}
	}
}

// retiringConfig moved its runs key into a table.
type retiringConfig struct {
	Table struct {
		Runs int `toml:"runs" range:"[1,10]"`
	} `toml:"table"`
	Prior struct {
		A float64 `toml:"a" range:"(0,inf)"`
	} `toml:"prior"`
}

func (*retiringConfig) RetiredKeys() map[string]string {
	return map[string]string{"runs": "table.runs", "model.prior": "prior"}
}

func TestLoadRetiredKeys(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"runs = 3\n", `:1: unknown key "runs": renamed to "table.runs"`},
		{"[quick]\nruns = 3\n", `:2: unknown key "quick.runs": renamed to "quick.table.runs"`},
		{"[model.prior]\na = 1\n", `:1: unknown key "model.prior": renamed to "prior"`},
		{"[model]\nprior = { a = 1 }\n", `unknown key "model`},
	} {
		cfg := &retiringConfig{}
		cfg.Table.Runs, cfg.Prior.A = 1, 1
		err := Load(writeConfig(t, c.text), false, cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want …%s", c.text, err, c.want)
		}
	}
}

// TestLoadConfigWrongTypes: a value of the wrong type or too large for
// its field is one line in the config's terms, naming the key.
func TestLoadConfigWrongTypes(t *testing.T) {
	for _, c := range []struct{ text, suffix, want string }{
		{"\nruns = 1.5\n", `:1: key "runs"`, "must be a whole number (written without a fraction or an exponent)"},
		{"\nruns = 1e300\n", `:1: key "runs"`, "must be a whole number"},
		{"\nruns = \"x\"\n", `:1: key "runs"`, "must be a whole number, not a string"},
		{"\nruns = [1]\n", `:1: key "runs"`, "must be a whole number, not a list"},
		{"\nruns = 9223372036854775808\n", `:1:8: 9223372036854775808 is too large for a whole number`, `(last key "runs")`},
	} {
		_, err := load(t, c.text, false)
		wantError(t, err, c.suffix, c.want)
		if err != nil && strings.Contains(err.Error(), "destination has type") {
			t.Errorf("%q: the decoder's wording: %v", c.text, err)
		}
	}
}
