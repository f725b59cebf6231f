package experiments

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// KeptCells returns the number of the job's finished cells stored in its
// results folder (cells/ under the job's config hash and this program's
// build): the cells a rerun of the job loads instead of computing, as an
// interrupted run reports them.
func (j *Job) KeptCells() int {
	files, _ := filepath.Glob(filepath.Join(j.Dir, CellDir, "*.json"))
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
