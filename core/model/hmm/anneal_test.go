package hmm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/numeric"
)

// TestAnnealedMatchesJoint checks the change of variables: LogLik equals
// Joint.LogLik at θ(η), and LogPrior equals Joint.LogPrior plus the log
// Jacobian Σ_rows Σ_l ln x_l; Coords inverts Params.
func TestAnnealedMatchesJoint(t *testing.T) {
	rnd := rand.New(rand.NewPCG(31, 1))
	for trial := 0; trial < 10; trial++ {
		k, p := 1+trial%3, 2+trial%3
		d := randomData(rnd, 1+rnd.IntN(3), p, 1, 6)
		u := randomPrior(rnd, k, p)
		a, err := NewAnnealed(d, k, u)
		if err != nil {
			t.Fatal(err)
		}
		j, _ := NewJoint(d, k, u)
		eta := a.SamplePrior(nil, rnd)
		θ := a.Params(eta)
		flat := θ.FlatTo(nil)
		var jac float64
		for _, v := range flat {
			jac += math.Log(v)
		}
		// Rows of length 1 have x = 1, ln x = 0: the sum over all entries is the Jacobian.
		if got, want := a.LogPrior(eta), j.LogPrior(flat)+jac; math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("trial %d: LogPrior %v, Joint.LogPrior + ln|J| %v", trial, got, want)
		}
		if got, want := a.LogLik(eta), j.LogLik(flat); math.Abs(got-want) > 1e-10*(1+math.Abs(want)) {
			t.Errorf("trial %d: LogLik %v, Joint %v", trial, got, want)
		}
		back := a.Coords(θ)
		for i := range eta {
			if math.Abs(back[i]-eta[i]) > 1e-9*(1+math.Abs(eta[i])) {
				t.Fatalf("trial %d: Coords(Params(η))[%d] = %v, η = %v", trial, i, back[i], eta[i])
			}
		}
	}
}

// TestAnnealedGradients checks both gradients against central differences.
func TestAnnealedGradients(t *testing.T) {
	rnd := rand.New(rand.NewPCG(32, 1))
	for trial := 0; trial < 8; trial++ {
		k, p := 2+trial%2, 2+trial%3
		d := randomData(rnd, 2, p, 3, 10)
		u := randomPrior(rnd, k, p)
		a, _ := NewAnnealed(d, k, u)
		eta := a.SamplePrior(nil, rnd)
		for i := range eta { // keep away from the tails, where the differences lose digits
			eta[i] = math.Max(-3, math.Min(3, eta[i]))
		}
		n := a.Dim()
		gp, gl := make([]float64, n), make([]float64, n)
		a.GradLogPrior(gp, eta)
		a.GradLogLik(gl, eta)
		x := append([]float64(nil), eta...)
		const h = 1e-5
		for i := range eta {
			x[i] = eta[i] + h
			p1, l1 := a.LogPrior(x), a.LogLik(x)
			x[i] = eta[i] - h
			p0, l0 := a.LogPrior(x), a.LogLik(x)
			x[i] = eta[i]
			if fd := (p1 - p0) / (2 * h); math.Abs(fd-gp[i]) > 1e-6*(1+math.Abs(fd)) {
				t.Errorf("trial %d coord %d: ∂ ln p %v, difference %v", trial, i, gp[i], fd)
			}
			if fd := (l1 - l0) / (2 * h); math.Abs(fd-gl[i]) > 1e-6*(1+math.Abs(fd)) {
				t.Errorf("trial %d coord %d: ∂ ln L %v, difference %v", trial, i, gl[i], fd)
			}
		}
	}
}

