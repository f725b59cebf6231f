package config

// This file is the strict TOML loader shared by every experiment:
// Go defaults ← the config file ← its [quick] table (under -quick), with
// every key in the file required to land in a struct field.
//
// Two facts about github.com/BurntSushi/toml v1.6.0 shape it:
//
//   - Decoding is loose: keys without a matching field are ignored, and
//     only MetaData.Undecoded lists them. Keys match field names
//     case-insensitively.
//   - The parser records a position for every key, but MetaData exports no
//     accessor for it. It does put the position into the ParseError it
//     returns when a toml.Unmarshaler fails, so keyLine decodes the file
//     once more into a probe type whose only field, at the unknown key's
//     path, fails. See keyLine.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Validator is implemented by experiment configs.
type Validator interface{ Validate() error }

// quickTable is the top-level table whose keys overlay the config under
// -quick. Config structs have no field for it.
const quickTable = "quick"

// Load reads the TOML file at path into cfg, a pointer to a struct
// already filled with defaults.
//
//  1. The file is decoded over cfg; a key absent from the file keeps its
//     default. Tables merge into structs and maps key by key; an array
//     replaces a slice (but an array of tables decoded into a slice of
//     structs only overwrites the fields each table names). Maps and slices
//     in cfg are copied first, so defaults shared with other values are
//     never written to.
//  2. The keys of the top-level [quick] table (at any depth, e.g.
//     [quick.vb]) are an overlay: when quick is true they are decoded over
//     cfg after the main decode; when false they are decoded into a fresh
//     zero value of cfg's type, so that mistakes inside [quick] are still
//     caught.
//  3. Any key of the file that did not land in a field, in the main part
//     or in [quick], is an error naming the key and its line, e.g.
//     `configs/x.toml:12: unknown key "vb.prior_strenght" (did you mean "vb.prior_strength"?)`.
//  4. Every field is checked against the range its tag declares
//     (CheckRanges), then, if cfg implements Validator, Validate is called.
//     An error made by FieldError is reported at the line that set the key,
//     if the file set it.
//
// Errors are single lines, located in the file as path:line[:col]. Syntax
// errors carry the parser's line, column and message; type mismatches name
// the key. They are *Error values (several unknown keys give a
// Errors list).
func Load(path string, quick bool, cfg any) error {
	rv := reflect.ValueOf(cfg)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("experiments: Load %s: cfg must be a non-nil pointer to a struct, not %T", path, cfg)
	}
	chain, err := readChain(path, rv.Elem().Type())
	if err != nil {
		return err
	}
	detach(rv.Elem())
	for _, l := range chain {
		if err := l.decodeMain(cfg); err != nil {
			return err
		}
	}
	// Decode the overlays, the base's first. A zero Primitive (no [quick]
	// in a file) decodes to nothing. Without -quick the overlays are
	// decoded onto a copy of the config, so that their keys are checked and
	// the config they would give is validated too (a bad [quick] value is
	// an error before anyone runs -quick).
	target := cfg
	if !quick {
		c := reflect.New(rv.Elem().Type())
		c.Elem().Set(rv.Elem())
		detach(c.Elem())
		target = c.Interface()
	}
	hasQuick := false
	for _, l := range chain {
		if err := l.qmd.PrimitiveDecode(l.quick, target); err != nil {
			return l.decodeError(err, true)
		}
		hasQuick = hasQuick || l.qmd.IsDefined(quickTable)
	}
	for _, l := range chain {
		if err := l.unknownKeys(cfg); err != nil {
			return err
		}
	}
	if err := CheckRanges(cfg); err != nil {
		return locateIn(chain, err, quick)
	}
	if v, ok := cfg.(Validator); ok {
		if err := v.Validate(); err != nil {
			return locateIn(chain, err, quick)
		}
	}
	if !quick && hasQuick {
		if err := CheckRanges(target); err != nil {
			return locateIn(chain, err, true)
		}
		if v, ok := target.(Validator); ok {
			if err := v.Validate(); err != nil {
				return locateIn(chain, err, true)
			}
		}
	}
	return nil
}

// BaseKey is the top-level key of a variant config: the file, relative to
// the variant's folder, whose settings the variant starts from. The
// variant lists only what differs (its [quick] table too: the base's
// overlay applies, then the variant's). The resolved config, which the
// results folder records, has no base.
const BaseKey = "base"

