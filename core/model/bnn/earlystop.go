package bnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// EarlyStoppingSettings are the settings of the non-Bayesian baseline of
// Tables 5.1 and 5.2 (L2190, L2224), a network trained on the squared
// error alone and stopped at the smallest error on a validation set drawn
// from the training set. The text gives neither the split nor the stop
// rule (Weigend et al. 1990 and Thodberg 1996 each had their own); every
// zero value means the default stated here.
type EarlyStoppingSettings struct {
	// Validation is the fraction of the training rows held out, drawn at
	// random without replacement (0: 0.2, ours).
	Validation float64
	// MaxIterations caps the optimiser's iterations (0: 2000) and
	// Patience stops it after that many iterations without a smaller
	// validation error (0: 200).
	MaxIterations, Patience int
}

func (s EarlyStoppingSettings) withDefaults() EarlyStoppingSettings {
	if s.Validation == 0 {
		s.Validation = 0.2
	}
	if s.MaxIterations == 0 {
		s.MaxIterations = 2000
	}
	if s.Patience == 0 {
		s.Patience = 200
	}
	return s
}

// PointFit is a network with one weight vector, the early-stopped one:
// its predictive distribution is N(f(x, W), 1/Beta), Beta the inverse of
// the mean squared error on the validation rows. It implements Predictive.
type PointFit struct {
	Arch
	W    []float64
	Beta float64
	// Validation are the held-out rows of the problem; Iterations the
	// optimiser's iterations, BestIteration the one whose weights were
	// kept; TrainMSE and ValidationMSE the mean squared errors there.
	Validation              []int
	Iterations, Best        int
	TrainMSE, ValidationMSE float64
}

// Predict returns f(x, W) and 1/Beta.
func (f *PointFit) Predict(x []float64) (mean, variance float64) {
	return f.Forward(f.W, x, nil), 1 / f.Beta
}

// EarlyStopping trains the network of p by scaled conjugate gradients on
// E_D (eq. 5.5) of the training rows that are not held out, from weights
// drawn as Evidence draws them, and keeps the weights of the smallest
// validation error, stopping after s.Patience iterations without
// improvement (L2190: "a standard neural network trained by 'early
// stopping'").
func EarlyStopping(p *Problem, s EarlyStoppingSettings, r *rand.Rand) (*PointFit, error) {
	if !(s.Validation >= 0 && s.Validation < 1) || s.MaxIterations < 0 || s.Patience < 0 {
		return nil, fmt.Errorf("bnn: early stopping: validation fraction %v (want [0, 1)), max_iterations %d, patience %d (want ≥ 0)", s.Validation, s.MaxIterations, s.Patience)
	}
	s = s.withDefaults()
	n := len(p.T)
	nv := int(math.Round(s.Validation * float64(n)))
	if nv < 1 || nv >= n {
		return nil, fmt.Errorf("bnn: early stopping: %d validation rows of %d", nv, n)
	}
	perm := r.Perm(n)
	val := slices.Clone(perm[:nv])
	slices.Sort(val)
	held := make([]bool, n)
	for _, i := range val {
		held[i] = true
	}
	var xt, xv [][]float64
	var tt, tv []float64
	for i := range n {
		if held[i] {
			xv, tv = append(xv, p.X[i]), append(tv, p.T[i])
		} else {
			xt, tt = append(xt, p.X[i]), append(tt, p.T[i])
		}
	}
	act := make([]float64, 2*p.Hidden)
	trainP, err := NewProblem(p.Arch, xt, tt)
	if err != nil {
		return nil, err
	}
	batch := NewBatch(trainP)
	w := p.InitWeights(r)
	fit := &PointFit{Arch: p.Arch, W: slices.Clone(w), Validation: val}
	fit.ValidationMSE = 2 * p.ErrorGrad(w, xv, tv, nil, act) / float64(len(tv))
	obj := func(w, g []float64) float64 { return batch.ErrorGrad(w, g) }
	res := scg(obj, w, scgSettings{MaxIterations: s.MaxIterations, After: func(iter int, w []float64) bool {
		if e := 2 * p.ErrorGrad(w, xv, tv, nil, act) / float64(len(tv)); e < fit.ValidationMSE {
			fit.ValidationMSE, fit.Best = e, iter
			copy(fit.W, w)
		}
		return iter-fit.Best >= s.Patience
	}})
	if math.IsNaN(res.F) || math.IsInf(res.F, 0) {
		return nil, fmt.Errorf("bnn: early stopping: the training error is %v", res.F)
	}
	fit.Iterations = res.Iterations
	fit.TrainMSE = 2 * p.ErrorGrad(fit.W, xt, tt, nil, act) / float64(len(tt))
	fit.Beta = 1 / fit.ValidationMSE
	return fit, nil
}
