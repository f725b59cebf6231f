package datasets

import (
	"fmt"
	"math"
	"strings"
)

// Sunspots is a yearly series: Value[i] is the mean sunspot number of
// Year[i], the years consecutive (R's sunspot.year, 1700-1988: Lawrence
// Tables 5.1 and 6.1).
type Sunspots struct {
	Year  []int
	Value []float64
}

// ReadSunspots reads a table with the header year,sunspots and one row a
// year, the years consecutive integers, the values non-negative numbers
// (Number).
func ReadSunspots(name string, data []byte) (Sunspots, error) {
	m, header, err := LoadMatrixCSVHeader(name, data)
	if err != nil {
		return Sunspots{}, err
	}
	if strings.Join(header, ",") != "year,sunspots" {
		return Sunspots{}, fmt.Errorf("%s: header %s, want year,sunspots", name, Quote(strings.Join(header, ",")))
	}
	n, _ := m.Dims()
	var s Sunspots
	for i := range n {
		y, v := m.At(i, 0), m.At(i, 1)
		if y != math.Trunc(y) || math.Abs(y) > 1e6 {
			return Sunspots{}, fmt.Errorf("%s: data row %d: year %v is not an integer", name, i+1, y)
		}
		if i > 0 && int(y) != s.Year[i-1]+1 {
			return Sunspots{}, fmt.Errorf("%s: data row %d: year %v follows %d: the years must be consecutive", name, i+1, y, s.Year[i-1])
		}
		if v < 0 {
			return Sunspots{}, fmt.Errorf("%s: data row %d: %v sunspots (year %v): not a count", name, i+1, v, y)
		}
		s.Year, s.Value = append(s.Year, int(y)), append(s.Value, v)
	}
	return s, nil
}

// Range returns the values of the years from to to (inclusive).
func (s Sunspots) Range(from, to int) ([]float64, error) {
	if len(s.Year) == 0 || from > to || from < s.Year[0] || to > s.Year[len(s.Year)-1] {
		return nil, fmt.Errorf("sunspots: years %d-%d are not all in the series (%s)", from, to, s.span())
	}
	return s.Value[from-s.Year[0] : to-s.Year[0]+1], nil
}

func (s Sunspots) span() string {
	if len(s.Year) == 0 {
		return "empty"
	}
	return fmt.Sprintf("%d-%d", s.Year[0], s.Year[len(s.Year)-1])
}

// Lagged returns the patterns of a window of lags years: for every target
// year n from from to to, the inputs (x_{n−1}, …, x_{n−lags}) and the
// target x_n (Lawrence L2193: x_n = f(x_{n−1}, …, x_{n−12})), read from
// values, the series transformed as the caller wishes (one value per year
// of s). The inputs of the first target reach lags years before it.
func (s Sunspots) Lagged(values []float64, lags, from, to int) (x [][]float64, t []float64, err error) {
	if len(values) != len(s.Year) {
		return nil, nil, fmt.Errorf("sunspots: %d values for %d years", len(values), len(s.Year))
	}
	if lags < 1 {
		return nil, nil, fmt.Errorf("sunspots: %d lags", lags)
	}
	if _, err := s.Range(from-lags, to); err != nil {
		return nil, nil, fmt.Errorf("sunspots: targets %d-%d with %d lags need the years %d-%d, the series has %s", from, to, lags, from-lags, to, s.span())
	}
	for y := from; y <= to; y++ {
		i := y - s.Year[0]
		row := make([]float64, lags)
		for l := range row {
			row[l] = values[i-1-l]
		}
		x, t = append(x, row), append(t, values[i])
	}
	return x, t, nil
}
