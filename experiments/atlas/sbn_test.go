package atlas

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/model/sbn"
	"github.com/vbworkbench/vbw/core/rng"
)

// quickSBN is the default config at a size a test runs in well under a
// second.
func quickSBN() SBNConfig {
	c := DefaultSBN()
	c.Nets, c.Seeds = 2, 1
	c.VBIterations = []int{1, 3, 10, 50}
	c.IS.Samples, c.IS.Ladder = 400, []int{4, 400}
	c.AIS.Steps, c.AIS.Ladder = 100, []int{3, 100}
	return c
}

// TestSBNGoldIndependent checks the gold standard of a cell against an
// independent sum over the latent states of the product of the units'
// Bernoulli probabilities σ(z_i)^{s_i}(1 − σ(z_i))^{1−s_i} (eqs. 2.3-2.6),
// computed here from the net's weights with math.Exp alone.
func TestSBNGoldIndependent(t *testing.T) {
	c := quickSBN()
	cl, err := c.runSBNCell(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	net, err := sbn.Random(c.Layers, c.Span, rng.New(c.Seed, SBNID, "net", "net001"))
	if err != nil {
		t.Fatal(err)
	}
	w, b := net.Params()
	layers := net.Layers()
	h, u := net.Hidden(), net.Units()
	first := make([]int, len(layers)+1) // first unit of each layer
	for l, k := range layers {
		first[l+1] = first[l] + k
	}
	var p float64
	s := make([]float64, u) // the visible units stay 0
	for c := range 1 << h {
		for j := range h {
			s[j] = float64((c >> j) & 1)
		}
		prob := 1.0
		for l := range layers {
			for i := first[l]; i < first[l+1]; i++ {
				z := b[i]
				for j, wij := range w[i] {
					z += wij * s[first[l-1]+j]
				}
				on := 1 / (1 + math.Exp(-z))
				if s[i] == 1 {
					prob *= on
				} else {
					prob *= 1 - on
				}
			}
		}
		p += prob
	}
	if got, want := float64(cl.Gold), math.Log(p); math.Abs(got-want) > 1e-10 {
		t.Errorf("gold ln P(V) = %.12f, independent sum %.12f", got, want)
	}
}

// TestSBNCellInvariants checks a cell's estimates: mean field's bound is
// at most the gold standard and never falls along its ladder, its
// operations are the ladder's iterations × Net.IterationOps(0), the
// mixture's and the Markov chain's bounds are at most the gold standard,
// and IS and AIS at their largest budget are within 5 of their (positive)
// standard errors of the gold standard (fixed streams).
func TestSBNCellInvariants(t *testing.T) {
	c := quickSBN()
	for i := range c.Nets {
		cl, err := c.runSBNCell(i, 1)
		if err != nil {
			t.Fatal(err)
		}
		net, _ := sbn.Random(c.Layers, c.Span, rng.New(c.Seed, SBNID, "net", cl.Dataset))
		gold := float64(cl.Gold)
		prev := math.Inf(-1)
		last := map[string]cellEst{}
		for _, e := range cl.Est {
			last[e.Method] = e
			if e.Method != VB {
				continue
			}
			f := float64(e.LnZ)
			if f > gold+1e-9 {
				t.Errorf("%s: F after %d iterations %v above gold %v", cl.Dataset, e.Budget, f, gold)
			}
			if f < prev-1e-9 {
				t.Errorf("%s: F fell to %v at %d iterations", cl.Dataset, f, e.Budget)
			}
			prev = f
			if want := float64(e.Budget * net.IterationOps(0)); float64(e.Ops) != want {
				t.Errorf("%s: VB ops %v at %d iterations, want %v", cl.Dataset, e.Ops, e.Budget, want)
			}
		}
		if cl.Failed != 0 || !(float64(cl.Mix) <= gold+1e-9) || !(float64(cl.Markov) <= gold+1e-9) {
			t.Errorf("%s: mixture %v, Markov %v, gold %v, failed %d", cl.Dataset, cl.Mix, cl.Markov, gold, cl.Failed)
		}
		for _, m := range []string{IS, AIS} {
			e := last[m]
			se := float64(e.SE)
			if !(se > 0) || math.Abs(float64(e.LnZ)-gold) > 5*se {
				t.Errorf("%s: %s ln P(V) = %v ± %v, gold %v", cl.Dataset, m, e.LnZ, se, gold)
			}
		}
	}
}
