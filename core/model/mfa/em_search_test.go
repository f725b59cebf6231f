package mfa

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"

	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// mlDenseLogPdf returns ln N(y | μ^s, Λ^sΛ^sᵀ + Ψ) of m from a dense
// covariance (gonum's distmv), the reference for the Woodbury form.
func mlDenseLogPdf(t *testing.T, m *EM, s int, y []float64) float64 {
	t.Helper()
	p := len(y)
	c := mat.NewSymDense(p, nil)
	if m.k > 0 {
		c.SymOuterK(1, m.Lambda[s])
	}
	for q := 0; q < p; q++ {
		c.SetSym(q, q, c.At(q, q)+m.Psi[q])
	}
	nd, ok := distmv.NewNormal(m.Mu[s], c, nil)
	if !ok {
		t.Fatalf("analyser %d: covariance not positive definite", s)
	}
	return nd.LogProb(y)
}

// mlDenseLogDensity is ln Σ_s π_s N(y | μ^s, C_s) by distmv.
func mlDenseLogDensity(t *testing.T, m *EM, y []float64) float64 {
	t.Helper()
	mx, terms := math.Inf(-1), make([]float64, len(m.Pi))
	for s := range m.Pi {
		terms[s] = math.Log(m.Pi[s]) + mlDenseLogPdf(t, m, s, y)
		mx = math.Max(mx, terms[s])
	}
	var sum float64
	for _, v := range terms {
		sum += math.Exp(v - mx)
	}
	return mx + math.Log(sum)
}

// TestEMBICObjective: with Objective = BICObjective, E returns F =
// ln p(y|θ) − (D/2) ln n (eq. 4.88) as the two named terms, D of eq. 4.89;
// the log-likelihood objective is F = ln p(y|θ) alone, at the same
// parameters.
func TestEMBICObjective(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 1))
	y := mlData(rnd, [][]float64{{0, 0, 0, 0}, {8, 6, 0, 2}}, 50)
	n, p := y.Dims()
	for _, c := range []struct{ S, k int }{{1, 0}, {2, 1}, {3, 2}} {
		m, err := NewEM(y, c.S, c.k, 1e-5, rand.New(rand.NewPCG(12, uint64(c.S))))
		if err != nil {
			t.Fatal(err)
		}
		r := vb.Run(m, vb.Settings{MaxIterations: 5})
		if r.Error() != nil {
			t.Fatal(r.Error())
		}
		ll, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		m.Objective = BICObjective
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		d := c.S - 1 + p + c.S*(p+p*c.k-c.k*(c.k-1)/2)
		pen := -float64(d) / 2 * math.Log(float64(n))
		if len(ll.Terms) != 1 || ll.Terms[0].Name != TermLogLik || ll.F != ll.Terms[0].Value || ll.F != m.LogLik() {
			t.Errorf("S=%d k=%d: log-likelihood objective %+v, LogLik %v", c.S, c.k, ll, m.LogLik())
		}
		if len(b.Terms) != 2 || b.Terms[0].Name != TermLogLik || b.Terms[1].Name != TermBICPenalty {
			t.Fatalf("S=%d k=%d: BIC terms %+v", c.S, c.k, b.Terms)
		}
		if b.Terms[0].Value != ll.F || math.Abs(b.Terms[1].Value-pen) > 1e-12*math.Abs(pen) {
			t.Errorf("S=%d k=%d: terms %+v, want ln p %v and penalty %v", c.S, c.k, b.Terms, ll.F, pen)
		}
		if sum := b.Terms[0].Value + b.Terms[1].Value; math.Abs(sum-b.F) > 1e-12*math.Abs(b.F) || math.Abs(b.F-m.BIC()) > 1e-12*math.Abs(b.F) {
			t.Errorf("S=%d k=%d: F %v, Σ terms %v, BIC() %v", c.S, c.k, b.F, sum, m.BIC())
		}
	}
}

