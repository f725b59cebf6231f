package hmm

import "fmt"

// Prior holds the Dirichlet hyperparameters of Beal (2003) eqs. 3.37-3.40:
// u^(π) (K entries), u^(A) (K entries, shared by every row of A) and u^(C)
// (P entries, shared by every row of C). Entries are pseudo-counts.
type Prior struct {
	Pi, A, C []float64
}

// SymmetricPrior returns the fixed-strength symmetric prior of eq. 3.43:
// every entry of u^(π) and u^(A) is fPi/k and fA/k, every entry of u^(C) is
// fC/p. The strength f is the total pseudo-count of a row and does not grow
// with k (L1907).
func SymmetricPrior(k, p int, fPi, fA, fC float64) Prior {
	u := Prior{Pi: make([]float64, k), A: make([]float64, k), C: make([]float64, p)}
	for j := range u.Pi {
		u.Pi[j] = fPi / float64(k)
		u.A[j] = fA / float64(k)
	}
	for m := range u.C {
		u.C[m] = fC / float64(p)
	}
	return u
}

// Validate checks the sizes against k and p and that every entry is positive
// and finite.
func (u Prior) Validate(k, p int) error {
	if len(u.Pi) != k || len(u.A) != k || len(u.C) != p {
		return fmt.Errorf("hmm: prior sizes (%d,%d,%d) do not match k=%d p=%d", len(u.Pi), len(u.A), len(u.C), k, p)
	}
	for _, v := range []struct {
		name string
		u    []float64
	}{{"u_pi", u.Pi}, {"u_A", u.A}, {"u_C", u.C}} {
		for i, x := range v.u {
			if !(x > 0) || x > 1e300 {
				return fmt.Errorf("hmm: prior %s[%d] = %v, want a positive finite pseudo-count", v.name, i, x)
			}
		}
	}
	return nil
}
