package chapter3

import (
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// The criteria tables each config states (experiments.Config): Prepare
// checks them before a run computes, and the run judges the same table.

// Criteria returns the criteria of Figure 3.4: some thresholds depend on
// the text, which it reads from env's data directory.
func (c *AliceConfig) Criteria(env *experiments.Env) (results.Criteria, error) {
	d, err := loadAlice(env, c)
	if err != nil {
		return nil, err
	}
	return aliceCriteria(c, d), nil
}

// Criteria states the criteria a run of the config judges.
func (c *SyntheticConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return syntheticCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *ModelOrderConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return modelOrderCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *TightnessConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return tightnessCriteria, nil
}
