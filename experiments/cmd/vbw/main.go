// Command vbw runs the thesis experiments and draws their figures.
//
// Usage:
//
//	vbw run [-quick] [-out DIR] [-workers N] [-data DIR] [-shard i/N] [-noplot] [-max-memory SIZE] [-max-work OPS] [-configs DIR] [-one-per-experiment] [-cpuprofile FILE] CONFIG.toml|ID...
//	vbw plot [-out DIR] TARGET...        TARGET: an experiment ID, chapterN, all, or a results directory
//	vbw merge [-quick] [-out DIR] [-workers N] [-data DIR] [-shards N] [-noplot] [-max-memory SIZE] [-max-work OPS] [-configs DIR] [-one-per-experiment] [-cpuprofile FILE] CONFIG.toml|ID...
//	vbw report [-out DIR] [-for PREFIX]
//	vbw report -times [-out DIR] [-for PREFIX] [DIR...]
//	vbw verify [-out DIR] [-cells N] [-seed S] [-data DIR] [-workers N] TARGET...
//	vbw compare -model MODEL -data FILE [-k a..b] [-quick] [-out DIR] [-name NAME] [-workers N] [-max-memory SIZE] [-max-work OPS]
//	vbw list
//
// run loads each config strictly (an unknown key is an error), computes the
// experiment into DIR/<experiment ID>/ and draws its figures. An experiment
// ID that vbw list prints (chapter3/synthetic) stands for its shipped
// config, found in the configs/ folder of the module (or -configs DIR). plot redraws
// figures from the result files alone. merge joins the cells computed by
// sharded runs (-shard i/N) into the results a single run gives. verify
// recomputes a random sample of each results folder's stored cells from
// its recorded config and seeds, assembles the tables and checks again and
// compares them bit for bit with the folder's (experiments.Verify); the
// report says which folders were verified so, and when. list prints the
// registered experiments. compare runs one row of the atlas (issue 36) on
// a data file: it writes OUT/compare/NAME.toml, a variant of the row's
// shipped config with the file and the K values of -k, runs it as run
// does (OUT/atlas/NAME; the same command resumes it, and a name that holds
// another comparison is refused) and prints the grid.
//
// Before anything runs, every config's estimate of memory and work
// (experiments.Cost) is checked against the limits: -max-memory (default
// $VBW_MAX_MEMORY, else the memory available) and -max-work (default
// $VBW_MAX_WORK, else experiments.DefaultMaxWork operations). An
// interrupted run (Ctrl-C, SIGTERM) keeps its finished cells and the
// previous results, says so, and exits with status 130; the same command
// resumes it.
//
// vbw links every experiment package of the module: the list is
// experiments_gen.go, which go generate writes from the packages that call
// experiments.Add (see experiments/internal/genexperiments); make build
// regenerates it, so that a new experiment package needs no edit here.
package main

//go:generate go run ../../internal/genexperiments -o experiments_gen.go

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/experiments/report"
	"github.com/vbworkbench/vbw/results"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "vbw: %v\n", err)
		if errors.As(err, new(*interrupted)) {
			os.Exit(130) // 128 + SIGINT, as a shell reports it
		}
		os.Exit(1)
	}
}

const usage = `usage:
  vbw run [-quick] [-out DIR] [-workers N] [-data DIR] [-shard i/N] [-noplot] [-max-memory SIZE] [-max-work OPS] [-configs DIR] [-one-per-experiment] [-cpuprofile FILE] CONFIG.toml|ID...
                                   (ID: an experiment ID from vbw list, which runs its shipped config)
  vbw plot [-out DIR] TARGET...   (TARGET: experiment ID, chapterN, all, or a results directory)
  vbw merge [-quick] [-out DIR] [-workers N] [-data DIR] [-shards N] [-noplot] [-max-memory SIZE] [-max-work OPS] [-configs DIR] [-one-per-experiment] [-cpuprofile FILE] CONFIG.toml|ID...
  vbw report [-out DIR] [-for PREFIX]  (writes DIR/index.html and DIR/REPORT.md from the results in DIR;
                                        -for chapter3: one line of chapter 3's checks and the page to open)
  vbw report -times [-out DIR] [-for PREFIX] [DIR...]  (the run times of the results in DIR as a Markdown table)
  vbw verify [-out DIR] [-cells N] [-seed S] [-data DIR] [-workers N] TARGET...
                                   (recompute N stored cells of each results folder and compare bit for bit)
  vbw compare -model MODEL -data FILE [-k a..b] [-quick] [-out DIR] [-name NAME] [-workers N] [-max-memory SIZE] [-max-work OPS]
                                   (one atlas row on a data file, run as vbw run runs it; prints the grid;
                                    MODEL: gmm (needs -k), logistic (-class, -positive))
  vbw list                         (the experiment IDs)
  vbw COMMAND -h                   (the command's flags)

example:
  vbw run -quick chapter3/synthetic && vbw report    (then open output/index.html)
`

