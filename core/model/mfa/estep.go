package mfa

import (
	"fmt"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// chunk is the number of points that the loops of E take at a time, so
// that the block of data they read (p rows of chunk points) stays in the
// second-level cache while numeric's kernels run over its rows.
const chunk = 512

// scatterBlock is the number of points of one numeric.ScatterLower call of
// scatter (its scratch is 2(p+1) rows of them).
const scatterBlock = 128

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
//  4. under MoveSettings.Death = DeathInSweep (the default), the removal of
//     every analyser left with less than DeathThreshold (one point) of
//     responsibility, and q(s) again over the survivors (section 4.3.1,
//     L2637; sweepDeaths);
//
// and then returns F (eq. (4.29), lines 2405–2419) at the resulting state,
// as the seven terms TermKLPi … TermLik (and TermRefPenalty under
// Settings.ReferencePenalty). Steps 1–3 are each the exact maximiser of F
// in their factor, so they never lower F; a removal is not such a step,
// and the change of F it made is the returned bound's Jump (see
// removeAnalysers), which vb.Run leaves out of its monotonicity check.
//
// q(Λ̃) is updated here rather than in M so that vb.Run's cycle E, M,
// UpdateHyper is the reference sweep (targets §1.6); M holds q(π) and q(ν).
//
// Step 2 overwrites each q(Λ̃^s) in place (dist.GaussianRows.
// SetDistinctPrecision) unless it is shared with a snapshot (Save), a
// child of a birth or a caller of Loadings, in which case it builds a new
// one. Otherwise E does not allocate: everything reuses the model's
// buffers, and the returned Bound.Terms is the model's own slice, valid
// until the next E or Bound (vb.Run copies it).
//
// The cost of a sweep is O(S n p k) (targets §1.12), spent in products of
// the data with small matrices taken over chunks of points by numeric's
// vector kernels (MulAdd, MulAddT, ScatterLower): the factor means
// (updateX), the residual terms (computeT) and, when p(p+1)/2 is small
// against p(k+1), the weighted data scatter that gives the statistics of
// q(Λ̃) and Ψ (statsScatter). Points with q_is = 0 are skipped in sums
// where they add exactly nothing.
//
// E returns an error if a posterior precision cannot be factorised (a
// numerical breakdown) or a responsibility is not finite; the model must
// then be restored (Restore) or dropped.
func (m *VB) E() (vb.Bound, error) {
	m.agValid, m.moved = !m.moved, false
	m.prevResp = append(m.prevResp[:0], m.resp...)
	m.prepPsi()
	m.eSteps++
	var jump float64
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
		j, err := m.sweepDeaths()
		jump += j
		if err != nil {
			return failedBound(), err
		}
	}
	b := m.bound(true)
	b.Jump = jump
	return b, nil
}

func failedBound() vb.Bound { return vb.Bound{F: math.NaN()} }

// Bound returns F (eq. (4.29)) at the current state without updating
// anything: q(x), q(Λ̃), q(s), q(π), q(ν) and Θ as they are (E returns it
// after its updates). After M or UpdateHyper it is the F that those steps
// raised. Its Terms are valid until the next E or Bound, as E's.
func (m *VB) Bound() vb.Bound {
	m.prepPsi()
	m.computeT()
	return m.bound(false)
}

// prepPsi refreshes the quantities of E that depend on Ψ only.
func (m *VB) prepPsi() {
	m.lnPsiSum = 0
	for q, v := range m.Hyper.Psi {
		m.ipsi[q] = 1 / v
		m.lnPsiSum += math.Log(v)
	}
	// y_iᵀΨ⁻¹y_i = Σ_q ψ_q⁻¹ y_iq²: the row ψ⁻¹ times the squared data
	// (p×n), summed in q.
	n := m.n
	clear(m.yPy[:n])
	numeric.MulAdd(1, n, m.p, m.ipsi, 1, 1, m.yT2, n, m.yPy, n)
}

