package plots

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// Limits on the number of labelled ticks of a logarithmic axis; beyond them
// only every k'th power is labelled.
const (
	maxLog10Labels = 6
	maxLog2Labels  = 9

	// minor ticks at 2…9 × 10ᵏ are drawn only up to this many decades.
	maxMinorDecades = 8
)

// Log10Ticks marks a logarithmic axis (plot.LogScale) at powers of ten,
// with minor ticks at 2…9 × 10ᵏ. It differs from plot.LogTicks in three
// ways: ticks outside [min, max] are not returned (so they cannot widen the
// axis margin), labels are thinned to every k'th decade on wide ranges, and
// a range containing fewer than two powers of ten gets labels at d × 10ᵏ
// (d from 1–9, or 1, 2, 3, 5, or 1, 2, 5, whichever gives 2 to 6 labels,
// else plot.DefaultTicks) instead of a single label or none.
type Log10Ticks struct{}

var _ plot.Ticker = Log10Ticks{}

// Ticks implements plot.Ticker.
func (Log10Ticks) Ticks(min, max float64) []plot.Tick {
	return powerTicks(min, max, 10, maxLog10Labels, log10Label)
}

// Log2Ticks marks a logarithmic axis (plot.LogScale) at powers of two,
// labelled 1, 2, 4, 8, …, for sweeps over sizes that double. Like
// Log10Ticks it thins labels on wide ranges and falls back to
// plot.DefaultTicks when fewer than two powers lie in range.
type Log2Ticks struct{}

var _ plot.Ticker = Log2Ticks{}

// Ticks implements plot.Ticker.
func (Log2Ticks) Ticks(min, max float64) []plot.Tick {
	return powerTicks(min, max, 2, maxLog2Labels, log2Label)
}

// powerTicks returns ticks at base^k (base 2 or 10) within [min, max],
// labelling every step'th power so that at most maxLabels are labelled.
func powerTicks(min, max, base float64, maxLabels int, label func(float64) string) []plot.Tick {
	if !(min > 0) || !(max > min) || math.IsInf(max, 0) {
		return linearTicks(min, max)
	}
	logb := func(v float64) float64 { return math.Log(v) / math.Log(base) }
	const eps = 1e-9
	kLo := int(math.Ceil(logb(min) - eps))
	kHi := int(math.Floor(logb(max) + eps))
	n := kHi - kLo + 1
	if n < 2 {
		if base == 10 {
			return mantissaTicks(min, max)
		}
		return linearTicks(min, max)
	}
	step := (n + maxLabels - 1) / maxLabels

	in := func(v float64) bool { return v >= min*(1-eps) && v <= max*(1+eps) }
	var ticks []plot.Tick
	for k := kLo; k <= kHi; k++ {
		v := math.Ldexp(1, k) // exact powers, so that labels read 0.001, not 0.0010000000000000002
		if base == 10 {
			v = math.Pow10(k)
		}
		t := plot.Tick{Value: v}
		if ((k%step)+step)%step == 0 {
			t.Label = label(v)
		}
		ticks = append(ticks, t)
	}
	if base == 10 && n <= maxMinorDecades {
		for k := kLo - 1; k <= kHi; k++ {
			for d := 2; d <= 9; d++ {
				if v := float64(d) * math.Pow10(k); in(v) {
					ticks = append(ticks, plot.Tick{Value: v})
				}
			}
		}
	}
	return ticks
}

// mantissaSets are the leading digits d of d × 10ᵏ that may be labelled on
// a log10 axis spanning less than two decades, from richest to sparsest.
var mantissaSets = [][]int{{1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 5}, {1, 2, 5}}

// mantissaTicks marks every d × 10ᵏ in [min, max] and labels those of the
// richest mantissa set that gives between 2 and maxLog10Labels labels; if
// none does, it returns linearTicks.
func mantissaTicks(min, max float64) []plot.Tick {
	const eps = 1e-9
	kLo := int(math.Floor(math.Log10(min))) - 1
	kHi := int(math.Ceil(math.Log10(max)))
	type cand struct {
		v float64
		d int
	}
	var all []cand
	for k := kLo; k <= kHi; k++ {
		for d := 1; d <= 9; d++ {
			if v := float64(d) * math.Pow10(k); v >= min*(1-eps) && v <= max*(1+eps) {
				all = append(all, cand{v, d})
			}
		}
	}
	for _, set := range mantissaSets {
		var ticks []plot.Tick
		labelled := 0
		for _, c := range all {
			t := plot.Tick{Value: c.v}
			for _, d := range set {
				if c.d == d {
					t.Label = TickLabel(c.v, 0)
					labelled++
				}
			}
			ticks = append(ticks, t)
		}
		if labelled >= 2 && labelled <= maxLog10Labels {
			return spreadLabels(ticks, math.Log10(max/min))
		}
	}
	return linearTicks(min, max)
}

// minLabelGap is the least distance between two labels of a log axis, as
// a fraction of the axis' length in decades; closer labels overlap.
const minLabelGap = 0.1

// spreadLabels drops the label of a tick that lies within minLabelGap of
// the axis' length (decades, in log10 units) of the previous labelled one,
// keeping powers of ten (a label 1 beats a label 0.9 beside it).
func spreadLabels(ticks []plot.Tick, decades float64) []plot.Tick {
	slices.SortFunc(ticks, func(a, b plot.Tick) int { return cmp.Compare(a.Value, b.Value) })
	last := -1
	for i, t := range ticks {
		if t.Label == "" {
			continue
		}
		if last >= 0 && math.Log10(t.Value/ticks[last].Value) < minLabelGap*decades {
			if isPow10(ticks[last].Value) || !isPow10(t.Value) {
				ticks[i].Label = ""
				continue
			}
			ticks[last].Label = ""
		}
		last = i
	}
	return ticks
}

// isPow10 reports whether v is an integer power of ten.
func isPow10(v float64) bool {
	k := math.Round(math.Log10(v))
	return math.Abs(v-math.Pow10(int(k))) <= 1e-9*v
}

// linearTicks returns Ticks restricted to positive values in
// [min, max], so that they are safe on a log scale.
func linearTicks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return nil
	}
	var ticks []plot.Tick
	for _, t := range (Ticks{}).Ticks(min, max) {
		if t.Value > 0 && t.Value >= min && t.Value <= max {
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// log10Label formats a power of ten: plainly between 0.001 and 10000,
// otherwise as 1e-5, 1e6.
func log10Label(v float64) string {
	if v >= 1e-3 && v <= 1e4 {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return compactExp(v)
}

// log2Label formats a power of two: 1, 2, 4, …, 0.5, 0.25, and compact
// exponent notation only for very small or large powers.
func log2Label(v float64) string {
	if v >= 1.0/1024 && v < 1e7 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return compactExp(v)
}

// compactExp formats v as 1e6 or 2.5e-7 rather than 1e+06 or 2.5e-07.
func compactExp(v float64) string {
	s := strconv.FormatFloat(v, 'e', -1, 64)
	mant, exp, ok := strings.Cut(s, "e")
	if !ok {
		return s
	}
	e, err := strconv.Atoi(exp)
	if err != nil {
		return s
	}
	return mant + "e" + strconv.Itoa(e)
}
