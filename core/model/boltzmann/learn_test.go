package boltzmann

import (
	"math"
	"testing"

	"github.com/vbworkbench/vbw/core/rng"
)

func TestLayeredMask(t *testing.T) {
	mask := LayeredMask([]int{6, 6, 6})
	n, edges := 18, 0
	for i := range n {
		for j := range n {
			if mask[i*n+j] != mask[j*n+i] {
				t.Fatalf("mask not symmetric at %d, %d", i, j)
			}
			if mask[i*n+j] {
				edges++
				if li, lj := i/6, j/6; li-lj != 1 && lj-li != 1 {
					t.Fatalf("edge %d–%d joins layers %d and %d", i, j, li, lj)
				}
			}
		}
	}
	if edges != 2*2*36 {
		t.Errorf("%d directed edges, want 144 (two layer pairs of 36)", edges)
	}
}

// smallTask is a 2-2-2 layered association of two patterns with small
// random weights on the mask.
func smallTask(seed uint64, sd float64) (*Machine, *Association) {
	sizes := []int{2, 2, 2}
	a := &Association{Inputs: []int{0, 1}, Outputs: []int{4, 5}, Mask: LayeredMask(sizes),
		X: [][]float64{{1, -1}, {-1, -1}}, Y: [][]float64{{-1, 1}, {1, 1}}}
	m := NewMachine(6)
	r := rng.New(seed, "boltzmann", "assoc")
	for i := range 6 {
		for j := i + 1; j < 6; j++ {
			if a.Mask[i*6+j] {
				m.SetWeight(i, j, sd*r.NormFloat64())
			}
		}
		m.B[i] = sd * r.NormFloat64()
	}
	return m, a
}

// TestAssociationGradientFD: at converged mean-field solutions the
// derivative of F = Σ_n L⁺_n − L⁻_n by a weight is eq. 4.15's product of
// means (the means are stationary), checked by central differences with
// both phases re-converged.
func TestAssociationGradientFD(t *testing.T) {
	for _, fromCond := range []bool{false, true} {
		m, a := smallTask(1, 0.5)
		s := LearnSettings{Inner: Settings{MaxIterations: 100000, RelTol: 1e-15}, FromConditional: fromCond}
		p, err := a.Phases(m, s)
		if err != nil {
			t.Fatal(err)
		}
		gW, gB := a.Gradient(m, p)
		const h = 1e-5
		f := func() float64 {
			q, err := a.Phases(m, s)
			if err != nil {
				t.Fatal(err)
			}
			return q.F
		}
		for i := range m.N {
			for j := i + 1; j < m.N; j++ {
				w := m.W[i*m.N+j]
				m.SetWeight(i, j, w+h)
				fp := f()
				m.SetWeight(i, j, w-h)
				fm := f()
				m.SetWeight(i, j, w)
				fd := (fp - fm) / (2 * h)
				if !a.Mask[i*m.N+j] {
					if gW[i*m.N+j] != 0 {
						t.Fatalf("masked weight %d–%d has gradient %g", i, j, gW[i*m.N+j])
					}
					continue
				}
				if math.Abs(fd-gW[i*m.N+j]) > 1e-6 {
					t.Errorf("fromCond %v: ∂F/∂w_%d%d = %.10g by differences, eq. 4.15 gives %.10g", fromCond, i, j, fd, gW[i*m.N+j])
				}
			}
			if i < 2 {
				continue // input biases do not learn
			}
			b := m.B[i]
			m.B[i] = b + h
			fp := f()
			m.B[i] = b - h
			fm := f()
			m.B[i] = b
			if fd := (fp - fm) / (2 * h); math.Abs(fd-gB[i]) > 1e-6 {
				t.Errorf("fromCond %v: ∂F/∂b_%d = %.10g by differences, eq. 4.15 gives %.10g", fromCond, i, fd, gB[i])
			}
		}
	}
}

// TestLearnConverges: gradient ascent stores the two patterns of the
// small task from either − phase start, F_obs falls from its start, and
// each trace has one entry per iteration and the initial weights.
func TestLearnConverges(t *testing.T) {
	for _, fromCond := range []bool{false, true} {
		m, a := smallTask(2, 0.1)
		tr, err := a.Learn(m, LearnSettings{Rate: 0.1, MaxIterations: 5000, FromConditional: fromCond,
			Schedule: GeometricSchedule(10, 1, 5), Inner: Settings{StepIterations: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if !tr.Converged || len(tr.F) != tr.Iterations+1 || tr.MaxError[tr.Iterations] >= 0.2 {
			t.Fatalf("fromCond %v: converged %v after %d, %d trace entries, last error %g", fromCond, tr.Converged, tr.Iterations, len(tr.F), tr.MaxError[len(tr.MaxError)-1])
		}
		if tr.CrossEntropy[tr.Iterations] >= tr.CrossEntropy[0] {
			t.Errorf("fromCond %v: F_obs %g at the end, %g at the start", fromCond, tr.CrossEntropy[tr.Iterations], tr.CrossEntropy[0])
		}
	}
	_, a := smallTask(2, 0.1)
	a.Y = a.Y[:1]
	if _, err := a.Learn(NewMachine(6), LearnSettings{}); err == nil {
		t.Error("two inputs, one output pattern: no error")
	}
}
