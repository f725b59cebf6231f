// Command vbw runs the thesis experiments and draws their figures.
//
// Usage:
//
//	vbw run [-quick] [-out DIR] [-workers N] [-data DIR] [-shard i/N] [-noplot] CONFIG.toml...
//	vbw plot [-out DIR] TARGET...        TARGET: an experiment ID, chapterN, all, or a results directory
//	vbw merge [-out DIR] [-quick] [-shards N] CONFIG.toml...
//	vbw report [-out DIR]
//	vbw list
//
// run loads each config strictly (an unknown key is an error), computes the
// experiment into DIR/<experiment ID>/ and draws its figures. plot redraws
// figures from the result files alone. merge joins the cells computed by
// sharded runs (-shard i/N) into the results a single run gives. list
// prints the registered experiments.
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
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/report"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "vbw: %v\n", err)
		os.Exit(1)
	}
}

const usage = `usage:
  vbw run [-quick] [-out DIR] [-workers N] [-data DIR] [-shard i/N] [-noplot] CONFIG.toml...
  vbw plot [-out DIR] TARGET...   (TARGET: experiment ID, chapterN, all, or a results directory)
  vbw merge [-out DIR] [-quick] [-data DIR] [-shards N] CONFIG.toml...
  vbw report [-out DIR]            (writes DIR/index.html and DIR/REPORT.md from the results in DIR)
  vbw list
`

// run is the testable body of main.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command")
	}
	switch args[0] {
	case "run":
		return cmdRun(ctx, args[1:], stdout, stderr, false)
	case "merge":
		return cmdRun(ctx, args[1:], stdout, stderr, true)
	case "plot":
		return cmdPlot(args[1:], stdout, stderr)
	case "report":
		return cmdReport(args[1:], stdout, stderr)
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
	workers := fs.Int("workers", 0, "parallel workers for independent cells (0: all cores)")
	data := fs.String("data", "", "data directory (overrides $VBW_DATA and the config's data_dir)")
	shard := fs.String("shard", "", "run only part i of N of the cells, e.g. 2/8 (merge the parts with vbw merge)")
	noplot := fs.Bool("noplot", false, "do not draw figures")
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
	if merge && sh.Active() {
		return errors.New("merge: -shard makes no sense when merging (-shards N tells the number of shards)")
	}
	o := experiments.RunOptions{Out: *out, Quick: *quick, Workers: *workers, DataDir: *data, Shard: sh, Log: stderr, NoPlot: *noplot, MergeOnly: merge}
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
	for _, j := range jobs {
		start := time.Now()
		dir, err := j.Run(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s -> %s (%.1fs)\n", j.Path, dir, time.Since(start).Seconds())
	}
	return nil
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
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("report: unexpected argument %q (use -out DIR)", rest[0])
	}
	r, err := report.Build(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s, %s: %d experiments, %d not run\n", filepath.Join(*out, report.HTMLFile), filepath.Join(*out, report.MarkdownFile), len(r.Experiments), len(r.Missing))
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
func plotTargets(out, target string) ([]plotDir, error) {
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
		return nil, fmt.Errorf("plot: %q is not an experiment ID, chapterN, all, or a results directory", target)
	}
	folders, _ := filepath.Glob(filepath.Join(out, "*", "*", "summary.json"))
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
		return nil, fmt.Errorf("plot: no results under %s for %q (run it first: vbw run -out %s CONFIG.toml)", out, target, out)
	}
	sort.Slice(dirs, func(i, j int) bool { return dirs[i].dir < dirs[j].dir })
	return dirs, nil
}
