package approx

import (
	"fmt"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/approx"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/results"
)

// Method names, as they appear in the tables' method column.
const (
	mExact     = "exact"
	mLaplace   = "laplace"
	mVB        = "vb"      // the Gaussian minimising KL(q‖p)
	mMoments   = "moments" // the Gaussian minimising KL(p‖q)
	mEP        = "ep"
	mFactQP    = "factorised_klqp"
	mFactPQ    = "factorised_klpq"
	mSphereQP  = "spherical_klqp"
	mSpherePQ  = "spherical_klpq"
	mMixture   = "mixture_klqp"
	mVBModeA   = "vb_mode_a" // KL(q‖p) from one mode (PRML Fig. 10.3(b))
	mVBModeB   = "vb_mode_b" // … from the other (Fig. 10.3(c))
	mMeanField = "mean_field"
	mFactor    = "factor" // PRML Fig. 10.16: f_n(θ)
	mSite      = "site"   // … the site f̃_n(θ)
	mCavity    = "cavity" // … the cavity q\n(θ)
)

// fitted is one approximation of a panel.
type fitted struct {
	method string
	q      approx.Q
}

// panel is one panel of a figure: the exact density and its
// approximations, with their table rows once computed.
type panel struct {
	label string // "a", "rho=0.9", "sep=5,ratio=4"
	p     approx.Density
	ex    approx.Exact
	qs    []fitted
	rows  map[string]approx.Row
	// view is the drawn box (the density's box if nil).
	viewLo, viewHi []float64
	// gaussian says the exact density is a Gaussian: in two dimensions
	// its contours are drawn as ellipses from its moments, like those of
	// a Gaussian q, rather than from a grid.
	gaussian bool
}

// isGaussian reports whether method's density in pn is a Gaussian.
func (pn *panel) isGaussian(method string) bool {
	if method == mExact {
		return pn.gaussian
	}
	for _, q := range pn.qs {
		if q.method == method {
			_, ok := q.q.(approx.Normal)
			return ok
		}
	}
	return false
}

// newPanel computes p's exact quantities.
func newPanel(label string, p approx.Density, tol numeric.QuadTol) (*panel, error) {
	ex, err := p.Exact(tol)
	if err != nil {
		return nil, fmt.Errorf("panel %s: %w", label, err)
	}
	return &panel{label: label, p: p, ex: ex, rows: map[string]approx.Row{mExact: ex.Row()}}, nil
}

// add computes q's row (its moments and entropy, both KLs by quadrature)
// and adds it to the panel.
func (pn *panel) add(method string, q approx.Q, tol numeric.QuadTol) error {
	var r approx.Row
	var err error
	switch qq := q.(type) {
	case approx.Normal:
		r, err = approx.Compare(qq, pn.p, pn.ex, tol)
	case interface{ Moments() approx.Normal }: // a Mixture, a Normal–Gamma product
		m := qq.Moments()
		r = approx.Row{Mean: m.Mean, Cov: m.Cov}
		if r.Entropy, err = approx.QEntropy(q, tol); err == nil {
			if r.KLqp, err = approx.KLqp(q, pn.p, pn.ex, tol); err == nil {
				r.KLpq, err = approx.KLpq(pn.p, pn.ex, q, tol)
			}
		}
	default:
		err = fmt.Errorf("unknown approximation %T", q)
	}
	if err != nil {
		return fmt.Errorf("panel %s, %s: %w", pn.label, method, err)
	}
	pn.qs = append(pn.qs, fitted{method, q})
	pn.rows[method] = r
	return nil
}

// row returns the row of method (it must exist).
func (pn *panel) row(method string) approx.Row {
	r, ok := pn.rows[method]
	if !ok {
		panic("approx: no row " + method + " in panel " + pn.label)
	}
	return r
}

// figure is one output figure: its stem (named after the source) and its
// panels.
type figure struct {
	stem   string
	panels []*panel
	// methods are the approximations drawn and tabulated beside the
	// exact density; nil means every method of the panel.
	methods []string
}

// shown returns the methods of pn that f draws, exact first.
func (f figure) shown(pn *panel) []string {
	ms := []string{mExact}
	for _, q := range pn.qs {
		if f.methods == nil || slices.Contains(f.methods, q.method) {
			ms = append(ms, q.method)
		}
	}
	return ms
}

// tableHeader returns the columns of a table of d-dimensional panels.
func tableHeader(d int) []string {
	if d == 1 {
		return []string{"panel", "method", "mean", "variance", "entropy", "kl_qp", "kl_pq"}
	}
	return []string{"panel", "method", "mean_x", "mean_y", "var_x", "var_y", "cov_xy", "entropy", "kl_qp", "kl_pq", "gaussian"}
}

