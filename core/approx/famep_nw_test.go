package approx

import (
	"errors"
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
	"gonum.org/v1/gonum/mat"
)

// nwCase is a Normal-Wishart in D = 2 away from any symmetry.
func nwCase(t *testing.T) (*NormalWishart, []float64, []float64, float64, []float64, float64) {
	t.Helper()
	f, err := NewNormalWishart(2)
	if err != nil {
		t.Fatal(err)
	}
	m := []float64{0.3, -1.2}
	winv := []float64{2.0, 0.7, 0.7, 1.5}
	beta, nu := 1.7, 3.4
	eta := make([]float64, f.Dim())
	f.Natural(eta, m, beta, winv, nu)
	return f, eta, m, beta, winv, nu
}

// TestNormalWishartLogPartition checks A(η) against the normaliser of
// N(m, (βΛ)⁻¹) W(W, ν) computed independently: (D/2) ln(2π/β) plus the
// gonum-backed dist.Wishart's ln Z = (νD/2) ln 2 + (ν/2) ln|W| + ln Γ_D(ν/2);
// the two agree to rounding (1e-12), and Params inverts Natural.
func TestNormalWishartLogPartition(t *testing.T) {
	f, eta, m, beta, winv, nu := nwCase(t)
	a, ok := f.LogPartition(eta)
	if !ok {
		t.Fatal("proper member reported improper")
	}
	wi := mat.NewSymDense(2, append([]float64(nil), winv...))
	var ch mat.Cholesky
	ch.Factorize(wi)
	var w mat.SymDense
	if err := ch.InverseTo(&w); err != nil {
		t.Fatal(err)
	}
	wd, ok := dist.NewWishart(nu, &w)
	if !ok {
		t.Fatal("W not positive definite")
	}
	want := math.Log(2*math.Pi/beta) + wd.LogNormalizer()
	if math.Abs(a-want) > 1e-12 {
		t.Errorf("A = %.15g, the normaliser %.15g", a, want)
	}
	gm, gw := make([]float64, 2), make([]float64, 4)
	gb, gn, ok := f.Params(eta, gm, gw)
	if !ok || math.Abs(gb-beta) > 1e-14 || math.Abs(gn-nu) > 1e-14 {
		t.Errorf("Params: β %v ν %v ok %v, want %v %v", gb, gn, ok, beta, nu)
	}
	for i := range gm {
		if math.Abs(gm[i]-m[i]) > 1e-14 {
			t.Errorf("m[%d] = %v, want %v", i, gm[i], m[i])
		}
	}
	for i := range gw {
		if math.Abs(gw[i]-winv[i]) > 1e-13 {
			t.Errorf("W⁻¹[%d] = %v, want %v", i, gw[i], winv[i])
		}
	}
	// Improper: β ≤ 0, ν ≤ D − 1, W⁻¹ not positive definite.
	for _, c := range []struct {
		j int
		v float64
	}{{f.offBeta(), -0.1}, {f.offNu(), -1.01}, {f.offS(), -5}} {
		bad := append([]float64(nil), eta...)
		bad[c.j] = c.v
		if _, ok := f.LogPartition(bad); ok {
			t.Errorf("η[%d] = %v reported proper", c.j, c.v)
		}
	}
}

// TestNormalWishartGradient checks ∇A = E[T] with T = (Λμ, −½μᵀΛμ, −½Λ,
// ½ ln|Λ|) by central differences (step 1e-5: truncation ~h²A‴ ≈ 1e-10,
// rounding ~1e-16·|A|/h ≈ 1e-10; tolerance 1e-7), which checks that the
// layout of η is a natural parameterisation with Moments its mean map.
func TestNormalWishartGradient(t *testing.T) {
	f, eta, _, _, _, _ := nwCase(t)
	mo := NewNWMoments(2)
	if !f.Moments(&mo, eta) {
		t.Fatal("Moments: improper")
	}
	want := make([]float64, f.Dim())
	copy(want, mo.LambdaMu)
	want[f.offBeta()] = -mo.MuLambdaMu / 2
	for i, v := range mo.Lambda {
		want[f.offS()+i] = -v / 2
	}
	want[f.offNu()] = mo.LogDet / 2
	const h = 1e-5
	for j := range eta {
		p, q := append([]float64(nil), eta...), append([]float64(nil), eta...)
		p[j] += h
		q[j] -= h
		ap, _ := f.LogPartition(p)
		aq, _ := f.LogPartition(q)
		if g := (ap - aq) / (2 * h); math.Abs(g-want[j]) > 1e-7 {
			t.Errorf("∂A/∂η[%d] = %.10g, E[T] = %.10g", j, g, want[j])
		}
	}
}

