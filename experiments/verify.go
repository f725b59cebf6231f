package experiments

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// Verification by recomputation.
//
// A manifest's checksums catch a careless edit of a results folder, not a
// deliberate one: an edit made together with the checksum passes them.
// The workbench is deterministic, so Verify does better: it recomputes a
// random sample of the folder's stored cells from its recorded config and
// seeds with this build, resumes the others from the store, assembles the
// results again, and compares bit for bit: the recomputed cells with the
// stored ones, every table (CSV) and every check and metric of
// summary.json with the folder's. Measured times (a field, column or
// metric that results.IsTiming names) are left out of the comparison,
// being measurements rather than results. It also checks
// that the recorded config is the resolution of its config file that the
// manifest's quick flag says (so a quick run relabelled full is found),
// and that the experiment of the manifest, summary.json and config.toml
// agree. The outcome is written to the folder's state (VerifiedFile) with
// the time, the build and the manifest's SHA-256, for the report.

// VerifiedFile, in a results folder's state directory, records the last
// verification by recomputation (Verification).
const VerifiedFile = "verified.json"

// Verification is the record of one verification of a results folder.
type Verification struct {
	Time  string `json:"time"`  // RFC 3339, UTC
	Build string `json:"build"` // BuildID of the verifying program
	// ManifestSHA256 is the SHA-256 of the manifest verified: the record
	// holds for the folder as long as its manifest is that one.
	ManifestSHA256 string   `json:"manifest_sha256"`
	Cells          int      `json:"cells"`      // stored cells of the run
	Recomputed     []string `json:"recomputed"` // the cells recomputed
	Seed           uint64   `json:"seed"`       // of the sample
	// Whole: the run has no cells and was recomputed whole.
	Whole    bool     `json:"whole,omitempty"`
	OK       bool     `json:"ok"`
	Problems []string `json:"problems"`
}

// VerifyOptions are the settings of Verify.
type VerifyOptions struct {
	// Cells is the number of stored cells to recompute (at most all of
	// them); 0 recomputes none and checks the assembly of the stored ones.
	// A run without cells is recomputed whole when Cells > 0.
	Cells int
	// Seed chooses the sample; the same seed, the same cells.
	Seed    uint64
	DataDir string
	Workers int
	Limits  Limits
	Log     io.Writer
}

