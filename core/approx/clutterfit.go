package approx

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// The clutter problem (PRML §10.7.1, L1271–1353, Figs 10.16–10.17): θ ∈ R^D
// with prior N(θ | 0, bI) and N observations, each from the signal
// N(x | θ, I) with probability 1 − w and from the clutter N(x | 0, aI)
// otherwise (eqs. (10.209)–(10.210)). Three approximations of p(θ | D) and
// of ln p(D) are set against the truth by quadrature (ClutterProblem.Exact):
// EP with isotropic Gaussian sites (ClutterEP, eqs. (10.212)–(10.224)),
// mean-field VB with q(θ)q(z) (ClutterVB) and Laplace (ClutterLaplace). Each
// counts the floating-point operations it performs in its Flops field, so
// that Fig. 10.17's cost axis does not depend on the machine: +, −, ×, ÷
// and comparisons count 1, an exp, log, log1p or sqrt TranscendentalFlops.
// The counts are per formula (written beside each), not per machine
// instruction.

// TranscendentalFlops is the count charged for one exp, log, log1p or sqrt.
const TranscendentalFlops = 20

// ClutterProblem is a data set of the clutter problem: the rows of X (N ×
// D), the clutter weight W, the clutter variance A and the prior variance
// B (PRML: w = 0.5, a = 10, b = 100, L1279).
type ClutterProblem struct {
	X       [][]float64
	W, A, B float64
}

// Check reports a malformed problem.
func (p ClutterProblem) Check() error {
	if len(p.X) == 0 || len(p.X[0]) == 0 {
		return errors.New("approx: clutter problem without data")
	}
	for i, x := range p.X {
		if len(x) != len(p.X[0]) {
			return fmt.Errorf("approx: clutter problem: row %d has %d coordinates, want %d", i, len(x), len(p.X[0]))
		}
	}
	if !(p.W > 0 && p.W < 1 && p.A > 0 && p.B > 0) {
		return fmt.Errorf("approx: clutter problem: need 0 < w < 1, a > 0, b > 0 (w = %g, a = %g, b = %g)", p.W, p.A, p.B)
	}
	return nil
}

// Dim returns D.
func (p ClutterProblem) Dim() int { return len(p.X[0]) }

// logClutter returns ln[w N(x | 0, aI)], the clutter term of each factor.
func (p ClutterProblem) logClutter() []float64 {
	d := float64(p.Dim())
	out := make([]float64, len(p.X))
	for n, x := range p.X {
		out[n] = math.Log(p.W) - 0.5*d*math.Log(2*math.Pi*p.A) - 0.5*dot(x, x)/p.A
	}
	return out
}

// logSignal returns ln[(1 − w) N(x | θ, vI + I)]: the signal term of a
// factor under a cavity N(θ | m, vI) (v = 0: at θ = m), with r2 = ‖x − m‖².
func logSignal(w, r2, v float64, d int) float64 {
	return math.Log(1-w) - 0.5*float64(d)*math.Log(2*math.Pi*(v+1)) - 0.5*r2/(v+1)
}

// logAddExp returns ln(e^a + e^b).
func logAddExp(a, b float64) float64 {
	return math.Max(a, b) + math.Log1p(math.Exp(-math.Abs(a-b)))
}

// clutterTilted is the tilted moment match of one factor with clutter term
// lclut under the isotropic cavity N(θ | m, vI) (PRML eqs.
// (10.212)–(10.215)): it writes the tilted mean into mean and returns
// ln Z_n and the isotropic tilted variance.
func clutterTilted(x, m []float64, v, w, lclut float64, mean []float64) (lz, vnew float64) {
	d := len(m)
	var r2 float64
	for i := range d {
		r2 += (x[i] - m[i]) * (x[i] - m[i])
	}
	lsig := logSignal(w, r2, v, d)
	lz = logAddExp(lsig, lclut)
	rho := math.Exp(lsig - lz) // = 1 − (w/Z) N(x | 0, aI), eq. (10.215)
	for i := range d {
		mean[i] = m[i] + rho*v*(x[i]-m[i])/(v+1)
	}
	vnew = v - rho*v*v/(v+1) + rho*(1-rho)*v*v*r2/(float64(d)*(v+1)*(v+1))
	return lz, vnew
}

