package vbgmm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
)

// TestArtefactCaptions: each figure declared for PRML and D'Souza names an
// experiment of this package and sits at the line of its caption in the
// seed (skipped when ../shared is not beside the checkout).
func TestArtefactCaptions(t *testing.T) {
	root, _ := filepath.Abs("../..")
	checked := 0
	for _, doc := range experiments.Documents() {
		if doc.ID != experiments.PRML.ID && doc.ID != experiments.DSouza.ID {
			continue
		}
		var lines []string
		for dir := root; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
			if b, err := os.ReadFile(filepath.Join(dir, doc.Source)); err == nil {
				lines = strings.Split(string(b), "\n")
				break
			}
		}
		if lines == nil {
			t.Skipf("%s not found above %s", doc.Source, root)
		}
		for _, a := range doc.Artefacts {
			if len(a.Experiments) == 0 || !strings.HasPrefix(a.Experiments[0], "vbgmm/") {
				continue
			}
			checked++
			if a.Line < 1 || a.Line > len(lines) || !strings.Contains(lines[a.Line-1], a.Label) {
				t.Errorf("%s %s: line %d does not hold its caption", doc.ID, a.Label, a.Line)
			}
		}
	}
	if checked != 5 {
		t.Errorf("%d artefacts of vbgmm checked, want 5 (Figures 10.6, 10.7, 10.9; D'Souza 1.2, 3.2)", checked)
	}
}
