//go:build linux

package results

import "syscall"

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's usage.
const rusageThread = 1

// ThreadCPUSeconds returns the CPU time (user and system) the calling OS
// thread has used so far, and whether it is known. A goroutine measures
// its own CPU time by calling it before and after a piece of work with
// its thread locked (runtime.LockOSThread), so that both calls read the
// same thread and no other goroutine runs on it in between.
func ThreadCPUSeconds() (float64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime), true
}
