package datasets

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Tecator is the meat spectra of Thodberg (1996): for each sample the
// absorbances at 100 wavelengths (850-1050 nm) and its water, fat and
// protein contents in percent (R caret's tecator, 215 rows: Lawrence
// Tables 5.2 and 6.2).
type Tecator struct {
	Absorbance          [][]float64
	Water, Fat, Protein []float64
}

// ReadTecator reads a table with the header a001,…,a100,water,fat,protein
// (any number of absorbance columns a001… in order, at least one), one
// sample a row, every value read by Number.
func ReadTecator(name string, data []byte) (Tecator, error) {
	m, header, err := LoadMatrixCSVHeader(name, data)
	if err != nil {
		return Tecator{}, err
	}
	p := len(header) - 3
	if p < 1 || strings.Join(header[p:], ",") != "water,fat,protein" {
		return Tecator{}, fmt.Errorf("%s: header %s, want a001,…,water,fat,protein", name, Quote(strings.Join(header, ",")))
	}
	for j := range p {
		if want := fmt.Sprintf("a%03d", j+1); header[j] != want {
			return Tecator{}, fmt.Errorf("%s: column %d is %s, want %s", name, j+1, Quote(header[j]), want)
		}
	}
	n, _ := m.Dims()
	var out Tecator
	for i := range n {
		row := append([]float64(nil), m.RawRowView(i)[:p]...)
		out.Absorbance = append(out.Absorbance, row)
		out.Water = append(out.Water, m.At(i, p))
		out.Fat = append(out.Fat, m.At(i, p+1))
		out.Protein = append(out.Protein, m.At(i, p+2))
	}
	return out, nil
}

// PrincipalComponents projects train and test onto the first k principal
// axes of train (the eigenvectors of its covariance, divisor n, about its
// mean, largest eigenvalue first, each signed so that its largest
// component is positive) and returns the scores divided by the square
// root of their eigenvalue (unit variance on train) and the fraction of
// train's variance each of the k axes explains (Lawrence L2218: the first
// ten components of the spectra as inputs; the PCA is fitted on the
// training rows alone).
func PrincipalComponents(train, test [][]float64, k int) (ztrain, ztest [][]float64, explained []float64, err error) {
	n := len(train)
	if n < 2 || k < 1 {
		return nil, nil, nil, fmt.Errorf("principal components: %d training rows, %d components", n, k)
	}
	p := len(train[0])
	if k > p || k >= n {
		return nil, nil, nil, fmt.Errorf("principal components: %d components of %d columns and %d rows", k, p, n)
	}
	mean := make([]float64, p)
	for _, r := range train {
		if len(r) != p {
			return nil, nil, nil, fmt.Errorf("principal components: rows of %d and %d columns", p, len(r))
		}
		for j, v := range r {
			mean[j] += v / float64(n)
		}
	}
	cov := mat.NewSymDense(p, nil)
	for a := range p {
		for b := a; b < p; b++ {
			var s float64
			for _, r := range train {
				s += (r[a] - mean[a]) * (r[b] - mean[b])
			}
			cov.SetSym(a, b, s/float64(n))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return nil, nil, nil, fmt.Errorf("principal components: the eigendecomposition failed")
	}
	vals := eig.Values(nil) // ascending
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	var total float64
	for _, v := range vals {
		total += v
	}
	axes := make([][]float64, k)
	sd := make([]float64, k)
	for c := range k {
		col := p - 1 - c
		if !(vals[col] > 1e-12*total) {
			return nil, nil, nil, fmt.Errorf("principal components: component %d has variance %v of %v in all", c+1, vals[col], total)
		}
		ax := make([]float64, p)
		mat.Col(ax, col, &vecs)
		big := 0
		for j := range ax {
			if math.Abs(ax[j]) > math.Abs(ax[big]) {
				big = j
			}
		}
		if ax[big] < 0 {
			for j := range ax {
				ax[j] = -ax[j]
			}
		}
		axes[c], sd[c] = ax, math.Sqrt(vals[col])
		explained = append(explained, vals[col]/total)
	}
	project := func(rows [][]float64) ([][]float64, error) {
		out := make([][]float64, len(rows))
		for i, r := range rows {
			if len(r) != p {
				return nil, fmt.Errorf("principal components: rows of %d and %d columns", p, len(r))
			}
			z := make([]float64, k)
			for c, ax := range axes {
				var s float64
				for j, v := range r {
					s += (v - mean[j]) * ax[j]
				}
				z[c] = s / sd[c]
			}
			out[i] = z
		}
		return out, nil
	}
	if ztrain, err = project(train); err != nil {
		return nil, nil, nil, err
	}
	if ztest, err = project(test); err != nil {
		return nil, nil, nil, err
	}
	return ztrain, ztest, explained, nil
}
