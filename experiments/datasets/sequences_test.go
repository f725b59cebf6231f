package datasets

import (
	"strings"
	"testing"
)

func TestParseSequencesErrors(t *testing.T) {
	_, err := ParseSequences("x.txt", []byte("abc\nabd\n"), "abc")
	if err == nil || !strings.Contains(err.Error(), "x.txt:2:3") {
		t.Fatalf("unknown character: got %v, want position x.txt:2:3", err)
	}
	if _, err := ParseSequences("x.txt", []byte("\n\n"), "abc"); err == nil {
		t.Fatal("empty file accepted")
	}
	d, err := ParseSequences("x.txt", []byte("ab\r\n\nca\n"), "abc")
	if err != nil || len(d.Seqs) != 2 || d.Seqs[1][0] != 2 {
		t.Fatalf("CRLF and blank lines: %v %v", d, err)
	}
	// Non-ASCII alphabets are read as characters, not bytes.
	d, err = ParseSequences("x.txt", []byte("abé\néé\n"), "abcé")
	if err != nil || d.P != 4 || len(d.Seqs[0]) != 3 || d.Seqs[0][2] != 3 || len(d.Seqs[1]) != 2 {
		t.Fatalf("alphabet abcé: %+v %v", d, err)
	}
	if _, err := ParseSequences("x.txt", []byte("abé\naéd\n"), "abcé"); err == nil || !strings.Contains(err.Error(), "x.txt:2:3") {
		t.Fatalf("unknown character after a two-byte one: %v, want x.txt:2:3", err)
	}
}
