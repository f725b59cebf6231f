package chapter5

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/model/lds"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/config"
)

// This file is the pipeline of section 5.5 shared by chapter5/genes (the
// published T-cell data) and chapter5/genes-surrogate (targets §3.6-§3.9):
// the feedback model u_t = [1; y_{t−1}] fitted by VB and by the thesis's
// MAP LDS for every k of a grid (Figure 5.11), and at one k with the gene
// inputs switched off in B (β_c fixed) for the interaction matrix D and its
// significance (Figures 5.12, 5.13).

// Values of MAPSettings.Mode (lds.MAPBoost, lds.MAPTempered; targets §2.1).
const (
	MAPBoost    = "boost"
	MAPTempered = "tempered"
)

// Methods of the gene fits.
const (
	MethodVB  = "VB"
	MethodMAP = "MAP"
)

// GeneModel are the [model] keys of the gene experiments.
type GeneModel struct {
	// KGrid are the hidden dimensions of Figure 5.11, increasing, each
	// from 1 to 10⁴ (as [model] k of the other experiments). Default
	// 1..20 (the text's range; targets §4 #21).
	KGrid []int `toml:"k_grid" range:"[1,1e4] len=1.. increasing"`
	// CrossInit: "identity" (default) or "zero".
	CrossInit string `toml:"cross_init"`
}

// MAPSettings are the [map] keys: the run settings and the MAP variant.
type MAPSettings struct {
	config.FitSettings
	// Mode is "boost" (the thesis's: statistics multiplied by κ, default)
	// or "tempered" (statistics and prior multiplied by κ: the exact MAP).
	Mode string `toml:"mode"`
	// Kappa is κ, in [1, 1e6]: beyond, the prior is lost to round-off
	// (targets §1.12 pitfall 10). Default 1e4 (targets §4 #19).
	Kappa float64 `toml:"kappa" range:"[1,1e6]"`
}

// InteractionSettings are the [interactions] keys of Figures 5.12-5.13.
type InteractionSettings struct {
	// K is the hidden dimension, 1 to 10⁴. Default 2 (line 4188).
	K int `toml:"k" range:"[1,1e4]"`
	// BetaFixed is the precision β_c fixed for every gene input c (not
	// the bias), which switches CB off so that D alone is the interaction
	// matrix (line 4186; targets §4 #24). A precision, in [1e-12, 1e12].
	// Default 1e6.
	BetaFixed float64 `toml:"beta_fixed_gene_inputs" range:"[1e-12,1e12]"`
	// SignificanceSDs: an entry of D is significant when zero is more than
	// this many posterior standard deviations from its mean, in (0, 10³].
	// Default 3.
	SignificanceSDs float64 `toml:"significance_sds" range:"(0,1e3]"`
}

// GeneSettings are the keys of the gene pipeline that chapter5/genes and
// chapter5/genes-surrogate share (targets §3.7-§3.9): the tables [model],
// [vb], [map], [interactions] and [thresholds]. The configs embed it, so
// the tables stay at the top level of their files.
type GeneSettings struct {
	Model        GeneModel           `toml:"model"`
	VB           config.FitSettings  `toml:"vb"`
	MAP          MAPSettings         `toml:"map"`
	Interactions InteractionSettings `toml:"interactions"`
	Thresholds   Thresholds          `toml:"thresholds"`
}

// DefaultGeneSettings returns the shared defaults of targets §3.7-§3.8:
// 300 iterations of VB and of MAP (κ = 1e4, boost) with the staged
// schedule, k = 1..20, k = 2 with β_c = 1e6 for the interactions, and the
// default thresholds.
func DefaultGeneSettings() GeneSettings {
	var grid []int
	for k := 1; k <= 20; k++ {
		grid = append(grid, k)
	}
	return GeneSettings{
		Model:        GeneModel{KGrid: grid, CrossInit: CrossIdentity},
		VB:           ldsFit(300, lds.Variational, true),
		MAP:          MAPSettings{FitSettings: ldsFit(300, lds.MAPBoost, true), Mode: MAPBoost, Kappa: lds.DefaultKappa},
		Interactions: InteractionSettings{K: 2, BetaFixed: 1e6, SignificanceSDs: 3},
		Thresholds:   DefaultThresholds(),
	}
}

