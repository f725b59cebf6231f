package config

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// engineConfig has the shared tables as an experiment config embeds them.
type engineConfig struct {
	VB     FitSettings    `toml:"vb"`
	ML     FitSettings    `toml:"ml"`
	Search SearchSettings `toml:"search"`
	Top    int            `toml:"max_kmeans_iterations"`
}

var engineGroups = []string{"alpha", "gamma", "noise"}

func defaultEngineConfig() *engineConfig {
	vbFit := DefaultFit(100)
	vbFit.Hyper = HyperSchedule{"alpha": 10, "gamma": 20, "noise": 0}
	return &engineConfig{VB: vbFit, ML: DefaultFit(50), Search: SearchSettings{MaxTries: 1, Birth: BirthSpatial,
		Children: ChildrenPCA, Epoch: EpochAgitationDF, AgitationTol: 0.1, DFTolPerDatum: 1e-6, MinEpochIterations: 2,
		DeathThreshold: 1, Death: DeathImmediate, Reference: ReferenceConverged, MaxTotalIterations: 300}, Top: 3}
}

func (c *engineConfig) Validate() error {
	return FirstError(c.VB.Validate("vb", engineGroups), c.ML.Validate("ml", nil), c.Search.Validate())
}

func loadEngine(t *testing.T, text string, quick bool) (*engineConfig, error) {
	t.Helper()
	c := defaultEngineConfig()
	err := Load(writeConfig(t, text), quick, c)
	return c, err
}

// The shared tables decode their typed values; a table merges into the
// default key by key.
func TestEngineTablesDecode(t *testing.T) {
	c, err := loadEngine(t, `
[vb]
max_iterations = 40
[vb.hyper]
gamma = 5
[search]
birth     = "responsibility"
children  = "inherit"
epoch     = "dF"
reference = "matched"
death     = "move"
max_final_iterations = 7
[quick.search]
max_total_iterations = 9
`, true)
	if err != nil {
		t.Fatal(err)
	}
	want := defaultEngineConfig()
	want.VB.MaxIterations, want.VB.Hyper["gamma"] = 40, 5
	want.Search.Birth, want.Search.Children, want.Search.Epoch, want.Search.Reference = BirthResponsibility, ChildrenInherit, EpochDF, ReferenceMatched
	want.Search.MaxFinalIterations, want.Search.MaxTotalIterations, want.Search.Death = 7, 9, DeathMove
	if c.VB.MaxIterations != 40 || !mapsEqual(c.VB.Hyper, want.VB.Hyper) || c.Search != want.Search {
		t.Fatalf("decoded %+v, want %+v", c, want)
	}
	// The encoded config reads back the same (the enums are strings).
	data, _, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	back := defaultEngineConfig()
	if err := Load(writeConfig(t, string(data)), false, back); err != nil || back.Search != c.Search || !mapsEqual(back.VB.Hyper, c.VB.Hyper) {
		t.Fatalf("round trip: %v, %+v", err, back)
	}
	if strings.Contains(string(data), "[ml.hyper]") {
		t.Errorf("a run without a schedule writes an empty [ml.hyper]:\n%s", data)
	}
}

