package chapter3

import (
	"fmt"
	"math/rand/v2"
	"unicode/utf8"

	"github.com/vbworkbench/vbw/core/model/hmm"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/experiments/datasets"
)

// This file is the data of the synthetic-data experiments
// (chapter3/synthetic, chapter3/synthetic-grammar, chapter3/model-order,
// chapter3/tightness): the [data] keys, the three-grammar generator and
// the loader.

// GrammarSpec describes the three-grammar generator reconstructed in the
// targets (§E3.1): the thesis's own list of example strings is missing from
// the seed text (L2123).
type GrammarSpec struct {
	PerGrammar int     // sequences per grammar (7, giving 21)
	MinLength  int     // lengths uniform on {MinLength, …, MaxLength}
	MaxLength  int     // "maximum length 39" (L2125)
	ABProb     float64 // probability of a in (a*b*)*
	// RandomPhase starts the two cycles at a uniformly chosen symbol;
	// otherwise they start at a.
	RandomPhase bool
}

// Generate draws PerGrammar sequences from each of (abc)*, (acb)* and
// (a*b*)* over {a=0, b=1, c=2}, in that order: contiguous substrings of the
// two cycles (a→b→c→a and a→c→b→a) and i.i.d. a/b symbols for the third
// (Beal 2003 section 3.5.1, L2123-L2125).
func (g GrammarSpec) Generate(rnd *rand.Rand) hmm.Data {
	d := hmm.Data{P: 3}
	length := func() int { return g.MinLength + rnd.IntN(g.MaxLength-g.MinLength+1) }
	cycles := [][3]int{{0, 1, 2}, {0, 2, 1}}
	for _, cyc := range cycles {
		for i := 0; i < g.PerGrammar; i++ {
			y := make([]int, length())
			phase := 0
			if g.RandomPhase {
				phase = rnd.IntN(3)
			}
			for t := range y {
				y[t] = cyc[(phase+t)%3]
			}
			d.Seqs = append(d.Seqs, y)
		}
	}
	for i := 0; i < g.PerGrammar; i++ {
		y := make([]int, length())
		for t := range y {
			if rnd.Float64() >= g.ABProb {
				y[t] = 1
			}
		}
		d.Seqs = append(d.Seqs, y)
	}
	return d
}

// SyntheticData says where the training sequences come from.
type SyntheticData struct {
	// File names a one-sequence-per-line file in the data directory (an
	// absolute path is used as is). Default "abc21.txt", the thesis's own 21
	// strings. Ignored when Generator is set.
	File string `toml:"file"`
	// Alphabet maps characters to symbols 0..p−1. Default "abc".
	Alphabet string `toml:"alphabet" range:"len=1.."`
	// Generator, if "grammar3", draws the data from the reconstructed
	// three-grammar generator instead of reading File (targets §E3.1).
	Generator string `toml:"generator"`
	// Datasets is the number of independent generated data sets (data
	// seeds). It must be 1 when the data come from a file.
	Datasets int `toml:"datasets" range:"[1,1e6]"`
	// SequencesPerGrammar, MinLength, MaxLength, ABProb and RandomPhase set
	// up the generator: 7 per grammar, lengths uniform on 10..39 (max_length
	// ≥ min_length), P(a) = ½, a probability in (0, 1) so that (a*b*)* has
	// both symbols.
	SequencesPerGrammar int     `toml:"sequences_per_grammar" range:"[1,1e6]"`
	MinLength           int     `toml:"min_length" range:"[1,1e6]"`
	MaxLength           int     `toml:"max_length" range:"[1,1e6]"`
	ABProb              float64 `toml:"ab_prob" range:"(0,1)"`
	RandomPhase         bool    `toml:"random_phase"`
}

// validate checks the data keys.
func (d SyntheticData) validate() error {
	switch d.Generator {
	case "":
		if d.File == "" {
			return config.FieldError("data.file", d.File, "must name a file when data.generator is not set")
		}
		if d.Datasets != 1 {
			return config.FieldError("data.datasets", d.Datasets, "must be 1 when the data come from a file")
		}
	case "grammar3":
		if d.Alphabet != "abc" {
			return config.FieldError("data.alphabet", d.Alphabet, `must be "abc" for generator "grammar3"`)
		}
		if d.MaxLength < d.MinLength {
			return config.FieldError("data.max_length", d.MaxLength, fmt.Sprintf("must be ≥ min_length = %d", d.MinLength))
		}
	default:
		return config.FieldError("data.generator", d.Generator, `must be "" (read data.file) or "grammar3"`)
	}
	return nil
}

// loadSyntheticData returns the data sets described by d; generated sets
// draw from streams named by the experiment ID and the data set's index.
func loadSyntheticData(env *experiments.Env, d SyntheticData, seed uint64, id string) ([]hmm.Data, error) {
	if d.Generator == "" {
		raw, err := env.ReadData(d.File)
		if err != nil {
			return nil, err
		}
		data, err := datasets.ParseSequences(d.File, raw, d.Alphabet)
		if err != nil {
			return nil, err
		}
		return []hmm.Data{data}, nil
	}
	g := GrammarSpec{PerGrammar: d.SequencesPerGrammar, MinLength: d.MinLength, MaxLength: d.MaxLength,
		ABProb: d.ABProb, RandomPhase: d.RandomPhase}
	sets := make([]hmm.Data, d.Datasets)
	for i := range sets {
		sets[i] = g.Generate(rng.New(seed, id, "data", fmt.Sprint(i)))
	}
	for i, s := range sets {
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("data set %d: %w", i, err)
		}
	}
	return sets, nil
}

// pOf returns the alphabet size.
func (d SyntheticData) pOf() int { return utf8.RuneCountInString(d.Alphabet) }
