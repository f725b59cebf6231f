//go:build linux

package results

import (
	"syscall"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID: the calling
// thread's CPU time, counted in nanoseconds by the scheduler
// (getrusage's RUSAGE_THREAD is counted in ticks and read 0 for work
// under a few milliseconds).
const clockThreadCPUTime = 3

// ThreadCPUSeconds returns the CPU time (user and system) the calling OS
// thread has used so far, and whether it is known. A goroutine measures
// its own CPU time by calling it before and after a piece of work with
// its thread locked (runtime.LockOSThread), so that both calls read the
// same thread and no other goroutine runs on it in between.
func ThreadCPUSeconds() (float64, bool) {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return float64(ts.Sec) + float64(ts.Nsec)/1e9, true
}
