package chapter5

import (
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// The criteria tables each config states (experiments.Config): Prepare
// checks them before a run computes, and the run judges the same table.

// Criteria states the criteria a run of the config judges.
func (c *DimensionalityConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return dimensionalityCriteria(c), nil
}

// Criteria states the criteria a run of the config judges.
func (c *InputsConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return inputsCriteria(c), nil
}

// Criteria states the criteria a run of the config judges.
func (c *GenesConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return genesCriteria(c), nil
}

// Criteria states the criteria a run of the config judges.
func (c *SurrogateConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return surrogateCriteria(c), nil
}
