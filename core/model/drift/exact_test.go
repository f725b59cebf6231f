package drift

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/vb"
)

// denseW assembles ⟨ln p(y, w_{0:T} | λ, ψ_y)⟩ (eq. 3.15 under q(λ)q(ψ_y))
// as −½ wᵀJw + hᵀw + c over the stacked w = (w_0, …, w_T) and returns the
// mean J⁻¹h, the covariance J⁻¹ and ln Z̃ = c + ½hᵀJ⁻¹h + (n/2) ln 2π − ½ ln|J|.
func denseW(data Data, p Prior, lbar, llog, pbar, plog float64) ([]float64, *mat.SymDense, float64) {
	d, T := data.D, data.T()
	n := (T + 1) * d
	J := mat.NewSymDense(n, nil)
	h := make([]float64, n)
	add := func(r, c int, v float64) {
		if c < r {
			r, c = c, r
		}
		if r == c {
			J.SetSym(r, r, J.At(r, r)+v)
			return
		}
		J.SetSym(r, c, J.At(r, c)+v)
	}
	ln2pi := math.Log(2 * math.Pi)
	w0 := make([]float64, d)
	if p.W0 != nil {
		copy(w0, p.W0)
	}
	c := 0.0
	for i := 0; i < d; i++ {
		add(i, i, p.Zeta0)
		h[i] = p.Zeta0 * w0[i]
		c += 0.5*math.Log(p.Zeta0) - 0.5*ln2pi - 0.5*p.Zeta0*w0[i]*w0[i]
	}
	for t := 1; t <= T; t++ {
		for i := 0; i < d; i++ {
			a, b := (t-1)*d+i, t*d+i
			add(a, a, lbar)
			add(b, b, lbar)
			// −λ̄ w_{t,i} w_{t−1,i} off the diagonal (counted once: SymDense).
			J.SetSym(a, b, J.At(a, b)-lbar)
		}
		c += 0.5*float64(d)*(llog-ln2pi) + 0.5*(plog-ln2pi)
		x := data.X[(t-1)*d : t*d]
		yt := data.Y[t-1]
		for i := 0; i < d; i++ {
			for j := i; j < d; j++ {
				v := pbar * x[i] * x[j]
				if i == j {
					add(t*d+i, t*d+i, v)
				} else {
					J.SetSym(t*d+i, t*d+j, J.At(t*d+i, t*d+j)+v)
				}
			}
			h[t*d+i] += pbar * x[i] * yt
		}
		c -= 0.5 * pbar * yt * yt
	}
	var ch mat.Cholesky
	if !ch.Factorize(J) {
		panic("J not positive definite")
	}
	cov := mat.NewSymDense(n, nil)
	if err := ch.InverseTo(cov); err != nil {
		panic(err)
	}
	mv := mat.NewVecDense(n, nil)
	if err := ch.SolveVecTo(mv, mat.NewVecDense(n, h)); err != nil {
		panic(err)
	}
	mean := mv.RawVector().Data
	lnZ := c + 0.5*mat.Dot(mv, mat.NewVecDense(n, h)) + 0.5*float64(n)*ln2pi - 0.5*ch.LogDet()
	return mean, cov, lnZ
}

// TestEAgainstDenseConditioning checks vkS's q(w) (means, covariances, the
// cross-time covariances that enter q(λ), L1003) and its bound against dense
// Gaussian conditioning of the joint on a tiny T, at the start and after two
// M steps, and the M step's statistics against the dense moments.
func TestEAgainstDenseConditioning(t *testing.T) {
	for _, d := range []int{1, 2} {
		T := 5
		data, _ := simulate(rand.New(rand.NewPCG(9, uint64(d))), T, d, 50, 20)
		prior := testPrior
		prior.W0 = make([]float64, d)
		prior.W0[0] = 0.3
		m, err := NewVB(data, prior, Settings{InitLambda: 30, InitPsi: 5})
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 3; step++ {
			b, err := m.E()
			if err != nil {
				t.Fatal(err)
			}
			ql, qp := m.QLambda(), m.QPsi()
			mean, cov, lnZ := denseW(data, prior, ql.Mean(), ql.MeanLog(), qp.Mean(), qp.MeanLog())
			kl := dist.KLGamma(ql, dist.Gamma{Alpha: prior.ALambda, Beta: prior.BLambda}) +
				dist.KLGamma(qp, dist.Gamma{Alpha: prior.APsi, Beta: prior.BPsi})
			if want := lnZ - kl; math.Abs(b.F-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("d=%d step %d: F = %.12g, dense %.12g", d, step, b.F, want)
			}
			got := m.Mean(nil)
			for i, v := range got {
				if math.Abs(v-mean[d+i]) > 1e-9 {
					t.Errorf("d=%d step %d: mean[%d] = %.12g, dense %.12g", d, step, i, v, mean[d+i])
				}
			}
			var sw, sy float64
			for n := 1; n <= T; n++ {
				cv := m.Cov(nil, n)
				for i := 0; i < d; i++ {
					for j := 0; j < d; j++ {
						if w := cov.At(n*d+i, n*d+j); math.Abs(cv[i*d+j]-w) > 1e-9 {
							t.Errorf("d=%d step %d: Cov(w_%d)[%d,%d] = %.12g, dense %.12g", d, step, n, i, j, cv[i*d+j], w)
						}
					}
				}
				x := data.X[(n-1)*d : n*d]
				r := data.Y[n-1]
				for i := 0; i < d; i++ {
					r -= x[i] * mean[n*d+i]
					a, c := (n-1)*d+i, n*d+i
					dm := mean[c] - mean[a]
					sw += dm*dm + cov.At(c, c) + cov.At(a, a) - 2*cov.At(a, c)
					for j := 0; j < d; j++ {
						sy += x[i] * x[j] * cov.At(n*d+i, n*d+j)
					}
				}
				sy += r * r
			}
			if math.Abs(m.sw-sw) > 1e-9*sw || math.Abs(m.sy-sy) > 1e-9*sy {
				t.Errorf("d=%d step %d: statistics (%g, %g), dense (%g, %g)", d, step, m.sw, m.sy, sw, sy)
			}
			m.M()
		}
	}
}

