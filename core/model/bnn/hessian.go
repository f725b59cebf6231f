package bnn

import "fmt"

// OutputGrad returns f(x, w) (eq. 5.2) and writes ∇_w f into g (length
// NumWeights): ∂f/∂u_hi = v_h g'(a_h) x̃_i, ∂f/∂v_h = g(a_h), ∂f/∂v_bias = 1,
// with a_h = u_hᵀx̃. It is the g of the linearised predictive variance
// gᵀA⁻¹g + 1/β of the evidence procedure (MacKay 1992; Laplace.Predict).
// act is scratch of length Hidden (nil to allocate).
func (a Arch) OutputGrad(w, x, g, act []float64) float64 {
	if act == nil {
		act = make([]float64, a.Hidden)
	}
	f := a.Forward(w, x, act)
	v := w[a.U():]
	gv := g[a.U():]
	gv[a.Hidden] = 1
	for h, s := range act {
		gv[h] = G(s)
		c := v[h] * GPrime(s)
		gu := g[h*(a.In+1) : (h+1)*(a.In+1)]
		for i, xi := range x[:a.In] {
			gu[i] = c * xi
		}
		gu[a.In] = c
	}
	return f
}

// ErrorHessian returns E_D(w) of eq. 5.5 over the rows of x and writes
// its exact Hessian ∇∇E_D into hess (K×K, row-major, K = NumWeights):
//
//	∇∇E_D = Σ_n [∇f_n ∇f_nᵀ + r_n ∇∇f_n],   r_n = f(x_n, w) − t_n,
//
// where the only non-zero second derivatives of f are
// ∂²f/∂u_hi∂u_hj = v_h g″(a_h) x̃_i x̃_j with g″(a) = −a g'(a), and
// ∂²f/∂u_hi∂v_h = g'(a_h) x̃_i (biases as x̃_In = 1). The Hessian of the
// evidence procedure (eq. 5.18) is β times this plus the prior's diagonal
// (Problem.Hessian).
func (a Arch) ErrorHessian(w []float64, x [][]float64, t []float64, hess []float64) float64 {
	k := a.NumWeights()
	if len(hess) != k*k {
		panic(fmt.Sprintf("bnn: ErrorHessian: hess has %d entries, want %d", len(hess), k*k))
	}
	clear(hess)
	act := make([]float64, a.Hidden)
	j := make([]float64, k)
	v := w[a.U():]
	in := a.In + 1
	var e float64
	for n, xn := range x {
		r := a.OutputGrad(w, xn, j, act) - t[n]
		e += r * r / 2
		// the Gauss-Newton part ∇f ∇fᵀ (upper triangle, mirrored below).
		for p := range k {
			jp := j[p]
			if jp == 0 {
				continue
			}
			row := hess[p*k : (p+1)*k]
			for q := p; q < k; q++ {
				row[q] += jp * j[q]
			}
		}
		// r ∇∇f.
		for h, s := range act {
			gp := GPrime(s)
			c := r * v[h] * (-s * gp)
			vh := a.U() + h
			for i := range in {
				xi := 1.0
				if i < a.In {
					xi = xn[i]
				}
				p := h*in + i
				for jj := i; jj < in; jj++ {
					xj := 1.0
					if jj < a.In {
						xj = xn[jj]
					}
					hess[p*k+h*in+jj] += c * xi * xj
				}
				hess[p*k+vh] += r * gp * xi
			}
		}
	}
	for p := range k {
		for q := p + 1; q < k; q++ {
			hess[q*k+p] = hess[p*k+q]
		}
	}
	return e
}

// Hessian writes into hess (K×K) the exact Hessian of the MAP objective
// M(w) = βE_D(w) + Σ_g α_g E_{w,g}(w), E_{w,g} = ½ Σ_{k∈g} w_k² (eqs. 5.18,
// 5.43): β∇∇E_D + diag(α_{group[k]}), and returns M(w). group is the
// group of every weight (Arch.Groups), alpha the precision of each group.
func (p *Problem) Hessian(w, alpha []float64, beta float64, group []int, hess []float64) float64 {
	ed := p.ErrorHessian(w, p.X, p.T, hess)
	k := p.NumWeights()
	for i := range hess {
		hess[i] *= beta
	}
	m := beta * ed
	for i := range k {
		hess[i*k+i] += alpha[group[i]]
		m += alpha[group[i]] * w[i] * w[i] / 2
	}
	return m
}
