// Package experiments runs the thesis's experiments from TOML configs.
//
// Each chapter package (experiments/chapter3, …) registers its experiments
// with Add in an init function, one statement each. An experiment is a Spec: an ID such as
// "chapter3/synthetic", a constructor for its typed config with defaults, a
// Run function that computes results into a directory, and a Plot function
// that redraws its figures from those files alone. RunConfig loads a config
// file strictly (see LoadConfig), resolves the data directory, writes the
// resolved config, runs the experiment, draws its figures and writes a
// manifest.
//
// Output layout (one folder per config, under the -out directory):
//
//	<out>/chapter3/synthetic/     a link to .synthetic.vbw/gen-N, the current results:
//	  config.toml    the resolved config that ran
//	  manifest.json  seeds, versions, timings, status, warnings, every output's SHA-256
//	  summary.json   metrics and acceptance checks
//	  *.csv          tidy tables (traces, runs, parameters)
//	  fig*.svg/png   figures, redrawn by `vbw plot` from the files above
//	<out>/chapter3/.synthetic.vbw/ the folder's state (see results.Folder):
//	  cells/         per-cell results, for resuming an interrupted run
//	  lock           held while a run writes the folder
//	  config-path    the config file whose results the folder holds
//	  gen-N/         the generation the link names
package experiments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/vbworkbench/vbw/core/parallel"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// Config is implemented by every experiment's typed config, which embeds
// Common. Estimate returns what a run of the (validated) config needs, from
// the config alone: Prepare refuses a config whose estimate exceeds the
// limits before anything runs (see Cost). Criteria returns the criteria
// table a run of the config judges (results.Criteria), from the config and,
// for a threshold that depends on the data, the data files of env
// (env.ReadData; env.DataDir is resolved): Prepare refuses a table that is
// not valid, a criterion without a kind say, before anything runs
// (StatedCriteria), and the run's summary must judge that table
// (WriteSummary). Add requires every method of the config's pointer type,
// so an experiment cannot be registered without its estimate and its
// criteria.
type Config interface {
	Base() *Common
	Validate() error
	Estimate() Cost
	Criteria(env *Env) (results.Criteria, error)
}

// StatedCriteria returns the criteria table a run of cfg judges: its
// Criteria, with every claim of the text a claim of ours when the config
// declares settings of ours (Common.Ours, results.Criteria.AsOurs). It
// refuses a table that is not valid (results.Criteria.Validate: a
// criterion without a kind, a claim without the text's number), in one
// line naming the experiment and the criterion.
func StatedCriteria(cfg Config, env *Env) (results.Criteria, error) {
	id := cfg.Base().Experiment
	cs, err := cfg.Criteria(env)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return nil, fmt.Errorf("%s states no criteria table (Config.Criteria): every experiment states its acceptance criteria (an empty table for none)", id)
	}
	if cfg.Base().Ours() {
		cs = cs.AsOurs()
	}
	if err := cs.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	}
	return cs, nil
}

// Common holds the keys every experiment config has at its top level.
type Common struct {
	// Experiment is the registry key, e.g. "chapter3/synthetic" (required).
	Experiment string `toml:"experiment"`
	// Figures lists the thesis artefacts the config produces, e.g. ["fig3.2"].
	Figures []string `toml:"figures" range:"len=0.."`
	// Seed is the base seed; every random stream is derived from it and a
	// name (package core/rng).
	Seed uint64 `toml:"seed" range:"[0,inf)"`
	// DataDir is the data directory; empty means $VBW_DATA or ../shared/data.
	// Relative paths are relative to the directory vbw runs in.
	DataDir string `toml:"data_dir"`
	// Name names the results folder, <out>/<chapter>/<name>. Empty means
	// the config file's name without ".toml": the shipped configs are named
	// after their experiments (configs/chapter3/alice.toml writes
	// results/chapter3/alice), and a user's variant mine.toml of the same
	// experiment writes results/chapter3/mine. Letters, digits, '.', '_'
	// and '-' only.
	Name string `toml:"name"`
	// Settings says how the config's settings stand to the text's:
	// "text", "reduced" (the text's procedure on fewer repetitions,
	// instances, seeds or iterations, named by SettingsNote) or "ours"
	// (config.Settings). Load resolves it: a config without a base that
	// leaves it out is "text", a variant must declare it (config.Resolve).
	Settings config.Settings `toml:"settings,omitempty"`
	// SettingsNote says in a few words what is reduced (or ours), e.g.
	// "3 repetitions, the thesis's 10".
	SettingsNote string `toml:"settings_note,omitempty"`
}