// run is the testable body of main.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return nil
	}
	err := command(ctx, args, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil // -h: the flags were printed
	}
	return err
}

// command runs the command args[0].
func command(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	switch args[0] {
	case "run":
		return cmdRun(ctx, args[1:], stdout, stderr, false)
	case "merge":
		return cmdRun(ctx, args[1:], stdout, stderr, true)
	case "plot":
		return cmdPlot(args[1:], stdout, stderr)
	case "report":
		return cmdReport(args[1:], stdout, stderr)
	case "verify":
		return cmdVerify(ctx, args[1:], stdout, stderr)
	case "compare":
		return cmdCompare(ctx, args[1:], stdout, stderr)
	case "list":
		for _, s := range experiments.List() {
			fmt.Fprintf(stdout, "%-24s %s\n", s.ID, s.Title)
		}
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer, merge bool) error {
	name := "run"
	if merge {
		name = "merge"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "apply the config's [quick] table (fast settings); results go to OUT/quick unless -out is given")
	out := fs.String("out", "output", "top output directory; results go to OUT/<chapter>/<config name>")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), fmt.Sprintf("parallel workers for independent cells, 1 to %d (4 per CPU)", experiments.MaxWorkers()))
	data := fs.String("data", "", "data directory (overrides $VBW_DATA and the config's data_dir)")
	shard := new(string)
	if !merge {
		shard = fs.String("shard", "", "run only part i of N of the cells, e.g. 2/8 (merge the parts with vbw merge)")
	}
	noplot := fs.Bool("noplot", false, "do not draw figures")
	maxMemory := fs.String("max-memory", os.Getenv("VBW_MAX_MEMORY"), "refuse a config whose estimated memory exceeds this size, e.g. 64GiB (default $VBW_MAX_MEMORY, else the memory available)")
	maxWork := fs.String("max-work", os.Getenv("VBW_MAX_WORK"), fmt.Sprintf("refuse a config whose estimated work exceeds this many operations, about %g a core-second, e.g. 1e16 (default $VBW_MAX_WORK, else %g)", experiments.OpsPerSecond, float64(experiments.DefaultMaxWork)))
	configsDir := fs.String("configs", "", "the folder of the shipped configs that an experiment ID stands for (default: configs/ of the module that holds the working directory)")
	onePer := fs.Bool("one-per-experiment", false, "run one config per experiment: leave out a config whose resolved config equals one before it (same hash) and a long variant (*-full.toml) of an experiment that another config runs")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this new file (read it with go tool pprof); an existing file is refused")
	var shards *int
	if merge {
		shards = fs.Int("shards", 0, "the number of shards the cells were computed in (optional): a merge that lacks cells then names the shards to run again")
	}
	configs, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(configs) == 0 {
		return fmt.Errorf("%s: no config file given", name)
	}
	if configs, err = resolveIDs(configs, *configsDir); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := checkOut(*out); err != nil {
		return err
	}
	// Quick runs go to their own folder unless -out says otherwise, so
	// that they never meet the full results (a folder holds one kind).
	outSet := false
	fs.Visit(func(f *flag.Flag) { outSet = outSet || f.Name == "out" })
	if *quick && !outSet {
		*out = filepath.Join(*out, "quick")
	}
	sh, err := experiments.ParseShard(*shard)
	if err != nil {
		return err
	}
	if err := experiments.CheckWorkers(*workers); err != nil {
		return err
	}
	limits, err := parseLimits(fs, *maxMemory, *maxWork)
	if err != nil {
		return err
	}
	o := experiments.RunOptions{Out: *out, Quick: *quick, Workers: *workers, DataDir: *data, Shard: sh, Log: stderr, NoPlot: *noplot, MergeOnly: merge,
		Limits: limits}
	if merge {
		if *shards < 0 {
			return fmt.Errorf("merge: -shards %d: want the number of shards of the sweep (≥ 1)", *shards)
		}
		o.MergeShards = *shards
	}
	// Every config is loaded and checked before anything runs.
	jobs, err := experiments.PrepareAll(configs, o)
	if err != nil {
		return err
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return fmt.Errorf("%s: -cpuprofile: %w", name, err)
		}
		defer stop(stderr)
	}
	if *onePer {
		jobs = onePerExperiment(jobs, stderr)
	}
	for _, j := range jobs {
		if w := j.Estimate.Work; w >= longRun && !merge {
			fmt.Fprintf(stderr, "%s: estimated at most %.2g operations (%s, if every fit runs to its iteration cap) on %d workers\n",
				j.Spec.ID, w, experiments.CoreTime(w), o.Workers)
		}
	}
	// The cells of every config share the workers, longest first; each
	// config commits when its last cell is done.
	rec := results.StartInvocation(args, o.Workers)
	outcomes := experiments.RunJobs(ctx, jobs, o.Workers, func(r experiments.JobOutcome) {
		fmt.Fprintf(stdout, "%s -> %s (%.1fs)\n", r.Job.Path, r.Dir, r.Elapsed.Seconds())
	})
	if !merge && !sh.Active() && len(jobs) > 1 {
		if err := rec.Finish(*out, outcomes2records(outcomes)); err != nil {
			fmt.Fprintf(stderr, "vbw: the run record was not written: %v\n", err)
		}
	}
	return jobsError(ctx, outcomes, rec.Elapsed(), merge, sh.Active())
}

