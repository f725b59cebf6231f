package experiments

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/results"
)

// staleLock writes a lock of a process that has exited into f's state and
// returns its path.
func staleLock(t *testing.T, f results.Folder) string {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot start a process:", err)
	}
	host, _ := os.Hostname()
	if err := os.MkdirAll(f.StateDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(f.StateDir(), LockFile)
	if err := os.WriteFile(path, []byte(strconv.Itoa(cmd.Process.Pid)+" "+host+" 2026-01-01T00:00:00Z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStaleLockTakenOverOnce: two runs find one stale lock at once; the
// one that is second to take it over finds, in what it took, the first
// one's new lock, puts it back and is refused. (Removing the stale lock
// by name, as vbw did, deleted the first run's new lock, and both ran.)
func TestStaleLockTakenOverOnce(t *testing.T) {
	f := results.Folder{Path: filepath.Join(t.TempDir(), "chapter3", "x")}
	path := staleLock(t, f)
	var (
		first  *folderLock
		inside bool
		stages []string
	)
	lockHook = func(stage string) {
		stages = append(stages, stage)
		if stage != "stale" || inside || first != nil {
			return
		}
		// Between this run's look at the stale lock and its takeover, the
		// other run takes it over.
		inside = true
		var err error
		if first, err = lockFolder(f); err != nil {
			t.Errorf("the first run: %v", err)
		}
		inside = false
	}
	defer func() { lockHook = nil }()
	second, err := lockFolder(f)
	lockHook = nil
	if first == nil {
		t.Fatal("the first run did not take the lock")
	}
	if err == nil {
		second.release()
		t.Fatal("both runs hold the lock")
	}
	if !strings.Contains(err.Error(), "is being written by another vbw run (pid "+strconv.Itoa(os.Getpid())) {
		t.Errorf("the second run's refusal: %v", err)
	}
	if !slices.Contains(stages, "restore") {
		t.Errorf("stages %q: the second run never took the first one's lock away and back", stages)
	}
	if !first.held() {
		t.Fatal("the first run's lock was deleted")
	}
	first.release()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the lock outlived its release: %v", err)
	}
	if left, _ := os.ReadDir(f.StateDir()); len(left) > 0 {
		t.Errorf("the takeover left %v", left)
	}
}

// TestLostLockCommitsNothing: a run whose lock another run took over does
// not commit, and its release leaves the other run's lock alone.
func TestLostLockCommitsNothing(t *testing.T) {
	f := results.Folder{Path: filepath.Join(t.TempDir(), "chapter3", "x")}
	lock, err := lockFolder(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockFolder(f); err == nil || !strings.Contains(err.Error(), "is being written by another vbw run") {
		t.Fatalf("a second lock of a held folder: %v", err)
	}
	other := []byte("1 elsewhere 2026-01-01T00:00:00Z 1\n")
	if err := os.WriteFile(lock.path, other, 0o644); err != nil {
		t.Fatal(err)
	}
	staging, err := f.NewStaging()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(staging, "runs.csv"), []byte("a\n"), 0o644)
	err = commit(f, lock, staging, &results.Manifest{Experiment: "chapter3/x"})
	if err == nil || !strings.Contains(err.Error(), "took over the lock") {
		t.Fatalf("commit without the lock: %v", err)
	}
	if _, err := os.Lstat(f.Path); !os.IsNotExist(err) {
		t.Error("results were committed without the lock")
	}
	lock.release()
	if b, _ := os.ReadFile(lock.path); string(b) != string(other) {
		t.Errorf("release removed another run's lock (now %q)", b)
	}
}