// TestAnnealedNormalises integrates p(η) p(y|θ(η)) over η by adaptive
// quadrature for one-state models (one row of C: p = 2 is a 1-D integral,
// p = 3 a 2-D one) and compares it with ExactLogEvidence (the
// Dirichlet-multinomial closed form), and integrates p(η) alone to 1: the
// Jacobian is in the prior and f_τ's normaliser at τ = 1 is p(y|m).
func TestAnnealedNormalises(t *testing.T) {
	tol := numeric.QuadTol{Rel: 1e-9, Abs: 1e-14}
	for _, c := range []struct {
		p    int
		seqs [][]int
		u    []float64
	}{
		{2, [][]int{{0, 1, 1}, {1}}, []float64{0.7, 1.9}},
		{2, [][]int{{0, 0, 0, 0, 1}}, []float64{2.5, 1.2}},
		{3, [][]int{{0, 2, 1}, {2, 2}}, []float64{0.9, 1.4, 2.2}},
	} {
		d := Data{P: c.p, Seqs: c.seqs}
		u := Prior{Pi: []float64{1}, A: []float64{1}, C: c.u}
		a, err := NewAnnealed(d, 1, u)
		if err != nil {
			t.Fatal(err)
		}
		exact, err := ExactLogEvidence(d, 1, u)
		if err != nil {
			t.Fatal(err)
		}
		const lim = 40 // the tails fall as e^{−α|η|}, below 1e-14 at |η| = 40 for α ≥ 0.7
		var z, z0 float64
		switch c.p {
		case 2:
			v, err := numeric.IntegrateVec(nil, 2, func(x float64, out []float64) {
				eta := []float64{x}
				lp := a.LogPrior(eta)
				out[0], out[1] = math.Exp(lp), math.Exp(lp+a.LogLik(eta))
			}, -lim, lim, tol)
			if err != nil {
				t.Fatal(err)
			}
			z0, z = v[0], v[1]
		case 3:
			v, err := numeric.IntegrateVec2(nil, 2, func(x, y float64, out []float64) {
				eta := []float64{x, y}
				lp := a.LogPrior(eta)
				out[0], out[1] = math.Exp(lp), math.Exp(lp+a.LogLik(eta))
			}, [2]float64{-lim, -lim}, [2]float64{lim, lim}, numeric.QuadTol{Rel: 1e-7, Abs: 1e-12})
			if err != nil {
				t.Fatal(err)
			}
			z0, z = v[0], v[1]
		}
		if math.Abs(z0-1) > 1e-6 {
			t.Errorf("p = %d: ∫ p(η) dη = %v", c.p, z0)
		}
		if math.Abs(math.Log(z)-exact) > 1e-6 {
			t.Errorf("p = %d: ln ∫ p(η) L dη = %.9f, exact %.9f", c.p, math.Log(z), exact)
		}
	}
}

// TestAnnealedSamplePrior checks the draws' row means against α/α₀ (4
// standard errors of 4000 draws) for a prior with entries below 1.
func TestAnnealedSamplePrior(t *testing.T) {
	rnd := rand.New(rand.NewPCG(33, 1))
	u := Prior{Pi: []float64{0.3, 2}, A: []float64{1.5, 0.4}, C: []float64{0.2, 0.5, 3}}
	d := Data{P: 3, Seqs: [][]int{{0}}}
	a, _ := NewAnnealed(d, 2, u)
	const n = 4000
	flatDim := ParamDim(2, 3)
	sum, sum2 := make([]float64, flatDim), make([]float64, flatDim)
	var eta []float64
	for range n {
		eta = a.SamplePrior(eta, rnd)
		for i, v := range a.Params(eta).FlatTo(nil) {
			sum[i] += v
			sum2[i] += v * v
		}
	}
	want := []float64{}
	for _, row := range u.Rows(2) {
		var a0 float64
		for _, v := range row {
			a0 += v
		}
		for _, v := range row {
			want = append(want, v/a0)
		}
	}
	for i := range sum {
		m := sum[i] / n
		se := math.Sqrt((sum2[i]/n - m*m) / n)
		if math.Abs(m-want[i]) > 4*se {
			t.Errorf("entry %d: mean %.4f ± %.4f, want %.4f", i, m, se, want[i])
		}
	}
}
