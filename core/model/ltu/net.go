package ltu

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Net is a network of linear threshold units with one hidden layer and
// one output (Fig. 3.1, eq. 3.1): D real inputs, H hidden units
// s_j = sign(W_j·x + W_j0) and the output sign(Σ_j V_j s_j + V_0).
// sign(0) is +1.
type Net struct {
	D, H int
	W    []float64 // H rows of D+1: the weights of hidden unit j from the inputs, then its bias
	V    []float64 // H+1: the output's weights from the hidden units, then its bias
}

// NewNet returns a network with every weight and bias drawn from
// N(0, 1) (the text gives no initial weights: ours).
func NewNet(d, h int, rnd *rand.Rand) *Net {
	n := &Net{D: d, H: h, W: make([]float64, h*(d+1)), V: make([]float64, h+1)}
	for i := range n.W {
		n.W[i] = rnd.NormFloat64()
	}
	for i := range n.V {
		n.V[i] = rnd.NormFloat64()
	}
	return n
}

// Clone returns a deep copy.
func (n *Net) Clone() *Net {
	return &Net{D: n.D, H: n.H, W: append([]float64(nil), n.W...), V: append([]float64(nil), n.V...)}
}

func sign(a float64) float64 {
	if a < 0 {
		return -1
	}
	return 1
}

// hiddenField returns a_j = W_j·x + W_j0.
func (n *Net) hiddenField(j int, x []float64) float64 {
	row := n.W[j*(n.D+1) : (j+1)*(n.D+1)]
	return numeric.Dot(row[:n.D], x) + row[n.D]
}

// outputField returns a_o = V·s + V_0.
func (n *Net) outputField(s []float64) float64 { return numeric.Dot(n.V[:n.H], s) + n.V[n.H] }

// Forward sets s to the hidden states of input x (eq. 3.1; the
// expectation initialisation of L1422) and returns the output ±1.
func (n *Net) Forward(x, s []float64) float64 {
	for j := range n.H {
		s[j] = sign(n.hiddenField(j, x))
	}
	return sign(n.outputField(s))
}

// Errors counts the patterns whose forward output differs from t (±1).
func (n *Net) Errors(x [][]float64, t []float64) int {
	s := make([]float64, n.H)
	e := 0
	for i := range x {
		if n.Forward(x[i], s) != t[i] {
			e++
		}
	}
	return e
}

// Objective returns the zero-temperature limit of T times the bound on
// ln P(t | x) with the hidden units at s and the output clamped at t
// (eqs. 3.26-3.27): Σ_i (a_i s_i − |a_i|)/2 over the hidden units and the
// output, a_i the unit's field from its parents. It is at most zero, zero
// exactly when every unit equals the sign of its field (L1356): the
// pattern is stored and its likelihood is 1.
func (n *Net) Objective(x, s []float64, t float64) float64 {
	o := 0.0
	for j := range n.H {
		a := n.hiddenField(j, x)
		o += (a*s[j] - math.Abs(a)) / 2
	}
	a := n.outputField(s)
	return o + (a*t-math.Abs(a))/2
}

// softplusT returns T ln(1 + e^{x/T}), → max(0, x) as T → 0.
func softplusT(x, temp float64) float64 {
	z := x / temp
	if z > 0 {
		return x + temp*math.Log1p(math.Exp(-z))
	}
	return temp * math.Log1p(math.Exp(z))
}

// flipGain returns Δ_j, T times ln Q(s_j = 1) − ln Q(s_j = −1) for hidden
// unit j with field aj, the output clamped at t, and the output's field
// from the other hidden units r (the mean-field update of eqs. 3.11-3.21
// for the ±1 network of eqs. 3.2-3.6, the other units at their means):
//
//	Δ_j = a_j + V_j(t + 1) − T[ln(1 + e^{(r+V_j)/T}) − ln(1 + e^{(r−V_j)/T})],
//
// so ⟨s_j⟩ = tanh(Δ_j/2T). At T = 0 the softplus terms become
// max(0, r ± V_j), and sign(Δ_j) is the value of s_j that maximises
// Objective (eq. 3.23: the zero-temperature limit of eq. 3.21).
func flipGain(aj, vj, r, t, temp float64) float64 {
	if temp == 0 {
		return aj + vj*(t+1) - (math.Max(0, r+vj) - math.Max(0, r-vj))
	}
	return aj + vj*(t+1) - (softplusT(r+vj, temp) - softplusT(r-vj, temp))
}