// TestEMBICMonotone: EM with the BIC objective under vb.Run (its terms
// checked at every step by the driver) never lowers F, and F − ln p(y|θ)
// stays the constant penalty, with the default stop rule and with the
// epoch rule.
func TestEMBICMonotone(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 1))
	y := mlData(rnd, [][]float64{{0, 0, 0, 0}, {8, 6, 0, 2}, {0, 7, 7, 0}}, 60)
	for _, S := range []int{1, 2, 4} {
		for _, k := range []int{0, 1, 2} {
			m, err := NewEM(y, S, k, 1e-5, rand.New(rand.NewPCG(uint64(S), uint64(k))))
			if err != nil {
				t.Fatal(err)
			}
			m.Objective = BICObjective
			for _, conv := range []vb.Converger{nil, m.EpochConverger(0, 0, 2)} {
				r := vb.Run(m, vb.Settings{MaxIterations: 300, RelTol: 1e-12, AbsTol: -1, MonotoneTol: 1e-12, Converger: conv})
				if err := r.Error(); err != nil {
					t.Fatalf("S=%d k=%d: %v", S, k, err)
				}
				vbtest.CheckMonotone(t, r.Trace.F, 1e-12)
				for i, f := range r.Trace.F {
					ll, _ := r.Trace.Term(i, TermLogLik)
					if math.Abs(f-ll-m.BICPenalty()) > 1e-9*math.Abs(f) {
						t.Fatalf("S=%d k=%d iteration %d: F − ln p = %v, penalty %v", S, k, i, f-ll, m.BICPenalty())
					}
				}
			}
		}
	}
}

// TestEMStartOneAnalyser: NewEM with S = 1 starts at the probabilistic PCA
// solution of all the data (mean, top-k eigenvectors, σ² the mean trailing
// eigenvalue), so the first E step gives its closed-form log-likelihood
// −(n/2)[p ln 2π + Σ_{l≤k} ln e_l + (p−k) ln σ² + p], and EM then raises it
// (the factor analyser's ML is at least PPCA's).
func TestEMStartOneAnalyser(t *testing.T) {
	rnd := rand.New(rand.NewPCG(14, 1))
	y := mlData(rnd, [][]float64{{0, 0, 0, 0, 0}, {5, 3, 0, 2, 1}}, 80)
	n, p := y.Dims()
	var cov mat.SymDense
	mean := make([]float64, p)
	for i := 0; i < n; i++ {
		for q := range mean {
			mean[q] += y.At(i, q) / float64(n)
		}
	}
	cen := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for q := range mean {
			cen.Set(i, q, y.At(i, q)-mean[q])
		}
	}
	cov.SymOuterK(1/float64(n), cen.T())
	var eig mat.EigenSym
	if !eig.Factorize(&cov, false) {
		t.Fatal("eigendecomposition failed")
	}
	vals := eig.Values(nil)
	slices.Sort(vals)
	slices.Reverse(vals)
	for _, k := range []int{1, 2} {
		m, err := NewEM(y, 1, k, 1e-5, rand.New(rand.NewPCG(15, uint64(k))))
		if err != nil {
			t.Fatal(err)
		}
		var sig2, sumLn float64
		for _, v := range vals[k:] {
			sig2 += v / float64(p-k)
		}
		for _, v := range vals[:k] {
			sumLn += math.Log(v)
		}
		want := -float64(n) / 2 * (float64(p)*math.Log(2*math.Pi) + sumLn + float64(p-k)*math.Log(sig2) + float64(p))
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(b.F-want) > 1e-9*math.Abs(want) {
			t.Errorf("k=%d: first ln p %v, PPCA closed form %v", k, b.F, want)
		}
		for q := range mean {
			if math.Abs(m.Mu[0][q]-mean[q]) > 1e-12 {
				t.Errorf("k=%d: μ_%d = %v, sample mean %v", k, q, m.Mu[0][q], mean[q])
			}
		}
		m.M()
		r := vb.Run(m, vb.Settings{MaxIterations: 200})
		if r.Error() != nil {
			t.Fatal(r.Error())
		}
		if !(r.F > want) {
			t.Errorf("k=%d: EM from the PCA start ended at %v, below the start %v", k, r.F, want)
		}
	}
}

