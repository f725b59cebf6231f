package mfa

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// EM is maximum-likelihood EM for the mixture of factor analysers with a
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
// It implements vb.Model (vb.Run never lets the likelihood decrease) and
// vb.Mover: with Objective = BICObjective and Moves.Rand set, vb.Search
// runs the BIC-penalised search of targets §2 item 1 (births only, by
// responsibility splits; see Propose, Apply and EpochConverger).
type EM struct {
	// Pi, Mu[s] (p), Lambda[s] (p×k) and Psi (p) are the parameters.
	Pi     []float64
	Mu     [][]float64
	Lambda []*mat.Dense
	Psi    []float64
	// PsiMin floors every ψ_q (the thesis's 1e-5 in normalised units,
	// line 2873). It must be positive: it keeps every C_s ⪰ PsiMin·I, so
	// that no analyser can collapse onto a few points and make the
	// likelihood diverge (lines 2873, 2887).
	PsiMin float64
	// Objective is what E reports as F: the log-likelihood (the default)
	// or the BIC score (eq. 4.88), the criterion of ML's model search.
	Objective Objective
	// Moves controls the births that EM proposes to vb.Search (see
	// Propose).
	Moves EMMoveSettings

	y    *mat.Dense
	n, p int
	k    int
	resp *mat.Dense   // n×S
	ex   [][]float64  // per s: n×k posterior factor means (row-major)
	g    []*mat.Dense // per s: G_s (k×k)
	lnp  float64      // of the last E step
	// eFresh: the last step was an E step (resp, ex and g belong to the
	// current parameters), as a birth needs.
	eFresh bool
	// The responsibilities before the last E step, for the agitation
	// (eq. 4.72); agValid and moved as in VB.
	prevResp       []float64
	agValid, moved bool
	work           emWork
}

// emWork is the workspace of EM's E and M steps, so that neither allocates
// in the steady state. It is made by NewEM; the per-analyser part (comps,
// lnPi, row) is resized by E when the number of analysers has changed (a
// birth, a Restore).
type emWork struct {
	// E: the analysers' precomputation (see mlComp), ln π_s and one row of
	// the log-responsibilities (S), and the Terms of the returned bound.
	comps     *mlComps
	lnPi, row []float64
	terms     []vb.Term
	// M (K = k+1): Σ_{i,s} r_is (y_iq − (Λ̃^s E[x̃_is])_q) y_iq and
	// Σ_i r_is y_iq² (p); r_is E[x̃_is] (K); A = Σ_i r_is E[x̃x̃ᵀ] (K×K),
	// B = Σ_i r_is y_i E[x̃]ᵀ (p×K), the new Λ̃^s (p×K) and the Cholesky
	// factor of A (K×K); bt accumulates Bᵀ (K×p).
	psiAcc, yy []float64
	xw, bt     []float64
	a, b, lt   *mat.Dense
	chol       []float64
}

// newEMWork returns the workspace of EM for S analysers of k factors in p
// dimensions.
func newEMWork(S, p, k int) emWork {
	K := k + 1
	return emWork{
		comps:  newMLComps(S, p, k),
		lnPi:   make([]float64, S),
		row:    make([]float64, S),
		terms:  make([]vb.Term, 0, 2),
		psiAcc: make([]float64, p),
		yy:     make([]float64, p),
		xw:     make([]float64, K),
		bt:     make([]float64, K*p),
		a:      mat.NewDense(K, K, nil),
		b:      mat.NewDense(p, K, nil),
		lt:     mat.NewDense(p, K, nil),
		chol:   make([]float64, K*K),
	}
}

// precompute sets the workspace's analysers (resized if S has changed)
// for the current parameters; see mlComps.set.
func (m *EM) precompute() error {
	w := &m.work
	if S := len(m.Pi); len(w.comps.comps) != S {
		w.comps.resize(S)
		w.lnPi, w.row = make([]float64, S), make([]float64, S)
	}
	return w.comps.set(m.Mu, m.Lambda, m.Psi)
}

// Objective says which objective EM's E step reports.
type Objective int

const (
	// LogLikelihood: F = ln p(y|θ) with the single term TermLogLik.
	LogLikelihood Objective = iota
	// BICObjective: F = ln p(y|θ) − (D/2) ln n (eq. 4.88, line 2892), with
	// D of eq. 4.89 (NumFree), as the terms TermLogLik and
	// TermBICPenalty. Within one vb.Run the number of analysers is fixed,
	// so the penalty is constant and EM still never lowers F; vb.Search
	// then accepts a birth iff BIC rose (targets ch4-mfa.md §2 item 1,
	// "accept if BIC increases").
	BICObjective
)

func (o Objective) String() string {
	return enumString("Objective", int(o), "log-likelihood", "BIC")
}

