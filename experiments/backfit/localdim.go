package backfit

// backfit/localdim: D'Souza (2004) Fig. 3.6 (L827, section 3.1.3): a
// mixture of variational Bayesian factor analysers with ARD on each
// analyser's loadings finds the local dimensionality of data that are
// 3-dimensional as a whole: here (his toy is not described) a line segment
// (1-D) and a square plane patch (2-D) apart from it, with isotropic noise.
// The mixture is grown by Beal's birth/death search from one analyser
// (core/model/mfa; Beal (2003) section 4.3), with up to 3 factors per
// analyser so that ARD, not a ceiling, sets each dimensionality.

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// LocalDimID is D'Souza's Fig. 3.6.
const LocalDimID = "backfit/localdim"

func init() {
	experiments.Add(LocalDimID, "D'Souza Fig. 3.6: local dimensionality of a line and a plane patch by a mixture of VB factor analysers",
		DefaultLocalDim, RunLocalDim, PlotLocalDim)
}

// LocalDimData is the [data] table: NLine points uniform on a segment of
// length LineLength through the origin along (1, 1, 1)/√3, NPatch points
// uniform on the square of side PatchSide centred at (PatchOffset, 0, 0)
// in the plane x = PatchOffset, each coordinate plus N(0, NoiseSD²)
// noise; the points alternate between the pieces (line first).
type LocalDimData struct {
	NLine       int     `toml:"n_line" range:"[1,1e6]"`
	NPatch      int     `toml:"n_patch" range:"[1,1e6]"`
	LineLength  float64 `toml:"line_length" range:"(0,1e4]"`
	PatchSide   float64 `toml:"patch_side" range:"(0,1e4]"`
	PatchOffset float64 `toml:"patch_offset" range:"[0,1e4]"`
	NoiseSD     float64 `toml:"noise_sd" range:"[1e-6,1e3]"`
}

// Generate draws the n×3 data and each point's piece (0 the line, 1 the
// patch).
func (g LocalDimData) Generate(seed uint64, name string, i int) (*mat.Dense, []int) {
	r := rng.New(seed, name, "data", strconv.Itoa(i))
	n := g.NLine + g.NPatch
	X := mat.NewDense(n, 3, nil)
	piece := make([]int, n)
	var nl, np int
	for row := range n {
		line := np >= g.NPatch || (nl < g.NLine && nl <= np)
		u, v := r.Float64()-0.5, r.Float64()-0.5
		var p [3]float64
		if line {
			l := g.LineLength * u / math.Sqrt(3)
			p = [3]float64{l, l, l}
			nl++
		} else {
			p = [3]float64{g.PatchOffset, g.PatchSide * u, g.PatchSide * v}
			piece[row] = 1
			np++
		}
		for q := range 3 {
			X.Set(row, q, p[q]+g.NoiseSD*r.NormFloat64())
		}
	}
	return X, piece
}

// LocalDimConfig is the config of backfit/localdim.
type LocalDimConfig struct {
	experiments.Common
	Restarts int          `toml:"restarts" range:"[1,1e4]"`
	Data     LocalDimData `toml:"data"`
	MFA      SpiralMFA    `toml:"mfa"`
	// Tau is the ARD threshold: a column of an analyser's loadings is
	// active when E‖Λ_{·l}‖² ≥ tau, in z-scored units (targets ch4-mfa.md
	// §1.8's τ_dim).
	Tau float64 `toml:"tau" range:"(0,1e3]"`
	// Fraction is the share of a piece's points that must sit in
	// analysers of its dimensionality (1 for the line, 2 for the patch)
	// for a seed to find it.
	Fraction float64 `toml:"fraction" range:"(0,1]"`
	// FinalIterations is a run of exactly this many iterations of the
	// final structure after the search (with the [vb] hyperparameter
	// schedule), 0 for none: the search's epochs end when the
	// responsibilities settle and ΔF is below search.dF_tol_per_datum,
	// while a redundant second column along a line is pruned by ARD only
	// slowly (F still rising by tens of nats over 10⁴ iterations).
	FinalIterations int                   `toml:"final_iterations" range:"[0,1e7]"`
	Search          config.SearchSettings `toml:"search"`
	VB              config.FitSettings    `toml:"vb"`
}

