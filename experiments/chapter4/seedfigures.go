package chapter4

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// This file draws the figures of the seed searches, chapter4/lattice
// (Figure 4.3) and chapter4/spiral (Figures 4.5-4.7), from the data and
// snapshots of seed 0 that writeSeedOutputs stores.

// seedZero is what a seed search stores of seed 0 for its figures
// (writeSeedOutputs): params.csv, with the data and the snapshots, and
// the first three coordinates of the data (z nil in 2-D).
type seedZero struct {
	t       results.Table
	x, y, z []float64
}

// readSeedZero reads seed 0's data from params.csv in dir.
func readSeedZero(dir string) (seedZero, error) {
	t, err := results.ReadCSV(filepath.Join(dir, experiments.ParamsFile))
	if err != nil {
		return seedZero{}, err
	}
	data, err := experiments.ReadMatrix(t, seedZeroRun, "data", "points")
	if err != nil {
		return seedZero{}, err
	}
	n, p := data.Dims()
	s := seedZero{t: t, x: make([]float64, n), y: make([]float64, n)}
	if p > 2 {
		s.z = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		s.x[i], s.y[i] = data.At(i, 0), data.At(i, 1)
		if p > 2 {
			s.z[i] = data.At(i, 2)
		}
	}
	return s, nil
}

// seedZeroRun is seed 0's run name in params.csv.
const seedZeroRun = "s00"

// snapshotPanels draws every stored snapshot over the points (x, y) as
// ellipses of sd standard deviations in the plane of coordinates 0 and 1
// (p is the data dimension).
func (s seedZero) snapshotPanels(p int, sd float64) ([]*plot.Plot, error) {
	t, x, y := s.t, s.x, s.y
	cs, err := t.Col("source")
	if err != nil {
		return nil, err
	}
	var epochs []string
	seen := map[string]bool{}
	for _, row := range t.Rows {
		if src := row[cs]; len(src) > 5 && src[:5] == "epoch" && !seen[src] {
			seen[src] = true
			epochs = append(epochs, src)
		}
	}
	sort.Strings(epochs)
	var panels []*plot.Plot
	for _, e := range epochs {
		means, err1 := experiments.ReadMatrix(t, seedZeroRun, e, "means")
		covs, err2 := experiments.ReadMatrix(t, seedZeroRun, e, "covs")
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s: snapshot %s: %v %v", experiments.ParamsFile, e, err1, err2)
		}
		S, _ := means.Dims()
		ells := make([]plots.Ellipse, S)
		for s := 0; s < S; s++ {
			ells[s] = plots.Ellipse{X: means.At(s, 0), Y: means.At(s, 1), XX: covs.At(s, 0), XY: covs.At(s, 1), YY: covs.At(s, p+1), SD: sd}
		}
		ep, _ := strconv.Atoi(e[5:])
		pl, err := plots.ScatterEllipses(plots.Axes{Title: fmt.Sprintf("after %d accepted epochs (%d analysers)", ep, S), XLabel: "x", YLabel: "y"}, x, y, ells)
		if err != nil {
			return nil, err
		}
		panels = append(panels, pl)
	}
	return panels, nil
}

// PlotLattice draws Figure 4.3: (a) the data, then the model after the
// snapshot epochs (2-s.d. ellipses).
func PlotLattice(dir string) error {
	s, err := readSeedZero(dir)
	if err != nil {
		return err
	}
	pa, err := plots.ScatterEllipses(plots.Axes{Title: "(a) the data", XLabel: "x", YLabel: "y"}, s.x, s.y, nil)
	if err != nil {
		return err
	}
	rest, err := s.snapshotPanels(2, 2)
	if err != nil {
		return err
	}
	panels := append([]*plot.Plot{pa}, rest...)
	cols := min(len(panels), 3)
	return experiments.SaveFigure(dir, "fig4_3", plots.Figure{Rows: (len(panels) + cols - 1) / cols, Cols: cols, Panels: panels,
		Title: "Figure 4.3: 18 Gaussians in 2-D, the model after accepted epochs (2-s.d. ellipses, seed 0)"})
}

// PlotSpiral draws Figures 4.5-4.7 from params.csv and fig4_7.csv.
func PlotSpiral(dir string) error {
	s, err := readSeedZero(dir)
	if err != nil {
		return err
	}
	pa, err := plots.ScatterEllipses(plots.Axes{Title: "(a) x-y", XLabel: "x", YLabel: "y"}, s.x, s.y, nil)
	if err != nil {
		return err
	}
	pb, err := plots.ScatterEllipses(plots.Axes{Title: "(b) x-z", XLabel: "x", YLabel: "z"}, s.x, s.z, nil)
	if err != nil {
		return err
	}
	if err := experiments.SaveFigure(dir, "fig4_5", plots.Figure{Rows: 1, Cols: 2, Panels: []*plot.Plot{pa, pb},
		Title: "Figure 4.5: the spiral data (seed 0)"}); err != nil {
		return err
	}
	// Figure 4.6: the analysers after the snapshot epochs, x-y projection.
	panels, err := s.snapshotPanels(3, 1)
	if err != nil {
		return err
	}
	if len(panels) > 0 {
		cols := min(len(panels), 2)
		if err := experiments.SaveFigure(dir, "fig4_6", plots.Figure{Rows: (len(panels) + cols - 1) / cols, Cols: cols, Panels: panels,
			Title: "Figure 4.6: the analysers (1-s.d. ellipses of E[ΛΛᵀ] + Ψ, x-y projection), seed 0"}); err != nil {
			return err
		}
	}
	// Figure 4.7: F against sweeps, accepted and rejected epochs.
	pt, err := results.ReadCSV(filepath.Join(dir, "fig4_7.csv"))
	if err != nil {
		return err
	}
	// The accepted path as one series; each rejected epoch as its own
	// (unnamed) series so that no line joins two of them. The first
	// sweep, the bound of the hand-built start, is left out: it is
	// thousands of nats below the rest.
	acc := plots.Series{Name: "accepted epochs"}
	var rejected []plots.Series
	cSeed, e1 := pt.Col("seed")
	cSweep, e2 := pt.Col("sweep")
	cF, e3 := pt.Col("F")
	cAcc, e4 := pt.Col("accepted")
	cEp, e5 := pt.Col("epoch")
	for _, e := range []error{e1, e2, e3, e4, e5} {
		if e != nil {
			return e
		}
	}
	lastEpoch := ""
	for i, row := range pt.Rows {
		if row[cSeed] != "0" || row[cSweep] == "0" {
			continue
		}
		sw, err1 := pt.Float(i, cSweep)
		f, err2 := pt.Float(i, cF)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("fig4_7.csv: %v %v", err1, err2)
		}
		if row[cAcc] == "1" {
			acc.X, acc.Y = append(acc.X, sw), append(acc.Y, f)
			continue
		}
		if row[cEp] != lastEpoch {
			rejected = append(rejected, plots.Series{})
			lastEpoch = row[cEp]
		}
		r := &rejected[len(rejected)-1]
		r.X, r.Y = append(r.X, sw), append(r.Y, f)
	}
	if len(rejected) > 0 {
		rejected[0].Name = "rejected epochs"
	}
	series := append([]plots.Series{acc}, rejected...)
	p7, _, err := plots.Lines(plots.Axes{Title: "F against sweeps (seed 0)", XLabel: "sweep", YLabel: "F (nats)"}, series...)
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "fig4_7", plots.Figure{Rows: 1, Cols: 1, Panels: []*plot.Plot{p7},
		Title: "Figure 4.7: the bound F through the search"})
}
