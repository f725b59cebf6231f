package results

import (
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Machine describes the computer a run ran on, so that its times can be
// read: the same run takes longer on fewer cores or beside other work.
type Machine struct {
	Host     string `json:"host,omitempty"`
	OS       string `json:"os"`
	Arch     string `json:"arch"`
	CPUModel string `json:"cpu_model,omitempty"` // Linux: "model name" of /proc/cpuinfo
	CPUs     int    `json:"cpus"`                // runtime.NumCPU
	Workers  int    `json:"workers"`             // the run's -workers
	// LoadStart and LoadEnd are the 1-minute load averages (Linux
	// /proc/loadavg) when the run started and ended, -1 when unknown; a
	// load above CPUs means the run shared the cores with other work.
	LoadStart float64 `json:"load_start"`
	LoadEnd   float64 `json:"load_end"`
}

// ThisMachine returns the machine this process runs on, for a run with the
// given number of workers, with the load average now as LoadStart.
func ThisMachine(workers int) *Machine {
	host, _ := os.Hostname()
	return &Machine{Host: host, OS: runtime.GOOS, Arch: runtime.GOARCH, CPUModel: cpuModel(),
		CPUs: runtime.NumCPU(), Workers: workers, LoadStart: LoadAverage(), LoadEnd: -1}
}

// LoadAverage returns the 1-minute load average of the machine (Linux), or
// -1 when it cannot be read.
func LoadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}

// cpuModel returns the first "model name" of /proc/cpuinfo, or "".
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
