package mfa

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// chunk is the number of points that the loops of E take at a time, so
// that the columns they read stay in the L1 cache.
const chunk = 128

// ln2Pi is ln 2π.
const ln2Pi = 1.83787706640934548356065947281123527972279494727556

// E runs the coupled updates of Beal (2003) section 4.2.4 in the order of
// the reference code (targets ch4-mfa.md §1.6), InnerRepeats times:
//
//  1. q(x_i | s) for every analyser (eqs. (4.53)–(4.55), lines 2527–2534,
//     with the Λ–μ cross-covariance of targets §1.5);
//  2. q(Λ̃^s) for every analyser (eqs. (4.43)–(4.50), lines 2486–2511,
//     solved jointly in all k_s+1 coordinates of a row, targets §1.5);
//  3. q(s_i) (eq. (4.57), lines 2540–2549, corrected: the log-responsibility
//     is ψ(ω_s) − ψ(ω_0) + T_x(i,s) + T_y(i,s) with the whole
//     −KL(q(x_i|s) ‖ p(x_i)), whose ⟨ln p(x_i)⟩ and k_s/2 the print lost;
//     without them F decreases, targets §1.5);
//
// and then returns F (eq. (4.29), lines 2405–2419) at the resulting state,
// as the seven terms TermKLPi … TermLik. Each step is the exact maximiser
// of F in its factor, so E never lowers F.
//
// q(Λ̃) is updated here rather than in M so that vb.Run's cycle E, M,
// UpdateHyper is the reference sweep (targets §1.6); M holds q(π) and q(ν).
//
// Step 2 overwrites each q(Λ̃^s) in place (dist.GaussianRows.
// SetDistinctPrecision) unless it is shared with a snapshot (Save), a
// child of a birth or a caller of Loadings, in which case it builds a new
// one. E still allocates: the returned Bound.Terms is a new slice that
// callers may keep, and gonum's Cholesky factorisation returns its
// workspace to a sync.Pool with 3 small allocations per loading row (3Sp
// per E step with gonum v0.16). Everything else reuses the model's
// buffers.
//
// E returns an error if a posterior precision cannot be factorised (a
// numerical breakdown) or a responsibility is not finite; the model must
// then be restored (Restore) or dropped.
func (m *Model) E() (vb.Bound, error) {
	m.agValid, m.moved = !m.moved, false
	m.prevResp = append(m.prevResp[:0], m.resp...)
	m.prepPsi()
	for range m.InnerRepeats {
		for s, c := range m.comps {
			if err := m.updateX(c); err != nil {
				return failedBound(), fmt.Errorf("mfa: q(x|s) of analyser %d: %w", s, err)
			}
		}
		for s, c := range m.comps {
			if err := m.updateLoadings(s, c); err != nil {
				return failedBound(), fmt.Errorf("mfa: q(Λ̃) of analyser %d: %w", s, err)
			}
		}
		m.computeT()
		if err := m.updateS(); err != nil {
			return failedBound(), err
		}
	}
	return m.bound(), nil
}

func failedBound() vb.Bound { return vb.Bound{F: math.NaN()} }

// Bound returns F at the current state without updating anything: q(x),
// q(Λ̃), q(s), q(π), q(ν) and Θ as they are (E returns it after its
// updates). After M or UpdateHyper it is the F that those steps raised.
func (m *Model) Bound() vb.Bound {
	m.prepPsi()
	m.computeT()
	return m.bound()
}

// prepPsi refreshes the quantities of E that depend on Ψ only.
func (m *Model) prepPsi() {
	m.lnPsiSum = 0
	for q, v := range m.Hyper.Psi {
		m.ipsi[q] = 1 / v
		m.lnPsiSum += math.Log(v)
	}
	for i := 0; i < m.n; i++ {
		var s float64
		for q, v := range m.y.RawRowView(i) {
			s += v * v * m.ipsi[q]
		}
		m.yPy[i] = s
	}
}

