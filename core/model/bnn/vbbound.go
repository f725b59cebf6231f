package bnn

import (
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// The names of the bound's terms (eq. 5.32).
const (
	termLik   = "<ln p(D|w,beta)>"
	termPrior = "<ln p(w|alpha)>"
	termEnt   = "sum_m Q(m) H[q(w|m)]"
	termMI    = "I(m;w) bound"
	termKLA   = "-KL[alpha]"
	termKLB   = "-KL[beta]"
)

var ln2pi = math.Log(2 * math.Pi)

// eval computes the bound of eq. 5.32 (with the mutual-information bound
// of eq. 5.30 for M > 1; all constants kept), stores it with its terms and
// the per-component quantities the fixed-point updates need, and, when
// grad is not nil, writes its gradient in the full parameter vector
// (numParams: per component the means and log standard deviations, then
// per component the smoothing means, log standard deviations and ln λ).
// With smoothOnly the cached ⟨E_D⟩ of every component is reused (q(w)
// unchanged) and the data gradient is left out.
//
//	F = N/2 (⟨ln β⟩ − ln 2π) − ⟨β⟩ Σ_m Q(m)⟨E_D⟩_m                  (lik)
//	  + Σ_k ½(⟨ln α_k⟩ − ln 2π) − ½ Σ_k ⟨α_k⟩ Σ_m Q(m)(w̄_mk² + s_mk²) (prior, C.21)
//	  + Σ_m Q(m) [Σ_k ln s_mk + K/2 (1 + ln 2π)]                      (C.11)
//	  + 𝓘(m; w)                                                        (C.5, C.9, C.10)
//	  − Σ_j KL[q(α_j) ‖ p(α_j)] − KL[q(β) ‖ p(β)]
func (v *VB) eval(grad []float64, smoothOnly bool) {
	a := v.arch
	k := a.NumWeights()
	mc := len(v.q)
	n := float64(len(v.p.T))
	if grad != nil {
		clear(grad)
	}
	var lik, prior, ent, mi float64
	lik = n / 2 * (v.elb - ln2pi)
	for j := range k {
		prior += 0.5 * (v.ela[v.first[j]] - ln2pi)
		if s := v.second[j]; s >= 0 {
			prior += 0.5 * v.ela[s]
		}
	}
	for m, qm := range v.q {
		mean, logs := v.mean[m], v.logs[m]
		var gm, gs []float64
		if grad != nil {
			gm, gs = grad[m*2*k:m*2*k+k], grad[m*2*k+k:(m+1)*2*k]
		}
		if !smoothOnly {
			v.ed[m] = a.expectED(mean, logs, v.p.X, v.p.T, v.sc, gm, gs)
			if gm != nil {
				c := -v.eb * qm
				for j := range k {
					gm[j] *= c
					gs[j] *= c
				}
			}
		} else if gm != nil {
			clear(gm)
			clear(gs)
		}
		lik -= v.eb * qm * v.ed[m]
		var pm, hm float64
		for j := range k {
			al := v.precision(j)
			s2 := math.Exp(2 * logs[j])
			pm -= 0.5 * al * (mean[j]*mean[j] + s2)
			hm += logs[j]
			if gm != nil {
				gm[j] -= qm * al * mean[j]
				gs[j] += qm * (1 - al*s2)
			}
		}
		hm += float64(k) / 2 * (1 + ln2pi)
		prior += qm * pm
		ent += qm * hm
	}
	if mc > 1 {
		mi = v.evalMI(grad)
	}
	var kla, klb float64
	if !v.s.FixHyper {
		pa := dist.Gamma{Alpha: v.s.Hyper.AAlpha, Beta: v.s.Hyper.BAlpha}
		for _, q := range v.qa {
			kla -= dist.KLGamma(q, pa)
		}
		klb = -dist.KLGamma(v.qb, dist.Gamma{Alpha: v.s.Hyper.ABeta, Beta: v.s.Hyper.BBeta})
	}
	t := v.bound.Terms[:0]
	t = append(t, vb.Term{Name: termLik, Value: lik}, vb.Term{Name: termPrior, Value: prior},
		vb.Term{Name: termEnt, Value: ent})
	if mc > 1 {
		t = append(t, vb.Term{Name: termMI, Value: mi})
	}
	if !v.s.FixHyper {
		t = append(t, vb.Term{Name: termKLA, Value: kla}, vb.Term{Name: termKLB, Value: klb})
	}
	v.bound = vb.Bound{F: lik + prior + ent + mi + kla + klb, Terms: t}
	v.fresh = true
}

// evalMI returns 𝓘(m; w) of eq. 5.30 for diagonal components and
// smoothing distributions r(w|m) = exp(−½ Σ_k (w_k − r̄_mk)²/ρ_mk²)
// (unnormalised, L2842),
//
//	𝓘 = Σ_m Q(m)⟨ln r_m⟩_m − Σ_{m,m'} Q(m) λ_m' B_mm' − Σ_m Q(m) ln Q(m) + Σ_m Q(m) ln λ_m + 1,
//	⟨ln r_m⟩_m = −½ Σ_k (s_mk² + (w̄_mk − r̄_mk)²)/ρ_mk²                    (C.10)
//	ln B_mm'  = Σ_k [ln ρ_m'k − ½ ln(s_mk² + ρ_m'k²) − ½ (w̄_mk − r̄_m'k)²/(s_mk² + ρ_m'k²)]  (C.9)
//
// stores ln B in v.lnB and adds its gradient to grad (if not nil).
func (v *VB) evalMI(grad []float64) float64 {
	k := v.arch.NumWeights()
	mc := len(v.q)
	off := mc * 2 * k
	var mi float64 = 1
	for m, qm := range v.q {
		mean, logs := v.mean[m], v.logs[m]
		rm, rl := v.rmean[m], v.rlogs[m]
		var lnr float64
		for j := range k {
			s2, r2 := math.Exp(2*logs[j]), math.Exp(2*rl[j])
			d := mean[j] - rm[j]
			lnr -= 0.5 * (s2 + d*d) / r2
			if grad != nil {
				grad[m*2*k+j] -= qm * d / r2
				grad[m*2*k+k+j] -= qm * s2 / r2
				g := grad[off+m*(2*k+1):]
				g[j] += qm * d / r2
				g[k+j] += qm * (s2 + d*d) / r2
			}
		}
		mi += qm * (lnr + v.loglam[m])
		if grad != nil {
			grad[off+m*(2*k+1)+2*k] += qm
		}
		if qm > 0 {
			mi -= qm * math.Log(qm)
		}
		for mp := range mc {
			rm, rl := v.rmean[mp], v.rlogs[mp]
			var lb float64
			for j := range k {
				s2, r2 := math.Exp(2*logs[j]), math.Exp(2*rl[j])
				d := mean[j] - rm[j]
				s := s2 + r2
				lb += rl[j] - 0.5*math.Log(s) - 0.5*d*d/s
			}
			v.lnB[m][mp] = lb
			c := qm * math.Exp(v.loglam[mp]+lb)
			mi -= c
			if grad == nil || c == 0 {
				continue
			}
			g := grad[off+mp*(2*k+1):]
			for j := range k {
				s2, r2 := math.Exp(2*logs[j]), math.Exp(2*rl[j])
				d := mean[j] - rm[j]
				s := s2 + r2
				u := (d*d/s - 1) / s
				grad[m*2*k+j] += c * d / s
				grad[m*2*k+k+j] -= c * s2 * u
				g[j] -= c * d / s
				g[k+j] -= c * (1 + r2*u)
			}
			g[2*k] -= c
		}
	}
	return mi
}

// pack copies the optimised parameters into x: with smoothOnly the
// smoothing block (mixtures), else the full vector.
func (v *VB) pack(x []float64, smoothOnly bool) {
	k := v.arch.NumWeights()
	i := 0
	if !smoothOnly {
		for m := range v.q {
			i += copy(x[i:], v.mean[m])
			i += copy(x[i:], v.logs[m])
		}
	}
	if len(v.q) > 1 {
		for m := range v.q {
			i += copy(x[i:], v.rmean[m])
			i += copy(x[i:], v.rlogs[m])
			x[i] = v.loglam[m]
			i++
		}
	}
	_ = k
}

// unpack is pack's inverse.
func (v *VB) unpack(x []float64, smoothOnly bool) {
	k := v.arch.NumWeights()
	i := 0
	if !smoothOnly {
		for m := range v.q {
			i += copy(v.mean[m], x[i:i+k])
			i += copy(v.logs[m], x[i:i+k])
		}
	}
	if len(v.q) > 1 {
		for m := range v.q {
			i += copy(v.rmean[m], x[i:i+k])
			i += copy(v.rlogs[m], x[i:i+k])
			v.loglam[m] = x[i]
			i++
		}
	}
	v.fresh = false
}

// objective is −F as a function of the packed parameters, for L-BFGS.
func (v *VB) objective(x, g []float64, smoothOnly bool) float64 {
	for _, xi := range x {
		if math.IsNaN(xi) || math.Abs(xi) > 700 {
			return math.Inf(1)
		}
	}
	v.unpack(x, smoothOnly)
	v.eval(v.gfull, smoothOnly)
	if g != nil {
		src := v.gfull
		if smoothOnly {
			src = v.gfull[len(v.q)*2*v.arch.NumWeights():]
		}
		for i := range g {
			g[i] = -src[i]
		}
	}
	f := v.bound.F
	if math.IsNaN(f) {
		return math.Inf(1)
	}
	return -f
}

// updateLambda sets every λ_m' to its optimum given the rest,
// λ_m' = Q(m') / Σ_m Q(m) B_mm' (from ∂𝓘/∂λ_m' = 0 in eq. 5.28).
func (v *VB) updateLambda() {
	if len(v.q) == 1 {
		return
	}
	if !v.fresh {
		v.eval(nil, false)
	}
	mc := len(v.q)
	for mp := range mc {
		l := math.Inf(-1)
		for m, qm := range v.q {
			if qm > 0 {
				l = numeric.LogAddExp(l, math.Log(qm)+v.lnB[m][mp])
			}
		}
		if v.q[mp] > 0 && !math.IsInf(l, -1) {
			v.loglam[mp] = math.Log(v.q[mp]) - l
		}
	}
	v.fresh = false
}

// updateMixing sets Q(m) to its optimum given the rest of q and the
// smoothing parameters: F is Σ_m Q(m) c_m − Σ_m Q(m) ln Q(m) + const with
//
//	c_m = −⟨β⟩⟨E_D⟩_m − ½ Σ_k ⟨α_k⟩(w̄_mk² + s_mk²) + H[q(w|m)]
//	      + ⟨ln r_m⟩_m + ln λ_m − Σ_m' λ_m' B_mm',
//
// so Q(m) ∝ exp(c_m), the fixed point of L2140 and C.3, which maximises F
// over the simplex.
func (v *VB) updateMixing() {
	if !v.fresh {
		v.eval(nil, false)
	}
	k := v.arch.NumWeights()
	mc := len(v.q)
	c := v.cbuf
	for m := range mc {
		mean, logs := v.mean[m], v.logs[m]
		rm, rl := v.rmean[m], v.rlogs[m]
		cm := -v.eb*v.ed[m] + float64(k)/2*(1+ln2pi) + v.loglam[m]
		for j := range k {
			s2, r2 := math.Exp(2*logs[j]), math.Exp(2*rl[j])
			d := mean[j] - rm[j]
			cm += -0.5*v.precision(j)*(mean[j]*mean[j]+s2) + logs[j] - 0.5*(s2+d*d)/r2
		}
		for mp := range mc {
			cm -= math.Exp(v.loglam[mp] + v.lnB[m][mp])
		}
		c[m] = cm
	}
	l := numeric.LogSumExp(c)
	for m := range mc {
		v.q[m] = math.Exp(c[m] - l)
	}
	v.fresh = false
}
