package experiments

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/vbworkbench/vbw/results"
)

// Document is a text whose figures and tables the experiments reproduce:
// the thesis, or another document's package. The report shows one table
// per document: every artefact, its verdict and where it is.
type Document struct {
	ID    string // e.g. "beal2003"
	Title string // e.g. "Beal (2003), Variational Algorithms for Approximate Bayesian Inference"
	// Source is the file whose lines Artefact.Line counts, e.g.
	// "../shared/seeds/000_055f6e591db3cc60.txt".
	Source string
}

// Thesis is the document of experiments/chapter3 … chapter6.
var Thesis = Document{ID: "beal2003", Title: "Beal (2003), Variational Algorithms for Approximate Bayesian Inference, chapters 3-6",
	Source: "../shared/seeds/000_055f6e591db3cc60.txt"}

// The companion documents, each reproduced by several packages (declared
// here so that every package names the same Document). A claim names one
// of their artefacts with the document's short name first, "PRML Figure
// 10.3" (ArtefactLabels skips the name).
var (
	Lawrence = Document{ID: "lawrence2000", Title: "Lawrence (2000), Variational Inference in Probabilistic Models (PhD thesis)",
		Source: "../shared/seeds/001_7df1fb81bc835124.txt"}
	PRML = Document{ID: "bishop2006", Title: "Bishop (2006), Pattern Recognition and Machine Learning, chapter 10: Approximate Inference",
		Source: "../shared/seeds/002_cc78f0884d114115.txt"}
	DSouza = Document{ID: "dsouza2004", Title: "D'Souza (2004), Towards Tractable Parameter-Free Statistical Learning (PhD thesis)",
		Source: "../shared/seeds/003_a56118dfa4fca769.txt"}
	TurnerSahani = Document{ID: "turner-sahani2011", Title: "Turner & Sahani (2011), Two problems with variational expectation maximisation for time-series models",
		Source: "../shared/seeds/004_2d1c8b7c1e312d07.txt"}
)

// Artefact is one figure or table of a document.
type Artefact struct {
	// Label is the figure or table as the document and the claims name it:
	// "Figure 3.2", "Table 4.1".
	Label string
	// Line is the line of its caption in the document's Source; artefacts
	// are listed in this order.
	Line int
	// Caption says in a few words what it shows.
	Caption string
	// Experiments are the IDs of the experiments whose claims cover it
	// (Claim.Artifact names the label; see ArtefactLabels). None for an
	// artefact with nothing to compute; Note says why.
	Experiments []string
	// Note, when set, is said instead of a verdict's reason: why nothing
	// is computed (a diagram), or why no criterion judges it (a figure of
	// the data).
	Note string
	// Table, for a table of the document, renders it beside our numbers
	// (nil: a figure).
	Table *Table
	// Judged and NotAttempted, for an artefact whose parts are not all
	// attempted (the rows of a table of many methods, say), name the
	// parts the verdict judges and those it does not, with why: the
	// verdict is of the judged part alone.
	Judged, NotAttempted string
}

// Extension is an experiment of ours that goes past a document: not a
// figure or table of it, but a question it raises (the bias it predicts,
// measured on another model; a variant of its setting). Its claims are
// judged like the document's and shown in the document's extensions table.
type Extension struct {
	// Label names it on the page, e.g. "the bridge to Beal chapter 5".
	Label string
	// Experiments are the IDs of the experiments whose claims judge it.
	Experiments []string
}

// AddExtensions declares the extensions of document d (see Extension), in
// an experiment package's init.
func AddExtensions(d Document, es ...Extension) {
	artefactsMu.Lock()
	defer artefactsMu.Unlock()
	doc, ok := documents[d.ID]
	if !ok {
		doc = &DocumentArtefacts{Document: d}
		documents[d.ID] = doc
	}
	doc.Extensions = append(doc.Extensions, es...)
}

// Table renders a table of the document with our numbers beside the
// document's.
type Table struct {
	// Experiment is the ID of the experiment whose results fill it, and
	// Also those of other experiments whose runs fill it too (another
	// data set's column, say). The table is shown once, in the section of
	// Experiment's run, built with the runs of Also beside it
	// (ResultFiles.Also); without a run of Experiment, in the section of
	// each run of Also.
	Experiment string
	Also       []string
	// Source cites where the document's values come from, e.g.
	// "targets ch6-dag.md §3.3 (thesis L4749-L4783)".
	Source string
	// Build makes the comparison from a results folder's verified files.
	Build func(f ResultFiles) (results.Comparison, error)
}

// Experiments returns the IDs of the experiments whose runs fill t:
// Experiment, then Also.
func (t *Table) Experiments() []string { return append([]string{t.Experiment}, t.Also...) }

// ResultFiles are the verified files of a results folder: its summary and
// its other outputs by name (Read fails for a file that is missing or does
// not match the manifest).
type ResultFiles struct {
	Summary results.Summary
	Read    func(name string) ([]byte, error)
	// Also are the verified files of a run of each of the table's Also
	// experiments that the results hold, by experiment ID (absent when
	// there is none).
	Also map[string]ResultFiles
}

