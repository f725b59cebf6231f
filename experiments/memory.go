package experiments

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// AvailableMemory returns the memory the machine can give a new run, in
// bytes: MemAvailable from /proc/meminfo (Linux). ok is false where it
// cannot be read. Tests may replace it.
var AvailableMemory = func() (bytes float64, ok bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	return parseMemAvailable(data)
}

// parseMemAvailable reads the MemAvailable line ("MemAvailable: 123 kB").
func parseMemAvailable(data []byte) (float64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemAvailable:" {
			v, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				return 0, false
			}
			if len(f) >= 3 && strings.EqualFold(f[2], "kB") {
				v *= 1024
			}
			return v, true
		}
	}
	return 0, false
}

// MemoryNeed is an estimate of the memory a run needs, in bytes, and what
// it is made of, for the error message.
type MemoryNeed struct {
	Bytes float64 // float64, so that impossible sizes do not overflow
	What  string  // e.g. "4 workers × k×k transition arrays at k = 100000"
}

// CheckMemory refuses, before anything is allocated, a run whose estimated
// need exceeds the memory limit of l (by default the memory available, see
// Limits): one line that says how much it needs and what for. It is the
// check of a need known only once the data are read (Cost is the one made
// from the config before the run); experiments call it as env.CheckMemory.
func CheckMemory(need MemoryNeed, l Limits) error {
	lim, src := l.memory()
	if !(need.Bytes <= lim) {
		return fmt.Errorf("this run needs about %s of memory (%s), more than the limit of %s (%s); reduce the sizes in the config, or raise the limit with -max-memory %s (or VBW_MAX_MEMORY) on a machine that has it",
			FormatBytes(need.Bytes), need.What, FormatBytes(lim), src, ceilBytes(need.Bytes))
	}
	return nil
}

// CheckMemory is CheckMemory under the run's limits.
func (e *Env) CheckMemory(need MemoryNeed) error { return CheckMemory(need, e.Limits) }

// FormatBytes writes a byte count with a binary unit: "512 B", "3.2 GiB".
func FormatBytes(b float64) string {
	if math.IsNaN(b) || math.IsInf(b, 0) {
		return "an unbounded amount"
	}
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f B", b)
	}
	if b >= 1e4 {
		return fmt.Sprintf("%.3g %s", b, units[i])
	}
	return fmt.Sprintf("%.1f %s", b, units[i])
}
