package chapter5

import (
	"fmt"
	"math"
	"path/filepath"
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
			case r.Method == MethodMAP && r.K == g.inter.K:
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
				sig := math.Abs(z[i]) > g.inter.SignificanceSDs
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
		perSeed[s] = make([]float64, len(g.model.KGrid))
		for i := range perSeed[s] {
			perSeed[s][i] = math.NaN()
		}
	}
	for _, r := range runs {
		if r.Kind != kindSweep || r.Method != method {
			continue
		}
		i := slices.Index(g.model.KGrid, r.K)
		v, ok := r.Recon[set]
		if pred {
			v, ok = r.Pred[set]
		}
		if i >= 0 && ok {
			perSeed[r.Seed][i] = float64(v)
		}
	}
	med = make([]float64, len(g.model.KGrid))
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

// criterion is one evaluated criterion; na, if not empty, says why it is
// not judged.
type criterion struct {
	name, target string
	pass         bool
	value        float64
	na           string
}

// generalisation evaluates the Figure 5.11 criteria of targets §3.7 on
// curves against ks (one seed's, or the medians over seeds). real selects
// the real-data variants of criteria 3, 4 and 7.
func generalisation(ks []int, vbTrain, vbTest, mapTrain, mapTest, vbExtra, mapExtra []float64, gammaAlive []float64, real bool, extra string) []criterion {
	fk := make([]float64, len(ks))
	for i, k := range ks {
		fk[i] = float64(k)
	}
	var cs []criterion
	rho := results.Spearman(fk, mapTrain)
	cs = append(cs, criterion{name: "Fig 5.11 (1) MAP E_train decreases with k: Spearman(k, E_train)", target: "<= -0.9", pass: rho <= -0.9, value: rho})
	_, vt := restrict(ks, vbTrain, 2)
	above := true
	for i := range ks {
		above = above && vbTrain[i] > mapTrain[i]
	}
	r2 := maxOverMin(vt)
	cs = append(cs, criterion{name: "Fig 5.11 (2) VB E_train roughly constant for k ≥ 2 (max/min) and above MAP's at every k", target: "<= 1.15 and above", pass: r2 <= 1.15 && above, value: r2})
	minGain, minGain4 := math.Inf(1), math.Inf(1)
	for i, k := range ks {
		gain := mapTest[i]/vbTest[i] - 1
		minGain = math.Min(minGain, gain)
		if k >= 4 {
			minGain4 = math.Min(minGain4, gain)
		}
	}
	if real {
		cs = append(cs, criterion{name: "Fig 5.11 (3') MAP E_test exceeds VB's at every k by ≥ 10% (min relative excess)", target: ">= 0.1", pass: minGain >= 0.1, value: minGain})
		if vbExtra != nil {
			ge := math.Inf(1)
			for i := range ks {
				ge = math.Min(ge, mapExtra[i]/vbExtra[i]-1)
			}
			cs = append(cs, criterion{name: "Fig 5.11 (3') MAP error on " + extra + " exceeds VB's at every k by ≥ 25% (min relative excess)", target: ">= 0.25", pass: ge >= 0.25, value: ge})
		}
	} else {
		c := criterion{name: "Fig 5.11 (3) MAP E_test > VB's at every k, by ≥ 20% for k ≥ 4 (min relative excess for k ≥ 4)", target: "> 0 and >= 0.2", pass: minGain > 0 && minGain4 >= 0.2, value: minGain4}
		if math.IsInf(minGain4, 1) {
			c.na = "the k grid has no k ≥ 4"
		}
		cs = append(cs, c)
	}
	k4, m4 := restrict(ks, mapTest, 4)
	rho4 := results.Spearman(k4, m4)
	switch {
	case len(k4) < 2:
		cs = append(cs, criterion{name: "Fig 5.11 (4) MAP E_test increases with k over k ≥ 4: Spearman", target: ">= 0.7", value: rho4, na: "the k grid has fewer than two k ≥ 4"})
	case real:
		cs = append(cs, criterion{name: "Fig 5.11 (4) MAP E_test increases with k over k ≥ 4: Spearman", target: ">= 0.7", value: rho4,
			na: fmt.Sprintf("not required on the 58-gene data (targets §3.7); Spearman = %.3g", rho4)})
	default:
		cs = append(cs, criterion{name: "Fig 5.11 (4) MAP E_test increases with k over k ≥ 4: Spearman", target: ">= 0.7", pass: rho4 >= 0.7, value: rho4})
	}
	_, vt2 := restrict(ks, vbTest, 2)
	r5 := maxOverMin(vt2)
	cs = append(cs, criterion{name: "Fig 5.11 (5) VB E_test roughly constant for k ≥ 2 (max/min)", target: "<= 1.2", pass: r5 <= 1.2, value: r5})
	minRatio := math.Inf(1)
	for i := range ks {
		minRatio = math.Min(minRatio, vbTest[i]/vbTrain[i])
	}
	cs = append(cs, criterion{name: "Fig 5.11 (6) VB E_test > VB E_train at every k (min ratio)", target: "> 1", pass: minRatio > 1, value: minRatio})
	if gammaAlive != nil {
		_, ga := restrict(ks, gammaAlive, 2)
		if len(ga) > 0 {
			spread := slices.Max(ga) - slices.Min(ga)
			if real {
				cs = append(cs, criterion{name: "Fig 5.11 (7') VB γ-alive count the same (± 1) for every k ≥ 2 (max − min)", target: "<= 2", pass: spread <= 2, value: spread})
			}
		}
	}
	return cs
}

