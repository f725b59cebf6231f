package backfit

import (
	"fmt"
	"math"
	"runtime"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/backfit"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/rng"
	"github.com/vbworkbench/vbw/core/vb"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/experiments/datasets"
	"github.com/vbworkbench/vbw/results"
)

// rvmTask is one train/test problem: inputs row-major with dim values a
// point, targets standardised by the training mean and standard
// deviation (and the test targets by the same), so that prune_alpha and
// the prior are in units of unit-variance targets; the nMSE, a ratio to
// the test targets' variance, is unchanged by it.
type rvmTask struct {
	dim          int
	xtr, ytr     []float64
	xte, yte     []float64
	trueTest     bool // yte is the noise-free function (sinc), not data
	meanY, scale float64
}

// standardiseY standardises the targets of t by its training targets.
func (t *rvmTask) standardiseY() error {
	m, sd := numeric.MeanSD(t.ytr)
	if !(sd > 0) {
		return fmt.Errorf("training targets have no variance")
	}
	t.meanY, t.scale = m, sd
	for i := range t.ytr {
		t.ytr[i] = (t.ytr[i] - m) / sd
	}
	for i := range t.yte {
		t.yte[i] = (t.yte[i] - m) / sd
	}
	return nil
}

// RVMFit is one method's fit of one cell.
type RVMFit struct {
	Method string            `json:"method"`
	Lambda float64           `json:"lambda"`
	NMSE   experiments.Float `json:"nmse"`
	Kept   int               `json:"kept"` // kernel vectors kept (the bias not counted)
	// CPUSeconds is the thread CPU time of the fit (the design and Gram
	// matrix included, the kernel evaluations not): machine-dependent.
	CPUSeconds float64           `json:"cpu_seconds"`
	Iterations int               `json:"iterations"`
	Status     string            `json:"status"`
	Objective  experiments.Float `json:"objective"` // the RVM's log evidence, the bRVM's F
	Decreases  int               `json:"decreases"` // RVM: iterations that lowered the evidence
	NoiseVar   experiments.Float `json:"noise_var"` // 1/β, or ψ_y + Σψ_zm (standardised units)
	// Pred (the test predictions, original units) and KeptIdx (training
	// points kept) are kept for the first sinc set's figure only.
	Pred    []float64 `json:"pred,omitempty"`
	KeptIdx []int     `json:"kept_idx,omitempty"`
}

// fitOptions are a fit's settings besides the method.
type fitOptions struct {
	keep     bool    // keep Pred and KeptIdx
	noiseVar float64 // brvm_fixed_noise: the RVM's 1/β
}

