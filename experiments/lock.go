package experiments

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vbworkbench/vbw/results"
)

// LockFile, in a results folder's state directory (results.Folder.StateDir),
// marks a run that is writing the folder: "pid host start token" of the vbw
// process (the token tells two locks of one process apart).
const LockFile = "lock"

// lockHook, when not nil, is called with the name of a stage of lockFolder:
// a test seam for the race of two runs that take over one stale lock.
var lockHook func(stage string)

var lockSerial atomic.Uint64

// folderLock is a lock taken by lockFolder.
type folderLock struct {
	path    string
	content []byte // what this process wrote into it
}

// lockFolder takes the results folder f for this process. A lock held by a
// live process on this host is refused with a message naming it; a lock
// left by a process that is gone (a killed run) is taken over. A lock
// written on another host cannot be checked and is refused too: remove it
// by hand if that run is dead.
//
// Two runs may find one stale lock at once. Each takes it away by renaming
// it to a name of its own and then looks at what it took: the stale lock
// is deleted, but a live lock (the other run took the stale one over and
// made its own in between) is put back with link(2), which never replaces
// a file, and the run then finds it and is refused. No run deletes a lock
// it did not judge stale, so the two cannot both go on.
func lockFolder(f results.Folder) (*folderLock, error) {
	state := f.StateDir()
	if err := os.MkdirAll(state, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(state, LockFile)
	host, _ := os.Hostname()
	me := []byte(fmt.Sprintf("%d %s %s %x-%d\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339), time.Now().UnixNano(), lockSerial.Add(1)))
	for attempt := 0; attempt < 8; attempt++ {
		err := createLock(path, me)
		if err == nil {
			return &folderLock{path: path, content: me}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		data, rerr := os.ReadFile(path)
		if rerr != nil {
			continue // released meanwhile
		}
		if err := holderError(f.Path, path, data); err != nil {
			return nil, err
		}
		if lockHook != nil {
			lockHook("stale")
		}
		if err := takeStale(path, data); err != nil {
			return nil, fmt.Errorf("%s: taking over the stale lock %s: %w", f.Path, path, err)
		}
	}
	return nil, fmt.Errorf("%s: could not take the lock %s", f.Path, path)
}

// createLock makes the lock file path with the content me, or fails with
// an error wrapping fs.ErrExist if there is one. The content is written to
// a temporary file first and linked to path, so that a lock is never seen
// empty (a run killed between creating the file and writing it would
// leave a lock that names no process); a file system without hard links
// gets an O_EXCL create instead.
func createLock(path string, me []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-"+results.OwnerTag()+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(me)
	if err := errors.Join(werr, tmp.Sync(), tmp.Close()); err != nil {
		return err
	}
	err = os.Link(tmp.Name(), path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, werr = fh.Write(me)
	if err := errors.Join(werr, fh.Close()); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// takeStale removes the lock at path if it still holds stale, the content
// of a lock whose process is gone. It renames whatever is at path to a
// name of its own first, so that it never deletes a lock made after it
// looked: a lock with other content goes back to path.
func takeStale(path string, stale []byte) error {
	grave, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-"+results.OwnerTag()+"-*")
	if err != nil {
		return err
	}
	grave.Close()
	if err := os.Rename(path, grave.Name()); err != nil {
		os.Remove(grave.Name())
		if errors.Is(err, fs.ErrNotExist) {
			return nil // another run removed it
		}
		return err
	}
	defer os.Remove(grave.Name())
	took, err := os.ReadFile(grave.Name())
	if err == nil && bytes.Equal(took, stale) {
		return nil
	}
	// A live lock, made after this run looked: put it back. If a third run
	// has made a lock in the meantime, link fails and the owner of the lock
	// taken here finds that it lost it before it commits (folderLock.held).
	if lockHook != nil {
		lockHook("restore")
	}
	if err := os.Link(grave.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// holderError returns the refusal for a lock with content data held by a
// live process (or by one on another host, which cannot be checked), and
// nil for a lock whose process is gone.
func holderError(dir, path string, data []byte) error {
	f := strings.Fields(string(data))
	pid, perr := 0, error(nil)
	if len(f) > 0 {
		pid, perr = strconv.Atoi(f[0])
	}
	lockHost := ""
	if len(f) > 1 {
		lockHost = f[1]
	}
	if perr == nil && results.OwnerGone(lockHost, pid) {
		return nil
	}
	return fmt.Errorf("%s is being written by another vbw run (%s); wait for it to finish, or remove %s if that run is dead",
		dir, lockHolder(f), path)
}

// held reports whether the lock is still this process's: false if another
// run took it over (see lockFolder).
func (l *folderLock) held() bool {
	data, err := os.ReadFile(l.path)
	return err == nil && bytes.Equal(data, l.content)
}

// release removes the lock if it is still this process's.
func (l *folderLock) release() {
	if l.held() {
		os.Remove(l.path)
	}
}
