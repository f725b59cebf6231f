package vbtest_test

import (
	"fmt"
	"runtime"
	"testing"
)

// recorder is a fake testing.TB that records what a check reports instead
// of failing the test: Errorf and Error calls in errs, a Fatalf, Fatal or
// FailNow in fatal (after which, like testing.T, it ends the goroutine with
// runtime.Goexit), Logf and Log calls in logs. The embedded nil TB makes it
// satisfy the interface; a check that calls any other method panics, which
// run reports. Use run for checks that may call Fatalf.
type recorder struct {
	testing.TB
	errs   []string
	fatal  string
	logs   []string
	panicV any // the value of a panic inside run, nil if none
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Error(args ...any) { r.errs = append(r.errs, fmt.Sprint(args...)) }

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) {
	r.fatal = fmt.Sprint(args...)
	runtime.Goexit()
}

func (r *recorder) FailNow() {
	if r.fatal == "" {
		r.fatal = "FailNow"
	}
	runtime.Goexit()
}

func (r *recorder) Failed() bool { return len(r.errs) > 0 || r.fatal != "" }

func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

func (r *recorder) Log(args ...any) { r.logs = append(r.logs, fmt.Sprint(args...)) }

// run calls check with r in a new goroutine and waits for it, so that the
// runtime.Goexit of Fatalf ends only that goroutine; a panic is recovered
// into r.panicV.
func (r *recorder) run(check func(t testing.TB)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { r.panicV = recover() }()
		check(r)
	}()
	<-done
}

// reports returns every failure recorded, the fatal one last.
func (r *recorder) reports() []string {
	all := append([]string(nil), r.errs...)
	if r.fatal != "" {
		all = append(all, r.fatal)
	}
	if r.panicV != nil {
		all = append(all, fmt.Sprint("panic: ", r.panicV))
	}
	return all
}
