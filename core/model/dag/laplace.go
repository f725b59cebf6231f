package dag

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Unconstrained is the log joint ln p(θ|m) + ln p(y|θ) of a Problem, the
// hidden variables summed out (eqs. (6.4), (6.11)), in unconstrained
// coordinates u with the log Jacobian of θ(u) added, so that
// ∫ exp(LogProb(u)) du = p(y|m) (eq. (6.12)): the density of Laplace's
// approximation (core/approx.Laplace; PRML eqs. (4.133)–(4.135)).
//
// Every Dirichlet row θ_jl = (θ_1, …, θ_K) is mapped to its additive
// log-ratios η_k = ln(θ_k/θ_K), k < K, the softmax basis of MacKay (1998),
// "Choice of basis for Laplace approximation" (θ_k = e^{η_k}/Σ_m e^{η_m},
// η_K = 0). The map η ↦ (θ_1, …, θ_{K−1}), the coordinates of the
// Dirichlet's density, has Jacobian Π_{k=1}^{K} θ_k, so with the prior
// (6.4) a row contributes
//
//	−ln B(λ_jl) + Σ_k λ_jlk ln θ_jlk
//
// (the Dirichlet's exponent λ − 1 raised by one): in this basis the row's
// density is the Dirichlet's on θ times the Jacobian, and Laplace's
// approximation of a Dirichlet-multinomial's B(λ + N) is Stirling's formula
// for each Γ (MacKay 1998). u holds the rows in the order of the
// structure's layout (nodes in order, then parent configurations), K − 1
// coordinates each: Dim() = NumParams(), d(m) of eq. (6.24).
//
// Each mode of p(θ|y) has S relabelled copies (the aliases of LogAliases);
// Laplace at one of them estimates p(y|m)/S when the copies are separate,
// so the caller adds ln S (as the corrected scores do, eq. (6.26)). An
// Unconstrained holds scratch: one per goroutine.
type Unconstrained struct {
	pr  *Problem
	dim int
	// coord is the coordinate of each θ index in u, −1 for the last entry
	// of its row; row the row of each θ index.
	coord, row []int32
	// rowCoord is the first coordinate of each row in u.
	rowCoord []int
	lam0     []float64 // λ⁰_jl = Σ_k λ_jlk per row

	theta, lnTheta, n Params
	phi, q            []float64 // h
	gbar              []float64 // Dim()
	mark              []bool    // Dim(): the coordinate is in touched
	touched           []int32   // coordinates of gbar that are set
	sp                []sparse  // the varying part of one configuration's gradient
}

// sparse is one coordinate and value of a sparse vector.
type sparse struct {
	i int32
	v float64
}

// NewUnconstrained returns the Laplace density of the problem.
func (pr *Problem) NewUnconstrained() *Unconstrained {
	s := pr.s
	u := &Unconstrained{pr: pr, coord: make([]int32, s.Len()), row: make([]int32, s.Len()),
		theta: make(Params, s.Len()), lnTheta: make(Params, s.Len()), n: make(Params, s.Len()),
		phi: make([]float64, pr.pl.h), q: make([]float64, pr.pl.h)}
	for r, start := range pr.rowStart {
		u.rowCoord = append(u.rowCoord, u.dim)
		var l0 float64
		for k := range pr.rowLen[r] {
			i := start + k
			u.row[i] = int32(r)
			u.coord[i] = -1
			if k < pr.rowLen[r]-1 {
				u.coord[i] = int32(u.dim)
				u.dim++
			}
			l0 += pr.lambda[i]
		}
		u.lam0 = append(u.lam0, l0)
	}
	u.gbar, u.mark = make([]float64, u.dim), make([]bool, u.dim)
	return u
}

// Dim returns the length of u, Σ_jl (|z_j| − 1) = Structure.NumParams().
func (u *Unconstrained) Dim() int { return u.dim }

// unpack sets θ and ln θ of the coordinates v: ln θ_k = η_k − ln Σ_m e^{η_m}.
func (u *Unconstrained) unpack(v []float64) {
	if len(v) != u.dim {
		panic("dag: Unconstrained: u of the wrong length")
	}
	pr := u.pr
	for r, start := range pr.rowStart {
		k := pr.rowLen[r]
		lt := u.lnTheta[start : start+k]
		copy(lt, v[u.rowCoord[r]:u.rowCoord[r]+k-1])
		lt[k-1] = 0
		lse := numeric.LogSumExp(lt)
		for c := range lt {
			lt[c] -= lse
			u.theta[start+c] = math.Exp(lt[c])
		}
	}
}

