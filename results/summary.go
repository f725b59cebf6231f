package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Summary is the content of summary.json: the numbers a figure, a table or
// a README quotes, the acceptance checks, and the warnings of a run.
//
// JSON cannot represent NaN or ±Inf. When a Summary is marshalled, a
// non-finite metric, check value or float in Extra is written as null and a
// warning naming it is added to the written warnings (the Summary itself is
// not changed); unmarshalling reads null back as NaN.
type Summary struct {
	Experiment string             // experiment id, e.g. "chapter3/synthetic"
	ConfigHash string             // EncodeConfig's hash of the resolved config
	Quick      bool               // whether the [quick] overlay was applied
	Metrics    map[string]float64 // named numbers, e.g. "k_hat.median"
	// Lists are named lists of numbers (e.g. "dims", the dimensionalities
	// of the analysers found), written among the metrics as JSON arrays.
	Lists    map[string][]float64
	Checks   []Check  // acceptance checks, in the order they were made
	Warnings []string // things a reader of the results should know
	// Data lists the data files the run read and whether each was verified
	// against a known checksum.
	Data []DataRecord
	// Claims are the thesis's claims the experiment reproduces, with the
	// figures and checks that bear on each (kept by the experiment's code
	// next to its checks; the report shows them).
	Claims []Claim
	// Criteria is the experiment's table of acceptance criteria, which the
	// checks judge (see Criterion). It is not written to summary.json: the
	// checks carry the IDs, texts and targets. Validate checks the checks
	// and the claims against it.
	Criteria Criteria
	// Findings say where the results differ from the thesis and why, in a
	// sentence each.
	Findings []string

	// Extra holds figure data and anything else a figure needs, keyed by
	// name. Values must marshal to JSON; non-finite floats inside maps with
	// string keys and inside slices are written as null (read back as nil,
	// see ExtraFloats). After reading, values have the types encoding/json
	// gives an any: float64, string, bool, nil, []any, map[string]any.
	Extra map[string]any
}

// Check is one acceptance criterion and its verdict.
type Check struct {
	// ID is the criterion's stable ID (see Criterion); empty in summaries
	// written before criteria had IDs.
	ID     string  `json:"id,omitempty"`
	Name   string  `json:"name"`
	Pass   bool    `json:"pass"`
	Value  float64 `json:"value"`  // the measured quantity; NaN is written as null
	Target string  `json:"target"` // the criterion in words or symbols, e.g. ">= 0.8"
	// NotApplicable marks a criterion that does not apply to this run, for
	// example a check of the thesis's reported numbers on a user's own data.
	// Such a check has Pass false and is not a failure; Why says why it does
	// not apply.
	NotApplicable bool   `json:"not_applicable,omitempty"`
	Why           string `json:"why,omitempty"`
	// Kind is the criterion's kind ("claim", "extension", "sanity"; empty
	// when unclassified, judged as a claim), and Theirs and Line are the
	// text's number and where it states it (Criterion).
	Kind   string `json:"kind,omitempty"`
	Theirs string `json:"theirs,omitempty"`
	Line   string `json:"line,omitempty"`
	// Spread is the measure's distribution over the run's seeds, for a
	// claim judged over them (Summary.JudgeSeeds).
	Spread *Spread `json:"spread,omitempty"`
}

// IsSanity reports whether the check is a sanity check of the run.
func (c Check) IsSanity() bool { return c.Kind == "sanity" }

// IsExtension reports whether the check is a claim of ours that extends
// the text.
func (c Check) IsExtension() bool { return c.Kind == "extension" }

// Key returns the check's ID, or its name when it has none.
func (c Check) Key() string {
	if c.ID != "" {
		return c.ID
	}
	return c.Name
}

// Verdict returns "pass", "FAIL" or "n/a".
func (c Check) Verdict() string {
	switch {
	case c.NotApplicable:
		return "n/a"
	case c.Pass:
		return "pass"
	}
	return "FAIL"
}

