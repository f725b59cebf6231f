package gmm

import (
	"fmt"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/mixture"
	"github.com/vbworkbench/vbw/core/vb"
)

// MoveSplit is the move of Splitter: D'Souza's local split of one
// component in two, made where the local evidence prefers two Gaussians to
// one (D'Souza (2004) section 3.1.2, Algorithm 2, L771–786).
const MoveSplit = "split"

// SplitSettings control the local 1-vs-2 test of a Splitter. The zero
// value of every field means its documented default.
type SplitSettings struct {
	// Run is the VBEM run of each local fit, of one Gaussian and of two.
	// Default (MaxIterations 0): at most 1000 iterations, until F changes
	// by less than 10⁻¹⁰·|F| and is within 10⁻⁶ nats of its limit
	// (vb.BoundConverge).
	Run vb.Settings
	// MinPoints is the fewest points a component must own for its test: a
	// component with fewer is never split. Default 2(D + 1), enough for
	// each of two Gaussians to have a mean and a full covariance.
	MinPoints int
	// Margin is the rise of the local bound a split needs: split iff
	// F₂ > F₁ + Margin (D'Souza compares the two, L765, Margin 0: the
	// default). A Margin of −ln 2 credits two components with their
	// relabelling (PRML section 10.2.4).
	Margin float64
}

func (s SplitSettings) run() vb.Settings {
	if s.Run.MaxIterations > 0 {
		return s.Run
	}
	return vb.Settings{MaxIterations: 1000, Converger: &vb.BoundConverge{Relative: 1e-10, Absolute: 1e-6}}
}

// LocalTest is the outcome of the 1-vs-2 test on the points of one
// component.
type LocalTest struct {
	// Component is the component tested; Points the indices of the data
	// points it owns (the points whose largest q(z_n = k) is its: the data
	// x_{D_m} "covered by component m", L776).
	Component int
	Points    []int
	// F1 is the bound of one Gaussian on those points, which is its exact
	// log evidence (LogEvidenceOne); F2 that of two Gaussians, converged
	// from the split of the points across the principal axis (the birth of
	// moves.go). Both are NaN when the component owns fewer than
	// SplitSettings.MinPoints points.
	F1, F2 float64
	// Weights is E[ζ], E[1 − ζ] of the two-Gaussian fit (the Beta q(ζ) of
	// D'Souza eq. (3.6), the Dirichlet of K = 2 here).
	Weights [2]float64
	// Resp is q(s_i = 1) of the two-Gaussian fit for each of Points (the
	// second Gaussian has 1 − Resp).
	Resp []float64
	// Split reports whether F2 > F1 + SplitSettings.Margin.
	Split bool
}

// Splitter is VB grown by D'Souza's local splits (Algorithm 2, L771–786;
// the 1-vs-2 model of section 3.1.1.1, eqs. (3.1)–(3.6), App. B.2
// L2243–2293): for each component m in turn, one and two Gaussians are
// fitted to the points m owns, with the model's own prior (D'Souza's
// Normal-Wishart μ_m | P_m ~ N(0, (α₀P_m)⁻¹), P_m ~ W(ν, R) is this
// package's with β₀ = α₀, m₀ = 0, W₀ = R, ν₀ = ν, and his Beta(u₁, u₂) on
// the mixing weight ζ the Dirichlet of K = 2 with α₀ = u₁ = u₂); where the
// bound of two exceeds that of one, m is split in two along the local
// fit's responsibilities. It is a vb.Mover whose only move is MoveSplit:
// vb.Search converges the grown model and keeps the split only if the
// global F rose, so the search never lowers F; it ends, as Algorithm 2's
// "until no split occurs", when no untried component's local test favours
// two.
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

// fingerprint returns what identifies the state the local tests were
// made on: K, α and the means m_k.
func (s *Splitter) fingerprint() []float64 {
	return append(append([]float64{float64(s.k)}, s.alpha...), s.m...)
}

