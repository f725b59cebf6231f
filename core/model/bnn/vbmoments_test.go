package bnn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGMomentsToBitForBit checks that the batched gMomentsTo returns what
// gMoments returns, to the bit, over activations of every regime: σ² = 0,
// tiny and huge; |h| below and above owenT's cut of the range (8.5) and of
// its cut-off (40); h = 0; and blocks of every length up to the work
// space's.
func TestGMomentsToBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 35))
	const n = 3 * momentBlock
	w := newMomentWork(n)
	mu, v := make([]float64, n), make([]float64, n)
	e1, e2 := make([]float64, n), make([]float64, n)
	d := make([][4]float64, n)
	special := [][2]float64{{0, 0}, {0, 1}, {1e-300, 0}, {-3, 0}, {60, 0.1}, {-41, 0}, {40.5, 1e-3}, {12, 2}, {-9, 1e6}, {2, 1e-12}, {0.3, 5e-324}}
	for round := range 40 {
		m := 1 + round%n
		for j := range m {
			switch k := r.IntN(4); {
			case round == 0 && j < len(special):
				mu[j], v[j] = special[j][0], special[j][1]
			case k == 0:
				mu[j], v[j] = 3*r.NormFloat64(), math.Exp(2*r.NormFloat64())
			case k == 1:
				mu[j], v[j] = 30*r.NormFloat64(), r.Float64()
			case k == 2:
				mu[j], v[j] = r.NormFloat64(), math.Exp(-10+8*r.NormFloat64())
			default:
				mu[j], v[j] = 10*r.NormFloat64(), 100*r.Float64()
			}
		}
		for _, grad := range []bool{false, true} {
			var dd [][4]float64
			if grad {
				dd = d[:m]
			}
			w.gMomentsTo(mu[:m], v[:m], e1[:m], e2[:m], dd)
			for j := range m {
				var want [4]float64
				var wp *[4]float64
				if grad {
					wp = &want
				}
				w1, w2 := gMoments(mu[j], v[j], wp)
				if math.Float64bits(w1) != math.Float64bits(e1[j]) || math.Float64bits(w2) != math.Float64bits(e2[j]) {
					t.Fatalf("μ = %v, σ² = %v: gMomentsTo %v, %v; gMoments %v, %v", mu[j], v[j], e1[j], e2[j], w1, w2)
				}
				if grad {
					for i := range want {
						if math.Float64bits(want[i]) != math.Float64bits(d[j][i]) {
							t.Fatalf("μ = %v, σ² = %v: derivative %d %v, gMoments %v", mu[j], v[j], i, d[j][i], want[i])
						}
					}
				}
			}
		}
	}
}

// expectEDPointwise is ⟨E_D⟩ and its gradient as expectED computed them
// before the blocks: one input at a time, gMoments per hidden unit.
func expectEDPointwise(a Arch, mean, logs []float64, x [][]float64, t []float64, gm, gs []float64) float64 {
	s2 := make([]float64, len(logs))
	for j, l := range logs {
		s2[j] = math.Exp(2 * l)
	}
	u := a.U()
	e1, e2, dd := make([]float64, a.Hidden), make([]float64, a.Hidden), make([][4]float64, a.Hidden)
	var e float64
	for n, xn := range x {
		for h := 0; h < a.Hidden; h++ {
			o := h * (a.In + 1)
			mu, v := mean[o+a.In], s2[o+a.In]
			for i, xi := range xn[:a.In] {
				mu += mean[o+i] * xi
				v += s2[o+i] * xi * xi
			}
			e1[h], e2[h] = gMoments(mu, v, &dd[h])
		}
		ef, vf := mean[u+a.Hidden], s2[u+a.Hidden]
		for h := 0; h < a.Hidden; h++ {
			m, sv := mean[u+h], s2[u+h]
			ef += m * e1[h]
			vf += (m*m+sv)*e2[h] - m*m*e1[h]*e1[h]
		}
		c := ef - t[n]
		e += 0.5 * (c*c + vf)
		cv := 0.5
		gm[u+a.Hidden] += c
		gs[u+a.Hidden] += cv * 2 * s2[u+a.Hidden]
		for h := 0; h < a.Hidden; h++ {
			m, sv := mean[u+h], s2[u+h]
			gm[u+h] += c*e1[h] + cv*2*m*(e2[h]-e1[h]*e1[h])
			gs[u+h] += cv * e2[h] * 2 * sv
			c1 := c*m - cv*2*m*m*e1[h]
			c2 := cv * (m*m + sv)
			dmu := c1*dd[h][0] + c2*dd[h][2]
			dv := c1*dd[h][1] + c2*dd[h][3]
			o := h * (a.In + 1)
			gm[o+a.In] += dmu
			gs[o+a.In] += dv * 2 * s2[o+a.In]
			for i, xi := range xn[:a.In] {
				gm[o+i] += dmu * xi
				gs[o+i] += dv * xi * xi * 2 * s2[o+i]
			}
		}
	}
	return e
}

// TestExpectEDBlocksBitForBit checks that expectED in blocks of
// momentBlock points equals the point-at-a-time computation to the bit,
// value and gradient, for data sets shorter than a block, of a whole
// number of blocks and with a partial last block.
func TestExpectEDBlocksBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 35))
	for _, n := range []int{1, momentBlock - 3, 2 * momentBlock, 2*momentBlock + 5} {
		a := Arch{In: 3, Hidden: 4}
		x := make([][]float64, n)
		y := make([]float64, n)
		for i := range x {
			x[i] = []float64{r.NormFloat64(), r.NormFloat64(), 2 * r.NormFloat64()}
			y[i] = r.NormFloat64()
		}
		k := a.NumWeights()
		mean, logs := make([]float64, k), make([]float64, k)
		for j := range mean {
			mean[j] = 2 * r.NormFloat64()
			logs[j] = -1 + r.NormFloat64()
		}
		gm, gs := make([]float64, k), make([]float64, k)
		wm, ws := make([]float64, k), make([]float64, k)
		got := a.expectED(mean, logs, x, y, newVBScratch(a.Hidden), gm, gs)
		want := expectEDPointwise(a, mean, logs, x, y, wm, ws)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("n = %d: ⟨E_D⟩ %v, point by point %v", n, got, want)
		}
		for j := range k {
			if math.Float64bits(gm[j]) != math.Float64bits(wm[j]) || math.Float64bits(gs[j]) != math.Float64bits(ws[j]) {
				t.Fatalf("n = %d, weight %d: gradient (%v, %v), point by point (%v, %v)", n, j, gm[j], gs[j], wm[j], ws[j])
			}
		}
		if v := a.expectED(mean, logs, x, y, newVBScratch(a.Hidden), nil, nil); math.Float64bits(v) != math.Float64bits(want) {
			t.Fatalf("n = %d: ⟨E_D⟩ without the gradient %v, with %v", n, v, want)
		}
	}
}