// outcomes2records lists the jobs of a run for its run record.
func outcomes2records(outs []experiments.JobOutcome) []results.InvocationJob {
	r := make([]results.InvocationJob, len(outs))
	for i, o := range outs {
		r[i] = results.InvocationJob{Config: o.Job.Path, Dir: o.Job.Dir, OK: o.Err == nil, Started: o.Started, WallSeconds: o.Elapsed.Seconds()}
	}
	return r
}

// jobsError is the error of a run whose jobs ended as outs: nil when all
// committed; after an interrupt, what was kept and how to resume; else the
// first failure, naming its config, and the configs it stopped.
func jobsError(ctx context.Context, outs []experiments.JobOutcome, elapsed time.Duration, merge, shard bool) error {
	var done, stopped, left []*experiments.Job
	var failed *experiments.JobOutcome
	for i := range outs {
		o := &outs[i]
		switch {
		case o.Err == nil:
			done = append(done, o.Job)
		case o.Cause && failed == nil && ctx.Err() == nil:
			failed = o
		case !o.Started:
			left = append(left, o.Job)
		default:
			stopped = append(stopped, o.Job)
		}
	}
	if failed == nil && len(stopped)+len(left) == 0 {
		return nil
	}
	if failed == nil && ctx.Err() != nil {
		return newInterrupted(stopped, done, left, elapsed, merge, shard)
	}
	if failed == nil {
		// A job stopped without a failure of its own or an interrupt.
		for _, o := range outs {
			if o.Err != nil {
				return o.Err
			}
		}
	}
	err := failed.Err
	if !strings.Contains(err.Error(), failed.Job.Path) {
		err = fmt.Errorf("%s: %w", failed.Job.Path, err)
	}
	if len(stopped)+len(left) > 0 {
		err = fmt.Errorf("%w (stopped with it, finished cells kept: %s)", err, paths(append(stopped, left...)))
	}
	return err
}

// longRun is the estimated work (operations) from which vbw run states the
// estimate before it starts: about 28 core-hours, as an upper bound (the
// shipped full variants of the Alice grid and of Table 4.2 reach it and
// take about an hour on 2 cores; a run of a few times that is one to
// think about before it starts).
const longRun = 1e14

// parseLimits reads the -max-memory and -max-work values (or the
// environment variables they default to), naming the one that is wrong.
func parseLimits(fs *flag.FlagSet, memory, work string) (experiments.Limits, error) {
	var l experiments.Limits
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	name := func(flag, env, v string) string {
		if set[flag] {
			return fmt.Sprintf("-%s %s", flag, v)
		}
		return fmt.Sprintf("%s=%s", env, v)
	}
	if memory != "" {
		v, err := experiments.ParseBytes(memory)
		if err == nil && !(v > 0 && v <= experiments.MaxMemoryLimit) {
			err = fmt.Errorf("want a size above 0 and at most %s", experiments.FormatBytes(experiments.MaxMemoryLimit))
		}
		if err != nil {
			return l, fmt.Errorf("%s: %v", name("max-memory", "VBW_MAX_MEMORY", memory), err)
		}
		l.Memory = v
	}
	if work != "" {
		v, err := strconv.ParseFloat(strings.TrimSpace(work), 64)
		if err != nil || !(v > 0 && v <= experiments.MaxWorkLimit) {
			return l, fmt.Errorf("%s: want a number of operations above 0 and at most %g, e.g. 1e16", name("max-work", "VBW_MAX_WORK", work), float64(experiments.MaxWorkLimit))
		}
		l.Work = v
	}
	return l, nil
}