// add records criteria for a unit (per seed) or as checks (medians).
func addCriteria(book *checkBook, cs []criterion, unit string) {
	for _, c := range cs {
		if unit != "" {
			if c.na == "" {
				book.unit(c.name, unit, c.pass, c.value)
			}
			continue
		}
		name := c.name + " [medians over seeds]"
		if c.na != "" {
			book.s.AddCheckNA(name, c.target, c.na)
			continue
		}
		book.s.AddCheck(name, c.pass, c.value, c.target)
	}
}

// generalisationChecks evaluates Figure 5.11 per seed and on the medians,
// and records the curves as metrics and lists.
func (g *genePipeline) generalisationChecks(book *checkBook, runs []GeneRun, real bool, extra string) {
	s := book.s
	vbTrS, vbTr := g.curves(runs, MethodVB, "train", false)
	vbTeS, vbTe := g.curves(runs, MethodVB, "test", false)
	mpTrS, mpTr := g.curves(runs, MethodMAP, "train", false)
	mpTeS, mpTe := g.curves(runs, MethodMAP, "test", false)
	var vbExS, mpExS [][]float64
	var vbEx, mpEx []float64
	if extra != "" {
		vbExS, vbEx = g.curves(runs, MethodVB, extra, false)
		mpExS, mpEx = g.curves(runs, MethodMAP, extra, false)
	}
	// γ-alive per seed and k.
	ga := make([][]float64, g.seeds)
	for i := range ga {
		ga[i] = make([]float64, len(g.model.KGrid))
	}
	pairs, pairsOK := 0, 0
	for _, r := range runs {
		if r.Kind == kindSweep && r.Method == MethodVB {
			ga[r.Seed][slices.Index(g.model.KGrid, r.K)] = float64(r.GammaAlive)
			if r.K >= 2 && r.K <= 20 {
				pairs++
				if math.Abs(float64(r.GammaAlive)-2) <= 1 {
					pairsOK++
				}
			}
		}
	}
	gaMed := make([]float64, len(g.model.KGrid))
	for i := range gaMed {
		var xs []float64
		for s := range ga {
			xs = append(xs, ga[s][i])
		}
		gaMed[i] = medianOf(xs)
	}
	// The criteria are stated for k ≤ 20 (targets §3.7); larger k of the
	// grid are drawn and recorded, not judged.
	var ks []int
	var idx []int
	for i, k := range g.model.KGrid {
		if k <= 20 {
			ks, idx = append(ks, k), append(idx, i)
		}
	}
	sub := func(v []float64) []float64 {
		if v == nil {
			return nil
		}
		out := make([]float64, len(idx))
		for j, i := range idx {
			out[j] = v[i]
		}
		return out
	}
	for seed := 0; seed < g.seeds; seed++ {
		var ve, me []float64
		if extra != "" {
			ve, me = vbExS[seed], mpExS[seed]
		}
		addCriteria(book, generalisation(ks, sub(vbTrS[seed]), sub(vbTeS[seed]), sub(mpTrS[seed]), sub(mpTeS[seed]), sub(ve), sub(me), sub(ga[seed]), real, extra), unitName(seed))
	}
	addCriteria(book, generalisation(ks, sub(vbTr), sub(vbTe), sub(mpTr), sub(mpTe), sub(vbEx), sub(mpEx), sub(gaMed), real, extra), "")
	if !real {
		f := math.NaN()
		if pairs > 0 {
			f = float64(pairsOK) / float64(pairs)
		}
		s.AddCheck(fmt.Sprintf("Fig 5.11 (7) VB γ-alive = 2 ± 1 for 2 ≤ k ≤ 20 (fraction of %d (seed, k) pairs)", pairs), f >= 0.8, f, ">= 0.8")
	}
	fk := make([]float64, len(g.model.KGrid))
	for i, k := range g.model.KGrid {
		fk[i] = float64(k)
	}
	if s.Lists == nil {
		s.Lists = map[string][]float64{}
	}
	s.Lists["k"] = fk
	s.Lists["E_train.VB"], s.Lists["E_test.VB"], s.Lists["E_train.MAP"], s.Lists["E_test.MAP"] = vbTr, vbTe, mpTr, mpTe
	s.Lists["gamma_alive.VB"] = gaMed
	if extra != "" {
		s.Lists["E_"+extra+".VB"], s.Lists["E_"+extra+".MAP"] = vbEx, mpEx
	}
	_, pvTe := g.curves(runs, MethodVB, "test", true)
	_, pmTe := g.curves(runs, MethodMAP, "test", true)
	s.Lists["pred_test.VB"], s.Lists["pred_test.MAP"] = pvTe, pmTe
	// The extension (targets §4 #22): the reconstruction of eq. 5.155 uses
	// the smoothed state, which has seen y_t; the true one-step prediction
	// does not.
	k4, p4 := restrict(ks, sub(pmTe), 4)
	_, r4 := restrict(ks, sub(mpTe), 4)
	if len(k4) >= 2 {
		rp, rr := results.Spearman(k4, p4), results.Spearman(k4, r4)
		s.SetMetric("spearman_k_pred_test.MAP.k4plus", rp)
		s.SetMetric("spearman_k_E_test.MAP.k4plus", rr)
		s.Findings = append(s.Findings, fmt.Sprintf("Over 4 ≤ k ≤ 20 the Spearman correlation of k with MAP's test error is %.2f for the reconstruction of eq. 5.155 (smoothed state, which has seen y_t) and %.2f for the true one-step prediction (extension, targets §4 #22; median curves).", rr, rp))
	}
	for i, k := range g.model.KGrid {
		if k > 20 && mpTe[i] < vbTe[i] {
			s.Findings = append(s.Findings, fmt.Sprintf("At k = %d (beyond the criteria's k ≤ 20) MAP's test reconstruction error %.3g is below VB's %.3g, while its one-step prediction error is %.3g against VB's %.3g: with k near p the smoothed state reconstructs y_t itself.", k, mpTe[i], vbTe[i], pmTe[i], pvTe[i]))
		}
	}
	for i, k := range g.model.KGrid {
		s.SetMetric(fmt.Sprintf("E_test.VB.k%d", k), vbTe[i])
		s.SetMetric(fmt.Sprintf("E_test.MAP.k%d", k), mpTe[i])
		s.SetMetric(fmt.Sprintf("E_train.VB.k%d", k), vbTr[i])
		s.SetMetric(fmt.Sprintf("E_train.MAP.k%d", k), mpTr[i])
		// Issue 10's interface names.
		s.SetMetric(fmt.Sprintf("vb_test_error.k%d", k), vbTe[i])
		s.SetMetric(fmt.Sprintf("map_test_error.k%d", k), mpTe[i])
	}
}

