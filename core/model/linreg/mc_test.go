package linreg_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/model/linreg"
)

// TestBoundMonteCarlo estimates each term of the bound (eqs. 10.108–10.112)
// and their sum L(q) (eq. 10.107) by sampling (w, α) from q(w)q(α), each as
// the mean of its integrand — ln p(t|w), ln N(w|0, α⁻¹I), ln Gam(α|a₀,b₀),
// −ln q(w), −ln q(α) — and requires every closed form within 4 standard
// errors of its estimate. It checks the states after the first E step (far
// from the optimum, where no stationarity hides a wrong term) and at
// convergence, for a constant, the cubic, and an order-8 polynomial on 5
// points (M > N).
func TestBoundMonteCarlo(t *testing.T) {
	const draws = 100000
	prior := linreg.Prior{A0: 0.5, B0: 0.2}
	for _, c := range []struct {
		n, order  int
		converged bool
	}{{10, 0, false}, {10, 3, false}, {10, 3, true}, {5, 8, false}, {5, 8, true}} {
		p, phi, tt := unitProblem(t, c.n, c.order, 8)
		m, err := linreg.NewVB(p, prior, linreg.Settings{InitAlpha: 3})
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.E()
		if err != nil {
			t.Fatal(err)
		}
		if c.converged {
			m, _ = fit(t, p, prior)
			if b, err = m.E(); err != nil {
				t.Fatal(err)
			}
		}
		qw, ok := dist.NewGaussian(m.Mean(), m.Cov())
		if !ok {
			t.Fatal("S_N not positive definite")
		}
		qa := m.QAlpha()
		pa := dist.Gamma{Alpha: prior.A0, Beta: prior.B0}
		M := c.order + 1
		rnd := rand.New(rand.NewPCG(uint64(c.order), 5))
		sums, sqs := make([]float64, 6), make([]float64, 6)
		w := make([]float64, M)
		for range draws {
			qw.Rand(w, rnd)
			a := qa.Rand(rnd)
			var lik, ww float64
			for i, ti := range tt {
				r := ti - mat.Dot(phi.RowView(i), mat.NewVecDense(M, w))
				lik += -0.5*math.Log(2*math.Pi/beta) - 0.5*beta*r*r
			}
			for _, v := range w {
				ww += v * v
			}
			v := []float64{lik, -0.5*float64(M)*math.Log(2*math.Pi/a) - 0.5*a*ww, pa.LogProb(a), -qw.LogProb(w), -qa.LogProb(a)}
			v = append(v, v[0]+v[1]+v[2]+v[3]+v[4])
			for i, x := range v {
				sums[i] += x
				sqs[i] += x * x
			}
		}
		closed := []float64{b.Terms[0].Value, b.Terms[1].Value, b.Terms[2].Value, b.Terms[3].Value, b.Terms[4].Value, b.F}
		names := []string{b.Terms[0].Name, b.Terms[1].Name, b.Terms[2].Name, b.Terms[3].Name, b.Terms[4].Name, "L(q)"}
		for i := range closed {
			mean := sums[i] / draws
			se := math.Sqrt((sqs[i]/draws - mean*mean) / draws)
			if math.Abs(mean-closed[i]) > 4*se+1e-9 {
				t.Errorf("n=%d order=%d converged=%v: %s = %.6f, Monte Carlo %.6f ± %.6f", c.n, c.order, c.converged, names[i], closed[i], mean, se)
			}
		}
	}
}
