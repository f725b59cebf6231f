package dag

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Problem binds a structure, its Dirichlet prior λ and a data set, and holds
// the index tables of the E step. Everything that scores the structure on
// the data starts from a Problem: EM and VBEM (NewEM, NewVB), the scores
// (Score, ScoreEM, ScoreVB), the exact marginal likelihood (Exact) and, for
// annealed importance sampling, the tempered target
// ln p(θ|m) + τ·ln p(y|θ) (LogPrior, LogLik, SamplePrior).
//
// # The E step
//
// For each pattern y_p and each joint configuration s of the hidden nodes
// (Π_{j∈H} |s_j| of them, 4 in chapter 6) the joint probability is the
// product of one entry of θ per node,
//
//	φ_p(s) = Π_j θ_{j, l_j(s, y_p), z_j(s, y_p)}        (6.11), (6.43)
//
// and the E step needs Z_p = Σ_s φ_p(s) and q_p(s) = φ_p(s)/Z_p (6.16).
// Problem precomputes the index of every factor, so an E step is a pass of
// multiplications over patterns in the probability domain (targets §1.7
// item 1); a pattern whose Z_p is below 1e-250 is redone in the log domain.
// The factors of nodes that neither are hidden nor have a hidden parent do
// not depend on s and are multiplied once per pattern.
//
// The methods of a Problem do not modify it and are safe for concurrent use;
// the EM and VB models it builds are not.
type Problem struct {
	s      *Structure
	lambda Params
	data   Data
	pl     plan
	gr     grouped // the likelihood of LogLik

	rowStart []int     // first θ index of each Dirichlet row (nodes in order, then l)
	rowLen   []int     // its length |z_j|
	rowNode  []int     // its node
	lnB      []float64 // ln B(λ_jl) = Σ_k ln Γ(λ_jlk) − ln Γ(λ⁰_jl)
	// uniform reports whether every λ_jlk = 1, when ln p(θ|m) is the
	// constant lnP0 = −Σ_jl ln B(λ_jl) (summed in row order).
	uniform bool
	lnP0    float64
}

// plan holds the factor indices of the E step.
type plan struct {
	h      int       // joint hidden configurations
	jc, jv int       // factors per pattern that are constant / vary with s
	w      []float64 // pattern multiplicities
	cidx   []int32   // patterns × jc
	vidx   []int32   // patterns × h × jv
}

// tiny is the smallest pattern probability handled in the probability
// domain.
const tiny = 1e-250

// NewProblem validates the structure, prior and data and builds the
// Problem. It returns an error if λ has the wrong length or an entry that is
// not positive and finite, if the data's width is not the number of
// observed nodes, or if a value is outside its node's states.
func NewProblem(s *Structure, lambda Params, d Data) (*Problem, error) {
	if len(lambda) != s.Len() {
		return nil, fmt.Errorf("dag: prior has %d entries, the structure %d", len(lambda), s.Len())
	}
	for _, u := range lambda {
		if !(u > 0) || math.IsInf(u, 1) {
			return nil, fmt.Errorf("dag: prior pseudo-count %v not positive and finite", u)
		}
	}
	if d.Width() != len(s.Observed()) {
		return nil, fmt.Errorf("dag: data have %d values per datum, the structure %d observed nodes", d.Width(), len(s.Observed()))
	}
	for p := 0; p < d.NumPatterns(); p++ {
		for k, v := range d.Pattern(p) {
			if j := s.Observed()[k]; v >= s.Arity(j) {
				return nil, fmt.Errorf("dag: value %d of observed node %d (arity %d)", v, j, s.Arity(j))
			}
		}
	}
	pr := &Problem{s: s, lambda: lambda.Clone(), data: d}
	for j := 0; j < s.Nodes(); j++ {
		for l := 0; l < s.Rows(j); l++ {
			start := s.Offset(j) + l*s.Arity(j)
			u := pr.lambda[start : start+s.Arity(j)]
			var u0, lb float64
			for _, a := range u {
				u0 += a
				lb += numeric.LogGamma(a)
			}
			pr.rowStart = append(pr.rowStart, start)
			pr.rowLen = append(pr.rowLen, s.Arity(j))
			pr.rowNode = append(pr.rowNode, j)
			pr.lnB = append(pr.lnB, lb-numeric.LogGamma(u0))
		}
	}
	pr.uniform = true
	for _, u := range pr.lambda {
		pr.uniform = pr.uniform && u == 1
	}
	for _, b := range pr.lnB {
		pr.lnP0 -= b
	}
	pr.compile()
	return pr, nil
}

