package experiments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRetire: a retired experiment ID keeps its note, a config naming it
// fails with the note, and neither a registered ID can be retired nor a
// retired one registered.
func TestRetire(t *testing.T) {
	const old, live = "test/retired-old", "test/retired-live"
	Retire(old, "its runs are now test/new")
	if note, ok := Retired(old); !ok || note != "its runs are now test/new" {
		t.Fatalf("Retired(%q) = %q, %v", old, note, ok)
	}
	if _, ok := Retired(live); ok {
		t.Fatalf("Retired(%q): a never retired ID is retired", live)
	}
	p := filepath.Join(t.TempDir(), "old.toml")
	if err := os.WriteFile(p, []byte(`experiment = "`+old+`"`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(p, false); err == nil || !strings.Contains(err.Error(), `experiment "test/retired-old" was retired: its runs are now test/new`) {
		t.Errorf("Load of a config naming a retired ID: %v", err)
	}
	panics := func(what string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s did not panic", what)
			}
		}()
		f()
	}
	t.Cleanup(func() {
		registryMu.Lock()
		defer registryMu.Unlock()
		delete(registry, live)
		delete(retired, old)
	})
	panics("registering a retired ID", func() { Register(Spec{ID: old}) })
	Register(Spec{ID: live})
	panics("retiring a registered ID", func() { Retire(live, "") })
}
