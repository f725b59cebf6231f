package chapter5

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/lds"
	"github.com/vbworkbench/vbw/experiments/config"
)

// RotatedDiagonal returns A = Q diag(eig) Qᵀ with Q a Haar-random orthogonal
// matrix: the "randomly rotated diagonal matrix" of section 5.4.1 (lines
// 4066-4068; targets §4 #13).
func RotatedDiagonal(rnd *rand.Rand, eig []float64) *mat.Dense {
	k := len(eig)
	q := HaarOrthogonal(rnd, k)
	qd := mat.DenseCopyOf(q)
	for j, v := range eig {
		for i := 0; i < k; i++ {
			qd.Set(i, j, q.At(i, j)*v)
		}
	}
	var a mat.Dense
	a.Mul(qd, q.T())
	return &a
}

// HaarOrthogonal returns a k×k orthogonal matrix distributed uniformly
// (Haar measure): the columns of a matrix of independent standard normals
// (drawn row by row from rnd), orthonormalised in order by modified
// Gram-Schmidt, applied twice to each column so that Q is orthogonal to
// round-off whatever the draw's conditioning ("twice is enough"). That is the Q of the QR factorisation whose R has a
// positive diagonal, which makes Q Haar-distributed (Mezzadri 2007, "How to
// generate random matrices from the classical compact groups").
func HaarOrthogonal(rnd *rand.Rand, k int) *mat.Dense {
	q := mat.NewDense(k, k, nil)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			q.Set(i, j, rnd.NormFloat64())
		}
	}
	for j := 0; j < k; j++ {
		v := q.ColView(j).(*mat.VecDense)
		for range 2 {
			for i := 0; i < j; i++ {
				u := q.ColView(i)
				v.AddScaledVec(v, -mat.Dot(u, v), u)
			}
		}
		v.ScaleVec(1/mat.Norm(v, 2), v)
	}
	return q
}

// BimodalMatrix returns an r×c matrix whose entries are drawn independently
// from the equal mixture ½N(means[0], sd²) + ½N(means[1], sd²), row by row
// (the output matrix C of section 5.4.1, lines 4070-4072: "a mixture of two
// Gaussians with means at (2, −2) and common standard deviations of 1").
func BimodalMatrix(rnd *rand.Rand, r, c int, means [2]float64, sd float64) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			mu := means[0]
			if rnd.IntN(2) == 1 {
				mu = means[1]
			}
			m.Set(i, j, mu+sd*rnd.NormFloat64())
		}
	}
	return m
}

// NoInputLDS is the generator of section 5.4.1 (lines 4064-4078; targets
// §3.1): an LDS without inputs with k_true = len(Eigenvalues) hidden
// dimensions and P outputs, A a randomly rotated diagonal matrix with the
// given eigenvalues, C bimodal, Q = I, R = I and x_1 ~ N(0, I).
type NoInputLDS struct {
	// P is the output dimension p, 1 to 10⁵ (more outputs than the genes
	// of a genome). Default 10.
	P int `toml:"p" range:"[1,1e5]"`
	// Eigenvalues are those of A, each in (−1, 1) (a stable A); their
	// number is k_true. Default [0.65, 0.70, 0.75, 0.80, 0.85, 0.90].
	Eigenvalues []float64 `toml:"eigenvalues" range:"(-1,1) len=1.."`
	// CMeans and CSD are the mixture of the entries of C, in units of the
	// unit noise s.d.: means in [−10⁶, 10⁶], s.d. in (0, 10⁶]. Default
	// ±2, 1 (the thesis's; the toolbox demo used 0.5, targets §4 #12).
	CMeans [2]float64 `toml:"c_mixture_means" range:"[-1e6,1e6]"`
	CSD    float64    `toml:"c_mixture_sd" range:"(0,1e6]"`
	// TMax is the length of the one sequence drawn, 2 to 10⁷; the
	// training sets are its prefixes ("the data sets are incremental",
	// line 4074). Default 300.
	TMax int `toml:"t_max" range:"[2,1e7]"`
}

