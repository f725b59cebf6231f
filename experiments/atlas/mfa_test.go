package atlas

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments/config"
)

// testMFA returns the target, the gold standard and the converged VB of
// data set i of c.
func testMFA(t *testing.T, c MFAConfig, i int) (*mfa.Annealed, mfa.QuadResult, *mfa.VB, float64) {
	t.Helper()
	y := c.mfaDataSet(i)
	a, err := mfa.NewAnnealed(y, mfaK, c.hyper())
	if err != nil {
		t.Fatal(err)
	}
	q, err := a.LogEvidenceQuad(mfa.QuadSettings{Margin: c.Gold.Margin, Step: c.Gold.Step, Bulk: c.Gold.Bulk})
	if err != nil {
		t.Fatal(err)
	}
	m, err := mfaNewVB(y, c.hyper())
	if err != nil {
		t.Fatal(err)
	}
	res := vb.Run(m, config.FixedBudget(200).Settings(nil, m))
	if err := res.Error(); err != nil {
		t.Fatal(err)
	}
	return a, q, m, res.F
}

// The gold standard ln p(y) = ln ∫ p(Λ) p(y|Λ) dΛ of the row's first data
// set (n = 20, λ = (1, 0.8)) against an independent rule: the midpoint rule
// on a 1000 × 1000 grid of [−5, 5]² (the posterior's modes ±(0.66, 0.65)
// have standard deviations about 0.16, so the rule is exact to far below
// 10⁻⁶ and the box holds all but e⁻⁴⁰ of the mass); and the moments E[ΛΛᵀ|y]
// on the same grid.
func TestMFAGoldAgainstGrid(t *testing.T) {
	c := DefaultMFA()
	a, q, _, _ := testMFA(t, c, 0)
	const half, m = 5.0, 1000
	h := 2 * half / m
	x := make([]float64, 2)
	var z, s00, s01, s11 float64
	for i := range m {
		x[0] = -half + (float64(i)+0.5)*h
		for j := range m {
			x[1] = -half + (float64(j)+0.5)*h
			w := math.Exp(a.LogProb(x) - q.LogPeak)
			z += w
			s00, s01, s11 = s00+w*x[0]*x[0], s01+w*x[0]*x[1], s11+w*x[1]*x[1]
		}
	}
	lnZ := q.LogPeak + math.Log(z*h*h)
	if math.Abs(lnZ-q.LnZ) > 1e-6 {
		t.Errorf("quadrature ln p(y) = %.10f, midpoint grid %.10f", q.LnZ, lnZ)
	}
	for j, v := range []float64{s00 / z, s01 / z, s01 / z, s11 / z} {
		if math.Abs(v-q.Second[j]) > 1e-6 {
			t.Errorf("E[ΛΛᵀ|y] entry %d: quadrature %.9f, grid %.9f", j, q.Second[j], v)
		}
	}
}

// VB's F (eq. (4.29) at S = 1) is below the gold standard on four data sets
// (two sizes × two loadings), and the run leaves the fixed hyperparameters
// (Ψ among them) where they were, so F bounds the same ln p(y | Ψ, a*, b*,
// μ*, ν*) the quadrature computes.
func TestMFAVBBound(t *testing.T) {
	c := DefaultMFA()
	c.N, c.Lambda = []int{20, 50}, []float64{1, 0.8, 0.4, -0.3}
	for i := range c.mfaSets() {
		_, q, m, f := testMFA(t, c, i)
		if f > q.LnZ+3*q.ErrEst+1e-9 {
			t.Errorf("%s: F = %.6f above ln p(y) = %.6f", c.mfaName(i), f, q.LnZ)
		}
		if !slices.Equal(m.Hyper.Psi, c.Prior.Psi) || m.Hyper.A != c.Prior.A || m.Hyper.B != c.Prior.B ||
			!slices.Equal(m.Hyper.Mu, c.Prior.Mu) || !slices.Equal(m.Hyper.Nu, c.Prior.Nu) {
			t.Errorf("%s: VB moved the fixed hyperparameters to %+v", c.mfaName(i), m.Hyper)
		}
	}
}

