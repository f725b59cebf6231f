package dag_test

import (
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

// BenchmarkLogLik is ln p(y|θ) at n = 480, the likelihood of one AIS step.
func BenchmarkLogLik(b *testing.B) {
	p, inits := benchProblem(b, dag.TrueCode)
	b.ReportAllocs()
	for b.Loop() {
		p.LogLik(inits[0])
	}
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
