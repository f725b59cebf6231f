package hmm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/numeric"
)

// Annealed is the tempered target of annealed importance sampling for the
// marginal likelihood p(y|m) of a k-state HMM with Dirichlet priors u
// (Beal 2003 eqs. 3.36-3.40, 3.44; AIS as in eqs. 6.49-6.61, with the
// intermediate densities f_τ = p(θ) p(y|θ)^τ of eq. 6.50), on unconstrained
// coordinates so that a gradient sampler (samplers/mcmc.HMC) can move them.
//
// Each probability row x of length K (π, the k rows of A, the k rows of
// C, in the order of ParamDim's flat layout) is written in additive
// log-ratio coordinates η_l = ln(x_l/x_K), l = 1…K−1, so x = softmax(η, 0).
// A row of length 1 has no coordinate. The state is the concatenation of
// the rows' η, AnnealedDim(k, p) = (k−1) + k(k−1) + k(p−1) entries. The
// Jacobian of x_{1:K−1} ↦ η is Π_{l=1}^K x_l, so the Dirichlet prior
// Dir(x|α) becomes the normalised density on η
//
//	ln p(η) = Σ_{l=1}^K α_l ln x_l − ln B(α)
//
// (LogPrior: the Jacobian is in the prior term, so f_0 is exactly the
// prior and SamplePrior draws it exactly), and the tempered factor is
// ln p(y|θ(η)) (LogLik, the scaled forward pass, eq. 3.23). The
// normaliser ∫ p(η) p(y|θ(η)) dη is p(y|m), whatever the coordinates.
//
// The gradients are closed forms: ∂ ln p(η)/∂η_l = α_l − α₀ x_l, and,
// since p(y|θ) is a polynomial in the entries of each row whose
// logarithmic derivative x_m ∂ ln L/∂x_m is the expected count N̂_m of
// the forward-backward pass (eqs. 3.16-3.35), ∂ ln L/∂η_l = N̂_l − x_l Σ_m N̂_m.
//
// Cost: LogLik is one forward pass over the data, GradLogLik one
// forward-backward pass, so an HMC transition of L leapfrog steps is L + 1
// forward-backward passes and one forward pass, and an AIS estimate of G
// runs on K temperatures G·K such transitions.
//
// Annealed satisfies samplers/ais.Model[[]float64] and
// samplers/mcmc.GradTempered by its method set. It is safe for concurrent
// use: each call takes its scratch space from a pool.
type Annealed struct {
	data  Data
	k, p  int
	prior Prior
	lnB   [3]float64 // ln B(u) of u^(π), u^(A), u^(C)
	a0    [3]float64 // row totals of u^(π), u^(A), u^(C)
	pool  sync.Pool  // *annealScratch
}

type annealScratch struct {
	chain  infer.Chain
	ws     infer.ForwardBackward
	counts *infer.Counts
	theta  []float64 // the flat θ (ParamDim)
	logx   []float64 // ln θ in the flat layout
	row    []float64 // a prior draw's ln x
}

// AnnealedDim returns (k−1) + k(k−1) + k(p−1), the number of unconstrained
// coordinates of a k-state HMM with p symbols.
func AnnealedDim(k, p int) int { return (k - 1) + k*(k-1) + k*(p-1) }

