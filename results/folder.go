package results

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A Folder is the results folder <parent>/<name> of one config. Its files
// are replaced all at once: the folder is a symbolic link to a generation,
// a directory that holds the files of one run and is never changed after
// it is committed, and a new run's files become the folder's by one
// rename(2) of the link (Commit), so that a reader, or a kill at any
// instant, sees either the old generation or the new one, whole:
//
//	<parent>/<name>                 -> .<name>.vbw/gen-N (a relative link)
//	<parent>/.<name>.vbw/           the folder's state (StateDir)
//	    gen-N/                      the current results: outputs and manifest.json
//	    cells/                      finished cells, kept across runs and shared by shards
//	    lock                        held while a run writes the folder
//	    config-path                 the config file whose results the folder holds
//	    staging-<host>-<pid>-*/     a run in progress
//
// Readers open <parent>/<name>/file as before. A folder written by an older
// vbw is a plain directory at <parent>/<name>; Migrate moves it into the
// state as its first generation. A plain directory that no run manages (a
// copy, a test fixture) reads as well.
type Folder struct {
	// Path is <parent>/<name>, the path a reader opens.
	Path string
}

// The names inside a folder's state directory.
const (
	genPrefix     = "gen-"
	stagingPrefix = "staging-"
	linkTemp      = "link.tmp"
	stateSuffix   = ".vbw"
)

var genName = regexp.MustCompile(`^gen-(0|[1-9][0-9]{0,17})$`)

// OpenFolder returns the folder at path. path is the folder itself, or one
// of its generations (<parent>/.<name>.vbw/gen-N), which stands for the
// folder.
func OpenFolder(path string) Folder {
	path = filepath.Clean(path)
	state, base := filepath.Split(path)
	state = filepath.Clean(state)
	if sb := filepath.Base(state); genName.MatchString(base) && strings.HasPrefix(sb, ".") && strings.HasSuffix(sb, stateSuffix) && len(sb) > len("."+stateSuffix) {
		return Folder{Path: filepath.Join(filepath.Dir(state), strings.TrimSuffix(sb[1:], stateSuffix))}
	}
	return Folder{Path: path}
}

// StateDir returns the folder's state directory, <parent>/.<name>.vbw.
func (f Folder) StateDir() string {
	return filepath.Join(filepath.Dir(f.Path), "."+filepath.Base(f.Path)+stateSuffix)
}

// Current returns the directory that holds the folder's current results:
// the generation its link names, resolved once so that a reader that
// opens several files reads them all from one generation even if a run
// commits meanwhile, or Path itself when it is a plain directory. The
// error wraps fs.ErrNotExist when the folder has no results.
func (f Folder) Current() (string, error) {
	dir, err := filepath.EvalSymlinks(f.Path)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s: not a directory", f.Path)
	}
	return dir, nil
}

// currentGen returns the name of the generation the folder's link names
// ("gen-N"), or "" if Path is not such a link.
func (f Folder) currentGen() string {
	target, err := os.Readlink(f.Path)
	if err != nil {
		return ""
	}
	state, gen := filepath.Split(target)
	if filepath.Clean(state) != filepath.Base(f.StateDir()) || !genName.MatchString(gen) {
		return ""
	}
	return gen
}

// CommitHook, when not nil, is called with the name of each step of Commit
// and Migrate just before the step's file-system operation. It is a test
// seam: a test copies the folder there to see what a kill at that instant
// would leave.
var CommitHook func(step string)

func step(name string) {
	if CommitHook != nil {
		CommitHook(name)
	}
}

// NewStaging makes a staging directory in the folder's state for a run to
// write its files into, named after this process so that the next run can
// tell a killed run's leftover from a live one's (Clean).
func (f Folder) NewStaging() (string, error) {
	state := f.StateDir()
	if err := os.MkdirAll(state, 0o755); err != nil {
		return "", err
	}
	// Not os.MkdirTemp, whose mode 0700 would stay the generation's: the
	// results are readable as the umask allows, like any other folder.
	for i := 0; ; i++ {
		dir := filepath.Join(state, stagingPrefix+OwnerTag()+"-"+strconv.FormatInt(time.Now().UnixNano(), 36))
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, fs.ErrExist) || i == 100 {
			return "", err
		}
	}
}

