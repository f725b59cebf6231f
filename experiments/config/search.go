package config

import (
	"fmt"

	"github.com/vbworkbench/vbw/core/vb"
)

// SearchSettings are the [search] keys of a birth/death search of the
// model's structure (vb.Search; Beal 2003 section 4.3): from one
// component, converge (an epoch), propose a birth or a death, converge the
// moved model, keep the move if F rose, until every component has been
// tried MaxTries times without success or the budget is spent. Any model
// that can move (vb.Mover) and can end its epochs by the agitation rule
// (EpochModel) runs under them (SearchSettings.Search); how a model splits
// a component (Birth, Children) is the model's to map.
//
//	[search]
//	max_tries            = 1               # unsuccessful tries of every component before the search ends
//	birth                = "spatial"       # or "responsibility"
//	children             = "pca"           # or "inherit"
//	epoch                = "agitation+dF"  # or "agitation", "dF"
//	agitation_tol        = 0.0024787521766663585
//	dF_tol_per_datum     = 1e-6
//	min_epoch_iterations = 2
//	death_threshold      = 1.0
//	death                = "immediate"     # or "move"
//	reference            = "converged"     # or "matched"
//	max_final_iterations = 0
//	max_total_iterations = 3000            # 0: no bound
//
// The run of every epoch (its iteration cap max_iterations, the ΔF tests
// of epoch = "dF", the hyperparameter schedule) is the [vb] table.
type SearchSettings struct {
	// MaxTries: every component is tried as a birth parent this many
	// times without an accepted move before the search ends (L2690).
	MaxTries int `toml:"max_tries" range:"[1,1e6]"`
	// Birth is how a born component's points are chosen: "spatial" (the
	// children are clones of the parent with means displaced ±d, the
	// thesis's heuristic for its synthetic experiments, L2755, L2763,
	// L2811) or "responsibility" (the parent's points split by the sign of
	// their projection on d, eqs. (4.73)-(4.76), the digits').
	Birth Birth `toml:"birth"`
	// Children applies to responsibility births only: "pca" (each child's
	// further parameters, an analyser's loadings, re-estimated from its
	// half of the points by PCA) or "inherit" (the thesis's: both children
	// inherit the parent's).
	Children Children `toml:"children"`
	// Epoch is the rule that ends an epoch (a VBEM run between moves):
	// "agitation+dF" (the targets': every component's agitation (4.72)
	// below agitation_tol, at least min_epoch_iterations iterations, and
	// |ΔF|/n below dF_tol_per_datum), "agitation" (the thesis's, with the
	// minimum iterations) or "dF" (the [vb] rel_tol and abs_tol tests
	// alone). Every rule is capped at [vb] max_iterations.
	Epoch EpochRule `toml:"epoch"`
	// AgitationTol is the agitation tolerance (the reference code's
	// maintol = 6 is e⁻⁶).
	AgitationTol float64 `toml:"agitation_tol" range:"(0,1e3]"`
	// DFTolPerDatum is the test |ΔF|/n < dF_tol_per_datum of
	// "agitation+dF" (nats per datum), and of the final run.
	DFTolPerDatum float64 `toml:"dF_tol_per_datum" range:"(0,1e3]"`
	// MinEpochIterations is the smallest number of iterations of an epoch
	// under the agitation rules (at least 2).
	MinEpochIterations int `toml:"min_epoch_iterations" range:"[2,1e8]"`
	// DeathThreshold: a component with less responsibility mass than this
	// dies ("less than one data point's worth", L2637).
	DeathThreshold float64 `toml:"death_threshold" range:"(0,1e9]"`
	// Death is when it dies: "immediate" (the thesis's rule, L2637, and the
	// reference code's: the model removes it inside the iteration in which
	// its mass fell below the threshold) or "move" (its removal is proposed
	// as a move between epochs and kept if F rose, the "testing" variant
	// of L2635; an ablation).
	Death DeathRule `toml:"death"`
	// Reference is what a move is judged against: "converged" (the
	// thesis's: the unmoved model's F before the move, L2625) or "matched"
	// (the unmoved model run for as many iterations as the moved model's
	// epoch; vb.SearchSettings.Matched).
	Reference Reference `toml:"reference"`
	// MaxFinalIterations: after the search, the final model runs up to
	// this many more iterations, until the agitation+dF rule holds (with
	// a ΔF tolerance of at least 1e-6 nats per datum), before it is read
	// out; they are not counted in MaxTotalIterations. 0: none.
	MaxFinalIterations int `toml:"max_final_iterations" range:"[0,1e8]"`
	// MaxTotalIterations bounds the iterations of the whole search, over
	// all its epochs and reference runs (the thesis's "200 iterations of
	// variational EM in total", L2763); 0 is no bound.
	MaxTotalIterations int `toml:"max_total_iterations" range:"[0,1e9]"`
}