// DefaultLocalDim returns the settings of configs/backfit/localdim.toml.
func DefaultLocalDim() LocalDimConfig {
	sp := DefaultSpiral()
	return LocalDimConfig{Common: experiments.Common{Seed: 3601}, Restarts: 10,
		Data: LocalDimData{NLine: 400, NPatch: 400, LineLength: 6, PatchSide: 4, PatchOffset: 5, NoiseSD: 0.05},
		MFA:  SpiralMFA{KMax: 3, AStar: mfa.DefaultA, BStar: 0.01}, Tau: 0.1, Fraction: 0.9, FinalIterations: 30000,
		Search: sp.Search, VB: sp.VB}
}

// Validate checks what relates keys.
func (c *LocalDimConfig) Validate() error {
	return config.FirstError(c.Search.Validate(), c.VB.Validate("vb", new(mfa.VB).HyperGroups()))
}

// Estimate counts the searches' iterations at the budget, over n points
// and up to 40 analysers of k_max factors.
func (c *LocalDimConfig) Estimate() experiments.Cost {
	seeds := experiments.Key("restarts", c.Restarts)
	n := experiments.KeyN("data.n_line", c.Data.NLine, float64(c.Data.NLine+c.Data.NPatch), "points (n_line + n_patch)")
	comps := experiments.Fixed(40, "analysers (bound)")
	return experiments.Cost{Cells: []experiments.Factor{seeds},
		Memory:     []experiments.Part{experiments.Words("data", n, experiments.Fixed(3, "dimensions"))},
		CellMemory: []experiments.Part{experiments.Words("responsibilities, factors and snapshots", n, comps, experiments.Fixed(24, "values"))},
		Work: []experiments.Part{experiments.Ops("VB-MFA search", 400, seeds,
			experiments.Key("search.max_total_iterations", c.Search.MaxTotalIterations), n, comps, experiments.Key("mfa.k_max", c.MFA.KMax)),
			experiments.Ops("final run", 400, seeds, experiments.Key("final_iterations", c.FinalIterations), n, comps, experiments.Key("mfa.k_max", c.MFA.KMax))}}
}

// Criteria states the criteria a run of the config judges.
func (c *LocalDimConfig) Criteria(*experiments.Env) (results.Criteria, error) {
	return localDimCriteria(c.Fraction), nil
}

func localDimCriteria(frac float64) results.Criteria {
	return results.Criteria{
		results.Criterion{ID: "search-status", Text: "searches that ended abnormally", Target: results.Equal(0)}.AsSanity(),
		results.Criterion{ID: "dsouza3.6-local-dims", Text: fmt.Sprintf("fraction of seeds at which at least %g of the line's points sit in analysers of dimensionality 1 and of the patch's in analysers of dimensionality 2", frac), Target: results.AtLeast(0.8)}.
			AsClaim("\"the data is clearly 3-dimensional, with strong evidence for local 1-dimensional, and 2-dimensional structure\"", "L827"),
		results.Criterion{ID: "localdim-no-straddle", Text: "analysers, over all seeds, with more than 10% of their responsibility from each piece", Target: results.Equal(0)}.AsExtension(),
	}
}

// LocalDimAnalyser is one analyser (with at least one point) at the end
// of a search.
type LocalDimAnalyser struct {
	Count     experiments.Float   `json:"count"`
	LineMass  experiments.Float   `json:"line_mass"`
	PatchMass experiments.Float   `json:"patch_mass"`
	Dims      int                 `json:"dims"`
	Energies  []experiments.Float `json:"energies"`
	// Mean and Cov are E[μ] and E[Λ]E[Λ]ᵀ + Ψ (z-scored units).
	Mean []experiments.Float `json:"mean"`
	Cov  []experiments.Float `json:"cov"`
}