// Claim is one claim of the thesis that an experiment reproduces.
type Claim struct {
	// Artifact is the thesis's figure, table or section, e.g. "Figure 3.2".
	Artifact string `json:"artifact"`
	// Statement is the claim in one line.
	Statement string `json:"statement"`
	// Figures are the output figures (file stems, e.g. "fig3_2") that show it.
	Figures []string `json:"figures,omitempty"`
	// Checks are the IDs of the criteria that test it (Criterion.ID; a
	// criterion judged per case covers all its cases).
	Checks []string `json:"checks,omitempty"`
}

// DataRecord describes one data file a run read.
type DataRecord struct {
	File   string `json:"file"`   // the name the config gave
	SHA256 string `json:"sha256"` // of the bytes read
	// Checked is true when the file (or what was extracted from it) matched
	// a checksum known in advance; false for a user's own data.
	Checked bool   `json:"checked"`
	Note    string `json:"note,omitempty"` // how it was checked, or why not
}

// IsTiming reports whether the metric name is a measured time, which
// depends on the machine and its load rather than on the config: a name
// that contains "seconds", "_ms_" or "speedup" (a ratio of times), or
// starts with "time_ratio". Golden
// comparisons leave these out.
func IsTiming(name string) bool {
	return strings.Contains(name, "seconds") || strings.Contains(name, "_ms_") || strings.HasPrefix(name, "time_ratio") || strings.Contains(name, "speedup")
}

// SetMetric sets metric name to x.
func (s *Summary) SetMetric(name string, x float64) {
	if s.Metrics == nil {
		s.Metrics = make(map[string]float64)
	}
	s.Metrics[name] = x
}

// AddFindingsFromChecks adds a finding for every failed check (one that
// applies and did not pass): its name, value and target, followed by the
// explanation of its criterion, if any (the known reason it can fail on
// the thesis's setting): explain[id] of the check's own ID (a case,
// "id[case]") or else of its criterion's. For a check without an ID (a summary
// of an older run) the key is a prefix of its name.
func (s *Summary) AddFindingsFromChecks(explain map[string]string) {
	for _, c := range s.Checks {
		if c.Pass || c.NotApplicable {
			continue
		}
		f := fmt.Sprintf("%s: %.4g (target %s).", c.Name, c.Value, c.Target)
		if why, ok := explain[c.ID]; ok && c.ID != "" {
			f += " " + why
		} else if why, ok := explain[BaseID(c.ID)]; ok && c.ID != "" {
			f += " " + why
		} else if c.ID == "" {
			for prefix, why := range explain {
				if strings.HasPrefix(c.Name, prefix) {
					f += " " + why
					break
				}
			}
		}
		s.Findings = append(s.Findings, f)
	}
}

// Validate checks a summary against its criteria table before it is
// written: every criterion judged (or not judged, with a reason), no check
// outside the table, every check of a kind (a claim's with the text's
// number and line), every claim's check IDs in the table, and every key
// of an AddFindingsFromChecks explanation. A summary without a table
// passes (older experiments); see CheckComplete.
func (s *Summary) Validate() error {
	if s.Criteria == nil {
		return nil
	}
	if err := s.CheckComplete(s.Criteria); err != nil {
		return err
	}
	known := map[string]bool{}
	for _, c := range s.Criteria {
		known[c.ID] = true
	}
	for _, c := range s.Checks {
		k, err := ParseKind(c.Kind)
		switch {
		case err != nil || k == KindUnclassified:
			return fmt.Errorf("summary of %s: check %s has no kind (%q): judge it on a criterion of the table", s.Experiment, c.Key(), c.Kind)
		case k == KindClaim && (c.Theirs == "" || c.Line == ""):
			return fmt.Errorf("summary of %s: check %s is a claim of the text without the text's number (%q) or line (%q)", s.Experiment, c.Key(), c.Theirs, c.Line)
		}
	}
	for _, cl := range s.Claims {
		for _, id := range cl.Checks {
			if !known[id] {
				return fmt.Errorf("summary of %s: claim %q names criterion %q, which is not in the criteria table", s.Experiment, cl.Artifact, id)
			}
		}
	}
	return nil
}

// Warnf adds a warning.
func (s *Summary) Warnf(format string, args ...any) {
	s.Warnings = append(s.Warnings, fmt.Sprintf(format, args...))
}

