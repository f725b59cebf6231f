package chapter4

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestSnapshotOneGaussian: one analyser without factors is a Gaussian with
// covariance Ψ about (nearly) the data mean; with factors the expected
// covariance approaches the sample covariance.
func TestSnapshotOneGaussian(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 1))
	n := 400
	y := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		u := rnd.NormFloat64()
		y.SetRow(i, []float64{3 + 2*u + 0.3*rnd.NormFloat64(), -1 + u + 0.3*rnd.NormFloat64()})
	}
	ones := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		ones.Set(i, 0, 1)
	}
	var sample [4]float64
	mean := []float64{mat.Sum(y.ColView(0)) / float64(n), mat.Sum(y.ColView(1)) / float64(n)}
	for i := 0; i < n; i++ {
		a, b := y.At(i, 0)-mean[0], y.At(i, 1)-mean[1]
		sample[0] += a * a / float64(n)
		sample[1] += a * b / float64(n)
		sample[3] += b * b / float64(n)
	}
	m, err := mfa.NewVB(y, ones, mfa.Settings{K: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := vb.Run(m, vb.Settings{MaxIterations: 3000, Hyper: mfa.DefaultSchedule()})
	if err := r.Error(); err != nil {
		t.Fatal(err)
	}
	sn := TakeSnapshot(m, 0, r.Iterations, 1)
	if len(sn.Means) != 1 || math.Abs(sn.Points[0]-float64(n)) > 1e-9 {
		t.Fatalf("snapshot %+v", sn)
	}
	for q := range mean {
		if math.Abs(sn.Means[0][q]-mean[q]) > 0.05 {
			t.Errorf("mean %v, data mean %v", sn.Means[0], mean)
		}
	}
	for _, i := range []int{0, 1, 3} {
		if math.Abs(sn.Covs[0][i]-sample[i]) > 0.1*math.Abs(sample[i])+0.02 {
			t.Errorf("covariance %v, sample %v", sn.Covs[0], sample)
		}
	}
	if sn.Covs[0][1] != sn.Covs[0][2] {
		t.Error("covariance not symmetric")
	}
}
