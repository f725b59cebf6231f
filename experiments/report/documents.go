package report

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// DocumentView is the verdict table of one document: each of its figures
// and tables with its verdict and a link to where the page shows it, and
// the extensions of ours with theirs.
type DocumentView struct {
	experiments.Document
	Rows []ArtefactRow
	// Extensions are the claims of ours that go past the document: the
	// experiments declared as its extensions, the runs of its experiments
	// that do not judge its artefacts (settings of ours such as
	// lattice-rotated.toml, a reduced run beside the text's: reproducing),
	// and the extension checks of the claims that name its artefacts.
	Extensions []ExtensionRow
	// Counts are the number of artefacts of each verdict, in the order of
	// VerdictKinds.
	Counts []VerdictCount
}

// CountLine says how many artefacts have each verdict: "reproduced 7,
// partly reproduced 1, …".
func (d DocumentView) CountLine() string {
	parts := make([]string, len(d.Counts))
	for i, c := range d.Counts {
		parts[i] = fmt.Sprintf("%s %d", c.Kind, c.N)
	}
	return strings.Join(parts, ", ")
}

// Short is the document's short name: its title up to the first comma,
// "Beal (2003)".
func (d DocumentView) Short() string {
	short, _, _ := strings.Cut(d.Title, ",")
	return short
}

// Count returns the number of artefacts with verdict kind.
func (d DocumentView) Count(kind string) int {
	for _, c := range d.Counts {
		if c.Kind == kind {
			return c.N
		}
	}
	return 0
}

// VerdictCount is the number of artefacts with one verdict.
type VerdictCount struct {
	Kind string
	N    int
}

// VerdictKinds are the verdicts in the order the page lists them.
var VerdictKinds = []string{Reproduced, PartlyReproduced, NotReproduced, Invalid, NotJudged, NotRun}

// ArtefactRow is one figure or table of a document.
type ArtefactRow struct {
	experiments.Artefact
	Verdict Verdict
	// Link is the anchor of the claim (or, without one, the section) that
	// shows it; empty when nothing shows it.
	Link string
	// Where names the results folders its verdict comes from.
	Where []string
	// Quick: only quick runs are here, so Verdict's counts are of checks
	// that would pass.
	Quick bool
	// Short is the verdict table's view of Verdict (shorten).
	Short ShortVerdict
}

// ExtensionRow is one claim of ours beside a document: what it extends,
// the run, its statement and its verdict with its rows.
type ExtensionRow struct {
	Label     string // the artefact it goes past, or the extension's label
	Where     string // the results folder
	Statement string
	Verdict   Verdict
	Link      string
	Quick     bool
	Short     ShortVerdict
}

// documentViews computes every declared document's verdict table from the
// report's experiments (and fills the experiments' document tables).
func documentViews(r *Report) []DocumentView {
	var out []DocumentView
	for _, d := range experiments.Documents() {
		v := DocumentView{Document: d.Document}
		for _, a := range d.Artefacts {
			if a.Table != nil {
				addTable(r, a)
			}
			row, ext := artefactRow(r, a)
			if a.Table != nil { // the link goes to the table beside ours
				for _, e := range runsOf(r, a.Table.Experiments(), row.Quick) {
					if i := slices.IndexFunc(e.Tables, func(t TableView) bool { return t.Label == a.Label }); i >= 0 && row.Link != "" {
						row.Link = e.Tables[i].Anchor
						break
					}
				}
			}
			v.Rows = append(v.Rows, row)
			v.Extensions = append(v.Extensions, ext...)
		}
		for _, x := range d.Extensions {
			v.Extensions = append(v.Extensions, extensionRows(r, x)...)
		}
		for i := range v.Extensions {
			v.Extensions[i].Verdict.Rows = groupCases(v.Extensions[i].Verdict.Rows)
			v.Extensions[i].Short = shorten(v.Extensions[i].Verdict)
		}
		for i := range v.Rows {
			v.Rows[i].Short = shorten(v.Rows[i].Verdict)
		}
		for _, k := range VerdictKinds {
			n := 0
			for _, row := range v.Rows {
				if row.Verdict.Kind == k {
					n++
				}
			}
			v.Counts = append(v.Counts, VerdictCount{k, n})
		}
		out = append(out, v)
	}
	return out
}

