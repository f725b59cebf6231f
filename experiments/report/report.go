// Package report builds the reproduction report: one self-contained HTML
// page (index.html) and its Markdown twin (REPORT.md) that show, for every
// experiment whose results are in an output folder, its figures beside the
// thesis's claims they reproduce, the scorecard, the findings where the
// results differ from the thesis, the run time and the provenance. It reads
// result files only and never recomputes, like vbw plot.
package report

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// Files the report writes into the output folder.
const (
	HTMLFile     = "index.html"
	MarkdownFile = "REPORT.md"
)

// ErrNoResults is returned by Build when the folder holds no results.
var ErrNoResults = errors.New("report: no experiment results")

// Figure is one drawn figure of an experiment.
type Figure struct {
	Stem string // e.g. "fig3_2"
	Path string // of the SVG, relative to the report's folder
	SVG  []byte
}

// DataURI returns the SVG as a data: URI for an <img>: inline, so the page
// needs no other file, and sandboxed, so an SVG can run no script.
func (f Figure) DataURI() template.URL {
	return template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(f.SVG))
}

// ClaimView is a claim with the figures found for it.
type ClaimView struct {
	results.Claim
	Shown []Figure
}

// Experiment is one results folder.
type Experiment struct {
	ID, Title, Name string
	Dir             string // relative to the report's folder
	Anchor          string
	Quick           bool
	Summary         results.Summary
	Manifest        *results.Manifest
	Config          string // the resolved config.toml
	Claims          []ClaimView
	Other           []Figure // figures no claim names
	Passed, Failed  int
	NotApplicable   int
	Err             string // a folder that could not be read
}

// Missing is a registered experiment without results.
type Missing struct{ ID, Title, Command string }

// Report is what the page shows.
type Report struct {
	Dir         string
	Generated   string
	Experiments []Experiment
	Missing     []Missing
	WallSeconds float64
	AnyQuick    bool
}

// Collect reads every results folder under dir: dir/<chapter>/<name>/ and
// dir/quick/<chapter>/<name>/. It returns ErrNoResults when there are none.
func Collect(dir string) (*Report, error) {
	r := &Report{Dir: dir, Generated: time.Now().UTC().Format("2006-01-02 15:04 UTC")}
	var found []string
	for _, pattern := range []string{filepath.Join(dir, "*", "*", results.ManifestFile), filepath.Join(dir, "quick", "*", "*", results.ManifestFile)} {
		m, _ := filepath.Glob(pattern)
		found = append(found, m...)
	}
	sort.Strings(found)
	seen := map[string]bool{}
	for _, man := range found {
		d := filepath.Dir(man)
		e := readExperiment(dir, d)
		if e.ID == "" {
			continue // not a results folder of this program
		}
		if !e.Quick {
			seen[e.ID] = true
		}
		r.AnyQuick = r.AnyQuick || e.Quick
		if e.Manifest != nil {
			r.WallSeconds += e.Manifest.WallSeconds
		}
		r.Experiments = append(r.Experiments, e)
	}
	if len(r.Experiments) == 0 {
		return nil, fmt.Errorf("%w under %s (run some first, e.g. make chapter3)", ErrNoResults, dir)
	}
	// Full runs first, then quick ones; by experiment within each.
	sort.SliceStable(r.Experiments, func(i, j int) bool {
		a, b := r.Experiments[i], r.Experiments[j]
		if a.Quick != b.Quick {
			return !a.Quick
		}
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Dir < b.Dir
	})
	quickSeen := map[string]bool{}
	for _, e := range r.Experiments {
		quickSeen[e.ID] = true
	}
	for _, s := range experiments.List() {
		if seen[s.ID] {
			continue
		}
		chapter, slug, _ := strings.Cut(s.ID, "/")
		cmd := fmt.Sprintf("bin/vbw run -out %s configs/%s/%s.toml", dir, chapter, slug)
		title := s.Title
		if quickSeen[s.ID] {
			title += " (only a quick run is here)"
		}
		r.Missing = append(r.Missing, Missing{ID: s.ID, Title: title, Command: cmd})
	}
	return r, nil
}

