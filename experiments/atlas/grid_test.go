package atlas

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/results"
)

// synthetic is a row of 3 data sets × 1 seed (gold 0, SE 0 except "c"):
// VB at budgets 1, 10 with |errors| {4, 5, 6} and then {1, 2, 3} (median
// 2); AIS at budgets 10, 100, 1000 with ops 100, 1000, 10000 and |errors|
// {8, 8, 8}, {4, 4, 4}, {1, 1, 1}, SE 0.5 (z 2 at the largest budget); BIC
// one-shot with errors {−3, 3, 9}.
func synthetic() ([]GoldStandard, []Estimate, []Absent) {
	gold := []GoldStandard{{Dataset: "a", LnZ: 0, Kind: GoldEnumeration}, {Dataset: "b", LnZ: 10, Kind: GoldEnumeration},
		{Dataset: "c", Seed: 7, LnZ: -5, SE: 0, Kind: GoldAISLong}}
	var est []Estimate
	nan := math.NaN()
	add := func(ds string, seed uint64, m string, b int, err, se, ops float64) {
		base := map[string]float64{"a": 0, "b": 10, "c": -5}[ds]
		est = append(est, Estimate{Dataset: ds, Seed: seed, Method: m, Budget: b, LnZ: base + err, SE: se, Ops: ops, CPUSeconds: ops / 1e9, MeanErr: nan, VarErr: nan})
	}
	for i, ds := range []string{"a", "b", "c"} {
		seed := uint64(0)
		if ds == "c" {
			seed = 7
		}
		add(ds, seed, VB, 1, -float64(4+i), nan, 10)
		add(ds, seed, VB, 10, -float64(1+i), nan, 100)
		add(ds, seed, AIS, 10, 8, 0.5, 100)
		add(ds, seed, AIS, 100, -4, 0.5, 1000)
		add(ds, seed, AIS, 1000, 1, 0.5, 10000)
		add(ds, seed, BIC, 0, []float64{-3, 3, 9}[i], nan, 1)
	}
	return gold, est, []Absent{{Method: EP, Why: "not applicable: no site factorisation"}, {Method: Laplace, Why: "not built: the mode's Hessian"}}
}

func TestSummariseKnownMedians(t *testing.T) {
	gold, est, absent := synthetic()
	g, err := Summarise("toy", gold, est, absent)
	if err != nil {
		t.Fatal(err)
	}
	vb, _ := g.Cell(VB)
	if vb.Budget != 10 || vb.N != 3 || vb.ErrMedian != 2 || vb.ErrQ25 != 1.5 || vb.ErrQ75 != 2.5 || vb.Bias != -2 || vb.Ops != 100 {
		t.Errorf("VB cell %+v, want budget 10, n 3, median 2 [1.5, 2.5], bias −2, ops 100", vb)
	}
	if !math.IsNaN(vb.Within3SE) {
		t.Errorf("VB within3se = %v, want NaN (no SE)", vb.Within3SE)
	}
	a, _ := g.Cell(AIS)
	if a.Budget != 1000 || a.ErrMedian != 1 || a.Within3SE != 1 || a.MaxZ != 2 {
		t.Errorf("AIS cell %+v, want budget 1000, median 1, within 1, max z 2", a)
	}
	// The AIS curve falls from 4 (ops 1000) to 1 (ops 10⁴) past VB's 2:
	// log-linear interpolation puts the crossover at 10^(3 + ln(4/2)/ln 4) = 10^3.5.
	if want := math.Pow(10, 3.5); math.Abs(a.CrossoverOps-want) > 1e-9*want || a.CrossoverBudget != 1000 {
		t.Errorf("AIS crossover %v at budget %d, want %v at 1000", a.CrossoverOps, a.CrossoverBudget, want)
	}
	b, _ := g.Cell(BIC)
	if b.ErrMedian != 3 || b.Bias != 3 || b.Budget != 0 {
		t.Errorf("BIC cell %+v, want median |err| 3, bias 3", b)
	}
	if !math.IsNaN(b.CrossoverOps) {
		t.Errorf("BIC (median 3 > VB's 2) crossover = %v, want NaN", b.CrossoverOps)
	}
	if _, ok := g.Cell(EP); ok {
		t.Error("EP is absent, has a cell")
	}
}