// interrupted is the error of a run stopped by a signal: what was kept
// and how to resume.
type interrupted struct{ msg string }

func (e *interrupted) Error() string { return e.msg }

// newInterrupted describes a run interrupted after elapsed in the jobs
// stopped, with the jobs done before and those not started.
func newInterrupted(stopped, done, left []*experiments.Job, elapsed time.Duration, merge, shard bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "interrupted after %s", elapsed.Round(100*time.Millisecond))
	for k, j := range stopped {
		sep := " in "
		if k > 0 {
			sep = "; and in "
		}
		fmt.Fprintf(&b, "%s%s", sep, j.Path)
		switch {
		case merge:
			fmt.Fprintf(&b, ": the merge wrote nothing, %s is as it was", j.Dir)
		default:
			fmt.Fprintf(&b, ": %d finished cells are kept in %s", j.KeptCells(), j.CellsDir())
			if _, err := os.Stat(filepath.Join(j.Dir, results.ManifestFile)); err == nil && !shard {
				fmt.Fprintf(&b, " and the previous results in %s are unchanged", j.Dir)
			} else if !shard {
				b.WriteString(" (no results were written)")
			}
		}
	}
	if len(done) > 0 {
		fmt.Fprintf(&b, "; finished before it: %s", paths(done))
	}
	if len(left) > 0 {
		fmt.Fprintf(&b, "; not started: %s", paths(left))
	}
	b.WriteString("; run the same command again to resume (kept cells are not recomputed)")
	return &interrupted{b.String()}
}

// paths lists the jobs' config files.
func paths(jobs []*experiments.Job) string {
	p := make([]string, len(jobs))
	for i, j := range jobs {
		p[i] = j.Path
	}
	return strings.Join(p, ", ")
}

func cmdPlot(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "output", "top output directory that vbw run wrote to")
	targets, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(targets) == 0 {
		return errors.New("plot: no target given (an experiment ID, chapterN, all, or a results directory)")
	}
	if err := checkOut(*out); err != nil {
		return err
	}
	for _, target := range targets {
		dirs, err := plotTargets(*out, target)
		if err != nil {
			return err
		}
		for _, d := range dirs {
			if err := experiments.PlotDir(d.dir, d.id); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "plotted %s\n", d.dir)
		}
	}
	return nil
}

type plotDir struct{ dir, id string }

func cmdReport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "output", "the output directory that vbw run wrote to; the report is written there")
	of := fs.String("for", "", "print one line for the results folders under OUT/PREFIX (e.g. chapter3, or quick): their checks passed and failed, and the page to open; with -times, keep the documents that start with PREFIX")
	times := fs.Bool("times", false, "print the run times recorded in the manifests of the results under OUT (and of any further results directories given as arguments) as a Markdown table, with a row \"not measured\" for each shipped config without a full run; write nothing")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if err := checkOut(*out); err != nil {
		return err
	}
	if *times {
		return printTimes(append([]string{*out}, rest...), *of, stdout, stderr)
	}
	if len(rest) > 0 {
		return fmt.Errorf("report: unexpected argument %q (use -out DIR)", rest[0])
	}
	r, err := report.Build(*out)
	if errors.Is(err, report.ErrNoResults) && *of != "" {
		// The line after a run that wrote no results folder (a shard).
		fmt.Fprintf(stdout, "%s: no results under %s\n", *of, *out)
		return nil
	}
	if err != nil {
		return err
	}
	if *of != "" {
		fmt.Fprintln(stdout, r.Line(*of))
		return nil
	}
	fmt.Fprintf(stdout, "%s, %s: %d experiments, %d not run\n", filepath.Join(*out, report.HTMLFile), filepath.Join(*out, report.MarkdownFile), len(r.Experiments), len(r.Missing))
	for _, d := range r.Documents {
		fmt.Fprintf(stdout, "%s: %s\n", d.ID, d.CountLine())
	}
	return nil
}