// DefaultNoInputLDS returns the thesis's generator.
func DefaultNoInputLDS() NoInputLDS {
	return NoInputLDS{P: 10, Eigenvalues: []float64{0.65, 0.70, 0.75, 0.80, 0.85, 0.90}, CMeans: [2]float64{2, -2}, CSD: 1, TMax: 300}
}

// Generate draws the true parameters (A's rotation, then C row by row) and
// the sequence of length TMax (lds.Simulate: x_0 = 0 exactly and Q = I, so
// that x_1 ~ N(0, I), targets §4 #17), all from rnd. It returns the truth,
// the outputs (TMax×p) and the states (TMax×k_true).
func (g NoInputLDS) Generate(rnd *rand.Rand) (*lds.Params, *mat.Dense, *mat.Dense) {
	k := len(g.Eigenvalues)
	par := &lds.Params{
		A:   RotatedDiagonal(rnd, g.Eigenvalues),
		C:   BimodalMatrix(rnd, g.P, k, g.CMeans, g.CSD),
		Rho: ones(g.P),
	}
	seq, x := lds.Simulate(rnd, par, g.TMax, nil)
	return par, seq.Y, x
}

// The values of InputLDS.Noise (targets §4 #14).
const (
	NoiseU01  = "U01"  // u_3 ~ U(0, 1), the thesis's caption (line 4106)
	NoiseUm11 = "U-11" // u_3 ~ U(−1, 1), the toolbox demo
)

// InputLDS is the generator of section 5.4.2 (lines 4089-4099; targets
// §3.3): k_true = len(Eigenvalues) hidden dimensions, P outputs and three
// inputs, u_1 = sin(2πt/Period), u_2 = cos(2πt/Period) and a noise input
// u_3; A a randomly rotated diagonal matrix, C bimodal as in section
// 5.4.1, B = 0, the first two columns of D uniform on
// (−DHalfWidth, DHalfWidth) and the third 0, Q = I, R = I, x_1 ~ N(0, I).
type InputLDS struct {
	// P is the output dimension, 1 to 10⁵ (as NoInputLDS). Default 4.
	P int `toml:"p" range:"[1,1e5]"`
	// T is the sequence length, 2 to 10⁷. Default 100.
	T int `toml:"t" range:"[2,1e7]"`
	// Eigenvalues of A, each in (−1, 1) (a stable A). Default [0.65,
	// 0.70].
	Eigenvalues []float64 `toml:"eigenvalues" range:"(-1,1) len=1.."`
	// Period of the two sinusoids, in steps: above 2 (a period of at most
	// two steps is sampled as a constant or as a longer period) and at
	// most 10⁹. Default 50.
	Period float64 `toml:"input_period" range:"(2,1e9]"`
	// DHalfWidth: D[:, 0:2] ~ U(−DHalfWidth, DHalfWidth), in (0, 10⁶].
	// Default 10.
	DHalfWidth float64 `toml:"d_uniform_halfwidth" range:"(0,1e6]"`
	// CMeans and CSD as in NoInputLDS. Default ±2, 1.
	CMeans [2]float64 `toml:"c_mixture_means" range:"[-1e6,1e6]"`
	CSD    float64    `toml:"c_mixture_sd" range:"(0,1e6]"`
}

// DefaultInputLDS returns the thesis's generator.
func DefaultInputLDS() InputLDS {
	return InputLDS{P: 4, T: 100, Eigenvalues: []float64{0.65, 0.70}, Period: 50, DHalfWidth: 10, CMeans: [2]float64{2, -2}, CSD: 1}
}

// Inputs returns the T×3 inputs, u_{1,t} = sin(2πt/Period),
// u_{2,t} = cos(2πt/Period) for t = 1..T (targets §4 #15) and u_{3,t}
// uniform on [0, 1) or [−1, 1) (noise, NoiseU01 or NoiseUm11) from rnd.
func (g InputLDS) Inputs(rnd *rand.Rand, noise string) *mat.Dense {
	u := mat.NewDense(g.T, 3, nil)
	for t := 1; t <= g.T; t++ {
		w := 2 * math.Pi * float64(t) / g.Period
		u.Set(t-1, 0, math.Sin(w))
		u.Set(t-1, 1, math.Cos(w))
		v := rnd.Float64()
		if noise == NoiseUm11 {
			v = 2*v - 1
		}
		u.Set(t-1, 2, v)
	}
	return u
}