// maxChain bounds a chain of bases.
const maxChain = 8

// readChain reads path and the bases it names, and returns their loaders
// from the first base to path. A missing base, a cycle or a chain longer
// than maxChain is an error naming the file and the line of its base key.
func readChain(path string, typ reflect.Type) ([]*loader, error) {
	var chain []*loader
	seen := map[string]bool{}
	for p := path; ; {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		if seen[abs] || len(chain) == maxChain {
			last := chain[len(chain)-1]
			why := "a base cycle"
			if !seen[abs] {
				why = fmt.Sprintf("more than %d files deep", maxChain)
			}
			return nil, &Error{Path: last.path, Line: last.keyLine(toml.Key{BaseKey}), Key: BaseKey, Msg: fmt.Sprintf("base = %q: %s", last.base, why)}
		}
		seen[abs] = true
		data, err := os.ReadFile(p)
		if err != nil {
			if len(chain) > 0 {
				last := chain[len(chain)-1]
				return nil, &Error{Path: last.path, Line: last.keyLine(toml.Key{BaseKey}), Key: BaseKey, Msg: fmt.Sprintf("base = %q: %v", last.base, errors.Unwrap(err))}
			}
			return nil, err
		}
		l := &loader{path: p, text: string(data), typ: typ}
		if err := l.parse(); err != nil {
			return nil, err
		}
		chain = append(chain, l)
		if l.base == "" {
			break
		}
		if filepath.IsAbs(l.base) {
			p = l.base
		} else {
			p = filepath.Join(filepath.Dir(p), l.base)
		}
	}
	slices.Reverse(chain)
	return chain, nil
}

// parse parses the file, collecting its [quick] table undecoded and its
// base key. Any error here is a syntax error: a Primitive accepts any value.
func (l *loader) parse() error {
	var head struct {
		Base  any            `toml:"base"`
		Quick toml.Primitive `toml:"quick"`
	}
	qmd, err := toml.Decode(l.text, &head)
	if err != nil {
		return l.decodeError(err, false)
	}
	l.qmd, l.md, l.quick = qmd, &qmd, head.Quick
	if head.Base != nil {
		b, ok := head.Base.(string)
		if !ok || b == "" {
			return &Error{Path: l.path, Line: l.keyLine(toml.Key{BaseKey}), Key: BaseKey, Msg: fmt.Sprintf("base = %s: must name a config file, e.g. base = \"single-instance.toml\"", formatValue(reflect.ValueOf(head.Base)))}
		}
		l.base = b
	}
	return nil
}

// decodeMain decodes the file (but its [quick] table) over cfg.
func (l *loader) decodeMain(cfg any) error {
	md, err := toml.Decode(l.text, cfg)
	if err != nil {
		return l.decodeError(err, true)
	}
	l.mainLeft = make(map[string]bool)
	for _, k := range md.Undecoded() {
		l.mainLeft[k.String()] = true
	}
	for _, k := range l.qmd.Keys() {
		if strings.EqualFold(k[0], quickTable) && !l.mainLeft[k.String()] {
			return fmt.Errorf("experiments: Load %s: config type %s has a field for the reserved table [%s]", l.path, l.typ, quickTable)
		}
		if k[0] == BaseKey && !l.mainLeft[k.String()] {
			return fmt.Errorf("experiments: Load %s: config type %s has a field for the reserved key %s", l.path, l.typ, BaseKey)
		}
	}
	return nil
}

