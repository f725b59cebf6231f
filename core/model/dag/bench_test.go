package dag_test

import (
	"fmt"
	"testing"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/rng"
)

// benchProblem is the true structure on n = 480 points from the thesis's
// parameters (a data size of section 6.4), and three initialisations.
func benchProblem(b *testing.B, code dag.Code) (*dag.Problem, []dag.Params) {
	b.Helper()
	obs, _ := dag.Sample(dag.TrueCode.Structure(), dag.TrueParams(), 480, rng.New(2003, "bench", "data"))
	p := problem(b, code.Structure(), obs)
	return p, p.Inits(3, rng.New(2003, "bench", "init"))
}

// BenchmarkScoreVB is one VB score (three VBEM restarts to convergence) of
// the true structure at n = 480.
func BenchmarkScoreVB(b *testing.B) {
	p, inits := benchProblem(b, dag.TrueCode)
	b.ReportAllocs()
	var iters int
	for b.Loop() {
		sc, err := p.ScoreVB(inits, dag.Settings{})
		if err != nil {
			b.Fatal(err)
		}
		iters = sc.Iterations
	}
	b.ReportMetric(float64(iters), "iter(best)")
}

// BenchmarkScoreEM is one EM score (three EM restarts to convergence, then
// MAP, BIC, BICp, CS and CS†) of the true structure at n = 480.
func BenchmarkScoreEM(b *testing.B) {
	p, inits := benchProblem(b, dag.TrueCode)
	b.ReportAllocs()
	var iters int
	for b.Loop() {
		sc, err := p.ScoreEM(inits, dag.Settings{})
		if err != nil {
			b.Fatal(err)
		}
		iters = sc.Iterations
	}
	b.ReportMetric(float64(iters), "iter(best)")
}

// BenchmarkLogLik is ln p(y|θ) of the true structure, the likelihood of
// one AIS step, at n = 480 and n = 10240 (sizes of section 6.4) at a prior
// draw of θ.
func BenchmarkLogLik(b *testing.B) {
	for _, n := range []int{480, 10240} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			p := sizedProblem(b, dag.TrueCode, n)
			theta := p.SamplePrior(nil, rng.New(2003, "bench", "theta"))
			b.ReportAllocs()
			for b.Loop() {
				p.LogLik(theta)
			}
		})
	}
}

// BenchmarkLogLikAll is ln p(y|θ) of each of the 136 structures of the
// class at a prior draw (one AIS step's likelihoods over the class), at
// n = 480 and n = 10240: ns/op is the sum over the class.
func BenchmarkLogLikAll(b *testing.B) {
	for _, n := range []int{480, 10240} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			obs, _ := dag.Sample(dag.TrueCode.Structure(), dag.TrueParams(), n, rng.New(2003, "bench", "data"))
			d := mustData(b, obs)
			var ps []*dag.Problem
			var thetas []dag.Params
			for i, c := range dag.Candidates() {
				s := c.Structure()
				p, err := dag.NewProblem(s, s.SymmetricPrior(1), d)
				if err != nil {
					b.Fatal(err)
				}
				ps = append(ps, p)
				thetas = append(thetas, p.SamplePrior(nil, rng.New(2003, "bench", "theta", fmt.Sprint(i))))
			}
			b.ReportAllocs()
			for b.Loop() {
				for i, p := range ps {
					p.LogLik(thetas[i])
				}
			}
		})
	}
}

// sizedProblem is the λ = 1 problem of code on the first n points drawn
// from the thesis's true model.
func sizedProblem(b *testing.B, code dag.Code, n int) *dag.Problem {
	b.Helper()
	obs, _ := dag.Sample(dag.TrueCode.Structure(), dag.TrueParams(), n, rng.New(2003, "bench", "data"))
	return problem(b, code.Structure(), obs)
}

// BenchmarkPropose is one joint Dirichlet proposal for the true structure.
func BenchmarkPropose(b *testing.B) {
	p, inits := benchProblem(b, dag.TrueCode)
	q := dag.NewDirichletProposal(p.Structure(), 2500)
	rnd := rng.New(2003, "bench", "propose")
	dst := make(dag.Params, len(inits[0]))
	b.ReportAllocs()
	for b.Loop() {
		dst, _ = q.Propose(dst, inits[0], rnd)
	}
}
