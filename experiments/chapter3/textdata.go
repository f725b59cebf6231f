package chapter3

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/experiments/config"
)

// This file turns a plain English text into the sentence data of the
// forwards/backwards discrimination experiment (Beal 2003, section 3.5.2,
// Figure 3.4). The thesis describes its data in one sentence, "all
// punctuation was removed to leave 26 letters and the blank space (that is to
// say p=27)", with training sentences "of length between 10 and 100
// characters" and "a fixed set of 200 sentences of unconstrained length" for
// testing (L2145-L2158 of the seed text ../shared/seeds/000_055f6e591db3cc60.txt).
// The segmentation rules are the targets' reconstruction for alice29.txt
// (../shared/targets/ch3-hmm.md, E3.3 "Data: exact extraction recipe", steps
// 1-9); ExtractSentences applies them verbatim under RecipeThesis, and a
// generalisation for any text under RecipeText (see TextSpec). The Alice
// parameters are in alicedata.go.

// TextAlphabet is the thesis's alphabet of p = 27 symbols (L2147): a..z are
// encoded as 0..25 and the blank as 26.
const TextAlphabet = "abcdefghijklmnopqrstuvwxyz "

// The values of TextSpec.Recipe.
const (
	// RecipeThesis is the targets' recipe E3.3 verbatim: every '.', '!' and
	// '?' ends a sentence, and a body marker, the test chapter or anything
	// else the spec names must be found, or extraction fails.
	RecipeThesis = "thesis"
	// RecipeText adapts the recipe to another text: a '.' after an
	// abbreviation, an initial or a Roman numeral does not end a sentence,
	// an absent body marker or test chapter falls back (with a note), and
	// see TextSpec for the details.
	RecipeText = "text"
	// RecipeAuto is resolved by the caller: the chapter3/alice experiment
	// uses RecipeThesis when the sentence checksums are set (the data is
	// pinned to the thesis's) and RecipeText when they are off.
	RecipeAuto = "auto"
)

const (
	// sentenceEnds are the sentence delimiters (E3.3 step 3); each one ends a
	// piece and is discarded.
	sentenceEnds = ".!?"
	// deletedChars are deleted outright (step 4: they'll → theyll); every
	// other character outside a-z becomes a blank.
	deletedChars = "'"
)

// DefaultAbbreviations returns the default TextSpec.Abbreviations: titles
// and Latin abbreviations after which a '.' never ends a sentence.
func DefaultAbbreviations() []string {
	return []string{"Mr", "Mrs", "Ms", "Messrs", "Mme", "Mlle", "Dr", "Prof", "Rev", "St", "Mt",
		"Capt", "Col", "Gen", "Lt", "Sgt", "Hon", "e.g", "i.e", "viz", "cf", "vs", "ca"}
}

// DefaultWeakAbbreviations returns the default TextSpec.WeakAbbreviations:
// abbreviations that stand before a number or that can also end a sentence,
// after which a '.' ends one only before a capitalised word.
func DefaultWeakAbbreviations() []string {
	return []string{"No", "Nos", "Vol", "Vols", "Prop", "Props", "Fig", "Figs", "Ch", "Chap", "Art",
		"Sect", "Sec", "Pt", "pp", "Ex", "Eq", "Def", "Cor", "Bk", "ed", "eds", "etc"}
}