// printTimes prints the run-times table of the results under dirs (see
// report.Times), with a "not measured" row for every shipped config
// without a full run.
func printTimes(dirs []string, prefix string, stdout, stderr io.Writer) error {
	for _, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return fmt.Errorf("report -times: %s is not a results directory (run make quick or make chapter3 first)", d)
		}
	}
	var configs []string
	if dir, err := findConfigs(); err != nil {
		fmt.Fprintf(stderr, "vbw report -times: %v; configs without a run are not listed\n", err)
	} else {
		configs, _ = filepath.Glob(filepath.Join(dir, "*", "*.toml"))
	}
	rows, skipped := report.Times(dirs, configs, prefix)
	for _, s := range skipped {
		fmt.Fprintf(stderr, "vbw report -times: %s: no readable manifest.json, left out\n", s)
	}
	report.WriteTimes(stdout, rows)
	report.WriteInvocations(stdout, report.Invocations(dirs))
	return nil
}

// parseInterspersed parses flags anywhere among the arguments (vbw run
// CONFIG -quick -out DIR works as vbw run -quick -out DIR CONFIG), before
// anything runs, and returns the other arguments in order.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

// plotTargets expands a plot target into result directories: a results
// directory itself, or every folder <out>/<chapter>/* with a summary whose
// config names a matching experiment (all, chapterN, or an experiment ID).
func plotTargets(out, target string) ([]plotDir, error) { return targets("plot", out, target) }

// targets returns the results folders under out that target names (an
// experiment ID, chapterN, all, or a results directory), for the command
// cmd.
func targets(cmd, out, target string) ([]plotDir, error) {
	if st, err := os.Stat(target); err == nil && st.IsDir() {
		if _, err := os.Stat(filepath.Join(target, "config.toml")); err == nil {
			id, err := experiments.ExperimentOf(filepath.Join(target, "config.toml"))
			if err != nil {
				return nil, err
			}
			return []plotDir{{target, id}}, nil
		}
	}
	known := false
	for _, s := range experiments.List() {
		if target == "all" || s.ID == target || strings.HasPrefix(s.ID, target+"/") {
			known = true
		}
	}
	if !known {
		return nil, fmt.Errorf("%s: %q is not an experiment ID, chapterN, all, or a results directory", cmd, target)
	}
	folders, _ := filepath.Glob(filepath.Join(out, "*", "*", "summary.json"))
	quick, _ := filepath.Glob(filepath.Join(out, "quick", "*", "*", "summary.json"))
	if cmd != "plot" {
		folders = append(folders, quick...)
	}
	var dirs []plotDir
	for _, f := range folders {
		d := filepath.Dir(f)
		id, err := experiments.ExperimentOf(filepath.Join(d, "config.toml"))
		if err != nil {
			continue // not a results folder of this program
		}
		if target == "all" || id == target || strings.HasPrefix(id, target+"/") {
			dirs = append(dirs, plotDir{d, id})
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s: no results under %s for %q (run it first: vbw run -out %s CONFIG.toml)", cmd, out, target, out)
	}
	sort.Slice(dirs, func(i, j int) bool { return dirs[i].dir < dirs[j].dir })
	return dirs, nil
}

// resolveIDs replaces every argument that names no file but a registered
// experiment (an ID that vbw list prints) by its shipped config in the
// folder configs (found from the working directory when empty).
func resolveIDs(args []string, configs string) ([]string, error) {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if _, err := os.Stat(a); err == nil || strings.HasSuffix(a, ".toml") {
			continue // a file (a missing one is reported when it is loaded)
		}
		if _, ok := experiments.Lookup(a); !ok {
			if note, old := experiments.Retired(a); old {
				return nil, fmt.Errorf("experiment %q was retired: %s", a, note)
			}
			var ids []string
			for _, s := range experiments.List() {
				ids = append(ids, s.ID)
			}
			if near := config.Closest(a, ids); near != "" {
				return nil, fmt.Errorf("%q is neither a config file nor an experiment ID (did you mean %s? vbw list prints them)", a, near)
			}
			return nil, fmt.Errorf("%q is neither a config file nor an experiment ID (vbw list prints them)", a)
		}
		dir := configs
		if dir == "" {
			var err error
			if dir, err = findConfigs(); err != nil {
				return nil, fmt.Errorf("%s: %w", a, err)
			}
		}
		p, err := experiments.ShippedConfig(dir, a)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// findConfigs returns the configs/ folder of the module that holds the
// working directory: the first folder upwards with a go.mod and a configs/.
func findConfigs() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if st, err := os.Stat(filepath.Join(dir, "configs")); err == nil && st.IsDir() {
				rel, err := filepath.Rel(wd, filepath.Join(dir, "configs"))
				if err != nil {
					return filepath.Join(dir, "configs"), nil
				}
				return rel, nil
			}
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("no configs/ folder of the vbw module found from %s upwards; run vbw in the repository or give -configs DIR", wd)
		}
	}
}

