package chapter3

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/exptest"
	"github.com/vbworkbench/vbw/results"
)

// testdata/treatise.txt is a made-up treatise in the layout of a Project
// Gutenberg file (header, "*** START OF …" line, BOOK headings with titles,
// "*** END OF …" line, footer), written for these tests. It has the
// abbreviations, initials and numbered items that the thesis's recipe cuts
// into sentences like "prop", "i" and "ii".

func readTreatise(t *testing.T) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "treatise.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func texts(ss []Sentence) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Text)
	}
	return out
}

// treatiseSpec reads the treatise's three books: BOOK headings, the body up
// to the Gutenberg end line, the test set from book III.
func treatiseSpec(recipe string) TextSpec {
	s := DefaultAliceSpec()
	s.Recipe = recipe
	s.BodyStart = "BOOK I."
	s.BodyEnd = "*** END OF THE PROJECT GUTENBERG EBOOK AN ESSAY ON THE KEEPING OF BEES ***"
	s.ChapterHeading = `^BOOK [IVXL]+\.$`
	s.TrainPool, s.TestChapter, s.TestCount = 5, 3, 5
	return s
}

// treatiseBook1 is book I under RecipeText: no cut at "Prop. 1.", "i.",
// "ii.", "Mr.", "St.", "vol. ii.", "No. 14", "p.", "J. S.", "e.g.", "i.e.",
// "viz.", but one after "Neither do I.".
var treatiseBook1 = []string{
	"prop a hive is a city in little and its people are of three sorts",
	"the three sorts are these i the queen who is the mother of all ii the drones who are the fathers iii the workers who do everything else",
	"mr hartley who has kept bees at st ives for thirty years says that a strong hive holds forty thousand of them",
	"dr nance does not believe him",
	"neither do i",
	"the matter is settled in vol ii of the transactions no p where the bees of one hive were counted one by one",
	"it took the counter j s trewin the better part of a week",
	"some writers e g mrs colley of the downs put the number higher i e at sixty thousand others viz the dutch keepers put it lower",
	"a worker lives for six weeks in summer",
	"she spends the first three weeks indoors",
	"she cleans the cells feeds the young and builds comb",
	"then she goes out to forage",
	"she flies until her wings are worn away",
	"prop the queen is not a ruler but a mother",
	"she lays two thousand eggs in a day",
	"she leaves the hive only to mate and to swarm",
	"her daughters feed her and clean her",
	"does she know them",
	"nobody can say",
	"the drones do no work at all",
	"they eat honey and wait",
	"in autumn the workers drive them out and they die in the cold",
}