// Laplace's ln Z covers one of the two mirrored modes: with n = 2000 points
// of a strong loading the modes are far apart and nearly Gaussian, and
// Laplace + ln 2 is within 10⁻² nats of the quadrature while Laplace alone
// is ln 2 short (the row's statement of the + ln 2).
func TestMFALaplaceMirror(t *testing.T) {
	c := DefaultMFA()
	c.N, c.Lambda = []int{2000}, []float64{1, 0.8}
	a, q, m, _ := testMFA(t, c, 0)
	mean, _ := vbQ(m.ISPosterior())
	lap, err := mfaLaplace(a, mean)
	if err != nil {
		t.Fatal(err)
	}
	if e := lap.LnZ + math.Ln2 - q.LnZ; math.Abs(e) > 1e-2 {
		t.Errorf("Laplace + ln 2 = %.6f, quadrature %.6f (error %.2g)", lap.LnZ+math.Ln2, q.LnZ, e)
	}
}

// The mirrored proposal is even in Λ and a density: ∫ g dΛ = 1 by the
// midpoint rule on [−4, 4]² (defensive 0: the Student-t prior's tails
// reach past any small box); with mirror off it is one Gaussian, not even.
func TestMFAProposal(t *testing.T) {
	c := DefaultMFA()
	a, _, m, _ := testMFA(t, c, 0)
	mean, cov := vbQ(m.ISPosterior())
	c.IS.Defensive = 0
	prop, _, err := c.mfaProposal(a, mean, cov)
	if err != nil {
		t.Fatal(err)
	}
	const half, n = 4.0, 800
	h := 2 * half / n
	x, neg := make([]float64, 2), make([]float64, 2)
	var sum float64
	for i := range n {
		x[0] = -half + (float64(i)+0.5)*h
		for j := range n {
			x[1] = -half + (float64(j)+0.5)*h
			lp := prop.LogProb(x)
			sum += math.Exp(lp)
			neg[0], neg[1] = -x[0], -x[1]
			if d := prop.LogProb(neg) - lp; math.Abs(d) > 1e-9 {
				t.Fatalf("g(−Λ) / g(Λ) = e^%g at %v", d, x)
			}
		}
	}
	if s := sum * h * h; math.Abs(s-1) > 1e-6 {
		t.Errorf("∫ g dΛ = %.9f, want 1", s)
	}
	c.IS.Mirror = false
	one, _, _ := c.mfaProposal(a, mean, cov)
	if d := one.LogProb(mean) - one.LogProb([]float64{-mean[0], -mean[1]}); d < 1 {
		t.Errorf("unmirrored q: ln q(m) − ln q(−m) = %g, want large", d)
	}
}

// gaussProd's E[Λ_qΛ_t] and Var[Λ_qΛ_t] (Isserlis) against 4·10⁵ draws of
// a correlated Gaussian with a non-zero mean, within 5 Monte Carlo standard
// errors.
func TestMFAGaussProd(t *testing.T) {
	m := []float64{0.7, -0.4}
	s := []float64{0.3, 0.12, 0.12, 0.2}
	second, prodVar := gaussProd(m, s)
	l00 := math.Sqrt(s[0])
	l10 := s[1] / l00
	l11 := math.Sqrt(s[3] - l10*l10)
	rnd := rand.New(rand.NewPCG(36, 4))
	const draws = 400000
	var vals [4][]float64
	for range draws {
		z0, z1 := rnd.NormFloat64(), rnd.NormFloat64()
		x := [2]float64{m[0] + l00*z0, m[1] + l10*z0 + l11*z1}
		for q := range 2 {
			for u := range 2 {
				vals[q*2+u] = append(vals[q*2+u], x[q]*x[u])
			}
		}
	}
	for j, v := range vals {
		var mean float64
		for _, e := range v {
			mean += e
		}
		mean /= draws
		var m2, m4 float64
		for _, e := range v {
			d := (e - mean) * (e - mean)
			m2, m4 = m2+d, m4+d*d
		}
		m2, m4 = m2/draws, m4/draws
		if se := math.Sqrt(m2 / draws); math.Abs(mean-second[j]) > 5*se {
			t.Errorf("E[ΛΛᵀ] entry %d = %.5f, Monte Carlo %.5f ± %.5f", j, second[j], mean, se)
		}
		// The sample variance's standard error, √((m₄ − m₂²)/n).
		if se := math.Sqrt((m4 - m2*m2) / draws); math.Abs(m2-prodVar[j]) > 5*se {
			t.Errorf("Var entry %d = %.5f, Monte Carlo %.5f ± %.5f", j, prodVar[j], m2, se)
		}
	}
}

// A lambda whose length is not a multiple of p is refused, naming the key.
func TestMFAValidate(t *testing.T) {
	c := DefaultMFA()
	c.Lambda = []float64{1, 0.8, 0.3}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "lambda") {
		t.Errorf("lambda of length 3: error %v", err)
	}
}
