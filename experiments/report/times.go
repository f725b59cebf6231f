package report

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// TimeRow is one row of the run-times table: a config, with the times of
// its full run and of its quick run as their manifests record them (nil
// when the results trees hold no such run).
type TimeRow struct {
	Config      string // the config file, as configs/<document>/<file>.toml
	Document    string
	Experiment  string // the config's experiment key, when the config file was read
	Full, Quick *TimedRun
}

// TimedRun is one run's times, from its manifest.
type TimedRun struct {
	Experiment string
	Dir        string // the results folder
	Wall, CPU  float64
	Machine    *results.Machine // nil when the manifest does not record it
	Start      string           // RFC 3339
	// Cells counts the cells the run computed and those it resumed from
	// an earlier attempt (nil when not recorded).
	Cells *results.CellCounts
}

// Times reads the manifests of the results folders under each of dirs
// (dir/<document>/<name> and dir/quick/<document>/<name>) and returns one
// row per config: those of configs (the shipped configs, paths
// configs/<document>/<file>.toml), run or not, and any other config a
// folder was run from. Of several runs of one kind of a config, the latest
// is kept. Only documents that start with prefix are kept ("" keeps all).
// Rows are sorted by config. A folder whose manifest cannot be read is
// left out and named in skipped.
func Times(dirs, configs []string, prefix string) (rows []TimeRow, skipped []string) {
	byConfig := map[string]*TimeRow{}
	row := func(config string) *TimeRow {
		r := byConfig[config]
		if r == nil {
			r = &TimeRow{Config: config, Document: filepath.Base(filepath.Dir(config))}
			byConfig[config] = r
		}
		return r
	}
	for _, c := range configs {
		r := row(configKey(c))
		r.Experiment, _ = experiments.ExperimentOf(c) // unreadable: the runs' manifests say
	}
	for _, dir := range dirs {
		for _, d := range resultFolders(dir) {
			cur, err := results.OpenFolder(d).Current()
			var man *results.Manifest
			if err == nil {
				man, err = results.ReadManifest(filepath.Join(cur, results.ManifestFile))
			}
			if err != nil {
				skipped = append(skipped, d)
				continue
			}
			run := &TimedRun{Experiment: man.Experiment, Dir: d, Wall: man.WallSeconds, CPU: man.CPUSeconds,
				Machine: man.Machine, Start: man.Start, Cells: man.Cells}
			r := row(configKey(man.Config))
			slot := &r.Full
			if man.Quick {
				slot = &r.Quick
			}
			if *slot == nil || (*slot).Start < run.Start {
				*slot = run
			}
		}
	}
	for _, r := range byConfig {
		if strings.HasPrefix(r.Document, prefix) {
			rows = append(rows, *r)
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Config < rows[j].Config })
	return rows, skipped
}

// configKey names a config file by its last two path elements,
// configs/<document>/<file>.toml, so that the same config matches whether
// it was run by a relative or an absolute path.
func configKey(p string) string {
	p = filepath.ToSlash(filepath.Clean(p))
	parts := strings.Split(p, "/")
	if len(parts) < 2 {
		return p
	}
	return "configs/" + strings.Join(parts[len(parts)-2:], "/")
}

