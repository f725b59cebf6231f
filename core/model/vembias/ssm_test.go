package vembias

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// fig14 and fig15 are the true parameters of T&S Figs 1.4 and 1.5 (L281,
// L315).
var (
	fig14 = Params{Lambda: 0.9, SigmaX2: 0.19, SigmaY2: 0.43, Phi1: 0, Phi2: 0, Norm1: 1, Norm2: 1}
	fig15 = Params{Lambda: 0.9, SigmaX2: 0.19, SigmaY2: 0.3, Phi1: 0, Phi2: math.Pi / 8, Norm1: 1, Norm2: 1}
)

// randomParams draws θ with |λ| < 0.99, variances in [0.01, 3], any
// angles and magnitudes in [0, 2].
func randomParams(r *rand.Rand) Params {
	return Params{
		Lambda: 1.98*r.Float64() - 0.99, SigmaX2: 0.01 + 3*r.Float64(), SigmaY2: 0.01 + 3*r.Float64(),
		Phi1: 2 * math.Pi * r.Float64(), Phi2: 2 * math.Pi * r.Float64(), Norm1: 2 * r.Float64(), Norm2: 2 * r.Float64(),
	}
}

// TestKLOrderings checks KL_MF ≥ KL_FC ≥ 0 and KL_MF ≥ KL_FT ≥ 0 at 2000
// random θ for both readings (L262: q_MF is a subclass of the others).
func TestKLOrderings(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 1))
	for _, obs := range []int{1, 2} {
		m := NewSSM(obs)
		for i := 0; i < 2000; i++ {
			th := randomParams(r)
			mf, fc, ft := m.KL(th, MF), m.KL(th, FC), m.KL(th, FT)
			const eps = 1e-12
			if !(mf >= fc-eps && mf >= ft-eps && fc >= -eps && ft >= -eps) {
				t.Fatalf("obs %d, θ = %v: KL_MF %v, KL_FC %v, KL_FT %v break the orderings", obs, th, mf, fc, ft)
			}
		}
	}
}

// TestKLLimits checks the limits of L267: at λ = 0, KL_MF = KL_FC and
// KL_FT = 0; as σ_y² → ∞, KL_FT → KL_MF and KL_FC → 0.
func TestKLLimits(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 2))
	m := NewSSM(2)
	for i := 0; i < 200; i++ {
		th := randomParams(r).With(Lambda, 0)
		if d := math.Abs(m.KL(th, MF) - m.KL(th, FC)); d > 1e-12 {
			t.Errorf("λ = 0, θ = %v: KL_MF − KL_FC = %v", th, d)
		}
		if ft := m.KL(th, FT); math.Abs(ft) > 1e-12 {
			t.Errorf("λ = 0, θ = %v: KL_FT = %v", th, ft)
		}
		big := randomParams(r).With(SigmaY2, 1e9)
		if fc := m.KL(big, FC); fc > 1e-7 {
			t.Errorf("σ_y² = 1e9: KL_FC = %v, want → 0", fc)
		}
		if d := math.Abs(m.KL(big, FT) - m.KL(big, MF)); d > 1e-7 {
			t.Errorf("σ_y² = 1e9: KL_MF − KL_FT = %v, want → 0", d)
		}
	}
	// Far from the limits the differences are not small, so the checks
	// above can fail.
	if d := m.KL(fig14, MF) - m.KL(fig14, FC); d < 0.1 {
		t.Errorf("at Fig 1.4's θ KL_MF − KL_FC = %v, want a clear gap", d)
	}
}

// TestKLClosedForms checks the printed eqs. (1.36)-(1.39) against the
// corrected eq. (1.35) at random θ, and Appendix A's KL values at Fig
// 1.4's θ (1.059, 0.565, 0.960).
func TestKLClosedForms(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 3))
	m := NewSSM(2)
	for i := 0; i < 500; i++ {
		th := randomParams(r)
		for _, q := range []Approx{MF, FC, FT} {
			a, b := m.KL(th, q), KLClosed(th, q)
			if math.Abs(a-b) > 1e-9*math.Max(1, math.Abs(a)) {
				t.Fatalf("θ = %v, %v: eq. 1.35 gives %v, eqs. 1.36-1.39 %v", th, q, a, b)
			}
		}
	}
	for q, want := range map[Approx]float64{MF: 1.059, FC: 0.565, FT: 0.960} {
		if got := m.KL(fig14, q); math.Abs(got-want) > 1e-3 {
			t.Errorf("KL_%v at Fig 1.4's θ = %.4f, Appendix A %.3f", q, got, want)
		}
	}
}

