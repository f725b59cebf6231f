package config

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Declared ranges.
//
// Every numeric key and every list of a config declares its admissible
// values once, in a range tag beside its field, and Load checks every field
// of the resolved config against it (defaults included) before the
// config's Validate runs, so that a Validate method only checks what
// relates several keys:
//
//	Restarts int       `toml:"restarts" range:"[1,1e6]"`
//	RelTol   float64   `toml:"rel_tol" range:"[0,1)"`
//	Tau1     float64   `toml:"tau1" range:"0|(0,1)"`
//	Sizes    []int     `toml:"sizes" range:"[1,1e7] len=1.. increasing"`
//	Range    [2]float64 `toml:"t_range" range:"[-1e6,1e6] increasing"`
//	Files    []string  `toml:"data" range:"len=1.."`
//
// The tag is a list of words separated by blanks:
//
//   - an interval, [a,b], (a,b), [a,b) or (a,b], or a single number a, or
//     several of them joined by '|' (0|[2,1e9]: 0, or from 2 to 10⁹); the
//     bounds are numbers or ±inf. The value (every element of a list, every
//     value of a map) must lie in one of them. NaN is refused unless the
//     tag has the word nan, and ±Inf unless an interval is closed at
//     ±inf ([0,inf]);
//   - integer: a float64 key that must hold a whole number;
//   - len=n, len=n.., len=n..m: a list of exactly n, at least n, or n to m
//     elements;
//   - increasing, nondecreasing, decreasing, nonincreasing, distinct: the
//     order of a list's elements.
//
// A list of strings declares its length only, and a string may declare
// one (len=1..: it must not be empty). Tables (structs) need no
// tag: their fields declare their own. TestEveryKeyDeclaresItsRange (in
// experiments/cmd/vbw) fails for a numeric key or list of a registered
// experiment without a tag, and CheckRanges panics on a tag it cannot
// read, so a typo in a tag is found by the first test that loads the
// config.

// RangeTag is the struct tag that declares a key's admissible values.
const RangeTag = "range"

// rangeSpec is a parsed range tag.
type rangeSpec struct {
	tag       string
	intervals []interval // empty: any number (a list of strings, or a tag with only len/order)
	nan       bool
	integer   bool
	minLen    int
	maxLen    int // -1: no bound
	order     string
}

type interval struct {
	lo, hi         float64
	loOpen, hiOpen bool
}

func (iv interval) contains(x float64) bool {
	if x < iv.lo || x > iv.hi || x == iv.lo && iv.loOpen || x == iv.hi && iv.hiOpen {
		return false
	}
	// An infinite value is in the interval only where it is closed at that
	// infinity.
	return !math.IsInf(x, 0) || (x == iv.lo && !iv.loOpen) || (x == iv.hi && !iv.hiOpen)
}

// describe writes the interval for a message: "≥ 2", "> 0", "in [0, 1)", "0".
func (iv interval) describe(isInt bool) string {
	lo, hi := num(iv.lo), num(iv.hi)
	switch {
	case iv.lo == iv.hi:
		return lo
	case math.IsInf(iv.hi, 1) && iv.hiOpen && math.IsInf(iv.lo, -1):
		return "finite"
	case math.IsInf(iv.hi, 1) && iv.hiOpen:
		if iv.loOpen {
			return "> " + lo + " and finite"
		}
		if isInt {
			return "at least " + lo
		}
		return "≥ " + lo + " and finite"
	case math.IsInf(iv.lo, -1) && iv.loOpen:
		if iv.hiOpen {
			return "< " + hi + " and finite"
		}
		if isInt {
			return "at most " + hi
		}
		return "≤ " + hi + " and finite"
	case isInt && !iv.loOpen && !iv.hiOpen:
		return "from " + lo + " to " + hi
	}
	l, r := "[", "]"
	if iv.loOpen {
		l = "("
	}
	if iv.hiOpen {
		r = ")"
	}
	return "in " + l + lo + ", " + hi + r
}

func num(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "-∞"
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if m, e, ok := strings.Cut(s, "e"); ok {
		s = m + "e" + strings.TrimLeft(strings.TrimPrefix(e, "+"), "0")
		s = strings.Replace(s, "e-0", "e-", 1)
	}
	return s
}