// compile fills the plan.
func (pr *Problem) compile() {
	s, d := pr.s, pr.data
	var cnodes, vnodes []int
	for j := 0; j < s.Nodes(); j++ {
		varies := s.IsHidden(j)
		for _, p := range s.Parents(j) {
			varies = varies || s.IsHidden(p)
		}
		if varies {
			vnodes = append(vnodes, j)
		} else {
			cnodes = append(cnodes, j)
		}
	}
	h := 1
	for _, j := range s.Hidden() {
		h *= s.Arity(j)
	}
	np := d.NumPatterns()
	pl := plan{h: h, jc: len(cnodes), jv: len(vnodes), w: make([]float64, np)}
	pl.cidx = make([]int32, 0, np*pl.jc)
	pl.vidx = make([]int32, 0, np*h*pl.jv)
	z := make([]int, s.Nodes())
	index := func(j int) int32 { return int32(s.Offset(j) + s.Config(j, z)*s.Arity(j) + z[j]) }
	for p := 0; p < np; p++ {
		pl.w[p] = float64(d.Count(p))
		for k, j := range s.Observed() {
			z[j] = d.Pattern(p)[k]
		}
		for _, j := range cnodes {
			pl.cidx = append(pl.cidx, index(j))
		}
		for c := 0; c < h; c++ {
			s.setHidden(z, c)
			for _, j := range vnodes {
				pl.vidx = append(pl.vidx, index(j))
			}
		}
	}
	pr.pl = pl
	pr.gr = newGrouped(s, d, &pr.pl, vnodes)
}

// setHidden writes the hidden states of joint configuration c into z
// (mixed radix over Hidden, the first hidden node most significant).
func (s *Structure) setHidden(z []int, c int) {
	hid := s.Hidden()
	for i := len(hid) - 1; i >= 0; i-- {
		a := s.Arity(hid[i])
		z[hid[i]] = c % a
		c /= a
	}
}

// Structure returns the problem's structure.
func (pr *Problem) Structure() *Structure { return pr.s }

// Prior returns a copy of λ.
func (pr *Problem) Prior() Params { return pr.lambda.Clone() }

// Data returns the data set.
func (pr *Problem) Data() Data { return pr.data }

// N returns the number of data points.
func (pr *Problem) N() int { return pr.data.N() }

// HiddenConfigs returns the number of joint hidden configurations summed
// over per datum, Π_{j∈H} |s_j| (1 without hidden nodes).
func (pr *Problem) HiddenConfigs() int { return pr.pl.h }

