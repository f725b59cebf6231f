package boltzmann

import (
	"errors"
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/rng"
)

// TestExactByBruteForce checks ln Z and the moments of a three-unit
// machine against a hand-written sum over its eight states.
func TestExactByBruteForce(t *testing.T) {
	m := NewMachine(3)
	m.SetWeight(0, 1, 0.7)
	m.SetWeight(0, 2, -0.4)
	m.SetWeight(1, 2, 1.1)
	m.B = []float64{0.2, -0.5, 0.3}
	m.T = 1.7
	var z, m0, p12 float64
	for _, a := range []float64{-1, 1} {
		for _, b := range []float64{-1, 1} {
			for _, c := range []float64{-1, 1} {
				e := 0.7*a*b - 0.4*a*c + 1.1*b*c + 0.2*a - 0.5*b + 0.3*c
				w := math.Exp(e / 1.7)
				z += w
				m0 += w * a
				p12 += w * b * c
			}
		}
	}
	ex, err := m.Exact(nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(ex.LogZ - math.Log(z)); d > 1e-13 {
		t.Errorf("ln Z = %.15g, brute force %.15g", ex.LogZ, math.Log(z))
	}
	if d := math.Abs(ex.Mean[0] - m0/z); d > 1e-13 {
		t.Errorf("<s0> = %g, brute force %g", ex.Mean[0], m0/z)
	}
	if d := math.Abs(ex.Pair[1*3+2] - p12/z); d > 1e-13 {
		t.Errorf("<s1 s2> = %g, brute force %g", ex.Pair[5], p12/z)
	}
	// Clamping unit 0 at +1: the sum over (b, c) alone.
	var zc float64
	for _, b := range []float64{-1, 1} {
		for _, c := range []float64{-1, 1} {
			zc += math.Exp((0.7*b - 0.4*c + 1.1*b*c + 0.2 - 0.5*b + 0.3*c) / 1.7)
		}
	}
	ec, err := m.Exact(Clamp{1, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(ec.LogZ - math.Log(zc)); d > 1e-13 {
		t.Errorf("clamped ln Z = %g, brute force %g", ec.LogZ, math.Log(zc))
	}
	if ec.Mean[0] != 1 {
		t.Errorf("clamped unit's mean %g", ec.Mean[0])
	}
}

// TestBoundsBelowLogZ: mean-field and mixture bounds, joint and
// conditional, at every temperature of an annealing schedule and at the
// end, never exceed the exact ln Z.
func TestBoundsBelowLogZ(t *testing.T) {
	r := rng.New(1, "boltzmann", "bounds")
	sched := GeometricSchedule(60, 1, 8)
	for net := 0; net < 10; net++ {
		m := NewRandom(8, 1.5, r)
		clamps := []Clamp{nil, {1, -1, 0, 0, 0, 0, 0, 0}}
		for _, c := range clamps {
			ex, err := m.Exact(c)
			if err != nil {
				t.Fatal(err)
			}
			mf, err := NewMeanField(m, c, RandomMeans(1, 8, 0.9, r)[0])
			if err != nil {
				t.Fatal(err)
			}
			res, err := mf.Anneal(sched, Settings{StepIterations: 1, MaxIterations: 200})
			if err != nil {
				t.Fatal(err)
			}
			if res.Bound > ex.LogZ+1e-12 {
				t.Errorf("net %d: mean-field bound %.12g above ln Z %.12g", net, res.Bound, ex.LogZ)
			}
			for _, k := range []int{2, 3, 5} {
				mix, err := NewMixture(m, c, RandomMeans(k, 8, 0.9, r))
				if err != nil {
					t.Fatal(err)
				}
				res, err := mix.Anneal(sched, Settings{StepIterations: 1, MaxIterations: 200})
				if err != nil {
					t.Fatalf("net %d, M = %d: %v", net, k, err)
				}
				if res.Bound > ex.LogZ+1e-12 {
					t.Errorf("net %d, M = %d: mixture bound %.12g above ln Z %.12g", net, k, res.Bound, ex.LogZ)
				}
			}
		}
	}
}

// TestBoundAtOtherTemperatures: the bound at temperature T is below ln Z of
// the machine at T, at each step of the schedule.
func TestBoundAtOtherTemperatures(t *testing.T) {
	r := rng.New(1, "boltzmann", "temperatures")
	m := NewRandom(6, 1, r)
	mix, err := NewMixture(m, nil, RandomMeans(3, 6, 0.5, r))
	if err != nil {
		t.Fatal(err)
	}
	for _, temp := range []float64{20, 5, 2, 1, 0.5} {
		mix.SetTemperature(temp)
		res, err := mix.Run(Settings{})
		if err != nil {
			t.Fatal(err)
		}
		mt := *m
		mt.T = temp
		ex, err := mt.Exact(nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Bound > ex.LogZ+1e-12 {
			t.Errorf("T = %g: bound %g above ln Z %g", temp, res.Bound, ex.LogZ)
		}
	}
}

// TestOneComponentIsMeanField: a mixture of one component follows the
// mean-field iterations step for step, with the mutual-information bound 0.
func TestOneComponentIsMeanField(t *testing.T) {
	r := rng.New(1, "boltzmann", "m1")
	for net := 0; net < 10; net++ {
		m := NewRandom(10, 1, r)
		mu := RandomMeans(1, 10, 0.9, r)
		mf, err := NewMeanField(m, nil, mu[0])
		if err != nil {
			t.Fatal(err)
		}
		mix, err := NewMixture(m, nil, mu)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(mf.Bound() - mix.Bound()); d > 1e-12 {
			t.Fatalf("start: mean field %.15g, mixture %.15g", mf.Bound(), mix.Bound())
		}
		sched := GeometricSchedule(60, 1, 8)
		a, err := mf.Anneal(sched, Settings{StepIterations: 1})
		if err != nil {
			t.Fatal(err)
		}
		b, err := mix.Anneal(sched, Settings{StepIterations: 1})
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(a.Bound - b.Bound); d > 1e-9 {
			t.Errorf("net %d: mean field %.15g, one-component mixture %.15g", net, a.Bound, b.Bound)
		}
		for i := range mf.Mu {
			if d := math.Abs(mf.Mu[i] - mix.Mu[i]); d > 1e-8 {
				t.Errorf("net %d unit %d: means %g and %g", net, i, mf.Mu[i], mix.Mu[i])
			}
		}
	}
}

// TestUpdatesNeverLowerTheBound applies each block of the mixture's
// updates and each mean-field unit update separately and checks the bound
// after each (Iterate also checks at run time; this test fails if that
// check were removed, since it recomputes the bound itself).
func TestUpdatesNeverLowerTheBound(t *testing.T) {
	r := rng.New(1, "boltzmann", "monotone")
	for net := 0; net < 20; net++ {
		m := NewRandom(7, 2, r)
		mix, err := NewMixture(m, nil, RandomMeans(4, 7, 0.95, r))
		if err != nil {
			t.Fatal(err)
		}
		l := mix.Bound()
		for it := 0; it < 30; it++ {
			for _, f := range []func(){mix.updateMeans, mix.updateLambda, mix.updateSmoothing, mix.updateLambda, mix.updateWeights} {
				f()
				nl := mix.Bound()
				if nl < l-1e-10*math.Max(1, math.Abs(l)) {
					t.Fatalf("net %d it %d: bound fell from %.15g to %.15g", net, it, l, nl)
				}
				l = nl
			}
		}
		mf, err := NewMeanField(m, Clamp{0, 1, 0, 0, -1, 0, 0}, RandomMeans(1, 7, 0.95, r)[0])
		if err != nil {
			t.Fatal(err)
		}
		l = mf.Bound()
		for it := 0; it < 30; it++ {
			for k := 0; k < 7; k++ {
				if !mf.c.free(k) {
					continue
				}
				mf.A[k] = m.Field(k, mf.Mu) / mf.T
				mf.Mu[k] = math.Tanh(mf.A[k])
				nl := mf.Bound()
				if nl < l-1e-12*math.Max(1, math.Abs(l)) {
					t.Fatalf("net %d: mean-field unit %d lowered the bound from %.15g to %.15g", net, k, l, nl)
				}
				l = nl
			}
		}
	}
}

// TestMixtureBoundIsTightForSeparatedModes: a machine with two strong,
// symmetric modes (all units aligned) is fitted far better by two
// components than by one: the mixture bound exceeds the mean-field one by
// nearly ln 2.
func TestMixtureBoundIsTightForSeparatedModes(t *testing.T) {
	m := NewMachine(6)
	for i := 0; i < 6; i++ {
		for j := i + 1; j < 6; j++ {
			m.SetWeight(i, j, 1.5)
		}
	}
	ex, _ := m.Exact(nil)
	mf, _ := NewMeanField(m, nil, []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5})
	a, err := mf.Run(Settings{})
	if err != nil {
		t.Fatal(err)
	}
	mix, _ := NewMixture(m, nil, [][]float64{{0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, {-0.5, -0.5, -0.5, -0.5, -0.5, -0.5}})
	b, err := mix.Run(Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if g := b.Bound - a.Bound; g < 0.99*math.Ln2 || b.Bound > ex.LogZ {
		t.Errorf("ln Z %g, mean field %g, mixture %g: gain %g, want ≈ ln 2", ex.LogZ, a.Bound, b.Bound, g)
	}
}

// TestGradientByFiniteDifferences: with exact expectations the gradient of
// eq. 4.6 (divided by T) equals central differences of the exact
// log-likelihood, for a machine with hidden units and one without.
func TestGradientByFiniteDifferences(t *testing.T) {
	r := rng.New(1, "boltzmann", "gradient")
	m := NewRandom(5, 1, r)
	m.T = 1.3
	data := []Clamp{{1, -1, 1, 0, 0}, {-1, -1, 1, 0, 0}, {1, 1, -1, 0, 0}}
	joint, err := m.Exact(nil)
	if err != nil {
		t.Fatal(err)
	}
	var plus []Moments
	for _, v := range data {
		e, err := m.Exact(v)
		if err != nil {
			t.Fatal(err)
		}
		plus = append(plus, e.Moments)
	}
	gW, gB := m.Gradient(plus, joint.Moments)
	const h = 1e-5
	ll := func() float64 {
		l, err := m.LogLik(data)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for i := 0; i < 5; i++ {
		for j := i + 1; j < 5; j++ {
			w := m.W[i*5+j]
			m.SetWeight(i, j, w+h)
			up := ll()
			m.SetWeight(i, j, w-h)
			dn := ll()
			m.SetWeight(i, j, w)
			if fd := (up - dn) / (2 * h); math.Abs(fd-gW[i*5+j]) > 1e-8 {
				t.Errorf("∂/∂w_%d%d: gradient %g, finite difference %g", i, j, gW[i*5+j], fd)
			}
		}
		b := m.B[i]
		m.B[i] = b + h
		up := ll()
		m.B[i] = b - h
		dn := ll()
		m.B[i] = b
		if fd := (up - dn) / (2 * h); math.Abs(fd-gB[i]) > 1e-8 {
			t.Errorf("∂/∂b_%d: gradient %g, finite difference %g", i, gB[i], fd)
		}
	}
}

// TestMeanFieldGradientIsDerivativeOfF: eq. 4.15 is the derivative of
// F_mft = L⁺ − L⁻ at fixed variational parameters; at the fixed points
// (stationary in the means) it is the total derivative, checked by finite
// differences of the converged F.
func TestMeanFieldGradientIsDerivativeOfF(t *testing.T) {
	r := rng.New(1, "boltzmann", "mftgrad")
	m := NewRandom(4, 0.3, r)
	v := Clamp{1, -1, 0, 0}
	f := func() (float64, Moments, Moments) {
		qp, _ := NewMeanField(m, v, nil)
		a, err := qp.Run(Settings{RelTol: 1e-15})
		if err != nil {
			t.Fatal(err)
		}
		qm, _ := NewMeanField(m, nil, nil)
		b, err := qm.Run(Settings{RelTol: 1e-15})
		if err != nil {
			t.Fatal(err)
		}
		return a.Bound - b.Bound, qp.Moments(), qm.Moments()
	}
	_, p, mi := f()
	gW, _ := m.Gradient([]Moments{p}, mi)
	const h = 1e-6
	w := m.W[0*4+2]
	m.SetWeight(0, 2, w+h)
	up, _, _ := f()
	m.SetWeight(0, 2, w-h)
	dn, _, _ := f()
	m.SetWeight(0, 2, w)
	if fd := (up - dn) / (2 * h); math.Abs(fd-gW[2]) > 1e-6 {
		t.Errorf("∂F_mft/∂w_02: eq. 4.15 gives %g, finite difference %g", gW[2], fd)
	}
}

func TestRefusals(t *testing.T) {
	m := NewMachine(3)
	m.W[1] = 1
	if err := m.Check(); err == nil {
		t.Error("an asymmetric machine passed Check")
	}
	m = NewMachine(17)
	if _, err := m.Exact(nil); !errors.Is(err, ErrTooLarge) {
		t.Errorf("17 free units: %v", err)
	}
	if _, err := NewMeanField(NewMachine(2), nil, []float64{1, 0}); err == nil {
		t.Error("an initial mean of 1 was accepted")
	}
	if _, err := NewMeanField(NewMachine(2), Clamp{2, 0}, nil); err == nil {
		t.Error("a clamp of 2 was accepted")
	}
}
