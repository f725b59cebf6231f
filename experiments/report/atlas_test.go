package report

import (
	"strings"
	"testing"
)

// The reading names the closest method and the crossover from grid.csv's
// numbers alone, and an absent cell shows its reason.
func TestAtlasReading(t *testing.T) {
	csv := "row,method,status,why,budget,n,err_median,err_q25,err_q75,bias,mean_err,var_err,ops,cpu_s,within3se,max_z,crossover_ops,crossover_budget\n" +
		"toy,vb,filled,,10,3,2,1.5,2.5,-2,NaN,NaN,100,0.5,NaN,NaN,NaN,0\n" +
		"toy,ep,absent,not applicable: no sites,0,0,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,0\n" +
		"toy,ais,filled,,1000,3,1,1,1,0.5,NaN,NaN,10000,2,1,2,3162.28,1000\n" +
		"toy,is,filled,,1000,3,3,3,3,-3,NaN,NaN,5000,1,0.5,9,NaN,0\n"
	row, cells, err := readAtlasGrid([]byte(csv))
	if err != nil || row != "toy" || len(cells) != 4 {
		t.Fatalf("readAtlasGrid: %q, %d cells, %v", row, len(cells), err)
	}
	got := atlasReading(row, false, cells)
	for _, want := range []string{"closest to the gold standard is AIS (median |error| 1 nats", "VB's bound is 2 nats below",
		"AIS overtakes VB at about 3.16e+03 ops (budget 1000", "IS never reaches VB's error"} {
		if !strings.Contains(got, want) {
			t.Errorf("reading %q lacks %q", got, want)
		}
	}
	if s := cells[1].text(); s != "— not applicable: no sites" {
		t.Errorf("absent cell %q", s)
	}
	if s := cells[2].text(); !strings.HasPrefix(s, "1 [1, 1]; 1e+04 ops, 2 s") {
		t.Errorf("AIS cell %q", s)
	}
}