// unknownKeys returns the error of the keys of the file that neither its
// main decode nor its overlay decode used, and of keys spelt in another
// case than their field's; nil if there are none.
func (l *loader) unknownKeys(cfg any) error {
	// A key is unknown if neither decode used it: the main decode leaves
	// the [quick] keys undecoded, the overlay decode all the others. Of an
	// unknown table only the table is reported, not each key in it.
	isUnknown := make(map[string]bool)
	for _, k := range l.qmd.Undecoded() {
		if l.mainLeft[k.String()] {
			isUnknown[k.String()] = true
		}
	}
	var unknown Errors
	for _, k := range l.qmd.Undecoded() {
		s := k.String()
		if !isUnknown[s] || hasUnknownParent(k, isUnknown) {
			continue
		}
		isUnknown[s] = false // report an array-of-tables key once
		msg := fmt.Sprintf("unknown key %q", s)
		if alt, note := moved(cfg, l.typ, k); alt != "" {
			msg += fmt.Sprintf(": renamed to %q%s", alt, note)
		} else if alt, note := renamed(l.typ, k); alt != "" {
			msg += fmt.Sprintf(": renamed to %q%s", alt, note)
		} else if alt := suggest(l.typ, k); alt != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", alt)
		}
		unknown = append(unknown, &Error{Path: l.path, Line: l.keyLine(k), Key: s, Msg: msg})
	}
	// toml wraps a negative integer decoded into an unsigned field (seed =
	// -1 becomes 2⁶⁴−1, which the written config.toml cannot hold); refuse
	// it naming the key.
	var raw map[string]any
	if _, err := toml.Decode(l.text, &raw); err == nil {
		if key, v, ok := negativeUnsigned(l.typ, raw, nil); ok {
			k := toml.Key(strings.Split(key, "."))
			return &Error{Path: l.path, Line: l.keyLine(k), Key: key, Msg: fmt.Sprintf("%s = %d: must be ≥ 0", key, v)}
		}
	}
	// toml matches keys to fields case-insensitively; a key spelt in
	// another case (Restarts for restarts) is refused like an unknown one.
	for _, k := range l.qmd.Keys() {
		if isUnknown[k.String()] {
			continue
		}
		if right := rightCase(l.typ, k); right != "" {
			unknown = append(unknown, &Error{Path: l.path, Line: l.keyLine(k), Key: k.String(),
				Msg: fmt.Sprintf("unknown key %q (did you mean %q? keys are case-sensitive)", k.String(), right)})
		}
	}
	switch len(unknown) {
	case 0:
		return nil
	case 1:
		return unknown[0]
	}
	return unknown
}

// locateIn places the error of a key (a *ValueError) at the file of the
// chain that set it last: under quick the [quick] table of the latest file
// that sets it there, else the main part of the latest file that sets it;
// the variant's file when none does.
func locateIn(chain []*loader, err error, quick bool) error {
	var ve *ValueError
	if errors.As(err, &ve) && ve.Key != "" {
		key := toml.Key(strings.Split(ve.Key, "."))
		if quick {
			for i := len(chain) - 1; i >= 0; i-- {
				if chain[i].md.IsDefined(append(toml.Key{quickTable}, key...)...) {
					return chain[i].validateError(err, true)
				}
			}
		}
		for i := len(chain) - 1; i >= 0; i-- {
			if chain[i].md.IsDefined(key...) {
				return chain[i].validateError(err, false)
			}
		}
	}
	return chain[len(chain)-1].validateError(err, quick)
}

// hasUnknownParent reports whether a proper prefix of k is unknown too.
func hasUnknownParent(k toml.Key, isUnknown map[string]bool) bool {
	for i := 1; i < len(k); i++ {
		if _, ok := isUnknown[k[:i].String()]; ok {
			return true
		}
	}
	return false
}

// Encode encodes the resolved cfg as TOML and returns the bytes and an
// identifier of the config: the first 12 hex digits of their SHA-256. The
// encoding is deterministic (struct fields in declaration order, map keys
// sorted), so equal configs have equal identifiers, and Load reads the
// bytes back to an equal config.
func Encode(cfg any) (data []byte, hash string, err error) {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(cfg); err != nil {
		return nil, "", fmt.Errorf("experiments: encode config %T: %s", cfg, oneLine(err.Error()))
	}
	sum := sha256.Sum256(buf.Bytes())
	return buf.Bytes(), hex.EncodeToString(sum[:])[:12], nil
}

// Error is an error at a place in a config file. Its Error method
// gives one line: path[:line[:col]]: message.
type Error struct {
	Path string
	Line int    // 1-based; 0 if unknown
	Col  int    // 1-based; 0 if unknown
	Key  string // dotted key the error is about, if any
	Msg  string
	Err  error // the underlying error, if any (a Validate error, for example)
}

