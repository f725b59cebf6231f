package experiments

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/vbworkbench/vbw/experiments/config"
)

// Cost is an experiment's estimate of what one run of its config needs,
// made by the config's Estimate method (Config) from the config alone and
// the published shapes of the data files it reads, before anything is
// allocated or computed. Prepare evaluates it (Cost.Eval) and refuses a
// config whose memory or work exceeds the limits (Limits) with one line
// that names the key behind it, the estimate and the limit.
//
// Memory, CellMemory and Work are each a sum of Parts, a Part a product of Factors, and a Factor
// is a size set by a config key (Key, KeyN) or a constant of the
// experiment or its data (Fixed). Sizes are float64, so that the product of
// absurd sizes (restarts = 1e12 times k² = 1e12) is a large number rather
// than an int64 that wraps round to a small or negative one; the limits are
// capped (MaxMemoryLimit, MaxWorkLimit) so that every product of sizes a
// run that passes forms fits an int.
//
// An estimate is an upper bound of the order of magnitude, not a
// prediction: iteration caps are taken as reached, and a part is counted
// in 8-byte words or in operations of its inner loop, constants of a few
// included, lower-order parts left out.
type Cost struct {
	// Cells are the factors whose product is the number of cells of the
	// run (RunCells), one factor of the run's cell count per key (none: a
	// run of one cell). min(workers, cells) cells run at once. The
	// bookkeeping of every cell (its name, its result slot and flags,
	// CellBytes in all) is added to the memory here, so that no
	// experiment can leave it out.
	Cells []Factor
	// Memory is held for the whole run whatever the number of workers:
	// the data, the tables, the results of every cell until the tables
	// are written.
	Memory []Part
	// CellMemory is held by each running cell.
	CellMemory []Part
	// Work is the computation of the whole run, in operations: one
	// multiply-add (or one random draw, one exp) of an inner loop, about
	// a nanosecond of one core (OpsPerSecond).
	Work []Part
}

// Factor is one size of an estimate.
type Factor struct {
	// Key is the config key that sets the size, e.g. "model.k_grid"; ""
	// for a constant of the experiment or its data (Fixed).
	Key string
	// Value is the key's value as the config has it, which a refusal
	// shows: a list for model.k_grid = [1000000].
	Value any
	// N is the size.
	N float64
	// What says what N counts where it is not the key's value itself
	// (a list's largest element, a constant): "genes".
	What string
	// data, if not nil, is the data file whose size N is, set by Prepare
	// (DataRows, DataCols, DataBytes).
	data *dataRef
}

// Key is the size of the config key key whose value v is the size itself:
// Key("restarts", c.Restarts).
func Key(key string, v int) Factor { return Factor{Key: key, Value: v, N: float64(v)} }

// KeyN is a size n that the config key key sets through its value v, such
// as a list's largest element or sum; what says what n counts:
// KeyN("model.k_grid", c.KGrid, float64(slices.Max(c.KGrid)), "largest k").
func KeyN(key string, v any, n float64, what string) Factor {
	return Factor{Key: key, Value: v, N: n, What: what}
}

// Plus returns the size f.N + n, still set by f's key (a refusal names
// it), counting what: k.Plus(p, "states + symbols") is k + p, set by k.
func (f Factor) Plus(n float64, what string) Factor {
	f.N += n
	f.What = what
	return f
}

// Fixed is a constant n of the experiment or its data: Fixed(58, "genes").
func Fixed(n float64, what string) Factor { return Factor{N: n, What: what} }

// Part is one part of an estimate: Unit (bytes, or operations) times the
// product of the factors.
type Part struct {
	What string // what it is, e.g. "forward-backward passes"
	Unit float64
	Of   []Factor
}

// Words is a memory part of 8-byte words: Words("responsibilities",
// points, analysers).
func Words(what string, of ...Factor) Part { return Part{What: what, Unit: 8, Of: of} }

// Ops is a work part of perUnit operations per unit of the product of the
// factors: Ops("E steps", 40, restarts, iterations, points).
func Ops(what string, perUnit float64, of ...Factor) Part {
	return Part{What: what, Unit: perUnit, Of: of}
}

// RowBytes is the memory of one row of a results table while the table is
// built (its slice and a few formatted numbers with their string headers),
// which also covers the value's share of a stored cell's JSON: a value
// written to a long-form table (params.csv, trace.csv) costs this, not 8
// bytes.
const RowBytes = 256

