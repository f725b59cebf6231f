package sbn

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Mixture is a mixture of M mean-field distributions (eq. 2.19, L911-1026,
// Jaakkola and Jordan 1998) fitted to one pattern, with factorised smoothing
// distributions R(h_j|m) (eq. 2.26: two positive entries per latent unit and
// component, not normalised) and one λ_m per component (eq. 2.23). Its
// bound is 𝓛_λ of eq. 2.25 with the mutual-information bound 𝓘 of eq. 2.24
// and the sums of eqs. 2.27-2.28. It is a vb.Model: E updates every
// component's μ (eq. 2.32, kept only where the bound rises), then R (eq.
// 2.36), λ (eq. 2.37) and Q(m) (eq. 2.35), each an exact coordinate
// maximum; M updates every ξ_im.
type Mixture struct {
	net    *Net
	comps  []component
	q      []float64   // Q(m)
	r0, r1 [][]float64 // R(h_j = 0|m), R(h_j = 1|m)
	lr0    [][]float64 // ln R(h_j = 0|m), ln R(h_j = 1|m)
	lr1    [][]float64
	lam    []float64 // λ_m
	pi     []float64 // π_{R,Q}(m, k) of eq. 2.27, row-major M×M
	wk     *work
	negE   []float64
	lmf    [][2]float64 // each component's Λ and entropy after its μ update
	pre    []float64    // scratch of updateSmoothing: M
	suf    []float64    // scratch of updateSmoothing: M×(Hidden+1)

	v Variant // departures from the text's fit (zero: none)
}

// Variant names departures of a mixture fit from the text's algorithm as
// we read it (§2.4.2), for the study of how large the mixtures' gain is.
// The zero value is the text's fit; every variant keeps the bound complete,
// so each still bounds ln P(V).
type Variant struct {
	// SharedXi uses one ξ_i per unit for every component, minimising
	// Σ_m Q(m) × (unit i's SJJ bound in component m) over it, instead of
	// ξ_im per component (L1019).
	SharedXi bool
	// FixR keeps R(h_j|m) ≡ 1 (so 𝓘 = 0: the bound is Σ_m Q(m) 𝓛_mft(m) and
	// Q(m) moves to the best component); FixLambda keeps λ_m at its start
	// value (eq. 2.37 at R ≡ 1, Q(m) = 1/M).
	FixR, FixLambda bool
	// RawFixedPoint sets μ_k to the text's fixed point σ(E″) (eq. 2.32)
	// alone, which can lower the bound; the fit then runs without vb.Run's
	// monotonicity check and stops on |ΔF|.
	RawFixedPoint bool
	// TextMuSmoothing uses eq. 2.31 as printed, E″ = E′ + ln(R(1|m)/R(0|m))
	// − λ_m[R(1|m) − R(0|m)], as a raw fixed point (it implies
	// RawFixedPoint): the derivative of the bound carries π^k(m', m) and a
	// sum over m'. TextQSign uses eq. 2.34 as printed, + before the λ sum
	// of −E_m; it can lower the bound and also runs without the check.
	TextMuSmoothing, TextQSign bool
}

// unchecked reports whether the variant's updates can lower the bound.
func (v Variant) unchecked() bool { return v.RawFixedPoint || v.TextMuSmoothing || v.TextQSign }

// NewMixture starts a fit of visible pattern v by M components, each μ and
// ξ drawn uniform on (0, 1) (L1149), Q(m) = 1/M, R ≡ 1 and λ at its optimum
// (eq. 2.37), where 𝓘 = 0 and the bound is the mean of the components'
// mean-field bounds. M = 1 draws the same numbers as NewMeanField.
func NewMixture(n *Net, v []float64, M int, r *rand.Rand) (*Mixture, error) {
	if err := n.checkVisible(v); err != nil {
		return nil, err
	}
	if M < 1 {
		return nil, errors.New("sbn: a mixture needs at least one component")
	}
	h := n.Hidden()
	x := &Mixture{net: n, q: make([]float64, M), lam: make([]float64, M), pi: make([]float64, M*M),
		r0: make([][]float64, M), r1: make([][]float64, M), lr0: make([][]float64, M), lr1: make([][]float64, M), wk: newWork(n), negE: make([]float64, M), lmf: make([][2]float64, M),
		pre: make([]float64, M), suf: make([]float64, M*(h+1))}
	for m := range M {
		c := newComponent(n, v)
		initComponent(n, c, r)
		x.comps = append(x.comps, c)
		x.q[m] = 1 / float64(M)
		x.r0[m], x.r1[m] = make([]float64, h), make([]float64, h)
		x.lr0[m], x.lr1[m] = make([]float64, h), make([]float64, h)
		for j := range h {
			x.r0[m][j], x.r1[m][j] = 1, 1
		}
	}
	x.updatePi()
	x.updateLambda()
	return x, nil
}

// NewMixtureFromMeanField starts M components from the fitted mean-field
// solution mf, each latent μ's logit moved by U(−0.5, 0.5) drawn from r,
// with mf's ξ (Settings.StartFromMeanField).
func NewMixtureFromMeanField(mf *MeanField, M int, r *rand.Rand) (*Mixture, error) {
	n := mf.net
	x, err := NewMixture(n, mf.c.mu[n.Hidden():], M, r)
	if err != nil {
		return nil, err
	}
	for _, c := range x.comps {
		c.copyFrom(mf.c)
		for k := range n.Hidden() {
			th := logit(math.Max(1e-300, math.Min(c.mu[k], 1-1e-16))) + (r.Float64() - 0.5)
			c.mu[k] = sigmoid(math.Max(-thetaLimit, math.Min(thetaLimit, th)))
		}
		n.refresh(c)
	}
	x.updateSmoothingState()
	return x, nil
}

// SetVariant switches the fit to variant v; with SharedXi every component
// takes the first one's ξ.
func (x *Mixture) SetVariant(v Variant) {
	x.v = v
	if v.SharedXi {
		for _, c := range x.comps[1:] {
			copy(c.xi, x.comps[0].xi)
			x.net.refresh(c)
		}
		x.updateSmoothingState()
	}
}

// updateSmoothingState recomputes π and λ after the components changed
// outside E (a new start).
func (x *Mixture) updateSmoothingState() {
	x.updatePi()
	if !x.v.FixLambda {
		x.updateLambda()
	}
}

// piExcept is π_{R,Q}(m, k) of eq. 2.27 with latent unit j left out of the
// product (π^j of eq. 2.36); j < 0 leaves none out.
func (x *Mixture) piExcept(m, k, j int) float64 {
	p := 1.0
	mu := x.comps[k].mu
	for i := range x.net.Hidden() {
		if i != j {
			p *= x.r0[m][i]*(1-mu[i]) + x.r1[m][i]*mu[i]
		}
	}
	return p
}

func (x *Mixture) updatePi() {
	M := len(x.comps)
	for m := range M {
		for k := range M {
			x.pi[m*M+k] = x.piExcept(m, k, -1)
		}
	}
}

// updateLambda sets 1/λ_m = Σ_k Q(k) π(m, k) / Q(m) (eq. 2.37).
func (x *Mixture) updateLambda() {
	M := len(x.comps)
	for m := range M {
		s := 0.0
		for k := range M {
			s += x.q[k] * x.pi[m*M+k]
		}
		x.lam[m] = x.q[m] / s
	}
}

// lnR is Σ_j ⟨ln R(h_j|m)⟩ under Q(·|m) (eq. 2.28).
func (x *Mixture) lnR(m int) float64 {
	s := 0.0
	mu := x.comps[m].mu
	for j := range x.net.Hidden() {
		s += mu[j]*x.lr1[m][j] + (1-mu[j])*x.lr0[m][j]
	}
	return s
}

// E runs one sweep of the fixed points and returns 𝓛_λ (eq. 2.25).
func (x *Mixture) E() (vb.Bound, error) {
	M := len(x.comps)
	h := x.net.Hidden()
	for m := range M {
		c := x.comps[m]
		for k := range h {
			// eq. 2.31, with the derivative of −Σ_m' λ_m' Q(m) π(m', m) in μ_mk
			// over every m' (the text writes the m' = m term).
			extra := x.lr1[m][k] - x.lr0[m][k]
			if x.v.TextMuSmoothing {
				extra -= x.lam[m] * (x.r1[m][k] - x.r0[m][k])
			} else {
				for mp := range M {
					extra -= x.lam[mp] * x.piExcept(mp, m, k) * (x.r1[mp][k] - x.r0[mp][k])
				}
			}
			if x.v.RawFixedPoint || x.v.TextMuSmoothing {
				x.net.setMuFixedPoint(k, c, extra, x.wk)
			} else {
				x.net.updateMu(k, c, extra, x.wk)
			}
		}
		x.lmf[m][0], x.lmf[m][1] = x.net.bound(c)
	}
	for range smoothingRounds {
		x.updateSmoothing()
	}
	return x.Bound(), nil
}

// smoothingRounds is the number of rounds of the R, λ, Q(m) fixed points
// per E step. More rounds barely change the number of iterations (40
// random nets of L1127, M = 2 and 5: 142 and 371 iterations with 2 rounds,
// 137 and 360 with 8) and cost a third of the run.
const smoothingRounds = 2

// updateSmoothing runs the fixed points of R (eq. 2.36), λ (eq. 2.37) and
// Q(m) (eq. 2.35) once each.
func (x *Mixture) updateSmoothing() {
	M := len(x.comps)
	h := x.net.Hidden()
	// R(h_j|m) = Q(m)Q(h_j|m) / (λ_m Σ_k Q(k) π^j(m,k) Q(h_j|k)) (eq. 2.36),
	// the exact maximum over the two entries of R(·|m) at unit j, unit by
	// unit. π^j(m,k) is the product of the factors of eq. 2.27 before j
	// (already updated, pre) and after it (suf).
	pre, suf := x.pre, x.suf
	for m := range M {
		if x.v.FixR {
			break
		}
		r0, r1 := x.r0[m], x.r1[m]
		for k := range M {
			mu, sk := x.comps[k].mu, suf[k*(h+1):(k+1)*(h+1)]
			sk[h] = 1
			for i := h - 1; i >= 0; i-- {
				sk[i] = sk[i+1] * (r0[i]*(1-mu[i]) + r1[i]*mu[i])
			}
			pre[k] = 1
		}
		for j := range h {
			s0, s1 := 0.0, 0.0
			for k := range M {
				p := x.q[k] * pre[k] * suf[k*(h+1)+j+1]
				mu := x.comps[k].mu[j]
				s0 += p * (1 - mu)
				s1 += p * mu
			}
			// An entry whose coefficients are both 0 (every component's μ_j
			// at 0 or 1 in floating point) does not enter the bound: it keeps
			// its value.
			mu := x.comps[m].mu[j]
			if s0 > 0 {
				r0[j] = math.Max(tiny, x.q[m]*(1-mu)/(x.lam[m]*s0))
			}
			if s1 > 0 {
				r1[j] = math.Max(tiny, x.q[m]*mu/(x.lam[m]*s1))
			}
			x.lr0[m][j], x.lr1[m][j] = math.Log(r0[j]), math.Log(r1[j])
			for k := range M {
				mu := x.comps[k].mu[j]
				pre[k] *= r0[j]*(1-mu) + r1[j]*mu
			}
		}
		for k := range M {
			x.pi[m*M+k] = pre[k]
		}
	}
	if !x.v.FixLambda {
		x.updateLambda()
	}
	// Q(m) ∝ exp(−E_m) (eqs. 2.33-2.35), −E_m = 𝓛_mft(m) + ⟨ln R(·|m)⟩_m
	// − Σ_k λ_k π(k, m) + ln λ_m (the text's eq. 2.34 has + before the λ
	// sum; the derivative of eq. 2.24 in Q(m) has −).
	for m := range M {
		l, hh := x.lmf[m][0], x.lmf[m][1]
		s := 0.0
		for k := range M {
			s += x.lam[k] * x.pi[k*M+m]
		}
		if x.v.TextQSign {
			s = -s
		}
		x.negE[m] = l + hh + x.lnR(m) - s + math.Log(x.lam[m])
	}
	numeric.NormalizeLogTo(x.q, x.negE)
	for m := range M {
		x.q[m] = math.Max(x.q[m], tiny)
	}
	if !x.v.FixLambda {
		x.updateLambda()
	}
}

// tiny keeps R, Q(m) positive where they would underflow.
const tiny = 1e-300

// M updates every component's ξ_im (L1019), or the shared ξ_i.
func (x *Mixture) M() {
	if x.v.SharedXi {
		for i := range x.net.Units() {
			x.updateXiShared(i)
		}
		return
	}
	for _, c := range x.comps {
		for i := range x.net.Units() {
			x.net.updateXi(i, c, x.wk)
		}
	}
}

// Bound is 𝓛_λ of eq. 2.25 with every term: "<lnP>" Σ_m Q(m)Λ_m, "H[q|m]"
// the components' entropies, and the terms of 𝓘 (eq. 2.24): "<lnR>",
// "H[Q(m)]", "-lambda.pi", "<ln lambda>" and the constant "+1".
func (x *Mixture) Bound() vb.Bound {
	M := len(x.comps)
	var lp, ent, lr, hq, lpi, ll float64
	for m := range M {
		l, h := x.net.bound(x.comps[m])
		lp += x.q[m] * l
		ent += x.q[m] * h
		lr += x.q[m] * x.lnR(m)
		hq -= numeric.XLogY(x.q[m], x.q[m])
		for k := range M {
			lpi -= x.lam[m] * x.q[k] * x.pi[m*M+k]
		}
		ll += x.q[m] * math.Log(x.lam[m])
	}
	f := lp + ent + lr + hq + lpi + ll + 1
	return vb.Bound{F: f, Terms: []vb.Term{{Name: "<lnP>", Value: lp}, {Name: "H[q|m]", Value: ent},
		{Name: "<lnR>", Value: lr}, {Name: "H[Q(m)]", Value: hq}, {Name: "-lambda.pi", Value: lpi},
		{Name: "<ln lambda>", Value: ll}, {Name: "+1", Value: 1}}}
}

// Weights returns Q(m) (not a copy).
func (x *Mixture) Weights() []float64 { return x.q }

// MutualInformation is the exact I(m, H) of eq. 2.21 by enumerating the
// latent states (for tests and small nets).
func (x *Mixture) MutualInformation() float64 {
	h := x.net.Hidden()
	M := len(x.comps)
	lq := make([]float64, M)
	I := 0.0
	for s := range 1 << h {
		for m := range M {
			lq[m] = math.Log(x.q[m])
			for j := range h {
				if (s>>j)&1 == 1 {
					lq[m] += math.Log(x.comps[m].mu[j])
				} else {
					lq[m] += math.Log1p(-x.comps[m].mu[j])
				}
			}
		}
		lmix := numeric.LogSumExp(lq)
		for m := range M {
			p := math.Exp(lq[m])
			I += p * (lq[m] - math.Log(x.q[m]) - lmix)
		}
	}
	return I
}

// updateXiShared minimises Σ_m Q(m) u_im(ξ) over a ξ_i shared by every
// component (Variant.SharedXi) by the safeguarded Newton steps of updateXi.
func (x *Mixture) updateXiShared(i int) {
	n := x.net
	if len(n.w[i]) == 0 {
		return
	}
	k := len(n.w[i])
	c0 := x.comps[0]
	eval := func(xi float64, ea, eb []float64) (u, du, d2u float64) {
		for m, c := range x.comps {
			a, b, d, _, _ := n.sjj(i, c.mu, xi, ea, eb)
			u += x.q[m] * a
			du += x.q[m] * b
			d2u += x.q[m] * d
		}
		return
	}
	xi, moved := newtonXi(n, i, c0.xi[i], c0.ea[i], c0.eb[i], x.wk.ea[:k], x.wk.eb[:k], eval, func(ea, eb []float64) {
		for _, c := range x.comps {
			copy(c.ea[i], ea)
			copy(c.eb[i], eb)
		}
	})
	if moved {
		for _, c := range x.comps {
			c.xi[i] = xi
			n.products(i, c)
		}
	}
}
