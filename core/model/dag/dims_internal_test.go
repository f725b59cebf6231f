package dag

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// jacobians returns, by brute force, the derivatives with respect to the
// softmax coordinates u of θ (θ_jl ∝ θ̂_jl · exp(u_jl), at u = 0) of
// ln p(s, y_p|θ) for every (pattern, configuration) pair p·H + s of pairs
// whose value is finite (rows of jp), and of ln p(y_p|θ) for every pattern
// possible under θ (rows of j). A factor θ_jlk of a row contributes
// ∂ ln θ_jlk/∂u_jlk′ = [k = k′] − θ_jlk′; ln p(y_p|θ) is the log-sum over
// s, whose derivative is the posterior mean Σ_s q_p(s) ∂ ln p(s, y_p|θ).
func (pr *Problem) jacobians(theta Params, pairs []int) (j, jp *mat.Dense) {
	pl := &pr.pl
	h, jc, jv := pl.h, pl.jc, pl.jv
	rowOf := make([]int, len(theta))
	for r, start := range pr.rowStart {
		for k := start; k < start+pr.rowLen[r]; k++ {
			rowOf[k] = r
		}
	}
	// grad returns ln p(s, y_p|θ) of pair (p, c) and adds w times its
	// gradient into g.
	grad := func(p, c int, w float64, g []float64) float64 {
		var l float64
		add := func(idx []int32) {
			for _, i := range idx {
				l += math.Log(theta[i])
				g[i] += w
				r := rowOf[i]
				for k := pr.rowStart[r]; k < pr.rowStart[r]+pr.rowLen[r]; k++ {
					g[k] -= w * theta[k]
				}
			}
		}
		add(pl.cidx[p*jc : (p+1)*jc])
		add(pl.vidx[(p*h+c)*jv : (p*h+c+1)*jv])
		return l
	}
	var rows, rowsP [][]float64
	scratch := make([]float64, len(theta))
	for _, pc := range pairs {
		g := make([]float64, len(theta))
		if !math.IsInf(grad(pc/h, pc%h, 1, g), -1) {
			rowsP = append(rowsP, g)
		}
	}
	for p := range pl.w {
		lq := make([]float64, h)
		m := math.Inf(-1)
		for c := range lq {
			clear(scratch)
			lq[c] = grad(p, c, 0, scratch)
			m = math.Max(m, lq[c])
		}
		if math.IsInf(m, -1) {
			continue
		}
		var z float64
		for c := range lq {
			lq[c] = math.Exp(lq[c] - m)
			z += lq[c]
		}
		g := make([]float64, len(theta))
		for c := range lq {
			if lq[c] > 0 {
				grad(p, c, lq[c]/z, g)
			}
		}
		rows = append(rows, g)
	}
	dense := func(rows [][]float64) *mat.Dense {
		a := mat.NewDense(len(rows), len(theta), nil)
		for i, r := range rows {
			a.SetRow(i, r)
		}
		return a
	}
	return dense(rows), dense(rowsP)
}

// clearRank returns the number of singular values above tol·σ_max, and
// whether none lies within a factor 100 of the threshold (a rank that
// perturbations and rounding cannot move).
func clearRank(a *mat.Dense, tol float64) (int, bool) {
	k, sv := rank(a, tol)
	for _, v := range sv {
		if v > tol*sv[0]/100 && v < tol*sv[0]*100 {
			return k, false
		}
	}
	return k, true
}

// TestDimensionsBruteForce checks d′ (and d, where its rank is clear: its
// singular values decay gradually in some structures) of
// Algorithm 6.2 against the ranks of the exact Jacobians (jacobians) on EM
// estimates with exact zeros: on 100 points from the true model, ML-EM
// leaves θ̂_jlk = 0 in many structures (an expected count that underflows),
// where the complete-data log-likelihood of some drawn (pattern, s) pairs
// is −∞. Before those rows were dropped, the matrix of d′ held NaN and
// gonum's SVD panicked ("lapack: cfrom is NaN"). The same estimates have
// subnormal entries, whose perturbation the probability domain lost (d′
// one short of the Jacobian's rank in 2 structures before perturb worked
// in the log domain).
func TestDimensionsBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(100, 6))
	obs, _ := Sample(TrueCode.Structure(), TrueParams(), 100, rnd)
	d, err := NewData(obs)
	if err != nil {
		t.Fatal(err)
	}
	set := DimSettings{}.withDefaults()
	withZeros, clearD := 0, 0
	for i, c := range Candidates() {
		s := c.Structure()
		pr, err := NewProblem(s, s.SymmetricPrior(1), d)
		if err != nil {
			t.Fatal(err)
		}
		em, err := pr.ScoreEM(pr.Inits(3, rnd), Settings{})
		if err != nil {
			t.Fatal(err)
		}
		zeros := 0
		for _, v := range em.Theta {
			if v == 0 {
				zeros++
			}
		}
		if zeros == 0 && i%17 != 0 {
			continue // every structure with a zero, and a few without
		}
		pairs := pr.drawPairs(rnd)
		got := pr.dimensionsOn(em.Theta, pairs, set, rnd)
		j, jp := pr.jacobians(em.Theta, pairs)
		wantD, okD := clearRank(j, set.RelTol)
		if wantDP, _ := rank(jp, set.RelTol); got.DPrime != wantDP {
			t.Errorf("%s (%d zeros in θ̂): d′ = %d, the Jacobian's rank %d", c, zeros, got.DPrime, wantDP)
		}
		if okD {
			clearD++
			if got.D != wantD {
				t.Errorf("%s (%d zeros in θ̂): d = %d, the Jacobian's rank %d", c, zeros, got.D, wantD)
			}
		}
		if r, _ := jp.Dims(); got.DroppedPrime+r != len(pairs) || got.Dropped != 0 {
			t.Errorf("%s: %d pairs, %d finite, %d dropped; %d patterns dropped", c, len(pairs), r, got.DroppedPrime, got.Dropped)
		}
		if zeros > 0 {
			withZeros++
		}
	}
	if withZeros < 10 || clearD < 10 {
		t.Fatalf("%d structures with exact zeros in θ̂, %d with a clear d: the test data no longer exercise them", withZeros, clearD)
	}
}
