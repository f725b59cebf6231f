package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// InvocationFile, in a top output directory, records the last vbw run
// over several configs into it: the whole invocation's wall and CPU time
// beside each config's.
const InvocationFile = "vbw-run.json"

// Invocation is the record of one vbw run over several configs (their
// cells on one budget of workers), written to OUT/InvocationFile when it
// ends.
type Invocation struct {
	Args  []string `json:"args"`
	Start string   `json:"start"` // RFC 3339, UTC
	// WallSeconds and CPUSeconds are the invocation's, from the start of
	// the first config to the end of the last; CPUSeconds is the
	// process's CPU time (user and system), 0 when unknown.
	WallSeconds float64         `json:"wall_seconds"`
	CPUSeconds  float64         `json:"cpu_seconds,omitempty"`
	Machine     *Machine        `json:"machine"`
	Jobs        []InvocationJob `json:"jobs"`

	start    time.Time
	cpu0     float64
	cpuKnown bool
}

// InvocationJob is one config of an Invocation.
type InvocationJob struct {
	Config      string  `json:"config"`
	Dir         string  `json:"dir"`
	OK          bool    `json:"ok"`      // its results were committed
	Started     bool    `json:"started"` // it computed (false: stopped before it started)
	WallSeconds float64 `json:"wall_seconds"`
}

// StartInvocation starts the record of a run with the given arguments
// and workers now.
func StartInvocation(args []string, workers int) *Invocation {
	r := &Invocation{Args: append([]string{}, args...), start: time.Now(), Machine: ThisMachine(workers)}
	r.Start = r.start.UTC().Format(time.RFC3339)
	r.cpu0, r.cpuKnown = ProcessCPUSeconds()
	return r
}

// Elapsed returns the wall time since the start.
func (r *Invocation) Elapsed() time.Duration { return time.Since(r.start) }

// Finish completes the record with its jobs and writes it to
// out/InvocationFile.
func (r *Invocation) Finish(out string, jobs []InvocationJob) error {
	r.WallSeconds = time.Since(r.start).Seconds()
	if c, ok := ProcessCPUSeconds(); ok && r.cpuKnown {
		r.CPUSeconds = c - r.cpu0
	}
	r.Machine.LoadEnd = LoadAverage()
	r.Jobs = jobs
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	return WriteJSON(filepath.Join(out, InvocationFile), r)
}

// ReadInvocation reads a run record.
func ReadInvocation(path string) (*Invocation, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Invocation
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return &r, nil
}
