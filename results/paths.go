package results

import (
	"path/filepath"
	"strings"
)

// Names of the files in an experiment's directory.
const (
	ManifestFile = "manifest.json"
	SummaryFile  = "summary.json"
	ConfigFile   = "config.toml" // the resolved config
	RunsFile     = "runs.csv"
	TraceFile    = "trace.csv"
)

// Dir returns the directory of an experiment's results under out: the
// experiment id is a slash-separated path, so Dir("results",
// "chapter3/synthetic") is results/chapter3/synthetic.
func Dir(out, experimentID string) string {
	return filepath.Join(out, filepath.FromSlash(experimentID))
}

// ArtifactName returns the file-name stem for a thesis artefact: dots
// become underscores, so "fig3.4" gives "fig3_4" (for fig3_4.svg) and
// "table3.1" gives "table3_1".
func ArtifactName(artifact string) string {
	return strings.ReplaceAll(artifact, ".", "_")
}
