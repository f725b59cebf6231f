package approx

import "math"

// Bernoullis is the family of n independent binary variables,
// q(s) = Π_j σ(η_j)^{s_j} σ(−η_j)^{1−s_j}, s_j ∈ {0, 1}, as a Family for
// FamilyEP (fully factorised EP over binary latent states): η_j is the
// log-odds, T(s) = s and A(η) = Σ_j ln(1 + e^{η_j}), proper for every
// finite η.
type Bernoullis int

// Dim implements Family.
func (n Bernoullis) Dim() int { return int(n) }

// LogPartition implements Family.
func (n Bernoullis) LogPartition(eta []float64) (float64, bool) {
	var a float64
	for _, e := range eta {
		if math.IsNaN(e) || math.IsInf(e, 0) {
			return math.Inf(1), false
		}
		a -= LogSigmoid(-e) // ln(1 + e^η)
	}
	return a, true
}
