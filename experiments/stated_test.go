package experiments

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/results"
)

// statedConfig is the config of the experiments of TestStatedCriteria: its
// Criteria states table, and its run judges judged (table when nil).
type statedConfig struct {
	Common
	table, judged results.Criteria
}

func (c *statedConfig) Validate() error { return nil }
func (c *statedConfig) Estimate() Cost  { return Cost{} }
func (c *statedConfig) Criteria(*Env) (results.Criteria, error) {
	return c.table, nil
}

var (
	statedClaim = results.Criterion{ID: "fig1.1-peak", Text: "the peak", Target: results.Holds}.AsClaim("a peak at 2", "L10")
	statedCheck = results.Criterion{ID: "sum", Text: "a checksum", Target: results.Holds}.AsSanity()
	statedBare  = results.Criterion{ID: "fig1.1-bare", Text: "not classified", Target: results.Holds}
	statedRan   = map[string]bool{}
)

// statedExperiment registers the experiment id whose config states table
// and whose run judges judged (table when nil), once.
func statedExperiment(id string, table, judged results.Criteria) {
	if _, ok := Lookup(id); ok {
		return
	}
	Add(id, "a test of stated criteria", func() statedConfig { return statedConfig{table: table, judged: judged} },
		func(env *Env, c *statedConfig) error {
			statedRan[id] = true
			cs := c.judged
			if cs == nil {
				cs = c.table
			}
			s := &results.Summary{Criteria: cs}
			for _, cr := range cs {
				s.JudgeBool(cr, true)
			}
			return env.WriteSummary(s, "")
		}, nil)
}

// TestStatedCriteria: a config whose criteria table has a criterion
// without a kind is refused by Prepare, before its run computes, in one
// line naming the experiment and the criterion; a summary that judges
// another table than the config states is refused; and on settings of
// ours the claims of the text are written as extensions.
func TestStatedCriteria(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	opts := RunOptions{Out: filepath.Join(dir, "out"), Workers: 1, NoPlot: true}

	statedExperiment("statedtest/unclassified", results.Criteria{statedCheck, statedBare}, nil)
	_, err := Prepare(write("bare.toml", "experiment = \"statedtest/unclassified\"\n"), opts)
	if err == nil || !strings.Contains(err.Error(), "statedtest/unclassified") || !strings.Contains(err.Error(), `"fig1.1-bare" has no kind`) || strings.Contains(err.Error(), "\n") {
		t.Errorf("unclassified criterion: %v, want one line naming the experiment and fig1.1-bare", err)
	}
	if statedRan["statedtest/unclassified"] {
		t.Error("the run of a config with an unclassified criterion computed")
	}

	statedExperiment("statedtest/other", results.Criteria{statedCheck, statedClaim}, results.Criteria{statedCheck})
	if _, err := RunConfig(context.Background(), write("other.toml", "experiment = \"statedtest/other\"\n"), opts); err == nil || !strings.Contains(err.Error(), `lacks "fig1.1-peak"`) {
		t.Errorf("a summary of another table: %v", err)
	}

	statedExperiment("statedtest/ours", results.Criteria{statedCheck, statedClaim}, nil)
	for settings, want := range map[string]string{"text": "claim", "ours": "extension"} {
		d, err := RunConfig(context.Background(), write(settings+".toml", "experiment = \"statedtest/ours\"\nsettings = \""+settings+"\"\n"), opts)
		if err != nil {
			t.Fatal(err)
		}
		s, err := results.ReadSummary(filepath.Join(d, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := results.ReadManifest(filepath.Join(d, results.ManifestFile))
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := s.CheckByID("fig1.1-peak"); !ok || c.Kind != want || m.Settings != settings {
			t.Errorf("settings %q: check %+v, manifest's settings %q; want a %s", settings, c, m.Settings, want)
		}
	}
}
