package experiments

import (
	"encoding/json"
	"math"
	"strconv"
)

// Float is a float64 whose JSON form keeps NaN and ±Inf, which
// encoding/json rejects: NaN is written as null, as everywhere in the
// project's JSON (summary.json, golden files), and ±Inf as the strings
// "+Inf" and "-Inf". Cell results use it
// for values that can legitimately be infinite, such as a log probability
// of −Inf under maximum likelihood.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	x := float64(f)
	switch {
	case math.IsNaN(x):
		return []byte(`null`), nil
	case math.IsInf(x, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(x, -1):
		return []byte(`"-Inf"`), nil
	}
	return strconv.AppendFloat(nil, x, 'g', -1, 64), nil
}

// UnmarshalJSON implements json.Unmarshaler.
// It reads null as NaN, and also the strings "NaN", "+Inf" and "-Inf".
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		*f = Float(x)
		return nil
	}
	var x float64
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	*f = Float(x)
	return nil
}

// Floats converts a slice of float64 to Float.
func Floats(xs []float64) []Float {
	out := make([]Float, len(xs))
	for i, x := range xs {
		out[i] = Float(x)
	}
	return out
}

// Float64s converts a slice of Float back to float64.
func Float64s(xs []Float) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}