// InferSettings are the inference of the hidden units for one pattern
// (§3.4 and the annealing heuristic of L1416-1418, L1442). The zero value
// of a field means its default.
type InferSettings struct {
	// T0 is the first temperature (1000, L1442) and Decay its factor per
	// pass (0.8): pass k runs at T0·Decay^{k−1}.
	T0, Decay float64
	// TMin: once the temperature is below it (0.001) it is taken to be zero.
	TMin float64
	// ZeroPasses caps the passes at T = 0 after annealing (70, L1442); they
	// stop early when a pass changes no unit.
	ZeroPasses int
	// NoAnneal skips the annealed passes: zero-temperature passes only.
	NoAnneal bool
}

func (s InferSettings) withDefaults() InferSettings {
	if s.T0 == 0 {
		s.T0 = 1000
	}
	if s.Decay == 0 {
		s.Decay = 0.8
	}
	if s.TMin == 0 {
		s.TMin = 1e-3
	}
	if s.ZeroPasses == 0 {
		s.ZeroPasses = 70
	}
	return s
}

// AnnealedPasses returns the number of passes above TMin: the k with
// T0·Decay^{k−1} ≥ TMin (62 for the text's 1000, 0.8, 0.001).
func (s InferSettings) AnnealedPasses() int {
	s = s.withDefaults()
	if s.NoAnneal || s.T0 < s.TMin {
		return 0
	}
	return int(math.Floor(math.Log(s.TMin/s.T0)/math.Log(s.Decay))) + 1
}

// InferStats reports one pattern's inference.
type InferStats struct {
	ZeroPasses int  // passes at T = 0 run
	Stable     bool // the last zero-temperature pass changed no unit
	Decreased  bool // a zero-temperature update lowered Objective (never, by construction; checked)
}

// Infer sets s, the expectations of the hidden units for input x with the
// output clamped at t (±1): from s as given (Forward's states: L1422),
// annealed passes at falling temperature, then zero-temperature passes
// (eq. 3.23) each visiting the hidden units in a random order from rnd
// (L1335), until a pass changes none or ZeroPasses is reached. At the end s
// is ±1 and no single unit's change raises Objective. fields holds a_j,
// H values (nil: computed).
func (n *Net) Infer(x, s []float64, t float64, fields []float64, rnd *rand.Rand, set InferSettings) InferStats {
	set = set.withDefaults()
	if fields == nil {
		fields = make([]float64, n.H)
		for j := range n.H {
			fields[j] = n.hiddenField(j, x)
		}
	}
	order := make([]int, n.H)
	for j := range order {
		order[j] = j
	}
	ao := n.outputField(s)
	pass := func(temp float64) bool {
		rnd.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		changed := false
		for _, j := range order {
			vj := n.V[j]
			r := ao - vj*s[j]
			g := flipGain(fields[j], vj, r, t, temp)
			var nv float64
			if temp == 0 {
				switch {
				case g > 0:
					nv = 1
				case g < 0:
					nv = -1
				default:
					nv = sign(s[j]) // a tie keeps the unit's side
				}
			} else {
				nv = math.Tanh(g / (2 * temp))
			}
			if nv != s[j] {
				changed = true
				s[j] = nv
				ao = r + vj*nv
			}
		}
		return changed
	}
	var st InferStats
	if !set.NoAnneal {
		for k := range set.AnnealedPasses() {
			pass(set.T0 * math.Pow(set.Decay, float64(k)))
		}
	}
	prev := math.Inf(-1)
	for st.ZeroPasses < set.ZeroPasses {
		changed := pass(0)
		st.ZeroPasses++
		o := n.Objective(x, s, t)
		if o < prev-1e-12*math.Max(1, math.Abs(prev)) {
			st.Decreased = true
		}
		prev = o
		if !changed {
			st.Stable = true
			break
		}
	}
	return st
}

// Settings are the learning algorithm of §3.6-3.8. The zero value of a
// field means its default.
type Settings struct {
	// Iterations is the number of inference-and-learning steps (7, L1438).
	Iterations int
	// C is the error penalty of every unit's maximum-margin problem (no
	// default: Fit refuses C ≤ 0).
	C float64
	// Infer is the inference of each pattern.
	Infer InferSettings
	// SMO: Tol the KKT accuracy (1e-4), relaxed to 10^{−(k−1)} in
	// iterations k ≤ Relaxed (4, L1434); MaxIterations the SMO cap.
	SMO     SMOSettings
	Relaxed int
	// NoNormalise leaves out the weight normalisation heuristic (L1430).
	NoNormalise bool
}

func (s Settings) withDefaults() Settings {
	if s.Iterations == 0 {
		s.Iterations = 7
	}
	if s.Relaxed == 0 {
		s.Relaxed = 4
	}
	s.SMO = s.SMO.withDefaults()
	s.Infer = s.Infer.withDefaults()
	return s
}