// LocalDimCell is one seed.
type LocalDimCell struct {
	Status     string             `json:"status"`
	F          experiments.Float  `json:"f"`
	Iterations int                `json:"iterations"`
	Analysers  []LocalDimAnalyser `json:"analysers"`
	// LineDims and PatchDims count each piece's points by the
	// dimensionality of the analyser that holds them (largest q(s)),
	// index 0 … k_max.
	LineDims  []int `json:"line_dims"`
	PatchDims []int `json:"patch_dims"`
	// Points and Pieces are seed 0's z-scored data, for the figure.
	Points []experiments.Float `json:"points,omitempty"`
	Pieces []int               `json:"pieces,omitempty"`
}

func localDimSeed(env *experiments.Env, c *LocalDimConfig, i int) (LocalDimCell, error) {
	var cell LocalDimCell
	X, piece := c.Data.Generate(c.Seed, c.Experiment, i)
	z, _, _, err := numeric.Standardise(X, nil, numeric.DropConstant)
	if err != nil {
		return cell, err
	}
	n, p := z.Dims()
	ones := mat.NewDense(n, 1, nil)
	for r := range n {
		ones.Set(r, 0, 1)
	}
	m, err := mfa.NewVB(z, ones, c.MFA.settings())
	if err != nil {
		return cell, err
	}
	m.Moves = mfaMoves(c.Search, rng.New(c.Seed, c.Experiment, "births", strconv.Itoa(i)))
	res := c.Search.Search(m, c.VB.Settings(env.Stop, m), nil)
	if res.Status == vb.Canceled {
		return cell, res.Err
	}
	if c.FinalIterations > 0 && res.Status.OK() {
		final := config.FixedBudget(c.FinalIterations)
		final.MonotoneTol, final.Hyper = c.VB.MonotoneTol, c.VB.Hyper
		r := vb.Run(m, final.Settings(env.Stop, m))
		if r.Status == vb.Canceled {
			return cell, r.Err
		}
		res.Status, res.F, res.Iterations = r.Status, r.F, res.Iterations+r.Iterations
	}
	cell.Status, cell.F, cell.Iterations = res.Status.String(), experiments.Float(res.F), res.Iterations
	resp := m.Resp()
	counts := m.Counts()
	dims := make([]int, len(counts))
	for s, cnt := range counts {
		dims[s] = m.ActiveDims(s, c.Tau)
		if cnt < 1 {
			continue
		}
		a := LocalDimAnalyser{Count: experiments.Float(cnt), Dims: dims[s], Energies: experiments.Floats(m.ColumnEnergies(s))}
		for r := range n {
			if piece[r] == 0 {
				a.LineMass += experiments.Float(resp.At(r, s))
			} else {
				a.PatchMass += experiments.Float(resp.At(r, s))
			}
		}
		L := m.Loadings(s).MeanTo(nil)
		k := L.RawMatrix().Cols - 1
		cov := make([]float64, p*p)
		for a1 := range p {
			a.Mean = append(a.Mean, experiments.Float(L.At(a1, k)))
			for b := range p {
				for l := range k {
					cov[a1*p+b] += L.At(a1, l) * L.At(b, l)
				}
			}
			cov[a1*p+a1] += m.Hyper.Psi[a1]
		}
		a.Cov = experiments.Floats(cov)
		cell.Analysers = append(cell.Analysers, a)
	}
	cell.LineDims, cell.PatchDims = make([]int, c.MFA.KMax+1), make([]int, c.MFA.KMax+1)
	for r := range n {
		best := 0
		for s := range counts {
			if resp.At(r, s) > resp.At(r, best) {
				best = s
			}
		}
		if piece[r] == 0 {
			cell.LineDims[dims[best]]++
		} else {
			cell.PatchDims[dims[best]]++
		}
	}
	if i == 0 {
		cell.Points, cell.Pieces = experiments.Floats(z.RawMatrix().Data), piece
	}
	return cell, nil
}