func TestCrossover(t *testing.T) {
	c := []Point{{Budget: 1, Ops: 10, ErrMedian: 1}, {Budget: 2, Ops: 100, ErrMedian: 0.1}}
	if o, b := Crossover(c, 2); o != 10 || b != 1 {
		t.Errorf("already below: (%v, %d), want (10, 1)", o, b)
	}
	if o, _ := Crossover(c, 0.01); !math.IsNaN(o) {
		t.Errorf("never below: %v, want NaN", o)
	}
	if o, b := Crossover(c, math.Sqrt(0.1)); math.Abs(o-math.Sqrt(1000)) > 1e-9 || b != 2 {
		t.Errorf("midway in log: (%v, %d), want (%v, 2)", o, b, math.Sqrt(1000))
	}
}

func TestSummariseRefuses(t *testing.T) {
	gold, est, absent := synthetic()
	for name, f := range map[string]func() error{
		"unknown method": func() error {
			_, err := Summarise("toy", gold, append(est, Estimate{Dataset: "a", Method: "mcmc"}), absent)
			return err
		},
		"no gold": func() error {
			_, err := Summarise("toy", gold, append(est, Estimate{Dataset: "z", Method: VB}), absent)
			return err
		},
		"estimated and absent": func() error {
			_, err := Summarise("toy", gold, est, append(absent, Absent{Method: VB, Why: "not built: x"}))
			return err
		},
		"reason": func() error {
			_, err := Summarise("toy", gold, est, []Absent{{Method: EP, Why: "later"}})
			return err
		},
		"NaN gold": func() error {
			_, err := Summarise("toy", append(gold, GoldStandard{Dataset: "q", LnZ: math.NaN()}), est, absent)
			return err
		},
	} {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// A seed other than c's 7 has no gold standard of c.
	if _, err := Summarise("toy", gold, append(est, Estimate{Dataset: "c", Seed: 8, Method: VB}), nil); err == nil {
		t.Error("seed 8 of c: no error")
	}
}

func TestWriteGridAndPlot(t *testing.T) {
	gold, est, absent := synthetic()
	dir := t.TempDir()
	s := &results.Summary{Metrics: map[string]float64{}, Criteria: Criteria(true, IS, AIS)}
	if _, err := WriteGrid(dir, s, "toy", gold, est, absent); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckComplete(Criteria(true, IS, AIS)); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]float64{"err_vb_median": 2, "err_ais_median": 1, "within3se_ais": 1, "ops_vb": 100} {
		if got := s.Metrics[id]; got != want {
			t.Errorf("%s = %v, want %v", id, got, want)
		}
	}
	if _, ok := s.Metrics["within3se_vb"]; ok {
		t.Error("within3se_vb set for a method without SE")
	}
	for _, ch := range s.Checks {
		switch ch.ID {
		case "vb-below-gold", "within3se-ais":
			if !ch.Pass {
				t.Errorf("%s failed: %+v", ch.ID, ch)
			}
		case "within3se-is":
			if !ch.NotApplicable {
				t.Errorf("within3se-is judged without IS estimates: %+v", ch)
			}
		}
	}
	grid, err := results.ReadCSV(filepath.Join(dir, GridFile))
	if err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, r := range grid.Rows {
		methods = append(methods, r[1]+"/"+r[2])
	}
	if got := strings.Join(methods, ","); got != "vb/filled,bic/filled,laplace/absent,ep/absent,ais/filled" {
		t.Errorf("grid rows %s", got)
	}
	row, g2, e2, err := ReadEstimates(dir)
	if err != nil || row != "toy" || len(e2) != len(est) || len(g2) != 3 {
		t.Fatalf("ReadEstimates: %q, %d golds, %d estimates, %v", row, len(g2), len(e2), err)
	}
	if err := PlotGrid(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "atlas_toy.svg")); err != nil {
		t.Error(err)
	}
}

// An AIS estimate 4 SE away fails its cell's criterion, and a VB bound
// above the gold standard fails the sanity check.
func TestCriteriaCanFail(t *testing.T) {
	gold, est, _ := synthetic()
	for i := range est {
		if est[i].Method == AIS && est[i].Budget == 1000 && est[i].Dataset == "a" {
			est[i].LnZ = 2
		}
		if est[i].Method == VB && est[i].Budget == 10 && est[i].Dataset == "b" {
			est[i].LnZ = 10.5
		}
	}
	s := &results.Summary{Metrics: map[string]float64{}, Criteria: Criteria(true, AIS)}
	if _, err := WriteGrid(t.TempDir(), s, "toy", gold, est, nil); err != nil {
		t.Fatal(err)
	}
	for _, ch := range s.Checks {
		if ch.Pass {
			t.Errorf("%s passed: %+v", ch.ID, ch)
		}
	}
	if len(s.Checks) != 2 {
		t.Errorf("%d checks, want 2", len(s.Checks))
	}
}
