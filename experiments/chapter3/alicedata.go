package chapter3

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/results"
)

// This file holds the data of chapter3/alice: the targets' extraction recipe
// for Project Gutenberg's alice29.txt (../shared/targets/ch3-hmm.md, E3.3
// "Data: exact extraction recipe", steps 1-9, and section 4 items 8-11),
// which reproduces the thesis's ten listed training sentences exactly and in
// order (L2149-L2158 of the seed text ../shared/seeds/000_055f6e591db3cc60.txt;
// the thesis's description of the data is L2145-L2158), the [data] table of
// the config, and loadAlice, which reads, extracts, checks and records the
// data. The extraction itself is ExtractSentences (textdata.go), which also
// runs on any other text.

// The SHA-256 checksums of the targets' recipe on alice29.txt (E3.3 step 9):
// all 1625 sentences, the training pool of 32 and the test set of 200.
const (
	AliceSHA256All   = "3490d868e23d1709fc9e820620bfc5d4a974e85ab6c599c314b5bb0db0c122c2"
	AliceSHA256Train = "24431d060b09b697c42b8ac4dfa5cd35d8c704d0313c8270ad46253fae26d45e"
	AliceSHA256Test  = "f4e4a9f7cdb0c88fec92365004fb13201e1aff5671aaef6c2ff42a5c5491400a"
)

// DefaultAliceSpec returns the targets' recipe for alice29.txt, under
// RecipeThesis: body "CHAPTER I" … "THE END" (step 1), chapter headings
// ^CHAPTER [IVXL]+$ with their titles dropped (step 2), window 10..100 and a
// pool of 32 (step 6), the test set the 200 sentences from the start of
// chapter IV (step 7), no trailing blank (targets §4 item 10). The
// abbreviation lists and the initials rule hold their defaults for
// RecipeText; RecipeThesis does not use them (on alice29.txt the initials
// rule would join "… with the name W" and "RABBIT engraved upon it").
func DefaultAliceSpec() TextSpec {
	return TextSpec{
		Recipe:              RecipeThesis,
		BodyStart:           "CHAPTER I",
		BodyEnd:             "THE END",
		ChapterHeading:      `^CHAPTER [IVXL]+$`,
		DropTitle:           true,
		Abbreviations:       DefaultAbbreviations(),
		WeakAbbreviations:   DefaultWeakAbbreviations(),
		InitialsAndNumerals: true,
		TrainMinLen:         10,
		TrainMaxLen:         100,
		TrainPool:           32,
		TestChapter:         4,
		TestCount:           200,
	}
}

// AliceData is the [data] table of chapter3/alice: the text file, how its
// sentences are extracted (TextSpec, whose keys sit in the same table), and
// the expected checksums of the result.
type AliceData struct {
	// File is the text, in the data directory (or an absolute path).
	File string `toml:"file"`
	TextSpec
	// Expected SHA-256 checksums of all sentences, the training pool and the
	// test set (E3.3 step 9, SentencesSHA256); a mismatch fails the run. Set
	// them to "" for another text: then recipe "auto" means RecipeText, and
	// the summary says that the data was not checked.
	SHA256All   string `toml:"sha256_all"`
	SHA256Train string `toml:"sha256_train"`
	SHA256Test  string `toml:"sha256_test"`
}

