package config

import (
	"math"
	"strconv"
)

// Checks shared by the configs' Validate methods. A comparison written as
// !(x > 0) lets +Inf through, and +Inf is no more a usable tolerance or
// prior strength than −1; these helpers refuse NaN and ±Inf as well, and
// name the key.

// Positive returns a FieldError unless v is positive and finite.
func Positive(key string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return FieldError(key, v, "must be positive and finite")
	}
	return nil
}

// NonNegative returns a FieldError unless v is ≥ 0 and finite.
func NonNegative(key string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 0) {
		return FieldError(key, v, "must be ≥ 0 and finite")
	}
	return nil
}

// InOpenUnit returns a FieldError unless 0 < v < 1.
func InOpenUnit(key string, v float64) error {
	if !(v > 0 && v < 1) {
		return FieldError(key, v, "must be in (0, 1)")
	}
	return nil
}

// AtLeast returns a FieldError unless v ≥ min.
func AtLeast(key string, v, min int) error {
	if v < min {
		return FieldError(key, v, "must be at least "+strconv.Itoa(min))
	}
	return nil
}

// FirstError returns the first non-nil error, for a list of checks.
func FirstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
