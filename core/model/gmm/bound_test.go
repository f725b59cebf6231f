package gmm_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/gmm"
	"github.com/vbworkbench/vbw/core/numeric"
)

// prmlTerms evaluates the seven terms (10.71)–(10.77) of PRML's bound for
// the model's current q, term by term with gonum matrices and core/dist
// (an implementation independent of the model's short form), and returns
// their sum (10.70).
func prmlTerms(m *gmm.VB, x []float64) float64 {
	k, d, n := m.K(), m.D(), m.N()
	p := m.Prior()
	df := float64(d)
	r := m.Responsibilities()
	alpha := m.Alpha()
	var a0 float64
	for _, a := range alpha {
		a0 += a
	}
	w0 := mat.NewSymDense(d, append([]float64(nil), p.W0...))
	var w0inv mat.SymDense
	var ch mat.Cholesky
	ch.Factorize(w0)
	ch.InverseTo(&w0inv)
	pw, _ := dist.NewWishart(p.Nu0, w0)
	lnB0 := -pw.LogNormalizer()
	var t71, t72, t73, t74, t75, t76, t77 float64
	t73 = -dist.NewDirichlet(fill(k, p.Alpha0)).LogNormalizer()
	t76 = -dist.NewDirichlet(alpha).LogNormalizer()
	for j := 0; j < k; j++ {
		beta, nu, mj, winv := m.Component(j)
		wi := mat.NewSymDense(d, append([]float64(nil), winv...))
		var w mat.SymDense
		ch.Factorize(wi)
		ch.InverseTo(&w)
		qw, _ := dist.NewWishart(nu, &w)
		lnLam := qw.MeanLogDet()
		lnPi := numeric.Digamma(alpha[j]) - numeric.Digamma(a0)
		// N_k, x̄_k, S_k (10.51)–(10.53)
		var nk float64
		xbar := make([]float64, d)
		for i := 0; i < n; i++ {
			nk += r[j*n+i]
			for a := 0; a < d; a++ {
				xbar[a] += r[j*n+i] * x[i*d+a]
			}
		}
		sk := mat.NewSymDense(d, nil)
		if nk > 0 {
			for a := range xbar {
				xbar[a] /= nk
			}
			for i := 0; i < n; i++ {
				for a := 0; a < d; a++ {
					for b := a; b < d; b++ {
						sk.SetSym(a, b, sk.At(a, b)+r[j*n+i]*(x[i*d+a]-xbar[a])*(x[i*d+b]-xbar[b])/nk)
					}
				}
			}
		}
		quad := func(v []float64) float64 {
			u := mat.NewVecDense(d, v)
			return mat.Inner(u, &w, u)
		}
		var sw mat.Dense
		sw.Mul(sk, &w)
		dx := make([]float64, d)
		dm := make([]float64, d)
		for a := range dx {
			dx[a] = xbar[a] - mj[a]
			dm[a] = mj[a] - p.M0[a]
		}
		t71 += 0.5 * nk * (lnLam - df/beta - nu*mat.Trace(&sw) - nu*quad(dx) - df*math.Log(2*math.Pi))
		t72 += nk * lnPi
		t73 += (p.Alpha0 - 1) * lnPi
		var w0w mat.Dense
		w0w.Mul(&w0inv, &w)
		t74 += 0.5*(df*math.Log(p.Beta0/(2*math.Pi))+lnLam-df*p.Beta0/beta-p.Beta0*nu*quad(dm)) +
			lnB0 + (p.Nu0-df-1)/2*lnLam - 0.5*nu*mat.Trace(&w0w)
		for i := 0; i < n; i++ {
			t75 += numeric.XLogY(r[j*n+i], r[j*n+i])
		}
		t76 += (alpha[j] - 1) * lnPi
		t77 += 0.5*lnLam + df/2*math.Log(beta/(2*math.Pi)) - df/2 - qw.Entropy()
	}
	return t71 + t72 + t73 + t74 - t75 - t76 - t77
}

func fill(k int, v float64) []float64 {
	s := make([]float64, k)
	for i := range s {
		s[i] = v
	}
	return s
}

