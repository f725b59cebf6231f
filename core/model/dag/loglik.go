package dag

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/numeric"
)

// grouped is the log-likelihood (6.11) rearranged for LogLik, which AIS
// evaluates once per annealing step (Algorithm 6.1, eq. (6.50)).
//
// With the factors of Problem's E step, ln p(y|θ) = Σ_p w_p ln Z_p with
//
//	Z_p = Π_{j∈C} θ_{j,l_j(y_p),y_pj} · Σ_s Π_{j∈V} θ_{j,l_j(s,y_p),z_j(s,y_p)},
//
// where V are the hidden nodes and the nodes with a hidden parent, and C
// the others (eqs. (6.11), (6.22)). Two rearrangements leave the value
// unchanged up to rounding:
//
//   - the C factors leave the logarithm: Σ_p w_p Σ_{j∈C} ln θ_{j,l_j(y_p),y_pj}
//     = Σ_i N_i ln θ_i, with N_i the number of data points that use entry i
//     of a C node (the complete-data counts of those nodes, eq. (6.21));
//   - the sum over s depends on y_p only through u_j(y_p), the values of the
//     observed nodes among each V node j and its parents, so patterns that
//     agree there form one group g, of weight W_g = Σ_{p∈g} w_p, with one
//     sum S_g = Σ_s Π_{j∈V} θ_{…}.
//
// Hence
//
//	ln p(y|θ) = Σ_i N_i ln θ_i + Σ_g W_g ln S_g.
//
// To compute S_g, each V node j gets a table T_j[u][s] = θ_{j,l_j(s,u),z_j(s,u)}
// over its observed values u and the joint hidden configurations s, filled
// once per call, and the V nodes without observed values (hidden nodes
// with hidden parents only) one product H[s]; then
// S_g = Σ_s H[s]·Π_j T_j[u_j(g)][s], contiguous in s. When the V nodes
// without observed values come first in node order, as in the chapter-6
// class, every product and S_g equal the E step's to the bit.
//
// The logarithms are taken of products: groups are ordered by weight and
// Σ_{g: W_g=w} w ln S_g = w ln Π_{g: W_g=w} S_g, with the running product
// logged and restarted whenever it leaves [2^−500, 2^500], so a group costs
// a multiplication instead of a logarithm when its weight is shared. A
// group whose S_g is below 2^−500 is logged alone, and below tiny redone in
// the log domain over its configurations.
//
// The value equals plan.loglik's to rounding, not bit for bit: ties between
// equivalent structures that plan.loglik produces exactly (the MAP score)
// are not kept.
type grouped struct {
	cidx []int32   // C entries with N_i > 0, in increasing order
	ccnt []float64 // their counts N_i

	h     int     // joint hidden configurations
	hsrc  []int32 // h × nh: the θ entries of H[s], V nodes without observed values
	nh    int
	tsrc  []int32 // the θ entries of the tables T_j[u][s], concatenated
	m     int     // V nodes with observed values
	goff  []int32 // groups × m: offset of T_j[u_j(g)] in the concatenated tables
	gw    []float64
	first []int32 // a pattern of each group, for the log-domain fallback
}

// maxTable is the largest concatenated table that loglik keeps on the
// stack; a problem with larger tables takes the per-group products of the
// E step's factors instead.
const maxTable = 256

// maxH is the largest number of joint hidden configurations whose H[s]
// loglik keeps on the stack.
const maxH = 64

// newGrouped builds the grouped form of the likelihood of pl, whose V
// factors are those of vnodes of s in that order.
func newGrouped(s *Structure, d Data, pl *plan, vnodes []int) grouped {
	h, jc, jv := pl.h, pl.jc, pl.jv
	g := grouped{h: h}
	cnt := make([]float64, s.Len())
	for p, w := range pl.w {
		for _, i := range pl.cidx[p*jc : (p+1)*jc] {
			cnt[i] += w
		}
	}
	for i, c := range cnt {
		if c > 0 {
			g.cidx = append(g.cidx, int32(i))
			g.ccnt = append(g.ccnt, c)
		}
	}
	if jv == 0 { // no hidden node: h = 1 and every S_g = 1
		return g
	}
	obsCol := make([]int, s.Nodes()) // column of each observed node in a pattern
	for k, j := range s.Observed() {
		obsCol[j] = k
	}
	z := make([]int, s.Nodes())
	var fam [][]int // observed members of each V node's family, with values
	base := 0
	var bases []int
	for _, j := range vnodes {
		var f []int
		for _, k := range append([]int{j}, s.Parents(j)...) {
			if !s.IsHidden(k) {
				f = append(f, k)
			}
		}
		if len(f) == 0 {
			continue
		}
		fam = append(fam, f)
		bases = append(bases, base)
		u := 1
		for _, k := range f {
			u *= s.Arity(k)
		}
		for ui := 0; ui < u; ui++ {
			r := ui
			for i := len(f) - 1; i >= 0; i-- {
				z[f[i]] = r % s.Arity(f[i])
				r /= s.Arity(f[i])
			}
			for c := 0; c < h; c++ {
				s.setHidden(z, c)
				g.tsrc = append(g.tsrc, int32(s.Offset(j)+s.Config(j, z)*s.Arity(j)+z[j]))
			}
		}
		base += u * h
	}
	for _, j := range vnodes {
		if !observedFamily(s, j) {
			g.nh++
		}
	}
	for c := 0; c < h; c++ {
		for t, j := range vnodes {
			if !observedFamily(s, j) {
				g.hsrc = append(g.hsrc, pl.vidx[c*jv+t]) // the same for every pattern
			}
		}
	}
	g.m = len(fam)
	type group struct {
		off   []int32
		w     float64
		first int
	}
	var groups []group
	seen := map[string]int{}
	var key []byte
	for p, w := range pl.w {
		y := d.Pattern(p)
		off := make([]int32, len(fam))
		key = key[:0]
		for t, f := range fam {
			u := 0
			for _, k := range f {
				u = u*s.Arity(k) + y[obsCol[k]]
			}
			off[t] = int32(bases[t] + u*h)
			key = binary.LittleEndian.AppendUint32(key, uint32(off[t]))
		}
		if q, ok := seen[string(key)]; ok {
			groups[q].w += w
			continue
		}
		seen[string(key)] = len(groups)
		groups = append(groups, group{off: off, w: w, first: p})
	}
	slices.SortStableFunc(groups, func(a, b group) int { return cmp.Compare(a.w, b.w) })
	for _, q := range groups {
		g.goff = append(g.goff, q.off...)
		g.gw = append(g.gw, q.w)
		g.first = append(g.first, int32(q.first))
	}
	return g
}