// TextSpec parameterises the sentence extraction. Its TOML keys are those of
// the [data] table of chapter3/alice (configs/chapter3/alice.toml), and its
// errors name them. DefaultAliceSpec gives the targets' values for
// alice29.txt.
type TextSpec struct {
	// Recipe is RecipeThesis, RecipeText or (for the experiment config only)
	// RecipeAuto.
	Recipe string `toml:"recipe"`
	// BodyStart and BodyEnd delimit the body (E3.3 step 1): it runs from the
	// first line whose trimmed text is BodyStart up to, excluding, the first
	// later line whose trimmed text is BodyEnd. An empty marker means the top
	// or the end of the file. A marker that no line reads is an error under
	// RecipeThesis; under RecipeText the body starts after (ends before) the
	// Project Gutenberg "*** START OF" ("*** END OF") line if there is one,
	// otherwise at the top (end) of the file.
	BodyStart string `toml:"body_start"`
	BodyEnd   string `toml:"body_end"`
	// ChapterHeading is a regular expression (Go syntax) for the trimmed
	// lines that start a chapter (step 2: `^CHAPTER [IVXL]+$`). Heading lines
	// are dropped; chapters are numbered 1, 2, … in order of their headings,
	// and text before the first heading is chapter 0. Empty: no chapters.
	ChapterHeading string `toml:"chapter_heading"`
	// DropTitle drops the chapter title after each heading (step 2): under
	// RecipeThesis the next non-empty line; under RecipeText that line only
	// if it stands as a paragraph of its own (a blank line, a heading or the
	// end of the body follows) and holds no '.', '!' or '?' before its last
	// character, so that a chapter without a title keeps its first line.
	DropTitle bool `toml:"drop_title"`
	// Abbreviations (RecipeText only; case-insensitive, without the final
	// dot, inner dots allowed: "e.g"): a '.' right after one of these words
	// never ends a sentence ("Mr. Smith").
	Abbreviations []string `toml:"abbreviations" range:"len=0.."`
	// WeakAbbreviations (RecipeText only): a '.' right after one of these
	// ends a sentence only before a capitalised word that is not a Roman
	// numeral: "No. 5", "Prop. IV", "etc., and" and "etc. and" go on, "etc.
	// The" ends.
	WeakAbbreviations []string `toml:"weak_abbreviations" range:"len=0.."`
	// InitialsAndNumerals (RecipeText only): a '.' does not end a sentence
	// after a single letter ("J. S. Mill", "i.", "a."), except the pronoun
	// "I" inside a sentence ("so do I."); after a Roman numeral of two or more
	// letters ("ii.", "IV."); after a number that is the first word of a
	// sentence, or follows only such labels ("1.", "Prop. 12."); or between
	// two digits ("2.5").
	InitialsAndNumerals bool `toml:"initials_and_numerals"`
	// TrailingSpace appends one blank to every sentence after extraction
	// (targets §4 item 10: six of the thesis's ten examples end in a blank,
	// apparently a conversion artefact). The training window is applied to
	// the trimmed length, so the same sentences are selected either way.
	TrailingSpace bool `toml:"trailing_space"`
	// TrainMinLen and TrainMaxLen bound the training window, inclusive (step
	// 6 and targets §4 item 9: "of length between 10 and 100 characters",
	// L2147), in characters; train_max_len ≥ train_min_len.
	TrainMinLen int `toml:"train_min_len" range:"[1,1e6]"`
	TrainMaxLen int `toml:"train_max_len" range:"[1,1e6]"`
	// TrainPool is the number of training sentences: the first TrainPool in
	// text order whose length lies in the window, among the sentences before
	// the test set ("a maximum of 32", L2147); the training set of size n is
	// the first n of them (targets §4 item 11).
	TrainPool int `toml:"train_pool" range:"[1,1e6]"`
	// The test set is TestCount consecutive sentences ("a fixed set of 200
	// sentences of unconstrained length", L2147). Exactly one of the next
	// three says where it starts; the others are 0.
	//
	// TestChapter: the first sentence of that chapter (step 7, targets §4
	// item 8; the thesis does not say which sentences it used). Under
	// RecipeText, a text with fewer chapters uses its last TestCount
	// sentences instead (with a note).
	TestChapter int `toml:"test_start_chapter" range:"[0,1e6]"`
	// TestFraction in (0, 1): the test set starts after the first
	// ⌊TestFraction·S⌋ of the S sentences.
	TestFraction float64 `toml:"test_start_fraction" range:"[0,1)"`
	// TestSentence: the test set starts after the first TestSentence
	// sentences (so 314 is Alice's chapter IV).
	TestSentence int `toml:"test_start_sentence" range:"[0,1e9]"`
	TestCount    int `toml:"test_count" range:"[1,1e6]"`
}