// extensionRows are the rows of a declared extension: every claim of its
// experiments' runs (full runs, or quick runs when there are none), judged
// on all of its checks but the sanity ones.
func extensionRows(r *Report, x experiments.Extension) []ExtensionRow {
	for _, quick := range []bool{false, true} {
		var rows []ExtensionRow
		for _, e := range runsOf(r, x.Experiments, quick) {
			if !e.Trusted {
				rows = append(rows, ExtensionRow{Label: x.Label, Where: e.Dir, Link: e.Anchor, Quick: quick,
					Verdict: Verdict{Kind: NotJudged, Reasons: []string{fmt.Sprintf("%s does not match its manifest (%s)", e.Dir, e.State)}}})
				continue
			}
			for _, c := range e.Claims {
				v := verdictOf(e.Summary, c.Claim, func(ch results.Check) bool { return !ch.IsSanity() })
				rows = append(rows, ExtensionRow{Label: x.Label + ": " + c.Artifact, Where: e.Dir, Statement: c.Statement, Verdict: v, Link: c.Anchor, Quick: quick})
			}
		}
		if len(rows) > 0 {
			return rows
		}
	}
	return []ExtensionRow{{Label: x.Label, Verdict: Verdict{Kind: NotRun, Reasons: []string{"run " + runHint(r, experiments.Artefact{Experiments: x.Experiments})}}}}
}

// artefactRow computes the verdict of artefact a: from the claims that
// name it in the verified full runs of its experiments, or else in their
// quick runs (not judged), or else not run, with the commands. It also
// returns the extension rows of a: the extension checks of those claims,
// and the claims of the runs of its experiments that do not judge it
// (reproducing).
func artefactRow(r *Report, a experiments.Artefact) (ArtefactRow, []ExtensionRow) {
	row := ArtefactRow{Artefact: a}
	if len(a.Experiments) == 0 {
		row.Verdict = Verdict{Kind: NotJudged, Reasons: []string{a.Note}}
		return row, nil
	}
	var ext []ExtensionRow
	for _, quick := range []bool{false, true} {
		var vs []Verdict
		claimLink := false
		all := runsOf(r, a.Experiments, quick)
		runs, variants, settings := reproducing(all)
		for _, e := range all {
			if !e.Trusted || slices.ContainsFunc(runs, func(k Experiment) bool { return k.Dir == e.Dir }) {
				continue
			}
			for _, c := range e.Claims {
				if slices.Contains(experiments.ArtefactLabels(c.Artifact), a.Label) {
					v := verdictOf(e.Summary, c.Claim, func(ch results.Check) bool { return !ch.IsSanity() })
					ext = append(ext, ExtensionRow{Label: a.Label + " (" + e.Name + ")", Where: e.Dir, Statement: c.Statement, Verdict: v, Link: c.Anchor, Quick: quick})
				}
			}
		}
		for _, e := range runs {
			row.Where = append(row.Where, e.Dir)
			if row.Link == "" {
				row.Link = e.Anchor
			}
			if !e.Trusted {
				vs = append(vs, Verdict{Kind: NotJudged, Reasons: []string{fmt.Sprintf("%s does not match its manifest (%s)", e.Dir, e.State)}})
				continue
			}
			named := false
			for _, c := range e.Claims {
				if slices.Contains(experiments.ArtefactLabels(c.Artifact), a.Label) {
					if !claimLink {
						row.Link, claimLink = c.Anchor, true
					}
					named = true
					v := c.Verdict
					if a.Note != "" && v.Kind == NotJudged && slices.Equal(v.Reasons, []string{noCriterion}) {
						// A figure of the data, say: the artefact says why.
						v.Reasons = []string{a.Note}
					}
					v.Rows = slices.Clone(v.Rows)
					if len(runs) > 1 {
						for i := range v.Rows {
							v.Rows[i].Run = e.Name
						}
					}
					v.Rows = groupCases(v.Rows)
					vs = append(vs, v)
					if xv := ExtensionVerdict(e.Summary, c.Claim); len(xv.Rows) > 0 {
						ext = append(ext, ExtensionRow{Label: a.Label, Where: e.Dir, Statement: c.Statement, Verdict: xv, Link: c.Anchor, Quick: quick})
					}
				}
			}
			if !named {
				why := a.Note
				if why == "" {
					why = fmt.Sprintf("no claim of %s names it", e.ID)
				}
				vs = append(vs, Verdict{Kind: NotJudged, Reasons: []string{why}})
			}
		}
		if len(vs) == 0 {
			continue
		}
		row.Verdict, row.Quick = combine(vs), quick
		row.Verdict.Reasons = append(row.Verdict.Reasons, settings...)
		if len(variants) > 0 {
			var on []string
			for _, e := range runs {
				on = append(on, e.Name)
			}
			row.Verdict.Reasons = append(row.Verdict.Reasons, "judged on "+strings.Join(on, ", ")+"; the other runs are in the extensions table: "+strings.Join(variants, ", "))
		}
		if !quick {
			var missing []string
			for _, id := range a.Experiments {
				if len(runsOf(r, []string{id}, false)) == 0 {
					missing = append(missing, id)
				}
			}
			if len(missing) > 0 {
				row.Verdict.Reasons = append(row.Verdict.Reasons, "also covered by "+strings.Join(missing, ", ")+", not run: "+runHint(r, experiments.Artefact{Experiments: missing}))
			}
		}
		if quick {
			// One reason for all: what the quick runs' claims would say
			// is in their sections.
			row.Verdict.Reasons = []string{"only quick runs are here (reduced settings, not the thesis's); to judge it run " + runHint(r, a)}
			if a.Note != "" {
				row.Verdict.Reasons = append([]string{a.Note}, row.Verdict.Reasons...)
			}
		}
		return row, ext
	}
	row.Verdict = Verdict{Kind: NotRun, Reasons: []string{"run " + runHint(r, a)}}
	return row, ext
}