func mapsEqual(a, b HyperSchedule) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// A misspelt choice, a bad schedule or a retired key is a one-line error
// naming the file, the line, the key and what is allowed.
func TestEngineTablesErrors(t *testing.T) {
	for _, c := range []struct {
		text, line string
		want       []string
	}{
		{"[search]\nbirth = \"spatial\"\nreference = \"mached\"\n", ":3:", []string{`key "search.reference": "mached" is not allowed: must be "converged" or "matched"`}},
		{"[search]\nepoch = \"agitation+df\"\n", ":2:", []string{`key "search.epoch"`, `must be "agitation+dF", "agitation" or "dF"`}},
		{"[search]\nchildren = \"clone\"\n", ":2:", []string{`"search.children"`, `"pca" or "inherit"`}},
		{"[search]\nbirth = 3\n", ":2:", []string{`"search.birth"`}},
		{"[quick.search]\nbirth = \"split\"\n", ":2:", []string{`"quick.search.birth"`, `"spatial" or "responsibility"`}},
		{"[vb]\nhyper = { alpha = 1, beta = 3 }\n", ":2:", []string{`vb.hyper.beta = 3: unknown group (the model's groups are "alpha", "gamma" or "noise")`}},
		{"[vb.hyper]\nalpha = 1\ngamma = -2\n", ":3:", []string{"vb.hyper.gamma = -2: must be from 0 to 1e8"}},
		{"[ml.hyper]\nalpha = 1\n", ":2:", []string{"ml.hyper.alpha = 1: this run's model has no hyperparameters"}},
		{"[vb]\nmax_iterations = 1\n", ":2:", []string{"vb.max_iterations = 1: must be from 2 to 1e8"}},
		{"[search]\nmin_epoch_iterations = 1\n", ":2:", []string{"search.min_epoch_iterations = 1"}},
		{"[vb]\nmax_iter = 10\n", ":2:", []string{`unknown key "vb.max_iter": renamed to "vb.max_iterations"`}},
		{"[quick.ml]\nmax_iter = 10\n", ":2:", []string{`unknown key "quick.ml.max_iter": renamed to "quick.ml.max_iterations"`}},
		{"[search]\nmax_total_sweeps = 10\n", ":2:", []string{`renamed to "search.max_total_iterations"`}},
		{"[search]\nfinal_sweeps = 10\n", ":2:", []string{`renamed to "search.max_final_iterations"`}},
		{"[search]\nepoch_min_sweeps = 10\n", ":2:", []string{`renamed to "search.min_epoch_iterations"`}},
		{"kmeans_max_iter = 10\n", ":1:", []string{`unknown key "kmeans_max_iter": renamed to "max_kmeans_iterations"`}},
		{"[vb]\noptimise_hyper = true\n", ":2:", []string{`renamed to "vb.hyper" (a table of group = first iteration`}},
		{"[model]\noptimise_ab = true\n", ":1:", []string{`unknown key "model"`}}, // no [vb.hyper.ab] to point at: the table is unknown
	} {
		_, err := loadEngine(t, c.text, false)
		wantError(t, err, c.line, c.want...)
	}
	// A retired name whose replacement the config does not have is an
	// ordinary unknown key.
	_, err := load(t, "[vb]\nfinal_sweeps = 3\n", false)
	wantError(t, err, ":2:", `unknown key "vb.final_sweeps"`)
	if strings.Contains(err.Error(), "renamed") {
		t.Errorf("error %q points at a key the config does not have", err)
	}
}

// Stages follows the model's group order (the order of the updates within
// an iteration), leaves out the groups at 0 and keeps unknown groups for
// vb.Run to refuse.
func TestHyperScheduleStages(t *testing.T) {
	h := HyperSchedule{"noise": 30, "alpha": 10, "gamma": 0, "zeta": 4}
	got := h.Stages([]string{"noise", "gamma", "alpha"})
	want := []vb.Stage{{Group: "noise", From: 30, Every: 1}, {Group: "alpha", From: 10, Every: 1}, {Group: "zeta", From: 4, Every: 1}}
	if !slices.Equal(got, want) {
		t.Fatalf("Stages = %+v, want %+v", got, want)
	}
	if h.Fixed() || !(HyperSchedule{"a": 0}).Fixed() || !HyperSchedule(nil).Fixed() {
		t.Error("Fixed")
	}
	s := ScheduleOf([]string{"a", "b", "c"}, vb.Every("b"))
	if !mapsEqual(s, HyperSchedule{"a": 0, "b": 1, "c": 0}) {
		t.Errorf("ScheduleOf = %v", s)
	}
	// FitSettings.Settings orders by the model's groups.
	m := vbtest.NewGaussianMixture([]float64{1, 2, 3, 4}, 2, vbtest.MixturePrior{Alpha0: 1, Beta0: 1, A0: 1, B0: 1}, rand.New(rand.NewPCG(1, 2)))
	f := DefaultFit(10)
	f.Hyper = HyperSchedule{vbtest.HyperAlpha0: 3}
	if st := f.Settings(nil, m).Hyper; !slices.Equal(st, []vb.Stage{{Group: vbtest.HyperAlpha0, From: 3, Every: 1}}) {
		t.Errorf("Settings.Hyper = %+v", st)
	}
}