func TestTextRecipeTreatise(t *testing.T) {
	raw := readTreatise(t)
	c, err := ExtractSentences(raw, treatiseSpec(RecipeText))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Notes) != 0 {
		t.Errorf("notes %q, want none", c.Notes)
	}
	var book1 []string
	for _, s := range c.All {
		if s.Chapter == 1 {
			book1 = append(book1, s.Text)
		}
	}
	if !reflect.DeepEqual(book1, treatiseBook1) {
		t.Errorf("book I:\n%q\nwant\n%q", book1, treatiseBook1)
	}
	has := map[string]bool{}
	for i, s := range c.All {
		has[s.Text] = true
		if s.Chapter < 1 || s.Chapter > 3 || (i > 0 && s.Chapter < c.All[i-1].Chapter) {
			t.Errorf("sentence %d %q in chapter %d", i, s.Text, s.Chapter)
		}
	}
	// Books II and III: numbered items, Roman numerals in parentheses,
	// "Sect. iv.", a decimal, "etc., and" (no cut) and "etc. The" (a cut),
	// a quotation ending in ".'", and titles dropped.
	for _, want := range []string{
		"prop a hive that grows too crowded will divide itself",
		"where is the queen", "asked mr hartleys boy",
		"she is in the middle of the cluster where you cannot see her",
		"there are four signs of a coming swarm viz i the bees hang idle at the door ii the drones are many iii queen cells are built at the foot of the comb iv the hive grows loud at evening",
		"sect iv treats of the taking of swarms",
		"have a skep ready and a cloth", "shake the cluster into the skep with one sharp blow",
		"prop a good hive gives stone of honey in a fair year",
		"they love thyme clover heather lime blossom etc and they will fly three miles to find them",
		"they care little for roses lilies tulips etc", "the reason is not known",
		"here ends the essay",
	} {
		if !has[want] {
			t.Errorf("no sentence %q", want)
		}
	}
	for _, junk := range []string{"prop", "i", "ii", "iii", "iv", "mr", "dr", "st", "no", "p", "vol", "j", "s", "e", "g",
		"sect", "of the hive and its people", "of swarming", "of honey and wax", "book i"} {
		if has[junk] {
			t.Errorf("sentence %q", junk)
		}
	}
	for _, s := range c.All {
		if strings.Contains(s.Text, "gutenberg") || strings.Contains(s.Text, "footer") {
			t.Errorf("sentence %q from outside the body", s.Text)
		}
	}
	// The test set is book III's first five sentences; the pool the first
	// five in-window sentences before it.
	if c.Test[0].Text != "prop a good hive gives stone of honey in a fair year" || c.Test[0].Chapter != 3 || c.All[c.TestStart-1].Chapter != 2 {
		t.Errorf("test set starts with %+v", c.Test[0])
	}
	if want := []string{"prop a hive is a city in little and its people are of three sorts", "dr nance does not believe him",
		"neither do i", "it took the counter j s trewin the better part of a week", "a worker lives for six weeks in summer"}; !reflect.DeepEqual(texts(c.Train), want) {
		t.Errorf("pool %q, want %q", texts(c.Train), want)
	}

	// The thesis's recipe on the same text cuts at every '.'.
	th, err := ExtractSentences(raw, treatiseSpec(RecipeThesis))
	if err != nil {
		t.Fatal(err)
	}
	thHas := map[string]bool{}
	for _, s := range th.All {
		thHas[s.Text] = true
	}
	for _, junk := range []string{"prop", "mr", "s", "p", "ii", "sect", "iv"} {
		if !thHas[junk] {
			t.Errorf("the thesis recipe has no sentence %q", junk)
		}
	}
	if len(th.All) <= len(c.All) {
		t.Errorf("thesis recipe: %d sentences, text recipe %d", len(th.All), len(c.All))
	}
}