// TestEMDensity checks the Woodbury/determinant-lemma density against a
// dense multivariate normal (distmv) on random parameters, the sum of
// LogDensity over the data against E's log-likelihood, and that
// Density.LogDensity does not allocate.
func TestEMDensity(t *testing.T) {
	rnd := rand.New(rand.NewPCG(16, 1))
	y := mlData(rnd, [][]float64{{0, 0, 0, 0}, {3, 1, 0, 2}}, 20)
	for _, k := range []int{0, 1, 3} {
		m, err := NewEM(y, 3, k, 1e-5, rand.New(rand.NewPCG(17, uint64(k))))
		if err != nil {
			t.Fatal(err)
		}
		// Random parameters, far from any fit.
		for s := range m.Pi {
			m.Pi[s] = 0.2 + rnd.Float64()
			for q := range m.Mu[s] {
				m.Mu[s][q] = 2 * rnd.NormFloat64()
			}
			for q := 0; q < 4 && k > 0; q++ {
				for l := 0; l < k; l++ {
					m.Lambda[s].Set(q, l, rnd.NormFloat64())
				}
			}
		}
		tot := m.Pi[0] + m.Pi[1] + m.Pi[2]
		for s := range m.Pi {
			m.Pi[s] /= tot
		}
		for q := range m.Psi {
			m.Psi[q] = 0.05 + rnd.Float64()
		}
		d, err := m.Density()
		if err != nil {
			t.Fatal(err)
		}
		pt := make([]float64, 4)
		for trial := 0; trial < 20; trial++ {
			for q := range pt {
				pt[q] = 3 * rnd.NormFloat64()
			}
			got, want := d.LogDensity(pt), mlDenseLogDensity(t, m, pt)
			if math.Abs(got-want) > 1e-11*math.Max(1, math.Abs(want)) {
				t.Errorf("k=%d: LogDensity %v, dense %v", k, got, want)
			}
			if m.LogDensity(pt) != got {
				t.Errorf("k=%d: (*EM).LogDensity %v, Density.LogDensity %v", k, m.LogDensity(pt), got)
			}
		}
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for i := 0; i < y.RawMatrix().Rows; i++ {
			sum += mlDenseLogDensity(t, m, y.RawRowView(i))
		}
		if math.Abs(b.F-sum) > 1e-11*math.Abs(sum) {
			t.Errorf("k=%d: E's ln p %v, Σ_i dense ln p(y_i) %v", k, b.F, sum)
		}
		if a := testing.AllocsPerRun(50, func() { d.LogDensity(pt) }); a != 0 {
			t.Errorf("k=%d: Density.LogDensity allocates %v times per call", k, a)
		}
	}
}

