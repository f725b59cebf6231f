package lds_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/lds"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestNewRejects checks that NewVB reports invalid data and settings as
// errors.
func TestNewRejects(t *testing.T) {
	data, _ := sequences(rand.New(rand.NewPCG(101, 0)), 3, 1, 20, 10)
	noInputs, _ := sequences(rand.New(rand.NewPCG(101, 1)), 3, 0, 20)
	other, _ := sequences(rand.New(rand.NewPCG(101, 2)), 4, 1, 20)
	cases := []struct {
		name string
		data []lds.Sequence
		set  lds.Settings
	}{
		{"no sequences", nil, lds.Settings{K: 2}},
		{"K = 0", data, lds.Settings{}},
		{"different p", append(slices.Clone(data), other...), lds.Settings{K: 2}},
		{"inputs for some sequences only", append(slices.Clone(data), noInputs...), lds.Settings{K: 2}},
		{"inputs of the wrong length", []lds.Sequence{{Y: data[0].Y, U: data[1].U}}, lds.Settings{K: 2}},
		{"Alpha length", data, lds.Settings{K: 2, Hyper: lds.Hyper{Alpha: []float64{1}}}},
		{"Delta not positive", data, lds.Settings{K: 2, Hyper: lds.Hyper{Delta: []float64{0}}}},
		{"Lambda0 not positive definite", data, lds.Settings{K: 2, Hyper: lds.Hyper{Lambda0: []float64{1, 2, 2, 1}}}},
		{"Fixed length", data, lds.Settings{K: 2, Fixed: lds.Fixed{Gamma: []bool{true}}}},
		{"κ < 1", data, lds.Settings{K: 2, Mode: lds.MAPBoost, Kappa: 0.5}},
		{"tempered shape", data, lds.Settings{K: 2, Mode: lds.MAPTempered, Kappa: 10, Hyper: lds.Hyper{NoiseShape: 0.5}}},
	}
	for _, c := range cases {
		if _, err := lds.NewVB(c.data, c.set, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("%s: New returned no error", c.name)
		}
	}
}

// TestAccessors checks the shapes of the accessors and that Infer on a
// training sequence reproduces that sequence's posterior from the last E
// step bit for bit (the same φ̄ and x_0 prior), that Filtered gives the
// last smoothed mean of Infer on every prefix bit for bit, and that
// ⟨R⁻¹C⟩ of φ̄ is diag(ρ̄)⟨C⟩ (eq. 5.64).
func TestAccessors(t *testing.T) {
	data, _ := sequences(rand.New(rand.NewPCG(102, 0)), 3, 2, 30, 12)
	m, err := lds.NewVB(data, lds.Settings{K: 4}, rand.New(rand.NewPCG(103, 0)))
	if err != nil {
		t.Fatal(err)
	}
	r := vb.Run(m, vb.Settings{MaxIterations: 40, Converger: vb.FixedIterations{}, Hyper: m.DefaultSchedule()})
	if err := r.Error(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		m          mat.Matrix
		rows, cols int
	}{{"A", m.A(), 4, 4}, {"B", m.B(), 4, 2}, {"C", m.C(), 3, 4}, {"D", m.D(), 3, 2}, {"CovAB", m.CovAB(), 6, 6},
		{"CovCD", m.CovCD(), 6, 6}, {"Sigma0", m.Sigma0(), 4, 4}, {"States(1)", m.States(1), 12, 4}} {
		if r, cc := c.m.Dims(); r != c.rows || cc != c.cols {
			t.Errorf("%s is %d×%d, want %d×%d", c.name, r, cc, c.rows, c.cols)
		}
	}
	// Run ended with an E step: the posteriors and φ̄ are the same.
	for i := 0; i < m.NumSequences(); i++ {
		got, err := m.Infer(data[i])
		if err != nil {
			t.Fatal(err)
		}
		want := m.Posterior(i)
		if got.LogZ != want.LogZ || !slices.Equal(got.X, want.X) || !slices.Equal(got.V, want.V) || !slices.Equal(got.W0, want.W0) {
			t.Errorf("sequence %d: Infer differs from the last E step (ln Z' %v and %v)", i, got.LogZ, want.LogZ)
		}
	}
	// Filtered: the last smoothed mean of every prefix, bit for bit.
	for i := 0; i < m.NumSequences(); i++ {
		f, err := m.Filtered(data[i])
		if err != nil {
			t.Fatal(err)
		}
		T, _ := data[i].Y.Dims()
		if r, c := f.Dims(); r != T || c != 4 {
			t.Fatalf("Filtered(%d) is %d×%d, want %d×4", i, r, c, T)
		}
		for tt := 1; tt <= T; tt++ {
			pre := lds.Sequence{Y: mat.DenseCopyOf(data[i].Y.Slice(0, tt, 0, 3)), U: mat.DenseCopyOf(data[i].U.Slice(0, tt, 0, 2))}
			q, err := m.Infer(pre)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := f.RawRowView(tt-1), q.X[(tt-1)*4:tt*4]; !slices.Equal(got, want) {
				t.Errorf("sequence %d, t=%d: filtered mean %v, last smoothed mean of the prefix %v", i, tt, got, want)
			}
		}
	}
	phi, c, rho := m.Natural(), m.C(), m.Rho()
	for s := 0; s < 3; s++ {
		for j := 0; j < 4; j++ {
			if got, want := phi.RhoC[s*4+j], rho[s]*c.At(s, j); got != want {
				t.Errorf("⟨R⁻¹C⟩[%d,%d] = %v, ρ̄_s⟨C⟩_sj = %v", s, j, got, want)
			}
		}
	}
}