func (e *Error) Error() string {
	loc := e.Path
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
		if e.Col > 0 {
			loc += ":" + strconv.Itoa(e.Col)
		}
	}
	return loc + ": " + oneLine(e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Errors is a list of errors in one config file, in file order.
type Errors []*Error

// Error joins the errors with "; ".
func (es Errors) Error() string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.Error()
	}
	return strings.Join(s, "; ")
}

// Unwrap lets errors.As find the first *Error.
func (es Errors) Unwrap() []error {
	errs := make([]error, len(es))
	for i, e := range es {
		errs[i] = e
	}
	return errs
}

// ValueError is an invalid config value, reported by a Validate method.
type ValueError struct {
	Key   string // dotted TOML key, e.g. "vb.prior_strength"
	Value any
	Why   string // e.g. "must be > 0"
}

func (e *ValueError) Error() string {
	return e.Key + " = " + formatValue(reflect.ValueOf(e.Value)) + ": " + e.Why
}

// FieldError returns a *ValueError for Validate methods:
// FieldError("vb.prior_strength", -4.0, "must be > 0") reads
// `vb.prior_strength = -4: must be > 0`. Values are written as in TOML.
// Load adds the file and the line that set key.
func FieldError(key string, value any, why string) error {
	return &ValueError{Key: key, Value: value, Why: why}
}

// formatValue writes v roughly as TOML would: strings quoted, floats in
// shortest form, arrays in brackets, tables in braces with sorted keys.
func formatValue(v reflect.Value) string {
	if !v.IsValid() {
		return "<nil>"
	}
	switch v.Kind() {
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Float32:
		return strconv.FormatFloat(v.Float(), 'g', -1, 32)
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "<nil>"
		}
		return formatValue(v.Elem())
	case reflect.Slice, reflect.Array:
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = formatValue(v.Index(i))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case reflect.Map:
		parts := make([]string, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			parts = append(parts, fmt.Sprint(it.Key().Interface())+" = "+formatValue(it.Value()))
		}
		sort.Strings(parts)
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	if v.CanInterface() {
		return fmt.Sprint(v.Interface())
	}
	return v.String()
}

// loader holds one file of a config's chain and what the error paths need.
type loader struct {
	path string
	text string
	typ  reflect.Type   // cfg's struct type
	md   *toml.MetaData // metadata of the whole file (from the [quick] decode)

	qmd      toml.MetaData  // the decode of the file's head: base and [quick]
	quick    toml.Primitive // its [quick] table
	base     string         // its base key, or ""
	mainLeft map[string]bool
}

// tomlError matches the errors toml's decoder makes with fmt.Errorf (type
// mismatches): "toml: line 5 (last key \"vb.tol\"): incompatible types: ...".
var tomlError = regexp.MustCompile(`^toml: (?:line (\d+) )?\(last key ("(?:[^"\\]|\\.)*")\): (.*)$`)

// The decoder's wording of a value of the wrong type or size, and the names
// of its types in a config's terms.
var (
	typeMismatch = regexp.MustCompile(`^incompatible types: TOML value has type ([\w\[\]{}.]+); destination has type ([\w\[\]{}.]+)$`)
	intOverflow  = regexp.MustCompile(`^(-?\d+) is out of range for (u?int\d*)$`)
	typeWords    = map[string]string{
		"integer": "a whole number", "int64": "a whole number", "float64": "a number", "string": "a string",
		"bool": "true or false", "slice": "a list", "[]interface {}": "a list", "[]any": "a list", "map[string]interface {}": "a table", "map[string]any": "a table",
		"map": "a table", "struct": "a table", "time.Time": "a date",
	}
)

// plainDecodeMessage rewrites the decoder's messages about a value's type
// or size in the config's terms ("must be a whole number, not a number
// with a fraction or exponent"); other messages are kept.
func plainDecodeMessage(msg string) string {
	if m := typeMismatch.FindStringSubmatch(msg); m != nil {
		want, got := typeWords[m[2]], typeWords[m[1]]
		if want == "" || got == "" {
			return msg
		}
		if m[1] == "float64" && m[2] == "integer" {
			return "must be a whole number (written without a fraction or an exponent)"
		}
		return fmt.Sprintf("must be %s, not %s", want, got)
	}
	if m := intOverflow.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s is too large for a whole number (at most 9223372036854775807)", m[1])
	}
	return msg
}

