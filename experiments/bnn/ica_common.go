package bnn

// The pieces the two Bayesian ICA experiments share (ica_toy.go, the toy of
// Lawrence Figs 6.9/6.10; ica_images.go, the stand-in for the Corel images
// of Figs 6.11-6.14): the [prior] table, drawing the mixing matrix, one fit
// of core/model/ica on the text's schedule, the sources a fit keeps, and
// matching recovered sources to the true ones.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/vbworkbench/vbw/core/model/ica"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
)

// ICAPrior is the [prior] table of the ICA experiments: the gamma
// hyperpriors of α_i (eq. 6.10) and β (eq. 6.6) and the precision τ of the
// prior on μ (eq. 6.11). Chapter 6 gives none; the defaults are chapter
// 5's Table 5.1 values (L2181) and τ = 10⁻³ (ica.DefaultPrior).
type ICAPrior struct {
	AAlpha float64 `toml:"a_alpha" range:"(0,1e6]"`
	BAlpha float64 `toml:"b_alpha" range:"(0,1e6]"`
	ABeta  float64 `toml:"a_beta" range:"(0,1e6]"`
	BBeta  float64 `toml:"b_beta" range:"(0,1e6]"`
	Tau    float64 `toml:"tau" range:"(0,1e6]"`
}

func defaultICAPrior() ICAPrior {
	p := ica.DefaultPrior()
	return ICAPrior{AAlpha: p.AAlpha, BAlpha: p.BAlpha, ABeta: p.ABeta, BBeta: p.BBeta, Tau: p.Tau}
}

func (p ICAPrior) model() ica.Prior {
	return ica.Prior{AAlpha: p.AAlpha, BAlpha: p.BAlpha, ABeta: p.ABeta, BBeta: p.BBeta, Tau: p.Tau}
}

// icaMixing draws the P×I mixing matrix of data set k, W_pi ~ N(0, sd²)
// (L2495). Both experiments draw it from the same stream, so that the
// stand-in for the images is mixed "with the same matrix as for the toy
// problem" (L2506) at the same seed.
func icaMixing(seed uint64, k, p, i int, sd float64) []float64 {
	r := rng.New(seed, "bnn", "ica", "mixing", strconv.Itoa(k))
	w := make([]float64, p*i)
	for j := range w {
		w[j] = sd * r.NormFloat64()
	}
	return w
}

// icaMix returns t = Wx + ε (N×P) for the sources x (N×I) and noise of
// variance noiseVar.
func icaMix(x, w []float64, n, p, i int, noiseVar float64, r *rand.Rand) []float64 {
	t := make([]float64, n*p)
	sd := math.Sqrt(noiseVar)
	for a := 0; a < n; a++ {
		for q := 0; q < p; q++ {
			v := sd * r.NormFloat64()
			for j := 0; j < i; j++ {
				v += w[q*i+j] * x[a*i+j]
			}
			t[a*p+q] = v
		}
	}
	return t
}

// icaFit is one fit on the text's schedule: the evolution of log₁₀ E[α_i]
// after each outer loop (index 0 the start), and the end state.
type icaFit struct {
	Log10Alpha [][]float64 // [outer loop][source]
	Beta       float64     // E[β] at the end
	F          float64     // the bound at the end
	FStart     float64     // the bound after the first E step
	Status     string
	W          []float64 // E[W], P×I
	X          []float64 // E[x_n], N×I
}

// fitICA runs core/model/ica on t (N×P) with I sources of density src on
// the text's schedule (L2497): outer loops of inner updates of q(μ), q(x),
// q(W), each followed by q(α) and q(β), from the PCA start (or initW). It
// fails on a bound that decreased.
func fitICA(env *experiments.Env, t []float64, p, sources int, src ica.Sources, prior ICAPrior, inner, outer int, initW []float64, initNoise float64) (icaFit, error) {
	m, err := ica.NewVB(t, p, src, prior.model(), ica.Settings{Sources: sources, InitW: initW, InitNoiseVariance: initNoise})
	if err != nil {
		return icaFit{}, err
	}
	s := config.FixedBudget(inner*outer+1).Settings(env.Stop, m)
	s.Hyper = ica.Schedule(inner)
	fit := icaFit{}
	s.Recorder = func(it vb.Iteration) {
		if it.Iter%inner == 0 {
			a := make([]float64, sources)
			for i := range a {
				a[i] = math.Log10(m.Alpha(i))
			}
			fit.Log10Alpha = append(fit.Log10Alpha, a)
		}
		if it.Iter == 0 {
			fit.FStart = it.F
		}
	}
	r := vb.Run(m, s)
	if err := r.Error(); err != nil {
		return icaFit{}, err
	}
	fit.Beta, fit.F, fit.Status = m.Beta(), r.F, r.Status.String()
	fit.W, fit.X = m.MeanW().RawMatrix().Data, m.MeanX()
	return fit, nil
}

