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

// ClaimView is a claim with the figures found for it and its verdict.
type ClaimView struct {
	results.Claim
	Anchor  string
	Verdict Verdict
	Shown   []Figure
	// Withheld are the figures the claim names that are not shown, each
	// "name: why" (missing, changed after the run, not drawn).
	Withheld []string
}

// Experiment is one results folder.
type Experiment struct {
	ID, Title, Name string
	Dir             string // relative to the report's folder
	Anchor          string
	Quick           bool
	Kind            string // "full", "QUICK", or "unknown" without a readable manifest
	// State is Verified, Incomplete, Tampered or Unreadable (see verify.go);
	// Problems says why, one line each.
	State    string
	Problems []string
	// ManifestOK: the manifest is readable and nothing contradicts it, so
	// its own fields (provenance, wall time) are shown.
	ManifestOK bool
	// Trusted: summary.json matches the manifest, and neither contradicts
	// the other or itself, so its checks and claims are shown.
	Trusted        bool
	Summary        results.Summary // zero unless Trusted
	Manifest       *results.Manifest
	Config         string // the resolved config.toml, if it matches the manifest
	Claims         []ClaimView
	Other          []Figure // verified figures no claim shows
	Passed, Failed int
	NotApplicable  int
	// Findings are the findings shown under "where the results differ
	// from the thesis": all of a full run's, and of a quick run's those
	// not written for its failed checks (QuickFailures lists these: a
	// quick run's failures are not judged).
	Findings      []string
	QuickFailures []results.Check
	// Tables are the document's tables this run fills, beside ours.
	Tables []TableView
	// Invalid are the run's failed sanity checks: any makes its claims
	// invalid.
	Invalid []results.Check
	// Recomputed says whether and when vbw verify recomputed the folder
	// (experiments.Verify): "" if never, or for an earlier manifest.
	Recomputed string

	cur   string            // the generation read
	bad   map[string]string // listed outputs that do not match: why
	files map[string][]byte // verified outputs the page reads
}

// TableView is a document's table with our numbers beside it, or why it
// cannot be shown.
type TableView struct {
	Label, Caption, Source string
	Anchor                 string
	Comparison             results.Comparison
	Error                  string
}

// Missing is a registered experiment without a full run. Command runs it
// (Make, when set, is the make target that runs it with its document's
// other experiments) and Time is its expected time: the config's work
// estimate (experiments.Cost, an upper bound that takes every fit to its
// iteration cap) at experiments.OpsPerSecond. Note, when not empty, says
// what stands in the way (a quick run in the folder a full run writes) or
// why no command can be given.
type Missing struct{ ID, Title, Command, Make, Time, Note string }

// Report is what the page shows.
type Report struct {
	Dir         string
	Generated   string
	Experiments []Experiment
	Missing     []Missing
	WallSeconds float64
	AnyQuick    bool
	// Documents are the verdict tables, one per document that declares
	// its artefacts (experiments.AddArtefacts).
	Documents []DocumentView
	// Kinds are the verdicts, in the matrix's order (VerdictKinds).
	Kinds []string
	// TimesMarkdown is the run-times table of the results (the table vbw
	// report -times prints, with the run records' lines); Times is the
	// same for the page. Empty, nil: no manifest records a time.
	TimesMarkdown string
	Times         *TimesView
	// Atlas is the atlas section (atlas.go): nil without an atlas/<row>
	// result.
	Atlas *AtlasView
}

