package datasets_test

import (
	"math"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments/datasets"
)

func TestReadTecator(t *testing.T) {
	raw := readShared(t, "tecator.csv")
	d, err := datasets.ReadTecator("tecator.csv", raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Absorbance) != 215 || len(d.Absorbance[0]) != 100 || len(d.Fat) != 215 {
		t.Fatalf("%d rows of %d absorbances, want 215 of 100", len(d.Absorbance), len(d.Absorbance[0]))
	}
	// caret's tecator, sample 1: a001 = 2.61776, water 60.5, fat 22.5,
	// protein 16.7.
	if d.Absorbance[0][0] != 2.61776 || d.Water[0] != 60.5 || d.Fat[0] != 22.5 || d.Protein[0] != 16.7 {
		t.Errorf("first row: a001 %v, water %v, fat %v, protein %v", d.Absorbance[0][0], d.Water[0], d.Fat[0], d.Protein[0])
	}
	refusesWrongChecksum(t, "tecator.csv", raw)
	for _, bad := range []string{"a001,water,fat\n1,2,3\n", "a002,water,fat,protein\n1,2,3,4\n"} {
		if _, err := datasets.ReadTecator("t.csv", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "t.csv") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}

// The principal components of points on a known ellipse: the scores have
// zero mean and unit variance on the training rows, are uncorrelated, and
// the explained fractions are the axes' variances over the total.
func TestPrincipalComponents(t *testing.T) {
	var train [][]float64
	for i := range 400 {
		a := 2 * math.Pi * float64(i) / 400
		u, v := 3*math.Cos(a), math.Sin(a) // variances 4.5 and 0.5
		c, s := math.Cos(0.3), math.Sin(0.3)
		train = append(train, []float64{1 + c*u - s*v, -2 + s*u + c*v, 0.5})
	}
	z, zt, ex, err := datasets.PrincipalComponents(train, train[:3], 2)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(ex[0]-0.9) > 1e-9 || math.Abs(ex[1]-0.1) > 1e-9 {
		t.Errorf("explained %v, want 0.9, 0.1", ex)
	}
	var m0, m1, v0, v1, c01 float64
	for _, r := range z {
		m0, m1 = m0+r[0]/400, m1+r[1]/400
		v0, v1, c01 = v0+r[0]*r[0]/400, v1+r[1]*r[1]/400, c01+r[0]*r[1]/400
	}
	if math.Abs(m0) > 1e-12 || math.Abs(m1) > 1e-12 || math.Abs(v0-1) > 1e-9 || math.Abs(v1-1) > 1e-9 || math.Abs(c01) > 1e-9 {
		t.Errorf("scores: means %v %v, variances %v %v, covariance %v", m0, m1, v0, v1, c01)
	}
	if math.Abs(zt[0][0]-z[0][0]) > 1e-12 {
		t.Errorf("test rows projected differently: %v, %v", zt[0], z[0])
	}
	if _, _, _, err := datasets.PrincipalComponents(train, nil, 3); err == nil {
		t.Error("a component of zero variance was accepted")
	}
}