// WriteTimes writes rows as a Markdown table: the config, its experiment,
// and of its full run the wall time, the CPU time, the cores it kept busy
// (CPU/wall) of the machine's, the load average at its start and end, the
// machine and date; then the wall time of its quick run; then one line per
// machine. A run that took some of its cells from an earlier attempt says
// how many, and the wall time they took then (each cell on its own worker):
// its own times cover only the cells it computed. A field the manifest does not record (written before vbw
// recorded it) is "not recorded"; a run the results trees do not hold is
// "not measured".
func WriteTimes(w io.Writer, rows []TimeRow) {
	fmt.Fprintln(w, "| config | experiment | full run: wall time | CPU time | cores busy / CPUs | load (start–end) | machine, date | quick run: wall time |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---|---|---:|")
	const none, notRun = "not recorded", "not measured"
	hosts := map[string]string{}
	host := func(m *results.Machine) string {
		if m == nil {
			return none
		}
		name := m.Host
		if name == "" {
			name = "unnamed host"
		}
		hosts[name] = fmt.Sprintf("%s, %d CPUs, %s/%s", orNone(m.CPUModel), m.CPUs, m.OS, m.Arch)
		return name
	}
	for _, r := range rows {
		id := r.Experiment
		quick := notRun
		if q := r.Quick; q != nil {
			id, quick = q.Experiment, duration(q.Wall)
			host(q.Machine)
		}
		wall, cpu, cores, load, machine := notRun, "", "", "", ""
		if f := r.Full; f != nil {
			id, wall, cpu, cores, load = f.Experiment, duration(f.Wall), none, none, none
			if c := f.Cells; c != nil && c.Resumed > 0 {
				wall += fmt.Sprintf(" (resumed %d of %d cells, %s when computed)", c.Resumed, c.Resumed+c.Computed, duration(c.ResumedSeconds))
			}
			if f.CPU > 0 {
				cpu = duration(f.CPU)
			}
			if m := f.Machine; m != nil {
				if f.CPU > 0 && f.Wall > 0 {
					cores = fmt.Sprintf("%.1f / %d", f.CPU/f.Wall, m.CPUs)
				}
				load = fmt.Sprintf("%s–%s", loadString(m.LoadStart), loadString(m.LoadEnd))
			}
			date, _, _ := strings.Cut(f.Start, "T")
			machine = host(f.Machine) + ", " + date
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", r.Config, id, wall, cpu, cores, load, machine, quick)
	}
	writeTotals(w, rows)
	names := make([]string, 0, len(hosts))
	for h := range hosts {
		names = append(names, h)
	}
	sort.Strings(names)
	for _, h := range names {
		fmt.Fprintf(w, "\n%s: %s.\n", h, hosts[h])
	}
}

// writeTotals writes one line per document: the wall times of the full
// runs that make DOC and make DOC-full run (the configs without and with
// -full in their names) added up, with how many of their configs were
// measured, and the quick runs' total.
func writeTotals(w io.Writer, rows []TimeRow) {
	type total struct {
		n, measured [2]int
		wall        [2]float64
		resumed     [2]int     // configs whose full run resumed cells
		resumedSecs [2]float64 // the cell time those cells took then
		quick       float64
		quickN      int
	}
	var docs []string
	totals := map[string]*total{}
	for _, r := range rows {
		t := totals[r.Document]
		if t == nil {
			t = &total{}
			totals[r.Document] = t
			docs = append(docs, r.Document)
		}
		long := 0
		if strings.HasSuffix(r.Config, "-full.toml") {
			long = 1
		}
		t.n[long]++
		if r.Full != nil {
			t.measured[long]++
			t.wall[long] += r.Full.Wall
			if c := r.Full.Cells; c != nil && c.Resumed > 0 {
				t.resumed[long]++
				t.resumedSecs[long] += c.ResumedSeconds
			}
		}
		if r.Quick != nil {
			t.quickN++
			t.quick += r.Quick.Wall
		}
	}
	fmt.Fprintln(w)
	for _, d := range docs {
		t := totals[d]
		var parts []string
		for long, target := range []string{"make " + d, "make " + d + "-full"} {
			if t.n[long] == 0 {
				continue
			}
			part := fmt.Sprintf("%s: %d of %d configs measured", target, t.measured[long], t.n[long])
			if t.measured[long] > 0 {
				part += ", " + duration(t.wall[long]) + " wall in all"
			}
			if t.resumed[long] > 0 {
				part += fmt.Sprintf(" (%d of them resumed cells that took %s of cell time before)", t.resumed[long], duration(t.resumedSecs[long]))
			}
			parts = append(parts, part)
		}
		if t.quickN > 0 {
			parts = append(parts, fmt.Sprintf("quick runs: %d, %s wall in all", t.quickN, duration(t.quick)))
		}
		fmt.Fprintf(w, "%s.  \n", strings.Join(parts, "; "))
	}
}

// duration formats seconds for the times table: 0.42 s, 12.3 s,
// 3 min 05 s, 1 h 02 min.
func duration(s float64) string {
	switch {
	case s < 10:
		return fmt.Sprintf("%.2g s", s)
	case s < 60:
		return fmt.Sprintf("%.0f s", s)
	case s < 3600:
		t := int(s + 0.5)
		return fmt.Sprintf("%d min %02d s", t/60, t%60)
	}
	t := int(s/60 + 0.5)
	return fmt.Sprintf("%d h %02d min", t/60, t%60)
}

func loadString(v float64) string {
	if v < 0 {
		return "?"
	}
	return fmt.Sprintf("%.1f", v)
}

func orNone(s string) string {
	if s == "" {
		return "CPU model not recorded"
	}
	return s
}

// Invocations reads the run records (results.Invocation) of the vbw runs
// over several configs into each of dirs and dir/quick, oldest first.
func Invocations(dirs []string) []*results.Invocation {
	var recs []*results.Invocation
	for _, d := range dirs {
		for _, p := range []string{filepath.Join(d, results.InvocationFile), filepath.Join(d, "quick", results.InvocationFile)} {
			if r, err := results.ReadInvocation(p); err == nil {
				recs = append(recs, r)
			}
		}
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Start < recs[j].Start })
	return recs
}