// Commit makes the finished staging directory (from NewStaging, with every
// output and manifest.json) the folder's results. It syncs the staging
// files, renames the directory to the next generation, points a new link
// at it and renames the link over Path: that rename is the commit. Then it
// removes the previous generation. A kill before the rename leaves the old
// results (and a generation that the next run's Clean removes), after it
// the new ones. The caller holds the folder's lock, and Path is a link or
// absent (see Migrate).
func (f Folder) Commit(staging string) error {
	state := f.StateDir()
	if filepath.Clean(filepath.Dir(staging)) != filepath.Clean(state) {
		return fmt.Errorf("commit %s: %s is not a staging directory of the folder", f.Path, staging)
	}
	step("sync staging")
	if err := syncTree(staging); err != nil {
		return fmt.Errorf("commit %s: %w", f.Path, err)
	}
	old := f.currentGen()
	n := uint64(1)
	if old != "" {
		k, _ := strconv.ParseUint(strings.TrimPrefix(old, genPrefix), 10, 64)
		n = k + 1
	}
	gen := genPrefix + strconv.FormatUint(n, 10)
	genPath := filepath.Join(state, gen)
	step("remove unfinished generation")
	if err := os.RemoveAll(genPath); err != nil {
		return fmt.Errorf("commit %s: %w", f.Path, err)
	}
	step("rename staging to generation")
	if err := os.Rename(staging, genPath); err != nil {
		return fmt.Errorf("commit %s: %w", f.Path, err)
	}
	syncDir(state)
	if err := f.link(gen); err != nil {
		os.RemoveAll(genPath)
		return fmt.Errorf("commit %s: %w", f.Path, err)
	}
	if old != "" {
		step("remove previous generation")
		os.RemoveAll(filepath.Join(state, old))
	}
	return nil
}

// CheckPath refuses a results path that holds something vbw must not
// replace: a regular file, a link that is not the folder's own link to one
// of its generations, or anything else that is neither a directory (a
// folder of an older vbw, which Migrate turns into a managed one, or
// refuses when it holds other files) nor absent. Nothing of the user's is
// ever overwritten.
func (f Folder) CheckPath() error {
	st, err := os.Lstat(f.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case st.IsDir():
		return nil
	case st.Mode()&fs.ModeSymlink != 0:
		if f.currentGen() != "" {
			return nil
		}
		target, _ := os.Readlink(f.Path)
		return fmt.Errorf("%s is a link to %s, not a results link of vbw: move it away or write the results elsewhere (-out, or name = \"...\" in the config)", f.Path, target)
	}
	return fmt.Errorf("%s exists and is not a results folder of vbw (a %s): move it away or write the results elsewhere (-out, or name = \"...\" in the config)", f.Path, kindOf(st.Mode()))
}

// kindOf names a file mode for a message.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return m.Type().String()
}

// link points Path at the generation gen: a new link in the state
// directory, renamed over Path, which must be absent or the folder's own
// link (CheckPath).
func (f Folder) link(gen string) error {
	if err := f.CheckPath(); err != nil {
		return err
	}
	tmp := filepath.Join(f.StateDir(), linkTemp)
	step("remove link leftover")
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	step("make link")
	if err := os.Symlink(filepath.Join(filepath.Base(f.StateDir()), gen), tmp); err != nil {
		return err
	}
	step("switch link")
	if err := os.Rename(tmp, f.Path); err != nil {
		os.Remove(tmp)
		if st, serr := os.Lstat(f.Path); serr == nil && st.IsDir() {
			return fmt.Errorf("%s is a directory, not a results link (written by an older vbw? Migrate it first)", f.Path)
		}
		return err
	}
	syncDir(filepath.Dir(f.Path))
	return nil
}

// The files of a folder written by an older vbw, which kept its state
// inside the folder.
const (
	legacyLock  = ".vbw-lock"
	legacyClaim = ".vbw-config-path"
	legacyCells = "cells"
)

// LegacyLock returns the lock file an older vbw keeps in a plain results
// folder; a caller checks that no live run holds it before Migrate.
func (f Folder) LegacyLock() string { return filepath.Join(f.Path, legacyLock) }

