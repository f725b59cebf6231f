package chapter6

import (
	"slices"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// The criteria tables each config states (experiments.Config): Prepare
// checks them before a run computes, and the run judges the same table.

// Criteria states the criteria a run of the config judges.
func (c *SingleConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return newSingleCriteria(c).all(), nil
}

// Criteria states the criteria a run of the config judges.
func (c *PriorConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return newPriorCriteria(c).all(), nil
}

// Criteria states the criteria a run of the config judges.
func (c *GranularityConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return granularityCriteria(c), nil
}

// Criteria states the criteria a run of the config judges.
func (c *DimsConfig) Criteria(*experiments.Env) (results.Criteria, error) { return dimsCriteria, nil }

// Criteria states the criteria a run of the config judges.
func (c *SchedulesConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	fig613, hyst := schedulesCriteria(c)
	return slices.Concat(fig613, hyst), nil
}