// Ours reports whether the config declares settings of ours: its claims
// of the text are claims of ours (results.ClaimOn, results.Criteria.AsOurs).
func (c *Common) Ours() bool { return c.Settings == config.SettingsOurs }

// Base returns c; it lets generic code reach the common keys.
func (c *Common) Base() *Common { return c }

// Spec describes a registered experiment.
type Spec struct {
	ID    string // "chapter3/synthetic"
	Title string
	// NewConfig returns the experiment's config filled with its defaults.
	NewConfig func() Config
	// Run computes the experiment's results into env.Dir, including
	// summary.json, and returns nil or an error that stopped it.
	Run func(env *Env, cfg Config) error
	// Plot redraws the figures in dir from the result files alone.
	Plot func(dir string) error
}

var (
	registryMu sync.Mutex
	registry   = map[string]Spec{}
	// retired maps each retired experiment ID to where its runs went
	// (Retire).
	retired = map[string]string{}
)

// Retire records that the experiment ID id is no longer registered, with
// a note saying where its runs went ("its settings are now those of
// configs/chapter4/embedded.toml"), so that a config or a command naming
// it fails with the note rather than as an unknown experiment. It panics
// on a registered ID.
func Retire(id, note string) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, ok := registry[id]; ok {
		panic("experiments: retiring the registered experiment " + id)
	}
	retired[id] = note
}

// Retired returns the note of a retired experiment ID (Retire).
func Retired(id string) (note string, ok bool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	note, ok = retired[id]
	return note, ok
}

// Register adds an experiment; it panics on a duplicate ID.
func Register(s Spec) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[s.ID]; dup {
		panic("experiments: duplicate experiment " + s.ID)
	}
	if _, old := retired[s.ID]; old {
		panic("experiments: registering the retired experiment " + s.ID)
	}
	registry[s.ID] = s
}

// Add registers the experiment id, titled title, in one statement:
//
//	func init() { experiments.Add(LatticeID, "…", DefaultLatticeConfig, RunLattice, PlotLattice) }
//
// defaults returns the experiment's config filled with its defaults (a
// value of the config type C, whose pointer *C is the Config); Add sets its
// Experiment key to id, so that an experiment family whose members share
// code and differ in config registers each member with its own ID and
// defaults function. run computes the results of a config (*C, no type
// assertion needed) and plot redraws the figures of a results folder (nil
// if there are none). Add panics on a duplicate ID.
//
// An experiment package only needs its own init: the vbw command links
// every package that calls Add (experiments/cmd/vbw/experiments_gen.go,
// written by go generate).
func Add[C any, P interface {
	*C
	Config
}](id, title string, defaults func() C, run func(*Env, P) error, plot func(dir string) error) {
	Register(Spec{ID: id, Title: title,
		NewConfig: func() Config {
			c := defaults()
			P(&c).Base().Experiment = id
			return P(&c)
		},
		Run:  func(env *Env, cfg Config) error { return run(env, cfg.(P)) },
		Plot: plot,
	})
}

// Lookup returns the experiment with the given ID.
func Lookup(id string) (Spec, bool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	s, ok := registry[id]
	return s, ok
}

// List returns every registered experiment, sorted by ID.
func List() []Spec {
	registryMu.Lock()
	defer registryMu.Unlock()
	var l []Spec
	for _, s := range registry {
		l = append(l, s)
	}
	sort.Slice(l, func(i, j int) bool { return l[i].ID < l[j].ID })
	return l
}