// Validate checks the [search] keys that are not numbers (their ranges
// are declared beside their fields).
func (s SearchSettings) Validate() error {
	return FirstError(
		s.Birth.validate("search.birth"),
		s.Children.validate("search.children"),
		s.Epoch.validate("search.epoch"),
		s.Reference.validate("search.reference"),
		s.Death.validate("search.death"))
}

// EpochModel is a model whose epochs can end by the agitation rule of
// section 4.3 (eq. (4.72); mfa.VB.EpochConverger and
// mfa.EM.EpochConverger): every component's agitation below tol after at
// least minIterations iterations, and, if dFPerDatum > 0, |ΔF|/n below it.
type EpochModel interface {
	EpochConverger(tol, dFPerDatum float64, minIterations int) vb.Converger
}

// Searcher is a model that the [search] settings can drive.
type Searcher interface {
	vb.Mover
	EpochModel
}

// Epochs returns the run of one epoch: run (the [vb] settings of the
// model) with its stop rule replaced by the epoch rule (kept for "dF").
func (s SearchSettings) Epochs(m EpochModel, run vb.Settings) vb.Settings {
	switch s.Epoch {
	case EpochAgitationDF:
		run.Converger = m.EpochConverger(s.AgitationTol, s.DFTolPerDatum, s.MinEpochIterations)
	case EpochAgitation:
		run.Converger = m.EpochConverger(s.AgitationTol, 0, s.MinEpochIterations)
	}
	return run
}

// VB returns the vb.Search settings: epochs of run (see Epochs), the
// budget and the reference; onMove is called after every judged move.
func (s SearchSettings) VB(m EpochModel, run vb.Settings, onMove func(vb.MoveRecord)) vb.SearchSettings {
	return vb.SearchSettings{Run: s.Epochs(m, run), MaxTotalIterations: s.MaxTotalIterations,
		Matched: s.Reference == ReferenceMatched, OnMove: onMove}
}

// Plain returns the vb.Search settings of a model whose epochs end by the
// [vb] table's stop rule alone (one without the agitation rule, such as
// core/model/gmm's mixture): run as it is, with the budget and the
// reference of VB; the epoch keys do not apply to it.
func (s SearchSettings) Plain(run vb.Settings, onMove func(vb.MoveRecord)) vb.SearchSettings {
	return vb.SearchSettings{Run: run, MaxTotalIterations: s.MaxTotalIterations,
		Matched: s.Reference == ReferenceMatched, OnMove: onMove}
}