// validate checks the string keys of the shared tables and the keys that
// relate to others.
func (g GeneSettings) validate() error {
	if mode := g.MAP.Mode; mode != MAPBoost && mode != MAPTempered {
		return config.FieldError("map.mode", mode, `must be "boost" or "tempered"`)
	}
	return config.FirstError(
		checkCrossInit("model.cross_init", g.Model.CrossInit),
		g.VB.Validate("vb", lds.HyperGroupsOf(lds.Variational, true)),
		g.MAP.FitSettings.Validate("map", lds.HyperGroupsOf(lds.MAPBoost, true)),
		g.Thresholds.validate())
}

// geneSet is the data of one seed, in the feedback form.
type geneSet struct {
	Train, Test, Extra []lds.Sequence
	ExtraName          string
	// Truth is the p×p interaction matrix of the surrogate, nil for real
	// data.
	Truth *mat.Dense
}

// genePipeline is what the two gene experiments share.
type genePipeline struct {
	id    string
	seed  uint64
	seeds int
	GeneSettings
	// data returns the data of a seed; noisy, if not nil, the noisier
	// variant of criterion 6 (surrogate only).
	data  func(seed int) (*geneSet, error)
	noisy func(seed int) (*geneSet, error)
}

// Kinds of gene cells.
const (
	kindSweep = "sweep" // one k of the grid (Figure 5.11)
	kindInter = "inter" // the interaction fit (Figures 5.12-5.13)
	kindNoisy = "noisy" // the interaction fit on the noisier surrogate
)

// GeneRun is one gene cell.
type GeneRun struct {
	Seed, K      int
	Method, Kind string
	FitOutcome
	// Recon is the per-sequence total squared one-step reconstruction
	// error (5.157)-(5.158) by set ("train", "test" and the extra test
	// set's name); Pred the same for the true one-step-ahead prediction
	// (an extension, targets §4 #22).
	Recon, Pred map[string]experiments.Float
	// GammaAlive is the number of γ-alive hidden dimensions (VB), −1 for
	// MAP.
	GammaAlive int
	// Inter holds the interaction matrices (the interaction fits and the
	// sweep's MAP fit at interactions.k).
	Inter *Interaction `json:",omitempty"`
}

// Interaction holds p×p gene-gene matrices (row: target gene a, column:
// source gene c, the bias column removed), row-major.
type Interaction struct {
	P int
	// D is ⟨D⟩ (VB) or D_MAP; Total is ⟨D⟩ + ⟨C⟩⟨B⟩ or D_MAP + C_MAP B_MAP,
	// the first-order influence (5.154).
	D, Total []float64
	// Var is the posterior variance E[ρ_a⁻¹][Σ_D]_cc of D_ac (VB only;
	// targets §1.11, Figure 5.12(c)).
	Var []float64 `json:",omitempty"`
}

// Z returns the significance ⟨D_ac⟩ / sd(D_ac) of every entry.
func (in *Interaction) Z() []float64 {
	z := make([]float64, len(in.D))
	for i := range z {
		z[i] = in.D[i] / math.Sqrt(in.Var[i])
	}
	return z
}

func geneCellName(seed int, kind string, k int, method string) string {
	if kind == kindSweep {
		return fmt.Sprintf("s%02d-k%02d-%s", seed, k, method)
	}
	return fmt.Sprintf("s%02d-%s-%s", seed, kind, method)
}

// fit runs VB or MAP on the training sequences with k hidden dimensions,
// β of the gene inputs fixed at betaFixed if positive, from the initial
// states of (seed, k).
func (g *genePipeline) fit(train []lds.Sequence, seed, k int, method string, betaFixed float64, stop func() error) (*lds.VB, vb.Result, error) {
	set := lds.Settings{K: k, CrossInit: crossInit(g.Model.CrossInit)}
	run := g.VB
	if method == MethodMAP {
		set.Mode, set.Kappa, run = lds.MAPBoost, g.MAP.Kappa, g.MAP.FitSettings
		if g.MAP.Mode == MAPTempered {
			set.Mode = lds.MAPTempered
		}
	}
	if betaFixed > 0 {
		_, d := train[0].U.Dims()
		set.Hyper.Beta = make([]float64, d)
		set.Fixed.Beta = make([]bool, d)
		set.Hyper.Beta[0] = 1 // the bias: learnt
		for c := 1; c < d; c++ {
			set.Hyper.Beta[c], set.Fixed.Beta[c] = betaFixed, true
		}
	}
	m, err := lds.NewVB(train, set, rng.New(g.seed, g.id, "init", strconv.Itoa(seed), strconv.Itoa(k)))
	if err != nil {
		return nil, vb.Result{}, err
	}
	return m, vb.Run(m, run.Settings(stop, m)), nil
}

