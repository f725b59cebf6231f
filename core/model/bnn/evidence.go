package bnn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
)

// EvidenceSettings are the settings of the evidence procedure (MacKay
// 1992; L1978-1990, L2134, L2181, L2197). Every zero value means the
// text's real-data default.
type EvidenceSettings struct {
	// Alpha0 is the initial α_g of every group and Beta0 the initial β
	// (0: 0.3 and 200, L2181; the toy's are 0.1 and 50, L2134).
	Alpha0, Beta0 float64
	// Cycles is the number of cycles of weight optimisation and
	// re-estimation of α and β (0: 10, L2134, L2199).
	Cycles int
	// MaxIterations caps the optimiser's iterations per cycle (0: 500,
	// L2134, L2197), Tol its stop rule: every weight and the objective
	// changing by less than Tol (0: 10⁻⁷, L2197).
	MaxIterations int
	Tol           float64
	// Inits is the number of random initialisations, of which the one of
	// the largest log evidence is kept (0: 10, L2195, L2199).
	Inits int
	// Optimiser minimises M(w) in each cycle: QuasiNewton (the default;
	// L2197, NETLAB's quasinew on the real data) or SCG (scaled conjugate
	// gradients, the toy's, L2134).
	Optimiser Optimiser
}

// Optimiser names the minimiser of the MAP objective.
type Optimiser int

const (
	// QuasiNewton is limited-memory BFGS (numeric.LBFGS, memory 15) with
	// a strong-Wolfe line search, for NETLAB's full BFGS quasinew (L2197).
	// It stops when every |∂M/∂w_k| ≤ 10⁻⁷ or when M has fallen by less
	// than Tol in one iteration (the text: "both the weights and the
	// error ... changing by less than 1×10⁻⁷").
	QuasiNewton Optimiser = iota
	// SCG is Møller's scaled conjugate gradients (scg), stopping when an
	// accepted step moves every weight and M by less than Tol (L2134).
	SCG
)

func (o Optimiser) String() string {
	switch o {
	case QuasiNewton:
		return "quasi-newton"
	case SCG:
		return "scg"
	}
	return fmt.Sprintf("Optimiser(%d)", int(o))
}

func (s EvidenceSettings) withDefaults() EvidenceSettings {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	defi := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&s.Alpha0, 0.3)
	def(&s.Beta0, 200)
	def(&s.Tol, 1e-7)
	defi(&s.Cycles, 10)
	defi(&s.MaxIterations, 500)
	defi(&s.Inits, 10)
	return s
}

// Check refuses a setting that is negative or not finite.
func (s EvidenceSettings) Check() error {
	for _, c := range []struct {
		name string
		v    float64
	}{{"alpha0", s.Alpha0}, {"beta0", s.Beta0}, {"tol", s.Tol}, {"cycles", float64(s.Cycles)}, {"max_iterations", float64(s.MaxIterations)}, {"inits", float64(s.Inits)}} {
		if c.v < 0 || math.IsNaN(c.v) || math.IsInf(c.v, 0) {
			return fmt.Errorf("bnn: evidence setting %s = %v, want a non-negative finite number (0 for the default)", c.name, c.v)
		}
	}
	return nil
}

// evidenceTerm is the data term of the evidence procedure: E_D(w), its
// gradient and Hessian over N points. The network (Problem) is one; the
// tests add a model linear in its weights, where the Laplace evidence is
// exact.
type evidenceTerm interface {
	numWeights() int
	numPoints() int
	errorGrad(w, grad []float64) float64
	errorHessian(w, hess []float64) float64
}

// problemTerm is the network's data term, its E_D and gradient by the
// vectorised Batch.
type problemTerm struct {
	p *Problem
	b *Batch
}

func (t problemTerm) numWeights() int { return t.p.NumWeights() }
func (t problemTerm) numPoints() int  { return len(t.p.T) }
func (t problemTerm) errorGrad(w, g []float64) float64 {
	return t.b.ErrorGrad(w, g)
}
func (t problemTerm) errorHessian(w, h []float64) float64 {
	return t.p.ErrorHessian(w, t.p.X, t.p.T, h)
}

// Bounds on the re-estimated hyperparameters, so that a group whose
// weights all vanish (α_g → ∞) or whose γ_g vanishes (α_g → 0) keeps A
// positive definite and finite.
const (
	hyperMin = 1e-10
	hyperMax = 1e10
)

