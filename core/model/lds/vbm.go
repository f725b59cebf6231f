package lds

import (
	"fmt"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// scales returns the multiplier s of the statistics and the multiplier r
// of the ARD precisions and of (a − 1, b) in the VBM step: (1, 1) for
// Variational, (κ, 1) for MAPBoost and (κ, κ) for MAPTempered (targets §2.1).
func (m *VB) scales() (s, r float64) {
	switch m.mode {
	case MAPBoost:
		return m.kappa, 1
	case MAPTempered:
		return m.kappa, m.kappa
	}
	return 1, 1
}

// noisePrior returns the gamma prior of each ρ_s that the VBM step and the
// bound use: Ga(a, b), or Ga(κ(a − 1) + 1, κb) in MAPTempered mode.
func (m *VB) noisePrior() dist.Gamma {
	a, b := m.Hyper.NoiseShape, m.Hyper.NoiseRate
	if m.mode == MAPTempered {
		return dist.Gamma{Alpha: m.kappa*(a-1) + 1, Beta: m.kappa * b}
	}
	return dist.Gamma{Alpha: a, Beta: b}
}

// M is the VBM step (Beal 2003 section 5.3.1, eqs. 5.33-5.67, lines
// 3400-3532; targets §1.5), from the hidden-state statistics of the last
// VBE step (eqs. 5.126-5.132, summed over sequences, 5.148-5.149) and the
// data statistics Ü, U_Y, Ÿ (5.34):
//
//	Σ_AB⁻¹ = diag(α, β) + [[W_A, G_A], [G_Aᵀ, Ü]],  [⟨A⟩ ⟨B⟩]ᵀ = Σ_AB [S_A; M̃],
//	⟨[A B]ᵀ[A B]⟩ = k Σ_AB + [⟨A⟩ ⟨B⟩]ᵀ[⟨A⟩ ⟨B⟩]     (⟨AᵀA⟩, ⟨AᵀB⟩, ⟨BᵀB⟩: 5.53, 5.55, 5.56),
//	Σ_CD⁻¹ = diag(γ, δ) + [[W_C, G_C], [G_Cᵀ, Ü]],  [⟨C⟩ ⟨D⟩]ᵀ = Σ_CD [S_C; U_Y],
//	q(ρ_s) = Ga(a + T/2, b + G_ss/2)                 (5.42, 5.47, 5.57, 5.58),
//	⟨[C D]ᵀR⁻¹[C D]⟩ = p Σ_CD + [⟨C⟩ ⟨D⟩]ᵀ diag(ρ̄) [⟨C⟩ ⟨D⟩]   (5.63, 5.65, 5.67),
//
// with M̃ = G_Cᵀ (5.128), and the rest of φ̄ (5.51): ⟨R⁻¹C⟩ = diag(ρ̄)⟨C⟩,
// ⟨R⁻¹D⟩ = diag(ρ̄)⟨D⟩ (5.64, 5.66), ⟨ln|R⁻¹|⟩ = Σ_s ⟨ln ρ_s⟩. These are
// the thesis's expressions, which integrate out b_(j) and d_(s) of
// q(A|B) and q(C|ρ,D) in closed form (see VB). In the MAP modes the
// statistics (and in MAPTempered the prior) are multiplied by κ first.
//
// M is the exact maximiser of F over q(θ) with q(x) and the
// hyperparameters fixed, so it cannot lower F. It does not allocate. If a
// precision fails its Cholesky factorisation (not finite), M leaves q(θ)
// partly updated and the next E returns the error.
func (m *VB) M() {
	m.err = nil
	if err := m.updateAB(); err != nil {
		m.err = err
		return
	}
	if err := m.updateCD(); err != nil {
		m.err = err
	}
}

// updateAB sets q(A, B) and its part of φ̄.
func (m *VB) updateAB() error {
	k, d, n1 := m.k, m.d, m.n1
	st, phi := m.stats, m.phi
	s, r := m.scales()
	// The right-hand sides X = [S_A; M̃] (n1×k), M̃ = G_Cᵀ.
	P, X := m.cholAB, m.meanAB
	var err error
	m.logDetA, m.logDetB, err = m.factorPrecision(P, st.WA, st.GA, m.Hyper.Alpha, m.Hyper.Beta, s, r, "q(A, B)", X, st.SA[:k*k])
	if err != nil {
		return err
	}
	for c := 0; c < d; c++ {
		for j := 0; j < k; j++ {
			X[(k+c)*k+j] = s * st.GC[j*d+c]
		}
	}
	numeric.CholSolve(P, n1, X, k)
	numeric.CholSolveT(P, n1, X, k)
	numeric.CholInverse(m.covAB, P, n1, m.momAB) // momAB is set from covAB below

	// ⟨[A B]ᵀ[A B]⟩ = k Σ_AB + X Xᵀ (its lower triangle a row at a time,
	// mirrored), and the means: row j of ⟨A⟩ is column j of X's first k
	// rows.
	mom := m.momAB
	for i := range mom {
		mom[i] = float64(k) * m.covAB[i]
	}
	lowerGram(mom, n1, X, X, k)
	for j := 0; j < k; j++ {
		for i := 0; i < k; i++ {
			phi.A[j*k+i] = X[i*k+j]
		}
		for c := 0; c < d; c++ {
			phi.B[j*d+c] = X[(k+c)*k+j]
		}
	}
	block(phi.AtA, mom, n1, 0, 0, k, k)
	block(phi.AtB, mom, n1, 0, k, k, d)
	block(phi.BtB, mom, n1, k, k, d, d)
	return nil
}

// factorPrecision sets the (k+d)×(k+d) precision P = s·[[W, G], [Gᵀ, Ü]] +
// r·diag(a, b) of q(A, B) (W_A, G_A, α, β) or of q(C, D | ρ) (W_C, G_C, γ,
// δ), eqs. 5.37 and 5.44, overwrites it with its Cholesky factor and
// returns ln|Σ_A|, ln|Σ_B| (or ln|Σ_C|, ln|Σ_D|): minus the log-determinants
// of P's leading k×k block and of its Schur complement. name names q in
// the error of a failed factorisation. It also sets the first len(top)
// entries of the right-hand sides X to s·top (the k rows S_A or S_C).
func (m *VB) factorPrecision(P, W, G, a, b []float64, s, r float64, name string, X, top []float64) (ld1, ld2 float64, err error) {
	for i, v := range top {
		X[i] = s * v
	}
	m.fillPrecision(P, W, G, a, b, s, r)
	k, n1 := m.k, m.n1
	if !numeric.CholFactor(P, n1) {
		return 0, 0, fmt.Errorf("lds: VBM: the precision of %s is not positive definite: %w", name, numeric.ErrNotPositiveDefinite)
	}
	return -numeric.CholLogDetBlock(P, n1, 0, k), -numeric.CholLogDetBlock(P, n1, k, n1), nil
}

// fillPrecision sets P = s·[[W, G], [Gᵀ, Ü]] + r·diag(a, b) (see
// factorPrecision).
func (m *VB) fillPrecision(P, W, G, a, b []float64, s, r float64) {
	k, n1 := m.k, m.n1
	fillJoint(P, W, G, m.data.uu, k, m.d)
	for i := range P[:n1*n1] {
		P[i] *= s
	}
	for i, ai := range a {
		P[i*n1+i] += r * ai
	}
	for c, bc := range b {
		P[(k+c)*n1+k+c] += r * bc
	}
}

// updateCD sets q(C, D | ρ), q(ρ) and their part of φ̄.
func (m *VB) updateCD() error {
	k, p, d, n1 := m.k, m.p, m.d, m.n1
	st, ds, phi := m.stats, m.data, m.phi
	s, r := m.scales()
	// The right-hand sides X = [S_C; U_Y] (n1×p).
	P, X := m.cholCD, m.meanCD
	var err error
	m.logDetC, m.logDetD, err = m.factorPrecision(P, st.WC, st.GC, m.Hyper.Gamma, m.Hyper.Delta, s, r, "q(C, D | ρ)", X, st.SC[:k*p])
	if err != nil {
		return err
	}
	for i, v := range ds.uy[:d*p] {
		X[k*p+i] = s * v
	}

	// With V = L⁻¹[s_C,(s); u_Y,(s)], G_ss = Ÿ_ss − ‖V_s‖² (5.47), the
	// last pivot of the Cholesky factorisation of the augmented matrix
	// (targets §1.12, pitfall 3). It is > 0 in exact arithmetic; a
	// near-perfect fit can round it below 0, and it is clamped at 0 (the
	// rate b + G_ss/2 stays positive).
	numeric.CholSolve(P, n1, X, p)
	prior := m.noisePrior()
	shape := prior.Alpha + 0.5*s*float64(ds.nobs)
	phi.LogDetRho = 0
	for j := 0; j < p; j++ {
		g := s * ds.yy[j]
		for i := 0; i < n1; i++ {
			g -= X[i*p+j] * X[i*p+j]
		}
		g = max(g, 0)
		q := dist.Gamma{Alpha: shape, Beta: prior.Beta + 0.5*g}
		m.rho[j] = q
		phi.Rho[j] = q.Mean()
		phi.LogDetRho += q.MeanLog()
	}
	numeric.CholSolveT(P, n1, X, p)
	numeric.CholInverse(m.covCD, P, n1, m.momCD) // momCD is set from covCD below

	// ⟨[C D]ᵀR⁻¹[C D]⟩ = p Σ_CD + (X diag(ρ̄)) Xᵀ.
	mom, xw := m.momCD, m.xwCD
	for i := range mom {
		mom[i] = float64(p) * m.covCD[i]
	}
	for i := 0; i < n1; i++ {
		numeric.MulTo(xw[i*p:(i+1)*p], X[i*p:(i+1)*p], phi.Rho)
	}
	lowerGram(mom, n1, xw, X, p)
	for j := 0; j < p; j++ {
		w := phi.Rho[j]
		for i := 0; i < k; i++ {
			phi.RhoC[j*k+i] = w * X[i*p+j]
		}
		for c := 0; c < d; c++ {
			phi.RhoD[j*d+c] = w * X[(k+c)*p+j]
		}
	}
	block(phi.CtRhoC, mom, n1, 0, 0, k, k)
	block(phi.CtRhoD, mom, n1, 0, k, k, d)
	block(phi.DtRhoD, mom, n1, k, k, d, d)
	return nil
}

// lowerGram adds a·bᵀ to the lower triangle of the n×n matrix c, for the
// n×m matrices a and b (rows of m elements, each element a dot product
// of two rows: numeric.MulAddT), and copies the lower triangle to the
// upper, so that c is exactly symmetric. With a = b diag(w) it forms
// the second moments b diag(w) bᵀ of the VBM step.
func lowerGram(c []float64, n int, a, b []float64, m int) {
	for i := 0; i < n; i++ {
		numeric.MulAddT(1, i+1, m, a[i*m:(i+1)*m], m, b, m, c[i*n:i*n+i+1], i+1)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			c[j*n+i] = c[i*n+j]
		}
	}
}