// NewEM returns ML EM for S analysers of k factors on the rows of y
// (copied), started from a hard assignment of every point to the nearest
// of S data points drawn with rnd; a PCA of each group gives its first
// mean, loadings and noise. With S = 1, the start of the model search
// (targets §2 item 1, "start from 1 component with PCA initialisation"),
// this is the probabilistic-PCA fit of all the data (Ψ = σ²I; exactly so
// when σ² and every e_l − σ² exceed the floor 1e-3 of weightedPCA), the
// same for every rnd. psiMin (PsiMin) must be positive.
func NewEM(y mat.Matrix, S, k int, psiMin float64, rnd *rand.Rand) (*EM, error) {
	n, p := y.Dims()
	if n < 2 || p < 1 || S < 1 || k < 0 || k >= p {
		return nil, fmt.Errorf("mfa: ML needs n ≥ 2 rows, S ≥ 1, 0 ≤ k < p (n=%d p=%d S=%d k=%d)", n, p, S, k)
	}
	if !(psiMin > 0) || math.IsInf(psiMin, 1) {
		return nil, fmt.Errorf("mfa: ML needs a positive, finite floor on Ψ (psiMin = %v)", psiMin)
	}
	m := &EM{PsiMin: psiMin, y: mat.DenseCopyOf(y), n: n, p: p, k: k, resp: mat.NewDense(n, S, nil)}
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
	m.work = newEMWork(S, p, k)
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
func (m *EM) Size() int { return len(m.Pi) }

// Resp returns the responsibilities of the last E step (n×S); it must not
// be modified.
func (m *EM) Resp() *mat.Dense { return m.resp }

// LogLik returns the log-likelihood of the last E step.
func (m *EM) LogLik() float64 { return m.lnp }

// NumFree returns D = S − 1 + p + Σ_s [p + p k − k(k−1)/2], the number of
// free parameters of eq. 4.89 (the means, the loadings up to rotation, Ψ
// and the mixing proportions).
func (m *EM) NumFree() int {
	S, p, k := len(m.Pi), m.p, m.k
	return S - 1 + p + S*(p+p*k-k*(k-1)/2)
}

// BIC returns ln p(y|θ) − (D/2) ln n of the last E step (eq. 4.88).
func (m *EM) BIC() float64 { return m.lnp + m.BICPenalty() }

// Names of the terms of ML's objective.
const (
	// TermLogLik is ln p(y|θ).
	TermLogLik = "lnp(y|theta)"
	// TermBICPenalty is −(D/2) ln n (eq. 4.88), the second term of the
	// BIC objective.
	TermBICPenalty = "-BIC penalty"
)

// BICPenalty returns −(D/2) ln n (eq. 4.88) for the current S.
func (m *EM) BICPenalty() float64 { return -float64(m.NumFree()) / 2 * math.Log(float64(m.n)) }

// E is the expectation step. It computes ln N(y_i | μ^s, C_s) and the
// factor means through the Woodbury form of mlComp (O(n S p k) per step)
// and returns the objective chosen by Objective. A non-finite ψ or loading,
// or a log-likelihood that is not finite, is an error (never a silent NaN
// or −Inf F): with PsiMin > 0 neither can arise from EM itself. E does not
// allocate in the steady state; the returned Terms are EM's own slice,
// overwritten by the next E step (vb.Run copies it).
func (m *EM) E() (vb.Bound, error) {
	n, k := m.n, m.k
	m.agValid, m.moved = !m.moved, false
	m.prevResp = append(m.prevResp[:0], m.resp.RawMatrix().Data...)
	m.eFresh = false
	if err := m.precompute(); err != nil {
		return vb.Bound{F: math.NaN()}, err
	}
	w := &m.work
	comps, ipsi, lnPi, row := w.comps.comps, w.comps.ipsi, w.lnPi, w.row
	for s, v := range m.Pi {
		lnPi[s] = math.Log(v)
	}
	var lnp float64
	for i := 0; i < n; i++ {
		yi := m.y.RawRowView(i)
		for s := range comps {
			ex := m.ex[s][i*k : (i+1)*k]
			row[s] = lnPi[s] + comps[s].logPdf(yi, ipsi, ex)
			comps[s].factorMean(ex)
		}
		l := numeric.NormalizeLogTo(m.resp.RawRowView(i), row)
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return vb.Bound{F: math.NaN()}, fmt.Errorf("mfa: ML log-likelihood of point %d is %v", i, l)
		}
		lnp += l
	}
	if k > 0 {
		for s := range comps {
			w.comps.covTo(m.g[s], s)
		}
	}
	m.lnp = lnp
	m.eFresh = true
	w.terms = append(w.terms[:0], vb.Term{Name: TermLogLik, Value: lnp})
	f := lnp
	if m.Objective == BICObjective {
		pen := m.BICPenalty()
		w.terms = append(w.terms, vb.Term{Name: TermBICPenalty, Value: pen})
		f += pen
	}
	return vb.Bound{F: f, Terms: w.terms}, nil
}

