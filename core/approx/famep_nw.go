package approx

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// NormalWishart is the Normal-Wishart family over (μ, Λ) ∈ R^D × S₊^D,
//
//	NW(μ, Λ | m, β, W, ν) = N(μ | m, (βΛ)⁻¹) W(Λ | W, ν)
//
// (PRML eq. (10.40), (B.78)–(B.79); E[Λ] = νW), as a Family for FamilyEP.
// Expanding the log density,
//
//	ln NW = (βm)ᵀ(Λμ) + β(−½μᵀΛμ) + tr[(W⁻¹ + βmmᵀ)(−½Λ)] + (ν − D)(½ ln|Λ|) − A(η),
//
// so with the sufficient statistics T = (Λμ, −½μᵀΛμ, −½Λ, ½ ln|Λ|), base
// measure 1 and the flat natural parameters, laid out as
//
//	η = (βm [D], β [1], S = W⁻¹ + βmmᵀ [D², row-major], ν − D [1]),
//
// the log-partition is the Gaussian's and the Wishart's normalisers,
//
//	A(η) = (D/2) ln(2π/β) + (νD/2) ln 2 − (ν/2) ln|W⁻¹| + ln Γ_D(ν/2),
//
// with W⁻¹ = S − (βm)(βm)ᵀ/β; η is proper iff β > 0, ν > D − 1 and W⁻¹
// is positive definite. Only the symmetric part of S enters (tr(SΛ) with Λ
// symmetric), so ∂A/∂S_ab = −½E[Λ_ab] entry by entry. A Gaussian
// likelihood term N(x | μ, Λ⁻¹) = (2π)^(−D/2) exp(ηₓᵀT) has ηₓ = (x, 1,
// xxᵀ, 1): it adds to η exactly as PRML's (10.60)–(10.63) at one point,
// and its integral against NW(η) is the Student-t predictive
// (2π)^(−D/2) exp(A(η + ηₓ) − A(η)) (PRML (10.81)–(10.82) at one
// component). NormalWishart holds scratch: use one per goroutine.
type NormalWishart struct {
	D int
	// scratch: W⁻¹ and its factor, a D×D work matrix, a vector.
	winv, l, work, v []float64
}

// NWMoments are the expected sufficient statistics of a density over
// (μ, Λ) in the natural units: E[Λμ] (D), E[μᵀΛμ], E[Λ] (D×D row-major)
// and E[ln|Λ|].
type NWMoments struct {
	LambdaMu   []float64
	MuLambdaMu float64
	Lambda     []float64
	LogDet     float64
}

// NewNWMoments returns zero moments in D dimensions.
func NewNWMoments(d int) NWMoments {
	return NWMoments{LambdaMu: make([]float64, d), Lambda: make([]float64, d*d)}
}

// AddScaled adds w times o to mo.
func (mo *NWMoments) AddScaled(w float64, o NWMoments) {
	for i, v := range o.LambdaMu {
		mo.LambdaMu[i] += w * v
	}
	for i, v := range o.Lambda {
		mo.Lambda[i] += w * v
	}
	mo.MuLambdaMu += w * o.MuLambdaMu
	mo.LogDet += w * o.LogDet
}

// Reset sets mo to zero.
func (mo *NWMoments) Reset() {
	clear(mo.LambdaMu)
	clear(mo.Lambda)
	mo.MuLambdaMu, mo.LogDet = 0, 0
}

// NewNormalWishart returns the family in d ≥ 1 dimensions.
func NewNormalWishart(d int) (*NormalWishart, error) {
	if d < 1 {
		return nil, fmt.Errorf("approx: Normal-Wishart of dimension %d", d)
	}
	return &NormalWishart{D: d, winv: make([]float64, d*d), l: make([]float64, d*d), work: make([]float64, d*d), v: make([]float64, d)}, nil
}

// Dim implements Family: D + 1 + D² + 1.
func (f *NormalWishart) Dim() int { return f.D*f.D + f.D + 2 }

// offsets of the blocks of η.
func (f *NormalWishart) offBeta() int { return f.D }
func (f *NormalWishart) offS() int    { return f.D + 1 }
func (f *NormalWishart) offNu() int   { return f.D*f.D + f.D + 1 }

