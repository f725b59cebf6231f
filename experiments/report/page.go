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
<li><a href="#overview">Overview</a></li>
{{range .Experiments}}<li><a href="#{{.Anchor}}">{{.ID}}</a>{{if .Quick}} <span class="badge quick">QUICK</span>{{end}} <small>{{.Dir}}</small></li>
{{end}}{{if .Missing}}<li><a href="#not-run">Not run</a></li>{{end}}
</ol>
</nav>
<section id="overview">
<h2>Overview</h2>
<div class="scroll"><table>
<thead><tr><th>experiment</th><th>run</th><th>files against the manifest</th><th>checks passed</th><th>failed</th><th>not applicable or not computed</th><th>wall time</th></tr></thead>
<tbody>
{{range .Experiments}}<tr><td><a href="#{{.Anchor}}">{{.ID}}</a> <small>{{.Dir}}</small></td><td>{{if .Quick}}<span class="badge quick">QUICK</span>{{else}}{{.Kind}}{{end}}</td><td><span class="state {{.State}}">{{.State}}</span>{{with .Problems}}<ul class="problems">{{range firstProblems .}}<li>{{.}}</li>{{end}}</ul>{{end}}</td>{{if .Trusted}}<td class="pass">{{.Passed}}</td><td{{if .Failed}} class="fail"{{end}}>{{.Failed}}</td><td class="na">{{.NotApplicable}}</td>{{else}}<td colspan="3" class="fail">not shown: summary.json is not verified</td>{{end}}<td>{{if .ManifestOK}}{{seconds .Manifest.WallSeconds}}{{end}}</td></tr>
{{end}}</tbody>
<tfoot><tr><th colspan="6">total</th><th>{{seconds .WallSeconds}}</th></tr></tfoot>
</table></div>
<p><small>A number or figure is shown only from a file whose size and SHA-256 match the folder's manifest.json. The manifest itself is checked against summary.json, config.toml and the folder's place; a consistent edit of all of them and of the recorded SHA-256 cannot be detected.</small></p>
{{if .Missing}}<h3 id="not-run">Not run</h3>
<ul>
{{range .Missing}}<li><code>{{.ID}}</code>: {{.Title}}.{{with .Note}} {{.}}.{{end}}{{with .Command}} Run it with <code>{{.}}</code>, then <code>bin/vbw report</code>.{{end}}</li>
{{end}}</ul>{{end}}
</section>
{{range .Experiments}}
<section class="experiment" id="{{.Anchor}}">
<h2>{{.ID}}{{if .Quick}} <span class="badge quick">QUICK run: reduced settings, not the thesis's</span>{{end}}</h2>
<p>{{.Title}} <small>(folder {{.Dir}})</small></p>
{{if .Problems}}<div class="error"><p><span class="state {{.State}}">{{.State}}</span>: this folder does not match its manifest; what does not match is not shown.</p>
<ul>{{range .Problems}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
{{range .Claims}}<div class="claim">
<h3>{{.Artifact}}</h3>
<p>{{.Statement}}</p>
{{range .Shown}}<figure><img src="{{.DataURI}}" alt="{{.Stem}}"><figcaption>{{.Stem}} <small>({{.Path}})</small></figcaption></figure>
{{end}}{{range .Withheld}}<p class="error">Figure not shown: {{.}}</p>
{{end}}</div>
{{end}}{{if .Other}}<div class="claim"><h3>Other figures</h3>
{{range .Other}}<figure><img src="{{.DataURI}}" alt="{{.Stem}}"><figcaption>{{.Stem}} <small>({{.Path}})</small></figcaption></figure>
{{end}}</div>{{end}}
<h3>Scorecard</h3>
{{if not .Trusted}}<p class="error">Not shown: summary.json is not verified (see above).</p>{{else if .Summary.Checks}}<div class="scroll"><table>
<thead><tr><th>check</th><th>result</th><th>value</th><th>target</th></tr></thead>
<tbody>
{{range .Summary.Checks}}<tr><td>{{.Name}}</td><td class="{{verdictClass .}}">{{.Verdict}}{{if .NotApplicable}}{{with .Why}}: {{.}}{{end}}{{end}}</td><td>{{value .}}</td><td>{{.Target}}</td></tr>
{{end}}</tbody>
</table></div>{{else}}<p>No checks recorded.</p>{{end}}
{{with .Summary.Findings}}<h3>Findings: where the results differ from the thesis</h3>
<ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
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
	b.WriteString("\n\n## Overview\n\n| experiment | run | files against the manifest | passed | failed | not applicable or not computed | wall time |\n|---|---|---|---|---|---|---|\n")
	for _, e := range r.Experiments {
		kind := e.Kind
		if e.Quick {
			kind = "**QUICK**"
		}
		state := e.State
		if e.State != Verified {
			state = "**" + e.State + "**: " + strings.Join(firstProblems(e.Problems), "; ")
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
	b.WriteString("\nA number or figure is shown only from a file whose size and SHA-256 match the folder's manifest.json.\n")
	if len(r.Missing) > 0 {
		b.WriteString("\n### Not run\n\n")
		for _, m := range r.Missing {
			fmt.Fprintf(&b, "- `%s`: %s.", m.ID, esc(m.Title))
			if m.Note != "" {
				fmt.Fprintf(&b, " %s.", esc(m.Note))
			}
			if m.Command != "" {
				fmt.Fprintf(&b, " Run it with `%s`.", m.Command)
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
			fmt.Fprintf(&b, "\n### %s\n\n%s\n", esc(c.Artifact), esc(c.Statement))
			for _, f := range c.Shown {
				fmt.Fprintf(&b, "\n![%s](%s)\n", f.Stem, f.Path)
			}
			for _, w := range c.Withheld {
				fmt.Fprintf(&b, "\n**Figure not shown:** %s\n", esc(w))
			}
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
		if len(e.Summary.Findings) > 0 {
			b.WriteString("\n### Findings: where the results differ from the thesis\n\n")
			for _, f := range e.Summary.Findings {
				fmt.Fprintf(&b, "- %s\n", esc(f))
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