// Validate checks the spec: every key against its range tag
// (config.CheckRanges, for a spec built in Go), then what relates the keys.
// Its errors are *config.ValueError values naming the TOML key at fault
// (without the "data." prefix of the config).
func (s TextSpec) Validate() error {
	if err := config.CheckRanges(s); err != nil {
		return err
	}
	switch s.Recipe {
	case RecipeThesis, RecipeText, RecipeAuto:
	default:
		return config.FieldError("recipe", s.Recipe, fmt.Sprintf("must be %q, %q or %q", RecipeAuto, RecipeThesis, RecipeText))
	}
	if _, err := regexp.Compile(s.ChapterHeading); err != nil {
		return config.FieldError("chapter_heading", s.ChapterHeading, "not a regular expression: "+err.Error())
	}
	for _, l := range []struct {
		key  string
		list []string
	}{{"abbreviations", s.Abbreviations}, {"weak_abbreviations", s.WeakAbbreviations}} {
		for _, a := range l.list {
			if !abbreviationForm.MatchString(a) {
				return config.FieldError(l.key, l.list, fmt.Sprintf("entry %q must be letters, with inner dots only (e.g. \"Mr\", \"e.g\")", a))
			}
		}
	}
	if s.TrainMaxLen < s.TrainMinLen {
		return config.FieldError("train_max_len", s.TrainMaxLen, fmt.Sprintf("must be ≥ train_min_len = %d", s.TrainMinLen))
	}
	// Exactly one way to start the test set.
	type way struct {
		key string
		val any
		set bool
	}
	ways := []way{{"test_start_chapter", s.TestChapter, s.TestChapter != 0},
		{"test_start_fraction", s.TestFraction, s.TestFraction != 0},
		{"test_start_sentence", s.TestSentence, s.TestSentence != 0}}
	var set []way
	for _, w := range ways {
		if w.set {
			set = append(set, w)
		}
	}
	switch {
	case len(set) == 0:
		return config.FieldError("test_start_chapter", s.TestChapter,
			"the test set needs a start: set one of test_start_chapter (≥ 1), test_start_fraction (in (0, 1)) or test_start_sentence (≥ 1)")
	case len(set) > 1:
		var others []string
		for _, w := range set[:len(set)-1] {
			others = append(others, fmt.Sprintf("%s = %v", w.key, w.val))
		}
		last, verb := set[len(set)-1], "is"
		if len(others) > 1 {
			verb = "are"
		}
		return config.FieldError(last.key, last.val, fmt.Sprintf("%s %s set too: set exactly one of test_start_chapter, test_start_fraction and test_start_sentence, the others to 0",
			strings.Join(others, " and "), verb))
	}
	if s.TestChapter > 0 && s.ChapterHeading == "" {
		return config.FieldError("test_start_chapter", s.TestChapter,
			"chapter_heading is empty, so the text has no chapters: use test_start_fraction or test_start_sentence (and test_start_chapter = 0)")
	}
	return nil
}

// abbreviationForm is the form of an abbreviation list entry.
var abbreviationForm = regexp.MustCompile(`^[A-Za-z]+(\.[A-Za-z]+)*$`)

// Sentence is one extracted sentence.
type Sentence struct {
	Text    string // over TextAlphabet
	Chapter int    // the ordinal of its chapter heading (1 for the first); 0 before the first heading
	Index   int    // 0-based index in the full sentence list (1625 for alice29.txt)
}

// TextCorpus is the extracted data: every sentence, the training pool (the
// first TrainPool in-window sentences before the test set, in text order;
// the training set of size n is the first n of them, targets §4 item 11)
// and the test set.
type TextCorpus struct {
	All   []Sentence
	Train []Sentence
	Test  []Sentence
	// TestStart is the index in All of the first test sentence.
	TestStart int
	// Notes says where RecipeText departed from what the spec names (an
	// absent body marker, a missing test chapter), one line each; the
	// experiment reports them as warnings.
	Notes []string
}

