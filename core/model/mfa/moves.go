package mfa

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Kinds of the moves of VB (Beal (2003) section 4.3, lines 2615–2704).
const (
	MoveBirth = "birth"
	MoveDeath = "death"
)

// MoveSettings control the structural moves that VB proposes to
// vb.Search (targets ch4-mfa.md §1.9). The zero value of every field means
// its documented default.
type MoveSettings struct {
	// Rand is the stream of the birth directions. nil means that no births
	// are proposed (deaths only). It is not part of Save's snapshot: a birth
	// tried again after a rejection draws a new direction.
	Rand *rand.Rand
	// MaxTries is the number of rounds over all analysers, in F_s order,
	// that may pass without an accepted move before the search ends
	// (max_tries of targets §1.9: 1 for the synthetic experiments, 3 for
	// the digits). Default 1.
	MaxTries int
	// DeathThreshold is the responsibility mass Σ_i q_is below which an
	// analyser dies ("less than one data point's worth", line 2637; the
	// reference code's sum(Qns) < 1). Default 1; a negative value disables
	// deaths.
	DeathThreshold float64
	// Death says when such an analyser is removed. Default DeathInSweep,
	// the thesis's rule; DeathAsMove is the ablation.
	Death DeathRule
	// Birth says how a birth splits its parent. Default
	// ResponsibilitySplit (the thesis's digits experiments); the synthetic
	// experiments use SpatialSplit (targets §1.9, §4 item 4).
	Birth BirthMode
	// Children says how the two children of a responsibility split get
	// their loadings (a spatial split always clones the parent's). Default
	// InheritLoadings, the thesis's.
	Children ChildInit
}

// DeathRule says when an analyser whose responsibility mass Σ_i q_is is
// below MoveSettings.DeathThreshold is removed.
type DeathRule int

const (
	// DeathInSweep: E removes it right after the q(s) update in which its
	// mass fell below the threshold, and updates q(s) again over the
	// survivors (Beal (2003) section 4.3.1, L2637: "remove components once
	// their total posterior responsibilities fall below a reasonable level
	// (in practice less than one data point's worth)"; the reference code
	// does it in inferQns, every sweep). F changes at the removal by the
	// amount removalJump documents; E reports it as vb.Bound.Jump, so that
	// vb.Run still checks every other step of the sweep, and logs it
	// (Deaths). Propose proposes no deaths.
	DeathInSweep DeathRule = iota
	// DeathAsMove: Propose offers each such analyser's removal as a move
	// between epochs, kept by vb.Search if F at the end of the moved
	// model's epoch is higher (the "testing" variant the thesis describes
	// but did not use, L2635); E never changes S. An ablation.
	DeathAsMove
)

func (d DeathRule) String() string { return enumString("DeathRule", int(d), "in-sweep", "move") }

// BirthMode says how a birth splits its parent s′ into s′ and a new
// analyser t. Both draw a direction d ~ N(0, E[Λ^{s′}]E[Λ^{s′}]ᵀ + Ψ), a full
// sample from the parent's covariance ellipsoid (the reference code's
// dobirth; targets ch4-mfa.md §1.9).
type BirthMode int

const (
	// ResponsibilitySplit (eqs. (4.73)–(4.76), lines 2654–2672; used for
	// the digits, lines 2830, 2873): the parent's points are split by the
	// sign of (y_i − E[μ^{s′}])ᵀd with α_h = 1, and the children's first
	// updates are q(Λ̃) (see Apply and ChildInit).
	ResponsibilitySplit BirthMode = iota
	// SpatialSplit (line 2652; used in all the synthetic experiments,
	// lines 2755, 2763, 2811): the children are clones of the parent with
	// their means displaced to E[μ^{s′}] ± d; their q(x) is recomputed and
	// each point's q_is′ is shared between them in proportion to
	// exp(ψ(ω_s) − ψ(ω_0) + T_x(i,s) + T_y(i,s)) (targets §1.9 steps 1–6).
	SpatialSplit
)