// WriteInvocations writes one line per run record: the whole vbw run's
// wall and CPU time, the cores it kept busy, its configs, workers, load and
// machine. Its configs shared the workers, so their wall times in the
// table overlap and add up to more than the run's.
func WriteInvocations(w io.Writer, recs []*results.Invocation) {
	for _, r := range recs {
		ok := 0
		for _, j := range r.Jobs {
			if j.OK {
				ok++
			}
		}
		cores := ""
		if r.CPUSeconds > 0 && r.WallSeconds > 0 {
			cores = fmt.Sprintf(", %.2f cores busy", r.CPUSeconds/r.WallSeconds)
		}
		cpu := "not recorded"
		if r.CPUSeconds > 0 {
			cpu = duration(r.CPUSeconds)
		}
		m := r.Machine
		if m == nil {
			m = &results.Machine{LoadStart: -1, LoadEnd: -1}
		}
		var flags []string
		for _, a := range r.Args {
			if !strings.HasSuffix(a, ".toml") {
				flags = append(flags, a)
			}
		}
		cmd := strings.Join(append([]string{"vbw", "run"}, flags...), " ")
		fmt.Fprintf(w, "\nThe whole `%s` of %d configs (%d committed, their cells sharing %d workers), started %s: %s wall, %s CPU%s; load %s–%s on %s (%s, %d CPUs). Its configs' wall times above overlap; their CPU times add up the threads of each config's own work and cells.\n",
			cmd, len(r.Jobs), ok, m.Workers, r.Start, duration(r.WallSeconds), cpu, cores,
			loadString(m.LoadStart), loadString(m.LoadEnd), orHost(m.Host), orNone(m.CPUModel), m.CPUs)
	}
}

func orHost(h string) string {
	if h == "" {
		return "an unnamed host"
	}
	return h
}

// timesMarkdown is the run-times table of the results under dir, with the
// lines of its run records (WriteTimes, WriteInvocations).
func timesMarkdown(dir string) string {
	var b strings.Builder
	rows, _ := Times([]string{dir}, nil, "")
	if len(rows) == 0 {
		return ""
	}
	WriteTimes(&b, rows)
	WriteInvocations(&b, Invocations([]string{dir}))
	return b.String()
}

// TimesView is the run-times table for the HTML page: the Markdown
// table's header and rows, and its other lines as paragraphs.
type TimesView struct {
	Header []string
	Rows   [][]string
	Notes  []string
}

// timesView reads the Markdown of timesMarkdown back into cells.
func timesView(md string) *TimesView {
	if md == "" {
		return nil
	}
	v := &TimesView{}
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "|---"):
		case strings.HasPrefix(line, "|"):
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			for i := range cells {
				cells[i] = strings.Trim(strings.TrimSpace(cells[i]), "`")
			}
			if v.Header == nil {
				v.Header = cells
			} else {
				v.Rows = append(v.Rows, cells)
			}
		default:
			v.Notes = append(v.Notes, strings.ReplaceAll(line, "`", ""))
		}
	}
	return v
}