// ExtractSentences applies steps 1-8 of the targets' recipe (E3.3) to a raw
// text, generalised as TextSpec describes:
//
//  1. the body runs from the line BodyStart up to, excluding, the next line
//     BodyEnd (trimmed);
//  2. lines matching ChapterHeading (trimmed) are dropped, with the chapter
//     title after each when DropTitle is set;
//  3. each chapter's kept lines are joined with single spaces and split at
//     every '.', '!' and '?' (under RecipeText, not at a '.' after an
//     abbreviation, initial or numeral);
//  4. each piece is lowercased, apostrophes are deleted (under RecipeText
//     also ’, U+2019), every other character outside a-z becomes a blank,
//     runs of blanks are collapsed and the ends trimmed; empty pieces are
//     discarded;
//  5. (1625 sentences for alice29.txt);
//  6. the training pool is the first TrainPool sentences before the test set
//     with TrainMinLen ≤ L ≤ TrainMaxLen;
//  7. the test set is the TestCount consecutive sentences from the start
//     that TestChapter, TestFraction or TestSentence names.
//
// Step 8 (reversal) is EncodeSentences's reversed flag. The input is read as
// bytes; any byte outside a-z and A-Z is punctuation. spec.Recipe must be
// RecipeThesis or RecipeText. Errors are *config.ValueError values
// naming the spec's key at fault: a body marker, the test start, enough
// in-window sentences for the pool, enough sentences for the test set.
func ExtractSentences(raw []byte, spec TextSpec) (TextCorpus, error) {
	if err := spec.Validate(); err != nil {
		return TextCorpus{}, err
	}
	text := spec.Recipe == RecipeText
	if !text && spec.Recipe != RecipeThesis {
		return TextCorpus{}, config.FieldError("recipe", spec.Recipe,
			fmt.Sprintf("ExtractSentences needs %q or %q (the experiment resolves %q)", RecipeThesis, RecipeText, RecipeAuto))
	}
	var c TextCorpus
	src := string(raw)
	if text {
		src = strings.ReplaceAll(src, "\u2019", "'")
	}
	body, notes, err := bodyLines(strings.Split(src, "\n"), spec)
	if err != nil {
		return TextCorpus{}, err
	}
	c.Notes = notes

	// Steps 2-4.
	split := splitAll
	if text {
		split = newSplitter(spec).split
	}
	chapters := chapterTexts(body, spec)
	for _, ch := range chapters {
		for _, piece := range split(ch.text) {
			if s := normaliseSentence(piece, deletedChars); s != "" {
				c.All = append(c.All, Sentence{Text: s, Chapter: ch.number, Index: len(c.All)})
			}
		}
	}
	if len(c.All) == 0 {
		return TextCorpus{}, config.FieldError("body_start", spec.BodyStart, "the body holds no sentence (check body_start and body_end)")
	}

	// Step 7: where the test set starts.
	S := len(c.All)
	start := -1
	var startKey string
	var startVal any
	switch {
	case spec.TestChapter > 0:
		startKey, startVal = "test_start_chapter", spec.TestChapter
		for i, s := range c.All {
			if s.Chapter == spec.TestChapter {
				start = i
				break
			}
		}
		if start < 0 {
			headings := 0
			if len(chapters) > 0 {
				headings = chapters[len(chapters)-1].number
			}
			found := fmt.Sprintf("chapter_heading %q matches %d line(s) of the body", spec.ChapterHeading, headings)
			if !text {
				return TextCorpus{}, config.FieldError(startKey, spec.TestChapter, "the text has no such chapter, or it has no sentence: "+found)
			}
			if spec.TestCount > S {
				return TextCorpus{}, config.FieldError("test_count", spec.TestCount, fmt.Sprintf("the text has only %d sentences", S))
			}
			start = S - spec.TestCount
			c.Notes = append(c.Notes, fmt.Sprintf("test_start_chapter = %d: no such chapter (%s); the test set is the last %d sentences instead (from sentence %d of %d)",
				spec.TestChapter, found, spec.TestCount, start, S))
		}
	case spec.TestFraction > 0:
		startKey, startVal = "test_start_fraction", spec.TestFraction
		start = int(math.Floor(spec.TestFraction * float64(S)))
	default:
		startKey, startVal = "test_start_sentence", spec.TestSentence
		start = spec.TestSentence
		if start >= S {
			return TextCorpus{}, config.FieldError(startKey, start, fmt.Sprintf("the text has only %d sentences", S))
		}
	}
	if start+spec.TestCount > S {
		return TextCorpus{}, config.FieldError("test_count", spec.TestCount, fmt.Sprintf("only %d sentences remain from the test start, sentence %d (%s = %v), of %d",
			S-start, start, startKey, startVal, S))
	}
	c.TestStart = start

	// Step 6: the training pool, before the test set, chosen on the trimmed
	// length.
	for _, s := range c.All[:start] {
		if len(c.Train) == spec.TrainPool {
			break
		}
		if L := len(s.Text); L >= spec.TrainMinLen && L <= spec.TrainMaxLen {
			c.Train = append(c.Train, s)
		}
	}
	if len(c.Train) < spec.TrainPool {
		return TextCorpus{}, config.FieldError("train_pool", spec.TrainPool,
			fmt.Sprintf("only %d of the %d sentences before the test set (which starts at sentence %d, %s = %v) have a length in [train_min_len, train_max_len] = [%d, %d]",
				len(c.Train), start, start, startKey, startVal, spec.TrainMinLen, spec.TrainMaxLen))
	}
	c.Test = append([]Sentence(nil), c.All[start:start+spec.TestCount]...)

	if spec.TrailingSpace {
		for _, ss := range [][]Sentence{c.All, c.Train, c.Test} {
			for i := range ss {
				ss[i].Text += " "
			}
		}
	}
	return c, nil
}