// TestBoundMatchesPRMLTerms: right after an E step, F equals the sum of
// PRML's seven terms (10.71)–(10.77), at the first E step and at
// convergence, for several K and priors.
func TestBoundMatchesPRMLTerms(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(11, 2)), 90, 0.8, [2]float64{-2, 0}, [2]float64{2, 1}, [2]float64{0, 3})
	p2 := gmm.Prior{Alpha0: 0.5, Beta0: 0.3, Nu0: 3.5, M0: []float64{0.2, -0.1}, W0: []float64{2, 0.3, 0.3, 0.7}}
	for _, p := range []gmm.Prior{gmm.DefaultPrior(2, 1e-3), p2} {
		for _, k := range []int{1, 2, 4} {
			m := newVB(t, x, k, p, 3)
			for it := 0; it < 3; it++ {
				b, err := m.E()
				if err != nil {
					t.Fatal(err)
				}
				if want := prmlTerms(m, x); math.Abs(b.F-want) > 1e-8*math.Abs(want) {
					t.Errorf("K = %d, iteration %d: F = %.10f, PRML (10.70) = %.10f", k, it, b.F, want)
				}
				for range 20 * it {
					m.M()
					m.E()
				}
				m.M()
			}
		}
	}
}

// TestResponsibilitiesBruteForce: r_nk equals the normalised
// exp(E[ln π_k] + E[ln N(x_n | μ_k, Λ_k⁻¹)]) with the expectations taken by
// core/dist (E ln|Λ| of the Wishart, E[Λ] = νW) and gonum, and the
// expectation of the Gaussian log density also checked by Monte Carlo over
// q(μ_k, Λ_k) for one point at 3 standard errors.
func TestResponsibilitiesBruteForce(t *testing.T) {
	x := clusters(rand.New(rand.NewPCG(12, 2)), 60, 0.9, [2]float64{-1, 0}, [2]float64{1, 1})
	m := newVB(t, x, 3, gmm.DefaultPrior(2, 1), 4)
	for range 5 {
		m.E()
		m.M()
	}
	if _, err := m.E(); err != nil {
		t.Fatal(err)
	}
	k, d, n := m.K(), m.D(), m.N()
	r := m.Responsibilities()
	alpha := m.Alpha()
	var a0 float64
	for _, a := range alpha {
		a0 += a
	}
	lrho := make([][]float64, n)
	for i := range lrho {
		lrho[i] = make([]float64, k)
	}
	rnd := rand.New(rand.NewPCG(1, 1))
	for j := 0; j < k; j++ {
		beta, nu, mj, winv := m.Component(j)
		var w mat.SymDense
		var ch mat.Cholesky
		ch.Factorize(mat.NewSymDense(d, append([]float64(nil), winv...)))
		ch.InverseTo(&w)
		qw, _ := dist.NewWishart(nu, &w)
		var elam mat.SymDense
		qw.Mean(&elam)
		lnPi := numeric.Digamma(alpha[j]) - numeric.Digamma(a0)
		for i := 0; i < n; i++ {
			dv := mat.NewVecDense(d, []float64{x[i*d] - mj[0], x[i*d+1] - mj[1]})
			eq := float64(d)/beta + mat.Inner(dv, &elam, dv)
			lrho[i][j] = lnPi + 0.5*qw.MeanLogDet() - float64(d)/2*math.Log(2*math.Pi) - 0.5*eq
		}
		// Monte Carlo of E[ln N(x_0 | μ, Λ⁻¹)] over q(μ, Λ) for point 0.
		const draws = 20000
		var s, ss float64
		var lam mat.SymDense
		for range draws {
			qw.Rand(&lam, rnd)
			var cov mat.SymDense
			ch.Factorize(&lam)
			ch.InverseTo(&cov)
			cov.ScaleSym(1/beta, &cov)
			g, _ := dist.NewGaussian(mj, &cov)
			mu := g.Rand(nil, rnd)
			lg, _ := dist.NewGaussianPrecision(mu, &lam)
			v := lg.LogProb(x[:d])
			s += v
			ss += v * v
		}
		mean := s / draws
		se := math.Sqrt((ss/draws - mean*mean) / draws)
		if want := lrho[0][j] - lnPi; math.Abs(mean-want) > 3*se {
			t.Errorf("component %d: MC E[ln N(x_0)] = %v ± %v, closed form %v", j, mean, se, want)
		}
	}
	for i := 0; i < n; i++ {
		z := numeric.LogSumExp(lrho[i])
		for j := 0; j < k; j++ {
			if want := math.Exp(lrho[i][j] - z); math.Abs(r[j*n+i]-want) > 1e-12 {
				t.Errorf("r[%d,%d] = %v, brute force %v", i, j, r[j*n+i], want)
			}
		}
	}
}
