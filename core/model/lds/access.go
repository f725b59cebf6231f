package lds

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Accessors of the fitted model. Each returns a fresh copy that the caller
// owns, unless it says otherwise; none is meant for a hot loop.

// Dims returns the hidden dimension k, the output dimension p and the input
// dimension d (0 without inputs).
func (m *VB) Dims() (k, p, d int) { return m.k, m.p, m.d }

// Mode returns the algorithm the model runs.
func (m *VB) Mode() Mode { return m.mode }

// Kappa returns κ of the MAP modes (1 in Variational mode).
func (m *VB) Kappa() float64 { return m.kappa }

// A returns ⟨A⟩ (k×k), the posterior mean of the dynamics matrix (eq. 5.52).
func (m *VB) A() *mat.Dense { return mat.NewDense(m.k, m.k, slices.Clone(m.phi.A)) }

// B returns ⟨B⟩ (k×d, eq. 5.54), or nil without inputs.
func (m *VB) B() *mat.Dense {
	if m.d == 0 {
		return nil
	}
	return mat.NewDense(m.k, m.d, slices.Clone(m.phi.B))
}

// C returns ⟨C⟩ (p×k), the posterior mean of the output matrix (eq. 5.61).
func (m *VB) C() *mat.Dense {
	c := mat.NewDense(m.p, m.k, nil)
	for s := 0; s < m.p; s++ {
		for j := 0; j < m.k; j++ {
			c.Set(s, j, m.meanCD[j*m.p+s])
		}
	}
	return c
}

// D returns ⟨D⟩ (p×d, eq. 5.62), or nil without inputs.
func (m *VB) D() *mat.Dense {
	if m.d == 0 {
		return nil
	}
	dd := mat.NewDense(m.p, m.d, nil)
	for s := 0; s < m.p; s++ {
		for c := 0; c < m.d; c++ {
			dd.Set(s, c, m.meanCD[(m.k+c)*m.p+s])
		}
	}
	return dd
}

// Rho returns ρ̄_s = ⟨ρ_s⟩, the posterior means of the output-noise
// precisions (eq. 5.57).
func (m *VB) Rho() []float64 { return slices.Clone(m.phi.Rho) }

// NoisePosterior returns q(ρ_s) = Ga(a + T/2, b + G_ss/2) for each output
// (eq. 5.42). E[ρ_s⁻¹] = b_s/(a_s − 1) for the returned shape a_s > 1 and
// rate b_s is the factor of the variance of row s of C and D (targets
// §1.11).
func (m *VB) NoisePosterior() []dist.Gamma { return slices.Clone(m.rho) }

// CovAB returns Σ_AB, the (k+d)×(k+d) covariance of every row [a_(j); b_(j)]
// of [A B] under q: its blocks are Σ̂_A (eq. 5.41), Σ_B (eq. 5.38) and
// their cross-covariance −Σ_A G_A Σ_B.
func (m *VB) CovAB() *mat.SymDense {
	return mat.NewSymDense(m.n1, slices.Clone(m.covAB))
}

// CovCD returns Σ_CD, the (k+d)×(k+d) matrix such that row s of [C D] has
// the covariance ρ_s⁻¹Σ_CD given ρ_s: its blocks are Σ̂_C (eq. 5.50), Σ_D
// (eq. 5.46) and −Σ_C G_C Σ_D. The marginal over ρ_s is a Student-t whose
// covariance is E[ρ_s⁻¹]Σ_CD (targets §1.5, §1.11).
func (m *VB) CovCD() *mat.SymDense {
	return mat.NewSymDense(m.n1, slices.Clone(m.covCD))
}

// Sigma0 returns Σ_0, the prior covariance of x_0 (the inverse of
// Hyper.Lambda0).
func (m *VB) Sigma0() *mat.SymDense {
	s := make([]float64, m.k*m.k)
	if _, ok := numeric.InverseSPD(s, m.Hyper.Lambda0, m.k); !ok {
		panic("lds: Hyper.Lambda0 is not positive definite")
	}
	return mat.NewSymDense(m.k, s)
}

