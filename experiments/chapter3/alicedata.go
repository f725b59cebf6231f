package chapter3

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/vbworkbench/vbw/core/model/hmm"
)

// This file extracts the English-text data of the forwards/backwards
// discrimination experiment (Beal 2003, section 3.5.2, Figure 3.4; L2145-L2158
// of the seed text ../shared/seeds/000_055f6e591db3cc60.txt) from Project
// Gutenberg's alice29.txt. The thesis says only that "all punctuation was
// removed to leave 26 letters and the blank space (that is to say p=27)" and
// lists the first ten training sentences (L2149-L2158); the segmentation rules
// are the targets' reconstruction (../shared/targets/ch3-hmm.md, E3.3 "Data:
// exact extraction recipe", steps 1-9, and section 4 items 8-11), which
// reproduces those ten sentences exactly and in order.

// AliceAlphabet is the thesis's alphabet of p = 27 symbols (L2147): a..z are
// encoded as 0..25 and the blank as 26.
const AliceAlphabet = "abcdefghijklmnopqrstuvwxyz "

// chapterHeading matches a chapter heading line after trimming (recipe step 2).
var chapterHeading = regexp.MustCompile(`^CHAPTER ([IVXL]+)$`)

// AliceSpec parameterises the extraction recipe of the targets (E3.3 steps
// 1-8). DefaultAliceSpec gives the targets' values.
type AliceSpec struct {
	// BodyStart and BodyEnd delimit the body (step 1): it runs from the first
	// line whose trimmed text is BodyStart up to, excluding, the first later
	// line whose trimmed text is BodyEnd.
	BodyStart, BodyEnd string
	// SplitChars are the sentence delimiters (step 3); each one ends a piece
	// and is discarded.
	SplitChars string
	// DeleteChars are deleted outright (step 4: they'll → theyll); every other
	// character outside a-z becomes a blank.
	DeleteChars string
	// MinLen and MaxLen bound the training window, inclusive (step 6 and
	// targets §4 item 9: "of length between 10 and 100 characters", L2147).
	MinLen, MaxLen int
	// TrainPool is the number of training sentences: the first TrainPool in
	// text order whose length lies in the window ("a maximum of 32", L2147).
	TrainPool int
	// TestChapter is the chapter whose first sentence starts the test set
	// (step 7, targets §4 item 8; the thesis does not say which sentences it
	// used).
	TestChapter int
	// TestCount is the number of consecutive test sentences ("a fixed set of
	// 200 sentences of unconstrained length", L2147).
	TestCount int
	// TrailingSpace appends one blank to every sentence after extraction
	// (targets §4 item 10: six of the thesis's ten examples end in a blank,
	// apparently a conversion artefact). The training window is applied to
	// the trimmed length, so the same sentences are selected either way.
	TrailingSpace bool
}

// DefaultAliceSpec returns the targets' recipe: body "CHAPTER I" … "THE END",
// split at ".!?", delete "'", window 10..100, pool 32, test set the 200
// sentences from the start of chapter IV, no trailing blank.
func DefaultAliceSpec() AliceSpec {
	return AliceSpec{
		BodyStart:   "CHAPTER I",
		BodyEnd:     "THE END",
		SplitChars:  ".!?",
		DeleteChars: "'",
		MinLen:      10,
		MaxLen:      100,
		TrainPool:   32,
		TestChapter: 4,
		TestCount:   200,
	}
}

// Validate checks the spec's fields.
func (s AliceSpec) Validate() error {
	switch {
	case strings.TrimSpace(s.BodyStart) == "":
		return fmt.Errorf("alice: empty body start marker")
	case strings.TrimSpace(s.BodyEnd) == "":
		return fmt.Errorf("alice: empty body end marker")
	case s.SplitChars == "":
		return fmt.Errorf("alice: no sentence delimiters")
	case s.MinLen < 1 || s.MaxLen < s.MinLen:
		return fmt.Errorf("alice: training window [%d, %d] is empty or starts below 1", s.MinLen, s.MaxLen)
	case s.TrainPool < 1:
		return fmt.Errorf("alice: training pool size %d < 1", s.TrainPool)
	case s.TestCount < 1:
		return fmt.Errorf("alice: test set size %d < 1", s.TestCount)
	case s.TestChapter < 1:
		return fmt.Errorf("alice: test chapter %d < 1", s.TestChapter)
	}
	return nil
}

