package mfa_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distmv"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/vb"
)

// longForm evaluates the terms of F (Beal (2003) eq. (4.29), lines
// 2405–2419, as written out in targets ch4-mfa.md §1.4) from the model's
// exported q's and hyperparameters, independently of the model's code: the
// residual R^s_iq of every point, dimension and analyser by the long form
//
//	R = y_iq² − 2 y_iq m_qᵀx̃̄_i + tr[(m_q m_qᵀ + Γ_q)⟨x̃x̃ᵀ⟩_i],
//
// the KL divergences by the closed forms of targets §1.4 with gonum's
// digamma and log-determinants.
func longForm(m *mfa.VB) map[string]float64 {
	y := m.Data()
	n, p, S := m.N(), m.P(), m.Size()
	h := m.Hyper
	resp := m.Resp()
	omega := m.Pi().Alpha
	var w0 float64
	for _, w := range omega {
		w0 += w
	}
	t := map[string]float64{}

	// T_π = −KL(Dir(ω) ‖ Dir(α*/S)).
	a0 := h.Alpha / float64(S)
	kl := lgamma(w0) - lgamma(h.Alpha)
	for _, w := range omega {
		kl += -(lgamma(w) - lgamma(a0)) + (w-a0)*(mathext.Digamma(w)-mathext.Digamma(w0))
	}
	t[mfa.TermKLPi] = -kl

	for s := 0; s < S; s++ {
		rows := m.Loadings(s)
		k := m.Dim(s)
		d := k + 1
		nu := m.ARD(s)
		// T_ν.
		for _, g := range nu {
			a, b := g.Alpha, g.Beta
			kl := a*math.Log(b) - h.A*math.Log(h.B) - lgamma(a) + lgamma(h.A) +
				(a-h.A)*(mathext.Digamma(a)-math.Log(b)) - (b-h.B)*a/b
			t[mfa.TermKLNu] -= kl
		}
		// T_Λ.
		mean := rows.MeanTo(nil)
		covs := make([]*mat.SymDense, p)
		for q := 0; q < p; q++ {
			covs[q] = rows.CovarianceTo(nil, q)
			var chol mat.Cholesky
			if !chol.Factorize(covs[q]) {
				panic("covariance not positive definite")
			}
			var kl float64
			for l, g := range nu {
				kl += g.Alpha/g.Beta*(mean.At(q, l)*mean.At(q, l)+covs[q].At(l, l)) - (mathext.Digamma(g.Alpha) - math.Log(g.Beta))
			}
			dm := mean.At(q, k) - h.Mu[q]
			kl += h.Nu[q]*(dm*dm+covs[q].At(k, k)) - math.Log(h.Nu[q]) - chol.LogDet() - float64(d)
			t[mfa.TermKLLambda] -= 0.5 * kl
		}
		// Per point.
		xbar, sigma := m.Factors(s)
		var logDetSig, trSig float64
		if k > 0 {
			var chol mat.Cholesky
			if !chol.Factorize(sigma) {
				panic("Σ not positive definite")
			}
			logDetSig = chol.LogDet()
			trSig = mat.Trace(sigma)
		}
		xx := mat.NewSymDense(d, nil) // ⟨x̃x̃ᵀ⟩_i
		xt := make([]float64, d)
		for i := 0; i < n; i++ {
			r := resp.At(i, s)
			if r == 0 {
				continue
			}
			for l := 0; l < k; l++ {
				xt[l] = xbar.At(i, l)
			}
			xt[k] = 1
			for a := 0; a < d; a++ {
				for b := a; b < d; b++ {
					v := xt[a] * xt[b]
					if a < k && b < k {
						v += sigma.At(a, b)
					}
					xx.SetSym(a, b, v)
				}
			}
			t[mfa.TermLnPiS] += r * (mathext.Digamma(omega[s]) - mathext.Digamma(w0))
			t[mfa.TermHS] -= r * math.Log(r)
			t[mfa.TermKLX] += r * 0.5 * (float64(k) + logDetSig - trSig - dotN(xt[:k], xt[:k]))
			ty := -0.5 * float64(p) * math.Log(2*math.Pi)
			for q := 0; q < p; q++ {
				yq := y.At(i, q)
				mq := mean.RawRowView(q)
				var tr float64
				for a := 0; a < d; a++ {
					for b := 0; b < d; b++ {
						tr += (mq[a]*mq[b] + covs[q].At(a, b)) * xx.At(b, a)
					}
				}
				res := yq*yq - 2*yq*dotN(mq, xt) + tr
				ty -= 0.5*math.Log(h.Psi[q]) + 0.5*res/h.Psi[q]
			}
			t[mfa.TermLik] += r * ty
		}
	}
	return t
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

func dotN(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// toyModel returns a model of the toy problem of targets §1.13 items 5–6
// (S = 2, k = 1, p = 2) on n points from two clusters, after iters
// iterations of E, M and every hyperparameter group.
func toyModel(t *testing.T, n, iters int) *mfa.VB {
	t.Helper()
	y, labels := clusters(rand.New(rand.NewPCG(5, 6)), [][]float64{{-2, 0}, {2, 1}}, 1, n/2)
	m, err := mfa.NewVB(y, labelResp(labels, 2, 0.7), mfa.Settings{K: 1})
	if err != nil {
		t.Fatal(err)
	}
	for range iters {
		if _, err := m.E(); err != nil {
			t.Fatal(err)
		}
		m.M()
		for _, g := range m.HyperGroups() {
			m.UpdateHyper(g)
		}
	}
	return m
}

// TestBoundLongForm compares every named term of F, as E and Bound return
// it, with the long-form evaluation of eq. (4.29) at several states: right
// after E, after M (where F is Bound's), after each hyperparameter group,
// and with analysers of different k_s. A missing constant, a sign, the k_s/2
// or the tr Σ of the factors, or a wrong weighting of a term shows up here.
func TestBoundLongForm(t *testing.T) {
	check := func(t *testing.T, name string, m *mfa.VB, b vb.Bound) {
		t.Helper()
		want := longForm(m)
		var sum float64
		for _, term := range b.Terms {
			w, ok := want[term.Name]
			if !ok {
				t.Errorf("%s: unexpected term %q", name, term.Name)
				continue
			}
			if d := math.Abs(term.Value - w); d > 1e-10*math.Max(1, math.Abs(w)) {
				t.Errorf("%s: term %s = %.15g, long form %.15g (difference %.3g)", name, term.Name, term.Value, w, d)
			}
			sum += w
		}
		if len(b.Terms) != len(want) {
			t.Errorf("%s: %d terms, long form has %d", name, len(b.Terms), len(want))
		}
		if d := math.Abs(b.F - sum); d > 1e-10*math.Max(1, math.Abs(sum)) {
			t.Errorf("%s: F = %.15g, long form %.15g", name, b.F, sum)
		}
	}
	m := toyModel(t, 30, 3)
	b, err := m.E()
	if err != nil {
		t.Fatal(err)
	}
	check(t, "after E", m, b)
	m.M()
	check(t, "after M", m, m.Bound())
	for _, g := range m.HyperGroups() {
		m.UpdateHyper(g)
		check(t, "after UpdateHyper("+g+")", m, m.Bound())
	}

	y, labels := clusters(rand.New(rand.NewPCG(8, 9)), [][]float64{{0, 0, 0}, {5, 0, 0}, {0, 5, 0}}, 1, 10)
	m2, err := mfa.NewVB(y, labelResp(labels, 3, 0.6), mfa.Settings{Ks: []int{2, 0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		b, err := m2.E()
		if err != nil {
			t.Fatal(err)
		}
		check(t, "k=(2,0,1)", m2, b)
		m2.M()
		m2.UpdateHyper(mfa.HyperPsi)
	}
}

// TestBoundMonteCarlo checks F against a Monte Carlo estimate of its
// definition, E_q[ln p(y, s, x, π, ν, Λ̃) − ln q(s, x, π, ν, Λ̃)], with every
// variable drawn from q and every log-density evaluated by gonum's
// distributions (targets §1.13 item 6; toy problem n = 30, p = 2, S = 2,
// k = 1). It must agree within 4 standard errors; this catches a missing
// constant that the long form would share.
func TestBoundMonteCarlo(t *testing.T) {
	draws := 100000
	if testing.Short() {
		draws = 20000
	}
	m := toyModel(t, 30, 5)
	b, err := m.E()
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(21, 22))
	y := m.Data()
	n, p, S := m.N(), m.P(), m.Size()
	h := m.Hyper
	resp := m.Resp()
	piQ := m.Pi()
	prior := make([]float64, S)
	for s := range prior {
		prior[s] = h.Alpha / float64(S)
	}
	piP := distmv.NewDirichlet(prior, nil)
	piQd := distmv.NewDirichlet(piQ.Alpha, nil)

	type comp struct {
		k      int
		nu     []distuv.Gamma
		rowsQ  []*distmv.Normal
		xbar   *mat.Dense
		xq     *distmv.Normal // q(x|s) with mean 0 (shifted per point)
		stdNrm *distmv.Normal
	}
	comps := make([]comp, S)
	for s := range comps {
		c := &comps[s]
		c.k = m.Dim(s)
		for _, g := range m.ARD(s) {
			c.nu = append(c.nu, distuv.Gamma{Alpha: g.Alpha, Beta: g.Beta, Src: rnd})
		}
		rows := m.Loadings(s)
		for q := 0; q < p; q++ {
			mu := rows.RowMeanTo(nil, q)
			nq, ok := distmv.NewNormal(mu, rows.CovarianceTo(nil, q), rnd)
			if !ok {
				t.Fatal("row covariance not positive definite")
			}
			c.rowsQ = append(c.rowsQ, nq)
		}
		var sig *mat.SymDense
		c.xbar, sig = m.Factors(s)
		zero := make([]float64, c.k)
		var ok bool
		if c.xq, ok = distmv.NewNormal(zero, sig, rnd); !ok {
			t.Fatal("Σ not positive definite")
		}
		eye := mat.NewSymDense(c.k, nil)
		for l := 0; l < c.k; l++ {
			eye.SetSym(l, l, 1)
		}
		c.stdNrm, _ = distmv.NewNormal(zero, eye, nil)
	}

	vals := make([]float64, draws)
	pi := make([]float64, S)
	for it := range vals {
		var v float64
		piQd.Rand(pi)
		v += piP.LogProb(pi) - piQd.LogProb(pi)
		lam := make([][][]float64, S) // lam[s][q] = Λ̃^s_q
		for s := range comps {
			c := &comps[s]
			nus := make([]float64, c.k)
			for l, g := range c.nu {
				nus[l] = g.Rand()
				prior := distuv.Gamma{Alpha: h.A, Beta: h.B}
				v += prior.LogProb(nus[l]) - g.LogProb(nus[l])
			}
			lam[s] = make([][]float64, p)
			for q := 0; q < p; q++ {
				row := c.rowsQ[q].Rand(nil)
				lam[s][q] = row
				v -= c.rowsQ[q].LogProb(row)
				for l := 0; l < c.k; l++ {
					v += distuv.Normal{Mu: 0, Sigma: 1 / math.Sqrt(nus[l])}.LogProb(row[l])
				}
				v += distuv.Normal{Mu: h.Mu[q], Sigma: 1 / math.Sqrt(h.Nu[q])}.LogProb(row[c.k])
			}
		}
		for i := 0; i < n; i++ {
			u := rnd.Float64()
			s := 0
			for acc := resp.At(i, 0); u > acc && s < S-1; {
				s++
				acc += resp.At(i, s)
			}
			c := &comps[s]
			v += math.Log(pi[s]) - math.Log(resp.At(i, s))
			dev := c.xq.Rand(nil)
			x := make([]float64, c.k+1)
			for l := 0; l < c.k; l++ {
				x[l] = c.xbar.At(i, l) + dev[l]
			}
			x[c.k] = 1
			v += c.stdNrm.LogProb(x[:c.k]) - c.xq.LogProb(dev)
			for q := 0; q < p; q++ {
				v += distuv.Normal{Mu: dotN(lam[s][q], x), Sigma: math.Sqrt(h.Psi[q])}.LogProb(y.At(i, q))
			}
		}
		vals[it] = v
	}
	var mean, sq float64
	for _, v := range vals {
		mean += v
	}
	mean /= float64(draws)
	for _, v := range vals {
		sq += (v - mean) * (v - mean)
	}
	se := math.Sqrt(sq / float64(draws-1) / float64(draws))
	t.Logf("F = %.4f, Monte Carlo %.4f ± %.4f (%d draws)", b.F, mean, se, draws)
	if math.Abs(mean-b.F) > 4*se {
		t.Errorf("F = %.6f differs from its Monte Carlo estimate %.6f by more than 4 standard errors (%.4f)", b.F, mean, se)
	}
}

// TestReferencePenalty checks Settings.ReferencePenalty: at every iteration
// of the same run (deaths off, so that S stays 3) F is eq. (4.29) less
// p(k_s+1) per analyser, reported as the term TermRefPenalty, and every
// other term is bit for bit that of the model without the penalty (the
// penalty changes no update).
func TestReferencePenalty(t *testing.T) {
	y, labels := clusters(rand.New(rand.NewPCG(31, 32)), [][]float64{{0, 0, 0}, {6, 0, 1}, {0, 6, -1}}, 1, 20)
	ks := []int{2, 0, 1}
	run := func(penalty bool) vb.Result {
		m, err := mfa.NewVB(y, labelResp(labels, 3, 0.8), mfa.Settings{Ks: ks, ReferencePenalty: penalty})
		if err != nil {
			t.Fatal(err)
		}
		m.Moves.DeathThreshold = -1
		return vb.Run(m, vb.Settings{Hyper: mfa.DefaultSchedule(), MaxIterations: 15, Converger: vb.FixedIterations{}})
	}
	plain, pen := run(false), run(true)
	want := float64(3 * ((2 + 1) + (0 + 1) + (1 + 1)))
	for it := range plain.Trace.F {
		got, ok := pen.Trace.Term(it, mfa.TermRefPenalty)
		if !ok || got != -want {
			t.Fatalf("iteration %d: penalty term %v (present %v), want %v", it, got, ok, -want)
		}
		if d := plain.Trace.F[it] - pen.Trace.F[it]; math.Abs(d-want) > 1e-9*math.Abs(plain.Trace.F[it]) {
			t.Errorf("iteration %d: F differs by %v, want %v", it, d, want)
		}
		for _, term := range plain.Trace.Terms[it] {
			if v, _ := pen.Trace.Term(it, term.Name); v != term.Value {
				t.Errorf("iteration %d: term %s = %v with the penalty, %v without", it, term.Name, v, term.Value)
			}
		}
		if _, ok := plain.Trace.Term(it, mfa.TermRefPenalty); ok {
			t.Fatalf("iteration %d: the penalty term without the option", it)
		}
	}
}
