package vbw_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// dataValue is a config value that names a data file in the data
// directory: file = "abc21.txt", train = "optdigits.tra".
var dataValue = regexp.MustCompile(`(?m)^\s*[a-z_]+\s*=\s*"([A-Za-z0-9_.-]+\.(?:txt|csv|tra|tes))"`)

// TestDataTableComplete: every data file a shipped config reads has a row
// in the README's Data table (| `file` | …), naming the experiment of
// every config that reads it.
func TestDataTableComplete(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, data, ok := strings.Cut(string(readme), "\n## Data\n")
	if !ok {
		t.Fatal("README.md has no section ## Data")
	}
	data, _, _ = strings.Cut(data, "\n## ")
	rows := map[string]string{}
	for _, line := range strings.Split(data, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		for _, m := range regexp.MustCompile("^\\| ([^|]+)\\|").FindStringSubmatch(line)[1:] {
			for _, f := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(m, -1) {
				rows[f[1]] = line
			}
		}
	}
	configs, _ := filepath.Glob(filepath.Join("configs", "*", "*.toml"))
	if len(configs) == 0 {
		t.Fatal("no configs/*/*.toml")
	}
	idOf := regexp.MustCompile(`(?m)^experiment\s*=\s*"([^"]+)"`)
	files := 0
	for _, c := range configs {
		text, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		id := idOf.FindStringSubmatch(string(text))
		for _, m := range dataValue.FindAllStringSubmatch(string(text), -1) {
			files++
			row, ok := rows[m[1]]
			switch {
			case !ok:
				t.Errorf("%s reads %s, which has no row in README's Data table", c, m[1])
			case id != nil && !strings.Contains(row, id[1]):
				t.Errorf("%s (experiment %s) reads %s, but its row in README's Data table does not name the experiment: %s", c, id[1], m[1], row)
			}
		}
	}
	if files == 0 {
		t.Fatal("no shipped config names a data file: the pattern no longer matches the configs")
	}
}