// Search runs the birth/death search of m (vb.Search with the settings of
// VB) and then, if max_final_iterations > 0 and the search ended normally,
// converges the final structure by the agitation+dF rule (with a ΔF
// tolerance of at least 1e-6 nats per datum) for at most that many
// iterations: under the agitation rules an epoch ends when the
// responsibilities settle, while the hyperparameters (ARD precisions) may
// still be moving. The final run is appended to the result's Runs, its
// iterations to Iterations, and its F and status become the result's.
func (s SearchSettings) Search(m Searcher, run vb.Settings, onMove func(vb.MoveRecord)) vb.SearchResult {
	res := vb.Search(m, s.VB(m, run, onMove))
	if s.MaxFinalIterations == 0 || !res.Status.OK() {
		return res
	}
	final := run
	final.MaxIterations = s.MaxFinalIterations
	final.Converger = m.EpochConverger(s.AgitationTol, max(s.DFTolPerDatum, 1e-6), s.MinEpochIterations)
	r := vb.Run(m, final)
	res.Runs = append(res.Runs, r)
	res.Iterations += r.Iterations
	res.F, res.Status, res.Err = r.F, r.Status, r.Error()
	return res
}

// Choice is a config value that must be one of a fixed list, the values of
// V: a string in the file, refused with the list at its line otherwise.
// Each key of the [search] table that chooses a rule is one Choice type.
type Choice[V interface{ values() []string }] string

// UnmarshalText accepts the values of V only.
func (c *Choice[V]) UnmarshalText(text []byte) error {
	var v V
	return unmarshalChoice(c, text, typed[Choice[V]](v.values()))
}

func (c Choice[V]) validate(key string) error {
	var v V
	return validChoice(key, c, typed[Choice[V]](v.values()))
}

func typed[T ~string](vs []string) []T {
	out := make([]T, len(vs))
	for i, v := range vs {
		out[i] = T(v)
	}
	return out
}

type (
	birthValues     struct{}
	childrenValues  struct{}
	epochValues     struct{}
	deathValues     struct{}
	referenceValues struct{}
)

// Birth is the [search] birth key.
type Birth = Choice[birthValues]

// Values of Birth.
const (
	BirthSpatial        Birth = "spatial"
	BirthResponsibility Birth = "responsibility"
)

func (birthValues) values() []string {
	return []string{string(BirthSpatial), string(BirthResponsibility)}
}

// Children is the [search] children key.
type Children = Choice[childrenValues]

// Values of Children.
const (
	ChildrenPCA     Children = "pca"
	ChildrenInherit Children = "inherit"
)

func (childrenValues) values() []string {
	return []string{string(ChildrenPCA), string(ChildrenInherit)}
}

// EpochRule is the [search] epoch key.
type EpochRule = Choice[epochValues]

// Values of EpochRule.
const (
	EpochAgitationDF EpochRule = "agitation+dF"
	EpochAgitation   EpochRule = "agitation"
	EpochDF          EpochRule = "dF"
)

func (epochValues) values() []string {
	return []string{string(EpochAgitationDF), string(EpochAgitation), string(EpochDF)}
}

// DeathRule is the [search] death key.
type DeathRule = Choice[deathValues]

// Values of DeathRule.
const (
	DeathImmediate DeathRule = "immediate"
	DeathMove      DeathRule = "move"
)

func (deathValues) values() []string { return []string{string(DeathImmediate), string(DeathMove)} }

// Reference is the [search] reference key.
type Reference = Choice[referenceValues]

// Values of Reference.
const (
	ReferenceConverged Reference = "converged"
	ReferenceMatched   Reference = "matched"
)

func (referenceValues) values() []string {
	return []string{string(ReferenceConverged), string(ReferenceMatched)}
}

// unmarshalChoice sets *dst to text if it is one of allowed; otherwise the
// error (which the config loader places at the key's line) lists them.
func unmarshalChoice[T ~string](dst *T, text []byte, allowed []T) error {
	v := T(text)
	for _, a := range allowed {
		if v == a {
			*dst = v
			return nil
		}
	}
	return fmt.Errorf("%q is not allowed: must be %s", v, choices(allowed))
}

// validChoice checks a value set in Go (a default) as unmarshalChoice
// checks one read from a file.
func validChoice[T ~string](key string, v T, allowed []T) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return FieldError(key, string(v), "must be "+choices(allowed))
}

func choices[T ~string](allowed []T) string {
	s := make([]string, len(allowed))
	for i, a := range allowed {
		s[i] = string(a)
	}
	return quoteList(s)
}
