package hmm

// MemoryBytes estimates the memory, in bytes, that one fit (VB, or EM for
// ML and MAP) of a k-state HMM over p symbols holds while it runs on data
// with nSeq sequences, the longest maxLen symbols long, with the given
// number of E-step workers (≤ 1: one). It counts, in 8-byte words:
//
//   - the parameter-sized arrays of k + k² + k·p entries: the posterior (or
//     parameters), the Bayes-point weights, the recursion's copy of them
//     (package infer's Chain), the pooled expected counts and the scratch
//     counts of the serial E step, plus two block slots of counts per
//     worker in the parallel E step; the initial state and a result copy
//     kept by callers add two more;
//   - per worker, the forward-backward workspace: the T×k scaled forward
//     messages of the longest sequence, its T scale factors, the k×k
//     transition accumulator and a 32×k chunk;
//   - the per-sequence ln Z;
//
// and adds a quarter for what the garbage collector keeps around.
//
// The result is a float64 so that impossible sizes (k = 10⁵ gives 10¹⁰-entry
// transition arrays) do not overflow. It errs on the high side; the test
// TestMemoryBytesBoundsAllocation checks it against what a fit allocates.
func MemoryBytes(k, p, maxLen, nSeq, workers int) float64 {
	w := float64(max(workers, 1))
	K, P, T := float64(k), float64(p), float64(maxLen)
	param := K + K*K + K*P
	words := (6+2*w)*param + w*(T*K+T+K*K+32*K+2*K) + float64(nSeq)
	return 1.25 * 8 * words
}
