package experiments

import (
	"fmt"
	"path/filepath"

	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// FigureFormats are the formats every figure is saved in.
var FigureFormats = []string{"svg", "png"}

// SaveFigure renders f in every format of FigureFormats and writes each
// atomically as dir/name.<format>.
func SaveFigure(dir, name string, f plots.Figure) error {
	for _, format := range FigureFormats {
		b, err := plots.Render(f, format)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", name, format, err)
		}
		if err := results.WriteFileAtomic(filepath.Join(dir, name+"."+format), b); err != nil {
			return err
		}
	}
	return nil
}