// Collect reads every results folder under dir: dir/<chapter>/<name>/ and
// dir/quick/<chapter>/<name>/, verified against their manifests (see
// readExperiment). It returns ErrNoResults when there are none.
func Collect(dir string) (*Report, error) {
	r := &Report{Dir: dir, Generated: time.Now().UTC().Format("2006-01-02 15:04 UTC")}
	seen := map[string]bool{}
	for _, d := range resultFolders(dir) {
		e := readExperiment(dir, d)
		if !e.Quick && e.ManifestOK {
			seen[e.ID] = true
		}
		r.AnyQuick = r.AnyQuick || e.Quick
		if e.ManifestOK {
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
	for _, s := range experiments.List() {
		if !seen[s.ID] {
			r.Missing = append(r.Missing, missing(dir, s, r.Experiments))
		}
	}
	r.Documents, r.Kinds = documentViews(r), VerdictKinds
	r.Atlas = atlasView(r)
	return r, nil
}

// resultFolders returns the folders dir/<chapter>/<name> and
// dir/quick/<chapter>/<name> that hold a manifest, a summary or a config
// (a folder that lacks some is reported, not skipped), and the links of
// results folders whose generation is gone, sorted.
func resultFolders(dir string) []string {
	var found []string
	for _, pattern := range []string{filepath.Join(dir, "*", "*"), filepath.Join(dir, "quick", "*", "*")} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			rel, _ := filepath.Rel(dir, p)
			first, rest, _ := strings.Cut(filepath.ToSlash(rel), "/")
			if strings.HasPrefix(filepath.Base(p), ".") || (first == "quick" && !strings.Contains(rest, "/")) {
				continue // a state directory, a hidden file, or dir/quick/<chapter>
			}
			st, err := os.Stat(p)
			if err != nil {
				if target, lerr := os.Readlink(p); lerr == nil && strings.HasPrefix(target, "."+filepath.Base(p)+".vbw") {
					found = append(found, p) // a results link without its generation
				}
				continue
			}
			if !st.IsDir() {
				continue
			}
			for _, f := range []string{results.ManifestFile, results.SummaryFile, results.ConfigFile} {
				if _, err := os.Stat(filepath.Join(p, f)); err == nil {
					found = append(found, p)
					break
				}
			}
		}
	}
	sort.Strings(found)
	return found
}

// missing says how to run the experiment s, which has no full run under
// dir. When its config file is found from the folder the report runs in,
// the command is checked as vbw run checks it: a config that does not load
// or a folder claimed by another config is said instead of a command that
// would be refused, and a quick run in the folder a full run writes is
// moved into dir/quick first.
func missing(dir string, s experiments.Spec, have []Experiment) Missing {
	chapter, slug, _ := strings.Cut(s.ID, "/")
	m := Missing{ID: s.ID, Title: s.Title}
	var candidates []string
	for _, e := range have {
		if e.ID == s.ID && e.Quick && e.ManifestOK {
			m.Title = s.Title + " (only a quick run is here)"
			candidates = append(candidates, e.Manifest.Config)
		}
	}
	shipped, err := experiments.ShippedConfig("configs", s.ID)
	if err != nil {
		shipped = filepath.Join("configs", chapter, slug+".toml") // not found from here: its usual name
	}
	config := shipped
	for _, c := range candidates {
		if id, err := experiments.ExperimentOf(c); err == nil && id == s.ID {
			config = c
			break
		}
	}
	m.Command = fmt.Sprintf("bin/vbw run -out %s %s", dir, config)
	if _, err := os.Stat(config); err != nil {
		return m // not found from here: the shipped config's usual name
	}
	j, err := experiments.Prepare(config, experiments.RunOptions{Out: dir})
	if err != nil {
		m.Command, m.Note = "", fmt.Sprintf("%s would be refused: %s", m.Command, oneLine(err))
		return m
	}
	m.Time = "at most " + experiments.CoreTime(j.Estimate.Work)
	if config == shipped && !strings.HasSuffix(shipped, "-full.toml") {
		m.Make = "make " + chapter
		if filepath.Clean(dir) != "output" {
			m.Make += " OUT=" + dir
		}
	}
	if man, err := results.ReadManifest(filepath.Join(j.Dir, results.ManifestFile)); err == nil && man.Quick {
		rel, _ := filepath.Rel(dir, j.Dir)
		to := filepath.Join(dir, "quick", filepath.Dir(rel))
		f := results.OpenFolder(j.Dir)
		m.Note = fmt.Sprintf("The quick run in %s is in the folder a full run writes", j.Dir)
		if _, err := os.Lstat(filepath.Join(to, filepath.Base(j.Dir))); err == nil {
			m.Note += fmt.Sprintf(", and %s holds another quick run: remove one of them, then run %s", to, m.Command)
			m.Command = ""
			return m
		}
		m.Note += fmt.Sprintf(": the command moves it into %s first", to)
		move := f.Path
		if _, err := os.Stat(f.StateDir()); err == nil {
			move += " " + f.StateDir() // its state goes with it
		}
		m.Command = fmt.Sprintf("mkdir -p %s && mv %s %s/ && %s", to, move, to, m.Command)
	}
	return m
}