// tiltedFlops is the count of one clutterTilted: ‖x − m‖² (3D), ln Z (a
// log, an exp and a log1p and 12 operations), ρ (an exp, 1), the mean (5D)
// and the variance (14).
func tiltedFlops(d int) float64 { return float64(8*d+27) + 4*TranscendentalFlops }

// ClutterEP is expectation propagation for the clutter problem with the
// isotropic Gaussian sites of PRML eqs. (10.211)–(10.222): site n is
// s_n N(θ | m_n, v_n I), held as its precision τ_n = 1/v_n (negative or zero
// allowed, Fig. 10.16) and h_n = τ_n m_n, and q = N(m, vI) has precision
// 1/b + Σ τ_n and h = Σ h_n. It is the generic EP over ClutterFactors
// written out for isotropic sites, with counted operations.
type ClutterEP struct {
	p     ClutterProblem
	lc    []float64
	tau   []float64 // τ_n
	h     []float64 // h_n, N×D
	Tau   float64   // precision of q
	H     []float64 // precision × mean of q
	Flops float64
	// Iterations counts sweeps; Skipped the site updates left out because
	// the cavity was improper.
	Iterations, Skipped int
}

// NewClutterEP returns EP with every site at 1 (q = prior).
func NewClutterEP(p ClutterProblem) (*ClutterEP, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	d := p.Dim()
	return &ClutterEP{p: p, lc: p.logClutter(), tau: make([]float64, len(p.X)), h: make([]float64, len(p.X)*d),
		Tau: 1 / p.B, H: make([]float64, d)}, nil
}

// Mean returns the mean of q.
func (e *ClutterEP) Mean() []float64 {
	m := make([]float64, len(e.H))
	for i, v := range e.H {
		m[i] = v / e.Tau
	}
	return m
}

// Var returns the variance of q (per coordinate).
func (e *ClutterEP) Var() float64 { return 1 / e.Tau }

// Site returns site n's precision τ_n = 1/v_n and mean m_n (m_n is
// meaningless where τ_n = 0).
func (e *ClutterEP) Site(n int) (tau float64, mean []float64) {
	d := len(e.H)
	mean = make([]float64, d)
	for i := range d {
		mean[i] = e.h[n*d+i] / e.tau[n]
	}
	return e.tau[n], mean
}

// cavity writes the mean of q\n into m and returns its precision (eqs.
// (10.214)–(10.215)); 3D + 1 operations.
func (e *ClutterEP) cavity(n int, m []float64) float64 {
	d := len(e.H)
	tc := e.Tau - e.tau[n]
	for i := range d {
		m[i] = (e.H[i] - e.h[n*d+i]) / tc
	}
	return tc
}

// Sweep updates every site once, in order (eqs. (10.214)–(10.221)), and
// returns the largest change of a site's natural parameters.
func (e *ClutterEP) Sweep() float64 {
	d := len(e.H)
	mc, mn := make([]float64, d), make([]float64, d)
	var change float64
	for n, x := range e.p.X {
		tc := e.cavity(n, mc)
		e.Flops += float64(3*d + 2)
		if !(tc > 0) {
			e.Skipped++
			continue
		}
		_, vnew := clutterTilted(x, mc, 1/tc, e.p.W, e.lc[n], mn)
		// New q = the tilted moments; new site = q / cavity (eqs.
		// (10.220)–(10.221) in natural parameters): 5D + 6 operations.
		e.Flops += tiltedFlops(d) + float64(5*d+6)
		tn := 1/vnew - tc
		change = math.Max(change, math.Abs(tn-e.tau[n]))
		e.tau[n] = tn
		e.Tau = tc + tn
		for i := range d {
			hn := mn[i]/vnew - mc[i]*tc
			change = math.Max(change, math.Abs(hn-e.h[n*d+i]))
			e.h[n*d+i] = hn
			e.H[i] = mc[i]*tc + hn
		}
	}
	// q from the prior and the sites, against drift: N(D + 1) operations.
	e.Tau = 1 / e.p.B
	clear(e.H)
	for n := range e.p.X {
		e.Tau += e.tau[n]
		for i := range d {
			e.H[i] += e.h[n*d+i]
		}
	}
	e.Flops += float64(len(e.p.X) * (d + 1))
	e.Iterations++
	return change
}

