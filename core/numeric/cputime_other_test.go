//go:build !linux

package numeric

// threadCPUSeconds reports that the thread's CPU time is not known here.
func threadCPUSeconds() (float64, bool) { return 0, false }
