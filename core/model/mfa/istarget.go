package mfa

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/numeric"
)

// ISLayout is the flat layout of the parameters θ = (π, Λ̃) that Beal (2003)
// §4.7.2 samples to estimate ln p(y) by importance sampling ("θ = (π, Λ, μ)
// = {π_s, Λ̃^s}", line 3029; ../shared/seeds/000_055f6e591db3cc60.txt):
//
//	θ = (π_1, …, π_S,  Λ̃^1_1, …, Λ̃^1_p,  Λ̃^2_1, …, Λ̃^S_p),
//
// the S mixing proportions first, then every analyser's p rows
// Λ̃^s_q = [Λ^s_q·, μ^s_q] of length k_s+1 (the mean last, as in
// VB.Loadings), analyser by analyser. Ψ and the other hyperparameters
// are not part of θ (line 3029: "Ψ is treated as a hyperparameter").
type ISLayout struct {
	// P is the data dimension p.
	P int
	// Ks holds k_s, the factor columns of every analyser.
	Ks []int
}

// S returns the number of analysers.
func (l ISLayout) S() int { return len(l.Ks) }

// Dim returns the length of θ, S + Σ_s p(k_s+1).
func (l ISLayout) Dim() int {
	d := len(l.Ks)
	for _, k := range l.Ks {
		d += l.P * (k + 1)
	}
	return d
}

// RowOffset returns the index in θ of the first entry of row q of Λ̃^s.
func (l ISLayout) RowOffset(s, q int) int {
	o := len(l.Ks)
	for _, k := range l.Ks[:s] {
		o += l.P * (k + 1)
	}
	return o + q*(l.Ks[s]+1)
}

// ISRows is q(Λ̃^s) of one analyser as plain data: p independent Gaussian
// rows N(Λ̃^s_q | m^s_q, Γ^s_q) of dimension k+1, the mean entry last (eqs.
// (4.43)–(4.50), lines 2486–2511).
type ISRows struct {
	// K is k_s.
	K int
	// Mean holds the row means m^s_q, p×(K+1) row-major.
	Mean []float64
	// Cov holds the row covariances Γ^s_q, p blocks of (K+1)×(K+1)
	// row-major.
	Cov []float64
}

// RowMean returns m^s_q (a view into Mean).
func (r ISRows) RowMean(q int) []float64 {
	d := r.K + 1
	return r.Mean[q*d : (q+1)*d]
}

// RowCov returns Γ^s_q as a new symmetric matrix.
func (r ISRows) RowCov(q int) *mat.SymDense {
	d := r.K + 1
	return mat.NewSymDense(d, slices.Clone(r.Cov[q*d*d:(q+1)*d*d]))
}

// ISPosterior is the proposal of Beal (2003) §4.7.2, q(π)q(Λ̃) (line 3029:
// "we sample θ^(m) ~ q(θ) = q(π)q(Λ̃)"), together with the hyperparameters
// that the target p(θ, y) of eqs. (4.113)–(4.116) holds fixed, as plain
// data: a VBMFA snapshot that can be stored and rebuilt offline. Package
// core does not import the samplers; a sampler builds its proposal from
// Omega (q(π) = Dir(ω), eq. (4.37)) and the rows (each N(m^s_q, Γ^s_q),
// sampled independently, line 3144) in the order of Layout.
type ISPosterior struct {
	// Omega is ω of q(π) = Dir(ω).
	Omega []float64
	// Rows holds q(Λ̃^s) of every analyser.
	Rows []ISRows
	// Hyper holds α*, a*, b*, μ*, ν* and Ψ at their VB values.
	Hyper Hyper
}

// Layout returns the layout of θ for q.
func (q ISPosterior) Layout() ISLayout {
	l := ISLayout{P: len(q.Hyper.Psi), Ks: make([]int, len(q.Rows))}
	for s, r := range q.Rows {
		l.Ks[s] = r.K
	}
	return l
}