func (b BirthMode) String() string {
	return enumString("BirthMode", int(b), "responsibility", "spatial")
}

// enumString returns names[v], the name of the value v of an enum whose
// constants count from 0 (iota), or "typ(v)" for a value outside it.
func enumString(typ string, v int, names ...string) string {
	if v >= 0 && v < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// ChildInit says how the children of a birth get q(Λ̃) and q(ν).
type ChildInit int

const (
	// InheritLoadings: both children inherit q(Λ̃^{s′}) and q(ν^{s′}) of
	// the parent, and their first updates are q(Λ̃) with the parent's q(x)
	// (Beal (2003) line 2672; targets ch4-mfa.md §1.9).
	//
	// When the parent explains the offset between two clusters with a
	// factor column, the regression of each child's points on the parent's
	// x̄ gives back the same long column, both children still model both
	// clusters, and one of them takes all the points back: such a birth is
	// rejected whatever the direction of the split.
	InheritLoadings ChildInit = iota
	// PCALoadings: each child's q(Λ̃) means are re-initialised from a PCA of
	// the data weighted by its share of the split responsibilities, as NewVB
	// initialises an analyser (targets §1.14), with the parent's row
	// covariances; q(ν) is updated to match, and the first updates are q(x)
	// and q(Λ̃), twice. (A departure from the thesis; the semi-supervised
	// fork of the reference code also re-initialises each child's loadings
	// from a PCA of its half of the data.)
	PCALoadings
)

// Propose returns the next move to try, given the log of the moves that
// vb.Search has tried so far. Since the last accepted move the model is in
// the same state (rejections are restored), and Propose goes through:
//
//  1. under MoveSettings.Death = DeathAsMove, the death of every analyser
//     whose Σ_i q_is < DeathThreshold, smallest first (section 4.3.1,
//     lines 2631–2637), each tried once (under DeathInSweep, E has
//     removed them already);
//  2. births, the parents in order of ascending F_s (ComponentF, eq. (4.77),
//     lines 2680–2690: the worst-modelled analyser first), round after
//     round, MaxTries rounds in all (targets §1.9 "parent choice").
//
// ok is false when both are exhausted (births are proposed only when
// MoveSettings.Rand is set).
func (m *VB) Propose(log []vb.MoveRecord) (mv vb.Move, ok bool) {
	since := sinceAccepted(log)
	S := len(m.comps)
	if thr := m.Moves.deathThreshold(); S > 1 && thr > 0 && m.Moves.Death == DeathAsMove {
		ns := m.Counts()
		var cands []int
		for s, v := range ns {
			if v < thr {
				cands = append(cands, s)
			}
		}
		sort.SliceStable(cands, func(a, b int) bool { return ns[cands[a]] < ns[cands[b]] })
		for _, s := range cands {
			if !slices.ContainsFunc(since, func(r vb.MoveRecord) bool { return r.Kind == MoveDeath && r.Component == s }) {
				return vb.Move{Kind: MoveDeath, Component: s, Other: -1}, true
			}
		}
	}
	if m.Moves.Rand == nil {
		return vb.Move{}, false
	}
	return nextBirth(since, S, m.Moves.MaxTries, m.ParentOrder)
}

// deathThreshold returns DeathThreshold with its default: 1 for 0, and
// a non-positive value when deaths are disabled.
func (ms MoveSettings) deathThreshold() float64 {
	if ms.DeathThreshold == 0 {
		return 1
	}
	return ms.DeathThreshold
}

// sinceAccepted returns the moves logged after the last accepted one: the
// tries made on the current state (rejected moves are restored).
func sinceAccepted(log []vb.MoveRecord) []vb.MoveRecord {
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Accepted {
			return log[i+1:]
		}
	}
	return log
}

