package discrim

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// EM is maximum-likelihood EM for Gaussian mixtures (PRML §9.2.2): the
// rows fall into groups (the classes), each with its own mixture of M
// Gaussians,
//
//	p(x_n | θ) = Σ_{j ∈ g(n)} w_j N(x_n | μ_j, Σ_j),   Σ_{j ∈ g} w_j = 1,
//
// the covariances full and free (Σ_j), or tied: one Σ shared by every
// component of every group (the mixture discriminant analysis of Hastie
// & Tibshirani 1996). With one group it is the plain mixture. It is a
// vb.Model whose objective is ln p(X | θ) = Σ_n ln p(x_n | θ) (PRML eq.
// 9.28 summed over the groups).
type EM struct {
	n, d, m, groups int
	x               []float64 // n×d row-major
	group           []int     // g(n)
	tied            bool
	// Weights w_j, Means μ_j (M·groups × D row-major) and Covs Σ_j
	// (M·groups blocks of D×D row-major; with tied covariances the first
	// block is Σ and the others copy it) are the current parameters;
	// components j·M … j·M + M − 1 are group j's.
	Weights, Means, Covs []float64
	chol                 []float64 // the Cholesky factors of Covs
	logDet               []float64 // ln|Σ_j|
	resp                 []float64 // r_nj over the row's group's M components, n×M row-major
	singular             int       // −1, or a component whose Σ_j is not positive definite
	lp, work, nj, ng     []float64
	terms                []vb.Term
}

// NewEM returns EM for the n×d rows x (row-major), in groups 0..G−1 given
// by group (nil: one group), with m components per group and full
// covariances, or one tied covariance; it starts by an M step from a
// random partition of each group's rows into m equal parts (as equal as
// its size allows) drawn from rnd.
func NewEM(x []float64, d int, group []int, m int, tied bool, rnd *rand.Rand) (*EM, error) {
	if d < 1 || m < 1 || len(x) == 0 || len(x)%d != 0 {
		return nil, fmt.Errorf("discrim: %d values in rows of %d for %d components", len(x), d, m)
	}
	n := len(x) / d
	if group == nil {
		group = make([]int, n)
	}
	if len(group) != n {
		return nil, fmt.Errorf("discrim: %d rows and %d groups", n, len(group))
	}
	g := 0
	for _, v := range group {
		if v < 0 {
			return nil, fmt.Errorf("discrim: group %d", v)
		}
		g = max(g, v+1)
	}
	members := make([][]int, g)
	for i, v := range group {
		members[v] = append(members[v], i)
	}
	for v, rows := range members {
		if len(rows) < m {
			return nil, fmt.Errorf("discrim: %d points in group %d for %d components", len(rows), v, m)
		}
	}
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("discrim: a value is not finite")
		}
	}
	c := m * g
	e := &EM{n: n, d: d, m: m, groups: g, x: x, group: group, tied: tied, Weights: make([]float64, c), Means: make([]float64, c*d), Covs: make([]float64, c*d*d),
		chol: make([]float64, c*d*d), logDet: make([]float64, c), resp: make([]float64, n*m), lp: make([]float64, m), work: make([]float64, d),
		nj: make([]float64, c), ng: make([]float64, g), terms: make([]vb.Term, 1)}
	for _, rows := range members {
		for i, p := range rnd.Perm(len(rows)) {
			e.resp[rows[p]*m+i%m] = 1
		}
	}
	e.M()
	return e, nil
}