// fullA sets c.afull to ⟨Λ̃ᵀΨ⁻¹Λ̃⟩ = Σ_q ψ_q⁻¹(m_q m_qᵀ + Γ_q) of the current
// q(Λ̃^s) (d×d, both triangles), the matrix A_s of targets §1.12.
func (m *Model) fullA(c *component) {
	c.rows.SecondMomentTo(c.a, m.ipsi)
	raw := c.a.RawSymmetric()
	d := c.d
	for a := 0; a < d; a++ {
		for b := a; b < d; b++ {
			v := raw.Data[a*raw.Stride+b]
			c.afull[a*d+b] = v
			c.afull[b*d+a] = v
		}
	}
}

// updateX is the update of q(x_i | s) = N(x̄_i, Σ) for all i (eqs.
// (4.53)–(4.55), lines 2527–2534):
//
//	Σ⁻¹ = I + ⟨ΛᵀΨ⁻¹Λ⟩ = I + A[:k,:k],
//	x̄_i = Σ ⟨ΛᵀΨ⁻¹(y_i − μ)⟩ = Σ (E[Λ]ᵀΨ⁻¹y_i − A[:k,k]),
//
// where A[:k,k] = Σ_q ψ_q⁻¹(E[λ_q]E[μ_q] + Cov(λ_q, μ_q)) carries the Λ–μ
// cross-covariance that the reference code's inferQX omits (targets §1.5).
// Σ is factorised once; ln|Σ| = −ln|Σ⁻¹| from the factor.
func (m *Model) updateX(c *component) error {
	if err := m.updateSigma(c); err != nil {
		return err
	}
	n, p := m.n, m.p
	for i0 := 0; i0 < n; i0 += chunk {
		i1 := min(i0+chunk, n)
		for l := 0; l < c.k; l++ {
			xl := c.xT[l*n+i0 : l*n+i1]
			for i := range xl {
				xl[i] = -c.cv[l]
			}
			for q, w := range c.wt[l*p : (l+1)*p] {
				axpy(w, m.yT[q*n+i0:q*n+i1], xl)
			}
		}
	}
	return nil
}

// updateSigma sets Σ, ln|Σ|, tr Σ of q(x|s) and the maps wt = ΣE[Λ]ᵀΨ⁻¹ and
// cv = ΣA[:k,k], so that x̄_i = wt y_i − cv (see updateX).
func (m *Model) updateSigma(c *component) error {
	k, d, p := c.k, c.d, m.p
	if k == 0 {
		c.logDetSigma, c.traceSigma = 0, 0
		return nil
	}
	m.fullA(c)
	for a := 0; a < k; a++ {
		for b := 0; b <= a; b++ {
			v := c.afull[a*d+b]
			if a == b {
				v++
			}
			c.chol[a*k+b] = v
		}
	}
	if !cholLower(c.chol, k) {
		return ErrNotPositiveDefinite
	}
	c.logDetSigma = -logDetLower(c.chol, k)
	invFromLower(c.sigma, c.chol, k, c.scratch)
	c.traceSigma = 0
	for l := 0; l < k; l++ {
		c.traceSigma += c.sigma[l*k+l]
	}
	c.rows.MeanTo(c.mean)
	mean := c.mean.RawMatrix()
	for l := 0; l < k; l++ {
		sl := c.sigma[l*k : (l+1)*k]
		for q := 0; q < p; q++ {
			c.wt[l*p+q] = dot(sl, mean.Data[q*mean.Stride:q*mean.Stride+k]) * m.ipsi[q]
		}
		var cv float64
		for j, v := range sl {
			cv += v * c.afull[j*d+k]
		}
		c.cv[l] = cv
	}
	return nil
}

