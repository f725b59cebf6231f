package mfa_test

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/vb"
)

// benchModel returns the model of the thesis's embedded-clusters size
// (section 4.5.2, line 2761: 6 clusters × 300 points in 10-D, k_max = 7),
// z-scored, S = 6 started from the true labels, after 20 iterations.
func benchModel(b *testing.B) *mfa.VB {
	b.Helper()
	y, labels := embedded(rand.New(rand.NewPCG(11, 12)), 300)
	z := zscore(y)
	m, err := mfa.NewVB(z, labelResp(labels, 6, 0.98), mfa.Settings{K: 7})
	if err != nil {
		b.Fatal(err)
	}
	for range 20 {
		iterate(b, m)
	}
	return m
}

// digitsModel returns a model of the size of the thesis's digits
// experiment (section 4.6.2: n = 3823 training images, p = 62 after
// dropping constant pixels, k_max = 6) with S = 20 analysers, on synthetic
// data (10 clusters of 6-D factor structure, z-scored), started from
// random responsibilities, after 5 iterations.
func digitsModel(b *testing.B) *mfa.VB {
	b.Helper()
	y := factorClusters(rand.New(rand.NewPCG(21, 22)), 62, 6, 10, 3823)
	z := zscore(y)
	m, err := mfa.NewVBRandom(z, 20, mfa.Settings{K: 6}, rand.New(rand.NewPCG(23, 24)))
	if err != nil {
		b.Fatal(err)
	}
	for range 5 {
		iterate(b, m)
	}
	return m
}

// iterate runs one iteration of vb.Run with the default schedule: E, M,
// UpdateHyper(psi), UpdateHyper(mu_nu).
func iterate(b testing.TB, m *mfa.VB) {
	if _, err := m.E(); err != nil {
		b.Fatal(err)
	}
	m.M()
	m.UpdateHyper(mfa.HyperPsi)
	m.UpdateHyper(mfa.HyperMuNu)
}

// BenchmarkEStep times one E step (q(x), q(Λ̃), q(s) and F) at n = 1800,
// p = 10, S = 6, k = 7.
func BenchmarkEStep(b *testing.B) {
	m := benchModel(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIteration times one VBEM iteration with the default
// hyperparameter schedule (E, M, Ψ, μ*ν*) at the size of BenchmarkEStep.
func BenchmarkIteration(b *testing.B) {
	m := benchModel(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		iterate(b, m)
	}
}

// BenchmarkIterationDigits times one VBEM iteration at the size of the
// digits experiment: S = 20, n = 3823, p = 62, k = 6 (see digitsModel).
func BenchmarkIterationDigits(b *testing.B) {
	m := digitsModel(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		iterate(b, m)
	}
}

// BenchmarkSearchEmbedded times a whole birth/death search on the
// embedded clusters (6 × 300 points in 10-D, k_max = 7) from one analyser
// with the settings of the chapter 4 experiment (spatial births with PCA
// children, one round of tries, deaths below one point, agitation+ΔF
// epochs of at most 2000 sweeps, at most 3000 sweeps in all). It reports
// the sweeps run and the time per sweep.
func BenchmarkSearchEmbedded(b *testing.B) {
	y, _ := embedded(rand.New(rand.NewPCG(11, 12)), 300)
	z := zscore(y)
	n, _ := z.Dims()
	ones := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		ones.Set(i, 0, 1)
	}
	// The targets' epoch rule (agitation and |ΔF|/n < 1e-6) judged against
	// the converged F, and chapter4/embedded's: agitation epochs judged
	// against a matched reference, then up to 2000 sweeps to converge the
	// final structure.
	for _, bc := range []struct {
		name    string
		dF      float64
		matched bool
		final   int
	}{{"targets", 1e-6, false, 0}, {"matched", 0, true, 0}, {"matched+final", 0, true, 2000}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var sweeps, size int
			for range b.N {
				m, err := mfa.NewVB(z, ones, mfa.Settings{K: 7})
				if err != nil {
					b.Fatal(err)
				}
				m.Moves = mfa.MoveSettings{Rand: rand.New(rand.NewPCG(4401, 1)), MaxTries: 1, DeathThreshold: 1,
					Birth: mfa.SpatialSplit, Children: mfa.PCALoadings}
				run := vb.Settings{MaxIterations: 2000, MonotoneTol: 1e-9, Hyper: mfa.DefaultSchedule(),
					Converger: m.EpochConverger(mfa.DefaultAgitationTol, bc.dF, 2)}
				res := vb.Search(m, vb.SearchSettings{MaxTotalIterations: 3000, Run: run, Matched: bc.matched})
				if res.Err != nil {
					b.Fatal(res.Err)
				}
				sweeps += res.Iterations
				if bc.final > 0 {
					run.MaxIterations, run.Converger = bc.final, m.EpochConverger(mfa.DefaultAgitationTol, 1e-6, 2)
					r := vb.Run(m, run)
					if err := r.Error(); err != nil {
						b.Fatal(err)
					}
					sweeps += r.Iterations
				}
				size = m.Size()
			}
			b.ReportMetric(float64(sweeps)/float64(b.N), "sweeps/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(sweeps), "ns/sweep")
			b.ReportMetric(float64(size), "analysers")
		})
	}
}

// BenchmarkEMIterationDigits times one iteration (E, then M) of the ML
// baseline at the shape of one digit class of chapter 4's digits-classify
// (section 4.6.2; the largest training size, n = 350, p = 62, k = 5) with
// S = 5 analysers, on synthetic data (10 clusters of 5-D factor structure,
// z-scored), after 5 iterations from the hard start of NewEM.
func BenchmarkEMIterationDigits(b *testing.B) {
	y := factorClusters(rand.New(rand.NewPCG(31, 32)), 62, 5, 10, 350)
	z := zscore(y)
	m, err := mfa.NewEM(z, 5, 5, 1e-5, rand.New(rand.NewPCG(33, 34)))
	if err != nil {
		b.Fatal(err)
	}
	step := func() {
		if _, err := m.E(); err != nil {
			b.Fatal(err)
		}
		m.M()
	}
	for range 5 {
		step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		step()
	}
}
