#!/usr/bin/env python3
"""EP and Laplace for Bayesian logistic regression on Pima, in plain numpy/scipy.

The peer of approx/pima's EP and Laplace fits (core/approx ep.go, laplace.go,
logistic.go; experiments/approx/pima.go), written from the same equations:

* data: MASS's Pima.tr (pima_train.csv, 200 rows), the seven inputs
  standardised by the training mean and sd (divisor n) and a bias first;
  targets t = 1 for "Yes";
* prior w ~ N(0, I/alpha), alpha = 1 (configs/approx/pima.toml);
* Laplace: Newton's method from w = 0 on ln p(t, w) = sum_n ln sigma(s_n phi_n'w)
  - alpha/2 w'w + const (s_n = 2 t_n - 1) until the largest |gradient| is at
  most 1e-10 (gonum's GradientThreshold, which approx.Laplace sets), then
  ln Z = ln p(t, w*) + (d/2) ln 2 pi - 1/2 ln|A|, A the negative Hessian;
* EP: one site per point, updated in order, undamped, sweeps until no site's
  natural parameters (h_i, Lambda_i) moved by more than 1e-8 in max norm in a
  sweep (approx.EPSettings.Tol), q recomputed from the prior and the sites
  after every sweep, then ln Z_EP = A(q) - A(prior) + sum_i [ln Z_i - A(q) +
  A(q\\i)] (PRML eq. (10.208) in natural parameters). A site of a factor of
  phi_n'w is rank one, Lambda_i = tau_i a a', h_i = nu_i a, so q is updated by
  Sherman-Morrison; the tilted moments of u = a'w are Gauss-Hermite sums
  (GH_NODES nodes, vectorised).

It prints the posteriors (for the comparison with Go) and the time per fit,
CPU and wall, as the minimum and median over --repeat fits. Run with one
thread:

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python3 benchmarks/peers/pima_ep_laplace.py \\
        --data ../shared/data --repeat 20 --json /tmp/pima_peer.json

See README-pima.md beside this file for the comparison with the Go benchmark.
"""

import argparse
import json
import math
import os
import statistics
import time

import numpy as np
from scipy.special import expit, log_expit

GH_NODES = 96
TOL = 1e-8
MAX_SWEEPS = 500
GRAD_TOL = 1e-10


def read_pima(path):
    x, t = [], []
    with open(path) as f:
        next(f)
        for line in f:
            if not line.strip():
                continue
            fs = line.strip().split(",")
            x.append([float(v) for v in fs[:7]])
            t.append(1.0 if fs[7] == "Yes" else 0.0)
    return np.array(x), np.array(t)


def standardise(x):
    mean, sd = x.mean(axis=0), x.std(axis=0)  # divisor n
    return np.hstack([np.ones((len(x), 1)), (x - mean) / sd])


def log_partition(h, lam):
    """A = 1/2 h' lam^-1 h - 1/2 ln|lam| + (d/2) ln 2 pi."""
    c = np.linalg.cholesky(lam)
    z = np.linalg.solve(c, h)
    return 0.5 * z @ z - np.log(np.diag(c)).sum() + 0.5 * len(h) * math.log(2 * math.pi)


def laplace(phi, t, alpha):
    s = 2 * t - 1
    d = phi.shape[1]
    w = np.zeros(d)
    for it in range(100):
        a = phi @ w
        g = phi.T @ (t - expit(a)) - alpha * w
        if np.max(np.abs(g)) <= GRAD_TOL:
            break
        p = expit(a)
        hess = (phi.T * (p * (1 - p))) @ phi + alpha * np.eye(d)
        w = w + np.linalg.solve(hess, g)
    else:
        raise RuntimeError("Newton did not converge")
    p = expit(phi @ w)
    hess = (phi.T * (p * (1 - p))) @ phi + alpha * np.eye(d)
    c = np.linalg.cholesky(hess)
    logp = 0.5 * d * math.log(alpha / (2 * math.pi)) - 0.5 * alpha * w @ w + log_expit(s * (phi @ w)).sum()
    lnz = logp + 0.5 * d * math.log(2 * math.pi) - np.log(np.diag(c)).sum()
    cov = np.linalg.inv(hess)
    return w, cov, lnz, it


