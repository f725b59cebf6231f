package linreg_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/linreg"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// unitProblem is a problem on inputs uniform on (−1, 1), where the direct
// N × N and M × M forms are well conditioned enough to check the spectral
// ones against.
func unitProblem(t *testing.T, n, order int, seed uint64) (*linreg.Problem, *mat.Dense, []float64) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(seed, 11))
	x, tt := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = -1 + 2*rnd.Float64()
		tt[i] = math.Sin(3*x[i]) + 0.3*rnd.NormFloat64()
	}
	phi := linreg.Polynomial(x, order)
	p, err := linreg.NewProblem(phi, tt, beta)
	if err != nil {
		t.Fatal(err)
	}
	return p, phi, tt
}

// TestLogLikDirect checks ln p(t|α) in the eigenbasis (eq. 3.86) against
// the density of t ~ N(0, β⁻¹I + α⁻¹ΦΦᵀ) (PRML eq. 3.85's integrand
// integrated, a Gaussian in N dimensions), for M < N, M = N and M > N.
func TestLogLikDirect(t *testing.T) {
	for _, c := range []struct{ n, order int }{{10, 0}, {10, 3}, {10, 9}, {6, 8}, {30, 5}} {
		p, phi, tt := unitProblem(t, c.n, c.order, 3)
		for _, alpha := range []float64{1e-3, 0.7, 1e3} {
			cov := mat.NewSymDense(c.n, nil)
			for i := 0; i < c.n; i++ {
				for j := i; j < c.n; j++ {
					v := mat.Dot(phi.RowView(i), phi.RowView(j)) / alpha
					if i == j {
						v += 1 / beta
					}
					cov.SetSym(i, j, v)
				}
			}
			g, ok := dist.NewGaussian(make([]float64, c.n), cov)
			if !ok {
				t.Fatalf("n=%d order=%d alpha=%g: covariance not positive definite", c.n, c.order, alpha)
			}
			want, got := g.LogProb(tt), p.LogLik(alpha)
			if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("n=%d order=%d alpha=%g: LogLik = %.12g, direct %.12g", c.n, c.order, alpha, got, want)
			}
		}
	}
}

