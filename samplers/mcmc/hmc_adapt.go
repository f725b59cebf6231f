package mcmc

import "math"

// DualAveraging tunes an HMC step size ε during a burn-in toward a target
// mean acceptance probability δ by Nesterov's dual averaging (Hoffman and
// Gelman 2014, §3.2 and Algorithm 5): after the t-th transition with
// acceptance probability a_t,
//
//	H̄_t = (1 − 1/(t+t₀)) H̄_{t−1} + (δ − a_t)/(t+t₀),
//	ln ε_t = μ − (√t/γ) H̄_t,   ln ε̄_t = t^−κ ln ε_t + (1 − t^−κ) ln ε̄_{t−1},
//
// with μ = ln(10 ε₀), γ = 0.05, t₀ = 10, κ = 0.75. Use Step's ε for the
// burn-in and Final's ε̄ afterwards (a step fixed for the kept samples, so
// they are a reversible chain's).
type DualAveraging struct {
	target, mu, hbar, logEps, logBar float64
	t                                int
}

// NewDualAveraging starts the adaptation from eps0 toward the target mean
// acceptance probability.
func NewDualAveraging(eps0, target float64) *DualAveraging {
	return &DualAveraging{target: target, mu: math.Log(10 * eps0), logEps: math.Log(eps0), logBar: math.Log(eps0)}
}

// Update takes the acceptance probability of the last transition (NaN is
// read as 0) and returns the step for the next.
func (d *DualAveraging) Update(acceptProb float64) float64 {
	const gamma, t0, kappa = 0.05, 10.0, 0.75
	if !(acceptProb >= 0) {
		acceptProb = 0
	}
	d.t++
	t := float64(d.t)
	d.hbar = (1-1/(t+t0))*d.hbar + (d.target-min(acceptProb, 1))/(t+t0)
	d.logEps = d.mu - math.Sqrt(t)/gamma*d.hbar
	w := math.Pow(t, -kappa)
	d.logBar = w*d.logEps + (1-w)*d.logBar
	return math.Exp(d.logEps)
}

// Step returns the current step ε_t.
func (d *DualAveraging) Step() float64 { return math.Exp(d.logEps) }

// Final returns the averaged step ε̄_t for the transitions after the
// burn-in.
func (d *DualAveraging) Final() float64 { return math.Exp(d.logBar) }
