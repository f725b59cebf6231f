package chapter3

import (
	"fmt"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
)

// fitter is the chapter's one fitting pipeline: every Baum-Welch, MAP-EM and
// VBEM run of the chapter's experiments goes through it (the ML → MAP/VB
// sequences of Beal 2003 sections 3.5.1-3.5.2: "MAP and VB algorithms were
// initialised at the ML estimate", L2165; VB from the ML point, a random
// point or the Cheeseman-Stutz point, VBSettings.initialPosterior). It sets
// the E-step workers, the cancellation poll and the stop rule of each fit,
// and keeps each fit's trace under a run name when traces is true.
type fitter struct {
	workers int          // E-step goroutines per fit (env.CellWorkers)
	stop    func() error // env.Stop
	traces  bool         // keep the traces
	kept    []experiments.RunTrace
}

// run is the single place where the chapter calls vb.Run: the settings s
// (with their hyperparameter schedule) for the model m.
func (f *fitter) run(name string, m vb.Model, s config.FitSettings) vb.Result {
	r := vb.Run(m, s.Settings(f.stop, m))
	if f.traces {
		f.kept = append(f.kept, experiments.TraceOf(name, r))
	}
	return r
}

// ml runs Baum-Welch from init (copied).
func (f *fitter) ml(name string, d hmm.Data, init hmm.Params, s config.FitSettings) (*hmm.EM, vb.Result) {
	m := hmm.NewEM(d, init, nil)
	m.Workers = f.workers
	return m, f.run(name, m, s)
}

// mapEM runs MAP-EM in the softmax basis with prior u from init (copied).
func (f *fitter) mapEM(name string, d hmm.Data, init hmm.Params, u hmm.Prior, s config.FitSettings) (*hmm.EM, vb.Result) {
	m := hmm.NewEM(d, init, &u)
	m.Workers = f.workers
	return m, f.run(name, m, s)
}

// vbem runs VBEM with prior u from the posterior w, optimising the prior
// strengths after the VBM steps that s.Hyper schedules (eq. 2.79).
func (f *fitter) vbem(name string, d hmm.Data, u hmm.Prior, w hmm.Posterior, s config.FitSettings) (*hmm.VB, vb.Result) {
	m := hmm.NewVB(d, u, w)
	m.Workers = f.workers
	return m, f.run(name, m, s)
}

// vbFrom runs VBEM with prior u from the initial q(θ) that s.Init names
// (VBSettings.initialPosterior: ml is the ML solution, of which a random
// start reads only the shape; rnd the restart's stream).
func (f *fitter) vbFrom(name string, d hmm.Data, u hmm.Prior, s VBSettings, ml hmm.Params, rnd *rand.Rand) (*hmm.VB, vb.Result, error) {
	w, err := s.initialPosterior(d, u, ml, rnd)
	if err != nil {
		return nil, vb.Result{}, fmt.Errorf("%s: the initial q(θ) of VB: %w", name, err)
	}
	m, r := f.vbem(name, d, u, w, s.FitSettings)
	return m, r, nil
}