// RunLocalDim runs the seeds and writes localdim_analysers.csv,
// localdim_dims.csv (each piece's points by the dimensionality of their
// analyser), localdim_points.csv (seed 0), the summary and the figure.
func RunLocalDim(env *experiments.Env, c *LocalDimConfig) error {
	cells, complete, err := runSeeds(env, c.Restarts, func(i int) (LocalDimCell, error) { return localDimSeed(env, c, i) })
	if err != nil || !complete {
		return err
	}
	cols := []string{"seed", "analyser", "count", "line_mass", "patch_mass", "dims", "mean_y", "mean_z", "cyy", "cyz", "czz"}
	for l := range c.MFA.KMax {
		cols = append(cols, "energy_"+strconv.Itoa(l+1))
	}
	at := results.NewTable(cols...)
	dt := results.NewTable("seed", "piece", "dims", "points")
	var abnormal, found, straddle int
	var lineDim, patchDim, nAn []float64
	for i, cell := range cells {
		if cell.Status != vb.Converged.String() && cell.Status != vb.IterationLimit.String() {
			abnormal++
		}
		for s, a := range cell.Analysers {
			row := []any{i, s, float64(a.Count), float64(a.LineMass), float64(a.PatchMass), a.Dims,
				float64(a.Mean[1]), float64(a.Mean[2]), float64(a.Cov[4]), float64(a.Cov[5]), float64(a.Cov[8])}
			for l := range c.MFA.KMax {
				e := math.NaN()
				if l < len(a.Energies) {
					e = float64(a.Energies[l])
				}
				row = append(row, e)
			}
			at.AddRow(row...)
			if tot := a.LineMass + a.PatchMass; a.LineMass > 0.1*tot && a.PatchMass > 0.1*tot {
				straddle++
			}
		}
		nAn = append(nAn, float64(len(cell.Analysers)))
		var ld, pd, nl, np float64
		for d := range cell.LineDims {
			dt.AddRow(i, "line", d, cell.LineDims[d])
			dt.AddRow(i, "patch", d, cell.PatchDims[d])
			ld += float64(d * cell.LineDims[d])
			pd += float64(d * cell.PatchDims[d])
			nl += float64(cell.LineDims[d])
			np += float64(cell.PatchDims[d])
		}
		lineDim, patchDim = append(lineDim, ld/nl), append(patchDim, pd/np)
		if float64(cell.LineDims[1]) >= c.Fraction*nl && len(cell.PatchDims) > 2 && float64(cell.PatchDims[2]) >= c.Fraction*np {
			found++
		}
	}
	pt := results.NewTable("x", "y", "z", "piece")
	c0 := cells[0]
	for r, pc := range c0.Pieces {
		pt.AddRow(float64(c0.Points[3*r]), float64(c0.Points[3*r+1]), float64(c0.Points[3*r+2]), pc)
	}
	for name, t := range map[string]*results.Table{"localdim_analysers.csv": at, "localdim_dims.csv": dt, "localdim_points.csv": pt} {
		if err := results.WriteCSV(env.Path(name), *t); err != nil {
			return err
		}
	}
	crit := localDimCriteria(c.Fraction)
	s := results.Summary{Criteria: crit}
	s.SetMetric("localdim_line_dim", results.Median(lineDim))
	s.SetMetric("localdim_patch_dim", results.Median(patchDim))
	s.SetMetric("localdim_analysers", results.Median(nAn))
	s.Judge(crit.Get("search-status"), float64(abnormal))
	s.Judge(crit.Get("dsouza3.6-local-dims"), float64(found)/float64(len(cells)), fmt.Sprintf("%d of %d seeds", found, len(cells)))
	s.Judge(crit.Get("localdim-no-straddle"), float64(straddle))
	s.Claims = []results.Claim{{Artifact: "Figure 3.6", Figures: []string{"dsouza_fig3_6"}, Checks: []string{"dsouza3.6-local-dims"},
		Statement: "a mixture of VB factor analysers finds the local 1-D and 2-D structure of 3-D data"}}
	s.Findings = append(s.Findings, fmt.Sprintf("over %d seeds, median %g analysers; mean local dimensionality of the line's points %.2f and of the patch's %.2f (medians over seeds)",
		len(cells), results.Median(nAn), results.Median(lineDim), results.Median(patchDim)))
	s.AddFindingsFromChecks(nil)
	if err := env.WriteSummary(&s, "D'Souza Fig. 3.6 (L827): local dimensionality by a mixture of VB factor analysers on a line and a plane patch in 3-D."); err != nil {
		return err
	}
	return PlotLocalDim(env.Dir)
}