// TestMeanCovPredictDirect checks q(w) against the printed forms m_N =
// βS_NΦᵀt, S_N = (E[α]I + βΦᵀΦ)⁻¹ (eqs. 10.100–10.101) and the predictive
// variance 1/β + φᵀS_Nφ (eq. 10.106), and EM's posterior likewise.
func TestMeanCovPredictDirect(t *testing.T) {
	for _, c := range []struct{ n, order int }{{10, 3}, {6, 8}} {
		p, phi, tt := unitProblem(t, c.n, c.order, 5)
		m, _ := fit(t, p, linreg.Prior{A0: 0.5, B0: 0.2})
		ea := m.QAlpha().Mean()
		// The last E step used E[α] before the last M step: recompute q(w).
		if _, err := m.E(); err != nil {
			t.Fatal(err)
		}
		M := c.order + 1
		a := mat.NewSymDense(M, nil)
		a.SymOuterK(beta, phi.T())
		for i := 0; i < M; i++ {
			a.SetSym(i, i, a.At(i, i)+ea)
		}
		var s mat.Dense
		if err := s.Inverse(a); err != nil {
			t.Fatal(err)
		}
		var mean mat.VecDense
		mean.MulVec(phi.T(), mat.NewVecDense(c.n, tt))
		mean.MulVec(&s, &mean)
		mean.ScaleVec(beta, &mean)
		got, cov := m.Mean(), m.Cov()
		for i := 0; i < M; i++ {
			if math.Abs(got[i]-mean.AtVec(i)) > 1e-8*math.Max(1, math.Abs(mean.AtVec(i))) {
				t.Errorf("order %d: m_N[%d] = %.12g, direct %.12g", c.order, i, got[i], mean.AtVec(i))
			}
			for j := 0; j < M; j++ {
				if math.Abs(cov.At(i, j)-s.At(i, j)) > 1e-8*math.Max(1, math.Abs(s.At(i, j))) {
					t.Errorf("order %d: S_N[%d,%d] = %.12g, direct %.12g", c.order, i, j, cov.At(i, j), s.At(i, j))
				}
			}
		}
		f := linreg.Polynomial([]float64{0.37}, c.order).RawRowView(0)
		mu, v := m.Predict(f)
		fv := mat.NewVecDense(M, f)
		wantMu := mat.Dot(fv, &mean)
		wantV := 1/beta + mat.Inner(fv, &s, fv)
		if math.Abs(mu-wantMu) > 1e-8 || math.Abs(v-wantV) > 1e-8*wantV {
			t.Errorf("order %d: Predict = (%.12g, %.12g), direct (%.12g, %.12g)", c.order, mu, v, wantMu, wantV)
		}
		em, err := linreg.NewEM(p, ea, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := em.E(); err != nil {
			t.Fatal(err)
		}
		if emu, ev := em.Predict(f); math.Abs(emu-mu) > 1e-12*math.Max(1, math.Abs(mu)) || math.Abs(ev-v) > 1e-12*v {
			t.Errorf("order %d: EM.Predict at the same α = (%.15g, %.15g), VB (%.15g, %.15g)", c.order, emu, ev, mu, v)
		}
	}
}

// TestLogEvidenceFixedAlpha: a prior Gam(a₀, a₀/α̂) with a₀ = 10⁸ all but
// fixes α at α̂ (its relative spread is 10⁻⁴), so the quadrature must give
// the closed form ln p(t|α̂) of eq. 3.86: the difference is of order
// Var(α)·(ℓ₂ + ℓ₁²)/2 with ℓ₁, ℓ₂ the derivatives of ℓ = ln p(t|α),
// below 10⁻⁶ nats here. The peak is 10⁻⁴ wide in ln α, far narrower than
// the scan's step of 0.25, so this also checks that the refinement of the
// peaks finds it.
func TestLogEvidenceFixedAlpha(t *testing.T) {
	for _, order := range []int{0, 3, 8} {
		p, _, _ := problem(t, 10, order, 2)
		for _, ahat := range []float64{1e-4, 0.05, 30} {
			const a0 = 1e8
			got, est, err := p.LogEvidence(linreg.Prior{A0: a0, B0: a0 / ahat}, linreg.QuadSettings{})
			if err != nil {
				t.Fatal(err)
			}
			want := p.LogLik(ahat)
			if math.Abs(got-want) > 1e-5 || est > 1e-9 {
				t.Errorf("order %d, α̂ = %g: quadrature %.12g (error estimate %.3g), ln p(t|α̂) = %.12g", order, ahat, got, est, want)
			}
		}
	}
}

// TestLogEvidenceLargeResidual: a constant fitted to ten points of the
// cubic 0.1 − 0.3x − x² + x³ on (−5, 5) leaves (β/2)r² near 10⁵ nats
// outside the span of Φ. The quadrature must still meet its tolerance and
// agree with an independent sum: the trapezoid rule at steps of 10⁻³ in
// ln α over the 300 nats around the peak of ln p(t|α) + ln p(α) + ln α,
// taken by log-sum-exp (exact to round-off for an integrand this smooth
// and this far decayed at the ends).
func TestLogEvidenceLargeResidual(t *testing.T) {
	x, tt := draw(10, []float64{0.1, -0.3, -1, 1}, rand.New(rand.NewPCG(7, 10)))
	prior := linreg.Prior{A0: 1e-3, B0: 1e-3}
	for _, order := range []int{0, 1} {
		p, err := linreg.NewProblem(linreg.Polynomial(x, order), tt, beta)
		if err != nil {
			t.Fatal(err)
		}
		got, est, err := p.LogEvidence(prior, linreg.QuadSettings{})
		if err != nil {
			t.Fatalf("order %d: %v", order, err)
		}
		pa := dist.Gamma{Alpha: prior.A0, Beta: prior.B0}
		const h = 1e-3
		var g []float64
		for u := -300.0; u <= 40; u += h {
			a := math.Exp(u)
			g = append(g, p.LogLik(a)+pa.LogProb(a)+u)
		}
		if g[0] > slices.Max(g)-100 || g[len(g)-1] > slices.Max(g)-100 {
			t.Fatalf("order %d: the sum's range does not hold the integrand", order)
		}
		want := numeric.LogSumExp(g) + math.Log(h)
		if math.Abs(got-want) > 1e-8 || est > 1e-9 {
			t.Errorf("order %d: quadrature %.12g (error estimate %.3g), trapezoid sum %.12g", order, got, est, want)
		}
	}
}

// TestLogEvidenceImportance checks the quadrature against an independent
// Monte Carlo estimate: importance sampling of p(t) = E_g[p(t|α)p(α)/g(α)]
// with the defensive proposal g = ½ q̃(α) + ½ p(α), q̃ the VB posterior
// q(α) widened to a quarter of its shape at the same mean. The prior half
// bounds the weights by 2 max_α p(t|α), so their variance is finite and the
// standard error honest; the estimate must lie within 4 standard errors.
func TestLogEvidenceImportance(t *testing.T) {
	for _, prior := range []linreg.Prior{{A0: 1e-3, B0: 1e-3}, {A0: 2, B0: 0.5}} {
		for _, order := range []int{1, 3, 8} {
			p, _, _ := problem(t, 10, order, 4)
			m, _ := fit(t, p, prior)
			qa := m.QAlpha()
			wide := dist.Gamma{Alpha: qa.Alpha / 4, Beta: qa.Beta / 4}
			pa := dist.Gamma{Alpha: prior.A0, Beta: prior.B0}
			rnd := rand.New(rand.NewPCG(uint64(order), 99))
			const n = 200000
			logw := make([]float64, n)
			for i := range logw {
				var a float64
				if i%2 == 0 {
					a = wide.Rand(rnd)
				} else {
					a = pa.Rand(rnd)
				}
				if !(a > 0) {
					logw[i] = math.Inf(-1) // p(t|α) = 0 at α = 0 (α^{M/2})
					continue
				}
				lg := numeric.LogAddExp(wide.LogProb(a), pa.LogProb(a)) - math.Ln2
				logw[i] = p.LogLik(a) + pa.LogProb(a) - lg
			}
			lnZ := numeric.LogSumExp(logw) - math.Log(n)
			var s2 float64
			for _, lw := range logw {
				r := math.Exp(lw - lnZ)
				s2 += (r - 1) * (r - 1)
			}
			se := math.Sqrt(s2/(n-1)) / math.Sqrt(n) // SE of ln Ẑ by the delta method
			exact, _, err := p.LogEvidence(prior, linreg.QuadSettings{})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(lnZ-exact) > 4*se || se > 0.02 {
				t.Errorf("prior %+v, order %d: importance sampling %.6f ± %.4f, quadrature %.6f", prior, order, lnZ, se, exact)
			}
		}
	}
}

// TestBoundBelowEvidence: every bound that VB reports, at every iteration
// of a run, lies below the exact ln p(t) (eq. 10.107; KL(q‖p) ≥ 0), for
// orders 0–8 of Fig. 10.9, 10 and 5 points, three priors and several data
// sets; and the converged gap is positive.
func TestBoundBelowEvidence(t *testing.T) {
	seeds := 8
	if testing.Short() {
		seeds = 3
	}
	for _, prior := range []linreg.Prior{{A0: 1e-3, B0: 1e-3}, {A0: 1, B0: 1}, {A0: 0.1, B0: 10}} {
		for _, n := range []int{10, 5} {
			for seed := range uint64(seeds) {
				for order := 0; order <= 8; order++ {
					p, _, _ := problem(t, n, order, seed)
					exact, est, err := p.LogEvidence(prior, linreg.QuadSettings{})
					if err != nil {
						t.Fatal(err)
					}
					m, err := linreg.NewVB(p, prior, linreg.Settings{InitAlpha: math.Exp(float64(seed) - 4)})
					if err != nil {
						t.Fatal(err)
					}
					var fs []float64
					r := vb.Run(m, vb.Settings{MaxIterations: 100000, RelTol: -1, AbsTol: 1e-10,
						Recorder: func(it vb.Iteration) { fs = append(fs, it.F) }})
					if err := r.Error(); err != nil {
						t.Fatal(err)
					}
					name := fmt.Sprintf("prior %+v, n=%d, seed %d, order %d", prior, n, seed, order)
					for i, f := range fs {
						if f > exact+est {
							t.Errorf("%s: F = %.12g at iteration %d above ln p(t) = %.12g", name, f, i, exact)
						}
					}
					if !(r.F < exact) {
						t.Errorf("%s: converged F = %.12g not below ln p(t) = %.12g", name, r.F, exact)
					}
				}
			}
		}
	}
}

// TestVBLimitIsEM: as a₀ = b₀ → 0, VB's E[α] satisfies the fixed point
// E[α] = M/E[wᵀw] of type-II maximum likelihood by EM (eq. 10.104 against
// eq. 9.63): the two converge to the same α.
func TestVBLimitIsEM(t *testing.T) {
	for _, order := range []int{1, 3, 6} {
		p, _, _ := problem(t, 10, order, 6)
		m, _ := fit(t, p, linreg.Prior{A0: 1e-12, B0: 1e-12})
		em, err := linreg.NewEM(p, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := vb.Run(em, vb.Settings{MaxIterations: 100000, RelTol: -1, AbsTol: 1e-12}); r.Error() != nil {
			t.Fatal(r.Error())
		}
		if got, want := m.QAlpha().Mean(), em.Alpha(); math.Abs(got-want) > 1e-6*want {
			t.Errorf("order %d: VB E[α] = %.10g, ML-EM α = %.10g", order, got, want)
		}
	}
}

// TestProblemErrors checks the one-line refusals.
func TestProblemErrors(t *testing.T) {
	phi := linreg.Polynomial([]float64{1, 2, 3}, 0)
	if _, err := linreg.NewProblem(phi, []float64{1, 2}, 1); err == nil {
		t.Error("2 targets for 3 rows: no error")
	}
	if _, err := linreg.NewProblem(phi, []float64{1, 2, 3}, 0); err == nil {
		t.Error("beta = 0: no error")
	}
	if _, err := linreg.NewProblem(phi, []float64{1, math.NaN(), 3}, 1); err == nil {
		t.Error("NaN target: no error")
	}
	p, err := linreg.NewProblem(phi, []float64{1, 2, 3}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := linreg.NewVB(p, linreg.Prior{}, linreg.Settings{}); err == nil {
		t.Error("a0 = b0 = 0 (improper): no error")
	}
	if _, _, err := p.LogEvidence(linreg.Prior{A0: 0, B0: 1}, linreg.QuadSettings{}); err == nil {
		t.Error("LogEvidence with a0 = 0: no error")
	}
	if _, err := linreg.NewEM(p, 1, &linreg.Prior{A0: 0.1, B0: 1}); err == nil {
		t.Error("MAP with M + 2a0 <= 2: no error")
	}
}
