package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vbworkbench/vbw/experiments"
	_ "github.com/vbworkbench/vbw/experiments/chapter3" // registers the experiments the report lists
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/experiments/report"
	"github.com/vbworkbench/vbw/results"
)

// hostile is a config value that must come out of the page escaped.
const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)>`

// svgFigure is a small valid SVG.
const svgFigure = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100"><rect x="10" y="10" width="180" height="80" fill="#369"/></svg>`

// fixture writes one results folder: summary, manifest (with outputs),
// config.toml and figures.
func fixture(t *testing.T, root, dir string, s results.Summary, quick bool, figs ...string) {
	t.Helper()
	d := filepath.Join(root, dir)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	s.Quick = quick
	cfg := fmt.Sprintf("experiment = %q\nname = %q\n", s.Experiment, hostile)
	if err := os.WriteFile(filepath.Join(d, results.ConfigFile), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	// The hash the config really has, which the report checks.
	if spec, ok := experiments.Lookup(s.Experiment); ok {
		c := spec.NewConfig()
		if err := config.Load(filepath.Join(d, results.ConfigFile), false, c); err != nil {
			t.Fatal(err)
		}
		h, err := experiments.RunHash(c)
		if err != nil {
			t.Fatal(err)
		}
		s.ConfigHash = h
	}
	if err := results.WriteJSON(filepath.Join(d, results.SummaryFile), s); err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		if err := os.WriteFile(filepath.Join(d, f+".svg"), []byte(svgFigure), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := results.NewManifest(s.Experiment, s.ConfigHash, 7, quick)
	m.Config = "configs/" + hostile + ".toml"
	m.WallSeconds = 1.5
	m.Status = "ok"
	outs, err := results.DescribeOutputs(d)
	if err != nil {
		t.Fatal(err)
	}
	m.Outputs = outs
	if err := results.WriteJSON(filepath.Join(d, results.ManifestFile), m); err != nil {
		t.Fatal(err)
	}
}

// fixtures builds a results folder with a full synthetic run (a passing
// and a failing check, a claim with its figure and a finding), a quick
// Alice run, and no other experiment.
func fixtures(t *testing.T) string {
	root := t.TempDir()
	syn := results.Summary{Experiment: "chapter3/synthetic", ConfigHash: "abc123",
		Claims:   []results.Claim{{Artifact: "Figure 3.2", Statement: "VB converges " + hostile, Figures: []string{"fig3_2"}, Checks: []string{"passing", "failing"}}},
		Findings: []string{"one check fails " + hostile}, Warnings: []string{"a warning of the run"}}
	syn.Judge(results.Criterion{ID: "passing", Text: "a passing check", Target: results.AtLeast(0)}, 1)
	syn.Judge(results.Criterion{ID: "failing", Text: "a failing check " + hostile, Target: results.Below(1)}, 2)
	syn.NotJudged(results.Criterion{ID: "na", Text: "a check that does not apply", Target: results.Equal(0)}, "not the thesis's data")
	if err := os.MkdirAll(filepath.Join(root, "chapter3", "synthetic"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "chapter3", "synthetic", "tbl.csv"), []byte("n,x,y\n10,1.5,7\n30,2,8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fixture(t, root, "chapter3/synthetic", syn, false, "fig3_2", "fig3_3")
	alice := results.Summary{Experiment: "chapter3/alice", ConfigHash: "def456"}
	alice.Judge(results.Criterion{ID: "fine", Text: "A fine", Target: results.AtLeast(0.85)}, 0.9)
	alice.Judge(results.Criterion{ID: "short", Text: "A quick failure", Target: results.AtLeast(0.85)}, 0.5)
	alice.AddFindingsFromChecks(map[string]string{"short": "the quick run is too short"})
	alice.Findings = append(alice.Findings, "A note of the quick run")
	alice.Claims = []results.Claim{{Artifact: "Figure 3.4", Statement: "VB discriminates", Checks: []string{"fine", "short"}}}
	fixture(t, root, "quick/chapter3/alice", alice, true, "fig3_4")
	return root
}

// element is a parsed HTML element.
type element struct {
	name  string
	attrs map[string]string
	text  string
}

// parse reads the page as (lenient) XML and returns its elements in order.
func parse(t *testing.T, page []byte) []element {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	var els []element
	var stack []int
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := element{name: strings.ToLower(tok.Name.Local), attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.attrs[strings.ToLower(a.Name.Local)] = a.Value
			}
			els = append(els, e)
			stack = append(stack, len(els)-1)
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			for _, i := range stack {
				els[i].text += string(tok)
			}
		}
	}
	return els
}

func TestReportStructure(t *testing.T) {
	root := fixtures(t)
	r, err := report.Build(root)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(root, report.HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(root, report.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	// Hostile text is escaped: no script element, no raw injected tag.
	if bytes.Contains(bytes.ToLower(page), []byte("<script")) || bytes.Contains(page, []byte("<img src=x")) {
		t.Fatal("hostile config text reached the page unescaped")
	}
	if !bytes.Contains(page, []byte("&lt;script&gt;")) {
		t.Fatal("the hostile text is not shown (escaped) at all")
	}
	if bytes.Contains(md, []byte("<script>")) {
		t.Fatal("hostile text unescaped in REPORT.md")
	}
	// No external resources: every src and href is a fragment or a
	// relative path to a figure of a results folder below the page, which
	// the page links rather than inlines.
	els := parse(t, page)
	local := func(ref string) bool {
		if strings.HasPrefix(ref, "#") {
			return true
		}
		if strings.Contains(ref, ":") || strings.HasPrefix(ref, "/") || strings.Contains(ref, "..") || !strings.HasSuffix(ref, ".svg") {
			return false
		}
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(ref)))
		return err == nil
	}
	var imgs, sections, tocLinks, overviewRows int
	ids := map[string]bool{}
	for _, e := range els {
		if id := e.attrs["id"]; id != "" {
			ids[id] = true
		}
		if src, ok := e.attrs["src"]; ok && !local(src) {
			t.Errorf("external src %q", src)
		}
		if href, ok := e.attrs["href"]; ok && !local(href) {
			t.Errorf("external href %q", href)
		}
		switch {
		case e.name == "img":
			imgs++
		case e.name == "section" && e.attrs["class"] == "experiment":
			sections++
		}
	}
	// Table of contents links resolve.
	for _, e := range els {
		if href := e.attrs["href"]; strings.HasPrefix(href, "#") {
			tocLinks++
			if !ids[href[1:]] {
				t.Errorf("link %s has no target", href)
			}
		}
	}
	for _, e := range els {
		if e.name == "tr" && strings.Contains(e.text, "chapter3/") && (strings.Contains(e.text, "full") || strings.Contains(e.text, "QUICK")) {
			overviewRows++
		}
	}
	// Every figure appears: three SVGs in the fixtures.
	if imgs != 3 {
		t.Errorf("%d images, want 3 (every fig*.svg)", imgs)
	}
	for _, e := range r.Experiments {
		if e.State != report.Verified || !e.Trusted || !e.ManifestOK || len(e.Problems) > 0 {
			t.Errorf("%s: %s %q; the fixtures are untouched", e.Dir, e.State, e.Problems)
		}
	}
	if sections != 2 || len(r.Experiments) != 2 {
		t.Errorf("%d experiment sections, %d experiments; want 2", sections, len(r.Experiments))
	}
	if overviewRows < 2 || tocLinks < 3 {
		t.Errorf("%d overview rows, %d links", overviewRows, tocLinks)
	}
	text := string(page)
	for _, want := range []string{
		"Figure 3.2", "VB converges", // the claim
		"FAIL", "pass", "n/a: not the thesis", // the verdicts
		"one check fails",                                                            // findings
		"QUICK",                                                                      // the quick run, marked
		"Not run", "bin/vbw run -out " + root + " configs/chapter3/model-order.toml", // a missing experiment and its command
		"hash <code>", // provenance
	} {
		if !strings.Contains(text, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The full run precedes the quick one, and the quick one is marked in
	// its heading.
	if i, j := strings.Index(text, `id="chapter3-synthetic"`), strings.Index(text, `id="quick-chapter3-alice"`); i < 0 || j < 0 || i > j {
		t.Errorf("section order: synthetic at %d, quick alice at %d", i, j)
	}
	for _, want := range []string{"## chapter3/alice (QUICK run", "![fig3_2](chapter3/synthetic/fig3_2.svg)", "**FAIL**"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
}

func TestReportWithoutResultsFails(t *testing.T) {
	_, err := report.Build(t.TempDir())
	if !errors.Is(err, report.ErrNoResults) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("empty folder: %v, want a one-line ErrNoResults", err)
	}
}

// TestReportInBrowser loads the page in headless Chromium from disk and
// checks that every figure rendered with a non-zero size and that the
// page raised no errors. A probe script is appended to a copy of the page
// (the page itself has none); it writes what it measured into the DOM,
// which Chromium dumps.
func TestReportInBrowser(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no Chromium in CI: .ci/run should have installed it (apt-get install chromium)")
		}
		t.Skip("no Chromium installed (Debian: apt-get install chromium); .ci/run installs it")
	}
	root := fixtures(t)
	if _, err := report.Build(root); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(root, report.HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	probe := `<script>
window.__errors = [];
window.addEventListener("error", e => window.__errors.push(String(e.message || e.type)), true);
window.addEventListener("load", () => {
  const imgs = Array.from(document.images).map(i => ({w: i.naturalWidth, h: i.naturalHeight, cw: i.clientWidth, ch: i.clientHeight, ok: i.complete}));
  const shown = el => el && el.offsetWidth > 0 && el.offsetHeight > 0 && getComputedStyle(el).visibility !== "hidden";
  const claims = Array.from(document.querySelectorAll("div.claim:not(.other):not(.thesis-table)")).map(c => {
    const v = c.querySelector("p .verdict"), th = Array.from(c.querySelectorAll("p")).find(p => p.textContent.startsWith("The text:"));
    return {verdict: shown(v) ? v.textContent : "", thesis: shown(th)};
  });
  const tables = Array.from(document.querySelectorAll("div.thesis-table")).map(d => {
    const t = d.querySelector("table.compared");
    return {table: !!t && getComputedStyle(t).display === "table" && shown(t), rows: t ? t.tBodies[0].rows.length : 0,
      cols: t && t.tBodies[0].rows.length ? t.tBodies[0].rows[0].cells.length : 0};
  });
  const rows = Array.from(document.querySelectorAll("section.document tbody td[data-label=verdict] > .verdict")).map(v => shown(v) ? v.textContent : "");
  // Nothing of the verdict section is wider than the window: it reads on a
  // narrow screen and prints without clipping.
  let wide = [];
  for (const el of document.querySelectorAll("#matrix *, section.document *")) {
    const r = el.getBoundingClientRect();
    if (r.right > document.documentElement.clientWidth + 1) { wide.push(el.tagName + "." + el.className + " " + Math.round(r.right)); }
  }
  const pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify({imgs, claims, tables, rows, wide: wide.slice(0, 5), width: document.documentElement.clientWidth, errors: window.__errors});
  document.body.appendChild(pre);
});
</script>`
	// The probe measures every figure: load them at once, not lazily.
	probed := bytes.ReplaceAll(page, []byte(` loading="lazy"`), nil)
	probed = bytes.Replace(probed, []byte("</body>"), []byte(probe+"</body>"), 1)
	path := filepath.Join(root, "probe.html")
	if err := os.WriteFile(path, probed, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{1200, 420} {
		got := probePage(t, browser, root, path, width)
		checkProbe(t, width, got)
	}
}

// probeResult is what the probe of TestReportInBrowser measured.
type probeResult struct {
	Imgs []struct {
		W, H, CW, CH float64
		OK           bool
	}
	Claims []struct {
		Verdict string
		Thesis  bool
	}
	Tables []struct {
		Table      bool
		Rows, Cols int
	}
	Rows   []string
	Wide   []string
	Width  int
	Errors []string
}

// probePage loads the probed page in a window width pixels wide and
// returns what the probe measured.
func probePage(t *testing.T, browser, root, path string, width int) probeResult {
	t.Helper()
	cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		fmt.Sprintf("--window-size=%d,900", width), "--virtual-time-budget=5000", "--dump-dom", "file://"+path)
	cmd.Dir = root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium: %v\n%s", err, stderr.String())
		}
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		t.Fatal("chromium did not finish in 90 s")
	}
	dom := stdout.String()
	i := strings.Index(dom, `<pre id="probe">`)
	if i < 0 {
		t.Fatalf("the probe did not run; DOM:\n%.2000s\nstderr:\n%.2000s", dom, stderr.String())
	}
	body := dom[i+len(`<pre id="probe">`):]
	body = body[:strings.Index(body, "</pre>")]
	body = strings.NewReplacer("&quot;", `"`, "&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(body)
	var got probeResult
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("probe output %q: %v", body, err)
	}
	return got
}

// checkProbe checks what the probe measured in a window width wide: every
// claim shows the text's statement and a verdict; every artefact row a
// verdict; every table of the text renders as a table (the fixtures' Table
// 1.1: 3 rows of 7 cells); every figure renders; nothing of the verdict
// section is wider than the window.
func checkProbe(t *testing.T, width int, got probeResult) {
	t.Helper()
	verdicts := []string{report.Reproduced, report.PartlyReproduced, report.NotReproduced, report.Invalid, report.NotJudged, report.NotRun}
	if len(got.Claims) != 2 {
		t.Errorf("%d px: %d claims rendered, want 2", width, len(got.Claims))
	}
	for k, c := range got.Claims {
		if !slices.Contains(verdicts, c.Verdict) || !c.Thesis {
			t.Errorf("%d px: claim %d: verdict %q, labelled as the text's %v", width, k, c.Verdict, c.Thesis)
		}
	}
	if len(got.Rows) < 6 {
		t.Errorf("%d px: %d artefact rows rendered, want chapter 3's 4 and the test document's 2", width, len(got.Rows))
	}
	for k, v := range got.Rows {
		if !slices.Contains(verdicts, v) {
			t.Errorf("%d px: artefact row %d: verdict %q", width, k, v)
		}
	}
	if len(got.Tables) != 1 || !got.Tables[0].Table || got.Tables[0].Rows != 3 || got.Tables[0].Cols != 7 {
		t.Errorf("%d px: tables of the text rendered: %+v, want one table of 3 rows of 7 cells", width, got.Tables)
	}
	if len(got.Imgs) != 3 {
		t.Errorf("%d px: %d images rendered, want 3", width, len(got.Imgs))
	}
	for k, im := range got.Imgs {
		if !im.OK || im.W == 0 || im.H == 0 || im.CW == 0 || im.CH == 0 {
			t.Errorf("%d px: image %d did not render: %+v", width, k, im)
		}
	}
	if len(got.Wide) > 0 {
		t.Errorf("%d px (the page %d px wide): the verdict section is wider than the window: %q", width, got.Width, got.Wide)
	}
	if len(got.Errors) > 0 {
		t.Errorf("%d px: page errors: %q", width, got.Errors)
	}
}

// overviewRow returns the text of the overview's row of the folder dir.
func overviewRow(t *testing.T, page []byte, dir string) string {
	t.Helper()
	inOverview := false
	for _, e := range parse(t, page) {
		inOverview = inOverview || e.attrs["id"] == "overview"
		if inOverview && e.name == "tr" && strings.Contains(e.text, dir) {
			return e.text
		}
	}
	t.Fatalf("no overview row names %s", dir)
	return ""
}

// experimentIn returns the report's experiment in folder dir.
func experimentIn(t *testing.T, r *report.Report, dir string) report.Experiment {
	t.Helper()
	for _, e := range r.Experiments {
		if e.Dir == dir {
			return e
		}
	}
	t.Fatalf("no experiment in %s", dir)
	return report.Experiment{}
}

// editJSON rewrites the JSON file path with edit applied to its decoded
// content.
func editJSON[T any](t *testing.T, path string, edit func(*T)) {
	t.Helper()
	var v T
	if err := results.ReadJSON(path, &v); err != nil {
		t.Fatal(err)
	}
	edit(&v)
	if err := results.WriteJSON(path, &v); err != nil {
		t.Fatal(err)
	}
}

// rehash records the current files of dir in its manifest, as someone
// who edits a file and the manifest with it would.
func rehash(t *testing.T, dir string) {
	t.Helper()
	editJSON(t, filepath.Join(dir, results.ManifestFile), func(m *results.Manifest) {
		outs, err := results.DescribeOutputs(dir)
		if err != nil {
			t.Fatal(err)
		}
		m.Outputs = outs
	})
}

// TestReportBelievesOnlyWhatItVerified: each way of changing a results
// folder after its run is marked in the folder's overview row, and
// nothing from a file that does not match the manifest reaches the page.
func TestReportBelievesOnlyWhatItVerified(t *testing.T) {
	const syn, alice = "chapter3/synthetic", "quick/chapter3/alice"
	flip := func(t *testing.T, root string) {
		editJSON(t, filepath.Join(root, syn, results.SummaryFile), func(s *results.Summary) {
			for i := range s.Checks {
				s.Checks[i].Pass = !s.Checks[i].NotApplicable
			}
		})
	}
	for _, c := range []struct {
		name   string
		edit   func(t *testing.T, root string)
		dir    string // the folder whose row is checked
		state  string
		reason string // in the row (the first problems)
		check  func(t *testing.T, r *report.Report, e report.Experiment, page, md string)
	}{
		{name: "untouched", edit: func(*testing.T, string) {}, dir: syn, state: report.Verified,
			check: func(t *testing.T, r *report.Report, e report.Experiment, page, md string) {
				if !e.Trusted || e.Passed != 1 || e.Failed != 1 || e.NotApplicable != 1 || !e.ManifestOK {
					t.Errorf("untouched folder: %+v", e)
				}
			}},
		{name: "verdicts flipped", edit: flip, dir: syn, state: report.Tampered, reason: "summary.json was changed after the run",
			check: func(t *testing.T, r *report.Report, e report.Experiment, page, md string) {
				if e.Trusted || e.Passed+e.Failed != 0 || strings.Contains(page, "a failing check") {
					t.Errorf("the counts or checks of a changed summary are shown: %+v", e)
				}
			}},
		{name: "verdicts flipped and the manifest rehashed", edit: func(t *testing.T, root string) { flip(t, root); rehash(t, filepath.Join(root, syn)) },
			dir: syn, state: report.Tampered, reason: "check failing says pass, but its value 2 does not meet its target < 1",
			check: func(t *testing.T, r *report.Report, e report.Experiment, page, md string) {
				if e.Trusted || e.Passed != 0 || strings.Contains(page, "a failing check") {
					t.Errorf("flipped verdicts are counted: %+v", e)
				}
			}},
		{name: "a check of an older summary (no criterion ID, its target in words)", dir: syn, state: report.Verified,
			edit: func(t *testing.T, root string) {
				editJSON(t, filepath.Join(root, syn, results.SummaryFile), func(s *results.Summary) {
					s.Checks = append(s.Checks, results.Check{Name: "F rises", Pass: true, Value: 1, Target: "every iteration"})
				})
				rehash(t, filepath.Join(root, syn))
			},
			check: func(t *testing.T, r *report.Report, e report.Experiment, page, md string) {
				if !e.Trusted || e.Passed != 2 {
					t.Errorf("an older summary's check is not taken as it is: %+v", e)
				}
			}},
		{name: "manifest relabels a quick chapter 5 run as a full chapter 3 run", dir: "quick/chapter5/genes", state: report.Tampered,
			reason: "the manifest contradicts summary.json: experiment chapter5/genes there, chapter3/synthetic in the manifest",
			edit: func(t *testing.T, root string) {
				os.RemoveAll(filepath.Join(root, syn))
				genes := results.Summary{Experiment: "chapter5/genes", ConfigHash: "0123"}
				genes.Judge(results.Criterion{ID: "k", Text: "k recovered", Target: results.AtLeast(1)}, 0)
				fixture(t, root, "quick/chapter5/genes", genes, true)
				editJSON(t, filepath.Join(root, "quick/chapter5/genes", results.ManifestFile), func(m *results.Manifest) {
					m.Experiment, m.Quick = "chapter3/synthetic", false
				})
			},
			check: func(t *testing.T, r *report.Report, e report.Experiment, page, md string) {
				for _, want := range []string{"summary.json: a quick run there, a full run in the manifest", "config.toml: experiment chapter5/genes there",
					"experiment chapter3/synthetic belongs in chapter3/, the folder is in chapter5/", "a full run in quick/"} {
					if !slices.ContainsFunc(e.Problems, func(p string) bool { return strings.Contains(p, want) }) {
						t.Errorf("problems %q lack %q", e.Problems, want)
					}
				}
				if e.Trusted || e.ManifestOK || e.Config != "" {
					t.Errorf("a contradicted manifest is believed: %+v", e)
				}
				if !slices.ContainsFunc(r.Missing, func(m report.Missing) bool { return m.ID == "chapter3/synthetic" }) {
					t.Error("the relabelled folder counts as a full run of chapter3/synthetic")
				}
			}},
		{name: "manifest unreadable", dir: alice, state: report.Unreadable, reason: "manifest.json cannot be read",
			edit: func(t *testing.T, root string) {
				os.WriteFile(filepath.Join(root, alice, results.ManifestFile), []byte(`{"experiment": "chapter3/alice", "quick": tru`), 0o644)
			},
			check: func(t *testing.T, r *report.Report, e report.Experiment, page, md string) {
				if row := overviewRow(t, []byte(page), alice); !strings.Contains(row, "unknown") || strings.Contains(row, "full") {
					t.Errorf("an unreadable manifest's run: %q, want unknown", row)
				}
				if e.Trusted || e.Kind != "unknown" || strings.Contains(page, `alt="fig3_4"`) {
					t.Errorf("an unreadable folder is believed: %+v", e)
				}
			}},
		{name: "manifest deleted", dir: alice, state: report.Unreadable, reason: "manifest.json cannot be read",
			edit: func(t *testing.T, root string) { os.Remove(filepath.Join(root, alice, results.ManifestFile)) }},
		{name: "claimed figure deleted", dir: syn, state: report.Incomplete, reason: "fig3_2.svg is missing",
			edit: func(t *testing.T, root string) { os.Remove(filepath.Join(root, syn, "fig3_2.svg")) },
			check: func(t *testing.T, r *report.Report, e report.Experiment, page, md string) {
				if !strings.Contains(page, "Figure not shown: fig3_2.svg: missing") || !strings.Contains(md, "**Figure not shown:** fig3_2.svg: missing") {
					t.Error("the claim does not say that its figure is missing")
				}
				if !e.Trusted || e.Failed != 1 {
					t.Errorf("a missing figure hides the verified checks: %+v", e)
				}
			}},
		{name: "foreign figure", dir: syn, state: report.Tampered, reason: "fig3_3.svg was changed after the run",
			edit: func(t *testing.T, root string) {
				os.WriteFile(filepath.Join(root, syn, "fig3_3.svg"), []byte(strings.Replace(svgFigure, "#369", "#f00", 1)), 0o644)
			},
			check: func(t *testing.T, r *report.Report, e report.Experiment, page, md string) {
				if strings.Contains(page, `alt="fig3_3"`) || len(e.Other) != 0 {
					t.Error("a foreign figure is shown")
				}
			}},
		{name: "figure not in the manifest", dir: syn, state: report.Tampered, reason: "fig9_9.svg is not in the manifest",
			edit: func(t *testing.T, root string) {
				os.WriteFile(filepath.Join(root, syn, "fig9_9.svg"), []byte(svgFigure), 0o644)
			},
			check: func(t *testing.T, r *report.Report, e report.Experiment, page, md string) {
				if strings.Contains(page, `alt="fig9_9"`) || strings.Contains(md, "fig9_9.svg)") {
					t.Error("a figure outside the manifest is shown")
				}
			}},
		{name: "config edited", dir: syn, state: report.Tampered, reason: "config.toml was changed after the run",
			edit: func(t *testing.T, root string) {
				os.WriteFile(filepath.Join(root, syn, results.ConfigFile), []byte("experiment = \"chapter3/synthetic\"\nseed = 9\n"), 0o644)
			},
			check: func(t *testing.T, r *report.Report, e report.Experiment, page, md string) {
				if e.Config != "" || strings.Contains(page, "seed = 9") {
					t.Error("an edited config.toml is shown")
				}
			}},
		{name: "summary deleted", dir: syn, state: report.Incomplete, reason: "summary.json is missing",
			edit: func(t *testing.T, root string) { os.Remove(filepath.Join(root, syn, results.SummaryFile)) }},
		{name: "link without its generation", dir: "chapter3/ghost", state: report.Unreadable, reason: "cannot be opened",
			edit: func(t *testing.T, root string) {
				os.Symlink(".ghost.vbw/gen-3", filepath.Join(root, "chapter3", "ghost"))
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := fixtures(t)
			c.edit(t, root)
			r, err := report.Build(root)
			if err != nil {
				t.Fatal(err)
			}
			page, _ := os.ReadFile(filepath.Join(root, report.HTMLFile))
			md, _ := os.ReadFile(filepath.Join(root, report.MarkdownFile))
			e := experimentIn(t, r, c.dir)
			if e.State != c.state {
				t.Errorf("state %s, want %s (problems %q)", e.State, c.state, e.Problems)
			}
			row := overviewRow(t, page, c.dir)
			if !strings.Contains(row, c.state) || !strings.Contains(row, c.reason) {
				t.Errorf("overview row %q lacks %q and %q", row, c.state, c.reason)
			}
			if c.state != report.Verified && !strings.Contains(string(md), "**"+c.state+"**") {
				t.Errorf("REPORT.md's overview lacks **%s**", c.state)
			}
			if c.check != nil {
				c.check(t, r, e, string(page), string(md))
			}
		})
	}
}

// section returns the elements of the page from the one with id to the
// next element of the same name.
func section(els []element, id string) []element {
	for i, e := range els {
		if e.attrs["id"] == id {
			for j := i + 1; j < len(els); j++ {
				if els[j].name == e.name {
					return els[i:j]
				}
			}
			return els[i:]
		}
	}
	return nil
}

// TestReportVerdicts: the whole-thesis table lists every figure of the
// chapters registered (chapter 3 here) with a verdict computed from the
// claims, every claim is labelled as the thesis's with a verdict beside
// it, and a quick run's failed checks are under "not judged", not among
// the findings.
func TestReportVerdicts(t *testing.T) {
	root := fixtures(t)
	r, err := report.Build(root)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(root, report.HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	els := parse(t, page)
	doc := section(els, "doc-beal2003")
	if doc == nil {
		t.Fatal("no verdict table of the thesis")
	}
	want := map[string]string{
		"Figure 3.1": report.NotJudged,        // a diagram
		"Figure 3.2": report.PartlyReproduced, // one check passes, one fails
		"Figure 3.3": report.NotJudged,        // synthetic's claims do not name it
		"Figure 3.4": report.NotJudged,        // only a quick run
	}
	rows := 0
	for _, e := range doc {
		if e.name != "tr" || !strings.HasPrefix(strings.TrimSpace(e.text), "Figure 3.") {
			continue
		}
		rows++
		label := strings.TrimSpace(e.text)[:len("Figure 3.1")]
		if w, ok := want[label]; !ok || !strings.Contains(e.text, w) {
			t.Errorf("row %q: want verdict %q", e.text, w)
		}
	}
	if rows != len(want) {
		t.Errorf("%d rows of chapter 3 in the verdict table, want %d", rows, len(want))
	}
	if len(r.Documents) != 2 || r.Documents[0].ID != "beal2003" || r.Documents[0].Counts[1] != (report.VerdictCount{Kind: report.PartlyReproduced, N: 1}) {
		t.Errorf("documents %+v", r.Documents)
	}
	// Every claim: the thesis's statement labelled, a verdict beside it.
	claims := 0
	for i, e := range els {
		if e.name != "div" || e.attrs["class"] != "claim" {
			continue
		}
		claims++
		var labelled, verdict bool
		for _, f := range els[i+1:] {
			if f.name == "div" && strings.HasPrefix(f.attrs["class"], "claim") {
				break
			}
			labelled = labelled || (f.name == "p" && strings.HasPrefix(f.text, "The text:"))
			verdict = verdict || strings.HasPrefix(f.attrs["class"], "verdict ")
		}
		if !labelled || !verdict {
			t.Errorf("claim %q: labelled as the thesis's %v, verdict %v", e.text, labelled, verdict)
		}
	}
	if claims != 2 {
		t.Errorf("%d claims, want 2", claims)
	}
	// The quick run's failure is not judged, and not a finding.
	quick := section(els, "quick-chapter3-alice")
	var headings []string
	for i, e := range quick {
		if e.name == "h3" {
			headings = append(headings, e.text)
			if strings.HasPrefix(e.text, "Findings") || strings.HasPrefix(e.text, "Notes") {
				for _, f := range quick[i+1:] {
					if f.name == "h3" {
						break
					}
					if strings.Contains(f.text, "A quick failure") {
						t.Errorf("the quick run's failed check is under %q", e.text)
					}
				}
			}
		}
	}
	text := string(page)
	for _, w := range []string{"Not judged: the failed checks of a quick run", "A quick failure: 0.5", "A note of the quick run"} {
		if !strings.Contains(text, w) {
			t.Errorf("page lacks %q (headings of the quick section: %q)", w, headings)
		}
	}
	if strings.Contains(text, "Findings: where the results differ from the thesis</h3>\n<ul><li>A quick failure") {
		t.Error("a quick failure among the findings")
	}
	// make chapterN's last line.
	page0 := filepath.Join(root, report.HTMLFile)
	for prefix, want := range map[string]string{
		"chapter3": "chapter3: checks 1 passed and 1 failed in 1 results folders; open " + page0,
		"quick":    "quick: checks 1 passed and 1 failed in 1 results folders (1 quick: not judged); open " + page0,
		"chapter4": "chapter4: no results under " + filepath.Join(root, "chapter4"),
	} {
		if got := r.Line(prefix); !strings.HasPrefix(got, want) || strings.Contains(got, "\n") {
			t.Errorf("Line(%s) = %q, want %q", prefix, got, want)
		}
	}
	md, err := os.ReadFile(filepath.Join(root, report.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"## Beal (2003)", "## At a glance", "**The text:** VB converges", "**Verdict: partly reproduced** (1 of 2 checks passed)",
		"### Warnings (", "- a warning of the run", "### Not judged: the failed checks of a quick run", "### Notes on this quick run"} {
		if !strings.Contains(string(md), w) {
			t.Errorf("REPORT.md lacks %q", w)
		}
	}
}

// testDocument is a second document with one table, filled from the
// fixtures' chapter3/synthetic run (tbl.csv): a document other than the
// thesis gets its own verdict table by declaring its artefacts.
var testDocument = experiments.Document{ID: "testdoc", Title: "A test document"}

func init() {
	experiments.AddArtefacts(testDocument,
		experiments.Artefact{Label: "Figure 1.1", Line: 5, Caption: "a figure no experiment covers", Note: "a drawing"},
		experiments.Artefact{Label: "Figure 1.2", Line: 7, Caption: "a figure of an experiment not run", Experiments: []string{"chapter3/model-order"}},
		experiments.Artefact{Label: "Figure 1.4", Line: 12, Caption: "a figure of the data", Experiments: []string{"chapter3/tightness"}, Note: "the data, drawn"},
		experiments.Artefact{Label: "Table 1.1", Line: 10, Caption: "a table", Experiments: []string{"chapter3/synthetic"},
			Table: &experiments.Table{Experiment: "chapter3/synthetic", Source: "the test's own table",
				Build: func(f experiments.ResultFiles) (results.Comparison, error) {
					t, err := f.Table("tbl.csv")
					if err != nil {
						return results.Comparison{}, err
					}
					var rows []experiments.OurRow
					for i, r := range t.Rows {
						x, _ := t.Float(i, 1)
						y, _ := t.Float(i, 2)
						rows = append(rows, experiments.Values(r[0], x, y))
					}
					return experiments.JoinRows("| n | X | Y |\n|---|---|---|\n| 10 | 1.0 ± .1 | ≤5 |\n| 20 | 2 | 6 |", rows, "a note on the shapes")
				}}})
}

// TestReportThesisTables: a document's table renders as a table, the
// thesis's values beside ours and the difference, with rows of either.
func TestReportThesisTables(t *testing.T) {
	root := fixtures(t)
	r, err := report.Build(root)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(root, report.HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	els := parse(t, page)
	if section(els, "doc-testdoc") == nil {
		t.Error("the second document has no verdict table")
	}
	var cells [][]string
	tables := 0
	for i, e := range els {
		if e.name != "table" || e.attrs["class"] != "compared" {
			continue
		}
		tables++
		for _, f := range els[i+1:] {
			if f.name == "table" {
				break
			}
			if f.name == "tr" {
				cells = append(cells, nil)
			}
			if (f.name == "td" || f.name == "th") && len(cells) > 0 {
				cells[len(cells)-1] = append(cells[len(cells)-1], strings.TrimSpace(f.text))
			}
		}
	}
	want := [][]string{
		{"n", "X", "Y"},
		{"text", "ours", "diff.", "text", "ours", "diff."},
		{"10", "1.0 ± .1", "1.5", "+0.5", "≤5", "7", ""}, // a bound has no difference
		{"20", "2", "—", "", "6", "—", ""},               // a row of the thesis's alone
		{"30", "—", "2", "", "—", "8", ""},               // a row of ours alone
	}
	if tables != 1 || !slices.EqualFunc(cells, want, slices.Equal) {
		t.Errorf("%d compared tables; cells\n%q\nwant\n%q", tables, cells, want)
	}
	if !strings.Contains(string(page), "a note on the shapes") {
		t.Error("the table's note is not shown")
	}
	for _, d := range r.Documents {
		if d.ID != "testdoc" {
			continue
		}
		if len(d.Rows) != 4 {
			t.Fatalf("the test document's rows: %+v", d.Rows)
		}
		if d.Rows[0].Verdict.Kind != report.NotJudged || !slices.Equal(d.Rows[0].Verdict.Reasons, []string{"a drawing"}) {
			t.Errorf("Figure 1.1's row: %+v", d.Rows[0])
		}
		if v := d.Rows[1].Verdict; v.Kind != report.NotRun || len(v.Reasons) != 1 ||
			!strings.Contains(v.Reasons[0], "bin/vbw run -out "+root+" configs/chapter3/model-order.toml (chapter3/model-order)") || d.Rows[1].Link != "" {
			t.Errorf("Figure 1.2's row: %+v", d.Rows[1])
		}
		if d.Rows[2].Link != "chapter3-synthetic-table-1-1-table" || d.Rows[2].Verdict.Kind != report.NotJudged {
			t.Errorf("Table 1.1's row: %+v", d.Rows[2])
		}
	}
	md, _ := os.ReadFile(filepath.Join(root, report.MarkdownFile))
	if !strings.Contains(string(md), "| 10 | 1.0 ± .1 | 1.5 | +0.5 | ≤5 | 7 |  |") {
		t.Errorf("REPORT.md lacks the table's row:\n%s", md)
	}
}

// TestReportNoteOfUncheckedClaim: a claim that names no criterion (a figure
// of the data) takes its artefact's note as the reason it is not judged,
// not "no acceptance criterion tests this claim".
func TestReportNoteOfUncheckedClaim(t *testing.T) {
	root := t.TempDir()
	s := results.Summary{Experiment: "chapter3/tightness", ConfigHash: "aaa111",
		Claims: []results.Claim{{Artifact: "Figure 1.4", Statement: "the data", Figures: []string{"fig1"}}}}
	s.Judge(results.Criterion{ID: "other", Text: "another check", Target: results.AtLeast(0)}, 1)
	fixture(t, root, "chapter3/tightness", s, false, "fig1")
	r, err := report.Build(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range r.Documents {
		if d.ID != "testdoc" {
			continue
		}
		for _, row := range d.Rows {
			if row.Label == "Figure 1.4" {
				if row.Verdict.Kind != report.NotJudged || !slices.Equal(row.Verdict.Reasons, []string{"the data, drawn"}) {
					t.Errorf("Figure 1.4's row: %+v, want not judged because \"the data, drawn\"", row.Verdict)
				}
				return
			}
		}
	}
	t.Error("no row for Figure 1.4 of the test document")
}
