package mfa

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/vb"
)

// ML is maximum-likelihood EM for the mixture of factor analysers with a
// shared diagonal Ψ (Ghahramani and Hinton 1996), the BIC baseline of Beal
// (2003) section 4.6.2 (lines 2869-2898; targets ch4-mfa.md §2 item 1):
//
//	p(y) = Σ_s π_s N(y | μ^s, Λ^s Λ^sᵀ + Ψ).
//
// E computes the responsibilities r_is ∝ π_s N(y_i | μ^s, C_s), C_s =
// Λ^sΛ^sᵀ + Ψ, and the factor moments G_s = (I + Λ^sᵀΨ⁻¹Λ^s)⁻¹,
// E[x|i,s] = G_s Λ^sᵀ Ψ⁻¹ (y_i − μ^s), E[xxᵀ|i,s] = G_s + E[x]E[x]ᵀ, and
// returns the log-likelihood Σ_i ln Σ_s π_s N(y_i | μ^s, C_s). M sets, in
// the augmented form x̃ = (x, 1),
//
//	Λ̃^s = (Σ_i r_is y_i E[x̃]ᵀ)(Σ_i r_is E[x̃x̃ᵀ])⁻¹,
//	ψ_q = max(PsiMin, (1/n) Σ_{i,s} r_is (y_i − Λ̃^s E[x̃_is])_q y_iq),  π_s = N_s/n.
//
// It implements vb.Model; vb.Run never lets the likelihood decrease.
type ML struct {
	// Pi, Mu[s] (p), Lambda[s] (p×k) and Psi (p) are the parameters.
	Pi     []float64
	Mu     [][]float64
	Lambda []*mat.Dense
	Psi    []float64
	// PsiMin floors every ψ_q (the thesis's 1e-5 in normalised units,
	// line 2873).
	PsiMin float64

	y    *mat.Dense
	n, p int
	k    int
	resp *mat.Dense   // n×S
	ex   [][]float64  // per s: n×k posterior factor means (row-major)
	g    []*mat.Dense // per s: G_s (k×k)
	lnp  float64      // of the last E step
}

// NewML returns ML EM for S analysers of k factors on the rows of y
// (copied), started from a hard assignment of every point to the nearest
// of S data points drawn with rnd; a PCA of each group gives its first
// mean, loadings and noise.
func NewML(y mat.Matrix, S, k int, psiMin float64, rnd *rand.Rand) (*ML, error) {
	n, p := y.Dims()
	if n < 2 || p < 1 || S < 1 || k < 0 || k >= p {
		return nil, fmt.Errorf("mfa: ML needs n ≥ 2 rows, S ≥ 1, 0 ≤ k < p (n=%d p=%d S=%d k=%d)", n, p, S, k)
	}
	m := &ML{PsiMin: psiMin, y: mat.DenseCopyOf(y), n: n, p: p, k: k, resp: mat.NewDense(n, S, nil)}
	// Hard start: S distinct data points drawn with rnd as centres, every
	// point assigned to its nearest (soft random responsibilities would
	// give every analyser the same weighted PCA, a symmetric point EM
	// cannot leave).
	centres := rnd.Perm(n)[:min(S, n)]
	for i := 0; i < n; i++ {
		yi := m.y.RawRowView(i)
		best, bestD := 0, math.Inf(1)
		for s, c := range centres {
			var d float64
			for q, v := range m.y.RawRowView(c) {
				e := yi[q] - v
				d += e * e
			}
			if d < bestD {
				best, bestD = s, d
			}
		}
		m.resp.Set(i, best, 1)
	}
	m.Pi = make([]float64, S)
	m.Mu = make([][]float64, S)
	m.Lambda = make([]*mat.Dense, S)
	m.ex = make([][]float64, S)
	m.g = make([]*mat.Dense, S)
	for s := 0; s < S; s++ {
		m.Mu[s] = make([]float64, p)
		if k > 0 {
			m.Lambda[s] = mat.NewDense(p, k, nil)
			m.g[s] = mat.NewDense(k, k, nil)
		}
		m.ex[s] = make([]float64, n*k)
	}
	m.Psi = make([]float64, p)
	// Start: weighted means, PCA loadings, Ψ from the residual variance.
	for s := 0; s < S; s++ {
		w := make([]float64, n)
		for i := range w {
			w[i] = m.resp.At(i, s)
		}
		mean, lambda, sigma2 := weightedPCA(m.y, w, k)
		copy(m.Mu[s], mean)
		if k > 0 {
			m.Lambda[s].Copy(lambda)
		}
		var ns float64
		for _, v := range w {
			ns += v
		}
		m.Pi[s] = ns / float64(n)
		for q := range m.Psi {
			m.Psi[q] += m.Pi[s] * math.Max(sigma2, 1e-3)
		}
	}
	return m, nil
}