// Migrate turns a folder written by an older vbw, a plain directory at
// Path that holds the outputs, cells/ and the claim, into a managed one.
// Its cells and claim move into the state (claim is the name of the claim
// file there). A directory with results (manifest.json) becomes gen-0: its
// files are linked into a new gen-0 and the directory and a link to gen-0
// swap places by one renameat2(RENAME_EXCHANGE), so that a kill leaves the
// old directory or the link, and the directory is then removed. Where the
// file system cannot swap (not Linux, NFS), the directory is renamed away
// and the link renamed into its place: a kill between the two renames
// leaves Path absent for the next Migrate to finish. A directory without
// results, which an older vbw left when its first run failed, is removed
// if it holds nothing else. Migrate does nothing for a managed folder. The
// caller holds the folder's lock.
func (f Folder) Migrate(claim string) error {
	state := f.StateDir()
	gen0 := filepath.Join(state, genPrefix+"0")
	st, err := os.Lstat(f.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// An interrupted fallback: gen-0 is whole, the link is missing.
		if _, err := os.Stat(filepath.Join(gen0, ManifestFile)); err == nil {
			return f.link(genPrefix + "0")
		}
		return nil
	case err != nil:
		return err
	case !st.IsDir():
		return nil // a link (or a file, which Commit refuses)
	}
	fail := func(err error) error { return fmt.Errorf("migrate %s: %w", f.Path, err) }
	if err := os.MkdirAll(state, 0o755); err != nil {
		return fail(err)
	}
	for _, mv := range [][2]string{{legacyCells, legacyCells}, {legacyClaim, claim}} {
		from, to := filepath.Join(f.Path, mv[0]), filepath.Join(state, mv[1])
		if _, err := os.Lstat(from); err != nil {
			continue
		}
		if _, err := os.Lstat(to); err == nil {
			continue // the state has its own; the old one goes with the directory
		}
		step("move " + mv[0])
		if err := os.Rename(from, to); err != nil {
			return fail(err)
		}
	}
	if _, err := os.Stat(filepath.Join(f.Path, ManifestFile)); err != nil {
		return f.removeEmpty()
	}
	names, err := outputNames(f.Path)
	if err != nil {
		return fail(err)
	}
	step("remove unfinished migration")
	if err := os.RemoveAll(gen0); err != nil {
		return fail(err)
	}
	step("make gen-0")
	if err := os.Mkdir(gen0, 0o755); err != nil {
		return fail(err)
	}
	for _, name := range append(names, ManifestFile) {
		if err := LinkOrCopy(filepath.Join(f.Path, name), filepath.Join(gen0, name)); err != nil {
			return fail(err)
		}
	}
	if err := syncTree(gen0); err != nil {
		return fail(err)
	}
	tmp := filepath.Join(state, linkTemp)
	step("remove link leftover")
	if err := os.RemoveAll(tmp); err != nil {
		return fail(err)
	}
	step("make link")
	if err := os.Symlink(filepath.Join(filepath.Base(state), genPrefix+"0"), tmp); err != nil {
		return fail(err)
	}
	step("swap plain folder and link")
	if err := exchangeFiles(tmp, f.Path); err != nil {
		// No swap here: rename the directory away, then the link in.
		step("remove plain folder leftover")
		if err := os.RemoveAll(filepath.Join(state, legacyAway)); err != nil {
			return fail(err)
		}
		step("rename plain folder")
		if err := os.Rename(f.Path, filepath.Join(state, legacyAway)); err != nil {
			return fail(err)
		}
		step("switch link")
		if err := os.Rename(tmp, f.Path); err != nil {
			return fail(err)
		}
		tmp = filepath.Join(state, legacyAway)
	}
	syncDir(filepath.Dir(f.Path))
	step("remove plain folder")
	os.RemoveAll(tmp)
	return nil
}

// exchangeFiles is exchange; a test replaces it to run Migrate's fallback.
var exchangeFiles = exchange

// legacyAway is where Migrate renames a plain folder it cannot swap.
const legacyAway = "plain.old"