// parseRange reads a range tag; it panics on a tag it cannot read (a
// programmer's error, found by the first load of the config type).
func parseRange(tag string) *rangeSpec {
	s := &rangeSpec{tag: tag, maxLen: -1}
	bad := func(why string) { panic(fmt.Sprintf("config: range tag %q: %s", tag, why)) }
	for _, w := range strings.Fields(tag) {
		switch {
		case w == "nan":
			s.nan = true
		case w == "integer":
			s.integer = true
		case w == "increasing" || w == "nondecreasing" || w == "decreasing" || w == "nonincreasing" || w == "distinct":
			if s.order != "" {
				bad("two orders")
			}
			s.order = w
		case strings.HasPrefix(w, "len="):
			lo, hi, dots := strings.Cut(w[4:], "..")
			n, err := strconv.Atoi(lo)
			if err != nil || n < 0 {
				bad("len= needs a count")
			}
			s.minLen, s.maxLen = n, n
			if dots {
				s.maxLen = -1
				if hi != "" {
					if s.maxLen, err = strconv.Atoi(hi); err != nil || s.maxLen < n {
						bad("len=n..m needs m ≥ n")
					}
				}
			}
		default:
			if len(s.intervals) > 0 {
				bad("two interval words (join alternatives with |)")
			}
			for _, alt := range strings.Split(w, "|") {
				iv, ok := parseInterval(alt)
				if !ok {
					bad(fmt.Sprintf("cannot read %q", alt))
				}
				s.intervals = append(s.intervals, iv)
			}
		}
	}
	return s
}

func parseInterval(w string) (interval, bool) {
	if w == "" {
		return interval{}, false
	}
	if w[0] != '[' && w[0] != '(' {
		x, err := parseBound(w)
		return interval{lo: x, hi: x}, err == nil && !math.IsInf(x, 0)
	}
	last := w[len(w)-1]
	if last != ']' && last != ')' {
		return interval{}, false
	}
	a, b, ok := strings.Cut(w[1:len(w)-1], ",")
	if !ok {
		return interval{}, false
	}
	lo, err1 := parseBound(a)
	hi, err2 := parseBound(b)
	iv := interval{lo: lo, hi: hi, loOpen: w[0] == '(', hiOpen: last == ')'}
	return iv, err1 == nil && err2 == nil && lo <= hi
}

func parseBound(s string) (float64, error) {
	switch strings.TrimSpace(s) {
	case "inf", "+inf":
		return math.Inf(1), nil
	case "-inf":
		return math.Inf(-1), nil
	}
	return strconv.ParseFloat(strings.TrimSpace(s), 64)
}

var rangeCache sync.Map // reflect.StructField's tag → *rangeSpec

func rangeOf(f reflect.StructField) (*rangeSpec, bool) {
	tag, ok := f.Tag.Lookup(RangeTag)
	if !ok {
		return nil, false
	}
	if s, ok := rangeCache.Load(tag); ok {
		return s.(*rangeSpec), true
	}
	s := parseRange(tag)
	rangeCache.Store(tag, s)
	return s, true
}

// CheckRanges checks every field of cfg (a pointer to a struct, or a
// struct) that has a range tag against it, and returns a *ValueError for
// the first that is out of range, in field order, naming its dotted TOML
// key. Load calls it; a config built in Go can be checked with it too.
func CheckRanges(cfg any) error {
	v := reflect.ValueOf(cfg)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	return checkStruct(v, "")
}

func checkStruct(v reflect.Value, prefix string) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		fv := v.Field(i)
		if f.Anonymous && name == "" {
			for fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					break
				}
				fv = fv.Elem()
			}
			if fv.Kind() == reflect.Struct {
				if err := checkStruct(fv, prefix); err != nil {
					return err
				}
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		key := name
		if prefix != "" {
			key = prefix + "." + name
		}
		spec, tagged := rangeOf(f)
		if err := checkValue(fv, key, spec, tagged); err != nil {
			return err
		}
	}
	return nil
}

// checkValue checks the value of one key (spec nil when untagged:
// only its tables are walked).
func checkValue(v reflect.Value, key string, spec *rangeSpec, tagged bool) error {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		return checkStruct(v, key)
	case reflect.Slice, reflect.Array:
		if tagged {
			if err := spec.checkList(v, key); err != nil {
				return err
			}
		}
		if v.Type().Elem().Kind() == reflect.Struct || v.Type().Elem().Kind() == reflect.Pointer {
			for i := 0; i < v.Len(); i++ {
				if err := checkValue(v.Index(i), key, nil, false); err != nil {
					return err
				}
			}
		}
		return nil
	case reflect.Map:
		if !tagged {
			return nil
		}
		for it := v.MapRange(); it.Next(); {
			if x, ok := number(it.Value()); ok {
				if why := spec.checkNumber(x, isInt(it.Value())); why != "" {
					return FieldError(key+"."+fmt.Sprint(it.Key().Interface()), it.Value().Interface(), why)
				}
			}
		}
		return nil
	}
	if !tagged {
		return nil
	}
	if v.Kind() == reflect.String {
		if n := len(v.String()); n < spec.minLen || spec.maxLen >= 0 && n > spec.maxLen {
			if spec.minLen == 1 && spec.maxLen < 0 {
				return FieldError(key, v.String(), "must not be empty")
			}
			return FieldError(key, v.String(), fmt.Sprintf("must be %d to %d characters long", spec.minLen, spec.maxLen))
		}
		return nil
	}
	if x, ok := number(v); ok {
		if why := spec.checkNumber(x, isInt(v)); why != "" {
			return FieldError(key, v.Interface(), why)
		}
	}
	return nil
}