// AddSpread summarises xs, one value per seed or run, as the metrics
// name.n, name.median, name.q25 and name.q75. NaN values are left out of all
// four, with a warning saying how many there were.
func (s *Summary) AddSpread(name string, xs []float64) {
	kept, dropped := DropNaN(xs)
	if dropped > 0 {
		s.Warnf("metric %q: %d of %d values are NaN and were left out", name, dropped, len(xs))
	}
	s.SetMetric(name+".n", float64(len(kept)))
	s.SetMetric(name+".median", Median(kept))
	s.SetMetric(name+".q25", Quantile(kept, 0.25))
	s.SetMetric(name+".q75", Quantile(kept, 0.75))
}

// Failed returns the names of the checks that did not pass.
func (s *Summary) Failed() []string {
	var names []string
	for _, c := range s.Checks {
		if !c.Pass && !c.NotApplicable {
			names = append(names, c.Name)
		}
	}
	return names
}

// ExtraFloats returns s.Extra[key] as a []float64. It accepts a []float64 and
// a []any of float64 and nil, as read back from JSON; nil becomes NaN.
func (s *Summary) ExtraFloats(key string) ([]float64, error) {
	v, ok := s.Extra[key]
	if !ok {
		return nil, fmt.Errorf("summary of %s: no extra %q", s.Experiment, key)
	}
	switch v := v.(type) {
	case []float64:
		return v, nil
	case []any:
		xs := make([]float64, len(v))
		for i, e := range v {
			switch e := e.(type) {
			case float64:
				xs[i] = e
			case nil:
				xs[i] = math.NaN()
			default:
				return nil, fmt.Errorf("summary of %s: extra %q[%d] is %T, not a number", s.Experiment, key, i, e)
			}
		}
		return xs, nil
	}
	return nil, fmt.Errorf("summary of %s: extra %q is %T, not a list of numbers", s.Experiment, key, v)
}

// summaryJSON is the wire form of Summary.
type summaryJSON struct {
	Experiment string         `json:"experiment"`
	ConfigHash string         `json:"config_hash"`
	Quick      bool           `json:"quick"`
	Metrics    map[string]any `json:"metrics"`
	Checks     []Check        `json:"checks"`
	Warnings   []string       `json:"warnings"`
	Data       []DataRecord   `json:"data,omitempty"`
	Claims     []Claim        `json:"claims,omitempty"`
	Findings   []string       `json:"findings,omitempty"`
	Extra      map[string]any `json:"extra,omitempty"`
}

// MarshalJSON writes s with non-finite numbers as null and a warning for
// each (see Summary). Empty metrics, checks and warnings are written as {}
// and [] rather than null.
func (s Summary) MarshalJSON() ([]byte, error) {
	w := summaryJSON{
		Experiment: s.Experiment,
		ConfigHash: s.ConfigHash,
		Quick:      s.Quick,
		Metrics:    make(map[string]any, len(s.Metrics)+len(s.Lists)),
		Checks:     s.Checks,
		Warnings:   slices.Clone(s.Warnings),
		Data:       s.Data,
		Claims:     s.Claims,
		Findings:   s.Findings,
	}
	if w.Checks == nil {
		w.Checks = []Check{}
	}
	if w.Warnings == nil {
		w.Warnings = []string{}
	}
	// warn adds "<what> <value>; written as null" unless a warning about
	// the same value is already there: a summary that was read back has
	// NaN where +Inf was written, and the first warning says which.
	warn := func(what, value string) {
		for _, old := range w.Warnings {
			if strings.HasPrefix(old, what) && strings.HasSuffix(old, nullSuffix) {
				return
			}
		}
		w.Warnings = append(w.Warnings, what+value+nullSuffix)
	}
	names := make([]string, 0, len(s.Metrics))
	for name := range s.Metrics {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		x := s.Metrics[name]
		if isFinite(x) {
			w.Metrics[name] = &x
			continue
		}
		w.Metrics[name] = nil
		warn(fmt.Sprintf("metric %q is ", name), FormatFloat(x))
	}
	for name, xs := range s.Lists {
		if _, dup := s.Metrics[name]; dup {
			return nil, fmt.Errorf("summary of %s: %q is both a metric and a list", s.Experiment, name)
		}
		out := make([]*float64, len(xs))
		for i := range xs {
			if x := xs[i]; isFinite(x) {
				out[i] = &x
			} else {
				warn(fmt.Sprintf("list %q has ", name), FormatFloat(x))
			}
		}
		w.Metrics[name] = out
	}
	for _, c := range s.Checks {
		if !isFinite(c.Value) {
			warn(fmt.Sprintf("check %q value is ", c.Name), FormatFloat(c.Value))
		}
	}
	if len(s.Extra) > 0 {
		w.Extra = make(map[string]any, len(s.Extra))
		keys := make([]string, 0, len(s.Extra))
		for k := range s.Extra {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n := 0
			w.Extra[k] = nullNonFinite(reflect.ValueOf(s.Extra[k]), &n)
			if n > 0 {
				warn(fmt.Sprintf("extra %q: ", k), fmt.Sprintf("%d non-finite values", n))
			}
		}
	}
	data, err := marshal(w)
	if err != nil {
		return nil, fmt.Errorf("summary of %s: %w", s.Experiment, err)
	}
	return data, nil
}