// Validate checks that the pieces of q have consistent sizes and finite
// values, and that every ω_s is positive.
func (q ISPosterior) Validate() error {
	p := len(q.Hyper.Psi)
	if p == 0 || len(q.Rows) == 0 || len(q.Omega) != len(q.Rows) {
		return fmt.Errorf("mfa: IS posterior with p = %d, %d analysers and %d Dirichlet parameters", p, len(q.Rows), len(q.Omega))
	}
	for s, w := range q.Omega {
		if !(w > 0) || math.IsInf(w, 1) {
			return fmt.Errorf("mfa: IS posterior ω_%d = %v", s, w)
		}
	}
	for s, r := range q.Rows {
		d := r.K + 1
		if r.K < 0 || len(r.Mean) != p*d || len(r.Cov) != p*d*d {
			return fmt.Errorf("mfa: IS posterior analyser %d: k = %d with %d means and %d covariance entries for p = %d", s, r.K, len(r.Mean), len(r.Cov), p)
		}
		for _, v := range r.Mean {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("mfa: IS posterior analyser %d: mean not finite", s)
			}
		}
		for _, v := range r.Cov {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("mfa: IS posterior analyser %d: covariance not finite", s)
			}
		}
	}
	return nil
}

// ISPosterior returns the model's current q(π), q(Λ̃) and hyperparameters as
// plain data (a deep copy; the model is not changed).
func (m *VB) ISPosterior() ISPosterior {
	post := ISPosterior{Omega: slices.Clone(m.omega), Hyper: m.Hyper.clone(), Rows: make([]ISRows, len(m.comps))}
	for s, c := range m.comps {
		d := c.d
		r := ISRows{K: c.k, Mean: make([]float64, m.p*d), Cov: make([]float64, m.p*d*d)}
		cov := mat.NewSymDense(d, nil)
		for q := 0; q < m.p; q++ {
			c.rows.RowMeanTo(r.Mean[q*d:(q+1)*d], q)
			c.rows.CovarianceTo(cov, q)
			for a := 0; a < d; a++ {
				for b := 0; b < d; b++ {
					r.Cov[q*d*d+a*d+b] = cov.At(a, b)
				}
			}
		}
		post.Rows[s] = r
	}
	return post
}

// ISTarget is the unnormalised log posterior of θ = (π, Λ̃) of a VBMFA,
// ln p(θ, y), with the factors x, the indicators s and the ARD precisions ν
// integrated out exactly and Ψ, α*, a*, b*, μ*, ν* held fixed (Beal (2003)
// eqs. (4.113)–(4.116), lines 3031–3042; targets ch4-mfa.md §1.11):
//
//	ln p(θ, y) = ln Dir(π | α*/S)
//	           + Σ_{s,l} ln t(Λ^s_{·l})
//	           + Σ_{s,q} ln N(μ^s_q | μ*_q, 1/ν*_q)
//	           + Σ_i ln Σ_s π_s N(y_i | μ^s, Λ^sΛ^sᵀ + Ψ),
//
// where t is the column Student-t of ν^s_l ~ Ga(a*, b*) (shape, rate)
// integrated out of Λ^s_{·l} ~ N(0, I_p/ν^s_l) (targets §1.2; the thesis's
// "for each row", line 3040, is a column),
//
//	ln t(λ) = a* ln b* + ln Γ(a*+p/2) − ln Γ(a*) − (p/2) ln 2π − (a*+p/2) ln(b* + ½‖λ‖²).
//
// The Dirichlet density is with respect to Lebesgue measure on the first
// S−1 coordinates, as in core/dist. Each analyser's Gaussian uses the
// Woodbury identity and the determinant lemma with L = chol(I + ΛᵀΨ⁻¹Λ),
//
//	ln|C| = Σ_q ln ψ_q + 2 Σ_j ln L_jj,   rᵀC⁻¹r = rᵀΨ⁻¹r − ‖L⁻¹ΛᵀΨ⁻¹r‖²,
//
// so that no p×p matrix is formed. An ISTarget keeps scratch space and is
// not safe for concurrent use: make one per goroutine. LogProb, LogPrior and
// LogLik do not allocate.
type ISTarget struct {
	lay  ISLayout
	dim  int
	n, p int
	kmax int
	off  []int // RowOffset(s, 0)

	yT  []float64 // data transposed, p×n
	yPy []float64 // y_iᵀΨ⁻¹y_i, n

	ipsi   []float64 // 1/ψ_q
	lnNorm float64   // −½(p ln 2π + Σ_q ln ψ_q)

	piPrior, lnPiNorm float64   // α*/S and ln Γ(α*) − S ln Γ(α*/S)
	tConst, tShape, b float64   // the column t: constant, a*+p/2, b*
	muStar, nuStar    []float64 // μ*, ν*
	muConst           float64   // Σ_q ½ ln(ν*_q/2π)

	// Scratch: per analyser the rows [Ψ⁻¹μ; W] (gOff[s], (k_s+1)×p), W μ
	// (wmu, kmax per analyser) and the constant of its log density; M
	// (kmax×kmax); products over a chunk of points (v, (kmax+1)×chunk);
	// the running log-sum-exp over analysers (rowMax, rowSum); column
	// energies (energy, kmax).
	g              []float64
	gOff           []int
	wmu            []float64
	cst            []float64
	live           []bool
	mm             []float64
	v              []float64
	rowMax, rowSum []float64
	energy         []float64
}

