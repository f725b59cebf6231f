package hmm

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

func TestFlatLayout(t *testing.T) {
	rnd := rand.New(rand.NewPCG(31, 1))
	θ := RandomParams(3, 4, rnd)
	flat := θ.FlatTo(nil)
	if len(flat) != ParamDim(3, 4) || ParamDim(3, 4) != 3+9+12 {
		t.Fatalf("flat length %d, ParamDim %d", len(flat), ParamDim(3, 4))
	}
	back := ParamsFromFlat(3, 4, flat)
	if !slices.Equal(back.Pi, θ.Pi) || !slices.Equal(back.A, θ.A) || !slices.Equal(back.C, θ.C) {
		t.Fatal("ParamsFromFlat(FlatTo(θ)) differs from θ")
	}
	// Rows come in the flat layout's order: their concatenation is the
	// flat vector of the posterior's pseudo-counts.
	w := PosteriorFromParams(θ, 7, 1e-10)
	var cat []float64
	for _, r := range w.Rows() {
		cat = append(cat, r...)
	}
	if want := (Params{K: 3, P: 4, Pi: w.Pi, A: w.A, C: w.C}).FlatTo(nil); !slices.Equal(cat, want) {
		t.Fatalf("Posterior.Rows in another order than the flat layout:\n%v\n%v", cat, want)
	}
	u := SymmetricPrior(3, 4, 1, 2, 3)
	rows := u.Rows(3)
	if len(rows) != 7 || !slices.Equal(rows[0], u.Pi) || !slices.Equal(rows[3], u.A) || !slices.Equal(rows[6], u.C) || len(rows[4]) != 4 {
		t.Fatalf("Prior.Rows = %v", rows)
	}
	if !panics(func() { θ.FlatTo(make([]float64, 5)) }) || !panics(func() { ParamsFromFlat(3, 4, flat[1:]) }) {
		t.Fatal("wrong flat lengths accepted")
	}
}

func TestJointLogProb(t *testing.T) {
	rnd := rand.New(rand.NewPCG(32, 1))
	d := randomData(rnd, 4, 3, 2, 9)
	k := 3
	u := randomPrior(rnd, k, 3)
	j, err := NewJoint(d, k, u)
	if err != nil {
		t.Fatal(err)
	}
	for trial := 0; trial < 5; trial++ {
		θ := RandomParams(k, 3, rnd)
		theta := θ.FlatTo(nil)
		// The prior with dist.Dirichlet.LogProb row by row, the likelihood
		// with Params.LogLik.
		lp := dist.NewDirichlet(u.Pi).LogProb(θ.Pi)
		for r := 0; r < k; r++ {
			lp += dist.NewDirichlet(u.A).LogProb(θ.A[r*k : (r+1)*k])
			lp += dist.NewDirichlet(u.C).LogProb(θ.C[r*3 : (r+1)*3])
		}
		if got := j.LogPrior(theta); math.Abs(got-lp) > 1e-12*math.Abs(lp) {
			t.Errorf("LogPrior = %.15g, Σ rows = %.15g", got, lp)
		}
		ll := θ.LogLik(d)
		if got := j.LogLik(theta); math.Abs(got-ll) > 1e-12*math.Abs(ll) {
			t.Errorf("LogLik = %.15g, Params.LogLik = %.15g", got, ll)
		}
		if got := j.LogProb(theta); math.Abs(got-(lp+ll)) > 1e-12*math.Abs(lp+ll) {
			t.Errorf("LogProb = %.15g, want %.15g", got, lp+ll)
		}
		if got := j.Clone().LogProb(theta); got != j.LogProb(theta) {
			t.Errorf("clone: %v, original %v", got, j.LogProb(theta))
		}
	}
	// Off the simplex: density zero.
	theta := RandomParams(k, 3, rnd).FlatTo(nil)
	theta[k+1] += 1e-6
	if lp := j.LogProb(theta); !math.IsInf(lp, -1) {
		t.Errorf("row of A summing to 1+1e-6: LogProb = %v, want −Inf", lp)
	}
	theta = RandomParams(k, 3, rnd).FlatTo(nil)
	theta[0], theta[1] = theta[0]+theta[1]+0.5, -0.5
	if lp := j.LogProb(theta); !math.IsInf(lp, -1) {
		t.Errorf("negative π entry: LogProb = %v, want −Inf", lp)
	}
	if !panics(func() { j.LogProb(theta[1:]) }) {
		t.Error("short θ accepted")
	}
	if _, err := NewJoint(d, 2, u); err == nil {
		t.Error("prior of the wrong size accepted")
	}
}