// Table reads the CSV table name of the folder.
func (f ResultFiles) Table(name string) (results.Table, error) {
	b, err := f.Read(name)
	if err != nil {
		return results.Table{}, err
	}
	return results.ParseCSV(name, b)
}

// DocumentArtefacts is a document with its artefacts in the document's
// order.
type DocumentArtefacts struct {
	Document
	Artefacts  []Artefact
	Extensions []Extension
}

var (
	artefactsMu sync.Mutex
	documents   = map[string]*DocumentArtefacts{}
)

// AddArtefacts declares artefacts of document d, in an experiment
// package's init (one call per package; a document spread over several
// packages, as the thesis is, is declared by each of them). It panics on a
// label declared twice or a document declared with two titles.
func AddArtefacts(d Document, as ...Artefact) {
	artefactsMu.Lock()
	defer artefactsMu.Unlock()
	doc, ok := documents[d.ID]
	if !ok {
		doc = &DocumentArtefacts{Document: d}
		documents[d.ID] = doc
	} else if doc.Document != d {
		panic(fmt.Sprintf("experiments: document %s declared as %+v and as %+v", d.ID, doc.Document, d))
	}
	for _, a := range as {
		for _, b := range doc.Artefacts {
			if b.Label == a.Label {
				panic(fmt.Sprintf("experiments: %s of %s declared twice", a.Label, d.ID))
			}
		}
		if labels := ArtefactLabels(a.Label); len(labels) != 1 || labels[0] != a.Label {
			panic(fmt.Sprintf("experiments: artefact label %q: want one \"Figure N.M\" or \"Table N.M\"", a.Label))
		}
		doc.Artefacts = append(doc.Artefacts, a)
	}
	sort.SliceStable(doc.Artefacts, func(i, j int) bool { return doc.Artefacts[i].Line < doc.Artefacts[j].Line })
}

// Documents returns every declared document, sorted by ID.
func Documents() []DocumentArtefacts {
	artefactsMu.Lock()
	defer artefactsMu.Unlock()
	var out []DocumentArtefacts
	for _, d := range documents {
		c := *d
		c.Artefacts = append([]Artefact(nil), d.Artefacts...)
		c.Extensions = append([]Extension(nil), d.Extensions...)
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

var (
	// labelKind: "Figure(s)" or "Table(s)", after a document's name
	// without digits ("PRML", "Turner & Sahani", "D'Souza").
	labelKind = regexp.MustCompile(`^(?:[\p{L}'&.]+\s+)*?(Figure|Table)s?\s+(.*)$`)
	labelNum  = regexp.MustCompile(`^(\d+)\.(\d+)(?:\s*[-–]\s*(?:(\d+)\.)?(\d+))?$`)
)

// ArtefactLabels expands a claim's artefact into the figure and table
// labels it names: "Figures 6.11, 6.12, Tables 6.3, 6.4" gives Figure 6.11,
// Figure 6.12, Table 6.3 and Table 6.4; "Figures 6.6-6.8" gives Figure 6.6,
// 6.7 and 6.8; "PRML Figure 10.3" gives Figure 10.3 (a companion
// document's artefact, named after the document). Parts that name no figure or table ("section 6.6", "eq.
// (4.121)") give nothing.
func ArtefactLabels(artifact string) []string {
	var out []string
	kind := ""
	for _, part := range strings.Split(artifact, ",") {
		part = strings.TrimSpace(part)
		if m := labelKind.FindStringSubmatch(part); m != nil {
			kind, part = m[1], strings.TrimSpace(m[2])
		}
		m := labelNum.FindStringSubmatch(part)
		if kind == "" || m == nil {
			kind = ""
			continue
		}
		ch, from := m[1], atoi(m[2])
		to := from
		if m[4] != "" {
			if m[3] != "" && m[3] != ch {
				continue // a range across chapters names nothing we can list
			}
			to = atoi(m[4])
		}
		for k := from; k <= to && k-from < 100; k++ {
			out = append(out, fmt.Sprintf("%s %s.%d", kind, ch, k))
		}
	}
	return out
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// ShippedConfig returns the config of experiment id in the folder dir:
// among dir/<chapter>/*.toml whose experiment is id, the one named after
// it (<name>.toml), else the only one that is not a long variant
// (*-full.toml), else the only one. It is the config that vbw run ID runs
// and that make <chapter> runs unless it is a long variant.
func ShippedConfig(dir, id string) (string, error) {
	chapter, name, _ := strings.Cut(id, "/")
	paths, _ := filepath.Glob(filepath.Join(dir, chapter, "*.toml"))
	var base, long []string
	for _, p := range paths {
		if got, err := ExperimentOf(p); err != nil || got != id {
			continue
		}
		if filepath.Base(p) == name+".toml" {
			return p, nil
		}
		if strings.HasSuffix(p, "-full.toml") {
			long = append(long, p)
		} else {
			base = append(base, p)
		}
	}
	for _, set := range [][]string{base, long} {
		switch len(set) {
		case 0:
			continue
		case 1:
			return set[0], nil
		}
		return "", fmt.Errorf("%s has several configs in %s: %s; name one", id, filepath.Join(dir, chapter), strings.Join(set, ", "))
	}
	return "", fmt.Errorf("%s: no config of it in %s (give -configs DIR, or the config file)", id, filepath.Join(dir, chapter))
}
