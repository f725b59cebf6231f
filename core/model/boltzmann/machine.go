package boltzmann

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
)

// MaxExactUnits is the largest number of free units Exact enumerates (2¹⁶
// states).
const MaxExactUnits = 16

// Machine is a fully connected Boltzmann machine on ±1 units: symmetric
// weights W (N×N, row-major, zero diagonal), biases B and temperature T,
// P(s) = exp(φ(s)/T)/Z with φ(s) = Σ_{i<j} w_ij s_i s_j + Σ_i b_i s_i
// (eqs. 4.1-4.3, L1530-1544, each pair counted once; the bias is the
// weight to s₀ = 1).
type Machine struct {
	N int
	W []float64
	B []float64
	T float64
}

// NewMachine returns a machine of n units with zero weights and biases at
// temperature 1.
func NewMachine(n int) *Machine {
	return &Machine{N: n, W: make([]float64, n*n), B: make([]float64, n), T: 1}
}

// NewRandom returns a machine of n units whose n(n−1)/2 weights and n
// biases are drawn from U(−span, span) (the networks of Fig. 4.2, L1701).
func NewRandom(n int, span float64, r *rand.Rand) *Machine {
	m := NewMachine(n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			w := span * (2*r.Float64() - 1)
			m.W[i*n+j], m.W[j*n+i] = w, w
		}
	}
	for i := range m.B {
		m.B[i] = span * (2*r.Float64() - 1)
	}
	return m
}

// SetWeight sets w_ij = w_ji = w.
func (m *Machine) SetWeight(i, j int, w float64) { m.W[i*m.N+j], m.W[j*m.N+i] = w, w }

// Check reports a machine that is not symmetric, has a self-connection, a
// non-finite parameter or a temperature that is not positive.
func (m *Machine) Check() error {
	if m.N < 1 || len(m.W) != m.N*m.N || len(m.B) != m.N {
		return fmt.Errorf("boltzmann: %d units with %d weights and %d biases", m.N, len(m.W), len(m.B))
	}
	if !(m.T > 0) || math.IsInf(m.T, 1) {
		return fmt.Errorf("boltzmann: temperature %g is not positive and finite", m.T)
	}
	for i := 0; i < m.N; i++ {
		if m.W[i*m.N+i] != 0 {
			return fmt.Errorf("boltzmann: w_%d%d = %g: a unit may not be its own neighbour (L1533)", i, i, m.W[i*m.N+i])
		}
		if math.IsNaN(m.B[i]) || math.IsInf(m.B[i], 0) {
			return fmt.Errorf("boltzmann: b_%d = %g", i, m.B[i])
		}
		for j := 0; j < m.N; j++ {
			w := m.W[i*m.N+j]
			if math.IsNaN(w) || math.IsInf(w, 0) || w != m.W[j*m.N+i] {
				return fmt.Errorf("boltzmann: w_%d%d = %g, w_%d%d = %g: weights must be finite and symmetric", i, j, w, j, i, m.W[j*m.N+i])
			}
		}
	}
	return nil
}

// Phi returns φ(s) = Σ_{i<j} w_ij s_i s_j + Σ_i b_i s_i (eq. 4.1); s may
// hold means, when it is ⟨φ⟩ under a factorised distribution.
func (m *Machine) Phi(s []float64) float64 {
	n := m.N
	var e float64
	for i := 0; i < n; i++ {
		row := m.W[i*n : i*n+n]
		var h float64
		for j := i + 1; j < n; j++ {
			h += row[j] * s[j]
		}
		e += s[i] * (h + m.B[i])
	}
	return e
}

// Field returns Σ_j w_kj s_j + b_k, the coefficient of s_k in φ.
func (m *Machine) Field(k int, s []float64) float64 {
	return numeric.Dot(m.W[k*m.N:k*m.N+m.N], s) + m.B[k]
}

// Clamp fixes units: Clamp[i] = ±1 holds unit i at that value, 0 leaves
// it free. A nil Clamp leaves every unit free (the joint, F); a clamp of
// the visible units gives the conditional (C, eq. 4.6).
type Clamp []float64

func (c Clamp) free(i int) bool { return c == nil || c[i] == 0 }

func (c Clamp) check(n int) error {
	if c == nil {
		return nil
	}
	if len(c) != n {
		return fmt.Errorf("boltzmann: clamp of %d units on a machine of %d", len(c), n)
	}
	for i, v := range c {
		if v != 0 && v != 1 && v != -1 {
			return fmt.Errorf("boltzmann: clamp[%d] = %g: not 0 (free) or ±1", i, v)
		}
	}
	return nil
}

// Moments are first and second moments of the units: Mean[i] = ⟨s_i⟩ and
// Pair[i*N+j] = ⟨s_i s_j⟩ (diagonal 1).
type Moments struct {
	Mean []float64
	Pair []float64
}

