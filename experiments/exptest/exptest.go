// Package exptest holds test helpers shared by the chapter packages'
// tests. It is imported from _test.go files only.
package exptest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
)

// ConfigEdit is one bad edit of a shipped config, {file, from, to, want}:
// the text from (which must occur in the file) replaced by to must make
// experiments.Load fail with a one-line error containing want (the key's
// name).
type ConfigEdit [4]string

// CheckConfigEdits applies each edit to the config dir/File on its own and
// checks the error. A From that does not occur fails the test: the edit
// would test nothing.
func CheckConfigEdits(t testing.TB, dir string, edits []ConfigEdit) {
	t.Helper()
	for _, e := range edits {
		c := struct{ File, From, To, Want string }{e[0], e[1], e[2], e[3]}
		base, err := os.ReadFile(filepath.Join(dir, c.File))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Replace(string(base), c.From, c.To, 1)
		if text == string(base) {
			t.Errorf("%s: pattern %q not found", c.File, c.From)
			continue
		}
		p := filepath.Join(t.TempDir(), "x.toml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err = experiments.Load(p, false)
		if err == nil || !strings.Contains(err.Error(), c.Want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %s: error %v, want one line naming %s", c.File, c.To, err, c.Want)
		}
	}
}

// CheckConfigsLoad loads every *.toml of dir, with and without its
// [quick] section, and fails the test if there are fewer than min or one
// does not load.
func CheckConfigsLoad(t testing.TB, dir string, min int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil || len(files) < min {
		t.Fatalf("configs: %v, %v", files, err)
	}
	for _, f := range files {
		for _, q := range []bool{false, true} {
			if _, _, err := experiments.Load(f, q); err != nil {
				t.Errorf("%s (quick=%v): %v", f, q, err)
			}
		}
	}
}
