package mfa_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/mfa"
)

// benchModel returns the model of the thesis's embedded-clusters size
// (section 4.5.2, line 2761: 6 clusters × 300 points in 10-D, k_max = 7),
// z-scored, S = 6 started from the true labels, after 20 iterations.
func benchModel(b *testing.B) *mfa.Model {
	b.Helper()
	y, labels := embedded(rand.New(rand.NewPCG(11, 12)), 300)
	z, _ := mfa.Standardize(y)
	m, err := mfa.New(z, labelResp(labels, 6, 0.98), mfa.Settings{K: 7})
	if err != nil {
		b.Fatal(err)
	}
	for range 20 {
		iterate(b, m)
	}
	return m
}

// iterate runs one iteration of vb.Run with the default schedule: E, M,
// UpdateHyper(psi), UpdateHyper(mu_nu).
func iterate(b *testing.B, m *mfa.Model) {
	if _, err := m.E(); err != nil {
		b.Fatal(err)
	}
	m.M()
	m.UpdateHyper(mfa.HyperPsi)
	m.UpdateHyper(mfa.HyperMuNu)
}

// BenchmarkEStep times one E step (q(x), q(Λ̃), q(s) and F) at n = 1800,
// p = 10, S = 6, k = 7.
func BenchmarkEStep(b *testing.B) {
	m := benchModel(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIteration times one VBEM iteration with the default
// hyperparameter schedule (E, M, Ψ, μ*ν*) at the size of BenchmarkEStep.
func BenchmarkIteration(b *testing.B) {
	m := benchModel(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		iterate(b, m)
	}
}