// logPartition is A = ½‖h‖²/τ − (D/2) ln τ + (D/2) ln 2π of an isotropic
// Gaussian in natural parameters.
func logPartition(tau float64, h []float64) float64 {
	d := float64(len(h))
	return 0.5*dot(h, h)/tau - 0.5*d*math.Log(tau) + 0.5*d*math.Log(2*math.Pi)
}

// LogEvidence returns EP's ln p(D) (PRML eqs. (10.208), (10.223)–(10.224),
// written as in EP.LogEvidence: A(q) − A(prior) + Σ_n [ln Z_n − A(q) +
// A(q\n)]) at the current sites, and counts its operations.
func (e *ClutterEP) LogEvidence() (float64, error) {
	d := len(e.H)
	mc, mn := make([]float64, d), make([]float64, d)
	aq := logPartition(e.Tau, e.H)
	lnz := aq - logPartition(1/e.p.B, make([]float64, d))
	for n, x := range e.p.X {
		tc := e.cavity(n, mc)
		if !(tc > 0) {
			return math.NaN(), fmt.Errorf("approx: clutter EP evidence: cavity %d is improper", n)
		}
		lz, _ := clutterTilted(x, mc, 1/tc, e.p.W, e.lc[n], mn)
		for i := range mc {
			mc[i] *= tc // h of the cavity
		}
		lnz += lz - aq + logPartition(tc, mc)
	}
	// Per site: the cavity (3D + 1), the tilted normaliser, h (D) and A
	// (3D + 6 and a log).
	e.Flops += float64(len(e.p.X)) * (float64(7*d+7) + tiltedFlops(d) + TranscendentalFlops)
	return lnz, nil
}

// ClutterVB is mean-field variational Bayes for the clutter problem with
// q(θ, z) = q(θ) Π_n q(z_n) (PRML §10.7.1, Fig. 10.17's "variational
// Bayes"; the updates are those of PRML eq. (10.9) applied to the joint
// of eq. (10.210) with the indicators z_n ∈ {signal, clutter}):
//
//	q(z_n = signal) = r_n = σ(ln(1 − w) − (D/2) ln 2π − ½(‖x_n − m‖² + Dv) − ln[w N(x_n | 0, aI)]),
//	q(θ) = N(m, vI),  1/v = 1/b + Σ_n r_n,  m = v Σ_n r_n x_n.
//
// It is a vb.Model: E updates q(z) and returns the bound, M updates q(θ).
// The bound is a lower bound on ln p(D) for every q.
type ClutterVB struct {
	p     ClutterProblem
	lc    []float64
	Mean  []float64 // mean of q(θ)
	V     float64   // variance of q(θ) per coordinate
	R     []float64 // r_n = q(z_n = signal)
	Flops float64
	terms [4]vb.Term
}

var _ vb.Model = (*ClutterVB)(nil)

// NewClutterVB starts from r_n = 1 − w (every point signal with its prior
// probability) and the q(θ) that these give.
func NewClutterVB(p ClutterProblem) (*ClutterVB, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	v := &ClutterVB{p: p, lc: p.logClutter(), Mean: make([]float64, p.Dim()), R: make([]float64, len(p.X))}
	for n := range v.R {
		v.R[n] = 1 - p.W
	}
	v.updateTheta()
	return v, nil
}

// updateTheta is q(θ) from r: N(D + 1) + D + 2 operations.
func (v *ClutterVB) updateTheta() {
	d := len(v.Mean)
	prec := 1 / v.p.B
	clear(v.Mean)
	for n, x := range v.p.X {
		prec += v.R[n]
		for i := range d {
			v.Mean[i] += v.R[n] * x[i]
		}
	}
	v.V = 1 / prec
	for i := range d {
		v.Mean[i] *= v.V
	}
	v.Flops += float64(len(v.p.X)*(2*d+1) + d + 2)
}

