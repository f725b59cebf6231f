package boltzmann

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/vb"
)

// Settings are the stopping rules of the fixed-point iterations; every
// zero value means its documented default.
type Settings struct {
	// MaxIterations caps the iterations run to convergence at a
	// temperature (default 1000).
	MaxIterations int
	// RelTol stops an iteration run when the bound changes by at most
	// RelTol·|L| (default 1e-10).
	RelTol float64
	// AbsTol also stops a run when the bound changes by at most AbsTol
	// nats (default 0: off).
	AbsTol float64
	// StepIterations is the number of iterations at each temperature of an
	// annealing schedule above its last; 0 runs each to convergence. Lawrence's
	// digits schedule is one pass per temperature, then convergence at T = 1
	// (L1766).
	StepIterations int
	// MonotoneTol is the slack of the run-time check that no update lowers
	// the bound: a decrease beyond MonotoneTol·max(1, |L|) is an error
	// (default 1e-9).
	MonotoneTol float64
}

func (s Settings) withDefaults() Settings {
	if s.MaxIterations == 0 {
		s.MaxIterations = 1000
	}
	if s.RelTol == 0 {
		s.RelTol = 1e-10
	}
	if s.MonotoneTol == 0 {
		s.MonotoneTol = 1e-9
	}
	return s
}

// Result is the outcome of Run or Anneal.
type Result struct {
	Bound      float64 // the bound on ln Z at the final temperature
	Iterations int     // iterations over all temperatures
	Converged  bool    // the last run met RelTol before MaxIterations
}

// ErrDecreased is wrapped by the error of an update that lowered the bound.
var ErrDecreased = fmt.Errorf("boltzmann: an update lowered the bound")

// approximation is the common face of MeanField and Mixture: a vb.Model
// whose M is one pass of the fixed-point updates, at a temperature.
type approximation interface {
	vb.Model
	SetTemperature(t float64)
}

// checkRise returns an error if the bound fell from before to after by
// more than tol·max(1, |before|) in the update of block (or is NaN).
func checkRise(before, after, tol float64, block string) error {
	if math.IsNaN(after) {
		return fmt.Errorf("boltzmann: the update of %s: the bound is NaN", block)
	}
	if after < before-tol*math.Max(1, math.Abs(before)) {
		return fmt.Errorf("%w: the update of %s took it from %.15g to %.15g", ErrDecreased, block, before, after)
	}
	return nil
}

// stopRule is Settings' stop rule as a vb.Converger: the bound changed by
// at most RelTol·|L| or by at most AbsTol nats in the last iteration.
type stopRule struct{ rel, abs float64 }

func (stopRule) Init() {}

func (c stopRule) Converged(_ int, f, d float64) bool {
	return math.Abs(d) <= c.rel*math.Abs(f) || math.Abs(d) <= c.abs
}

// run makes at most cap iterations of q at its temperature by vb.Run (the
// engine's driver, which checks that no iteration lowers the bound), until
// Settings' stop rule holds.
func run(q approximation, s Settings, cap int) (Result, error) {
	s = s.withDefaults()
	res := vb.Run(q, vb.Settings{MaxIterations: cap + 1, MinIterations: 2,
		Converger: stopRule{s.RelTol, s.AbsTol}, MonotoneTol: s.MonotoneTol})
	r := Result{Bound: res.F, Iterations: max(res.Iterations-1, 0), Converged: res.Status == vb.Converged}
	switch res.Status {
	case vb.Converged, vb.IterationLimit:
		return r, nil
	case vb.BoundDecreased:
		return r, fmt.Errorf("%w: an iteration took it down by %.3g to %.15g", ErrDecreased, res.Decrease.By, res.F)
	case vb.NotFinite:
		return r, fmt.Errorf("boltzmann: an iteration: the bound is %g", res.F)
	default:
		return r, res.Err
	}
}

func anneal(q approximation, schedule []float64, s Settings) (Result, error) {
	s = s.withDefaults()
	var tot Result
	for k, t := range schedule {
		if !(t > 0) {
			return tot, fmt.Errorf("boltzmann: schedule temperature %g is not positive", t)
		}
		q.SetTemperature(t)
		cap := s.MaxIterations
		if k < len(schedule)-1 && s.StepIterations > 0 {
			cap = s.StepIterations
		}
		r, err := run(q, s, cap)
		tot.Iterations += r.Iterations
		if err != nil {
			return tot, fmt.Errorf("at T = %g: %w", t, err)
		}
		tot.Bound, tot.Converged = r.Bound, r.Converged
	}
	return tot, nil
}

// GeometricSchedule returns steps temperatures from t0 down to t1 in equal
// ratios, t0·(t1/t0)^{k/(steps−1)} (the 8 steps from 60 to 1 of Fig. 4.2,
// L1703, are 60, 33.5, 18.7, 10.4, 5.8, 3.2, 1.8, 1: the text gives no
// steps, so the ratio is ours).
func GeometricSchedule(t0, t1 float64, steps int) []float64 {
	if steps <= 1 {
		return []float64{t1}
	}
	out := make([]float64, steps)
	for k := range out {
		out[k] = t0 * math.Pow(t1/t0, float64(k)/float64(steps-1))
	}
	out[steps-1] = t1
	return out
}

