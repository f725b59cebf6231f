package sbn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/vb"
)

// Settings controls Fit. The zero value of every field means its default.
type Settings struct {
	// Components is M, the number of mean-field components (eq. 2.19);
	// 0 means plain mean field (MeanField). 1 is the one-component mixture,
	// whose bound equals mean field's.
	Components int
	// Variant departs from the text's mixture fit (zero: none).
	Variant Variant
	// StartFromMeanField starts every component of a mixture from the
	// mean-field solution of the pattern (fitted first with VB from the
	// same stream), each latent μ's logit moved by U(−0.5, 0.5), instead of
	// independent starts uniform on (0, 1).
	StartFromMeanField bool
	// VB stops the coordinate ascent; its zero fields take vb.Run's
	// defaults, except AbsTol (default 1e-8 nats) and RelTol (default
	// disabled): the errors compared are a few hundredths of a nat.
	VB vb.Settings
}

// Fit is the outcome of a fit: the bound and how the run ended.
type Fit struct {
	Bound      float64
	Iterations int
	Status     vb.Status
}

// FitPattern fits mean field (Components 0) or an M-component mixture to
// visible pattern v of net n, from random starts drawn from r, by vb.Run,
// which checks at every iteration that the bound did not fall (an error
// names the iteration).
func FitPattern(n *Net, v []float64, s Settings, r *rand.Rand) (Fit, error) {
	vs := s.vbSettings()
	var m vb.Model
	var err error
	switch {
	case s.Components == 0:
		_, res, err := fitMeanField(n, v, s, r)
		return Fit{Bound: res.F, Iterations: res.Iterations, Status: res.Status}, err
	case s.StartFromMeanField:
		var mf *MeanField
		if mf, _, err = fitMeanField(n, v, s, r); err != nil {
			return Fit{}, fmt.Errorf("sbn: the mean-field start: %w", err)
		}
		m, err = NewMixtureFromMeanField(mf, s.Components, r)
	default:
		m, err = NewMixture(n, v, s.Components, r)
	}
	if err != nil {
		return Fit{}, err
	}
	if x, ok := m.(*Mixture); ok {
		x.SetVariant(s.Variant)
		if s.Variant.unchecked() {
			vs.MonotoneTol = math.Inf(1)
			conv := vs.Converger
			if conv == nil {
				conv = &vb.BoundConverge{Relative: vs.RelTol, Absolute: vs.AbsTol}
			}
			vs.Converger = absChange{conv}
		}
	}
	res := vb.Run(m, vs)
	if err := res.Error(); err != nil {
		return Fit{}, fmt.Errorf("sbn: %d components: %w", s.Components, err)
	}
	return Fit{Bound: res.F, Iterations: res.Iterations, Status: res.Status}, nil
}

// absChange passes |ΔF| to its converger: the raw fixed points of
// Variant.RawFixedPoint can lower the bound, and a fall is not convergence.
type absChange struct{ vb.Converger }

func (a absChange) Converged(it int, f, delta float64) bool {
	return a.Converger.Converged(it, f, math.Abs(delta))
}

// vbSettings is s.VB with FitPattern's defaults.
func (s Settings) vbSettings() vb.Settings {
	vs := s.VB
	if vs.AbsTol == 0 {
		vs.AbsTol = 1e-8
	}
	if vs.RelTol == 0 {
		vs.RelTol = -1
	}
	return vs
}

// fitMeanField starts mean field from r and runs it with s's stop rule.
func fitMeanField(n *Net, v []float64, s Settings, r *rand.Rand) (*MeanField, vb.Result, error) {
	mf, err := NewMeanField(n, v, r)
	if err != nil {
		return nil, vb.Result{}, err
	}
	res := vb.Run(mf, s.vbSettings())
	if err := res.Error(); err != nil {
		return nil, res, fmt.Errorf("sbn: mean field: %w", err)
	}
	return mf, res, nil
}
