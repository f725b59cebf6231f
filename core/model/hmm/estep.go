package hmm

import (
	"math"

	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/parallel"
)

// blockSymbols is the minimum number of symbols in a block of the E step:
// the sequences are cut into contiguous blocks of at least this many symbols
// (boundaries at sequence ends), each block's counts and ln Z are summed from
// zero in sequence order, and the blocks are added in block order. The
// partition depends only on the data, never on the number of workers, so the
// results are bit-identical for every Workers setting; a data set of fewer
// symbols (all of chapter 3's) is one block, summed exactly as a plain loop
// over the sequences would. Tests lower it to exercise many blocks.
var blockSymbols = 10000

// estep is the E step shared by VB and EM: the forward-backward recursion
// (infer.ForwardBackward.AddExpectedCounts) over every sequence with one
// chain, pooling the expected counts (L1857) and the per-sequence ln Z. With
// more than one worker and more than one block the blocks are spread over
// goroutines, each with its own ForwardBackward and Counts. Given the logs
// of the chain's weights too (VB's), a sequence the scaled recursion finds
// impossible is run again in the log domain
// (infer.ForwardBackward.AddExpectedCountsLog): its weights may have
// underflowed to 0 while every path keeps a positive weight.
type estep struct {
	counts *infer.Counts // pooled counts of the last run
	lnZ    []float64     // per-sequence ln Z of the last run
	blocks []int         // block b holds sequences blocks[b] … blocks[b+1]−1

	ws      infer.ForwardBackward // the serial path's
	scratch *infer.Counts         // the serial path's counts of blocks after the first
	workers []eworker             // the parallel path's, one per worker
	slots   []eslot               // the parallel path's ring of finished blocks
}

type eworker struct{ ws infer.ForwardBackward }

// eslot holds one block's results until they are added to the total.
type eslot struct {
	counts *infer.Counts
	lnZ    float64
}

func newEStep(k, p int) estep { return estep{counts: infer.NewCounts(k, p)} }

// partition cuts seqs into blocks of at least blockSymbols symbols (the last
// may have fewer), each ending at the first sequence end that reaches it.
func (e *estep) partition(seqs [][]int) {
	e.blocks = append(e.blocks[:0], 0)
	n := 0
	for i, y := range seqs {
		n += len(y)
		if n >= blockSymbols && i+1 < len(seqs) {
			e.blocks = append(e.blocks, i+1)
			n = 0
		}
	}
	e.blocks = append(e.blocks, len(seqs))
}

// smoothBlock adds the counts of block b's sequences to acc (in sequence
// order), stores their ln Z and returns their sum (from zero, in order). A
// sequence impossible under c is run again under lc, the logs of c's
// weights, when lc is not nil.
func (e *estep) smoothBlock(ws *infer.ForwardBackward, c *infer.Chain, lc *infer.LogChain, seqs [][]int, b int, acc *infer.Counts) float64 {
	var lnZ float64
	for i := e.blocks[b]; i < e.blocks[b+1]; i++ {
		e.lnZ[i] = ws.AddExpectedCounts(c, seqs[i], acc)
		if lc != nil && math.IsInf(e.lnZ[i], -1) {
			e.lnZ[i] = ws.AddExpectedCountsLog(lc, seqs[i], acc)
		}
		lnZ += e.lnZ[i]
	}
	return lnZ
}

// run sets e.counts and e.lnZ from the sequences under chain c (with lc,
// when not nil, the logs of its weights) and returns Σ_i ln Z_i, using up
// to workers goroutines (0 or 1: the calling one).
func (e *estep) run(c *infer.Chain, lc *infer.LogChain, seqs [][]int, workers int) float64 {
	if cap(e.lnZ) < len(seqs) {
		e.lnZ = make([]float64, len(seqs))
	}
	e.lnZ = e.lnZ[:len(seqs)]
	e.partition(seqs)
	nb := len(e.blocks) - 1
	e.counts.Zero()
	if workers <= 1 || nb == 1 {
		// Block 0 directly into the total (0 + x = x), the others from
		// zero in the scratch counts, then added: the parallel path's sums.
		lnZ := e.smoothBlock(&e.ws, c, lc, seqs, 0, e.counts)
		for b := 1; b < nb; b++ {
			if e.scratch == nil || e.scratch.K != c.K || e.scratch.P != c.P {
				e.scratch = infer.NewCounts(c.K, c.P)
			}
			e.scratch.Zero()
			lnZ += e.smoothBlock(&e.ws, c, lc, seqs, b, e.scratch)
			e.counts.Add(e.scratch)
		}
		return lnZ
	}
	return e.runParallel(c, lc, seqs, min(workers, nb))
}

// runParallel hands the blocks out in increasing order to nw goroutines
// (parallel.Ordered), each computing a block's counts from zero into one of
// 2·nw slots, while the calling goroutine adds the finished blocks to the
// total in block order, so the sum is the serial path's. A worker waits
// before reusing a slot until the block last held there has been added, so
// memory stays O(nw). A panic in a worker (a symbol outside the alphabet)
// stops the others and is raised again in the calling goroutine, as the
// serial path would raise it.
func (e *estep) runParallel(c *infer.Chain, lc *infer.LogChain, seqs [][]int, nw int) float64 {
	if len(e.workers) < nw {
		e.workers = append(e.workers, make([]eworker, nw-len(e.workers))...)
	}
	ns := 2 * nw
	if len(e.slots) < ns || e.slots[0].counts.K != c.K || e.slots[0].counts.P != c.P {
		e.slots = make([]eslot, ns)
		for s := range e.slots {
			e.slots[s].counts = infer.NewCounts(c.K, c.P)
		}
	}
	slots := e.slots[:ns]
	ws := make([]*infer.ForwardBackward, nw)
	for w := range ws {
		ws[w] = &e.workers[w].ws
	}
	var lnZ float64
	parallel.Ordered(len(e.blocks)-1, ws, ns, func(fb *infer.ForwardBackward, b int) {
		sl := &slots[b%ns]
		sl.counts.Zero()
		sl.lnZ = e.smoothBlock(fb, c, lc, seqs, b, sl.counts)
	}, func(b int) {
		sl := &slots[b%ns]
		e.counts.Add(sl.counts)
		lnZ += sl.lnZ
	})
	return lnZ
}
