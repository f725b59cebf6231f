package chapter5

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/results"
)

// Thresholds quantifies "alive" and "extinct" (targets §3, §4 #31): a
// hidden dimension or input column is alive when its prior variance 1/h
// (h an ARD precision) exceeds Alive and extinct when it is below Extinct;
// in between it is undecided, which counts as a failure for every
// criterion that asks for an exact structure. Both are prior variances,
// in [1e-12, 1e12], and Extinct must not exceed Alive.
type Thresholds struct {
	Alive   float64 `toml:"alive_threshold" range:"[1e-12,1e12]"`
	Extinct float64 `toml:"extinct_threshold" range:"[1e-12,1e12]"`
}

// DefaultThresholds returns 1e-2 and 1e-3 (targets §3).
func DefaultThresholds() Thresholds { return Thresholds{Alive: 1e-2, Extinct: 1e-3} }

// aliveSet returns the indices j with 1/prec[j] > Alive.
func (th Thresholds) aliveSet(prec []float64) []int {
	var s []int
	for j, h := range prec {
		if 1/h > th.Alive {
			s = append(s, j)
		}
	}
	return s
}

// extinctCount returns the number of j with 1/prec[j] < Extinct.
func (th Thresholds) extinctCount(prec []float64) int {
	n := 0
	for _, h := range prec {
		if 1/h < th.Extinct {
			n++
		}
	}
	return n
}

// exactly reports whether exactly n of the precisions are alive and all
// the others extinct (none undecided).
func (th Thresholds) exactly(prec []float64, n int) bool {
	return len(th.aliveSet(prec)) == n && th.extinctCount(prec) == len(prec)-n
}

// AUROC returns the area under the ROC curve of the scores for the binary
// labels: the probability that a random positive scores above a random
// negative, ties counting one half (the Mann-Whitney statistic). NaN when
// either class is empty.
func AUROC(score []float64, label []bool) float64 {
	r := results.Ranks(score)
	var np, nn, sum float64
	for i, l := range label {
		if l {
			np++
			sum += r[i]
		} else {
			nn++
		}
	}
	if np == 0 || nn == 0 {
		return math.NaN()
	}
	return (sum - np*(np+1)/2) / (np * nn)
}

// Jaccard returns |a ∩ b| / |a ∪ b| of two sets of keys (1 for two empty
// sets).
func Jaccard[K comparable](a, b map[K]bool) float64 {
	inter, union := 0, len(b)
	for k := range a {
		if b[k] {
			inter++
		} else {
			union++
		}
	}
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}

// RunningMedian returns the running median of xs over windows of w points
// (w odd) centred on each point, shrunk at the ends.
func RunningMedian(xs []float64, w int) []float64 {
	h := w / 2
	out := make([]float64, len(xs))
	buf := make([]float64, 0, w)
	for i := range xs {
		buf = append(buf[:0], xs[max(0, i-h):min(len(xs), i+h+1)]...)
		slices.Sort(buf)
		n := len(buf)
		if n%2 == 1 {
			out[i] = buf[n/2]
		} else {
			out[i] = (buf[n/2-1] + buf[n/2]) / 2
		}
	}
	return out
}

// PeakRule is the pruning-peak rule of Figure 5.7 (targets §3.4 (iii)).
type PeakRule struct {
	After      int     // peaks at iterations > After only (40)
	Smooth     int     // running-median window (5)
	Window     int     // half-width of the maximum test (20)
	Prominence float64 // decades above the minimum over the preceding Window (0.3)
}

// DefaultPeakRule returns the targets' rule.
func DefaultPeakRule() PeakRule { return PeakRule{After: 40, Smooth: 5, Window: 20, Prominence: 0.3} }

// PeakClusters finds the pruning peaks of a bound trace f (f[i−1] = F_i,
// iterations counted from 1): with ΔF_i = F_i − F_{i−1} (floored at
// 1e-16·max(1, |F_i|) so that its logarithm exists), s = the running median
// of log₁₀ΔF, an iteration i > After is a peak when s_i is the maximum of s
// over [i − Window, i + Window] and exceeds the minimum over [i − Window, i]
// by Prominence decades. Adjacent peak iterations form one cluster; the
// first iteration of each cluster is returned.
func (r PeakRule) PeakClusters(f []float64) []int {
	n := len(f)
	if n < 2 {
		return nil
	}
	// l[i] is log₁₀ΔF at iteration i (1-based); l[1] is undefined.
	l := make([]float64, n+1)
	for i := 2; i <= n; i++ {
		d := f[i-1] - f[i-2]
		l[i] = math.Log10(math.Max(d, 1e-16*math.Max(1, math.Abs(f[i-1]))))
	}
	l[0], l[1] = l[2], l[2]
	s := RunningMedian(l[2:], r.Smooth)
	at := func(i int) float64 { return s[i-2] }
	var peaks []int
	for i := max(r.After+1, 2); i <= n; i++ {
		lo, hi := max(2, i-r.Window), min(n, i+r.Window)
		mx, mn := math.Inf(-1), math.Inf(1)
		for j := lo; j <= hi; j++ {
			mx = math.Max(mx, at(j))
		}
		for j := lo; j <= i; j++ {
			mn = math.Min(mn, at(j))
		}
		if at(i) == mx && at(i)-mn >= r.Prominence {
			peaks = append(peaks, i)
		}
	}
	var clusters []int
	for k, p := range peaks {
		if k == 0 || p != peaks[k-1]+1 {
			clusters = append(clusters, p)
		}
	}
	return clusters
}

// DiagonalDominance returns Σ_j A_jj² / Σ_ij A_ij² over the block of the
// square a with rows and columns in idx (targets §3.1 criterion 4); NaN
// for an empty block.
func DiagonalDominance(a *mat.Dense, idx []int) float64 {
	var diag, all float64
	for _, i := range idx {
		for _, j := range idx {
			v := a.At(i, j) * a.At(i, j)
			all += v
			if i == j {
				diag += v
			}
		}
	}
	if all == 0 {
		return math.NaN()
	}
	return diag / all
}

// SingularRatio returns σ₂/σ₁ of m (0 for a rank-one matrix; NaN if the
// SVD fails or m is 0).
func SingularRatio(m mat.Matrix) float64 {
	var svd mat.SVD
	if !svd.Factorize(m, mat.SVDNone) {
		return math.NaN()
	}
	v := svd.Values(nil)
	if len(v) < 2 || v[0] == 0 {
		return math.NaN()
	}
	return v[1] / v[0]
}

// fraction returns the fraction of true values (NaN for none).
func fraction(pass []bool) float64 {
	if len(pass) == 0 {
		return math.NaN()
	}
	n := 0
	for _, p := range pass {
		if p {
			n++
		}
	}
	return float64(n) / float64(len(pass))
}

// medianOf returns the median of xs (NaN values left out).
func medianOf(xs []float64) float64 {
	var kept []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			kept = append(kept, x)
		}
	}
	if len(kept) == 0 {
		return math.NaN()
	}
	slices.Sort(kept)
	n := len(kept)
	if n%2 == 1 {
		return kept[n/2]
	}
	return (kept[n/2-1] + kept[n/2]) / 2
}

// monotone reports whether f never decreases by more than
// tol·max(1, |f_{i−1}|) (targets §3.1 criterion 5, §3.4 (i)).
func monotone(f []float64, tol float64) bool {
	for i := 1; i < len(f); i++ {
		if f[i] < f[i-1]-tol*math.Max(1, math.Abs(f[i-1])) {
			return false
		}
	}
	return true
}
