package lds

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/vb"
)

// randomParams draws an LDS with k states, p outputs and d inputs: A a
// random rotation scaled to spectral radius ≤ 0.9, C, B, D standard normal
// (B, D scaled by 0.5), output-noise precisions in [1, 4], μ_0 = 0, Σ_0 = I.
func randomParams(rnd *rand.Rand, k, p, d int) *Params {
	a := mat.NewDense(k, k, nil)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			a.Set(i, j, rnd.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(a)
	var q mat.Dense
	qr.QTo(&q)
	for j := 0; j < k; j++ {
		s := 0.5 + 0.4*rnd.Float64()
		for i := 0; i < k; i++ {
			q.Set(i, j, q.At(i, j)*s)
		}
	}
	par := &Params{A: &q, C: mat.NewDense(p, k, nil), Rho: make([]float64, p)}
	for s := 0; s < p; s++ {
		for j := 0; j < k; j++ {
			par.C.Set(s, j, rnd.NormFloat64())
		}
		par.Rho[s] = 1 + 3*rnd.Float64()
	}
	if d > 0 {
		par.B, par.D = mat.NewDense(k, d, nil), mat.NewDense(p, d, nil)
		for i := 0; i < k; i++ {
			for c := 0; c < d; c++ {
				par.B.Set(i, c, 0.5*rnd.NormFloat64())
			}
		}
		for s := 0; s < p; s++ {
			for c := 0; c < d; c++ {
				par.D.Set(s, c, 0.5*rnd.NormFloat64())
			}
		}
	}
	eye := mat.NewSymDense(k, nil)
	for j := 0; j < k; j++ {
		eye.SetSym(j, j, 1)
	}
	par.Sigma0 = eye
	return par
}

// simulateAll draws one sequence per length from par, with inputs (when
// par has them) a sinusoid and uniform noise per input dimension.
func simulateAll(rnd *rand.Rand, par *Params, lens []int) []Sequence {
	_, _, d := par.dims()
	var data []Sequence
	for _, T := range lens {
		var u *mat.Dense
		if d > 0 {
			u = mat.NewDense(T, d, nil)
			for t := 0; t < T; t++ {
				for c := 0; c < d; c++ {
					u.Set(t, c, math.Sin(2*math.Pi*float64(t+1)/float64(10+7*c))+rnd.Float64()-0.5)
				}
			}
		}
		s, _ := Simulate(rnd, par, T, u)
		data = append(data, s)
	}
	return data
}

// mustNew builds a model or fails the test.
func mustNew(t testing.TB, data []Sequence, set Settings, seed uint64) *VB {
	t.Helper()
	m, err := NewVB(data, set, rand.New(rand.NewPCG(seed, 99)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// mustE runs E or fails the test.
func mustE(t testing.TB, m vb.Model) vb.Bound {
	t.Helper()
	b, err := m.E()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// iterate runs n rounds of E, M and every hyperparameter update.
func iterate(t testing.TB, m *VB, n int) {
	t.Helper()
	for range n {
		mustE(t, m)
		m.M()
		for _, g := range m.HyperGroups() {
			m.UpdateHyper(g)
		}
	}
}
