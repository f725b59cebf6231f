package vembias

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// VEM is variational EM on a Problem (T&S eqs. 1.6-1.12): coordinate
// ascent of the free energy F(q, θ) averaged over the data, alternating the
// E step, which sets q to its optimum within the scheme's family at the
// current θ (mean μ_{x|y} = K y, eq. 1.31, and precision blocks Λ_bb, L239;
// the exact posterior for ML; the mode for MAP), and the M step, which
// maximises ⟨ln p(y, x|θ)⟩_q over the free parameters with q held. It
// implements vb.Model, so vb.Run checks that F never decreases. Build it
// with NewVEM. It is the paper's third optimiser, "coordinate ascent of the
// free-energy (or vEM)" (L322).
type VEM struct {
	pr *Problem
	m  *SSM
	th Params

	exx [16]float64 // ⟨xxᵀ⟩ = K S Kᵀ + Σ_q
	exy [16]float64 // ⟨x yᵀ⟩ = K S (4×N)
	ent float64     // H[q] (0 for MAP)
	k   [16]float64 // K (4×N)
	// MEvals counts objective evaluations of the M steps.
	MEvals int
}

// Term names of the bound returned by VEM.E.
const (
	TermLik     = "<ln p(y|x)>"
	TermPrior   = "<ln p(x)>"
	TermEntropy = "H[q]"
)

// NewVEM returns vEM on pr started at the free values start.
func NewVEM(pr *Problem, start []float64) (*VEM, error) {
	if err := pr.init(); err != nil {
		return nil, err
	}
	if len(start) != len(pr.Free) {
		return nil, fmt.Errorf("vembias: start has %d values, want %d", len(start), len(pr.Free))
	}
	v := &VEM{pr: pr, m: NewSSM(pr.Obs), th: pr.at(start)}
	if err := v.th.Check(); err != nil {
		return nil, fmt.Errorf("vembias: start: %w", err)
	}
	return v, nil
}

// X returns the current free values (magnitudes as |w|).
func (v *VEM) X() []float64 {
	x := make([]float64, len(v.pr.Free))
	for i, p := range v.pr.Free {
		x[i] = v.th[p]
		if p == Norm1 || p == Norm2 {
			x[i] = math.Abs(x[i])
		}
	}
	return x
}

// Theta returns the current parameters.
func (v *VEM) Theta() Params { return v.th }

// E sets q to the scheme's optimum at the current θ and returns
// F = ⟨ln p(y|x, θ)⟩ + ⟨ln p(x|θ)⟩ + H[q], which equals the scheme's
// Objective at θ (eq. 1.5: ln p(y|θ) − KL_q).
func (v *VEM) E() (vb.Bound, error) {
	m, q := v.m, v.pr.Approx
	c := partsOf(&v.th, m.Obs)
	if !m.factor(&c, q) {
		return vb.Bound{}, fmt.Errorf("vembias: vEM E step: Σ_y or Λ not positive definite at θ = %v", v.th)
	}
	if err := m.PosteriorMeanMap(v.th, v.k[:]); err != nil {
		return vb.Bound{}, err
	}
	m.factor(&c, q) // PosteriorMeanMap overwrote Λ's factor
	n := m.N()
	S := v.pr.S
	for i := 0; i < 4; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for l := 0; l < n; l++ {
				s += v.k[i*n+l] * S[l*n+j]
			}
			v.exy[i*n+j] = s
		}
	}
	var cov [16]float64
	switch q {
	case ML:
		cov = m.lai
	case MF, FC, FT:
		cov = m.blk
	}
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			var s float64
			for l := 0; l < n; l++ {
				s += v.exy[i*n+l] * v.k[j*n+l]
			}
			v.exx[i*4+j] = s + cov[i*4+j]
		}
	}
	v.ent = 0
	if q != MAP {
		l := cov
		if !numeric.CholFactor(l[:], 4) {
			return vb.Bound{}, fmt.Errorf("vembias: vEM E step: q's covariance is singular at θ = %v", v.th)
		}
		v.ent = 0.5*numeric.CholLogDet(l[:], 4) + 0.5*Latents*(ln2Pi+1)
	}
	lik, prior := v.expected(&v.th)
	return vb.Bound{F: lik + prior + v.ent, Terms: []vb.Term{{Name: TermLik, Value: lik}, {Name: TermPrior, Value: prior}, {Name: TermEntropy, Value: v.ent}}}, nil
}