// write writes F_table.csv and F_curves.csv (1-D) or F_grid.csv (2-D)
// with n points per axis. In two dimensions a Gaussian's contours are
// ellipses drawn from its row of the table (column gaussian = 1), so the
// grid holds the other densities alone (and is not written if there are
// none).
func (f figure) write(env *experiments.Env, n int) error {
	d := f.panels[0].p.Dim()
	tab := results.NewTable(tableHeader(d)...)
	var curves *results.Table
	if d == 1 {
		curves = results.NewTable("panel", "method", "x", "density")
	} else {
		curves = results.NewTable("panel", "method", "x", "y", "density")
	}
	for _, pn := range f.panels {
		methods := f.shown(pn)
		for _, m := range methods {
			r := pn.rows[m]
			vals := []any{pn.label, m}
			if d == 1 {
				vals = append(vals, r.Mean[0], r.Cov[0])
			} else {
				vals = append(vals, r.Mean[0], r.Mean[1], r.Cov[0], r.Cov[3], r.Cov[1])
			}
			vals = append(vals, r.Entropy, r.KLqp, r.KLpq)
			if d == 2 {
				vals = append(vals, b2i(pn.isGaussian(m)))
			}
			tab.AddRow(vals...)
		}
		if err := pn.sample(curves, n, methods); err != nil {
			return err
		}
	}
	if err := results.WriteCSV(env.Path(f.stem+"_table.csv"), *tab); err != nil {
		return err
	}
	name := f.stem + "_curves.csv"
	if d == 2 {
		if len(curves.Rows) == 0 { // every density Gaussian: ellipses alone
			return nil
		}
		name = f.stem + "_grid.csv"
	}
	return results.WriteCSV(env.Path(name), *curves)
}

// sample adds the normalised exact density and the approximations of
// methods on an n-point grid (per axis) of the panel's view, leaving out
// the Gaussians of a 2-D panel.
func (pn *panel) sample(t *results.Table, n int, methods []string) error {
	lo, hi := pn.viewLo, pn.viewHi
	if lo == nil {
		lo, hi = pn.p.Lo, pn.p.Hi
	}
	twoD := len(lo) == 2
	type curve struct {
		method string
		logq   func([]float64) float64
	}
	var cs []curve
	if !twoD || !pn.gaussian {
		cs = append(cs, curve{mExact, func(x []float64) float64 { return pn.p.LogP(x) - pn.ex.LnZ }})
	}
	for _, q := range pn.qs {
		if !slices.Contains(methods, q.method) || twoD && pn.isGaussian(q.method) {
			continue
		}
		f, err := q.q.LogDensity()
		if err != nil {
			return err
		}
		cs = append(cs, curve{q.method, f})
	}
	at := func(k, i int) float64 { return lo[k] + (hi[k]-lo[k])*float64(i)/float64(n-1) }
	x := make([]float64, len(lo))
	for _, c := range cs {
		for i := range n {
			x[0] = at(0, i)
			if len(lo) == 1 {
				t.AddRow(pn.label, c.method, x[0], math.Exp(c.logq(x)))
				continue
			}
			for j := range n {
				x[1] = at(1, j)
				t.AddRow(pn.label, c.method, x[0], x[1], math.Exp(c.logq(x)))
			}
		}
	}
	return nil
}

// setRowMetrics records every row of the figure's panels as metrics
// <stem>.<panel>.<method>.<column> for the report and the goldens.
func (f figure) setRowMetrics(s *results.Summary) {
	for _, pn := range f.panels {
		for _, m := range f.shown(pn) {
			r := pn.rows[m]
			key := fmt.Sprintf("%s.%s.%s.", f.stem, pn.label, m)
			s.SetMetric(key+"entropy", r.Entropy)
			s.SetMetric(key+"kl_qp", r.KLqp)
			s.SetMetric(key+"kl_pq", r.KLpq)
		}
	}
}

// gaussianDensity returns N(q) as a Density on a box of ±sd standard
// deviations per axis (the exact density of the Gaussian panels).
func gaussianDensity(q approx.Normal, sd float64) (approx.Density, error) {
	f, err := q.LogDensity()
	if err != nil {
		return approx.Density{}, err
	}
	lo, hi := q.Box(sd)
	return approx.Density{LogP: f, Lo: lo, Hi: hi}, nil
}

// rotated returns the zero-mean 2-D Gaussian with variances v1 along
// (1, 1)/√2 and v2 along (1, −1)/√2 (Lawrence Figs 1.9 and 5.6: v1 = 1, v2 =
// 0.01; T&S eq. (1.17), corrected in targets §1.4).
func rotated(v1, v2 float64) approx.Normal {
	a, b := (v1+v2)/2, (v1-v2)/2
	return approx.Normal{Mean: []float64{0, 0}, Cov: []float64{a, b, b, a}}
}
