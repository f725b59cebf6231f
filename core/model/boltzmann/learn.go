package boltzmann

import (
	"fmt"
	"math"
)

// Association is a supervised task for deterministic (mean-field)
// Boltzmann learning, Galland's binary vector association (Lawrence
// L1719-1734): the units Inputs are clamped to X[n] in both phases, the
// units Outputs to Y[n] in the + phase (the conditional Q⁺ of eq. 4.7) and
// free in the − phase (Q⁻, eq. 4.8, the inputs still clamped), so that
// L⁺ − L⁻ (eq. 4.12) approximates ln P(Y[n] | X[n]).
type Association struct {
	Inputs, Outputs []int
	X, Y            [][]float64 // ±1 patterns
	// Mask marks the weights that exist and learn, N×N symmetric (nil:
	// every pair); LayeredMask builds the layered nets of Fig. 4.3.
	Mask []bool
}

// LayeredMask returns the N×N mask of layers of the given sizes, units
// numbered layer by layer, each unit connected to every unit of the
// adjacent layers and no other (Fig. 4.3, L1721).
func LayeredMask(sizes []int) []bool {
	n := 0
	start := make([]int, len(sizes)+1)
	for l, s := range sizes {
		start[l] = n
		n += s
	}
	start[len(sizes)] = n
	mask := make([]bool, n*n)
	for l := 0; l+1 < len(sizes); l++ {
		for i := start[l]; i < start[l+1]; i++ {
			for j := start[l+1]; j < start[l+2]; j++ {
				mask[i*n+j], mask[j*n+i] = true, true
			}
		}
	}
	return mask
}

// LearnSettings are the learning loop's settings; zero values are
// defaults where one is documented.
type LearnSettings struct {
	// Rate is η of gradient ascent on Σ_n F_n (0.001, Galland's, L1727).
	Rate float64
	// MaxIterations caps the gradient steps (default 10000).
	MaxIterations int
	// Within: learning has converged when every output of every pattern
	// has |⟨s_o⟩⁻ − y_o| < Within (0.2, L1727).
	Within float64
	// Schedule anneals each phase that starts from zero means (nil: none,
	// the machine's temperature only); its last temperature must be the
	// machine's. Inner stops each fixed-point run.
	Schedule []float64
	Inner    Settings
	// FromConditional starts the − phase of each pattern from the + phase's
	// means (outputs at their targets, shrunk into (−1, 1) by 1e-9) and
	// runs it at the machine's temperature without annealing (L1727);
	// otherwise both phases start from zero (L1727).
	FromConditional bool
}

func (s LearnSettings) withDefaults() LearnSettings {
	if s.Rate == 0 {
		s.Rate = 0.001
	}
	if s.MaxIterations == 0 {
		s.MaxIterations = 10000
	}
	if s.Within == 0 {
		s.Within = 0.2
	}
	return s
}

// Phases are the two phases of every pattern under the current weights.
type Phases struct {
	Plus, Minus []Moments
	// F is Σ_n L⁺_n − L⁻_n (eqs. 4.12-4.14): an approximation of
	// Σ_n ln P(y_n | x_n), not a bound (L695-744).
	F float64
	// CrossEntropy is F_obs (eq. 4.27, in the usual orientation):
	// −Σ_n Σ_o [(1 + y_o)/2 ln((1 + ⟨s_o⟩⁻)/2) + (1 − y_o)/2 ln((1 − ⟨s_o⟩⁻)/2)].
	CrossEntropy float64
	// MaxError is the largest |⟨s_o⟩⁻ − y_o| over patterns and outputs.
	MaxError float64
}

func (a *Association) check(m *Machine) error {
	if len(a.X) != len(a.Y) || len(a.X) == 0 {
		return fmt.Errorf("boltzmann: %d input and %d output patterns", len(a.X), len(a.Y))
	}
	for n := range a.X {
		if len(a.X[n]) != len(a.Inputs) || len(a.Y[n]) != len(a.Outputs) {
			return fmt.Errorf("boltzmann: pattern %d has %d inputs and %d outputs, want %d and %d", n, len(a.X[n]), len(a.Y[n]), len(a.Inputs), len(a.Outputs))
		}
	}
	for _, u := range append(append([]int(nil), a.Inputs...), a.Outputs...) {
		if u < 0 || u >= m.N {
			return fmt.Errorf("boltzmann: unit %d of a machine of %d", u, m.N)
		}
	}
	if a.Mask != nil && len(a.Mask) != m.N*m.N {
		return fmt.Errorf("boltzmann: mask of %d entries for %d units", len(a.Mask), m.N)
	}
	return nil
}

