package approx

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
)

// exactTilted returns ln Z, E_t[u] and Var_t[u] of g(u)N(u | mu, s2) by
// adaptive quadrature on mu ± 12σ (ProjectedFactor's fallback) at tol.
func exactTilted(t *testing.T, logG func(float64) float64, mu, s2 float64, tol numeric.QuadTol) (lnZ, mean, vr float64) {
	t.Helper()
	s := math.Sqrt(s2)
	g := Density{LogP: func(x []float64) float64 {
		z := (x[0] - mu) / s
		return logG(x[0]) - 0.5*z*z
	}, Lo: []float64{mu - 12*s}, Hi: []float64{mu + 12*s}}
	ex, err := g.Exact(tol)
	if err != nil {
		t.Fatal(err)
	}
	return ex.LnZ - 0.5*math.Log(2*math.Pi*s2), ex.Mean[0], ex.Cov[0]
}

// TestProjectedTiltedHermite checks ProjectedFactor's tilted moments in
// both of its ways (see ProjectedFactor): logistic factors on cavities of
// standard deviation 0.1 to 4, where the Gauss–Hermite rules agree up to
// variance 1 and not at 4 and 16, and a factor σ(20u + 4) so steep that
// they never agree, against adaptive quadrature at a tolerance a thousand
// times tighter (to 1e-12 relative); where the rules disagree, Tilted must
// give the adaptive quadrature's numbers at Tol bit for bit. It also checks
// the d-dimensional mean and covariance against the one-dimensional
// moments.
func TestProjectedTiltedHermite(t *testing.T) {
	tol := numeric.QuadTol{Rel: 1e-10}
	tight := numeric.QuadTol{Rel: 1e-13, Abs: 1e-16}
	for _, tc := range []struct {
		name  string
		logG  func(float64) float64
		steep bool
	}{
		{"logistic", func(u float64) float64 { return LogSigmoid(u) }, false},
		{"logistic, negative class", func(u float64) float64 { return LogSigmoid(-1.3*u + 0.4) }, false},
		{"steep", func(u float64) float64 { return LogSigmoid(20*u + 4) }, true},
	} {
		for _, cav := range [][2]float64{{0, 0.01}, {0.3, 0.1}, {-1, 0.5}, {2, 1}, {-0.5, 4}, {1, 16}} {
			mu, s2 := cav[0], cav[1]
			f := ProjectedFactor{A: []float64{1}, LogG: tc.logG, Tol: tol}
			lnZ, mean, vr, err := f.moments(mu, s2)
			if err != nil {
				t.Fatal(err)
			}
			_, _, _, byHermite := f.hermiteMoments(mu, s2)
			if want := !tc.steep && s2 <= 1; byHermite != want {
				t.Errorf("%s, cavity %v: by Gauss–Hermite %v, want %v", tc.name, cav, byHermite, want)
			}
			if !byHermite {
				wl, wm, wv := exactTilted(t, tc.logG, mu, s2, tol)
				if lnZ != wl || mean != wm || vr != wv {
					t.Errorf("%s, cavity %v: (%v, %v, %v), want the adaptive quadrature's (%v, %v, %v)", tc.name, cav, lnZ, mean, vr, wl, wm, wv)
				}
			}
			wl, wm, wv := exactTilted(t, tc.logG, mu, s2, tight)
			near(t, tc.name+" ln Z", lnZ, wl, 1e-12)
			near(t, tc.name+" mean", mean, wm, 1e-12*math.Sqrt(s2))
			near(t, tc.name+" variance", vr, wv, 1e-12*wv)
		}
	}

	// Three dimensions: u = aᵀθ with the cavity N(m, V).
	a, m := []float64{0.5, -1, 2}, []float64{0.1, 0.2, -0.3}
	v := []float64{0.5, 0.1, 0, 0.1, 0.4, -0.05, 0, -0.05, 0.3}
	f := ProjectedFactor{A: a, LogG: func(u float64) float64 { return LogSigmoid(u) }, Tol: tol}
	mean, cov := make([]float64, 3), make([]float64, 9)
	lnZ, err := f.Tilted(m, v, mean, cov)
	if err != nil {
		t.Fatal(err)
	}
	va := make([]float64, 3)
	var mu, s2 float64
	for i := range 3 {
		mu += a[i] * m[i]
		for j := range 3 {
			va[i] += v[i*3+j] * a[j]
		}
	}
	for i := range 3 {
		s2 += a[i] * va[i]
	}
	wl, wm, wv := exactTilted(t, f.LogG, mu, s2, tight)
	near(t, "3-D ln Z", lnZ, wl, 1e-12)
	for i := range 3 {
		near(t, "3-D mean", mean[i], m[i]+va[i]*(wm-mu)/s2, 1e-12)
		for j := range 3 {
			near(t, "3-D covariance", cov[i*3+j], v[i*3+j]+va[i]*va[j]*(wv-s2)/(s2*s2), 1e-12)
		}
	}
}

// TestEPSweepNoAlloc checks that an EP sweep over 40 logistic factors does
// not allocate once the cavities are narrow enough for the Gauss–Hermite
// rules (the adaptive quadrature allocates).
func TestEPSweepNoAlloc(t *testing.T) {
	var fs []Factor
	for i := range 40 {
		x := []float64{1, math.Sin(float64(i))}
		s := 1.0
		if i%3 == 0 {
			s = -1
		}
		fs = append(fs, ProjectedFactor{A: x, LogG: func(u float64) float64 { return LogSigmoid(s * u) }, Tol: numeric.QuadTol{Rel: 1e-10}})
	}
	prior := Normal{Mean: []float64{0, 0}, Cov: []float64{1, 0, 0, 1}}
	ep, err := NewEP(prior, fs, EPSettings{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := ep.Sweep(); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(5, func() { _, err = ep.Sweep() }); n != 0 || err != nil {
		t.Errorf("%v allocations per sweep (%v)", n, err)
	}
}
