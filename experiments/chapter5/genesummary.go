package chapter5

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// Files of the gene experiments.
const (
	// ErrorsFile: seed, k, method, set, recon, pred, gamma_alive (Figure
	// 5.11).
	ErrorsFile = "errors.csv"
	// InteractionsFile: one row per gene pair and seed (Figure 5.12).
	InteractionsFile = "interactions.csv"
	// NetworkFile: one row per significant entry of ⟨D⟩ (Figure 5.13).
	NetworkFile = "network.csv"
	// ExpressionFile: the normalised series (Figure 5.9).
	ExpressionFile = "expression.csv"
)

// interPair is the VB and MAP interaction matrices of one seed and variant.
type interPair struct {
	seed     int
	variant  string // "default" or "noisy"
	vb, map_ *Interaction
	truth    *mat.Dense
}

// pairs collects the interaction fits of the runs.
func (g *genePipeline) pairs(runs []GeneRun, truth func(seed int, variant string) *mat.Dense) []interPair {
	var out []interPair
	for s := 0; s < g.seeds; s++ {
		var p, q interPair
		p.seed, p.variant, q.seed, q.variant = s, "default", s, "noisy"
		for i := range runs {
			r := &runs[i]
			if r.Seed != s || r.Inter == nil {
				continue
			}
			switch {
			case r.Kind == kindInter && r.Method == MethodVB:
				p.vb = r.Inter
			case r.Method == MethodMAP && r.K == g.Interactions.K:
				p.map_ = r.Inter
			case r.Kind == kindNoisy:
				q.vb = r.Inter
			}
		}
		p.truth, q.truth = truth(s, p.variant), truth(s, q.variant)
		out = append(out, p)
		if q.vb != nil {
			out = append(out, q)
		}
	}
	return out
}

// interScore scores one interaction fit.
type interScore struct {
	Significant, Self, Positive, Negative int
	Fraction                              float64 // |S| / p²
	MAPZeros                              int
	Corr                                  float64 // Pearson(MAP D + CB, VB ⟨D⟩ + ⟨C⟩⟨B⟩)
	RankRatio                             float64 // σ₂/σ₁ of the variance image
	// Against the truth (NaN without one).
	TrueEdges                            int
	Precision, Recall, SignAgree, FPRate float64
	AUCVB, AUCVBOff, AUCMAP, AUCMAPOff   float64
	significant                          map[[2]int]bool
}

// score computes the criteria's quantities of targets §3.8.
func (ip interPair) score(sds float64) interScore {
	p := ip.vb.P
	z := ip.vb.Z()
	sc := interScore{significant: map[[2]int]bool{}, Corr: math.NaN(), Precision: math.NaN(), Recall: math.NaN(),
		SignAgree: math.NaN(), FPRate: math.NaN(), AUCVB: math.NaN(), AUCVBOff: math.NaN(), AUCMAP: math.NaN(), AUCMAPOff: math.NaN()}
	for a := 0; a < p; a++ {
		for c := 0; c < p; c++ {
			i := a*p + c
			if math.Abs(z[i]) > sds {
				sc.significant[[2]int{a, c}] = true
				sc.Significant++
				if a == c {
					sc.Self++
				}
				if ip.vb.D[i] > 0 {
					sc.Positive++
				} else {
					sc.Negative++
				}
			}
		}
	}
	sc.Fraction = float64(sc.Significant) / float64(p*p)
	sc.RankRatio = SingularRatio(mat.NewDense(p, p, ip.vb.Var))
	if ip.map_ != nil {
		for _, v := range ip.map_.Total {
			if v == 0 {
				sc.MAPZeros++
			}
		}
		sc.Corr = stat.Correlation(ip.map_.Total, ip.vb.Total, nil)
	}
	if ip.truth == nil {
		return sc
	}
	var tp, fp, zeros, signOK int
	var absZ, absMAP []float64
	var label []bool
	var absZOff, absMAPOff []float64
	var labelOff []bool
	for a := 0; a < p; a++ {
		for c := 0; c < p; c++ {
			i := a*p + c
			t := ip.truth.At(a, c)
			edge := t != 0
			if edge {
				sc.TrueEdges++
			} else {
				zeros++
			}
			if sc.significant[[2]int{a, c}] {
				if edge {
					tp++
					if (t > 0) == (ip.vb.D[i] > 0) {
						signOK++
					}
				} else {
					fp++
				}
			}
			absZ, label = append(absZ, math.Abs(z[i])), append(label, edge)
			if ip.map_ != nil {
				absMAP = append(absMAP, math.Abs(ip.map_.Total[i]))
			}
			if a != c {
				absZOff, labelOff = append(absZOff, math.Abs(z[i])), append(labelOff, edge)
				if ip.map_ != nil {
					absMAPOff = append(absMAPOff, math.Abs(ip.map_.Total[i]))
				}
			}
		}
	}
	if sc.Significant > 0 {
		sc.Precision = float64(tp) / float64(sc.Significant)
	}
	if sc.TrueEdges > 0 {
		sc.Recall = float64(tp) / float64(sc.TrueEdges)
	}
	if tp > 0 {
		sc.SignAgree = float64(signOK) / float64(tp)
	}
	if zeros > 0 {
		sc.FPRate = float64(fp) / float64(zeros)
	}
	sc.AUCVB, sc.AUCVBOff = AUROC(absZ, label), AUROC(absZOff, labelOff)
	if ip.map_ != nil {
		sc.AUCMAP, sc.AUCMAPOff = AUROC(absMAP, label), AUROC(absMAPOff, labelOff)
	}
	return sc
}