// stats sets the sufficient statistics of analyser s under the current
// q(s) and q(x|s):
//
//	N_s = Σ_i q_is,   G_s = Σ_i q_is ⟨x̃_i x̃_iᵀ⟩ = [[N_sΣ + Σ_i q_is x̄x̄ᵀ, Σ_i q_is x̄], [·, N_s]],
//	Syx_s = Σ_i q_is y_i x̃̄_iᵀ   (p×d),
//
// each entry a dot product over the n points.
func (m *Model) stats(s int, c *component) {
	n, d, k := m.n, c.d, c.k
	r := m.resp[s*n : (s+1)*n]
	for j := range c.g {
		c.g[j] = 0
	}
	for j := range c.syx {
		c.syx[j] = 0
	}
	z := m.work // z_j = q_·s ∘ x̃_·j on the chunk; z_k = q_·s
	for i0 := 0; i0 < n; i0 += chunk {
		i1 := min(i0+chunk, n)
		w := i1 - i0
		rc := r[i0:i1]
		for j := 0; j < d; j++ {
			zj, xj := z[j*w:(j+1)*w], c.xT[j*n+i0:j*n+i1]
			for i, v := range rc {
				zj[i] = v * xj[i]
			}
		}
		for a := 0; a < d; a++ {
			xa := c.xT[a*n+i0 : a*n+i1]
			for b := a; b < d; b++ {
				c.g[a*d+b] += dot(xa, z[b*w:(b+1)*w])
			}
		}
		for q := 0; q < m.p; q++ {
			yq := m.yT[q*n+i0 : q*n+i1]
			sq := c.syx[q*d : (q+1)*d]
			for j := range sq {
				sq[j] += dot(yq, z[j*w:(j+1)*w])
			}
		}
	}
	ns := sum(r)
	for a := 0; a < d; a++ {
		for b := a; b < d; b++ {
			if a < k && b < k {
				c.g[a*d+b] += ns * c.sigma[a*k+b]
			}
			c.g[b*d+a] = c.g[a*d+b]
		}
	}
	c.nsum = ns
}

// updateLoadings is the update of q(Λ̃^s) = Π_q N(m_q, Γ_q) (eqs.
// (4.43)–(4.50), lines 2486–2511), row by row in all d = k_s+1 coordinates
// at once (the printed block-wise (4.49)–(4.50) is exact only without the
// Λ–μ cross-covariance; targets §1.5):
//
//	Γ_q⁻¹ = diag(⟨ν_1⟩, …, ⟨ν_k⟩, ν*_q) + ψ_q⁻¹ G_s,
//	m_q  = Γ_q (ψ_q⁻¹ Syx_s[q,:] + (0, …, 0, ν*_q μ*_q)).
//
// Each precision is factorised once by dist.NewGaussianRowsDistinctPrecision
// (ln|Γ_q| from the factor, no explicit inverse twice; targets §1.12).
func (m *Model) updateLoadings(s int, c *component) error {
	m.stats(s, c)
	k, d := c.k, c.d
	h := &m.Hyper
	for l := 0; l < k; l++ {
		m.kprec[l] = c.nu[l].Mean()
	}
	for q := 0; q < m.p; q++ {
		raw := c.precBuf[q].RawSymmetric()
		w := m.ipsi[q]
		for a := 0; a < d; a++ {
			row := raw.Data[a*raw.Stride : a*raw.Stride+d]
			ga := c.g[a*d : (a+1)*d]
			for b := a; b < d; b++ {
				row[b] = w * ga[b]
			}
		}
		for l := 0; l < k; l++ {
			raw.Data[l*raw.Stride+l] += m.kprec[l]
		}
		raw.Data[k*raw.Stride+k] += h.Nu[q]
		brow := c.b.RawRowView(q)
		for j, v := range c.syx[q*d : (q+1)*d] {
			brow[j] = w * v
		}
		brow[k] += h.Nu[q] * h.Mu[q]
	}
	if c.ownRows {
		if err := c.rows.SetDistinctPrecision(c.precs, c.b); err != nil {
			// The rows are partly overwritten: nothing may read them again.
			c.ownRows = false
			return fmt.Errorf("%w: %w", ErrNotPositiveDefinite, err)
		}
		return nil
	}
	rows, err := dist.NewGaussianRowsDistinctPrecision(c.precs, c.b)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNotPositiveDefinite, err)
	}
	c.rows, c.ownRows = rows, true
	return nil
}