// Project Gutenberg's own markers around a book, the fallback of RecipeText
// when a body marker is absent.
var (
	gutenbergStart = regexp.MustCompile(`(?i)^(\*\*\*\s*START OF (THE |THIS )?PROJECT GUTENBERG|\*END\*THE SMALL PRINT)`)
	gutenbergEnd   = regexp.MustCompile(`(?i)^(\*\*\*\s*)?END OF (THE |THIS )?PROJECT GUTENBERG`)
)

// bodyLines returns the lines of the body (step 1), and notes on the
// fallbacks RecipeText took.
func bodyLines(lines []string, spec TextSpec) ([]string, []string, error) {
	text := spec.Recipe == RecipeText
	var notes []string
	find := func(from int, marker string) int {
		for i := from; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == marker {
				return i
			}
		}
		return -1
	}
	findRe := func(from int, re *regexp.Regexp) int {
		for i := from; i < len(lines); i++ {
			if re.MatchString(strings.TrimSpace(lines[i])) {
				return i
			}
		}
		return -1
	}
	start, end := 0, len(lines)
	from := 0 // where the end marker is searched from
	if m := strings.TrimSpace(spec.BodyStart); m != "" {
		if start = find(0, m); start >= 0 {
			from = start + 1 // the end marker may read the same
		} else {
			if !text {
				return nil, nil, config.FieldError("body_start", spec.BodyStart, "no line of the file reads this (the start of the body; empty: the top of the file)")
			}
			if g := findRe(0, gutenbergStart); g >= 0 {
				start = g + 1
				notes = append(notes, fmt.Sprintf("body_start = %q: no line reads this; the body starts after the Project Gutenberg start line (line %d)", spec.BodyStart, g+1))
			} else {
				start = 0
				notes = append(notes, fmt.Sprintf("body_start = %q: no line reads this; the body starts at the top of the file", spec.BodyStart))
			}
			from = start
		}
	}
	if m := strings.TrimSpace(spec.BodyEnd); m != "" {
		if end = find(from, m); end < 0 {
			if !text {
				return nil, nil, config.FieldError("body_end", spec.BodyEnd, fmt.Sprintf("no line after the start of the body (line %d) reads this (the end of the body; empty: the end of the file)", start+1))
			}
			if g := findRe(from, gutenbergEnd); g >= 0 {
				end = g
				notes = append(notes, fmt.Sprintf("body_end = %q: no line reads this; the body ends before the Project Gutenberg end line (line %d)", spec.BodyEnd, g+1))
			} else {
				end = len(lines)
				notes = append(notes, fmt.Sprintf("body_end = %q: no line reads this; the body runs to the end of the file", spec.BodyEnd))
			}
		}
	}
	return lines[start:end], notes, nil
}

// chapterText is one chapter's kept lines joined with single spaces.
type chapterText struct {
	number int
	text   string
}

