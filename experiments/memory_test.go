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
	if err := CheckMemory(MemoryNeed{Bytes: 1 << 30, What: "small"}); err != nil {
		t.Fatal(err)
	}
	err := CheckMemory(MemoryNeed{Bytes: 5.9 * (1 << 40), What: "k = 100000"})
	if err == nil || !strings.Contains(err.Error(), "5.9 TiB") || !strings.Contains(err.Error(), "8.0 GiB") || !strings.Contains(err.Error(), "k = 100000") {
		t.Fatalf("error %v", err)
	}
	if err := CheckMemory(MemoryNeed{Bytes: math.Inf(1), What: "overflow"}); err == nil {
		t.Fatal("an infinite need passed")
	}
	AvailableMemory = func() (float64, bool) { return 0, false }
	if err := CheckMemory(MemoryNeed{Bytes: 1e30, What: "unknown machine"}); err == nil {
		t.Fatal("1e30 bytes passed on a machine of unknown size")
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
