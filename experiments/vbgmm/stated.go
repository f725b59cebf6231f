package vbgmm

import (
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// The criteria tables each config states (experiments.Config): Prepare
// checks them before a run computes, and the run judges the same table.

// Criteria states the criteria a run of the config judges.
func (c *Fig106Config) Criteria(*experiments.Env) (results.Criteria, error) {
	return fig106Criteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *Fig107Config) Criteria(*experiments.Env) (results.Criteria, error) {
	return fig107Criteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *DSouzaConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return dsouzaCriteria, nil
}

// Criteria states the criteria a run of the config judges.
func (c *LinregConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return linregCriteria, nil
}