// Natural writes the natural parameters of NW(m, β, W, ν) into dst, W
// given by W⁻¹ (D×D).
func (f *NormalWishart) Natural(dst, m []float64, beta float64, winv []float64, nu float64) {
	d := f.D
	s := dst[f.offS() : f.offS()+d*d]
	for a := range d {
		dst[a] = beta * m[a]
		for b := range d {
			s[a*d+b] = winv[a*d+b] + beta*m[a]*m[b]
		}
	}
	dst[f.offBeta()] = beta
	dst[f.offNu()] = nu - float64(d)
}

// Params writes m and W⁻¹ of the member η into m and winv and returns β,
// ν and whether η is proper (W⁻¹ symmetrised; m and winv are set even if
// not).
func (f *NormalWishart) Params(eta, m, winv []float64) (beta, nu float64, ok bool) {
	d := f.D
	beta, nu = eta[f.offBeta()], eta[f.offNu()]+float64(d)
	s := eta[f.offS() : f.offS()+d*d]
	for a := range d {
		m[a] = eta[a] / beta
	}
	for a := range d {
		for b := range d {
			winv[a*d+b] = (s[a*d+b]+s[b*d+a])/2 - beta*m[a]*m[b]
		}
	}
	if !(beta > 0) || math.IsInf(beta, 1) || !(nu > float64(d-1)) || math.IsInf(nu, 1) {
		return beta, nu, false
	}
	copy(f.l, winv)
	return beta, nu, numeric.CholFactor(f.l, d)
}

// LogPartition implements Family.
func (f *NormalWishart) LogPartition(eta []float64) (float64, bool) {
	beta, nu, ok := f.Params(eta, f.v, f.winv)
	if !ok {
		return math.Inf(1), false
	}
	d := float64(f.D)
	return d/2*math.Log(2*math.Pi/beta) + nu*d/2*math.Ln2 - nu/2*numeric.CholLogDet(f.l, f.D) +
		numeric.LogMultiGamma(nu/2, f.D), true
}

// AddPoint writes into dst the natural parameters η + w·ηₓ of the member
// η times N(x | μ, Λ⁻¹)^w (for w = 1 the one-point posterior of PRML
// (10.60)–(10.63)). dst may be eta.
func (f *NormalWishart) AddPoint(dst, eta, x []float64, w float64) {
	d := f.D
	copy(dst, eta)
	s := dst[f.offS() : f.offS()+d*d]
	for a := range d {
		dst[a] += w * x[a]
		for b := range d {
			s[a*d+b] += w * x[a] * x[b]
		}
	}
	dst[f.offBeta()] += w
	dst[f.offNu()] += w
}

// Moments writes into dst the expected sufficient statistics of the
// member η (PRML (B.80), (B.81), (10.64)–(10.65)):
//
//	E[Λ] = νW,  E[Λμ] = νWm,  E[μᵀΛμ] = D/β + ν mᵀWm,
//	E[ln|Λ|] = Σ_{i=1..D} ψ((ν + 1 − i)/2) + D ln 2 + ln|W|,
//
// and returns false if η is improper.
func (f *NormalWishart) Moments(dst *NWMoments, eta []float64) bool {
	d := f.D
	beta, nu, ok := f.Params(eta, f.v, f.winv)
	if !ok {
		return false
	}
	numeric.CholInverse(dst.Lambda, f.l, d, f.work) // W
	var mwm float64
	for a := range d {
		var s float64
		for b := range d {
			s += dst.Lambda[a*d+b] * f.v[b]
		}
		dst.LambdaMu[a] = nu * s
		mwm += f.v[a] * s
	}
	dst.MuLambdaMu = float64(d)/beta + nu*mwm
	dst.LogDet = numeric.MultiDigamma(nu/2, d) + float64(d)*math.Ln2 - numeric.CholLogDet(f.l, d)
	for i := range dst.Lambda {
		dst.Lambda[i] *= nu
	}
	return true
}

