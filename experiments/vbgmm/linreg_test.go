package vbgmm

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/linreg"
	"github.com/vbworkbench/vbw/experiments/exptest"
)

// The quick run writes its tables and both figures, the metrics that later
// checks read, and passes the checks that hold by theorem: no VB run ends
// abnormally, no bound exceeds the exact evidence, the quadrature meets
// its tolerance.
func TestLinregQuick(t *testing.T) {
	q := exptest.Quick(t, configPath("linreg.toml"))
	for _, f := range []string{"linreg_orders.csv", "dsouza.csv", "linreg_data.csv", "fig10_9.svg", "fig10_9.png", "dsouza_fig1_2.svg", "dsouza_fig1_2.png", "scorecard.md"} {
		if _, err := os.Stat(filepath.Join(q.Dir, f)); err != nil {
			t.Error(err)
		}
	}
	exptest.MustPass(t, q.Summary, "f-monotone", "fig10.9-bound-le-exact", "fig10.9-quadrature", "dsouza-fig1.2-mse-picks-largest")
	exptest.Checks(t, q.Summary, "fig10.9-true-order-bound", "fig10.9-true-order-exact", "dsouza-fig1.2-evidence-picks-true", "dsouza-fig1.2-loo-picks-true")
	for _, k := range []string{"linreg_true_order_rate_bound", "linreg_true_order_rate_exact"} {
		if v, ok := q.Summary.Metrics[k]; !ok || v < 0 || v > 1 {
			t.Errorf("metric %s = %v, %v: want a fraction", k, v, ok)
		}
	}
	if v, ok := q.Summary.Metrics["linreg_max_bound_minus_exact"]; !ok || !(v <= 0) {
		t.Errorf("linreg_max_bound_minus_exact = %v, %v: want <= 0", v, ok)
	}
}

func TestLinregConfigs(t *testing.T) {
	exptest.CheckConfigsLoad(t, configPath(""), 1)
	exptest.CheckConfigEdits(t, configPath(""), []exptest.ConfigEdit{
		{"linreg.toml", "a0     = 1e-3", "a0 = 0.0", "prior.a0"},
		{"linreg.toml", "[prior]\na0", "a0", `unknown key "model.a0": renamed to "prior.a0"`},
		{"linreg.toml", "orders = [0, 1, 2, 3, 4, 5, 6, 7, 8]", "orders = [0, 1, 2]", "model.orders"},
		{"linreg.toml", "interval       = [-5.0, 5.0]", "interval = [5.0, -5.0]", "data.interval"},
		{"linreg.toml", `inputs         = "uniform"`, `inputs = "random"`, "data.inputs"},
		{"linreg.toml", "true_order   = 2", "true_order = 1", "dsouza.true_order"},
		{"linreg.toml", "noise_variance = 0.09", "noise_variance = -1.0", "data.noise_variance"},
		{"linreg.toml", "coefficients   = [1.0, -1.0, -0.3, 0.1]", "coefficients = [1.0, 0.0]", "data.coefficients"},
	})
}

// TestMSELOOHat checks the leave-one-out errors of the N refits against
// the identity of least squares: the held-out residual of datum i is
// e_i/(1 − h_ii), e the residual of the full fit and h the hat matrix
// Φ(ΦᵀΦ)⁻¹Φᵀ.
func TestMSELOOHat(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	d := DefaultLinreg().Data
	for _, order := range []int{1, 2, 6} {
		x, tt := drawPolynomial(d, []float64{1, -1, -0.3}, rnd)
		mse, loo, err := mseLOO(x, tt, order)
		if err != nil {
			t.Fatal(err)
		}
		// H = QQᵀ with Φ = QR (the thin Q), stable where (ΦᵀΦ)⁻¹ of
		// condition 10¹³ at order 6 would not be.
		phi := linreg.Polynomial(x, order)
		var qr mat.QR
		qr.Factorize(phi)
		var q, h mat.Dense
		qr.QTo(&q)
		qt := q.Slice(0, len(x), 0, order+1)
		h.Mul(qt, qt.T())
		w, err := leastSquares(x, tt, order)
		if err != nil {
			t.Fatal(err)
		}
		var wantMSE, wantLOO float64
		n := float64(len(x))
		for i := range x {
			e := tt[i] - polyval(w, x[i])
			wantMSE += e * e / n
			r := e / (1 - h.At(i, i))
			wantLOO += r * r / n
		}
		if math.Abs(mse-wantMSE) > 1e-10*wantMSE || math.Abs(loo-wantLOO) > 1e-6*wantLOO {
			t.Errorf("order %d: MSE %.10g, LOO %.10g; by the hat matrix %.10g, %.10g", order, mse, loo, wantMSE, wantLOO)
		}
	}
}

// TestLinregCellDeterministic: a cell computes the same numbers whenever it
// runs (its streams are named by the data set, not the worker).
func TestLinregCellDeterministic(t *testing.T) {
	c := DefaultLinreg()
	c.Model.Orders = []int{2, 3, 4}
	stop := func() error { return nil }
	a, err := c.runLinregCell(7, stop)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.runLinregCell(7, stop)
	if err != nil {
		t.Fatal(err)
	}
	a.Seconds, b.Seconds = 0, 0
	if !reflect.DeepEqual(a, b) {
		t.Error("the same cell gave different results")
	}
	if o, err := c.runLinregCell(8, stop); err != nil || reflect.DeepEqual(o.X, a.X) {
		t.Errorf("data sets 7 and 8 drew the same inputs (err %v)", err)
	}
}

// TestFig10_9Zoom: the zoomed panel of fig10_9 holds every order from the
// peak up, order 8 included (data set 0 of the full run: F by order), and
// names the orders it leaves below; the panel of every order shows those.
func TestFig10_9Zoom(t *testing.T) {
	x := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8}
	f := []float64{-1159.10, -722.22, -112.26, -21.43, -26.89, -32.58, -39.02, -44.43, -51.34}
	e := []float64{-1159.10, -722.21, -112.25, -21.41, -26.85, -32.52, -38.84, -44.25, -51.10}
	lo, hi, below, ok := fig10_9Zoom(x, f, e)
	if !ok || !(lo < -51.34 && hi > -21.41) {
		t.Errorf("zoom [%v, %v] does not hold the orders 3-8 (−51.34 … −21.41)", lo, hi)
	}
	if !(lo > -112.25) {
		t.Errorf("zoom [%v, %v] reaches order 2 (−112.25): not a zoom", lo, hi)
	}
	if !slices.Equal(below, []int{0, 1, 2}) {
		t.Errorf("below the zoom: %v, want [0 1 2]", below)
	}
	nan := math.NaN()
	if _, _, _, ok := fig10_9Zoom(x[:2], []float64{nan, nan}, []float64{nan, nan}); ok {
		t.Error("no finite value: a zoom")
	}
}
