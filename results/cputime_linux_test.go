//go:build linux

package results

import (
	"runtime"
	"testing"
)

// The thread clock resolves a piece of work far under a tick (the old
// getrusage reading stayed at 0 for it) and never runs backwards.
func TestThreadCPUSecondsResolves(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	a, ok := ThreadCPUSeconds()
	if !ok {
		t.Skip("no thread clock")
	}
	x := 1.0
	for i := range 200000 {
		x = x*1.0000001 + float64(i&1)
	}
	b, _ := ThreadCPUSeconds()
	if !(b > a) {
		t.Errorf("thread CPU time %v then %v after work (x = %v)", a, b, x)
	}
}