// NewAnnealed returns the AIS target of a k-state HMM with prior u on d
// (shared, not copied; they must not change). It returns an error if d or
// u is invalid.
func NewAnnealed(d Data, k int, u Prior) (*Annealed, error) {
	if k < 1 {
		return nil, fmt.Errorf("hmm: annealed target needs k ≥ 1, got %d", k)
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if err := u.Validate(k, d.P); err != nil {
		return nil, err
	}
	a := &Annealed{data: d, k: k, p: d.P, prior: u}
	for i, al := range [][]float64{u.Pi, u.A, u.C} {
		a.lnB[i] = dist.NewDirichlet(al).LogNormalizer()
		for _, v := range al {
			a.a0[i] += v
		}
	}
	a.pool.New = func() any {
		return &annealScratch{counts: infer.NewCounts(k, d.P),
			theta: make([]float64, ParamDim(k, d.P)), logx: make([]float64, ParamDim(k, d.P)),
			row: make([]float64, max(k, d.P))}
	}
	return a, nil
}

// Dim returns AnnealedDim(k, p).
func (a *Annealed) Dim() int { return AnnealedDim(a.k, a.p) }

// rows calls f for each probability row of the flat layout with the row's
// offset in θ, its offset in η, its length and its prior index (0 π, 1 A,
// 2 C).
func (a *Annealed) rows(f func(th, et, n, kind int)) {
	k, p := a.k, a.p
	th, et := 0, 0
	f(th, et, k, 0)
	th, et = th+k, et+k-1
	for range k {
		f(th, et, k, 1)
		th, et = th+k, et+k-1
	}
	for range k {
		f(th, et, p, 2)
		th, et = th+p, et+p-1
	}
}

func (a *Annealed) alpha(kind int) []float64 {
	switch kind {
	case 0:
		return a.prior.Pi
	case 1:
		return a.prior.A
	}
	return a.prior.C
}

// fill writes ln θ and θ of the coordinates eta into s.
func (a *Annealed) fill(s *annealScratch, eta []float64) {
	if len(eta) != a.Dim() {
		panic(fmt.Sprintf("hmm: annealed state length %d, want %d", len(eta), a.Dim()))
	}
	a.rows(func(th, et, n, _ int) {
		lx := s.logx[th : th+n]
		copy(lx, eta[et:et+n-1])
		lx[n-1] = 0
		lse := numeric.LogSumExp(lx)
		for l := range lx {
			lx[l] -= lse
			s.theta[th+l] = math.Exp(lx[l])
		}
	})
}

// LogPrior returns ln p(η) = Σ_rows [Σ_l α_l ln x_l − ln B(α)], the
// Dirichlet priors of eqs. 3.37-3.40 with the Jacobian of the log-ratio
// coordinates. It panics if len(eta) != Dim().
func (a *Annealed) LogPrior(eta []float64) float64 {
	s := a.pool.Get().(*annealScratch)
	defer a.pool.Put(s)
	a.fill(s, eta)
	var lp float64
	a.rows(func(th, _, n, kind int) {
		if n == 1 {
			return
		}
		for l, al := range a.alpha(kind) {
			lp += al * s.logx[th+l]
		}
		lp -= a.lnB[kind]
	})
	return lp
}

// LogLik returns ln p(y|θ(η)) = Σ_i ln p(y_i|θ) by the scaled forward pass
// (eq. 3.23), −Inf if some sequence is impossible (an entry of θ that
// underflows to 0). It panics if len(eta) != Dim().
func (a *Annealed) LogLik(eta []float64) float64 {
	s := a.pool.Get().(*annealScratch)
	defer a.pool.Put(s)
	a.fill(s, eta)
	a.setChain(s)
	var l float64
	for _, y := range a.data.Seqs {
		l += s.ws.LogProb(&s.chain, y)
	}
	return l
}

func (a *Annealed) setChain(s *annealScratch) {
	k := a.k
	setChain(&s.chain, k, a.p, s.theta[:k], s.theta[k:k+k*k], s.theta[k+k*k:])
}

// GradLogPrior writes ∂ ln p(η)/∂η_l = α_l − α₀ x_l into dst.
func (a *Annealed) GradLogPrior(dst, eta []float64) {
	s := a.pool.Get().(*annealScratch)
	defer a.pool.Put(s)
	a.fill(s, eta)
	a.rows(func(th, et, n, kind int) {
		al := a.alpha(kind)
		for l := 0; l < n-1; l++ {
			dst[et+l] = al[l] - a.a0[kind]*s.theta[th+l]
		}
	})
}

// GradLogLik writes ∂ ln p(y|θ(η))/∂η_l = N̂_l − x_l Σ_m N̂_m into dst, N̂
// the expected counts of each row by forward-backward (eqs. 3.16-3.35).
// Where the data are impossible under θ(η) it writes zeros (the state has
// f_τ = 0 for τ > 0 and any move away is accepted).
func (a *Annealed) GradLogLik(dst, eta []float64) {
	s := a.pool.Get().(*annealScratch)
	defer a.pool.Put(s)
	a.fill(s, eta)
	a.setChain(s)
	c := s.counts
	c.Zero()
	for _, y := range a.data.Seqs {
		if math.IsInf(s.ws.AddExpectedCounts(&s.chain, y, c), -1) {
			clear(dst[:a.Dim()])
			return
		}
	}
	k, p := a.k, a.p
	// Reuse logx as the expected counts in the flat layout.
	n := s.logx
	copy(n, c.Pi)
	copy(n[k:], c.A)
	for j := 0; j < k; j++ {
		for m := 0; m < p; m++ {
			n[k+k*k+j*p+m] = c.E[m*k+j]
		}
	}
	a.rows(func(th, et, rn, _ int) {
		var tot float64
		for _, v := range n[th : th+rn] {
			tot += v
		}
		for l := 0; l < rn-1; l++ {
			dst[et+l] = n[th+l] - s.theta[th+l]*tot
		}
	})
}

// SamplePrior draws η ~ p(η) exactly: each row x ~ Dir(α) in the log domain
// (dist.Dirichlet.RandLog, so small α do not underflow), η_l = ln x_l −
// ln x_K. It writes into dst when its capacity suffices.
func (a *Annealed) SamplePrior(dst []float64, rnd *rand.Rand) []float64 {
	if cap(dst) < a.Dim() {
		dst = make([]float64, a.Dim())
	}
	dst = dst[:a.Dim()]
	s := a.pool.Get().(*annealScratch)
	defer a.pool.Put(s)
	a.rows(func(_, et, n, kind int) {
		if n == 1 {
			return
		}
		lx := dist.NewDirichlet(a.alpha(kind)).RandLog(s.row[:n], rnd)
		for l := 0; l < n-1; l++ {
			dst[et+l] = lx[l] - lx[n-1]
		}
	})
	return dst
}

// Params returns θ(η), the parameters of the coordinates eta.
func (a *Annealed) Params(eta []float64) Params {
	s := a.pool.Get().(*annealScratch)
	defer a.pool.Put(s)
	a.fill(s, eta)
	return ParamsFromFlat(a.k, a.p, s.theta)
}

// Coords returns the log-ratio coordinates η of θ, which must have positive
// entries (ln 0 would be −Inf).
func (a *Annealed) Coords(θ Params) []float64 {
	if θ.K != a.k || θ.P != a.p {
		panic(fmt.Sprintf("hmm: parameters of k=%d p=%d for an annealed target of k=%d p=%d", θ.K, θ.P, a.k, a.p))
	}
	flat := θ.FlatTo(nil)
	eta := make([]float64, a.Dim())
	a.rows(func(th, et, n, _ int) {
		for l := 0; l < n-1; l++ {
			eta[et+l] = math.Log(flat[th+l]) - math.Log(flat[th+n-1])
		}
	})
	return eta
}
