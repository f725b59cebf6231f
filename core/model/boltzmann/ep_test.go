package boltzmann

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/rng"
)

// runEP runs EP on m to tol 1e-12 and fails the test if it does not
// converge or skips a site.
func runEP(t *testing.T, m *Machine, damping float64) *EP {
	t.Helper()
	e, err := NewEP(m, approx.EPSettings{Damping: damping, MaxIterations: 2000, Tol: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	ok, err := e.Run()
	if err != nil || !ok || e.Skipped() != 0 {
		t.Fatalf("EP: converged %v after %d sweeps, skipped %d, %v", ok, e.Iterations(), e.Skipped(), err)
	}
	return e
}

// TestEPConstant: with no weights there are no sites and q = p₀, so ln Z_EP
// = 0 and LogZ is the biases' normaliser Σ_i ln 2cosh(b_i/T) alone, which
// must equal the enumerated ln Z (Z factorises: Π_i Σ_{s=±1} e^{b_i s/T});
// zero biases give n ln 2, the count of {±1}^n. Rounding only: 1e-12.
func TestEPConstant(t *testing.T) {
	for _, b := range [][]float64{{0, 0, 0, 0, 0}, {0.3, -1.2, 2, 0, -0.7}, {40, -35, 0.1, 1, 0}} {
		m := NewMachine(len(b))
		copy(m.B, b)
		m.T = 0.8
		e := runEP(t, m, 1)
		got, err := e.LogZ()
		if err != nil {
			t.Fatal(err)
		}
		ex, _ := m.Exact(nil)
		if math.Abs(got-ex.LogZ) > 1e-12*math.Max(1, math.Abs(ex.LogZ)) || e.Sites() != 0 {
			t.Errorf("biases %v: EP ln Z %.15g, exact %.15g (%d sites)", b, got, ex.LogZ, e.Sites())
		}
	}
	m := NewMachine(7)
	e := runEP(t, m, 1)
	if got, _ := e.LogZ(); math.Abs(got-7*math.Ln2) > 1e-13 {
		t.Errorf("zero machine: ln Z %.15g, want 7 ln 2", got)
	}
}

// TestEPTrees: on a machine whose nonzero weights form a tree (a chain, a
// star; one pair) EP's fixed point is belief propagation's, which is exact:
// ln Z and every ⟨s_i⟩ equal the enumeration's to 1e-9 (run to tol 1e-12
// on the log-odds; strong weights ±1.5 and T = 0.7 so that the pairs are
// far from independent, and the test can fail on a wrong constant or
// marginal).
func TestEPTrees(t *testing.T) {
	r := rng.New(5, "boltzmann", "ep-trees")
	chain, star, pair := NewMachine(8), NewMachine(7), NewMachine(2)
	for i := 0; i+1 < chain.N; i++ {
		chain.SetWeight(i, i+1, 3*r.Float64()-1.5)
	}
	for i := 1; i < star.N; i++ {
		star.SetWeight(0, i, 3*r.Float64()-1.5)
	}
	pair.SetWeight(0, 1, -1.3)
	for _, m := range []*Machine{chain, star, pair} {
		for i := range m.B {
			m.B[i] = 2*r.Float64() - 1
		}
	}
	chain.T, star.T = 0.7, 0.7
	for name, m := range map[string]*Machine{"chain": chain, "star": star, "pair": pair} {
		e := runEP(t, m, 1)
		got, err := e.LogZ()
		if err != nil {
			t.Fatal(err)
		}
		ex, _ := m.Exact(nil)
		if math.Abs(got-ex.LogZ) > 1e-9 {
			t.Errorf("%s: EP ln Z %.12f, exact %.12f", name, got, ex.LogZ)
		}
		for i, mu := range e.Means() {
			if math.Abs(mu-ex.Mean[i]) > 1e-9 {
				t.Errorf("%s: EP ⟨s_%d⟩ = %.12f, exact %.12f", name, i, mu, ex.Mean[i])
			}
		}
	}
}

// tiltedMeans returns, for each site k, the tilted ⟨s_i⟩, ⟨s_j⟩ of its
// projection from the cavity q − η_k.
func tiltedMeans(e *EP, k int, site *pairSite) (float64, float64) {
	q, s := e.fep.Q(), e.fep.Site(k)
	cav, dst := make([]float64, len(q)), make([]float64, len(q))
	for j := range q {
		cav[j] = q[j] - s[j]
	}
	if _, err := site.Project(dst, cav); err != nil {
		return math.NaN(), math.NaN()
	}
	return math.Tanh(dst[site.i] / 2), math.Tanh(dst[site.j] / 2)
}

// epRandom runs EP at damping on 20 random machines of 10 units, weights
// and biases U(−span, span), and returns per machine whether it converged
// (tol 1e-12 on the log-odds, 2000 sweeps), |ln Z_EP − ln Z|, the mean
// |⟨s_i⟩ error| and mean field's gap ln Z − L⁻ (from zero means, run to
// RelTol 1e-12); it fails the test if a converged run's fixed point does
// not hold: every site's tilted ⟨s_i⟩, ⟨s_j⟩ from its cavity equal q's to
// 1e-9 (the moment matching of Minka 2001 eq. (3.31) at every site).
func epRandom(t *testing.T, span, damping float64) (ok []bool, errZ, errMu, gap []float64) {
	t.Helper()
	for i := range 20 {
		m := NewRandom(10, span, rng.New(11, "boltzmann", "ep-random", fmt.Sprint(span), fmt.Sprint(i)))
		ex, err := m.Exact(nil)
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewEP(m, approx.EPSettings{Damping: damping, MaxIterations: 2000, Tol: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		conv, err := e.Run()
		if err != nil {
			t.Fatal(err)
		}
		mu := e.Means()
		for k, site := range e.sites {
			if !conv {
				break
			}
			mi, mj := tiltedMeans(e, k, site)
			if math.Abs(mi-mu[site.i]) > 1e-9 || math.Abs(mj-mu[site.j]) > 1e-9 {
				t.Errorf("span %g, machine %d, site (%d, %d): tilted means %v, %v; q's %v, %v", span, i, site.i, site.j, mi, mj, mu[site.i], mu[site.j])
			}
		}
		lz, err := e.LogZ()
		if err != nil {
			t.Fatal(err)
		}
		mf, _ := NewMeanField(m, nil, nil)
		res, err := mf.Run(Settings{MaxIterations: 1000, RelTol: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		var em float64
		for k, x := range mu {
			em += math.Abs(x-ex.Mean[k]) / float64(m.N)
		}
		ok, errZ, errMu, gap = append(ok, conv), append(errZ, math.Abs(lz-ex.LogZ)), append(errMu, em), append(gap, ex.LogZ-res.Bound)
	}
	return ok, errZ, errMu, gap
}

// TestEPWeakMachines: at span 0.3 (couplings well inside loopy BP's
// convergence regime) undamped EP converges on all 20 machines, its fixed
// point holds, |ln Z_EP − ln Z| ≤ 0.2 nats and mean |⟨s_i⟩ error| ≤ 0.03
// (observed at most 0.11 and 0.010: loopy BP's error on these dense
// machines, margin about 2-3), and EP's error is at most half mean field's
// gap on every machine (observed ratio at most 0.19), so the test fails
// if EP is no better than the bound.
func TestEPWeakMachines(t *testing.T) {
	ok, errZ, errMu, gap := epRandom(t, 0.3, 1)
	for i := range ok {
		if !ok[i] || errZ[i] > 0.2 || errMu[i] > 0.03 || errZ[i] > gap[i]/2 {
			t.Errorf("machine %d: converged %v, |ln Z error| %.4f, mean error %.4f, mean field's gap %.4f", i, ok[i], errZ[i], errMu[i], gap[i])
		}
	}
}

// TestEPRowMachines: at span 1 (the atlas/bm row's machines, Fig. 4.2's
// span; fields of a few units' weights, past loopy BP's convergence on
// many machines) EP damped by 0.5 converges on at least 10 of 20 machines
// (observed 13; undamped, 7), the fixed point holds on those, every
// converged |ln Z_EP − ln Z| ≤ 3 nats (observed at most 1.79: the Bethe
// approximation is poor at these couplings; an observation, not a
// theorem), and the median converged |error| is below the median
// mean-field gap over the same machines (observed 0.36 against 0.58
// nats): EP is the better estimate of ln Z on the typical machine but not
// on every one (on 2 of the 13 its error exceeds mean field's gap), which
// the row reports.
func TestEPRowMachines(t *testing.T) {
	ok, errZ, _, gap := epRandom(t, 1, 0.5)
	var ez, g []float64
	for i := range ok {
		if !ok[i] {
			continue
		}
		ez, g = append(ez, errZ[i]), append(g, gap[i])
		if errZ[i] > 3 {
			t.Errorf("machine %d: |ln Z error| %.4f", i, errZ[i])
		}
	}
	if len(ez) < 10 {
		t.Errorf("EP converged on %d of 20 machines", len(ez))
	}
	if len(ez) > 0 && median(ez) >= median(g) {
		t.Errorf("median |ln Z error| %.4f of %d converged runs, median mean-field gap %.4f", median(ez), len(ez), median(g))
	}
	t.Logf("converged %d of 20; median |ln Z error| %.4f, median gap %.4f", len(ez), median(ez), median(g))
}

func median(x []float64) float64 {
	y := slices.Clone(x)
	slices.Sort(y)
	n := len(y)
	if n%2 == 1 {
		return y[n/2]
	}
	return (y[n/2-1] + y[n/2]) / 2
}
