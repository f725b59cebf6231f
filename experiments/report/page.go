package report

import (
	"fmt"
	"strings"
)

// pageHTML is the report page: one file, no scripts, no external fonts or
// files (figures are data: URIs), readable on a narrow screen and printable.
const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>vbw: reproduction report of Beal (2003)</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.45; margin: 0 auto; max-width: 72rem; padding: 1rem; color: #222; }
h1 { font-size: 1.6rem; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2rem; margin-top: 2.5rem; } h3 { margin-bottom: .3rem; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9em; }
pre { background: #f6f6f6; padding: .6rem; overflow-x: auto; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #ddd; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.pass { color: #116611; } td.fail, .fail { color: #b00020; font-weight: bold; } td.na { color: #777; }
.badge { display: inline-block; font-size: .75rem; padding: .05rem .4rem; border-radius: .3rem; vertical-align: middle; }
.quick { background: #ffe0b2; color: #7a3e00; font-weight: bold; }
.error { color: #b00020; }
.state { font-weight: bold; } .state.verified { color: #116611; font-weight: normal; } .state.incomplete { color: #7a3e00; } .state.tampered, .state.unreadable { color: #b00020; }
td ul.problems { margin: .2rem 0 0; padding-left: 1.1rem; font-size: .8rem; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: .85rem; color: #555; }
.claim { margin: 1rem 0 1.5rem; }
.claim > p { margin: .2rem 0 .5rem; }
small { color: #666; }
.verdict { display: inline-block; font-weight: bold; padding: .05rem .4rem; border-radius: .3rem; white-space: nowrap; }
.verdict.reproduced { background: #d9f2d9; color: #115511; } .verdict.partly-reproduced { background: #fff1c2; color: #6b4e00; }
.verdict.not-reproduced { background: #fbd5d9; color: #8a0015; } .verdict.not-judged { background: #eee; color: #555; } .verdict.not-run { background: #e3ecfa; color: #1d3d73; }
.thesis-claim { margin: .2rem 0 .4rem; } .thesis-claim b { color: #444; }
.ours { margin: .2rem 0 .6rem; } .ours ul { margin: .2rem 0; font-size: .9rem; }
table.compared td.num { text-align: right; font-variant-numeric: tabular-nums; } table.compared td.diff { color: #555; text-align: right; }
ul.counts { list-style: none; padding: 0; } ul.counts li { display: inline-block; margin-right: .8rem; }
@media (max-width: 40rem) { body { padding: .5rem; } th, td { padding: .2rem .3rem; } }
@media print {
  nav#contents { display: none; }
  section.experiment { break-before: page; }
  figure, tr { break-inside: avoid; }
  figure img { max-height: 17cm; width: auto; }
  h2, h3 { break-after: avoid; }
  details { display: block; } details > * { display: block; }
  a { color: inherit; text-decoration: none; }
}
</style>
</head>
<body>
<header>
<h1>Reproduction report: Beal (2003), <i>Variational Algorithms for Approximate Bayesian Inference</i></h1>
<p>Results in <code>{{.Dir}}</code>; page built {{.Generated}} from the stored results (nothing recomputed). Total run time {{seconds .WallSeconds}}.{{if .AnyQuick}} <span class="badge quick">Some results are QUICK runs, not the thesis's settings</span>{{end}}</p>
</header>
<nav id="contents">
<h2>Contents</h2>
<ol>
{{range .Documents}}<li><a href="#doc-{{.ID}}">Verdicts: {{.Title}}</a></li>
{{end}}<li><a href="#overview">Overview</a></li>
{{range .Experiments}}<li><a href="#{{.Anchor}}">{{.ID}}</a>{{if .Quick}} <span class="badge quick">QUICK</span>{{end}} <small>{{.Dir}}</small></li>
{{end}}{{if .Missing}}<li><a href="#not-run">Not run</a></li>{{end}}
</ol>
</nav>
{{range .Documents}}<section id="doc-{{.ID}}" class="document">
<h2>Verdicts: {{.Title}}</h2>
<ul class="counts">{{range .Counts}}<li><span class="verdict {{verdictClass .Kind}}">{{.Kind}}</span> {{.N}}</li>{{end}}</ul>
<div class="scroll"><table class="verdicts">
<thead><tr><th>figure or table</th><th>what it shows</th><th>verdict</th><th>checks passed</th><th>why, or how to run it</th></tr></thead>
<tbody>
{{range .Rows}}<tr><td>{{if .Link}}<a href="#{{.Link}}">{{.Label}}</a>{{else}}{{.Label}}{{end}}</td><td>{{.Caption}}{{with .Where}} <small>({{join . ", "}})</small>{{end}}</td><td><span class="verdict {{verdictClass .Verdict.Kind}}">{{.Verdict.Kind}}</span></td><td>{{if .Verdict.Judged}}{{.Verdict.Passed}} of {{.Verdict.Judged}}{{if .Quick}} would pass{{end}}{{end}}</td><td>{{range $i, $r := .Verdict.Reasons}}{{if $i}}<br>{{end}}{{$r}}{{end}}</td></tr>
{{end}}</tbody>
</table></div>
<p><small>Each verdict is computed from the acceptance criteria of the runs in this folder: reproduced (every check of the claims that name it passed), partly reproduced (some did), not reproduced (none did), not judged (a quick run, a check that does not apply, or nothing to compute), not run (no results here). Expected times are the configs' work estimates at 10<sup>9</sup> operations a core-second, upper bounds that take every fit to its iteration cap.</small></p>
</section>
{{end}}<section id="overview">
<h2>Overview</h2>
<div class="scroll"><table>
<thead><tr><th>experiment</th><th>run</th><th>files against the manifest</th><th>checks passed</th><th>failed</th><th>not applicable or not computed</th><th>wall time</th></tr></thead>
<tbody>
{{range .Experiments}}<tr><td><a href="#{{.Anchor}}">{{.ID}}</a> <small>{{.Dir}}</small></td><td>{{if .Quick}}<span class="badge quick">QUICK</span>{{else}}{{.Kind}}{{end}}</td><td><span class="state {{.State}}">{{.State}}</span>{{with .Recomputed}}<br><small>{{.}}</small>{{end}}{{with .Problems}}<ul class="problems">{{range firstProblems .}}<li>{{.}}</li>{{end}}</ul>{{end}}</td>{{if .Trusted}}<td class="pass">{{.Passed}}</td><td{{if .Failed}} class="fail"{{end}}>{{.Failed}}</td><td class="na">{{.NotApplicable}}</td>{{else}}<td colspan="3" class="fail">not shown: summary.json is not verified</td>{{end}}<td>{{if .ManifestOK}}{{seconds .Manifest.WallSeconds}}{{end}}</td></tr>
{{end}}</tbody>
<tfoot><tr><th colspan="6">total</th><th>{{seconds .WallSeconds}}</th></tr></tfoot>
</table></div>
<p><small>A number or figure is shown only from a file whose size and SHA-256 match the folder's manifest.json. The manifest itself is checked against summary.json, config.toml and the folder's place; a consistent edit of all of them and of the recorded SHA-256 is found only by recomputation: <code>bin/vbw verify -out DIR all</code> recomputes a sample of each folder's cells from its recorded config and seeds and compares every table and check bit for bit, and the folders so verified say when.</small></p>
{{if .Missing}}<h3 id="not-run">Not run</h3>
<ul>
{{range .Missing}}<li><code>{{.ID}}</code>: {{.Title}}.{{with .Note}} {{.}}.{{end}}{{with .Command}} Run it with <code>{{.}}</code>{{end}}{{with .Make}} (or with its chapter, <code>{{.}}</code>){{end}}{{with .Time}}, expected {{.}}{{end}}{{if .Command}}, then <code>bin/vbw report</code>.{{end}}</li>
{{end}}</ul>{{end}}
</section>
{{range .Experiments}}
<section class="experiment" id="{{.Anchor}}">
<h2>{{.ID}}{{if .Quick}} <span class="badge quick">QUICK run: reduced settings, not the thesis's</span>{{end}}</h2>
<p>{{.Title}} <small>(folder {{.Dir}})</small></p>
{{if .Problems}}<div class="error"><p><span class="state {{.State}}">{{.State}}</span>: this folder does not match its manifest; what does not match is not shown.</p>
<ul>{{range .Problems}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
{{range .Claims}}<div class="claim">
<h3 id="{{.Anchor}}">{{.Artifact}}</h3>
<p class="thesis-claim"><b>Thesis:</b> {{.Statement}}</p>
<div class="ours"><span class="verdict {{verdictClass .Verdict.Kind}}">{{.Verdict.Kind}}</span>{{if and .Verdict.Judged (ne .Verdict.Kind "not judged")}} {{.Verdict.Passed}} of {{.Verdict.Judged}} checks passed{{end}}{{range .Verdict.Reasons}}<br>{{.}}{{end}}
{{with .Verdict.Values}}<details{{if le (len .) 6}} open{{end}}><summary>Our values ({{len .}})</summary><ul>{{range .}}<li>{{.}}</li>{{end}}</ul></details>{{end}}</div>
{{range .Shown}}<figure><img src="{{.DataURI}}" alt="{{.Stem}}"><figcaption>{{.Stem}} <small>({{.Path}})</small></figcaption></figure>
{{end}}{{range .Withheld}}<p class="error">Figure not shown: {{.}}</p>
{{end}}</div>
{{end}}{{range .Tables}}<div class="claim thesis-table" id="{{.Anchor}}">
<h3>{{.Label}} beside ours</h3>
<p>{{.Caption}}. The thesis's values from {{.Source}}; ours from this run; the difference is ours − the thesis's.</p>
{{if .Error}}<p class="error">Not shown: {{.Error}}</p>{{else}}{{with .Comparison}}<div class="scroll"><table class="compared">
<thead><tr><th rowspan="2">{{.Key}}</th>{{range .Columns}}<th colspan="3">{{.}}</th>{{end}}</tr>
<tr>{{range .Columns}}<th>thesis</th><th>ours</th><th>diff.</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr><th>{{.Key}}</th>{{range .Cells}}<td class="num">{{if .Thesis}}{{.Thesis}}{{else}}—{{end}}</td><td class="num">{{.OursString}}</td><td class="diff">{{.DiffString}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
{{with .Notes}}<ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}{{end}}{{end}}</div>
{{end}}{{if .Other}}<div class="claim other"><h3>Other figures</h3>
{{range .Other}}<figure><img src="{{.DataURI}}" alt="{{.Stem}}"><figcaption>{{.Stem}} <small>({{.Path}})</small></figcaption></figure>
{{end}}</div>{{end}}
<h3>Scorecard</h3>
{{if not .Trusted}}<p class="error">Not shown: summary.json is not verified (see above).</p>{{else if .Summary.Checks}}<div class="scroll"><table>
<thead><tr><th>check</th><th>result</th><th>value</th><th>target</th></tr></thead>
<tbody>
{{range .Summary.Checks}}<tr><td>{{.Name}}</td><td class="{{checkClass .}}">{{.Verdict}}{{if .NotApplicable}}{{with .Why}}: {{.}}{{end}}{{end}}</td><td>{{value .}}</td><td>{{.Target}}</td></tr>
{{end}}</tbody>
</table></div>{{else}}<p>No checks recorded.</p>{{end}}
{{with .QuickFailures}}<h3>Not judged: the failed checks of a quick run</h3>
<p>A quick run's settings are reduced, not the thesis's, so its failed checks are not findings: run the full config to judge them.</p>
<ul>{{range .}}<li>{{.Name}}: {{value .}} (target {{.Target}})</li>{{end}}</ul>{{end}}
{{if .Findings}}<h3>{{if .Quick}}Notes on this quick run{{else}}Findings: where the results differ from the thesis{{end}}</h3>
<ul>{{range .Findings}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{with .Summary.Warnings}}<details><summary>Warnings ({{len .}})</summary>
<ul>{{range .}}<li>{{.}}</li>{{end}}</ul></details>{{end}}
<h3>Provenance</h3>
{{if not .ManifestOK}}<p class="error">Not shown: the manifest is unreadable or contradicted (see above).</p>{{end}}
{{if .ManifestOK}}{{with .Manifest}}<div class="scroll"><table>
<tr><th>config</th><td><code>{{.Config}}</code>, hash <code>{{.ConfigHash}}</code></td></tr>
<tr><th>seed</th><td>{{.Seed}}</td></tr>
<tr><th>run</th><td>{{if .Quick}}<span class="badge quick">QUICK</span>{{else}}full{{end}}, started {{.Start}}, {{seconds .WallSeconds}}, status {{.Status}}</td></tr>
<tr><th>source</th><td>{{if .VCS.Revision}}<code>{{short .VCS.Revision}}</code>{{if .VCS.Modified}} (with uncommitted changes){{end}}{{else}}revision unknown{{end}}, {{.MainModule.Path}}, {{.GoVersion}}</td></tr>
<tr><th>data</th><td>{{range .Data}}<code>{{.File}}</code> ({{if .Checked}}verified{{else}}<strong>not checked</strong>{{end}}) {{end}}</td></tr>
</table></div>
<details><summary>Run seeds</summary><p>{{seeds .}}</p></details>
<details><summary>Modules ({{len .Modules}})</summary><ul>{{range .Modules}}<li><code>{{.Path}} {{.Version}}</code></li>{{end}}</ul></details>
{{end}}{{end}}{{with .Config}}<details><summary>Resolved config (config.toml)</summary><pre>{{.}}</pre></details>{{end}}
</section>
{{end}}
</body>
</html>
`

// firstProblems returns the first three problems, and a line that counts
// the others, for the overview.
func firstProblems(p []string) []string {
	if len(p) <= 3 {
		return p
	}
	return append(p[:3:3], fmt.Sprintf("and %d more (see the section)", len(p)-3))
}

// markdown renders the report as Markdown for a repository browser, with
// figures linked (relative paths) rather than inlined.
func markdown(r *Report) string {
	var b strings.Builder
	esc := func(s string) string {
		return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", ">", "&gt;").Replace(s)
	}
	fmt.Fprintf(&b, "# Reproduction report: Beal (2003)\n\nResults in `%s`; built %s from the stored results. Total run time %s.", r.Dir, r.Generated, Seconds(r.WallSeconds))
	if r.AnyQuick {
		b.WriteString(" **Some results are QUICK runs, not the thesis's settings.**")
	}
	b.WriteString("\n")
	for _, d := range r.Documents {
		markdownDocument(&b, d, esc)
	}
	b.WriteString("\n## Overview\n\n| experiment | run | files against the manifest | passed | failed | not applicable or not computed | wall time |\n|---|---|---|---|---|---|---|\n")
	for _, e := range r.Experiments {
		kind := e.Kind
		if e.Quick {
			kind = "**QUICK**"
		}
		state := e.State
		if e.State != Verified {
			state = "**" + e.State + "**: " + strings.Join(firstProblems(e.Problems), "; ")
		}
		if e.Recomputed != "" {
			state += "; " + e.Recomputed
		}
		counts := "not shown | not shown | not shown"
		if e.Trusted {
			counts = fmt.Sprintf("%d | %d | %d", e.Passed, e.Failed, e.NotApplicable)
		}
		wall := ""
		if e.ManifestOK {
			wall = Seconds(e.Manifest.WallSeconds)
		}
		fmt.Fprintf(&b, "| [%s](#%s) (`%s`) | %s | %s | %s | %s |\n", esc(e.ID), e.Anchor, esc(e.Dir), kind, esc(state), counts, wall)
	}
	b.WriteString("\nA number or figure is shown only from a file whose size and SHA-256 match the folder's manifest.json; `bin/vbw verify` recomputes a sample of a folder's cells and compares every table and check bit for bit, and the folders so verified say when.\n")
	if len(r.Missing) > 0 {
		b.WriteString("\n### Not run\n\n")
		for _, m := range r.Missing {
			fmt.Fprintf(&b, "- `%s`: %s.", m.ID, esc(m.Title))
			if m.Note != "" {
				fmt.Fprintf(&b, " %s.", esc(m.Note))
			}
			if m.Command != "" {
				fmt.Fprintf(&b, " Run it with `%s`", m.Command)
				if m.Make != "" {
					fmt.Fprintf(&b, " (or with its chapter, `%s`)", m.Make)
				}
				if m.Time != "" {
					fmt.Fprintf(&b, ", expected %s", m.Time)
				}
				b.WriteString(".")
			}
			b.WriteString("\n")
		}
	}
	for _, e := range r.Experiments {
		fmt.Fprintf(&b, "\n<a id=\"%s\"></a>\n## %s", e.Anchor, esc(e.ID))
		if e.Quick {
			b.WriteString(" (QUICK run: reduced settings)")
		}
		fmt.Fprintf(&b, "\n\n%s (folder `%s`)\n", esc(e.Title), esc(e.Dir))
		if len(e.Problems) > 0 {
			fmt.Fprintf(&b, "\n**%s**: this folder does not match its manifest; what does not match is not shown.\n\n", e.State)
			for _, p := range e.Problems {
				fmt.Fprintf(&b, "- %s\n", esc(p))
			}
		}
		for _, c := range e.Claims {
			fmt.Fprintf(&b, "\n<a id=\"%s\"></a>\n### %s\n\n**Thesis:** %s\n\n**Verdict: %s**", c.Anchor, esc(c.Artifact), esc(c.Statement), c.Verdict.Kind)
			if c.Verdict.Judged > 0 && c.Verdict.Kind != NotJudged {
				fmt.Fprintf(&b, " (%d of %d checks passed)", c.Verdict.Passed, c.Verdict.Judged)
			}
			b.WriteString("\n")
			for _, why := range c.Verdict.Reasons {
				fmt.Fprintf(&b, "\n- %s", esc(why))
			}
			if len(c.Verdict.Values) > 0 {
				b.WriteString("\n\nOur values:\n")
				for _, v := range c.Verdict.Values {
					fmt.Fprintf(&b, "\n- %s", esc(v))
				}
			}
			b.WriteString("\n")
			for _, f := range c.Shown {
				fmt.Fprintf(&b, "\n![%s](%s)\n", f.Stem, f.Path)
			}
			for _, w := range c.Withheld {
				fmt.Fprintf(&b, "\n**Figure not shown:** %s\n", esc(w))
			}
		}
		for _, t := range e.Tables {
			markdownTable(&b, t, esc)
		}
		if len(e.Other) > 0 {
			b.WriteString("\n### Other figures\n")
			for _, f := range e.Other {
				fmt.Fprintf(&b, "\n![%s](%s)\n", f.Stem, f.Path)
			}
		}
		b.WriteString("\n### Scorecard\n\n")
		if !e.Trusted {
			b.WriteString("Not shown: summary.json is not verified (see above).\n")
		} else {
			b.WriteString("| check | result | value | target |\n|---|---|---|---|\n")
		}
		for _, c := range e.Summary.Checks {
			v := "—"
			if !c.NotApplicable {
				v = fmt.Sprintf("%.4g", c.Value)
			}
			verdict := c.Verdict()
			if verdict == "FAIL" {
				verdict = "**FAIL**"
			}
			if c.NotApplicable && c.Why != "" {
				verdict += ": " + c.Why
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", esc(c.Name), esc(verdict), v, esc(c.Target))
		}
		if len(e.QuickFailures) > 0 {
			b.WriteString("\n### Not judged: the failed checks of a quick run\n\nA quick run's settings are reduced, not the thesis's, so its failed checks are not findings: run the full config to judge them.\n\n")
			for _, c := range e.QuickFailures {
				fmt.Fprintf(&b, "- %s: %.4g (target %s)\n", esc(c.Name), c.Value, esc(c.Target))
			}
		}
		if len(e.Findings) > 0 {
			if e.Quick {
				b.WriteString("\n### Notes on this quick run\n\n")
			} else {
				b.WriteString("\n### Findings: where the results differ from the thesis\n\n")
			}
			for _, f := range e.Findings {
				fmt.Fprintf(&b, "- %s\n", esc(f))
			}
		}
		if len(e.Summary.Warnings) > 0 {
			fmt.Fprintf(&b, "\n### Warnings (%d)\n\n", len(e.Summary.Warnings))
			for _, w := range e.Summary.Warnings {
				fmt.Fprintf(&b, "- %s\n", esc(w))
			}
		}
		if !e.ManifestOK {
			b.WriteString("\n### Provenance\n\nNot shown: the manifest is unreadable or contradicted (see above).\n")
		} else if m := e.Manifest; m != nil {
			rev := "unknown"
			if m.VCS.Revision != "" {
				rev = "`" + m.VCS.Revision + "`"
				if m.VCS.Modified {
					rev += " (with uncommitted changes)"
				}
			}
			fmt.Fprintf(&b, "\n### Provenance\n\n- config `%s`, hash `%s`, seed %d\n- started %s, %s, status %s\n- source revision %s, %s\n",
				esc(m.Config), m.ConfigHash, m.Seed, m.Start, Seconds(m.WallSeconds), esc(m.Status), rev, m.GoVersion)
			for _, d := range m.Data {
				state := "verified"
				if !d.Checked {
					state = "**not checked**"
				}
				fmt.Fprintf(&b, "- data `%s` (%s)\n", esc(d.File), state)
			}
		}
	}
	return b.String()
}

// markdownDocument writes a document's verdict table.
func markdownDocument(b *strings.Builder, d DocumentView, esc func(string) string) {
	fmt.Fprintf(b, "\n<a id=\"doc-%s\"></a>\n## Verdicts: %s\n\n", d.ID, esc(d.Title))
	b.WriteString(d.CountLine())
	b.WriteString("\n\n| figure or table | what it shows | verdict | checks passed | why, or how to run it |\n|---|---|---|---|---|\n")
	for _, row := range d.Rows {
		label := row.Label
		if row.Link != "" {
			label = fmt.Sprintf("[%s](#%s)", row.Label, row.Link)
		}
		passed := ""
		if row.Verdict.Judged > 0 {
			passed = fmt.Sprintf("%d of %d", row.Verdict.Passed, row.Verdict.Judged)
			if row.Quick {
				passed += " would pass"
			}
		}
		fmt.Fprintf(b, "| %s | %s | **%s** | %s | %s |\n", label, esc(row.Caption), row.Verdict.Kind, passed, esc(strings.Join(row.Verdict.Reasons, "; ")))
	}
}

// markdownTable writes a document's table beside ours.
func markdownTable(b *strings.Builder, t TableView, esc func(string) string) {
	fmt.Fprintf(b, "\n<a id=\"%s\"></a>\n### %s beside ours\n\n%s. The thesis's values from %s; ours from this run; the difference is ours − the thesis's.\n\n", t.Anchor, esc(t.Label), esc(t.Caption), esc(t.Source))
	if t.Error != "" {
		fmt.Fprintf(b, "Not shown: %s\n", esc(t.Error))
		return
	}
	c := t.Comparison
	b.WriteString("| " + esc(c.Key))
	for _, col := range c.Columns {
		fmt.Fprintf(b, " | %s (thesis) | %[1]s (ours) | diff.", esc(col))
	}
	b.WriteString(" |\n|---" + strings.Repeat("|---|---|---", len(c.Columns)) + "|\n")
	for _, row := range c.Rows {
		b.WriteString("| " + esc(row.Key))
		for _, cell := range row.Cells {
			th := cell.Thesis
			if th == "" {
				th = "—"
			}
			fmt.Fprintf(b, " | %s | %s | %s", esc(th), esc(cell.OursString()), cell.DiffString())
		}
		b.WriteString(" |\n")
	}
	if len(c.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range c.Notes {
			fmt.Fprintf(b, "- %s\n", esc(n))
		}
	}
}
