package lds

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// mvn is a multivariate normal N(mean, cov) for the Monte Carlo tests, held
// as the Cholesky factor of cov.
type mvn struct {
	n      int
	mean   []float64
	l      []float64 // lower factor of cov
	logDet float64   // ln|cov|
}

func newMVN(mean []float64, cov *mat.SymDense) mvn {
	n := len(mean)
	l := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			l[i*n+j] = cov.At(i, j)
		}
	}
	if !numeric.CholFactor(l, n) {
		panic("covariance not positive definite")
	}
	return mvn{n: n, mean: append([]float64(nil), mean...), l: l, logDet: numeric.CholLogDet(l, n)}
}

// draw sets x = mean + scale·Lz with z standard normal.
func (g mvn) draw(x []float64, scale float64, rnd *rand.Rand, z []float64) {
	for i := range z[:g.n] {
		z[i] = rnd.NormFloat64()
	}
	for i := 0; i < g.n; i++ {
		s := 0.0
		for j := 0; j <= i; j++ {
			s += g.l[i*g.n+j] * z[j]
		}
		x[i] = g.mean[i] + scale*s
	}
}

// logProb returns ln N(x | mean, scale²·cov) (z is scratch).
func (g mvn) logProb(x []float64, scale float64, z []float64) float64 {
	for i := 0; i < g.n; i++ {
		z[i] = (x[i] - g.mean[i]) / scale
	}
	numeric.CholSolveVec(g.l, g.n, z)
	var q float64
	for _, v := range z[:g.n] {
		q += v * v
	}
	return -0.5*q - 0.5*g.logDet - float64(g.n)*math.Log(scale) - 0.5*float64(g.n)*math.Log(2*math.Pi)
}

// logNormDiag returns ln N(x | 0, diag(prec)⁻¹/c) for precisions c·prec_j.
func logNormDiag(x, prec []float64, c float64) float64 {
	var s float64
	for j, v := range x {
		t := c * prec[j]
		s += 0.5*math.Log(t/(2*math.Pi)) - 0.5*t*v*v
	}
	return s
}

// subCov returns the block [lo, hi) of the square matrix s.
func subCov(s *mat.SymDense, lo, hi int) *mat.SymDense {
	out := mat.NewSymDense(hi-lo, nil)
	for i := lo; i < hi; i++ {
		for j := lo; j < hi; j++ {
			out.SetSym(i-lo, j-lo, s.At(i, j))
		}
	}
	return out
}