// observedFamily reports whether node j or one of its parents is observed.
func observedFamily(s *Structure, j int) bool {
	if !s.IsHidden(j) {
		return true
	}
	for _, p := range s.Parents(j) {
		if !s.IsHidden(p) {
			return true
		}
	}
	return false
}

const (
	prodLo = 0x1p-500
	prodHi = 0x1p500
)

// loglik returns ln p(y|θ) = Σ_i N_i ln θ_i + Σ_g W_g ln S_g.
func (g *grouped) loglik(th []float64, pl *plan) float64 {
	var total float64
	for k, i := range g.cidx {
		total += g.ccnt[k] * math.Log(th[i])
	}
	if len(g.gw) == 0 {
		return total
	}
	h := g.h
	var buf [maxTable]float64
	var hbuf [maxH]float64
	if len(g.tsrc) > maxTable || h > maxH {
		return total + g.loglikFlat(th, pl)
	}
	tab := buf[:len(g.tsrc)]
	for k, i := range g.tsrc {
		tab[k] = th[i]
	}
	hp := hbuf[:h]
	for c := range hp {
		hp[c] = prodAt(th, g.hsrc[c*g.nh:(c+1)*g.nh])
	}
	run, w := 1.0, g.gw[0]
	var zbuf [256]float64
	for q0 := 0; q0 < len(g.gw); q0 += len(zbuf) {
		q1 := min(q0+len(zbuf), len(g.gw))
		zs := zbuf[:q1-q0]
		if h == 4 {
			numeric.GatherProdSum4(zs, tab, hp, g.goff[q0*g.m:q1*g.m], g.m)
		} else {
			for q := q0; q < q1; q++ {
				zs[q-q0] = g.groupSum(q, tab, hp)
			}
		}
		for q := q0; q < q1; q++ {
			z, wq := zs[q-q0], g.gw[q]
			if wq != w {
				total += w * math.Log(run)
				run, w = 1, wq
			}
			switch {
			case z >= prodLo && z <= prodHi:
				run *= z
				if !(run >= prodLo && run <= prodHi) {
					total += w * math.Log(run)
					run = 1
				}
			case z >= tiny:
				total += w * math.Log(z)
			default:
				total += w * logGroup(th, pl, int(g.first[q]))
			}
		}
	}
	return total + w*math.Log(run)
}

// groupSum returns S_g = Σ_s H[s]·Π_j T_j[u_j(g)][s] of group q from
// the tables tab and H = hp, the configurations s in order (with four
// configurations, numeric.GatherProdSum4 computes the same for many
// groups at once).
func (g *grouped) groupSum(q int, tab, hp []float64) float64 {
	off := g.goff[q*g.m : (q+1)*g.m]
	var z float64
	for c, f := range hp {
		for _, o := range off {
			f *= tab[int(o)+c]
		}
		z += f
	}
	return z
}

// loglikFlat is Σ_g W_g ln S_g with S_g the sum over configurations of the
// products of the E step's factors.
func (g *grouped) loglikFlat(th []float64, pl *plan) float64 {
	h, jv := pl.h, pl.jv
	var total float64
	for q, w := range g.gw {
		p := int(g.first[q])
		vi := pl.vidx[p*h*jv : (p+1)*h*jv]
		var z float64
		for c := 0; c < h; c++ {
			z += prodAt(th, vi[c*jv:(c+1)*jv])
		}
		lnz := math.Log(z)
		if !(z >= tiny) {
			lnz = logGroup(th, pl, p)
		}
		total += w * lnz
	}
	return total
}

// logGroup returns ln S_g of the group of pattern p in the log domain.
func logGroup(th []float64, pl *plan, p int) float64 {
	h, jv := pl.h, pl.jv
	return logPattern(th, nil, pl.vidx[p*h*jv:(p+1)*h*jv], h, jv, nil)
}