// Evidence runs the evidence procedure on the network p with the weight
// groups of prior (Single, Grouped or ARD) and returns the Laplace
// approximation of the initialisation of largest log evidence (L2199).
//
// Each initialisation draws the weights as NETLAB's mlp does, w ~ N(0,
// 1/(fan-in + 1)) for each unit's incoming weights and bias, then runs
// s.Cycles cycles of: minimise M(w) = βE_D + Σ_g α_g E_{w,g} by s.Optimiser
// from the current weights (at most s.MaxIterations
// iterations, eqs. 5.5, 5.43); take the Laplace approximation there
// (eq. 5.17); re-estimate α_g = γ_g / 2E_{w,g} and β = (N − γ)/2E_D
// (type II maximum likelihood, L2181, L2197; no hyperprior). A last
// minimisation at the final α, β gives the mode at which the returned
// approximation and its log evidence are taken. The log evidence of the
// network adds ln(2^H H!), the equivalent modes from permuting the hidden
// units and flipping their signs (Bishop 1995 eq. 10.67).
func Evidence(p *Problem, prior Prior, s EvidenceSettings, r *rand.Rand) (*Laplace, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	switch prior {
	case Single, Grouped, ARD:
	default:
		return nil, fmt.Errorf("bnn: the evidence procedure takes the single, grouped or ARD prior, not %v", prior)
	}
	if s.Optimiser != QuasiNewton && s.Optimiser != SCG {
		return nil, fmt.Errorf("bnn: evidence: unknown optimiser %v", s.Optimiser)
	}
	s = s.withDefaults()
	ng, group := p.Groups(prior)
	term := problemTerm{p: p, b: NewBatch(p)}
	var best *Laplace
	var logs []float64
	for init := range s.Inits {
		w := p.InitWeights(r)
		l, err := evidenceRun(term, w, group, ng, s)
		if err != nil {
			return nil, fmt.Errorf("bnn: evidence, initialisation %d: %w", init, err)
		}
		sym := float64(p.Hidden)*math.Ln2 + lgammaInt(p.Hidden+1)
		l.Terms = append(l.Terms, EvidenceTerm{"ln(2^H H!)", sym})
		l.LogEvidence += sym
		logs = append(logs, l.LogEvidence)
		if best == nil || l.LogEvidence > best.LogEvidence {
			l.Init = init
			best = l
		}
	}
	best.Arch, best.Prior, best.Inits = p.Arch, prior, logs
	return best, nil
}

func lgammaInt(n int) float64 {
	v, _ := math.Lgamma(float64(n))
	return v
}

// InitWeights draws a weight vector as NETLAB's mlp does: the weights and
// bias into each hidden unit N(0, 1/(In+1)), those into the output
// N(0, 1/(Hidden+1)).
func (a Arch) InitWeights(r *rand.Rand) []float64 {
	w := make([]float64, a.NumWeights())
	for k := range w {
		sd := 1 / math.Sqrt(float64(a.In+1))
		if k >= a.U() {
			sd = 1 / math.Sqrt(float64(a.Hidden+1))
		}
		w[k] = sd * r.NormFloat64()
	}
	return w
}

// evidenceRun is one initialisation of the evidence procedure on the data
// term d from the weights w (overwritten).
func evidenceRun(d evidenceTerm, w []float64, group []int, ng int, s EvidenceSettings) (*Laplace, error) {
	alpha := make([]float64, ng)
	for g := range alpha {
		alpha[g] = s.Alpha0
	}
	beta := s.Beta0
	n := float64(d.numPoints())
	var trace []EvidenceCycle
	grad := make([]float64, len(w))
	for c := 0; c <= s.Cycles; c++ {
		obj := func(w, g []float64) float64 {
			e := beta * d.errorGrad(w, grad)
			for k := range g {
				a := alpha[group[k]]
				g[k] = beta*grad[k] + a*w[k]
				e += a * w[k] * w[k] / 2
			}
			return e
		}
		res, err := minimise(obj, w, s)
		if err != nil {
			return nil, fmt.Errorf("cycle %d: %w", c+1, err)
		}
		if math.IsNaN(res.F) || math.IsInf(res.F, 0) {
			return nil, fmt.Errorf("cycle %d: the objective is %v", c+1, res.F)
		}
		l, err := laplaceAt(d, w, alpha, beta, group)
		if err != nil {
			return nil, fmt.Errorf("cycle %d: %w", c+1, err)
		}
		if c == s.Cycles {
			l.Trace = trace
			return l, nil
		}
		trace = append(trace, EvidenceCycle{Iterations: res.Iterations, Converged: res.Converged,
			Alpha: append([]float64(nil), alpha...), Beta: beta, Gamma: l.Gamma, LogEvidence: l.LogEvidence})
		for g := range alpha {
			alpha[g] = clampHyper(l.GammaGroup[g] / (2 * l.EW[g]))
		}
		beta = clampHyper((n - l.Gamma) / (2 * l.ED))
	}
	panic("unreachable")
}

// minimise runs the optimiser of s on obj from w (overwritten).
func minimise(obj func(w, g []float64) float64, w []float64, s EvidenceSettings) (scgResult, error) {
	if s.Optimiser == SCG {
		return scg(obj, w, scgSettings{MaxIterations: s.MaxIterations, TolX: s.Tol, TolF: s.Tol}), nil
	}
	m := numeric.LBFGS{MaxIterations: s.MaxIterations, GradTol: 1e-7, FuncAbs: s.Tol, FuncRel: 1e-300, FuncIterations: 1}
	res, err := m.Minimize(obj, w)
	if err != nil {
		return scgResult{}, err
	}
	return scgResult{F: res.F, Iterations: res.Iterations, Evals: res.Evaluations,
		Converged: res.Status == numeric.GradientConverged || res.Status == numeric.FunctionConverged}, nil
}

func clampHyper(v float64) float64 {
	if math.IsNaN(v) || v < hyperMin {
		return hyperMin
	}
	return math.Min(v, hyperMax)
}