// reproducing keeps, of each experiment's runs, those that judge its
// artefacts, by the settings each run declares (settingsOf): the runs of
// the text's settings, or else those of reduced settings; of several of
// one rank, the run of the config named after the experiment
// (lattice.toml for chapter4/lattice, experiments.ShippedConfig) where
// there is one, or else all. It returns the names of the runs it leaves
// out (settings of ours such as lattice-rotated.toml or
// digits-classify-refpenalty.toml, a reduced run beside the text's, another
// config of the same rank), whose claims go to the extensions table rather
// than being pooled into the artefact's verdict, and the reasons a verdict
// of the kept runs carries: "on reduced settings: <note>" for each reduced
// run kept. An experiment whose runs are all of settings of ours keeps
// none: its artefacts are not run on the text's settings.
func reproducing(runs []Experiment) (kept []Experiment, left, reasons []string) {
	best := map[string]int{}
	for _, e := range runs {
		if r := settingsRank(settingsOf(e)); r < settingsRank(string(config.SettingsOurs)) {
			if b, ok := best[e.ID]; !ok || r < b {
				best[e.ID] = r
			}
		}
	}
	main := map[string]bool{}
	for _, e := range runs {
		if b, ok := best[e.ID]; ok && settingsRank(settingsOf(e)) == b && isMainConfig(e) {
			main[e.ID] = true
		}
	}
	for _, e := range runs {
		b, ok := best[e.ID]
		if !ok || settingsRank(settingsOf(e)) != b || main[e.ID] && !isMainConfig(e) {
			left = append(left, e.Name)
			continue
		}
		kept = append(kept, e)
		if settingsOf(e) == string(config.SettingsReduced) {
			note := "on reduced settings"
			if n := e.Manifest.SettingsNote; n != "" {
				note += ": " + n
			}
			if len(runs) > 1 {
				note += " (" + e.Name + ")"
			}
			reasons = append(reasons, note)
		}
	}
	return kept, left, reasons
}

// settingsOf returns the settings run e declares relative to the text
// (its manifest's, config.Settings): "text" for a manifest that records
// none (written before they were), whose choice falls to the config's
// name alone.
func settingsOf(e Experiment) string {
	if e.Manifest == nil || e.Manifest.Settings == "" {
		return string(config.SettingsText)
	}
	return e.Manifest.Settings
}

// settingsRank orders settings by how closely they follow the text: the
// text's, reduced, ours (and any other value after them).
func settingsRank(s string) int {
	switch config.Settings(s) {
	case config.SettingsText:
		return 0
	case config.SettingsReduced:
		return 1
	case config.SettingsOurs:
		return 2
	}
	return 3
}

// isMainConfig reports whether run e is of the config named after its
// experiment.
func isMainConfig(e Experiment) bool {
	return e.Manifest != nil && filepath.Base(e.Manifest.Config) == path.Base(e.ID)+".toml"
}

// runsOf returns the results folders of the experiments ids, full runs
// or quick ones, in the order of ids.
func runsOf(r *Report, ids []string, quick bool) []Experiment {
	var out []Experiment
	for _, id := range ids {
		for _, e := range r.Experiments {
			if e.ID == id && e.Quick == quick {
				out = append(out, e)
			}
		}
	}
	return out
}

