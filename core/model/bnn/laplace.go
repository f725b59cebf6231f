package bnn

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/numeric"
	"gonum.org/v1/gonum/mat"
)

// Laplace is the Gaussian approximation of eq. 5.17 at a mode w* of the
// MAP objective M(w) = βE_D + Σ_g α_g E_{w,g}, with the hyperparameters of
// the evidence procedure (Evidence), and the predictive distribution it
// gives. It implements Predictive.
type Laplace struct {
	Arch
	Prior Prior
	// W is the mode w*, Group the group of every weight (Arch.Groups),
	// Alpha the precision α_g of each group and Beta the noise precision
	// at which the approximation is taken.
	W     []float64
	Group []int
	Alpha []float64
	Beta  float64
	// Cov is A⁻¹ (K×K, row-major), A = β∇∇E_D + diag(α) (eq. 5.18) with
	// the data Hessian's negative eigenvalues set to zero (NegativeEigen
	// of them; a mode of M is not always a minimum of E_D alone), as
	// NETLAB's evidence does.
	Cov           []float64
	NegativeEigen int
	// Gamma is γ = Σ_g γ_g, GammaGroup γ_g = K_g − α_g tr_g(A⁻¹), the
	// well-determined parameters of each group (MacKay 1992; for one group
	// γ = Σ_i λ_i/(λ_i + α) over the eigenvalues λ_i of β∇∇E_D).
	Gamma      float64
	GammaGroup []float64
	// ED is E_D(w*) (eq. 5.5), EW the E_{w,g} = ½ w_gᵀw_g of each group.
	ED float64
	EW []float64
	// LogEvidence is ln p(D|α, β) in the Laplace approximation, with
	// every constant: the sum of Terms.
	LogEvidence float64
	Terms       []EvidenceTerm
	// Trace holds one row per cycle of the evidence procedure; Inits the
	// log evidence each initialisation reached, Init the one kept.
	Trace []EvidenceCycle
	Inits []float64
	Init  int
}

// EvidenceTerm is a named term of the log evidence.
type EvidenceTerm struct {
	Name  string
	Value float64
}

// EvidenceCycle is one cycle of the evidence procedure: the optimiser's
// iterations at the hyperparameters Alpha, Beta, and the γ and log
// evidence at the mode it reached, before Alpha and Beta are re-estimated.
type EvidenceCycle struct {
	Iterations  int
	Converged   bool
	Alpha       []float64
	Beta        float64
	Gamma       float64
	LogEvidence float64
}

// Predict returns the predictive mean f(x, w*) and variance gᵀA⁻¹g + 1/β,
// g = ∇_w f(x, w*): the network linearised about the mode (MacKay 1992;
// the text's "assumption of local linearity in the network output", L2164).
// The mean is the mode's output, as the text's evidence rows use it
// (L2162: "we do not use the approximation to predict the expected network
// output").
func (l *Laplace) Predict(x []float64) (mean, variance float64) {
	k := l.NumWeights()
	g := make([]float64, k)
	mean = l.OutputGrad(l.W, x, g, nil)
	for p := range k {
		row := l.Cov[p*k : (p+1)*k]
		variance += g[p] * numeric.Dot(row, g)
	}
	return mean, variance + 1/l.Beta
}

// laplaceAt fills the Laplace approximation of the data term d at the
// weights w (taken to be a mode) and hyperparameters alpha, beta: the
// Hessian A, its inverse, the γ_g and the log evidence
//
//	ln p(D|α, β) ≈ −βE_D − Σ_g α_g E_{w,g} − ½ ln|A| + Σ_g (K_g/2) ln α_g
//	               + (N/2) ln β − (N/2) ln 2π
//
// (MacKay 1992; Bishop 1995 eq. 10.67 without the symmetry term, which
// Evidence adds for the network). The (2π)^{K/2} of the prior's normaliser
// cancels that of the Gaussian integral.
func laplaceAt(d evidenceTerm, w, alpha []float64, beta float64, group []int) (*Laplace, error) {
	k, n := d.numWeights(), d.numPoints()
	hd := make([]float64, k*k)
	ed := d.errorHessian(w, hd)
	sym := mat.NewSymDense(k, nil)
	for p := range k {
		for q := p; q < k; q++ {
			sym.SetSym(p, q, beta*(hd[p*k+q]+hd[q*k+p])/2)
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		return nil, fmt.Errorf("bnn: the eigendecomposition of the data Hessian failed")
	}
	lam := eig.Values(nil)
	var q mat.Dense
	eig.VectorsTo(&q)
	neg := 0
	for i, v := range lam {
		if v < 0 {
			lam[i] = 0
			neg++
		}
	}
	a := make([]float64, k*k)
	for p := range k {
		for r := 0; r <= p; r++ {
			var s float64
			for i, v := range lam {
				s += q.At(p, i) * v * q.At(r, i)
			}
			a[p*k+r], a[r*k+p] = s, s
		}
		a[p*k+p] += alpha[group[p]]
	}
	cov := make([]float64, k*k)
	logDetA, ok := numeric.InverseSPD(cov, a, k)
	if !ok {
		return nil, fmt.Errorf("bnn: the Hessian A = β∇∇E_D + diag(α) is not positive definite (α = %v)", alpha)
	}
	ng := len(alpha)
	l := &Laplace{W: append([]float64(nil), w...), Group: group, Alpha: append([]float64(nil), alpha...), Beta: beta,
		Cov: cov, NegativeEigen: neg, ED: ed, EW: make([]float64, ng), GammaGroup: make([]float64, ng)}
	size := make([]float64, ng)
	for p := range k {
		g := group[p]
		size[g]++
		l.EW[g] += w[p] * w[p] / 2
		l.GammaGroup[g] -= alpha[g] * cov[p*k+p]
	}
	prior, logAlpha := 0.0, 0.0
	for g := range ng {
		l.GammaGroup[g] += size[g]
		l.Gamma += l.GammaGroup[g]
		prior += alpha[g] * l.EW[g]
		logAlpha += size[g] / 2 * math.Log(alpha[g])
	}
	nf := float64(n)
	l.Terms = []EvidenceTerm{
		{"-beta*E_D", -beta * ed},
		{"-sum alpha_g*E_w,g", -prior},
		{"-ln|A|/2", -logDetA / 2},
		{"sum K_g/2 ln alpha_g", logAlpha},
		{"N/2 ln beta", nf / 2 * math.Log(beta)},
		{"-N/2 ln 2pi", -nf / 2 * math.Log(2*math.Pi)},
	}
	for _, t := range l.Terms {
		l.LogEvidence += t.Value
	}
	return l, nil
}