// M sets N_j = Σ_n r_nj, μ_j = Σ_n r_nj x_n / N_j, Σ_j = Σ_n r_nj (x_n −
// μ_j)(x_n − μ_j)ᵀ / N_j (tied: Σ = Σ_j Σ_n r_nj (x_n − μ_j)(x_n −
// μ_j)ᵀ / N) and w_j = N_j / N_g(j) (PRML eqs. 9.24-9.27), and factors
// every Σ_j.
func (e *EM) M() {
	d, m := e.d, e.m
	c := m * e.groups
	clear(e.Means)
	clear(e.Covs)
	e.singular = -1
	nj, ng := e.nj, e.ng
	clear(nj)
	clear(ng)
	for i := range e.n {
		g := e.group[i]
		ng[g]++
		for jj := range m {
			j := g*m + jj
			r := e.resp[i*m+jj]
			nj[j] += r
			numeric.Axpy(r, e.x[i*d:(i+1)*d], e.Means[j*d:(j+1)*d])
		}
	}
	for j := range c {
		e.Weights[j] = nj[j] / ng[j/m]
		if !(nj[j] > 0) {
			e.singular = j
			return
		}
		numeric.Scale(1/nj[j], e.Means[j*d:(j+1)*d])
	}
	for i := range e.n {
		xi := e.x[i*d : (i+1)*d]
		for jj := range m {
			j := e.group[i]*m + jj
			r := e.resp[i*m+jj]
			if r == 0 {
				continue
			}
			mu := e.Means[j*d : (j+1)*d]
			s := e.Covs[j*d*d : (j+1)*d*d]
			if e.tied {
				s = e.Covs[:d*d]
			}
			for a := range d {
				da := r * (xi[a] - mu[a])
				for b := range a + 1 {
					s[a*d+b] += da * (xi[b] - mu[b])
				}
			}
		}
	}
	for j := range c {
		s := e.Covs[j*d*d : (j+1)*d*d]
		switch {
		case e.tied && j > 0:
			copy(s, e.Covs[:d*d])
			copy(e.chol[j*d*d:(j+1)*d*d], e.chol[:d*d])
			e.logDet[j] = e.logDet[0]
			continue
		case e.tied:
			for a := range d {
				for b := range a + 1 {
					s[a*d+b] /= float64(e.n)
				}
			}
		default:
			for a := range d {
				for b := range a + 1 {
					s[a*d+b] /= nj[j]
				}
			}
		}
		for a := range d {
			for b := range a {
				s[b*d+a] = s[a*d+b]
			}
		}
		l := e.chol[j*d*d : (j+1)*d*d]
		copy(l, s)
		if !numeric.CholFactor(l, d) {
			e.singular = j
			return
		}
		e.logDet[j] = numeric.CholLogDet(l, d)
	}
}

// logJoint writes ln w_j + ln N(x | μ_j, Σ_j) for the components of group
// g into e.lp.
func (e *EM) logJoint(x []float64, g int) {
	d := e.d
	c := -0.5 * float64(d) * math.Log(2*math.Pi)
	for jj := range e.m {
		j := g*e.m + jj
		mu := e.Means[j*d : (j+1)*d]
		for a := range d {
			e.work[a] = x[a] - mu[a]
		}
		numeric.CholSolveVec(e.chol[j*d*d:(j+1)*d*d], d, e.work)
		e.lp[jj] = math.Log(e.Weights[j]) + c - 0.5*e.logDet[j] - 0.5*numeric.Dot(e.work, e.work)
	}
}

// E returns ln p(X | θ) = Σ_n ln Σ_{j ∈ g(n)} w_j N(x_n | μ_j, Σ_j) at
// the current parameters (PRML eq. 9.28) and sets the responsibilities
// r_nj (PRML eq. 9.23). It fails with ErrSingular when a component has no
// weight or a covariance that is not positive definite (a component
// collapsed onto fewer than D + 1 points).
func (e *EM) E() (vb.Bound, error) {
	if e.singular >= 0 {
		return vb.Bound{}, fmt.Errorf("component %d: %w", e.singular, ErrSingular)
	}
	var ll float64
	for i := range e.n {
		e.logJoint(e.x[i*e.d:(i+1)*e.d], e.group[i])
		z := numeric.LogSumExp(e.lp)
		ll += z
		r := e.resp[i*e.m : (i+1)*e.m]
		for j, v := range e.lp {
			r[j] = math.Exp(v - z)
		}
	}
	e.terms[0] = vb.Term{Name: "ln p(X|θ)", Value: ll}
	return vb.Bound{F: ll, Terms: e.terms}, nil
}

// LogDensity returns ln p(x | θ) under group g's mixture at the current
// parameters.
func (e *EM) LogDensity(x []float64, g int) float64 {
	e.logJoint(x, g)
	return numeric.LogSumExp(e.lp)
}

