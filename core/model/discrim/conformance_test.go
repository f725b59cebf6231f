package discrim_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/vbworkbench/vbw/core/model/discrim"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/core/vbtest"
)

// TestModelConformance runs the conformance suite of core/vbtest on EM:
// one group with free covariances, two groups with free and with tied
// covariances, in one and three dimensions. Neither E nor M allocates.
func TestModelConformance(t *testing.T) {
	for _, c := range []struct {
		d, m   int
		groups bool
		tied   bool
	}{{1, 2, false, false}, {3, 2, false, false}, {3, 2, true, false}, {3, 3, true, true}, {1, 1, true, true}} {
		x, class := twoClasses(40, c.d, 3, 5)
		var group []int
		if c.groups {
			group = class
		}
		t.Run(fmt.Sprintf("d=%d,m=%d,groups=%v,tied=%v", c.d, c.m, c.groups, c.tied), func(t *testing.T) {
			vbtest.CheckModel(t, func() vb.Model {
				e, err := discrim.NewEM(flat(x), c.d, group, c.m, c.tied, rand.New(rand.NewPCG(1, 2)))
				if err != nil {
					t.Fatal(err)
				}
				return e
			}, vbtest.CheckOptions{})
		})
	}
}
