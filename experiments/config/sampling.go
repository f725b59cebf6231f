package config

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/samplers/ais"
)

// IS is the [is] table of an importance sampler (samplers/is): Runs
// independent runs of Samples draws each, pooled by is.Summarize (the
// estimate and its standard error, the spread of the runs over √Runs; Beal
// 2003 Figure 4.14, L3149). An experiment whose proposal has settings of
// its own embeds IS in its [is] table beside them:
//
//	[is]
//	runs    = 5
//	samples = 4000
//	nu      = 5.0   # an experiment's own key: its Student-t proposal
type IS struct {
	// Runs is R ≥ 2, for a standard error.
	Runs int `toml:"runs" range:"[2,1e6]"`
	// Samples is M, the draws of one run.
	Samples int `toml:"samples" range:"[1,1e9]"`
}

// Schedule is the [ais] schedule key.
type Schedule = Choice[scheduleValues]

type scheduleValues struct{}

// Values of Schedule.
const (
	// ScheduleLinear is τ(k) = k/K (ais.Linear).
	ScheduleLinear Schedule = "linear"
	// ScheduleNonlinear is eq. (6.73) of Beal (2003) with e_tau
	// (ais.Nonlinear), the thesis's.
	ScheduleNonlinear Schedule = "nonlinear"
	// ScheduleGeometric is equal steps in ln τ from τ(1) = tau1
	// (ais.Geometric).
	ScheduleGeometric Schedule = "geometric"
)

func (scheduleValues) values() []string {
	return []string{string(ScheduleLinear), string(ScheduleNonlinear), string(ScheduleGeometric)}
}

// AISSchedule holds the keys of an annealing schedule τ(0…K) (Beal 2003
// eq. (6.49)): its shape and the shape's parameter, and, with
// pilot_runs > 0, its adaptation: pilot_runs pilot runs of pilot_steps
// steps on that shape measure the spread of ln L against τ in pilot_bins
// bins, and the final runs use the schedule of constant thermodynamic speed
// that ais.Adapted fits to them (floor pilot_floor).
type AISSchedule struct {
	Schedule Schedule `toml:"schedule"`
	// ETau is e_τ of the nonlinear schedule (6.73); thesis 0.2.
	ETau float64 `toml:"e_tau" range:"(0,1e6]"`
	// Tau1 is τ(1) of the geometric schedule.
	Tau1 float64 `toml:"tau1" range:"(0,1)"`

	PilotRuns  int     `toml:"pilot_runs" range:"[0,1e4]"`
	PilotSteps int     `toml:"pilot_steps" range:"[2,1e8]"`
	PilotBins  int     `toml:"pilot_bins" range:"[1,1e6]"`
	PilotFloor float64 `toml:"pilot_floor" range:"(0,1e3]"`
}

// DefaultSchedule returns the schedule shape s with the thesis's e_τ =
// 0.2, τ(1) = 10⁻⁴ and, unused until pilot_runs is set, pilots of 1000
// steps in 50 bins with floor 0.05.
func DefaultSchedule(s Schedule) AISSchedule {
	return AISSchedule{Schedule: s, ETau: 0.2, Tau1: 1e-4, PilotSteps: 1000, PilotBins: 50, PilotFloor: 0.05}
}

// Validate checks what relates the keys; prefix is the table, e.g. "ais".
func (a AISSchedule) Validate(prefix string) error {
	if err := a.Schedule.validate(prefix + ".schedule"); err != nil {
		return err
	}
	if a.PilotRuns > 0 && a.PilotBins > a.PilotSteps {
		return FieldError(prefix+".pilot_bins", a.PilotBins, fmt.Sprintf("must be at most pilot_steps (%d)", a.PilotSteps))
	}
	return nil
}

// Tau returns the schedule τ(0…steps) of the configured shape (not
// adapted). A geometric schedule needs steps ≥ 2.
func (a AISSchedule) Tau(steps int) []float64 {
	switch a.Schedule {
	case ScheduleNonlinear:
		return ais.Nonlinear(steps, a.ETau)
	case ScheduleGeometric:
		return ais.Geometric(steps, a.Tau1)
	}
	return ais.Linear(steps)
}

// AIS is the [ais] table of annealed importance sampling (samplers/ais;
// Beal 2003 section 6.3.5, Algorithm 6.1): Runs independent runs of Steps
// transitions each, one at each temperature τ(0…Steps−1) of the schedule
// (the thesis's K). An experiment whose transition kernel has settings of
// its own embeds AIS in its [ais] table beside them (chapter 6's proposal
// strength, an HMC kernel's HMC keys):
//
//	[ais]
//	runs     = 5
//	steps    = 16384
//	schedule = "nonlinear"
//	e_tau    = 0.2
type AIS struct {
	// Runs is the number of runs; 0 leaves the estimate out, in the
	// experiments that allow it (their Validate says which need more).
	Runs  int `toml:"runs" range:"[0,1e6]"`
	Steps int `toml:"steps" range:"[2,1e9]"`
	AISSchedule
}

// Validate checks what relates the keys; prefix is the table, e.g. "ais".
func (a AIS) Validate(prefix string) error { return a.AISSchedule.Validate(prefix) }

// Sample makes a.Runs runs of s on a's schedule, run g drawing from
// rng.New(seed, labels…, g), and returns them with the schedule they
// used. With pilot_runs > 0 the schedule is adapted first (ais.Sampler's
// Adapt) from pilot runs on the schedule's shape with pilot_steps steps,
// pilot g drawing from rng.New(seed, labels…, "pilot", g). The runs are
// spread over workers goroutines; the result does not depend on their
// number.
func Sample[S any](a AIS, s ais.Sampler[S], workers int, seed uint64, labels ...string) ([]ais.Run, []float64, error) {
	runs, _, tau, err := SampleFinal(a, s, workers, seed, labels...)
	return runs, tau, err
}

// SampleFinal is Sample that also returns each final run's last state
// (ais.Sampler's RunsFinal: final[g] of runs[g]), for the posterior moments
// of the weighted final states (ais.Moments). Its runs and schedule are
// Sample's, drawn from the same streams.
func SampleFinal[S any](a AIS, s ais.Sampler[S], workers int, seed uint64, labels ...string) (runs []ais.Run, final []S, tau []float64, err error) {
	s.Tau = a.Tau(a.Steps)
	if a.PilotRuns > 0 {
		s.Tau = a.Tau(a.PilotSteps)
		adapted, _, err := s.Adapt(Streams(a.PilotRuns, seed, append(slices.Clone(labels), "pilot")...), workers, a.Steps, a.PilotBins, a.PilotFloor)
		if err != nil {
			return nil, nil, nil, err
		}
		s.Tau = adapted
	}
	runs, final = s.RunsFinal(Streams(a.Runs, seed, labels...), workers)
	return runs, final, s.Tau, nil
}

// Streams returns the random streams rng.New(seed, labels…, g) of runs
// g = 0…n−1.
func Streams(n int, seed uint64, labels ...string) []*rand.Rand {
	rnds := make([]*rand.Rand, n)
	for g := range rnds {
		rnds[g] = rng.New(seed, append(slices.Clone(labels), strconv.Itoa(g))...)
	}
	return rnds
}

// HMC holds the keys of a Hamiltonian Monte Carlo kernel (samplers/mcmc
// HMC): the leapfrog steps of one transition and the step size, in units
// an experiment states (a fraction of the target's smallest standard
// deviation, for example).
type HMC struct {
	Leapfrog int     `toml:"leapfrog" range:"[1,1e5]"`
	Step     float64 `toml:"step" range:"(0,10]"`
}
