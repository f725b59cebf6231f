//go:build !race

package is

// raceEnabled reports whether the race detector, whose instrumentation can
// allocate, is on; the allocation tests are then skipped.
const raceEnabled = false