// M is the maximisation step (augmented form; targets ch4-mfa.md §2 item
// 1): with A = Σ_i r_is E[x̃x̃ᵀ] = L Lᵀ and B = Σ_i r_is y_i E[x̃]ᵀ, each row
// of Λ̃^s = BA⁻¹ is found by two triangular solves. An analyser with
// N_s < 1e-10, or whose A is not positive definite to working precision
// (its Cholesky factorisation fails), keeps its loadings and mean; Ψ is
// then updated with those (ψ_q = (1/n) Σ_{i,s} r_is E[(y_iq − (Λ̃^s x̃)_q)²],
// which for an updated analyser reduces to the form above), a conditional
// maximisation, so EM still never lowers the likelihood. M does not
// allocate.
func (m *EM) M() {
	m.eFresh = false
	n, p, k := m.n, m.p, m.k
	K := k + 1
	w := &m.work
	psiAcc, yy, xw, bt := w.psiAcc, w.yy, w.xw, w.bt
	A, B, lt := w.a.RawMatrix().Data, w.b.RawMatrix().Data, w.lt.RawMatrix().Data
	clear(psiAcc)
	for s := range m.Pi {
		var ns float64
		clear(yy)
		clear(A)
		clear(bt)
		for i := 0; i < n; i++ {
			r := m.resp.At(i, s)
			if r == 0 {
				continue
			}
			ns += r
			// x̃ = (E[x_is], 1); A += x̃ (r x̃)ᵀ, B += y_i (r x̃)ᵀ.
			x := m.ex[s][i*k : (i+1)*k]
			for a, v := range x {
				xw[a] = r * v
			}
			xw[k] = r
			for a := 0; a < K; a++ {
				va := 1.0
				if a < k {
					va = x[a]
				}
				axpy(A[a*K:(a+1)*K], va, xw)
			}
			// Bᵀ += (r x̃) y_iᵀ, two rows of Bᵀ a pass over y_i: each
			// element gets the products of B += y_i (r x̃)ᵀ in the same
			// order of points, so B is the same bit for bit.
			yi := m.y.RawRowView(i)
			for q, v := range yi {
				yy[q] += r * v * v
			}
			b := 0
			for ; b+2 <= K; b += 2 {
				x0, x1 := xw[b], xw[b+1]
				t0, t1 := bt[b*p:(b+1)*p], bt[(b+1)*p:(b+2)*p]
				t0, t1 = t0[:len(yi)], t1[:len(yi)]
				for q, v := range yi {
					t0[q] += x0 * v
					t1[q] += x1 * v
				}
			}
			if b < K {
				axpy(bt[b*p:(b+1)*p], xw[b], yi)
			}
		}
		for q := 0; q < p; q++ {
			for b := 0; b < K; b++ {
				B[q*K+b] = bt[b*p+q]
			}
		}
		g := m.g[s]
		for a := 0; a < k; a++ {
			for b, v := range g.RawRowView(a) {
				A[a*K+b] += ns * v
			}
		}
		m.Pi[s] = ns / float64(n)
		if ns >= 1e-10 {
			copy(w.chol, A)
			if numeric.CholFactor(w.chol, K) {
				for q := 0; q < p; q++ {
					row := lt[q*K : (q+1)*K]
					copy(row, B[q*K:(q+1)*K])
					numeric.CholSolveVec(w.chol, K, row)
					numeric.CholSolveVecT(w.chol, K, row)
					if k > 0 {
						copy(m.Lambda[s].RawRowView(q), row[:k])
					}
					m.Mu[s][q] = row[k]
					// Σ_i r (y − Λ̃ E[x̃])_q y_q = Σ_i r y_q² − (Λ̃ Bᵀ)_qq.
					psiAcc[q] += yy[q] - floats.Dot(row, B[q*K:(q+1)*K])
				}
				continue
			}
		}
		// A kept analyser.
		for q := 0; q < p; q++ {
			row := lt[q*K : (q+1)*K]
			if k > 0 {
				copy(row, m.Lambda[s].RawRowView(q))
			}
			row[k] = m.Mu[s][q]
		}
		addResidualSq(psiAcc, yy, w.lt, w.a, w.b)
	}
	for q := range m.Psi {
		m.Psi[q] = math.Max(m.PsiMin, psiAcc[q]/float64(n))
	}
}

// addResidualSq adds to acc[q] the expected squared residual Σ_i r_is
// E[(y_iq − (Λ̃ x̃)_q)²] = Σ_i r_is y_iq² − 2(Λ̃Bᵀ)_qq + (Λ̃AΛ̃ᵀ)_qq of one
// analyser with augmented loadings lt = Λ̃ (p×K), yy[q] = Σ_i r_is y_iq²,
// A = Σ_i r_is E[x̃x̃ᵀ] and B = Σ_i r_is y_i E[x̃]ᵀ. At Λ̃ = BA⁻¹ it is the
// Σ_i r_is y_iq² − (Λ̃Bᵀ)_qq of M's ψ update.
func addResidualSq(acc, yy []float64, lt, A, B *mat.Dense) {
	_, K := lt.Dims()
	for q := range acc {
		row := lt.RawRowView(q)
		var quad float64
		for a := 0; a < K; a++ {
			quad += row[a] * floats.Dot(A.RawRowView(a), row)
		}
		acc[q] += yy[q] - 2*floats.Dot(row, B.RawRowView(q)) + quad
	}
}