// ISTarget returns the target of the model's data, structure and current
// hyperparameters (see NewISTarget).
func (m *VB) ISTarget() (*ISTarget, error) {
	lay := ISLayout{P: m.p, Ks: make([]int, len(m.comps))}
	for s, c := range m.comps {
		lay.Ks[s] = c.k
	}
	return NewISTarget(m.y, lay, m.Hyper)
}

// NewISTarget returns ln p(θ, y) for the data y (n×p, one observation per
// row), the layout lay and the fixed hyperparameters h, all of whose
// fields must be set (as in VB.Hyper or ISPosterior.Hyper). It copies y
// and h. It returns an error if the sizes disagree or a hyperparameter is
// not positive and finite (μ* finite).
func NewISTarget(y mat.Matrix, lay ISLayout, h Hyper) (*ISTarget, error) {
	n, p := y.Dims()
	if n < 1 || p != lay.P || len(lay.Ks) == 0 {
		return nil, fmt.Errorf("mfa: IS target for %d×%d data, layout p = %d with %d analysers", n, p, lay.P, len(lay.Ks))
	}
	if len(h.Psi) != p || len(h.Mu) != p || len(h.Nu) != p {
		return nil, fmt.Errorf("mfa: IS target: Ψ, μ*, ν* have lengths %d, %d, %d; want p = %d", len(h.Psi), len(h.Mu), len(h.Nu), p)
	}
	pos := func(name string, v float64) error {
		if !(v > 0) || math.IsInf(v, 1) {
			return fmt.Errorf("mfa: IS target: %s = %v, want positive and finite", name, v)
		}
		return nil
	}
	if err := errors.Join(pos("α*", h.Alpha), pos("a*", h.A), pos("b*", h.B)); err != nil {
		return nil, err
	}
	S := len(lay.Ks)
	t := &ISTarget{lay: ISLayout{P: p, Ks: slices.Clone(lay.Ks)}, dim: lay.Dim(), n: n, p: p,
		off: make([]int, S), gOff: make([]int, S), cst: make([]float64, S), live: make([]bool, S),
		ipsi: make([]float64, p), muStar: slices.Clone(h.Mu), nuStar: slices.Clone(h.Nu)}
	var lnPsi float64
	for q := 0; q < p; q++ {
		if err := errors.Join(pos(fmt.Sprintf("ψ_%d", q), h.Psi[q]), pos(fmt.Sprintf("ν*_%d", q), h.Nu[q])); err != nil {
			return nil, err
		}
		if math.IsNaN(h.Mu[q]) || math.IsInf(h.Mu[q], 0) {
			return nil, fmt.Errorf("mfa: IS target: μ*_%d = %v", q, h.Mu[q])
		}
		t.ipsi[q] = 1 / h.Psi[q]
		lnPsi += math.Log(h.Psi[q])
		t.muConst += 0.5 * (math.Log(h.Nu[q]) - ln2Pi)
	}
	t.lnNorm = -0.5 * (float64(p)*ln2Pi + lnPsi)
	ng := 0
	for s, k := range lay.Ks {
		if k < 0 || k > p {
			return nil, fmt.Errorf("mfa: IS target: analyser %d has k = %d, want 0 ≤ k ≤ p = %d", s, k, p)
		}
		t.off[s] = lay.RowOffset(s, 0)
		t.gOff[s] = ng
		ng += (k + 1) * p
		t.kmax = max(t.kmax, k)
	}
	t.g = make([]float64, ng)
	t.wmu = make([]float64, S*max(t.kmax, 1))
	t.mm = make([]float64, t.kmax*t.kmax)
	t.v = make([]float64, (t.kmax+1)*chunk)
	t.rowMax = make([]float64, chunk)
	t.rowSum = make([]float64, chunk)
	t.energy = make([]float64, t.kmax)
	t.piPrior = h.Alpha / float64(S)
	t.lnPiNorm = numeric.LogGamma(h.Alpha) - float64(S)*numeric.LogGamma(t.piPrior)
	t.tShape = h.A + float64(p)/2
	t.b = h.B
	t.tConst = h.A*math.Log(h.B) + numeric.LogGamma(t.tShape) - numeric.LogGamma(h.A) - float64(p)/2*ln2Pi
	t.yT = make([]float64, p*n)
	t.yPy = make([]float64, n)
	for i := 0; i < n; i++ {
		for q := 0; q < p; q++ {
			v := y.At(i, q)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, errors.New("mfa: IS target: data not finite")
			}
			t.yT[q*n+i] = v
			t.yPy[i] += v * v * t.ipsi[q]
		}
	}
	return t, nil
}