// Natural returns a copy of φ̄, the expected natural parameters of the
// current q(θ) with the current x_0 prior (eq. 5.51), as the VBE step
// reads them.
func (m *VB) Natural() *infer.LDSNatural {
	n := infer.NewLDSNatural(m.k, m.p, m.d)
	phi := m.phi
	copy(n.A, phi.A)
	copy(n.AtA, phi.AtA)
	copy(n.B, phi.B)
	copy(n.AtB, phi.AtB)
	copy(n.BtB, phi.BtB)
	copy(n.CtRhoC, phi.CtRhoC)
	copy(n.RhoC, phi.RhoC)
	copy(n.CtRhoD, phi.CtRhoD)
	copy(n.RhoD, phi.RhoD)
	copy(n.DtRhoD, phi.DtRhoD)
	copy(n.Rho, phi.Rho)
	n.LogDetRho = phi.LogDetRho
	copy(n.Mu0, m.Hyper.Mu0)
	copy(n.Lambda0, m.Hyper.Lambda0)
	return n
}

// MeanParams returns the point parameters ⟨A⟩, ⟨B⟩, ⟨C⟩, ⟨D⟩, ρ̄ and the
// current μ_0, Σ_0: the MAP estimate in the MAP modes (targets §2.1), and
// in Variational mode the parameters at which the ordinary Kalman smoother
// approaches the variational one as the data grow (targets §1.13 item 4).
func (m *VB) MeanParams() *Params {
	return &Params{
		A: m.A(), B: m.B(), C: m.C(), D: m.D(), Rho: m.Rho(),
		Mu0: slices.Clone(m.Hyper.Mu0), Sigma0: m.Sigma0(),
	}
}

// NumSequences returns the number of training sequences.
func (m *VB) NumSequences() int { return len(m.data.y) }

// Posterior returns q(x_{0:T}) of training sequence i from the last VBE
// step: the smoothed means ω_t, covariances Υ_{t,t} and cross-covariances
// Υ_{t,t+1}, with x_0 apart, and ln Z'_i (package infer's layouts). The
// result belongs to the model and is overwritten by the next E; do not
// modify it.
func (m *VB) Posterior(i int) *infer.LDSPosterior { return &m.post[i] }

// States returns the smoothed means ⟨x_t⟩ = ω_t, t = 1..T_i, of training
// sequence i from the last VBE step (T_i×k).
func (m *VB) States(i int) *mat.Dense {
	return mat.NewDense(m.post[i].T, m.k, slices.Clone(m.post[i].X))
}

// Infer runs the VBE step (Algorithms 5.1 and 5.2) of one sequence that is
// not part of the training data (a test sequence) under the current q(θ)
// and x_0 prior (targets §4 #23) and returns its q(x_{0:T}) with ln Z'. It
// does not change the model's statistics.
func (m *VB) Infer(seq Sequence) (*infer.LDSPosterior, error) {
	ds, err := newDataset([]Sequence{seq})
	if err != nil {
		return nil, err
	}
	if ds.p != m.p || ds.d != m.d {
		return nil, fmt.Errorf("lds: Infer: the sequence has p=%d, d=%d; the model p=%d, d=%d", ds.p, ds.d, m.p, m.d)
	}
	if m.err != nil {
		return nil, m.err
	}
	phi := m.Natural()
	ks := infer.NewKalmanSmoother(m.k, m.p, m.d, ds.tmax)
	post := new(infer.LDSPosterior)
	if err := ks.Smooth(post, phi, ds.y[0], ds.u[0]); err != nil {
		return nil, fmt.Errorf("lds: Infer: %w", err)
	}
	return post, nil
}

// Filtered returns the filtered means ⟨x_t | y_{1:t}, u_{1:t}⟩ (T×k) of a
// sequence that is not part of the training data, under the current q(θ)
// and x_0 prior, for t = 1..T: row t−1 is, bit for bit, the last smoothed
// mean of Infer on the sequence's first t steps, from one pass of the
// smoother instead of T (infer.KalmanSmoother.Filter). It does not change
// the model's statistics.
func (m *VB) Filtered(seq Sequence) (*mat.Dense, error) {
	ds, err := newDataset([]Sequence{seq})
	if err != nil {
		return nil, err
	}
	if ds.p != m.p || ds.d != m.d {
		return nil, fmt.Errorf("lds: Filtered: the sequence has p=%d, d=%d; the model p=%d, d=%d", ds.p, ds.d, m.p, m.d)
	}
	if m.err != nil {
		return nil, m.err
	}
	ks := infer.NewKalmanSmoother(m.k, m.p, m.d, ds.tmax)
	mu := make([]float64, ds.tmax*m.k)
	if err := ks.Filter(mu, new(infer.LDSPosterior), m.Natural(), ds.y[0], ds.u[0]); err != nil {
		return nil, fmt.Errorf("lds: Filtered: %w", err)
	}
	return mat.NewDense(ds.tmax, m.k, mu), nil
}