// runHint says how to run the experiments of artefact a that have no full
// run, and how long each is expected to take: one command per make target
// (or vbw run command) with the experiments it runs.
func runHint(r *Report, a experiments.Artefact) string {
	var cmds []string
	runs := map[string][]string{}
	for _, m := range r.Missing {
		if !slices.Contains(a.Experiments, m.ID) {
			continue
		}
		cmd := m.Command
		if m.Make != "" && m.Note == "" {
			cmd = m.Make // the shorter command; the section "Not run" has the other
		}
		what := m.ID
		if m.Time != "" {
			what += " " + m.Time
		}
		if cmd == "" {
			cmd, what = m.ID, m.Note
		}
		if _, ok := runs[cmd]; !ok {
			cmds = append(cmds, cmd)
		}
		runs[cmd] = append(runs[cmd], what)
	}
	if len(cmds) == 0 {
		return strings.Join(a.Experiments, ", ")
	}
	parts := make([]string, len(cmds))
	for i, c := range cmds {
		parts[i] = fmt.Sprintf("%s (%s)", c, strings.Join(runs[c], "; "))
	}
	return strings.Join(parts, ", or ")
}

// addTable fills the document's table a: in the section of each verified
// run of its experiment, built with a run of each of its Also experiments
// beside it (the one reproducing keeps, full beside full and quick beside
// quick); without a run of its experiment, in the section of each run of
// an Also experiment. One table is shown once.
func addTable(r *Report, a experiments.Artefact) {
	owners := []string{a.Table.Experiment}
	if !slices.ContainsFunc(r.Experiments, func(e Experiment) bool { return e.ID == a.Table.Experiment && e.Trusted }) {
		owners = a.Table.Also
	}
	for i := range r.Experiments {
		e := &r.Experiments[i]
		if !slices.Contains(owners, e.ID) || !e.Trusted {
			continue
		}
		tv := TableView{Label: a.Label, Caption: a.Caption, Source: a.Table.Source, Anchor: e.Anchor + "-" + slug(a.Label) + "-table"}
		files := e.resultFiles()
		if e.ID == a.Table.Experiment {
			for _, id := range a.Table.Also {
				kept, _, _ := reproducing(runsOf(r, []string{id}, e.Quick))
				if j := slices.IndexFunc(kept, func(k Experiment) bool { return k.Trusted }); j >= 0 {
					if files.Also == nil {
						files.Also = map[string]experiments.ResultFiles{}
					}
					files.Also[id] = kept[j].resultFiles()
				}
			}
		}
		c, err := a.Table.Build(files)
		if err != nil {
			tv.Error = oneLine(err)
		} else {
			tv.Comparison = c
		}
		e.Tables = append(e.Tables, tv)
	}
}

// resultFiles are e's verified files, for a document's table to read.
func (e *Experiment) resultFiles() experiments.ResultFiles {
	return experiments.ResultFiles{Summary: e.Summary, Read: func(name string) ([]byte, error) {
		if b, ok := e.files[name]; ok {
			return b, nil
		}
		if why, ok := e.bad[name]; ok {
			return nil, fmt.Errorf("%s: %s", name, why)
		}
		return nil, fmt.Errorf("%s: not among the run's verified outputs: %w", name, fs.ErrNotExist)
	}}
}

// The verdict tables show at most MaxRows claim rows and MaxReasons
// reasons an artefact; the run's section has them all.
const (
	MaxRows    = 4
	MaxReasons = 3
)

// ShortVerdict is what a verdict table shows of a verdict: its claim
// rows, those that do not hold first, at most MaxRows, and how many more
// hold; its first MaxReasons reasons and how many more there are.
type ShortVerdict struct {
	Rows        []ClaimRow
	MoreRows    int
	MoreHold    int // of MoreRows, those that hold (the others are not judged)
	Reasons     []string
	MoreReasons int
}

// shorten keeps, of v's rows, those that do not hold (failed, or holding
// for some cases only) before those that hold or are not judged, each in
// its order, at most MaxRows (and every row that does not hold when
// there are more of those), and v's first MaxReasons reasons.
func shorten(v Verdict) ShortVerdict {
	var bad, rest []ClaimRow
	for _, r := range v.Rows {
		if !r.Check.Pass && !r.Check.NotApplicable {
			bad = append(bad, r)
		} else {
			rest = append(rest, r)
		}
	}
	out := ShortVerdict{Rows: bad}
	if n := MaxRows - len(bad); n > 0 {
		if n > len(rest) {
			n = len(rest)
		}
		if len(rest) == n+1 { // "1 more" takes the row it would save
			n++
		}
		out.Rows = append(out.Rows, rest[:n]...)
		rest = rest[n:]
	}
	out.MoreRows = len(rest)
	for _, r := range rest {
		if r.Check.Pass && !r.Check.NotApplicable {
			out.MoreHold++
		}
	}
	out.Reasons = v.Reasons
	if len(v.Reasons) > MaxReasons+1 {
		out.Reasons, out.MoreReasons = v.Reasons[:MaxReasons], len(v.Reasons)-MaxReasons
	}
	return out
}