// PlotLocalDim draws dsouza_fig3_6: (a) seed 0's z-scored data seen along
// x (the patch face on, the line across it) with each analyser's 2-sd
// ellipse of the (y, z) block of E[Λ]E[Λ]ᵀ + Ψ, and (b) each piece's
// points over all seeds by the dimensionality of their analyser.
func PlotLocalDim(dir string) error {
	pts := results.ReadColumns(filepath.Join(dir, "localdim_points.csv"))
	ys, zs := pts.Floats("y"), pts.Floats("z")
	an := results.ReadColumns(filepath.Join(dir, "localdim_analysers.csv"))
	seed, my, mz, cyy, cyz, czz := an.Floats("seed"), an.Floats("mean_y"), an.Floats("mean_z"), an.Floats("cyy"), an.Floats("cyz"), an.Floats("czz")
	dimsCol := an.Floats("dims")
	dt := results.ReadColumns(filepath.Join(dir, "localdim_dims.csv"))
	piece, dd, cnt := dt.Strings("piece"), dt.Floats("dims"), dt.Floats("points")
	if err := config.FirstError(pts.Err(), an.Err(), dt.Err()); err != nil {
		return err
	}
	var ells []plots.Ellipse
	var dims []string
	for r := range seed {
		if seed[r] == 0 {
			ells = append(ells, plots.Ellipse{X: my[r], Y: mz[r], XX: cyy[r], XY: cyz[r], YY: czz[r], SD: 2})
			dims = append(dims, strconv.Itoa(int(dimsCol[r])))
		}
	}
	a, err := plots.ScatterEllipses(plots.Axes{Title: fmt.Sprintf("(a) seed 0: %d analysers, dimensionalities %v", len(ells), dims), XLabel: "y (z-scored)", YLabel: "z (z-scored)"}, ys, zs, ells)
	if err != nil {
		return err
	}
	maxD := 0
	for _, d := range dd {
		maxD = max(maxD, int(d))
	}
	// One bar per piece and dimensionality: the fraction of the piece's
	// points, over all seeds, held by analysers of that dimensionality.
	frac := make([]float64, 2*(maxD+1))
	var cats []string
	for _, pc := range []string{"line", "patch"} {
		for d := range maxD + 1 {
			cats = append(cats, fmt.Sprintf("%s\n%d-D", pc, d))
		}
	}
	var tot [2]float64
	for r := range piece {
		j := 0
		if piece[r] == "patch" {
			j = 1
		}
		frac[j*(maxD+1)+int(dd[r])] += cnt[r]
		tot[j] += cnt[r]
	}
	for i := range frac {
		if t := tot[i/(maxD+1)]; t > 0 {
			frac[i] /= t
		}
	}
	b, err := plots.StackedBars(plots.Axes{Title: "(b) each piece's points by their analyser's dimensionality, all seeds", YLabel: "fraction of the piece's points"},
		cats, [][]float64{frac}, nil)
	if err != nil {
		return err
	}
	return experiments.SaveFigure(dir, "dsouza_fig3_6", plots.Figure{Rows: 1, Cols: 2, Panels: []*plot.Plot{a, b},
		Title: "D'Souza Fig. 3.6: local dimensionality by a mixture of VB factor analysers"})
}