// onePerExperiment keeps one job per experiment: of the jobs whose
// resolved configs are equal (the same hash) only the first base config
// (or, without one, the first long variant *-full.toml) is kept, and a
// long variant of an experiment that another job runs is left out. It says
// on log what it leaves out and why.
func onePerExperiment(jobs []*experiments.Job, log io.Writer) []*experiments.Job {
	isLong := func(j *experiments.Job) bool { return strings.HasSuffix(j.Path, "-full.toml") }
	best := map[string]*experiments.Job{} // by hash: the first, a base config before a long variant
	for _, j := range jobs {
		if k, dup := best[j.Hash()]; !dup || isLong(k) && !isLong(j) {
			best[j.Hash()] = j
		}
	}
	var kept []*experiments.Job
	for _, j := range jobs {
		if k := best[j.Hash()]; k != j {
			fmt.Fprintf(log, "%s: left out, its resolved config equals %s's\n", j.Path, k.Path)
			continue
		}
		kept = append(kept, j)
	}
	var out []*experiments.Job
	for _, j := range kept {
		other := ""
		for _, k := range kept {
			if k != j && k.Spec.ID == j.Spec.ID && !isLong(k) {
				// Name the base config (x.toml for x-full.toml) where
				// it runs, else the first of the experiment's others.
				if other == "" || k.Path == strings.TrimSuffix(j.Path, "-full.toml")+".toml" {
					other = k.Path
				}
			}
		}
		if isLong(j) && other != "" {
			fmt.Fprintf(log, "%s: left out, a long variant of %s, which %s runs\n", j.Path, j.Spec.ID, other)
			continue
		}
		out = append(out, j)
	}
	return out
}

// checkOut refuses an empty -out, which would put results (or a report)
// in the working directory.
func checkOut(out string) error {
	if strings.TrimSpace(out) == "" {
		return errors.New("-out is empty: name the folder the results are in (default output)")
	}
	return nil
}

func cmdVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "output", "top output directory that vbw run wrote to")
	cells := fs.Int("cells", 3, "stored cells of each folder to recompute (0: none, only the assembly of the stored cells is checked); a run without cells is recomputed whole when > 0")
	seed := fs.Uint64("seed", 0, "seed of the sample of cells (0: drawn from the clock; the record says which)")
	data := fs.String("data", "", "data directory (overrides $VBW_DATA and the config's data_dir)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel workers for the recomputed cells")
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return errors.New("verify: no target given (an experiment ID, chapterN, all, or a results directory)")
	}
	if err := checkOut(*out); err != nil {
		return err
	}
	if *cells < 0 {
		return fmt.Errorf("-cells %d: want 0 or more", *cells)
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano()) | 1
	}
	if err := experiments.CheckWorkers(*workers); err != nil {
		return err
	}
	bad := 0
	for _, target := range args {
		dirs, err := targets("verify", *out, target)
		if err != nil {
			return err
		}
		for _, d := range dirs {
			v, err := experiments.Verify(ctx, d.dir, experiments.VerifyOptions{Cells: *cells, Seed: *seed, DataDir: *data, Workers: *workers, Log: stderr})
			if err != nil {
				return err
			}
			if v.OK && v.Whole {
				fmt.Fprintf(stdout, "verified %s: recomputed whole (it has no cells), the tables and checks equal\n", d.dir)
				continue
			}
			if v.OK {
				fmt.Fprintf(stdout, "verified %s: %d of %d stored cells recomputed and equal, the tables and checks assembled again and equal (seed %d)\n",
					d.dir, len(v.Recomputed), v.Cells, v.Seed)
				continue
			}
			bad++
			fmt.Fprintf(stdout, "NOT verified %s (seed %d):\n", d.dir, v.Seed)
			for _, p := range v.Problems {
				fmt.Fprintf(stdout, "  %s\n", p)
			}
		}
	}
	if bad > 0 {
		return fmt.Errorf("verify: %d results folders differ from their recomputation", bad)
	}
	return nil
}
