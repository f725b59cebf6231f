package bnn

import (
	"fmt"
	"math"
	"strings"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// The text's Tables 5.1, 5.2, 6.1 and 6.2, their tab-separated rows as
// pipe tables (TestTablesVerbatim checks them against the seed file),
// keyed by the seed file's line of the header row.
var textTables = map[int]string{
	2203: `| Method | Test error |
|---|---|
| Early stopping | 0.262 |
| Variational (diagonal) | 0.178 |
| Variational (mixture) | 0.172 |
| Evidence | 0.171 |
| Hybrid Monte Carlo | 0.131 |`,
	2224: `| Method | Test error |
|---|---|
| Linear regression | 2.78 |
| Quadratic regression | 0.80 |
| Early stopping | 0.65 |
| Evidence | 0.55 |
| Variational (diagonal) | 0.526 |
| Variational (mixture) | 0.519 |
| Hybrid Monte Carlo | 0.481 |`,
	2682: `| Prior type | Test error |
|---|---|
| single | 0.190 |
| grouped | 0.194 |
| ARD | 0.153 |
| NRD $(3x5x1)$ | 0.163 |
| Hybrid Monte-Carlo grouped | 0.131 |
| Hybrid Monte-Carlo ARD | 0.132 |`,
	2698: `| Method | Test error |
|---|---|
| single | 0.549 |
| grouped | 0.540 |
| ARD | 0.539 |
| NRD (10x3x1) | 0.532 |
| Hybrid Monte-Carlo grouped | 0.481 |
| Hybrid Monte-Carlo ARD | 0.471 |`,
}

// The text's row of each of our rows (<data>_table.csv's row column).
var (
	rows5 = []struct{ key, row string }{
		{"Linear regression", "linear"}, {"Quadratic regression", "quadratic"},
		{"Early stopping", "early_stopping"}, {"Evidence", "evidence_grouped"},
		{"Variational (diagonal)", "vb_diag_grouped"}, {"Variational (mixture)", "vb_mix_grouped"},
		{"Hybrid Monte Carlo", "hmc_grouped"},
	}
	rows6 = []struct{ key, row string }{
		{"single", "vb_diag_single"}, {"grouped", "vb_diag_grouped"}, {"ARD", "vb_diag_ard"},
		{"NRD $(3x5x1)$", "vb_diag_nrd"}, {"NRD (10x3x1)", "vb_diag_nrd"},
		{"Hybrid Monte-Carlo grouped", "hmc_grouped"}, {"Hybrid Monte-Carlo ARD", "hmc_ard"},
	}
)

func init() {
	tab := func(id string, line int, file string, rows []struct{ key, row string }, note string) *experiments.Table {
		return &experiments.Table{Experiment: id, Source: fmt.Sprintf("Lawrence (2000), L%d-%d (single runs; ours the median over seeds)", line, line+8),
			Build: func(f experiments.ResultFiles) (results.Comparison, error) {
				return buildTable(f, textTables[line], file, rows, note)
			}}
	}
	experiments.AddArtefacts(experiments.Lawrence,
		experiments.Artefact{Label: "Table 5.1", Line: 2210, Experiments: []string{SunspotsID}, Caption: "sunspots test NMSE of early stopping, the evidence procedure, the diagonal and mixture variational posteriors and hybrid Monte Carlo",
			Table: tab(SunspotsID, 2203, "sunspots_table.csv", rows5, "NMSE: the test MSE over the variance of the test targets 1921-1979 (divisor n; over the variance of the whole series 1700-1979, Weigend's normalisation, the rows are nmse_alt_* in summary.json, nmse_alt_ratio times ours). The text's early-stopping row is Weigend et al.'s (1990); ours is our early stopping (a seeded fifth of the training patterns held out).")},
		experiments.Artefact{Label: "Table 5.2", Line: 2233, Experiments: []string{TecatorID}, Caption: "Tecator test RMSE (fat %) of linear and quadratic regression and the five methods",
			Table: tab(TecatorID, 2224, "tecator_table.csv", rows5, "RMSE in fat %. The text's first four rows are Thodberg's (1996), whose networks had direct input-output connections; ours are our fits on the same inputs (linear and quadratic least squares; our early stopping and evidence procedure).")},
		experiments.Artefact{Label: "Table 6.1", Line: 2690, Experiments: []string{SunspotsID}, Caption: "sunspots test NMSE of the diagonal variational posterior under the single, grouped, ARD and NRD priors, and HMC grouped and ARD",
			Table:  tab(SunspotsID, 2682, "sunspots_table.csv", rows6, "The prior rows are the diagonal variational posterior (configs/bnn/sunspots-priors.toml); NRD removes hidden units and inputs while that raises the bound (inputs_kept and hidden_kept in sunspots_cells.csv)."),
			Judged: "every row's error, ARD against single, NRD pruning hidden units, HMC best"},
		experiments.Artefact{Label: "Table 6.2", Line: 2706, Experiments: []string{TecatorID}, Caption: "Tecator test RMSE under the four priors and HMC grouped and ARD",
			Table:  tab(TecatorID, 2698, "tecator_table.csv", rows6, "The prior rows are the diagonal variational posterior (configs/bnn/tecator-priors.toml); NRD removes hidden units and inputs."),
			Judged: "every row's error, ARD against single, NRD pruning hidden units, HMC best"},
	)
}

// buildTable joins the text's table md with the medians of a run's
// <data>_table.csv; rows the run does not have stay empty.
func buildTable(f experiments.ResultFiles, md, file string, rows []struct{ key, row string }, note string) (results.Comparison, error) {
	t, err := f.Table(file)
	if err != nil {
		return results.Comparison{}, err
	}
	rc, err := t.Col("row")
	if err != nil {
		return results.Comparison{}, err
	}
	mc, err := t.Col("median")
	if err != nil {
		return results.Comparison{}, err
	}
	have := map[string]float64{}
	for i, r := range t.Rows {
		v, err := t.Float(i, mc)
		if err != nil {
			return results.Comparison{}, err
		}
		have[r[rc]] = v
	}
	var ours []experiments.OurRow
	for _, r := range rows {
		if v, ok := have[r.row]; ok && !math.IsNaN(v) && strings.Contains(md, "| "+r.key+" |") {
			ours = append(ours, experiments.Values(r.key, v))
		}
	}
	return experiments.JoinRows(md, ours, note)
}
