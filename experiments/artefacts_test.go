package experiments

import (
	"slices"
	"testing"
)

func TestArtefactLabels(t *testing.T) {
	for in, want := range map[string][]string{
		"Figure 3.2":                           {"Figure 3.2"},
		"Table 6.1, Figure 6.3":                {"Table 6.1", "Figure 6.3"},
		"Figures 6.11, 6.12, Tables 6.3, 6.4":  {"Figure 6.11", "Figure 6.12", "Table 6.3", "Table 6.4"},
		"Figures 6.6-6.8":                      {"Figure 6.6", "Figure 6.7", "Figure 6.8"},
		"Figures 4.5–7":                        {"Figure 4.5", "Figure 4.6", "Figure 4.7"},
		"Figure 6.9, Table 6.5":                {"Figure 6.9", "Table 6.5"},
		"PRML Figure 10.3":                     {"Figure 10.3"},
		"Turner & Sahani Figure 1.2":           {"Figure 1.2"},
		"D'Souza Figures 2.5, 3.2":             {"Figure 2.5", "Figure 3.2"},
		"Lawrence Table 3.1":                   {"Table 3.1"},
		"PRML section 10.2.4 (ln K!)":          nil,
		"section 6.6":                          nil,
		"eq. (4.121)":                          nil,
		"Eq. 3.84 (beyond the figure)":         nil,
		"section 6.5.2, Algorithm 6.2":         nil,
		"beyond the thesis (targets §3.14)":    nil,
		"section 6.4.1, computation time, 6.2": nil, // a number after prose is not a figure
	} {
		if got := ArtefactLabels(in); !slices.Equal(got, want) {
			t.Errorf("ArtefactLabels(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAddArtefactsRefusesBadLabels: a label is one figure or table, and
// a document's artefacts are listed by line.
func TestAddArtefactsRefusesBadLabels(t *testing.T) {
	d := Document{ID: "test-doc", Title: "a test"}
	for _, a := range []Artefact{{Label: "Figures 1.1-1.2"}, {Label: "section 2"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AddArtefacts accepted label %q", a.Label)
				}
			}()
			AddArtefacts(d, a)
		}()
	}
	AddArtefacts(d, Artefact{Label: "Figure 1.2", Line: 20}, Artefact{Label: "Table 1.1", Line: 10})
	for _, doc := range Documents() {
		if doc.ID == d.ID {
			if len(doc.Artefacts) != 2 || doc.Artefacts[0].Label != "Table 1.1" {
				t.Errorf("artefacts %+v, want Table 1.1 then Figure 1.2 (by line)", doc.Artefacts)
			}
			return
		}
	}
	t.Fatal("the document is not listed")
}
