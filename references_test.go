package vbw_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"
)

// pinRow is a row of the README's table of pinned reference files:
// | `seeds/000_….txt` | `<sha256>` |
var pinRow = regexp.MustCompile("^\\| `((?:seeds|targets)/[^`]+)` \\| `([0-9a-f]{64})` \\|$")

// TestReferencesPinned checks the files that the code's thesis-line and
// targets-section references point into (README "References to the thesis
// and the targets"): every file of ../shared/seeds and ../shared/targets is
// listed there, and has the listed SHA-256.
func TestReferencesPinned(t *testing.T) {
	const shared = "../shared"
	if _, err := os.Stat(filepath.Join(shared, "seeds")); err != nil {
		t.Skipf("../shared/seeds is absent (%v): the pinned reference files cannot be checked here", err)
	}
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pinned := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := pinRow.FindStringSubmatch(sc.Text()); m != nil {
			pinned[m[1]] = m[2]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(pinned) == 0 {
		t.Fatal("README.md lists no pinned reference file (rows | `seeds/…` | `<sha256>` |)")
	}
	var names []string
	for _, pattern := range []string{"seeds/*", "targets/*"} {
		m, err := filepath.Glob(filepath.Join(shared, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			rel, _ := filepath.Rel(shared, p)
			names = append(names, filepath.ToSlash(rel))
		}
	}
	for name := range pinned {
		names = append(names, name)
	}
	sort.Strings(names)
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		want, ok := pinned[name]
		if !ok {
			t.Errorf("../shared/%s is not pinned in README.md: add its row after checking the references into it", name)
			continue
		}
		data, err := os.ReadFile(filepath.Join(shared, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("pinned ../shared/%s: %v", name, err)
			continue
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("../shared/%s has SHA-256 %s, README.md pins %s: the thesis-line or targets-section references into it may be stale; check them, then update the row", name, got, want)
		}
	}
}