// E updates q(z) and returns the bound
//
//	F = E[ln N(θ | 0, bI)] + Σ_n E[ln p(x_n, z_n | θ)] + H[q(θ)] + Σ_n H[q(z_n)].
func (v *ClutterVB) E() (vb.Bound, error) {
	d := len(v.Mean)
	fd := float64(d)
	var lik, hz float64
	for n, x := range v.p.X {
		var r2 float64
		for i := range d {
			r2 += (x[i] - v.Mean[i]) * (x[i] - v.Mean[i])
		}
		ls := math.Log(1-v.p.W) - 0.5*fd*math.Log(2*math.Pi) - 0.5*(r2+fd*v.V)
		r := Sigmoid(ls - v.lc[n])
		v.R[n] = r
		lik += r*ls + (1-r)*v.lc[n]
		hz += numeric.Entropy([]float64{r, 1 - r})
	}
	// Per point: ‖x − m‖² (3D), ln of the signal (6), r (an exp, 3), the
	// expected log joint (5) and H[q(z_n)] (two logs, 5).
	v.Flops += float64(len(v.p.X)) * (float64(3*d+19) + 3*TranscendentalFlops)
	eprior := -0.5*fd*math.Log(2*math.Pi*v.p.B) - 0.5*(dot(v.Mean, v.Mean)+fd*v.V)/v.p.B
	hq := 0.5 * fd * math.Log(2*math.Pi*math.E*v.V)
	v.Flops += float64(2*d+10) + 2*TranscendentalFlops
	v.terms = [4]vb.Term{{Name: "E[ln p(theta)]", Value: eprior}, {Name: "E[ln p(x,z|theta)]", Value: lik},
		{Name: "H[q(theta)]", Value: hq}, {Name: "H[q(z)]", Value: hz}}
	return vb.Bound{F: eprior + lik + hq + hz, Terms: v.terms[:]}, nil
}

// M updates q(θ).
func (v *ClutterVB) M() { v.updateTheta() }

// logJoint returns ln p(θ, D) and, when grad is not nil, writes its
// gradient into grad and its Hessian into hess:
//
//	∇ ln f_n = ρ_n (x_n − θ),  ∇∇ ln f_n = ρ_n(1 − ρ_n)(x_n − θ)(x_n − θ)ᵀ − ρ_n I,
//
// ρ_n the posterior probability that x_n is signal at θ, with the prior's
// −θ/b and −I/b.
func (p ClutterProblem) logJoint(theta []float64, lc, grad, hess []float64) float64 {
	d := len(theta)
	fd := float64(d)
	lp := -0.5*fd*math.Log(2*math.Pi*p.B) - 0.5*dot(theta, theta)/p.B
	if grad != nil {
		clear(hess)
		for i := range d {
			grad[i] = -theta[i] / p.B
			hess[i*d+i] = -1 / p.B
		}
	}
	for n, x := range p.X {
		var r2 float64
		for i := range d {
			r2 += (x[i] - theta[i]) * (x[i] - theta[i])
		}
		ls := logSignal(p.W, r2, 0, d)
		lf := logAddExp(ls, lc[n])
		lp += lf
		if grad == nil {
			continue
		}
		rho := math.Exp(ls - lf)
		c := rho * (1 - rho)
		for i := range d {
			grad[i] += rho * (x[i] - theta[i])
			hess[i*d+i] -= rho
			for j := range d {
				hess[i*d+j] += c * (x[i] - theta[i]) * (x[j] - theta[j])
			}
		}
	}
	return lp
}

// LogJoint returns ln p(θ, D) = ln N(θ | 0, bI) + Σ_n ln f_n(θ) (PRML eq.
// (10.210)).
func (p ClutterProblem) LogJoint(theta []float64) float64 {
	return p.logJoint(theta, p.logClutter(), nil, nil)
}

// joint flop counts: ln p(θ, D) costs N(3D + 15 and three transcendentals);
// with the gradient and Hessian add N(3D² + 4D + 3 and an exp).
func jointFlops(n, d int, derivs bool) float64 {
	f := float64(n) * (float64(3*d+15) + 3*TranscendentalFlops)
	if derivs {
		f += float64(n) * (float64(3*d*d+4*d+3) + TranscendentalFlops)
	}
	return f
}