// TestTextRecipeFallbacks runs Alice's recipe, unchanged but for RecipeText,
// on the treatise: its body markers, chapter headings and chapter IV are all
// absent.
func TestTextRecipeFallbacks(t *testing.T) {
	raw := readTreatise(t)
	spec := DefaultAliceSpec()
	spec.TrainPool, spec.TestCount = 5, 10
	if _, err := ExtractSentences(raw, spec); err == nil || !strings.Contains(err.Error(), `body_start = "CHAPTER I"`) {
		t.Errorf("thesis recipe: error %v, want one naming body_start", err)
	}
	spec.Recipe = RecipeText
	c, err := ExtractSentences(raw, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Notes) != 3 {
		t.Fatalf("notes %q, want 3", c.Notes)
	}
	for i, want := range []string{"body_start = \"CHAPTER I\": no line reads this; the body starts after the Project Gutenberg start line (line 11)",
		"body_end = \"THE END\": no line reads this; the body ends before the Project Gutenberg end line (line 113)",
		"test_start_chapter = 4: no such chapter"} {
		if !strings.HasPrefix(c.Notes[i], want) {
			t.Errorf("note %d %q, want %q…", i, c.Notes[i], want)
		}
	}
	if first := c.All[0].Text; first != "an essay on the keeping of bees in three books book i" {
		t.Errorf("first sentence %q", first)
	}
	if last := c.All[len(c.All)-1].Text; last != "here ends the essay" {
		t.Errorf("last sentence %q", last)
	}
	S := len(c.All)
	if c.TestStart != S-10 || len(c.Test) != 10 || c.Test[9] != c.All[S-1] {
		t.Errorf("test set from %d (%d sentences), want the last 10 of %d", c.TestStart, len(c.Test), S)
	}
	for _, s := range c.Train {
		if s.Index >= c.TestStart {
			t.Errorf("training sentence %d in the test set", s.Index)
		}
	}

	// Empty markers: the whole file.
	spec.BodyStart, spec.BodyEnd = "", ""
	c, err = ExtractSentences(raw, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Notes) != 1 || !strings.HasPrefix(c.All[0].Text, "the project gutenberg ebook of an essay") ||
		c.All[len(c.All)-1].Text != "it should never be part of the sentences" {
		t.Errorf("whole file: notes %q, sentences %q … %q", c.Notes, c.All[0].Text, c.All[len(c.All)-1].Text)
	}
	// No Gutenberg lines either: the top and the end of the file.
	plain := "Some text here. And more text here.\nThe last line of it.\n"
	spec.BodyStart, spec.BodyEnd, spec.TrainPool, spec.TestCount = "START", "STOP", 1, 1
	c, err = ExtractSentences([]byte(plain), spec)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"some text here", "and more text here", "the last line of it"}; !reflect.DeepEqual(texts(c.All), want) ||
		!strings.Contains(c.Notes[0], "top of the file") || !strings.Contains(c.Notes[1], "end of the file") {
		t.Errorf("sentences %q, notes %q", texts(c.All), c.Notes)
	}
	// Too short for the test set: an error naming test_count.
	spec.TestCount = 4
	if _, err := ExtractSentences([]byte(plain), spec); err == nil || !strings.Contains(err.Error(), "test_count = 4") {
		t.Errorf("error %v, want one naming test_count", err)
	}
}

func TestTextTestStartByPosition(t *testing.T) {
	raw := readTreatise(t)
	spec := treatiseSpec(RecipeText)
	spec.ChapterHeading, spec.TestChapter = "", 0 // no chapters: the BOOK lines are text
	spec.TestFraction = 0.5
	c, err := ExtractSentences(raw, spec)
	if err != nil {
		t.Fatal(err)
	}
	S := len(c.All)
	if c.TestStart != S/2 || c.Test[0] != c.All[S/2] || len(c.Test) != 5 {
		t.Errorf("fraction 0.5 of %d sentences: test set from %d", S, c.TestStart)
	}
	for _, s := range c.All {
		if s.Chapter != 0 {
			t.Fatalf("sentence %q in chapter %d without headings", s.Text, s.Chapter)
		}
	}
	if !slices.Contains(texts(c.All), "book ii of swarming") {
		t.Errorf("without chapter_heading the lines BOOK II. and its title should be text")
	}
	for _, s := range c.Train {
		if s.Index >= c.TestStart {
			t.Errorf("training sentence %d is not before the test set (%d)", s.Index, c.TestStart)
		}
	}
	spec.TestFraction, spec.TestSentence = 0, 20
	c, err = ExtractSentences(raw, spec)
	if err != nil {
		t.Fatal(err)
	}
	if c.TestStart != 20 || c.Test[0].Index != 20 {
		t.Errorf("test_start_sentence = 20: test set from %d", c.TestStart)
	}
	// Not enough in-window sentences before the test start.
	spec.TestSentence = 3
	if _, err := ExtractSentences(raw, spec); err == nil || !strings.Contains(err.Error(), "train_pool = 5") ||
		!strings.Contains(err.Error(), "test_start_sentence = 3") {
		t.Errorf("error %v, want one naming train_pool and test_start_sentence", err)
	}
	spec.TestSentence = 0
	spec.TestFraction = 0.01
	if _, err := ExtractSentences(raw, spec); err == nil || !strings.Contains(err.Error(), "train_pool") {
		t.Errorf("error %v, want one naming train_pool", err)
	}
	spec.TestFraction = 0
	spec.TestSentence = 10000
	if _, err := ExtractSentences(raw, spec); err == nil || !strings.Contains(err.Error(), "test_start_sentence = 10000") {
		t.Errorf("error %v, want one naming test_start_sentence", err)
	}
}

