package vembias

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/lds"
	vm "github.com/vbworkbench/vbw/core/model/vembias"
	"github.com/vbworkbench/vbw/experiments/exptest"
)

// TestSingleQuick checks the quick run of Figs 1.4-1.5: Appendix A's
// optima, the paper's orderings that hold, the optimisers' agreement, and
// the metric names that later checks rely on (issue 23).
func TestSingleQuick(t *testing.T) {
	r := exptest.Quick(t, configPath("single.toml"))
	exptest.MustPass(t, r.Summary, "appendix-a-fig1.4a-mf", "appendix-a-fig1.4a-fc", "appendix-a-fig1.4b-fc", "appendix-a-fig1.4b-ft",
		"appendix-a-fig1.5a-ft", "appendix-a-fig1.5b-mf", "appendix-a-fig1.5b-ft", "appendix-a-kl-mf",
		"fig1.4a-all-under", "fig1.4a-fc-least-biased", "fig1.5b-fc-prunes", "optimiser-agreement", "f-monotone", "ml-consistent")
	for _, q := range vm.Approxes {
		for _, p := range []string{"lambda_hat_", "sigma_y2_hat_", "phi2_hat_", "w2_norm_hat_"} {
			if _, ok := r.Summary.Metrics[p+q.String()]; !ok {
				t.Errorf("metric %s%s missing", p, q)
			}
		}
	}
	if _, ok := r.Summary.Metrics["optimiser_max_disagreement"]; !ok {
		t.Error("metric optimiser_max_disagreement missing")
	}
}

// TestBridgeQuick checks the quick bridge run: its metric names, F below
// the exact evidence, and the box of the quadrature.
func TestBridgeQuick(t *testing.T) {
	r := exptest.Quick(t, configPath("bridge.toml"))
	exptest.MustPass(t, r.Summary, "bridge-f-bound", "bridge-quadrature-error", "bridge-is-agrees", "bridge-is-mean-agrees", "f-monotone")
	for _, name := range []string{"bridge_bias_A_l0.5_T10", "bridge_var_ratio_l0.99_T100", "bridge_bias_A_l0.9_T100"} {
		if _, ok := r.Summary.Metrics[name]; !ok {
			t.Errorf("metric %s missing", name)
		}
	}
}

// TestBridgeLikelihood checks the scalar Kalman filter of the bridge's
// quadrature against core/model/lds's filter (Params.LogLikelihood) on a
// series drawn from the model.
func TestBridgeLikelihood(t *testing.T) {
	rnd := rand.New(rand.NewPCG(23, 11))
	for _, th := range [][3]float64{{0.9, 1, 1}, {0.3, -2, 4}, {1.1, 0.5, 0.3}} {
		par := &lds.Params{A: mat.NewDense(1, 1, []float64{th[0]}), C: mat.NewDense(1, 1, []float64{th[1]}), Rho: []float64{th[2]},
			Sigma0: mat.NewSymDense(1, []float64{1.7})}
		seq, _ := lds.Simulate(rnd, par, 50, nil)
		want, err := par.LogLikelihood([]lds.Sequence{seq})
		if err != nil {
			t.Fatal(err)
		}
		y := make([]float64, 50)
		mat.Col(y, 0, seq.Y)
		if got := vm.LDS1LogLik(y, th[0], th[1], th[2], 1.7); math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("θ = %v: scalar filter %v, lds %v", th, got, want)
		}
	}
}

// TestMapsQuick checks the quick maps run's optimiser agreement and the
// orderings the paper states for λ.
func TestMapsQuick(t *testing.T) {
	r := exptest.Quick(t, configPath("maps.toml"))
	exptest.MustPass(t, r.Summary, "fig1.6a-lambda-under", "fig1.6a-fc-least-biased", "fig1.6b-fc-over", "fig1.7a-ft-least", "ml-consistent", "optimiser-agreement", "f-monotone")
}

// TestEntropyOrder: a tie is a difference within H[p]'s quadrature error
// estimate and 8 ulps of rounding; beyond it the sign decides. (The values
// of the first case are the exact bottom-left panel of Fig 1.2 as the
// trapezoid rule once gave them, 2.7·10⁻¹⁵ apart: 12 ulps of 1.42, within
// an error estimate of 10⁻¹⁴.)
func TestEntropyOrder(t *testing.T) {
	for _, c := range []struct {
		hq, hp, hpErr float64
		want          int
	}{
		{1.4189385332046727, 1.41893853320467, 1e-14, 0},
		{1.4189385332046727, 1.41893853320467, 0, 1},
		{1.4189385332046727 + 1e-9, 1.4189385332046727, 1e-13, 1},
		{1.4189385332046727 - 1e-9, 1.4189385332046727, 1e-13, -1},
		{1.0 + 0x1p-50, 1, 0, 0},
		{2, 1, 0.5, 1},
		{1.2, 1, 0.5, 0},
	} {
		if got := entropyOrder(c.hq, c.hp, c.hpErr); got != c.want {
			t.Errorf("entropyOrder(%.17g, %.17g, %g) = %d, want %d", c.hq, c.hp, c.hpErr, got, c.want)
		}
	}
}