// Owned returns, for each component, the points whose largest q(z_n = k)
// is k's (mixture.Owned).
func (m *VB) Owned() [][]int { return mixture.Owned(m.resp, m.n) }

// Test returns the local 1-vs-2 test of component j at the current state
// (computed once per state). An error says a local fit failed.
func (s *Splitter) Test(j int) (LocalTest, error) {
	if j < 0 || j >= s.k {
		return LocalTest{}, fmt.Errorf("gmm: component %d of %d", j, s.k)
	}
	return s.tests.Test(s.fingerprint(), j, func() (LocalTest, error) { return s.localTest(j, s.Owned()[j]) })
}

// localTest fits one and two Gaussians to the points pts (D'Souza
// section 3.1.1.1, updates of App. B.2 L2261–2289: those of VB.M and
// VB.E with K = 2).
func (s *Splitter) localTest(j int, pts []int) (LocalTest, error) {
	d := s.d
	t := LocalTest{Component: j, Points: pts, F1: math.NaN(), F2: math.NaN()}
	minPts := s.Split.MinPoints
	if minPts <= 0 {
		minPts = 2 * (d + 1)
	}
	if len(pts) < max(minPts, 2) {
		return t, nil
	}
	x := make([]float64, 0, len(pts)*d)
	for _, i := range pts {
		x = append(x, s.x[i*d:(i+1)*d]...)
	}
	local, err := NewVB(x, d, 1, s.prior, nil)
	if err != nil {
		return t, err
	}
	run := s.Split.run()
	r1 := s.RunLocal(local, run, len(pts))
	if !r1.Status.OK() {
		return t, fmt.Errorf("gmm: local fit of one Gaussian to component %d: %w", j, r1.Error())
	}
	if err := local.Apply(vb.Move{Kind: MoveBirth, Component: 0, Other: -1}); err != nil {
		return t, err
	}
	r2 := s.RunLocal(local, run, len(pts))
	if !r2.Status.OK() {
		return t, fmt.Errorf("gmm: local fit of two Gaussians to component %d: %w", j, r2.Error())
	}
	w := local.MeanWeights(nil)
	t.F1, t.F2, t.Weights = r1.F, r2.F, [2]float64{w[0], w[1]}
	t.Resp = slices.Clone(local.resp[:len(pts)])
	t.Split = t.F2 > t.F1+s.Split.Margin
	return t, nil
}

// Propose returns the split of the first component, in index order, that
// has not been tried since the last accepted move and whose local test
// favours two Gaussians (Algorithm 2's loop over m, L774); ok is false
// when there is none ("until no split occurs", L785). A failed local fit
// counts as a test against the split.
func (s *Splitter) Propose(log []vb.MoveRecord) (vb.Move, bool) {
	return mixture.ProposeSplit(MoveSplit, s.k, func(j int) bool {
		t, err := s.Test(j)
		return err == nil && t.Split
	}, log)
}

// Apply splits component j by its local test (Algorithm 2, lines 6–8): a
// new component K takes, of each point n that j owns, the share 1 − ρ_n
// of q(z_n = j), with ρ_n the local two-Gaussian fit's q(s_n = 1), and j
// keeps ρ_n q(z_n = j); the other points are left as they are. M then
// sets q(π, μ, Λ) to match. It returns an error for another move, a
// component out of range or one whose local fit failed or cannot be made;
// the model is then unchanged.
func (s *Splitter) Apply(mv vb.Move) error {
	if mv.Kind != MoveSplit {
		return fmt.Errorf("gmm: the splitter has no move %q", mv.Kind)
	}
	j := mv.Component
	t, err := s.Test(j)
	if err != nil {
		return err
	}
	if t.Resp == nil {
		return fmt.Errorf("gmm: component %d owns %d points, too few to split", j, len(t.Points))
	}
	resp := mixture.SplitResp(s.resp, s.n, j, t.Points, t.Resp)
	s.resize(s.k + 1)
	s.resp = resp
	s.M()
	return nil
}