// Generate draws, from rnd and in this order, A's rotation, C, the first
// two columns of D (row by row), the noise input and the sequence
// (lds.Simulate). It returns the truth, the inputs (T×3), the outputs
// (T×p) and the states (T×k_true).
func (g InputLDS) Generate(rnd *rand.Rand, noise string) (par *lds.Params, u, y, x *mat.Dense) {
	k := len(g.Eigenvalues)
	par = &lds.Params{
		A:   RotatedDiagonal(rnd, g.Eigenvalues),
		C:   BimodalMatrix(rnd, g.P, k, g.CMeans, g.CSD),
		B:   mat.NewDense(k, 3, nil),
		D:   mat.NewDense(g.P, 3, nil),
		Rho: ones(g.P),
	}
	for s := 0; s < g.P; s++ {
		for c := 0; c < 2; c++ {
			par.D.Set(s, c, g.DHalfWidth*(2*rnd.Float64()-1))
		}
	}
	u = g.Inputs(rnd, noise)
	seq, x := lds.Simulate(rnd, par, g.T, u)
	return par, u, seq.Y, x
}

// Values of Surrogate.Observation.
const (
	ObsLognormal = "lognormal" // e = s·exp(z), normalised per series and gene
	ObsLinear    = "linear"    // y = 1 + z, not normalised: inside the model class
)

// Surrogate is the generator `tcell_surrogate` of targets §3.6: gene
// expression time courses of P genes in N replicate series of T time
// points with a known sparse gene-gene interaction matrix D_true (entry
// (a, c) the effect of gene c at t−1 on gene a at t) and KTrue =
// len(AEigenvalues) hidden factors shared by the genes:
//
//	x_0 = μ_stim + N(0, X0SD² I),  x_t = A x_{t−1} + N(0, I),
//	z_1 = Z1SD·N(0, I) + C x_1,  z_t = D_true z_{t−1} + C x_t + ObsNoiseSD·N(0, I),
//	e_{t,g} = s_g exp(z_{t,g}),
//
// with μ_stim = ±StimulusMeanAbs per component (signs drawn once, shared
// by the series), C entries N(0, CSD²), A a rotated diagonal matrix and
// s_g log-uniform on ScaleRange. D_true has an off-diagonal edge at each
// ordered pair with probability EdgesPerGene/(P−1), weight ±U(EdgeWeight);
// a self-loop with probability SelfLoopProb, weight U(SelfWeight); and is
// then scaled by min(1, SpectralRadiusMax/ρ(D_true)).
type Surrogate struct {
	// P is the number of genes, 2 to 10⁵ (more than a genome holds).
	// Default 88 (the thesis's).
	P int `toml:"p" range:"[2,1e5]"`
	// N is the number of series, 2 to 10⁶; T their length, 3 to 10⁷ (the
	// feedback model leaves T − 1 steps). Defaults 34 and 10.
	N int `toml:"n_sequences" range:"[2,1e6]"`
	T int `toml:"t" range:"[3,1e7]"`
	// NTrain: the first NTrain series train, the others test (NTrain <
	// N). Default 30.
	NTrain int `toml:"n_train" range:"[1,1e6]"`
	// EdgesPerGene is the expected number of off-diagonal edges of a gene,
	// at most p − 1. Default 2.
	EdgesPerGene float64 `toml:"edges_per_gene" range:"[0,1e5]"`
	// SelfLoopProb is a probability. Default 0.5.
	SelfLoopProb float64 `toml:"self_loop_prob" range:"[0,1]"`
	// EdgeWeight and SelfWeight are the intervals [lo, hi] of the weights'
	// magnitudes, 0 ≤ lo ≤ hi ≤ 10⁶ (D_true is then scaled to its
	// spectral radius). Defaults [0.4, 0.8] and [0.3, 0.7].
	EdgeWeight [2]float64 `toml:"edge_weight" range:"[0,1e6] nondecreasing"`
	SelfWeight [2]float64 `toml:"self_weight" range:"[0,1e6] nondecreasing"`
	// SpectralRadiusMax is in (0, 1]: D_true is stable (at most
	// marginally), or z_t grows without bound along a series. Default 0.9.
	SpectralRadiusMax float64 `toml:"d_spectral_radius_max" range:"(0,1]"`
	// AEigenvalues are those of A, each in (−1, 1) (stable factors); their
	// number is k_true. Default [0.9, 0.6].
	AEigenvalues []float64 `toml:"a_eigenvalues" range:"(-1,1) len=1.."`
	// CSD, ObsNoiseSD and Z1SD are standard deviations of the
	// log-expression z, in [0, 10] (10 is a factor e¹⁰ ≈ 2·10⁴ per s.d.).
	// Defaults 0.03, 0.05 and 0.1.
	CSD        float64 `toml:"c_sd" range:"[0,10]"`
	ObsNoiseSD float64 `toml:"obs_noise_sd" range:"[0,10]"`
	Z1SD       float64 `toml:"z1_sd" range:"[0,10]"`
	// StimulusMeanAbs and X0SD are the mean's magnitude and the s.d. of
	// x_0, in units of the factors' unit state noise, in [0, 10³].
	// Defaults 3 and √0.1.
	StimulusMeanAbs float64 `toml:"stimulus_mean_abs" range:"[0,1e3]"`
	X0SD            float64 `toml:"x0_sd" range:"[0,1e3]"`
	// ScaleRange is the interval [lo, hi] of the genes' intensity scales
	// s_g, 10⁻¹² ≤ lo ≤ hi ≤ 10¹². Default [50, 5000].
	ScaleRange [2]float64 `toml:"scale_range" range:"[1e-12,1e12] nondecreasing"`
	// Observation is ObsLognormal (default) or ObsLinear.
	Observation string `toml:"observation"`
}