// TestNormalWishartProjection checks FromMoments: the moments of one
// Normal-Wishart give it back (round trip, 1e-9: ν from a Newton solve to
// 1e-14 relative, the rest closed forms), and the projection of a
// two-component mixture has the mixture's four moments (1e-9), each of the
// mixture's components a one-point update of the other (the tilted
// density of a mixture site).
func TestNormalWishartProjection(t *testing.T) {
	f, eta, _, _, _, _ := nwCase(t)
	mo := NewNWMoments(2)
	f.Moments(&mo, eta)
	back := make([]float64, f.Dim())
	if err := f.FromMoments(back, mo); err != nil {
		t.Fatal(err)
	}
	for j := range eta {
		if math.Abs(back[j]-eta[j]) > 1e-9*(1+math.Abs(eta[j])) {
			t.Errorf("round trip η[%d] = %.12g, want %.12g", j, back[j], eta[j])
		}
	}
	upd := make([]float64, f.Dim())
	f.AddPoint(upd, eta, []float64{1.5, 0.4}, 1)
	mu := NewNWMoments(2)
	f.Moments(&mu, upd)
	for _, r := range []float64{0.05, 0.5, 0.93} {
		mix := NewNWMoments(2)
		mix.AddScaled(r, mu)
		mix.AddScaled(1-r, mo)
		if err := f.FromMoments(back, mix); err != nil {
			t.Fatal(err)
		}
		got := NewNWMoments(2)
		f.Moments(&got, back)
		if d := math.Abs(got.LogDet - mix.LogDet); d > 1e-9 {
			t.Errorf("r = %v: E[ln|Λ|] off by %v", r, d)
		}
		if d := math.Abs(got.MuLambdaMu - mix.MuLambdaMu); d > 1e-9 {
			t.Errorf("r = %v: E[μᵀΛμ] off by %v", r, d)
		}
		for i := range got.Lambda {
			if d := math.Abs(got.Lambda[i] - mix.Lambda[i]); d > 1e-9 {
				t.Errorf("r = %v: E[Λ][%d] off by %v", r, i, d)
			}
		}
		for i := range got.LambdaMu {
			if d := math.Abs(got.LambdaMu[i] - mix.LambdaMu[i]); d > 1e-9 {
				t.Errorf("r = %v: E[Λμ][%d] off by %v", r, i, d)
			}
		}
	}
	// Moments no Normal-Wishart has: E[ln|Λ|] ≥ ln|E[Λ]| (Jensen's
	// inequality the wrong way round).
	bad := NewNWMoments(2)
	bad.AddScaled(1, mo)
	bad.LogDet += 10
	if err := f.FromMoments(back, bad); !errors.Is(err, ErrNoProjection) {
		t.Errorf("E[ln|Λ|] above ln|E[Λ]|: err = %v, want ErrNoProjection", err)
	}
}

// TestSolveNWNu checks the ν equation at D = 1, 2, 5 against the ν that
// generated its right side, from ν near D − 1 to 10⁴ (1e-9 relative: at
// ν = 10⁴ the right side, ≈ −D(D+1)/(2ν), is a difference of terms ≈ 10
// whose rounding 1e-15 moves ν by ~1e-11 relative).
func TestSolveNWNu(t *testing.T) {
	for _, d := range []int{1, 2, 5} {
		for _, nu := range []float64{float64(d) - 0.999, float64(d) + 0.5, 30, 1e4} {
			rhs := -float64(d) * math.Log(nu/2)
			for i := 1; i <= d; i++ {
				rhs += numeric.Digamma((nu + 1 - float64(i)) / 2)
			}
			got, ok := solveNWNu(d, rhs)
			if !ok || math.Abs(got-nu) > 1e-9*nu {
				t.Errorf("D = %d, ν = %v: got %v (ok %v)", d, nu, got, ok)
			}
		}
	}
}