// Env is what a running experiment needs besides its config.
type Env struct {
	Ctx     context.Context
	ID      string
	Dir     string // output directory of this experiment
	Quick   bool
	Workers int    // parallel workers for independent cells (≥ 1)
	DataDir string // resolved data directory
	// Hash identifies the resolved config (without data_dir).
	Hash string
	// CellKey identifies the config and the build of the program; stored
	// cells with another key are recomputed, so that a changed program never
	// reuses results computed by an older one.
	CellKey string
	// Log receives progress and warnings (stderr in the CLI).
	Log io.Writer
	// Shard restricts a cell sweep to one of several disjoint parts.
	Shard Shard
	// MergeOnly: assemble results from stored cells, computing none.
	MergeOnly bool
	// MergeShards is the number of shards the cells were computed in, if
	// known (0: unknown); a merge that lacks cells names the shards to run
	// again.
	MergeShards int

	// CellRoot is the directory whose cells/ holds the finished cells, the
	// results folder's state directory (Dir is a staging folder while the
	// run computes); empty means Dir.
	CellRoot string
	// Limits bound the run (env.CheckMemory).
	Limits Limits
	// Settings are the config's settings relative to the text's
	// (Common.Settings); on settings of ours WriteSummary makes the
	// summary's claims of the text claims of ours.
	Settings config.Settings
	// Criteria, when set, is the table the config states
	// (StatedCriteria); WriteSummary refuses a summary that judges another.
	Criteria results.Criteria

	// budget is the run's worker tokens (nil: Workers goroutines, as
	// in vbw verify); the job's own goroutine holds one outside its cells.
	budget *parallel.Budget
	// jobSeconds estimates the job's CPU seconds (Job.estimatedSeconds),
	// shared among cells without a recorded time.
	jobSeconds float64
	// mainCPU0 is the thread CPU time at which the job's own work last
	// resumed (see suspend).
	mainCPU0 float64

	mu         sync.Mutex
	cpu        float64 // thread CPU seconds of the job's own work and its cells
	cpuUnknown bool
	warnings   []string
	cells      results.CellCounts
	runs       []results.RunRecord
	data       []results.DataRecord
}

// WriteSummary completes s with what the environment knows (experiment,
// config hash, quick, the run's warnings, the data files read and a warning
// for each one that was not verified) and writes summary.json and scorecard.md. intro is the
// scorecard's explanation of its checks (see results.Scorecard).
//
// The summary must have a criteria table (results.Summary.Criteria; an
// empty one for an experiment without criteria), judge every criterion of
// it, and its claims must name criteria of it; a summary that does not is a
// bug of the experiment, and WriteSummary returns an error instead of
// writing it.
func (e *Env) WriteSummary(s *results.Summary, intro string) error {
	s.Experiment, s.ConfigHash, s.Quick = e.ID, e.Hash, e.Quick
	if s.Criteria == nil {
		return fmt.Errorf("summary of %s has no criteria table (results.Summary.Criteria): every experiment states its acceptance criteria", e.ID)
	}
	if e.Settings == config.SettingsOurs {
		s.AsOurs()
	}
	if err := s.Validate(); err != nil {
		return err
	}
	if e.Criteria != nil {
		if err := sameCriteria(e.Criteria, s.Criteria); err != nil {
			return fmt.Errorf("summary of %s: %w", e.ID, err)
		}
	}
	for _, w := range e.Warnings() {
		if !slices.Contains(s.Warnings, w) {
			s.Warnings = append(s.Warnings, w)
		}
	}
	s.Data = e.DataRecords()
	var own []string
	for _, d := range s.Data {
		if !d.Checked {
			own = append(own, d.File)
			w := fmt.Sprintf("data file %s was not checked: %s", d.File, d.Note)
			if !slices.Contains(s.Warnings, w) {
				s.Warnings = append(s.Warnings, w)
			}
		}
	}
	if len(own) > 0 {
		notTheText(s, own)
	}
	if err := results.WriteJSON(e.Path("summary.json"), s); err != nil {
		return err
	}
	return results.WriteFileAtomic(e.Path("scorecard.md"), results.Scorecard(s, intro))
}

// sameCriteria returns an error unless the summary's table got has the
// criteria of the stated table want, in order and of the same kinds.
func sameCriteria(want, got results.Criteria) error {
	for i := range max(len(want), len(got)) {
		switch {
		case i >= len(got):
			return fmt.Errorf("its criteria table lacks %q, which the config states (Config.Criteria)", want[i].ID)
		case i >= len(want):
			return fmt.Errorf("its criteria table has %q, which the config does not state (Config.Criteria)", got[i].ID)
		case want[i].ID != got[i].ID || want[i].Kind != got[i].Kind:
			return fmt.Errorf("its criteria table has %q (%s) where the config states %q (%s) (Config.Criteria)", got[i].ID, got[i].Kind, want[i].ID, want[i].Kind)
		}
	}
	return nil
}

