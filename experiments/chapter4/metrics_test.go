package chapter4

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestKMeansSeparatedClusters(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	centres := [][]float64{{0, 0}, {10, 0}, {0, 10}}
	var rows []float64
	var truth []int
	for c, m := range centres {
		for range 50 {
			rows = append(rows, m[0]+rnd.NormFloat64(), m[1]+rnd.NormFloat64())
			truth = append(truth, c)
		}
	}
	x := mat.NewDense(len(truth), 2, rows)
	// Started at one point of each cluster, it recovers the clusters.
	init := mat.NewDense(3, 2, []float64{rows[0], rows[1], rows[100], rows[101], rows[200], rows[201]})
	res := KMeans{}.Fit(x, init)
	if !res.Converged || AdjustedRand(truth, res.Assign) != 1 {
		t.Fatalf("converged %v after %d, ARI %v", res.Converged, res.Iterations, AdjustedRand(truth, res.Assign))
	}
	for j, m := range centres {
		c := res.Centroids.RawRowView(j)
		if math.Hypot(c[0]-m[0], c[1]-m[1]) > 0.5 {
			t.Errorf("centroid %d at %v, want near %v", j, c, m)
		}
	}
	if p := res.Predict(x); AdjustedRand(p, res.Assign) != 1 {
		t.Error("Predict disagrees with the training assignment")
	}
	// The init is not modified.
	if init.At(0, 0) != rows[0] {
		t.Error("k-means changed its init")
	}
}

func TestAdjustedRand(t *testing.T) {
	a := []int{0, 0, 0, 1, 1, 1, 2, 2, 2}
	if got := AdjustedRand(a, []int{5, 5, 5, 7, 7, 7, 9, 9, 9}); got != 1 {
		t.Errorf("relabelled partition: ARI %v, want 1", got)
	}
	// A known value (Hubert and Arabie's formula by hand): contingency
	// [[2,1],[0,3]] for a = {0,0,0,1,1,1}, b = {0,0,1,1,1,1}: Σ C(n_ij,2) = 1+0+0+3 = 4,
	// Σ C(a_i,2) = 3+3 = 6, Σ C(b_j,2) = 1+6 = 7, C(6,2) = 15, expected 42/15 = 2.8,
	// max 6.5: ARI = (4−2.8)/(6.5−2.8) = 0.32432…
	if got, want := AdjustedRand([]int{0, 0, 0, 1, 1, 1}, []int{0, 0, 1, 1, 1, 1}), 1.2/3.7; math.Abs(got-want) > 1e-12 {
		t.Errorf("ARI %v, want %v", got, want)
	}
	// Independent random partitions: ARI near 0.
	rnd := rand.New(rand.NewPCG(3, 4))
	x, y := make([]int, 5000), make([]int, 5000)
	for i := range x {
		x[i], y[i] = rnd.IntN(5), rnd.IntN(5)
	}
	if got := AdjustedRand(x, y); math.Abs(got) > 0.01 {
		t.Errorf("independent partitions: ARI %v, want about 0", got)
	}
}

func TestMajorityAndConfusion(t *testing.T) {
	labels := []int{0, 0, 1, 1, 1, 2}
	w := [][]float64{{0.9, 0.1, 0}, {0.8, 0.2, 0}, {0.1, 0.9, 0}, {0, 1, 0}, {0.6, 0.4, 0}, {0, 1, 0}}
	cls := MajorityClasses(w, labels, 3)
	if cls[0] != 0 || cls[1] != 1 || cls[2] != -1 {
		t.Fatalf("classes %v, want [0 1 -1]", cls)
	}
	pred := []int{0, 0, 1, 1, 0, 1}
	m, acc := Confusion(labels, pred, 3)
	if acc != 4.0/6 || m[1][0] != 1 || m[2][1] != 1 || m[0][0] != 2 {
		t.Fatalf("confusion %v accuracy %v", m, acc)
	}
	hw := HardWeights([]int{2, 0}, 3)
	if hw[0][2] != 1 || hw[1][0] != 1 || hw[0][0] != 0 {
		t.Fatalf("hard weights %v", hw)
	}
}
