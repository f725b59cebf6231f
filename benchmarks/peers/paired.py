#!/usr/bin/env python3
"""Paired rounds of a peer against vbw's benchmark of the same model, one
thread each, interleaved (peer, vbw, peer, vbw, ...), with CPU and wall time.

    python3 paired.py gmm [--rounds 5]
    python3 paired.py hmm [--rounds 5] [--hmmlearn-src /tmp/hmmlearn/src]

gmm: gmm_sklearn.py (scikit-learn's BayesianGaussianMixture) against
core/model/gmm's BenchmarkIteration (N = 10^5, D = 10, K = 20, full
covariance). hmm: hmm_hmmlearn.py (hmmlearn's VariationalCategoricalHMM)
against core/model/hmm's BenchmarkVBIterationLongSeqK100 (K = 100, T = 10^5).

vbw's time per iteration is measured from the process CPU time of two runs
of the compiled benchmark, -test.benchtime=2x and (N+2)x: the testing package
runs a benchmark once with b.N = 1 and once with b.N = N, so their difference
is N iterations exactly, with the set-up cancelled. GOMAXPROCS=1 and, for the
peers, OMP_NUM_THREADS = OPENBLAS_NUM_THREADS = MKL_NUM_THREADS = 1. The
ratio reported is peer time / vbw time per iteration, CPU and wall, per
round and as the median; the load average is printed after each round (the
wall times mean little on a loaded machine, the CPU times more).
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

CASES = {
    "gmm": dict(peer=["gmm_sklearn.py", "5"], pkg="./core/model/gmm", bench="BenchmarkIteration$", n=10),
    "hmm": dict(peer=["hmm_hmmlearn.py", "3"], pkg="./core/model/hmm", bench="BenchmarkVBIterationLongSeqK100$", n=3),
}

ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "GOMAXPROCS": "1"}


def children_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_peer(case, env, python):
    out = subprocess.run([python, os.path.join(HERE, case["peer"][0])] + case["peer"][1:], env=env,
                         capture_output=True, text=True, check=True).stdout
    cpu = float(re.search(r"cpu_s_per_iter=([\d.]+)", out).group(1))
    wall = float(re.search(r"wall_s_per_iter=([\d.]+)", out).group(1))
    return cpu, wall, out.strip()


def run_vbw(binary, case, env):
    def once(n):
        c0 = children_cpu()
        out = subprocess.run([binary, "-test.run", "^$", "-test.bench", case["bench"], "-test.benchtime", "%dx" % n],
                             cwd=os.path.join(ROOT, case["pkg"]), env=env, capture_output=True, text=True,
                             check=True).stdout
        return children_cpu() - c0, out
    c_lo, _ = once(2)
    c_hi, out = once(case["n"] + 2)
    ns = float(re.search(r"\s([\d.]+) ns/op", out).group(1))
    return (c_hi - c_lo) / case["n"], ns / 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--hmmlearn-src", default="/tmp/hmmlearn/src")
    ap.add_argument("--python", default="/usr/bin/python3", help="the Python with the peer's packages")
    args = ap.parse_args()
    case = CASES[args.case]
    env = dict(os.environ, **ONE_THREAD)
    if args.case == "hmm":
        env["PYTHONPATH"] = args.hmmlearn_src
    binary = os.path.join("/tmp", "vbw-peer-%s.test" % args.case)
    subprocess.run(["go", "test", "-c", "-o", binary, case["pkg"]], cwd=ROOT, check=True)
    print(subprocess.run(["go", "version"], capture_output=True, text=True).stdout.strip())
    cpu_ratios, wall_ratios = [], []
    for r in range(1, args.rounds + 1):
        pc, pw, line = run_peer(case, env, args.python)
        vc, vw = run_vbw(binary, case, env)
        cpu_ratios.append(pc / vc)
        wall_ratios.append(pw / vw)
        load = open("/proc/loadavg").read().split()[:3]
        print("round %d: peer cpu %.4f s wall %.4f s | vbw cpu %.4f s wall %.4f s | ratio cpu %.2f wall %.2f | load %s"
              % (r, pc, pw, vc, vw, pc / vc, pw / vw, " ".join(load)), flush=True)
        if r == 1:
            print("  peer: " + line, flush=True)
    print("median ratio (peer/vbw per iteration): cpu %.2f (min %.2f, max %.2f), wall %.2f"
          % (statistics.median(cpu_ratios), min(cpu_ratios), max(cpu_ratios), statistics.median(wall_ratios)))


if __name__ == "__main__":
    sys.exit(main())