// Size returns S.
func (m *ML) Size() int { return len(m.Pi) }

// Resp returns the responsibilities of the last E step (n×S); it must not
// be modified.
func (m *ML) Resp() *mat.Dense { return m.resp }

// LogLik returns the log-likelihood of the last E step.
func (m *ML) LogLik() float64 { return m.lnp }

// NumFree returns D = S − 1 + p + Σ_s [p + p k − k(k−1)/2], the number of
// free parameters of eq. 4.89 (the means, the loadings up to rotation, Ψ
// and the mixing proportions).
func (m *ML) NumFree() int {
	S, p, k := len(m.Pi), m.p, m.k
	return S - 1 + p + S*(p+p*k-k*(k-1)/2)
}

// BIC returns ln p(y|θ) − (D/2) ln n of the last E step (eq. 4.88).
func (m *ML) BIC() float64 { return m.lnp - float64(m.NumFree())/2*math.Log(float64(m.n)) }

// TermLogLik names the ML objective's single term.
const TermLogLik = "lnp(y|theta)"

// E is the expectation step; it returns the log-likelihood.
func (m *ML) E() (vb.Bound, error) {
	n, p, k, S := m.n, m.p, m.k, len(m.Pi)
	logw := mat.NewDense(n, S, nil)
	diff := make([]float64, p)
	for s := 0; s < S; s++ {
		// C_s = ΛΛᵀ + Ψ by Cholesky: log-density of every point.
		c := mat.NewSymDense(p, nil)
		for a := 0; a < p; a++ {
			for b := a; b < p; b++ {
				var v float64
				if k > 0 {
					v = mat.Dot(m.Lambda[s].RowView(a), m.Lambda[s].RowView(b))
				}
				if a == b {
					v += m.Psi[a]
				}
				c.SetSym(a, b, v)
			}
		}
		var chol mat.Cholesky
		if !chol.Factorize(c) {
			return vb.Bound{F: math.NaN()}, fmt.Errorf("mfa: ML covariance of analyser %d is not positive definite", s)
		}
		logdet := chol.LogDet()
		sol := mat.NewVecDense(p, nil)
		dv := mat.NewVecDense(p, diff) // a view of diff, refilled per point
		for i := 0; i < n; i++ {
			yi := m.y.RawRowView(i)
			for q := range diff {
				diff[q] = yi[q] - m.Mu[s][q]
			}
			if err := chol.SolveVecTo(sol, dv); err != nil {
				return vb.Bound{F: math.NaN()}, fmt.Errorf("mfa: ML analyser %d: %w", s, err)
			}
			maha := mat.Dot(dv, sol)
			logw.Set(i, s, math.Log(m.Pi[s])-0.5*(float64(p)*math.Log(2*math.Pi)+logdet+maha))
		}
		if k == 0 {
			continue
		}
		// G_s = (I + ΛᵀΨ⁻¹Λ)⁻¹ and E[x|i,s] = G_s Λᵀ Ψ⁻¹ (y_i − μ^s).
		lp := mat.NewDense(p, k, nil) // Ψ⁻¹Λ
		for q := 0; q < p; q++ {
			for l := 0; l < k; l++ {
				lp.Set(q, l, m.Lambda[s].At(q, l)/m.Psi[q])
			}
		}
		prec := mat.NewDense(k, k, nil)
		prec.Mul(m.Lambda[s].T(), lp)
		for l := 0; l < k; l++ {
			prec.Set(l, l, prec.At(l, l)+1)
		}
		if err := m.g[s].Inverse(prec); err != nil {
			return vb.Bound{F: math.NaN()}, fmt.Errorf("mfa: ML analyser %d: %w", s, err)
		}
		beta := mat.NewDense(k, p, nil) // G Λᵀ Ψ⁻¹
		beta.Mul(m.g[s], lp.T())
		for i := 0; i < n; i++ {
			yi := m.y.RawRowView(i)
			for q := range diff {
				diff[q] = yi[q] - m.Mu[s][q]
			}
			for l := 0; l < k; l++ {
				m.ex[s][i*k+l] = floats.Dot(beta.RawRowView(l), diff)
			}
		}
	}
	var lnp float64
	for i := 0; i < n; i++ {
		row := logw.RawRowView(i)
		mx := math.Inf(-1)
		for _, v := range row {
			mx = math.Max(mx, v)
		}
		var sum float64
		for _, v := range row {
			sum += math.Exp(v - mx)
		}
		l := mx + math.Log(sum)
		lnp += l
		r := m.resp.RawRowView(i)
		for s, v := range row {
			r[s] = math.Exp(v - l)
		}
	}
	m.lnp = lnp
	return vb.Bound{F: lnp, Terms: []vb.Term{{Name: TermLogLik, Value: lnp}}}, nil
}