// TestEMLocalKL checks J_s (targets §2 item 1) against a direct computation
// with distmv, and the parent order on a constructed case: analysers of
// covariances diag(0.02, 0.01) (100 points), diag(9.01, 0.01) (100 points)
// and diag(1.01, 0.01) (20 points), each holding the points drawn from its
// own density, so that J_s ≈ −ln N_s + (differential entropy of the
// analyser) ≈ −6.0, −3.0 and −2.5: the order [2 1 0], which neither
// ascending N_s ([2 0 1]) nor the worst mean log-density ([1 2 0]) gives.
func TestEMLocalKL(t *testing.T) {
	rnd := rand.New(rand.NewPCG(18, 1))
	sizes := []int{100, 100, 20}
	sd := []float64{0.1, 3, 1}
	centres := [][]float64{{0, 0}, {0, 5}, {20, 0}}
	n := sizes[0] + sizes[1] + sizes[2]
	y := mat.NewDense(n, 2, nil)
	labels := make([]int, 0, n)
	for s, sz := range sizes {
		for j := 0; j < sz; j++ {
			i := len(labels)
			y.Set(i, 0, centres[s][0]+math.Sqrt(sd[s]*sd[s]+0.01)*rnd.NormFloat64())
			y.Set(i, 1, centres[s][1]+0.1*rnd.NormFloat64())
			labels = append(labels, s)
		}
	}
	m, err := NewEM(y, 3, 1, 1e-5, rand.New(rand.NewPCG(19, 1)))
	if err != nil {
		t.Fatal(err)
	}
	m.Psi = []float64{0.01, 0.01}
	for s := range m.Pi {
		m.Pi[s] = float64(sizes[s]) / float64(n)
		copy(m.Mu[s], centres[s])
		m.Lambda[s].Set(0, 0, sd[s])
		m.Lambda[s].Set(1, 0, 0)
	}
	m.resp.Zero()
	for i, s := range labels {
		m.resp.Set(i, s, 1)
	}
	direct := func() []float64 {
		js := make([]float64, 3)
		for s := range js {
			var ns float64
			for i := 0; i < n; i++ {
				ns += m.resp.At(i, s)
			}
			for i := 0; i < n; i++ {
				if w := m.resp.At(i, s) / ns; w > 0 {
					js[s] += w * (math.Log(w) - mlDenseLogPdf(t, m, s, y.RawRowView(i)))
				}
			}
		}
		return js
	}
	js, want := m.LocalKL(), direct()
	for s := range js {
		if math.Abs(js[s]-want[s]) > 1e-10*math.Max(1, math.Abs(want[s])) {
			t.Errorf("hard responsibilities: J_%d = %v, direct %v", s, js[s], want[s])
		}
	}
	if o := m.ParentOrder(); !slices.Equal(o, []int{2, 1, 0}) {
		t.Errorf("parent order %v (J = %v), want [2 1 0]", o, js)
	}
	// Soft responsibilities of an E step at the same parameters.
	if _, err := m.E(); err != nil {
		t.Fatal(err)
	}
	js, want = m.LocalKL(), direct()
	for s := range js {
		if math.Abs(js[s]-want[s]) > 1e-10*math.Max(1, math.Abs(want[s])) {
			t.Errorf("soft responsibilities: J_%d = %v, direct %v", s, js[s], want[s])
		}
	}
	// An analyser without responsibility comes last.
	for i := 0; i < n; i++ {
		m.resp.Set(i, 0, 0)
	}
	if js := m.LocalKL(); !math.IsInf(js[0], -1) || m.ParentOrder()[2] != 0 {
		t.Errorf("empty analyser: J = %v, order %v", js, m.ParentOrder())
	}
}

// TestEMSaveRestore: Restore puts back the state exactly: after a birth and
// an epoch, the restored model's next E step gives bit for bit the F of the
// run that ended before the Save, and the same parameters; a snapshot can
// be restored twice and does not share memory with the model.
func TestEMSaveRestore(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 1))
	y := mlData(rnd, [][]float64{{0, 0, 0, 0}, {8, 6, 0, 2}}, 60)
	m, err := NewEM(y, 1, 2, 1e-5, rand.New(rand.NewPCG(21, 1)))
	if err != nil {
		t.Fatal(err)
	}
	m.Objective = BICObjective
	m.Moves = EMMoveSettings{Rand: rand.New(rand.NewPCG(22, 1))}
	r0 := vb.Run(m, vb.Settings{MaxIterations: 50})
	if r0.Error() != nil {
		t.Fatal(r0.Error())
	}
	snap := m.Save()
	params := func() []float64 {
		var v []float64
		v = append(v, m.Pi...)
		v = append(v, m.Psi...)
		for s := range m.Pi {
			v = append(v, m.Mu[s]...)
			v = append(v, m.Lambda[s].RawMatrix().Data...)
		}
		return append(v, m.resp.RawMatrix().Data...)
	}
	before := params()
	for round := 0; round < 2; round++ {
		// Round 1 starts from a changed model: the snapshot must hold.
		m.Restore(snap)
		if err := m.Apply(vb.Move{Kind: MoveBirth, Component: 0, Other: -1}); err != nil {
			t.Fatal(err)
		}
		r := vb.Run(m, vb.Settings{MaxIterations: 20})
		if r.Error() != nil || m.Size() != 2 {
			t.Fatalf("round %d: after the birth: %v, S = %d", round, r.Error(), m.Size())
		}
		m.Restore(snap)
		if m.Size() != 1 || !slices.Equal(params(), before) {
			t.Fatalf("round %d: the restored state differs", round)
		}
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		if b.F != r0.F {
			t.Fatalf("round %d: F after Restore %v, before the birth %v", round, b.F, r0.F)
		}
		m.M()
		m.Pi[0], m.Psi[0] = 0.5, 7
	}
}