// Dim returns the length of θ.
func (t *ISTarget) Dim() int { return t.dim }

// Layout returns the layout of θ (a copy).
func (t *ISTarget) Layout() ISLayout { return ISLayout{P: t.p, Ks: slices.Clone(t.lay.Ks)} }

// LogProb returns ln p(θ, y) = LogPrior(θ) + LogLik(θ) (eq. (4.116)), or
// −Inf if π is not in the simplex. It panics if len(theta) != Dim.
func (t *ISTarget) LogProb(theta []float64) float64 {
	lp := t.LogPrior(theta)
	if math.IsInf(lp, -1) {
		return lp
	}
	return lp + t.LogLik(theta)
}

// LogPrior returns ln p(π, Λ̃) = ln Dir(π | α*/S) + Σ_{s,l} ln t(Λ^s_{·l})
// + Σ_{s,q} ln N(μ^s_q | μ*_q, 1/ν*_q) (the priors of eqs. (4.15)–(4.19)
// with ν integrated out, eq. (4.115)), or −Inf if some π_s < 0 or Σ_s π_s
// differs from 1 by more than 1e-12·S (the tolerance of dist.Dirichlet). It
// panics if len(theta) != Dim.
func (t *ISTarget) LogPrior(theta []float64) float64 {
	if len(theta) != t.dim {
		panic("mfa: IS target dimension mismatch")
	}
	S, p := len(t.lay.Ks), t.p
	var sum, lp float64
	for _, v := range theta[:S] {
		if v < 0 {
			return math.Inf(-1)
		}
		sum += v
		if t.piPrior != 1 {
			lp += (t.piPrior - 1) * math.Log(v)
		}
	}
	if math.Abs(sum-1) > 1e-12*float64(S) {
		return math.Inf(-1)
	}
	lp += t.lnPiNorm
	for s, k := range t.lay.Ks {
		d := k + 1
		e := t.energy[:k]
		clear(e)
		for q := 0; q < p; q++ {
			row := theta[t.off[s]+q*d : t.off[s]+(q+1)*d]
			for l, v := range row[:k] {
				e[l] += v * v
			}
			r := row[k] - t.muStar[q]
			lp -= 0.5 * t.nuStar[q] * r * r
		}
		lp += t.muConst
		for _, v := range e {
			lp += t.tConst - t.tShape*math.Log(t.b+0.5*v)
		}
	}
	return lp
}