// estep runs the E step at the point parameters th (normalised, or the
// sub-normalised θ̃ of VBE), returns Σ_p w_p ln Z_p, and, if n is not nil,
// adds the expected counts Σ_p w_p Σ_s q_p(s)·[entry used by s] to n
// (eqs. (6.22), (6.40)). phi is scratch of length h.
func (pl *plan) estep(th, n, phi []float64) float64 {
	h, jc, jv := pl.h, pl.jc, pl.jv
	var total float64
	for p, w := range pl.w {
		ci := pl.cidx[p*jc : (p+1)*jc]
		vi := pl.vidx[p*h*jv : (p+1)*h*jv]
		cst := prodAt(th, ci)
		var z float64
		for c := 0; c < h; c++ {
			f := prodAt(th, vi[c*jv:(c+1)*jv])
			phi[c] = f
			z += f
		}
		var lnz float64
		if t := z * cst; t >= tiny {
			lnz = math.Log(t)
			if n != nil {
				r := w / z
				for c := 0; c < h; c++ {
					q := phi[c] * r
					for _, i := range vi[c*jv : (c+1)*jv] {
						n[i] += q
					}
				}
			}
		} else {
			lnz = logPattern(th, ci, vi, h, jv, phi)
			if n != nil && !math.IsInf(lnz, -1) {
				for c := 0; c < h; c++ {
					q := phi[c] * w
					for _, i := range vi[c*jv : (c+1)*jv] {
						n[i] += q
					}
				}
			}
		}
		if n != nil {
			for _, i := range ci {
				n[i] += w
			}
		}
		total += w * lnz
	}
	return total
}

// loglik returns Σ_p w_p ln Z_p at th without scratch space (estep's
// sum, with Z_p = Π_{fixed} θ · Σ_c Π_{config c} θ of eq. (6.22)).
func (pl *plan) loglik(th []float64) float64 {
	h, jc, jv := pl.h, pl.jc, pl.jv
	var total float64
	for p, w := range pl.w {
		vi := pl.vidx[p*h*jv : (p+1)*h*jv]
		var z float64
		for c := 0; c < h; c++ {
			z += prodAt(th, vi[c*jv:(c+1)*jv])
		}
		ci := pl.cidx[p*jc : (p+1)*jc]
		t := z * prodAt(th, ci)
		lnz := math.Log(t)
		if !(t >= tiny) {
			lnz = logPattern(th, ci, vi, h, jv, nil)
		}
		total += w * lnz
	}
	return total
}

// prodAt returns Π_{i∈idx} th_i, the product of the parameter entries one
// configuration uses (eq. (6.22)), left to right.
func prodAt(th []float64, idx []int32) float64 {
	f := 1.0
	for _, i := range idx {
		f *= th[i]
	}
	return f
}

// logPattern returns ln Z_p computed in the log domain and, if q is not nil,
// sets q[c] to the posterior of configuration c (NaN if Z_p = 0).
func logPattern(th []float64, ci, vi []int32, h, jv int, q []float64) float64 {
	return logSumConfigs(func(i int32) float64 { return math.Log(th[i]) }, ci, vi, h, jv, q)
}

// logSumConfigs is logPattern with the logarithm of parameter entry i given
// by lnAt(i).
func logSumConfigs(lnAt func(int32) float64, ci, vi []int32, h, jv int, q []float64) float64 {
	var lc float64
	for _, i := range ci {
		lc += lnAt(i)
	}
	lphi := func(c int) float64 {
		var f float64
		for _, i := range vi[c*jv : (c+1)*jv] {
			f += lnAt(i)
		}
		return f
	}
	m := math.Inf(-1)
	for c := 0; c < h; c++ {
		m = math.Max(m, lphi(c))
	}
	if math.IsInf(m, -1) || math.IsInf(lc, -1) {
		for c := range q {
			q[c] = math.NaN()
		}
		return math.Inf(-1)
	}
	var s float64
	for c := 0; c < h; c++ {
		e := math.Exp(lphi(c) - m)
		if q != nil {
			q[c] = e
		}
		s += e
	}
	for c := range q {
		q[c] /= s
	}
	return lc + m + math.Log(s)
}