// nextBirth is the parent choice of targets §1.9 shared by the VB and ML
// searches: with b births tried on the current state of S components, the
// next parent is order()[b mod S], until maxTries rounds (at least 1) have
// been tried without an acceptance.
func nextBirth(since []vb.MoveRecord, S, maxTries int, order func() []int) (vb.Move, bool) {
	var births int
	for _, r := range since {
		if r.Kind == MoveBirth {
			births++
		}
	}
	if S == 0 || births >= max(maxTries, 1)*S {
		return vb.Move{}, false
	}
	return vb.Move{Kind: MoveBirth, Component: order()[births%S], Other: -1}, true
}

// ParentOrder returns the analysers in order of ascending F_s (ties by
// index), the order in which Propose tries them as parents of a birth.
func (m *VB) ParentOrder() []int {
	fs := m.ComponentF()
	order := make([]int, len(fs))
	for s := range order {
		order[s] = s
	}
	sort.SliceStable(order, func(a, b int) bool { return fs[order[a]] < fs[order[b]] })
	return order
}

// ComponentF returns the contribution F_s of each analyser to F (eq.
// (4.77), lines 2680–2690; targets §1.4),
//
//	F_s = −KL[q(ν^s)] − KL[q(Λ̃^s)] + (1/N_s) Σ_i q_is (ψ(ω_s) − ψ(ω_0) − ln q_is + T_x(i,s) + T_y(i,s)),
//
// the data part normalised by the analyser's responsibility mass N_s (it is
// omitted when N_s = 0), at the current state (less p(k_s+1) under
// Settings.ReferencePenalty, as in the reference code's ordercands).
func (m *VB) ComponentF() []float64 {
	m.prepPsi()
	m.computeT()
	S, n := len(m.comps), m.n
	dist.DirichletMeanLogTo(m.elnpi, m.omega)
	fs := make([]float64, S)
	ns := make([]float64, S)
	for s := range fs {
		for i, r := range m.resp[s*n : (s+1)*n] {
			if r == 0 {
				continue
			}
			ns[s] += r
			fs[s] += r * (m.elnpi[s] - math.Log(r) + m.tx[s*n+i] + m.ty[s*n+i])
		}
	}
	for s, c := range m.comps {
		if ns[s] > 0 {
			fs[s] /= ns[s]
		}
		m.componentKL(c)
		fs[s] -= c.klNu + c.klLam
		if m.ReferencePenalty {
			fs[s] -= m.referencePenalty(c)
		}
	}
	return fs
}