// notTheText marks every claim of the text (and every extension) of a run
// on data other than the text's (the files own, which no published
// checksum verifies) as not applicable: the text's numbers are of its
// data. The sanity checks still judge the run. The findings written for
// the checks it marks are dropped.
func notTheText(s *results.Summary, own []string) {
	why := fmt.Sprintf("the data are not the text's (%s): the text's claims do not apply", strings.Join(own, ", "))
	drop := map[string]bool{}
	for i := range s.Checks {
		c := &s.Checks[i]
		if c.IsSanity() || c.NotApplicable {
			continue
		}
		if !c.Pass {
			drop[c.Name] = true
		}
		c.Pass, c.NotApplicable, c.Why, c.Spread = false, true, why, nil
	}
	var kept []string
	for _, f := range s.Findings {
		name, _, _ := strings.Cut(f, ": ")
		if !drop[name] {
			kept = append(kept, f)
		}
	}
	s.Findings = kept
}

func (e *Env) cellRoot() string {
	if e.CellRoot != "" {
		return e.CellRoot
	}
	return e.Dir
}

// Stop returns the context's error once the run has been cancelled (an
// interrupt) and nil before; it is the vb.Settings.Stop of every fit.
func (e *Env) Stop() error {
	if e.Ctx == nil {
		return nil
	}
	return e.Ctx.Err()
}

// CellWorkers returns the E-step workers each of n cells may use: the
// cores the cell runner leaves idle when there are fewer cells than
// workers (at least 1). The models' results do not depend on it.
func (e *Env) CellWorkers(n int) int {
	if n <= 0 {
		return max(e.Workers, 1)
	}
	return max(e.Workers/n, 1)
}

// Warnf records a warning for the manifest and prints it to Log.
func (e *Env) Warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	e.mu.Lock()
	e.warnings = append(e.warnings, msg)
	e.mu.Unlock()
	fmt.Fprintf(e.Log, "%s: warning: %s\n", e.ID, msg)
}

// Warnings returns the warnings recorded so far.
func (e *Env) Warnings() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.warnings...)
}

// AddRun records a run (a cell, a restart) for the manifest.
func (e *Env) AddRun(r results.RunRecord) {
	e.mu.Lock()
	e.runs = append(e.runs, r)
	e.mu.Unlock()
}

// Path returns the path of a file in the experiment's directory.
func (e *Env) Path(name string) string { return filepath.Join(e.Dir, name) }

// RunOptions are the command-line settings of RunConfig.
type RunOptions struct {
	Out   string // top output directory; results go to Out/<experiment ID>
	Quick bool   // apply the config's [quick] table
	// Workers run cells in parallel: 0 means one per CPU
	// (runtime.GOMAXPROCS); negative and more than MaxWorkers are refused
	// (CheckWorkers). No more goroutines than cells are started.
	Workers int
	// Limits bound the memory and the work of a run (see Cost).
	Limits  Limits
	DataDir string // overrides $VBW_DATA and the config's data_dir
	Shard   Shard
	Log     io.Writer
	NoPlot  bool
	// MergeOnly computes nothing: every cell must already be stored in the
	// output directory (by sharded runs), and the results are assembled
	// from them (vbw merge).
	MergeOnly bool
	// MergeShards is the number of shards of the sweep (0: unknown); a merge
	// that lacks cells then names the shards that own them.
	MergeShards int
}

// ExperimentOf returns the experiment key of a config file (or of its
// base, for a variant that does not set it) without decoding the rest of
// it.
func ExperimentOf(path string) (string, error) {
	id, err := config.TopString(path, "experiment")
	if err != nil {
		return "", err
	}
	if id == "" {
		return "", fmt.Errorf("%s: missing top-level key \"experiment\" (e.g. experiment = \"chapter3/synthetic\")", path)
	}
	return id, nil
}