// icaKept returns which sources a fit keeps: those whose final log₁₀ E[α_i]
// is less than offOrders above the smallest (a source switched off has its
// column's precision orders of magnitude above the others', L2499).
func icaKept(log10Alpha []float64, offOrders float64) []bool {
	lo := math.Inf(1)
	for _, a := range log10Alpha {
		lo = math.Min(lo, a)
	}
	kept := make([]bool, len(log10Alpha))
	for i, a := range log10Alpha {
		kept[i] = a-lo < offOrders
	}
	return kept
}

func countTrue(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}

// icaAlphaGap returns the largest log₁₀ E[α_i] less the next largest: how
// far the most switched-off source stands above the others (L2499's "three
// orders of magnitude larger than the others" is a gap of 3).
func icaAlphaGap(log10Alpha []float64) float64 {
	hi, next := math.Inf(-1), math.Inf(-1)
	for _, a := range log10Alpha {
		if a > hi {
			hi, next = a, hi
		} else if a > next {
			next = a
		}
	}
	return hi - next
}

// icaMatch matches every true source (x: N×I true) to a distinct recovered
// one among the kept columns of est (N×J, J ≥ I kept) by the largest
// absolute correlation over all assignments (ICA recovers sources up to
// permutation and scale), and returns the smallest matched |correlation|
// and the assignment (true source → recovered index). With fewer kept
// sources than true ones it matches as many as there are and returns 0.
func icaMatch(x []float64, i int, est []float64, j int, kept []bool) (minCorr float64, assign []int) {
	n := len(x) / i
	corr := make([]float64, i*j)
	for a := 0; a < i; a++ {
		for b := 0; b < j; b++ {
			corr[a*j+b] = math.Abs(pearson(n, x, i, a, est, j, b))
		}
	}
	best, bestAssign := -1.0, make([]int, i)
	cur := make([]int, i)
	used := make([]bool, j)
	var rec func(a int, worst float64)
	rec = func(a int, worst float64) {
		if a == i {
			if worst > best {
				best = worst
				copy(bestAssign, cur)
			}
			return
		}
		for b := 0; b < j; b++ {
			if used[b] || !kept[b] {
				continue
			}
			used[b], cur[a] = true, b
			rec(a+1, math.Min(worst, corr[a*j+b]))
			used[b] = false
		}
	}
	rec(0, math.Inf(1))
	if best < 0 {
		return 0, nil
	}
	return best, bestAssign
}

// pearson is the correlation of column a of x (stride i) with column b of
// y (stride j) over n rows; 0 if either is constant.
func pearson(n int, x []float64, i, a int, y []float64, j, b int) float64 {
	var mx, my float64
	for r := 0; r < n; r++ {
		mx += x[r*i+a]
		my += y[r*j+b]
	}
	mx, my = mx/float64(n), my/float64(n)
	var sxy, sxx, syy float64
	for r := 0; r < n; r++ {
		dx, dy := x[r*i+a]-mx, y[r*j+b]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

// icaSourcesCheck refuses a source mixture the model would refuse, naming
// the config's keys.
func icaSourcesCheck(prefix string, s ica.Sources) error {
	if err := s.Check(); err != nil {
		return config.FieldError(prefix, fmt.Sprint(s.Weights), err.Error())
	}
	return nil
}

// drawMixture draws n values from the mixture src.
func drawMixture(r *rand.Rand, n int, src ica.Sources) []float64 {
	x := make([]float64, n)
	for a := range x {
		u, c := r.Float64(), 0
		for c < len(src.Weights)-1 && u >= src.Weights[c] {
			u -= src.Weights[c]
			c++
		}
		x[a] = src.Means[c] + math.Sqrt(src.Variances[c])*r.NormFloat64()
	}
	return x
}
