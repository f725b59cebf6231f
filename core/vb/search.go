package vb

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Move is one proposed change of a model's structure between VBEM runs:
// the birth, death, split or merge of components (Beal 2003 section 4.3,
// the birth and death of factor analysers) or a change of a graph
// (chapter 6).
type Move struct {
	// Kind names the move, e.g. "birth", "death", "split", "merge".
	Kind string
	// Component is the component the move acts on (−1 for none); Other a
	// second one (a merge's partner), −1 for none.
	Component, Other int
}

func (mv Move) String() string {
	switch {
	case mv.Other >= 0:
		return fmt.Sprintf("%s(%d,%d)", mv.Kind, mv.Component, mv.Other)
	case mv.Component >= 0:
		return fmt.Sprintf("%s(%d)", mv.Kind, mv.Component)
	}
	return mv.Kind
}

// MoveRecord is the log entry of one tried move.
type MoveRecord struct {
	Move
	// Iter is the number of E steps run in the whole search before the
	// move was applied.
	Iter int
	// FBefore is F of the current model (converged) before the move;
	// FAfter is F at convergence of the VBEM run started from the moved
	// model (NaN if the move could not be applied).
	FBefore, FAfter float64
	// FReference is what the move was judged against: FBefore, or under
	// SearchSettings.Matched the F of the unmoved model after as many
	// more iterations as the moved model's run took.
	FReference float64
	// RefIterations is the number of iterations of the matched reference
	// run (0 without SearchSettings.Matched).
	RefIterations int
	Accepted      bool
	// SizeAfter is the model's size once the move was accepted or undone.
	SizeAfter int
	// Err says why a move could not be applied (nil otherwise).
	Err error
}

// Mover is a Model whose structure can change between VBEM runs. The
// search (Search) converges the model, asks it for a move, applies it,
// converges the moved model and keeps the move if F rose; otherwise it puts
// the saved state back.
type Mover interface {
	Model
	// Propose returns the next move to try, given the log of the moves
	// tried so far (the model may, for instance, try each component once
	// since the last accepted move); ok false ends the search.
	Propose(log []MoveRecord) (mv Move, ok bool)
	// Apply performs the move; the next E step sees the moved model. An
	// error leaves the model as it was (the search restores it anyway).
	Apply(mv Move) error
	// Save returns a snapshot of the whole state that E, M, UpdateHyper
	// and Apply can change (all q's and hyperparameters); Restore puts a
	// snapshot back. Snapshots stay valid until the search ends: Search
	// may restore an older one after taking a newer (SearchSettings.Matched).
	Save() any
	Restore(snapshot any)
	// Size is the number of components.
	Size() int
}

// Untried returns the first of the candidate moves that has not been tried
// since the last accepted move of log, or ok false when every candidate has
// (a Mover's Propose then ends the search).
func Untried(log []MoveRecord, cands []Move) (mv Move, ok bool) {
	var tried []Move
	for i := len(log) - 1; i >= 0 && !log[i].Accepted; i-- {
		tried = append(tried, log[i].Move)
	}
	for _, c := range cands {
		if !slices.Contains(tried, c) {
			return c, true
		}
	}
	return Move{}, false
}

// SearchSettings control Search.
type SearchSettings struct {
	// Run controls each VBEM run: the first and the one after every move.
	// Its MonotoneTol applies inside each run; the check restarts with
	// every run, since a move may lower F (and is then rejected).
	//
	// Each run (epoch) is a new Run, so its hyperparameter schedule
	// Run.Hyper restarts too: the stages count iterations from the start of
	// every epoch (and of every matched reference run), not of the search.
	// A stage {From: 10} thus waits 10 iterations after every move, and
	// an epoch shorter than From never updates its group; the
	// every-iteration schedules (Every, From = 1) are the same either way
	// (TestSearchScheduleRestartsEachEpoch).
	Run Settings
	// MaxMoves is the largest number of moves tried. Default 1000.
	MaxMoves int
	// MaxTotalIterations bounds the E steps of the whole search, over all its
	// VBEM runs (the thesis's "200 iterations of variational EM in total",
	// L2763); each run gets at most what is left, and the search ends when
	// nothing is. A move whose run was cut short by the budget is judged on
	// the F it reached. 0 means no bound.
	MaxTotalIterations int
	// MinGain is the rise of F (nats) a move must bring to be accepted:
	// accept iff F_after > F_before + MinGain. Default 0.
	MinGain float64
	// Matched judges each move against a matched reference: after the
	// moved model's run of t iterations, the saved unmoved model runs
	// exactly t more iterations too, and the move is accepted iff the
	// moved model's F beats that run's F by MinGain. Without it the
	// reference is the unmoved model's F as it was (the thesis's rule,
	// L2625), which credits a move with whatever the extra iterations
	// gain everywhere else in a model that has not converged (an epoch
	// ended by a responsibility criterion such as the agitation of eq.
	// (4.72), while F still creeps). A rejected move leaves the further
	// converged unmoved model, so the reference run is not wasted; it
	// counts towards MaxTotalIterations, and when the budget has nothing left
	// for it the move is judged as without Matched. Default false.
	Matched bool
	// OnMove, if not nil, is called after each move is judged.
	OnMove func(MoveRecord)
}

