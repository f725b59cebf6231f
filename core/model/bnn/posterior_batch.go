package bnn

import (
	"github.com/vbworkbench/vbw/core/numeric"
)

// batchCols is the number of points a Batch works on at once: its scratch
// holds (3·Hidden + 2)·batchCols values.
const batchCols = 256

// Batch evaluates E_D(w) and ∇E_D on a fixed data set with the points laid
// out as columns, so that the network's sums become the few matrix
// products of core/numeric's vector kernels (MulAdd, MulAddT) and the
// derivatives g′ = √(2/π) e^{−a²/2} one vectorised exponential
// (numeric.ExpSubTo); the activations g = erf(a/√2) are math.Erf's to the
// bit, with the exponentials of its tail branch batched too (gTo). For a
// block B of points with X̃ the (I+1)×B inputs (a row of ones last), U the
// H×(I+1) input weights and v the output weights,
//
//	A = U X̃,  G = g(A),  f = v_H + vᵀG,  r = f − t,
//	∇_v E = G r,  ∇_{v_H} E = Σ r,  ∇_U E = (diag(v) g′(A) ∘ 1rᵀ) X̃ᵀ,
//
// the same sums as Arch.ErrorGrad (eq. 5.5) in another order. A Batch is
// the fast path of Posterior (the HMC's gradient); it holds scratch and is
// not safe for concurrent use.
type Batch struct {
	Arch
	n  int
	xt []float64 // (In+1)×n, row i the i-th input of every point, last row ones
	t  []float64

	a, g, d, zero []float64 // Hidden×batchCols
	f             []float64 // batchCols
	erf           erfScratch
}

// NewBatch lays out the data of p for Batch.
func NewBatch(p *Problem) *Batch {
	n, ni := len(p.X), p.In
	b := &Batch{Arch: p.Arch, n: n, xt: make([]float64, (ni+1)*n), t: append([]float64(nil), p.T...)}
	for j, x := range p.X {
		for i := range ni {
			b.xt[i*n+j] = x[i]
		}
		b.xt[ni*n+j] = 1
	}
	m := p.Hidden * batchCols
	b.a, b.g, b.d, b.zero = make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
	b.f = make([]float64, batchCols)
	b.erf = newErfScratch(m)
	return b
}

// ErrorGrad returns E_D(w) (eq. 5.5) and, when grad is not nil, writes
// ∇_w E_D into it (length NumWeights), as Arch.ErrorGrad on the problem's
// data (equal to rounding). It does not allocate.
func (b *Batch) ErrorGrad(w, grad []float64) float64 {
	nh, ni, n := b.Hidden, b.In, b.n
	ld := ni + 1
	u := w[:b.U()]
	v := w[b.U() : b.U()+nh+1]
	if grad != nil {
		clear(grad[:b.NumWeights()])
	}
	var e float64
	for off := 0; off < n; off += batchCols {
		m := min(batchCols, n-off)
		a, g, f := b.a[:nh*m], b.g[:nh*m], b.f[:m]
		clear(a)
		// A = U X̃ (H×m), the rows of X̃ read from column off.
		numeric.MulAdd(nh, m, ld, u, ld, 1, b.xt[off:], n, a, m)
		gTo(g, a, &b.erf)
		for j := range f {
			f[j] = v[nh]
		}
		numeric.MulAdd(1, m, nh, v, nh, 1, g, m, f, m)
		t := b.t[off : off+m]
		for j := range f {
			f[j] -= t[j] // f is now the residual r
			e += f[j] * f[j]
		}
		if grad == nil {
			continue
		}
		gv := grad[b.U() : b.U()+nh+1]
		for _, r := range f {
			gv[nh] += r
		}
		numeric.MulAddT(nh, 1, m, g, m, f, m, gv, 1)
		// g′(A) = √(2/π) exp(−A²/2), then C = diag(v) g′(A) ∘ 1rᵀ in d.
		d := b.d[:nh*m]
		for k, s := range a {
			a[k] = -s * s / 2
		}
		numeric.ExpSubTo(d, a, b.zero[:nh*m])
		for h := range nh {
			row := d[h*m : (h+1)*m]
			numeric.MulTo(row, row, f)
			numeric.Scale(v[h]*sqrt2OverPi, row)
		}
		numeric.MulAddT(nh, ld, m, d, m, b.xt[off:], n, grad[:b.U()], ld)
	}
	return e / 2
}
