package hmm

import (
	"fmt"
	"math"
)

// MaxEvidencePaths is the largest number of joint hidden-state paths k^T
// (T = Σ_i T_i, the total number of symbols) that ExactLogEvidence
// enumerates: 2^26 ≈ 6.7·10^7, which allows T ≤ 26 symbols at k = 2,
// T ≤ 16 at k = 3 and T ≤ 13 at k = 4. The enumeration costs a few tens of
// nanoseconds per path (BenchmarkExactLogEvidenceK3T15: 3^15 paths in about
// 0.3 s on one core), so the limit is a second or two.
const MaxEvidencePaths = 1 << 26

// EvidencePaths returns k^T, the number of joint hidden-state paths of
// data with T symbols in all (Data.Symbols), and whether it is at most
// MaxEvidencePaths. It never overflows: past the limit it stops
// multiplying and returns the partial product with ok = false.
func EvidencePaths(k, T int) (paths int, ok bool) {
	if k <= 1 {
		return 1, true
	}
	paths = 1
	for range T {
		if paths > MaxEvidencePaths/k {
			return paths, false
		}
		paths *= k
	}
	return paths, paths <= MaxEvidencePaths
}

// ExactLogEvidence returns the exact log marginal likelihood of a k-state
// discrete HMM with the Dirichlet priors u (Beal 2003 eqs. 3.36-3.40, 3.44;
// ../shared/seeds/000_055f6e591db3cc60.txt lines 1874-1915), by summing over
// every joint hidden-state path s of all the sequences:
//
//	p(y|m) = Σ_s ∫ p(θ) p(s, y|θ) dθ
//	       = Σ_s DM(u^(π), n^π(s)) Π_j DM(u^(A), n^A_j(s)) Π_j DM(u^(C), n^C_j(s, y)),
//
// where n(s) are the complete-data counts of the path (initial states,
// transitions out of state j, symbols emitted by state j) and
// DM(α, n) = Γ(α₀)/Γ(α₀+n₀) Π_l Γ(α_l+n_l)/Γ(α_l) is the
// Dirichlet-multinomial marginal of one row (eq. 6.9 pattern; the
// parameters of different rows are a priori independent, so the integral
// factorises row by row given the path). The thesis calls this sum
// intractable because it has k^T terms (L1913-L1915); for the short data
// sets of extension E3-X2 it is not.
//
// The paths are enumerated depth-first over the positions of the
// concatenated sequences. Adding one count n_l → n_l + 1 to a row
// multiplies its DM term by the Pólya-urn predictive probability
// (α_l + n_l)/(α₀ + n₀), so each edge of the search tree costs two ratios,
// and the sum over the subtree below a node is accumulated in the
// probability domain, each position's factor scaled by k·P so that the
// partial sums stay near 1; the scale is removed in the log domain at the
// end.
//
// It returns an error if d or u is invalid, k < 1, k^T exceeds
// MaxEvidencePaths (see EvidencePaths) or the scaled sum leaves the
// floating-point range, which needs ln p(y|m) + T ln(kP) outside about
// ±708 nats (extreme priors: the uniform model alone gives T ln k).
func ExactLogEvidence(d Data, k int, u Prior) (float64, error) {
	if k < 1 {
		return 0, fmt.Errorf("hmm: exact evidence needs k ≥ 1, got %d", k)
	}
	if err := d.Validate(); err != nil {
		return 0, err
	}
	if err := u.Validate(k, d.P); err != nil {
		return 0, err
	}
	if n, ok := EvidencePaths(k, d.Symbols()); !ok {
		return 0, fmt.Errorf("hmm: exact evidence over %d symbols with k = %d needs %d^%d paths (more than %d), beyond MaxEvidencePaths = 2^26",
			d.Symbols(), k, k, d.Symbols(), n)
	}
	e := newEnumerator(d, k, u)
	v := e.sum(0, -1)
	if !(v >= 0x1p-1022) || math.IsInf(v, 1) {
		return 0, fmt.Errorf("hmm: exact evidence: the scaled path sum %v is outside the floating-point range", v)
	}
	return math.Log(v) - float64(len(e.y))*math.Log(e.scale), nil
}

// enumerator holds the running complete-data counts of the depth-first
// path enumeration of ExactLogEvidence.
type enumerator struct {
	k, p  int
	y     []int  // the concatenated sequences
	first []bool // first[t]: y[t] starts a sequence
	scale float64

	uPi, uA, uC []float64
	fPi, fA, fC float64 // row totals of the prior pseudo-counts

	nPi       []float64 // initial-state counts
	nPiTot    float64
	nA, nATot []float64 // k×k transition counts and their row totals
	nC, nCTot []float64 // k×p emission counts and their row totals
}

func newEnumerator(d Data, k int, u Prior) *enumerator {
	e := &enumerator{k: k, p: d.P, scale: float64(k) * float64(d.P),
		uPi: u.Pi, uA: u.A, uC: u.C,
		nPi: make([]float64, k), nA: make([]float64, k*k), nATot: make([]float64, k),
		nC: make([]float64, k*d.P), nCTot: make([]float64, k)}
	for _, s := range d.Seqs {
		for t, m := range s {
			e.y = append(e.y, m)
			e.first = append(e.first, t == 0)
		}
	}
	for _, v := range u.Pi {
		e.fPi += v
	}
	for _, v := range u.A {
		e.fA += v
	}
	for _, v := range u.C {
		e.fC += v
	}
	return e
}

// sum returns (k·P)^(T−t) times the probability of y[t:] given y[:t] and
// the states of the path so far, the last of which is prev (−1 before the
// first symbol), summed over the states of positions t, …, T−1.
func (e *enumerator) sum(t, prev int) float64 {
	if t == len(e.y) {
		return 1
	}
	k, p, m := e.k, e.p, e.y[t]
	var v float64
	for s := 0; s < k; s++ {
		var r float64
		if e.first[t] {
			r = (e.uPi[s] + e.nPi[s]) / (e.fPi + e.nPiTot)
			e.nPi[s]++
			e.nPiTot++
		} else {
			r = (e.uA[s] + e.nA[prev*k+s]) / (e.fA + e.nATot[prev])
			e.nA[prev*k+s]++
			e.nATot[prev]++
		}
		r *= (e.uC[m] + e.nC[s*p+m]) / (e.fC + e.nCTot[s])
		e.nC[s*p+m]++
		e.nCTot[s]++
		v += r * e.scale * e.sum(t+1, s)
		e.nC[s*p+m]--
		e.nCTot[s]--
		if e.first[t] {
			e.nPi[s]--
			e.nPiTot--
		} else {
			e.nA[prev*k+s]--
			e.nATot[prev]--
		}
	}
	return v
}
