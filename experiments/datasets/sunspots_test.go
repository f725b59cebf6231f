package datasets_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/datasets"
)

// readShared reads a data file of ../shared/data through the checksum of
// experiments.KnownData, skipping when the directory is absent.
func readShared(t *testing.T, name string) []byte {
	t.Helper()
	dir := experiments.TestDataDir()
	if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
		t.Skipf("data directory %s: %v", dir, err)
	}
	b, err := experiments.ReadData(dir, name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A copy of a known file with one byte changed is refused by its
// checksum, naming the file.
func refusesWrongChecksum(t *testing.T, name string, data []byte) {
	t.Helper()
	dir := t.TempDir()
	bad := append([]byte(nil), data...)
	bad[len(bad)-2] ^= 1
	if err := os.WriteFile(filepath.Join(dir, name), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := experiments.ReadData(dir, name)
	if err == nil || !strings.Contains(err.Error(), "SHA-256") || !strings.Contains(err.Error(), name) {
		t.Errorf("a changed %s: error %v, want a refusal by its SHA-256", name, err)
	}
}

func TestReadSunspots(t *testing.T) {
	raw := readShared(t, "sunspots.csv")
	s, err := datasets.ReadSunspots("sunspots.csv", raw)
	if err != nil {
		t.Fatal(err)
	}
	// R's sunspot.year: 289 years 1700-1988, starting 5, 11, 16, 23 and
	// ending 100.2 (1988).
	if len(s.Year) != 289 || s.Year[0] != 1700 || s.Year[288] != 1988 {
		t.Fatalf("%d years %d-%d, want 289 years 1700-1988", len(s.Year), s.Year[0], s.Year[len(s.Year)-1])
	}
	for i, want := range []float64{5, 11, 16, 23} {
		if s.Value[i] != want {
			t.Errorf("year %d: %v, want %v", 1700+i, s.Value[i], want)
		}
	}
	if s.Value[288] != 100.2 {
		t.Errorf("1988: %v, want 100.2", s.Value[288])
	}
	// Weigend's split with 12 lags: 209 training patterns (targets
	// 1712-1920), 59 test patterns (1921-1979) whose first inputs are
	// 1920, 1919, …, 1909.
	x, tt, err := s.Lagged(s.Value, 12, 1712, 1920)
	if err != nil || len(x) != 209 || len(x[0]) != 12 {
		t.Fatalf("training patterns: %d, %v", len(x), err)
	}
	if x[0][0] != s.Value[11] || x[0][11] != s.Value[0] || tt[0] != s.Value[12] {
		t.Errorf("first pattern %v → %v", x[0], tt[0])
	}
	xt, _, err := s.Lagged(s.Value, 12, 1921, 1979)
	if err != nil || len(xt) != 59 || xt[0][0] != s.Value[220] || xt[0][11] != s.Value[209] {
		t.Errorf("test patterns: %d, %v", len(xt), err)
	}
	if _, _, err := s.Lagged(s.Value, 12, 1705, 1920); err == nil {
		t.Error("targets before the first 12 years were accepted")
	}
	refusesWrongChecksum(t, "sunspots.csv", raw)
	for _, bad := range []string{"year,count\n1700,5\n", "year,sunspots\n1700,5\n1702,3\n", "year,sunspots\n1700.5,5\n", "year,sunspots\n1700,-1\n"} {
		if _, err := datasets.ReadSunspots("s.csv", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "s.csv") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}