// LogLik returns the incomplete-data log-likelihood ln p(y|θ) of eq. (6.11),
// the hidden variables summed out exactly, the tempered factor of AIS
// (eq. (6.50)). It sums over groups of patterns that share the sum over the
// hidden configurations, with the factors of nodes without a hidden parent
// taken out as Σ_i N_i ln θ_i (see grouped), and equals the per-pattern sum
// Σ_p w_p ln Z_p of the E step (ExpectedCounts) to rounding. The MAP score
// (6.64) at θ̂ (EMScoresAt) is the per-pattern sum itself, so that
// equivalent structures keep the exact ties they have there. It panics if
// theta has the wrong length.
func (pr *Problem) LogLik(theta Params) float64 {
	pr.checkLen(theta)
	return pr.gr.loglik(theta, &pr.pl)
}

// LogPrior returns ln p(θ|m) = Σ_jl [ln Γ(λ⁰_jl) − Σ_k ln Γ(λ_jlk) +
// Σ_k (λ_jlk − 1) ln θ_jlk] (eq. (6.4)), the base density of AIS, with
// 0·ln 0 = 0 where λ_jlk = 1 (targets §1.7 item 4). It assumes θ's rows lie
// on the simplex and does not check it. With every λ_jlk = 1 (the
// chapter-6 prior) it is the constant −Σ_jl ln B(λ_jl) and θ is not read.
func (pr *Problem) LogPrior(theta Params) float64 {
	pr.checkLen(theta)
	if pr.uniform {
		return pr.lnP0
	}
	var lp float64
	for r, start := range pr.rowStart {
		lp -= pr.lnB[r]
		for k := start; k < start+pr.rowLen[r]; k++ {
			if u := pr.lambda[k]; u != 1 {
				lp += (u - 1) * math.Log(theta[k])
			}
		}
	}
	return lp
}

// minTheta is the floor of sampled parameters (targets §1.7 item 8).
const minTheta = 1e-300

// lnMinTheta is ln 1e-300.
var lnMinTheta = math.Log(minTheta)

// SamplePrior draws θ ~ p(θ|m), every row from Dir(λ_jl) (Algorithm 6.1
// step 1), into dst if it has the capacity (allocating otherwise), and
// returns it. Entries are floored at 1e-300 so that a Dirichlet proposal
// centred on θ stays proper (targets §1.7 item 8); the floor moves a row's
// sum by at most |z_j|·1e-300.
func (pr *Problem) SamplePrior(dst Params, rnd *rand.Rand) Params {
	if cap(dst) < len(pr.lambda) {
		dst = make(Params, len(pr.lambda))
	}
	dst = dst[:len(pr.lambda)]
	for r, start := range pr.rowStart {
		end := start + pr.rowLen[r]
		row := dst[start:end]
		dist.Dirichlet{Alpha: pr.lambda[start:end]}.Rand(row, rnd)
		for k, v := range row {
			row[k] = math.Max(v, minTheta)
		}
	}
	return dst
}

// RandomParams returns θ with every row drawn from the uniform Dir(1), the
// random initialisation of EM and VBEM (targets §3.0, "dirichlet1").
func (s *Structure) RandomParams(rnd *rand.Rand) Params {
	theta := make(Params, s.Len())
	for j := 0; j < s.Nodes(); j++ {
		ones := make([]float64, s.Arity(j))
		for k := range ones {
			ones[k] = 1
		}
		for l := 0; l < s.Rows(j); l++ {
			dist.Dirichlet{Alpha: ones}.Rand(s.Row(theta, j, l), rnd)
		}
	}
	return theta
}

// ExpectedCounts runs an exact E step at θ (q_i(s_i) = p(s_i|y_i, θ),
// eq. (6.16)) and returns ln p(y|θ) and the expected counts N̂ of eq. (6.22).
func (pr *Problem) ExpectedCounts(theta Params) (float64, Params) {
	pr.checkLen(theta)
	n := make(Params, len(theta))
	lnp := pr.pl.estep(theta, n, make([]float64, pr.pl.h))
	return lnp, n
}

func (pr *Problem) checkLen(theta Params) {
	if len(theta) != len(pr.lambda) {
		panic("dag: parameter vector has the wrong length")
	}
}
