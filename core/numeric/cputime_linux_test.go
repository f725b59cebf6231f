package numeric

import "syscall"

// threadCPUSeconds returns the CPU time the calling OS thread has used
// (getrusage RUSAGE_THREAD), and true.
func threadCPUSeconds() (float64, bool) {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime), true
}
