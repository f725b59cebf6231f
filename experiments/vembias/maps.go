package vembias

import (
	"fmt"
	"math"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	vm "github.com/vbworkbench/vbw/core/model/vembias"
	"github.com/vbworkbench/vbw/core/parallel"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// MapsID is the registry key of Figs 1.6-1.8: the bias of each scheme as
// a function of the true parameters (L320-L336).
const MapsID = "vembias/maps"

// MapsConfig is the config of vembias/maps. Its keys:
//
//   - n, the side of the bias maps of Figs 1.6 and 1.7 (n×n true
//     settings); n_joint, that of Fig 1.8's arrows;
//   - lambda_range, sigma_y2_range (even in ln σ_y²) and angle_range (the
//     true φ₂ − φ₁, radians) span the maps;
//   - fig17_lambda, λ of Figs 1.7A and C; fig17_sigma_y2, σ_y² of Fig 1.7B;
//   - grid_points, the grid optimiser's points per one-parameter
//     optimisation; joint_grid_points, the side of Fig 1.8's
//     two-parameter grid, refined by gradient ascent (L334);
//   - check_every: every check_every-th setting (row-major) is also
//     optimised by gradient ascent and by vEM, whose optima must agree
//     with the grid's (L322); [vem] ends vEM (vemFit).
type MapsConfig struct {
	experiments.Common
	MapGrid
	MapOptimisers
}

// MapGrid are the keys of the true settings (see MapsConfig).
type MapGrid struct {
	N            int       `toml:"n" range:"[2,1000]"`
	NJoint       int       `toml:"n_joint" range:"[2,100]"`
	LambdaRange  []float64 `toml:"lambda_range" range:"(0,1) len=2 increasing"`
	SigmaY2Range []float64 `toml:"sigma_y2_range" range:"[1e-4,10] len=2 increasing"`
	AngleRange   []float64 `toml:"angle_range" range:"(0,1.5707963267948966] len=2 increasing"`
	Fig17Lambda  float64   `toml:"fig17_lambda" range:"(0,1)"`
	Fig17SigmaY2 float64   `toml:"fig17_sigma_y2" range:"(0,10]"`
}

// MapOptimisers are the keys of the optimisers (see MapsConfig).
type MapOptimisers struct {
	GridPoints      int                `toml:"grid_points" range:"[11,1e5]"`
	JointGridPoints int                `toml:"joint_grid_points" range:"[5,1000]"`
	CheckEvery      int                `toml:"check_every" range:"[1,1e9]"`
	VEM             config.FitSettings `toml:"vem"`
}

// RetiredKeys: see retiredVEM.
func (*MapsConfig) RetiredKeys() map[string]string { return retiredVEM }

// DefaultMaps returns 40×40 maps over λ ∈ [0.05, 0.99], σ_y² ∈ [0.01, 2]
// and φ₂ − φ₁ ∈ [0.05, π/2] (targets §1.2's suggestion), an 8×8 arrow
// plot, λ = 0.9 and σ_y² = 0.1 for Fig 1.7 (L345).
func DefaultMaps() MapsConfig {
	return MapsConfig{Common: experiments.Common{Figures: []string{"fig1_6", "fig1_7", "fig1_8"}, Seed: 23},
		MapGrid: MapGrid{N: 40, NJoint: 8, LambdaRange: []float64{0.05, 0.99}, SigmaY2Range: []float64{0.01, 2},
			AngleRange: []float64{0.05, math.Pi / 2}, Fig17Lambda: 0.9, Fig17SigmaY2: 0.1},
		MapOptimisers: MapOptimisers{GridPoints: 200, JointGridPoints: 60, CheckEvery: 37, VEM: vemFit()}}
}

// Validate checks every field.
func (c *MapsConfig) Validate() error { return c.VEM.Validate("vem", nil) }

// Estimate counts the optimisations: five maps of N² settings and five
// schemes, each a grid of GridPoints (and a refinement), and Fig 1.8's
// NJoint² settings of four schemes, each a JointGridPoints² grid; and the
// vEM runs of the cross-checks, each to [vem] max_iterations: two at every
// check_every-th setting of every map and scheme, one at every
// check_every-th joint point.
func (c *MapsConfig) Estimate() experiments.Cost {
	n, nj := experiments.Key("n", c.N), experiments.Key("n_joint", c.NJoint)
	checked := func(settings int) float64 { return float64((settings-1)/c.CheckEvery + 1) }
	maps := experiments.Fixed(25, "maps × schemes")
	vemIt := experiments.Key("vem.max_iterations", c.VEM.MaxIterations)
	return experiments.Cost{
		Memory: []experiments.Part{experiments.Rows("bias.csv rows", maps, n, n)},
		Work: []experiments.Part{
			experiments.Ops("bias maps", evalOps, maps, n, n, experiments.Key("grid_points", c.GridPoints).Plus(60, "points + refinement")),
			experiments.Ops("joint learning", evalOps, experiments.Fixed(4, "schemes"), nj, nj, experiments.Key("joint_grid_points", c.JointGridPoints), experiments.Key("joint_grid_points", c.JointGridPoints)),
			experiments.Ops("vEM cross-checks of the maps", 60*evalOps, maps, experiments.Fixed(2, "starts"),
				experiments.KeyN("n", c.N, checked(c.N*c.N), "checked settings of a map (every check_every-th of n²)"), vemIt),
			experiments.Ops("vEM cross-checks of the joint learning", 60*evalOps,
				experiments.KeyN("n_joint", c.NJoint, checked(4*c.NJoint*c.NJoint), "checked points (every check_every-th of 4 n_joint²)"), vemIt),
		},
	}
}

// biasMap is one map: the parameter learnt as a function of two true
// parameters (x across, y up).
type biasMap struct {
	name         string
	param        vm.Param
	xName, yName string
	xs, ys       []float64
	truth        func(x, y float64) vm.Params
	approx       []vm.Approx
}

// unitWeights is θ with unit weights at angles 0 and delta.
func unitWeights(lam, sx2, sy2, delta float64) vm.Params {
	return vm.Params{vm.Lambda: lam, vm.SigmaX2: sx2, vm.SigmaY2: sy2, vm.Phi1: 0, vm.Phi2: delta, vm.Norm1: 1, vm.Norm2: 1}
}

// maps returns the five maps of Figs 1.6 and 1.7 (L320-L330, L345).
func (c *MapsConfig) maps() []biasMap {
	lams := vm.Axis(c.LambdaRange[0], c.LambdaRange[1], c.N, false)
	sys := vm.Axis(c.SigmaY2Range[0], c.SigmaY2Range[1], c.N, true)
	angs := vm.Axis(c.AngleRange[0], c.AngleRange[1], c.N, false)
	all := []vm.Approx{vm.ML, vm.MF, vm.FC, vm.FT, vm.MAP}
	l17, s17 := c.Fig17Lambda, c.Fig17SigmaY2
	return []biasMap{
		{"fig1.6-lambda", vm.Lambda, "sigma_y2", "lambda", sys, lams, func(x, y float64) vm.Params { return unitWeights(y, 1-y*y, x, 0) }, all},
		{"fig1.6-sigma_y2", vm.SigmaY2, "sigma_y2", "lambda", sys, lams, func(x, y float64) vm.Params { return unitWeights(y, 1-y*y, x, 0) }, all},
		{"fig1.7a", vm.Phi2, "angle", "sigma_y2", angs, sys, func(x, y float64) vm.Params { return unitWeights(l17, 1-l17*l17, y, x) }, all},
		{"fig1.7b", vm.Phi2, "angle", "lambda", angs, lams, func(x, y float64) vm.Params { return unitWeights(y, 1-y*y, s17, x) }, all},
		{"fig1.7c", vm.Norm2, "angle", "sigma_y2", angs, sys, func(x, y float64) vm.Params { return unitWeights(l17, 1-l17*l17, y, x) }, all},
	}
}

// paramDiff returns est − truth, for an angle reduced to (−π/2, π/2]:
// w and −w give the same model, so φ and φ + π are the same estimate.
func paramDiff(p vm.Param, est, truth float64) float64 {
	d := est - truth
	if p == vm.Phi1 || p == vm.Phi2 {
		d -= math.Pi * math.Round(d/math.Pi)
	}
	return d
}

// mapPoint is the result of one scheme at one setting.
type mapPoint struct {
	est, bias float64
	edge      bool
}

// mapResult holds a map's points, [approx][row][col].
type mapResult struct {
	biasMap
	pts [vm.NumApprox][][]mapPoint
}

// check is an optimiser cross-check at one setting.
type check struct {
	disagree  float64
	decreased bool
}

// RunMaps computes the bias maps, the best-approximation maps and the
// joint-learning arrows.
func RunMaps(env *experiments.Env, c *MapsConfig) error {
	ms := c.maps()
	out := make([]mapResult, len(ms))
	type task struct{ m, row int }
	var tasks []task
	for i, m := range ms {
		out[i].biasMap = m
		for _, q := range m.approx {
			out[i].pts[q] = make([][]mapPoint, len(m.ys))
			for r := range m.ys {
				out[i].pts[q][r] = make([]mapPoint, len(m.xs))
			}
		}
		for r := range m.ys {
			tasks = append(tasks, task{i, r})
		}
	}
	checks := make([][]check, len(tasks))
	err := parallel.ForErr(len(tasks), env.Workers, func(ti int) error {
		t := tasks[ti]
		m := ms[t.m]
		for col, x := range m.xs {
			truth := m.truth(x, m.ys[t.row])
			for _, q := range m.approx {
				pr := &vm.Problem{Obs: 2, Truth: truth, Approx: q, Free: []vm.Param{m.param}}
				g, err := pr.Grid(c.GridPoints)
				if err != nil {
					return fmt.Errorf("%s at (%g, %g), %v: %w", m.name, x, m.ys[t.row], q, err)
				}
				out[t.m].pts[q][t.row][col] = mapPoint{est: g.X[0], bias: paramDiff(m.param, g.X[0], truth[m.param]), edge: g.Edge}
				if (t.row*len(m.xs)+col)%c.CheckEvery != 0 || g.Edge {
					continue
				}
				gr, err := pr.Gradient(g.X)
				if err != nil {
					return err
				}
				v, run, err := pr.RunVEM(g.X, c.VEM.Settings(nil, nil))
				if err != nil && run.Status != vb.BoundDecreased {
					return fmt.Errorf("%s at (%g, %g), %v: vEM: %w", m.name, x, m.ys[t.row], q, err)
				}
				// vEM is started from a point 10% off the grid's optimum
				// as well, so that it has to climb.
				v2, run2, err := pr.RunVEM([]float64{g.X[0]*0.9 + 0.1*truth[m.param]}, c.VEM.Settings(nil, nil))
				if err != nil && run2.Status != vb.BoundDecreased {
					return err
				}
				checks[ti] = append(checks[ti], check{disagree: spread(g.X[0], gr.X[0], v.X[0], v2.X[0]),
					decreased: run.Status == vb.BoundDecreased || run2.Status == vb.BoundDecreased})
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	joint, err := c.joint(env)
	if err != nil {
		return err
	}
	return writeMaps(env, c, out, checks, joint)
}

// jointPoint is one scheme's joint (λ, σ_y²) estimate at one truth.
type jointPoint struct {
	q                        vm.Approx
	lam, sy2, estLam, estSy2 float64
	singleLam, singleSy2     float64
	edge                     bool
	disagree                 float64
}

// joint learns (λ, σ_y²) together at NJoint² truths (Fig 1.8, L332-L336):
// a JointGridPoints² grid, then gradient ascent and vEM from its best
// point; also the single-parameter estimates for comparison.
func (c *MapsConfig) joint(env *experiments.Env) ([]jointPoint, error) {
	lams := vm.Axis(c.LambdaRange[0], c.LambdaRange[1], c.NJoint, false)
	sys := vm.Axis(c.SigmaY2Range[0], c.SigmaY2Range[1], c.NJoint, true)
	qs := []vm.Approx{vm.MF, vm.FC, vm.FT, vm.MAP}
	out := make([]jointPoint, len(lams)*len(sys)*len(qs))
	err := parallel.ForErr(len(out), env.Workers, func(i int) error {
		q := qs[i%len(qs)]
		lam, sy := lams[i/len(qs)/len(sys)], sys[(i/len(qs))%len(sys)]
		truth := unitWeights(lam, 1-lam*lam, sy, 0)
		pr := &vm.Problem{Obs: 2, Truth: truth, Approx: q, Free: []vm.Param{vm.Lambda, vm.SigmaY2}}
		g, err := pr.Grid(c.JointGridPoints)
		if err != nil {
			return err
		}
		gr, err := pr.Gradient(g.X)
		if err != nil {
			return err
		}
		p := jointPoint{q: q, lam: lam, sy2: sy, estLam: gr.X[0], estSy2: gr.X[1], edge: gr.Edge || g.Edge}
		if gr.F < g.F {
			p.estLam, p.estSy2 = g.X[0], g.X[1]
		}
		if i%c.CheckEvery == 0 && !p.edge {
			v, run, err := pr.RunVEM(g.X, c.VEM.Settings(nil, nil))
			if err != nil && run.Status != vb.BoundDecreased {
				return err
			}
			p.disagree = math.Max(math.Abs(v.X[0]-p.estLam), math.Abs(v.X[1]-p.estSy2))
		}
		for k, par := range []vm.Param{vm.Lambda, vm.SigmaY2} {
			s, err := (&vm.Problem{Obs: 2, Truth: truth, Approx: q, Free: []vm.Param{par}}).Grid(c.GridPoints)
			if err != nil {
				return err
			}
			if k == 0 {
				p.singleLam = s.X[0]
			} else {
				p.singleSy2 = s.X[0]
			}
		}
		out[i] = p
		return nil
	})
	return out, err
}

// best returns the least biased of the uncertainty-preserving schemes
// (MF, FC, FT) at a map point, by |bias|.
func best(m *mapResult, r, col int) vm.Approx {
	b, bq := math.Inf(1), vm.MF
	for _, q := range []vm.Approx{vm.MF, vm.FC, vm.FT} {
		if v := math.Abs(m.pts[q][r][col].bias); v < b {
			b, bq = v, q
		}
	}
	return bq
}

// mapsCriteria are the orderings of §§1.4.6-1.4.7 (targets §1.2), claims
// of the text; the consistency of ML, the agreement of the optimisers and
// the monotone bound of vEM are sanity checks.
var mapsCriteria = results.Criteria{
	results.Criterion{ID: "fig1.6a-lambda-under", Text: "λ is under-estimated by every scheme at every setting (L324): settings where some λ̂ ≥ λ", Target: results.Equal(0)}.
		AsClaim("'λ is under-estimated in all cases'; 'the biases are always negative'", "L324; Fig 1.6 caption, L320"),
	results.Criterion{ID: "fig1.6a-fc-least-biased", Text: "q_FC is the least biased for λ everywhere (L324): settings where another scheme is strictly less biased", Target: results.Equal(0)}.
		AsClaim("'the bias from using q_FC is always smaller than that from using the others'", "L324"),
	results.Criterion{ID: "fig1.6a-bias-almost-one", Text: "at high σ_y² and λ the bias of q_MF, q_FT, q_MAP is 'almost one' (L324): the largest |bias| of q_MF", Target: results.AtLeast(0.8)}.
		AsClaim("'for q_MF, q_FT and q_MAP, at high σ_y² and λ values, the bias is almost one'", "L324"),
	results.Criterion{ID: "fig1.6b-fc-over", Text: "q_FC over-estimates σ_y² (L324): settings where it does not", Target: results.Equal(0)}.
		AsClaim("'q_FC over-estimates the observation noise'", "L324"),
	results.Criterion{ID: "fig1.6b-ft-under", Text: "q_FT under-estimates σ_y² (L324): settings where it does not", Target: results.Equal(0)}.
		AsClaim("'q_FT and q_MAP under-estimate it'", "L324"),
	results.Criterion{ID: "fig1.6b-map-under", Text: "q_MAP under-estimates σ_y² (L324): settings where it does not", Target: results.Equal(0)}.
		AsClaim("'q_FT and q_MAP under-estimate it'", "L324"),
	results.Criterion{ID: "fig1.6b-mf-both-signs", Text: "q_MF under-estimates σ_y² where λ and σ_y² are small and over-estimates where they are large (L324): both signs occur", Target: results.Holds}.
		AsClaim("q_MF 'under-estimates in regions where λ and σ_y² are small, and over-estimates in regions where they are large'", "L324"),
	results.Criterion{ID: "fig1.6c-mf-best-share", Text: "q_MF is the best for σ_y² over 'a fairly large part of the space' (L324): its share of the settings", Target: results.AtLeast(0.1)}.
		AsClaim("q_MF 'is to be preferred over a fairly large part of the space'", "L324"),
	results.Criterion{ID: "fig1.7a-over", Text: "every scheme over-estimates the angle between the weights (Fig 1.7A): settings where some φ̂₂ ≤ φ₂ (φ₂ − φ₁ < π/2 − 0.01)", Target: results.Equal(0)}.
		AsClaim("'all of the approximations over-estimate the angular separation of the weights'", "Fig 1.7 caption, L345"),
	results.Criterion{ID: "fig1.7a-ft-least", Text: "q_FT is less or equally biased everywhere (Fig 1.7A caption): settings where it is beaten by more than 1e-6", Target: results.Equal(0)}.
		AsClaim("'q_FT is less or equally biased everywhere'; 'superior for any setting of the true parameters'", "Fig 1.7 caption, L345; L328"),
	results.Criterion{ID: "fig1.7a-mf-fc-map-equal", Text: "q_MF, q_FC and q_MAP have identical angle biases (L326): their largest difference", Target: results.AtMost(1e-5)}.
		AsClaim("q_MF, q_FC and q_MAP 'turn out to exhibit identical biases'", "L326"),
	results.Criterion{ID: "fig1.7b-ft-least", Text: "q_FT is less or equally biased everywhere over (angle, λ) (Fig 1.7B caption): settings where it is beaten by more than 1e-6", Target: results.Equal(0)}.
		AsClaim("'Again, q_FT less or equally biased everywhere'", "Fig 1.7 caption, L345"),
	results.Criterion{ID: "fig1.7c-map-infinite", Text: "q_MAP's |w₂| is infinite everywhere (Fig 1.7C caption): settings where its optimum is inside the search", Target: results.Equal(0)}.
		AsClaim("q_MAP 'returns an infinite value for the weights everywhere'", "Fig 1.7 caption, L345"),
	results.Criterion{ID: "fig1.7d-mf-best-share", Text: "q_MF is the least biased for |w₂| in 'a large intermediate region' (L328): its share", Target: results.AtLeast(0.1)}.
		AsClaim("'a large intermediate region where the mean-field approximation is the least biased' (Fig 1.7D)", "L328"),
	results.Criterion{ID: "fig1.8-mf-never-best", Text: "in joint (λ, σ_y²) learning q_MF is never the best for λ or σ_y² (Fig 1.8B caption): settings where it is", Target: results.Equal(0)}.
		AsClaim("'q_MF is never superior'; 'no-longer superior to the structural approximations'", "Fig 1.8 caption, L348; L336"),
	results.Criterion{ID: "fig1.8-joint-larger", Text: "learning the pair makes the biases larger (L284, L336): median |λ bias| jointly minus singly, over schemes and settings", Target: results.Above(0)}.
		AsClaim("'the biases become significantly larger as more parameters are estimated'", "L284; L185, L336"),
	results.Criterion{ID: "ml-consistent", Text: "the ML optimum is the truth at every setting (L277): the largest |θ̂_ML − θ*|", Target: results.AtMost(1e-6)}.AsSanity(),
	results.Criterion{ID: "optimiser-agreement", Text: "grid, gradient ascent and vEM (from the grid's optimum and from 10% away) agree at the checked settings (L322)", Target: results.AtMost(1e-3)}.AsSanity(),
	fMonotone("vEM"),
}

// writeMaps writes bias.csv and joint.csv, the metrics and the checks.
func writeMaps(env *experiments.Env, c *MapsConfig, out []mapResult, checks [][]check, joint []jointPoint) error {
	s := results.Summary{Criteria: mapsCriteria}
	tab := results.NewTable("map", "approx", "x", "y", "truth", "estimate", "bias", "edge")
	byName := map[string]*mapResult{}
	var ml float64
	for i := range out {
		m := &out[i]
		byName[m.name] = m
		for _, q := range m.approx {
			for r, y := range m.ys {
				for col, x := range m.xs {
					p := m.pts[q][r][col]
					tab.AddRow(m.name, q.String(), x, y, p.est-p.bias, p.est, p.bias, p.edge)
					if q == vm.ML {
						ml = math.Max(ml, math.Abs(p.bias))
					}
				}
			}
		}
	}
	jt := results.NewTable("approx", "lambda", "sigma_y2", "est_lambda", "est_sigma_y2", "single_lambda", "single_sigma_y2", "edge")
	for _, p := range joint {
		jt.AddRow(p.q.String(), p.lam, p.sy2, p.estLam, p.estSy2, p.singleLam, p.singleSy2, p.edge)
	}
	if err := results.WriteCSV(env.Path("bias.csv"), *tab); err != nil {
		return err
	}
	if err := results.WriteCSV(env.Path("joint.csv"), *jt); err != nil {
		return err
	}
	get := mapsCriteria.Get
	count := func(name string, bad func(m *mapResult, r, col int) bool) (n, total int) {
		m := byName[name]
		for r := range m.ys {
			for col := range m.xs {
				total++
				if bad(m, r, col) {
					n++
				}
			}
		}
		return n, total
	}
	b := func(m *mapResult, q vm.Approx, r, col int) float64 { return m.pts[q][r][col].bias }
	ab := func(m *mapResult, q vm.Approx, r, col int) float64 { return math.Abs(b(m, q, r, col)) }
	n, _ := count("fig1.6-lambda", func(m *mapResult, r, col int) bool {
		return b(m, vm.MF, r, col) >= 0 || b(m, vm.FC, r, col) >= 0 || b(m, vm.FT, r, col) >= 0 || b(m, vm.MAP, r, col) >= 0
	})
	s.Judge(get("fig1.6a-lambda-under"), float64(n))
	n, _ = count("fig1.6-lambda", func(m *mapResult, r, col int) bool {
		return math.Min(ab(m, vm.MF, r, col), math.Min(ab(m, vm.FT, r, col), ab(m, vm.MAP, r, col))) < ab(m, vm.FC, r, col)-1e-9
	})
	s.Judge(get("fig1.6a-fc-least-biased"), float64(n))
	var maxMF float64
	count("fig1.6-lambda", func(m *mapResult, r, col int) bool { maxMF = math.Max(maxMF, ab(m, vm.MF, r, col)); return false })
	s.SetMetric("fig1.6a_max_abs_bias_mf", maxMF)
	s.Judge(get("fig1.6a-bias-almost-one"), maxMF)
	for _, c := range []struct {
		id  string
		q   vm.Approx
		bad func(float64) bool
	}{{"fig1.6b-fc-over", vm.FC, func(v float64) bool { return v <= 0 }}, {"fig1.6b-ft-under", vm.FT, func(v float64) bool { return v >= 0 }}, {"fig1.6b-map-under", vm.MAP, func(v float64) bool { return v >= 0 }}} {
		n, _ = count("fig1.6-sigma_y2", func(m *mapResult, r, col int) bool { return c.bad(b(m, c.q, r, col)) })
		s.Judge(get(c.id), float64(n))
	}
	pos, _ := count("fig1.6-sigma_y2", func(m *mapResult, r, col int) bool { return b(m, vm.MF, r, col) > 0 })
	neg, _ := count("fig1.6-sigma_y2", func(m *mapResult, r, col int) bool { return b(m, vm.MF, r, col) < 0 })
	s.JudgeBool(get("fig1.6b-mf-both-signs"), pos > 0 && neg > 0, fmt.Sprintf("%d over, %d under", pos, neg))
	n, tot := count("fig1.6-sigma_y2", func(m *mapResult, r, col int) bool { return best(m, r, col) == vm.MF })
	s.SetMetric("fig1.6c_mf_best_share", float64(n)/float64(tot))
	s.Judge(get("fig1.6c-mf-best-share"), float64(n)/float64(tot))
	n, _ = count("fig1.7a", func(m *mapResult, r, col int) bool {
		if m.xs[col] >= math.Pi/2-0.01 {
			return false
		}
		return b(m, vm.MF, r, col) <= 0 || b(m, vm.FC, r, col) <= 0 || b(m, vm.FT, r, col) <= 0 || b(m, vm.MAP, r, col) <= 0
	})
	s.Judge(get("fig1.7a-over"), float64(n))
	ftBeaten := func(m *mapResult, r, col int) bool {
		return ab(m, vm.FT, r, col) > math.Min(ab(m, vm.MF, r, col), math.Min(ab(m, vm.FC, r, col), ab(m, vm.MAP, r, col)))+1e-6
	}
	n, _ = count("fig1.7a", ftBeaten)
	s.Judge(get("fig1.7a-ft-least"), float64(n))
	var eq float64
	count("fig1.7a", func(m *mapResult, r, col int) bool {
		eq = math.Max(eq, spread(b(m, vm.MF, r, col), b(m, vm.FC, r, col), b(m, vm.MAP, r, col)))
		return false
	})
	s.Judge(get("fig1.7a-mf-fc-map-equal"), eq)
	n, _ = count("fig1.7b", ftBeaten)
	s.Judge(get("fig1.7b-ft-least"), float64(n))
	n, _ = count("fig1.7c", func(m *mapResult, r, col int) bool { return !m.pts[vm.MAP][r][col].edge })
	s.Judge(get("fig1.7c-map-infinite"), float64(n))
	n, tot = count("fig1.7c", func(m *mapResult, r, col int) bool { return best(m, r, col) == vm.MF })
	s.SetMetric("fig1.7d_mf_best_share", float64(n)/float64(tot))
	s.Judge(get("fig1.7d-mf-best-share"), float64(n)/float64(tot))

	// Fig 1.8: per truth, the best of MF, FC, FT for λ and for σ_y².
	type key struct{ lam, sy float64 }
	per := map[key]map[vm.Approx]jointPoint{}
	var keys []key
	var dj, ds []float64
	for _, p := range joint {
		k := key{p.lam, p.sy2}
		if per[k] == nil {
			per[k] = map[vm.Approx]jointPoint{}
			keys = append(keys, k)
		}
		per[k][p.q] = p
		dj = append(dj, math.Abs(p.estLam-p.lam))
		ds = append(ds, math.Abs(p.singleLam-p.lam))
	}
	mfBest := 0
	for _, k := range keys {
		pm := per[k]
		for _, f := range []func(p jointPoint) float64{
			func(p jointPoint) float64 { return math.Abs(p.estLam - p.lam) },
			func(p jointPoint) float64 { return math.Abs(p.estSy2 - p.sy2) },
		} {
			if f(pm[vm.MF]) < math.Min(f(pm[vm.FC]), f(pm[vm.FT])) {
				mfBest++
			}
		}
	}
	s.Judge(get("fig1.8-mf-never-best"), float64(mfBest))
	s.SetMetric("fig1.8_median_abs_lambda_bias_joint", results.Median(dj))
	s.SetMetric("fig1.8_median_abs_lambda_bias_single", results.Median(ds))
	s.Judge(get("fig1.8-joint-larger"), results.Median(dj)-results.Median(ds))
	s.Judge(get("ml-consistent"), ml)
	var dis float64
	dec, nChecks := 0, 0
	for _, cs := range checks {
		for _, ch := range cs {
			dis = math.Max(dis, ch.disagree)
			nChecks++
			if ch.decreased {
				dec++
			}
		}
	}
	for _, p := range joint {
		dis = math.Max(dis, p.disagree)
	}
	s.SetMetric("optimiser_checks", float64(nChecks))
	s.SetMetric("optimiser_max_disagreement", dis)
	s.Judge(get("optimiser-agreement"), dis)
	s.Judge(get("f-monotone"), float64(dec))
	s.Claims = []results.Claim{
		claim("Figure 1.6", "fig1_6", "Learning one parameter, every scheme under-estimates λ, q_FC least; the sign of the bias in σ_y² depends on the scheme, and the r = 1 line separates where q_FT and q_FC are tightest (L320).", mapsCriteria, "fig1.6", "ml-consistent", "optimiser-agreement", "f-monotone"),
		claim("Figure 1.7", "fig1_7", "Every scheme over-estimates the angle between the weights, q_FT least or equally; q_MAP's magnitude of w₂ is infinite (L345).", mapsCriteria, "fig1.7", "ml-consistent", "optimiser-agreement", "f-monotone"),
		claim("Figure 1.8", "fig1_8", "Learning λ and σ_y² together, the biases are larger and q_MF is never the best (L336, L348).", mapsCriteria, "fig1.8", "ml-consistent", "optimiser-agreement", "f-monotone"),
	}
	s.AddFindingsFromChecks(map[string]string{
		"fig1.8-mf-never-best": "In joint (λ, σ_y²) learning q_MF is the least biased for σ_y² at a few settings with λ = 0.99 and small σ_y² (joint.csv), against the Fig 1.8B caption's 'q_MF is never superior'; everywhere else it is beaten by q_FC or q_FT.",
	})
	return env.WriteSummary(&s, "Turner & Sahani Figs 1.6-1.8: the bias of each scheme as a function of the true parameters, infinite data.")
}

// uniq returns the distinct values of xs in order of first appearance.
func uniq(xs []float64) []float64 {
	var out []float64
	seen := map[float64]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// mapTable is bias.csv read back.
type mapTable struct {
	maps, approx []string
	x, y, bias   []float64
}

// grid returns map name's biases of scheme q as rows over y, with the axes.
func (t *mapTable) grid(name string, q vm.Approx) (xs, ys []float64, z [][]float64) {
	var px, py []float64
	for i := range t.maps {
		if t.maps[i] == name && t.approx[i] == q.String() {
			px, py = append(px, t.x[i]), append(py, t.y[i])
		}
	}
	xs, ys = uniq(px), uniq(py)
	z = make([][]float64, len(ys))
	for r := range z {
		z[r] = make([]float64, len(xs))
	}
	k := 0
	for i := range t.maps {
		if t.maps[i] == name && t.approx[i] == q.String() {
			z[k/len(xs)][k%len(xs)] = t.bias[i]
			k++
		}
	}
	return xs, ys, z
}

// logs returns ln of each value.
func logs(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Log(x)
	}
	return out
}

// maxAbs returns the largest |z| of a grid.
func maxAbs(z [][]float64) float64 {
	var m float64
	for _, r := range z {
		for _, v := range r {
			if !math.IsNaN(v) {
				m = math.Max(m, math.Abs(v))
			}
		}
	}
	return m
}

// bestPanel draws the least biased of MF, FC, FT at each setting of map
// name (by markers), with a line.
func (t *mapTable) bestPanel(title, xl, yl, name string, xf func([]float64) []float64, lx, ly []float64) (*plot.Plot, error) {
	xs, ys, _ := t.grid(name, vm.MF)
	var z [3][][]float64
	for i, q := range []vm.Approx{vm.MF, vm.FC, vm.FT} {
		_, _, z[i] = t.grid(name, q)
	}
	p := newPanel(title, xl, yl)
	px := xf(xs)
	for i, q := range []vm.Approx{vm.MF, vm.FC, vm.FT} {
		var bx, by []float64
		for r := range ys {
			for col := range xs {
				k := 0
				for j := 1; j < 3; j++ {
					if math.Abs(z[j][r][col]) < math.Abs(z[k][r][col]) {
						k = j
					}
				}
				if k == i {
					bx, by = append(bx, px[col]), append(by, ys[r])
				}
			}
		}
		if err := addMarkers(p, q, bx, by); err != nil {
			return nil, err
		}
	}
	if err := addLine(p, lx, ly, solid, ""); err != nil {
		return nil, err
	}
	p.Y.Min, p.Y.Max = ys[0], ys[len(ys)-1]
	return p, nil
}

// PlotMaps draws fig1_6, fig1_7 and fig1_8 from bias.csv and joint.csv.
func PlotMaps(dir string) error {
	cols := results.ReadColumns(filepath.Join(dir, "bias.csv"))
	t := &mapTable{maps: cols.Strings("map"), approx: cols.Strings("approx"), x: cols.Floats("x"), y: cols.Floats("y"), bias: cols.Floats("bias")}
	if err := cols.Err(); err != nil {
		return err
	}
	four := []vm.Approx{vm.MF, vm.FC, vm.FT, vm.MAP}
	id := func(x []float64) []float64 { return x }
	heat := func(name string, q vm.Approx, title, xl, yl string, xf func([]float64) []float64, lim float64) *plot.Plot {
		xs, ys, z := t.grid(name, q)
		return heatPanel(title, xl, yl, xf(xs), ys, z, lim)
	}
	// r = σ_x²/(|λ|σ_y²) = 1 with σ_x² = 1 − λ²: σ_y² = (1 − λ²)/λ.
	var rx, ry []float64
	for _, l := range vm.Axis(0.05, 0.99, 200, false) {
		rx, ry = append(rx, math.Log((1-l*l)/l)), append(ry, l)
	}
	var p16 []*plot.Plot
	var lims [2]float64 // the colour scale of each row
	for row, name := range []string{"fig1.6-lambda", "fig1.6-sigma_y2"} {
		var lim float64
		for _, q := range four {
			_, _, z := t.grid(name, q)
			lim = math.Max(lim, maxAbs(z))
		}
		lims[row] = lim
		for _, q := range four {
			what := []string{"bias in λ", "bias in σ_y²"}[row]
			p16 = append(p16, heat(name, q, fmt.Sprintf("A: %s, q_%s (±%.2f)", what, q, lim), "ln σ_y²", "λ", logs, lim))
		}
	}
	bp, err := t.bestPanel("B: least biased for σ_y²; r = 1", "ln σ_y²", "λ", "fig1.6-sigma_y2", logs, rx, ry)
	if err != nil {
		return err
	}
	p16 = append(p16, bp)
	// The rows' colour scales, beside B: a bias is the learnt value minus
	// the true one, in the parameter's units (λ is a weight of unit-
	// variance x and y, without units; σ_y² is a variance of y).
	for row, c := range []struct{ title, label string }{
		{"colour scale of the first row", "bias in λ: learnt − true λ (no units)"},
		{"colour scale of the second row", "bias in σ_y²: learnt − true σ_y² (units of y²)"},
	} {
		bar, err := heatBar(c.title, c.label, lims[row])
		if err != nil {
			return err
		}
		p16 = append(p16, bar)
	}
	if err := experiments.SaveFigure(dir, "fig1_6", plots.Figure{Rows: 3, Cols: 4, Panels: p16, Title: "Fig 1.6: biases of single-parameter learning over (σ_y², λ), σ_x² = 1 − λ²"}); err != nil {
		return err
	}
	var p17 []*plot.Plot
	var lims17 []float64 // the colour scale of each row
	for _, c := range []struct{ name, label, yl string }{{"fig1.7a", "A: Δφ bias", "σ_y²"}, {"fig1.7b", "B: Δφ bias", "λ"}} {
		var lim float64
		for _, q := range four {
			_, _, z := t.grid(c.name, q)
			lim = math.Max(lim, maxAbs(z))
		}
		lims17 = append(lims17, lim)
		for _, q := range four {
			p17 = append(p17, heat(c.name, q, fmt.Sprintf("%s, q_%s (±%.2f)", c.label, q, lim), "φ₂ − φ₁ (rad)", c.yl, id, lim))
		}
	}
	var lim float64
	for _, q := range four[:3] {
		_, _, z := t.grid("fig1.7c", q)
		lim = math.Max(lim, maxAbs(z))
	}
	lims17 = append(lims17, lim)
	for _, q := range four[:3] {
		p17 = append(p17, heat("fig1.7c", q, fmt.Sprintf("C: |w₂| bias, q_%s (±%.2f)", q, lim), "φ₂ − φ₁ (rad)", "σ_y²", id, lim))
	}
	// Where KL_FC = KL_FT at the truth (above: q_FC tighter).
	xs, ys, _ := t.grid("fig1.7c", vm.MF)
	var lx, ly []float64
	m := vm.NewSSM(2)
	lam := 0.9
	for _, a := range xs {
		d := func(sy float64) float64 {
			th := unitWeights(lam, 1-lam*lam, sy, a)
			return m.KL(th, vm.FC) - m.KL(th, vm.FT)
		}
		for k := 1; k < len(ys); k++ {
			if (d(ys[k-1]) < 0) != (d(ys[k]) < 0) {
				lx, ly = append(lx, a), append(ly, ys[k])
				break
			}
		}
	}
	bp, err = t.bestPanel("D: least biased for |w₂|; KL_FC = KL_FT", "φ₂ − φ₁ (rad)", "σ_y²", "fig1.7c", id, lx, ly)
	if err != nil {
		return err
	}
	p17 = append(p17, bp)
	for row, c := range []struct{ title, label string }{
		{"colour scale of A", "bias in φ₂: learnt − true φ₂ (rad)"},
		{"colour scale of B", "bias in φ₂: learnt − true φ₂ (rad)"},
		{"colour scale of C", "bias in |w₂|: learnt − true |w₂| (units of y)"},
	} {
		bar, err := heatBar(c.title, c.label, lims17[row])
		if err != nil {
			return err
		}
		p17 = append(p17, bar)
	}
	if err := experiments.SaveFigure(dir, "fig1_7", plots.Figure{Rows: 4, Cols: 4, Panels: p17, Title: "Fig 1.7: biases in learning the weights (λ = 0.9 in A and C, σ_y² = 0.1 in B)"}); err != nil {
		return err
	}
	return plotJoint(dir, rx, ry)
}

// plotJoint draws fig1_8: for each scheme an arrow from each true (λ, ln σ_y²)
// to the jointly learnt one (A), and the least biased of MF, FC, FT for λ
// and for σ_y² with the r = 1 line (B).
func plotJoint(dir string, rx, ry []float64) error {
	cols := results.ReadColumns(filepath.Join(dir, "joint.csv"))
	qs, l, sy, el, es := cols.Strings("approx"), cols.Floats("lambda"), cols.Floats("sigma_y2"), cols.Floats("est_lambda"), cols.Floats("est_sigma_y2")
	if err := cols.Err(); err != nil {
		return err
	}
	var panels []*plot.Plot
	for _, q := range []vm.Approx{vm.MF, vm.FC, vm.FT, vm.MAP} {
		p := newPanel("A: q_"+q.String()+", truth → estimate", "ln σ_y²", "λ")
		var tx, ty []float64
		for i := range qs {
			if qs[i] != q.String() {
				continue
			}
			if err := addLine(p, []float64{math.Log(sy[i]), math.Log(es[i])}, []float64{l[i], el[i]}, solid, ""); err != nil {
				return err
			}
			tx, ty = append(tx, math.Log(es[i])), append(ty, el[i])
		}
		pts := make(plotter.XYs, len(tx))
		for i := range tx {
			pts[i].X, pts[i].Y = tx[i], ty[i]
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		sc.GlyphStyle = markerStyle(vm.MF)
		p.Add(sc)
		panels = append(panels, p)
	}
	for k, what := range []string{"λ", "σ_y²"} {
		p := newPanel("B: least biased for "+what+" (joint); r = 1", "ln σ_y²", "λ")
		type key struct{ l, s float64 }
		bias := map[key]map[string]float64{}
		var keys []key
		for i := range qs {
			kk := key{l[i], sy[i]}
			if bias[kk] == nil {
				bias[kk] = map[string]float64{}
				keys = append(keys, kk)
			}
			v := math.Abs(el[i] - l[i])
			if k == 1 {
				v = math.Abs(es[i] - sy[i])
			}
			bias[kk][qs[i]] = v
		}
		for _, q := range []vm.Approx{vm.MF, vm.FC, vm.FT} {
			var bx, by []float64
			for _, kk := range keys {
				b := bias[kk]
				bq := vm.MF
				for _, o := range []vm.Approx{vm.FC, vm.FT} {
					if b[o.String()] < b[bq.String()] {
						bq = o
					}
				}
				if bq == q {
					bx, by = append(bx, math.Log(kk.s)), append(by, kk.l)
				}
			}
			if err := addMarkers(p, q, bx, by); err != nil {
				return err
			}
		}
		if err := addLine(p, rx, ry, solid, ""); err != nil {
			return err
		}
		p.Y.Min, p.Y.Max = 0, 1
		panels = append(panels, p)
	}
	return experiments.SaveFigure(dir, "fig1_8", plots.Figure{Rows: 2, Cols: 4, Panels: panels, Title: "Fig 1.8: learning λ and σ_y² together (σ_x² at the truth)"})
}