// Mixtures classifies by one Gaussian mixture per class and Bayes' rule
// (package doc).
type Mixtures struct {
	// Classes are the fitted mixtures: with free covariances one EM per
	// class (group 0 of each), with a tied covariance one EM whose groups
	// are the classes (every entry the same).
	Classes []*EM
	// LogPrior are ln π_c = ln(N_c / N).
	LogPrior []float64
	// LogLik is ln p(X | θ) at the kept starts, summed over the classes.
	LogLik float64
	// Singular counts the starts that ended on a singular covariance
	// (ErrSingular) and were dropped.
	Singular int
	tied     bool
}

// FitMixtures fits m Gaussians to each class of the rows x (classes in
// 0..k−1) by EM from restarts starts, each run by vb.Run with settings
// s: with free covariances (tied false) each class alone, its start r
// drawn from stream(c, r); with one covariance tied across every component
// of every class, the classes together, start r drawn from stream(0, r).
// The start of highest ln p(X_c | θ) (tied: ln p(X | θ)) is kept. A start
// that ends on a singular covariance is dropped (counted in Singular); a
// fit none of whose starts survives, or a run whose likelihood decreased,
// is an error.
func FitMixtures(x [][]float64, class []int, k, m int, tied bool, restarts int, s vb.Settings, stream func(class, restart int) *rand.Rand) (*Mixtures, error) {
	d, err := checkClasses(x, class, k)
	if err != nil {
		return nil, err
	}
	if restarts < 1 {
		return nil, fmt.Errorf("discrim: %d starts, want at least 1", restarts)
	}
	count := make([]int, k)
	for _, c := range class {
		count[c]++
	}
	mx := &Mixtures{Classes: make([]*EM, k), LogPrior: make([]float64, k), tied: tied}
	for c := range k {
		if count[c] == 0 {
			return nil, fmt.Errorf("discrim: class %d has no training point", c)
		}
		mx.LogPrior[c] = math.Log(float64(count[c]) / float64(len(x)))
	}
	best := func(rows []float64, group []int, c int) (*EM, float64, error) {
		var kept *EM
		ll := math.Inf(-1)
		for r := range restarts {
			e, err := NewEM(rows, d, group, m, tied, stream(c, r))
			if err != nil {
				return nil, 0, err
			}
			res := vb.Run(e, s)
			if errors.Is(res.Err, ErrSingular) {
				mx.Singular++
				continue
			}
			if err := res.Error(); err != nil {
				return nil, 0, fmt.Errorf("start %d: %w", r, err)
			}
			if res.F > ll {
				kept, ll = e, res.F
			}
		}
		if kept == nil {
			return nil, 0, fmt.Errorf("every one of %d starts ended on a singular covariance: %w", restarts, ErrSingular)
		}
		return kept, ll, nil
	}
	if tied {
		var rows []float64
		for _, r := range x {
			rows = append(rows, r...)
		}
		e, ll, err := best(rows, class, 0)
		if err != nil {
			return nil, err
		}
		for c := range mx.Classes {
			mx.Classes[c] = e
		}
		mx.LogLik = ll
		return mx, nil
	}
	for c := range k {
		var rows []float64
		for i, r := range x {
			if class[i] == c {
				rows = append(rows, r...)
			}
		}
		e, ll, err := best(rows, nil, c)
		if err != nil {
			return nil, fmt.Errorf("class %d: %w", c, err)
		}
		mx.Classes[c] = e
		mx.LogLik += ll
	}
	return mx, nil
}

// LogPosterior writes ln p(c | x) for every class into dst (allocated
// when too short) and returns it.
func (mx *Mixtures) LogPosterior(dst, x []float64) []float64 {
	k := len(mx.Classes)
	if len(dst) < k {
		dst = make([]float64, k)
	}
	dst = dst[:k]
	for c, e := range mx.Classes {
		g := 0
		if mx.tied {
			g = c
		}
		dst[c] = mx.LogPrior[c] + e.LogDensity(x, g)
	}
	z := numeric.LogSumExp(dst)
	for c := range dst {
		dst[c] -= z
	}
	return dst
}

// Classify returns the class of largest posterior probability (the
// lowest index on a tie).
func (mx *Mixtures) Classify(x []float64) int { return argmax(mx.LogPosterior(nil, x)) }