// TestMonteCarloBound checks every term of F (eq. 5.147) and F itself
// against plain Monte Carlo under q (targets §1.13 item 7; the method of
// gonum's statdist tests, STYLE.md §1.A.5): the five KL divergences as the
// averages of ln q − ln p over draws θ ~ q(B) q(A|B) q(ρ) q(D|ρ) q(C|ρ,D)
// (each conditional KL on the draws of what it conditions on), and F as the
// average of ln p(y, x, θ) − ln q(x) − ln q(θ) over θ ~ q(θ) and
// x ~ q(x_{0:T}) (drawn forwards along each chain from the marginals ω_t,
// Υ_{t,t}, Υ_{t,t+1}). Each estimate must lie within 3 standard errors of the
// closed form. The model has been iterated with every hyperparameter update,
// so α, β, γ, δ, a, b, μ_0 and Σ_0 differ from their defaults.
func TestMonteCarloBound(t *testing.T) {
	cases := []struct {
		name    string
		k, p, d int
		lens    []int
	}{
		{"k=2,p=3,no inputs,T=10", 2, 3, 0, []int{10}},
		{"k=2,p=2,d=1,T=(12,5)", 2, 2, 1, []int{12, 5}},
	}
	const draws = 100000
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(21, uint64(ci)))
			data := simulateAll(rnd, randomParams(rnd, c.k, c.p, c.d), c.lens)
			m := mustNew(t, data, Settings{K: c.k, Sigma0Update: Sigma0Full}, 5)
			iterate(t, m, 3)
			b := mustE(t, m)
			t.Logf("α = %.3g, γ = %.3g, β = %.3g, δ = %.3g, a = %.3g, b = %.3g", m.Hyper.Alpha, m.Hyper.Gamma, m.Hyper.Beta, m.Hyper.Delta, m.Hyper.NoiseShape, m.Hyper.NoiseRate)
			exact := map[string]float64{}
			for _, term := range b.Terms {
				exact[term.Name] = -term.Value
			}
			exact["F"] = b.F

			k, p, d, n1 := m.k, m.p, m.d, m.n1
			// q(A, B): rows [a_(j); b_(j)] ~ N(m_j, Σ_AB); q(B) from its block.
			covAB, covCD := m.CovAB(), m.CovCD()
			Am, Cm := m.A(), m.C()
			Bm, Dm := m.B(), m.D()
			rowsAB, rowsB := make([]mvn, k), make([]mvn, k)
			for j := 0; j < k; j++ {
				mean := make([]float64, n1)
				mat.Row(mean[:k], j, Am)
				if d > 0 {
					mat.Row(mean[k:], j, Bm)
				}
				rowsAB[j] = newMVN(mean, covAB)
				if d > 0 {
					rowsB[j] = newMVN(mean[k:], subCov(covAB, k, n1))
				}
			}
			rowsCD, rowsD := make([]mvn, p), make([]mvn, p)
			for s := 0; s < p; s++ {
				mean := make([]float64, n1)
				mat.Row(mean[:k], s, Cm)
				if d > 0 {
					mat.Row(mean[k:], s, Dm)
				}
				rowsCD[s] = newMVN(mean, covCD)
				if d > 0 {
					rowsD[s] = newMVN(mean[k:], subCov(covCD, k, n1))
				}
			}
			qrho := m.NoisePosterior()
			prho := dist.Gamma{Alpha: m.Hyper.NoiseShape, Beta: m.Hyper.NoiseRate}
			h := m.Hyper

			// q(x_{0:T}) of each sequence as a chain: x_0 ~ N(ω_0, Υ_00),
			// x_t | x_{t−1} ~ N(ω_t + G_t(x_{t−1} − ω_{t−1}), S_t) with
			// G_t = Υ_{t−1,t}ᵀΥ_{t−1,t−1}⁻¹, S_t = Υ_{t,t} − G_tΥ_{t−1,t}.
			type chain struct {
				steps []mvn // t = 0..T, the conditional (t ≥ 1) or marginal (t = 0)
				gain  [][]float64
				omega [][]float64
			}
			chains := make([]chain, len(m.post))
			for i := range m.post {
				post := m.Posterior(i)
				T := post.T
				om := func(t int) []float64 {
					if t == 0 {
						return post.X0
					}
					return post.X[(t-1)*k : t*k]
				}
				cv := func(t int) *mat.SymDense {
					if t == 0 {
						return mat.NewSymDense(k, append([]float64(nil), post.V0...))
					}
					return mat.NewSymDense(k, append([]float64(nil), post.V[(t-1)*k*k:t*k*k]...))
				}
				cr := func(t int) *mat.Dense { // Υ_{t,t+1}
					if t == 0 {
						return mat.NewDense(k, k, append([]float64(nil), post.W0...))
					}
					return mat.NewDense(k, k, append([]float64(nil), post.W[(t-1)*k*k:t*k*k]...))
				}
				ch := chain{steps: []mvn{newMVN(om(0), cv(0))}, gain: [][]float64{nil}, omega: [][]float64{om(0)}}
				for tt := 1; tt <= T; tt++ {
					var g mat.Dense // G_tᵀ = Υ_{t−1,t−1}⁻¹Υ_{t−1,t}
					if err := g.Solve(cv(tt-1), cr(tt-1)); err != nil {
						t.Fatal(err)
					}
					var sc mat.Dense
					sc.Mul(cr(tt-1).T(), &g)
					S := mat.NewSymDense(k, nil)
					for a := 0; a < k; a++ {
						for bb := 0; bb < k; bb++ {
							S.SetSym(a, bb, cv(tt).At(a, bb)-0.5*(sc.At(a, bb)+sc.At(bb, a)))
						}
					}
					gt := make([]float64, k*k)
					for a := 0; a < k; a++ {
						for bb := 0; bb < k; bb++ {
							gt[a*k+bb] = g.At(bb, a)
						}
					}
					ch.steps = append(ch.steps, newMVN(make([]float64, k), S))
					ch.gain = append(ch.gain, gt)
					ch.omega = append(ch.omega, om(tt))
				}
				chains[i] = ch
			}
			lam0 := mat.NewSymDense(k, append([]float64(nil), h.Lambda0...))
			var l0 mat.Cholesky
			if !l0.Factorize(lam0) {
				t.Fatal("Λ_0")
			}
			var sig0 mat.SymDense
			if err := l0.InverseTo(&sig0); err != nil {
				t.Fatal(err)
			}
			prior0 := newMVN(h.Mu0, &sig0)

			names := []string{TermKLA, TermKLRho, TermKLC, "F"}
			if d > 0 {
				names = append(names, TermKLB, TermKLD)
			}
			sum, sum2 := map[string]float64{}, map[string]float64{}
			ab := make([][]float64, k)
			cd := make([][]float64, p)
			for j := range ab {
				ab[j] = make([]float64, n1)
			}
			for s := range cd {
				cd[s] = make([]float64, n1)
			}
			rho := make([]float64, p)
			z := make([]float64, max(n1, k))
			xs := make([][]float64, 0)
			mu := make([]float64, k)
			for range draws {
				v := map[string]float64{}
				for j := 0; j < k; j++ {
					rowsAB[j].draw(ab[j], 1, rnd, z)
					lqAB := rowsAB[j].logProb(ab[j], 1, z)
					lpA := logNormDiag(ab[j][:k], h.Alpha, 1)
					if d > 0 {
						lqB := rowsB[j].logProb(ab[j][k:], 1, z)
						v[TermKLB] += lqB - logNormDiag(ab[j][k:], h.Beta, 1)
						v[TermKLA] += lqAB - lqB - lpA
					} else {
						v[TermKLA] += lqAB - lpA
					}
				}
				for s := 0; s < p; s++ {
					rho[s] = qrho[s].Rand(rnd)
					v[TermKLRho] += qrho[s].LogProb(rho[s]) - prho.LogProb(rho[s])
					sc := 1 / math.Sqrt(rho[s])
					rowsCD[s].draw(cd[s], sc, rnd, z)
					lqCD := rowsCD[s].logProb(cd[s], sc, z)
					lpC := logNormDiag(cd[s][:k], h.Gamma, rho[s])
					if d > 0 {
						lqD := rowsD[s].logProb(cd[s][k:], sc, z)
						v[TermKLD] += lqD - logNormDiag(cd[s][k:], h.Delta, rho[s])
						v[TermKLC] += lqCD - lqD - lpC
					} else {
						v[TermKLC] += lqCD - lpC
					}
				}
				// F: ln p(y, x | θ) − ln q(x) − Σ (ln q − ln p)(θ).
				f := -(v[TermKLA] + v[TermKLB] + v[TermKLRho] + v[TermKLC] + v[TermKLD])
				for i, ch := range chains {
					y, u := m.data.y[i], m.data.u[i]
					T := len(ch.steps) - 1
					for len(xs) <= T {
						xs = append(xs, make([]float64, k))
					}
					ch.steps[0].draw(xs[0], 1, rnd, z)
					f -= ch.steps[0].logProb(xs[0], 1, z)
					f += prior0.logProb(xs[0], 1, z)
					for tt := 1; tt <= T; tt++ {
						st := ch.steps[tt]
						for a := 0; a < k; a++ {
							mu[a] = ch.omega[tt][a]
							for bb := 0; bb < k; bb++ {
								mu[a] += ch.gain[tt][a*k+bb] * (xs[tt-1][bb] - ch.omega[tt-1][bb])
							}
						}
						copy(st.mean, mu)
						st.draw(xs[tt], 1, rnd, z)
						f -= st.logProb(xs[tt], 1, z)
						// ln N(x_t | A x_{t−1} + B u_t, I).
						for a := 0; a < k; a++ {
							e := xs[tt][a]
							for bb := 0; bb < k; bb++ {
								e -= ab[a][bb] * xs[tt-1][bb]
							}
							for cc := 0; cc < d; cc++ {
								e -= ab[a][k+cc] * u[(tt-1)*d+cc]
							}
							f += -0.5*e*e - 0.5*math.Log(2*math.Pi)
						}
						// Σ_s ln N(y_ts | c_s x_t + d_s u_t, 1/ρ_s).
						for s := 0; s < p; s++ {
							e := y[(tt-1)*p+s]
							for bb := 0; bb < k; bb++ {
								e -= cd[s][bb] * xs[tt][bb]
							}
							for cc := 0; cc < d; cc++ {
								e -= cd[s][k+cc] * u[(tt-1)*d+cc]
							}
							f += 0.5*math.Log(rho[s]/(2*math.Pi)) - 0.5*rho[s]*e*e
						}
					}
				}
				v["F"] = f
				for _, n := range names {
					sum[n] += v[n]
					sum2[n] += v[n] * v[n]
				}
			}
			for _, n := range names {
				mean := sum[n] / draws
				se := math.Sqrt((sum2[n]/draws - mean*mean) / draws)
				t.Logf("%-14s closed form %12.6f, Monte Carlo %12.6f ± %.6f (a KL term as the KL, without its sign)", n, exact[n], mean, se)
				if math.Abs(mean-exact[n]) > 3*se {
					t.Errorf("%s: closed form %.6f, Monte Carlo %.6f ± %.6f (%.1f standard errors)", n, exact[n], mean, se, (mean-exact[n])/se)
				}
			}
		})
	}
}
