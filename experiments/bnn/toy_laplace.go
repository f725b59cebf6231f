package bnn

// The toy's starting point (L2134-2137) and the Laplace approximation at
// it (Figs 5.3(c), 5.4, eq. 5.49), and the network posterior at fixed α, β
// as a target of samplers/mcmc's HMC (Fig. 5.3(e), L2148).
//
// Stand-ins of ours until the branch bnn-evidence's bnn.Evidence and
// bnn-hmc's bnn.SampleHMC are on main (the toy then uses those): the
// evidence procedure here is MacKay's (1992) re-estimation,
// γ_g = K_g − α_g tr_g(A⁻¹), α_g = γ_g/‖w_g‖², β = (N − Σ_g γ_g)/(2E_D),
// after each MAP fit by L-BFGS, with A the Gauss-Newton Hessian
// β Σ_n ∇f_n ∇f_nᵀ + diag(α), which keeps every γ_g in [0, K_g] (the exact
// Hessian need not be positive definite at the end of 500 iterations, and
// where it is but ∇∇E_D is not, γ_g can be negative); the Laplace
// approximation of Figs 5.3(c) and 5.4 uses the exact Hessian (eq. 5.18) by
// central differences of the exact gradient. An α_g
// is capped at alphaCap: the output bias, a group of one weight, can be
// pruned (w → 0, α_g = γ_g/w² → ∞), and precisions of 10⁴⁰ leave the
// variational bound with terms of 10³⁵ nats whose differences are lost to
// rounding.

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/bnn"
	"github.com/vbworkbench/vbw/core/numeric"
)

// netPosterior is p(w|D, α, β) ∝ p(D|w, β) p(w|α) at fixed α (one per
// weight) and β (eqs. 5.4-5.6, 5.43): an mcmc.GradTempered.
type netPosterior struct {
	p     *bnn.Problem
	alpha []float64
	beta  float64
	act   []float64
}

func newNetPosterior(p *bnn.Problem, alpha []float64, beta float64) *netPosterior {
	return &netPosterior{p: p, alpha: alpha, beta: beta, act: make([]float64, p.Hidden)}
}

// LogPrior is ln p(w|α), constants included.
func (t *netPosterior) LogPrior(w []float64) float64 {
	var l float64
	for k, x := range w {
		l += 0.5*math.Log(t.alpha[k]/(2*math.Pi)) - 0.5*t.alpha[k]*x*x
	}
	return l
}

// LogLik is ln p(D|w, β) (eq. 5.4).
func (t *netPosterior) LogLik(w []float64) float64 {
	n := float64(len(t.p.T))
	return n/2*math.Log(t.beta/(2*math.Pi)) - t.beta*t.p.ErrorGrad(w, t.p.X, t.p.T, nil, t.act)
}

// GradLogPrior writes −α_k w_k.
func (t *netPosterior) GradLogPrior(dst, w []float64) {
	for k, x := range w {
		dst[k] = -t.alpha[k] * x
	}
}

// GradLogLik writes −β ∇E_D.
func (t *netPosterior) GradLogLik(dst, w []float64) {
	t.p.ErrorGrad(w, t.p.X, t.p.T, dst, t.act)
	for k := range dst {
		dst[k] *= -t.beta
	}
}

// logPost is ln p(D|w, β) + ln p(w|α).
func (t *netPosterior) logPost(w []float64) float64 { return t.LogPrior(w) + t.LogLik(w) }

// hessian returns H = −∇∇ ln p(w|D, α, β) at w (K×K, row-major) by
// central differences of the exact gradient, symmetrised.
func (t *netPosterior) hessian(w []float64) []float64 {
	k := len(w)
	h := make([]float64, k*k)
	gp, gm, tmp := make([]float64, k), make([]float64, k), make([]float64, k)
	x := append([]float64(nil), w...)
	grad := func(dst []float64) {
		t.GradLogLik(dst, x)
		t.GradLogPrior(tmp, x)
		for i := range dst {
			dst[i] = -(dst[i] + tmp[i])
		}
	}
	for j := range k {
		step := 1e-5 * math.Max(1, math.Abs(w[j]))
		x[j] = w[j] + step
		grad(gp)
		x[j] = w[j] - step
		grad(gm)
		x[j] = w[j]
		for i := range k {
			h[i*k+j] = (gp[i] - gm[i]) / (2 * step)
		}
	}
	for i := range k {
		for j := range i {
			s := 0.5 * (h[i*k+j] + h[j*k+i])
			h[i*k+j], h[j*k+i] = s, s
		}
	}
	return h
}

