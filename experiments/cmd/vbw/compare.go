package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// compareModel is a row of the atlas that vbw compare runs on a user's
// data file: its shipped config (under configs/), the key the file goes
// to, the key -k fills ("" for a row without one), and the keys set to
// leave out the row's own synthetic data sets.
type compareModel struct {
	config string
	kKey   string
	// extra are further keys written as given (TOML values).
	extra map[string]string
	// flags are the row's own flags: flag name → config key.
	flags map[string]string
}

// compareModels are the rows vbw compare runs.
var compareModels = map[string]compareModel{
	"gmm":      {config: "atlas/gmm.toml", kKey: "k"},
	"logistic": {config: "atlas/logistic.toml", extra: map[string]string{"synthetic_n": "[]", "synthetic_inputs": "[]"}, flags: map[string]string{"class": "class", "positive": "positive"}},
}

func compareModelNames() string {
	names := make([]string, 0, len(compareModels))
	for m := range compareModels {
		names = append(names, m)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// parseKs reads -k: "a..b" (every integer from a to b) or a comma list,
// each at least 1, increasing.
func parseKs(s string) ([]int, error) {
	bad := func(why string) error { return fmt.Errorf("-k %s: %s (e.g. 1..6 or 1,2,4)", s, why) }
	var ks []int
	if a, b, ok := strings.Cut(s, ".."); ok {
		lo, err1 := strconv.Atoi(strings.TrimSpace(a))
		hi, err2 := strconv.Atoi(strings.TrimSpace(b))
		if err1 != nil || err2 != nil {
			return nil, bad("want two integers around ..")
		}
		if hi < lo {
			return nil, bad("the range is empty")
		}
		if hi-lo > 1000 {
			return nil, bad("more than 1000 values")
		}
		for k := lo; k <= hi; k++ {
			ks = append(ks, k)
		}
	} else {
		for _, f := range strings.Split(s, ",") {
			k, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return nil, bad(fmt.Sprintf("%q is not an integer", f))
			}
			ks = append(ks, k)
		}
	}
	for i, k := range ks {
		if k < 1 {
			return nil, bad("every K must be at least 1")
		}
		if i > 0 && k <= ks[i-1] {
			return nil, bad("the values must increase")
		}
	}
	return ks, nil
}

// cmdCompare runs one row of the atlas on a user's data file: it writes a
// variant of the row's shipped config (base = the shipped file, the data
// and K keys from the flags) into OUT/compare/NAME.toml and runs it
// exactly as vbw run runs a config (validation, limits, progress, resumable
// cells, the results folder OUT/atlas/NAME), then prints the grid.
func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "the atlas row to run: "+compareModelNames())
	data := fs.String("data", "", "the data file (CSV with a header) the row runs on")
	kList := fs.String("k", "", "the K values (gmm): a..b or a comma list, e.g. 1..6")
	name := fs.String("name", "", "the results folder's name (default compare-<model>-<data file's stem>)")
	class := fs.String("class", "", "logistic: the class column (default the row's, type)")
	positive := fs.String("positive", "", "logistic: the class value that is t = 1 (default the row's, Yes)")
	quick := fs.Bool("quick", false, "apply the row's [quick] settings (fewer samples, shorter runs)")
	out := fs.String("out", "output", "top output directory; results go to OUT/atlas/NAME, the generated config to OUT/compare/NAME.toml")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), fmt.Sprintf("parallel workers for independent cells, 1 to %d", experiments.MaxWorkers()))
	noplot := fs.Bool("noplot", false, "do not draw the figure")
	maxMemory := fs.String("max-memory", os.Getenv("VBW_MAX_MEMORY"), "refuse a run whose estimated memory exceeds this size (as vbw run)")
	maxWork := fs.String("max-work", os.Getenv("VBW_MAX_WORK"), "refuse a run whose estimated work exceeds this many operations (as vbw run)")
	configsDir := fs.String("configs", "", "the folder of the shipped configs (default: configs/ of the module that holds the working directory)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("compare: unexpected argument %q (every setting is a flag; see vbw compare -h)", fs.Arg(0))
	}
	m, ok := compareModels[*model]
	switch {
	case *model == "":
		return fmt.Errorf("compare: -model is required (one of %s)", compareModelNames())
	case !ok:
		return fmt.Errorf("compare: -model %s: unknown model (one of %s)", *model, compareModelNames())
	case *data == "":
		return errors.New("compare: -data is required: the CSV file to run the row on")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	keys := map[string]string{}
	for _, f := range []struct {
		flag, value string
	}{{"class", *class}, {"positive", *positive}} {
		if !set[f.flag] {
			continue
		}
		key, ok := m.flags[f.flag]
		if !ok {
			return fmt.Errorf("compare: -%s: the %s row has no such setting", f.flag, *model)
		}
		if f.value == "" {
			return fmt.Errorf("compare: -%s: empty", f.flag)
		}
		keys[key] = strconv.Quote(f.value)
	}
	if m.kKey == "" && set["k"] {
		return fmt.Errorf("compare: -k: the %s row has no K to choose", *model)
	}
	if m.kKey != "" {
		if *kList == "" {
			return fmt.Errorf("compare: -k is required for -model %s (e.g. -k 1..6)", *model)
		}
		ks, err := parseKs(*kList)
		if err != nil {
			return fmt.Errorf("compare: %w", err)
		}
		keys[m.kKey] = strings.ReplaceAll(fmt.Sprint(ks), " ", ", ")
	}
	abs, err := filepath.Abs(*data)
	if err != nil {
		return fmt.Errorf("compare: -data %s: %w", *data, err)
	}
	if st, err := os.Stat(abs); err != nil {
		return fmt.Errorf("compare: -data %s: no such file", *data)
	} else if st.IsDir() {
		return fmt.Errorf("compare: -data %s: a directory, not a data file", *data)
	}
	keys["data"] = strconv.Quote(abs)
	for k, v := range m.extra {
		keys[k] = v
	}
	if *name == "" {
		stem := strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs))
		*name = "compare-" + *model + "-" + sanitise(stem)
	}
	if err := checkOut(*out); err != nil {
		return err
	}
	dir := *configsDir
	if dir == "" {
		if dir, err = findConfigs(); err != nil {
			return fmt.Errorf("compare: %w", err)
		}
	}
	base, err := filepath.Abs(filepath.Join(dir, m.config))
	if err != nil {
		return err
	}
	if _, err := os.Stat(base); err != nil {
		return fmt.Errorf("compare: the %s row's config %s: not found (give -configs DIR)", *model, base)
	}
	path, err := writeCompareConfig(*out, *name, base, *model, keys, args)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	// The run itself is vbw run's, on the written config.
	runArgs := []string{"-out", *out, "-workers", strconv.Itoa(*workers)}
	if *quick {
		runArgs = append(runArgs, "-quick")
	}
	if *noplot {
		runArgs = append(runArgs, "-noplot")
	}
	if *maxMemory != "" {
		runArgs = append(runArgs, "-max-memory", *maxMemory)
	}
	if *maxWork != "" {
		runArgs = append(runArgs, "-max-work", *maxWork)
	}
	if err := cmdRun(ctx, append(runArgs, path), stdout, stderr, false); err != nil {
		return err
	}
	return printCompare(stdout, filepath.Join(*out, "atlas", *name))
}