// readExperiment reads one results folder; a folder it cannot read is
// reported in Err rather than dropped.
func readExperiment(root, dir string) Experiment {
	rel, _ := filepath.Rel(root, dir)
	e := Experiment{Dir: filepath.ToSlash(rel), Name: filepath.Base(dir)}
	e.Anchor = strings.NewReplacer("/", "-", ".", "-").Replace(e.Dir)
	man, err := results.ReadManifest(filepath.Join(dir, results.ManifestFile))
	if err != nil {
		e.ID, e.Err = filepath.ToSlash(rel), err.Error()
		return e
	}
	e.Manifest, e.ID, e.Quick = man, man.Experiment, man.Quick
	if s, ok := experiments.Lookup(man.Experiment); ok {
		e.Title = s.Title
	}
	if cfg, err := os.ReadFile(filepath.Join(dir, results.ConfigFile)); err == nil {
		e.Config = string(cfg)
	}
	if err := results.VerifyOutputs(dir); err != nil {
		e.Err = err.Error()
	}
	sum, err := results.ReadSummary(filepath.Join(dir, results.SummaryFile))
	if err != nil {
		if e.Err == "" {
			e.Err = err.Error()
		}
		return e
	}
	e.Summary = sum
	for _, c := range sum.Checks {
		switch {
		case c.NotApplicable:
			e.NotApplicable++
		case c.Pass:
			e.Passed++
		default:
			e.Failed++
		}
	}
	figs := readFigures(root, dir)
	used := map[string]bool{}
	for _, c := range sum.Claims {
		cv := ClaimView{Claim: c}
		for _, stem := range c.Figures {
			for _, f := range figs {
				if f.Stem == stem {
					cv.Shown = append(cv.Shown, f)
					used[stem] = true
				}
			}
		}
		e.Claims = append(e.Claims, cv)
	}
	for _, f := range figs {
		if !used[f.Stem] {
			e.Other = append(e.Other, f)
		}
	}
	return e
}

// readFigures returns the SVG figures of a folder, by name.
func readFigures(root, dir string) []Figure {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.svg"))
	sort.Strings(paths)
	var figs []Figure
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(root, p)
		figs = append(figs, Figure{Stem: strings.TrimSuffix(filepath.Base(p), ".svg"), Path: filepath.ToSlash(rel), SVG: b})
	}
	return figs
}

// Build writes dir/index.html and dir/REPORT.md from the results under dir.
func Build(dir string) (*Report, error) {
	r, err := Collect(dir)
	if err != nil {
		return nil, err
	}
	var page bytes.Buffer
	if err := pageTemplate.Execute(&page, r); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	if err := results.WriteFileAtomic(filepath.Join(dir, HTMLFile), page.Bytes()); err != nil {
		return nil, err
	}
	if err := results.WriteFileAtomic(filepath.Join(dir, MarkdownFile), []byte(markdown(r))); err != nil {
		return nil, err
	}
	return r, nil
}

// Seconds formats a duration in seconds for people.
func Seconds(s float64) string {
	d := time.Duration(s * float64(time.Second)).Round(100 * time.Millisecond)
	if d < time.Second {
		return fmt.Sprintf("%.2fs", s)
	}
	return d.String()
}

var funcs = template.FuncMap{
	"seconds": Seconds,
	"value": func(c results.Check) string {
		if c.NotApplicable {
			return "—"
		}
		return fmt.Sprintf("%.4g", c.Value)
	},
	"verdictClass": func(c results.Check) string {
		return map[string]string{"pass": "pass", "FAIL": "fail", "n/a": "na"}[c.Verdict()]
	},
	"short": func(s string) string {
		if len(s) > 12 {
			return s[:12]
		}
		return s
	},
	"seeds": func(m *results.Manifest) string {
		if m == nil {
			return ""
		}
		var s []string
		for _, r := range m.Runs {
			s = append(s, fmt.Sprintf("%s=%d", r.Name, r.Seed))
		}
		if len(s) > 12 {
			s = append(s[:12], fmt.Sprintf("… (%d runs)", len(m.Runs)))
		}
		return strings.Join(s, ", ")
	},
}

var pageTemplate = template.Must(template.New("page").Funcs(funcs).Parse(pageHTML))