// TestEMAgitation checks the conventions of EM.Agitation: 1 before the
// first E step, eq. (4.72) between two E steps, 1 again after a birth or a
// Restore until the second E step that follows it.
func TestEMAgitation(t *testing.T) {
	rnd := rand.New(rand.NewPCG(23, 1))
	y := mlData(rnd, [][]float64{{0, 0, 0}, {3, 3, 0}}, 30)
	m, err := NewEM(y, 2, 1, 1e-5, rand.New(rand.NewPCG(24, 1)))
	if err != nil {
		t.Fatal(err)
	}
	m.Moves = EMMoveSettings{Rand: rand.New(rand.NewPCG(25, 1))}
	allOnes := func(ag []float64) bool {
		return !slices.ContainsFunc(ag, func(v float64) bool { return v != 1 })
	}
	if ag := m.Agitation(nil); len(ag) != 2 || !allOnes(ag) {
		t.Fatalf("before any E step: %v", ag)
	}
	prev := mat.DenseCopyOf(m.Resp())
	if _, err := m.E(); err != nil {
		t.Fatal(err)
	}
	ag := m.Agitation(nil)
	for s := 0; s < 2; s++ {
		var num, den float64
		for i := 0; i < y.RawMatrix().Rows; i++ {
			num += math.Abs(m.Resp().At(i, s) - prev.At(i, s))
			den += m.Resp().At(i, s)
		}
		if math.Abs(ag[s]-num/den) > 1e-14 {
			t.Errorf("ag(%d) = %v, eq. 4.72 gives %v", s, ag[s], num/den)
		}
	}
	if num := ag[0] + ag[1]; !(num > 0) {
		t.Fatalf("the responsibilities did not move (%v): the check has no power", ag)
	}
	snap := m.Save()
	if err := m.Apply(vb.Move{Kind: MoveBirth, Component: 1, Other: -1}); err != nil {
		t.Fatal(err)
	}
	for _, step := range []string{"after the birth", "one E step after the birth"} {
		if ag := m.Agitation(nil); len(ag) != 3 || !allOnes(ag) {
			t.Fatalf("%s: %v", step, ag)
		}
		if _, err := m.E(); err != nil {
			t.Fatal(err)
		}
	}
	if ag := m.Agitation(nil); allOnes(ag) {
		t.Errorf("two E steps after the birth: %v", ag)
	}
	m.Restore(snap)
	if ag := m.Agitation(nil); len(ag) != 2 || !allOnes(ag) {
		t.Errorf("after Restore: %v", ag)
	}
}