// fullA sets c.afull to ⟨Λ̃ᵀΨ⁻¹Λ̃⟩ = Σ_q ψ_q⁻¹(m_q m_qᵀ + Γ_q) of the current
// q(Λ̃^s) (d×d, both triangles), the matrix A_s of targets §1.12.
func (m *VB) fullA(c *component) {
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
// Σ is factorised once; ln|Σ| = −ln|Σ⁻¹| from the factor. The means of all
// points are one product X̄ᵀ = W Yᵀ − cv 1ᵀ with W = ΣE[Λ]ᵀΨ⁻¹ (k×p), taken
// over chunks of points by numeric.MulAdd (each x̄_il = −cv_l + Σ_q W_lq y_iq
// summed in q).
func (m *VB) updateX(c *component) error {
	if err := m.updateSigma(c); err != nil {
		c.xFresh = false
		return err
	}
	n, p := m.n, m.p
	for i0 := 0; i0 < n; i0 += chunk {
		i1 := min(i0+chunk, n)
		for l := 0; l < c.k; l++ {
			xl, v := c.xT[l*n+i0:l*n+i1], -c.cv[l]
			for i := range xl {
				xl[i] = v
			}
		}
		numeric.MulAdd(c.k, i1-i0, p, c.wt, p, 1, m.yT[i0:], n, c.xT[i0:], n)
	}
	c.xFresh = true
	return nil
}

// updateSigma sets Σ, ln|Σ|, tr Σ of q(x|s) and the maps wt = ΣE[Λ]ᵀΨ⁻¹ and
// cv = ΣA[:k,k], so that x̄_i = wt y_i − cv (see updateX).
func (m *VB) updateSigma(c *component) error {
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
	if !numeric.CholFactor(c.chol, k) {
		return ErrNotPositiveDefinite
	}
	c.logDetSigma = -numeric.CholLogDet(c.chol, k)
	numeric.CholInverse(c.sigma, c.chol, k, c.scratch)
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
	numeric.FlushSubnormals(c.wt[:k*p])
	numeric.FlushSubnormals(c.cv[:k])
	return nil
}

// nonzero sets m.idx to the points i0 ≤ i < i1 = min(i0+chunk, n) with
// r_i ≠ 0, in order, and returns their number and i1. A point of zero
// responsibility adds exactly nothing to a statistic of its analyser, so
// the sums below skip it.
func (m *VB) nonzero(r []float64, i0 int) (w, i1 int) {
	i1 = min(i0+chunk, len(r))
	idx := m.idx[:i1-i0]
	for t, v := range r[i0:i1] {
		if v != 0 {
			idx[w] = i0 + t
			w++
		}
	}
	return w, i1
}

// stats sets the sufficient statistics of analyser s under the current
// q(s) and q(x|s):
//
//	N_s = Σ_i q_is,   G_s = Σ_i q_is ⟨x̃_i x̃_iᵀ⟩ = [[N_sΣ + Σ_i q_is x̄x̄ᵀ, Σ_i q_is x̄], [·, N_s]],
//	Syx_s = Σ_i q_is y_i x̃̄_iᵀ   (p×d),
//
// from the scatter of the data (statsScatter) when the means x̄_i are those
// of the last updateX and that is cheaper, else point by point
// (statsPoints).
func (m *VB) stats(s int, c *component) {
	p, d := m.p, c.d
	if c.xFresh && p*(p+1)/2+2*p < 2*(p*d+d*(d+1)/2+p+d) {
		m.statsScatter(s, c)
	} else {
		m.statsPoints(s, c)
	}
}

// statsPoints computes the statistics of stats as dot products over the
// points of nonzero responsibility, a chunk at a time (numeric.MulAddT).
func (m *VB) statsPoints(s int, c *component) {
	n, p, d, k := m.n, m.p, c.d, c.k
	r := m.resp[s*n : (s+1)*n]
	clear(c.g)
	clear(c.syx)
	for i0 := 0; i0 < n; {
		w, i1 := m.nonzero(r, i0)
		if w == 0 {
			i0 = i1
			continue
		}
		// The chunk's x̃_·j, y_·q and q_·s: views (rows ld = n apart) of
		// all its points unless fewer than half have q_is ≠ 0, else those
		// gathered (ld = w). A point of zero responsibility adds exactly
		// nothing; gathering costs about as much as the products.
		x := func(j int) []float64 { return c.xT[j*n+i0:] }
		y := func(q int) []float64 { return m.yT[q*n+i0:] }
		rc, ld := r[i0:i1], n
		if 2*w >= i1-i0 {
			w = i1 - i0
		} else {
			idx := m.idx[:w]
			for j := 0; j < d; j++ {
				gx, xj := m.gx[j*w:(j+1)*w], c.xT[j*n:(j+1)*n]
				for t, i := range idx {
					gx[t] = xj[i]
				}
			}
			for q := 0; q < p; q++ {
				gy, yq := m.gy[q*w:(q+1)*w], m.yT[q*n:(q+1)*n]
				for t, i := range idx {
					gy[t] = yq[i]
				}
			}
			gr := m.gr[:w]
			for t, i := range idx {
				gr[t] = r[i]
			}
			x = func(j int) []float64 { return m.gx[j*w:] }
			y = func(q int) []float64 { return m.gy[q*w:] }
			rc, ld = gr, w
		}
		// z_j = q_·s ∘ x̃_·j; z_k = q_·s.
		z := m.gz
		for j := 0; j < d; j++ {
			zj, xj := z[j*w:(j+1)*w], x(j)[:w]
			for t, v := range rc {
				zj[t] = v * xj[t]
			}
		}
		// G += X̃ Zᵀ (all of it; the lower triangle is overwritten
		// below) and Syx += Y Zᵀ, dot products over the chunk.
		numeric.MulAddT(d, d, w, x(0), ld, z, w, c.g, d)
		numeric.MulAddT(p, d, w, y(0), ld, z, w, c.syx, d)
		i0 = i1
	}
	ns := numeric.Sum(r)
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

// scatter sets the weighted mean and scatter of the data under q(s_i = s),
//
//	N_s = Σ_i q_is,   ȳ_s = (1/N_s) Σ_i q_is y_i,   D_s = Σ_i q_is (y_i − ȳ_s)(y_i − ȳ_s)ᵀ   (p×p),
//
// (ȳ_s = 0 when N_s = 0) unless they are already there for the current
// q(·|s): they change only with q(s), once per sweep, and serve both
// statistics of the sweep (the Ψ update's and the next q(Λ̃)'s).
func (m *VB) scatter(s int, c *component) {
	n, p := m.n, m.p
	r := m.resp[s*n : (s+1)*n]
	if c.scValid && slices.Equal(c.scR, r) {
		return
	}
	if c.scR == nil {
		c.scR = make([]float64, n)
		c.scMean = make([]float64, p)
		c.scD = make([]float64, p*p)
		c.wd = make([]float64, c.k*p)
	}
	ns := numeric.Sum(r)
	for q := range c.scMean {
		c.scMean[q] = 0
		if ns > 0 {
			c.scMean[q] = numeric.Dot(r, m.yT[q*n:(q+1)*n]) / ns
		}
	}
	// D_s is the upper-left block of numeric.ScatterLower's (p+1)×(p+1)
	// lower triangle (its last row, Σ_i q_is (y_i − ȳ) and N_s, is not
	// used), summed over the points of nonzero responsibility, gathered a
	// chunk at a time, scatterBlock points a call.
	p1 := p + 1
	sc := m.sc[:p1*p1]
	clear(sc)
	for i0 := 0; i0 < n; {
		w, i1 := m.nonzero(r, i0)
		yc, ld, rc := m.yT[i0:], n, r[i0:i1]
		if w < i1-i0 {
			idx := m.idx[:w]
			for q := 0; q < p; q++ {
				g, yq := m.gy[q*w:(q+1)*w], m.yT[q*n:(q+1)*n]
				for t, i := range idx {
					g[t] = yq[i]
				}
			}
			gr := m.gr[:w]
			for t, i := range idx {
				gr[t] = r[i]
			}
			yc, ld, rc = m.gy, w, gr
		}
		for j0 := 0; j0 < w; j0 += scatterBlock {
			j1 := min(j0+scatterBlock, w)
			numeric.ScatterLower(sc, p, yc[j0:], ld, c.scMean, rc[j0:j1], m.scWork)
		}
		i0 = i1
	}
	for q := 0; q < p; q++ {
		for u := 0; u <= q; u++ {
			v := sc[q*p1+u]
			c.scD[q*p+u], c.scD[u*p+q] = v, v
		}
	}
	copy(c.scR, r)
	c.scN, c.scValid = ns, true
}

// statsScatter computes the statistics of stats from the scatter of the
// data (see scatter) and the map of updateX, x̄_i = W(y_i − ȳ) + x̄₀ with
// W = ΣE[Λ]ᵀΨ⁻¹ and x̄₀ = Wȳ − cv, in O(kp² + k²p) instead of O(npk):
//
//	Σ_i q_is x̄_i x̄_iᵀ = W D Wᵀ + N x̄₀x̄₀ᵀ,   Σ_i q_is x̄_i = N x̄₀,
//	Σ_i q_is y_i x̄_iᵀ = D Wᵀ + N ȳ x̄₀ᵀ,     Σ_i q_is y_i = N ȳ,
//
// since Σ_i q_is (y_i − ȳ) = 0. It needs c.xFresh (the x̄_i are W y_i − cv).
func (m *VB) statsScatter(s int, c *component) {
	m.scatter(s, c)
	p, d, k := m.p, c.d, c.k
	ns, ybar := c.scN, c.scMean
	x0 := m.kvec[:k]
	for l := 0; l < k; l++ {
		x0[l] = dot(c.wt[l*p:(l+1)*p], ybar) - c.cv[l]
	}
	// wd = W D (k×p).
	for l := 0; l < k; l++ {
		wl, out := c.wt[l*p:(l+1)*p], c.wd[l*p:(l+1)*p]
		for u := range out {
			out[u] = dot(wl, c.scD[u*p:(u+1)*p])
		}
	}
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			v := dot(c.wd[a*p:(a+1)*p], c.wt[b*p:(b+1)*p]) + ns*x0[a]*x0[b] + ns*c.sigma[a*k+b]
			c.g[a*d+b], c.g[b*d+a] = v, v
		}
		c.g[a*d+k], c.g[k*d+a] = ns*x0[a], ns*x0[a]
	}
	c.g[k*d+k] = ns
	for q := 0; q < p; q++ {
		sq := c.syx[q*d : (q+1)*d]
		for a := 0; a < k; a++ {
			sq[a] = c.wd[a*p+q] + ns*ybar[q]*x0[a]
		}
		sq[k] = ns * ybar[q]
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
func (m *VB) updateLoadings(s int, c *component) error {
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
// pass costs O(S n p k). With x̃̄_i = [x̄_i; 1] and A symmetric it is summed
// over chunks of points as
//
//	Q_is = y_iᵀΨ⁻¹y_i + tr(A[:k,:k]Σ) + A_kk − 2 y_iᵀΨ⁻¹E[μ]
//	       + Σ_{a<k} x̄_ia (A_aa x̄_ia + 2 Σ_{a<b<k} A_ab x̄_ib + 2A_ak − 2 y_iᵀΨ⁻¹E[Λ_·a]),
//
// the sums of products with the data and the means over a chunk by
// numeric.MulAdd (each summed in the order written: q, then a, then b).
func (m *VB) computeT() {
	n, p := m.n, m.p
	c0 := -0.5 * (float64(p)*ln2Pi + m.lnPsiSum)
	for s, c := range m.comps {
		k, d := c.k, c.d
		m.fullA(c)
		c.rows.MeanTo(c.mean)
		mean := c.mean.RawMatrix()
		// um[a*p+q] = −2 ψ_q⁻¹ E[Λ̃_qa].
		um := m.um[:d*p]
		for q := 0; q < p; q++ {
			for a, v := range mean.Data[q*mean.Stride : q*mean.Stride+d] {
				um[a*p+q] = -2 * m.ipsi[q] * v
			}
		}
		numeric.FlushSubnormals(um)
		var trAS float64
		for a := 0; a < k; a++ {
			trAS += dot(c.afull[a*d:a*d+k], c.sigma[a*k:(a+1)*k])
		}
		// ga[a*k+b] = A_aa (b = a), 2A_ab (b > a), 0 (b < a), the
		// coefficients of h_a in x̄; ak2[a] = 2A_ak, those of Q_i.
		ga, ak2 := m.ga[:k*k], m.ga[k*k:k*k+k]
		for a := 0; a < k; a++ {
			for b := 0; b < k; b++ {
				switch {
				case b == a:
					ga[a*k+b] = c.afull[a*d+a]
				case b > a:
					ga[a*k+b] = 2 * c.afull[a*d+b]
				default:
					ga[a*k+b] = 0
				}
			}
			ak2[a] = 2 * c.afull[a*d+k]
		}
		cst := trAS + c.afull[k*d+k]
		tx0 := 0.5 * (float64(k) + c.logDetSigma - c.traceSigma)
		ty := m.ty[s*n : (s+1)*n]
		tx := m.tx[s*n : (s+1)*n]
		for i0 := 0; i0 < n; i0 += chunk {
			i1 := min(i0+chunk, n)
			w := i1 - i0
			// Q_i ← y_iᵀΨ⁻¹y_i + tr(A[:k,:k]Σ) + A_kk − 2 y_iᵀΨ⁻¹E[μ] + 2 Σ_a A_ak x̄_ia.
			qc := ty[i0:i1]
			for i, v := range m.yPy[i0:i1] {
				qc[i] = v + cst
			}
			numeric.MulAdd(1, w, p, um[k*p:], 1, 1, m.yT[i0:], n, qc, w)
			numeric.MulAdd(1, w, k, ak2, 1, 1, c.xT[i0:], n, qc, w)
			// h_a = A_aa x̄_a + 2 Σ_{a<b<k} A_ab x̄_b − 2 Ψ⁻¹E[Λ_·a]ᵀy.
			clear(m.hk[:k*w])
			numeric.MulAdd(k, w, k, ga, k, 1, c.xT[i0:], n, m.hk, w)
			numeric.MulAdd(k, w, p, um, p, 1, m.yT[i0:], n, m.hk, w)
			// Q_i += Σ_a x̄_ia h_ia and ‖x̄_i‖², four coordinates a pass.
			xc := tx[i0:i1]
			clear(xc)
			for a := 0; a < k; {
				x0, h0 := c.xT[a*n+i0:a*n+i1], m.hk[a*w:(a+1)*w]
				switch {
				case a+4 <= k:
					x1, h1 := c.xT[(a+1)*n+i0:(a+1)*n+i1], m.hk[(a+1)*w:(a+2)*w]
					x2, h2 := c.xT[(a+2)*n+i0:(a+2)*n+i1], m.hk[(a+2)*w:(a+3)*w]
					x3, h3 := c.xT[(a+3)*n+i0:(a+3)*n+i1], m.hk[(a+3)*w:(a+4)*w]
					quad4(qc, xc, x0, x1, x2, x3, h0, h1, h2, h3)
					a += 4
				case a+2 <= k:
					x1, h1 := c.xT[(a+1)*n+i0:(a+1)*n+i1], m.hk[(a+1)*w:(a+2)*w]
					quad2(qc, xc, x0, x1, h0, h1)
					a += 2
				default:
					quad2(qc, xc, x0, x0[:0:0], h0, h0[:0:0])
					a++
				}
			}
			for i := range qc {
				qc[i] = c0 - 0.5*qc[i]
				xc[i] = tx0 - 0.5*xc[i]
			}
		}
	}
}

// quad4 adds Σ_j x_j ∘ h_j to q and Σ_j x_j ∘ x_j to xx over j < 4, element
// by element (one pass for four coordinates of computeT).
func quad4(q, xx, x0, x1, x2, x3, h0, h1, h2, h3 []float64) {
	n := len(q)
	xx, x0, x1, x2, x3 = xx[:n], x0[:n], x1[:n], x2[:n], x3[:n]
	h0, h1, h2, h3 = h0[:n], h1[:n], h2[:n], h3[:n]
	for i := range q {
		v0, v1, v2, v3 := x0[i], x1[i], x2[i], x3[i]
		q[i] += (v0*h0[i] + v1*h1[i]) + (v2*h2[i] + v3*h3[i])
		xx[i] += (v0*v0 + v1*v1) + (v2*v2 + v3*v3)
	}
}

// quad2 is quad4 for two coordinates, or one if x1 is empty.
func quad2(q, xx, x0, x1, h0, h1 []float64) {
	n := len(q)
	xx, x0, h0 = xx[:n], x0[:n], h0[:n]
	if len(x1) == 0 {
		for i := range q {
			v0 := x0[i]
			q[i] += v0 * h0[i]
			xx[i] += v0 * v0
		}
		return
	}
	x1, h1 = x1[:n], h1[:n]
	for i := range q {
		v0, v1 := x0[i], x1[i]
		q[i] += v0*h0[i] + v1*h1[i]
		xx[i] += v0*v0 + v1*v1
	}
}

// updateS is the corrected update of q(s_i) (eq. (4.57), lines 2540–2549;
// targets §1.5): q_is ∝ exp(ψ(ω_s) − ψ(ω_0) + T_x(i,s) + T_y(i,s)),
// normalised in the log domain by mixture.NormalizeLog (responsibilities
// below mixture.Floor become 0), which keeps the normalisers
// ln Z_i = ln Σ_s exp(ψ(ω_s) − ψ(ω_0) + T_x(i,s) + T_y(i,s)) for bound.
func (m *VB) updateS() error {
	dist.DirichletMeanLogTo(m.elnpi, m.omega)
	for s := range m.elnpi {
		m.logTerms(s, m.resp[s*m.n:(s+1)*m.n])
	}
	if err := mixture.NormalizeLog(m.resp, m.n, m.lnZ); err != nil {
		return fmt.Errorf("mfa: %w", err)
	}
	return nil
}

// logTerms writes the log-terms ψ(ω_s) − ψ(ω_0) + T_x(i,s) + T_y(i,s) of
// q(s_i = s), i < n, into dst, from m.elnpi and the last computeT.
func (m *VB) logTerms(s int, dst []float64) {
	n := m.n
	e := m.elnpi[s]
	dst = dst[:n]
	tx, ty := m.tx[s*n:s*n+len(dst)], m.ty[s*n:s*n+len(dst)]
	for i := range dst {
		dst[i] = e + tx[i] + ty[i]
	}
}

// bound returns F (eq. (4.29), lines 2405–2419; targets §1.4) from the
// current q's and the T_x, T_y of the last computeT (fromS: q(s) is the
// last updateS's, from these T_x, T_y and ω, whose normalisers ln Z_i give
// ln q_is without a logarithm per term):
//
//	F = −KL(q(π)‖p(π)) − Σ_s Σ_l KL(q(ν^s_l)‖p(ν^s_l)) − Σ_s Σ_q ⟨KL(q(Λ̃^s_q)‖p(Λ̃^s_q|ν^s))⟩
//	    + Σ_i Σ_s q_is [ψ(ω_s) − ψ(ω_0) − ln q_is + T_x(i,s) + T_y(i,s)].
func (m *VB) bound(fromS bool) vb.Bound {
	S, n := len(m.comps), m.n
	dist.DirichletMeanLogTo(m.elnpi, m.omega)
	var lnPiS, hS, klx, lik float64
	for s := 0; s < S; s++ {
		r := m.resp[s*n : (s+1)*n]
		lnPiS += numeric.Sum(r) * m.elnpi[s]
		tx, ty := m.tx[s*n:(s+1)*n], m.ty[s*n:(s+1)*n]
		if fromS {
			// H[q(s)] with ln q_is = ψ(ω_s) − ψ(ω_0) + T_x + T_y − ln Z_i
			// from mixture.NormalizeLog: no logarithm, in the one pass.
			e, lnZ := m.elnpi[s], m.lnZ[:len(r)]
			for i, v := range r {
				if v == 0 {
					continue
				}
				hS -= v * (e + tx[i] + ty[i] - lnZ[i])
				klx += v * tx[i]
				lik += v * ty[i]
			}
			continue
		}
		for i, v := range r {
			if v == 0 {
				continue
			}
			klx += v * tx[i]
			lik += v * ty[i]
		}
	}
	if !fromS {
		hS = mixture.Entropy(m.resp)
	}
	klPi := mixture.KLWeights(m.omega, m.Hyper.Alpha)
	var klNu, klLam float64
	for _, c := range m.comps {
		m.componentKL(c)
		klNu += c.klNu
		klLam += c.klLam
	}
	f := lnPiS + hS + klx + lik - klPi - klNu - klLam
	m.terms = append(m.terms[:0],
		vb.Term{Name: TermKLPi, Value: -klPi},
		vb.Term{Name: TermKLNu, Value: -klNu},
		vb.Term{Name: TermKLLambda, Value: -klLam},
		vb.Term{Name: TermLnPiS, Value: lnPiS},
		vb.Term{Name: TermHS, Value: hS},
		vb.Term{Name: TermKLX, Value: klx},
		vb.Term{Name: TermLik, Value: lik})
	if m.ReferencePenalty {
		var pen float64
		for _, c := range m.comps {
			pen += m.referencePenalty(c)
		}
		f -= pen
		m.terms = append(m.terms, vb.Term{Name: TermRefPenalty, Value: -pen})
	}
	return vb.Bound{F: f, Terms: m.terms}
}

// referencePenalty returns p(k_s+1), the nats by which the reference
// code's bound is below eq. (4.29) for analyser c (Settings.ReferencePenalty).
func (m *VB) referencePenalty(c *component) float64 { return float64(m.p * c.d) }

// componentKL sets c.klNu = Σ_l KL(Ga(a, b_l) ‖ Ga(a*, b*)) and c.klLam =
// Σ_q ⟨KL(N(m_q, Γ_q) ‖ N((0, …, 0, μ*_q), diag(ν_1, …, ν_k, ν*_q)⁻¹))⟩_q(ν),
// which under the factorisation q(ν)q(Λ̃) (eq. (4.28), line 2397) replaces
// ν_l and ln ν_l by their means (targets §1.4 items 2–3).
func (m *VB) componentKL(c *component) {
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