// alphaCap is the largest α_g the evidence stand-in returns (a prior sd of
// 10⁻³: the weight is pruned).
const alphaCap = 1e6

// gaussNewtonCov returns the inverse of β Σ_n ∇f_n ∇f_nᵀ + diag(α) at w,
// and false if its Cholesky factorisation fails.
func gaussNewtonCov(t *netPosterior, w []float64) (*mat.Dense, bool) {
	k := len(w)
	a := mat.NewSymDense(k, nil)
	g := make([]float64, k)
	for n, x := range t.p.X {
		// E = ½(f − (f − 1))² has gradient ∇f.
		f := t.p.Forward(w, x, t.act)
		t.p.ErrorGrad(w, t.p.X[n:n+1], []float64{f - 1}, g, t.act)
		for i := range k {
			for j := i; j < k; j++ {
				a.SetSym(i, j, a.At(i, j)+t.beta*g[i]*g[j])
			}
		}
	}
	for i := range k {
		a.SetSym(i, i, a.At(i, i)+t.alpha[i])
	}
	var ch mat.Cholesky
	if !ch.Factorize(a) {
		return nil, false
	}
	var inv mat.SymDense
	if err := ch.InverseTo(&inv); err != nil {
		return nil, false
	}
	return mat.DenseCopyOf(&inv), true
}

// toyStart is the result of the evidence procedure: the mode, the group
// precisions and β, and the Laplace approximation there.
type toyStart struct {
	w      []float64
	alphaG []float64
	beta   float64
	// eig are the eigenvalues of the Laplace covariance H⁻¹, decreasing,
	// with the eigenvectors as the columns of vec (nil if H is not
	// positive definite).
	eig []float64
	vec *mat.Dense
	pd  bool
}

// evidence runs cycles of a MAP fit (L-BFGS, iterations) followed by the
// re-estimation of α_g and β, from weights drawn from N(0, 1) and the
// given starting α, β (L2134-2137).
func evidence(p *bnn.Problem, alpha0, beta0 float64, cycles, iterations int, r *rand.Rand) (*toyStart, error) {
	ng, group := p.Groups(bnn.Grouped)
	k := p.NumWeights()
	w := make([]float64, k)
	for j := range w {
		w[j] = r.NormFloat64()
	}
	ag := make([]float64, ng)
	for g := range ag {
		ag[g] = alpha0
	}
	beta := beta0
	alpha := make([]float64, k)
	kg := make([]float64, ng)
	for _, g := range group {
		kg[g]++
	}
	var st *toyStart
	for range cycles {
		for j := range alpha {
			alpha[j] = ag[group[j]]
		}
		t := newNetPosterior(p, alpha, beta)
		o := numeric.LBFGS{MaxIterations: iterations}
		if _, err := o.Minimize(func(x, g []float64) float64 {
			l := t.logPost(x)
			if g != nil {
				t.GradLogLik(g, x)
				for j := range g {
					g[j] = -g[j] + alpha[j]*x[j]
				}
			}
			return -l
		}, w); err != nil {
			return nil, err
		}
		var err error
		if st, err = laplaceAt(t, w); err != nil {
			return nil, err
		}
		gamma := append([]float64(nil), kg...)
		if gn, ok := gaussNewtonCov(t, w); ok {
			for j := range k {
				gamma[group[j]] -= alpha[j] * gn.At(j, j)
			}
		}
		ww := make([]float64, ng)
		for j, x := range w {
			ww[group[j]] += x * x
		}
		var gs float64
		for g := range ag {
			gamma[g] = math.Max(gamma[g], 1e-6)
			ag[g] = math.Min(gamma[g]/math.Max(ww[g], 1e-300), alphaCap)
			gs += gamma[g]
		}
		ed := p.ErrorGrad(w, p.X, p.T, nil, nil)
		beta = math.Max(float64(len(p.T))-gs, 1e-6) / (2 * math.Max(ed, 1e-300))
	}
	// The Laplace approximation at the last mode, with the final α, β.
	for j := range alpha {
		alpha[j] = ag[group[j]]
	}
	st, err := laplaceAt(newNetPosterior(p, alpha, beta), w)
	if err != nil {
		return nil, err
	}
	st.alphaG, st.beta = ag, beta
	return st, nil
}