// Build writes dir/index.html and dir/REPORT.md from the results under dir.
func Build(dir string) (*Report, error) {
	r, err := Collect(dir)
	if err != nil {
		return nil, err
	}
	r.TimesMarkdown = timesMarkdown(dir)
	r.Times = timesView(r.TimesMarkdown)
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

// Line summarises in one line the results folders under the report's
// folder whose path starts with prefix ("chapter3", "quick"): their checks
// passed and failed (a quick run's are not judged), the folders that do
// not match their manifests, and the page to open.
func (r *Report) Line(prefix string) string {
	prefix = strings.TrimSuffix(filepath.ToSlash(prefix), "/") + "/"
	var folders, passed, failed, quick int
	var bad []string
	for _, e := range r.Experiments {
		if !strings.HasPrefix(e.Dir, prefix) {
			continue
		}
		folders++
		if e.Quick {
			quick++
		}
		if !e.Trusted || e.State != Verified {
			bad = append(bad, e.Dir+" "+e.State)
		}
		passed += e.Passed
		failed += e.Failed
	}
	page := filepath.Join(r.Dir, HTMLFile)
	if folders == 0 {
		return fmt.Sprintf("%s: no results under %s; the page: %s", strings.TrimSuffix(prefix, "/"), filepath.Join(r.Dir, prefix), page)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: checks %d passed and %d failed in %d results folders", strings.TrimSuffix(prefix, "/"), passed, failed, folders)
	if quick > 0 {
		fmt.Fprintf(&b, " (%d quick: not judged)", quick)
	}
	if len(bad) > 0 {
		fmt.Fprintf(&b, "; not matching their manifests: %s", strings.Join(bad, ", "))
	}
	fmt.Fprintf(&b, "; open %s", page)
	return b.String()
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
	"methodLabel":   methodLabel,
	"seconds":       Seconds,
	"verdictClass":  verdictClass,
	"join":          strings.Join,
	"firstProblems": firstProblems,
	"value": func(c results.Check) string {
		if c.NotApplicable {
			return "—"
		}
		return fmt.Sprintf("%.4g", c.Value)
	},
	"holdsClass": func(c ClaimRow) string {
		switch {
		case c.Check.NotApplicable:
			return "nj"
		case c.Check.Pass:
			return "holds"
		}
		return "doesnot"
	},
	"groups": checkGroups,
	"moreRows": func(v ShortVerdict) string {
		nj := v.MoreRows - v.MoreHold
		switch {
		case nj == 0 && v.MoreHold == 1:
			return "and 1 more that holds"
		case nj == 0:
			return fmt.Sprintf("and %d more that hold", v.MoreHold)
		case v.MoreHold == 0:
			return fmt.Sprintf("and %d more not judged", nj)
		}
		return fmt.Sprintf("and %d more: %d hold, %d not judged", v.MoreRows, v.MoreHold, nj)
	},
	// rowspan: the rows a verdict table gives a shortened verdict, its
	// claim rows and the "and n more" row.
	"rowspan": func(v ShortVerdict) int {
		if v.MoreRows > 0 {
			return len(v.Rows) + 1
		}
		return len(v.Rows)
	},
	"checkClass": func(c results.Check) string {
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

// checkGroup is one group of a run's scorecard.
type checkGroup struct {
	Title  string
	Claims bool // the group's checks are claims, with the text's number
	Checks []results.Check
}

// checkGroups splits a scorecard into the text's claims, our extensions
// and the sanity checks of the run.
func checkGroups(cs []results.Check) []checkGroup {
	gs := []checkGroup{{Title: "Claims of the text", Claims: true}, {Title: "Extensions: claims of ours", Claims: true}, {Title: "Sanity checks of the run"}}
	for _, c := range cs {
		switch {
		case c.IsSanity():
			gs[2].Checks = append(gs[2].Checks, c)
		case c.IsExtension():
			gs[1].Checks = append(gs[1].Checks, c)
		default:
			gs[0].Checks = append(gs[0].Checks, c)
		}
	}
	return gs
}
