#!/usr/bin/env python3
"""Time one iteration of hmmlearn's VariationalCategoricalHMM (variational
Bayes for a discrete HMM, the model of vbw's core/model/hmm) at K = 100
hidden states on one sequence of T = 10^5 symbols over 27 letters, one
thread.

The data are those of core/model/hmm/estep_test.go's
BenchmarkVBIterationLongSeqK100 in distribution: a sequence sampled from a
random 10-state HMM over 27 symbols; the prior is the same symmetric
Dirichlet (hmm.SymmetricPrior(100, 27, 4, 4, 4): pseudo-counts 4/K for the
initial state and each row of A, 4/P for each row of C). The VB fit uses
hmmlearn's scaled forward-backward (implementation="scaling", its C++
extension _hmmc), its faster one.

An iteration (the VB E step with its forward-backward, the M step, the
lower bound) is timed as the difference between fits of n_iter = 1 + ITERS
and n_iter = 1 from the same start, divided by ITERS; tol = -inf so that no
fit stops early. Prints one line: process CPU seconds and wall seconds per
iteration.

hmmlearn is not packaged by Debian: see README.md for building it from its
source in /tmp (nothing of it is committed here); put its src directory on
PYTHONPATH.
"""
import sys
import time
import warnings

import numpy as np
from hmmlearn import _hmmc  # noqa: F401  (fail early without the C++ extension)
from hmmlearn.vhmm import VariationalCategoricalHMM

K, P, T = 100, 27, 100_000
ITERS = int(sys.argv[1]) if len(sys.argv) > 1 else 3


def data():
    rng = np.random.default_rng(5)
    k0 = 10
    start = rng.dirichlet(np.ones(k0))
    trans = rng.dirichlet(np.ones(k0), size=k0)
    emit = rng.dirichlet(np.ones(P), size=k0)
    s = rng.choice(k0, p=start)
    y = np.empty(T, dtype=np.int64)
    for t in range(T):
        y[t] = rng.choice(P, p=emit[s])
        s = rng.choice(k0, p=trans[s])
    return y.reshape(-1, 1)


def fit(y, n_iter):
    m = VariationalCategoricalHMM(n_components=K, n_features=P, n_iter=n_iter, tol=-np.inf,
                                  startprob_prior=4 / K, transmat_prior=4 / K, emissionprob_prior=4 / P,
                                  implementation="scaling", random_state=3)
    c0, w0 = time.process_time(), time.perf_counter()
    with warnings.catch_warnings():
        # hmmlearn's KL term of the bound warns of an inf − inf for a
        # state whose initial-state count is 0; the timing is unaffected.
        warnings.simplefilter("ignore", RuntimeWarning)
        m.fit(y)
    return time.process_time() - c0, time.perf_counter() - w0


def main():
    y = data()
    fit(y, 1)  # warm up
    c1, w1 = fit(y, 1)
    cn, wn = fit(y, 1 + ITERS)
    print("hmmlearn-vhmm cpu_s_per_iter=%.4f wall_s_per_iter=%.4f iters=%d numpy=%s"
          % ((cn - c1) / ITERS, (wn - w1) / ITERS, ITERS, np.__version__))


if __name__ == "__main__":
    main()