// TestKLMonteCarlo estimates each KL(q‖p) = ⟨ln q(x) − ln p(x|y)⟩_q from
// 100000 draws of q (means equal, so only the covariances matter) and
// requires the closed form within 4 standard errors of the estimate.
func TestKLMonteCarlo(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 4))
	for _, th := range []Params{fig14, fig15, randomParams(r)} {
		m := NewSSM(2)
		var lam [16]float64
		m.Precision(th, lam[:])
		ll := lam
		numeric.CholFactor(ll[:], 4)
		for _, q := range []Approx{MF, FC, FT} {
			want := m.KL(th, q)
			// q's covariance blockdiag(Λ_bb⁻¹) and its factor.
			var cov [16]float64
			copy(cov[:], m.blk[:])
			cl := cov
			numeric.CholFactor(cl[:], 4)
			const n = 100000
			var s, s2 float64
			var z, x [4]float64
			for i := 0; i < n; i++ {
				for j := range z {
					z[j] = r.NormFloat64()
				}
				for a := 0; a < 4; a++ {
					x[a] = 0
					for b := 0; b <= a; b++ {
						x[a] += cl[a*4+b] * z[b]
					}
				}
				// ln q − ln p = −½zᵀz − ½ln|Σ_q| + ½xᵀΛx − ½ln|Λ⁻¹|.
				var quadP, zz float64
				for a := 0; a < 4; a++ {
					zz += z[a] * z[a]
					for b := 0; b < 4; b++ {
						quadP += x[a] * lam[a*4+b] * x[b]
					}
				}
				d := -0.5*zz - 0.5*numeric.CholLogDet(cl[:], 4) + 0.5*quadP - 0.5*numeric.CholLogDet(ll[:], 4)
				s += d
				s2 += d * d
			}
			mean := s / n
			se := math.Sqrt((s2/n - mean*mean) / n)
			if math.Abs(mean-want) > 4*se {
				t.Errorf("θ = %v, %v: closed form %.5f, Monte Carlo %.5f ± %.5f (standard error)", th, q, want, mean, se)
			}
			m.KL(th, q) // refresh the scratch for the next scheme
		}
	}
}

// TestGradient checks SSM.Gradient against central differences for every
// scheme and parameter.
func TestGradient(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 5))
	all := []Param{Lambda, SigmaX2, SigmaY2, Phi1, Phi2, Norm1, Norm2}
	for _, obs := range []int{1, 2} {
		m := NewSSM(obs)
		for i := 0; i < 20; i++ {
			th := randomParams(r)
			truth := randomParams(r)
			S := make([]float64, 4*obs*obs)
			m.Sigma(truth, S)
			g := make([]float64, len(all))
			for _, q := range Approxes {
				m.Gradient(th, S, q, all, g)
				for j, p := range all {
					h := 1e-6 * math.Max(1, math.Abs(th[p]))
					fd := (m.Objective(th.With(p, th[p]+h), S, q) - m.Objective(th.With(p, th[p]-h), S, q)) / (2 * h)
					if math.Abs(fd-g[j]) > 1e-5*math.Max(1, math.Abs(fd)) {
						t.Errorf("obs %d, %v, ∂/∂%v at %v: analytic %v, differences %v", obs, q, p, th, g[j], fd)
					}
				}
			}
		}
	}
}

// TestVEMBound checks that vEM's free energy after an E step equals the
// scheme's closed-form objective (eq. 1.5: ln p(y|θ) − KL), and that vb.Run
// finds no decrease of F from a poor start.
func TestVEMBound(t *testing.T) {
	for _, q := range Approxes {
		for _, p := range []Param{Lambda, SigmaY2, Phi2, Norm2} {
			pr := &Problem{Obs: 2, Truth: fig15, Approx: q, Free: []Param{p}}
			start := fig15[p] * 0.7
			v, err := NewVEM(pr, []float64{start})
			if err != nil {
				t.Fatal(err)
			}
			b, err := v.E()
			if err != nil {
				t.Fatal(err)
			}
			want := NewSSM(2).Objective(fig15.With(p, start), pr.S, q)
			if math.Abs(b.F-want) > 1e-10*math.Max(1, math.Abs(want)) {
				t.Errorf("%v, %v: F after the E step %v, closed form %v", q, p, b.F, want)
			}
			res := vb.Run(v, vb.Settings{MaxIterations: 200, Converger: vb.FixedIterations{}})
			if res.Status == vb.BoundDecreased || res.Status == vb.Failed {
				t.Errorf("%v, %v: %v", q, p, res.Error())
			}
		}
	}
}
