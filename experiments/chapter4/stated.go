package chapter4

import (
	"fmt"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// The criteria tables each config states (experiments.Config): Prepare
// checks them before a run computes, and the run judges the same table.

// Criteria states the criteria a run of the config judges.
func (c *SeedSearchConfig[D]) Criteria(*experiments.Env) (results.Criteria, error) {
	switch c := any(c).(type) {
	case *LatticeConfig:
		return latticeCriteria(c), nil
	case *SpiralConfig:
		return spiralCriteria, nil
	}
	return nil, fmt.Errorf("chapter4: no criteria for a %T", c)
}

// Criteria states the criteria a run of the config judges.
func (c *DigitExamplesConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return digitExamplesCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *EmbeddedConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return embeddedCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *UnsupervisedConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return unsupervisedCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *ClassifyConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return classifyCriteria(c), nil
}

// Criteria states the criteria a run of the config judges.
func (c *ISTightnessConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return isTightnessCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *ISSamplersConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return samplersCriteria(c), nil
}

// Criteria states the criteria a run of the config judges.
func (c *ISHazardConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return hazardCriteria(c), nil
}
