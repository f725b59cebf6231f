package hmm_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/vb"
)

// TestMemoryBytesBoundsAllocation: the estimate is at least what a VB fit
// allocates (total bytes allocated from NewVB through a few iterations,
// which bounds what it holds), and not wildly more.
func TestMemoryBytesBoundsAllocation(t *testing.T) {
	for _, c := range []struct{ k, p, n, T, workers int }{
		{40, 27, 32, 100, 1}, {100, 27, 4, 3000, 1}, {100, 27, 40, 1000, 2}, {300, 5, 2, 500, 1},
	} {
		rnd := rand.New(rand.NewPCG(uint64(c.k), uint64(c.T)))
		d := sampleHMM(3, c.p, c.n, c.T, rnd)
		prior := hmm.SymmetricPrior(c.k, c.p, 4, 4, 4)
		start := hmm.PosteriorFromParams(hmm.RandomParams(c.k, c.p, rnd), 10, 1e-10)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m := hmm.NewVB(d, prior, start)
		m.Workers = c.workers
		vb.Run(m, vb.Settings{MaxIterations: 3, Converger: vb.FixedIterations{}})
		runtime.ReadMemStats(&after)
		got := float64(after.TotalAlloc - before.TotalAlloc)
		est := hmm.MemoryBytes(c.k, c.p, c.T, c.n, c.workers)
		if est < got {
			t.Errorf("%+v: estimate %.0f bytes < %.0f allocated", c, est, got)
		}
		if est > 4*got+1e6 {
			t.Errorf("%+v: estimate %.0f bytes is more than 4× the %.0f allocated", c, est, got)
		}
		t.Logf("%+v: estimate %.3g, allocated %.3g bytes", c, est, got)
	}
}
