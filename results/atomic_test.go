package results

import (
	"os"
	"path/filepath"
	"testing"
)

// listDir returns the names in dir.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestWriteFileAtomicReplaces, for WriteFileAtomic and WriteCacheAtomic
// (the same but for its syncs).
func TestWriteFileAtomicReplaces(t *testing.T) {
	for name, write := range map[string]func(string, []byte) error{"WriteFileAtomic": WriteFileAtomic, "WriteCacheAtomic": WriteCacheAtomic} {
		t.Run(name, func(t *testing.T) { testAtomicReplaces(t, write) })
	}
}

func testAtomicReplaces(t *testing.T, write func(string, []byte) error) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "out.txt") // parents do not exist yet
	for _, content := range []string{"first version, rather long\n", "second\n", ""} {
		if err := write(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != content {
			t.Errorf("content = %q, want %q", got, content)
		}
		if names := listDir(t, filepath.Dir(path)); len(names) != 1 || names[0] != "out.txt" {
			t.Errorf("directory holds %q, want only out.txt", names)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v, want 0644", fi.Mode().Perm())
	}
}

func TestWriteFileAtomicErrors(t *testing.T) {
	t.Run("target is a directory", func(t *testing.T) {
		// The temporary file is written, then the rename fails: it must be
		// removed and the directory left as it was.
		dir := t.TempDir()
		target := filepath.Join(dir, "taken")
		if err := os.MkdirAll(filepath.Join(target, "child"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := WriteFileAtomic(target, []byte("data")); err == nil {
			t.Fatal("no error writing over a directory")
		}
		if names := listDir(t, dir); len(names) != 1 || names[0] != "taken" {
			t.Errorf("directory holds %q after failed write, want only \"taken\"", names)
		}
	})
	t.Run("parent is a file", func(t *testing.T) {
		dir := t.TempDir()
		file := filepath.Join(dir, "file")
		if err := os.WriteFile(file, []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := WriteFileAtomic(filepath.Join(file, "out.txt"), []byte("data")); err == nil {
			t.Fatal("no error writing below a regular file")
		}
		if got, _ := os.ReadFile(file); string(got) != "keep" {
			t.Errorf("file changed to %q", got)
		}
	})
	t.Run("unwritable directory", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root can write to read-only directories")
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "out.txt")
		if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(dir, 0o755)
		if err := WriteFileAtomic(path, []byte("new")); err == nil {
			t.Fatal("no error writing into a read-only directory")
		}
		if got, _ := os.ReadFile(path); string(got) != "old" {
			t.Errorf("content = %q, want the old content", got)
		}
		if names := listDir(t, dir); len(names) != 1 {
			t.Errorf("directory holds %q, want only out.txt", names)
		}
	})
}
