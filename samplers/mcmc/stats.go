package mcmc

import "math"

// Stats counts Metropolis–Hastings proposals and acceptances.
//
// Figure 6.11 of Beal (2003) plots the fraction of accepted proposals over a
// whole annealing run, Figure 6.12 the fraction in each quarter of the
// schedule (lines 4874–4920 of the seed text).
type Stats struct {
	// Proposed is the number of proposals made.
	Proposed int
	// Accepted is the number of proposals accepted, 0 ≤ Accepted ≤ Proposed.
	Accepted int
}

// Rate returns Accepted/Proposed, or NaN when nothing was proposed.
func (s Stats) Rate() float64 {
	if s.Proposed == 0 {
		return math.NaN()
	}
	return float64(s.Accepted) / float64(s.Proposed)
}

// Add adds the counts of o to s.
func (s *Stats) Add(o Stats) {
	s.Proposed += o.Proposed
	s.Accepted += o.Accepted
}