// expected returns ⟨ln p(y|x, θ)⟩_q and ⟨ln p(x|θ)⟩_q under the moments
// of the last E step (eqs. 1.24-1.26).
func (v *VEM) expected(th *Params) (lik, prior float64) {
	obs := v.m.Obs
	n := 2 * obs
	c := partsOf(th, obs)
	w := weights(th)
	var trS, cross, quad float64
	for i := 0; i < n; i++ {
		trS += v.pr.S[i*n+i]
	}
	for t := 0; t < 2; t++ {
		for d := 0; d < obs; d++ {
			for k := 0; k < 2; k++ {
				cross += w[d*2+k] * v.exy[(2*t+k)*n+t*obs+d]
			}
		}
		for k := 0; k < 2; k++ {
			for l := 0; l < 2; l++ {
				quad += c.g[k*2+l] * v.exx[(2*t+k)*4+2*t+l]
			}
		}
	}
	s2 := th[SigmaY2]
	lik = -0.5*float64(n)*(ln2Pi+math.Log(s2)) - (trS-2*cross+quad)/(2*s2)
	var tr float64
	for t := 0; t < 2; t++ {
		for u := 0; u < 2; u++ {
			for k := 0; k < 2; k++ {
				tr += c.p[t*2+u] * v.exx[(2*t+k)*4+2*u+k]
			}
		}
	}
	lam, sx := th[Lambda], th[SigmaX2]
	logDetPrec := 2 * (math.Log(1-lam*lam) - 2*math.Log(sx)) // ln|C_x⁻¹|
	prior = -0.5*Latents*ln2Pi + 0.5*logDetPrec - 0.5*tr
	return lik, prior
}

// mObjective is ⟨ln p(y, x|θ)⟩_q at θ (NaN outside the model).
func (v *VEM) mObjective(th *Params) float64 {
	v.MEvals++
	if th.Check() != nil {
		return math.NaN()
	}
	lik, prior := v.expected(th)
	return lik + prior
}

// M maximises ⟨ln p(y, x|θ)⟩_q over each free parameter in turn, within
// its search interval, by golden-section search on a bracket grown from
// the current value; a step is kept only if it does not lower the
// objective, so F never decreases.
func (v *VEM) M() {
	for i, p := range v.pr.Free {
		cur := v.th[p]
		f := func(x float64) float64 {
			t := v.th.With(p, x)
			return v.mObjective(&t)
		}
		f0 := f(cur)
		lo, hi := bracket(f, cur, f0, v.pr.Lo[i], v.pr.Hi[i])
		x, fx, _ := goldenMax(f, lo, hi, 1e-12)
		if fx >= f0 {
			v.th[p] = x
		}
	}
}

// bracket returns an interval around x0 within [lo, hi] on whose ends f is
// below the best value seen inside it, grown by doubling steps.
func bracket(f func(float64) float64, x0, f0, lo, hi float64) (float64, float64) {
	step := 1e-3 * math.Max(1, math.Abs(x0))
	a, b := x0, x0
	for _, dir := range []float64{-1, 1} {
		h, prev := step, f0
		for {
			x := x0 + dir*h
			if x <= lo || x >= hi {
				x = math.Max(lo, math.Min(hi, x))
				if dir < 0 {
					a = x
				} else {
					b = x
				}
				break
			}
			fx := f(x)
			if dir < 0 {
				a = x
			} else {
				b = x
			}
			if !(fx >= prev) {
				break
			}
			prev = fx
			h *= 2
		}
	}
	return a, b
}

// RunVEM runs vEM from start with vb.Run under set and returns the
// optimum and the run's result (whose Error is non-nil if F decreased).
// Converged gives the settings of a run to the optimum.
func (pr *Problem) RunVEM(start []float64, set vb.Settings) (Result, vb.Result, error) {
	v, err := NewVEM(pr, start)
	if err != nil {
		return Result{}, vb.Result{}, err
	}
	res := vb.Run(v, set)
	out := Result{X: v.X(), F: res.F, Evals: v.MEvals}
	for i, x := range out.X {
		out.Edge = out.Edge || pr.onEdge(i, x)
	}
	return out, res, res.Error()
}

// Converged returns the settings of a vEM run to its optimum: until F is
// within 1e-11 nats of its limit (vb.BoundConverge's absolute test; the
// relative test off), or maxIterations.
func Converged(maxIterations int) vb.Settings {
	return vb.Settings{MaxIterations: maxIterations, Converger: &vb.BoundConverge{Relative: -1, Absolute: 1e-11}}
}