func TestTextSplitRules(t *testing.T) {
	spec := TextSpec{Recipe: RecipeText, Abbreviations: DefaultAbbreviations(), WeakAbbreviations: DefaultWeakAbbreviations(),
		InitialsAndNumerals: true, TrainMinLen: 1, TrainMaxLen: 100, TrainPool: 1, TestSentence: 1, TestCount: 1}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Mr. and Mrs. Smith met Dr. Jones at St. Ives. Then they left.", []string{"mr and mrs smith met dr jones at st ives", "then they left"}},
		{"So do I. Then we went.", []string{"so do i", "then we went"}},
		{"I. Of motion. II. Of rest.", []string{"i of motion", "ii of rest"}},
		{"Prop. 12. The whole is greater. Prop. IV. The part is less.", []string{"prop the whole is greater", "prop iv the part is less"}},
		{"See No. 5 and vol. ii. of it. He said no. Then he left.", []string{"see no and vol ii of it", "he said no", "then he left"}},
		{"Apples, pears, etc., and plums. Apples, etc. The rest, etc. and so on. Figs etc. I think so.",
			[]string{"apples pears etc and plums", "apples etc", "the rest etc and so on", "figs etc", "i think so"}},
		{"J. S. Mill wrote it, i.e. the book, e.g. this one. It is 2.5 in long.", []string{"j s mill wrote it i e the book e g this one", "it is in long"}},
		{"It was in 1850. Then it was 1851. 1. First. 2. Second.", []string{"it was in", "then it was", "first", "second"}},
		{"Born on the 21st. Then died.", []string{"born on the st", "then died"}},
		{"`Stop.' He stopped. `No.' said she.", []string{"stop", "he stopped", "no", "said she"}},
		{"They\u2019ll go. \u201cWhy?\u201d she asked.", []string{"theyll go", "why", "she asked"}},
		{"Well! What? Yes.", []string{"well", "what", "yes"}},
	} {
		c, err := ExtractSentences([]byte(tc.in), spec)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := texts(c.All); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	// Each rule can be switched off.
	off := spec
	off.Abbreviations, off.WeakAbbreviations, off.InitialsAndNumerals = nil, nil, false
	c, err := ExtractSentences([]byte("Mr. Smith met J. S. Mill. Prop. 1. The end."), off)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"mr", "smith met j", "s", "mill", "prop", "the end"}; !reflect.DeepEqual(texts(c.All), want) {
		t.Errorf("rules off: %q, want %q", texts(c.All), want)
	}
	// Titles under RecipeText: dropped when a paragraph of their own with
	// at most one sentence; otherwise the chapter's first line is kept.
	spec.ChapterHeading, spec.DropTitle, spec.TestSentence, spec.TestChapter = `^CHAPTER [IVXL]+$`, true, 0, 2
	c, err = ExtractSentences([]byte("CHAPTER I\n\nThe Title.\n\nFirst text. More.\nCHAPTER II\nNo title here. It goes on\nover two lines.\n"), spec)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"first text", "more", "no title here", "it goes on over two lines"}; !reflect.DeepEqual(texts(c.All), want) {
		t.Errorf("titles: %q, want %q", texts(c.All), want)
	}
}

