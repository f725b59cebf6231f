package bnn

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
)

// The rows of a config: early stopping once, NRD with the variational
// rows alone, every other method with every prior.
func TestTablesRows(t *testing.T) {
	c := DefaultSunspots()
	c.Experiment = SunspotsID
	c.Priors = []string{"single", "nrd"}
	got := rowNames(c.rows())
	want := []string{"early_stopping", "evidence_single", "vb_diag_single", "vb_diag_nrd", "vb_mix_single", "vb_mix_nrd", "hmc_single"}
	if !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	// one vb cell serves both variational rows.
	var groups []string
	for _, cl := range c.cellGroups() {
		if cl.Seed == 0 {
			groups = append(groups, cl.Group+"/"+cl.Prior)
		}
	}
	if want := []string{"early_stopping/", "evidence/single", "vb/single", "vb/nrd", "hmc/single"}; !slices.Equal(groups, want) {
		t.Errorf("cell groups %v, want %v", groups, want)
	}
	if n := len(c.cellGroups()); n != 5*c.Seeds {
		t.Errorf("%d cells, want %d", n, 5*c.Seeds)
	}
}

// The text's numbers are claims only on the text's data and split.
func TestTablesCriteriaOnTheTextOnly(t *testing.T) {
	c := DefaultTecator()
	c.Experiment = TecatorID
	if c.table() != "5.2" {
		t.Fatalf("table %q, want 5.2", c.table())
	}
	ids := tablesCriteria(&c).IDs()
	for _, id := range []string{"table5.2-linear-2.78", "table5.2-quadratic-0.8", "table5.2-hmc-grouped-0.481", "table5.2-hmc-grouped-best", "table5.2-mix-le-diag-grouped", "table5.2-evidence-near-vb-grouped", "table5.2-early-stopping-0.65"} {
		if !slices.Contains(ids, id) {
			t.Errorf("no criterion %s in %v", id, ids)
		}
	}
	c.TrainRows = 150
	for _, cr := range tablesCriteria(&c) {
		if cr.Kind.String() == "claim" {
			t.Errorf("%s is a claim on another split", cr.ID)
		}
	}
	p := DefaultSunspots()
	p.Experiment = SunspotsID
	p.Methods, p.Priors = []string{"vb_diag", "hmc"}, []string{"single", "grouped", "ard", "nrd"}
	if p.table() != "6.1" {
		t.Fatalf("table %q, want 6.1", p.table())
	}
	ids = tablesCriteria(&p).IDs()
	for _, id := range []string{"table6.1-vb-diag-ard-0.153", "table6.1-hmc-ard-0.132", "table6.1-ard-le-single", "table6.1-nrd-prunes", "table6.1-hmc-ard-best"} {
		if !slices.Contains(ids, id) {
			t.Errorf("no criterion %s in %v", id, ids)
		}
	}
}

func TestTablesConfigRefusals(t *testing.T) {
	exptest.CheckConfigEdits(t, configPath(""), []exptest.ConfigEdit{
		{"sunspots.toml", `"hmc"]`, `"hmm"]`, "methods"},
		{"sunspots.toml", `priors  = ["grouped"]`, `priors  = ["wide"]`, "priors"},
		{"sunspots.toml", "burn         = 100", "burn         = 300", "hmc.burn"},
		{"sunspots.toml", `train_years = [1700, 1920]`, `train_years = [1700, 1705]`, "train_years"},
		{"sunspots.toml", `test_years  = [1921, 1979]`, `test_years  = [1900, 1979]`, "test_years"},
		{"tecator.toml", `target     = "fat"`, `target     = "salt"`, "target"},
		{"tecator.toml", "components = 10", "components = 200", "components"},
		{"sunspots-priors.toml", `methods = ["vb_diag", "hmc"]
priors  = ["single", "grouped", "ard", "nrd"]`, `methods = ["evidence"]
priors = ["nrd"]`, "methods"},
	})
}

// The quick run writes the metrics of the interface.
func TestTablesQuickMetrics(t *testing.T) {
	for _, f := range []string{"sunspots.toml", "tecator.toml"} {
		r := exptest.Quick(t, configPath(f))
		m := strings.TrimSuffix(f, ".toml")
		metric := map[string]string{"sunspots": "nmse", "tecator": "rmse"}[m]
		for _, k := range []string{"early_stopping", "evidence", "vb_diag", "vb_mix", "hmc"} {
			for _, suf := range []string{"", "_sd"} {
				if _, ok := r.Summary.Metrics[metric+"_"+k+suf]; !ok {
					t.Errorf("%s: no metric %s", f, metric+"_"+k+suf)
				}
			}
		}
		for _, k := range []string{"hmc_accept_rate", "hmc_ess_min", metric + "_linear", metric + "_quadratic"} {
			if _, ok := r.Summary.Metrics[k]; !ok {
				t.Errorf("%s: no metric %s", f, k)
			}
		}
		exptest.MustPass(t, r.Summary, "table"+map[string]string{"sunspots": "5.1", "tecator": "5.2"}[m]+"-cells-finite")
	}
}

// TestTablesVerbatim: the text's tables in the code are the seed file's
// tab-separated rows, cell by cell.
func TestTablesVerbatim(t *testing.T) {
	path := filepath.Join(filepath.Dir(experiments.TestDataDir()), "seeds", filepath.Base(experiments.Lawrence.Source))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	lines := strings.Split(string(b), "\n")
	for line, md := range textTables {
		rows := strings.Split(md, "\n")
		rows = append(rows[:1], rows[2:]...) // the separator row
		for i, row := range rows {
			want := strings.Split(lines[line-1+i], "\t")
			cells := strings.Split(strings.Trim(row, "| "), " | ")
			if !slices.Equal(cells, want) {
				t.Errorf("%s:%d: %q, the table in the code has %q", path, line+i, want, cells)
			}
		}
	}
}

// The quick runs fill their tables beside the text's.
func TestTablesBesideTheText(t *testing.T) {
	for _, c := range []struct{ config, label string }{{"sunspots.toml", "Table 5.1"}, {"tecator.toml", "Table 5.2"}, {"sunspots-priors.toml", "Table 6.1"}, {"tecator-priors.toml", "Table 6.2"}} {
		cmp := exptest.ThesisTable(t, c.label, exptest.Quick(t, configPath(c.config)))
		if len(cmp.Rows) < 5 {
			t.Errorf("%s: %d rows", c.label, len(cmp.Rows))
		}
	}
}
