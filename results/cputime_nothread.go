//go:build !linux

package results

// ThreadCPUSeconds returns 0, false: the CPU time of one thread is not
// read on this system.
func ThreadCPUSeconds() (float64, bool) { return 0, false }