// Sentence is one extracted sentence.
type Sentence struct {
	Text    string // over AliceAlphabet
	Chapter int    // 1-based chapter number (the heading's Roman numeral)
	Index   int    // 0-based index in the full sentence list (1625 for alice29.txt)
}

// AliceCorpus is the extracted data: every sentence, the training pool (the
// first TrainPool in-window sentences, in text order; the training set of
// size n is the first n of them, targets §4 item 11) and the test set.
type AliceCorpus struct {
	All   []Sentence
	Train []Sentence
	Test  []Sentence
}

// ExtractAlice applies steps 1-8 of the targets' recipe (E3.3) to the raw
// text of alice29.txt:
//
//  1. the body runs from the first line whose trimmed text is BodyStart up to,
//     excluding, the next line whose trimmed text is BodyEnd;
//  2. lines matching ^CHAPTER [IVXL]+$ (trimmed) are dropped together with
//     the next non-empty line (the chapter title);
//  3. each chapter's kept lines are joined with single spaces and split at
//     every character of SplitChars;
//  4. each piece is lowercased, DeleteChars are deleted, every other
//     character outside a-z becomes a blank, runs of blanks are collapsed and
//     the ends trimmed; empty pieces are discarded;
//  5. (1625 sentences for alice29.txt);
//  6. the training pool is the first TrainPool sentences with MinLen ≤ L ≤
//     MaxLen;
//  7. the test set is the TestCount consecutive sentences starting at the
//     first sentence of chapter TestChapter.
//
// Step 8 (reversal) is EncodeSentences's reversed flag. The input is read as
// bytes (ASCII); any byte outside a-z and A-Z is punctuation. Errors name
// what is missing: a body marker, enough in-window sentences for the pool, the
// test chapter or enough sentences after it.
func ExtractAlice(raw []byte, spec AliceSpec) (AliceCorpus, error) {
	if err := spec.Validate(); err != nil {
		return AliceCorpus{}, err
	}
	lines := strings.Split(string(raw), "\n")
	start, end := -1, -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if start < 0 {
			if t == spec.BodyStart {
				start = i
			}
		} else if t == spec.BodyEnd {
			end = i
			break
		}
	}
	if start < 0 {
		return AliceCorpus{}, fmt.Errorf("alice: no line reads %q (the start of the body)", spec.BodyStart)
	}
	if end < 0 {
		return AliceCorpus{}, fmt.Errorf("alice: no line reads %q after %q (the end of the body)", spec.BodyEnd, spec.BodyStart)
	}

	// Steps 1-2: group the kept lines by chapter.
	type chapter struct {
		number int
		lines  []string
	}
	var chapters []chapter
	cur := chapter{} // lines before the first heading belong to chapter 0
	dropTitle := false
	for _, l := range lines[start:end] {
		t := strings.TrimSpace(l)
		if m := chapterHeading.FindStringSubmatch(t); m != nil {
			if len(cur.lines) > 0 || cur.number != 0 {
				chapters = append(chapters, cur)
			}
			n, err := romanValue(m[1])
			if err != nil {
				return AliceCorpus{}, fmt.Errorf("alice: heading %q: %v", t, err)
			}
			cur = chapter{number: n}
			dropTitle = true
			continue
		}
		if dropTitle {
			if t != "" {
				dropTitle = false
			}
			continue
		}
		cur.lines = append(cur.lines, t)
	}
	chapters = append(chapters, cur)

	// Steps 3-4: split and normalise.
	var c AliceCorpus
	for _, ch := range chapters {
		text := strings.Join(ch.lines, " ")
		for _, piece := range splitAny(text, spec.SplitChars) {
			s := normaliseSentence(piece, spec.DeleteChars)
			if s == "" {
				continue
			}
			c.All = append(c.All, Sentence{Text: s, Chapter: ch.number, Index: len(c.All)})
		}
	}

	// Step 6: the training pool, chosen on the trimmed length.
	for _, s := range c.All {
		if len(c.Train) == spec.TrainPool {
			break
		}
		if L := len(s.Text); L >= spec.MinLen && L <= spec.MaxLen {
			c.Train = append(c.Train, s)
		}
	}
	if len(c.Train) < spec.TrainPool {
		return AliceCorpus{}, fmt.Errorf("alice: the training pool needs %d sentences of length in [%d, %d], only %d of the %d sentences qualify",
			spec.TrainPool, spec.MinLen, spec.MaxLen, len(c.Train), len(c.All))
	}

	// Step 7: the test set.
	first := -1
	for i, s := range c.All {
		if s.Chapter == spec.TestChapter {
			first = i
			break
		}
	}
	if first < 0 {
		return AliceCorpus{}, fmt.Errorf("alice: no sentence in chapter %d to start the test set", spec.TestChapter)
	}
	if first+spec.TestCount > len(c.All) {
		return AliceCorpus{}, fmt.Errorf("alice: the test set needs %d sentences from the start of chapter %d (sentence %d), only %d remain",
			spec.TestCount, spec.TestChapter, first, len(c.All)-first)
	}
	c.Test = c.All[first : first+spec.TestCount]

	if spec.TrailingSpace {
		for i := range c.All {
			c.All[i].Text += " "
		}
		for i := range c.Train {
			c.Train[i].Text += " "
		}
	}
	// Train was copied out of All; give Test its own backing array too, so
	// that callers can modify one list without changing another.
	c.Test = append([]Sentence(nil), c.Test...)
	return c, nil
}

