package bnn

import "fmt"

// Problem is a regression data set D = {x_n, t_n} (L1838) for a network
// of shape Arch: X has N rows of Arch.In inputs, T the N targets.
type Problem struct {
	Arch
	X [][]float64
	T []float64
}

// NewProblem checks the shapes and returns the problem.
func NewProblem(a Arch, x [][]float64, t []float64) (*Problem, error) {
	if err := a.Check(); err != nil {
		return nil, err
	}
	if len(x) == 0 || len(x) != len(t) {
		return nil, fmt.Errorf("bnn: %d input rows and %d targets", len(x), len(t))
	}
	for n, r := range x {
		if len(r) != a.In {
			return nil, fmt.Errorf("bnn: input row %d has %d values, the network %d inputs", n, len(r), a.In)
		}
	}
	return &Problem{Arch: a, X: x, T: t}, nil
}

// Predictive is what every method of chapter 5 gives for a new input: the
// mean and variance of its predictive distribution of t (the variance
// includes the noise 1/β; a point estimate's is 1/β alone). Each method
// (early stopping, the evidence procedure, the variational posteriors,
// Hamiltonian Monte Carlo) returns one, so the experiments score them alike.
type Predictive interface {
	Predict(x []float64) (mean, variance float64)
}
