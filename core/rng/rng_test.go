package rng

import "testing"

func TestStreamsAreReproducibleAndDistinct(t *testing.T) {
	a := New(1, "x", "1")
	b := New(1, "x", "1")
	for i := 0; i < 100; i++ {
		if a.Uint64() != b.Uint64() {
			t.Fatal("same seed and labels gave different streams")
		}
	}
	pairs := [][2][]string{
		{{"ab", "c"}, {"a", "bc"}},
		{{"x", "1"}, {"x", "2"}},
		{{"x"}, {"x", ""}},
	}
	for _, p := range pairs {
		if New(1, p[0]...).Uint64() == New(1, p[1]...).Uint64() {
			t.Errorf("labels %q and %q gave the same stream", p[0], p[1])
		}
	}
	if New(1, "x").Uint64() == New(2, "x").Uint64() {
		t.Error("different base seeds gave the same stream")
	}
}
