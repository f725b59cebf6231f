package hmm

import (
	"slices"
	"strings"
	"testing"
)

func TestAlphabetRunes(t *testing.T) {
	a, err := NewAlphabet("abcé")
	if err != nil {
		t.Fatal(err)
	}
	if a.P() != 4 {
		t.Fatalf("P = %d, want 4 (runes, not bytes)", a.P())
	}
	y, _, err := a.Encode("éabé")
	if err != nil || !slices.Equal(y, []int{3, 0, 1, 3}) {
		t.Fatalf("Encode = %v, %v", y, err)
	}
	if got := a.Decode(y); got != "éabé" {
		t.Fatalf("Decode = %q", got)
	}
	if _, pos, err := a.Encode("abxc"); err == nil || pos != 3 || !strings.Contains(err.Error(), "position 3") {
		t.Fatalf("unknown character: pos %d, %v", pos, err)
	}
	for _, bad := range []string{"", "aba", "a\xffb"} {
		if _, err := NewAlphabet(bad); err == nil {
			t.Errorf("alphabet %q accepted", bad)
		}
	}
}

func TestStrings(t *testing.T) {
	d, err := Strings("ab", "abba", "b")
	if err != nil || d.P != 2 || len(d.Seqs) != 2 || !slices.Equal(d.Seqs[0], []int{0, 1, 1, 0}) {
		t.Fatalf("Strings = %+v, %v", d, err)
	}
	if _, err := Strings("ab", "abc"); err == nil || !strings.Contains(err.Error(), "sequence 0") {
		t.Fatalf("bad character: %v", err)
	}
	if _, err := Strings("ab", "ab", ""); err == nil {
		t.Fatal("empty sequence accepted")
	}
}
