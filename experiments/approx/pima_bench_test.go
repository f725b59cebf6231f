package approx

import (
	"encoding/json"
	"math"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/datasets"
)

// pimaBench reads and standardises the Pima training set as RunPima does.
func pimaBench(b *testing.B) (phi [][]float64, t []int) {
	b.Helper()
	c := DefaultPima()
	train, test := "pima_train.csv", "pima_test.csv"
	var xs [2][][]float64
	for k, name := range []string{train, test} {
		data, err := experiments.ReadData(experiments.TestDataDir(), name)
		if err != nil {
			b.Skip(err)
		}
		d, err := datasets.ReadLabelled(name, data, c.Class, c.Positive, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		if xs[k] = d.X; k == 0 {
			t = d.T
		}
	}
	phi, _, err := standardise(train, test, xs[0], xs[1])
	if err != nil {
		b.Fatal(err)
	}
	return phi, t
}

// cpuTime returns the CPU time (user and system) of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start as cpu-ns/op,
// beside the wall time, for a machine shared with other work.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkPima times the two approximations of approx/pima that
// benchmarks/peers/pima_ep_laplace.py computes with numpy and scipy, on
// the 200 training points with the prior N(0, I/α), α = 1: EP (one
// ProjectedFactor per point, sweeps until no site moves by more than 1e-8,
// then ln Z_EP and q) and Laplace (Newton to the mode, ln Z), in wall and
// CPU time (cpu-ns/op). Run it with
//
//	go test ./experiments/approx -run '^$' -bench Pima -cpu 1
//
// With PIMA_PEER_JSON naming the peer's output (its --json), it first checks
// that both fits give the peer's q and ln Z to 1e-6 (relative to
// max(1, |value|)); see benchmarks/peers/README-pima.md.
func BenchmarkPima(b *testing.B) {
	phi, t := pimaBench(b)
	c := DefaultPima()
	m := len(phi[0])
	fitEP := func() (approx.Normal, float64) {
		var fs []approx.Factor
		for n, f := range phi {
			sg := 2*float64(t[n]) - 1
			fs = append(fs, approx.ProjectedFactor{A: f, LogG: func(u float64) float64 { return approx.LogSigmoid(sg * u) }, Tol: numeric.QuadTol{Rel: 1e-10}})
		}
		prior := approx.Normal{Mean: make([]float64, m), Cov: make([]float64, m*m)}
		for i := range m {
			prior.Cov[i*m+i] = 1 / c.Prior.Alpha
		}
		ep, err := approx.NewEP(prior, fs, approx.EPSettings{MaxIterations: c.EP.MaxIterations, Tol: c.EP.Tol})
		if err != nil {
			b.Fatal(err)
		}
		if ok, err := ep.Run(); !ok || err != nil {
			b.Fatal("EP did not converge", err)
		}
		lnz, err := ep.LogEvidence()
		if err != nil {
			b.Fatal(err)
		}
		return ep.Q(), lnz
	}
	fitLaplace := func() (approx.Normal, float64) {
		r, err := approx.Laplace(approx.LogisticJoint(phi, t, c.Prior.Alpha), make([]float64, m))
		if err != nil {
			b.Fatal(err)
		}
		return r.Q, r.LnZ
	}
	if path := os.Getenv("PIMA_PEER_JSON"); path != "" {
		comparePeer(b, path, map[string]func() (approx.Normal, float64){"ep": fitEP, "laplace": fitLaplace})
	}
	b.Run("EP", func(b *testing.B) {
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			fitEP()
		}
		reportCPU(b, start)
	})
	b.Run("Laplace", func(b *testing.B) {
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			fitLaplace()
		}
		reportCPU(b, start)
	})
}

// comparePeer checks each fit against the peer's posterior in the JSON
// file at path: mean, covariance (row-major) and ln Z to 1e-6 relative to
// max(1, |value|).
func comparePeer(b *testing.B, path string, fits map[string]func() (approx.Normal, float64)) {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var peer map[string]json.RawMessage
	if err := json.Unmarshal(data, &peer); err != nil {
		b.Fatal(err)
	}
	for name, fit := range fits {
		var want struct {
			Mean, Cov []float64
			LnZ       float64 `json:"lnz"`
		}
		if err := json.Unmarshal(peer[name], &want); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		q, lnz := fit()
		if len(want.Mean) != len(q.Mean) || len(want.Cov) != len(q.Cov) {
			b.Fatalf("%s: the peer's posterior has %d and %d values, ours %d and %d", name, len(want.Mean), len(want.Cov), len(q.Mean), len(q.Cov))
		}
		worst := 0.0
		for _, p := range [][2][]float64{{q.Mean, want.Mean}, {q.Cov, want.Cov}, {{lnz}, {want.LnZ}}} {
			for i, v := range p[0] {
				worst = math.Max(worst, math.Abs(v-p[1][i])/math.Max(1, math.Abs(p[1][i])))
			}
		}
		b.Logf("%s: largest difference from the peer %.2g (ln Z %.15g, peer %.15g)", name, worst, lnz, want.LnZ)
		if !(worst <= 1e-6) {
			b.Errorf("%s differs from the peer by %.2g", name, worst)
		}
	}
}
