package sbn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/vbworkbench/vbw/core/numeric"
)

// Net is a layered sigmoid belief network of 0/1 units (eqs. 2.1-2.5,
// L790-818): every unit of a layer has every unit of the layer above as a
// parent, P(s_i = 1 | pa(s_i)) = σ(b_i + Σ_j w_ij s_j) (eq. 2.3). Units are
// numbered top layer first; the last layer is the visible one.
type Net struct {
	layers []int
	start  []int       // start[l]: index of the first unit of layer l; start[len] = units
	w      [][]float64 // w[i][j]: weight from the j-th unit of the layer above to unit i
	b      []float64   // biases w_i0

	// Constants of the net for the bounds' inner loops.
	plo, clo, chi []int       // unit i's first parent, and its children's range [clo, chi)
	expB          []float64   // e^{b_i}
	expW          [][]float64 // e^{w_ij}
}

// NewNet builds a net with the given layer sizes (top first), weights
// w[i][j] (unit i, j-th unit of the layer above; empty rows for the top
// layer) and biases b[i].
func NewNet(layers []int, w [][]float64, b []float64) (*Net, error) {
	if len(layers) < 2 {
		return nil, errors.New("sbn: a net needs at least two layers")
	}
	n := &Net{layers: append([]int(nil), layers...), start: make([]int, len(layers)+1)}
	for l, k := range layers {
		if k < 1 {
			return nil, fmt.Errorf("sbn: layer %d has %d units", l, k)
		}
		n.start[l+1] = n.start[l] + k
	}
	units := n.start[len(layers)]
	if n.Hidden() > 30 {
		return nil, fmt.Errorf("sbn: %d latent units: too many to enumerate", n.Hidden())
	}
	if len(w) != units || len(b) != units {
		return nil, fmt.Errorf("sbn: %d weight rows and %d biases for %d units", len(w), len(b), units)
	}
	n.w = make([][]float64, units)
	for i := range units {
		np := 0
		if l := n.layer(i); l > 0 {
			np = layers[l-1]
		}
		if len(w[i]) != np {
			return nil, fmt.Errorf("sbn: unit %d has %d weights for %d parents", i, len(w[i]), np)
		}
		n.w[i] = append([]float64(nil), w[i]...)
	}
	n.b = append([]float64(nil), b...)
	n.plo, n.clo, n.chi = make([]int, units), make([]int, units), make([]int, units)
	n.expB, n.expW = make([]float64, units), make([][]float64, units)
	for i := range units {
		l := n.layer(i)
		if l > 0 {
			n.plo[i] = n.start[l-1]
		}
		if l < len(layers)-1 {
			n.clo[i], n.chi[i] = n.start[l+1], n.start[l+2]
		}
		n.expB[i] = math.Exp(n.b[i])
		n.expW[i] = make([]float64, len(n.w[i]))
		for j, w := range n.w[i] {
			n.expW[i][j] = math.Exp(w)
		}
	}
	return n, nil
}

// Random draws a net with every weight and bias uniform on (−span, span),
// the random nets of L1127 (span 1) and L1140 (span W).
func Random(layers []int, span float64, r *rand.Rand) (*Net, error) {
	units := 0
	for _, k := range layers {
		units += max(k, 0)
	}
	w := make([][]float64, units)
	b := make([]float64, units)
	i := 0
	for l, k := range layers {
		for range k {
			if l > 0 {
				w[i] = make([]float64, layers[l-1])
				for j := range w[i] {
					w[i][j] = span * (2*r.Float64() - 1)
				}
			}
			b[i] = span * (2*r.Float64() - 1)
			i++
		}
	}
	return NewNet(layers, w, b)
}

// Units is the number of units; Hidden the number of latent ones (every
// layer but the last); Visible the size of the last layer.
func (n *Net) Units() int   { return n.start[len(n.layers)] }
func (n *Net) Hidden() int  { return n.start[len(n.layers)-1] }
func (n *Net) Visible() int { return n.layers[len(n.layers)-1] }

// parents returns the index range of unit i's parents.
func (n *Net) parents(i int) (lo, hi int) { return n.plo[i], n.plo[i] + len(n.w[i]) }

// children returns the index range of unit i's children.
func (n *Net) children(i int) (lo, hi int) { return n.clo[i], n.chi[i] }

func (n *Net) layer(i int) int {
	for l := range n.layers {
		if i < n.start[l+1] {
			return l
		}
	}
	panic("sbn: unit out of range")
}

// field returns z_i = b_i + Σ_j w_ij s_j for a full state s.
func (n *Net) field(i int, s []float64) float64 {
	lo, _ := n.parents(i)
	z := n.b[i]
	for j, w := range n.w[i] {
		z += w * s[lo+j]
	}
	return z
}

// softplus is ln(1 + e^z) without overflow.
func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

// LogJoint is ln P(S) = Σ_i [s_i z_i − ln(1 + e^{z_i})] (eq. 2.5) of a full
// 0/1 state s (hidden units first, as numbered).
func (n *Net) LogJoint(s []float64) float64 {
	lp := 0.0
	for i := range n.Units() {
		z := n.field(i, s)
		lp += s[i]*z - softplus(z)
	}
	return lp
}

// LogConditional is ln P(s_k = 1 | rest) − ln P(s_k = 0 | rest) of a full
// state s: unit k's own field plus its children's terms, the conditional of
// Gibbs sampling (L834).
func (n *Net) LogConditional(k int, s []float64) float64 {
	old := s[k]
	lo, hi := n.children(k)
	d := 0.0
	for _, v := range [2]float64{1, 0} {
		s[k] = v
		t := v * n.field(k, s)
		for c := lo; c < hi; c++ {
			z := n.field(c, s)
			t += s[c]*z - softplus(z)
		}
		if v == 1 {
			d += t
		} else {
			d -= t
		}
	}
	s[k] = old
	return d
}

// ExactLogLik is ln P(V) = ln Σ_H P(H, V) (eq. 2.6) by enumerating the
// 2^Hidden latent states (L1127).
func (n *Net) ExactLogLik(v []float64) (float64, error) {
	if err := n.checkVisible(v); err != nil {
		return 0, err
	}
	h := n.Hidden()
	s := make([]float64, n.Units())
	copy(s[h:], v)
	lps := make([]float64, 1<<h)
	for c := range lps {
		for j := range h {
			s[j] = float64((c >> j) & 1)
		}
		lps[c] = n.LogJoint(s)
	}
	return numeric.LogSumExp(lps), nil
}

func (n *Net) checkVisible(v []float64) error {
	if len(v) != n.Visible() {
		return fmt.Errorf("sbn: %d visible values for %d visible units", len(v), n.Visible())
	}
	for i, x := range v {
		if x != 0 && x != 1 {
			return fmt.Errorf("sbn: visible value %d is %v, not 0 or 1", i, x)
		}
	}
	return nil
}