// monotoneChecks reports "F never decreases" per seed over every run.
func (g *genePipeline) monotoneChecks(book *checkBook, runs []GeneRun) {
	for seed := 0; seed < g.seeds; seed++ {
		bad := 0
		for _, r := range runs {
			if r.Seed == seed && (!monotone(experiments.Float64s(r.F), MonotoneCheckTol) || r.Error != "") {
				bad++
			}
		}
		book.unit("F (VB) and the MAP objective never decrease, every run of the seed", unitName(seed), bad == 0, float64(bad))
	}
	book.fraction("F (VB) and the MAP objective never decrease, every run of the seed", 1)
}

// interactionChecks evaluates targets §3.8 on the pairs (surrogate: with
// the truth) and §3.9 on NetworkFile as written.
func (g *genePipeline) interactionChecks(book *checkBook, pairs []interPair, dir string, surrogate bool) error {
	s := book.s
	var fracs, corrs, ratios []float64
	var mapZeros int
	var sigSets []map[[2]int]bool
	var scores []interScore
	// Issue 10's interface: medians over seeds of the default variant.
	var sig, prec, rec []float64
	defer func() {
		if len(sig) > 0 {
			s.SetMetric("significant_interactions", medianOf(sig))
		}
		if len(prec) > 0 {
			s.SetMetric("interaction_precision", medianOf(prec))
			s.SetMetric("interaction_recall", medianOf(rec))
		}
	}()
	for _, ip := range pairs {
		if ip.vb == nil {
			continue
		}
		sc := ip.score(g.inter.SignificanceSDs)
		u := unitName(ip.seed)
		pre := fmt.Sprintf("interactions.%s.s%d.", ip.variant, ip.seed)
		for name, v := range map[string]float64{"significant": float64(sc.Significant), "self": float64(sc.Self), "positive": float64(sc.Positive),
			"negative": float64(sc.Negative), "fraction": sc.Fraction, "corr_map_vb": sc.Corr, "rank_ratio": sc.RankRatio,
			"true_edges": float64(sc.TrueEdges), "precision": sc.Precision, "recall": sc.Recall, "sign_agreement": sc.SignAgree,
			"fp_rate": sc.FPRate, "auroc_vb": sc.AUCVB, "auroc_vb_offdiag": sc.AUCVBOff, "auroc_map": sc.AUCMAP, "auroc_map_offdiag": sc.AUCMAPOff} {
			if !math.IsNaN(v) && (ip.truth != nil || name != "true_edges") {
				s.SetMetric(pre+name, v)
			}
		}
		if ip.variant == "noisy" {
			book.unit("Fig 5.12 (6) noisier surrogate: precision of the significant set", u, sc.Precision >= 0.85, sc.Precision)
			continue
		}
		scores = append(scores, sc)
		sig = append(sig, float64(sc.Significant))
		if ip.truth != nil {
			prec, rec = append(prec, sc.Precision), append(rec, sc.Recall)
		}
		fracs, corrs, ratios = append(fracs, sc.Fraction), append(corrs, sc.Corr), append(ratios, sc.RankRatio)
		mapZeros += sc.MAPZeros
		sigSets = append(sigSets, sc.significant)
		book.unit("Fig 5.12 (1) |S| ≤ 5% of the entries (fraction significant)", u, sc.Fraction <= 0.05 && sc.MAPZeros == 0, sc.Fraction)
		book.unit("Fig 5.12 (2) corr(MAP D + CB, VB ⟨D⟩ + ⟨C⟩⟨B⟩) ≥ 0.5", u, sc.Corr >= 0.5, sc.Corr)
		book.unit("Fig 5.12 (5) variance image rank one (σ₂/σ₁)", u, sc.RankRatio < 1e-10, sc.RankRatio)
		if surrogate {
			book.unit("Fig 5.12 (3) AUROC(VB |z|) ≥ 0.95 and ≥ AUROC(MAP |D + CB|) − 0.01", u, sc.AUCVB >= 0.95 && sc.AUCVB >= sc.AUCMAP-0.01, sc.AUCVB)
			book.unit("Fig 5.12 (4) precision ≥ 0.85, recall ≥ 0.7, sign agreement ≥ 0.98, FP rate ≤ 0.5%", u,
				sc.Precision >= 0.85 && sc.Recall >= 0.7 && sc.SignAgree >= 0.98 && sc.FPRate <= 0.005, sc.Precision)
		}
	}
	if len(scores) == 0 {
		return nil
	}
	med := func(f func(interScore) float64) float64 {
		var xs []float64
		for _, sc := range scores {
			xs = append(xs, f(sc))
		}
		return medianOf(xs)
	}
	mf := medianOf(fracs)
	s.AddCheck("Fig 5.12 (1) very sparse: median |S|/p² ≤ 5%, and the MAP matrices have no exact zeros [medians over seeds]", mf <= 0.05 && mapZeros == 0, mf, "<= 0.05 and 0 zeros")
	mc := medianOf(corrs)
	s.AddCheck("Fig 5.12 (2) corr(MAP D + CB, VB ⟨D⟩ + ⟨C⟩⟨B⟩) [medians over seeds]", mc >= 0.5, mc, ">= 0.5")
	mr := slices.Max(ratios)
	s.AddCheck("Fig 5.12 (5) the variance image E[ρ_a⁻¹][Σ_D]_cc is rank one: largest σ₂/σ₁ over seeds", mr < 1e-10, mr, "< 1e-10")
	if surrogate {
		auc, aucMAP := med(func(x interScore) float64 { return x.AUCVB }), med(func(x interScore) float64 { return x.AUCMAP })
		s.AddCheck("Fig 5.12 (3) AUROC(VB |z|) ≥ 0.95 and ≥ AUROC(MAP |D + CB|) − 0.01 [medians over seeds]", auc >= 0.95 && auc >= aucMAP-0.01, auc, ">= 0.95 and >= MAP − 0.01")
		pr, rc := med(func(x interScore) float64 { return x.Precision }), med(func(x interScore) float64 { return x.Recall })
		sa, fp := med(func(x interScore) float64 { return x.SignAgree }), med(func(x interScore) float64 { return x.FPRate })
		s.AddCheck("Fig 5.12 (4) precision of the significant set [medians over seeds]", pr >= 0.85, pr, ">= 0.85")
		s.AddCheck("Fig 5.12 (4) recall of the significant set [medians over seeds]", rc >= 0.7, rc, ">= 0.7")
		s.AddCheck("Fig 5.12 (4) sign agreement on true positives [medians over seeds]", sa >= 0.98, sa, ">= 0.98")
		s.AddCheck("Fig 5.12 (4) false-positive rate among true zeros [medians over seeds]", fp <= 0.005, fp, "<= 0.005")
		if _, ok := book.per["Fig 5.12 (6) noisier surrogate: precision of the significant set"]; ok {
			book.fraction("Fig 5.12 (6) noisier surrogate: precision of the significant set", 1)
		}
	} else {
		if len(sigSets) < 2 {
			s.AddCheckNA("Fig 5.12 Jaccard index of the significant sets across initialisation seeds [median over pairs]", ">= 0.7", "needs at least two seeds")
		} else {
			var js []float64
			for i := range sigSets {
				for j := i + 1; j < len(sigSets); j++ {
					js = append(js, Jaccard(sigSets[i], sigSets[j]))
				}
			}
			mj := medianOf(js)
			s.SetMetric("jaccard_min", slices.Min(js))
			s.AddCheck("Fig 5.12 Jaccard index of the significant sets across initialisation seeds [median over pairs]", mj >= 0.7, mj, ">= 0.7")
		}
	}
	return g.networkCheck(book, pairs, dir)
}

