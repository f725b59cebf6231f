//go:build !unix

package results

// ProcessCPUSeconds returns 0, false: the CPU time of the process is not
// read on this system.
func ProcessCPUSeconds() (float64, bool) { return 0, false }