// ClutterLaplace is Laplace's approximation of the clutter posterior
// (PRML §4.4, eqs. (4.133)–(4.135)), its mode found by Newton's method with
// step halving from a start (NewClutterLaplaceAt; NewClutterLaplace: the
// data mean); where −∇∇ ln p is not positive definite
// the step is Levenberg's (−∇∇ ln p + λI, λ doubled from 10⁻³ until it is).
type ClutterLaplace struct {
	p          ClutterProblem
	lc         []float64
	Theta      []float64 // the current point (the mode at convergence)
	Flops      float64
	Iterations int
	lp         float64
	grad, hess []float64
}

// NewClutterLaplace starts at the mean of the data (NewClutterLaplaceAt).
func NewClutterLaplace(p ClutterProblem) (*ClutterLaplace, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	d := p.Dim()
	mean := make([]float64, d)
	for _, x := range p.X {
		for i := range d {
			mean[i] += x[i] / float64(len(p.X))
		}
	}
	l, err := NewClutterLaplaceAt(p, mean)
	if l != nil {
		l.Flops += float64(2 * len(p.X) * d)
	}
	return l, err
}

// NewClutterLaplaceAt starts Newton's method at theta (copied; length D),
// counting the first evaluation of ln p(θ, D) with its derivatives. The
// clutter posterior can have several modes (a cluster of clutter points
// makes one); a caller that runs several starts keeps the highest
// ln p(θ*, D) (LogJoint).
func NewClutterLaplaceAt(p ClutterProblem, theta []float64) (*ClutterLaplace, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	d := p.Dim()
	if len(theta) != d {
		return nil, fmt.Errorf("approx: clutter Laplace start of length %d for D = %d", len(theta), d)
	}
	l := &ClutterLaplace{p: p, lc: p.logClutter(), Theta: slices.Clone(theta), grad: make([]float64, d), hess: make([]float64, d*d)}
	l.lp = p.logJoint(l.Theta, l.lc, l.grad, l.hess)
	l.Flops += jointFlops(len(p.X), d, true)
	return l, nil
}

// LogJoint returns ln p(θ, D) at the current point.
func (l *ClutterLaplace) LogJoint() float64 { return l.lp }

// HighestDataPoint returns the data point x_n at which ln p(θ = x_n, D) is
// highest (the first of equals; a copy) and the operations of the N
// evaluations: a start for Laplace in the basin of a mode that a cluster
// of points makes, clutter or signal.
func (p ClutterProblem) HighestDataPoint() (theta []float64, flops float64) {
	lc := p.logClutter()
	best := math.Inf(-1)
	for _, x := range p.X {
		if v := p.logJoint(x, lc, nil, nil); v > best || theta == nil {
			best, theta = v, x
		}
	}
	return slices.Clone(theta), float64(len(p.X)) * jointFlops(len(p.X), p.Dim(), false)
}

// Step makes one Newton step and returns the length of the step taken.
func (l *ClutterLaplace) Step() float64 {
	d := len(l.Theta)
	a := make([]float64, d*d)
	step := make([]float64, d)
	lambda := 0.0
	for {
		for i := range a {
			a[i] = -l.hess[i]
		}
		for i := range d {
			a[i*d+i] += lambda
		}
		l.Flops += float64(d*d + d + d*d*d/3 + 1)
		if numeric.CholFactor(a, d) {
			break
		}
		lambda = math.Max(2*lambda, 1e-3)
	}
	copy(step, l.grad)
	numeric.CholSolveVec(a, d, step)
	numeric.CholSolveVecT(a, d, step)
	l.Flops += float64(2 * d * d)
	trial := make([]float64, d)
	t := 1.0
	moved := 0.0
	for range 40 {
		for i := range d {
			trial[i] = l.Theta[i] + t*step[i]
		}
		lp := l.p.logJoint(trial, l.lc, nil, nil)
		l.Flops += float64(2*d) + jointFlops(len(l.p.X), d, false)
		if lp >= l.lp {
			moved = t * math.Sqrt(dot(step, step))
			copy(l.Theta, trial)
			break
		}
		t /= 2
	}
	l.lp = l.p.logJoint(l.Theta, l.lc, l.grad, l.hess)
	l.Flops += jointFlops(len(l.p.X), d, true)
	l.Iterations++
	return moved
}

