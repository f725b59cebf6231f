package drift

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/infer"
	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/core/vb"
)

// Estimates are the online estimates of a tracker at every step n = 1, …, T:
// W (T×d) the estimate of w_n from y_{1:n}, and Lambda (T) the ⟨λ⟩ it used.
// Runs counts Smoother's VB runs (one per step) and Capped those that
// stopped at vb.Settings.MaxIterations rather than by the stop rule.
type Estimates struct {
	W      []float64
	Lambda []float64
	Runs   int
	Capped int
}

func newEstimates(T, d int) Estimates {
	return Estimates{W: make([]float64, T*d), Lambda: make([]float64, T)}
}

// Filter is the variational Kalman filter (vkF) of Sykacek & Roberts (2003),
// adapted to regression as D'Souza's comparison does (L1009-1011): causal
// information only. At step n it
//
//  1. runs one Kalman step at the current ⟨λ⟩, ⟨ψ_y⟩ from the filtered
//     q(w_{n−1} | y_{1:n−1}) = N(μ_{n−1}, ζ_{n−1}⁻¹) (the forward recursion
//     of L983-985), giving the joint q(w_{n−1}, w_n | y_{1:n}) — core/infer's
//     smoother on the one-step sequence y_n with that prior of its x_0;
//  2. adds that step's statistics ⟨‖w_n − w_{n−1}‖²⟩ and ⟨(y_n − x_nᵀw_n)²⟩
//     under the joint to the sums over the last Window steps, and sets
//     q(λ) = Ga(a_λ + N_w d/2, b_λ + ½ Σ), q(ψ_y) = Ga(a_ψ + N_w/2, b_ψ + ½ Σ)
//     over the N_w ≤ Window steps held (the updates of L996-1003 with
//     filtered in place of smoothed moments);
//  3. repeats 1-2 for step n Iterations times in all (the later passes
//     replace the step's statistics), and reports μ_n and the ⟨λ⟩ of its
//     last pass.
//
// The filtered moments of successive steps are never revised by later data,
// which is what D'Souza blames for vkF's under-estimate of λ (L1017).
// Step 1's ⟨λ⟩, ⟨ψ_y⟩ are those of Settings (InitLambda, InitPsi) until the
// window holds a step; KnownLambda and KnownPsi fix them throughout.
type Filter struct {
	Window     int // steps in the window of statistics (≥ 1)
	Iterations int // passes per step (0: 1)
}

// Track runs the filter over the data under the prior and returns its
// online estimates.
func (f Filter) Track(data Data, prior Prior, s Settings) (Estimates, error) {
	if err := data.check(); err != nil {
		return Estimates{}, err
	}
	if err := prior.check(data.D); err != nil {
		return Estimates{}, err
	}
	if f.Window < 1 {
		return Estimates{}, fmt.Errorf("drift: filter window %d, want at least 1", f.Window)
	}
	iters := max(f.Iterations, 1)
	d, T := data.D, data.T()
	dd := d * d
	est := newEstimates(T, d)
	lbar := s.InitLambda
	if lbar == 0 {
		lbar = 1e3
	}
	pbar := s.InitPsi
	if pbar == 0 {
		_, sd := numeric.MeanSD(data.Y)
		pbar = 1
		if sd > 0 {
			pbar = 1 / (sd * sd)
		}
	}
	if s.KnownPsi > 0 {
		pbar = s.KnownPsi
	}
	if s.KnownLambda > 0 {
		lbar = s.KnownLambda
	}
	ks := infer.NewKalmanSmoother(d, 1, 0, 1)
	phi := infer.NewLDSNatural(d, 1, 0)
	for i := 0; i < d; i++ {
		phi.A[i*d+i] = 1
		phi.AtA[i*d+i] = 1
	}
	obs := infer.LDSVarying{CtRhoC: make([]float64, dd), RhoC: make([]float64, d)}
	var post infer.LDSPosterior
	mu := make([]float64, d)    // μ_{n−1}
	prec := make([]float64, dd) // ζ_{n−1}
	if prior.W0 != nil {
		copy(mu, prior.W0)
	}
	for i := 0; i < d; i++ {
		prec[i*d+i] = prior.Zeta0
	}
	ringW := make([]float64, f.Window)
	ringY := make([]float64, f.Window)
	var sumW, sumY float64
	held := 0
	for n := 0; n < T; n++ {
		x := data.X[n*d : (n+1)*d]
		slot := n % f.Window
		for it := 0; it < iters; it++ {
			sl := math.Sqrt(lbar)
			phi.Rho[0] = pbar
			phi.LogDetRho = math.Log(pbar)
			for i := 0; i < d; i++ {
				phi.Mu0[i] = sl * mu[i]
				for j := 0; j < d; j++ {
					phi.Lambda0[i*d+j] = prec[i*d+j] / lbar
					obs.CtRhoC[i*d+j] = pbar * x[i] * x[j] / lbar
				}
				obs.RhoC[i] = pbar * x[i] / sl
			}
			if err := ks.SmoothVarying(&post, phi, &obs, data.Y[n:n+1]); err != nil {
				return Estimates{}, fmt.Errorf("drift: filter step %d: %w", n+1, err)
			}
			// The step's statistics in w = s/√⟨λ⟩.
			r := data.Y[n] - numeric.Dot(x, post.X)/sl
			sy := r*r + quad(post.V, x)/lbar
			var sw float64
			for i := 0; i < d; i++ {
				dm := post.X[i] - post.X0[i]
				sw += dm*dm + post.V[i*d+i] + post.V0[i*d+i] - 2*post.W0[i*d+i]
			}
			sw /= lbar
			for i := 0; i < d; i++ {
				est.W[n*d+i] = post.X[i] / sl
			}
			est.Lambda[n] = lbar
			// Replace the slot's statistics (the oldest step's, or this
			// step's from the previous pass).
			if it == 0 {
				if held == f.Window {
					sumW -= ringW[slot]
					sumY -= ringY[slot]
				} else {
					held++
				}
			} else {
				sumW -= ringW[slot]
				sumY -= ringY[slot]
			}
			ringW[slot], ringY[slot] = sw, sy
			sumW += sw
			sumY += sy
			// Guard the sums against drift below zero by rounding.
			sumW, sumY = max(sumW, 0), max(sumY, 0)
			if s.KnownLambda <= 0 {
				lbar = (prior.ALambda + 0.5*float64(held*d)) / (prior.BLambda + 0.5*sumW)
			}
			if s.KnownPsi <= 0 {
				pbar = (prior.APsi + 0.5*float64(held)) / (prior.BPsi + 0.5*sumY)
			}
		}
		// The filtered posterior of w_n becomes the prior of the next step:
		// N(⟨s_1⟩/√λ̄, Cov(s_1)/λ̄) at the ⟨λ⟩ of the last pass.
		lused := est.Lambda[n]
		copy(mu, est.W[n*d:(n+1)*d])
		if _, ok := numeric.InverseSPD(prec, post.V, d); !ok {
			return Estimates{}, fmt.Errorf("drift: filter step %d: filtered covariance not positive definite", n+1)
		}
		for i := range prec {
			prec[i] *= lused
		}
	}
	return est, nil
}

