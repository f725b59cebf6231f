package sbn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/vb"
)

// markovLogQ is ln Q(H) of the Markov-chain q (eqs. 2.38-2.39) at the
// parameters of q, for a full state s.
func markovLogQ(q *Markov, s []float64) float64 {
	_, mu0, mu1 := q.Marginals()
	l := 0.0
	for i := range q.net.Hidden() {
		m := mu0[i]
		if !q.first[i] && s[i-1] == 1 {
			m = mu1[i]
		}
		if s[i] == 1 {
			l += math.Log(m)
		} else {
			l += math.Log1p(-m)
		}
	}
	return l
}

func randomMarkov(t *testing.T, n *Net, r *rand.Rand) *Markov {
	t.Helper()
	mf, err := NewMeanField(n, zeros, r)
	if err != nil {
		t.Fatal(err)
	}
	q := NewMarkov(mf)
	for i := range q.x {
		q.x[i] = 3 * (2*r.Float64() - 1)
		if q.isXi(i) {
			q.x[i] = 1.4*r.Float64() - 0.2
		}
	}
	return q
}

func (q *Markov) isXi(k int) bool {
	for _, j := range q.ix {
		if j == k {
			return true
		}
	}
	return false
}

// TestMarkovAgainstEnumeration: at random parameters, the bound's parts
// computed by the recursions (marginals eq. 2.43, moments eqs. 2.48-2.49,
// entropy eq. 2.50) equal their sums over the 64 latent states of the
// chain's Q(H), so the bound equals the one assembled by enumeration; it
// lies below the exact ELBO of the same q, below ln P(V).
func TestMarkovAgainstEnumeration(t *testing.T) {
	for seed := range uint64(8) {
		n := randomNet(t, 1+float64(seed%4), 600+seed)
		r := rand.New(rand.NewPCG(seed, 3))
		q := randomMarkov(t, n, r)
		h, u := n.Hidden(), n.Units()
		st := make([]float64, u)
		ms := make([]float64, u) // ⟨s_i⟩
		ea := make([]float64, u) // ⟨e^{−ξ z_i}⟩
		eb := make([]float64, u) // ⟨e^{(1−ξ) z_i}⟩
		ent, own := 0.0, 0.0
		_, _, _ = q.Marginals()
		xi := append([]float64(nil), q.xi...)
		for c := range 1 << h {
			for j := range h {
				st[j] = float64((c >> j) & 1)
			}
			lq := markovLogQ(q, st)
			p := math.Exp(lq)
			ent -= p * lq
			own += p * (n.LogJoint(st) - lq)
			for i := range u {
				ms[i] += p * st[i]
				z := n.field(i, st)
				ea[i] += p * math.Exp(-xi[i]*z)
				eb[i] += p * math.Exp((1-xi[i])*z)
			}
		}
		s, _, _ := q.Marginals()
		for i := range h {
			if math.Abs(s[i]-ms[i]) > 1e-12 {
				t.Errorf("seed %d unit %d: ⟨s⟩ %v, enumeration %v", seed, i, s[i], ms[i])
			}
		}
		enumBound := ent
		for i := range u {
			zbar := n.meanField(i, q.s)
			si := q.s[i]
			if len(n.w[i]) == 0 {
				enumBound += si*zbar - softplus(n.b[i])
				continue
			}
			enumBound += si*zbar - xi[i]*zbar - math.Log(ea[i]+eb[i])
		}
		F := q.Bound()
		if math.Abs(F-enumBound) > 1e-10*math.Max(1, math.Abs(F)) {
			t.Errorf("seed %d: bound %v, assembled by enumeration %v", seed, F, enumBound)
		}
		L, _ := n.ExactLogLik(zeros)
		if F > own+1e-10 || own > L+1e-10 {
			t.Errorf("seed %d: bound %v, ELBO of its q %v, exact %v", seed, F, own, L)
		}
	}
}

// TestMarkovGradient checks ∂𝓛/∂x against central differences at random
// parameters.
func TestMarkovGradient(t *testing.T) {
	for seed := range uint64(6) {
		n := randomNet(t, 1+float64(seed%3), 700+seed)
		q := randomMarkov(t, n, rand.New(rand.NewPCG(seed, 4)))
		x := append([]float64(nil), q.x...)
		g := make([]float64, len(x))
		q.Eval(x, g)
		const hstep = 1e-6
		for k := range x {
			xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
			xp[k] += hstep
			xm[k] -= hstep
			fd := (q.Eval(xp, nil) - q.Eval(xm, nil)) / (2 * hstep)
			if math.Abs(fd-g[k]) > 1e-7*math.Max(1, math.Abs(fd)) {
				t.Errorf("seed %d parameter %d: gradient %v, finite difference %v", seed, k, g[k], fd)
			}
		}
	}
}

// TestMarkovFromMeanField: started from a fitted mean field the chain's
// bound equals mean field's; the fit never ends below it nor above
// ln P(V).
func TestMarkovFromMeanField(t *testing.T) {
	for seed := range uint64(10) {
		n := randomNet(t, 1+float64(seed%4), 800+seed)
		L, _ := n.ExactLogLik(zeros)
		mf, _ := NewMeanField(n, zeros, rand.New(rand.NewPCG(seed, 5)))
		res := vb.Run(mf, vb.Settings{MaxIterations: 500, AbsTol: 1e-10, RelTol: -1})
		q := NewMarkov(mf)
		if d := q.Bound() - res.F; math.Abs(d) > 1e-12*math.Max(1, math.Abs(res.F)) {
			t.Errorf("seed %d: chain at the mean-field solution %v, mean field %v", seed, q.Bound(), res.F)
		}
		f, err := q.Fit(MarkovSettings{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if f.Bound < res.F-1e-12 || f.Bound > L+1e-10 {
			t.Errorf("seed %d: chain %v, mean field %v, exact %v", seed, f.Bound, res.F, L)
		}
	}
}
