package supersmooth

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// testData returns n noisy points of D'Souza's test function (L1203-1205) on (0, 1).
func testData(seed uint64, n int) (x, y []float64) {
	rnd := rand.New(rand.NewPCG(seed, 5))
	x, y = make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = rnd.Float64()
		a := 2 * math.Pi * x[i] * x[i] * x[i]
		y[i] = x[i] - math.Pow(math.Sin(a), 3)*math.Cos(a)*math.Exp(math.Pow(x[i], 4)) + 0.1*rnd.NormFloat64()
	}
	return x, y
}

// fitted returns VB at xq after iterations E/M rounds, ending with E.
func fitted(t *testing.T, x, y []float64, xq float64, iterations int) *VB {
	t.Helper()
	m, err := NewVB(x, y, xq, TextPrior(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for it := 0; it < iterations; it++ {
		if _, err := m.E(); err != nil {
			t.Fatal(err)
		}
		if it < iterations-1 {
			m.M()
		}
	}
	return m
}

// TestConvexBound checks the bound of L1164 (in the form of eq. 3.37):
// λ ln u + H₂(λ) ≤ ln(1 + u) for every λ ∈ [0, 1], with equality at
// λ = u/(1 + u) (the tangent of the convex t ↦ ln(1 + eᵗ) at t = ln u).
func TestConvexBound(t *testing.T) {
	for _, u := range []float64{1e-8, 1e-3, 0.1, 1, 3, 100, 1e6} {
		exact := math.Log1p(u)
		opt := u / (1 + u)
		if got := opt*math.Log(u) + binaryEntropy(opt); math.Abs(got-exact) > 1e-12*math.Max(1, exact) {
			t.Errorf("u = %g: bound at its optimum %.17g, want ln(1+u) = %.17g", u, got, exact)
		}
		if got := logistic(math.Log(u)); math.Abs(got-opt) > 1e-15 {
			t.Errorf("u = %g: logistic(ln u) = %g, want u/(1+u) = %g", u, got, opt)
		}
		for k := 0; k <= 100; k++ {
			l := float64(k) / 100
			b := binaryEntropy(l)
			if l > 0 {
				b += l * math.Log(u)
			}
			if b > exact+1e-14*math.Max(1, exact) {
				t.Errorf("u = %g, λ = %g: bound %.17g above ln(1+u) = %.17g", u, l, b, exact)
			}
		}
	}
}

// binaryEntropy returns −λ ln λ − (1 − λ) ln(1 − λ), with 0 ln 0 = 0: the
// direct form M's entropies are checked against.
func binaryEntropy(l float64) float64 {
	h := 0.0
	if l > 0 {
		h -= l * math.Log(l)
	}
	if l < 1 {
		h -= (1 - l) * math.Log1p(-l)
	}
	return h
}

// logistic returns 1/(1 + e^{−t}) directly.
func logistic(t float64) float64 { return 1 / (1 + math.Exp(-t)) }

// TestMEntropies: M's λ_i and their entropies, from one exp and one log1p,
// equal σ(t_i) and H = λ ln(1 + e^{−t}) + (1 − λ) ln(1 + e^{t}) (each log
// evaluated separately, with 1 − λ = σ(−t), accurate at every t) over t
// from about −30 to 16, and 0 at d_i = 0.
func TestMEntropies(t *testing.T) {
	x := []float64{0.5} // the query itself: d = 0
	for k := -400; k <= 100; k++ {
		x = append(x, 0.5+math.Pow(10, float64(k)/100))
	}
	y := make([]float64, len(x))
	m, err := NewVB(x, y, 0.5, TextPrior(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	lnH := numeric.Digamma(m.ah) - math.Log(m.bh)
	for i, l := range m.lnD {
		want, wantH := 0.0, 0.0
		if t := l + lnH; !math.IsInf(l, -1) {
			want = logistic(t)
			wantH = want*math.Log1p(math.Exp(-t)) + logistic(-t)*math.Log1p(math.Exp(t))
		}
		if math.Abs(m.lam[i]-want) > 1e-15*want || math.Abs(m.hLam[i]-wantH) > 1e-13*math.Max(wantH, 1e-300) {
			t.Errorf("t = %g: λ %.17g, H %.17g; want %.17g, %.17g", l+lnH, m.lam[i], m.hLam[i], want, wantH)
		}
	}
}

// TestUpdatesAreCoordinateMaxima runs the updates of E one at a time,
// and M, and after each perturbs the factor it has just set: each is the
// maximiser of F̃ in its own factor with the others fixed (doc.go), so no
// small move of m, b_τ (q(β, σ²)), of one b_{w,i} (q(w_i)), of a_h, b_h
// (q(h)) or of one λ_i may raise F̃.
func TestUpdatesAreCoordinateMaxima(t *testing.T) {
	x, y := testData(2, 40)
	for _, xq := range []float64{0.2, 0.8} {
		m := fitted(t, x, y, xq, 30)
		m.M()
		var base float64
		check := func(name string, get func() float64, set func(float64)) {
			t.Helper()
			v := get()
			for _, rel := range []float64{-1e-4, 1e-4} {
				set(v * (1 + rel))
				if f := m.bound().F; f > base+1e-12*math.Abs(base) {
					t.Errorf("xq = %g: moving %s by %g raised F̃ from %.12g to %.12g", xq, name, rel, base, f)
				}
			}
			set(v)
		}
		if err := m.updateBeta(); err != nil {
			t.Fatal(err)
		}
		base = m.bound().F
		check("b_tau", func() float64 { return m.bTau }, func(v float64) { m.bTau = v })
		check("m_0", func() float64 { return m.m[0] }, func(v float64) { m.m[0] = v })
		check("m_1", func() float64 { return m.m[1] }, func(v float64) { m.m[1] = v })
		m.updateWeights()
		base = m.bound().F
		for _, i := range []int{0, 17, 39} {
			check("b_w", func() float64 { return m.bw[i] }, func(v float64) { m.bw[i], m.ew[i] = v, m.aw/v })
		}
		if err := m.updateH(); err != nil {
			t.Fatal(err)
		}
		base = m.bound().F
		check("a_h", func() float64 { return m.ah }, func(v float64) { m.ah = v })
		check("b_h", func() float64 { return m.bh }, func(v float64) { m.bh = v })
		m.M()
		base = m.bound().F
		for _, i := range []int{0, 17, 39} {
			check("lambda", func() float64 { return m.lam[i] }, func(v float64) { m.lam[i], m.hLam[i] = v, binaryEntropy(v) })
		}
	}
}

// TestBoundMonteCarlo checks every constant of F̃: the average over
// draws from q of ln p̃(y, w, β, σ², h) − ln q (the joint with the convex
// bound in ln p(w_i | h)) must equal F̃ within 4 standard errors, and the
// same average with the exact ln(1 + h d_i) (the true bound F) may exceed
// it only: F − F̃ is a sum of non-negative terms in every draw.
func TestBoundMonteCarlo(t *testing.T) {
	x, y := testData(3, 30)
	rnd := rand.New(rand.NewPCG(17, 4))
	for _, xq := range []float64{0.3, 0.85} {
		m := fitted(t, x, y, xq, 40)
		fTilde := m.bound().F
		p := m.prior
		const draws = 40000
		qTau := dist.Gamma{Alpha: m.aTau, Beta: m.bTau}
		pTau := dist.Gamma{Alpha: 0.5 * p.N0, Beta: 0.5 * p.N0 * p.Sigma20}
		qh := dist.Gamma{Alpha: m.ah, Beta: m.bh}
		ph := dist.Gamma{Alpha: p.AH0, Beta: p.BH0}
		// Λ = LLᵀ from the factor E left in lam2; β = m + L⁻ᵀz/√τ.
		l := m.lam2
		var sum, sum2 float64
		for s := 0; s < draws; s++ {
			tau := qTau.Rand(rnd)
			z := [2]float64{rnd.NormFloat64(), rnd.NormFloat64()}
			zz := z[0]*z[0] + z[1]*z[1] // τ(β − m)ᵀΛ(β − m)
			numeric.CholSolveVecT(l[:], 2, z[:])
			b0, b1 := m.m[0]+z[0]/math.Sqrt(tau), m.m[1]+z[1]/math.Sqrt(tau)
			h := qh.Rand(rnd)
			lp := pTau.LogProb(tau) + ph.LogProb(h)
			db0, db1 := b0-p.Beta0[0], b1-p.Beta0[1]
			lp += -math.Log(2*math.Pi) - math.Log(p.SigmaBeta0) + math.Log(tau) - 0.5*tau*(db0*db0+db1*db1)/p.SigmaBeta0
			// ln N(β | m, (τΛ)⁻¹) = −ln 2π + ½ ln|τΛ| − ½τ(β − m)ᵀΛ(β − m).
			lq := qTau.LogProb(tau) + qh.LogProb(h) - math.Log(2*math.Pi) + 0.5*(2*math.Log(tau)+m.logDet) - 0.5*zz
			for i := range x {
				qw := dist.Gamma{Alpha: m.aw, Beta: m.bw[i]}
				w := qw.Rand(rnd)
				r := y[i] - b0*m.u[i] - b1
				lp += -0.5*math.Log(2*math.Pi) + 0.5*math.Log(w) + 0.5*math.Log(tau) - 0.5*tau*w*r*r
				bnd := 0.0
				exact := math.Log1p(h * m.d[i])
				if m.d[i] > 0 {
					bnd = m.lam[i]*math.Log(h*m.d[i]) + binaryEntropy(m.lam[i])
				}
				if bnd > exact+1e-12*math.Max(1, exact) {
					t.Fatalf("draw %d, point %d: convex bound %g above ln(1 + h d) = %g", s, i, bnd, exact)
				}
				lp += p.A0*(math.Log(p.S)+bnd) - numeric.LogGamma(p.A0) + (p.A0-1)*math.Log(w) - w*p.S*(1+h*m.d[i])
				lq += qw.LogProb(w)
			}
			v := lp - lq
			sum += v
			sum2 += v * v
		}
		mean := sum / draws
		se := math.Sqrt((sum2/draws - mean*mean) / draws)
		if math.Abs(mean-fTilde) > 4*se {
			t.Errorf("xq = %g: Monte Carlo F̃ %.6g ± %.3g (se), closed form %.6g: %.1f se apart", xq, mean, se, fTilde, math.Abs(mean-fTilde)/se)
		}
		t.Logf("xq = %g: F̃ %.6g, Monte Carlo %.6g ± %.2g", xq, fTilde, mean, se)
	}
}

// TestBoundTightAtPointMassH: with q(h) a near point mass at h* and λ at
// its optimum, the convex bound is tight in expectation: F − F̃ =
// a₀ Σ_i E[ln(1 + h d_i) − λ_i ln(h d_i) − H₂(λ_i)] is of order Var[h],
// computed here by the midpoint rule over ±12 sd of q(h) = Gam(10⁶, ·).
func TestBoundTightAtPointMassH(t *testing.T) {
	x, y := testData(4, 25)
	m := fitted(t, x, y, 0.4, 20)
	hStar := m.ah / m.bh
	m.ah = 1e6
	m.bh = m.ah / hStar
	m.M()
	qh := dist.Gamma{Alpha: m.ah, Beta: m.bh}
	sd := math.Sqrt(qh.Variance())
	// E over q(h) by the midpoint rule on ±12 sd.
	const k = 4001
	gap, mass := 0.0, 0.0
	for j := 0; j < k; j++ {
		h := hStar + sd*(-12+24*(float64(j)+0.5)/k)
		w := math.Exp(qh.LogProb(h)) * 24 * sd / k
		mass += w
		for i := range x {
			if m.d[i] > 0 {
				gap += w * m.prior.A0 * (math.Log1p(h*m.d[i]) - m.lam[i]*math.Log(h*m.d[i]) - binaryEntropy(m.lam[i]))
			}
		}
	}
	if math.Abs(mass-1) > 1e-6 {
		t.Fatalf("quadrature mass %g", mass)
	}
	gap /= mass
	if gap < -1e-9 || gap > 1e-5 {
		t.Errorf("F − F̃ = %g at a point-mass q(h), want ≥ 0 and ≤ 1e-5 (about a₀ Σ Var[ln h]/8)", gap)
	}
}
