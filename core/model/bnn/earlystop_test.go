package bnn

import (
	"math"
	"math/rand/v2"
	"testing"
)

func sineProblem(r *rand.Rand, n, hidden int) *Problem {
	x := make([][]float64, n)
	t := make([]float64, n)
	for i := range x {
		v := r.Float64()
		x[i] = []float64{v}
		t[i] = 0.5 + 0.4*math.Sin(2*math.Pi*v) + 0.05*r.NormFloat64()
	}
	p, err := NewProblem(Arch{In: 1, Hidden: hidden}, x, t)
	if err != nil {
		panic(err)
	}
	return p
}

// Early stopping holds out a fifth of the rows, keeps the weights of the
// smallest validation error (recomputed here), and predicts with the
// validation error as the noise variance.
func TestEarlyStopping(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	p := sineProblem(r, 50, 5)
	fit, err := EarlyStopping(p, EarlyStoppingSettings{}, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(fit.Validation) != 10 {
		t.Fatalf("%d validation rows of 50, want 10", len(fit.Validation))
	}
	seen := map[int]bool{}
	var xv [][]float64
	var tv []float64
	for _, i := range fit.Validation {
		if seen[i] || i < 0 || i >= 50 {
			t.Fatalf("validation rows %v", fit.Validation)
		}
		seen[i] = true
		xv, tv = append(xv, p.X[i]), append(tv, p.T[i])
	}
	mse := 2 * p.ErrorGrad(fit.W, xv, tv, nil, nil) / 10
	if math.Abs(mse-fit.ValidationMSE) > 1e-12 {
		t.Errorf("validation MSE %v, recomputed %v", fit.ValidationMSE, mse)
	}
	if fit.Best < 1 || fit.Best > fit.Iterations || fit.Iterations-fit.Best > 200 {
		t.Errorf("best iteration %d of %d", fit.Best, fit.Iterations)
	}
	if sd := math.Sqrt(fit.ValidationMSE); sd > 0.1 {
		t.Errorf("validation rmse %v on a sine with noise 0.05", sd)
	}
	m, v := fit.Predict([]float64{0.3})
	if m != p.Forward(fit.W, []float64{0.3}, nil) || math.Abs(v-fit.ValidationMSE) > 1e-15 {
		t.Errorf("Predict = %v, %v", m, v)
	}
	for _, s := range []EarlyStoppingSettings{{Validation: 1}, {Validation: -0.1}, {Validation: 0.001}, {Patience: -1}} {
		if _, err := EarlyStopping(p, s, r); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
}