const nullSuffix = "; written as null"

// marshal is json.Marshal without HTML escaping, so that a target such as
// "< 0.1" stays readable: WriteJSON's encoder does not escape, but it copies
// the output of MarshalJSON methods as they are.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads a Summary written by MarshalJSON; null numbers become
// NaN. Unknown fields are an error, so that a misspelt hand edit is caught.
func (s *Summary) UnmarshalJSON(data []byte) error {
	var w summaryJSON
	if err := strictUnmarshal(data, &w); err != nil {
		return err
	}
	*s = Summary{
		Experiment: w.Experiment,
		ConfigHash: w.ConfigHash,
		Quick:      w.Quick,
		Checks:     w.Checks,
		Warnings:   w.Warnings,
		Data:       w.Data,
		Claims:     w.Claims,
		Findings:   w.Findings,
		Extra:      w.Extra,
	}
	if w.Metrics != nil {
		s.Metrics = make(map[string]float64, len(w.Metrics))
		for name, v := range w.Metrics {
			switch v := v.(type) {
			case nil:
				s.Metrics[name] = math.NaN()
			case float64:
				s.Metrics[name] = v
			case []any:
				xs := make([]float64, len(v))
				for i, e := range v {
					f, ok := e.(float64)
					if !ok {
						f = math.NaN()
					}
					xs[i] = f
				}
				if s.Lists == nil {
					s.Lists = make(map[string][]float64)
				}
				s.Lists[name] = xs
			default:
				return fmt.Errorf("summary: metric %q is %T, not a number or a list of numbers", name, v)
			}
		}
	}
	return nil
}

// checkJSON is the wire form of Check.
type checkJSON struct {
	ID            string      `json:"id,omitempty"`
	Name          string      `json:"name"`
	Pass          bool        `json:"pass"`
	Value         *float64    `json:"value"`
	Target        string      `json:"target"`
	NotApplicable bool        `json:"not_applicable,omitempty"`
	Why           string      `json:"why,omitempty"`
	Kind          string      `json:"kind,omitempty"`
	Theirs        string      `json:"theirs,omitempty"`
	Line          string      `json:"line,omitempty"`
	Spread        *spreadJSON `json:"spread,omitempty"`
}

// spreadJSON is a Spread with its non-finite numbers as null.
type spreadJSON struct {
	N      int      `json:"n"`
	Held   int      `json:"held"`
	Median *float64 `json:"median"`
	Min    *float64 `json:"min"`
	Max    *float64 `json:"max"`
}

func finiteOrNil(x float64) *float64 {
	if isFinite(x) {
		return &x
	}
	return nil
}

func nilToNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// MarshalJSON writes a non-finite Value as null.
func (c Check) MarshalJSON() ([]byte, error) {
	w := checkJSON{ID: c.ID, Name: c.Name, Pass: c.Pass, Target: c.Target, NotApplicable: c.NotApplicable, Why: c.Why,
		Kind: c.Kind, Theirs: c.Theirs, Line: c.Line, Value: finiteOrNil(c.Value)}
	if sp := c.Spread; sp != nil {
		w.Spread = &spreadJSON{N: sp.N, Held: sp.Held, Median: finiteOrNil(sp.Median), Min: finiteOrNil(sp.Min), Max: finiteOrNil(sp.Max)}
	}
	return marshal(w)
}

