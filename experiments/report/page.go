package report

import (
	"fmt"
	"strings"
)

// pageHTML is the report page: one HTML file, no scripts, no external
// fonts; the figures are the SVG files of the results folders beside it,
// linked by relative path and loaded lazily, so the page stays small. It
// opens with the matrix of documents and verdicts, then each document's
// verdict table (one row per claim: the text's number, ours, whether it
// holds) and its extensions, then the runs. It reads on a narrow screen
// (the verdict tables turn into blocks below 40rem) and prints without
// clipping.
const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>vbw: reproduction report of Beal (2003), Lawrence (2000), PRML ch. 10, D'Souza (2004), Turner &amp; Sahani</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.4; margin: 0 auto; max-width: 76rem; padding: 1rem; color: #222; }
h1 { font-size: 1.45rem; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2rem; margin-top: 2.2rem; } h3 { margin-bottom: .3rem; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9em; overflow-wrap: anywhere; }
pre { background: #f6f6f6; padding: .6rem; overflow-x: auto; white-space: pre-wrap; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #ddd; padding: .25rem .45rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
table.verdicts { width: 100%; table-layout: fixed; font-size: .88rem; }
table.verdicts td, table.verdicts th { overflow-wrap: anywhere; }
table.verdicts col.artefact { width: 11%; } table.verdicts col.claim { width: 26%; } table.verdicts col.theirs { width: 26%; }
table.verdicts col.ours { width: 19%; } table.verdicts col.holds { width: 7%; } table.verdicts col.verdict { width: 11%; }
table.verdicts .verdict { overflow-wrap: normal; hyphens: none; font-size: .8rem; padding: .05rem .2rem; }
table.verdicts td.holds, table.verdicts td.doesnot, table.verdicts td.nj { overflow-wrap: normal; font-size: .8rem; }
table.verdicts tr.why td { border-top: none; padding-top: 0; }
table.matrix td.n { text-align: right; font-variant-numeric: tabular-nums; } table.matrix td.zero { color: #bbb; }
td.pass, .holds { color: #116611; } td.fail, .fail, .doesnot { color: #b00020; font-weight: bold; } td.na, .nj { color: #777; }
.badge { display: inline-block; font-size: .75rem; padding: .05rem .4rem; border-radius: .3rem; vertical-align: middle; }
.quick { background: #ffe0b2; color: #7a3e00; font-weight: bold; }
.error { color: #b00020; }
.state { font-weight: bold; } .state.verified { color: #116611; font-weight: normal; } .state.incomplete { color: #7a3e00; } .state.tampered, .state.unreadable { color: #b00020; }
td ul.problems { margin: .2rem 0 0; padding-left: 1.1rem; font-size: .8rem; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: .85rem; color: #555; }
.claim { margin: 1rem 0 1.5rem; } .claim > p { margin: .2rem 0 .5rem; }
small, .reasons { color: #666; } .reasons { font-size: .8rem; margin: .2rem 0 0; padding-left: 1rem; }
.verdict { display: inline-block; font-weight: bold; padding: .05rem .35rem; border-radius: .3rem; }
.verdict.reproduced { background: #d9f2d9; color: #115511; } .verdict.partly-reproduced { background: #fff1c2; color: #6b4e00; }
.verdict.not-reproduced { background: #fbd5d9; color: #8a0015; } .verdict.invalid { background: #3a3a3a; color: #fff; }
.verdict.not-judged { background: #eee; color: #555; } .verdict.not-run { background: #e3ecfa; color: #1d3d73; }
.coverage { font-size: .78rem; color: #555; margin: .2rem 0 0; }
nav#contents ul { list-style: none; padding: 0; } nav#contents li { display: inline-block; margin-right: 1rem; }
@media (max-width: 40rem) {
  body { padding: .4rem; } th, td { padding: .2rem .3rem; }
  table.matrix { font-size: .72rem; width: 100%; table-layout: fixed; } table.matrix th, table.matrix td { padding: .15rem .15rem; overflow-wrap: anywhere; }
  table.matrix .verdict { padding: 0 .1rem; font-size: .68rem; }
  table.verdicts, table.verdicts tbody, table.verdicts tr, table.verdicts td { display: block; width: auto; }
  table.verdicts thead, table.verdicts colgroup { display: none; }
  table.verdicts tr { border-top: 2px solid #ccc; margin-top: .4rem; }
  table.verdicts td { border: none; padding: .1rem .2rem; }
  table.verdicts td[data-label]::before { content: attr(data-label) ": "; font-weight: bold; color: #555; }
}
@media print {
  body { max-width: none; font-size: 10pt; }
  nav#contents { display: none; }
  section.runs { break-before: page; }
  section.experiment { break-before: page; }
  figure, tr { break-inside: avoid; }
  table.verdicts tr { break-inside: auto; }
  table.verdicts { font-size: 8.5pt; } table.verdicts .verdict { font-size: 7.5pt; }
  figure img { max-height: 16cm; width: auto; }
  h2, h3 { break-after: avoid; }
  details { display: block; } details > * { display: block; }
  a { color: inherit; text-decoration: none; }
}
</style>
</head>
<body>
<header>
<h1>Reproduction report: Beal (2003), <i>Variational Algorithms for Approximate Bayesian Inference</i>, and four documents beside it: Lawrence (2000), Bishop (2006, PRML chapter 10), D'Souza (2004), Turner &amp; Sahani (2011)</h1>
<p>Results in <code>{{.Dir}}</code>; page built {{.Generated}} from the stored results (nothing recomputed). The stored runs' wall times add up to {{seconds .WallSeconds}} (runs that shared one <code>vbw run</code>'s workers overlap: its own wall time is under Run times).{{if .AnyQuick}} <span class="badge quick">Some results are QUICK runs, not the texts' settings</span>{{end}}</p>
</header>
<section id="matrix">
<h2>At a glance</h2>
<div class="scroll"><table class="matrix">
<thead><tr><th>document</th>{{range $.Kinds}}<th><span class="verdict {{verdictClass .}}">{{.}}</span></th>{{end}}</tr></thead>
<tbody>
{{range .Documents}}{{$d := .}}<tr><td><a href="#doc-{{.ID}}">{{.Short}}</a></td>{{range $.Kinds}}{{$n := $d.Count .}}<td class="n{{if eq $n 0}} zero{{end}}">{{$n}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
<p><small>Figures and tables of each document by verdict. A verdict is computed from the texts' claims alone, each judged on every seed or data set of the run: <b>reproduced</b> (every claim holds), <b>partly reproduced</b>, <b>not reproduced</b> (none holds), <b>invalid</b> (a sanity check of the run failed: a bound that decreased, a data file that did not verify, so the run cannot judge its claims), <b>not judged</b> (a quick run, the user's own data, or nothing to compute), <b>not run</b>. Claims of ours that go past a text are in its extensions table.</small></p>
</section>
<nav id="contents"><ul>
{{range .Documents}}<li><a href="#doc-{{.ID}}">{{.Short}}</a></li>{{end}}<li><a href="#overview">the runs ({{len .Experiments}})</a></li>{{if .Missing}}<li><a href="#not-run">not run ({{len .Missing}})</a></li>{{end}}
</ul></nav>
{{range .Documents}}<section id="doc-{{.ID}}" class="document">
<h2>{{.Title}}</h2>
<p><small>{{.CountLine}}. One row per claim of the text: the text's number or ordering with its line, ours (over the seeds: median, range, and on how many the claim holds), and whether it holds.</small></p>
<table class="verdicts">
<colgroup><col class="artefact"><col class="claim"><col class="theirs"><col class="ours"><col class="holds"><col class="verdict"></colgroup>
<thead><tr><th>figure or table</th><th>claim</th><th>the text</th><th>ours</th><th>holds?</th><th>verdict</th></tr></thead>
<tbody>
{{range .Rows}}{{$a := .}}{{if .Short.Rows}}{{$n := rowspan $a.Short}}{{range $i, $c := .Short.Rows}}<tr>{{if eq $i 0}}<td rowspan="{{$n}}" data-label="figure or table">{{template "artefact" $a}}</td>{{end}}<td data-label="claim">{{$c.Claim}}</td><td data-label="the text">{{$c.Theirs}}</td><td data-label="ours">{{$c.Ours}}</td><td data-label="holds?" class="{{holdsClass $c}}">{{$c.Holds}}</td>{{if eq $i 0}}<td rowspan="{{$n}}" data-label="verdict"><span class="verdict {{verdictClass $a.Verdict.Kind}}">{{$a.Verdict.Kind}}</span></td>{{end}}</tr>
{{end}}{{template "more" $a}}{{template "whyA" $a}}{{else}}<tr><td data-label="figure or table">{{template "artefact" $a}}</td><td colspan="4" data-label="why">{{template "coverage" $a}}{{range $i, $r := .Short.Reasons}}{{if $i}}<br>{{end}}{{$r}}{{end}}{{template "morereasons" $a}}</td><td data-label="verdict"><span class="verdict {{verdictClass .Verdict.Kind}}">{{.Verdict.Kind}}</span></td></tr>
{{end}}{{end}}</tbody>
</table>
{{if .Extensions}}<h3 id="ext-{{.ID}}">Extensions: claims of ours beside {{.Short}}</h3>
<table class="verdicts">
<colgroup><col class="artefact"><col class="claim"><col class="theirs"><col class="ours"><col class="holds"><col class="verdict"></colgroup>
<thead><tr><th>extends</th><th>claim</th><th>the text</th><th>ours</th><th>holds?</th><th>verdict</th></tr></thead>
<tbody>
{{range .Extensions}}{{$x := .}}{{if .Short.Rows}}{{$n := rowspan $x.Short}}{{range $i, $c := .Short.Rows}}<tr>{{if eq $i 0}}<td rowspan="{{$n}}" data-label="extends">{{if $x.Link}}<a href="#{{$x.Link}}">{{$x.Label}}</a>{{else}}{{$x.Label}}{{end}}{{if $x.Quick}} <span class="badge quick">QUICK</span>{{end}}{{with $x.Where}}<br><small>{{.}}</small>{{end}}</td>{{end}}<td data-label="claim">{{$c.Claim}}</td><td data-label="the text">{{$c.Theirs}}</td><td data-label="ours">{{$c.Ours}}</td><td data-label="holds?" class="{{holdsClass $c}}">{{$c.Holds}}</td>{{if eq $i 0}}<td rowspan="{{$n}}" data-label="verdict"><span class="verdict {{verdictClass $x.Verdict.Kind}}">{{$x.Verdict.Kind}}</span></td>{{end}}</tr>
{{end}}{{template "more" $x}}{{template "why" $x}}{{else}}<tr><td data-label="extends">{{.Label}}{{with .Where}}<br><small>{{.}}</small>{{end}}</td><td colspan="4" data-label="why">{{range $i, $r := .Short.Reasons}}{{if $i}}<br>{{end}}{{$r}}{{end}}{{template "morereasons" $x}}</td><td data-label="verdict"><span class="verdict {{verdictClass .Verdict.Kind}}">{{.Verdict.Kind}}</span></td></tr>
{{end}}{{end}}</tbody>
</table>{{end}}
</section>
{{end}}
{{with .Atlas}}<section id="atlas">
<h2>Atlas: evidence error against the gold standard and cost</h2>
<p><small>Each cell: median |ln Z − gold| in nats [interquartile range] over data sets × seeds at the method's largest budget; its cost in operations (each row's unit) and CPU seconds; the posterior mean and variance errors where they apply; for a sampler, the fraction of estimates within 3 combined standard errors of the gold standard.</small></p>
<div class="scroll"><table>
<thead><tr><th>row</th>{{range .Methods}}<th>{{methodLabel .}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr><td><a href="#{{.Anchor}}">{{.Row}}</a>{{if .Quick}} <span class="badge quick">QUICK</span>{{end}}</td>{{if .Error}}<td colspan="{{len $.Atlas.Methods}}" class="error">{{.Error}}</td>{{else}}{{range .Cells}}<td>{{.}}</td>{{end}}{{end}}</tr>
{{end}}</tbody>
</table></div>
{{with .Reading}}<ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{range .Rows}}{{range .Figures}}<figure><a href="{{.Path}}"><img src="{{.Path}}" alt="{{.Stem}}" loading="lazy"></a><figcaption>{{.Stem}}</figcaption></figure>
{{end}}{{end}}</section>{{end}}
<section id="overview" class="runs">
<h2>The runs</h2>
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
{{with .Times}}<section id="run-times" class="runs">
<h2>Run times</h2>
<p><small>From the manifests (<code>bin/vbw report -times</code>, <code>make times</code>).</small></p>
<div class="scroll"><table>
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
{{range .Notes}}<p><small>{{.}}</small></p>
{{end}}</section>{{end}}
{{range .Experiments}}
<section class="experiment" id="{{.Anchor}}">
<h2>{{.ID}}{{if .Quick}} <span class="badge quick">QUICK run: reduced settings, not the text's</span>{{end}}</h2>
<p>{{.Title}} <small>(folder {{.Dir}})</small></p>
{{if .Problems}}<div class="error"><p><span class="state {{.State}}">{{.State}}</span>: this folder does not match its manifest; what does not match is not shown.</p>
<ul>{{range .Problems}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
{{with .Invalid}}<div class="error"><p><span class="verdict invalid">invalid</span> a sanity check of this run failed, so its claims are not judged on it:</p><ul>{{range .}}<li>{{.Name}}: {{value .}} (target {{.Target}})</li>{{end}}</ul></div>{{end}}
{{range .Claims}}<div class="claim">
<h3 id="{{.Anchor}}">{{.Artifact}}</h3>
<p><b>The text:</b> {{.Statement}}</p>
<p><span class="verdict {{verdictClass .Verdict.Kind}}">{{.Verdict.Kind}}</span>{{if and .Verdict.Judged (ne .Verdict.Kind "not judged")}} {{.Verdict.Passed}} of {{.Verdict.Judged}} claim checks hold{{end}}{{range .Verdict.Reasons}}<br><small>{{.}}</small>{{end}}</p>
{{range .Shown}}<figure><a href="{{.Path}}"><img src="{{.Path}}" alt="{{.Stem}}" loading="lazy"></a><figcaption>{{.Stem}} <small>({{.Path}})</small></figcaption></figure>
{{end}}{{range .Withheld}}<p class="error">Figure not shown: {{.}}</p>
{{end}}</div>
{{end}}{{range .Tables}}<div class="claim thesis-table" id="{{.Anchor}}">
<h3>{{.Label}} beside ours</h3>
<p>{{.Caption}}. The text's values from {{.Source}}; ours from this run; the difference is ours − the text's.</p>
{{if .Error}}<p class="error">Not shown: {{.Error}}</p>{{else}}{{with .Comparison}}<div class="scroll"><table class="compared">
<thead><tr><th rowspan="2">{{.Key}}</th>{{range .Columns}}<th colspan="3">{{.}}</th>{{end}}</tr>
<tr>{{range .Columns}}<th>text</th><th>ours</th><th>diff.</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr><th>{{.Key}}</th>{{range .Cells}}<td class="num">{{if .Thesis}}{{.Thesis}}{{else}}—{{end}}</td><td class="num">{{.OursString}}</td><td class="diff">{{.DiffString}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
{{with .Notes}}<ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}{{end}}{{end}}</div>
{{end}}{{if .Other}}<details class="claim other"><summary>Other figures ({{len .Other}})</summary>
{{range .Other}}<figure><a href="{{.Path}}"><img src="{{.Path}}" alt="{{.Stem}}" loading="lazy"></a><figcaption>{{.Stem}} <small>({{.Path}})</small></figcaption></figure>
{{end}}</details>{{end}}
<h3>Scorecard</h3>
{{if not .Trusted}}<p class="error">Not shown: summary.json is not verified (see above).</p>{{else if .Summary.Checks}}{{range groups .Summary.Checks}}{{if .Checks}}<h4>{{.Title}}</h4><div class="scroll"><table>
<thead><tr><th>check</th><th>result</th><th>value</th><th>target</th>{{if .Claims}}<th>the text</th>{{end}}</tr></thead>
<tbody>
{{$g := .}}{{range .Checks}}<tr><td>{{.Name}}</td><td class="{{checkClass .}}">{{.Verdict}}{{if .NotApplicable}}{{with .Why}}: {{.}}{{end}}{{end}}</td><td>{{value .}}</td><td>{{.Target}}</td>{{if $g.Claims}}<td>{{.Theirs}}{{with .Line}} ({{.}}){{end}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>{{end}}{{end}}{{else}}<p>No checks recorded.</p>{{end}}
{{with .QuickFailures}}<h3>Not judged: the failed checks of a quick run</h3>
<p>A quick run's settings are reduced, not the text's, so its failed checks are not findings: run the full config to judge them.</p>
<ul>{{range .}}<li>{{.Name}}: {{value .}} (target {{.Target}})</li>{{end}}</ul>{{end}}
{{if .Findings}}<h3>{{if .Quick}}Notes on this quick run{{else}}Findings: where the results differ from the text{{end}}</h3>
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
{{define "artefact"}}{{if .Link}}<a href="#{{.Link}}">{{.Label}}</a>{{else}}{{.Label}}{{end}}{{if .Quick}} <span class="badge quick">QUICK</span>{{end}}<br><small>{{.Caption}}</small>{{end}}
{{define "coverage"}}{{with .Judged}}<p class="coverage">judged: {{.}}</p>{{end}}{{with .NotAttempted}}<p class="coverage">not attempted: {{.}}</p>{{end}}{{end}}
{{define "whyA"}}{{if or .Short.Reasons .Judged .NotAttempted}}<tr class="why"><td colspan="6" data-label="why">{{template "coverage" .}}{{with .Short.Reasons}}<ul class="reasons">{{range .}}<li>{{.}}</li>{{end}}{{with $.Short.MoreReasons}}<li>{{if $.Link}}<a href="#{{$.Link}}">{{end}}and {{.}} more in the run's section{{if $.Link}}</a>{{end}}</li>{{end}}</ul>{{end}}</td></tr>
{{end}}{{end}}
{{define "more"}}{{if .Short.MoreRows}}<tr class="more"><td colspan="4" data-label="more">{{if .Link}}<a href="#{{.Link}}">{{end}}{{moreRows .Short}}{{if .Link}}</a>{{end}}</td></tr>
{{end}}{{end}}
{{define "why"}}{{with .Short.Reasons}}<tr class="why"><td colspan="6" data-label="why"><ul class="reasons">{{range .}}<li>{{.}}</li>{{end}}{{with $.Short.MoreReasons}}<li>{{if $.Link}}<a href="#{{$.Link}}">{{end}}and {{.}} more in the run's section{{if $.Link}}</a>{{end}}</li>{{end}}</ul></td></tr>
{{end}}{{end}}
{{define "morereasons"}}{{with .Short.MoreReasons}}<br>{{if $.Link}}<a href="#{{$.Link}}">{{end}}and {{.}} more in the run's section{{if $.Link}}</a>{{end}}{{end}}{{end}}
{{define "verdict"}}<span class="verdict {{verdictClass .Kind}}">{{.Kind}}</span>{{with .Reasons}}<ul class="reasons">{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}{{end}}
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
	fmt.Fprintf(&b, "# Reproduction report: Beal (2003), and Lawrence (2000), Bishop (2006, PRML chapter 10), D'Souza (2004), Turner & Sahani (2011)\n\nResults in `%s`; built %s from the stored results. The stored runs' wall times add up to %s (runs that shared one `vbw run`'s workers overlap: its own wall time is under Run times).", r.Dir, r.Generated, Seconds(r.WallSeconds))
	if r.AnyQuick {
		b.WriteString(" **Some results are QUICK runs, not the texts' settings.**")
	}
	b.WriteString("\n\n## At a glance\n\n| document |")
	for _, k := range r.Kinds {
		b.WriteString(" " + k + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(r.Kinds)) + "\n")
	for _, d := range r.Documents {
		fmt.Fprintf(&b, "| [%s](#doc-%s) |", esc(d.Short()), d.ID)
		for _, k := range r.Kinds {
			fmt.Fprintf(&b, " %d |", d.Count(k))
		}
		b.WriteString("\n")
	}
	b.WriteString("\nA verdict is computed from the texts' claims alone, each judged on every seed or data set of the run; a run whose sanity check failed is invalid. Claims of ours that go past a text are in its extensions table.\n")
	for _, d := range r.Documents {
		markdownDocument(&b, d, esc)
	}
	if r.Atlas != nil {
		markdownAtlas(&b, r.Atlas, esc)
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
	if r.TimesMarkdown != "" {
		b.WriteString("\n<a id=\"run-times\"></a>\n## Run times\n\nFrom the manifests (`bin/vbw report -times`, `make times`).\n\n")
		// The table's text comes from the manifests: no raw tag.
		b.WriteString(strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(r.TimesMarkdown))
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
			fmt.Fprintf(&b, "\n<a id=\"%s\"></a>\n### %s\n\n**The text:** %s\n\n**Verdict: %s**", c.Anchor, esc(c.Artifact), esc(c.Statement), c.Verdict.Kind)
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
	fmt.Fprintf(b, "\n<a id=\"doc-%s\"></a>\n## %s\n\n", d.ID, esc(d.Title))
	b.WriteString(d.CountLine())
	b.WriteString(". One row per claim of the text: the text's number with its line, ours, whether it holds.\n\n| figure or table | claim | the text | ours | holds? | verdict |\n|---|---|---|---|---|---|\n")
	for _, row := range d.Rows {
		label := row.Label
		if row.Link != "" {
			label = fmt.Sprintf("[%s](#%s)", row.Label, row.Link)
		}
		if row.Quick {
			label += " (QUICK)"
		}
		if row.Judged != "" {
			label += "; judged: " + row.Judged
		}
		if row.NotAttempted != "" {
			label += "; not attempted: " + row.NotAttempted
		}
		markdownRows(b, esc(label), row.Verdict, esc)
	}
	if len(d.Extensions) > 0 {
		fmt.Fprintf(b, "\n### Extensions: claims of ours beside %s\n\n| extends | claim | the text | ours | holds? | verdict |\n|---|---|---|---|---|---|\n", esc(d.Short()))
		for _, x := range d.Extensions {
			label := x.Label
			if x.Link != "" {
				label = fmt.Sprintf("[%s](#%s)", x.Label, x.Link)
			}
			if x.Where != "" {
				label += " (`" + x.Where + "`)"
			}
			markdownRows(b, esc(label), x.Verdict, esc)
		}
	}
}

// markdownRows writes the rows of one artefact (or extension) label: one
// per claim check, the verdict and its reasons in the first.
func markdownRows(b *strings.Builder, label string, v Verdict, esc func(string) string) {
	verdict := "**" + v.Kind + "**"
	if len(v.Reasons) > 0 {
		verdict += ": " + esc(strings.Join(v.Reasons, "; "))
	}
	if len(v.Rows) == 0 {
		fmt.Fprintf(b, "| %s | | | | | %s |\n", label, verdict)
		return
	}
	for i, c := range v.Rows {
		first, last := "", ""
		if i == 0 {
			first, last = label, verdict
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", first, esc(c.Claim()), esc(c.Theirs()), esc(c.Ours()), esc(c.Holds), last)
	}
}

// markdownTable writes a document's table beside ours.
func markdownTable(b *strings.Builder, t TableView, esc func(string) string) {
	fmt.Fprintf(b, "\n<a id=\"%s\"></a>\n### %s beside ours\n\n%s. The text's values from %s; ours from this run; the difference is ours − the text's.\n\n", t.Anchor, esc(t.Label), esc(t.Caption), esc(t.Source))
	if t.Error != "" {
		fmt.Fprintf(b, "Not shown: %s\n", esc(t.Error))
		return
	}
	c := t.Comparison
	b.WriteString("| " + esc(c.Key))
	for _, col := range c.Columns {
		fmt.Fprintf(b, " | %s (text) | %[1]s (ours) | diff.", esc(col))
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