// Apply performs a move:
//
//   - birth from s′ with MoveSettings.Birth = SpatialSplit (line 2652;
//     targets §1.9 steps 1–6): a direction d ~ N(0, E[Λ^{s′}]E[Λ^{s′}]ᵀ + Ψ);
//     a new child S gets a copy of q(Λ̃^{s′}) and q(ν^{s′}); the means move
//     apart, E[μ^S] = E[μ^{s′}] + d and E[μ^{s′}] ← E[μ^{s′}] − d (the rows'
//     covariances kept); the children share ω_s′ equally; q(x|s) of both is
//     recomputed, and then each point's q_is′ is shared between s′ and S in
//     proportion to exp(ψ(ω_s) − ψ(ω_0) + T_x(i,s) + T_y(i,s)) of each child
//     (the q(s) update restricted to the two, which is exact in that split;
//     the other analysers are untouched); E continues from there;
//   - birth from s′ with ResponsibilitySplit (eqs. (4.73)–(4.76), lines
//     2654–2672, with α_h = 1 as in the thesis): a direction d ~ N(0,
//     E[Λ^{s′}]E[Λ^{s′}]ᵀ + Ψ) (mean 0: only its direction matters, targets
//     §1.9) splits the points by the sign of (y_i − E[μ^{s′}])ᵀd; the
//     child s′ keeps q_is′ of the points on the non-negative side, a new
//     child S takes it on the other; both inherit q(Λ̃^{s′}), q(ν^{s′}) and
//     q(x|s′), and share the parent's Dirichlet count ω_s′ equally. The
//     first updates are q(Λ̃) of the two children, then q(x) and q(Λ̃) once
//     more (as the reference code's dobirth does), after which E continues
//     (MoveSettings.Children = PCALoadings re-initialises the children's
//     loadings instead; see ChildInit);
//   - death of s (section 4.3.1): column s of q(s) is removed and every row
//     renormalised (a row whose mass was all on s becomes uniform), with
//     q(Λ̃^s), q(ν^s), q(x|s); q(π) is updated for the survivors (eq. (4.37)
//     with m* = 1/(S−1)).
//
// An error (an unknown move, a death of the only analyser, a birth without
// MoveSettings.Rand, a numerical failure) leaves the model as it was.
func (m *VB) Apply(mv vb.Move) error {
	s := mv.Component
	if s < 0 || s >= len(m.comps) {
		return fmt.Errorf("mfa: move %v: analyser %d of %d", mv, s, len(m.comps))
	}
	switch mv.Kind {
	case MoveBirth:
		if m.Moves.Rand == nil {
			return errors.New("mfa: birth without MoveSettings.Rand")
		}
		snap := m.Save()
		birth := m.birth
		if m.Moves.Birth == SpatialSplit {
			birth = m.birthSpatial
		}
		if err := birth(s, m.Moves.Rand); err != nil {
			m.Restore(snap)
			return err
		}
		m.moved, m.agValid = true, false
		return nil
	case MoveDeath:
		if len(m.comps) < 2 {
			return errors.New("mfa: death of the only analyser")
		}
		m.death(s)
		m.moved, m.agValid = true, false
		return nil
	}
	return fmt.Errorf("mfa: unknown move %q", mv.Kind)
}

// birth splits analyser sp (see Apply).
func (m *VB) birth(sp int, rnd *rand.Rand) error {
	n, S := m.n, len(m.comps)
	parent := m.comps[sp]
	k := parent.k
	dir := m.birthDirection(parent, rnd)
	mean := parent.mean.RawMatrix()
	resp := mixture.Add(m.resp, n)
	for i := 0; i < n; i++ {
		var proj float64
		for q, yq := range m.y.RawRowView(i) {
			proj += (yq - mean.Data[q*mean.Stride+k]) * dir[q]
		}
		if proj < 0 {
			resp[S*n+i], resp[sp*n+i] = resp[sp*n+i], 0
		}
	}
	return m.addChild(sp, resp, m.Moves.Children == PCALoadings)
}

// addChild adds analyser S = len(m.comps), a copy of analyser sp, with the
// responsibilities resp ((S+1)×n, which the caller has split between sp and
// S), the two sharing ω_sp equally; then the children's first updates: q(Λ̃)
// of both, then q(x) and q(Λ̃) once more, or with pca their loadings from
// a PCA of their points first and q(x), q(Λ̃) twice (see Apply, ChildInit).
func (m *VB) addChild(sp int, resp []float64, pca bool) error {
	n, p, S := m.n, m.p, len(m.comps)
	child := m.comps[sp].clone(n, p)
	m.comps = append(m.comps, child)
	m.omega = mixture.SplitWeight(m.omega, sp)
	m.resp = resp
	m.resize()
	m.prepPsi()
	if pca {
		for _, s := range []int{sp, S} {
			if err := m.pcaLoadings(s); err != nil {
				return fmt.Errorf("mfa: birth from %d: %w", sp, err)
			}
		}
	}
	for pass := range 2 {
		for _, s := range []int{sp, S} {
			c := m.comps[s]
			if pass == 1 || pca {
				if err := m.updateX(c); err != nil {
					return fmt.Errorf("mfa: birth from %d: q(x): %w", sp, err)
				}
			}
			if err := m.updateLoadings(s, c); err != nil {
				return fmt.Errorf("mfa: birth from %d: q(Λ̃): %w", sp, err)
			}
		}
	}
	return nil
}

