package chapter3

import (
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
)

// The expected values below are those of the targets
// (../shared/targets/ch3-hmm.md, E3.3 "Data: exact extraction recipe", steps
// 5-9) and of the thesis (L2149-L2158 of the seed text).

var (
	aliceTestOnce sync.Once
	aliceTestRaw  []byte
	aliceTestErr  error
)

// loadAliceCorpus reads alice29.txt (checksum-verified by ReadData) and extracts it
// with spec. A missing file fails the test: the data is always present in CI.
func loadAliceCorpus(t *testing.T, spec TextSpec) TextCorpus {
	t.Helper()
	aliceTestOnce.Do(func() {
		aliceTestRaw, aliceTestErr = experiments.ReadData(experiments.TestDataDir(), "alice29.txt")
	})
	if aliceTestErr != nil {
		t.Fatalf("reading the Alice data: %v", aliceTestErr)
	}
	c, err := ExtractSentences(aliceTestRaw, spec)
	if err != nil {
		t.Fatalf("ExtractSentences: %v", err)
	}
	return c
}

func aliceTotalLen(ss []Sentence) int {
	n := 0
	for _, s := range ss {
		n += len(s.Text)
	}
	return n
}

func TestAliceChecksums(t *testing.T) {
	c := loadAliceCorpus(t, DefaultAliceSpec())
	for _, tc := range []struct {
		name string
		ss   []Sentence
		n    int
		want string
	}{
		{"all sentences", c.All, 1625, "3490d868e23d1709fc9e820620bfc5d4a974e85ab6c599c314b5bb0db0c122c2"},
		{"training pool", c.Train, 32, "24431d060b09b697c42b8ac4dfa5cd35d8c704d0313c8270ad46253fae26d45e"},
		{"test set", c.Test, 200, "f4e4a9f7cdb0c88fec92365004fb13201e1aff5671aaef6c2ff42a5c5491400a"},
	} {
		if len(tc.ss) != tc.n {
			t.Errorf("%s: %d sentences, want %d", tc.name, len(tc.ss), tc.n)
		}
		if got := SentencesSHA256(tc.ss); got != tc.want {
			t.Errorf("%s: SHA-256 %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestAliceChapterCounts(t *testing.T) {
	c := loadAliceCorpus(t, DefaultAliceSpec())
	want := []int{84, 116, 114, 150, 134, 150, 179, 142, 162, 155, 124, 115}
	got := make([]int, len(want))
	for i, s := range c.All {
		if s.Index != i {
			t.Fatalf("sentence %d has Index %d", i, s.Index)
		}
		if s.Chapter < 1 || s.Chapter > len(want) {
			t.Fatalf("sentence %d (%q) in chapter %d", i, s.Text, s.Chapter)
		}
		if i > 0 && s.Chapter < c.All[i-1].Chapter {
			t.Fatalf("sentence %d: chapter %d after chapter %d", i, s.Chapter, c.All[i-1].Chapter)
		}
		got[s.Chapter-1]++
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sentences per chapter %v, want %v", got, want)
	}
	// Every sentence is over the alphabet, trimmed, without double blanks.
	for _, s := range c.All {
		if s.Text == "" || s.Text[0] == ' ' || s.Text[len(s.Text)-1] == ' ' || strings.Contains(s.Text, "  ") {
			t.Errorf("sentence %d %q is not normalised", s.Index, s.Text)
		}
		for i := 0; i < len(s.Text); i++ {
			if strings.IndexByte(TextAlphabet, s.Text[i]) < 0 {
				t.Errorf("sentence %d %q has %q", s.Index, s.Text, s.Text[i])
				break
			}
		}
	}
	// No header, footer or chapter title leaks in.
	for _, s := range c.All {
		if strings.Contains(s.Text, "gutenberg") || strings.Contains(s.Text, "project") {
			t.Errorf("sentence %d %q comes from the Gutenberg header or footer", s.Index, s.Text)
		}
	}
	if first := c.All[0].Text; !strings.HasPrefix(first, "alice was beginning to get very tired") {
		t.Errorf("first sentence %q", first)
	}
	if last := c.All[len(c.All)-1].Text; !strings.HasSuffix(last, "remembering her own child life and the happy summer days") {
		t.Errorf("last sentence %q", last)
	}
	titles := []string{"down the rabbit hole", "the pool of tears", "a caucus race and a long tale",
		"the rabbit sends in a little bill", "advice from a caterpillar", "pig and pepper", "a mad tea party",
		"the queens croquet ground", "the mock turtles story", "the lobster quadrille", "who stole the tarts",
		"alices evidence"}
	for i, s := range c.All {
		if i == 0 || s.Chapter != c.All[i-1].Chapter {
			if strings.HasPrefix(s.Text, titles[s.Chapter-1]) {
				t.Errorf("chapter %d starts with its title: %q", s.Chapter, s.Text)
			}
		}
	}
}

// aliceThesisFirstTen are the thesis's ten training sentences (L2149-L2158),
// trimmed (targets §4 item 10).
var aliceThesisFirstTen = []string{
	"i shall be late",
	"thought alice to herself after such a fall as this i shall think nothing of tumbling down stairs",
	"how brave theyll all think me at home",
	"why i wouldnt say anything about it even if i fell off the top of the house",
	"which was very likely true",
	"down down down",
	"would the fall never come to an end",
	"i wonder how many miles ive fallen by this time",
	"she said aloud",
	"i must be getting somewhere near the centre of the earth",
}

func TestAliceTrainingPool(t *testing.T) {
	c := loadAliceCorpus(t, DefaultAliceSpec())
	if len(c.Train) != 32 {
		t.Fatalf("%d training sentences, want 32", len(c.Train))
	}
	for i, want := range aliceThesisFirstTen {
		if got := c.Train[i].Text; got != want {
			t.Errorf("training sentence %d = %q, thesis has %q", i+1, got, want)
		}
	}
	wantLens := []int{15, 96, 37, 75, 26, 14, 35, 47, 14, 56, 25, 48, 84, 44, 87, 32,
		58, 67, 14, 62, 49, 17, 53, 13, 33, 29, 16, 30, 91, 19, 72, 46}
	gotLens := make([]int, len(c.Train))
	for i, s := range c.Train {
		gotLens[i] = len(s.Text)
		if s.Chapter != 1 {
			t.Errorf("training sentence %d in chapter %d, want 1", i+1, s.Chapter)
		}
		if i > 0 && s.Index <= c.Train[i-1].Index {
			t.Errorf("training sentences out of text order at %d", i+1)
		}
		if c.All[s.Index] != s {
			t.Errorf("training sentence %d differs from All[%d]", i+1, s.Index)
		}
	}
	if !reflect.DeepEqual(gotLens, wantLens) {
		t.Errorf("pool lengths %v, want %v", gotLens, wantLens)
	}
	if first, last := c.Train[0].Index, c.Train[31].Index; first != 4 || last != 58 {
		t.Errorf("pool spans sentences %d..%d, want 4..58", first, last)
	}
	// The pool is exactly the in-window sentences of 4..58.
	n := 0
	for _, s := range c.All[:59] {
		if len(s.Text) >= 10 && len(s.Text) <= 100 {
			n++
		}
	}
	if n != 32 {
		t.Errorf("%d in-window sentences in 0..58, want 32", n)
	}
	for _, tc := range []struct{ n, total int }{
		{1, 15}, {2, 111}, {3, 148}, {4, 223}, {5, 249}, {6, 263}, {8, 345}, {16, 735}, {32, 1404},
	} {
		if got := aliceTotalLen(c.Train[:tc.n]); got != tc.total {
			t.Errorf("n=%d: %d symbols, want %d", tc.n, got, tc.total)
		}
		if got := EncodeSentences(c.Train[:tc.n], false); len(got.Seqs) != tc.n {
			t.Errorf("n=%d: %d sequences encoded", tc.n, len(got.Seqs))
		}
	}
	// The excluded neighbours of targets §4 item 9.
	inPool := map[string]bool{}
	for _, s := range c.Train {
		inPool[s.Text] = true
	}
	inAll := map[string]bool{}
	for _, s := range c.All[:59] {
		inAll[s.Text] = true
	}
	for _, ex := range []string{
		"oh dear",
		"alice had no idea what latitude was or longitude either but thought they were nice grand words to say",
	} {
		if !inAll[ex] {
			t.Errorf("%q is not among the first 59 sentences", ex)
		}
		if inPool[ex] {
			t.Errorf("%q (length %d) is in the training pool", ex, len(ex))
		}
	}
}

func TestAliceTestSet(t *testing.T) {
	c := loadAliceCorpus(t, DefaultAliceSpec())
	if len(c.Test) != 200 {
		t.Fatalf("%d test sentences, want 200", len(c.Test))
	}
	for i, s := range c.Test {
		if s.Index != 314+i {
			t.Fatalf("test sentence %d has global index %d, want %d", i, s.Index, 314+i)
		}
		if c.All[s.Index] != s {
			t.Errorf("test sentence %d differs from All[%d]", i, s.Index)
		}
	}
	if c.Test[0].Chapter != 4 || c.All[313].Chapter != 3 {
		t.Errorf("test set starts in chapter %d after a chapter-%d sentence, want 4 after 3", c.Test[0].Chapter, c.All[313].Chapter)
	}
	lens := make([]int, len(c.Test))
	for i, s := range c.Test {
		lens[i] = len(s.Text)
	}
	sort.Ints(lens)
	if lens[0] != 2 || lens[len(lens)-1] != 896 {
		t.Errorf("test lengths %d..%d, want 2..896", lens[0], lens[len(lens)-1])
	}
	if med := float64(lens[99]+lens[100]) / 2; med != 50 {
		t.Errorf("median test length %g, want 50", med)
	}
	if got := aliceTotalLen(c.Test); got != 16870 {
		t.Errorf("%d test symbols, want 16870", got)
	}
	has := map[string]bool{}
	for _, s := range c.Test {
		has[s.Text] = true
	}
	for _, w := range []string{"alas", "pat", "oh", "oh dear"} {
		if !has[w] {
			t.Errorf("test set lacks %q (L2184)", w)
		}
	}
	train := map[int]bool{}
	for _, s := range c.Train {
		train[s.Index] = true
	}
	for _, s := range c.Test {
		if train[s.Index] {
			t.Errorf("sentence %d is in both training and test sets", s.Index)
		}
	}
}

func TestAliceEncode(t *testing.T) {
	ss := []Sentence{{Text: "ab z"}, {Text: "the cat"}, {Text: "q"}}
	fwd := EncodeSentences(ss, false)
	if fwd.P != 27 {
		t.Errorf("P = %d, want 27", fwd.P)
	}
	want := [][]int{{0, 1, 26, 25}, {19, 7, 4, 26, 2, 0, 19}, {16}}
	if !reflect.DeepEqual(fwd.Seqs, want) {
		t.Errorf("forward encoding %v, want %v", fwd.Seqs, want)
	}
	bwd := EncodeSentences(ss, true)
	wantRev := [][]int{{25, 26, 1, 0}, {19, 0, 2, 26, 4, 7, 19}, {16}}
	if !reflect.DeepEqual(bwd.Seqs, wantRev) {
		t.Errorf("reversed encoding %v, want %v", bwd.Seqs, wantRev)
	}
	if err := fwd.Validate(); err != nil {
		t.Errorf("encoded data invalid: %v", err)
	}
	if ss[0].Text != "ab z" {
		t.Errorf("EncodeSentences modified its input: %q", ss[0].Text)
	}

	// On the real data: each sentence reversed separately, same lengths and
	// order, and the reversal is an involution of the decoded text.
	c := loadAliceCorpus(t, DefaultAliceSpec())
	f, b := EncodeSentences(c.Test, false), EncodeSentences(c.Test, true)
	if len(f.Seqs) != 200 || len(b.Seqs) != 200 {
		t.Fatalf("encoded %d/%d test sequences, want 200", len(f.Seqs), len(b.Seqs))
	}
	for i := range f.Seqs {
		y, r := f.Seqs[i], b.Seqs[i]
		if len(y) != len(c.Test[i].Text) || len(r) != len(y) {
			t.Fatalf("sequence %d: lengths %d/%d, sentence %d", i, len(y), len(r), len(c.Test[i].Text))
		}
		var dec strings.Builder
		for tt := range y {
			if r[tt] != y[len(y)-1-tt] {
				t.Fatalf("sequence %d is not the reversal at position %d", i, tt)
			}
			dec.WriteByte(TextAlphabet[y[tt]])
		}
		if dec.String() != c.Test[i].Text {
			t.Fatalf("sequence %d decodes to %q, want %q", i, dec.String(), c.Test[i].Text)
		}
	}
	// "i shall be late" backwards.
	r := EncodeSentences(c.Train[:1], true).Seqs[0]
	var dec strings.Builder
	for _, m := range r {
		dec.WriteByte(TextAlphabet[m])
	}
	if dec.String() != "etal eb llahs i" {
		t.Errorf("first training sentence reversed = %q", dec.String())
	}
}

func TestAliceEncodePanicsOnForeignCharacter(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a character outside the alphabet")
		}
	}()
	EncodeSentences([]Sentence{{Text: "Ab"}}, false)
}

func TestAliceTrailingSpace(t *testing.T) {
	def := loadAliceCorpus(t, DefaultAliceSpec())
	spec := DefaultAliceSpec()
	spec.TrailingSpace = true
	c := loadAliceCorpus(t, spec)
	for _, tc := range []struct {
		name     string
		got, def []Sentence
	}{{"all", c.All, def.All}, {"train", c.Train, def.Train}, {"test", c.Test, def.Test}} {
		if len(tc.got) != len(tc.def) {
			t.Fatalf("%s: %d sentences with trailing blanks, %d without", tc.name, len(tc.got), len(tc.def))
		}
		for i := range tc.got {
			g, d := tc.got[i], tc.def[i]
			if g.Index != d.Index || g.Chapter != d.Chapter || g.Text != d.Text+" " {
				t.Fatalf("%s %d: %+v, want %+v with one blank appended", tc.name, i, g, d)
			}
		}
	}
	if c.Train[0].Text != "i shall be late " {
		t.Errorf("first training sentence %q, want the thesis's 'i shall be late '", c.Train[0].Text)
	}
	y := EncodeSentences(c.Train[:2], false)
	for i, s := range y.Seqs {
		if s[len(s)-1] != 26 {
			t.Errorf("sequence %d does not end in a blank", i)
		}
	}
	if got := aliceTotalLen(c.Train); got != 1404+32 {
		t.Errorf("%d pool symbols with trailing blanks, want %d", got, 1404+32)
	}
	if SentencesSHA256(c.Train) == SentencesSHA256(def.Train) {
		t.Error("trailing blanks do not change the checksum")
	}
}

func TestAliceSentencesSHA256(t *testing.T) {
	ss := []Sentence{{Text: "ab"}, {Text: "c d"}}
	sum := sha256.Sum256([]byte("ab\nc d\n"))
	if got, want := SentencesSHA256(ss), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("SentencesSHA256 = %s, want %s", got, want)
	}
	one := sha256.Sum256([]byte("ab\n"))
	if got, want := SentencesSHA256(ss[:1]), hex.EncodeToString(one[:]); got != want {
		t.Errorf("SentencesSHA256 (one) = %s, want %s", got, want)
	}
}