// Exact is the exact answer by enumeration of the free units' states:
// LogZ = ln Σ exp(φ(s)/T) (eq. 4.3; with clamped units, the sum over the
// free ones, so that ln P(v) = LogZ(v) − LogZ) and the moments.
type Exact struct {
	LogZ float64
	Moments
}

// ErrTooLarge is returned by Exact when there are more than MaxExactUnits
// free units.
var ErrTooLarge = errors.New("boltzmann: too many free units to enumerate")

// Exact enumerates the 2^F states of the F free units (F ≤ MaxExactUnits).
func (m *Machine) Exact(c Clamp) (Exact, error) {
	if err := m.Check(); err != nil {
		return Exact{}, err
	}
	if err := c.check(m.N); err != nil {
		return Exact{}, err
	}
	n := m.N
	var free []int
	s := make([]float64, n)
	for i := 0; i < n; i++ {
		if c.free(i) {
			free = append(free, i)
			s[i] = -1
		} else {
			s[i] = c[i]
		}
	}
	if len(free) > MaxExactUnits {
		return Exact{}, fmt.Errorf("%w: %d > %d", ErrTooLarge, len(free), MaxExactUnits)
	}
	states := 1 << len(free)
	lw := make([]float64, states)
	for k := 0; k < states; k++ {
		for b, i := range free {
			s[i] = float64(2*((k>>b)&1) - 1)
		}
		lw[k] = m.Phi(s) / m.T
	}
	lz := numeric.LogSumExp(lw)
	e := Exact{LogZ: lz, Moments: Moments{Mean: make([]float64, n), Pair: make([]float64, n*n)}}
	for k := 0; k < states; k++ {
		for b, i := range free {
			s[i] = float64(2*((k>>b)&1) - 1)
		}
		p := math.Exp(lw[k] - lz)
		for i := 0; i < n; i++ {
			e.Mean[i] += p * s[i]
			for j := i + 1; j < n; j++ {
				e.Pair[i*n+j] += p * s[i] * s[j]
			}
		}
	}
	for i := 0; i < n; i++ {
		e.Pair[i*n+i] = 1
		for j := i + 1; j < n; j++ {
			e.Pair[j*n+i] = e.Pair[i*n+j]
		}
	}
	return e, nil
}

// LogProb returns ln P(s) of a full state exactly (s of ±1).
func (m *Machine) LogProb(s []float64) (float64, error) {
	e, err := m.Exact(nil)
	if err != nil {
		return 0, err
	}
	return m.Phi(s)/m.T - e.LogZ, nil
}

// LogLik returns Σ_n ln P(v_n) (eq. 4.5) exactly: each row of data is a
// clamp of the visible units (0 at hidden units).
func (m *Machine) LogLik(data []Clamp) (float64, error) {
	joint, err := m.Exact(nil)
	if err != nil {
		return 0, err
	}
	var ll float64
	for _, v := range data {
		e, err := m.Exact(v)
		if err != nil {
			return 0, err
		}
		ll += e.LogZ - joint.LogZ
	}
	return ll, nil
}

// Gradient returns the gradient of Σ_n ln P(v_n) (eq. 4.6) with the
// expectations supplied: plus[n] under the conditional of pattern n (⟨·⟩_C
// or ⟨·⟩⁺), minus under the joint (⟨·⟩_F, ⟨·⟩⁻, or Σ_m Q(m)⟨s_i⟩_m⟨s_j⟩_m of
// eq. 4.25). gW is N×N symmetric with zero diagonal: gW[i*N+j] =
// Σ_n (plus_n.Pair_ij − minus.Pair_ij)/T, the derivative by the one
// parameter w_ij = w_ji; gB[i] = Σ_n (plus_n.Mean_i − minus.Mean_i)/T. With
// exact moments it is the exact gradient; with mean-field or mixture
// moments it is eq. 4.15 or 4.25.
func (m *Machine) Gradient(plus []Moments, minus Moments) (gW, gB []float64) {
	n := m.N
	gW, gB = make([]float64, n*n), make([]float64, n)
	for _, p := range plus {
		for i := 0; i < n; i++ {
			gB[i] += (p.Mean[i] - minus.Mean[i]) / m.T
			for j := 0; j < n; j++ {
				if i != j {
					gW[i*n+j] += (p.Pair[i*n+j] - minus.Pair[i*n+j]) / m.T
				}
			}
		}
	}
	return gW, gB
}

// factorisedMoments returns the moments of a factorised distribution with
// means mu: ⟨s_i s_j⟩ = μ_i μ_j off the diagonal.
func factorisedMoments(mu []float64, n int) Moments {
	mo := Moments{Mean: append([]float64(nil), mu...), Pair: make([]float64, n*n)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j {
				mo.Pair[i*n+j] = 1
			} else {
				mo.Pair[i*n+j] = mu[i] * mu[j]
			}
		}
	}
	return mo
}
