package datasets

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/vbworkbench/vbw/core/model/hmm"
)

// ParseSequences reads one sequence per line over the given alphabet (each
// character, a UTF-8 rune, of a line is one symbol; blank lines are
// skipped; a trailing '\r' is dropped). An unknown character is an error
// naming the file, line and column (in characters).
func ParseSequences(name string, data []byte, alphabet string) (hmm.Data, error) {
	a, err := hmm.NewAlphabet(alphabet)
	if err != nil {
		return hmm.Data{}, fmt.Errorf("%s: %w", name, err)
	}
	d := hmm.Data{P: a.P()}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(s) == "" {
			continue
		}
		if !utf8.ValidString(s) {
			return hmm.Data{}, fmt.Errorf("%s:%d: not valid UTF-8 text", name, line)
		}
		y, col, err := a.Encode(s)
		if err != nil {
			r, _ := utf8.DecodeRuneInString(string([]rune(s)[col-1:]))
			return hmm.Data{}, fmt.Errorf("%s:%d:%d: character %q is not in the alphabet %q", name, line, col, r, alphabet)
		}
		d.Seqs = append(d.Seqs, y)
	}
	if err := sc.Err(); err != nil {
		return hmm.Data{}, fmt.Errorf("%s: %v", name, err)
	}
	if len(d.Seqs) == 0 {
		return hmm.Data{}, fmt.Errorf("%s: no sequences", name)
	}
	return d, nil
}