// computeT sets T_x(i,s) and T_y(i,s) of targets §1.4 for every point and
// analyser from the current q(x|s), q(Λ̃^s) and Ψ:
//
//	T_x = −KL(q(x_i|s) ‖ N(0,I)) = ½(k_s + ln|Σ^s| − tr Σ^s − ‖x̄^s_i‖²),
//	T_y = ⟨ln N(y_i | Λ̃^s x̃_i, Ψ)⟩ = −½(p ln 2π + Σ_q ln ψ_q + Q_is),
//	Q_is = Σ_q ψ_q⁻¹⟨(y_iq − Λ̃^s_q·x̃_i)²⟩
//	     = y_iᵀΨ⁻¹y_i − 2 y_iᵀΨ⁻¹E[Λ̃^s] x̃̄_i + x̃̄_iᵀ A_s x̃̄_i + tr(A_s[:k,:k] Σ^s),
//
// the vectorised residual of targets §1.12 with A_s = ⟨Λ̃ᵀΨ⁻¹Λ̃⟩, so that a
// pass costs O(S n p k).
func (m *Model) computeT() {
	n, p := m.n, m.p
	c0 := -0.5 * (float64(p)*ln2Pi + m.lnPsiSum)
	for s, c := range m.comps {
		k, d := c.k, c.d
		m.fullA(c)
		c.rows.MeanTo(c.mean)
		mean := c.mean.RawMatrix()
		var trAS float64
		for a := 0; a < k; a++ {
			trAS += dot(c.afull[a*d:a*d+k], c.sigma[a*k:(a+1)*k])
		}
		// Over chunks of points, w_a = Σ_b A_ab x̃_·b − 2 Σ_q ψ_q⁻¹E[Λ̃_qa] y_·q,
		// so that Q_i = y_iᵀΨ⁻¹y_i + tr(A[:k,:k]Σ) + Σ_a x̃_ia w_ia.
		ty := m.ty[s*n : (s+1)*n]
		tx := m.tx[s*n : (s+1)*n]
		for i0 := 0; i0 < n; i0 += chunk {
			i1 := min(i0+chunk, n)
			wa := m.work[:i1-i0]
			tyc, txc := ty[i0:i1], tx[i0:i1]
			for i := range tyc {
				tyc[i] = m.yPy[i0+i] + trAS
				txc[i] = 0
			}
			for a := 0; a < d; a++ {
				for i := range wa {
					wa[i] = 0
				}
				for b, v := range c.afull[a*d : (a+1)*d] {
					axpy(v, c.xT[b*n+i0:b*n+i1], wa)
				}
				for q := 0; q < p; q++ {
					axpy(-2*mean.Data[q*mean.Stride+a]*m.ipsi[q], m.yT[q*n+i0:q*n+i1], wa)
				}
				xa := c.xT[a*n+i0 : a*n+i1]
				for i, v := range xa {
					tyc[i] += v * wa[i]
				}
				if a < k {
					for i, v := range xa {
						txc[i] += v * v
					}
				}
			}
		}
		tx0 := 0.5 * (float64(k) + c.logDetSigma - c.traceSigma)
		for i := range ty {
			ty[i] = c0 - 0.5*ty[i]
			tx[i] = tx0 - 0.5*tx[i]
		}
	}
}

// respFloor is the responsibility below which q_is is set to 0. Smaller
// values (down to subnormal numbers, for points far from an analyser) make
// every product with them subnormal and the arithmetic of the statistics
// many times slower; dropping them changes F by less than 1e-190 nats.
const respFloor = 1e-200