// laplaceAt returns the Laplace approximation N(w, H⁻¹) of t at w.
func laplaceAt(t *netPosterior, w []float64) (*toyStart, error) {
	k := len(w)
	h := mat.NewSymDense(k, t.hessian(w))
	var es mat.EigenSym
	if !es.Factorize(h, true) {
		return nil, fmt.Errorf("bnn/toy: the eigendecomposition of the Hessian failed")
	}
	vals := es.Values(nil)
	var vec mat.Dense
	es.VectorsTo(&vec)
	st := &toyStart{w: append([]float64(nil), w...), pd: true}
	for _, l := range vals {
		if !(l > 0) {
			st.pd = false
		}
	}
	if !st.pd {
		return st, nil
	}
	// H's eigenvalues increase, so the covariance's 1/λ decrease.
	st.eig = make([]float64, k)
	st.vec = mat.NewDense(k, k, nil)
	for i := range k {
		st.eig[i] = 1 / vals[i]
		for j := range k {
			st.vec.Set(j, i, vec.At(j, i))
		}
	}
	return st, nil
}

// covariance returns H⁻¹ = V diag(eig) Vᵀ.
func (s *toyStart) covariance() *mat.Dense {
	k := len(s.eig)
	c := mat.NewDense(k, k, nil)
	for i := range k {
		for j := range k {
			var v float64
			for e := range k {
				v += s.vec.At(i, e) * s.eig[e] * s.vec.At(j, e)
			}
			c.Set(i, j, v)
		}
	}
	return c
}

// sample draws w from the Laplace approximation N(w*, H⁻¹).
func (s *toyStart) sample(dst []float64, r *rand.Rand) {
	copy(dst, s.w)
	for e, l := range s.eig {
		z := math.Sqrt(l) * r.NormFloat64()
		for j := range dst {
			dst[j] += z * s.vec.At(j, e)
		}
	}
}

// laplaceMean is ⟨f(x, w)⟩ under the full-covariance Gaussian N(w*, Σ),
// eq. 5.49: with a_h = u_hᵀx̃ ~ N(μ_h, σ_h²) and Cov(v_h, a_h) = Σ_{v_h u_h}x̃,
//
//	⟨v_h g(a_h)⟩ = v̄_h g(μ_h/√(1+σ_h²)) + Cov(v_h, a_h) √(2/π) exp(−μ_h²/(2(1+σ_h²)))/√(1+σ_h²)
//
// (Stein's lemma). Eq. 5.49 prints the exponent's numerator as xᵀū; it is
// (xᵀū)², as in eq. C.39.
func laplaceMean(a bnn.Arch, w []float64, cov *mat.Dense, x []float64) float64 {
	xt := append(append([]float64(nil), x...), 1)
	u := a.U()
	f := w[u+a.Hidden]
	for h := 0; h < a.Hidden; h++ {
		o := h * (a.In + 1)
		var mu, s2, c float64
		for i, xi := range xt {
			mu += w[o+i] * xi
			c += cov.At(u+h, o+i) * xi
			for j, xj := range xt {
				s2 += xi * cov.At(o+i, o+j) * xj
			}
		}
		d := math.Sqrt(1 + s2)
		f += w[u+h]*bnn.G(mu/d) + c*math.Sqrt(2/math.Pi)*math.Exp(-mu*mu/(2*(1+s2)))/d
	}
	return f
}