// splitAny splits s at every byte that occurs in seps, discarding the
// delimiters (recipe step 3). Empty pieces are kept (step 4 discards them).
func splitAny(s, seps string) []string {
	var out []string
	last := 0
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(seps, s[i]) >= 0 {
			out = append(out, s[last:i])
			last = i + 1
		}
	}
	return append(out, s[last:])
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

// romanValue parses a Roman numeral made of I, V, X and L.
func romanValue(r string) (int, error) {
	val := map[byte]int{'I': 1, 'V': 5, 'X': 10, 'L': 50}
	n := 0
	for i := 0; i < len(r); i++ {
		v, ok := val[r[i]]
		if !ok {
			return 0, fmt.Errorf("bad Roman numeral %q", r)
		}
		if i+1 < len(r) && val[r[i+1]] > v {
			n -= v
		} else {
			n += v
		}
	}
	if n < 1 {
		return 0, fmt.Errorf("bad Roman numeral %q", r)
	}
	return n, nil
}

// EncodeSentences turns sentences into symbol sequences over AliceAlphabet
// (a..z → 0..25, blank → 26; p = 27, L2147). With reversed set, each
// sentence's characters are reversed separately, giving the thesis's
// "backwards" data (targets E3.3 step 8). It panics on a character outside
// the alphabet, which ExtractAlice never produces.
func EncodeSentences(ss []Sentence, reversed bool) hmm.Data {
	d := hmm.Data{P: len(AliceAlphabet), Seqs: make([][]int, len(ss))}
	for i, s := range ss {
		y := make([]int, len(s.Text))
		for t := 0; t < len(s.Text); t++ {
			m := strings.IndexByte(AliceAlphabet, s.Text[t])
			if m < 0 {
				panic(fmt.Sprintf("chapter3: sentence %d (%q) has character %q outside the alphabet %q", s.Index, s.Text, s.Text[t], AliceAlphabet))
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