// Phases computes both phases of every pattern (the E step of learning).
func (a *Association) Phases(m *Machine, s LearnSettings) (Phases, error) {
	s = s.withDefaults()
	if err := a.check(m); err != nil {
		return Phases{}, err
	}
	var p Phases
	settle := func(q *MeanField, anneal bool) (Result, error) {
		if anneal && len(s.Schedule) > 0 {
			return q.Anneal(s.Schedule, s.Inner)
		}
		return q.Run(s.Inner)
	}
	for n := range a.X {
		cp, cm := make(Clamp, m.N), make(Clamp, m.N)
		for k, u := range a.Inputs {
			cp[u], cm[u] = a.X[n][k], a.X[n][k]
		}
		for k, u := range a.Outputs {
			cp[u] = a.Y[n][k]
		}
		qp, err := NewMeanField(m, cp, nil)
		if err != nil {
			return p, err
		}
		rp, err := settle(qp, true)
		if err != nil {
			return p, fmt.Errorf("pattern %d, + phase: %w", n, err)
		}
		var mu0 []float64
		if s.FromConditional {
			mu0 = make([]float64, m.N)
			for i, v := range qp.Mu {
				if cm[i] == 0 {
					mu0[i] = math.Max(-1+1e-9, math.Min(1-1e-9, v))
				}
			}
		}
		qm, err := NewMeanField(m, cm, mu0)
		if err != nil {
			return p, err
		}
		rm, err := settle(qm, !s.FromConditional)
		if err != nil {
			return p, fmt.Errorf("pattern %d, − phase: %w", n, err)
		}
		p.F += rp.Bound - rm.Bound
		for k, u := range a.Outputs {
			y, mu := a.Y[n][k], qm.Mu[u]
			p.MaxError = math.Max(p.MaxError, math.Abs(mu-y))
			p.CrossEntropy -= (1+y)/2*math.Log(math.Max((1+mu)/2, 1e-300)) + (1-y)/2*math.Log(math.Max((1-mu)/2, 1e-300))
		}
		p.Plus, p.Minus = append(p.Plus, qp.Moments()), append(p.Minus, qm.Moments())
	}
	return p, nil
}

// Gradient returns the derivatives of F by the weights w_ij (i < j
// entries of an N×N array, symmetric) and the biases, Σ_n of eq. 4.15:
// (⟨s_i⟩⁺⟨s_j⟩⁺ − ⟨s_i⟩⁻⟨s_j⟩⁻)/T, masked, and zero for the biases of the
// inputs (always clamped).
func (a *Association) Gradient(m *Machine, p Phases) (gW, gB []float64) {
	gW, gB = make([]float64, m.N*m.N), make([]float64, m.N)
	for n := range p.Plus {
		w, b := m.Gradient(p.Plus[n:n+1], p.Minus[n])
		for i := range gW {
			if a.Mask == nil || a.Mask[i] {
				gW[i] += w[i]
			}
		}
		for i := range gB {
			gB[i] += b[i]
		}
	}
	for _, u := range a.Inputs {
		gB[u] = 0
	}
	return gW, gB
}

// LearnTrace is a run of Learn: per iteration (0 = the initial weights)
// F, F_obs and the largest output error, and the gradient steps taken
// until convergence.
type LearnTrace struct {
	F, CrossEntropy, MaxError []float64
	Iterations                int  // gradient steps before every output was within Within
	Converged                 bool // false when MaxIterations steps were taken first
}

// Learn runs gradient ascent on F (eq. 4.15) from m's weights, which it
// changes, until every output of the − phase is within s.Within of its
// target or s.MaxIterations steps. Masked-out weights stay as they are.
func (a *Association) Learn(m *Machine, s LearnSettings) (LearnTrace, error) {
	s = s.withDefaults()
	var tr LearnTrace
	for it := 0; ; it++ {
		p, err := a.Phases(m, s)
		if err != nil {
			return tr, fmt.Errorf("iteration %d: %w", it, err)
		}
		tr.F, tr.CrossEntropy, tr.MaxError = append(tr.F, p.F), append(tr.CrossEntropy, p.CrossEntropy), append(tr.MaxError, p.MaxError)
		if p.MaxError < s.Within {
			tr.Iterations, tr.Converged = it, true
			return tr, nil
		}
		if it == s.MaxIterations {
			tr.Iterations = it
			return tr, nil
		}
		gW, gB := a.Gradient(m, p)
		for i := range m.N {
			for j := i + 1; j < m.N; j++ {
				if g := gW[i*m.N+j]; g != 0 {
					m.SetWeight(i, j, m.W[i*m.N+j]+s.Rate*g)
				}
			}
			m.B[i] += s.Rate * gB[i]
		}
		if err := m.Check(); err != nil {
			return tr, fmt.Errorf("iteration %d: %w", it, err)
		}
	}
}