// logPrior returns Σ_jl [−ln B(λ_jl) + Σ_k λ_jlk ln θ_jlk], ln p(θ|m) of
// eq. (6.4) plus the log Jacobian Σ ln θ, at the unpacked point.
func (u *Unconstrained) logPrior() float64 {
	var lp float64
	for _, b := range u.pr.lnB {
		lp -= b
	}
	for i, lt := range u.lnTheta {
		lp += u.pr.lambda[i] * lt
	}
	return lp
}

// LogProb returns ln p(θ(v)|m) + ln p(y|θ(v)) + ln|∂θ/∂v| (Problem.LogLik
// for the likelihood). It panics if len(v) != Dim(). It does not allocate.
func (u *Unconstrained) LogProb(v []float64) float64 {
	u.unpack(v)
	return u.logPrior() + u.pr.LogLik(u.theta)
}

// Grad writes ∇_v LogProb(v) into dst (len Dim()) and returns LogProb(v)
// with the likelihood summed per pattern by the E step (equal to
// LogProb's to rounding). With N̂ the expected counts of the exact E step
// at θ(v) (eqs. (6.16), (6.22)), ∂ ln p(y|θ)/∂θ_i = N̂_i/θ_i (p(y|θ) is
// multilinear in each row), and ∂ ln θ_k/∂η_m = δ_km − θ_m, so for the
// coordinate m of row jl
//
//	∂/∂η_m = λ_jlm + N̂_jlm − θ_jlm (λ⁰_jl + N̂_jl),  N̂_jl = Σ_k N̂_jlk
//
// (the expected counts minus N̂_jl θ, and the prior's λ the same way: the
// E step's responsibilities give the gradient, Beal (2003) ch. 6). It
// panics if len(v) or len(dst) != Dim(). It does not allocate.
func (u *Unconstrained) Grad(dst, v []float64) float64 {
	if len(dst) != u.dim {
		panic("dag: Unconstrained: gradient of the wrong length")
	}
	u.unpack(v)
	clear(u.n)
	ll := u.pr.pl.estep(u.theta, u.n, u.phi)
	u.gradFromCounts(dst)
	return u.logPrior() + ll
}

// gradFromCounts writes the gradient of Grad from the counts in u.n at the
// unpacked point.
func (u *Unconstrained) gradFromCounts(dst []float64) {
	pr := u.pr
	for r, start := range pr.rowStart {
		k := pr.rowLen[r]
		w := u.lam0[r]
		for i := start; i < start+k; i++ {
			w += u.n[i]
		}
		for i := start; i < start+k-1; i++ {
			dst[u.coord[i]] = pr.lambda[i] + u.n[i] - u.theta[i]*w
		}
	}
}

// Hess writes ∇∇_v LogProb(v) into dst (Dim()×Dim(), row-major). With
// ln Z_p = ln Σ_s exp ℓ_s, ℓ_s = Σ_{i used by s} ln θ_i (eq. (6.22)),
// its Hessian is E_q[∇∇ℓ_s] + Cov_q[∇ℓ_s] under q_p(s) of eq. (6.16);
// ∇ℓ_s = Σ_{i used by s} (e_i − θ_{row(i)}) and ∇∇ℓ_s = −Σ_{i used by s}
// M_{row(i)}, M_jl = diag θ_jl − θ_jl θ_jlᵀ on the row's first K − 1
// entries. Summed over patterns, and with the prior's Σ λ ln θ,
//
//	∇∇ = Σ_p w_p Cov_{q_p}[∇ℓ_s] − Σ_jl (λ⁰_jl + N̂_jl) M_jl,
//
// whose second term alone is the Hessian of a complete-data (or
// hidden-free) problem. It panics if len(v) != Dim() or len(dst) !=
// Dim()². It does not allocate after its first call.
func (u *Unconstrained) Hess(dst, v []float64) {
	u.GradHess(nil, dst, v)
}

