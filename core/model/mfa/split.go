package mfa

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/vb"
)

// MoveSplit is the move of Splitter: D'Souza's local split of one analyser
// in two where the local evidence prefers two analysers to one (D'Souza
// (2004) Algorithm 2, L771–786, with a VB factor analyser as each
// component, section 3.1.3, L799–827).
const MoveSplit = "split"

// SplitSettings control the local 1-vs-2 test of a Splitter. The zero
// value of every field means its documented default.
type SplitSettings struct {
	// Run is the VBEM run of each local fit. The fits start from the
	// model's hyperparameters Θ and update them by Run.Hyper (each fit its
	// own Θ, on its own points); without a schedule they are held at the
	// model's. Default (MaxIterations 0): at most 1000 iterations, until F
	// changes by less than 10⁻⁸·|F| and is within 10⁻⁴ nats of its limit,
	// with the reference code's schedule (DefaultSchedule).
	Run vb.Settings
	// Rand is the stream of the local fits' birth directions (the spatial
	// split of Apply, line 2652). Required.
	Rand *rand.Rand
	// MinPoints is the fewest points an analyser must own for its test.
	// Default 2(p + 1).
	MinPoints int
	// Margin: split iff F₂ > F₁ + Margin. Default 0 (D'Souza's comparison).
	Margin float64
}

func (s SplitSettings) run() vb.Settings {
	if s.Run.MaxIterations > 0 {
		return s.Run
	}
	return vb.Settings{MaxIterations: 1000, Hyper: vb.Every(HyperPsi), Converger: &vb.BoundConverge{Relative: 1e-8, Absolute: 1e-4}}
}

// LocalTest is the outcome of the 1-vs-2 test on the points of one
// analyser.
type LocalTest struct {
	// Component is the analyser tested; Points the points it owns (the
	// largest q(s_i = s) is its: mixture.Owned).
	Component int
	Points    []int
	// F1 and F2 are the bounds of one and of two analysers on those
	// points, each of the model's k_s factors, from the model's Θ; NaN
	// when the analyser owns fewer than MinPoints points. The two-analyser
	// fit starts from a spatial birth of the one-analyser fit.
	F1, F2 float64
	// Resp is q(s_i = first) of the two-analyser fit for each of Points
	// (nil unless it ended with both analysers).
	Resp []float64
	// Split reports whether F2 > F1 + Margin and the fit kept two
	// analysers.
	Split bool
}

// Splitter is VB grown by D'Souza's local splits: for each analyser m in
// turn, one and two analysers are fitted to the points m owns, from the
// model's hyperparameters (Ψ, μ*, ν*, a*, b*, α*), each fit updating its
// own by SplitSettings.Run.Hyper (a shared Ψ that has absorbed the
// variance of every point, as it does when ARD has switched a lone
// analyser's factors off, would otherwise leave two analysers nothing to
// gain); where the
// bound of two exceeds that of one, m is split along the local fit's
// responsibilities (the children's loadings from a PCA of their points,
// as PCALoadings births). It is a vb.Mover whose only move is MoveSplit:
// vb.Search keeps a split only if the global F rose, and ends when no
// untried analyser's local test favours two ("until no split occurs",
// L785). Deaths inside the E step (MoveSettings.Death = DeathInSweep)
// still apply.
type Splitter struct {
	*VB
	Split SplitSettings

	// LocalFits counts the iterations of every local fit so far (work
	// outside the global model's, which vb.Search's budget does not see):
	// LocalIterations, and LocalPointIterations weighted by each fit's
	// points.
	mixture.LocalFits

	tests mixture.SplitCache[LocalTest] // the local tests of the state of fingerprint
}

var _ vb.Mover = (*Splitter)(nil)

// NewSplitter returns the local-split search of m with the settings s.
func NewSplitter(m *VB, s SplitSettings) *Splitter { return &Splitter{VB: m, Split: s} }

// fingerprint identifies the state the cached tests were made on.
func (s *Splitter) fingerprint() []float64 {
	return append(append([]float64{float64(len(s.comps))}, s.omega...), s.Hyper.Psi...)
}

