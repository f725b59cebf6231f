//go:build !race

package vbtest

// raceEnabled reports whether the race detector is on; its instrumentation
// can allocate, so CheckModel skips its allocation checks.
const raceEnabled = false