// Load reads a config file for its registered experiment.
func Load(path string, quick bool) (Spec, Config, error) {
	id, err := ExperimentOf(path)
	if err != nil {
		return Spec{}, nil, err
	}
	spec, ok := Lookup(id)
	if !ok {
		if note, old := Retired(id); old {
			return Spec{}, nil, fmt.Errorf("%s: experiment %q was retired: %s", path, id, note)
		}
		var ids []string
		for _, s := range List() {
			ids = append(ids, s.ID)
		}
		return Spec{}, nil, fmt.Errorf("%s: unknown experiment %q (known: %s)", path, id, strings.Join(ids, ", "))
	}
	cfg := spec.NewConfig()
	if err := config.Load(path, quick, cfg); err != nil {
		return Spec{}, nil, err
	}
	base := cfg.Base()
	if base.Settings, base.SettingsNote, err = config.Resolve(path, base.Settings, base.SettingsNote); err != nil {
		return Spec{}, nil, err
	}
	return spec, cfg, nil
}

// Job is a loaded, validated config with its results folder, ready to run.
type Job struct {
	Path   string // the config file
	Spec   Spec
	Config Config
	Dir    string // results folder
	// Estimate is the config's Cost for the run's workers: it is within
	// the limits.
	Estimate Estimate
	hash     string // identifies the resolved config (without data_dir and name)
	// resolutions are the hashes of the file's resolutions with and
	// without its [quick] table.
	resolutions results.Resolutions
	data        string           // resolved data directory
	criteria    results.Criteria // the criteria the config states (StatedCriteria)
	o           RunOptions
	started     bool      // run took a worker and opened the folder
	startedAt   time.Time // when
}

// Hash identifies the job's resolved config, without data_dir and name:
// two config files with the same hash compute the same results.
func (j *Job) Hash() string { return j.hash }

// nameOK matches a results folder name.
var nameOK = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ResultsName returns the name of a config's results folder: its name key,
// or the config file's name without ".toml".
func ResultsName(path string, c *Common) (string, error) {
	if c.Name != "" {
		if !nameOK.MatchString(c.Name) {
			return "", fmt.Errorf("%s: %v", path, config.FieldError("name", c.Name, "must be letters, digits, '.', '_' and '-', starting with a letter or digit"))
		}
		return c.Name, nil
	}
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if !nameOK.MatchString(stem) {
		return "", fmt.Errorf("%s: the config file's name %q cannot name a results folder; set name = \"...\" in the config", path, stem)
	}
	return stem, nil
}

// Prepare loads and validates a config file and picks its results folder,
// <out>/<chapter>/<name> (see Common.Name), without computing anything. It
// refuses a config whose estimate (Config.Estimate) exceeds the limits,
// naming the key and its line, and a folder that holds the results of
// another config file that still exists (see claimFile), so that a variant
// never overwrites the results of the config it was copied from.
func Prepare(path string, o RunOptions) (*Job, error) {
	if o.Workers != 0 {
		if err := CheckWorkers(o.Workers); err != nil {
			return nil, err
		}
	}
	if err := o.Limits.Check(); err != nil {
		return nil, err
	}
	spec, cfg, err := Load(path, o.Quick)
	if err != nil {
		return nil, err
	}
	base := cfg.Base()
	dataDir := ResolveDataDir(o.DataDir, base.DataDir)
	est, err := checkCost(path, o, cfg, dataDir)
	if err != nil {
		return nil, err
	}
	name, err := ResultsName(path, base)
	if err != nil {
		return nil, err
	}
	stated, err := StatedCriteria(cfg, &Env{ID: spec.ID, Quick: o.Quick, DataDir: dataDir, Log: io.Discard})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	chapter, _, _ := strings.Cut(spec.ID, "/")
	j := &Job{Path: path, Spec: spec, Config: cfg, Dir: filepath.Join(o.Out, chapter, name), o: o,
		data: dataDir, Estimate: est, criteria: stated}
	// The hash that identifies results leaves out where the data lives (the
	// data files are checked by their SHA-256 instead) and where the results
	// go.
	if j.hash, err = runHash(cfg); err != nil {
		return nil, err
	}
	// The other resolution of the file, so that the manifest records both
	// and a relabelled run is found (Verify).
	_, other, err := Load(path, !o.Quick)
	if err != nil {
		return nil, err
	}
	otherHash, err := runHash(other)
	if err != nil {
		return nil, err
	}
	j.resolutions = results.Resolutions{Full: j.hash, Quick: otherHash}
	if o.Quick {
		j.resolutions = results.Resolutions{Full: otherHash, Quick: j.hash}
	}
	if err := results.OpenFolder(j.Dir).CheckPath(); err != nil {
		return nil, err
	}
	if err := j.checkClaim(); err != nil {
		return nil, err
	}
	return j, nil
}

