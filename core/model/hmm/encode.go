package hmm

import (
	"fmt"
	"unicode/utf8"
)

// Alphabet maps characters (runes) to the symbols 0, …, P−1 of a Data set,
// in the order they appear in the alphabet string.
type Alphabet struct {
	runes []rune
	index map[rune]int
}

// NewAlphabet returns the alphabet of the distinct characters of s, in
// order; "abc" maps a→0, b→1, c→2. Characters are runes, so "abcé" has
// P = 4. It is an error for s to be empty, to be invalid UTF-8 or to repeat
// a character.
func NewAlphabet(s string) (Alphabet, error) {
	if s == "" {
		return Alphabet{}, fmt.Errorf("hmm: empty alphabet")
	}
	if !utf8.ValidString(s) {
		return Alphabet{}, fmt.Errorf("hmm: alphabet %q is not valid UTF-8", s)
	}
	a := Alphabet{index: make(map[rune]int)}
	for _, r := range s {
		if _, dup := a.index[r]; dup {
			return Alphabet{}, fmt.Errorf("hmm: alphabet %q repeats %q", s, r)
		}
		a.index[r] = len(a.runes)
		a.runes = append(a.runes, r)
	}
	return a, nil
}

// P returns the number of symbols.
func (a Alphabet) P() int { return len(a.runes) }

// Encode returns the symbols of s; pos reports the 1-based character
// position of the first character outside the alphabet (0 when ok).
func (a Alphabet) Encode(s string) (y []int, pos int, err error) {
	y = make([]int, 0, len(s))
	i := 0
	for _, r := range s {
		i++
		m, ok := a.index[r]
		if !ok {
			return nil, i, fmt.Errorf("hmm: character %q at position %d is not in the alphabet %q", r, i, string(a.runes))
		}
		y = append(y, m)
	}
	return y, 0, nil
}

// Decode returns the characters of the symbols y.
func (a Alphabet) Decode(y []int) string {
	rs := make([]rune, len(y))
	for i, m := range y {
		rs[i] = a.runes[m]
	}
	return string(rs)
}

// Strings encodes one sequence per string over alphabet, for fitting a
// model to a handful of strings:
//
//	d, err := hmm.Strings("abc", "abcabc", "acbacb")
func Strings(alphabet string, seqs ...string) (Data, error) {
	a, err := NewAlphabet(alphabet)
	if err != nil {
		return Data{}, err
	}
	d := Data{P: a.P(), Seqs: make([][]int, len(seqs))}
	for i, s := range seqs {
		y, _, err := a.Encode(s)
		if err != nil {
			return Data{}, fmt.Errorf("sequence %d: %w", i, err)
		}
		d.Seqs[i] = y
	}
	return d, d.Validate()
}