// Result returns Laplace's q = N(θ*, A⁻¹) and ln Z ≈ ln p(θ*, D) + (D/2)
// ln 2π − ½ ln|A| at the current point, A = −∇∇ ln p(θ*, D) (PRML eq.
// (4.135)); ln Z is NaN where A is not positive definite.
func (l *ClutterLaplace) Result() (Normal, float64) {
	d := len(l.Theta)
	a := make([]float64, d*d)
	for i := range a {
		a[i] = -l.hess[i]
	}
	cov, ldet, ok := invertSPD(a, d)
	l.Flops += float64(d*d*d) + TranscendentalFlops
	if !ok {
		return Normal{Mean: append([]float64(nil), l.Theta...), Cov: make([]float64, d*d)}, math.NaN()
	}
	return Normal{Mean: append([]float64(nil), l.Theta...), Cov: cov}, l.lp + 0.5*float64(d)*math.Log(2*math.Pi) - 0.5*ldet
}

// ClutterExact is the truth of a clutter data set by quadrature.
type ClutterExact struct {
	LnZ  float64   // ln p(D)
	Mean []float64 // E[θ | D]
	// Var is Var[θ_i | D] per coordinate (ExactMoments only; nil from
	// Exact).
	Var []float64
	// Pieces is the number of unit boxes integrated (the others fell below
	// the cut, see Exact).
	Pieces int
}

// Exact returns ln p(D) and E[θ | D] for D = 1 or 2 by adaptive
// Gauss–Kronrod quadrature (numeric.IntegrateVec, IntegrateVec2). With
// c_n = w N(x_n | 0, aI), g_n(θ) = (1 − w)N(x_n | θ, I)/c_n and C = Π c_n,
//
//	p(D) = C [1 + ∫ N(θ | 0, bI) (Π_n(1 + g_n(θ)) − 1) dθ],
//	E[θ | D] = C ∫ θ N(θ | 0, bI)(Π_n(1 + g_n) − 1) dθ / p(D),
//
// the prior's own mass and mean (1 and 0) taken exactly; the remaining
// integrand is below e^-55 of the prior beyond 12 of every data point,
// so it is integrated over the box [min x − 12, max x + 12]^D, cut into
// unit squares (intervals), and a unit piece is integrated only if ln of
// the integrand exceeds its largest value less cut (60 nats) at a point of
// a scan with spacing 1/2 on the piece or its border. Each piece's
// tolerance is tol relative to the largest integrand value.
func (p ClutterProblem) Exact(tol numeric.QuadTol, cut float64) (ClutterExact, error) {
	return p.exact(tol, cut, false)
}

// ExactMoments is Exact with the posterior variances as well: with the
// prior's second moment b per coordinate taken exactly,
//
//	E[θ_i² | D] = C [b + ∫ θ_i² N(θ | 0, bI)(Π_n(1 + g_n) − 1) dθ] / p(D),
//
// and Var = E[θ_i²] − E[θ_i]². The quadratures integrate the second
// moments beside the others, so ln p(D) and the mean can differ from
// Exact's in the last digits (the adaptive rule sees more components).
func (p ClutterProblem) ExactMoments(tol numeric.QuadTol, cut float64) (ClutterExact, error) {
	return p.exact(tol, cut, true)
}