// aliceSynthText builds a small Gutenberg-like text with the given chapters.
func aliceSynthText(chapters ...string) string {
	var b strings.Builder
	b.WriteString("Project Gutenberg header. It has sentences! Many?\n\n")
	romans := []string{"I", "II", "III", "IV", "V", "VI"}
	for i, body := range chapters {
		b.WriteString("\n                 CHAPTER " + romans[i] + "\n\n")
		b.WriteString("           A Title. With Stops!\n\n")
		b.WriteString(body + "\n")
	}
	b.WriteString("\n               THE END\n\nFooter text. More footer.\n")
	return b.String()
}

func aliceSmallSpec() TextSpec {
	s := DefaultAliceSpec()
	s.TrainMinLen, s.TrainMaxLen = 5, 20
	s.TrainPool = 2
	s.TestChapter = 2
	s.TestCount = 2
	return s
}

func TestAliceSyntheticRecipe(t *testing.T) {
	raw := aliceSynthText(
		"`Oh dear!' said the\nRabbit -- it's late. Hi!\n  Don't stop; go on,\n\n  (or 2 not)",
		"Second chapter's text.  Another one?! End.",
	)
	spec := aliceSmallSpec()
	spec.TrainPool = 1
	c, err := ExtractSentences([]byte(raw), spec)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	var chapters []int
	for _, s := range c.All {
		texts = append(texts, s.Text)
		chapters = append(chapters, s.Chapter)
	}
	wantTexts := []string{"oh dear", "said the rabbit its late", "hi", "dont stop go on or not",
		"second chapters text", "another one", "end"}
	if !reflect.DeepEqual(texts, wantTexts) {
		t.Errorf("sentences %q, want %q", texts, wantTexts)
	}
	if want := []int{1, 1, 1, 1, 2, 2, 2}; !reflect.DeepEqual(chapters, want) {
		t.Errorf("chapters %v, want %v", chapters, want)
	}
	var train, test []string
	for _, s := range c.Train {
		train = append(train, s.Text)
	}
	for _, s := range c.Test {
		test = append(test, s.Text)
	}
	// Window [5, 20]: "oh dear" (7) in, "said the rabbit its late" (24) out,
	// "hi" (2) out, "dont stop go on or not" (22) out; the pool is taken
	// from before the test set, so "second chapters text" (20) is not in it.
	if want := []string{"oh dear"}; !reflect.DeepEqual(train, want) {
		t.Errorf("training pool %q, want %q", train, want)
	}
	if want := []string{"second chapters text", "another one"}; !reflect.DeepEqual(test, want) {
		t.Errorf("test set %q, want %q", test, want)
	}
	if c.TestStart != 4 {
		t.Errorf("TestStart = %d, want 4", c.TestStart)
	}
	spec.TrainPool = 2
	if _, err := ExtractSentences([]byte(raw), spec); err == nil || !strings.Contains(err.Error(), "train_pool = 2") {
		t.Errorf("a pool that reaches into the test set: error %v", err)
	}
	// The title after a heading is dropped even when blank lines separate
	// them, but a second non-empty line is kept.
	raw2 := "CHAPTER I\n\n\nTitle Line\nKept line. Another line.\nTHE END\n"
	spec = aliceSmallSpec()
	spec.TrainPool, spec.TestChapter, spec.TestSentence, spec.TestCount = 1, 0, 1, 1
	c2, err := ExtractSentences([]byte(raw2), spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(c2.All) != 2 || c2.All[0].Text != "kept line" || c2.All[1].Text != "another line" {
		t.Errorf("sentences %+v, want \"kept line\", \"another line\"", c2.All)
	}
}

func TestAliceErrors(t *testing.T) {
	good := aliceSynthText("One sentence here. Two sentences here.", "Three sentences here. Four here.")
	if _, err := ExtractSentences([]byte(good), aliceSmallSpec()); err != nil {
		t.Fatalf("the well-formed text fails: %v", err)
	}
	for _, tc := range []struct {
		name string
		raw  string
		edit func(*TextSpec)
		want string // a substring of the error
	}{
		{"no start", strings.Replace(good, "CHAPTER I\n", "CHAPTER ONE\n", 1), nil, `body_start = "CHAPTER I"`},
		{"no end", strings.Replace(good, "THE END", "THE ENDING", 1), nil, `body_end = "THE END"`},
		{"end before start only", "THE END\nCHAPTER I\nText here. More text.\n", nil, `body_end = "THE END"`},
		{"pool too small", good, func(s *TextSpec) { s.TrainPool = 10 }, "train_pool = 10"},
		{"window excludes all", good, func(s *TextSpec) { s.TrainMinLen, s.TrainMaxLen = 50, 60 }, "train_pool"},
		{"no test chapter", good, func(s *TextSpec) { s.TestChapter = 5 }, "test_start_chapter = 5"},
		{"test set too large", good, func(s *TextSpec) { s.TestCount = 3 }, "test_count = 3"},
		{"bad window", good, func(s *TextSpec) { s.TrainMinLen, s.TrainMaxLen = 10, 9 }, "train_max_len = 9"},
		{"empty pool", good, func(s *TextSpec) { s.TrainPool = 0 }, "train_pool = 0"},
		{"empty test set", good, func(s *TextSpec) { s.TestCount = 0 }, "test_count = 0"},
		{"no test start", good, func(s *TextSpec) { s.TestChapter = 0 }, "test_start_chapter = 0"},
		{"test chapter 1 leaves no pool", good, func(s *TextSpec) { s.TestChapter = 1 }, "train_pool"},
		{"auto recipe", good, func(s *TextSpec) { s.Recipe = RecipeAuto }, "recipe"},
		{"empty text", "", nil, `body_start = "CHAPTER I"`},
	} {
		spec := aliceSmallSpec()
		if tc.edit != nil {
			tc.edit(&spec)
		}
		_, err := ExtractSentences([]byte(tc.raw), spec)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q does not mention %q", tc.name, err, tc.want)
		}
	}
}
