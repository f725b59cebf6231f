package mixq

import (
	"fmt"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
)

// TestGallandPairs: a set has distinct inputs of ±1 bits, is a function
// of its seed and number, and differs between numbers.
func TestGallandPairs(t *testing.T) {
	c := DefaultGalland()
	x, y := c.gallandPairs(0)
	again, _ := c.gallandPairs(0)
	other, _ := c.gallandPairs(1)
	if len(x) != 10 || len(y) != 10 || fmt.Sprint(x) != fmt.Sprint(again) || fmt.Sprint(x) == fmt.Sprint(other) {
		t.Fatalf("pairs %v / %v / %v", x, again, other)
	}
	seen := map[string]bool{}
	for n := range x {
		for _, v := range append(append([]float64(nil), x[n]...), y[n]...) {
			if v != 1 && v != -1 {
				t.Fatalf("bit %g", v)
			}
		}
		if k := fmt.Sprint(x[n]); seen[k] {
			t.Fatalf("input %v twice", x[n])
		} else {
			seen[k] = true
		}
	}
}

// TestBMDigitsMask: each pixel joins its 8-neighbourhood (3 at a corner,
// 5 on an edge, 8 inside) and every hidden unit; hidden units join all.
func TestBMDigitsMask(t *testing.T) {
	mask := bmDigitsMask(10)
	n := 74
	deg := func(i int) int {
		d := 0
		for j := range n {
			if mask[i*n+j] {
				d++
			}
		}
		return d
	}
	for _, c := range []struct{ unit, want int }{{0, 3 + 10}, {3, 5 + 10}, {9, 8 + 10}, {63, 3 + 10}, {64, 73}} {
		if got := deg(c.unit); got != c.want {
			t.Errorf("unit %d: %d connections, want %d", c.unit, got, c.want)
		}
	}
	for i := range n {
		if mask[i*n+i] {
			t.Fatalf("self-connection at %d", i)
		}
	}
}

// TestChapter4Quick: the quick runs of Figs 4.4 and 4.8-4.9 pass their
// sanity checks and judge their claims.
func TestChapter4Quick(t *testing.T) {
	g := exptest.Quick(t, configPath("galland.toml"))
	exptest.Checks(t, g.Summary, "fig4.4-cond-fast", "fig4.4-cond-beats-zero", "fig4.4-zero-deep-worst")
	d := exptest.Quick(t, configPath("bm-digits.toml"))
	exptest.MustPass(t, d.Summary, "fig4.8-bounds-monotone")
	exptest.Checks(t, d.Summary, "fig4.8-mf-less-stable", "fig4.8-mf-rougher", "fig4.9-mf-mode-hops")
}