// updateS is the corrected update of q(s_i) (eq. (4.57), lines 2540–2549;
// targets §1.5): q_is ∝ exp(ψ(ω_s) − ψ(ω_0) + T_x(i,s) + T_y(i,s)),
// normalised in the log domain; values below respFloor become 0.
func (m *Model) updateS() error {
	n := m.n
	dist.DirichletMeanLogTo(m.elnpi, m.omega)
	ell := m.ell
	for i := 0; i < n; i++ {
		for s := range ell {
			ell[s] = m.elnpi[s] + m.tx[s*n+i] + m.ty[s*n+i]
		}
		if z := numeric.NormalizeLogTo(ell, ell); math.IsNaN(z) || math.IsInf(z, 0) {
			return fmt.Errorf("mfa: q(s) of point %d: log-normaliser %v", i, z)
		}
		for s, v := range ell {
			if v < respFloor {
				v = 0
			}
			m.resp[s*n+i] = v
		}
	}
	return nil
}

// bound returns F (eq. (4.29), lines 2405–2419; targets §1.4) from the
// current q's and the T_x, T_y of the last computeT:
//
//	F = −KL(q(π)‖p(π)) − Σ_s Σ_l KL(q(ν^s_l)‖p(ν^s_l)) − Σ_s Σ_q ⟨KL(q(Λ̃^s_q)‖p(Λ̃^s_q|ν^s))⟩
//	    + Σ_i Σ_s q_is [ψ(ω_s) − ψ(ω_0) − ln q_is + T_x(i,s) + T_y(i,s)].
func (m *Model) bound() vb.Bound {
	S, n := len(m.comps), m.n
	dist.DirichletMeanLogTo(m.elnpi, m.omega)
	var lnPiS, hS, klx, lik float64
	for s := 0; s < S; s++ {
		r := m.resp[s*n : (s+1)*n]
		lnPiS += sum(r) * m.elnpi[s]
		tx, ty := m.tx[s*n:(s+1)*n], m.ty[s*n:(s+1)*n]
		for i, v := range r {
			if v == 0 {
				continue
			}
			hS -= v * math.Log(v)
			klx += v * tx[i]
			lik += v * ty[i]
		}
	}
	for s := range m.piPrior {
		m.piPrior[s] = m.Hyper.Alpha / float64(S)
	}
	klPi := dist.DirichletKL(m.omega, m.piPrior)
	var klNu, klLam float64
	for _, c := range m.comps {
		m.componentKL(c)
		klNu += c.klNu
		klLam += c.klLam
	}
	f := lnPiS + hS + klx + lik - klPi - klNu - klLam
	return vb.Bound{F: f, Terms: []vb.Term{
		{Name: TermKLPi, Value: -klPi},
		{Name: TermKLNu, Value: -klNu},
		{Name: TermKLLambda, Value: -klLam},
		{Name: TermLnPiS, Value: lnPiS},
		{Name: TermHS, Value: hS},
		{Name: TermKLX, Value: klx},
		{Name: TermLik, Value: lik},
	}}
}

// componentKL sets c.klNu = Σ_l KL(Ga(a, b_l) ‖ Ga(a*, b*)) and c.klLam =
// Σ_q ⟨KL(N(m_q, Γ_q) ‖ N((0, …, 0, μ*_q), diag(ν_1, …, ν_k, ν*_q)⁻¹))⟩_q(ν),
// which under the factorisation q(ν)q(Λ̃) (eq. (4.28), line 2397) replaces
// ν_l and ln ν_l by their means (targets §1.4 items 2–3).
func (m *Model) componentKL(c *component) {
	h := &m.Hyper
	prior := dist.Gamma{Alpha: h.A, Beta: h.B}
	k, d := c.k, c.d
	c.klNu = 0
	for l, g := range c.nu {
		c.klNu += dist.KLGamma(g, prior)
		m.kvec[l] = 0
		m.kprec[l] = g.Mean()
		m.klprec[l] = g.MeanLog()
	}
	c.klLam = 0
	for q := 0; q < m.p; q++ {
		m.kvec[k] = h.Mu[q]
		m.kprec[k] = h.Nu[q]
		m.klprec[k] = math.Log(h.Nu[q])
		c.klLam += dist.KLRowDiag(c.rows, q, m.kvec[:d], m.kprec[:d], m.klprec[:d])
	}
}