// tol returns the KKT accuracy of iteration k (1-based, L1434).
func (s Settings) tol(k int) float64 {
	if k <= s.Relaxed {
		return math.Max(s.SMO.Tol, math.Pow(10, -float64(k-1)))
	}
	return s.SMO.Tol
}

// Result is a run of Fit.
type Result struct {
	Best          *Net  // the network of fewest training errors over the iterations (L1426)
	BestIteration int   // its iteration (1-based; the earliest on a tie)
	TrainErrors   []int // the forward training errors after each iteration's learning
	// Objective is Σ_n Objective after each iteration's inference: the
	// zero-temperature bound T·𝓛 (eq. 3.28), 0 when every pattern is stored.
	Objective []float64
	// SMOSteps counts the SMO steps; SMOCapped the unit problems stopped
	// by SMO.MaxIterations before the KKT accuracy.
	SMOSteps, SMOCapped int
	// Unstable counts the patterns whose zero-temperature passes reached
	// ZeroPasses without a stable state; Decreased the patterns at which a
	// zero-temperature update lowered Objective (0 by construction).
	Unstable, Decreased int
}

// Fit learns a network from net's weights on inputs x and targets t (±1)
// by the algorithm of §3.6 (L1408-1410): for each iteration, infer the hidden
// units of every pattern with its output clamped (Infer, from the forward
// pass's states), then fit each unit's weights as the maximum-margin
// separator of its parents' states and its own (TrainSVM: the hidden units
// on the inputs, the output on the hidden states), then rescale each hidden
// unit's incoming weights and bias to the norm of its outgoing weight (the
// weight normalisation of L1430, in our reading: the hyperplane and
// so the mapping are unchanged). net is modified; Result.Best is a copy.
func Fit(net *Net, x [][]float64, t []float64, rnd *rand.Rand, set Settings) (Result, error) {
	set = set.withDefaults()
	if !(set.C > 0) {
		return Result{}, fmt.Errorf("ltu: error penalty C = %g, want > 0", set.C)
	}
	nPat := len(x)
	if nPat == 0 || len(t) != nPat {
		return Result{}, fmt.Errorf("ltu: %d patterns and %d targets", nPat, len(t))
	}
	for i := range x {
		if len(x[i]) != net.D {
			return Result{}, fmt.Errorf("ltu: pattern %d has %d inputs, want %d", i, len(x[i]), net.D)
		}
	}
	gram := Gram(x)
	h := net.H
	states := make([][]float64, nPat) // the hidden expectations, per pattern
	for i := range states {
		states[i] = make([]float64, h)
	}
	fields := make([]float64, h)
	labels := make([]float64, nPat)
	var res Result
	bestErr := nPat + 1
	for k := 1; k <= set.Iterations; k++ {
		obj := 0.0
		for i := range x {
			net.Forward(x[i], states[i])
			for j := range h {
				fields[j] = net.hiddenField(j, x[i])
			}
			st := net.Infer(x[i], states[i], t[i], fields, rnd, set.Infer)
			if !st.Stable {
				res.Unstable++
			}
			if st.Decreased {
				res.Decreased++
			}
			obj += net.Objective(x[i], states[i], t[i])
		}
		res.Objective = append(res.Objective, obj)
		smo := SMOSettings{Tol: set.tol(k), MaxIterations: set.SMO.MaxIterations}
		for j := range h {
			for i := range x {
				labels[i] = states[i][j]
			}
			sv, err := TrainSVM(x, labels, set.C, gram, smo)
			if err != nil {
				return res, fmt.Errorf("iteration %d, hidden unit %d: %w", k, j, err)
			}
			res.SMOSteps += sv.Iterations
			if !sv.Converged {
				res.SMOCapped++
			}
			row := net.W[j*(net.D+1) : (j+1)*(net.D+1)]
			copy(row, sv.W)
			row[net.D] = sv.B
		}
		out, err := TrainSVM(states, t, set.C, nil, smo)
		if err != nil {
			return res, fmt.Errorf("iteration %d, output unit: %w", k, err)
		}
		res.SMOSteps += out.Iterations
		if !out.Converged {
			res.SMOCapped++
		}
		copy(net.V, out.W)
		net.V[h] = out.B
		if !set.NoNormalise {
			for j := range h {
				row := net.W[j*(net.D+1) : (j+1)*(net.D+1)]
				in, o := math.Sqrt(numeric.Dot(row, row)), math.Abs(net.V[j])
				if in > 0 && o > 0 {
					numeric.Scale(o/in, row)
				}
			}
		}
		e := net.Errors(x, t)
		res.TrainErrors = append(res.TrainErrors, e)
		if e < bestErr {
			bestErr, res.Best, res.BestIteration = e, net.Clone(), k
		}
	}
	return res, nil
}
