package experiments

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/vbworkbench/vbw/results"
)

// CellsDir returns the folder that holds the job's finished cells: cells/
// in its results folder's state directory (results.Folder.StateDir).
func (j *Job) CellsDir() string {
	return filepath.Join(results.OpenFolder(j.Dir).StateDir(), CellDir)
}

// KeptCells returns the number of the job's finished cells stored in its
// results folder's state (CellsDir; cells keyed by the job's config hash and
// this program's build): the cells a rerun of the job loads instead of computing, as an
// interrupted run reports them.
func (j *Job) KeptCells() int {
	files, _ := filepath.Glob(filepath.Join(j.CellsDir(), "*.json"))
	key := j.hash + "-" + BuildID()
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var sc storedCell
		if json.Unmarshal(data, &sc) == nil && sc.Hash == key {
			n++
		}
	}
	return n
}