// reconError returns the per-sequence total squared reconstruction error
// of eqs. 5.155-5.158, ŷ_t = ⟨C⟩⟨x_t⟩ + ⟨D⟩u_t with ⟨x_t⟩ the smoothed
// mean given the whole sequence, averaged over the sequences.
func reconError(m *lds.VB, seqs []lds.Sequence, post func(i int) (*infer.LDSPosterior, error)) (float64, error) {
	C, D := m.C(), m.D()
	k, p, _ := m.Dims()
	var total float64
	yhat := mat.NewVecDense(p, nil)
	var du mat.VecDense
	for i, s := range seqs {
		q, err := post(i)
		if err != nil {
			return 0, err
		}
		T, _ := s.Y.Dims()
		for t := 0; t < T; t++ {
			yhat.MulVec(C, mat.NewVecDense(k, q.X[t*k:(t+1)*k]))
			du.MulVec(D, s.U.RowView(t))
			yhat.AddVec(yhat, &du)
			for j := 0; j < p; j++ {
				e := yhat.AtVec(j) - s.Y.At(t, j)
				total += e * e
			}
		}
	}
	return total / float64(len(seqs)), nil
}

// predError returns the per-sequence total squared error of the true
// one-step-ahead prediction ŷ_t = ⟨C⟩(⟨A⟩x̂_{t−1} + ⟨B⟩u_t) + ⟨D⟩u_t, with
// x̂_{t−1} the mean of x_{t−1} given y_1..y_{t−1} (the filtered mean, which
// is the last smoothed mean of the prefix: lds.VB.Filtered; μ_0 for
// t = 1). An extension, not in the thesis (targets §4 #22, §3.10 item 4).
func predError(m *lds.VB, seqs []lds.Sequence) (float64, error) {
	A, B, C, D := m.A(), m.B(), m.C(), m.D()
	k, p, _ := m.Dims()
	var total float64
	var x, bu, yhat, du mat.VecDense
	for _, s := range seqs {
		T, _ := s.U.Dims()
		filt, err := m.Filtered(s)
		if err != nil {
			return 0, err
		}
		for t := 0; t < T; t++ {
			prev := mat.NewVecDense(k, append([]float64(nil), m.Hyper.Mu0...))
			if t > 0 {
				prev = mat.NewVecDense(k, append([]float64(nil), filt.RawRowView(t-1)...))
			}
			x.MulVec(A, prev)
			bu.MulVec(B, s.U.RowView(t))
			x.AddVec(&x, &bu)
			yhat.MulVec(C, &x)
			du.MulVec(D, s.U.RowView(t))
			yhat.AddVec(&yhat, &du)
			for j := 0; j < p; j++ {
				e := yhat.AtVec(j) - s.Y.At(t, j)
				total += e * e
			}
		}
	}
	return total / float64(len(seqs)), nil
}

// interaction reads the interaction matrices of a fitted model (the bias,
// input 0, removed).
func interaction(m *lds.VB, withVar bool) *Interaction {
	k, p, d := m.Dims()
	D, C, B := m.D(), m.C(), m.B()
	var CB mat.Dense
	CB.Mul(C, B)
	in := &Interaction{P: p, D: make([]float64, p*(d-1)), Total: make([]float64, p*(d-1))}
	var cov *mat.SymDense
	var eInv []float64
	if withVar {
		cov = m.CovCD()
		for _, g := range m.NoisePosterior() {
			eInv = append(eInv, g.Beta/(g.Alpha-1)) // E[ρ⁻¹] of Ga(shape, rate)
		}
		in.Var = make([]float64, p*(d-1))
	}
	for a := 0; a < p; a++ {
		for c := 1; c < d; c++ {
			i := a*(d-1) + c - 1
			in.D[i] = D.At(a, c)
			in.Total[i] = D.At(a, c) + CB.At(a, c)
			if withVar {
				in.Var[i] = eInv[a] * cov.At(k+c, k+c)
			}
		}
	}
	return in
}