// claimFile, in a results folder's state directory, holds the absolute
// path of the config file whose results the folder holds.
const claimFile = "config-path"

// legacyClaimFile is where a folder written by an older vbw keeps its claim.
const legacyClaimFile = ".vbw-config-path"

// checkClaim refuses a results folder claimed by another config file that
// still exists. A claim by a file that is gone (a moved checkout, a deleted
// variant) is taken over.
func (j *Job) checkClaim() error {
	abs, err := filepath.Abs(j.Path)
	if err != nil {
		return err
	}
	old, err := os.ReadFile(filepath.Join(results.OpenFolder(j.Dir).StateDir(), claimFile))
	if err != nil {
		if old, err = os.ReadFile(filepath.Join(j.Dir, legacyClaimFile)); err != nil {
			return nil // no claim yet
		}
	}
	owner := strings.TrimSpace(string(old))
	if owner == "" || owner == abs {
		return nil
	}
	if _, err := os.Stat(owner); err != nil {
		return nil
	}
	return fmt.Errorf("%s: its results folder %s holds the results of another config, %s; set name = \"...\" in this config (or rename the file, or use -out) so that it does not overwrite them",
		j.Path, j.Dir, owner)
}

// claim records the job's config file as the owner of its results folder.
func (j *Job) claim() error {
	abs, err := filepath.Abs(j.Path)
	if err != nil {
		return err
	}
	return results.WriteFileAtomic(filepath.Join(results.OpenFolder(j.Dir).StateDir(), claimFile), []byte(abs+"\n"))
}

// PrepareAll prepares every config file before any runs, so that a bad
// config or two configs that would write to one results folder are refused
// before anything is computed.
func PrepareAll(paths []string, o RunOptions) ([]*Job, error) {
	var jobs []*Job
	byDir := map[string]string{}
	for _, p := range paths {
		j, err := Prepare(p, o)
		if err != nil {
			return nil, err
		}
		if other, dup := byDir[filepath.Clean(j.Dir)]; dup {
			return nil, fmt.Errorf("%s and %s would both write to %s; give one of them another name (name = \"...\")", other, p, j.Dir)
		}
		byDir[filepath.Clean(j.Dir)] = p
		jobs = append(jobs, j)
	}
	return jobs, nil
}

// RunConfig loads, runs and plots the experiment of one config file.
func RunConfig(ctx context.Context, path string, o RunOptions) (dir string, err error) {
	j, err := Prepare(path, o)
	if err != nil {
		return "", err
	}
	return j.Run(ctx)
}

// Run computes the job's experiment and draws its figures; it returns the
// results folder.
//
// The folder always describes one run: the experiment writes into a
// staging folder in the folder's state, and only a run that succeeds
// commits it, with its manifest (which records every output's size and
// SHA-256), as the folder's new generation by one rename (see
// results.Folder): a reader, or a kill at any instant, sees the previous
// results or the new ones, whole. A run that fails leaves the previous
// results as they were; its finished cells stay in the state's cells/
// (keyed by the config hash) for the next attempt, and what a killed run
// left (staging folders, temporary files) is removed by the next one. Two
// runs cannot write a folder at once (LockFile). A -quick run into a folder
// that holds a full run (or the reverse) is refused. A shard (-shard i/N)
// computes cells only, without the lock, so that the shards of one sweep
// can share a folder; vbw merge writes the results.
//
// Run alone computes on a budget of its own workers, and its manifest's
// CPU time is the process's; RunJobs runs jobs on one shared budget.
func (j *Job) Run(ctx context.Context) (dir string, err error) { return j.run(ctx, nil, tierStart) }