// Rows is a memory part of rows of results tables: Rows("params.csv rows
// of C", cells, p, k).
func Rows(what string, of ...Factor) Part { return Part{What: what, Unit: RowBytes, Of: of} }

// Value returns Unit times the product of the factors; +Inf for a
// product beyond float64, never NaN (a negative size counts as 0).
func (t Part) Value() float64 {
	v := t.Unit
	for _, f := range t.Of {
		v *= math.Max(f.N, 0)
	}
	if math.IsNaN(v) {
		return math.Inf(1)
	}
	return v
}

// CellBytes is the memory the framework counts for every cell of a run
// whatever the experiment keeps: its name (a string of about 16 bytes and
// its header), its slot of the results and done slices, its index in the
// order of the work, its entry in the manifest's run records.
const CellBytes = 160

// OpsPerSecond is the nominal speed of one core in the operations of a
// Cost, used to state a work estimate or limit as time. The chapter 6 AIS
// sweep at K = 16384 (an estimate of 2.7e12 operations) took 42 core-minutes,
// about 1.1e9 a second.
const OpsPerSecond = 1e9

// Limits bound what one run may need: Prepare refuses a config whose
// estimate exceeds them. The zero value means the defaults.
type Limits struct {
	// Memory in bytes; 0: the memory available to a new run
	// (AvailableMemory, MemAvailable on Linux, and GOMEMLIMIT if lower),
	// or DefaultMaxMemory where it cannot be read.
	Memory float64
	// Work in operations; 0: DefaultMaxWork.
	Work float64
}

// Defaults and caps of the limits. DefaultMaxWork is 5e14 operations,
// about 6 core-days (3 days on 2 cores): every shipped config, full
// variants included, estimates at most 1.8e14 (digits-classify-full, whose
// searches all run to their budgets in the estimate; it takes about an
// hour), while a config that would run for a week or more (is-hazard's
// mc_samples = 1e12, even under -quick: 6.4e14) is refused before it
// starts. The caps, 1 PiB and 1e18 operations (30 core-years), are beyond
// any machine and keep every size a run forms within an int.
const (
	DefaultMaxWork   = 5e14
	DefaultMaxMemory = 16 << 30
	MaxMemoryLimit   = 1 << 50
	MaxWorkLimit     = 1e18
)

// Check validates user-given limits (a flag or an environment variable):
// each 0 (the default) or positive, finite and at most its cap.
func (l Limits) Check() error {
	if !(l.Memory >= 0) || l.Memory > MaxMemoryLimit {
		return fmt.Errorf("-max-memory %s: want a size up to %s, e.g. 64GiB", formatSize(l.Memory), FormatBytes(MaxMemoryLimit))
	}
	if !(l.Work >= 0) || l.Work > MaxWorkLimit {
		return fmt.Errorf("-max-work %s: want a number of operations up to %g, e.g. 1e16", formatSize(l.Work), float64(MaxWorkLimit))
	}
	return nil
}

// memory returns the memory limit and where it comes from.
func (l Limits) memory() (float64, string) {
	if l.Memory > 0 {
		return l.Memory, "-max-memory"
	}
	avail, ok := AvailableMemory()
	src := "the memory available"
	if !ok {
		avail, src = DefaultMaxMemory, "the default where the memory available cannot be read"
	}
	if gl := debug.SetMemoryLimit(-1); gl > 0 && gl < math.MaxInt64 && float64(gl) < avail {
		avail, src = float64(gl), "GOMEMLIMIT"
	}
	return avail, src
}

// work returns the work limit and where it comes from.
func (l Limits) work() (float64, string) {
	if l.Work > 0 {
		return l.Work, "-max-work"
	}
	return DefaultMaxWork, "the default"
}

// Estimate is a Cost evaluated for a number of workers.
type Estimate struct {
	Cells    float64 // cells of the run
	Parallel float64 // cells held at once: min(workers, cells)
	Bytes    float64 // memory
	Work     float64 // operations
	// MemPart and WorkPart are the largest parts, scaled as counted
	// (a cell's memory by Parallel), for the message of a refusal.
	MemPart, WorkPart Part
}

