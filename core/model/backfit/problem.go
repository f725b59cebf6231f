package backfit

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Problem is a regression data set: the N×d design F (row i holds the
// basis-function values f_1(x_i) … f_d(x_i)) stored row-major in one flat
// slice, F[i*d+m] = f_m(x_i), and the targets y_1 … y_N. It also holds the
// per-column sums Σ_i f_m(x_i)², which every update of eqs. 4.16-4.29 divides
// by. A Problem is read-only once built and may be shared by several models
// (and goroutines).
type Problem struct {
	n, d int
	x    []float64 // N×d row-major, not copied
	y    []float64 // N, not copied
	ff   []float64 // Σ_i f_m(x_i)², d
	yy   float64   // Σ_i y_i²

	// The Gram form of residuals, FᵀF (d×d) and Fᵀy, built once, by
	// the first model that needs it (gramAfter).
	gramOnce sync.Once
	gram     []float64
	fy       []float64
}

// gramAfter returns the number of passes over the design after which a
// model's residuals switch to the Gram form, or −1 for never. A pass costs
// about 4Nd flops, the Gram form 2d² and building FᵀF about Nd² once: the
// Gram form is cheaper an iteration where 2N > d, and the switch comes once
// the passes have cost what the build does (Nd²/(4Nd − 2d²) passes), so a
// fit never costs more than twice the cheaper of the two ways (a fit of a
// few iterations stays on the pass; the hundreds of an ARD or bRVM fit move
// to FᵀF early).
func (p *Problem) gramAfter() int {
	n, d := float64(p.n), float64(p.d)
	if 2*n <= d {
		return -1
	}
	return int(math.Ceil(n * d * d / (4*n*d - 2*d*d)))
}

// gramRelative is the smallest Σr²/Σy² the Gram form is trusted at: it
// computes Σr² = Σy² − cᵀFᵀy − cᵀg, which loses about log10(Σy²/Σr²) digits,
// so a nearly exact fit falls back to the pass over the design (relative error
// of Σr² then below about 1e-10).
const gramRelative = 1e-6

// NewProblem returns the problem with design x (row-major N×d, N = len(y))
// and targets y. The slices are kept, not copied: do not modify them while
// a model uses the problem. It refuses an empty problem, a length that is
// not N·d, a value that is not finite and a column that is identically zero
// (whose coefficient no update of the text can determine).
func NewProblem(x []float64, d int, y []float64) (*Problem, error) {
	n := len(y)
	if n == 0 || d <= 0 {
		return nil, errors.New("backfit: empty problem")
	}
	if len(x) != n*d {
		return nil, fmt.Errorf("backfit: design has %d values, want N·d = %d·%d", len(x), n, d)
	}
	p := &Problem{n: n, d: d, x: x, y: y, ff: make([]float64, d)}
	for i := 0; i < n; i++ {
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return nil, fmt.Errorf("backfit: target %d is %v", i, y[i])
		}
		p.yy += y[i] * y[i]
		row := x[i*d : (i+1)*d]
		for m, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("backfit: design value (%d, %d) is %v", i, m, v)
			}
			p.ff[m] += v * v
		}
	}
	for m, v := range p.ff {
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("backfit: column %d of the design has Σ f² = %v (must be positive and finite)", m, v)
		}
	}
	if !(p.yy > 0) || math.IsInf(p.yy, 0) {
		return nil, fmt.Errorf("backfit: Σ y² = %v (must be positive and finite)", p.yy)
	}
	return p, nil
}

// N returns the number of data points.
func (p *Problem) N() int { return p.n }

// D returns the number of basis functions (inputs).
func (p *Problem) D() int { return p.d }

// Row returns f(x_i), a view of the design (do not modify it).
func (p *Problem) Row(i int) []float64 { return p.x[i*p.d : (i+1)*p.d] }

// Y returns the targets (a view; do not modify it).
func (p *Problem) Y() []float64 { return p.y }

// ColumnSS returns Σ_i f_m(x_i)² of column m.
func (p *Problem) ColumnSS(m int) float64 { return p.ff[m] }

// OLS returns the ordinary least-squares coefficients argmin_b ‖y − Fb‖²
// (eq. 4.2) by a QR decomposition of F (gonum), the batch baseline whose
// value probabilistic backfitting converges to (section 4.3.3, L1500-1525).
// It needs N ≥ d and F of full column rank; it costs O(Nd²) and holds an N×d
// copy of F.
func (p *Problem) OLS() ([]float64, error) {
	if p.n < p.d {
		return nil, fmt.Errorf("backfit: OLS needs N ≥ d (N = %d, d = %d)", p.n, p.d)
	}
	f := mat.NewDense(p.n, p.d, append([]float64(nil), p.x...))
	var qr mat.QR
	qr.Factorize(f)
	var r mat.Dense
	qr.RTo(&r)
	for m := 0; m < p.d; m++ {
		if math.Abs(r.At(m, m)) <= 1e-12*math.Sqrt(p.ff[m]) {
			return nil, fmt.Errorf("backfit: OLS: the design is rank deficient (column %d)", m)
		}
	}
	var b mat.Dense
	if err := qr.SolveTo(&b, false, mat.NewVecDense(p.n, append([]float64(nil), p.y...))); err != nil {
		return nil, fmt.Errorf("backfit: OLS: %w", err)
	}
	return mat.Col(nil, 0, &b), nil
}

// residuals sets r_i = y_i − Σ_m c_m f_m(x_i) and g_m = Σ_i r_i f_m(x_i),
// and returns Σ_i r_i² (eqs. 4.17, B.19; no allocation). calls counts the
// calling model's passes: after gramAfter of them it works from FᵀF and Fᵀy,
// g = Fᵀy − FᵀF c and Σr² = Σy² − cᵀFᵀy − cᵀg, in O(d²) (the same numbers to
// rounding); before, and where the fit is nearly exact (Σr² < 1e-6 Σy²), by
// one pass over the design, two length-d vector kernels a row (O(Nd)).
func (p *Problem) residuals(c, g []float64, calls *int) (rr float64) {
	if after := p.gramAfter(); after >= 0 && *calls >= after {
		p.gramOnce.Do(p.buildGram)
		d := p.d
		rr = p.yy
		for m := range g {
			g[m] = p.fy[m] - numeric.Dot(p.gram[m*d:(m+1)*d], c)
			rr -= c[m] * (p.fy[m] + g[m])
		}
		if rr >= gramRelative*p.yy {
			return rr
		}
	}
	*calls++
	return p.pass(c, g)
}

// pass is residuals by one pass over the design.
func (p *Problem) pass(c, g []float64) (rr float64) {
	clear(g)
	d := p.d
	for i, yi := range p.y {
		row := p.x[i*d : (i+1)*d]
		r := yi - numeric.Dot(row, c)
		rr += r * r
		numeric.Axpy(r, row, g)
	}
	return rr
}

// buildGram sets FᵀF and Fᵀy, one rank-one update a row.
func (p *Problem) buildGram() {
	d := p.d
	g := make([]float64, d*d)
	fy := make([]float64, d)
	for i, yi := range p.y {
		row := p.x[i*d : (i+1)*d]
		numeric.Axpy(yi, row, fy)
		for m, v := range row {
			if v != 0 {
				numeric.Axpy(v, row[m:], g[m*d+m:(m+1)*d])
			}
		}
	}
	for m := 0; m < d; m++ { // mirror the upper triangle
		for k := m + 1; k < d; k++ {
			g[k*d+m] = g[m*d+k]
		}
	}
	p.gram, p.fy = g, fy
}
