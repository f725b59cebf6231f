package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
)

// TestEveryKeyDeclaresItsRange: every numeric key and every list of every
// registered experiment's config declares its admissible values in a range
// tag beside its field (config's doc), so that config.Load checks it and
// the hostile sweep judges it. Deleting one declaration fails this test.
func TestEveryKeyDeclaresItsRange(t *testing.T) {
	for _, spec := range experiments.List() {
		if keys := config.Undeclared(reflect.TypeOf(spec.NewConfig())); len(keys) > 0 {
			t.Errorf("%s: %d keys without a range tag: %s", spec.ID, len(keys), strings.Join(keys, ", "))
		}
	}
}
