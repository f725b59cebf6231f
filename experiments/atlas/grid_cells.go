package atlas

// What every row shares in its stored cells: JSON-safe twins of Estimate
// and GoldStandard (experiments.Float writes NaN), and the standardised
// points of a data matrix.

import (
	"gonum.org/v1/gonum/mat"

	"github.com/vbworkbench/vbw/core/numeric"
	"github.com/vbworkbench/vbw/experiments"
)

// cellEst is an Estimate as a stored cell holds it.
type cellEst struct {
	Dataset string            `json:"dataset"`
	Seed    uint64            `json:"seed"`
	Method  string            `json:"method"`
	Budget  int               `json:"budget"`
	LnZ     experiments.Float `json:"lnz"`
	SE      experiments.Float `json:"se"`
	Ops     experiments.Float `json:"ops"`
	CPU     experiments.Float `json:"cpu_s"`
	MeanErr experiments.Float `json:"mean_err"`
	VarErr  experiments.Float `json:"var_err"`
}

func (e cellEst) estimate() Estimate {
	return Estimate{Dataset: e.Dataset, Seed: e.Seed, Method: e.Method, Budget: e.Budget, LnZ: float64(e.LnZ), SE: float64(e.SE),
		Ops: float64(e.Ops), CPUSeconds: float64(e.CPU), MeanErr: float64(e.MeanErr), VarErr: float64(e.VarErr)}
}

// cellGold is a GoldStandard as a stored cell holds it.
type cellGold struct {
	Dataset string            `json:"dataset"`
	Seed    uint64            `json:"seed"`
	LnZ     experiments.Float `json:"lnz"`
	SE      experiments.Float `json:"se"`
	Kind    string            `json:"kind"`
}

func (g cellGold) gold() GoldStandard {
	return GoldStandard{Dataset: g.Dataset, Seed: g.Seed, LnZ: float64(g.LnZ), SE: float64(g.SE), Kind: g.Kind}
}

// standardise returns m's columns standardised (numeric.Standardise:
// mean 0, variance 1 with divisor N; a constant column refused), row-major.
func standardise(m mat.Matrix) ([]float64, error) {
	_, _, st, err := numeric.Standardise(m, nil, numeric.RefuseConstant)
	if err != nil {
		return nil, err
	}
	z, err := st.Apply(m)
	if err != nil {
		return nil, err
	}
	return z.RawMatrix().Data, nil
}