// TestTextRecipeOnAlice documents why the Alice config keeps the thesis's
// recipe: RecipeText changes one place of alice29.txt, "the name `W.
// RABBIT'", which the initials rule keeps in one sentence. The training
// pool is the same; the test set differs.
func TestTextRecipeOnAlice(t *testing.T) {
	th := loadAliceCorpus(t, DefaultAliceSpec())
	spec := DefaultAliceSpec()
	spec.Recipe = RecipeText
	tx := loadAliceCorpus(t, spec)
	if len(tx.All) != 1624 || len(tx.Notes) != 0 {
		t.Fatalf("%d sentences, notes %q; want 1624 and none", len(tx.All), tx.Notes)
	}
	want := "as she said this she came upon a neat little house on the door of which was a bright brass plate with the name w rabbit engraved upon it"
	if tx.All[328].Text != want || th.All[328].Text+" "+th.All[329].Text != want {
		t.Errorf("sentence 328: text %q, thesis %q + %q", tx.All[328].Text, th.All[328].Text, th.All[329].Text)
	}
	for i := range tx.All {
		j := i
		if i > 328 {
			j = i + 1
		}
		if i != 328 && tx.All[i].Text != th.All[j].Text {
			t.Fatalf("sentence %d differs: %q, thesis %q", i, tx.All[i].Text, th.All[j].Text)
		}
	}
	if got := SentencesSHA256(tx.Train); got != AliceSHA256Train {
		t.Errorf("text recipe pool checksum %s, want the thesis's", got)
	}
	if SentencesSHA256(tx.Test) == AliceSHA256Test {
		t.Error("text recipe test set equals the thesis's")
	}
	// The initials rule alone makes the difference.
	spec.InitialsAndNumerals = false
	if got := SentencesSHA256(loadAliceCorpus(t, spec).All); got != AliceSHA256All {
		t.Errorf("text recipe without the initials rule: %s, want the thesis's checksum", got)
	}
}

// dataKeys returns the TOML keys of the [data] table.
func dataKeys(typ reflect.Type) []string {
	var keys []string
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if f.Anonymous {
			keys = append(keys, dataKeys(f.Type)...)
			continue
		}
		keys = append(keys, strings.Split(f.Tag.Get("toml"), ",")[0])
	}
	return keys
}

// TestAliceDataKeyErrors sets each key of [data] to a wrong value and checks
// that the error names that key, at config loading or at extraction on
// alice29.txt.
func TestAliceDataKeyErrors(t *testing.T) {
	zeros := strings.Repeat("0", 64)
	cases := []struct {
		key   string
		lines string // the [data] lines; the key under test is the last
	}{
		{"file", `file = ""`},
		{"file", `file = "no-such-file.txt"`},
		{"recipe", `recipe = "exact"`},
		{"body_start", `body_start = "NO SUCH LINE"`},
		{"body_end", `body_end = "NO SUCH LINE"`},
		{"chapter_heading", `chapter_heading = "^CHAPTER ("`},
		{"drop_title", `drop_title = 3`},
		{"abbreviations", `abbreviations = ["Mr", "e g"]`},
		{"weak_abbreviations", `weak_abbreviations = [""]`},
		{"initials_and_numerals", `initials_and_numerals = "yes"`},
		{"trailing_space", `trailing_space = "yes"`},
		{"train_min_len", `train_min_len = 0`},
		{"train_max_len", `train_max_len = 5`},
		{"train_pool", `train_pool = 0`},
		{"train_pool", `train_pool = 200`},
		{"test_start_chapter", `test_start_chapter = 0`},
		{"test_start_chapter", `test_start_chapter = -1`},
		{"test_start_chapter", `test_start_chapter = 13`},
		{"test_start_chapter", "chapter_heading = \"\"\ntest_start_chapter = 4"},
		{"test_start_fraction", `test_start_fraction = 1.5`},
		{"test_start_fraction", `test_start_fraction = 0.5`}, // with the default test_start_chapter = 4
		{"test_start_sentence", "test_start_chapter = 0\ntest_start_sentence = -1"},
		{"test_start_sentence", "test_start_chapter = 0\ntest_start_sentence = 5000"},
		{"test_start_sentence", "test_start_fraction = 0.5\ntest_start_sentence = 10"},
		{"test_count", `test_count = 0`},
		{"test_count", `test_count = 5000`},
		{"sha256_all", `sha256_all = "abc"`},
		{"sha256_all", `sha256_all = "` + zeros + `"`},
		{"sha256_train", `sha256_train = "` + zeros + `"`},
		{"sha256_test", `sha256_test = "` + strings.ToUpper(AliceSHA256Test) + `"`},
		{"sha256_test", `sha256_test = "` + zeros + `"`},
	}
	covered := map[string]bool{}
	dir := t.TempDir()
	for i, tc := range cases {
		covered[tc.key] = true
		text := "experiment = \"chapter3/alice\"\n[data]\n" + tc.lines + "\n"
		line := strings.Count(text, "\n") // the key's line
		path := filepath.Join(dir, fmt.Sprintf("c%02d.toml", i))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		want := "data." + tc.key
		_, cfg, err := experiments.Load(path, false)
		if err != nil {
			if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), fmt.Sprintf("%s:%d:", path, line)) {
				t.Errorf("%q: load error %q does not name %s at line %d", tc.lines, err, want, line)
			}
			continue
		}
		env := &experiments.Env{ID: AliceID, DataDir: experiments.TestDataDir(), Log: io.Discard}
		_, err = loadAlice(env, cfg.(*AliceConfig))
		if err == nil {
			t.Errorf("%q: no error", tc.lines)
		} else if !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %q does not name %s", tc.lines, err, want)
		}
	}
	for _, k := range dataKeys(reflect.TypeOf(AliceData{})) {
		if !covered[k] {
			t.Errorf("no case for data.%s", k)
		}
	}
}

