package report

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// The states of a results folder, from best to worst. The page shows a
// number or a figure only from a file whose size and SHA-256 match the
// manifest.
const (
	// Verified: every file the manifest lists is there and matches it, no
	// other file is there, and the manifest agrees with what the verified
	// files and the folder's place say (see crossCheck).
	Verified = "verified"
	// Incomplete: files the manifest lists are missing, figures the claims
	// name were not drawn, or the manifest lists no outputs.
	Incomplete = "incomplete"
	// Tampered: a file differs from the manifest's record, a file is there
	// that the manifest does not list, the manifest contradicts the
	// verified files or the folder's place, or a check's verdict
	// contradicts its own value and target.
	Tampered = "tampered"
	// Unreadable: no manifest (or none that parses), so nothing can be
	// verified; or a listed file that matches cannot be decoded.
	Unreadable = "unreadable"
)

var severity = map[string]int{Verified: 0, Incomplete: 1, Tampered: 2, Unreadable: 3}

// flag records a problem of the folder and lowers its state to at least
// state.
func (e *Experiment) flag(state, format string, args ...any) {
	e.Problems = append(e.Problems, fmt.Sprintf(format, args...))
	if severity[state] > severity[e.State] {
		e.State = state
	}
}

// usedOnPage reports whether the page uses the content of an output: the
// summary, the config, the figures, and the CSV tables a document's table
// is filled from.
func usedOnPage(name string) bool {
	ext := filepath.Ext(name)
	return name == results.SummaryFile || name == results.ConfigFile || ext == ".svg" || ext == ".csv"
}

// readExperiment reads the results folder dir (under root) and checks it
// against its manifest. What the page shows of it comes from the bytes
// checked: summary.json (the checks, claims, findings, warnings),
// config.toml and the SVG figures, each shown only if it matches its
// record. The manifest itself holds the records, so it cannot be checked
// by them: it is cross-checked instead (crossCheck), and its own fields
// (provenance, wall time) are shown only when nothing contradicts it.
func readExperiment(root, dir string) Experiment {
	rel, _ := filepath.Rel(root, dir)
	e := Experiment{Dir: filepath.ToSlash(rel), Name: filepath.Base(dir), ID: filepath.ToSlash(rel), State: Verified, Kind: "unknown"}
	e.Anchor = strings.NewReplacer("/", "-", ".", "-").Replace(e.Dir)
	// One generation throughout, even if a run commits meanwhile.
	cur, err := results.OpenFolder(dir).Current()
	if err != nil {
		e.flag(Unreadable, "the folder cannot be opened: %v", err)
		return e
	}
	man, err := results.ReadManifest(filepath.Join(cur, results.ManifestFile))
	if err != nil {
		e.flag(Unreadable, "manifest.json cannot be read, so nothing in this folder can be verified: %v", oneLine(err))
		return e
	}
	e.Manifest, e.ID, e.Quick, e.cur = man, man.Experiment, man.Quick, cur
	e.Kind = map[bool]string{true: "QUICK", false: "full"}[man.Quick]
	if s, ok := experiments.Lookup(man.Experiment); ok {
		e.Title = s.Title
	}
	if len(man.Outputs) == 0 {
		e.flag(Incomplete, "the manifest lists no outputs (written by an older vbw), so nothing in this folder can be verified; run the config again")
	}
	// Every listed file, read once; the bytes the page uses are kept.
	good := map[string][]byte{}
	e.bad = map[string]string{}
	for _, o := range man.Outputs {
		data, err := man.ReadOutput(cur, o.Name)
		switch {
		case err == nil:
			if usedOnPage(o.Name) {
				good[o.Name] = data
			}
		case errors.Is(err, fs.ErrNotExist):
			e.bad[o.Name] = "missing"
			e.flag(Incomplete, "%s is missing", o.Name)
		case errors.Is(err, results.ErrOutputChanged):
			e.bad[o.Name] = "changed after the run"
			e.flag(Tampered, "%s was changed after the run: its size or SHA-256 differs from the manifest's", o.Name)
		default:
			e.bad[o.Name] = "unreadable"
			e.flag(Unreadable, "%s cannot be read: %v", o.Name, oneLine(err))
		}
	}
	extra, err := man.Unlisted(cur)
	if err != nil {
		e.flag(Unreadable, "the folder cannot be listed: %v", oneLine(err))
	}
	for _, name := range extra {
		e.flag(Tampered, "%s is not in the manifest (put there after the run; not shown)", name)
	}
	var sum *results.Summary
	if b, ok := good[results.SummaryFile]; ok {
		var s results.Summary
		if err := results.DecodeJSON(results.SummaryFile, b, &s); err != nil {
			e.flag(Unreadable, "%v", oneLine(err))
		} else {
			sum = &s
		}
	} else if _, listed := man.Output(results.SummaryFile); !listed && len(man.Outputs) > 0 {
		e.flag(Incomplete, "the manifest lists no summary.json")
	}
	e.ManifestOK = e.crossCheck(man, sum, good[results.ConfigFile])
	if b, ok := good[results.ConfigFile]; ok && e.ManifestOK {
		e.Config = string(b)
	}
	if sum != nil && e.ManifestOK && e.verdictsHold(sum) {
		e.Trusted, e.Summary = true, *sum
		for _, c := range sum.Checks {
			switch {
			case c.NotApplicable:
				e.NotApplicable++
			case c.Pass:
				e.Passed++
			default:
				e.Failed++
				if sum.Quick {
					e.QuickFailures = append(e.QuickFailures, c)
				}
			}
		}
		e.Invalid = SanityFailures(*sum)
		e.Findings = sum.Findings
		if sum.Quick {
			_, e.Findings = splitFindings(*sum)
		}
	}
	e.files = good
	e.placeFigures(root, dir, good)
	e.recomputed(dir, cur)
	return e
}

