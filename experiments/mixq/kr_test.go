package mixq

import "testing"

func TestKRSignChanges(t *testing.T) {
	x := []float64{0, 1, 0.5, 0.5, 2, 3, 1}
	// differences +1, −0.5, 0, +1.5, +1, −2: changes at −0.5, +1.5, −2.
	if n := krSignChanges(x, 0); n != 3 {
		t.Errorf("krSignChanges = %d, want 3", n)
	}
	if n := krSignChanges(x, 3); n != 1 {
		t.Errorf("krSignChanges from 3 = %d, want 1", n)
	}
	if n := krValueSignChanges([]float64{0.9, 0.8, -0.7, -0.9, 0.95}); n != 2 {
		t.Errorf("krValueSignChanges = %d, want 2", n)
	}
}
