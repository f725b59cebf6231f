package results

import (
	"fmt"
	"os"
	"path/filepath"
)

// tempInfix separates a file's name from the owner in the name of its
// temporary file.
const tempInfix = ".tmp-"

// WriteFileAtomic writes data to path so that path holds either its previous
// content or all of data, never a part of it.
//
// The data goes to a hidden temporary file in path's directory
// (".<name>.tmp-<host>-<pid>-*", so that Folder.Clean can tell the leftover
// of a killed process),
// which is synced, closed, given mode 0644 and renamed over path; the
// directory is then synced (best effort) so that the rename itself survives a
// crash. Missing parent directories are created with mode 0755. On any error
// the temporary file is removed and path is left untouched.
func WriteFileAtomic(path string, data []byte) error { return writeAtomic(path, data, true) }

// WriteCacheAtomic is WriteFileAtomic without the two syncs: the file is
// still whole or absent after the process is killed (the rename is atomic),
// but a crash of the machine itself may lose it or leave it empty. It is for
// files that are checked when read and recomputed when lost or damaged, as
// a run's stored cells are, where two syncs a file would cost more than the
// work (thousands of millisecond-sized cells).
func WriteCacheAtomic(path string, data []byte) error { return writeAtomic(path, data, false) }

func writeAtomic(path string, data []byte, durable bool) (err error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	if base == "." || base == string(filepath.Separator) {
		return fmt.Errorf("write %q: not a file name", path)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+base+tempInfix+OwnerTag()+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				f.Close()
			}
			os.Remove(tmp)
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if durable {
		if err = f.Sync(); err != nil {
			return err
		}
	}
	closed = true
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	if durable {
		syncDir(dir)
	}
	return nil
}

// syncDir flushes a directory entry to disk. Errors are ignored: some
// platforms and file systems cannot sync directories, and by now the data
// itself is safely in place.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
