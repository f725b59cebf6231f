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

// Adapted returns a schedule of k steps fitted to pilot runs made on the
// schedule pilotTau: its density in τ is proportional to the standard
// deviation of ln L under f_τ, plus floor times that standard deviation's
// mean over τ. For an annealing run at equilibrium the variance of ln w is
// about Σ_k Δτ_k²·Var_τ(ln L) (the terms of (6.57)); with n(τ) steps per
// unit of τ that is ∫ Var_τ(ln L)/n(τ) dτ, which for a given number of
// steps ∫ n dτ = K is least when n(τ) ∝ sd_τ(ln L): the schedule of constant
// thermodynamic speed (Gelman and Meng 1998, "Simulating normalizing
// constants", section 4; Neal 2001, "Annealed importance sampling", section
// 3). Where the tempered density changes abruptly (a mixture passing from
// one broad component to one per cluster) sd_τ(ln L) is large and the
// schedule spends its steps there; a linear schedule spends them evenly.
//
// The pilot runs' values ln L = ln R_i/(τ(i+1) − τ(i)) at step i (the state
// after the transition at τ(i)) are pooled over the runs in bins of equal
// numbers of pilot steps, bin b covering τ from pilotTau at its first step to
// pilotTau after its last; each bin's density is constant, so the schedule
// inverts a piecewise-linear cumulative density. The floor keeps steps in
// bins where ln L hardly varies; it must be positive. The pilot runs are
// only a guide: a forward run on the returned schedule is unbiased whatever
// they were, as long as they are independent of it.
//
// The argument assumes a kernel that keeps each run near f_τ. It paid off
// for the collapsed Gaussian mixture of PRML Fig. 10.7 (Gibbs sweeps with
// split-merge moves: the spread of the pooled estimates fell from 1.8 to
// 0.45 nats at K = 4). It did not for the discrete DAGs of Beal (2003)
// chapter 6, whose kernel is one Metropolis–Hastings step per temperature:
// there the runs lag far behind f_τ, the pilot's spread of ln L is not
// Var_τ(ln L), and on the true structure at n = 2560 the adapted schedule
// of 16384 steps ended 49 nats below (6.73)'s in mean ln w. Compare with
// the schedule it replaces before relying on it.
//
// Adapted returns an error if a pilot run does not match pilotTau or holds
// a non-finite ln L; it panics if k < 1, bins is not in 1…len(pilotTau)−1,
// floor is not positive and finite, or pilotTau fails CheckSchedule.
func Adapted(pilot []Run, pilotTau []float64, k, bins int, floor float64) ([]float64, error) {
	mustSchedule(pilotTau)
	steps := len(pilotTau) - 1
	switch {
	case k < 1:
		panic("ais: schedule needs K ≥ 1")
	case bins < 1 || bins > steps:
		panic("ais: bins must be between 1 and the pilot's steps")
	case !(floor > 0) || math.IsInf(floor, 1):
		panic("ais: the floor must be positive and finite")
	}
	if len(pilot) == 0 {
		return nil, fmt.Errorf("ais: no pilot runs")
	}
	for g, r := range pilot {
		if r.K() != steps {
			return nil, fmt.Errorf("ais: pilot run %d has %d steps, the pilot schedule %d", g, r.K(), steps)
		}
	}
	edges := make([]float64, bins+1)
	sd := make([]float64, bins)
	for b := range sd {
		lo, hi := b*steps/bins, (b+1)*steps/bins
		edges[b], edges[b+1] = pilotTau[lo], pilotTau[hi]
		var n, m, m2 float64 // Welford
		for g, r := range pilot {
			for i := lo; i < hi; i++ {
				v := r.LogR[i] / (pilotTau[i+1] - pilotTau[i])
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("ais: pilot run %d has ln L = %g at step %d", g, v, i+1)
				}
				n++
				d := v - m
				m += d / n
				m2 += d * (v - m)
			}
		}
		if n > 1 {
			sd[b] = math.Sqrt(m2 / (n - 1))
		}
	}
	return thermoSchedule(edges, sd, k, floor)
}

// thermoSchedule returns the schedule of k steps whose density is sd[b] +
// floor·s̄ in τ ∈ [edges[b], edges[b+1]), s̄ the τ-weighted mean of sd (1
// when sd is all zero: the floor alone, a linear schedule), by inverting
// the piecewise-linear cumulative density at j/k of its total, j = 1…k−1.
func thermoSchedule(edges, sd []float64, k int, floor float64) ([]float64, error) {
	bins := len(sd)
	var mean float64
	for b, s := range sd {
		mean += s * (edges[b+1] - edges[b])
	}
	if mean == 0 {
		mean = 1
	}
	dens := make([]float64, bins)
	cum := make([]float64, bins+1) // cum[b] = ∫_0^edges[b] n(τ) dτ
	for b := range dens {
		dens[b] = sd[b] + floor*mean
		cum[b+1] = cum[b] + dens[b]*(edges[b+1]-edges[b])
	}
	tau := make([]float64, k+1)
	b := 0
	for j := 1; j < k; j++ {
		c := cum[bins] * float64(j) / float64(k)
		for b < bins-1 && cum[b+1] <= c {
			b++
		}
		tau[j] = edges[b] + (c-cum[b])/dens[b]
	}
	tau[k] = 1
	if err := CheckSchedule(tau); err != nil {
		// Only when steps are finer than float64 resolves.
		return nil, fmt.Errorf("ais: adapted schedule: %w", err)
	}
	return tau, nil
}