// UnmarshalJSON reads a null Value as NaN.
func (c *Check) UnmarshalJSON(data []byte) error {
	var w checkJSON
	if err := strictUnmarshal(data, &w); err != nil {
		return err
	}
	*c = Check{ID: w.ID, Name: w.Name, Pass: w.Pass, Value: nilToNaN(w.Value), Target: w.Target, NotApplicable: w.NotApplicable, Why: w.Why,
		Kind: w.Kind, Theirs: w.Theirs, Line: w.Line}
	if sp := w.Spread; sp != nil {
		c.Spread = &Spread{N: sp.N, Held: sp.Held, Median: nilToNaN(sp.Median), Min: nilToNaN(sp.Min), Max: nilToNaN(sp.Max)}
	}
	if _, err := ParseKind(c.Kind); err != nil {
		return err
	}
	return nil
}

// ReadSummary reads a summary.json file.
func ReadSummary(path string) (Summary, error) {
	var s Summary
	if err := ReadJSON(path, &s); err != nil {
		return Summary{}, err
	}
	return s, nil
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// nullNonFinite returns v with every non-finite float inside maps with
// string keys, slices, arrays, pointers and interfaces replaced by nil,
// counting the replacements in *n. Values without non-finite floats, and
// values of other kinds (structs, for example), are returned unchanged.
func nullNonFinite(v reflect.Value, n *int) any {
	if !v.IsValid() {
		return nil
	}
	if !hasNonFinite(v) {
		return v.Interface()
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		*n++
		return nil
	case reflect.Pointer, reflect.Interface:
		return nullNonFinite(v.Elem(), n)
	case reflect.Slice, reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = nullNonFinite(v.Index(i), n)
		}
		return out
	case reflect.Map:
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			out[it.Key().String()] = nullNonFinite(it.Value(), n)
		}
		return out
	}
	return v.Interface()
}

// hasNonFinite reports whether nullNonFinite would replace anything in v.
func hasNonFinite(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return !isFinite(v.Float())
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && hasNonFinite(v.Elem())
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if hasNonFinite(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return false
		}
		for it := v.MapRange(); it.Next(); {
			if hasNonFinite(it.Value()) {
				return true
			}
		}
	}
	return false
}

// Scorecard returns scorecard.md for s: a heading, intro (one paragraph that
// says what the tiers or the checks mean), the checks as a table with the
// verdicts pass, **FAIL** or n/a (with the reason), the data files and
// whether each was verified, and the warnings.
func Scorecard(s *Summary, intro string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s scorecard\n\nconfig hash %s, quick=%v.", s.Experiment, s.ConfigHash, s.Quick)
	if intro != "" {
		b.WriteString(" " + intro)
	}
	b.WriteString("\n\n| check | result | value | target |\n|---|---|---|---|\n")
	for _, c := range s.Checks {
		res, val := c.Verdict(), fmt.Sprintf("%.4g", c.Value)
		switch {
		case c.NotApplicable:
			val = "—"
			if c.Why != "" {
				res += " (" + c.Why + ")"
			}
		case !c.Pass:
			res = "**" + res + "**"
		}
		cell := strings.NewReplacer("|", "\\|", "\n", " ")
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cell.Replace(c.Name), cell.Replace(res), val, cell.Replace(c.Target))
	}
	if len(s.Data) > 0 {
		b.WriteString("\nData:\n\n")
		for _, d := range s.Data {
			state := "verified"
			if !d.Checked {
				state = "**not checked** against a known checksum"
			}
			fmt.Fprintf(&b, "- `%s` (SHA-256 %.16s…): %s", d.File, d.SHA256, state)
			if d.Note != "" {
				fmt.Fprintf(&b, "; %s", d.Note)
			}
			b.WriteString("\n")
		}
	}
	if len(s.Warnings) > 0 {
		b.WriteString("\nWarnings:\n\n")
		for _, w := range s.Warnings {
			fmt.Fprintf(&b, "- %s\n", w)
		}
	}
	return []byte(b.String())
}
