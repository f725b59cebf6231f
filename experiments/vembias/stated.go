package vembias

import (
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// The criteria tables each config states (experiments.Config): Prepare
// checks them before a run computes, and the run judges the same table.

// Criteria states the criteria a run of the config judges.
func (c *MotivatingConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return motivatingCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *CompactnessConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return compactnessCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *SingleConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return singleCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *MapsConfig) Criteria(*experiments.Env) (results.Criteria, error) { return mapsCriteria, nil }

// Criteria states the criteria a run of the config judges.
func (c *BridgeConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return bridgeCriteria, nil
}