// M is the maximisation step (augmented form).
func (m *ML) M() {
	n, p, k, S := m.n, m.p, m.k, len(m.Pi)
	K := k + 1
	psiAcc := make([]float64, p)
	for s := 0; s < S; s++ {
		var ns float64
		A := mat.NewDense(K, K, nil) // Σ_i r E[x̃x̃ᵀ]
		B := mat.NewDense(p, K, nil) // Σ_i r y E[x̃]ᵀ
		xt := make([]float64, K)
		for i := 0; i < n; i++ {
			r := m.resp.At(i, s)
			if r == 0 {
				continue
			}
			ns += r
			copy(xt, m.ex[s][i*k:(i+1)*k])
			xt[k] = 1
			for a := 0; a < K; a++ {
				for b := 0; b < K; b++ {
					v := xt[a] * xt[b]
					if a < k && b < k {
						v += m.g[s].At(a, b)
					}
					A.Set(a, b, A.At(a, b)+r*v)
				}
			}
			yi := m.y.RawRowView(i)
			for q := 0; q < p; q++ {
				for a := 0; a < K; a++ {
					B.Set(q, a, B.At(q, a)+r*yi[q]*xt[a])
				}
			}
		}
		m.Pi[s] = ns / float64(n)
		if ns < 1e-10 {
			continue // an empty analyser keeps its parameters
		}
		var Ainv mat.Dense
		if err := Ainv.Inverse(A); err != nil {
			continue // a degenerate analyser keeps its parameters
		}
		lt := mat.NewDense(p, K, nil)
		lt.Mul(B, &Ainv)
		for q := 0; q < p; q++ {
			for l := 0; l < k; l++ {
				m.Lambda[s].Set(q, l, lt.At(q, l))
			}
			m.Mu[s][q] = lt.At(q, k)
		}
		// Σ_i r (y − Λ̃ E[x̃])_q y_q = Σ_i r y_q² − (Λ̃ Bᵀ)_qq.
		for i := 0; i < n; i++ {
			r := m.resp.At(i, s)
			for q, v := range m.y.RawRowView(i) {
				psiAcc[q] += r * v * v
			}
		}
		for q := 0; q < p; q++ {
			psiAcc[q] -= floats.Dot(lt.RawRowView(q), B.RawRowView(q))
		}
	}
	for q := range m.Psi {
		m.Psi[q] = math.Max(m.PsiMin, psiAcc[q]/float64(n))
	}
}