// Smoother is vkS run online (L966-967, L1048-1050): at every Every-th step n
// (and the last), VB (vb.Run) on the last Window steps y_{n−Window+1:n}
// (fewer at the start), whose weight before the window has the prior's
// N(ŵ_0, ζ_0⁻¹ I), started from the q(λ), q(ψ_y) of the previous run; the
// estimate of w_n is the last smoothed mean ⟨w_n⟩, which uses y_{1:n} only,
// and between runs the estimate of the last run is held (the random walk's
// prediction). With Factorised the model is Factorised, vkS with
// backfitting's factorisation over the inputs (Fig. 3.15), its means started
// from the previous run's shifted to the new window.
type Smoother struct {
	Window     int         // steps in the window (≥ 2)
	VB         vb.Settings // the stop rule of each window's run
	Every      int         // steps between runs (0: 1, a run at every step)
	Factorised bool        // Factorised in place of VB
}

// windowed is what Track needs of VB and Factorised.
type windowed interface {
	vb.Model
	setWindow(data Data, shift int) error
	Last(dst []float64) []float64
	lambdaMean() float64
}

func (m *VB) setWindow(data Data, _ int) error         { return m.SetData(data) }
func (m *VB) lambdaMean() float64                      { return m.lbar }
func (m *Factorised) setWindow(data Data, s int) error { return m.SetData(data, s) }
func (m *Factorised) lambdaMean() float64              { l, _ := m.lambda(); return l }

// Track runs the smoother over the data and returns its online estimates.
func (sm Smoother) Track(data Data, prior Prior, s Settings) (Estimates, error) {
	if err := data.check(); err != nil {
		return Estimates{}, err
	}
	if sm.Window < 2 {
		return Estimates{}, fmt.Errorf("drift: smoother window %d, want at least 2", sm.Window)
	}
	if sm.Every < 0 {
		return Estimates{}, fmt.Errorf("drift: smoother runs every %d steps, want at least 1", sm.Every)
	}
	every := max(sm.Every, 1)
	d, T := data.D, data.T()
	est := newEstimates(T, d)
	var m windowed
	last := make([]float64, d)
	lambda, prevLo := 0.0, 0
	for n := 1; n <= T; n++ {
		if n%every != 0 && n != T && m != nil {
			copy(est.W[(n-1)*d:n*d], last)
			est.Lambda[n-1] = lambda
			continue
		}
		lo := max(0, n-sm.Window)
		win := Data{X: data.X[lo*d : n*d], Y: data.Y[lo:n], D: d}
		var err error
		switch {
		case m != nil:
			err = m.setWindow(win, lo-prevLo)
		case sm.Factorised:
			m, err = NewFactorised(win, prior, s)
		default:
			m, err = NewVB(win, prior, s)
		}
		if err != nil {
			return Estimates{}, err
		}
		prevLo = lo
		r := vb.Run(m, sm.VB)
		if err := r.Error(); err != nil {
			return Estimates{}, fmt.Errorf("drift: smoother step %d: %w", n, err)
		}
		est.Runs++
		if r.Status == vb.IterationLimit {
			est.Capped++
		}
		// The run ends on an E step: q(w) is that of the last q(λ), q(ψ_y).
		m.Last(last)
		lambda = m.lambdaMean()
		copy(est.W[(n-1)*d:n*d], last)
		est.Lambda[n-1] = lambda
	}
	return est, nil
}