// chapterTexts is step 2: drop the headings (and titles) and join each
// chapter's lines. Text before the first heading is chapter 0, returned only
// if it has a line.
func chapterTexts(body []string, spec TextSpec) []chapterText {
	var heading *regexp.Regexp
	if spec.ChapterHeading != "" {
		heading = regexp.MustCompile(spec.ChapterHeading) // checked by Validate
	}
	isHeading := func(t string) bool { return heading != nil && heading.MatchString(t) }
	var out []chapterText
	var cur []string
	number := 0
	flush := func() {
		if len(cur) > 0 || number != 0 {
			out = append(out, chapterText{number: number, text: strings.Join(cur, " ")})
		}
	}
	dropTitle := false
	for i, l := range body {
		t := strings.TrimSpace(l)
		if isHeading(t) {
			flush()
			number++
			cur = nil
			dropTitle = spec.DropTitle
			continue
		}
		if dropTitle {
			if t == "" {
				continue
			}
			dropTitle = false
			if spec.Recipe == RecipeThesis {
				continue
			}
			// RecipeText: a title is a paragraph of its own, of at most
			// one sentence.
			alone := i+1 >= len(body) || strings.TrimSpace(body[i+1]) == "" || isHeading(strings.TrimSpace(body[i+1]))
			if alone && !strings.ContainsAny(t[:len(t)-1], sentenceEnds) {
				continue
			}
		}
		cur = append(cur, t)
	}
	flush()
	return out
}

// splitAll splits s at every byte of sentenceEnds, discarding the
// delimiters (recipe step 3). Empty pieces are kept (step 4 discards them).
func splitAll(s string) []string {
	var out []string
	last := 0
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(sentenceEnds, s[i]) >= 0 {
			out = append(out, s[last:i])
			last = i + 1
		}
	}
	return append(out, s[last:])
}

// splitter is step 3 under RecipeText.
type splitter struct {
	strong, weak map[string]bool // lowercased abbreviations
	initials     bool
}

func newSplitter(spec TextSpec) *splitter {
	sp := &splitter{strong: map[string]bool{}, weak: map[string]bool{}, initials: spec.InitialsAndNumerals}
	for _, a := range spec.Abbreviations {
		sp.strong[strings.ToLower(a)] = true
	}
	for _, a := range spec.WeakAbbreviations {
		sp.weak[strings.ToLower(a)] = true
	}
	return sp
}

// split splits s at every '!' and '?', and at every '.' that ends a
// sentence (see ends).
func (sp *splitter) split(s string) []string {
	var out []string
	last := 0
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(sentenceEnds, s[i]) < 0 || (s[i] == '.' && !sp.ends(s, last, i)) {
			continue
		}
		out = append(out, s[last:i])
		last = i + 1
	}
	return append(out, s[last:])
}

func isLetter(b byte) bool { return 'A' <= b&^0x20 && b&^0x20 <= 'Z' }
func isDigit(b byte) bool  { return '0' <= b && b <= '9' }
func isUpper(b byte) bool  { return 'A' <= b && b <= 'Z' }

// romanNumeral matches the canonical Roman numerals 1..89 (I, V, X, L).
var romanNumeral = regexp.MustCompile(`^(XL|L?X{0,3})(IX|IV|V?I{0,3})$`)

// isRoman reports whether w is a Roman numeral written all in upper or all
// in lower case.
func isRoman(w string) bool {
	if w == "" || (w != strings.ToUpper(w) && w != strings.ToLower(w)) {
		return false
	}
	return romanNumeral.MatchString(strings.ToUpper(w))
}

// closingQuote reports whether s[i:] starts with a closing quote.
func closingQuote(s string, i int) bool {
	return i < len(s) && (s[i] == '\'' || s[i] == '"' || strings.HasPrefix(s[i:], "”"))
}

// ends reports whether the '.' at s[i] ends the sentence that began at
// s[from].
func (sp *splitter) ends(s string, from, i int) bool {
	if closingQuote(s, i+1) {
		return true // "… at home.'" — nothing abbreviated is quoted so
	}
	if sp.initials && i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]) {
		return false // 2.5
	}
	// The word before the '.': letters and inner dots ("e.g", "U.S.A").
	j := i
	for j > from && (isLetter(s[j-1]) || (s[j-1] == '.' && j-1 > from && isLetter(s[j-2]))) {
		j--
	}
	word := s[j:i]
	lw := strings.ToLower(word)
	if word != "" {
		if j > from && isDigit(s[j-1]) {
			return true // 21st.
		}
		if sp.strong[lw] {
			return false
		}
		if sp.weak[lw] {
			return sp.capitalFollows(s, i+1)
		}
		if !sp.initials {
			return true
		}
		seg := word[strings.LastIndexByte(word, '.')+1:]
		switch {
		case seg == "I":
			return !sp.labelsOnly(s[from:j]) // "so do I." ends; "I. Of Motion" does not
		case len(seg) == 1:
			return false // J. S. Mill; i.; a.
		case isRoman(seg):
			return false // ii.; IV.
		}
		return true
	}
	if !sp.initials {
		return true
	}
	k := i
	for k > from && isDigit(s[k-1]) {
		k--
	}
	if k < i && (k == from || !isLetter(s[k-1])) && sp.labelsOnly(s[from:k]) {
		return false // 1.; Prop. 12.
	}
	return true
}