// run is Run on the worker budget shared (nil: one of its own, and the
// process CPU time in the manifest): the job's own work holds a token,
// claimed at its longest cell's estimated seconds to start (at startTier),
// and its cells
// claim their own (RunCellsOrdered). With a shared budget the manifest's
// CPU time is the thread CPU time of the job's own goroutine and of its
// cells (results.Manifest.CPUScope).
func (j *Job) run(ctx context.Context, shared *parallel.Budget, startTier int) (dir string, err error) {
	spec, cfg, o := j.Spec, j.Config, j.o
	if strings.TrimSpace(o.Out) == "" {
		return "", errors.New("-out is empty: name the folder the results go to (default output)")
	}
	base := cfg.Base()
	resolved, _, err := config.Encode(cfg)
	if err != nil {
		return "", err
	}
	workers := o.Workers
	if workers <= 0 {
		workers = defaultWorkers()
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	budget := shared
	if budget == nil {
		budget = parallel.NewBudget(workers)
	}
	jobSeconds := j.estimatedSeconds()
	if err := budget.Acquire(ctx, j.startSeconds(), startTier); err != nil {
		return "", err
	}
	defer budget.Release(1)
	j.started, j.startedAt = true, time.Now()
	// The job's own work is measured on its thread (Env.suspend).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	folder := results.OpenFolder(j.Dir)
	var lock *folderLock
	if !o.Shard.Active() {
		if lock, err = openForWriting(folder); err != nil {
			return "", err
		}
		defer lock.release()
		if err := j.checkQuick(); err != nil {
			return "", err
		}
	} else {
		folder.Clean(false, CellDir)
	}
	staging, err := folder.NewStaging()
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(staging)
	env := &Env{Ctx: ctx, ID: spec.ID, Dir: staging, CellRoot: folder.StateDir(), Quick: o.Quick, Workers: workers,
		DataDir: j.data, Hash: j.hash, CellKey: j.hash + "-" + BuildID(), Log: log, Shard: o.Shard, MergeOnly: o.MergeOnly, MergeShards: o.MergeShards, Limits: o.Limits,
		Settings: base.Settings, Criteria: j.criteria, budget: budget, jobSeconds: jobSeconds}
	man := results.NewManifest(spec.ID, j.hash, base.Seed, o.Quick)
	man.Config = j.Path
	man.Settings, man.SettingsNote = string(base.Settings), base.SettingsNote
	man.Resolutions, man.CellKey = &j.resolutions, env.CellKey
	if man.VCS.Revision == "" {
		// Built without VCS stamping (go run, tests, -buildvcs=false): ask
		// git about the config's checkout, if it is one.
		if v, err := results.GitVCS(filepath.Dir(j.Path)); err == nil {
			man.VCS = v
		}
	}
	man.Machine = results.ThisMachine(workers)
	cpu0, cpuKnown := results.ProcessCPUSeconds()
	start := time.Now()
	env.resume()
	err = spec.Run(env, cfg)
	env.suspend()
	if err != nil {
		return j.Dir, fmt.Errorf("%s: %w", spec.ID, err)
	}
	if o.Shard.Active() {
		return j.Dir, nil
	}
	man.WallSeconds = time.Since(start).Seconds()
	if shared == nil {
		if cpu1, ok := results.ProcessCPUSeconds(); ok && cpuKnown {
			man.CPUSeconds = cpu1 - cpu0
		}
	} else if !env.cpuUnknown {
		man.CPUSeconds, man.CPUScope = env.cpu, results.CPUThreads
	}
	man.Machine.LoadEnd = results.LoadAverage()
	man.Cells = env.CellCounts()
	man.Runs = env.runs
	man.Data = env.DataRecords()
	man.Warnings = append([]string{}, env.Warnings()...)
	man.Status = "ok"
	if err := results.WriteFileAtomic(filepath.Join(staging, results.ConfigFile), resolved); err != nil {
		return "", err
	}
	if !o.NoPlot && spec.Plot != nil {
		if err := spec.Plot(staging); err != nil {
			return j.Dir, fmt.Errorf("%s: plot: %w", spec.ID, err)
		}
	}
	if err := commit(folder, lock, staging, man); err != nil {
		return "", fmt.Errorf("%s: %w", spec.ID, err)
	}
	if err := j.claim(); err != nil {
		return "", err
	}
	return j.Dir, nil
}

// openForWriting takes the lock of the results folder f and tidies it for
// a run that will commit to it: it finishes what a killed run left (an
// interrupted migration; staging folders, temporary files and uncommitted
// generations, see results.Folder.Clean) and moves a folder written by an
// older vbw into the managed layout (refused while an older vbw holds its
// lock). The caller releases the lock.
func openForWriting(f results.Folder) (*folderLock, error) {
	lock, err := lockFolder(f)
	if err != nil {
		return nil, err
	}
	if data, err := os.ReadFile(f.LegacyLock()); err == nil {
		if err := holderError(f.Path, f.LegacyLock(), data); err != nil {
			lock.release()
			return nil, err
		}
	}
	if err := f.Migrate(claimFile); err != nil {
		lock.release()
		return nil, err
	}
	f.Clean(true, CellDir)
	return lock, nil
}

// commit describes the files in staging in the manifest man, writes it and
// commits staging as the folder's results, if this run still holds the
// folder's lock.
func commit(f results.Folder, lock *folderLock, staging string, man *results.Manifest) error {
	var err error
	if man.Outputs, err = results.DescribeOutputs(staging); err != nil {
		return err
	}
	if err := results.WriteJSON(filepath.Join(staging, results.ManifestFile), man); err != nil {
		return err
	}
	if !lock.held() {
		return fmt.Errorf("%s: another run took over the lock %s; these results were not written", f.Path, lock.path)
	}
	return f.Commit(staging)
}

// checkQuick refuses to mix a -quick run and a full run in one folder.
func (j *Job) checkQuick() error {
	m, err := results.ReadManifest(filepath.Join(j.Dir, results.ManifestFile))
	if err != nil {
		return nil // no previous run (or an unreadable manifest: replaced)
	}
	if m.Quick != j.o.Quick {
		kind, other := "a full run", "-quick"
		if m.Quick {
			kind, other = "a -quick run", "full"
		}
		return fmt.Errorf("%s holds the results of %s; a %s run would mix with them: write it elsewhere (-out)", j.Dir, kind, other)
	}
	return nil
}

var (
	buildOnce sync.Once
	buildID   string
)

// BuildID identifies the running program: the first 12 hex digits of the
// SHA-256 of its executable ("unknown" if it cannot be read).
func BuildID() string {
	buildOnce.Do(func() {
		buildID = "unknown"
		exe, err := os.Executable()
		if err != nil {
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return
		}
		buildID = hex.EncodeToString(h.Sum(nil))[:12]
	})
	return buildID
}

// PlotDir redraws the figures of the experiment id from the files of the
// results folder dir, and commits them with the folder's data files as its
// next generation, its manifest recording the new figures (so a folder's
// figures always match its manifest). The data files must match the
// manifest.
func PlotDir(dir, id string) error {
	spec, ok := Lookup(id)
	if !ok {
		return fmt.Errorf("%s: unknown experiment %q", dir, id)
	}
	if spec.Plot == nil {
		return nil
	}
	folder := results.OpenFolder(dir)
	lock, err := openForWriting(folder)
	if err != nil {
		return err
	}
	defer lock.release()
	if _, err := folder.Current(); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	// The lock keeps other runs from committing: folder.Path is one
	// generation throughout.
	if err := results.VerifyOutputs(folder.Path); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	man, err := results.ReadManifest(filepath.Join(folder.Path, results.ManifestFile))
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	staging, err := folder.NewStaging()
	if err != nil {
		return err
	}
	defer os.RemoveAll(staging)
	for _, o := range man.Outputs {
		if !results.IsFigure(o.Name) {
			if err := results.LinkOrCopy(filepath.Join(folder.Path, o.Name), filepath.Join(staging, o.Name)); err != nil {
				return fmt.Errorf("plot: %w", err)
			}
		}
	}
	if err := spec.Plot(staging); err != nil {
		return fmt.Errorf("%s: plot: %w", id, err)
	}
	return commit(folder, lock, staging, man)
}
