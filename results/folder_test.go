package results

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeRun writes the files of a run tagged tag into dir: tables, a
// figure, a file only this tag writes, and the manifest (Experiment = tag)
// that lists them.
func writeRun(t testing.TB, dir, tag string) {
	t.Helper()
	files := map[string]string{
		"runs.csv":             "run,F\n" + tag + ",-1\n",
		SummaryFile:            `{"experiment": "` + tag + `"}`,
		"fig1.svg":             "<svg>" + tag + "</svg>",
		"only-" + tag + ".csv": tag,
	}
	for name, text := range files {
		if err := WriteFileAtomic(filepath.Join(dir, name), []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	outs, err := DescribeOutputs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(filepath.Join(dir, ManifestFile), &Manifest{Experiment: tag, Outputs: outs}); err != nil {
		t.Fatal(err)
	}
}

// commitRun commits a run tagged tag to f.
func commitRun(t testing.TB, f Folder, tag string) {
	t.Helper()
	staging, err := f.NewStaging()
	if err != nil {
		t.Fatal(err)
	}
	writeRun(t, staging, tag)
	if err := f.Commit(staging); err != nil {
		t.Fatal(err)
	}
}

// whole checks that the folder at path holds one run whole, as a reader
// finds it (every output, figures too, matches the manifest, and no file
// is outside it), and returns its tag.
func whole(path string) (string, error) {
	dir, err := Folder{Path: path}.Current()
	if err != nil {
		return "", err
	}
	m, err := ReadManifest(filepath.Join(dir, ManifestFile))
	if err != nil {
		return "", err
	}
	if len(m.Outputs) != 4 {
		return "", fmt.Errorf("%d outputs listed, want 4", len(m.Outputs))
	}
	for _, o := range m.Outputs {
		b, err := m.ReadOutput(dir, o.Name)
		if err != nil {
			return "", err
		}
		if o.Name == SummaryFile && !strings.Contains(string(b), `"`+m.Experiment+`"`) {
			return "", fmt.Errorf("summary of another run: %s", b)
		}
	}
	if extra, err := m.Unlisted(dir); err != nil || len(extra) > 0 {
		return "", fmt.Errorf("files outside the manifest: %v %v", extra, err)
	}
	return m.Experiment, nil
}

// copyTree copies the tree at src to dst, links as links.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// deadPID returns the pid of a process that has exited.
func deadPID(t testing.TB) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot start a process:", err)
	}
	return cmd.Process.Pid
}

// orphan renames what this process owns under root (staging folders,
// temporary files) as if a process that has exited made it: the copy of a
// folder taken at some instant is then what a kill at that instant leaves.
func orphan(t testing.TB, root string, dead int) {
	t.Helper()
	mine := "-" + strconv.Itoa(os.Getpid()) + "-"
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), mine) {
			paths = append(paths, p)
		}
		return nil
	})
	slices.Reverse(paths) // children first
	for _, p := range paths {
		name := strings.Replace(filepath.Base(p), mine, "-"+strconv.Itoa(dead)+"-", 1)
		if err := os.Rename(p, filepath.Join(filepath.Dir(p), name)); err != nil {
			t.Fatal(err)
		}
	}
}

// leftovers returns what a killed run may leave in a folder's state
// (anything but cells/, the claim and the current generation).
func leftovers(f Folder) []string {
	var left []string
	entries, _ := os.ReadDir(f.StateDir())
	for _, e := range entries {
		if e.Name() != "cells" && e.Name() != "config-path" && e.Name() != f.currentGen() {
			left = append(left, e.Name())
		}
	}
	cells, _ := os.ReadDir(filepath.Join(f.StateDir(), "cells"))
	for _, e := range cells {
		if strings.Contains(e.Name(), tempInfix) {
			left = append(left, "cells/"+e.Name())
		}
	}
	return left
}

