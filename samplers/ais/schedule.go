package ais

import (
	"fmt"
	"math"
)

// Linear returns the linear schedule τ(k) = k/K, k = 0…K, which satisfies
// (6.49) of Beal (2003). It panics if k < 1.
func Linear(k int) []float64 {
	if k < 1 {
		panic("ais: schedule needs K ≥ 1")
	}
	tau := make([]float64, k+1)
	for i := range tau {
		tau[i] = float64(i) / float64(k)
	}
	tau[k] = 1
	return tau
}

// Nonlinear returns the non-linear schedule of Beal (2003) eq. (6.73),
//
//	τ(k) = e_τ·(k/K) / (1 − k/K + e_τ),   k = 0…K,
//
// which lingers at high temperatures (small τ) and has τ(0) = 0,
// τ(K) = 1 (6.74) for every e_τ > 0; it tends to the linear schedule as
// e_τ → ∞. The thesis's experiments use e_τ = 0.2 and K = 16384
// (seed text lines 4931–4938; Figure 6.13 plots it for six values of e_τ).
// It panics if k < 1 or eTau is not a positive finite number.
func Nonlinear(k int, eTau float64) []float64 {
	if k < 1 {
		panic("ais: schedule needs K ≥ 1")
	}
	if !(eTau > 0) || math.IsInf(eTau, 1) {
		panic("ais: e_τ must be positive and finite")
	}
	tau := make([]float64, k+1)
	for i := range tau {
		u := float64(i) / float64(k)
		tau[i] = eTau * u / (1 - u + eTau)
	}
	tau[0], tau[k] = 0, 1
	return tau
}

// Geometric returns τ(0) = 0 and the geometric schedule from τ(1) = tau1
// to τ(K) = 1, τ(k) = tau1^((K − k)/(K − 1)), k = 1…K: equal steps in
// ln τ, so that each step changes the tempered density by about as much
// when ln L is large (Neal 2001, the annealing of continuous parameters;
// a linear schedule's first steps then carry most of the variance of ln w).
// It panics if k < 2 or tau1 is not in (0, 1).
func Geometric(k int, tau1 float64) []float64 {
	if k < 2 {
		panic("ais: a geometric schedule needs K ≥ 2")
	}
	if !(tau1 > 0 && tau1 < 1) {
		panic("ais: τ(1) must be in (0, 1)")
	}
	tau := make([]float64, k+1)
	for i := 1; i <= k; i++ {
		tau[i] = math.Pow(tau1, float64(k-i)/float64(k-1))
	}
	tau[k] = 1
	return tau
}

// CheckSchedule reports whether tau is a valid annealing schedule in the
// sense of Beal (2003) eq. (6.49): at least two entries, τ(0) = 0,
// τ(K) = 1, strictly increasing.
func CheckSchedule(tau []float64) error {
	if len(tau) < 2 {
		return fmt.Errorf("ais: schedule has %d temperatures, need at least 2", len(tau))
	}
	if tau[0] != 0 || tau[len(tau)-1] != 1 {
		return fmt.Errorf("ais: schedule runs from %g to %g, need 0 to 1", tau[0], tau[len(tau)-1])
	}
	for k := 1; k < len(tau); k++ {
		if !(tau[k] > tau[k-1]) {
			return fmt.Errorf("ais: schedule not increasing at k=%d (%g after %g)", k, tau[k], tau[k-1])
		}
	}
	return nil
}

func mustSchedule(tau []float64) {
	if err := CheckSchedule(tau); err != nil {
		panic(err.Error())
	}
}