// DefaultSurrogate returns the defaults of targets §3.6.
func DefaultSurrogate() Surrogate {
	return Surrogate{P: 88, N: 34, T: 10, NTrain: 30, EdgesPerGene: 2, SelfLoopProb: 0.5,
		EdgeWeight: [2]float64{0.4, 0.8}, SelfWeight: [2]float64{0.3, 0.7}, SpectralRadiusMax: 0.9,
		AEigenvalues: []float64{0.9, 0.6}, CSD: 0.03, ObsNoiseSD: 0.05, Z1SD: 0.1, StimulusMeanAbs: 3,
		X0SD: math.Sqrt(0.1), ScaleRange: [2]float64{50, 5000}, Observation: ObsLognormal}
}

// Validate checks the keys of the [data] table that relate to others.
func (g Surrogate) Validate() error {
	if g.Observation != ObsLognormal && g.Observation != ObsLinear {
		return config.FieldError("data.observation", g.Observation, `must be "lognormal" or "linear"`)
	}
	if g.NTrain >= g.N {
		return config.FieldError("data.n_train", g.NTrain, fmt.Sprintf("must be less than n_sequences = %d (the rest are the test set)", g.N))
	}
	if g.EdgesPerGene > float64(g.P-1) {
		return config.FieldError("data.edges_per_gene", g.EdgesPerGene, fmt.Sprintf("must be at most p − 1 = %d", g.P-1))
	}
	return nil
}

// SurrogateData is one draw of the surrogate.
type SurrogateData struct {
	// DTrue is the p×p interaction matrix, A (k×k) and C (p×k) the
	// hidden factors' dynamics and loadings.
	DTrue, A, C *mat.Dense
	// Radius is the spectral radius of DTrue (after the scaling).
	Radius float64
	// Series are the observed series (T×p each): the raw intensities
	// s_g exp(z) (lognormal) or 1 + z (linear), before any normalisation.
	Series []*mat.Dense
}

