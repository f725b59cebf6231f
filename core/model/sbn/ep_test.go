package sbn

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/numeric"
)

// randomPattern draws a 0/1 visible pattern.
func randomPattern(n *Net, r *rand.Rand) []float64 {
	v := make([]float64, n.Visible())
	for j := range v {
		v[j] = float64(r.IntN(2))
	}
	return v
}

// TestEPProjectBruteForce checks each site's projection against a sum over
// every latent state (all h units, not only those the factor touches) of
// the cavity's product of Bernoullis times f_i = P(s_i | pa(s_i)) from
// Net.LogJoint's own terms (unitLogProb): ln Z_i and every unit's tilted
// log-odds, including the untouched units, which must keep the cavity's.
// The two sums are the same finite sums in a different order: 1e-12.
func TestEPProjectBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	n := randomNet(t, 2, 5)
	v := randomPattern(n, r)
	ep, err := NewEP(n, v, approx.EPSettings{})
	if err != nil {
		t.Fatal(err)
	}
	h := n.Hidden()
	cav := make([]float64, h)
	for k := range cav {
		cav[k] = 3 * (2*r.Float64() - 1)
	}
	s := make([]float64, n.Units())
	copy(s[h:], v)
	dst := make([]float64, h)
	for i, site := range ep.sites {
		lz, err := site.Project(dst, cav)
		if err != nil {
			t.Fatal(err)
		}
		lw := make([]float64, 1<<h)
		on := make([][]float64, h)
		off := make([][]float64, h)
		for c := range lw {
			l := n.unitLogProb(i, setState(s, c, h))
			for k := range h {
				if s[k] == 1 {
					l += approx.LogSigmoid(cav[k])
				} else {
					l += approx.LogSigmoid(-cav[k])
				}
			}
			lw[c] = l
			for k := range h {
				if s[k] == 1 {
					on[k] = append(on[k], l)
				} else {
					off[k] = append(off[k], l)
				}
			}
		}
		if want := numeric.LogSumExp(lw); math.Abs(lz-want) > 1e-12 {
			t.Errorf("site %d: ln Z %.15g, brute force %.15g", i, lz, want)
		}
		for k := range h {
			if want := numeric.LogSumExp(on[k]) - numeric.LogSumExp(off[k]); math.Abs(dst[k]-want) > 1e-12 {
				t.Errorf("site %d unit %d: tilted log-odds %.15g, brute force %.15g (cavity %.15g)", i, k, dst[k], want, cav[k])
			}
		}
	}
}

// setState writes the latent units of state c into s and returns s.
func setState(s []float64, c, h int) []float64 {
	for j := range h {
		s[j] = float64((c >> j) & 1)
	}
	return s
}

// TestEPNoProjection: a cavity so sure of a parent that the other state's
// weight underflows gives a tilted marginal of exactly 1, which has no
// finite log-odds: ErrNoProjection, and EP skips (and counts) the update.
func TestEPNoProjection(t *testing.T) {
	n, err := NewNet([]int{1, 1}, [][]float64{{}, {0.5}}, []float64{0.2, -0.3})
	if err != nil {
		t.Fatal(err)
	}
	ep, err := NewEP(n, []float64{1}, approx.EPSettings{})
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float64, 1)
	if _, err := ep.sites[1].Project(dst, []float64{1e308}); !errors.Is(err, approx.ErrNoProjection) {
		t.Errorf("cavity log-odds 1e308: err %v, want ErrNoProjection", err)
	}
	if _, err := ep.sites[1].Project(dst, []float64{40}); err != nil {
		t.Errorf("cavity log-odds 40 (a marginal 1 − 4e-18, representable as log-odds): %v", err)
	}
}

// TestEPTreeExact: where the factor graph of the latent units is a tree,
// fully factorised EP is belief propagation (Minka 2001 §4.4; Heskes &
// Zoeter 2002) and exact at its fixed point: ln P(V) (with the h ln 2 of
// the uniform p₀) and the posterior marginals equal enumeration's. The
// nets: one latent unit with five visible children (every factor a
// function of that unit alone: sites in the family, exact after a sweep),
// chains latent → latent → visible and latent → latent → latent → visible,
// a latent unit with three visible children below one latent parent, and
// two top units sharing one child with two visible children (a factor of
// three latent units, still a tree). Strong weights (span 3) so that the
// posterior is far from the uniform start. Rounding only: 1e-9.
func TestEPTreeExact(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, layers := range [][]int{{1, 5}, {1, 1, 1}, {1, 1, 1, 1}, {1, 1, 3}, {2, 1, 2}} {
		for trial := range 4 {
			n, err := Random(layers, 3, r)
			if err != nil {
				t.Fatal(err)
			}
			v := randomPattern(n, r)
			ep, err := NewEP(n, v, approx.EPSettings{MaxIterations: 100, Tol: 1e-13})
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := ep.Run(); err != nil || !ok {
				t.Fatalf("%v trial %d: converged %v after %d sweeps, %v", layers, trial, ok, ep.Iterations(), err)
			}
			if ep.Skipped() != 0 {
				t.Errorf("%v trial %d: %d updates skipped", layers, trial, ep.Skipped())
			}
			got, err := ep.LogLik()
			if err != nil {
				t.Fatal(err)
			}
			means, want, err := n.ExactMeans(v)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-want) > 1e-9 {
				t.Errorf("%v trial %d: EP ln P(V) %.12f, exact %.12f", layers, trial, got, want)
			}
			for k, m := range ep.Means() {
				if math.Abs(m-means[k]) > 1e-9 {
					t.Errorf("%v trial %d: unit %d EP mean %.12f, exact %.12f", layers, trial, k, m, means[k])
				}
			}
			if len(layers) == 2 && ep.Iterations() > 2 {
				t.Errorf("%v: %d sweeps; sites in the family need one (and one that moves nothing)", layers, ep.Iterations())
			}
		}
	}
}

