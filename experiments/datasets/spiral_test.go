package datasets

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/vbworkbench/vbw/core/rng"
)

func stream(seed uint64, name string) *rand.Rand { return rng.New(seed, "chapter4/test", name) }

func TestSpiral(t *testing.T) {
	g := DefaultSpiral()
	X, ts := g.Generate(stream(6, "spiral"))
	if n, p := X.Dims(); n != 800 || p != 3 || len(ts) != 800 {
		t.Fatalf("dims %d×%d with %d t values, want 800×3 with 800", n, p, len(ts))
	}
	var rres, zres, angle []float64
	for i, ti := range ts {
		if ti < 0 || ti > 4*math.Pi {
			t.Fatalf("t[%d] = %g outside [0, 4π]", i, ti)
		}
		x, y, z := X.At(i, 0), X.At(i, 1), X.At(i, 2)
		rres = append(rres, math.Hypot(x, y)-SpiralRadius(ti))
		zres = append(zres, z-ti)
		// The angle of (x, −y) is t modulo 2π (4.86).
		d := math.Remainder(math.Atan2(-y, x)-ti, 2*math.Pi)
		angle = append(angle, math.Abs(d))
	}
	// The radius law r = 13 − 0.5t (4.86) holds within the noise: the
	// radial residual has mean about 0 (bias σ²/2r ≤ 0.04; the mean of 800
	// has sd 0.025) and sd √0.5 ≈ 0.707; likewise z − t.
	for _, c := range []struct {
		name string
		v    []float64
	}{{"radius − (13 − 0.5t)", rres}, {"z − t", zres}} {
		m, sd := stat.MeanStdDev(c.v, nil)
		if math.Abs(m) > 0.12 || sd < 0.62 || sd > 0.8 {
			t.Errorf("%s: mean %.3f, sd %.3f; want about 0 and 0.707", c.name, m, sd)
		}
	}
	slices.Sort(angle)
	if med := angle[len(angle)/2]; med > 0.15 {
		t.Errorf("median |angle − t| = %.3f rad, want small (noise sd / radius ≈ 0.07)", med)
	}
	// t is uniform on [0, 4π]: mean 2π (the mean of 800 has sd 0.13), and
	// it reaches both ends.
	if m := stat.Mean(ts, nil); math.Abs(m-2*math.Pi) > 0.5 {
		t.Errorf("mean t = %.3f, want about 2π", m)
	}
	if lo, hi := slices.Min(ts), slices.Max(ts); lo > 0.2 || hi < 4*math.Pi-0.2 {
		t.Errorf("t spans [%.3f, %.3f], want about [0, 4π]", lo, hi)
	}
}

func TestSpiralGrid(t *testing.T) {
	g := DefaultSpiral()
	g.TSampling, g.NoiseVar, g.N = SpiralGrid, 0, 9
	X, ts := g.Generate(stream(7, "spiral"))
	for i, ti := range ts {
		want := 4 * math.Pi * float64(i) / 8
		if math.Abs(ti-want) > 1e-12 {
			t.Errorf("t[%d] = %g, want %g", i, ti, want)
		}
		r := 13 - 0.5*want
		got := []float64{X.At(i, 0), X.At(i, 1), X.At(i, 2)}
		exp := []float64{r * math.Cos(want), -r * math.Sin(want), want}
		for q := range 3 {
			if math.Abs(got[q]-exp[q]) > 1e-12 {
				t.Errorf("noise-free point %d = %v, want %v (4.86)", i, got, exp)
				break
			}
		}
	}
}