// decodeError locates a decoding error in the file. decoding says whether
// the file has already parsed, so that a toml.ParseError is about a value
// rather than the syntax.
func (l *loader) decodeError(err error, decoding bool) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg := plainDecodeMessage(pe.Message)
		ce := &Error{Path: l.path, Line: pe.Position.Line, Col: pe.Position.Col, Msg: escapeControl(msg), Err: err}
		switch {
		case decoding && pe.LastKey != "":
			ce.Key = pe.LastKey
			ce.Msg = fmt.Sprintf("key %q: %s", pe.LastKey, msg)
		case pe.LastKey != "":
			ce.Msg = fmt.Sprintf("%s (last key %q)", msg, pe.LastKey)
		}
		return ce
	}
	msg := oneLine(err.Error())
	if m := tomlError.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		key, uerr := strconv.Unquote(m[2])
		if uerr != nil {
			key = m[2]
		}
		return &Error{Path: l.path, Line: line, Key: key, Msg: fmt.Sprintf("key %q: %s", key, plainDecodeMessage(m[3])), Err: err}
	}
	return &Error{Path: l.path, Msg: strings.TrimPrefix(msg, "toml: "), Err: err}
}

// validateError wraps a Validate error with the file and, for a
// *ValueError whose key the file sets, the line that set it (the [quick]
// line when the overlay applied and set it).
func (l *loader) validateError(err error, quick bool) error {
	ce := &Error{Path: l.path, Msg: err.Error(), Err: err}
	var ve *ValueError
	if errors.As(err, &ve) && ve.Key != "" {
		ce.Key = ve.Key
		key := toml.Key(strings.Split(ve.Key, "."))
		if quick && l.md.IsDefined(append(toml.Key{quickTable}, key...)...) {
			ce.Line = l.keyLine(append(toml.Key{quickTable}, key...))
		} else if l.md.IsDefined(key...) {
			ce.Line = l.keyLine(key)
		}
	}
	return ce
}

// Locate puts the file, and the line that set the key of a *ValueError
// (the [quick] line under quick, if the overlay sets it), in front of err,
// as Load does for the errors of Validate (the base that set it, for a
// variant).
func Locate(path string, quick bool, err error) error {
	chain, cerr := readChain(path, nil)
	if cerr != nil {
		return &Error{Path: path, Msg: err.Error(), Err: err}
	}
	return locateIn(chain, err, quick)
}

// keyProbe is the toml.Unmarshaler at the end of keyLine's probe type.
type keyProbe struct{}

var errKeyProbe = errors.New("vbw key probe")

func (*keyProbe) UnmarshalTOML(any) error { return errKeyProbe }

// keyLine returns the line on which key is defined in the file, or 0 if it
// cannot tell.
//
// toml v1.6.0 records every key's position but has no exported accessor
// (MetaData has no Position method). When a toml.Unmarshaler returns an
// error, though, the decoder returns a ParseError carrying the position
// recorded for the key being decoded. So keyLine builds, with reflect, a
// struct type that has one field per component of key (a slice of structs
// where the file has an array of tables) ending in a keyProbe, decodes the
// file into it, and reads the line from the ParseError. Unrelated keys are
// ignored by the decoder, so only the path to key is visited.
//
// The recorded position is that of the value (or of the [header] for a
// table). For a multi-line string it is the string's last line, so if that
// line does not mention the key, keyLine walks back to the nearest line that
// does. If the probe is impossible (a key component containing a comma, which
// a struct tag cannot express) keyLine falls back to scanning the text for a
// line defining the key's last component and uses it only if it is unique.
func (l *loader) keyLine(key toml.Key) int {
	line := l.probeLine(key)
	last := key[len(key)-1]
	defines := keyPattern(last)
	lines := strings.Split(l.text, "\n")
	if line > 0 {
		for i := line; i >= 1 && i <= len(lines); i-- {
			if defines.MatchString(lines[i-1]) {
				return i
			}
		}
		return line
	}
	found := 0
	for i, s := range lines {
		if defines.MatchString(s) {
			if found != 0 {
				return 0
			}
			found = i + 1
		}
	}
	return found
}

