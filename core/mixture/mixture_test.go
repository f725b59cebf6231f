package mixture

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distmv"

	"github.com/vbworkbench/vbw/core/dist"
)

// logTerms returns S×n random log-terms, offset by shift (to test the
// log-domain normalisation far from 0) with some entries far below the rest.
func logTerms(rnd *rand.Rand, S, n int, shift float64) []float64 {
	l := make([]float64, S*n)
	for i := range l {
		l[i] = shift + 3*rnd.NormFloat64()
		if rnd.IntN(7) == 0 {
			l[i] -= 800 // its exponential underflows relative to the rest
		}
	}
	return l
}

// TestNormalizeLogBruteForce compares NormalizeLog with q_is = e^ℓ/Σ e^ℓ
// computed directly (on log-terms shifted to near 0, where that is exact
// enough), over several chunks of points.
func TestNormalizeLogBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, S := range []int{1, 2, 5} {
		for _, shift := range []float64{0, -1000, 700} {
			n := 2*chunk + 37
			l := logTerms(rnd, S, n, shift)
			r := append([]float64(nil), l...)
			lnZ := make([]float64, n)
			if err := NormalizeLog(r, n, lnZ); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i++ {
				var z float64
				for s := 0; s < S; s++ {
					z += math.Exp(l[s*n+i] - shift)
				}
				if want := shift + math.Log(z); math.Abs(lnZ[i]-want) > 1e-12*math.Max(1, math.Abs(want)) {
					t.Fatalf("S=%d shift=%v point %d: ln Z = %v, want %v", S, shift, i, lnZ[i], want)
				}
				var tot float64
				for s := 0; s < S; s++ {
					want := math.Exp(l[s*n+i]-shift) / z
					if want < Floor {
						want = 0
					}
					if got := r[s*n+i]; math.Abs(got-want) > 1e-13*math.Max(want, 1e-300) && math.Abs(got-want) > 1e-15 {
						t.Fatalf("S=%d shift=%v q[%d,%d] = %v, want %v", S, shift, s, i, got, want)
					}
					tot += r[s*n+i]
				}
				if math.Abs(tot-1) > 1e-14 {
					t.Fatalf("S=%d: point %d sums to %v", S, i, tot)
				}
			}
		}
	}
}

func TestNormalizeLogRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    float64
	}{{"nan", math.NaN()}, {"+inf", math.Inf(1)}} {
		const S, n = 3, 4
		l := make([]float64, S*n)
		l[1*n+2] = tc.v
		err := NormalizeLog(l, n, make([]float64, n))
		if err == nil || !strings.Contains(err.Error(), "point 2") {
			t.Errorf("%s: err = %v, want one naming point 2", tc.name, err)
		}
	}
	// Terms so large that their sum overflows to +Inf, with a −Inf term:
	// valid, and normalised.
	big := []float64{1e308, 1e308, math.Inf(-1)}
	lnZ := make([]float64, 1)
	if err := NormalizeLog(big, 1, lnZ); err != nil || big[0] != 0.5 || big[2] != 0 {
		t.Errorf("huge finite terms: q = %v, err %v", big, err)
	}
	// Every term −Inf: no finite maximum.
	l := []float64{math.Inf(-1), math.Inf(-1)}
	if err := NormalizeLog(l, 1, make([]float64, 1)); err == nil {
		t.Error("all −Inf: no error")
	}
}

func TestNormalizeLogAllocs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 2))
	const S, n = 4, 1500
	l := logTerms(rnd, S, n, 0)
	r := make([]float64, S*n)
	lnZ := make([]float64, n)
	allocs := testing.AllocsPerRun(20, func() {
		copy(r, l)
		if err := NormalizeLog(r, n, lnZ); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("NormalizeLog allocates %v times per call", allocs)
	}
}

// TestKLWeights checks KL(q, q) = 0, agreement with dist.DirichletKL and
// the closed form against a Monte Carlo average of ln q(π) − ln p(π) over
// draws from q (as gonum's stat/distmv tests its KL divergences).
func TestKLWeights(t *testing.T) {
	for _, S := range []int{1, 2, 5} {
		alpha := 1.7
		prior := make([]float64, S)
		for s := range prior {
			prior[s] = alpha / float64(S)
		}
		if kl := KLWeights(prior, alpha); math.Abs(kl) > 1e-13 {
			t.Errorf("S=%d: KL(p, p) = %v, want 0", S, kl)
		}
	}
	omega := []float64{3.5, 0.8, 12.25, 1.1}
	const alpha = 2.0
	prior := []float64{0.5, 0.5, 0.5, 0.5}
	kl := KLWeights(omega, alpha)
	if want := dist.DirichletKL(omega, prior); kl != want {
		t.Errorf("KLWeights = %v, dist.DirichletKL = %v", kl, want)
	}
	q := distmv.NewDirichlet(omega, rand.NewPCG(1, 1))
	p := distmv.NewDirichlet(prior, nil)
	const draws = 200000
	x := make([]float64, len(omega))
	var mc float64
	for range draws {
		q.Rand(x)
		mc += q.LogProb(x) - p.LogProb(x)
	}
	mc /= draws
	if math.Abs(mc-kl) > 2e-2*math.Max(1, kl) {
		t.Errorf("KLWeights = %v, Monte Carlo %v", kl, mc)
	}
}