// TestLambdaAgainstQuadrature compares vkS's q(λ), with ψ_y known, with the
// exact posterior p(λ | y) ∝ p(λ) N(y; xŵ_0, Σ(λ)) by quadrature over ln λ,
// and the converged bound with the exact log evidence: F ≤ ln p(y) must hold,
// and the gap is KL(q ‖ p(w, λ | y)). It reports whether ⟨λ⟩ under q is
// below the exact posterior mean, as Turner & Sahani expect of a factorised
// approximation (the test asserts only the bound and finite answers).
func TestLambdaAgainstQuadrature(t *testing.T) {
	for _, c := range []struct {
		T           int
		lambda, psi float64
		seed        uint64
	}{{40, 100, 100, 1}, {40, 1e4, 1e3, 2}, {100, 1e3, 1e2, 3}} {
		data, _ := simulate(rand.New(rand.NewPCG(c.seed+3, 17)), c.T, 1, c.lambda, c.psi)
		prior := testPrior
		m, err := NewVB(data, prior, Settings{KnownPsi: c.psi})
		if err != nil {
			t.Fatal(err)
		}
		r := vb.Run(m, vb.Settings{MaxIterations: 5000, RelTol: 1e-13, AbsTol: 1e-10})
		if err := r.Error(); err != nil {
			t.Fatal(err)
		}
		ex, err := ExactLambda(data, prior, c.psi, 1e-2, 1e9)
		if err != nil {
			t.Fatal(err)
		}
		logEv, exactMean, exactLog := ex.LogEvidence, ex.Mean, ex.MeanLog
		q := m.QLambda()
		if !(r.F <= logEv+1e-9*math.Abs(logEv)) {
			t.Errorf("T=%d λ=%g ψ=%g: F = %.10g above ln p(y) = %.10g", c.T, c.lambda, c.psi, r.F, logEv)
		}
		if math.IsNaN(exactMean) || exactMean <= 0 {
			t.Fatalf("exact posterior mean %g", exactMean)
		}
		t.Logf("T=%d true λ=%g ψ=%g: E_q[λ] = %.4g, exact E[λ|y] = %.4g (ratio %.3f, under-estimated: %v); E_q[ln λ] = %.4f, exact %.4f; ln p(y) − F = %.4g",
			c.T, c.lambda, c.psi, q.Mean(), exactMean, q.Mean()/exactMean, q.Mean() < exactMean, q.MeanLog(), exactLog, logEv-r.F)
	}
}

// TestKnownPrecisionsEvidence: with λ and ψ_y both known, E is the Kalman
// smoother and F is ln p(y | λ, ψ_y), the Gaussian marginal of y.
func TestKnownPrecisionsEvidence(t *testing.T) {
	data, _ := simulate(rand.New(rand.NewPCG(6, 6)), 30, 1, 500, 80)
	prior := testPrior
	prior.W0 = []float64{0.2}
	m, err := NewVB(data, prior, Settings{KnownLambda: 500, KnownPsi: 80})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.E()
	if err != nil {
		t.Fatal(err)
	}
	if want := LogMarginal(data, prior, 500, 80); math.Abs(b.F-want) > 1e-9*math.Abs(want) {
		t.Errorf("F = %.12g, ln p(y | λ, ψ_y) = %.12g", b.F, want)
	}
}

// TestExactLambdaTrapezoid checks ExactLambda's adaptive quadrature against
// the trapezoid rule on a fine grid in ln λ (step 10⁻³, whose error on these
// smooth integrands is far below the tolerance).
func TestExactLambdaTrapezoid(t *testing.T) {
	data, _ := simulate(rand.New(rand.NewPCG(2, 9)), 10, 1, 300, 50)
	prior := testPrior
	const psi, lo, hi = 50.0, 1e-2, 1e9
	ex, err := ExactLambda(data, prior, psi, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	pl := dist.Gamma{Alpha: prior.ALambda, Beta: prior.BLambda}
	const h = 1e-3
	a, b := math.Log(lo), math.Log(hi)
	n := int(math.Round((b - a) / h))
	var lf []float64
	top := math.Inf(-1)
	for i := 0; i <= n; i++ {
		u := a + (b-a)*float64(i)/float64(n)
		v := pl.LogProb(math.Exp(u)) + u + LogMarginal(data, prior, math.Exp(u), psi)
		lf = append(lf, v)
		top = math.Max(top, v)
	}
	var z, m, ml float64
	for i, v := range lf {
		u := a + (b-a)*float64(i)/float64(n)
		wt := 1.0
		if i == 0 || i == n {
			wt = 0.5
		}
		e := wt * math.Exp(v-top)
		z += e
		m += e * math.Exp(u)
		ml += e * u
	}
	step := (b - a) / float64(n)
	logEv := top + math.Log(z*step)
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"E[λ]", ex.Mean, m / z}, {"E[ln λ]", ex.MeanLog, ml / z}, {"ln p(y)", ex.LogEvidence, logEv}} {
		if math.Abs(c.got-c.want) > 1e-6*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%s = %.10g, trapezoid %.10g", c.name, c.got, c.want)
		}
	}
}