// capitalFollows reports whether the next word after s[i:] (past blanks)
// starts with a capital letter and is not a Roman numeral, or whether an
// opening quote or the end of the text follows: the case in which a '.'
// after a weak abbreviation ends a sentence.
func (sp *splitter) capitalFollows(s string, i int) bool {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i >= len(s) || s[i] == '`' || s[i] == '"' || strings.HasPrefix(s[i:], "“") {
		return true
	}
	if !isUpper(s[i]) {
		return false // a digit, a lower-case word, a comma …
	}
	j := i
	for j < len(s) && isLetter(s[j]) {
		j++
	}
	w := s[i:j]
	if isRoman(w) && (len(w) > 1 || (j < len(s) && s[j] != ' ')) {
		return false // Prop. IV; Vol. I.; but "etc. I think" ends
	}
	return true
}

// labelsOnly reports whether s holds nothing but numbers, Roman numerals,
// single letters and listed abbreviations (and punctuation): the labels
// that can precede a numbered item's '.'.
func (sp *splitter) labelsOnly(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r < 128 && (isLetter(byte(r)) || isDigit(byte(r))))
	}) {
		lw := strings.ToLower(w)
		digits := strings.Trim(w, "0123456789") == ""
		if !digits && len(w) > 1 && !isRoman(w) && !sp.strong[lw] && !sp.weak[lw] {
			return false
		}
	}
	return true
}

// normaliseSentence is recipe step 4: lowercase, delete the bytes in del,
// map every other byte outside a-z to a blank, collapse blanks and trim.
func normaliseSentence(piece, del string) string {
	var b strings.Builder
	blank := true // suppresses leading blanks and runs
	for i := 0; i < len(piece); i++ {
		ch := piece[i]
		if strings.IndexByte(del, ch) >= 0 {
			continue
		}
		if 'A' <= ch && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		if 'a' <= ch && ch <= 'z' {
			b.WriteByte(ch)
			blank = false
		} else if !blank {
			b.WriteByte(' ')
			blank = true
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// EncodeSentences turns sentences into symbol sequences over TextAlphabet
// (a..z → 0..25, blank → 26; p = 27, L2147). With reversed set, each
// sentence's characters are reversed separately, giving the thesis's
// "backwards" data (targets E3.3 step 8). It panics on a character outside
// the alphabet, which ExtractSentences never produces.
func EncodeSentences(ss []Sentence, reversed bool) hmm.Data {
	d := hmm.Data{P: len(TextAlphabet), Seqs: make([][]int, len(ss))}
	for i, s := range ss {
		y := make([]int, len(s.Text))
		for t := 0; t < len(s.Text); t++ {
			m := strings.IndexByte(TextAlphabet, s.Text[t])
			if m < 0 {
				panic(fmt.Sprintf("chapter3: sentence %d (%q) has character %q outside the alphabet %q", s.Index, s.Text, s.Text[t], TextAlphabet))
			}
			if reversed {
				y[len(y)-1-t] = m
			} else {
				y[t] = m
			}
		}
		d.Seqs[i] = y
	}
	return d
}

// SentencesSHA256 returns the hex SHA-256 of the texts joined with "\n" plus
// a final "\n" (targets E3.3 step 9; for no sentences, the hash of "\n").
func SentencesSHA256(ss []Sentence) string {
	h := sha256.New()
	for i, s := range ss {
		if i > 0 {
			h.Write([]byte{'\n'})
		}
		h.Write([]byte(s.Text))
	}
	h.Write([]byte{'\n'})
	return hex.EncodeToString(h.Sum(nil))
}

// prefixKey returns err with prefix added to the key of the
// *config.ValueError in it, if any (the spec's keys are those of a
// config table); other errors are returned as they are.
func prefixKey(err error, prefix string) error {
	var ve *config.ValueError
	if !errors.As(err, &ve) {
		return err
	}
	c := *ve
	c.Key = prefix + c.Key
	return &c
}
