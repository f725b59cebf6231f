package hmm_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestModelConformance runs the model conformance suite of core/vbtest on
// VB (with its hyperparameter groups), ML-EM and MAP-EM, for a few sizes;
// the last data set (11,000 symbols) spans two blocks of the E step.
//
// The E steps' stated allocations: each returns a freshly allocated
// Bound.Terms slice, which vb.Run and recorders keep (one allocation); the
// MAP objective appends its second term to the slice (a second one). The
// forward-backward buffers and the counts are reused.
func TestModelConformance(t *testing.T) {
	for _, c := range []struct{ k, p, n, T int }{{2, 3, 6, 12}, {5, 4, 10, 40}, {3, 2, 11, 1000}} {
		d := sampleHMM(3, c.p, c.n, c.T, rand.New(rand.NewPCG(uint64(c.k), 41)))
		u := hmm.SymmetricPrior(c.k, c.p, 4, 4, 4)
		start := func() hmm.Params { return hmm.RandomParams(c.k, c.p, rand.New(rand.NewPCG(uint64(c.k), 42))) }
		name := fmt.Sprintf("k=%d,p=%d,symbols=%d", c.k, c.p, c.n*c.T)
		t.Run("VB/"+name, func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model {
				return hmm.NewVB(d, u, hmm.PosteriorFromParams(start(), 10, 1e-10))
			}, vbtest.CheckOptions{EAllocs: 1})
		})
		t.Run("ML/"+name, func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model { return hmm.NewEM(d, start(), nil) }, vbtest.CheckOptions{EAllocs: 1})
		})
		t.Run("MAP/"+name, func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model { return hmm.NewEM(d, start(), &u) }, vbtest.CheckOptions{EAllocs: 2})
		})
	}
}