// exact is Exact, with the second moments when second is set.
func (p ClutterProblem) exact(tol numeric.QuadTol, cut float64, second bool) (ClutterExact, error) {
	if err := p.Check(); err != nil {
		return ClutterExact{}, err
	}
	d := p.Dim()
	if d > 2 {
		return ClutterExact{}, fmt.Errorf("approx: clutter truth by quadrature in %d dimensions (1 or 2)", d)
	}
	lc := p.logClutter()
	var lnC float64
	for _, v := range lc {
		lnC += v
	}
	fd := float64(d)
	// ln of the residual integrand N(θ | 0, bI)(Π(1 + g_n) − 1).
	logH := func(theta []float64) float64 {
		var s float64
		for n, x := range p.X {
			var r2 float64
			for i := range d {
				r2 += (x[i] - theta[i]) * (x[i] - theta[i])
			}
			s += math.Log1p(math.Exp(logSignal(p.W, r2, 0, d) - lc[n]))
		}
		return -0.5*fd*math.Log(2*math.Pi*p.B) - 0.5*dot(theta, theta)/p.B + s + math.Log(-math.Expm1(-s)) // ln(e^s − 1)
	}
	lo, hi := make([]float64, d), make([]float64, d)
	for i := range d {
		lo[i], hi[i] = math.Inf(1), math.Inf(-1)
		for _, x := range p.X {
			lo[i], hi[i] = math.Min(lo[i], x[i]), math.Max(hi[i], x[i])
		}
		lo[i], hi[i] = math.Floor(lo[i]-12), math.Ceil(hi[i]+12)
	}
	// The scan: 2 points per unit, borders included.
	nx := make([]int, d)
	for i := range d {
		nx[i] = int(hi[i]-lo[i])*2 + 1
	}
	ny := 1
	if d == 2 {
		ny = nx[1]
	}
	scan := make([]float64, nx[0]*ny)
	theta := make([]float64, d)
	best := math.Inf(-1)
	for i := range nx[0] {
		theta[0] = lo[0] + float64(i)/2
		for j := range ny {
			if d == 2 {
				theta[1] = lo[1] + float64(j)/2
			}
			v := logH(theta)
			scan[i*ny+j] = v
			best = math.Max(best, v)
		}
	}
	if math.IsInf(best, 0) || math.IsNaN(best) {
		return ClutterExact{}, fmt.Errorf("approx: clutter truth: ln of the integrand is %v on the whole scan", best)
	}
	active := func(pi, pj int) bool {
		for a := 2 * pi; a <= 2*pi+2; a++ {
			for b := 2 * pj; b <= min(2*pj+2, ny-1); b++ {
				if scan[a*ny+b] > best-cut {
					return true
				}
			}
		}
		return false
	}
	m := 1 + d
	if second {
		m += d
	}
	f := func(out []float64) {
		w := math.Exp(logH(theta) - best)
		out[0] = w
		for i := range d {
			out[1+i] = w * theta[i]
			if second {
				out[1+d+i] = w * theta[i] * theta[i]
			}
		}
	}
	ptol := numeric.QuadTol{Abs: tol.Rel * 1e-3, Rel: tol.Rel, MaxIntervals: tol.MaxIntervals}
	sum := make([]float64, m)
	ex := ClutterExact{}
	py := 1
	if d == 2 {
		py = (ny - 1) / 2
	}
	for pi := range (nx[0] - 1) / 2 {
		for pj := range py {
			if !active(pi, pj) {
				continue
			}
			ex.Pieces++
			a0 := lo[0] + float64(pi)
			var v []float64
			var err error
			if d == 1 {
				v, err = numeric.IntegrateVec(nil, m, func(t float64, out []float64) { theta[0] = t; f(out) }, a0, a0+1, ptol)
			} else {
				a1 := lo[1] + float64(pj)
				v, err = numeric.IntegrateVec2(nil, m, func(s, t float64, out []float64) { theta[0], theta[1] = s, t; f(out) },
					[2]float64{a0, a1}, [2]float64{a0 + 1, a1 + 1}, ptol)
			}
			if err != nil {
				return ClutterExact{}, fmt.Errorf("approx: clutter truth: %w", err)
			}
			for k := range m {
				sum[k] += v[k]
			}
		}
	}
	// p(D) = C(1 + e^best·sum0), written so that neither e^best nor
	// e^−best overflows.
	lr := logAddExp(0, best+math.Log(sum[0]))
	ex.LnZ = lnC + lr
	ex.Mean = make([]float64, d)
	for i := range d {
		ex.Mean[i] = sum[1+i] * math.Exp(best-lr)
	}
	if second {
		ex.Var = make([]float64, d)
		for i := range d {
			ex.Var[i] = p.B*math.Exp(-lr) + sum[1+d+i]*math.Exp(best-lr) - ex.Mean[i]*ex.Mean[i]
		}
	}
	return ex, nil
}
