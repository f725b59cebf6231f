package lds

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fullBound evaluates the bound in its uncollapsed form (Beal 2003 eqs.
// 5.30, 5.142),
//
//	F(q_x, q_θ) = Σ_i [⟨ln p(x_i, y_i | θ)⟩_{q_x q_θ} + H(q_x(x_{i,0:T}))] − KL(q_θ ‖ p(θ)),
//
// from the model's stored q(x) (the last VBE step's marginals), q(θ) and
// hyperparameters, with ⟨ln p(x, y | θ)⟩ in closed form from the marginals
// and φ̄, and the entropy of each Gauss-Markov chain q(x_{0:T}) as
// H(x_0) + Σ_t H(x_t | x_{t−1}). Unlike E's collapsed form (eq. 5.147) it is
// valid for any q_x, so it can be evaluated after M and UpdateHyper too.
func fullBound(m *VB) float64 {
	k, p, d := m.k, m.p, m.d
	phi := m.phi
	A := mat.NewDense(k, k, phi.A)
	AtA := mat.NewDense(k, k, phi.AtA)
	CRC := mat.NewDense(k, k, phi.CtRhoC)
	RhoC := mat.NewDense(p, k, phi.RhoC)
	lam0 := mat.NewSymDense(k, append([]float64(nil), m.Hyper.Lambda0...))
	var ch0 mat.Cholesky
	if !ch0.Factorize(lam0) {
		panic("Λ_0")
	}
	ln2pi := math.Log(2 * math.Pi)
	var f float64
	for i := range m.post {
		post := &m.post[i]
		y, u := m.data.y[i], m.data.u[i]
		T := post.T
		mean := func(t int) *mat.VecDense { // ω_t, t = 0..T
			if t == 0 {
				return mat.NewVecDense(k, append([]float64(nil), post.X0...))
			}
			return mat.NewVecDense(k, append([]float64(nil), post.X[(t-1)*k:t*k]...))
		}
		cov := func(t int) *mat.Dense {
			if t == 0 {
				return mat.NewDense(k, k, append([]float64(nil), post.V0...))
			}
			return mat.NewDense(k, k, append([]float64(nil), post.V[(t-1)*k*k:t*k*k]...))
		}
		cross := func(t int) *mat.Dense { // Υ_{t,t+1}
			if t == 0 {
				return mat.NewDense(k, k, append([]float64(nil), post.W0...))
			}
			return mat.NewDense(k, k, append([]float64(nil), post.W[(t-1)*k*k:t*k*k]...))
		}
		second := func(a *mat.Dense, x, z *mat.VecDense) *mat.Dense { // a + x zᵀ
			var o mat.Dense
			o.Outer(1, x, z)
			o.Add(&o, a)
			return &o
		}
		// ⟨ln N(x_0 | μ_0, Σ_0)⟩ and H(x_0).
		w0, v0 := mean(0), cov(0)
		dev := mat.NewVecDense(k, nil)
		dev.SubVec(w0, mat.NewVecDense(k, append([]float64(nil), m.Hyper.Mu0...)))
		var tmp mat.Dense
		tmp.Mul(lam0, v0)
		f += -0.5*float64(k)*ln2pi + 0.5*ch0.LogDet() - 0.5*(mat.Trace(&tmp)+mat.Inner(dev, lam0, dev))
		f += 0.5 * (float64(k)*(1+ln2pi) + logDet(v0))
		for t := 1; t <= T; t++ {
			wt, wp := mean(t), mean(t-1)
			exx := second(cov(t), wt, wt)
			epp := second(cov(t-1), wp, wp)
			ecr := second(cross(t-1), wp, wt) // ⟨x_{t−1} x_tᵀ⟩
			var ae, ap mat.Dense
			ae.Mul(A, ecr)
			ap.Mul(AtA, epp)
			dyn := mat.Trace(exx) - 2*mat.Trace(&ae) + mat.Trace(&ap)
			yt := mat.NewVecDense(p, append([]float64(nil), y[(t-1)*p:t*p]...))
			var out float64
			for s := 0; s < p; s++ {
				out += phi.Rho[s] * yt.AtVec(s) * yt.AtVec(s)
			}
			var cx mat.Dense
			cx.Mul(CRC, exx)
			out += mat.Trace(&cx) - 2*mat.Inner(yt, RhoC, wt)
			if d > 0 {
				ut := mat.NewVecDense(d, append([]float64(nil), u[(t-1)*d:t*d]...))
				B := mat.NewDense(k, d, phi.B)
				AtB := mat.NewDense(k, d, phi.AtB)
				BtB := mat.NewDense(d, d, phi.BtB)
				CRD := mat.NewDense(k, d, phi.CtRhoD)
				RhoD := mat.NewDense(p, d, phi.RhoD)
				DRD := mat.NewDense(d, d, phi.DtRhoD)
				dyn += -2*mat.Inner(wt, B, ut) + 2*mat.Inner(wp, AtB, ut) + mat.Inner(ut, BtB, ut)
				out += -2*mat.Inner(yt, RhoD, ut) + 2*mat.Inner(wt, CRD, ut) + mat.Inner(ut, DRD, ut)
			}
			f += -0.5*float64(k)*ln2pi - 0.5*dyn - 0.5*float64(p)*ln2pi + 0.5*phi.LogDetRho - 0.5*out
			// H(x_t | x_{t−1}): S = Υ_{t,t} − Υ_{t−1,t}ᵀ Υ_{t−1,t−1}⁻¹ Υ_{t−1,t}.
			var sol, s mat.Dense
			if err := sol.Solve(cov(t-1), cross(t-1)); err != nil {
				panic(err)
			}
			s.Mul(cross(t-1).T(), &sol)
			s.Sub(cov(t), &s)
			f += 0.5 * (float64(k)*(1+ln2pi) + logDet(&s))
		}
	}
	kla, klb, klr, kld, klc := m.kls()
	return f - kla - klb - klr - kld - klc
}

// logDet returns ln|a| of a symmetric positive-definite a.
func logDet(a mat.Matrix) float64 {
	r, _ := a.Dims()
	s := mat.NewSymDense(r, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < r; j++ {
			s.SetSym(i, j, 0.5*(a.At(i, j)+a.At(j, i)))
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(s) {
		panic("not positive definite")
	}
	return ch.LogDet()
}

// boundCases are the shapes of the bound tests: without inputs on one
// sequence, and with inputs on three sequences of different lengths.
var boundCases = []struct {
	name       string
	k, p, d    int
	lens       []int
	kTrue      int
	sigma0Mode Sigma0Mode
}{
	{"k=3,p=4,no inputs,T=40", 3, 4, 0, []int{40}, 2, Sigma0Diagonal},
	{"k=2,p=3,d=2,T=(25,7,16)", 2, 3, 2, []int{25, 7, 16}, 2, Sigma0Full},
	{"k=4,p=2,d=1,T=(12,30),isotropic", 4, 2, 1, []int{12, 30}, 2, Sigma0Isotropic},
}

// TestBoundCollapse checks eq. 5.147 against the uncollapsed bound: straight
// after a VBE step, Σ ln Z' − Σ KL equals ⟨ln p(x, y | θ)⟩ + H(q_x) − Σ KL
// evaluated from the marginals (1e-10 relative), at the first E step and
// after iterations with every hyperparameter update.
func TestBoundCollapse(t *testing.T) {
	for ci, c := range boundCases {
		t.Run(c.name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(11, uint64(ci)))
			data := simulateAll(rnd, randomParams(rnd, c.kTrue, c.p, c.d), c.lens)
			m := mustNew(t, data, Settings{K: c.k, Sigma0Update: c.sigma0Mode}, 3)
			for it := 0; it < 25; it++ {
				b := mustE(t, m)
				if full := fullBound(m); math.Abs(full-b.F) > 1e-10*math.Abs(b.F) {
					t.Errorf("iteration %d: E's F = %.15g, uncollapsed F = %.15g (difference %.3g)", it, b.F, full, b.F-full)
				}
				m.M()
				for _, g := range m.HyperGroups() {
					m.UpdateHyper(g)
				}
			}
		})
	}
}

// TestStepsRaiseBound checks that every single step raises the uncollapsed
// bound F(q_x, q_θ, hyperparameters), not only the E steps that vb.Run
// records: E (over q_x), M (over q_θ) and each hyperparameter group with
// the rest fixed (Beal 2003 Theorem 2.1, eq. 2.79; targets §1.13 item 5),
// within 1e-10·|F|.
func TestStepsRaiseBound(t *testing.T) {
	for ci, c := range boundCases {
		t.Run(c.name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(12, uint64(ci)))
			data := simulateAll(rnd, randomParams(rnd, c.kTrue, c.p, c.d), c.lens)
			m := mustNew(t, data, Settings{K: c.k, Sigma0Update: c.sigma0Mode}, 4)
			mustE(t, m)
			prev := fullBound(m)
			check := func(it int, step string) {
				t.Helper()
				f := fullBound(m)
				if f < prev-1e-10*math.Abs(prev) {
					t.Errorf("iteration %d: %s lowered F from %.15g to %.15g (by %.3g)", it, step, prev, f, prev-f)
				}
				prev = f
			}
			for it := 0; it < 40; it++ {
				m.M()
				check(it, "M")
				for _, g := range m.HyperGroups() {
					m.UpdateHyper(g)
					check(it, "UpdateHyper("+g+")")
				}
				mustE(t, m)
				check(it, "E")
			}
		})
	}
}
