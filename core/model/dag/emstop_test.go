package dag_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/dag"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestEMStopConverged: on data from the true model, EM stopped by the
// thesis's rule (an increase below 1e-6·n) ends short of its limit, and
// EMStopConverged ends within ConvergedAbsTol of it: 5000 more
// iterations from its estimate add less than 10·ConvergedAbsTol, while
// the thesis's rule stops more than that below it.
func TestEMStopConverged(t *testing.T) {
	rnd := rand.New(rand.NewPCG(24, 1))
	p := problem(t, dag.TrueCode.Structure(), trueData(2560, rnd))
	inits := p.Inits(3, rnd)
	th, err := p.ScoreEM(inits, dag.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	cv, err := p.ScoreEM(inits, dag.Settings{EMStop: dag.EMStopConverged})
	if err != nil {
		t.Fatal(err)
	}
	if cv.Status != vb.Converged {
		t.Errorf("converged EM: status %v after %d iterations", cv.Status, cv.Iterations)
	}
	long := vb.Run(p.NewEM(cv.Theta, dag.MAP), vb.Settings{MaxIterations: 5000, Converger: vb.FixedIterations{}})
	if err := long.Error(); err != nil {
		t.Fatal(err)
	}
	t.Logf("thesis rule %.4f (%d iterations), converged %.4f (%d), 5000 more %.4f", th.Objective, th.Iterations, cv.Objective, cv.Iterations, long.F)
	if gain := long.F - cv.Objective; !(gain >= -1e-9 && gain < 10*dag.ConvergedAbsTol) {
		t.Errorf("5000 more iterations from the converged estimate change the objective by %g nats", gain)
	}
	if short := cv.Objective - th.Objective; !(short > 10*dag.ConvergedAbsTol) || cv.Iterations <= th.Iterations {
		t.Errorf("the thesis's rule stops %g nats below the converged objective, after %d iterations (converged: %d)", short, th.Iterations, cv.Iterations)
	}
}