// SearchResult is the outcome of Search.
type SearchResult struct {
	// Status is that of the last VBEM run of an accepted state (or the
	// first abnormal status of any run: a decrease inside a VBEM run stays
	// a bug).
	Status Status
	// F is the bound of the model as it ends (the last accepted state).
	F float64
	// Iterations is the number of E steps run in all.
	Iterations int
	// Runs holds every VBEM run in order: Runs[0] the first, Runs[i] the
	// one after Moves[i−1] (accepted or not).
	Runs []Result
	// Moves is the log of every move tried.
	Moves []MoveRecord
	// Err is the error of an abnormal end.
	Err error
}

// ErrMove wraps the error of a move that could not be applied.
var ErrMove = errors.New("vb: move could not be applied")

// Search runs VBEM to convergence, then tries the model's moves one at a
// time: each is applied to a saved copy of the converged state, the moved
// model runs VBEM to convergence, and the move is accepted if F rose by
// more than MinGain; otherwise the saved state is restored (Beal 2003
// section 4.3.2: "accept … if F increases", L2625). A move that lowers F
// is a rejection, not a bug; a decrease within one VBEM run is reported as
// BoundDecreased and ends the search.
func Search(m Mover, s SearchSettings) SearchResult {
	if s.MaxMoves <= 0 {
		s.MaxMoves = 1000
	}
	var res SearchResult
	// runSettings gives a run at most the iterations left in the budget.
	runSettings := func() Settings {
		rs := s.Run
		if s.MaxTotalIterations > 0 {
			left := s.MaxTotalIterations - res.Iterations
			if rs.MaxIterations <= 0 || rs.MaxIterations > left {
				rs.MaxIterations = left
			}
		}
		return rs
	}
	first := Run(m, runSettings())
	res.Runs = append(res.Runs, first)
	res.Iterations = first.Iterations
	res.Status, res.F = first.Status, first.F
	if !first.Status.OK() {
		res.Err = first.Error()
		return res
	}
	for len(res.Moves) < s.MaxMoves {
		if s.MaxTotalIterations > 0 && res.Iterations >= s.MaxTotalIterations {
			break
		}
		mv, ok := m.Propose(res.Moves)
		if !ok {
			break
		}
		rec := MoveRecord{Move: mv, Iter: res.Iterations, FBefore: res.F}
		snap := m.Save()
		if err := m.Apply(mv); err != nil {
			m.Restore(snap)
			rec.FAfter, rec.Err, rec.SizeAfter = math.NaN(), fmt.Errorf("%w: %v: %v", ErrMove, mv, err), m.Size()
			res.log(rec, s)
			res.Runs = append(res.Runs, Result{Status: Failed, Err: rec.Err, Decrease: Decrease{Iter: -1}})
			continue
		}
		r := Run(m, runSettings())
		res.Runs = append(res.Runs, r)
		res.Iterations += r.Iterations
		rec.FAfter = r.F
		if !r.Status.OK() {
			m.Restore(snap)
			rec.SizeAfter = m.Size()
			res.log(rec, s)
			res.Status, res.Err = r.Status, r.Error()
			return res
		}
		rec.FReference = res.F
		var ref *Result
		rs := runSettings()
		if rs.MaxIterations <= 0 || rs.MaxIterations > r.Iterations {
			rs.MaxIterations = r.Iterations
		}
		if s.MaxTotalIterations > 0 && res.Iterations >= s.MaxTotalIterations {
			rs.MaxIterations = 0 // no budget left
		}
		if s.Matched && rs.MaxIterations > 0 {
			moved := m.Save()
			m.Restore(snap)
			rs.MinIterations, rs.Converger = 0, FixedIterations{}
			rr := Run(m, rs)
			res.Iterations += rr.Iterations
			if !rr.Status.OK() && rr.Status != IterationLimit {
				rec.FReference = rr.F
				rec.SizeAfter = m.Size()
				res.log(rec, s)
				res.Status, res.Err = rr.Status, rr.Error()
				return res
			}
			ref, rec.FReference, rec.RefIterations = &rr, rr.F, rr.Iterations
			if r.F > rec.FReference+s.MinGain {
				m.Restore(moved)
			}
		}
		switch {
		case r.F > rec.FReference+s.MinGain:
			rec.Accepted = true
			res.F, res.Status = r.F, r.Status
		case ref != nil:
			// The model holds the reference run's state: keep it.
			res.F = ref.F
		default:
			m.Restore(snap)
		}
		rec.SizeAfter = m.Size()
		res.log(rec, s)
	}
	return res
}

func (r *SearchResult) log(rec MoveRecord, s SearchSettings) {
	r.Moves = append(r.Moves, rec)
	if s.OnMove != nil {
		s.OnMove(rec)
	}
}

// MoveCounts returns the numbers of accepted and rejected moves.
func (r *SearchResult) MoveCounts() (accepted, rejected int) {
	for _, mv := range r.Moves {
		if mv.Accepted {
			accepted++
		} else {
			rejected++
		}
	}
	return accepted, rejected
}