// epochMixture is a mixture whose epochs end by a rule that records how
// it was asked for.
type epochMixture struct {
	*vbtest.GaussianMixture
	asked [][3]float64
}

func (m *epochMixture) EpochConverger(tol, dF float64, minIterations int) vb.Converger {
	m.asked = append(m.asked, [3]float64{tol, dF, float64(minIterations)})
	return vb.FixedIterations{}
}

func newEpochMixture() *epochMixture {
	x := vbtest.MixtureData(rand.New(rand.NewPCG(3, 4)), 60, []float64{0.5, 0.5}, []float64{-3, 3}, []float64{1, 1})
	return &epochMixture{GaussianMixture: vbtest.NewGaussianMixture(x, 1, vbtest.MixturePrior{Alpha0: 1, Beta0: 0.05, A0: 1.5, B0: 1}, rand.New(rand.NewPCG(5, 6)))}
}

// The epoch rule switch: the agitation rules take the model's converger
// with their tolerances, "dF" keeps the run's own; the final run uses the
// agitation+dF rule with a ΔF tolerance of at least 1e-6 and is appended.
func TestSearchSettingsEpochsAndFinalRun(t *testing.T) {
	s := defaultEngineConfig().Search
	s.AgitationTol, s.DFTolPerDatum, s.MinEpochIterations = 0.5, 1e-8, 3
	run := vb.Settings{MaxIterations: 5, Converger: &vb.BoundConverge{Relative: 1e-6}}
	for _, c := range []struct {
		rule EpochRule
		want [][3]float64
	}{
		{EpochAgitationDF, [][3]float64{{0.5, 1e-8, 3}}},
		{EpochAgitation, [][3]float64{{0.5, 0, 3}}},
		{EpochDF, nil},
	} {
		m := newEpochMixture()
		s.Epoch = c.rule
		got := s.Epochs(m, run)
		if !slices.Equal(m.asked, c.want) || (c.rule == EpochDF) != (got.Converger == run.Converger) {
			t.Errorf("%s: asked %v, converger %T", c.rule, m.asked, got.Converger)
		}
	}
	m := newEpochMixture()
	s.Epoch, s.MaxFinalIterations, s.MaxTotalIterations = EpochAgitation, 7, 0
	s.Reference = ReferenceMatched
	res := s.Search(m, run, nil)
	if err := res.Err; err != nil {
		t.Fatal(err)
	}
	last := res.Runs[len(res.Runs)-1]
	total := 0
	for _, r := range res.Runs {
		total += r.Iterations
	}
	for _, mv := range res.Moves {
		total += mv.RefIterations
	}
	if last.Iterations != 7 || res.Iterations != total || res.F != last.F || len(res.Runs) != len(res.Moves)+2 {
		t.Fatalf("final run %d iterations (want 7), search %d (runs and references %d), %d runs for %d moves",
			last.Iterations, res.Iterations, total, len(res.Runs), len(res.Moves))
	}
	if len(res.Moves) == 0 || res.Moves[0].RefIterations == 0 {
		t.Fatalf("no move judged against a matched reference (%d moves): the test checks little", len(res.Moves))
	}
	if a := m.asked[len(m.asked)-1]; a != [3]float64{0.5, 1e-6, 3} {
		t.Errorf("final run's rule %v, want tolerance 0.5, ΔF 1e-6 (at least), 3 iterations", a)
	}
}

// Plain keeps the run as it is (whatever the epoch rule) and takes the
// budget and the reference from the keys.
func TestSearchSettingsPlain(t *testing.T) {
	s := defaultEngineConfig().Search
	run := vb.Settings{MaxIterations: 5, Converger: &vb.BoundConverge{Relative: 1e-6}}
	for _, ref := range []Reference{ReferenceConverged, ReferenceMatched} {
		s.Epoch, s.MaxTotalIterations, s.Reference = EpochAgitationDF, 123, ref
		got := s.Plain(run, nil)
		if got.Run.Converger != run.Converger || got.Run.MaxIterations != 5 || got.MaxTotalIterations != 123 || got.Matched != (ref == ReferenceMatched) {
			t.Errorf("%s: %+v", ref, got)
		}
	}
}
