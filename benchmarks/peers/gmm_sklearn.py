#!/usr/bin/env python3
"""Time one iteration of scikit-learn's BayesianGaussianMixture (variational
Bayes for a mixture of full-covariance Gaussians, the model of vbw's
core/model/gmm) at N = 10^5 points, D = 10, K = 20, one thread.

The data are those of core/model/gmm/bench_test.go's BenchmarkIteration in
distribution: point n has D independent N(0, 1) coordinates shifted by
n mod 4. The prior is the finite Dirichlet of PRML section 10.2 (as vbw's):
weight_concentration_prior_type="dirichlet_distribution".

An iteration (E step, M step, lower bound) is timed as the difference
between fits of max_iter = 1 + ITERS and max_iter = 1 from the same start,
divided by ITERS, so initialisation is left out; tol = 0 so that no fit
stops early. Prints one line: process CPU seconds and wall seconds per
iteration.

Run with the BLAS on one thread (run_gmm.sh sets OMP_NUM_THREADS,
OPENBLAS_NUM_THREADS and MKL_NUM_THREADS to 1).
"""
import sys
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.mixture import BayesianGaussianMixture

N, D, K = 100_000, 10, 20
ITERS = int(sys.argv[1]) if len(sys.argv) > 1 else 5


def data():
    rng = np.random.default_rng(1)
    return rng.standard_normal((N, D)) + (np.arange(N) % 4)[:, None]


def fit(x, max_iter):
    m = BayesianGaussianMixture(n_components=K, covariance_type="full", max_iter=max_iter, tol=0.0,
                                n_init=1, init_params="random", random_state=2,
                                weight_concentration_prior_type="dirichlet_distribution")
    c0, w0 = time.process_time(), time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m.fit(x)
    return time.process_time() - c0, time.perf_counter() - w0


def main():
    x = data()
    fit(x, 1)  # warm up (imports, first allocations)
    c1, w1 = fit(x, 1)
    cn, wn = fit(x, 1 + ITERS)
    print("sklearn-gmm cpu_s_per_iter=%.4f wall_s_per_iter=%.4f iters=%d sklearn=%s numpy=%s"
          % ((cn - c1) / ITERS, (wn - w1) / ITERS, ITERS, __import__("sklearn").__version__, np.__version__))


if __name__ == "__main__":
    main()
