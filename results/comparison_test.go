package results

import (
	"math"
	"slices"
	"testing"
)

func TestLeadingNumber(t *testing.T) {
	for in, want := range map[string]float64{"88.8 ± .3": 88.8, ".5": 0.5, "12": 12, "-3.5 nats": -3.5, "∞": math.Inf(1), " 7 ": 7} {
		if got := LeadingNumber(in); got != want {
			t.Errorf("LeadingNumber(%q) = %v, want %v", in, got, want)
		}
	}
	for _, in := range []string{"≤5.7", "<40.3", "(ditto)", "", "single", "-", "."} {
		if got := LeadingNumber(in); !math.IsNaN(got) {
			t.Errorf("LeadingNumber(%q) = %v, want NaN", in, got)
		}
	}
}

func TestParseMarkdownTable(t *testing.T) {
	h, rows, err := ParseMarkdownTable("| n | BIC\\* | VB |\n|---|---|---|\n| *single* | | |\n| 10 | 1 | 2 |\n| 20 | 3 | 4 |\n")
	if err != nil || !slices.Equal(h, []string{"n", "BIC*", "VB"}) || len(rows) != 2 || !slices.Equal(rows[1], []string{"20", "3", "4"}) {
		t.Errorf("header %q, rows %q, %v", h, rows, err)
	}
	for _, bad := range []string{"", "| a | b |\n|---|---|", "| a | b |\n|---|---|\n| 1 |", "a | b\n1 | 2"} {
		if _, _, err := ParseMarkdownTable(bad); err == nil {
			t.Errorf("ParseMarkdownTable(%q): no error", bad)
		}
	}
}

func TestComparedStrings(t *testing.T) {
	for _, tc := range []struct {
		c          Compared
		ours, diff string
	}{
		{Cell("88.8 ± .3", 89.25), "89.25", "+0.45"},
		{Compared{Thesis: "1", Ref: 1, Ours: 0.5, PlusMinus: 0.04}, "0.5 ± 0.04", "-0.5"},
		{Cell("≤5.7", 3), "3", ""},
		{Cell("2", math.NaN()), "—", ""},
		{Cell("∞", math.Inf(1)), "∞", ""},
		{Compared{Thesis: "7 4 3", Ref: 7, Text: "7 4 2", Ours: math.NaN()}, "7 4 2", ""},
		{Cell("12", 12), "12", "0"},
	} {
		if got, d := tc.c.OursString(), tc.c.DiffString(); got != tc.ours || d != tc.diff {
			t.Errorf("%+v: ours %q, diff %q; want %q, %q", tc.c, got, d, tc.ours, tc.diff)
		}
	}
}