// softplus returns ln(1 + eˣ) without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// unitEntropy returns the entropy of a ±1 unit with Q(s) ∝ exp(a s):
// ln(2 cosh a) − a tanh a.
func unitEntropy(a float64) float64 {
	return softplus(2*a) - a - a*math.Tanh(a)
}

// logQ returns ln Q(s = ±1) of a ±1 unit with Q(s) ∝ exp(a s) (eq. 4.9).
func logQ(a float64, s int) float64 {
	if s > 0 {
		return -softplus(-2 * a)
	}
	return -softplus(2 * a)
}

// MeanField is the factorised Q(S) = Π_i Q(s_i) of the free units (eq.
// 4.8 for the joint, Q⁻, with a nil clamp; eq. 4.7 for the conditional,
// Q⁺, with the visible units clamped), parametrised by Q(s_i) ∝ exp(A_i s_i),
// ⟨s_i⟩ = tanh A_i.
type MeanField struct {
	m  *Machine
	c  Clamp
	T  float64   // the temperature of the updates and the bound
	A  []float64 // natural parameters; 0 at clamped units
	Mu []float64 // ⟨s_i⟩; the clamped value at clamped units
}

// NewMeanField returns the mean-field distribution of m under clamp c at
// the machine's temperature, started from the means mu0 (nil: zero; values
// of free units in (−1, 1)).
func NewMeanField(m *Machine, c Clamp, mu0 []float64) (*MeanField, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	if err := c.check(m.N); err != nil {
		return nil, err
	}
	q := &MeanField{m: m, c: c, T: m.T, A: make([]float64, m.N), Mu: make([]float64, m.N)}
	if mu0 != nil && len(mu0) != m.N {
		return nil, fmt.Errorf("boltzmann: %d initial means for %d units", len(mu0), m.N)
	}
	for i := range q.Mu {
		switch {
		case !c.free(i):
			q.Mu[i] = c[i]
		case mu0 != nil:
			if !(mu0[i] > -1 && mu0[i] < 1) {
				return nil, fmt.Errorf("boltzmann: initial mean %g of unit %d is not in (−1, 1)", mu0[i], i)
			}
			q.A[i] = math.Atanh(mu0[i])
			q.Mu[i] = mu0[i]
		}
	}
	return q, nil
}

// SetTemperature sets the temperature of the updates and the bound.
func (q *MeanField) SetTemperature(t float64) { q.T = t }

// Bound returns L = ⟨φ⟩/T + Σ_i S(Q(s_i)) ≤ ln Z (eqs. 1.38, 4.13-4.14;
// the sum over the free units' states of exp(φ/T) when units are clamped),
// complete: no constant left out.
func (q *MeanField) Bound() float64 {
	_, l := q.bound()
	return l
}

// bound returns ⟨φ⟩/T and the bound ⟨φ⟩/T + Σ_i S(Q(s_i)), the entropies
// of the free units added in turn.
func (q *MeanField) bound() (energy, l float64) {
	energy = q.m.Phi(q.Mu) / q.T
	l = energy
	for i, a := range q.A {
		if q.c.free(i) {
			l += unitEntropy(a)
		}
	}
	return energy, l
}

// E returns the bound (Bound) with its two terms, ⟨φ⟩/T and the entropy of
// Q (the bound less ⟨φ⟩/T): a vb.Model's E step.
func (q *MeanField) E() (vb.Bound, error) {
	e, l := q.bound()
	return vb.Bound{F: l, Terms: []vb.Term{{Name: "<phi>/T", Value: e}, {Name: "H[Q]", Value: l - e}}}, nil
}

// M updates each free unit in turn by ⟨s_k⟩ = tanh(Σ_j w_kj⟨s_j⟩ +
// b_k)/T (eqs. 4.10, 4.11: the free-form optimum of eq. 1.44 for unit k
// with the others held, so that no update lowers the bound).
func (q *MeanField) M() {
	for k := 0; k < q.m.N; k++ {
		if !q.c.free(k) {
			continue
		}
		q.A[k] = q.m.Field(k, q.Mu) / q.T
		q.Mu[k] = math.Tanh(q.A[k])
	}
}

// Iterate makes one pass of M and returns the bound.
func (q *MeanField) Iterate() (float64, error) {
	q.M()
	return q.Bound(), nil
}

// Run iterates at the current temperature until the bound changes by at
// most RelTol·|L| or MaxIterations, checking that it never falls.
func (q *MeanField) Run(s Settings) (Result, error) { return run(q, s, s.withDefaults().MaxIterations) }

// Anneal runs at each temperature of schedule in turn (deterministic
// annealing, L1625), StepIterations iterations at each but the last and to
// convergence at the last; the bound is checked at each fixed temperature.
func (q *MeanField) Anneal(schedule []float64, s Settings) (Result, error) {
	return anneal(q, schedule, s)
}

// Moments returns ⟨s_i⟩ and ⟨s_i s_j⟩ = ⟨s_i⟩⟨s_j⟩ (i ≠ j) under Q, the
// approximations of eq. 4.15.
func (q *MeanField) Moments() Moments { return factorisedMoments(q.Mu, q.m.N) }