// Test returns the local 1-vs-2 test of analyser j at the current state
// (computed once per state).
func (s *Splitter) Test(j int) (LocalTest, error) {
	if j < 0 || j >= len(s.comps) {
		return LocalTest{}, fmt.Errorf("mfa: analyser %d of %d", j, len(s.comps))
	}
	return s.tests.Test(s.fingerprint(), j, func() (LocalTest, error) { return s.localTest(j, mixture.Owned(s.resp, s.n)[j]) })
}

func (s *Splitter) localTest(j int, pts []int) (LocalTest, error) {
	t := LocalTest{Component: j, Points: pts, F1: math.NaN(), F2: math.NaN()}
	if s.Split.Rand == nil {
		return t, fmt.Errorf("mfa: a split test without SplitSettings.Rand")
	}
	minPts := s.Split.MinPoints
	if minPts <= 0 {
		minPts = 2 * (s.p + 1)
	}
	if len(pts) < max(minPts, 2) {
		return t, nil
	}
	y := mat.NewDense(len(pts), s.p, nil)
	ones := mat.NewDense(len(pts), 1, nil)
	for a, i := range pts {
		y.SetRow(a, s.y.RawRowView(i))
		ones.Set(a, 0, 1)
	}
	set := Settings{K: s.comps[j].k, Hyper: s.Hyper.clone(), PsiMin: s.PsiMin, ABMax: s.ABMax, InnerRepeats: s.InnerRepeats,
		ReferencePenalty: s.ReferencePenalty}
	local, err := NewVB(y, ones, set)
	if err != nil {
		return t, err
	}
	run := s.Split.run()
	r1 := s.RunLocal(local, run, len(pts))
	if !r1.Status.OK() {
		return t, fmt.Errorf("mfa: local fit of one analyser to %d: %w", j, r1.Error())
	}
	local.Moves = MoveSettings{Rand: s.Split.Rand, Birth: SpatialSplit}
	if err := local.Apply(vb.Move{Kind: MoveBirth, Component: 0, Other: -1}); err != nil {
		return t, err
	}
	r2 := s.RunLocal(local, run, len(pts))
	if !r2.Status.OK() {
		return t, fmt.Errorf("mfa: local fit of two analysers to %d: %w", j, r2.Error())
	}
	t.F1, t.F2 = r1.F, r2.F
	if len(local.comps) == 2 {
		t.Resp = slices.Clone(local.resp[:len(pts)])
		t.Split = t.F2 > t.F1+s.Split.Margin
	}
	return t, nil
}

// Propose returns the split of the first analyser, in index order, not
// tried since the last accepted move whose local test favours two; ok is
// false when there is none. A failed local fit counts against the split.
func (s *Splitter) Propose(log []vb.MoveRecord) (vb.Move, bool) {
	return mixture.ProposeSplit(MoveSplit, len(s.comps), func(j int) bool {
		t, err := s.Test(j)
		return err == nil && t.Split
	}, log)
}

// Apply splits analyser j by its local test: a new analyser S takes, of
// each point i that j owns, the share 1 − ρ_i of q(s_i = j), with ρ_i the
// local fit's responsibility of its first analyser, and j keeps ρ_i q(s_i
// = j); both share ω_j, get loadings from a PCA of their points and then
// q(x), q(Λ̃) twice (addChild with PCALoadings). An error (another move, an
// analyser out of range, a test that failed or kept one analyser) leaves
// the model as it was.
func (s *Splitter) Apply(mv vb.Move) error {
	if mv.Kind != MoveSplit {
		return fmt.Errorf("mfa: the splitter has no move %q", mv.Kind)
	}
	j := mv.Component
	t, err := s.Test(j)
	if err != nil {
		return err
	}
	if t.Resp == nil {
		return fmt.Errorf("mfa: analyser %d: the local fit did not keep two analysers", j)
	}
	snap := s.Save()
	resp := mixture.SplitResp(s.resp, s.n, j, t.Points, t.Resp)
	if err := s.addChild(j, resp, true); err != nil {
		s.Restore(snap)
		return err
	}
	s.moved, s.agValid = true, false
	return nil
}