// Verify verifies the results folder dir (see the comment above) and
// writes the record into its state. The error is for a folder that cannot
// be verified at all (unreadable, an unknown experiment); a verification
// that finds differences returns them in the record, with OK false.
func Verify(ctx context.Context, dir string, o VerifyOptions) (*Verification, error) {
	folder := results.OpenFolder(dir)
	lock, err := lockFolder(folder)
	if err != nil {
		return nil, err
	}
	defer lock.release()
	cur, err := folder.Current()
	if err != nil {
		return nil, fmt.Errorf("verify %s: %w", dir, err)
	}
	manData, err := os.ReadFile(filepath.Join(cur, results.ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("verify %s: %w", dir, err)
	}
	man, err := results.ReadManifest(filepath.Join(cur, results.ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("verify %s: %w", dir, err)
	}
	sum := sha256.Sum256(manData)
	v := &Verification{Time: time.Now().UTC().Format(time.RFC3339), Build: BuildID(), ManifestSHA256: hex.EncodeToString(sum[:]), Seed: o.Seed}
	problem := func(format string, args ...any) { v.Problems = append(v.Problems, fmt.Sprintf(format, args...)) }
	defer func() {
		v.OK = len(v.Problems) == 0
		if err := results.WriteJSON(filepath.Join(folder.StateDir(), VerifiedFile), v); err != nil {
			problem("the record could not be written: %v", err)
		}
	}()

	if err := results.VerifyOutputs(cur); err != nil {
		problem("%v", err)
	}
	spec, ok := Lookup(man.Experiment)
	if !ok {
		return v, fmt.Errorf("verify %s: unknown experiment %q", dir, man.Experiment)
	}
	cfgPath := filepath.Join(cur, results.ConfigFile)
	if id, err := ExperimentOf(cfgPath); err != nil || id != man.Experiment {
		problem("the manifest's experiment %s is not config.toml's (%s, %v)", man.Experiment, id, err)
	}
	stored, err := results.ReadSummary(filepath.Join(cur, results.SummaryFile))
	if err != nil {
		problem("summary.json: %v", err)
	} else if stored.Experiment != man.Experiment || stored.Quick != man.Quick || stored.ConfigHash != man.ConfigHash {
		problem("summary.json (%s, quick %v, config %s) contradicts the manifest (%s, quick %v, config %s)",
			stored.Experiment, stored.Quick, stored.ConfigHash, man.Experiment, man.Quick, man.ConfigHash)
	}
	cfg := spec.NewConfig()
	if err := config.Load(cfgPath, false, cfg); err != nil {
		return v, fmt.Errorf("verify %s: %w", dir, err)
	}
	hash, err := runHash(cfg)
	if err != nil {
		return v, err
	}
	if hash != man.ConfigHash {
		problem("config.toml hashes to %s, the manifest says %s", hash, man.ConfigHash)
	}
	if r := man.Resolutions; r != nil {
		want, other := r.Full, r.Quick
		if man.Quick {
			want, other = r.Quick, r.Full
		}
		switch hash {
		case want:
		case other:
			problem("config.toml is the %s resolution of its config file, but the manifest says a %s run", kindOf(!man.Quick), kindOf(man.Quick))
		default:
			problem("config.toml is neither resolution of its config file (%s, %s)", r.Full, r.Quick)
		}
	}

	// The stored cells of the run, under its key.
	state := folder.StateDir()
	cells, err := storedCells(filepath.Join(state, CellDir), man)
	if err != nil {
		return v, err
	}
	v.Cells = len(cells)
	tmp, err := os.MkdirTemp(state, "verify-")
	if err != nil {
		return v, err
	}
	defer os.RemoveAll(tmp)
	key := man.ConfigHash + "-" + BuildID()
	names := make([]string, 0, len(cells))
	for name := range cells {
		names = append(names, name)
	}
	sort.Strings(names)
	rnd := rand.New(rand.NewPCG(o.Seed, 0x7665726966790a))
	rnd.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	n := min(o.Cells, len(names))
	v.Recomputed = slices.Sorted(slices.Values(names[:n]))
	for _, name := range names[n:] {
		c := cells[name]
		if err := SaveCellRaw(tmp, key, name, c.Seconds, c.Result); err != nil {
			return v, err
		}
	}
	if len(cells) == 0 && o.Cells == 0 {
		return v, nil // nothing stored to recompute or reassemble
	}
	v.Whole = len(cells) == 0

	staging := filepath.Join(tmp, "out")
	if err := os.Mkdir(staging, 0o755); err != nil {
		return v, err
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	env := &Env{Ctx: ctx, ID: spec.ID, Dir: staging, CellRoot: tmp, Quick: man.Quick, Workers: max(o.Workers, 1),
		DataDir: ResolveDataDir(o.DataDir, cfg.Base().DataDir), Hash: man.ConfigHash, CellKey: key, Log: log, Limits: o.Limits}
	if err := spec.Run(env, cfg); err != nil {
		problem("the recomputation failed: %v", err)
		return v, nil
	}
	for _, name := range v.Recomputed {
		again, _, ok, err := loadCellRaw(tmp, key, name)
		if err != nil || !ok {
			problem("cell %s was not recomputed (%v)", name, err)
			continue
		}
		if d := sameJSON(cells[name].Result, again); d != "" {
			problem("cell %s recomputed differs: %s", name, d)
		}
	}
	for _, out := range man.Outputs {
		switch filepath.Ext(out.Name) {
		case ".csv":
			a, _ := os.ReadFile(filepath.Join(cur, out.Name))
			b, err := os.ReadFile(filepath.Join(staging, out.Name))
			if err != nil {
				problem("%s is not written again by the recomputation", out.Name)
				continue
			}
			if d := sameCSV(a, b); d != "" {
				problem("%s recomputed differs: %s", out.Name, d)
			}
		}
	}
	if again, err := results.ReadSummary(filepath.Join(staging, results.SummaryFile)); err != nil {
		problem("summary.json is not written again by the recomputation: %v", err)
	} else {
		for _, d := range sameSummary(stored, again) {
			problem("summary.json recomputed differs: %s", d)
		}
	}
	return v, nil
}

func kindOf(quick bool) string { return map[bool]string{true: "quick", false: "full"}[quick] }

// RunHash is the hash that identifies a run's resolved config: without
// where its data live and where its results go (as Prepare takes it), and
// without its settings declaration unless it declares settings of ours.
func RunHash(cfg Config) (string, error) { return runHash(cfg) }

func runHash(cfg Config) (string, error) {
	base := cfg.Base()
	saved := *base
	base.DataDir, base.Name, base.SettingsNote = "", "", ""
	if !base.Ours() {
		// The text's settings and reduced ones compute the same results;
		// only settings of ours judge the text's claims as extensions.
		base.Settings = ""
	}
	_, hash, err := config.Encode(cfg)
	*base = saved
	return hash, err
}

// ReadVerification returns the record of the last verification of the
// results folder dir, or nil if there is none.
func ReadVerification(dir string) *Verification {
	data, err := os.ReadFile(filepath.Join(results.OpenFolder(dir).StateDir(), VerifiedFile))
	if err != nil {
		return nil
	}
	var v Verification
	if json.Unmarshal(data, &v) != nil {
		return nil
	}
	return &v
}

// storedCells returns the stored cells of the run man describes: those
// under its cell key, or (a manifest without one) under its config hash
// and any build.
func storedCells(dir string, man *results.Manifest) (map[string]storedCell, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	out := map[string]storedCell{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var sc storedCell
		if json.Unmarshal(data, &sc) != nil {
			continue
		}
		if man.CellKey != "" && sc.Hash == man.CellKey || man.CellKey == "" && strings.HasPrefix(sc.Hash, man.ConfigHash+"-") {
			out[sc.Name] = sc
		}
	}
	return out, nil
}

// SaveCellRaw stores a cell whose result is already encoded.
func SaveCellRaw(dir, hash, name string, seconds float64, result json.RawMessage) error {
	data, err := json.Marshal(storedCell{Name: name, Hash: hash, Seconds: seconds, Result: result})
	if err != nil {
		return err
	}
	return results.WriteCacheAtomic(cellFile(dir, name), data)
}

// loadCellRaw reads a stored cell's encoded result.
func loadCellRaw(dir, hash, name string) (json.RawMessage, float64, bool, error) {
	data, err := os.ReadFile(cellFile(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	var sc storedCell
	if err := json.Unmarshal(data, &sc); err != nil || sc.Hash != hash || sc.Name != name {
		return nil, 0, false, err
	}
	return sc.Result, sc.Seconds, true, nil
}

// measured reports whether a field, column or metric name is a measured
// time (results.IsTiming, whatever its case: a cell's field is
// VBSeconds), left out of the comparisons.
func measured(name string) bool { return results.IsTiming(strings.ToLower(name)) }

// sameJSON compares two encodings of a value, numbers by their text (the
// shortest form that round-trips, so bit for bit), measured times left
// out; it returns "" or the first difference.
func sameJSON(a, b []byte) string {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if err := da.Decode(&x); err != nil {
		return "stored: " + err.Error()
	}
	if err := db.Decode(&y); err != nil {
		return "recomputed: " + err.Error()
	}
	return jsonDiff("", x, y)
}

func jsonDiff(path string, x, y any) string {
	switch a := x.(type) {
	case map[string]any:
		b, ok := y.(map[string]any)
		if !ok {
			return path + ": an object against " + fmt.Sprintf("%T", y)
		}
		keys := map[string]bool{}
		for k := range a {
			keys[k] = true
		}
		for k := range b {
			keys[k] = true
		}
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range keys {
				if !yield(k) {
					return
				}
			}
		}) {
			if measured(k) {
				continue
			}
			if d := jsonDiff(path+"."+k, a[k], b[k]); d != "" {
				return d
			}
		}
		return ""
	case []any:
		b, ok := y.([]any)
		if !ok || len(a) != len(b) {
			return fmt.Sprintf("%s: %d elements against %v", path, len(a), y)
		}
		for i := range a {
			if d := jsonDiff(fmt.Sprintf("%s[%d]", path, i), a[i], b[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if fmt.Sprint(x) != fmt.Sprint(y) {
		return fmt.Sprintf("%s: stored %v, recomputed %v", strings.TrimPrefix(path, "."), x, y)
	}
	return ""
}

// sameCSV compares two tables cell by cell (measured-time columns left
// out) and returns "" or the first difference.
func sameCSV(a, b []byte) string {
	ra, err := csv.NewReader(bytes.NewReader(a)).ReadAll()
	if err != nil {
		return "stored: " + err.Error()
	}
	rb, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		return "recomputed: " + err.Error()
	}
	if len(ra) != len(rb) {
		return fmt.Sprintf("%d rows stored, %d recomputed", len(ra), len(rb))
	}
	if len(ra) == 0 {
		return ""
	}
	if !slices.Equal(ra[0], rb[0]) {
		return fmt.Sprintf("columns %v stored, %v recomputed", ra[0], rb[0])
	}
	for i := 1; i < len(ra); i++ {
		if len(ra[i]) != len(rb[i]) {
			return fmt.Sprintf("row %d: %d fields stored, %d recomputed", i+1, len(ra[i]), len(rb[i]))
		}
		for j := range ra[i] {
			if measured(ra[0][j]) {
				continue
			}
			if ra[i][j] != rb[i][j] {
				return fmt.Sprintf("row %d, column %s: stored %s, recomputed %s", i+1, ra[0][j], ra[i][j], rb[i][j])
			}
		}
	}
	return ""
}

// sameSummary compares the checks and the metrics (measured times left
// out) of two summaries and returns the differences.
func sameSummary(a, b results.Summary) []string {
	var out []string
	enc := func(c results.Check) string {
		j, _ := json.Marshal(struct {
			ID, Name string
			Pass, NA bool
			Value    string
		}{c.ID, c.Name, c.Pass, c.NotApplicable, fmt.Sprint(c.Value)})
		return string(j)
	}
	if len(a.Checks) != len(b.Checks) {
		out = append(out, fmt.Sprintf("%d checks stored, %d recomputed", len(a.Checks), len(b.Checks)))
	} else {
		for i := range a.Checks {
			if enc(a.Checks[i]) != enc(b.Checks[i]) {
				out = append(out, fmt.Sprintf("check %s: stored %s (value %v), recomputed %s (value %v)",
					a.Checks[i].Key(), a.Checks[i].Verdict(), a.Checks[i].Value, b.Checks[i].Verdict(), b.Checks[i].Value))
			}
		}
	}
	for k, x := range a.Metrics {
		if measured(k) {
			continue
		}
		if y, ok := b.Metrics[k]; !ok || fmt.Sprint(x) != fmt.Sprint(y) {
			out = append(out, fmt.Sprintf("metric %s: stored %v, recomputed %v", k, x, b.Metrics[k]))
		}
	}
	for k := range b.Metrics {
		if _, ok := a.Metrics[k]; !ok && !measured(k) {
			out = append(out, fmt.Sprintf("metric %s is new in the recomputation", k))
		}
	}
	sort.Strings(out)
	return out
}