// birthDirection draws d ~ N(0, E[Λ]E[Λ]ᵀ + Ψ) for the parent c: d =
// E[Λ]z + Ψ^{1/2}u with z, u standard normal (targets §1.9 step 1). It
// leaves E[Λ̃] of c in c.mean.
func (m *VB) birthDirection(c *component, rnd *rand.Rand) []float64 {
	k := c.k
	c.rows.MeanTo(c.mean)
	mean := c.mean.RawMatrix()
	z := make([]float64, k)
	for l := range z {
		z[l] = rnd.NormFloat64()
	}
	dir := make([]float64, m.p)
	for q := range dir {
		row := mean.Data[q*mean.Stride : q*mean.Stride+c.d]
		dir[q] = dot(z, row[:k]) + math.Sqrt(m.Hyper.Psi[q])*rnd.NormFloat64()
	}
	return dir
}

// birthSpatial splits analyser sp spatially (see Apply).
func (m *VB) birthSpatial(sp int, rnd *rand.Rand) error {
	n, p, S := m.n, m.p, len(m.comps)
	parent := m.comps[sp]
	dir := m.birthDirection(parent, rnd)
	child := parent.clone(n, p)
	orig := parent.rows
	for _, sh := range []struct {
		c    *component
		sign float64
	}{{parent, -1}, {child, 1}} {
		rows, err := shiftMean(orig, dir, sh.sign)
		if err != nil {
			return fmt.Errorf("mfa: birth from %d: %w", sp, err)
		}
		sh.c.rows, sh.c.ownRows = rows, true
	}
	m.comps = append(m.comps, child)
	m.omega = mixture.SplitWeight(m.omega, sp)
	resp := mixture.Add(m.resp, n)
	m.resp = resp
	m.resize()
	m.prepPsi()
	for _, c := range []*component{parent, child} {
		if err := m.updateX(c); err != nil {
			return fmt.Errorf("mfa: birth from %d: q(x): %w", sp, err)
		}
	}
	m.computeT()
	dist.DirichletMeanLogTo(m.elnpi, m.omega)
	for i := 0; i < n; i++ {
		r := resp[sp*n+i]
		if r == 0 {
			continue
		}
		// The share of the parent: 1/(1 + e^{ℓ_t − ℓ_s′}), computed on the
		// side where the exponent is not positive.
		lp := m.elnpi[sp] + m.tx[sp*n+i] + m.ty[sp*n+i]
		lc := m.elnpi[S] + m.tx[S*n+i] + m.ty[S*n+i]
		if math.IsNaN(lp) || math.IsNaN(lc) {
			return fmt.Errorf("mfa: birth from %d: the log-responsibilities of point %d are %v, %v", sp, i, lp, lc)
		}
		var wp float64
		if lc <= lp {
			e := math.Exp(lc - lp)
			wp = 1 / (1 + e)
		} else {
			e := math.Exp(lp - lc)
			wp = e / (1 + e)
		}
		rp, rc := r*wp, r*(1-wp)
		if rp < mixture.Floor {
			rp, rc = 0, r
		} else if rc < mixture.Floor {
			rp, rc = r, 0
		}
		resp[sp*n+i], resp[S*n+i] = rp, rc
	}
	return nil
}

// shiftMean returns the rows of g with the last coordinate of every row
// mean (the analyser mean μ_q of Λ̃_q) moved by sign·dir[q], and the same
// covariances.
func shiftMean(g *dist.GaussianRows, dir []float64, sign float64) (*dist.GaussianRows, error) {
	p, d := g.Dims()
	means := g.MeanTo(nil)
	covs := make([]mat.Symmetric, p)
	for q := 0; q < p; q++ {
		means.Set(q, d-1, means.At(q, d-1)+sign*dir[q])
		covs[q] = g.CovarianceTo(nil, q)
	}
	return dist.NewGaussianRowsDistinct(means, covs)
}

