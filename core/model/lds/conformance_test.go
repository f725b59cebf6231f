package lds_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/lds"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// eAllocs is the number of heap allocations of one E call in the steady
// state, part of the models' contract: the returned Bound.Terms, which a
// vb.Settings.Recorder may keep. The smoother, the statistics and the
// bound reuse the model's buffers.
const eAllocs = 1

// sequences draws sequences of the given lengths from a fixed two-state
// LDS with p outputs and d inputs (rotation dynamics, standard-normal C,
// unit noise; inputs a sinusoid and uniform noise).
func sequences(rnd *rand.Rand, p, d int, lens ...int) ([]lds.Sequence, *lds.Params) {
	par := &lds.Params{
		A:   mat.NewDense(2, 2, []float64{0.8, 0.3, -0.3, 0.8}),
		C:   mat.NewDense(p, 2, nil),
		Rho: make([]float64, p),
	}
	for s := 0; s < p; s++ {
		par.C.Set(s, 0, rnd.NormFloat64())
		par.C.Set(s, 1, rnd.NormFloat64())
		par.Rho[s] = 1
	}
	if d > 0 {
		par.B, par.D = mat.NewDense(2, d, nil), mat.NewDense(p, d, nil)
		for c := 0; c < d; c++ {
			par.B.Set(0, c, 0.5)
			for s := 0; s < p; s++ {
				par.D.Set(s, c, rnd.NormFloat64())
			}
		}
	}
	var data []lds.Sequence
	for _, T := range lens {
		var u *mat.Dense
		if d > 0 {
			u = mat.NewDense(T, d, nil)
			for t := 0; t < T; t++ {
				u.Set(t, 0, math.Sin(2*math.Pi*float64(t+1)/25))
				for c := 1; c < d; c++ {
					u.Set(t, c, rnd.Float64())
				}
			}
		}
		s, _ := lds.Simulate(rnd, par, T, u)
		data = append(data, s)
	}
	return data, par
}

// TestModelConformance runs the conformance suite of core/vbtest on the VB
// LDS (every E, M and hyperparameter step keeps F from decreasing, the
// terms sum to F with unique names, the same construction gives the same
// numbers bit for bit, M does not allocate, E allocates eAllocs times):
// without inputs, with inputs on sequences of different lengths, with each
// form of the Σ_0 update, with the cross-covariances initialised to 0, with
// fixed ARD entries, in both MAP modes, and for ML-EM.
func TestModelConformance(t *testing.T) {
	cases := []struct {
		name string
		p, d int
		lens []int
		set  lds.Settings
	}{
		{"k=3,no inputs,one sequence", 4, 0, []int{60}, lds.Settings{K: 3}},
		{"k=4,d=2,three sequences", 3, 2, []int{40, 9, 25}, lds.Settings{K: 4}},
		{"k=2,d=1,full Σ_0,zero cross-init", 3, 1, []int{30, 30}, lds.Settings{K: 2, Sigma0Update: lds.Sigma0Full, CrossInit: lds.CrossZero}},
		{"k=5,isotropic Σ_0,fixed ARD", 2, 2, []int{35, 5}, lds.Settings{K: 5, Sigma0Update: lds.Sigma0Isotropic,
			Fixed: lds.Fixed{Beta: []bool{false, true}, Gamma: []bool{true, false, false, false, false}}}},
		{"MAP boost", 3, 1, []int{40, 20}, lds.Settings{K: 3, Mode: lds.MAPBoost}},
		{"MAP tempered", 3, 1, []int{40, 20}, lds.Settings{K: 3, Mode: lds.MAPTempered, Kappa: 100}},
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, _ := sequences(rand.New(rand.NewPCG(31, uint64(ci))), c.p, c.d, c.lens...)
			vbtest.CheckModel(t, func() vb.Model {
				m, err := lds.NewVB(data, c.set, rand.New(rand.NewPCG(32, uint64(ci))))
				if err != nil {
					t.Fatal(err)
				}
				return m
			}, vbtest.CheckOptions{Iterations: 15, EAllocs: eAllocs})
		})
	}
	t.Run("ML-EM", func(t *testing.T) {
		data, par := sequences(rand.New(rand.NewPCG(33, 0)), 3, 1, 50, 30)
		start := par.Clone()
		start.A.Scale(0.5, start.A)
		start.Sigma0 = mat.NewSymDense(2, []float64{1, 0, 0, 1})
		vbtest.CheckModel(t, func() vb.Model {
			m, err := lds.NewEM(data, start, lds.EMSettings{})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}, vbtest.CheckOptions{Iterations: 15, EAllocs: eAllocs})
	})
}

// TestRunMonotone runs vb.Run for 300 iterations with the staged schedule
// of VB.DefaultSchedule and, separately, with every group updated at
// every iteration, and checks that the run ends normally (vb.Run stops with
// BoundDecreased on a decrease beyond 1e-9·|F|) and that the recorded F
// never decreased beyond 1e-12·|F| (targets §1.13 item 5).
func TestRunMonotone(t *testing.T) {
	data, _ := sequences(rand.New(rand.NewPCG(34, 0)), 5, 2, 80, 50, 120)
	for _, staged := range []bool{true, false} {
		m, err := lds.NewVB(data, lds.Settings{K: 4}, rand.New(rand.NewPCG(35, 0)))
		if err != nil {
			t.Fatal(err)
		}
		sched := m.DefaultSchedule()
		if !staged {
			sched = vb.Every(m.HyperGroups()...)
		}
		r := vb.Run(m, vb.Settings{MaxIterations: 300, Converger: vb.FixedIterations{}, Hyper: sched})
		if err := r.Error(); err != nil {
			t.Fatalf("staged %v: %v", staged, err)
		}
		vbtest.CheckMonotone(t, r.Trace.F, 1e-12)
		t.Logf("staged %v: F = %.4f after %d iterations (first %.4f)", staged, r.F, r.Iterations, r.Trace.F[0])
	}
}
