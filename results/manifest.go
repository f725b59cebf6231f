package results

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// Manifest is the content of manifest.json: what was run, with which
// seeds and which build, how long it took and how each run ended.
//
// Manifest is not safe for concurrent use; a worker pool should send its
// RunRecord values to one goroutine that calls AddRun.
type Manifest struct {
	Experiment string `json:"experiment"`
	Config     string `json:"config,omitempty"` // path of the config file that was run
	ConfigHash string `json:"config_hash"`
	// Resolutions are the hashes of the config file's two resolutions when
	// it ran, without its [quick] table and with it: ConfigHash is the one
	// Quick says (vbw verify checks it). Nil in older manifests.
	Resolutions *Resolutions `json:"resolutions,omitempty"`
	// CellKey is the key the run's cells are stored under (its config
	// hash and its build); empty in older manifests.
	CellKey string `json:"cell_key,omitempty"`
	// Settings are the config's settings relative to the text's: "text",
	// "reduced" (SettingsNote says what is fewer) or "ours"; empty in
	// older manifests. The report chooses the run that judges an artefact
	// by it.
	Settings     string   `json:"settings,omitempty"`
	SettingsNote string   `json:"settings_note,omitempty"`
	Seed         uint64   `json:"seed"` // base seed; run seeds are derived from it
	Quick        bool     `json:"quick"`
	GoVersion    string   `json:"go_version"`
	MainModule   Module   `json:"main_module"`
	Modules      []Module `json:"modules"` // dependencies, as linked into the binary
	VCS          VCS      `json:"vcs"`     // zero if unknown
	Start        string   `json:"start"`   // RFC 3339, UTC
	WallSeconds  float64  `json:"wall_seconds"`
	// CPUSeconds is the CPU time (user and system) the vbw process used
	// while the experiment computed (the figures left out, like
	// WallSeconds), 0 when unknown; CPUSeconds/WallSeconds is the number
	// of cores the run kept busy. A resumed run's times cover the cells it
	// computed, not those an earlier attempt stored.
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// Machine is the computer the run ran on (nil in manifests written
	// before it was recorded).
	Machine *Machine `json:"machine,omitempty"`
	// Cells, for an experiment that computes in cells, counts those this
	// run computed and those it took from the store of an earlier attempt
	// (interrupted, or the same config run again by the same build), whose
	// time WallSeconds and CPUSeconds leave out. Nil for a run without
	// cells, and in manifests written before it was recorded.
	Cells  *CellCounts `json:"cells,omitempty"`
	Status string      `json:"status,omitempty"` // outcome of the whole experiment, e.g. "ok"
	Runs   []RunRecord `json:"runs"`
	// Data lists the data files read, with their checksums and whether
	// they were verified.
	Data []DataRecord `json:"data"`
	// Outputs lists every file the run wrote into its folder, with its
	// size and SHA-256 (see VerifyOutputs).
	Outputs  []Output `json:"outputs"`
	Warnings []string `json:"warnings"`

	start time.Time
}

// Resolutions are the hashes of a config file's two resolutions
// (Manifest.Resolutions).
type Resolutions struct {
	Full  string `json:"full"`
	Quick string `json:"quick"`
}

// CellCounts counts a run's cells (Manifest.Cells).
type CellCounts struct {
	Computed int `json:"computed"`
	Resumed  int `json:"resumed"`
	// ResumedSeconds adds up the wall times the resumed cells took when
	// they were computed, each on its own worker.
	ResumedSeconds float64 `json:"resumed_seconds"`
}

// Module is a module linked into the binary.
type Module struct {
	Path    string `json:"path"`
	Version string `json:"version"`
	Sum     string `json:"sum,omitempty"`
	Replace string `json:"replace,omitempty"` // "path version" of the replacement, if any
}

// VCS identifies the source revision the binary was built from.
type VCS struct {
	System   string `json:"system,omitempty"` // "git"
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"` // commit time, RFC 3339
	Modified bool   `json:"modified"`       // uncommitted changes at build time
	Source   string `json:"source,omitempty"`
}

