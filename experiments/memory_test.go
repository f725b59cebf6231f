package experiments

import (
	"math"
	"strings"
	"testing"
)

func TestParseMemAvailable(t *testing.T) {
	got, ok := parseMemAvailable([]byte("MemTotal:       24000000 kB\nMemFree:   100 kB\nMemAvailable:   20000000 kB\n"))
	if !ok || got != 20000000*1024 {
		t.Fatalf("got %v %v", got, ok)
	}
	if _, ok := parseMemAvailable([]byte("MemTotal: 5 kB\n")); ok {
		t.Fatal("no MemAvailable line accepted")
	}
}

func TestCheckMemory(t *testing.T) {
	saved := AvailableMemory
	defer func() { AvailableMemory = saved }()
	AvailableMemory = func() (float64, bool) { return 8 << 30, true }
	if err := CheckMemory(MemoryNeed{Bytes: 1 << 30, What: "small"}, Limits{}); err != nil {
		t.Fatal(err)
	}
	err := CheckMemory(MemoryNeed{Bytes: 5.9 * (1 << 40), What: "k = 100000"}, Limits{})
	if err == nil || !strings.Contains(err.Error(), "5.9 TiB") || !strings.Contains(err.Error(), "8.0 GiB") || !strings.Contains(err.Error(), "k = 100000") ||
		!strings.Contains(err.Error(), "-max-memory 6TiB") {
		t.Fatalf("error %v", err)
	}
	// A raised limit lets it through.
	if err := CheckMemory(MemoryNeed{Bytes: 5.9 * (1 << 40), What: "k = 100000"}, Limits{Memory: 6 << 40}); err != nil {
		t.Fatal(err)
	}
	for _, b := range []float64{math.Inf(1), math.NaN()} {
		if err := CheckMemory(MemoryNeed{Bytes: b, What: "overflow"}, Limits{}); err == nil {
			t.Fatalf("a need of %v passed", b)
		}
	}
	AvailableMemory = func() (float64, bool) { return 0, false }
	if err := CheckMemory(MemoryNeed{Bytes: 1e30, What: "unknown machine"}, Limits{}); err == nil || !strings.Contains(err.Error(), "16.0 GiB") {
		t.Fatalf("1e30 bytes on a machine of unknown size: %v", err)
	}
}

func TestFormatBytes(t *testing.T) {
	for _, c := range []struct {
		b    float64
		want string
	}{{512, "512 B"}, {1536, "1.5 KiB"}, {3 << 30, "3.0 GiB"}, {math.NaN(), "an unbounded amount"}} {
		if got := FormatBytes(c.b); got != c.want {
			t.Errorf("FormatBytes(%v) = %q, want %q", c.b, got, c.want)
		}
	}
}
