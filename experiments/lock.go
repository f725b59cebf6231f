package experiments

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// LockFile, in a results folder, marks a run that is writing the folder:
// "pid host start" of the vbw process.
const LockFile = ".vbw-lock"

// lockFolder takes the results folder dir for this process. A lock held by
// a live process on this host is refused with a message naming it; a lock
// left by a process that is gone (a killed run) is taken over. A lock
// written on another host cannot be checked and is refused too: remove it
// by hand if that run is dead. The returned function releases the lock.
func lockFolder(dir string) (release func(), err error) {
	path := filepath.Join(dir, LockFile)
	host, _ := os.Hostname()
	me := fmt.Sprintf("%d %s %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := f.WriteString(me)
			cerr := f.Close()
			if werr != nil || cerr != nil {
				os.Remove(path)
				return nil, errors.Join(werr, cerr)
			}
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		data, rerr := os.ReadFile(path)
		if rerr != nil {
			continue // released meanwhile
		}
		f2 := strings.Fields(string(data))
		pid, perr := 0, error(nil)
		if len(f2) > 0 {
			pid, perr = strconv.Atoi(f2[0])
		}
		lockHost := ""
		if len(f2) > 1 {
			lockHost = f2[1]
		}
		if perr == nil && pid > 0 && lockHost == host && !alive(pid) {
			os.Remove(path) // stale: the run that held it is gone
			continue
		}
		return nil, fmt.Errorf("%s is being written by another vbw run (%s); wait for it to finish, or remove %s if that run is dead",
			dir, lockHolder(f2), path)
	}
	return nil, fmt.Errorf("%s: could not take the lock %s", dir, path)
}

// alive reports whether a process with the pid exists on this host.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