// RunRecord records one run (one seed, or one seed and restart) of an
// experiment.
type RunRecord struct {
	Name        string   `json:"name"`   // e.g. "run3" or "run3/restart1"
	Seed        uint64   `json:"seed"`   // the seed derived for this run
	Status      string   `json:"status"` // e.g. "converged", "max_iter", "failed"
	WallSeconds float64  `json:"wall_seconds"`
	Iterations  int      `json:"iterations"`
	Error       string   `json:"error,omitempty"`
	Warnings    []string `json:"warnings,omitempty"`
}

// NewManifest returns a manifest for a run of experiment starting now, with
// the Go version, modules and VCS revision of the running binary.
//
// Build information comes from runtime/debug.ReadBuildInfo. When it is
// missing the module fields stay empty and a warning says so. The VCS
// revision is absent when the binary was built with -buildvcs=false (as
// GOFLAGS sets in this environment), by `go run`, or as a test; VCS is then
// left zero without a warning, and a caller may fill it with GitVCS.
func NewManifest(experiment, configHash string, seed uint64, quick bool) *Manifest {
	start := time.Now()
	m := &Manifest{
		Experiment: experiment,
		ConfigHash: configHash,
		Seed:       seed,
		Quick:      quick,
		GoVersion:  runtime.Version(),
		Start:      start.UTC().Format(time.RFC3339),
		Modules:    []Module{},
		Runs:       []RunRecord{},
		Data:       []DataRecord{},
		Warnings:   []string{},
		start:      start,
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		m.Warnings = append(m.Warnings, "no build information in the binary; module versions unknown")
		return m
	}
	m.fillBuildInfo(bi)
	return m
}

func (m *Manifest) fillBuildInfo(bi *debug.BuildInfo) {
	if bi.GoVersion != "" {
		m.GoVersion = bi.GoVersion
	}
	m.MainModule = module(&bi.Main)
	for _, d := range bi.Deps {
		m.Modules = append(m.Modules, module(d))
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs":
			m.VCS.System = s.Value
		case "vcs.revision":
			m.VCS.Revision = s.Value
		case "vcs.time":
			m.VCS.Time = s.Value
		case "vcs.modified":
			m.VCS.Modified = s.Value == "true"
		}
	}
	if m.VCS.Revision != "" {
		m.VCS.Source = "buildinfo"
	}
}

func module(d *debug.Module) Module {
	mod := Module{Path: d.Path, Version: d.Version, Sum: d.Sum}
	if d.Replace != nil {
		mod.Replace = strings.TrimSpace(d.Replace.Path + " " + d.Replace.Version)
	}
	return mod
}

// AddRun appends a run entry.
func (m *Manifest) AddRun(r RunRecord) { m.Runs = append(m.Runs, r) }

// Warnf adds a warning.
func (m *Manifest) Warnf(format string, args ...any) {
	m.Warnings = append(m.Warnings, fmt.Sprintf(format, args...))
}

// Finish sets WallSeconds to the time from Start to end (with the monotonic
// clock when m came from NewManifest and Start was not changed).
func (m *Manifest) Finish(end time.Time) {
	start := m.start
	if start.IsZero() || start.UTC().Format(time.RFC3339) != m.Start {
		start, _ = time.Parse(time.RFC3339, m.Start)
	}
	m.WallSeconds = end.Sub(start).Seconds()
}

// ReadManifest reads a manifest.json file.
func ReadManifest(path string) (*Manifest, error) {
	var m Manifest
	if err := ReadJSON(path, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// GitVCS asks git for the revision checked out in dir and whether the work
// tree has uncommitted changes. It is the fallback for binaries built
// without VCS stamping; it fails if git is not installed, dir is not in a
// repository, or the repository has no commit yet.
func GitVCS(dir string) (VCS, error) {
	rev, err := git(dir, "rev-parse", "HEAD")
	if err != nil {
		return VCS{}, err
	}
	t, err := git(dir, "log", "-1", "--format=%cI")
	if err != nil {
		return VCS{}, err
	}
	status, err := git(dir, "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return VCS{}, err
	}
	return VCS{System: "git", Revision: rev, Time: t, Modified: status != "", Source: "git"}, nil
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.Join(strings.Fields(stderr.String()), " ")
		if msg == "" {
			msg = err.Error()
		}
		return "", errors.New("git " + strings.Join(args, " ") + ": " + msg)
	}
	return strings.TrimSpace(string(out)), nil
}
