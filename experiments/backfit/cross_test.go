package backfit

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
)

// TestHaarOrthogonal checks QᵀQ = I and that the same stream gives the same Q.
func TestHaarOrthogonal(t *testing.T) {
	const d = 15
	q := haarOrthogonal(d, rand.New(rand.NewPCG(1, 2)))
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			var s float64
			for a := 0; a < d; a++ {
				s += q[a*d+i] * q[a*d+j]
			}
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(s-want) > 1e-12 {
				t.Fatalf("(QᵀQ)_%d%d = %v", i, j, s)
			}
		}
	}
	if r := haarOrthogonal(d, rand.New(rand.NewPCG(1, 2))); r[7] != q[7] {
		t.Error("not deterministic")
	}
}

// TestCrossFunction checks the cross function at points where one term is
// the maximum: the centre (the peak), the two ridges and the diagonal,
// where the peak's term wins with peak = 1.25 but not with 1.
func TestCrossFunction(t *testing.T) {
	for _, c := range []struct{ x1, x2, peak, want float64 }{
		{0, 0, 1.25, 1.25},
		{0, 0, 1, 1},
		{0, 0.5, 1.25, 1},
		{0.5, 0, 1.25, 1},
		{0.5, 0.5, 1.25, 1.25 * math.Exp(-2.5)},
		{0.5, 0.5, 1, math.Exp(-2.5)},
		{0.3, 0.2, 1, math.Exp(-5 * 0.13)}, // |x₂| < |x₁| < 3|x₂|: the third term, even at peak 1
	} {
		if got := crossFunction(c.x1, c.x2, c.peak); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("cross(%v, %v; peak %v) = %v, want %v", c.x1, c.x2, c.peak, got, c.want)
		}
	}
}

// TestCrossPrior checks that the prior's W₀ satisfies W₀⁻¹ = ν₀·w0_scale·Σ_data
// and that m₀ is the data mean.
func TestCrossPrior(t *testing.T) {
	c := DefaultCross()
	c.Dim, c.Prior.W0Scale = 4, 0.5
	q := haarOrthogonal(c.Dim, rand.New(rand.NewPCG(3, 3)))
	u, _, _ := c.draw(300, q, true, rand.New(rand.NewPCG(4, 4)))
	p, err := c.prior(u)
	if err != nil {
		t.Fatal(err)
	}
	d, n := c.Dim, 300
	cov := make([]float64, d*d)
	for a := 0; a < d; a++ {
		for b := 0; b < d; b++ {
			for i := 0; i < n; i++ {
				cov[a*d+b] += (u[i*d+a] - p.M0[a]) * (u[i*d+b] - p.M0[b]) / float64(n)
			}
		}
	}
	for a := 0; a < d; a++ {
		var mean float64
		for i := 0; i < n; i++ {
			mean += u[i*d+a] / float64(n)
		}
		if math.Abs(mean-p.M0[a]) > 1e-14 {
			t.Errorf("m0[%d] = %v, data mean %v", a, p.M0[a], mean)
		}
		for b := 0; b < d; b++ {
			var s float64
			for e := 0; e < d; e++ {
				s += p.W0[a*d+e] * cov[e*d+b] * p.Nu0 * c.Prior.W0Scale
			}
			want := 0.0
			if a == b {
				want = 1
			}
			if math.Abs(s-want) > 1e-9 {
				t.Fatalf("(W₀·ν₀sΣ)_%d%d = %v", a, b, s)
			}
		}
	}
}

// TestCrossQuickRuns checks the quick runs: no run failed, every accepted
// split raised F, the metrics exist and the figure was drawn; the 2-D
// variant grows on every data set.
func TestCrossQuickRuns(t *testing.T) {
	for _, c := range []struct {
		config string
		pass   []string
	}{
		{"cross.toml", []string{"f-monotone", "search-f-rises"}},
		{"cross-peak1.toml", []string{"f-monotone", "search-f-rises"}},
		{"cross-2d.toml", []string{"f-monotone", "search-f-rises", "fig3.4-grows"}},
	} {
		r := exptest.Quick(t, configPath(c.config))
		exptest.MustPass(t, r.Summary, c.pass...)
		for _, m := range []string{"moe_components", "moe_nmse", "moe_nmse_start", "moe_local_margin", "moe_f_grown_minus_fixed"} {
			if v, ok := r.Summary.Metrics[m]; !ok || math.IsNaN(v) {
				t.Errorf("%s: metric %s = %v, %v", c.config, m, v, ok)
			}
		}
		for _, ext := range []string{".svg", ".png"} {
			if _, err := os.Stat(filepath.Join(r.Dir, "dsouza_fig3_4"+ext)); err != nil {
				t.Errorf("%s: %v", c.config, err)
			}
		}
	}
}