// TestEMPropose checks the max_tries bookkeeping (targets §1.9): births
// from every analyser in ParentOrder, round after round, MaxTries rounds
// after the last acceptance, none without EMMoveSettings.Rand.
func TestEMPropose(t *testing.T) {
	rnd := rand.New(rand.NewPCG(26, 1))
	y := mlData(rnd, [][]float64{{0, 0, 0}, {3, 3, 0}, {0, 4, 4}}, 30)
	m, err := NewEM(y, 3, 1, 1e-5, rand.New(rand.NewPCG(27, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.E(); err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Propose(nil); ok {
		t.Fatal("a move without EMMoveSettings.Rand")
	}
	m.Moves = EMMoveSettings{Rand: rand.New(rand.NewPCG(28, 1)), MaxTries: 2}
	order := m.ParentOrder()
	log := []vb.MoveRecord{{Move: vb.Move{Kind: MoveBirth, Component: 2, Other: -1}, Accepted: true}}
	for try := 0; try < 6; try++ {
		mv, ok := m.Propose(log)
		if !ok || mv.Kind != MoveBirth || mv.Component != order[try%3] {
			t.Fatalf("try %d: %v %v, want a birth from %d", try, mv, ok, order[try%3])
		}
		log = append(log, vb.MoveRecord{Move: mv})
	}
	if mv, ok := m.Propose(log); ok {
		t.Fatalf("a seventh try %v with MaxTries = 2 and S = 3", mv)
	}
	log[len(log)-1].Accepted = true
	if mv, ok := m.Propose(log); !ok || mv.Component != order[0] {
		t.Fatalf("after an acceptance: %v %v, want a birth from %d", mv, ok, order[0])
	}
}

// TestEMSingularities: NewEM refuses a Ψ floor that is not positive; a
// birth whose child would hold fewer than k+1 points is refused (the model
// unchanged), and vb.Search logs it as a failed try and goes on; an E step
// on parameters that are not finite is an error, not a NaN F.
func TestEMSingularities(t *testing.T) {
	rnd := rand.New(rand.NewPCG(29, 1))
	y := mlData(rnd, [][]float64{{0, 0, 0}}, 40)
	for _, psiMin := range []float64{0, -1, math.NaN()} {
		if _, err := NewEM(y, 1, 1, psiMin, rnd); err == nil {
			t.Errorf("NewEM accepted psiMin = %v", psiMin)
		}
	}
	// Three points far from the rest: analyser 1 holds only them, so any
	// split leaves a child with at most one point and a half.
	n := y.RawMatrix().Rows
	for i := 0; i < 3; i++ {
		y.SetRow(i, []float64{30 + rnd.NormFloat64(), 30 + rnd.NormFloat64(), 30 + rnd.NormFloat64()})
	}
	m, err := NewEM(y, 2, 1, 1e-5, rand.New(rand.NewPCG(30, 1)))
	if err != nil {
		t.Fatal(err)
	}
	m.resp.Zero()
	for i := 0; i < n; i++ {
		if i < 3 {
			m.resp.Set(i, 1, 1)
		} else {
			m.resp.Set(i, 0, 1)
		}
	}
	m.M()
	m.Objective = BICObjective
	m.Moves = EMMoveSettings{Rand: rand.New(rand.NewPCG(31, 1))}
	if _, err := m.E(); err != nil {
		t.Fatal(err)
	}
	if ns := m.Pi[1] * float64(n); math.Abs(ns-3) > 1e-6 {
		t.Fatalf("analyser 1 holds %v points, want the 3 outliers", ns)
	}
	before := m.Save().(*mlSnapshot)
	for try := 0; try < 10; try++ {
		err := m.Apply(vb.Move{Kind: MoveBirth, Component: 1, Other: -1})
		if err == nil {
			t.Fatal("a birth from an analyser of 3 points (k = 1) was accepted")
		}
		if m.Size() != 2 || !slices.Equal(m.Pi, before.pi) || !slices.Equal(m.Psi, before.psi) {
			t.Fatal("a refused birth changed the model")
		}
	}
	// One E step per run, so that the outliers' analyser stays small: the
	// refused births are logged as failed tries and the search goes on.
	res := vb.Search(m, vb.SearchSettings{Run: vb.Settings{MaxIterations: 1}, MaxMoves: 10})
	if res.Err != nil || math.IsNaN(res.F) || math.IsInf(res.F, 0) {
		t.Fatalf("search: F = %v, %v", res.F, res.Err)
	}
	failed := -1
	for j, mv := range res.Moves {
		if mv.Err != nil {
			if !errors.Is(mv.Err, vb.ErrMove) || !math.IsNaN(mv.FAfter) || mv.Accepted {
				t.Errorf("move %d logged as %+v", j, mv)
			}
			failed = j
		}
	}
	if failed < 0 || failed == len(res.Moves)-1 {
		t.Errorf("no refused birth followed by another try in %d moves: %+v", len(res.Moves), res.Moves)
	}
	m.Psi[0] = math.NaN()
	if b, err := m.E(); err == nil {
		t.Errorf("E with ψ_0 = NaN returned F = %v and no error", b.F)
	}
	m.Psi[0] = 1
	m.Lambda[0].Set(0, 0, math.Inf(1))
	if b, err := m.E(); err == nil {
		t.Errorf("E with an infinite loading returned F = %v and no error", b.F)
	}
}

// TestEMKeptAnalyser: an analyser with almost no responsibility (π = 1e-200,
// so N_s < 1e-10) keeps its mean and loadings in M, and EM, with Ψ then a
// conditional maximisation, still never lowers the likelihood.
func TestEMKeptAnalyser(t *testing.T) {
	rnd := rand.New(rand.NewPCG(32, 1))
	y := mlData(rnd, [][]float64{{0, 0, 0}, {6, 2, 0}}, 40)
	m, err := NewEM(y, 3, 1, 1e-5, rand.New(rand.NewPCG(33, 1)))
	if err != nil {
		t.Fatal(err)
	}
	m.Pi[2] = 1e-200
	mu, lam := slices.Clone(m.Mu[2]), mat.DenseCopyOf(m.Lambda[2])
	r := vb.Run(m, vb.Settings{MaxIterations: 200, RelTol: 1e-12, AbsTol: -1, MonotoneTol: 1e-12})
	if r.Error() != nil {
		t.Fatal(r.Error())
	}
	vbtest.CheckMonotone(t, r.Trace.F, 1e-12)
	if !(m.Pi[2] > 0 && m.Pi[2] < 1e-100) || !slices.Equal(m.Mu[2], mu) || !mat.Equal(m.Lambda[2], lam) {
		t.Errorf("the empty analyser: π = %v, μ changed %v, Λ changed %v", m.Pi[2], !slices.Equal(m.Mu[2], mu), !mat.Equal(m.Lambda[2], lam))
	}
}

// TestEMResidualSq: the expected squared residual of a kept analyser is, at
// the M step's Λ̃ = BA⁻¹, the short form Σ r y² − (Λ̃Bᵀ)_qq, and larger at
// any other Λ̃ (it is a quadratic minimised there).
func TestEMResidualSq(t *testing.T) {
	rnd := rand.New(rand.NewPCG(37, 1))
	const p, K, n = 4, 3, 30
	A, B := mat.NewDense(K, K, nil), mat.NewDense(p, K, nil)
	yy := make([]float64, p)
	for i := 0; i < n; i++ {
		r := rnd.Float64()
		x := []float64{rnd.NormFloat64(), rnd.NormFloat64(), 1}
		y := make([]float64, p)
		for q := range y {
			y[q] = rnd.NormFloat64() + x[0]
			yy[q] += r * y[q] * y[q]
			for a := 0; a < K; a++ {
				B.Set(q, a, B.At(q, a)+r*y[q]*x[a])
			}
		}
		for a := 0; a < K; a++ {
			for b := 0; b < K; b++ {
				A.Set(a, b, A.At(a, b)+r*x[a]*x[b])
			}
		}
	}
	var ainv, lt mat.Dense
	if err := ainv.Inverse(A); err != nil {
		t.Fatal(err)
	}
	lt.Mul(B, &ainv)
	got := make([]float64, p)
	addResidualSq(got, yy, &lt, A, B)
	for q := range got {
		want := yy[q] - floats.Dot(lt.RawRowView(q), B.RawRowView(q))
		if math.Abs(got[q]-want) > 1e-10*math.Abs(want) || !(want > 0) {
			t.Errorf("q=%d: %v, short form %v", q, got[q], want)
		}
	}
	lt.Set(1, 2, lt.At(1, 2)+0.1)
	moved := make([]float64, p)
	addResidualSq(moved, yy, &lt, A, B)
	if !(moved[1] > got[1]+1e-6) || moved[0] != got[0] {
		t.Errorf("after moving Λ̃_12: %v, at the optimum %v", moved, got)
	}
}