// Generate draws the surrogate from rnd, in this order: D_true (edges pair
// by pair, then self-loops), A's rotation, C, the stimulus signs, the gene
// scales, then the series one by one (x_0, and for each t the state noise
// and the observation noise). The observation noise of every step is drawn
// as standard normals scaled by ObsNoiseSD, so that two draws that differ
// only in ObsNoiseSD share everything else.
func (g Surrogate) Generate(rnd *rand.Rand) (*SurrogateData, error) {
	p, k := g.P, len(g.AEigenvalues)
	dt := mat.NewDense(p, p, nil)
	prob := g.EdgesPerGene / float64(p-1)
	uniform := func(r [2]float64) float64 { return r[0] + (r[1]-r[0])*rnd.Float64() }
	for a := 0; a < p; a++ {
		for c := 0; c < p; c++ {
			if a == c {
				continue
			}
			if rnd.Float64() < prob {
				w := uniform(g.EdgeWeight)
				if rnd.IntN(2) == 1 {
					w = -w
				}
				dt.Set(a, c, w)
			}
		}
	}
	for a := 0; a < p; a++ {
		if rnd.Float64() < g.SelfLoopProb {
			dt.Set(a, a, uniform(g.SelfWeight))
		}
	}
	rad, err := spectralRadius(dt)
	if err != nil {
		return nil, err
	}
	if rad > g.SpectralRadiusMax {
		dt.Scale(g.SpectralRadiusMax/rad, dt)
		if rad, err = spectralRadius(dt); err != nil {
			return nil, err
		}
	}
	out := &SurrogateData{DTrue: dt, Radius: rad, A: RotatedDiagonal(rnd, g.AEigenvalues), C: mat.NewDense(p, k, nil)}
	for i := 0; i < p; i++ {
		for j := 0; j < k; j++ {
			out.C.Set(i, j, g.CSD*rnd.NormFloat64())
		}
	}
	stim := make([]float64, k)
	for j := range stim {
		stim[j] = g.StimulusMeanAbs
		if rnd.IntN(2) == 1 {
			stim[j] = -stim[j]
		}
	}
	scale := make([]float64, p)
	lo, hi := math.Log(g.ScaleRange[0]), math.Log(g.ScaleRange[1])
	for i := range scale {
		scale[i] = math.Exp(lo + (hi-lo)*rnd.Float64())
	}
	x, xn := make([]float64, k), make([]float64, k)
	z, zn := mat.NewVecDense(p, nil), mat.NewVecDense(p, nil)
	var cx mat.VecDense
	for n := 0; n < g.N; n++ {
		for j := range x {
			x[j] = stim[j] + g.X0SD*rnd.NormFloat64()
		}
		s := mat.NewDense(g.T, p, nil)
		for t := 0; t < g.T; t++ {
			for i := 0; i < k; i++ {
				v := rnd.NormFloat64()
				for j := 0; j < k; j++ {
					v += out.A.At(i, j) * x[j]
				}
				xn[i] = v
			}
			copy(x, xn)
			cx.MulVec(out.C, mat.NewVecDense(k, slices.Clone(x)))
			if t == 0 {
				for i := 0; i < p; i++ {
					zn.SetVec(i, g.Z1SD*rnd.NormFloat64()+cx.AtVec(i))
				}
			} else {
				zn.MulVec(dt, z)
				for i := 0; i < p; i++ {
					zn.SetVec(i, zn.AtVec(i)+cx.AtVec(i)+g.ObsNoiseSD*rnd.NormFloat64())
				}
			}
			z.CopyVec(zn)
			for i := 0; i < p; i++ {
				if g.Observation == ObsLinear {
					s.Set(t, i, 1+z.AtVec(i))
				} else {
					s.Set(t, i, scale[i]*math.Exp(z.AtVec(i)))
				}
			}
		}
		out.Series = append(out.Series, s)
	}
	return out, nil
}

// spectralRadius returns max |λ| over the eigenvalues of the square m.
func spectralRadius(m *mat.Dense) (float64, error) {
	var eig mat.Eigen
	if !eig.Factorize(m, mat.EigenNone) {
		return 0, fmt.Errorf("chapter5: eigendecomposition of D_true failed")
	}
	var r float64
	for _, v := range eig.Values(nil) {
		r = math.Max(r, math.Hypot(real(v), imag(v)))
	}
	return r, nil
}

func ones(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 1
	}
	return s
}