// networkCheck reads NetworkFile back and compares its arcs with the
// significant entries of ⟨D⟩ (targets §3.9: the drawn arcs equal the set of
// Figure 5.12(d) exactly, and their signs, which set their colours, those
// of ⟨D_ac⟩).
func (g *genePipeline) networkCheck(book *checkBook, pairs []interPair, dir string) error {
	t, err := results.ReadCSV(filepath.Join(dir, NetworkFile))
	if err != nil {
		return err
	}
	cols := map[string]int{}
	for _, name := range []string{"seed", "variant", "source", "target", "sign"} {
		if cols[name], err = t.Col(name); err != nil {
			return err
		}
	}
	type arc struct {
		seed        int
		variant     string
		source, tgt int
		sign        int
	}
	drawn := map[arc]bool{}
	for i, row := range t.Rows {
		seed, e1 := t.Int(i, cols["seed"])
		src, e2 := t.Int(i, cols["source"])
		tgt, e3 := t.Int(i, cols["target"])
		sg, e4 := t.Int(i, cols["sign"])
		if err := experiments.FirstError(e1, e2, e3, e4); err != nil {
			return err
		}
		drawn[arc{seed, row[cols["variant"]], src, tgt, sg}] = true
	}
	for _, ip := range pairs {
		if ip.vb == nil {
			continue
		}
		p := ip.vb.P
		z := ip.vb.Z()
		want := 0
		match := 0
		for a := 0; a < p; a++ {
			for c := 0; c < p; c++ {
				i := a*p + c
				if math.Abs(z[i]) <= g.inter.SignificanceSDs {
					continue
				}
				want++
				sign := 1
				if ip.vb.D[i] < 0 {
					sign = -1
				}
				if drawn[arc{ip.seed, ip.variant, c + 1, a + 1, sign}] {
					match++
				}
			}
		}
		got := 0
		for a := range drawn {
			if a.seed == ip.seed && a.variant == ip.variant {
				got++
			}
		}
		if ip.variant == "default" {
			book.unit("Fig 5.13 drawn arcs (with their signs) = the significant entries of ⟨D⟩", unitName(ip.seed), match == want && got == want, float64(got))
		}
	}
	book.fraction("Fig 5.13 drawn arcs (with their signs) = the significant entries of ⟨D⟩", 1)
	return nil
}