func TestJointIsPathSumOfConjugatePosteriors(t *testing.T) {
	// p(θ) p(y|θ) = Σ_s DM(u, n(s)) Π_rows Dir(θ_row | u + n_row(s)) for
	// every θ: the Dirichlet densities of the flat layout and the DM
	// marginals of ExactLogEvidence use one normalisation (and the forward
	// pass is checked against a sum over paths).
	rnd := rand.New(rand.NewPCG(33, 1))
	d := Data{P: 2, Seqs: [][]int{{0, 1, 1}, {1, 0}}}
	k := 2
	u := randomPrior(rnd, k, 2)
	j, err := NewJoint(d, k, u)
	if err != nil {
		t.Fatal(err)
	}
	θ := RandomParams(k, 2, rnd)
	var terms []float64
	for code := 0; code < 1<<5; code++ {
		states := []int{code & 1, code >> 1 & 1, code >> 2 & 1, code >> 3 & 1, code >> 4 & 1}
		n := NewParams(k, 2)
		pos := 0
		for _, y := range d.Seqs {
			for tt, m := range y {
				s := states[pos]
				if tt == 0 {
					n.Pi[s]++
				} else {
					n.A[states[pos-1]*k+s]++
				}
				n.C[s*2+m]++
				pos++
			}
		}
		post := func(alpha, counts []float64) dist.Dirichlet {
			return dist.NewDirichlet(dist.DirichletPosteriorTo(nil, alpha, counts, 1))
		}
		lt := dist.DirichletLogMarginalCounts(u.Pi, n.Pi) + post(u.Pi, n.Pi).LogProb(θ.Pi)
		for r := 0; r < k; r++ {
			a, c := n.A[r*k:(r+1)*k], n.C[r*2:(r+1)*2]
			lt += dist.DirichletLogMarginalCounts(u.A, a) + post(u.A, a).LogProb(θ.A[r*k:(r+1)*k])
			lt += dist.DirichletLogMarginalCounts(u.C, c) + post(u.C, c).LogProb(θ.C[r*2:(r+1)*2])
		}
		terms = append(terms, lt)
	}
	want := numeric.LogSumExp(terms)
	if got := j.LogProb(θ.FlatTo(nil)); math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Fatalf("LogProb = %.15g, path sum = %.15g", got, want)
	}
}

func TestJointDoesNotAllocate(t *testing.T) {
	rnd := rand.New(rand.NewPCG(34, 1))
	d := randomData(rnd, 3, 3, 5, 12)
	j, err := NewJoint(d, 3, SymmetricPrior(3, 3, 4, 4, 4))
	if err != nil {
		t.Fatal(err)
	}
	theta := RandomParams(3, 3, rnd).FlatTo(nil)
	j.LogProb(theta)
	if a := testing.AllocsPerRun(50, func() { j.LogProb(theta) }); a != 0 {
		t.Fatalf("LogProb allocates %v times per call", a)
	}
}

func TestRelabel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(35, 1))
	perms := StatePermutations(3)
	if len(perms) != 6 || !slices.Equal(perms[0], []int{0, 1, 2}) || !slices.Equal(perms[5], []int{2, 1, 0}) {
		t.Fatalf("StatePermutations(3) = %v", perms)
	}
	seen := map[[3]int]bool{}
	for _, p := range perms {
		seen[[3]int(p)] = true
	}
	if len(seen) != 6 {
		t.Fatalf("StatePermutations(3) repeats: %v", perms)
	}
	if n := len(StatePermutations(5)); n != 120 {
		t.Fatalf("5! = %d", n)
	}
	d := randomData(rnd, 3, 4, 4, 10)
	θ := RandomParams(3, 4, rnd)
	u := SymmetricPrior(3, 4, 2, 3, 4)
	j, err := NewJoint(d, 3, u)
	if err != nil {
		t.Fatal(err)
	}
	want := j.LogProb(θ.FlatTo(nil))
	w := PosteriorFromParams(θ, 5, 1e-10)
	m0 := NewVB(d, u, w)
	b0, _ := m0.E()
	for _, p := range perms {
		r := θ.Relabel(p)
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		// The likelihood and the symmetric prior are invariant.
		if got := j.LogProb(r.FlatTo(nil)); math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("perm %v: ln p*(θ′) = %.15g, ln p*(θ) = %.15g", p, got, want)
		}
		// Relabelling q relabels its mean, and leaves F unchanged.
		wr := w.Relabel(p)
		if m := wr.Mean(); !closeSlices(m.Pi, r.Pi) || !closeSlices(m.A, r.A) || !closeSlices(m.C, r.C) {
			t.Errorf("perm %v: mean of the relabelled q is not the relabelled mean", p)
		}
		b, _ := NewVB(d, u, wr).E()
		if math.Abs(b.F-b0.F) > 1e-12*math.Abs(b0.F) {
			t.Errorf("perm %v: F = %.15g, unrelabelled %.15g", p, b.F, b0.F)
		}
	}
	// State 0 → 2, 1 → 0, 2 → 1.
	r := θ.Relabel([]int{2, 0, 1})
	if r.Pi[2] != θ.Pi[0] || r.A[2*3+0] != θ.A[0*3+1] || r.C[1*4+3] != θ.C[2*4+3] {
		t.Error("Relabel does not rename state j to perm[j]")
	}
	if !panics(func() { θ.Relabel([]int{0, 0, 1}) }) || !panics(func() { w.Relabel([]int{0, 1}) }) || !panics(func() { StatePermutations(9) }) {
		t.Error("bad permutation accepted")
	}
}

func closeSlices(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-14 {
			return false
		}
	}
	return true
}

func panics(f func()) (ok bool) {
	defer func() { ok = recover() != nil }()
	f()
	return false
}