// LogLik returns ln p(y | π, Λ̃, Ψ) = Σ_i ln Σ_s π_s N(y_i | μ^s, Λ^sΛ^sᵀ + Ψ)
// (eqs. (4.11), (4.116)). Analysers with π_s = 0 contribute nothing; it is
// −Inf if every π_s is 0 and NaN if θ holds a NaN. The cost is
// O(S n p (k+1)), spent in vectorised axpy kernels over chunks of points.
// It panics if len(theta) != Dim.
func (t *ISTarget) LogLik(theta []float64) float64 {
	if len(theta) != t.dim {
		panic("mfa: IS target dimension mismatch")
	}
	someLive := false
	for s := range t.lay.Ks {
		t.live[s] = theta[s] > 0
		if !t.live[s] {
			continue
		}
		someLive = true
		if !t.prepare(s, theta) {
			return math.NaN()
		}
	}
	if !someLive {
		return math.Inf(-1)
	}
	n, p := t.n, t.p
	var ll float64
	for i0 := 0; i0 < n; i0 += chunk {
		i1 := min(i0+chunk, n)
		w := i1 - i0
		first := true
		for s, k := range t.lay.Ks {
			if !t.live[s] {
				continue
			}
			d := k + 1
			g := t.g[t.gOff[s] : t.gOff[s]+d*p]
			for j := 0; j < d; j++ {
				vj := t.v[j*w : (j+1)*w]
				gj := g[j*p : (j+1)*p]
				floats.ScaleTo(vj, gj[0], t.yT[i0:i1])
				for q := 1; q < p; q++ {
					floats.AddScaled(vj, gj[q], t.yT[q*n+i0:q*n+i1])
				}
			}
			c := t.cst[s]
			wmu := t.wmu[s*max(t.kmax, 1):]
			v0 := t.v[:w]
			for i := 0; i < w; i++ {
				l := c - 0.5*t.yPy[i0+i] + v0[i]
				var zz float64
				for a := 0; a < k; a++ {
					z := t.v[(a+1)*w+i] - wmu[a]
					zz += z * z
				}
				l += 0.5 * zz
				switch {
				case first:
					t.rowMax[i], t.rowSum[i] = l, 1
				case l > t.rowMax[i]:
					t.rowSum[i] = t.rowSum[i]*math.Exp(t.rowMax[i]-l) + 1
					t.rowMax[i] = l
				default:
					t.rowSum[i] += math.Exp(l - t.rowMax[i])
				}
			}
			first = false
		}
		for i := 0; i < w; i++ {
			ll += t.rowMax[i] + math.Log(t.rowSum[i])
		}
	}
	return ll
}

// prepare computes, for analyser s at θ, the rows [Ψ⁻¹μ; W] with
// W = L⁻¹ΛᵀΨ⁻¹ and L = chol(I + ΛᵀΨ⁻¹Λ), Wμ, and the constant
//
//	ln π_s − ½(p ln 2π + Σ_q ln ψ_q + ln|I + ΛᵀΨ⁻¹Λ|) − ½ μᵀΨ⁻¹μ,
//
// so that ln π_s N(y | μ, ΛΛᵀ + Ψ) = const − ½ yᵀΨ⁻¹y + (Ψ⁻¹μ)ᵀy +
// ½‖Wy − Wμ‖². It returns false if the Cholesky factorisation fails (a
// loading that is not finite).
func (t *ISTarget) prepare(s int, theta []float64) bool {
	k, p := t.lay.Ks[s], t.p
	d := k + 1
	rows := theta[t.off[s] : t.off[s]+p*d]
	g := t.g[t.gOff[s] : t.gOff[s]+d*p]
	wmu := t.wmu[s*max(t.kmax, 1):]
	mm := t.mm[:k*k]
	clear(mm)
	for q := 0; q < p; q++ {
		row := rows[q*d : q*d+k]
		for a, va := range row {
			va *= t.ipsi[q]
			for b, vb := range row[:a+1] {
				mm[a*k+b] += va * vb
			}
		}
	}
	for a := 0; a < k; a++ {
		mm[a*k+a]++
	}
	if !numeric.CholFactor(mm, k) {
		return false
	}
	var muPsiMu float64
	for q := 0; q < p; q++ {
		row := rows[q*d : (q+1)*d]
		mu := row[k]
		g[q] = mu * t.ipsi[q]
		muPsiMu += mu * g[q]
		// Column q of W = L⁻¹ΛᵀΨ⁻¹ by forward substitution.
		for a := 0; a < k; a++ {
			v := row[a] * t.ipsi[q]
			for b := 0; b < a; b++ {
				v -= mm[a*k+b] * g[(b+1)*p+q]
			}
			g[(a+1)*p+q] = v / mm[a*k+a]
		}
	}
	for a := 0; a < k; a++ {
		var v float64
		wa := g[(a+1)*p : (a+2)*p]
		for q, w := range wa {
			v += w * rows[q*d+k]
		}
		wmu[a] = v
	}
	t.cst[s] = math.Log(theta[s]) + t.lnNorm - 0.5*numeric.CholLogDet(mm, k) - 0.5*muPsiMu
	return true
}
