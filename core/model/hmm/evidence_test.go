package hmm

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/vb"
)

// randomPrior returns a prior with independent entries in [0.2, 3): no
// symmetry for ExactLogEvidence to rely on.
func randomPrior(rnd *rand.Rand, k, p int) Prior {
	u := Prior{Pi: make([]float64, k), A: make([]float64, k), C: make([]float64, p)}
	for _, row := range [][]float64{u.Pi, u.A, u.C} {
		for i := range row {
			row[i] = 0.2 + 2.8*rnd.Float64()
		}
	}
	return u
}

func TestExactLogEvidenceGolden(t *testing.T) {
	// targets §1.5 items 5 and 6 (computed independently while the targets
	// were drafted).
	for _, c := range []struct {
		k    int
		want float64
	}{{2, -7.462316373391}, {1, -7.535006827470}} {
		got, err := ExactLogEvidence(golden, c.k, uniformPrior(c.k, 2, 0.5))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-c.want) > 1e-10 {
			t.Errorf("k=%d: ln p(y|m) = %.12f, want %.12f", c.k, got, c.want)
		}
	}
}

func TestExactLogEvidenceMatchesRecount(t *testing.T) {
	// The incremental Pólya-urn enumeration against exactEvidence, which
	// recounts every path from scratch and adds the DM terms row by row,
	// with asymmetric priors.
	rnd := rand.New(rand.NewPCG(21, 1))
	for trial := 0; trial < 12; trial++ {
		k := 1 + trial%3
		p := 2 + trial%2
		d := randomData(rnd, 1+rnd.IntN(3), p, 1, 3)
		u := randomPrior(rnd, k, p)
		got, err := ExactLogEvidence(d, k, u)
		if err != nil {
			t.Fatal(err)
		}
		want := exactEvidence(d, k, u)
		if math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("trial %d (k=%d, %v): enumeration %.15g, recount %.15g", trial, k, d.Seqs, got, want)
		}
	}
}

func TestExactLogEvidenceOneState(t *testing.T) {
	// k = 1: one path, and the evidence is the Dirichlet-multinomial
	// marginal of the symbol counts (targets §1.5 item 6).
	rnd := rand.New(rand.NewPCG(22, 1))
	d := randomData(rnd, 5, 4, 3, 20)
	u := randomPrior(rnd, 1, 4)
	counts := make([]float64, 4)
	for _, y := range d.Seqs {
		for _, m := range y {
			counts[m]++
		}
	}
	got, err := ExactLogEvidence(d, 1, u)
	if err != nil {
		t.Fatal(err)
	}
	if want := dist.DirichletLogMarginalCounts(u.C, counts); math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Fatalf("k=1: %.15g, closed form %.15g", got, want)
	}
}

func TestExactLogEvidenceNormalises(t *testing.T) {
	// p(y|m) is a distribution over data sets of fixed lengths: summed
	// over all 3^4 data sets with sequences of lengths 3 and 1 over P = 3
	// symbols it is 1.
	rnd := rand.New(rand.NewPCG(23, 1))
	for _, k := range []int{2, 3} {
		u := randomPrior(rnd, k, 3)
		var total float64
		for code := 0; code < 81; code++ {
			y := []int{code % 3, code / 3 % 3, code / 9 % 3, code / 27}
			d := Data{P: 3, Seqs: [][]int{y[:3], y[3:]}}
			lp, err := ExactLogEvidence(d, k, u)
			if err != nil {
				t.Fatal(err)
			}
			total += math.Exp(lp)
		}
		if math.Abs(total-1) > 1e-12 {
			t.Errorf("k=%d: Σ_y p(y|m) = %.15f, want 1", k, total)
		}
	}
}