// FromMoments writes into dst the natural parameters of the Normal-Wishart
// whose expected sufficient statistics are mo: the minimiser of KL(p‖q)
// over the family for any p with those moments (Minka 2001, §3.2; PRML
// §10.7). With L̄ = E[Λ], ν solves
//
//	g(ν) = Σ_{i=1..D} ψ((ν + 1 − i)/2) − D ln(ν/2) = E[ln|Λ|] − ln|L̄|
//
// (E[ln|Λ|] of PRML (B.81) with ln|W| = ln|L̄| − D ln ν), then W = L̄/ν,
// m = L̄⁻¹E[Λμ] and β = D/(E[μᵀΛμ] − mᵀL̄m). g increases strictly on
// (D − 1, ∞) from −∞ to 0 (each term's derivative ½ψ′((ν+1−i)/2) − 1/ν
// is positive, as ψ′(y) > 1/y), and the right side is negative for a
// nondegenerate p (Jensen: ln|·| is strictly concave), so ν is unique; it
// is found by Newton's method safeguarded by bisection on a bracket. It
// returns ErrNoProjection if L̄ is not positive definite, the right side
// is not negative, or β would not be positive.
func (f *NormalWishart) FromMoments(dst []float64, mo NWMoments) error {
	d := f.D
	df := float64(d)
	copy(f.l, mo.Lambda)
	if !numeric.CholFactor(f.l, d) {
		return fmt.Errorf("approx: Normal-Wishart projection: E[Λ] is not positive definite: %w", ErrNoProjection)
	}
	rhs := mo.LogDet - numeric.CholLogDet(f.l, d)
	if !(rhs < 0) {
		return fmt.Errorf("approx: Normal-Wishart projection: E[ln|Λ|] − ln|E[Λ]| = %v is not negative: %w", rhs, ErrNoProjection)
	}
	nu, ok := solveNWNu(d, rhs)
	if !ok {
		return fmt.Errorf("approx: Normal-Wishart projection: no ν for E[ln|Λ|] − ln|E[Λ]| = %v: %w", rhs, ErrNoProjection)
	}
	// m = L̄⁻¹E[Λμ]; mᵀL̄m = mᵀE[Λμ].
	m := f.v
	copy(m, mo.LambdaMu)
	numeric.CholSolveVec(f.l, d, m)
	numeric.CholSolveVecT(f.l, d, m)
	var mlm float64
	for a := range d {
		mlm += m[a] * mo.LambdaMu[a]
	}
	beta := df / (mo.MuLambdaMu - mlm)
	if !(beta > 0) || math.IsInf(beta, 1) {
		return fmt.Errorf("approx: Normal-Wishart projection: E[μᵀΛμ] − mᵀE[Λ]m is not positive: %w", ErrNoProjection)
	}
	// W⁻¹ = ν L̄⁻¹.
	numeric.CholInverse(f.winv, f.l, d, f.work)
	for i := range f.winv {
		f.winv[i] *= nu
	}
	f.Natural(dst, m, beta, f.winv, nu)
	return nil
}

// solveNWNu returns the ν > D − 1 with g(ν) = rhs (FromMoments), rhs < 0.
func solveNWNu(d int, rhs float64) (float64, bool) {
	df := float64(d)
	g := func(nu float64) (float64, float64) {
		v, dv := -df*math.Log(nu/2), -df/nu
		for i := 1; i <= d; i++ {
			a := (nu + 1 - float64(i)) / 2
			v += numeric.Digamma(a)
			dv += numeric.Trigamma(a) / 2
		}
		return v, dv
	}
	// Bracket: lo → D − 1 gives g → −∞; grow hi until g(hi) > rhs.
	lo, hi := df-1, df
	for {
		v, _ := g(hi)
		if v > rhs {
			break
		}
		lo, hi = hi, 2*hi
		if hi > 1e300 {
			return 0, false
		}
	}
	// Start from the large-ν expansion g(ν) ≈ −D(D+1)/(2ν) (ψ(a) ≈ ln a −
	// 1/(2a)), inside the bracket.
	nu := -df * (df + 1) / (2 * rhs)
	if !(nu > lo && nu < hi) {
		nu = (lo + hi) / 2
	}
	for range 200 {
		v, dv := g(nu)
		r := v - rhs
		if r > 0 {
			hi = nu
		} else {
			lo = nu
		}
		next := nu - r/dv
		if !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		if math.Abs(next-nu) <= 1e-14*nu || hi-lo <= 1e-15*hi {
			return next, true
		}
		nu = next
	}
	return nu, true
}