// pcaLoadings replaces the means of q(Λ̃^s) by those of a PCA of the data
// weighted by q(s_i = s) (weightedPCA; NewVB's initialisation), keeping the
// row covariances, and sets q(ν^s) to its update given them. An analyser
// without responsibility is left as it is.
func (m *VB) pcaLoadings(s int) error {
	n, p := m.n, m.p
	c := m.comps[s]
	w := m.resp[s*n : (s+1)*n]
	if numeric.Sum(w) < minCount {
		return nil
	}
	mu, lambda, _ := weightedPCA(m.y, w, c.k)
	means := mat.NewDense(p, c.d, nil)
	covs := make([]mat.Symmetric, p)
	for q := 0; q < p; q++ {
		row := means.RawRowView(q)
		for l := 0; l < c.k; l++ {
			row[l] = lambda.At(q, l)
		}
		row[c.k] = mu[q]
		covs[q] = c.rows.CovarianceTo(nil, q)
	}
	rows, err := dist.NewGaussianRowsDistinct(means, covs)
	if err != nil {
		return err
	}
	c.rows, c.ownRows = rows, true
	c.rows.ColumnSecondMomentsTo(c.colm)
	for l := range c.nu {
		c.nu[l] = dist.Gamma{Alpha: m.Hyper.A + 0.5*float64(p), Beta: m.Hyper.B + 0.5*c.colm[l]}
	}
	return nil
}

// death removes analyser s (see Apply).
func (m *VB) death(s int) {
	m.resp = mixture.Remove(m.resp, m.n, s)
	m.comps = slices.Delete(m.comps, s, s+1)
	m.omega = slices.Delete(m.omega, s, s+1)
	m.resize()
	mixture.UpdateWeights(m.omega, m.resp, m.n, m.Hyper.Alpha)
}

// componentState is the state of one analyser in a snapshot.
type componentState struct {
	k                       int
	rows                    *dist.GaussianRows
	nu, sigma, xT           []float64
	nuShape                 []float64
	logDetSigma, traceSigma float64
}

// snapshot is the state saved by Save.
type snapshot struct {
	hyper       Hyper
	abFrozen    int
	omega, resp []float64
	comps       []componentState
}

// Save returns a deep copy of the state: every q (q(Λ̃) is immutable and
// shared), Θ and the ABFrozen count. The birth stream is not saved.
func (m *VB) Save() any {
	sn := &snapshot{hyper: m.Hyper.clone(), abFrozen: m.ABFrozen,
		omega: slices.Clone(m.omega), resp: slices.Clone(m.resp)}
	for _, c := range m.comps {
		c.ownRows = false // the snapshot holds c.rows
		st := componentState{k: c.k, rows: c.rows, sigma: slices.Clone(c.sigma), xT: slices.Clone(c.xT),
			logDetSigma: c.logDetSigma, traceSigma: c.traceSigma}
		for _, g := range c.nu {
			st.nuShape = append(st.nuShape, g.Alpha)
			st.nu = append(st.nu, g.Beta)
		}
		sn.comps = append(sn.comps, st)
	}
	return sn
}

// Restore puts back a snapshot made by Save (it may be restored more than
// once).
func (m *VB) Restore(x any) {
	sn := x.(*snapshot)
	m.moved, m.agValid = true, false
	m.Hyper = sn.hyper.clone()
	m.ABFrozen = sn.abFrozen
	m.omega, m.resp = slices.Clone(sn.omega), slices.Clone(sn.resp)
	m.comps = make([]*component, len(sn.comps))
	for s, st := range sn.comps {
		c := newComponent(m.n, m.p, st.k)
		c.rows = st.rows
		for l := range c.nu {
			c.nu[l] = dist.Gamma{Alpha: st.nuShape[l], Beta: st.nu[l]}
		}
		copy(c.sigma, st.sigma)
		copy(c.xT, st.xT)
		c.logDetSigma, c.traceSigma = st.logDetSigma, st.traceSigma
		m.comps[s] = c
	}
	m.resize()
}
