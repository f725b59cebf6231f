package dag

import (
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// DirichletProposal is the Metropolis–Hastings proposal of the AIS sampler
// of Beal (2003) section 6.3.5 (eqs. (6.59)–(6.60), Algorithm 6.1; targets
// §2.7): every row of θ is redrawn at once from a Dirichlet centred on its
// current value with strength Alpha,
//
//	θ′_jl ~ Dir(Alpha·θ_jl),
//
// one joint proposal for all parameters with one accept/reject decision.
// It satisfies mcmc.Proposal[Params] of package samplers/mcmc, so that an
// mcmc.MH with a Problem as target (a Problem satisfies mcmc.Tempered and
// ais.Model) is the chapter-6 MCMC kernel; the thesis's α is not given, the
// targets' default is 2500 (§4 item 3).
//
// The Dirichlet draws are made in the log domain and floored at 1e-300,
// and the proposal densities are evaluated in the log domain at the stored
// values (targets §1.7 item 8), so shapes of 1e-7 and below are handled.
//
// Propose keeps, for the state it was last called at and for the proposal
// it last drew (the next state if MH accepts it), ln θ, ln Γ(α θ_jlk),
// ln Γ(α Σ_k θ_jlk) and the Gamma samplers of Dir(α θ_jl), and reuses them
// when called at a θ equal to either bit for bit. Of a proposal it takes
// ln θ′_k = ln G_k − ln Σ_k′ G_k′ from the log-domain draws ln G and
// ln Γ(α θ′_k) from ln α + ln θ′_k (numeric.LogGammaLn), so that an entry
// costs no logarithm beyond its draw's. The draws are the same as without
// the memo bit for bit, the ratio to rounding (about 1e-16 of the
// magnitude of its terms, such as Σ_k |ln Γ(α θ_jlk)|), which changes an
// accept decision only if ln U falls within that rounding of ln a. The
// draws must stay dist.Dirichlet.Rand's to the bit: a chain amplifies a
// change in the last bit of θ′ until its accept decisions differ (on the
// true structure at n = 2560, from 1e-15 to 1e-3 relative in 4096 steps),
// so a draw rounded differently changes every long AIS run by its Monte
// Carlo error, not by rounding.
//
// A DirichletProposal holds scratch space: give each chain its own.
type DirichletProposal struct {
	s       *Structure
	alpha   float64
	lnAlpha float64   // ln α
	lg      []float64 // the draws ln G of the proposal being drawn
	mx      []float64 // the maximum of each entry's row of lg
	lv, tt  []float64 // their parts v (then ln v) and t (LogGammaSampler.RandV)
	rs, ra  []float64 // per row: a sum (s, then a0) and its logarithm
	// rowStart and rowLen are the first index and the length of each row
	// θ_jl, nodes in order, then l.
	rowStart, rowLen []int
	// cur is the memo of the state Propose was last called at, next of the
	// proposal it returned.
	cur, next propMemo
}

// propMemo holds what Propose needs of one θ.
type propMemo struct {
	theta Params    // a copy of θ
	ok    bool      // the fields below belong to theta
	lnT   []float64 // ln θ_i
	lgA   []float64 // ln Γ(α θ_i)
	lgA0  []float64 // per row: ln Γ(Σ_k α θ_jlk)
	gam   []dist.LogGammaSampler
	gamOK bool // gam belongs to theta
}

// NewDirichletProposal returns the proposal for parameters of s with
// strength alpha. It panics unless alpha is positive and finite.
func NewDirichletProposal(s *Structure, alpha float64) *DirichletProposal {
	if !(alpha > 0) || math.IsInf(alpha, 1) {
		panic("dag: proposal strength not positive and finite")
	}
	q := &DirichletProposal{s: s, alpha: alpha, lnAlpha: math.Log(alpha),
		lg: make([]float64, s.Len()), mx: make([]float64, s.Len()),
		lv: make([]float64, s.Len()), tt: make([]float64, s.Len()),
		rs: make([]float64, s.NumRows()), ra: make([]float64, s.NumRows()),
		cur: newPropMemo(s), next: newPropMemo(s)}
	for j := 0; j < s.Nodes(); j++ {
		for l := 0; l < s.Rows(j); l++ {
			q.rowStart = append(q.rowStart, s.Offset(j)+l*s.Arity(j))
			q.rowLen = append(q.rowLen, s.Arity(j))
		}
	}
	return q
}

func newPropMemo(s *Structure) propMemo {
	n := s.Len()
	return propMemo{theta: make(Params, n), lnT: make([]float64, n), lgA: make([]float64, n),
		lgA0: make([]float64, s.NumRows()), gam: make([]dist.LogGammaSampler, n)}
}

// holds reports whether m belongs to x, bit for bit.
func (m *propMemo) holds(x Params) bool {
	if !m.ok {
		return false
	}
	for i, v := range x {
		if math.Float64bits(v) != math.Float64bits(m.theta[i]) {
			return false
		}
	}
	return true
}

// set fills every field of m for x but the Gamma samplers.
func (m *propMemo) set(s *Structure, x Params, alpha float64) {
	copy(m.theta, x)
	r := 0
	for j := 0; j < s.Nodes(); j++ {
		a := s.Arity(j)
		for l := 0; l < s.Rows(j); l++ {
			o := s.Offset(j) + l*a
			var a0 float64
			for k := o; k < o+a; k++ {
				ak := alpha * x[k]
				a0 += ak
				m.lnT[k] = math.Log(x[k])
				m.lgA[k] = numeric.LogGamma(ak)
			}
			m.lgA0[r] = numeric.LogGamma(a0)
			r++
		}
	}
	m.ok, m.gamOK = true, false
}

// setGamma fills the Gamma samplers of m's θ (dist.NewLogGammaSamplers at
// the shapes α θ_i); shape and work are scratch of θ's length.
func (m *propMemo) setGamma(alpha float64, shape, work []float64) {
	for k, v := range m.theta {
		shape[k] = alpha * v
	}
	dist.NewLogGammaSamplers(m.gam, shape, work)
	m.gamOK = true
}

// Alpha returns the proposal strength.
func (q *DirichletProposal) Alpha() float64 { return q.alpha }

// Propose draws θ′ ~ q(·|θ) into dst (allocating if its capacity is short)
// and returns θ′ and ln q(θ|θ′) − ln q(θ′|θ), summed over rows of
//
//	ln Dir(θ_jl; α θ′_jl) − ln Dir(θ′_jl; α θ_jl),
//
// the Hastings correction of (6.60). Each row is drawn as dist.Dirichlet's
// Rand draws it (independent ln Ga(α θ_jlk, 1), normalised in the log
// domain). The ratio is −Inf (a rejection) if a draw is not finite. x is
// not modified.
func (q *DirichletProposal) Propose(dst, x Params, rnd *rand.Rand) (Params, float64) {
	s := q.s
	if len(x) != s.Len() {
		panic("dag: parameter vector has the wrong length")
	}
	if cap(dst) < len(x) {
		dst = make(Params, len(x))
	}
	dst = dst[:len(x)]
	switch {
	case q.cur.holds(x):
	case q.next.holds(x):
		q.cur, q.next = q.next, q.cur
	default:
		q.cur.set(s, x, q.alpha)
	}
	cur, nxt := &q.cur, &q.next
	if !cur.gamOK {
		cur.setGamma(q.alpha, q.lg, q.mx)
	}
	nxt.ok, nxt.gamOK = false, false
	// The draws of every row, in order, as ln G = ln d + ln v [+ t] of
	// LogGammaSampler.RandV (ln d and ln v finite, t = ln U/shape ≤ 0 and
	// −Inf only where the shape is below about 1e-307). A row whose ln G
	// are all −Inf has no normalised weights (NormalizeLogTo's are NaN): a
	// rejection, right after that row's draws.
	lg, mx, lv, tt := q.lg, q.mx, q.lv, q.tt
	for r, o := range q.rowStart {
		dead := true
		for k := o; k < o+q.rowLen[r]; k++ {
			lv[k], tt[k] = cur.gam[k].RandV(rnd)
			dead = dead && math.IsInf(tt[k], -1)
		}
		if dead {
			return dst, math.Inf(-1)
		}
	}
	numeric.LogTo(lv, lv)
	for r, o := range q.rowStart {
		a := q.rowLen[r]
		m := math.Inf(-1)
		for k := o; k < o+a; k++ {
			v := cur.gam[k].FromLogV(lv[k], tt[k])
			lg[k] = v
			if v > m || math.IsNaN(v) {
				m = v
			}
		}
		if math.IsNaN(m) || math.IsInf(m, 0) {
			return dst, math.Inf(-1)
		}
		for k := o; k < o+a; k++ {
			mx[k] = m
		}
	}
	// θ′_k = exp(ln G_k − m)/s with s = Σ_k′ exp(ln G_k′ − m) over the row,
	// NormalizeLogTo's arithmetic, the exponentials in one call.
	numeric.ExpSubTo(dst, lg, mx)
	// Each row's sum s, then θ′ divided by it and floored, ln θ′ and
	// a0 = Σ_k α θ′_k, the logarithms of the s and the a0 four at a time.
	rs, ra := q.rs, q.ra
	for r, o := range q.rowStart {
		var sum float64
		for _, e := range dst[o : o+q.rowLen[r]] {
			sum += e
		}
		rs[r] = sum
	}
	numeric.LogTo(ra, rs)
	for r, o := range q.rowStart {
		a := q.rowLen[r]
		row, lnT := dst[o:o+a], nxt.lnT[o:o+a]
		sum, lns := rs[r], ra[r]
		for k := range row {
			v := row[k] / sum
			if v < minTheta {
				row[k], lnT[k] = minTheta, lnMinTheta
			} else {
				row[k] = v
				lnT[k] = (lg[o+k] - mx[o+k]) - lns // ln θ′_k = ln G_k − ln Σ_k′ G_k′
			}
		}
		var a0 float64
		for _, v := range row {
			a0 += q.alpha * v
		}
		rs[r] = a0
	}
	numeric.LogTo(ra, rs)
	var lnr float64
	for r, o := range q.rowStart {
		// ln Dir(θ_jl; α θ′_jl) − ln Dir(θ′_jl; α θ_jl), each as
		// Σ_k [(α m_k − 1) ln y_k − ln Γ(α m_k)] + ln Γ(Σ_k α m_k).
		var lp, lq float64
		for k := o; k < o+q.rowLen[r]; k++ {
			ak := q.alpha * dst[k]
			nxt.lgA[k] = numeric.LogGammaLn(ak, q.lnAlpha+nxt.lnT[k])
			lp += (ak-1)*cur.lnT[k] - nxt.lgA[k]
		}
		nxt.lgA0[r] = numeric.LogGammaLn(rs[r], ra[r]) // ln Γ(a0), math.Lgamma's bits
		for k := o; k < o+q.rowLen[r]; k++ {
			lq += (q.alpha*x[k]-1)*nxt.lnT[k] - cur.lgA[k]
		}
		lnr += (lp + nxt.lgA0[r]) - (lq + cur.lgA0[r])
	}
	copy(nxt.theta, dst)
	nxt.ok = true
	return dst, lnr
}