// writeTables writes ErrorsFile, InteractionsFile, NetworkFile and the
// traces.
func (g *genePipeline) writeTables(env *experiments.Env, runs []GeneRun, genes []string, pairs []interPair) error {
	et := results.NewTable("seed", "k", "method", "kind", "set", "recon", "pred", "gamma_alive", "status")
	var traces []experiments.RunTrace
	for _, r := range runs {
		sets := make([]string, 0, len(r.Recon))
		for s := range r.Recon {
			sets = append(sets, s)
		}
		slices.Sort(sets)
		for _, s := range sets {
			et.AddRow(r.Seed, r.K, r.Method, r.Kind, s, float64(r.Recon[s]), float64(r.Pred[s]), r.GammaAlive, r.Status)
		}
		traces = append(traces, experiments.RunTrace{Run: geneCellName(r.Seed, r.Kind, r.K, r.Method), F: r.F})
	}
	it := results.NewTable("seed", "variant", "target", "source", "target_gene", "source_gene", "map_total", "vb_d", "vb_total", "vb_var", "z", "significant", "truth")
	nt := results.NewTable("seed", "variant", "source", "target", "source_gene", "target_gene", "sign", "vb_d", "z", "true_edge")
	for _, ip := range pairs {
		if ip.vb == nil {
			continue
		}
		p := ip.vb.P
		z := ip.vb.Z()
		for a := 0; a < p; a++ {
			for c := 0; c < p; c++ {
				i := a*p + c
				mt, tr := math.NaN(), math.NaN()
				if ip.map_ != nil {
					mt = ip.map_.Total[i]
				}
				if ip.truth != nil {
					tr = ip.truth.At(a, c)
				}
				sig := math.Abs(z[i]) > g.Interactions.SignificanceSDs
				it.AddRow(ip.seed, ip.variant, a+1, c+1, genes[a], genes[c], mt, ip.vb.D[i], ip.vb.Total[i], ip.vb.Var[i], z[i], int(b2f(sig)), tr)
				if sig {
					sign := 1
					if ip.vb.D[i] < 0 {
						sign = -1
					}
					te := "NA"
					if ip.truth != nil {
						te = fmt.Sprint(ip.truth.At(a, c) != 0)
					}
					nt.AddRow(ip.seed, ip.variant, c+1, a+1, genes[c], genes[a], sign, ip.vb.D[i], z[i], te)
				}
			}
		}
	}
	for _, w := range []struct {
		name string
		t    *results.Table
	}{{ErrorsFile, et}, {InteractionsFile, it}, {NetworkFile, nt}} {
		if err := results.WriteCSV(env.Path(w.name), *w.t); err != nil {
			return err
		}
	}
	return experiments.WriteTraces(env.Dir, traces)
}

// curves returns, for a method and a set, the error against k for each
// seed (rows) and the median over seeds.
func (g *genePipeline) curves(runs []GeneRun, method, set string, pred bool) (perSeed [][]float64, med []float64) {
	perSeed = make([][]float64, g.seeds)
	for s := range perSeed {
		perSeed[s] = make([]float64, len(g.Model.KGrid))
		for i := range perSeed[s] {
			perSeed[s][i] = math.NaN()
		}
	}
	for _, r := range runs {
		if r.Kind != kindSweep || r.Method != method {
			continue
		}
		i := slices.Index(g.Model.KGrid, r.K)
		v, ok := r.Recon[set]
		if pred {
			v, ok = r.Pred[set]
		}
		if i >= 0 && ok {
			perSeed[r.Seed][i] = float64(v)
		}
	}
	med = make([]float64, len(g.Model.KGrid))
	for i := range med {
		var xs []float64
		for s := range perSeed {
			xs = append(xs, perSeed[s][i])
		}
		med[i] = medianOf(xs)
	}
	return perSeed, med
}

// restrict returns the ks ≥ kmin and the matching values.
func restrict(ks []int, v []float64, kmin int) (kk, vv []float64) {
	for i, k := range ks {
		if k >= kmin {
			kk, vv = append(kk, float64(k)), append(vv, v[i])
		}
	}
	return kk, vv
}

// maxOverMin returns max/min of xs.
func maxOverMin(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return slices.Max(xs) / slices.Min(xs)
}
