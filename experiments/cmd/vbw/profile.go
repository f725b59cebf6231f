package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// startCPUProfile starts a CPU profile written to path, a file that must not
// exist yet (nothing of the user's is overwritten), and returns the function
// that stops it and closes the file.
func startCPUProfile(path string) (func(io.Writer), error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return func(log io.Writer) {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(log, "vbw: the CPU profile %s was not written: %v\n", path, err)
		}
	}, nil
}