// TestEPRandomNets runs EP on random 2-4-6 nets of span 1 (the nets of
// L1127 and of the atlas row), whose factor graphs have loops. At EP's
// fixed point every site's projection from its cavity is q itself (the
// moment-matching condition, to 1e-8 relative: the run stops at site
// changes of 1e-12). The evidence is then an approximation: the errors
// observed on these 12 nets and random patterns are 1e-4 to 0.0044 nats
// (median about 1e-3), bounded here at 0.02, and each net's EP error must
// be below mean field's bound gap (eq. 2.15 fitted to convergence; gaps of
// 0.038-0.093 nats here), so the test fails if EP did nothing useful. EP's
// marginals are checked against the exact ones to 0.01 per unit (at most
// 0.003 observed on 40 such nets). Damping 0.5 and undamped EP must reach
// the same fixed point (1e-8 nats).
func TestEPRandomNets(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	var worst float64
	for trial := range 12 {
		n := randomNet(t, 1, uint64(100+trial))
		v := randomPattern(n, r)
		means, exact, err := n.ExactMeans(v)
		if err != nil {
			t.Fatal(err)
		}
		var lnz [2]float64
		for d, damp := range []float64{1, 0.5} {
			ep, err := NewEP(n, v, approx.EPSettings{Damping: damp, MaxIterations: 500, Tol: 1e-12})
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := ep.Run(); err != nil || !ok {
				t.Fatalf("trial %d damping %g: converged %v after %d sweeps (%d skipped), %v", trial, damp, ok, ep.Iterations(), ep.Skipped(), err)
			}
			q := ep.fep.Q()
			proj := make([]float64, len(q))
			for i, f := range ep.sites {
				cav := ep.fep.Q()
				s := ep.fep.Site(i)
				for j := range cav {
					cav[j] -= s[j]
				}
				if _, err := f.Project(proj, cav); err != nil {
					t.Fatal(err)
				}
				for j := range q {
					if math.Abs(proj[j]-q[j]) > 1e-8*(1+math.Abs(q[j])) {
						t.Fatalf("trial %d site %d: projection %v is not q %v at the fixed point", trial, i, proj, q)
					}
				}
			}
			if lnz[d], err = ep.LogLik(); err != nil {
				t.Fatal(err)
			}
			if d == 1 {
				continue
			}
			mf, res, err := fitMeanField(n, v, Settings{}, rand.New(rand.NewPCG(uint64(trial), 1)))
			if err != nil {
				t.Fatal(err)
			}
			gap := exact - res.F
			epErr := lnz[0] - exact
			worst = math.Max(worst, math.Abs(epErr))
			t.Logf("trial %d: EP %.6f (%d sweeps), exact %.6f, EP error %+.5f; mean-field gap %.5f; EP mean error %.4f, mean field's %.4f",
				trial, lnz[0], ep.Iterations(), exact, epErr, gap, meanAbsDiff(ep.Means(), means), meanAbsDiff(mf.Mu(), means))
			if math.Abs(epErr) > 0.02 {
				t.Errorf("trial %d: EP ln P(V) %.6f, exact %.6f", trial, lnz[0], exact)
			}
			if math.Abs(epErr) >= gap {
				t.Errorf("trial %d: EP's error %.5f is no smaller than mean field's gap %.5f", trial, epErr, gap)
			}
			for k, m := range ep.Means() {
				if math.Abs(m-means[k]) > 0.01 {
					t.Errorf("trial %d unit %d: EP mean %.4f, exact %.4f", trial, k, m, means[k])
				}
			}
		}
		if math.Abs(lnz[0]-lnz[1]) > 1e-8 {
			t.Errorf("trial %d: undamped EP %.12f, damped %.12f: different fixed points", trial, lnz[0], lnz[1])
		}
	}
	t.Logf("largest |EP error| %.5f", worst)
}

func meanAbsDiff(a, b []float64) float64 {
	s := 0.0
	for k := range b {
		s += math.Abs(a[k] - b[k])
	}
	return s / float64(len(b))
}

// TestEPSweepOps checks EPSweepOps on a 2-4-6 net by its formula: two top
// units (2 states, 2 terms each), four middle units (2³ states, 2 + 3 + 1
// terms), six visible units (2⁴ states, 4 + 4 + 1 terms).
func TestEPSweepOps(t *testing.T) {
	n := randomNet(t, 1, 1)
	if got, want := n.EPSweepOps(), 2*2*2+4*8*6+6*16*9; got != want {
		t.Errorf("EPSweepOps %d, want %d", got, want)
	}
}

// BenchmarkEPSweep times one EP sweep of a 2-4-6 net (Net.EPSweepOps edge
// terms; the atlas row's cost estimate is per edge term).
func BenchmarkEPSweep(b *testing.B) {
	n := randomNet(b, 1, 1)
	ep, err := NewEP(n, zeros, approx.EPSettings{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ep.Sweep(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n.EPSweepOps()), "ns/op-term")
}