// Eval evaluates the cost for workers workers (≤ 0: one).
func (c Cost) Eval(workers int) Estimate {
	e := Estimate{Cells: Part{Unit: 1, Of: c.Cells}.Value()}
	e.Parallel = math.Max(math.Min(float64(max(workers, 1)), e.Cells), 1)
	running := Fixed(e.Parallel, "running cells")
	mem := []Part{{What: "the cells' bookkeeping", Unit: CellBytes, Of: c.Cells}}
	mem = append(mem, c.Memory...)
	for _, t := range c.CellMemory {
		t.Of = append([]Factor{running}, t.Of...)
		mem = append(mem, t)
	}
	e.Bytes, e.MemPart = sum(mem)
	e.Work, e.WorkPart = sum(c.Work)
	return e
}

// sum returns the sum of the parts and the largest of them.
func sum(ts []Part) (float64, Part) {
	var total float64
	var big Part
	bigV := -1.0
	for _, t := range ts {
		v := t.Value()
		total += v
		if v > bigV {
			big, bigV = t, v
		}
	}
	return total, big
}

// check refuses the estimate if it exceeds the limits, with a *ValueError
// naming the key behind the largest part (so that LoadConfig's machinery
// can put the config's line in front of it). workShare is the part of the
// work this process does (1/N for a shard of N; 0 for a merge, which
// computes nothing).
func (e Estimate) check(l Limits, workShare float64) error {
	if lim, src := l.memory(); !(e.Bytes <= lim) {
		return refusal(e.MemPart, fmt.Sprintf("this run needs about %s of memory (largest part, %s), more than the limit of %s (%s); %s",
			FormatBytes(e.Bytes), e.MemPart.describe(FormatBytes), FormatBytes(lim), src,
			raise(e.Bytes <= MaxMemoryLimit, "-max-memory "+ceilBytes(e.Bytes), "VBW_MAX_MEMORY=", "no machine has that much")))
	}
	w := e.Work * workShare
	if lim, src := l.work(); !(w <= lim) {
		return refusal(e.WorkPart, fmt.Sprintf("this run needs about %s operations (%s; largest part, %s), more than the limit of %s (%s, %s); %s",
			formatSize(w), CoreTime(w), e.WorkPart.describe(formatSize), formatSize(lim), CoreTime(lim), src,
			raise(w <= MaxWorkLimit, "-max-work "+formatSize(roundUp(w)), "VBW_MAX_WORK=", "beyond any machine")))
	}
	return nil
}

// raise returns the advice of a refusal: lower the key, or, if possible,
// raise the limit with the flag (and value) or the environment variable.
func raise(possible bool, flag, env, impossible string) string {
	if !possible {
		return "lower {key} (" + impossible + ")"
	}
	name, value, _ := strings.Cut(flag, " ")
	return fmt.Sprintf("lower {key}, or on a machine that can take it raise the limit with %s %s (or %s%s)", name, value, env, value)
}

// refusal returns the error of a refused estimate whose largest part is t:
// a *ValueError of the key of t's largest keyed factor, why with its
// {key} replaced by the key ("the sizes of the config" when no factor has
// one).
func refusal(t Part, why string) error {
	var f *Factor
	for i := range t.Of {
		if t.Of[i].Key != "" && (f == nil || t.Of[i].N > f.N) {
			f = &t.Of[i]
		}
	}
	if f == nil {
		return errors.New(strings.ReplaceAll(why, "{key}", "the sizes of the config"))
	}
	if f.data != nil {
		why = strings.ReplaceAll(why, "lower {key}", "use a smaller file for {key}")
	}
	return &config.ValueError{Key: f.Key, Value: f.Value, Why: strings.ReplaceAll(why, "{key}", f.Key)}
}

// describe writes the part as "what: a × b² × unit", the unit written by
// unit (bytes or a count); repeated factors are written once with a power.
func (t Part) describe(unit func(float64) string) string {
	var parts []string
	for i := 0; i < len(t.Of); {
		f, pow := t.Of[i], 1
		for i+pow < len(t.Of) && sameFactor(t.Of[i+pow], f) {
			pow++
		}
		i += pow
		s := f.Key + " " + formatSize(f.N)
		if f.What != "" {
			s = formatSize(f.N) + " " + f.What
		}
		if pow > 1 {
			s = "(" + s + ")" + [...]string{"", "", "²", "³", "⁴"}[min(pow, 4)]
		}
		parts = append(parts, s)
	}
	parts = append(parts, unit(t.Unit))
	return t.What + ": " + strings.Join(parts, " × ")
}

