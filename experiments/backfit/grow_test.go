package backfit

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/vbworkbench/vbw/experiments/exptest"
)

// TestSpiralQuick: the quick run's searches end normally, never lower F,
// and the figure is drawn.
func TestSpiralQuick(t *testing.T) {
	r := exptest.Quick(t, configPath("spiral.toml"))
	exptest.MustPass(t, r.Summary, "search-status", "search-never-lowers-f")
	if _, err := os.Stat(filepath.Join(r.Dir, "dsouza_fig3_3.svg")); err != nil {
		t.Error(err)
	}
}

// TestLocalDimQuick: the quick run's searches end normally and the figure
// is drawn.
func TestLocalDimQuick(t *testing.T) {
	r := exptest.Quick(t, configPath("localdim.toml"))
	exptest.MustPass(t, r.Summary, "search-status")
	if _, err := os.Stat(filepath.Join(r.Dir, "dsouza_fig3_6.svg")); err != nil {
		t.Error(err)
	}
}

// TestLocalDimData: the pieces alternate and have their sizes, the line's
// points lie on the segment along (1, 1, 1)/√3 and the patch's in the
// plane x = offset within the square, both within the noise (5 sd).
func TestLocalDimData(t *testing.T) {
	g := DefaultLocalDim().Data
	g.NLine, g.NPatch = 300, 200
	X, piece := g.Generate(1, "test", 0)
	var nl, np int
	tol := 5 * g.NoiseSD
	for r, pc := range piece {
		x, y, z := X.At(r, 0), X.At(r, 1), X.At(r, 2)
		if pc == 0 {
			nl++
			// Distance from the line: the part orthogonal to (1, 1, 1)/√3.
			m := (x + y + z) / 3
			if d := math.Sqrt((x-m)*(x-m) + (y-m)*(y-m) + (z-m)*(z-m)); d > tol*math.Sqrt(2) || math.Abs(m)*math.Sqrt(3) > g.LineLength/2+tol*math.Sqrt(3) {
				t.Errorf("line point %d (%.3f, %.3f, %.3f): %.3f off the line, %.3f along it", r, x, y, z, d, m*math.Sqrt(3))
			}
		} else {
			np++
			if math.Abs(x-g.PatchOffset) > tol || math.Abs(y) > g.PatchSide/2+tol || math.Abs(z) > g.PatchSide/2+tol {
				t.Errorf("patch point %d (%.3f, %.3f, %.3f) off the square", r, x, y, z)
			}
		}
	}
	if nl != 300 || np != 200 || piece[0] != 0 || piece[1] != 1 {
		t.Errorf("%d line and %d patch points, first pieces %v; want 300, 200 alternating from the line", nl, np, piece[:2])
	}
}