// runGeneCell fits one cell and reads out its errors and matrices.
func (g *genePipeline) runGeneCell(seed, k int, method, kind string, stop func() error) (GeneRun, error) {
	start := time.Now()
	r := GeneRun{Seed: seed, K: k, Method: method, Kind: kind, GammaAlive: -1}
	data := g.data
	if kind == kindNoisy {
		data = g.noisy
	}
	ds, err := data(seed)
	if err != nil {
		return r, err
	}
	beta := 0.0
	if kind != kindSweep && method == MethodVB {
		beta = g.Interactions.BetaFixed
	}
	m, res, err := g.fit(ds.Train, seed, k, method, beta, stop)
	if err != nil {
		return r, err
	}
	if res.Status == vb.Canceled {
		return r, stop()
	}
	r.end(res)
	r.Recon, r.Pred = map[string]experiments.Float{}, map[string]experiments.Float{}
	sets := []struct {
		name string
		seqs []lds.Sequence
	}{{"train", ds.Train}, {"test", ds.Test}}
	if len(ds.Extra) > 0 {
		sets = append(sets, struct {
			name string
			seqs []lds.Sequence
		}{ds.ExtraName, ds.Extra})
	}
	for _, st := range sets {
		post := func(i int) (*infer.LDSPosterior, error) { return m.Infer(st.seqs[i]) }
		if st.name == "train" {
			post = func(i int) (*infer.LDSPosterior, error) { return m.Posterior(i), nil }
		}
		e, err := reconError(m, st.seqs, post)
		if err != nil {
			return r, fmt.Errorf("%s: %w", st.name, err)
		}
		pe, err := predError(m, st.seqs)
		if err != nil {
			return r, fmt.Errorf("%s: %w", st.name, err)
		}
		r.Recon[st.name], r.Pred[st.name] = experiments.Float(e), experiments.Float(pe)
	}
	if method == MethodVB {
		r.GammaAlive = len(g.Thresholds.aliveSet(m.Hyper.Gamma))
	}
	if kind != kindSweep || (method == MethodMAP && k == g.Interactions.K) {
		r.Inter = interaction(m, method == MethodVB)
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// geneCell names one cell of the pipeline.
type geneCell struct {
	seed, k      int
	method, kind string
}

// cells lists the pipeline's cells: the sweep (VB and MAP at every k), the
// interaction fit (VB with β fixed; MAP too when interactions.k is not in
// the grid), and the noisy interaction fit.
func (g *genePipeline) cells() []geneCell {
	var cs []geneCell
	inGrid := false
	for _, k := range g.Model.KGrid {
		inGrid = inGrid || k == g.Interactions.K
	}
	for s := 0; s < g.seeds; s++ {
		for _, k := range g.Model.KGrid {
			for _, meth := range []string{MethodVB, MethodMAP} {
				cs = append(cs, geneCell{s, k, meth, kindSweep})
			}
		}
		cs = append(cs, geneCell{s, g.Interactions.K, MethodVB, kindInter})
		if !inGrid {
			cs = append(cs, geneCell{s, g.Interactions.K, MethodMAP, kindInter})
		}
		if g.noisy != nil {
			cs = append(cs, geneCell{s, g.Interactions.K, MethodVB, kindNoisy})
		}
	}
	return cs
}

// run computes every cell; it returns the runs, or nil in a shard.
func (g *genePipeline) run(env *experiments.Env) ([]GeneRun, error) {
	cs := g.cells()
	names := make([]string, len(cs))
	cost := make([]float64, len(cs))
	for i, c := range cs {
		names[i] = geneCellName(c.seed, c.kind, c.k, c.method)
		cost[i] = float64(c.k + 10)
	}
	return runFits(env, names, cost, func(i int) (GeneRun, error) {
		c := cs[i]
		return g.runGeneCell(c.seed, c.k, c.method, c.kind, env.Stop)
	})
}
