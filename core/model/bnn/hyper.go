package bnn

import "fmt"

// Hyper is the gamma hyperprior of the weight precisions α (eq. 5.9) and
// of the noise precision β (eq. 5.7), gam(τ|a, b) ∝ τ^{a−1} e^{−bτ}
// (eq. 5.8). Every method's settings carry one.
type Hyper struct {
	AAlpha, BAlpha float64
	ABeta, BBeta   float64
}

// DefaultHyper is Table 5.1's hyperprior (L2181): a_α = 3×10⁻⁴,
// b_α = 10⁻³, a_β = 0.02, b_β = 10⁻⁴.
func DefaultHyper() Hyper {
	return Hyper{AAlpha: 3e-4, BAlpha: 1e-3, ABeta: 0.02, BBeta: 1e-4}
}

// Check refuses a shape or rate that is not positive and finite.
func (h Hyper) Check() error {
	for _, c := range []struct {
		name string
		v    float64
	}{{"a_alpha", h.AAlpha}, {"b_alpha", h.BAlpha}, {"a_beta", h.ABeta}, {"b_beta", h.BBeta}} {
		if !(c.v > 0) || c.v > 1e300 {
			return fmt.Errorf("bnn: hyperprior %s = %v, want a positive finite number", c.name, c.v)
		}
	}
	return nil
}