// defaultAliceData is the thesis's data: alice29.txt, the targets' recipe
// (RecipeAuto, which the checksums resolve to RecipeThesis) and its
// checksums.
func defaultAliceData() AliceData {
	spec := DefaultAliceSpec()
	spec.Recipe = RecipeAuto
	return AliceData{File: "alice29.txt", TextSpec: spec,
		SHA256All: AliceSHA256All, SHA256Train: AliceSHA256Train, SHA256Test: AliceSHA256Test}
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Validate checks the table; errors name the key ("data.test_count").
func (d AliceData) Validate() error {
	if strings.TrimSpace(d.File) == "" {
		return config.FieldError("data.file", d.File, "must name the text file")
	}
	if err := d.TextSpec.Validate(); err != nil {
		return prefixKey(err, "data.")
	}
	for _, s := range d.checksums() {
		if s.want != "" && !sha256Hex.MatchString(s.want) {
			return config.FieldError(s.key, s.want, `must be 64 lower-case hex digits, or "" to skip the check`)
		}
	}
	return nil
}

// checksum is one of the expected checksums and the sentences it covers.
type checksum struct {
	name, what, key, want string
	pick                  func(TextCorpus) []Sentence
}

func (d AliceData) checksums() []checksum {
	return []checksum{
		{"all", "all sentences", "data.sha256_all", d.SHA256All, func(c TextCorpus) []Sentence { return c.All }},
		{"train", "training pool", "data.sha256_train", d.SHA256Train, func(c TextCorpus) []Sentence { return c.Train }},
		{"test", "test set", "data.sha256_test", d.SHA256Test, func(c TextCorpus) []Sentence { return c.Test }},
	}
}

// pinned reports whether any sentence checksum is set.
func (d AliceData) pinned() bool {
	return d.SHA256All != "" || d.SHA256Train != "" || d.SHA256Test != ""
}

// recipe resolves RecipeAuto: the thesis's recipe when the checksums pin the
// data, the recipe for other texts when they are off.
func (d AliceData) recipe() string {
	if d.Recipe != RecipeAuto {
		return d.Recipe
	}
	if d.pinned() {
		return RecipeThesis
	}
	return RecipeText
}

// loadAlice reads the text, extracts and encodes the corpus, compares the
// checksums and records the data file for the manifest and the summary:
// checked when all three sentence checksums are set and match, unchecked
// (so that the summary warns) otherwise. Notes of RecipeText's fallbacks
// become warnings.
func loadAlice(env *experiments.Env, c *AliceConfig) (*aliceData, error) {
	d := c.Data
	raw, err := env.ReadData(d.File)
	if err != nil {
		return nil, config.FieldError("data.file", d.File, err.Error())
	}
	fileKnown := false
	for _, r := range env.DataRecords() {
		if r.File == d.File {
			fileKnown = r.Checked
		}
	}
	spec := d.TextSpec
	spec.Recipe = d.recipe()
	corpus, err := ExtractSentences(raw, spec)
	if err != nil {
		err = prefixKey(err, "data.")
		var ve *config.ValueError
		// The keys under which RecipeText would have fallen back.
		if d.Recipe == RecipeAuto && spec.Recipe == RecipeThesis && errors.As(err, &ve) &&
			(ve.Key == "data.body_start" || ve.Key == "data.body_end" || ve.Key == "data.test_start_chapter") {
			ve.Why += ` (the sentence checksums data.sha256_* are set, so recipe "auto" applies the thesis's recipe strictly; for another text set them to "")`
		}
		return nil, fmt.Errorf("%s: %w", d.File, err)
	}
	for _, n := range corpus.Notes {
		env.Warnf("%s: data.%s", d.File, n)
	}

	var checks []sentenceChecksum
	var matched, unset []string
	for _, s := range d.checksums() {
		if s.want == "" {
			unset = append(unset, s.key)
			checks = append(checks, sentenceChecksum{part: s.name, key: s.key, off: true})
			continue
		}
		ss := s.pick(corpus)
		got := SentencesSHA256(ss)
		if got != s.want {
			return nil, fmt.Errorf("%s: SHA-256 of the %s is %s, want %s (%s): the extraction or the file differs from the targets' recipe; for another text set data.sha256_all, data.sha256_train and data.sha256_test to \"\"",
				d.File, s.what, got, s.want, s.key)
		}
		matched = append(matched, s.key)
		checks = append(checks, sentenceChecksum{part: s.name, key: s.key, sentences: len(ss)})
	}
	sum := sha256.Sum256(raw)
	rec := results.DataRecord{File: d.File, SHA256: hex.EncodeToString(sum[:]), Checked: len(unset) == 0}
	switch {
	case len(unset) == 0:
		rec.Note = "extracted sentences match data.sha256_all/train/test"
		if fileKnown {
			rec.Note = "the file's SHA-256 matches the published data set, and the extracted sentences match data.sha256_all/train/test"
		}
	case fileKnown:
		rec.Note = "the file's SHA-256 matches the published data set, but the extraction was not checked: the sentence checksums " + strings.Join(unset, ", ") + " are off"
	default:
		rec.Note = "not a known data set, and the sentence checksums " + strings.Join(unset, ", ") + " are off: neither the file nor the extracted sentences were checked"
	}
	if len(matched) > 0 && len(unset) > 0 {
		rec.Note += " (" + strings.Join(matched, ", ") + " matched)"
	}
	rec.Note += fmt.Sprintf("; recipe %q", spec.Recipe)
	if n := len(corpus.Notes); n > 0 {
		rec.Note += fmt.Sprintf(" with %d fallback(s), for data.%s (see the warnings)", n, strings.Join(noteKeys(corpus.Notes), ", data."))
	}
	env.RecordData(rec)

	ad := &aliceData{trainFwd: EncodeSentences(corpus.Train, false), trainBwd: EncodeSentences(corpus.Train, true),
		testFwd: EncodeSentences(corpus.Test, false), testBwd: EncodeSentences(corpus.Test, true), checksums: checks}
	ad.testSymbols = ad.testFwd.Symbols()
	for _, s := range corpus.Test {
		ad.sentences = append(ad.sentences, s.Text)
	}
	return ad, nil
}

// sentenceChecksum is the outcome of one sentence checksum of the data
// (data.sha256_all, _train, _test): the sentences whose SHA-256 matched, or
// off when the key is "". A mismatch is an error, so it has no outcome.
type sentenceChecksum struct {
	part      string // "all", "train" or "test"
	key       string // the config key
	sentences int
	off       bool
}

// noteKeys returns the keys that ExtractSentences's notes begin with.
func noteKeys(notes []string) []string {
	var keys []string
	for _, n := range notes {
		keys = append(keys, strings.Fields(n)[0])
	}
	return keys
}