// TestAliceOnAnotherText runs chapter3/alice under -quick on a user's text,
// with alice.toml changed only in data.file and the three checksums: the
// body markers, the chapter heading and chapter IV are all absent, so the
// text recipe falls back, and the summary and manifest say that the data was
// not checked.
func TestAliceOnAnotherText(t *testing.T) {
	// A longer text: the treatise with its body five times over.
	raw := string(readTreatise(t))
	startMark := "*** START OF THE PROJECT GUTENBERG EBOOK AN ESSAY ON THE KEEPING OF BEES ***\n"
	endMark := "*** END OF THE PROJECT GUTENBERG EBOOK"
	a, b := strings.Index(raw, startMark)+len(startMark), strings.Index(raw, endMark)
	book := raw[:a] + strings.Repeat(raw[a:b], 5) + raw[b:]
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, "mybook.txt"), []byte(book), 0o644); err != nil {
		t.Fatal(err)
	}
	base, err := os.ReadFile(configPath("alice.toml"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(base)
	for _, r := range []struct{ old, new string }{
		{`"alice29.txt"`, `"mybook.txt"`},
		{`"` + AliceSHA256All + `"`, `""`},
		{`"` + AliceSHA256Train + `"`, `""`},
		{`"` + AliceSHA256Test + `"`, `""`},
	} {
		if strings.Count(text, r.old) != 1 {
			t.Fatalf("alice.toml has %d × %s", strings.Count(text, r.old), r.old)
		}
		text = strings.Replace(text, r.old, r.new, 1)
	}
	config := filepath.Join(t.TempDir(), "mybook.toml")
	if err := os.WriteFile(config, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err := experiments.RunConfig(context.Background(), config, experiments.RunOptions{
		Out: t.TempDir(), Quick: true, DataDir: data, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"cells.csv", "points.csv", "fig3_4.png", "scorecard.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	sum, err := results.ReadSummary(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Data) != 1 || sum.Data[0].File != "mybook.txt" || sum.Data[0].Checked {
		t.Fatalf("summary data %+v, want mybook.txt unchecked", sum.Data)
	}
	for _, w := range []string{"sha256_all", "not a known data set", `recipe "text"`, "body_start"} {
		if !strings.Contains(sum.Data[0].Note, w) {
			t.Errorf("data note %q lacks %q", sum.Data[0].Note, w)
		}
	}
	warned := false
	for _, w := range sum.Warnings {
		warned = warned || strings.Contains(w, "mybook.txt was not checked")
	}
	if !warned {
		t.Errorf("no warning about the unchecked data in %q", sum.Warnings)
	}
	// The data checksums are off, so not judged; the thesis's claims (tier
	// B) and its data's trends do not apply to another text; the
	// data-independent checks still do.
	for _, c := range exptest.Checks(t, sum, "fig3.4-data-sha256") {
		if !c.NotApplicable {
			t.Errorf("check %s %q judged without checksums", c.ID, c.Name)
		}
	}
	exptest.MustPass(t, sum, "fig3.4-monotone", "fig3.4-finite", "fig3.4-k1-chance")
	for _, c := range sum.Checks {
		if !slices.Contains(aliceDataIndependent, results.BaseID(c.ID)) && !c.NotApplicable {
			t.Errorf("check %s %q of the thesis's data applied to another text", c.ID, c.Name)
		}
	}
	if sum.Metrics["test_symbols"] <= 0 {
		t.Errorf("test_symbols = %v", sum.Metrics["test_symbols"])
	}
	var man struct {
		Status   string               `json:"status"`
		Data     []results.DataRecord `json:"data"`
		Warnings []string             `json:"warnings"`
	}
	b2, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b2, &man); err != nil {
		t.Fatal(err)
	}
	if man.Status != "ok" || len(man.Data) != 1 || man.Data[0].Checked {
		t.Errorf("manifest status %q, data %+v", man.Status, man.Data)
	}
	fallbacks := 0
	for _, w := range man.Warnings {
		for _, k := range []string{"data.body_start", "data.body_end", "data.test_start_chapter"} {
			if strings.Contains(w, k) {
				fallbacks++
			}
		}
	}
	if fallbacks != 3 {
		t.Errorf("manifest warnings %q, want one for each of body_start, body_end, test_start_chapter", man.Warnings)
	}
}

// TestAliceDataRecordChecked: with the checksums on, alice29.txt is recorded
// as checked; with them off, as unchecked although the file is the known one.
func TestAliceDataRecordChecked(t *testing.T) {
	for _, tc := range []struct {
		pinned bool
		note   string
	}{
		{true, "extracted sentences match data.sha256_all/train/test"},
		{false, "the file's SHA-256 matches the published data set, but the extraction was not checked"},
	} {
		c := DefaultAlice()
		if !tc.pinned {
			c.Data.SHA256All, c.Data.SHA256Train, c.Data.SHA256Test = "", "", ""
			c.Data.InitialsAndNumerals = false // keeps the thesis's sentences under the text recipe
		}
		env := &experiments.Env{ID: AliceID, DataDir: experiments.TestDataDir(), Log: io.Discard}
		d, err := loadAlice(env, &c)
		if err != nil {
			t.Fatal(err)
		}
		recs := env.DataRecords()
		if len(recs) != 1 || recs[0].Checked != tc.pinned || !strings.Contains(recs[0].Note, tc.note) {
			t.Errorf("pinned %v: records %+v", tc.pinned, recs)
		}
		checked := 0
		for _, sc := range d.checksums {
			if !sc.off && sc.sentences > 0 {
				checked++
			}
		}
		if len(d.checksums) != 3 || tc.pinned != (checked == 3) || !tc.pinned && checked != 0 {
			t.Errorf("pinned %v: checksums %+v", tc.pinned, d.checksums)
		}
		if len(d.sentences) != 200 || d.testSymbols != 16870 {
			t.Errorf("pinned %v: %d test sentences, %d symbols", tc.pinned, len(d.sentences), d.testSymbols)
		}
	}
}

// TestAliceConfigDataIsDefault: configs/chapter3/alice.toml spells out the
// Go defaults of [data], so that a config without them runs the same.
func TestAliceConfigDataIsDefault(t *testing.T) {
	_, cfg, err := experiments.Load(configPath("alice.toml"), false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cfg.(*AliceConfig).Data, defaultAliceData(); !reflect.DeepEqual(got, want) {
		t.Errorf("alice.toml [data]\n%+v\nGo defaults\n%+v", got, want)
	}
	if got := defaultAliceData().recipe(); got != RecipeThesis {
		t.Errorf("the default recipe resolves to %q, want %q", got, RecipeThesis)
	}
}
