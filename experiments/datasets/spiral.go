package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/experiments/config"
)

// The values of Spiral.TSampling.
const (
	// SpiralUniform draws each tᵢ independently and uniformly on TRange.
	SpiralUniform = "uniform"
	// SpiralGrid places the tᵢ evenly on TRange, both ends included.
	SpiralGrid = "grid"
)

// Spiral is the noisy shrinking spiral of Beal (2003) section 4.5.3 (Ueda
// et al. 2000), eqs (4.86)-(4.87), L2797-L2804 of
// ../shared/seeds/000_055f6e591db3cc60.txt, which D'Souza (2004) grows a
// mixture on too (Fig. 3.3, L775):
//
//	yᵢ = [(13 − 0.5tᵢ) cos tᵢ, −(13 − 0.5tᵢ) sin tᵢ, tᵢ] + wᵢ,  tᵢ ∈ [0, 4π],  wᵢ ~ N(0, diag(.5, .5, .5)).
//
// The thesis does not say how the tᵢ were chosen; TSampling covers both
// readings (targets §3.3 and §4 item 9). The 0.5 is a variance. The TOML
// keys are those of the [data] table of the targets' spiral.toml (§6).
type Spiral struct {
	// N is the number of points, at least 2 (z-scoring needs a spread) and
	// at most 10⁷. Default 800 (L2797).
	N int `toml:"n" range:"[2,1e7]"`
	// TRange is the interval of t, [low, high] with low < high, in radians
	// (±1000 is some 160 turns). Default [0, 4π] (4.87).
	TRange [2]float64 `toml:"t_range" range:"[-1000,1000] increasing"`
	// TSampling is SpiralUniform (the default) or SpiralGrid.
	TSampling string `toml:"t_sampling"`
	// NoiseVar is the variance of the noise in each coordinate; 0 puts the
	// points on the curve. Default 0.5.
	NoiseVar float64 `toml:"noise_var" range:"0|[1e-12,1e12]"`
}

// DefaultSpiral returns the thesis's spiral, with tᵢ i.i.d. uniform.
func DefaultSpiral() Spiral {
	return Spiral{N: 800, TRange: [2]float64{0, 4 * math.Pi}, TSampling: SpiralUniform, NoiseVar: 0.5}
}

// Validate checks the spec: its declared ranges (config.CheckRanges, as
// keys of a [data] table) and the sampling of t. Its errors are *config.ValueError values naming the key
// of the config's [data] table.
func (g Spiral) Validate() error {
	if err := config.CheckRanges(struct {
		Data any `toml:"data"`
	}{g}); err != nil {
		return err
	}
	if g.TSampling != SpiralUniform && g.TSampling != SpiralGrid {
		return config.FieldError("data.t_sampling", g.TSampling, fmt.Sprintf("must be %q or %q", SpiralUniform, SpiralGrid))
	}
	return nil
}

// SpiralRadius is the radius of the noise-free spiral at t, 13 − 0.5t
// (4.86).
func SpiralRadius(t float64) float64 { return 13 - 0.5*t }

// Generate draws the N×3 data and returns it with the tᵢ of its rows (the
// position along the spiral, which the targets' "no component straddles
// arms" check needs). Under SpiralUniform it draws, for each point in turn,
// tᵢ and then the three noise values; under SpiralGrid tᵢ = t₀ + (t₁ −
// t₀)·i/(N − 1) and only the noise is drawn. It panics if the spec is
// invalid.
func (g Spiral) Generate(rnd *rand.Rand) (X *mat.Dense, t []float64) {
	if err := g.Validate(); err != nil {
		panic("datasets: " + err.Error())
	}
	X = mat.NewDense(g.N, 3, nil)
	t = make([]float64, g.N)
	lo, hi := g.TRange[0], g.TRange[1]
	sd := math.Sqrt(g.NoiseVar)
	for i := range g.N {
		switch {
		case g.TSampling == SpiralUniform:
			t[i] = lo + (hi-lo)*rnd.Float64()
		case g.N > 1:
			t[i] = lo + (hi-lo)*float64(i)/float64(g.N-1)
		default:
			t[i] = lo
		}
		r := SpiralRadius(t[i])
		X.Set(i, 0, r*math.Cos(t[i])+sd*rnd.NormFloat64())
		X.Set(i, 1, -r*math.Sin(t[i])+sd*rnd.NormFloat64())
		X.Set(i, 2, t[i]+sd*rnd.NormFloat64())
	}
	return X, t
}
