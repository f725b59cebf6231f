package supersmooth

import "testing"

// BenchmarkIteration times one E and one M step on 500 points (the size
// of data set (a) of backfit/supersmooth): the cost per point of an
// iteration is the time over 500.
func BenchmarkIteration(b *testing.B) {
	x, y := testData(9, 500)
	m, err := NewVB(x, y, 0.4, TextPrior(), Settings{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
	}
}