// removeEmpty removes a plain folder without results that holds nothing
// but what an older vbw kept there (its lock, staging folders), and
// refuses one that holds anything else.
func (f Folder) removeEmpty() error {
	entries, err := os.ReadDir(f.Path)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			return fmt.Errorf("%s holds %s but no %s, so it is not a results folder of vbw: move it away, or write elsewhere (-out)", f.Path, e.Name(), ManifestFile)
		}
	}
	step("remove empty plain folder")
	return os.RemoveAll(f.Path)
}

// tempMaxAge is the age after which a temporary file of another host is
// taken for a leftover: WriteFileAtomic keeps one for the time of a write.
const tempMaxAge = time.Hour

// Clean removes what killed runs left in the folder's state: their
// staging directories and the temporary files of WriteFileAtomic (in the
// state and in the subdirectories named in dirs, e.g. cells/), when the
// process that made them is gone (it ran on this host and has exited; a
// temporary file of another host when it is older than an hour). With
// locked, the caller holds the folder's lock, and the generations other
// than the current one and the temporary link, which only a lock holder
// makes, are removed too. Errors are ignored: what cannot be removed
// now is tried again by the next run.
func (f Folder) Clean(locked bool, dirs ...string) {
	state := f.StateDir()
	entries, _ := os.ReadDir(state)
	cur := f.currentGen()
	for _, e := range entries {
		name := e.Name()
		var gone bool
		switch {
		case genName.MatchString(name):
			gone = locked && name != cur
		case name == linkTemp || name == legacyAway:
			gone = locked
		case strings.HasPrefix(name, stagingPrefix):
			host, pid, ok := parseOwner(strings.TrimPrefix(name, stagingPrefix))
			gone = ok && OwnerGone(host, pid)
		}
		if gone {
			step("clean " + name)
			os.RemoveAll(filepath.Join(state, name))
		}
	}
	for _, d := range append([]string{""}, dirs...) {
		cleanTemps(filepath.Join(state, d))
	}
}

// cleanTemps removes the leftover temporary files of WriteFileAtomic in
// dir (see Clean).
func cleanTemps(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		name := e.Name()
		i := strings.LastIndex(name, tempInfix)
		if !strings.HasPrefix(name, ".") || i < 0 || !e.Type().IsRegular() {
			continue
		}
		gone := false
		if host, pid, ok := parseOwner(name[i+len(tempInfix):]); ok {
			gone = OwnerGone(host, pid)
		}
		if info, err := e.Info(); !gone && err == nil {
			gone = time.Since(info.ModTime()) > tempMaxAge
		}
		if gone {
			step("clean " + name)
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// OwnerTag is "<host>-<pid>" of this process. It names the process's
// temporary files (".<name>.tmp-<owner>-*") and staging directories, so
// that Clean can tell those of a killed process.
func OwnerTag() string {
	host, _ := os.Hostname()
	return host + "-" + strconv.Itoa(os.Getpid())
}

// parseOwner reads "<host>-<pid>-<random>" (as ownerTag and a temporary
// name's random part make it).
func parseOwner(s string) (host string, pid int, ok bool) {
	parts := strings.Split(s, "-")
	if len(parts) < 3 {
		return "", 0, false
	}
	pid, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil || pid <= 0 {
		return "", 0, false
	}
	return strings.Join(parts[:len(parts)-2], "-"), pid, true
}

// Alive reports whether a process with the pid exists on this host.
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// OwnerGone reports whether the process pid of host is known to have
// ended: host is this host and no process has the pid. The process of
// another host cannot be checked and is never known to be gone.
func OwnerGone(host string, pid int) bool {
	me, _ := os.Hostname()
	return host == me && pid > 0 && !Alive(pid)
}

// syncTree flushes the regular files directly in dir, and dir itself, to
// disk, so that a generation survives a crash of the machine as well as a
// kill of the process.
func syncTree(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		fh, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		err = fh.Sync()
		fh.Close()
		if err != nil && !errors.Is(err, syscall.EINVAL) {
			return err
		}
	}
	syncDir(dir)
	return nil
}

// LinkOrCopy makes dst hold the content of src: a hard link where the file
// system allows it (a new generation shares the unchanged files of the
// previous one), a copy otherwise.
func LinkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