// number returns a numeric value as a float64.
func number(v reflect.Value) (float64, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	}
	return 0, false
}

func isInt(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return false
	}
	return true
}

// checkNumber returns why x is not admissible, or "".
func (s *rangeSpec) checkNumber(x float64, isInt bool) string {
	if math.IsNaN(x) {
		if s.nan {
			return ""
		}
		return "must be a number (NaN is not allowed here)"
	}
	if s.integer && x != math.Trunc(x) {
		return "must be a whole number"
	}
	if len(s.intervals) == 0 {
		if math.IsInf(x, 0) {
			return "must be finite"
		}
		return ""
	}
	for _, iv := range s.intervals {
		if iv.contains(x) {
			return ""
		}
	}
	return "must be " + s.describe(isInt || s.integer)
}

// describe writes the intervals: "≥ 1", "0, or in (0, 1)".
func (s *rangeSpec) describe(isInt bool) string {
	parts := make([]string, len(s.intervals))
	for i, iv := range s.intervals {
		parts[i] = iv.describe(isInt)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + ", or " + parts[len(parts)-1]
}

// checkList checks a list's length, its order and its elements.
func (s *rangeSpec) checkList(v reflect.Value, key string) error {
	n := v.Len()
	value := func() any { return v.Interface() }
	if n < s.minLen || s.maxLen >= 0 && n > s.maxLen {
		var why string
		switch {
		case s.minLen == s.maxLen:
			why = fmt.Sprintf("must list exactly %d %s", s.minLen, plural(s.minLen, "value"))
		case s.maxLen < 0:
			why = fmt.Sprintf("must list at least %d %s", s.minLen, plural(s.minLen, "value"))
		default:
			why = fmt.Sprintf("must list %d to %d values", s.minLen, s.maxLen)
		}
		return FieldError(key, value(), why)
	}
	elems := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		e := v.Index(i)
		x, ok := number(e)
		if !ok {
			continue
		}
		if why := s.checkNumber(x, isInt(e)); why != "" {
			if n == 1 {
				return FieldError(key, value(), "its value "+why)
			}
			return FieldError(key, value(), fmt.Sprintf("every value %s (value %d is %s)", why, i+1, formatValue(e)))
		}
		elems = append(elems, x)
	}
	for i := 1; i < len(elems); i++ {
		a, b := elems[i-1], elems[i]
		ok := true
		switch s.order {
		case "increasing":
			ok = b > a
		case "nondecreasing":
			ok = b >= a
		case "decreasing":
			ok = b < a
		case "nonincreasing":
			ok = b <= a
		case "distinct":
			for _, c := range elems[:i] {
				ok = ok && c != b
			}
		}
		if !ok {
			word := map[string]string{"increasing": "strictly increasing", "nondecreasing": "in nondecreasing order",
				"decreasing": "strictly decreasing", "nonincreasing": "in nonincreasing order", "distinct": "distinct"}[s.order]
			return FieldError(key, value(), fmt.Sprintf("must be %s (values %d and %d are %s, %s)", word, i, i+1, num(a), num(b)))
		}
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// Undeclared returns the dotted keys of t (a config struct type) that
// should declare a range and do not: numeric fields and lists (arrays and
// slices of anything but tables), and maps of numbers. Tables are walked.
func Undeclared(t reflect.Type) []string {
	var out []string
	var walk func(t reflect.Type, prefix string, depth int)
	walk = func(t reflect.Type, prefix string, depth int) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || depth > 10 {
			return
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if name == "-" || (!f.IsExported() && !f.Anonymous) {
				continue
			}
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if f.Anonymous && name == "" {
				walk(ft, prefix, depth+1)
				continue
			}
			if name == "" {
				name = f.Name
			}
			key := name
			if prefix != "" {
				key = prefix + "." + name
			}
			_, tagged := f.Tag.Lookup(RangeTag)
			switch ft.Kind() {
			case reflect.Struct:
				if ft.Implements(textUnmarshaler) || reflect.PointerTo(ft).Implements(textUnmarshaler) {
					continue
				}
				walk(ft, key, depth+1)
			case reflect.Slice, reflect.Array:
				et := ft.Elem()
				for et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					walk(et, key, depth+1)
					if !tagged {
						out = append(out, key)
					}
					continue
				}
				if !tagged {
					out = append(out, key)
				}
			case reflect.Map:
				if _, ok := number(reflect.Zero(ft.Elem())); ok && !tagged {
					out = append(out, key)
				}
			default:
				if _, ok := number(reflect.Zero(ft)); ok && !tagged {
					out = append(out, key)
				}
			}
		}
	}
	walk(t, "", 0)
	return out
}

var textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
