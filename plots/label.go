package plots

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// Ticks is the default tick marker of every linear axis this package
// builds: the positions of plot.DefaultTicks, labelled by TickLabel in the
// shortest exact form (25, 2.5, 0.25) rather than with the fixed precision
// of plot.DefaultTicks ("25.00" when the step is 2.5 × 10ᵏ).
type Ticks struct{}

var _ plot.Ticker = Ticks{}

// Ticks implements plot.Ticker.
func (Ticks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return nil
	}
	ticks := (plot.DefaultTicks{}).Ticks(min, max)
	Relabel(ticks)
	return ticks
}

// Relabel rewrites the labels of the labelled ticks with TickLabel, at the
// precision of the smallest gap between two labelled ticks. Unlabelled
// (minor) ticks stay unlabelled.
func Relabel(ticks []plot.Tick) {
	step := math.Inf(1)
	prev := math.NaN()
	for _, t := range ticks {
		if t.Label == "" {
			continue
		}
		if d := math.Abs(t.Value - prev); d > 0 {
			step = math.Min(step, d)
		}
		prev = t.Value
	}
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = TickLabel(t.Value, step)
		}
	}
}

// TickLabel formats the tick value v in the shortest decimal form that
// equals v to within a millionth of step, the spacing of the labelled
// ticks (step ≤ 0 or not finite means to within 10⁻¹² |v|): 25, 2.5, 0.25,
// -0.1 (never 25.00 or 0.30000000000000004), and 0 for a value within that
// tolerance of zero. Magnitudes from 10⁶ up or below 10⁻⁴ are written
// with an exponent, 1.5e6 and 2e-5.
func TickLabel(v, step float64) string {
	tol := 1e-6 * step
	if !(step > 0) || math.IsInf(step, 0) {
		tol = 1e-12 * math.Abs(v)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	if math.Abs(v) <= tol {
		return "0"
	}
	format := byte('f')
	if a := math.Abs(v); a >= 1e6 || a < 1e-4 {
		format = 'e'
	}
	for prec := 0; prec < 17; prec++ {
		s := strconv.FormatFloat(v, format, prec, 64)
		if w, err := strconv.ParseFloat(s, 64); err == nil && math.Abs(w-v) <= tol {
			if format == 'e' {
				return compactExp(w)
			}
			return s
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// IntegerTicks marks an axis that takes integer values only (a number of
// states k, of analysers S): the ticks of Ticks at integers, or, when fewer
// than two of its labels are integers, every integer in range (up to
// twelve of them). Ticks never says 1.5 states.
type IntegerTicks struct{}

var _ plot.Ticker = IntegerTicks{}

// Ticks implements plot.Ticker.
func (IntegerTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	labelled := 0
	for _, t := range (Ticks{}).Ticks(min, max) {
		if t.Value != math.Round(t.Value) {
			continue
		}
		if t.Label != "" {
			labelled++
		}
		out = append(out, t)
	}
	if labelled >= 2 {
		return out
	}
	lo, hi := math.Ceil(min), math.Floor(max)
	if hi-lo+1 > 12 || hi < lo {
		return out
	}
	out = out[:0]
	for v := lo; v <= hi; v++ {
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return out
}