// keyPattern matches a line that defines a key whose last component is
// name, bare or quoted: `name =`, `a.name =`, `{ name =`, `[a.name]`.
func keyPattern(name string) *regexp.Regexp {
	q := regexp.QuoteMeta(name)
	return regexp.MustCompile(`(^|[\s.{,\[])(` + q + `|"` + q + `"|'` + q + `')\s*[=.\]]`)
}

// probeLine returns the line toml recorded for key, using the probe type
// described at keyLine, or 0.
func (l *loader) probeLine(key toml.Key) (line int) {
	for _, c := range key {
		if c == "" || c == "-" || strings.Contains(c, ",") {
			return 0 // not expressible as a toml struct tag
		}
	}
	defer func() {
		if recover() != nil { // reflect.StructOf refused the type
			line = 0
		}
	}()
	t := reflect.TypeOf(keyProbe{})
	for i := len(key) - 1; i >= 0; i-- {
		if i < len(key)-1 {
			switch l.md.Type(key[:i+1]...) {
			case "Array", "ArrayHash":
				t = reflect.SliceOf(t)
			}
		}
		t = reflect.StructOf([]reflect.StructField{{
			Name: "F",
			Type: t,
			Tag:  reflect.StructTag(`toml:` + strconv.Quote(key[i])),
		}})
	}
	_, err := toml.Decode(l.text, reflect.New(t).Interface())
	var pe toml.ParseError
	if errors.As(err, &pe) && pe.Message == errKeyProbe.Error() && pe.LastKey == key.String() {
		return pe.Position.Line
	}
	return 0
}

// suggest returns a known key close to the unknown key k, or "". It walks
// cfg's type along k as toml matches fields (toml tag or field name, case
// insensitive, untagged embedded structs flattened, maps and slices by their
// elements); at the first component with no field it looks for a field name
// within a small edit distance.
func suggest(t reflect.Type, k toml.Key) string {
	prefix, rest := toml.Key(nil), k
	if strings.EqualFold(k[0], quickTable) {
		prefix, rest = k[:1], k[1:]
	}
	for i, c := range rest {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if t.Kind() == reflect.Map {
			t = t.Elem()
			continue
		}
		if t.Kind() != reflect.Struct {
			return ""
		}
		fields := tomlFields(t)
		if ft, ok := fields[c]; ok {
			t = ft
			continue
		}
		found := false
		for name, ft := range fields {
			if strings.EqualFold(name, c) {
				t, found = ft, true
				break
			}
		}
		if found {
			continue
		}
		best, bestD := "", 3
		for name := range fields {
			d := editDistance(strings.ToLower(c), strings.ToLower(name))
			if d < bestD || d == bestD && name < best {
				best, bestD = name, d
			}
		}
		if best == "" || bestD >= len([]rune(c)) || bestD > 1 && len(c) <= 4 {
			return "" // nothing close, or a guess no better than any other
		}
		alt := append(append(append(toml.Key{}, prefix...), rest[:i]...), best)
		return append(alt, rest[i+1:]...).String()
	}
	return ""
}

// retiredKeys are the keys that the one vocabulary of iterations renamed or moved
// (see FitSettings), by their last component: the replacement is a key of
// the same table or, starting with "/", a key from the top of the config,
// with a note on its values. Configs written before it get a one-line
// error naming the new key.
var retiredKeys = map[string]struct{ key, note string }{
	"max_iter":         {key: "max_iterations"},
	"max_total_sweeps": {key: "max_total_iterations"},
	"max_total_iters":  {key: "max_total_iterations"},
	"final_sweeps":     {key: "max_final_iterations"},
	"epoch_min_sweeps": {key: "min_epoch_iterations"},
	"kmeans_max_iter":  {key: "max_kmeans_iterations"},
	"iterations":       {key: "max_total_iterations"},
	"optimise_hyper":   {key: "hyper", note: "a table of group = first iteration after which it is updated, 0 never; e.g. u_pi = 1"},
	"optimise_ab":      {key: "/vb.hyper.ab", note: "= 1 updates a*, b* from the first iteration, 0 never"},
	"optimise_alpha":   {key: "/vb.hyper.alpha", note: "= 1 updates α* from the first iteration, 0 never"},
}

