package drift

import (
	"fmt"
	"math"

	"github.com/vbworkbench/vbw/core/dist"
	"github.com/vbworkbench/vbw/core/numeric"
)

// precisions is the part VB and Factorised share: the prior, the settings
// and the gamma q(λ), q(ψ_y) with their starts, expectations, KL terms and
// M-step updates (L994-1003, App B.3 L2308-2330).
type precisions struct {
	prior Prior
	set   Settings

	qLambda, qPsi dist.Gamma
}

// checkAll checks the data, the prior and the settings of a model.
func checkAll(data Data, prior Prior, s Settings) error {
	if err := data.check(); err != nil {
		return err
	}
	if err := prior.check(data.D); err != nil {
		return err
	}
	return s.check()
}

func (s Settings) check() error {
	if s.InitLambda < 0 || s.InitPsi < 0 || s.KnownPsi < 0 || s.KnownLambda < 0 || math.IsInf(s.InitLambda+s.InitPsi+s.KnownPsi+s.KnownLambda, 0) {
		return fmt.Errorf("drift: settings %+v: values must be non-negative and finite", s)
	}
	return nil
}

// reshape sets the shapes of q(λ), q(ψ_y) to those of T steps of d weights
// (a + Td/2, a + T/2), keeping their means: on the first call (first) the
// means of Settings (InitLambda, default 1e3; InitPsi, default 1/Var(y),
// divisor T, 1 for a constant y).
func (p *precisions) reshape(y []float64, d int, first bool) {
	T := len(y)
	aL := p.prior.ALambda + 0.5*float64(T*d)
	aP := p.prior.APsi + 0.5*float64(T)
	if !first {
		p.qLambda = dist.NewGammaShapeRate(aL, aL/p.qLambda.Mean())
		p.qPsi = dist.NewGammaShapeRate(aP, aP/p.qPsi.Mean())
		return
	}
	il := p.set.InitLambda
	if il == 0 {
		il = 1e3
	}
	ip := p.set.InitPsi
	if ip == 0 {
		_, sd := numeric.MeanSD(y)
		ip = 1
		if sd > 0 {
			ip = 1 / (sd * sd)
		}
	}
	p.qLambda = dist.NewGammaShapeRate(aL, aL/il)
	p.qPsi = dist.NewGammaShapeRate(aP, aP/ip)
}

// lambda returns ⟨λ⟩ and ⟨ln λ⟩.
func (p *precisions) lambda() (mean, meanLog float64) {
	if p.set.KnownLambda > 0 {
		return p.set.KnownLambda, math.Log(p.set.KnownLambda)
	}
	return p.qLambda.Mean(), p.qLambda.MeanLog()
}

// psi returns ⟨ψ_y⟩ and ⟨ln ψ_y⟩.
func (p *precisions) psi() (mean, meanLog float64) {
	if p.set.KnownPsi > 0 {
		return p.set.KnownPsi, math.Log(p.set.KnownPsi)
	}
	return p.qPsi.Mean(), p.qPsi.MeanLog()
}

// kls returns KL(q(λ)‖p(λ)) and KL(q(ψ_y)‖p(ψ_y)), 0 for a known one.
func (p *precisions) kls() (klL, klP float64) {
	if p.set.KnownLambda <= 0 {
		klL = dist.KLGamma(p.qLambda, dist.Gamma{Alpha: p.prior.ALambda, Beta: p.prior.BLambda})
	}
	if p.set.KnownPsi <= 0 {
		klP = dist.KLGamma(p.qPsi, dist.Gamma{Alpha: p.prior.APsi, Beta: p.prior.BPsi})
	}
	return klL, klP
}

// update sets q(λ) and q(ψ_y) from T steps of d weights with
// sw = Σ_n ⟨‖w_n − w_{n−1}‖²⟩ and sy = Σ_n ⟨(y_n − x_nᵀw_n)²⟩:
//
//	â_ψ = a_ψ + T/2, b̂_ψ = b_ψ + sy/2,  â_λ = a_λ + Td/2, b̂_λ = b_λ + sw/2.
func (p *precisions) update(T, d int, sw, sy float64) {
	if p.set.KnownLambda <= 0 {
		p.qLambda = dist.Gamma{Alpha: p.prior.ALambda + 0.5*float64(T*d), Beta: p.prior.BLambda + 0.5*sw}
	}
	if p.set.KnownPsi <= 0 {
		p.qPsi = dist.Gamma{Alpha: p.prior.APsi + 0.5*float64(T), Beta: p.prior.BPsi + 0.5*sy}
	}
}

// QLambda returns q(λ) (with λ known, the gamma of the starting q, unused).
func (p *precisions) QLambda() dist.Gamma { return p.qLambda }

// QPsi returns q(ψ_y) (with ψ_y known, the gamma of the starting q, unused).
func (p *precisions) QPsi() dist.Gamma { return p.qPsi }
