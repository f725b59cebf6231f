package ica

import (
	"testing"
)

// BenchmarkIterationToy is one VB iteration (E: q(μ), q(x); M: q(W); and
// q(α), q(β)) at the toy's size: N = 200, P = 3, I = 3, M = 2 (M^I = 8
// Gaussians a point, L2495).
func BenchmarkIterationToy(b *testing.B) {
	m := toyModelB(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
		m.UpdateHyper(GroupAlpha)
		m.UpdateHyper(GroupBeta)
	}
}