// Retirer is implemented by a config whose keys were renamed or moved:
// RetiredKeys maps each former dotted key (from the top of the config,
// without [quick]) to its new one, and a config that still uses the former
// gets a one-line error naming the new key, at its line:
//
//	func (*BridgeConfig) RetiredKeys() map[string]string {
//		return map[string]string{"is_runs": "is.runs", "is_samples": "is.samples"}
//	}
//
// A former table maps to its new table ("vb.prior_strength": "prior").
type Retirer interface{ RetiredKeys() map[string]string }

// moved returns the new name of the unknown key k if cfg declares it
// retired (Retirer), with the [quick] prefix kept; "" if not.
func moved(cfg any, t reflect.Type, k toml.Key) (string, string) {
	r, ok := cfg.(Retirer)
	if !ok {
		return "", ""
	}
	prefix, rest := toml.Key(nil), k
	if strings.EqualFold(k[0], quickTable) {
		prefix, rest = k[:1], k[1:]
	}
	alt, ok := r.RetiredKeys()[rest.String()]
	if !ok {
		return "", ""
	}
	newKey := toml.Key(strings.Split(alt, "."))
	if !hasKey(t, newKey) {
		return "", "" // a map shared by several configs, this one without the key
	}
	return append(append(toml.Key{}, prefix...), newKey...).String(), ""
}

// renamed returns the new name of the unknown key k if its last component
// is a retired key whose replacement is a key of t, and the note on it
// (with a leading " (", or ""); "" if not.
func renamed(t reflect.Type, k toml.Key) (string, string) {
	r, ok := retiredKeys[k[len(k)-1]]
	if !ok {
		return "", ""
	}
	prefix, rest := toml.Key(nil), k
	if strings.EqualFold(k[0], quickTable) {
		prefix, rest = k[:1], k[1:]
	}
	var alt toml.Key
	if abs, ok := strings.CutPrefix(r.key, "/"); ok {
		alt = append(alt, strings.Split(abs, ".")...)
	} else {
		alt = append(append(alt, rest[:len(rest)-1]...), r.key)
	}
	if !hasKey(t, alt) {
		return "", ""
	}
	note := ""
	if r.note != "" {
		note = " (" + r.note + ")"
	}
	return append(append(toml.Key{}, prefix...), alt...).String(), note
}

// hasKey reports whether the key k names a field of t (or a key of a map
// in it), as toml matches them.
func hasKey(t reflect.Type, k toml.Key) bool {
	for _, c := range k {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Map:
			t = t.Elem()
			continue
		case reflect.Struct:
		default:
			return false
		}
		ft, ok := tomlFields(t)[c]
		if !ok {
			return false
		}
		t = ft
	}
	return true
}

// negativeUnsigned finds a negative integer in raw (a decoded TOML table)
// whose field in t is an unsigned integer, also inside [quick].
func negativeUnsigned(t reflect.Type, raw map[string]any, prefix []string) (string, int64, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return "", 0, false
	}
	fields := tomlFields(t)
	for k, v := range raw {
		if len(prefix) == 0 && k == quickTable {
			if m, ok := v.(map[string]any); ok {
				if key, n, ok := negativeUnsigned(t, m, []string{quickTable}); ok {
					return key, n, true
				}
			}
			continue
		}
		ft, ok := fields[k]
		if !ok {
			continue
		}
		path := append(append([]string(nil), prefix...), k)
		switch v := v.(type) {
		case int64:
			switch ft.Kind() {
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
				if v < 0 {
					return strings.Join(path, "."), v, true
				}
			}
		case map[string]any:
			if key, n, ok := negativeUnsigned(ft, v, path); ok {
				return key, n, true
			}
		}
	}
	return "", 0, false
}

// rightCase returns the correctly spelt key when k names a field of t only
// case-insensitively (toml would decode it silently), and "" when k is
// spelt as the fields are (or is not a field at all: that is reported as
// unknown elsewhere).
func rightCase(t reflect.Type, k toml.Key) string {
	prefix, rest := toml.Key(nil), k
	if len(k) > 0 && k[0] == quickTable {
		prefix, rest = k[:1], k[1:]
	}
	fixed := append(toml.Key{}, prefix...)
	wrong := false
	for _, c := range rest {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if t.Kind() == reflect.Map {
			t = t.Elem()
			fixed = append(fixed, c)
			continue
		}
		if t.Kind() != reflect.Struct {
			break
		}
		fields := tomlFields(t)
		if ft, ok := fields[c]; ok {
			t = ft
			fixed = append(fixed, c)
			continue
		}
		found := false
		for name, ft := range fields {
			if strings.EqualFold(name, c) {
				t, found, wrong = ft, true, true
				fixed = append(fixed, name)
				break
			}
		}
		if !found {
			return ""
		}
	}
	if !wrong {
		return ""
	}
	return fixed.String()
}