// fit fits one method with kernel parameter lambda on t and measures it.
func (c *RVMConfig) fit(env *experiments.Env, t *rvmTask, method string, lambda float64, o fitOptions) (RVMFit, error) {
	f := RVMFit{Method: method, Lambda: lambda}
	kb, err := backfit.NewKernelBasis(t.xtr, t.dim, lambda)
	if err != nil {
		return f, err
	}
	n, m := len(t.ytr), kb.Size()
	nt := len(t.yte)
	var pred []float64
	var kept []int
	switch method {
	case "rvm":
		phi := kb.Design(t.xtr)
		phiT := kb.Design(t.xte)
		var r *backfit.RVM
		var res vb.Result
		secs, err := timed(func() error {
			var err error
			if r, err = backfit.NewRVM(phi, n, t.ytr, backfit.RVMSettings{PruneAlpha: c.PruneAlpha}); err != nil {
				return err
			}
			s := c.ML.Settings(env.Stop, r)
			// MacKay's updates are not coordinate ascent: count
			// decreases, do not stop at them.
			s.MonotoneTol = math.Inf(1)
			f.Decreases = 0
			s.Recorder = func(it vb.Iteration) {
				if it.Iter > 0 && it.DeltaF-it.Jump < 0 {
					f.Decreases++
				}
			}
			res = vb.Run(r, s)
			if res.Status == vb.Canceled {
				return res.Err
			}
			return nil
		})
		if err != nil {
			return f, err
		}
		f.CPUSeconds, f.Iterations, f.Status, f.Objective = secs, res.Iterations, res.Status.String(), experiments.Float(res.F)
		if res.Status == vb.Failed {
			f.NMSE = experiments.Float(math.NaN())
			return f, nil
		}
		f.NoiseVar = experiments.Float(1 / r.Beta())
		pred = r.Predict(nil, phiT, nt)
		for _, j := range r.Kept() {
			if j > 0 {
				kept = append(kept, j-1)
			}
		}
	default:
		rows := kb.DesignRows(t.xtr)
		rowsT := kb.DesignRows(t.xte)
		set := backfit.Settings{ARD: true, InitAlpha: c.BRVM.InitAlpha, AlphaFrom: c.BRVM.AlphaFrom}
		if method == "brvm_fixed_noise" {
			set.FixNoise = true
			set.Noise = backfit.Noise{PsiY: o.noiseVar / 2, PsiZ: o.noiseVar / 2 / float64(m)}
		}
		var v *backfit.VB
		var res vb.Result
		secs, err := timed(func() error {
			p, err := backfit.NewProblem(rows, m, t.ytr)
			if err != nil {
				return err
			}
			if v, err = backfit.NewVB(p, backfit.Prior{A: c.Prior.AAlpha, B: c.Prior.BAlpha}, set); err != nil {
				return err
			}
			res = vb.Run(v, c.VB.Settings(env.Stop, v))
			if res.Status == vb.Canceled {
				return res.Err
			}
			return nil
		})
		if err != nil {
			return f, err
		}
		f.CPUSeconds, f.Iterations, f.Status, f.Objective = secs, res.Iterations, res.Status.String(), experiments.Float(res.F)
		noise := v.PsiY()
		for _, z := range v.PsiZ() {
			noise += z
		}
		f.NoiseVar = experiments.Float(noise)
		pred = make([]float64, nt)
		for i := range pred {
			pred[i], _ = v.Predict(rowsT[i*m : (i+1)*m])
		}
		for j := 1; j < m; j++ {
			if v.Alpha(j) <= c.PruneAlpha {
				kept = append(kept, j-1)
			}
		}
	}
	f.Kept = len(kept)
	// nmse (regression.go) over "designs" of one column, the predictions.
	f.NMSE = experiments.Float(nmse(pred, t.yte, 1, func(p []float64) float64 { return p[0] }))
	if o.keep {
		f.KeptIdx = kept
		f.Pred = make([]float64, nt)
		for i, v := range pred {
			f.Pred[i] = v*t.scale + t.meanY
		}
	}
	return f, nil
}

// minTimed is the least thread CPU time over which a fit is timed: a
// shorter fit is repeated (the same computation: it is deterministic) until
// the repeats add up to it, so that the clock's granularity does not decide
// a ratio.
const minTimed = 0.05

// timed runs fit, repeated until minTimed seconds of the thread's CPU time
// have passed (at most 1000 times), on a locked thread, and returns the
// CPU seconds of one run.
func timed(fit func() error) (float64, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, _ := results.ThreadCPUSeconds()
	for k := 1; ; k++ {
		if err := fit(); err != nil {
			return 0, err
		}
		c1, _ := results.ThreadCPUSeconds()
		if c1-c0 >= minTimed || k == 1000 {
			return (c1 - c0) / float64(k), nil
		}
	}
}

func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	return math.Sin(x) / x
}

// sincTask draws sinc data set s: points inputs uniform on the range,
// sin(x)/x plus N(0, noise_sd²); the test set is the noise-free function on
// a grid of test_points midpoints of the range.
func (c *RVMConfig) sincTask(s int) (*rvmTask, error) {
	d := c.Sinc
	rnd := rng.New(c.Seed, RVMID, "sinc", strconv.Itoa(s))
	t := &rvmTask{dim: 1, trueTest: true}
	lo, hi := d.Range[0], d.Range[1]
	for i := 0; i < d.Points; i++ {
		x := lo + (hi-lo)*rnd.Float64()
		t.xtr = append(t.xtr, x)
		t.ytr = append(t.ytr, sinc(x)+d.NoiseSD*rnd.NormFloat64())
	}
	for i := 0; i < d.TestPoints; i++ {
		x := lo + (hi-lo)*(float64(i)+0.5)/float64(d.TestPoints)
		t.xte = append(t.xte, x)
		t.yte = append(t.yte, sinc(x))
	}
	return t, t.standardiseY()
}

// bostonTask is split s of Boston: a seeded permutation of the rows, the
// first round(test_fraction·N) held out; inputs standardised on the
// training rows (numeric.Standardise), the last column the target.
func (c *RVMConfig) bostonTask(data *mat.Dense, s int) (*rvmTask, error) {
	n, p := data.Dims()
	rnd := rng.New(c.Seed, RVMID, "boston", strconv.Itoa(s))
	perm := rnd.Perm(n)
	nt := int(math.Round(c.Boston.TestFraction * float64(n)))
	if nt < 1 || n-nt < 2 {
		return nil, fmt.Errorf("boston.test_fraction %g leaves %d test and %d training rows", c.Boston.TestFraction, nt, n-nt)
	}
	return splitTask(data, perm[nt:], perm[:nt], p)
}

// splitTask makes the task of the given training and test rows of data
// (targets in the last of its p columns).
func splitTask(data *mat.Dense, train, test []int, p int) (*rvmTask, error) {
	pick := func(rows []int) (*mat.Dense, []float64) {
		x := mat.NewDense(len(rows), p-1, nil)
		y := make([]float64, len(rows))
		for a, i := range rows {
			for q := 0; q < p-1; q++ {
				x.Set(a, q, data.At(i, q))
			}
			y[a] = data.At(i, p-1)
		}
		return x, y
	}
	xtr, ytr := pick(train)
	xte, yte := pick(test)
	ztr, zte, st, err := numeric.Standardise(xtr, xte, numeric.DropConstant)
	if err != nil {
		return nil, err
	}
	t := &rvmTask{dim: len(st.Kept), xtr: ztr.RawMatrix().Data, ytr: ytr, xte: zte.RawMatrix().Data, yte: yte}
	return t, t.standardiseY()
}

// readBoston reads the Boston file: 13 inputs and the target medv last.
func (c *RVMConfig) readBoston(env *experiments.Env) (*mat.Dense, error) {
	b, err := env.ReadData(c.Boston.File)
	if err != nil {
		return nil, err
	}
	x, header, err := datasets.LoadMatrixCSVHeader(c.Boston.File, b)
	if err != nil {
		return nil, err
	}
	n, p := x.Dims()
	if p < 2 || n < 10 {
		return nil, fmt.Errorf("%s: %d rows of %d columns: want the inputs and the target (last column), at least 10 rows", c.Boston.File, n, p)
	}
	if header != nil && header[p-1] != "medv" {
		env.Warnf("%s: the last column is %q, taken as the target (Boston's is medv)", c.Boston.File, header[p-1])
	}
	return x, nil
}

// cvFolds returns the fold of every one of n points: a seeded permutation
// dealt round the folds.
func (c *RVMConfig) cvFolds(n int, what string) []int {
	perm := rng.New(c.Seed, RVMID, "cv", what).Perm(n)
	fold := make([]int, n)
	for a, i := range perm {
		fold[i] = a % c.Folds
	}
	return fold
}

// cvTask is fold k of the training part of t: its other folds train, it
// tests (targets standardised anew by the fold's training part).
func cvTask(t *rvmTask, fold []int, k int) (*rvmTask, error) {
	out := &rvmTask{dim: t.dim}
	for i, f := range fold {
		x, y := t.xtr[i*t.dim:(i+1)*t.dim], t.ytr[i]
		if f == k {
			out.xte, out.yte = append(out.xte, x...), append(out.yte, y)
		} else {
			out.xtr, out.ytr = append(out.xtr, x...), append(out.ytr, y)
		}
	}
	return out, out.standardiseY()
}
