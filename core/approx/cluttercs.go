package approx

import (
	"errors"
	"fmt"
	"math"
)

// The Cheeseman–Stutz score of the clutter problem (Beal (2003) eqs.
// (6.27)–(6.31), the counterpart of core/model/dag's CheesemanStutz): the
// hidden variables are the indicators z_n (signal or clutter), the clutter
// component N(x | 0, aI) and the weight w are fixed, and θ has the prior
// N(0, bI).

// checkCS reports a malformed problem as Check does, but allows w = 0 (no
// clutter: every point is signal and the evidence a Gaussian's).
func (p ClutterProblem) checkCS() error {
	if p.W == 0 {
		q := p
		q.W = 0.5
		return q.Check()
	}
	return p.Check()
}

// SignalResponsibilities writes ρ_n = p(z_n = signal | x_n, θ) (PRML
// (10.215) at a point θ, v = 0) into dst (allocated if nil) and returns it.
func (p ClutterProblem) SignalResponsibilities(theta, dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, len(p.X))
	}
	d := len(theta)
	for n, x := range p.X {
		if p.W == 0 {
			dst[n] = 1
			continue
		}
		ls := logSignal(p.W, sqDist(x, theta), 0, d)
		dst[n] = math.Exp(ls - logAddExp(ls, p.logClutterOne(x)))
	}
	return dst
}

// logClutterOne is ln[w N(x | 0, aI)] of one point (−Inf at w = 0).
func (p ClutterProblem) logClutterOne(x []float64) float64 {
	if p.W == 0 {
		return math.Inf(-1)
	}
	return math.Log(p.W) - 0.5*float64(len(x))*math.Log(2*math.Pi*p.A) - 0.5*dot(x, x)/p.A
}

func sqDist(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return s
}

// CompletedLogEvidence returns ln p(D, r), the evidence of the data
// completed by the fractional indicators r_n = q(z_n = signal):
//
//	ln p(D, r) = Σ_n (1 − r_n) ln[w N(x_n | 0, aI)] + R ln(1 − w) + ln ∫ N(θ | 0, bI) Π_n N(x_n | θ, I)^{r_n} dθ,
//	ln ∫ … dθ = −(RD/2) ln 2π − ½ Σ_n r_n ‖x_n‖² − (D/2) ln(1 + bR) + b‖s‖²/(2(1 + bR)),
//
// R = Σ_n r_n, s = Σ_n r_n x_n (the Gaussian integral of PRML (2.115) at
// weighted data; 0·ln 0 = 0 where r_n = 1 and w = 0).
func (p ClutterProblem) CompletedLogEvidence(r []float64) (float64, error) {
	if err := p.checkCS(); err != nil {
		return 0, err
	}
	if len(r) != len(p.X) {
		return 0, fmt.Errorf("approx: clutter: %d responsibilities for %d points", len(r), len(p.X))
	}
	var lc float64
	for n, x := range p.X {
		if !(r[n] >= 0 && r[n] <= 1) {
			return 0, fmt.Errorf("approx: clutter: r[%d] = %v is not in [0, 1]", n, r[n])
		}
		if r[n] < 1 {
			lc += (1 - r[n]) * p.logClutterOne(x)
		}
	}
	var rs float64
	for _, v := range r {
		rs += v
	}
	if rs > 0 {
		lc += rs * math.Log(1-p.W)
	}
	return lc + p.signalEvidence(r), nil
}

// signalEvidence is ln ∫ N(θ | 0, bI) Π_n N(x_n | θ, I)^{r_n} dθ.
func (p ClutterProblem) signalEvidence(r []float64) float64 {
	d := p.Dim()
	fd := float64(d)
	s := make([]float64, d)
	var rs, sxx float64
	for n, x := range p.X {
		rs += r[n]
		sxx += r[n] * dot(x, x)
		for i := range d {
			s[i] += r[n] * x[i]
		}
	}
	return -0.5*rs*fd*math.Log(2*math.Pi) - 0.5*sxx - 0.5*fd*math.Log1p(p.B*rs) + 0.5*p.B*dot(s, s)/(1+p.B*rs)
}

// CheesemanStutz returns the Cheeseman–Stutz score at θ̂ with the
// completion r (Beal (2003) eqs. (6.27)–(6.31)),
//
//	ln p_CS = ln p(D, r) + ln p(D | θ̂) − ln p(D, r | θ̂),
//	ln p(D, r | θ̂) = Σ_n (1 − r_n) ln[w N(x_n | 0, aI)] + r_n ln[(1 − w) N(x_n | θ̂, I)],
//
// with CompletedLogEvidence; the clutter and ln(1 − w) terms cancel, and
// it is computed as signalEvidence(r) − Σ_n r_n ln N(x_n | θ̂, I) +
// ln p(D | θ̂). With r nil, r is the E step at θ̂ (SignalResponsibilities:
// Beal's CS); then, the joint being linear in the indicators, ln p_CS =
// ln p(D, r) + H(r) is the mean-field bound at q(z) = r and the optimal
// q(θ) given it, a lower bound on ln p(D) for every θ̂ (Beal (2003)
// Theorem 2.3). With another r (VB's q(z)) it is F(r) + Σ_n KL(r_n ‖
// ρ_n(θ̂)), not a bound. At w = 0 every r_n is 1 and ln p_CS = ln p(D)
// exactly. It also returns the operations, counted as ClutterVB counts
// them: N(6D + 12 and three transcendentals) + 4D + 10 and two.
func (p ClutterProblem) CheesemanStutz(theta, r []float64) (float64, float64, error) {
	if err := p.checkCS(); err != nil {
		return 0, 0, err
	}
	d := p.Dim()
	if len(theta) != d {
		return 0, 0, fmt.Errorf("approx: clutter: θ̂ of dimension %d for data of %d", len(theta), d)
	}
	if r == nil {
		r = p.SignalResponsibilities(theta, nil)
	}
	if len(r) != len(p.X) {
		return 0, 0, fmt.Errorf("approx: clutter: %d responsibilities for %d points", len(r), len(p.X))
	}
	fd := float64(d)
	cs := p.signalEvidence(r)
	for n, x := range p.X {
		if !(r[n] >= 0 && r[n] <= 1) {
			return 0, 0, fmt.Errorf("approx: clutter: r[%d] = %v is not in [0, 1]", n, r[n])
		}
		r2 := sqDist(x, theta)
		lnN := -0.5*fd*math.Log(2*math.Pi) - 0.5*r2
		cs -= r[n] * lnN
		ls := logSignal(p.W, r2, 0, d)
		if p.W > 0 {
			ls = logAddExp(ls, p.logClutterOne(x))
		}
		cs += ls
	}
	if math.IsNaN(cs) || math.IsInf(cs, 0) {
		return 0, 0, errors.New("approx: clutter: Cheeseman–Stutz is not finite")
	}
	flops := float64(len(p.X))*(float64(6*d+12)+3*TranscendentalFlops) + float64(4*d+10) + 2*TranscendentalFlops
	return cs, flops, nil
}