// tomlFields returns the TOML names of t's fields and their types, as
// toml's decoder sees them.
func tomlFields(t reflect.Type) map[string]reflect.Type {
	fields := make(map[string]reflect.Type)
	var walk func(t reflect.Type, depth int)
	walk = func(t reflect.Type, depth int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			tag := f.Tag.Get("toml")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			ft := f.Type
			if ft.Name() == "" && ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
				if depth < 8 {
					walk(ft, depth+1)
				}
				continue
			}
			if name == "" {
				name = f.Name
			}
			if _, dup := fields[name]; !dup {
				fields[name] = ft
			}
		}
	}
	walk(t, 0)
	return fields
}

// Closest returns the option nearest s (by edit distance, case folded)
// if it is near enough to be a likely typo, or "".
func Closest(s string, options []string) string {
	best, bestD := "", 4
	for _, o := range options {
		d := editDistance(strings.ToLower(s), strings.ToLower(o))
		if d < bestD || d == bestD && o < best {
			best, bestD = o, d
		}
	}
	if best == "" || bestD >= len([]rune(s))/2 {
		return ""
	}
	return best
}

// editDistance is the optimal-string-alignment distance between a and b:
// insertions, deletions, substitutions and transpositions of neighbours.
func editDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	d := make([][]int, len(s)+1)
	for i := range d {
		d[i] = make([]int, len(t)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(s); i++ {
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(s)][len(t)]
}

// detach replaces every non-nil map, slice and pointer reachable from v
// through exported fields by a copy, so that decoding into v cannot write
// through to values that v shares with others, such as a package-level
// default slice (toml reuses a slice's backing array and adds to an
// existing map).
func detach(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || !v.CanSet() {
			return
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(v.Elem())
		detach(p.Elem())
		v.Set(p)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				detach(f)
			}
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			detach(v.Index(i))
		}
	case reflect.Slice:
		if v.IsNil() || !v.CanSet() {
			return
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(c, v)
		for i := 0; i < c.Len(); i++ {
			detach(c.Index(i))
		}
		v.Set(c)
	case reflect.Map:
		if v.IsNil() || !v.CanSet() {
			return
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			detach(e)
			c.SetMapIndex(it.Key(), e)
		}
		v.Set(c)
	}
}

// escapeControl writes the control characters of a parser message (which
// quotes the offending text, newlines included) as Go escapes, so that the
// message stays on one line: '0b\n' rather than a line break.
func escapeControl(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// oneLine joins the lines of a message with "; " so that it prints on one
// line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	var parts []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "; ")
}

// FileError formats an error of decoding the TOML file path (a parse
// error at its line and column) on one line, with the file name.
func FileError(path string, err error) error {
	if pe, ok := err.(toml.ParseError); ok {
		return fmt.Errorf("%s:%d:%d: %s", path, pe.Position.Line, pe.Position.Col, escapeControl(pe.Message))
	}
	return fmt.Errorf("%s: %s", path, oneLine(err.Error()))
}

// TopString returns the top-level string key of a config file, from the
// file or, if it does not set it, from the latest of its bases that does
// ("" if none does), without decoding the rest.
func TopString(path, key string) (string, error) {
	chain, err := readChain(path, nil)
	if err != nil {
		return "", err
	}
	for i := len(chain) - 1; i >= 0; i-- {
		var head map[string]any
		if _, err := toml.Decode(chain[i].text, &head); err != nil {
			return "", chain[i].decodeError(err, false)
		}
		if v, ok := head[key]; ok {
			s, ok := v.(string)
			if !ok {
				return "", &Error{Path: chain[i].path, Line: chain[i].keyLine(toml.Key{key}), Key: key, Msg: fmt.Sprintf("%s = %s: must be a string", key, formatValue(reflect.ValueOf(v)))}
			}
			return s, nil
		}
	}
	return "", nil
}
