package approx

import (
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// The criteria tables each config states (experiments.Config): Prepare
// checks them before a run computes, and the run judges the same table.

// Criteria states the criteria a run of the config judges.
func (c *OneDimConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return oneDimCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *FactorisedConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return factorisedCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *BimodalConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return bimodalCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *UnivariateConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return univariateCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *ClutterConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return clutterCriteria(c), nil
}

// Criteria states the criteria a run of the config judges.
func (c *PimaConfig) Criteria(*experiments.Env) (results.Criteria, error) { return pimaCriteria, nil }

// Criteria states the criteria a run of the config judges.
func (c *SeparableConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return separableCriteria, nil
}