func TestExactLogEvidenceMonteCarlo(t *testing.T) {
	// Simple Monte Carlo over the prior, p(y|m) = E_p(θ)[p(y|θ)], with
	// 2·10^5 draws and the forward algorithm: within 3 standard errors
	// (the delta-method SE of the log of the mean).
	rnd := rand.New(rand.NewPCG(24, 1))
	k := 2
	u := SymmetricPrior(k, 2, 2, 2, 2)
	want, err := ExactLogEvidence(golden, k, u)
	if err != nil {
		t.Fatal(err)
	}
	j, err := NewJoint(golden, k, u)
	if err != nil {
		t.Fatal(err)
	}
	rows := u.Rows(k)
	dirs := make([]dist.Dirichlet, len(rows))
	for i, r := range rows {
		dirs[i] = dist.NewDirichlet(r)
	}
	theta := make([]float64, j.Dim())
	const n = 200000
	var s, s2 float64
	for range n {
		off := 0
		for _, dd := range dirs {
			dd.Rand(theta[off:off+len(dd.Alpha)], rnd)
			off += len(dd.Alpha)
		}
		l := math.Exp(j.LogLik(theta))
		s += l
		s2 += l * l
	}
	mean := s / n
	se := math.Sqrt((s2/n-mean*mean)/(n-1)) / mean
	if got := math.Log(mean); math.Abs(got-want) > 3*se {
		t.Fatalf("Monte Carlo ln p(y|m) = %.5f ± %.5f, enumeration %.5f", got, se, want)
	}
}

func TestExactLogEvidenceBoundsF(t *testing.T) {
	// F ≤ ln p(y|m) for every converged VB run (targets §1.5 item 5),
	// here with k = 3 and the exact value from the enumeration.
	rnd := rand.New(rand.NewPCG(25, 1))
	d := randomData(rnd, 3, 3, 3, 4)
	u := SymmetricPrior(3, 3, 3, 3, 3)
	exact, err := ExactLogEvidence(d, 3, u)
	if err != nil {
		t.Fatal(err)
	}
	for seed := 0; seed < 5; seed++ {
		w := PosteriorFromParams(RandomParams(3, 3, rnd), 10, 1e-10)
		_, r := runVB(t, d, u, w, vb.Settings{MaxIterations: 2000, RelTol: 1e-10})
		if r.F > exact {
			t.Fatalf("restart %d: F = %.12f above ln p(y|m) = %.12f", seed, r.F, exact)
		}
	}
}

func TestExactLogEvidenceErrors(t *testing.T) {
	long := Data{P: 2, Seqs: [][]int{make([]int, 17)}}
	if n, ok := EvidencePaths(3, long.Symbols()); ok || n < MaxEvidencePaths/3 {
		t.Errorf("3^17 paths: EvidencePaths = %d, %v; want > limit", n, ok)
	}
	if _, err := ExactLogEvidence(long, 3, SymmetricPrior(3, 2, 1, 1, 1)); err == nil || !strings.Contains(err.Error(), "MaxEvidencePaths") {
		t.Errorf("3^17 paths: error %v", err)
	}
	if n, ok := EvidencePaths(2, 26); !ok || n != 1<<26 {
		t.Errorf("2^26 paths: EvidencePaths = %d, %v; want 2^26, true", n, ok)
	}
	if n, ok := EvidencePaths(2, 27); ok || n != 1<<26 {
		t.Errorf("2^27 paths: EvidencePaths = %d, %v; want the partial product 2^26, false", n, ok)
	}
	if n, ok := EvidencePaths(1, 1<<40); !ok || n != 1 {
		t.Errorf("k = 1: EvidencePaths = %d, %v", n, ok)
	}
	if _, err := ExactLogEvidence(golden, 2, SymmetricPrior(3, 2, 1, 1, 1)); err == nil {
		t.Error("prior of the wrong size accepted")
	}
	if _, err := ExactLogEvidence(Data{P: 2, Seqs: [][]int{{0, 2}}}, 2, SymmetricPrior(2, 2, 1, 1, 1)); err == nil {
		t.Error("symbol outside the alphabet accepted")
	}
	if _, err := ExactLogEvidence(golden, 0, Prior{}); err == nil {
		t.Error("k = 0 accepted")
	}
}

func BenchmarkExactLogEvidenceK3T15(b *testing.B) {
	d := randomData(rand.New(rand.NewPCG(26, 1)), 3, 3, 5, 5)
	u := SymmetricPrior(3, 3, 4, 4, 4)
	for b.Loop() {
		if _, err := ExactLogEvidence(d, 3, u); err != nil {
			b.Fatal(err)
		}
	}
}
