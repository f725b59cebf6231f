package chapter6

import (
	"testing"

	"github.com/vbworkbench/vbw/results"
)

// TestOursMakesExtensions: a key the thesis fixes, set otherwise in a
// config of the thesis's experiment, turns its claims into claims of ours;
// the keys [quick] reduces (restarts, AIS steps) do not.
func TestOursMakesExtensions(t *testing.T) {
	kinds := func(c *SingleConfig) (claims, exts int) {
		for _, cr := range newSingleCriteria(c).all() {
			switch cr.Kind {
			case results.KindClaim:
				claims++
			case results.KindExtension:
				exts++
			}
		}
		return claims, exts
	}
	c := DefaultSingle()
	thesisClaims, _ := kinds(&c)
	c.Scores.Restarts, c.AIS.Steps = 1, 64
	if n, _ := kinds(&c); n != thesisClaims {
		t.Errorf("fewer restarts and steps: %d claims, want the thesis's %d", n, thesisClaims)
	}
	for name, edit := range map[string]func(*SingleConfig){
		"alias_rule": func(c *SingleConfig) { c.Scores.AliasRule = "strict" },
		"em_stop":    func(c *SingleConfig) { c.Scores.EMStop = "converged" },
		"lambda":     func(c *SingleConfig) { c.Prior.Lambda = 2 },
		"true_code":  func(c *SingleConfig) { c.Model.TrueCode = "1331" },
		"e_tau":      func(c *SingleConfig) { c.AIS.ETau = 1 },
	} {
		c := DefaultSingle()
		edit(&c)
		if n, x := kinds(&c); n != 0 || x < thesisClaims {
			t.Errorf("%s set otherwise: %d claims and %d extensions, want 0 and at least %d", name, n, x, thesisClaims)
		}
	}
}