// snapshots sets CommitHook to copy the tree at root before each step and
// returns the copies (step name, copy of root) for run.
func snapshots(t *testing.T, root string, run func()) (steps []string, copies []string) {
	t.Helper()
	CommitHook = func(step string) {
		dst := filepath.Join(t.TempDir(), "snap")
		copyTree(t, root, dst)
		steps, copies = append(steps, step), append(copies, dst)
	}
	defer func() { CommitHook = nil }()
	run()
	CommitHook = nil
	dst := filepath.Join(t.TempDir(), "snap")
	copyTree(t, root, dst)
	return append(steps, "done"), append(copies, dst)
}

// TestCommitKilledAtEveryStep: a kill before any step of Commit leaves the
// old results or the new ones, whole; the next run's Clean removes what
// the killed run left, and its commit succeeds.
func TestCommitKilledAtEveryStep(t *testing.T) {
	root := t.TempDir()
	f := Folder{Path: filepath.Join(root, "chapter3", "synthetic")}
	commitRun(t, f, "old")
	staging, err := f.NewStaging()
	if err != nil {
		t.Fatal(err)
	}
	writeRun(t, staging, "new")
	os.MkdirAll(filepath.Join(f.StateDir(), "cells"), 0o755)
	if err := WriteFileAtomic(filepath.Join(f.StateDir(), "cells", "c1.json"), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	steps, copies := snapshots(t, root, func() {
		if err := f.Commit(staging); err != nil {
			t.Fatal(err)
		}
	})
	if len(steps) < 5 || !slices.Contains(steps, "switch link") {
		t.Fatalf("steps %q: the hook missed the commit", steps)
	}
	dead := deadPID(t)
	seen := map[string]bool{}
	for i, snap := range copies {
		g := Folder{Path: filepath.Join(snap, "chapter3", "synthetic")}
		// A stray temporary cell file, as a kill inside WriteFileAtomic leaves.
		os.WriteFile(filepath.Join(g.StateDir(), "cells", ".c2.json"+tempInfix+OwnerTag()+"-123"), []byte("{"), 0o644)
		orphan(t, snap, dead)
		tag, err := whole(g.Path)
		if err != nil || (tag != "old" && tag != "new") {
			t.Fatalf("killed before %q: %q, %v; want the old or the new results whole", steps[i], tag, err)
		}
		seen[tag] = true
		g.Clean(true, "cells")
		if left := leftovers(g); len(left) > 0 {
			t.Errorf("killed before %q: the next run's Clean left %q", steps[i], left)
		}
		if got, err := whole(g.Path); got != tag || err != nil {
			t.Errorf("killed before %q: Clean changed the results to %q, %v", steps[i], got, err)
		}
		commitRun(t, g, "next")
		if got, err := whole(g.Path); got != "next" || err != nil {
			t.Errorf("killed before %q: the next commit gave %q, %v", steps[i], got, err)
		}
		if _, err := os.Stat(filepath.Join(g.StateDir(), "cells", "c1.json")); err != nil {
			t.Errorf("killed before %q: a cell was lost: %v", steps[i], err)
		}
	}
	if !seen["old"] || !seen["new"] {
		t.Errorf("the snapshots show %v; want both the old and the new results", seen)
	}
	if got, err := whole(f.Path); got != "new" || err != nil {
		t.Fatalf("after the commit: %q, %v", got, err)
	}
	if left := leftovers(f); len(left) > 0 {
		t.Errorf("the commit left %q", left)
	}
	if target, _ := os.Readlink(f.Path); filepath.IsAbs(target) {
		t.Errorf("the link %s is absolute: moving the output folder would break it", target)
	}
}

// legacyFolder writes a folder as an older vbw left it: outputs and the
// manifest of run "old", cells/, the claim, a dead run's lock and staging.
func legacyFolder(t testing.TB, path string, dead int) {
	t.Helper()
	writeRun(t, mkdir(t, path), "old")
	writeFile(t, filepath.Join(mkdir(t, filepath.Join(path, "cells")), "c1.json"), "{}")
	writeFile(t, filepath.Join(path, legacyClaim), "/configs/x.toml\n")
	writeFile(t, filepath.Join(path, legacyLock), strconv.Itoa(dead)+" host 2026-01-01T00:00:00Z\n")
	writeFile(t, filepath.Join(mkdir(t, filepath.Join(path, ".staging-123")), "runs.csv"), "half")
}

func mkdir(t testing.TB, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// exchangeWorks reports whether the file system of dir swaps files.
func exchangeWorks(t *testing.T, dir string) bool {
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	writeFile(t, a, "a")
	writeFile(t, b, "b")
	defer os.Remove(a)
	defer os.Remove(b)
	return exchange(a, b) == nil
}

// TestMigrateKilledAtEveryStep: a folder of an older vbw becomes a managed
// one. With a swap (renameat2), a kill before any step leaves the old
// results whole at the folder's path; without one (the fallback of two
// renames), a kill between the renames leaves the path absent, and the
// next run's Migrate puts the old results back. Either way the cells and
// the claim move into the state.
func TestMigrateKilledAtEveryStep(t *testing.T) {
	for _, swap := range []bool{true, false} {
		t.Run(fmt.Sprintf("swap=%v", swap), func(t *testing.T) {
			root := t.TempDir()
			if swap && !exchangeWorks(t, root) {
				t.Skip("the file system of the temporary folder cannot swap files (renameat2 RENAME_EXCHANGE)")
			}
			if !swap {
				exchangeFiles = func(a, b string) error { return errors.New("no swap") }
				defer func() { exchangeFiles = exchange }()
			}
			dead := deadPID(t)
			f := Folder{Path: filepath.Join(root, "chapter3", "alice")}
			legacyFolder(t, f.Path, dead)
			steps, copies := snapshots(t, root, func() {
				if err := f.Migrate("config-path"); err != nil {
					t.Fatal(err)
				}
			})
			for i, snap := range copies {
				g := Folder{Path: filepath.Join(snap, "chapter3", "alice")}
				_, lerr := os.Lstat(g.Path)
				if tag, err := whole(g.Path); (err != nil || tag != "old") && (swap || !errors.Is(lerr, fs.ErrNotExist)) {
					t.Fatalf("killed before %q: %q, %v; want the old results whole", steps[i], tag, err)
				}
				if err := g.Migrate("config-path"); err != nil {
					t.Fatalf("killed before %q: the next Migrate: %v", steps[i], err)
				}
				g.Clean(true, "cells")
				if tag, err := whole(g.Path); err != nil || tag != "old" {
					t.Fatalf("killed before %q, migrated again: %q, %v", steps[i], tag, err)
				}
				if st, err := os.Lstat(g.Path); err != nil || st.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("killed before %q: %s is not a link after the next Migrate", steps[i], g.Path)
				}
				for _, name := range []string{"cells/c1.json", "config-path"} {
					if _, err := os.Stat(filepath.Join(g.StateDir(), name)); err != nil {
						t.Errorf("killed before %q: %s did not move into the state: %v", steps[i], name, err)
					}
				}
				if left := leftovers(g); len(left) > 0 {
					t.Errorf("killed before %q: left %q", steps[i], left)
				}
			}
			if !slices.Contains(steps, "swap plain folder and link") || (!swap && !slices.Contains(steps, "rename plain folder")) {
				t.Errorf("steps %q", steps)
			}
		})
	}
}

func TestMigrateEmptyPlainFolder(t *testing.T) {
	root := t.TempDir()
	f := Folder{Path: filepath.Join(root, "chapter3", "x")}
	// An older vbw's first run that failed: cells and a lock, no results.
	writeFile(t, filepath.Join(mkdir(t, filepath.Join(f.Path, "cells")), "c.json"), "{}")
	writeFile(t, filepath.Join(f.Path, legacyLock), "1 h t\n")
	if err := f.Migrate("config-path"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(f.Path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the empty folder is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.StateDir(), "cells", "c.json")); err != nil {
		t.Error("its cells were lost")
	}
	// A folder that holds someone's files but no manifest is left alone.
	g := Folder{Path: filepath.Join(root, "chapter3", "mine")}
	writeFile(t, filepath.Join(mkdir(t, g.Path), "notes.txt"), "mine")
	if err := g.Migrate("config-path"); err == nil || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("a folder with a stranger's file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(g.Path, "notes.txt")); err != nil {
		t.Error("the stranger's file is gone")
	}
}

// TestCleanKeepsWhatLiveRunsOwn: Clean removes the staging folders and
// temporary files of processes that have exited, keeps those of live ones
// and, not knowing, those of another host (but a temporary file of
// another host older than an hour goes), and removes generations other
// than the current one only for a lock holder.
func TestCleanKeepsWhatLiveRunsOwn(t *testing.T) {
	f := Folder{Path: filepath.Join(t.TempDir(), "chapter3", "x")}
	commitRun(t, f, "old")
	state := f.StateDir()
	host, _ := os.Hostname()
	dead := strconv.Itoa(deadPID(t))
	me := strconv.Itoa(os.Getpid())
	cells := mkdir(t, filepath.Join(state, "cells"))
	made := map[string]bool{ // path: removed by a lock holder's Clean
		filepath.Join(state, "staging-"+host+"-"+dead+"-abc"):        true,
		filepath.Join(state, "staging-"+host+"-"+me+"-abc"):          false,
		filepath.Join(state, "staging-other.host-"+dead+"-abc"):      false,
		filepath.Join(state, "gen-7"):                                true,
		filepath.Join(cells, ".c.json.tmp-"+host+"-"+dead+"-123"):    true,
		filepath.Join(cells, ".c.json.tmp-"+host+"-"+me+"-123"):      false,
		filepath.Join(cells, ".c.json.tmp-other.host-"+dead+"-123"):  false,
		filepath.Join(cells, ".d.json.tmp-other.host-"+dead+"-456"):  true, // old
		filepath.Join(cells, ".e.json.tmp-9876543"):                  true, // an older vbw's, old
		filepath.Join(state, ".config-path.tmp-"+host+"-"+dead+"-1"): true,
		filepath.Join(state, linkTemp):                               true,
		filepath.Join(cells, "c.json"):                               false,
		filepath.Join(state, "gen-1", "runs.csv"):                    false,
	}
	for p, _ := range made {
		if strings.HasPrefix(filepath.Base(p), "staging-") || filepath.Base(p) == "gen-7" {
			mkdir(t, p)
			continue
		}
		if _, err := os.Stat(p); err != nil {
			writeFile(t, p, "x")
		}
	}
	old := time.Now().Add(-2 * time.Hour)
	for _, p := range []string{".d.json.tmp-other.host-" + dead + "-456", ".e.json.tmp-9876543"} {
		os.Chtimes(filepath.Join(cells, p), old, old)
	}
	exists := func(p string) bool { _, err := os.Lstat(p); return err == nil }
	f.Clean(false, "cells")
	for p, byLock := range made {
		locked := filepath.Base(p) == "gen-7" || filepath.Base(p) == linkTemp
		if exists(p) == (byLock && !locked) {
			t.Errorf("Clean without the lock: %s exists = %v", p, exists(p))
		}
	}
	f.Clean(true, "cells")
	for p, gone := range made {
		if exists(p) == gone {
			t.Errorf("Clean with the lock: %s exists = %v", p, exists(p))
		}
	}
	if tag, err := whole(f.Path); tag != "old" || err != nil {
		t.Fatalf("Clean changed the results: %q, %v", tag, err)
	}
}

func TestOpenFolder(t *testing.T) {
	for in, want := range map[string]string{
		"out/chapter3/alice":                "out/chapter3/alice",
		"out/chapter3/alice/":               "out/chapter3/alice",
		"out/chapter3/.alice.vbw/gen-12":    "out/chapter3/alice",
		"out/chapter3/.alice.vbw/gen-12/":   "out/chapter3/alice",
		"out/chapter3/.alice.vbw/staging-x": "out/chapter3/.alice.vbw/staging-x",
		"out/chapter3/.vbw/gen-1":           "out/chapter3/.vbw/gen-1",
		"out/chapter3/alice.vbw/gen-1":      "out/chapter3/alice.vbw/gen-1",
		"out/chapter3/.a.b.vbw/gen-0":       "out/chapter3/a.b",
		"out/chapter3/.alice.vbw/gen-01":    "out/chapter3/.alice.vbw/gen-01",
	} {
		if got := OpenFolder(in).Path; got != want {
			t.Errorf("OpenFolder(%q) = %q, want %q", in, got, want)
		}
	}
	if s := (Folder{Path: "out/chapter3/alice"}).StateDir(); s != "out/chapter3/.alice.vbw" {
		t.Errorf("StateDir = %q", s)
	}
}

// TestCommitLoopChild is the process TestCommitKilledBySIGKILL kills: it
// commits runs to the folder in $VBW_TEST_COMMIT_LOOP until it is killed.
func TestCommitLoopChild(t *testing.T) {
	path := os.Getenv("VBW_TEST_COMMIT_LOOP")
	if path == "" {
		t.Skip("run by TestCommitKilledBySIGKILL")
	}
	f := Folder{Path: path}
	f.Clean(true, "cells")
	for i := 0; ; i++ {
		staging, err := f.NewStaging()
		if err != nil {
			t.Fatal(err)
		}
		writeRun(t, staging, "run"+strconv.Itoa(i%3))
		if err := WriteFileAtomic(filepath.Join(f.StateDir(), "cells", "c"+strconv.Itoa(i%5)+".json"), []byte("{}")); err != nil {
			t.Fatal(err)
		}
		if err := f.Commit(staging); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCommitKilledBySIGKILL kills a process that commits runs in a loop at
// random instants: each time the folder holds one run whole, and the next
// process's Clean leaves nothing of the killed one.
func TestCommitKilledBySIGKILL(t *testing.T) {
	kills := 40
	if testing.Short() {
		kills = 12
	}
	path := filepath.Join(t.TempDir(), "chapter3", "x")
	f := Folder{Path: path}
	mkdir(t, filepath.Join(f.StateDir(), "cells"))
	r := rand.New(rand.NewPCG(21, 3))
	for k := 0; k < kills; k++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCommitLoopChild$")
		cmd.Env = append(os.Environ(), "VBW_TEST_COMMIT_LOOP="+path)
		if err := cmd.Start(); err != nil {
			t.Skip("cannot start the test binary:", err)
		}
		// The first child is killed once it has committed (however slow the
		// machine), the others at any instant.
		for i := 0; k == 0 && i < 3000; i++ {
			if _, err := os.Lstat(path); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(time.Duration(r.IntN(100)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !st.Signaled() {
			t.Fatalf("kill %d: the child ended by itself: %v", k, err)
		}
		if _, lerr := os.Lstat(path); errors.Is(lerr, fs.ErrNotExist) {
			t.Fatalf("kill %d: no results after the first child's commit", k)
		}
		if tag, err := whole(path); err != nil {
			t.Fatalf("kill %d: the folder is not one run whole: %q, %v", k, tag, err)
		}
		f.Clean(true, "cells")
		if left := leftovers(f); len(left) > 0 {
			t.Fatalf("kill %d: Clean left %q", k, left)
		}
	}
}

// TestCheckPathNeverReplacesTheUsers: a regular file or a foreign link at
// a results path is refused, and Commit leaves it as it was.
func TestCheckPathNeverReplacesTheUsers(t *testing.T) {
	parent := t.TempDir()
	file := filepath.Join(parent, "pima")
	if err := os.WriteFile(file, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := OpenFolder(file)
	if err := f.CheckPath(); err == nil || !strings.Contains(err.Error(), "is not a results folder of vbw (a regular file)") {
		t.Errorf("a regular file: %v", err)
	}
	staging, err := f.NewStaging()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(staging, ManifestFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(staging); err == nil {
		t.Error("Commit replaced a regular file")
	}
	if data, err := os.ReadFile(file); err != nil || string(data) != "mine" {
		t.Errorf("the user's file is now %q, %v", data, err)
	}
	link := filepath.Join(parent, "elsewhere")
	if err := os.Symlink(parent, link); err != nil {
		t.Fatal(err)
	}
	if err := OpenFolder(link).CheckPath(); err == nil || !strings.Contains(err.Error(), "not a results link of vbw") {
		t.Errorf("a foreign link: %v", err)
	}
	if err := OpenFolder(filepath.Join(parent, "absent")).CheckPath(); err != nil {
		t.Errorf("an absent path: %v", err)
	}
}