// GradHess writes Grad's gradient into grad (if not nil) and Hess's
// values into hess from one pass of the E step over the patterns, for
// approx.Func.GradHess. It panics as Grad and Hess do.
func (u *Unconstrained) GradHess(grad, hess, v []float64) {
	d := u.dim
	if len(hess) != d*d || (grad != nil && len(grad) != d) {
		panic("dag: Unconstrained: derivatives of the wrong size")
	}
	u.unpack(v)
	clear(u.n)
	clear(hess)
	pl := &u.pr.pl
	h, jc, jv := pl.h, pl.jc, pl.jv
	th := u.theta
	for p, w := range pl.w {
		ci := pl.cidx[p*jc : (p+1)*jc]
		vi := pl.vidx[p*h*jv : (p+1)*h*jv]
		var z float64
		for c := range h {
			u.phi[c] = prodAt(th, vi[c*jv:(c+1)*jv])
			z += u.phi[c]
		}
		if z*prodAt(th, ci) >= tiny {
			for c := range h {
				u.q[c] = u.phi[c] / z
			}
		} else if math.IsInf(logPattern(th, ci, vi, h, jv, u.q), -1) {
			continue // Z_p = 0: no counts (as estep)
		}
		for _, i := range ci {
			u.n[i] += w
		}
		// Σ_s q_s g_s g_sᵀ into hess and ḡ = Σ_s q_s g_s, g_s the part of
		// ∇ℓ_s that varies with s.
		for c := range h {
			qc := u.q[c]
			if qc == 0 {
				continue
			}
			sp := u.sp[:0]
			for _, i := range vi[c*jv : (c+1)*jv] {
				u.n[i] += w * qc
				r := u.row[i]
				start, k := u.pr.rowStart[r], u.pr.rowLen[r]
				for e := start; e < start+k-1; e++ {
					val := -th[e]
					if int32(e) == i {
						val++
					}
					sp = append(sp, sparse{u.coord[e], val})
				}
			}
			u.sp = sp
			for _, a := range sp {
				if !u.mark[a.i] {
					u.mark[a.i] = true
					u.touched = append(u.touched, a.i)
				}
				u.gbar[a.i] += qc * a.v
				wa := w * qc * a.v
				row := hess[int(a.i)*d : int(a.i+1)*d]
				for _, b := range sp {
					row[b.i] += wa * b.v
				}
			}
		}
		// − ḡḡᵀ.
		for _, a := range u.touched {
			ga := w * u.gbar[a]
			row := hess[int(a)*d : int(a+1)*d]
			for _, b := range u.touched {
				row[b] -= ga * u.gbar[b]
			}
		}
		for _, a := range u.touched {
			u.gbar[a], u.mark[a] = 0, false
		}
		u.touched = u.touched[:0]
	}
	for r, start := range u.pr.rowStart {
		k := u.pr.rowLen[r]
		a := u.lam0[r]
		for i := start; i < start+k; i++ {
			a += u.n[i]
		}
		for i := start; i < start+k-1; i++ {
			ci := int(u.coord[i])
			for e := start; e < start+k-1; e++ {
				m := -th[i] * th[e]
				if e == i {
					m += th[i]
				}
				hess[ci*d+int(u.coord[e])] -= a * m
			}
		}
	}
	if grad != nil {
		u.gradFromCounts(grad)
	}
}

// Pack returns the coordinates of θ, η_k = ln(θ_k/θ_K) in every row. It
// returns an error if θ fails CheckParams or has an entry that is not
// positive (a boundary point has no unconstrained coordinates).
func (u *Unconstrained) Pack(theta Params) ([]float64, error) {
	if err := u.pr.s.CheckParams(theta); err != nil {
		return nil, err
	}
	v := make([]float64, u.dim)
	pr := u.pr
	for r, start := range pr.rowStart {
		k := pr.rowLen[r]
		last := theta[start+k-1]
		for i := start; i < start+k; i++ {
			if !(theta[i] > 0) {
				return nil, fmt.Errorf("dag: Pack: θ entry %d is %v, not positive", i, theta[i])
			}
		}
		for i := start; i < start+k-1; i++ {
			v[u.coord[i]] = math.Log(theta[i]) - math.Log(last)
		}
	}
	return v, nil
}

// Unpack returns θ at the coordinates v (each row the softmax of its η
// and 0).
func (u *Unconstrained) Unpack(v []float64) Params {
	u.unpack(v)
	return u.theta.Clone()
}

// PosteriorMean returns the mean of the product of Dirichlets Dir(α_jl),
// α_jlk/α⁰_jl in every row (VB's q(θ) of eq. (6.40) gives Laplace its
// start). It panics if alpha has the wrong length.
func (s *Structure) PosteriorMean(alpha Params) Params {
	if len(alpha) != s.size {
		panic("dag: parameter vector has the wrong length")
	}
	m := alpha.Clone()
	for j := range s.arity {
		for l := range s.rows[j] {
			row := s.Row(m, j, l)
			var a0 float64
			for _, a := range row {
				a0 += a
			}
			for k := range row {
				row[k] /= a0
			}
		}
	}
	return m
}