// recomputed reads the record of the folder's last verification by
// recomputation (experiments.Verify) and, if it is of the folder's current
// manifest, says so; a recomputation that differed marks the folder
// tampered.
func (e *Experiment) recomputed(dir, cur string) {
	v := experiments.ReadVerification(dir)
	if v == nil {
		return
	}
	data, err := os.ReadFile(filepath.Join(cur, results.ManifestFile))
	if err != nil {
		return
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != v.ManifestSHA256 {
		return // a record of an earlier run
	}
	day, _, _ := strings.Cut(v.Time, "T")
	if v.OK && v.Whole {
		e.Recomputed = fmt.Sprintf("recomputed whole on %s: every table and check equal (build %s)", day, v.Build)
		return
	}
	if v.OK {
		e.Recomputed = fmt.Sprintf("recomputed on %s: %d of %d stored cells and every table and check equal (build %s)", day, len(v.Recomputed), v.Cells, v.Build)
		return
	}
	e.Recomputed = fmt.Sprintf("recomputation on %s differs (build %s)", day, v.Build)
	for _, p := range v.Problems {
		e.flag(Tampered, "vbw verify: %s", p)
	}
}

// crossCheck compares the manifest with what else records the run: the
// experiment, quick flag and config hash of a verified summary.json, the
// experiment of a verified config.toml, and the folder's place
// (<out>/<chapter>/<name>, or <out>/quick/<chapter>/<name> for a quick
// run). It flags every contradiction and reports whether there was none.
//
// What it cannot see: a manifest edited together with every file that
// records the same thing (and their SHA-256 in the manifest), and fields
// that only the manifest holds (seeds, start and wall time, versions,
// source revision, the data files' checksums, the config file's path).
func (e *Experiment) crossCheck(man *results.Manifest, sum *results.Summary, cfg []byte) bool {
	ok := true
	contradict := func(format string, args ...any) {
		ok = false
		e.flag(Tampered, "the manifest contradicts "+format, args...)
	}
	kind := func(quick bool) string { return map[bool]string{true: "a quick run", false: "a full run"}[quick] }
	if sum != nil {
		if sum.Experiment != man.Experiment {
			contradict("summary.json: experiment %s there, %s in the manifest", sum.Experiment, man.Experiment)
		}
		if sum.Quick != man.Quick {
			contradict("summary.json: %s there, %s in the manifest", kind(sum.Quick), kind(man.Quick))
		}
		if sum.ConfigHash != man.ConfigHash {
			contradict("summary.json: config hash %s there, %s in the manifest", sum.ConfigHash, man.ConfigHash)
		}
	}
	if cfg != nil {
		var head struct {
			Experiment string `toml:"experiment"`
		}
		if _, err := toml.Decode(string(cfg), &head); err != nil {
			e.flag(Unreadable, "config.toml matches the manifest but does not parse: %v", oneLine(err))
		} else if head.Experiment != man.Experiment {
			contradict("config.toml: experiment %s there, %s in the manifest", head.Experiment, man.Experiment)
		} else if spec, ok := experiments.Lookup(man.Experiment); ok && e.cur != "" {
			// The recorded config must be a config of the manifest's
			// experiment, and hash to the manifest's config hash.
			c := spec.NewConfig()
			if err := config.Load(filepath.Join(e.cur, results.ConfigFile), false, c); err != nil {
				contradict("config.toml: it is not a config of %s (%s)", man.Experiment, oneLine(err))
			} else if h, err := experiments.RunHash(c); err == nil && h != man.ConfigHash {
				contradict("config.toml: it hashes to %s, the manifest says %s", h, man.ConfigHash)
			}
		}
	}
	parts := strings.Split(e.Dir, "/")
	quickPlace := len(parts) == 3 && parts[0] == "quick"
	if chapter, _, _ := strings.Cut(man.Experiment, "/"); len(parts) >= 2 && parts[len(parts)-2] != chapter {
		contradict("the folder's place: experiment %s belongs in %s/, the folder is in %s/", man.Experiment, chapter, parts[len(parts)-2])
	}
	if quickPlace && !man.Quick {
		contradict("the folder's place: a full run in quick/, where vbw run -quick writes")
	}
	return ok
}

// verdictsHold checks that every check of the summary has the verdict its
// value and target give (a check that does not apply never passes), and
// flags each one that does not: a verdict flipped by hand. A check without
// a criterion ID (a summary written before criteria had IDs, whose target
// was free text) cannot be judged again and is taken as it is.
func (e *Experiment) verdictsHold(sum *results.Summary) bool {
	ok := true
	for _, c := range sum.Checks {
		if c.ID == "" {
			continue
		}
		if c.NotApplicable {
			if c.Pass {
				ok = false
				e.flag(Tampered, "check %s is marked both passed and not applicable", c.Key())
			}
			continue
		}
		t, err := results.ParseTarget(c.Target)
		if err != nil {
			ok = false
			e.flag(Tampered, "check %s: %v", c.Key(), err)
			continue
		}
		if t.Met(c.Value) != c.Pass {
			ok = false
			e.flag(Tampered, "check %s says %s, but its value %v %s its target %s", c.Key(), c.Verdict(), c.Value,
				map[bool]string{true: "meets", false: "does not meet"}[t.Met(c.Value)], c.Target)
		}
	}
	return ok
}

// placeFigures puts the verified SVG figures under the claims that name
// them (with the reason for each named figure that is not shown) and the
// rest under Other.
func (e *Experiment) placeFigures(root, dir string, good map[string][]byte) {
	figure := func(name string) Figure {
		rel, _ := filepath.Rel(root, filepath.Join(dir, name))
		return Figure{Stem: strings.TrimSuffix(name, ".svg"), Path: filepath.ToSlash(rel), SVG: good[name]}
	}
	used := map[string]bool{}
	anchors := map[string]bool{}
	for _, c := range e.Summary.Claims {
		cv := ClaimView{Claim: c, Verdict: ClaimVerdict(e.Summary, c), Anchor: e.Anchor + "-" + slug(c.Artifact)}
		for k := 2; anchors[cv.Anchor]; k++ {
			cv.Anchor = fmt.Sprintf("%s-%s-%d", e.Anchor, slug(c.Artifact), k)
		}
		anchors[cv.Anchor] = true
		for _, stem := range c.Figures {
			name := stem + ".svg"
			if _, ok := good[name]; ok {
				cv.Shown = append(cv.Shown, figure(name))
				used[name] = true
				continue
			}
			why, listed := e.bad[name]
			if _, inManifest := e.Manifest.Output(name); !inManifest && !listed {
				if slices.ContainsFunc(e.Manifest.Outputs, func(o results.Output) bool { return strings.HasPrefix(o.Name, stem+".") }) {
					continue // a table (table4_3.csv), not a figure
				}
				why = "not drawn (vbw plot draws it)"
				e.flag(Incomplete, "%s, which claim %q shows, was not drawn (run vbw plot)", name, c.Artifact)
			}
			cv.Withheld = append(cv.Withheld, name+": "+why)
		}
		if len(cv.Withheld) > 0 && cv.Verdict.Kind != NotJudged {
			// A figure the claim shows is not here: whatever its checks
			// say, the artefact is incomplete, not reproduced.
			cv.Verdict.Kind = NotJudged
			cv.Verdict.Reasons = append([]string{"incomplete: the figure it shows is not here (" + strings.Join(cv.Withheld, "; ") + ")"}, cv.Verdict.Reasons...)
		}
		e.Claims = append(e.Claims, cv)
	}
	for _, o := range e.Manifest.Outputs {
		if _, ok := good[o.Name]; ok && filepath.Ext(o.Name) == ".svg" && !used[o.Name] {
			e.Other = append(e.Other, figure(o.Name))
		}
	}
}

// slug makes an anchor of a claim's artefact: "Table 6.1, Figure 6.3"
// gives "table-6-1-figure-6-3".
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// oneLine joins the lines of an error's message.
func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }
