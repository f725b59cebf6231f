package chapter4

import (
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/model/mfa"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/samplers/is"
)

// mfaProposal returns the importance distribution of a VBMFA snapshot in
// the layout of mfa.ISLayout: q(π) = Dir(ω) followed by one block per row
// Λ̃^s_q (Beal 2003 §4.7.2, L3029, L3144). With dof = 0 the rows are the
// Gaussians N(m^s_q, Γ^s_q) of q(Λ̃) itself; with dof = ν > 0 each row is
// the multivariate Student-t with ν degrees of freedom, location m^s_q and
// scale matrix Γ^s_q (eqs. (4.122)-(4.127), samplers 2-3 of Table 4.3),
// and q(π) is unchanged.
func mfaProposal(post mfa.ISPosterior, dof float64) (*is.Product, error) {
	if err := post.Validate(); err != nil {
		return nil, err
	}
	if !(dof >= 0) || math.IsInf(dof, 0) {
		return nil, fmt.Errorf("chapter4: proposal degrees of freedom %v", dof)
	}
	p := len(post.Hyper.Psi)
	blocks := []is.Proposal{is.NewDirichlet(post.Omega)}
	for s, r := range post.Rows {
		for q := 0; q < p; q++ {
			var chol mat.Cholesky
			if !chol.Factorize(r.RowCov(q)) {
				return nil, fmt.Errorf("chapter4: row %d of analyser %d: covariance not positive definite", q, s)
			}
			if dof == 0 {
				blocks = append(blocks, is.NewGaussian(r.RowMean(q), &chol))
			} else {
				blocks = append(blocks, is.NewStudentT(dof, r.RowMean(q), &chol))
			}
		}
	}
	return is.NewProduct(blocks...), nil
}

// sharedCell returns the stored cell name, or computes and stores it. Unlike
// experiments.RunCells it runs in every shard: the later cells of every
// shard depend on it (the search whose snapshots chapter4/is-tightness
// samples, the optimisations of chapter4/is-samplers), and it is
// deterministic, so shards that compute it concurrently store the same
// result. Under vbw merge it must already be stored.
func sharedCell[T any](env *experiments.Env, name string, run func() (T, error)) (T, error) {
	root := env.CellRoot
	if root == "" {
		root = env.Dir
	}
	v, ok, err := experiments.LoadCell[T](root, env.CellKey, name)
	if err != nil || ok {
		return v, err
	}
	if env.MergeOnly {
		return v, fmt.Errorf("merge: cell %s is missing; run every shard into this output directory first", name)
	}
	// One cell outside the cell runner: its own progress, a line every
	// experiments.HeartbeatEvery while it runs.
	prog := experiments.NewProgress(env.Log, env.ID+" "+name, 1, 0)
	defer prog.Finish()
	defer prog.Heartbeat(experiments.HeartbeatEvery)()
	start := time.Now()
	if v, err = run(); err != nil {
		return v, fmt.Errorf("cell %s: %w", name, err)
	}
	prog.Done(1)
	return v, experiments.SaveCell(root, env.CellKey, name, time.Since(start).Seconds(), v)
}

// lsSlope returns the least-squares slope of y on x (NaN if x is
// constant or there are fewer than two points).
func lsSlope(x, y []float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	sxx, _, sxy := centredMoments(x, y)
	if sxx == 0 {
		return math.NaN()
	}
	return sxy / sxx
}

// centredMoments returns Σ(x−x̄)², Σ(y−ȳ)² and Σ(x−x̄)(y−ȳ).
func centredMoments(x, y []float64) (sxx, syy, sxy float64) {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxx += dx * dx
		syy += dy * dy
		sxy += dx * dy
	}
	return sxx, syy, sxy
}