def tilted(sign, mu, s2, x, wgh):
    """ln Z, mean and variance of sigma(sign u) N(u | mu, s2) / Z by Gauss-Hermite."""
    u = mu + math.sqrt(2 * s2) * x
    f = wgh * expit(sign * u)
    z = f.sum()
    m = (f @ u) / z
    v = (f @ (u - m) ** 2) / z
    return math.log(z), m, v


def ep(phi, t, alpha):
    n, d = phi.shape
    s = 2 * t - 1
    x, wgh = np.polynomial.hermite.hermgauss(GH_NODES)
    wgh = wgh / math.sqrt(math.pi)
    amax = np.abs(phi).max(axis=1)
    tau, nu = np.zeros(n), np.zeros(n)
    sigma, mu = np.eye(d) / alpha, np.zeros(d)
    converged = False
    sweeps = 0
    for _ in range(MAX_SWEEPS):
        change = 0.0
        for i in range(n):
            a = phi[i]
            sa = sigma @ a
            sq, mq = a @ sa, a @ mu
            tc, nc = 1 / sq - tau[i], mq / sq - nu[i]
            if not tc > 0:
                continue  # improper cavity: skipped, as approx.EP does
            _, m, v = tilted(s[i], nc / tc, 1 / tc, x, wgh)
            dt, dn = 1 / v - tc - tau[i], m / v - nc - nu[i]
            den = 1 + dt * sq
            if not den > 0:
                continue  # q would be improper (approx.EP halves the step; undamped Pima never does)
            sigma = sigma - np.outer(sa, sa) * (dt / den)
            mu = mu + sa * ((dn - dt * mq) / den)
            tau[i] += dt
            nu[i] += dn
            change = max(change, abs(dn) * amax[i], abs(dt) * amax[i] ** 2)
        lam = alpha * np.eye(d) + (phi.T * tau) @ phi
        sigma = np.linalg.inv(lam)
        mu = sigma @ (phi.T @ nu)
        sweeps += 1
        if change <= TOL:
            converged = True
            break
    if not converged:
        raise RuntimeError("EP did not converge")
    # ln Z_EP at the fixed point.
    lam = alpha * np.eye(d) + (phi.T * tau) @ phi
    h = phi.T @ nu
    aq = log_partition(h, lam)
    lnz = aq - log_partition(np.zeros(d), alpha * np.eye(d))
    for i in range(n):
        a = phi[i]
        lc, hc = lam - tau[i] * np.outer(a, a), h - nu[i] * a
        tc, nc = 1 / (a @ sigma @ a) - tau[i], (a @ mu) / (a @ sigma @ a) - nu[i]
        lzi, _, _ = tilted(s[i], nc / tc, 1 / tc, x, wgh)
        lnz += lzi - aq + log_partition(hc, lc)
    return mu, sigma, lnz, sweeps


def timed(f, repeat):
    cpu, wall = [], []
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        out = f()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return out, cpu, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="../shared/data", help="directory of pima_train.csv")
    ap.add_argument("--alpha", type=float, default=1.0)
    ap.add_argument("--repeat", type=int, default=10, help="fits timed per method")
    ap.add_argument("--json", help="write the posteriors and times here")
    args = ap.parse_args()
    x, t = read_pima(os.path.join(args.data, "pima_train.csv"))
    phi = standardise(x)
    out = {"threads": {k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")},
           "numpy": np.__version__, "gh_nodes": GH_NODES}
    for name, f in (("laplace", lambda: laplace(phi, t, args.alpha)), ("ep", lambda: ep(phi, t, args.alpha))):
        (mean, cov, lnz, iters), cpu, wall = timed(f, args.repeat)
        out[name] = {"mean": mean.tolist(), "cov": cov.ravel().tolist(), "lnz": lnz, "iterations": iters,
                     "cpu_s_min": min(cpu), "cpu_s_median": statistics.median(cpu),
                     "wall_s_min": min(wall), "wall_s_median": statistics.median(wall)}
        print(f"{name}: ln Z = {lnz:.12f}, {iters} iterations; per fit CPU min {min(cpu)*1e3:.3f} ms, "
              f"median {statistics.median(cpu)*1e3:.3f} ms; wall min {min(wall)*1e3:.3f} ms, "
              f"median {statistics.median(wall)*1e3:.3f} ms")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