// CoreTime writes a number of operations as the time one core takes at
// OpsPerSecond: "about 3 core-hours".
func CoreTime(ops float64) string {
	s := ops / OpsPerSecond
	switch {
	case math.IsInf(s, 0) || math.IsNaN(s):
		return "forever"
	case s < 0.5:
		return "under a core-second"
	case s < 1.5:
		return "about a core-second"
	case s < 120:
		return fmt.Sprintf("about %.0f core-seconds", s)
	case s < 2*3600:
		return fmt.Sprintf("about %.0f core-minutes", s/60)
	case s < 2*86400:
		return fmt.Sprintf("about %.0f core-hours", s/3600)
	case s < 2*365*86400:
		return fmt.Sprintf("about %.0f core-days", s/86400)
	}
	return fmt.Sprintf("about %s core-years", formatSize(s/(365*86400)))
}

// formatSize writes a size compactly: 1000, 100000, 1.5e+07, 1e+12.
func formatSize(v float64) string {
	if math.IsInf(v, 1) {
		return "+Inf"
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e7 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// roundUp rounds v up to two significant digits, for the value a message
// suggests.
func roundUp(v float64) float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		return v
	}
	p := math.Pow(10, math.Floor(math.Log10(v))-1)
	return math.Ceil(v/p) * p
}

// ceilBytes writes b rounded up to a whole number of a binary unit, in the
// form ParseBytes reads: "94GiB".
func ceilBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	return strconv.FormatFloat(math.Ceil(b), 'f', 0, 64) + units[i]
}

// ParseBytes reads a size in bytes: a number with an optional unit B,
// K/KB/KiB, M/MB/MiB, G/GB/GiB, T/TB/TiB or P/PB/PiB (all binary: 1 KB =
// 1024 B), e.g. "64GiB", "512MB", "1.5e10".
func ParseBytes(s string) (float64, error) {
	t := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), "b")
	t = strings.TrimSuffix(t, "i")
	mult := 1.0
	if n := len(t); n > 0 {
		if i := strings.IndexByte("kmgtp", t[n-1]); i >= 0 {
			mult, t = math.Pow(1024, float64(i+1)), strings.TrimSpace(t[:n-1])
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a size (e.g. 64GiB, 512MiB, 1e10)", s)
	}
	return v * mult, nil
}

// MaxWorkers is the most workers a run may have: 4 per CPU of this
// process (runtime.GOMAXPROCS), at least 8. The cells are CPU-bound, so
// workers beyond the CPUs run no faster while each holds a cell's memory
// and a goroutine; the headroom is for cells that wait on the disk.
func MaxWorkers() int { return max(4*runtime.GOMAXPROCS(0), 8) }

// CheckWorkers refuses a number of workers that is not positive or above
// MaxWorkers, naming the flag.
func CheckWorkers(n int) error {
	if n < 1 {
		return fmt.Errorf("-workers %d: want at least 1 (the default is the %d CPUs of this process)", n, runtime.GOMAXPROCS(0))
	}
	if m := MaxWorkers(); n > m {
		return fmt.Errorf("-workers %d: at most %d here (4 per CPU): the cells are CPU-bound, so more workers than CPUs run no faster and each holds a cell's memory", n, m)
	}
	return nil
}

// checkCost evaluates the config's estimate for the run's workers and
// refuses it beyond the limits, at the line of the key behind it; the
// sizes of the data files it names are read from dataDir first
// (resolveData). A shard
// does its part of the work; a merge computes nothing, so only its memory
// is checked.
func checkCost(path string, o RunOptions, cfg Config, dataDir string) (Estimate, error) {
	workers := o.Workers
	if workers <= 0 {
		workers = defaultWorkers()
	}
	cost := cfg.Estimate()
	if err := resolveData(&cost, dataDir); err != nil {
		return Estimate{}, config.Locate(path, o.Quick, err)
	}
	est := cost.Eval(workers)
	share := 1.0
	switch {
	case o.MergeOnly:
		share = 0
	case o.Shard.Active():
		share = 1 / float64(o.Shard.N)
	}
	if err := est.check(o.Limits, share); err != nil {
		return est, config.Locate(path, o.Quick, err)
	}
	return est, nil
}

// sameFactor reports whether two factors are one size (a square).
func sameFactor(a, b Factor) bool { return a.Key == b.Key && a.N == b.N && a.What == b.What }