// TestEntropyEnumeration checks H[q(s)] = −Σ_s q(s) ln q(s) over all S^n
// joint assignments of tiny problems, and the logarithm-free form
// −Σ q_is (ℓ_si − ln Z_i) against it.
func TestEntropyEnumeration(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	for _, tc := range []struct{ S, n int }{{1, 3}, {2, 3}, {3, 4}, {4, 2}} {
		S, n := tc.S, tc.n
		l := logTerms(rnd, S, n, 0)
		if S > 1 {
			l[0] = math.Inf(-1) // q = 0 exactly: the 0 ln 0 guard
		}
		r := append([]float64(nil), l...)
		lnZ := make([]float64, n)
		if err := NormalizeLog(r, n, lnZ); err != nil {
			t.Fatal(err)
		}
		var want float64
		assign := make([]int, n)
		for {
			pr := 1.0
			for i, s := range assign {
				pr *= r[s*n+i]
			}
			if pr > 0 {
				want -= pr * math.Log(pr)
			}
			i := 0
			for ; i < n; i++ {
				if assign[i]++; assign[i] < S {
					break
				}
				assign[i] = 0
			}
			if i == n {
				break
			}
		}
		h := Entropy(r)
		if math.Abs(h-want) > 1e-12*math.Max(1, want) {
			t.Errorf("S=%d n=%d: Entropy = %v, enumeration %v", S, n, h, want)
		}
		var hl float64
		for j, v := range r {
			if v > 0 {
				hl -= v * (l[j] - lnZ[j%n])
			}
		}
		if math.Abs(hl-want) > 1e-12*math.Max(1, want) {
			t.Errorf("S=%d n=%d: −Σ q (ℓ − ln Z) = %v, enumeration %v", S, n, hl, want)
		}
	}
}

func TestWeightsAndBookkeeping(t *testing.T) {
	const n = 5
	// S = 3, component-major.
	r := []float64{
		0.5, 0, 1, 0.2, 0,
		0.5, 0, 0, 0.3, 0,
		0, 1, 0, 0.5, 1,
	}
	counts := Counts(nil, r, n)
	for s, want := range []float64{1.7, 0.8, 2.5} {
		if math.Abs(counts[s]-want) > 1e-15 {
			t.Errorf("N_%d = %v, want %v", s, counts[s], want)
		}
	}
	omega := make([]float64, 3)
	UpdateWeights(omega, r, n, 3)
	for s := range omega {
		if omega[s] != 1+counts[s] {
			t.Errorf("ω_%d = %v, want α/S + N_s = %v", s, omega[s], 1+counts[s])
		}
	}

	// Death of component 2: points 1 and 4 were all on it and become uniform.
	d := Remove(r, n, 2)
	want := []float64{
		0.5, 0.5, 1, 0.4, 0.5,
		0.5, 0.5, 0, 0.6, 0.5,
	}
	for j := range want {
		if math.Abs(d[j]-want[j]) > 1e-15 {
			t.Fatalf("after Remove: %v, want %v", d, want)
		}
	}
	if r[2*n+1] != 1 {
		t.Error("Remove modified its argument")
	}

	// Birth: a new empty component, then the parent's mass moved.
	b := Add(r, n)
	if len(b) != 4*n || b[3*n] != 0 || b[2] != r[2] {
		t.Fatalf("Add: %v", b)
	}
	b[3*n+2], b[0*n+2] = b[0*n+2], 0
	if tot := b[0*n+2] + b[1*n+2] + b[2*n+2] + b[3*n+2]; tot != 1 {
		t.Errorf("after the split point 2 sums to %v", tot)
	}
	w := SplitWeight(omega, 1)
	if len(w) != 4 || w[1] != w[3] || w[1] != (1+counts[1])/2 {
		t.Errorf("SplitWeight: %v", w)
	}
}

// TestOwned: each point goes to its largest responsibility, ties to the
// lower component, and every point to exactly one.
func TestOwned(t *testing.T) {
	// S = 3, n = 4, component-major.
	r := []float64{
		0.5, 0.1, 0.2, 0.4,
		0.3, 0.8, 0.4, 0.4,
		0.2, 0.1, 0.4, 0.2,
	}
	got := Owned(r, 4)
	want := [][]int{{0, 3}, {1, 2}, nil} // point 3 ties 0 and 1, point 2 ties 1 and 2
	for s := range want {
		if !slices.Equal(got[s], want[s]) {
			t.Errorf("component %d owns %v, want %v", s, got[s], want[s])
		}
	}
}