// sanitise keeps the letters, digits, '.', '_' and '-' of a results
// folder's name, replacing the rest by '-'.
func sanitise(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '-'
		}
	}
	if len(b) == 0 || b[0] == '.' || b[0] == '-' || b[0] == '_' {
		b = append([]byte("data"), b...)
	}
	return string(b)
}

// writeCompareConfig writes OUT/compare/NAME.toml: the row's config as a
// variant (base = the shipped file) with keys set, the same in its [quick]
// table (so that -quick keeps the user's data). An existing file with
// other contents is refused when its results folder exists (another
// comparison of that name: a comparison never overwrites another's
// results or kept cells) and replaced otherwise (a comparison refused
// before it ran); the same file is left as it is, and the run resumes
// its kept cells.
func writeCompareConfig(out, name, base, model string, keys map[string]string, args []string) (string, error) {
	var b bytes.Buffer
	order := make([]string, 0, len(keys))
	for k := range keys {
		order = append(order, k)
	}
	slices.Sort(order)
	fmt.Fprintf(&b, "# Written by vbw compare: the atlas row %s on a data file.\n", model)
	fmt.Fprintf(&b, "base = %s\n", strconv.Quote(base))
	fmt.Fprintf(&b, "name = %s\n", strconv.Quote(name))
	fmt.Fprintf(&b, "settings = \"ours\"\nsettings_note = \"vbw compare: the %s row on a user's data file\"\n", model)
	for _, k := range order {
		fmt.Fprintf(&b, "%s = %s\n", k, keys[k])
	}
	b.WriteString("\n[quick]\n")
	for _, k := range order {
		fmt.Fprintf(&b, "%s = %s\n", k, keys[k])
	}
	path := filepath.Join(out, "compare", name+".toml")
	old, err := os.ReadFile(path)
	switch {
	case err == nil && bytes.Equal(old, b.Bytes()):
		return path, nil
	case err == nil && exists(filepath.Join(out, "atlas", name)):
		return "", fmt.Errorf("%s holds another comparison named %s (other data, K or model); give -name NAME or remove that file (its results are in %s)",
			path, name, filepath.Join(out, "atlas", name))
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	return path, results.WriteFileAtomic(path, b.Bytes())
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// printCompare prints the grid of a results folder: per data set and
// method, at the method's largest budget, the median over seeds of the
// estimate of ln p(D) ± its SE, the gold standard, the error and the cost;
// then the row's summary per method (grid.csv).
func printCompare(w io.Writer, dir string) error {
	c := results.ReadColumns(filepath.Join(dir, "estimates.csv"))
	ds, ms := c.Strings("dataset"), c.Strings("method")
	bud, lnz, se := c.Floats("budget"), c.Floats("lnz"), c.Floats("se")
	gold, gse, kind := c.Floats("gold_lnz"), c.Floats("gold_se"), c.Strings("gold_kind")
	ops, cpu := c.Floats("ops"), c.Floats("cpu_seconds")
	if err := c.Err(); err != nil {
		return err
	}
	type key struct{ d, m string }
	top := map[key]float64{}
	var order []key
	for i := range ds {
		k := key{ds[i], ms[i]}
		if v, ok := top[k]; !ok || bud[i] > v {
			if !ok {
				order = append(order, k)
			}
			top[k] = bud[i]
		}
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "Each line: the median over the seeds of the method at its largest budget (signed error = ln p(D) − gold).")
	fmt.Fprintln(tw, "data set\tmethod\tbudget\tseeds\tln p(D)\t± SE\tgold\t± SE\tgold kind\terror\tops\tCPU s")
	med := func(v []float64) float64 {
		v = slices.DeleteFunc(v, math.IsNaN)
		if len(v) == 0 {
			return math.NaN()
		}
		return results.Median(v)
	}
	for _, k := range order {
		var l, s, g, gs, o, t, e []float64
		gk := ""
		for i := range ds {
			if ds[i] == k.d && ms[i] == k.m && bud[i] == top[k] {
				l, s, g, gs = append(l, lnz[i]), append(s, se[i]), append(g, gold[i]), append(gs, gse[i])
				o, t, e = append(o, ops[i]), append(t, cpu[i]), append(e, lnz[i]-gold[i])
				gk = kind[i]
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%g\t%d\t%.4f\t%s\t%.4f\t%s\t%s\t%+.4f\t%.3g\t%.3g\n", k.d, k.m, top[k], len(l), med(l), seStr(med(s)), med(g), seStr(med(gs)), gk, med(e), med(o), med(t))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	g := results.ReadColumns(filepath.Join(dir, "grid.csv"))
	gm, st, why, em := g.Strings("method"), g.Strings("status"), g.Strings("why"), g.Floats("err_median")
	wz := g.Floats("within3se")
	if err := g.Err(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The grid's row: the median |error| over data sets × seeds, and the fraction within 3 combined standard errors.")
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "method\tmedian |error|\twithin 3 SE\tnote")
	for i := range gm {
		if st[i] != "filled" {
			fmt.Fprintf(tw, "%s\t\t\t%s\n", gm[i], why[i])
			continue
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%s\t\n", gm[i], em[i], seStr(wz[i]))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "(%s: estimates.csv, grid.csv, summary.json)\n", dir)
	return nil
}

// seStr formats a standard error or fraction, "-" for NaN.
func seStr(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
