package vbgmm

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/vbworkbench/vbw/experiments"
	"github.com/vbworkbench/vbw/plots"
	"github.com/vbworkbench/vbw/results"
)

// orderTable is a long-form table of scores by (seed, order), as read from
// linreg_orders.csv or dsouza.csv.
type orderTable struct {
	seeds, orders []int
	cols          map[string][]float64
}

// readOrderTable reads the integer columns seed and order and the named
// float columns of dir/name.
func readOrderTable(dir, name string, cols ...string) (orderTable, error) {
	path := filepath.Join(dir, name)
	t, err := results.ReadCSV(path)
	if err != nil {
		return orderTable{}, err
	}
	ot := orderTable{cols: map[string][]float64{}}
	sc, err := t.Col("seed")
	if err != nil {
		return ot, err
	}
	oc, err := t.Col("order")
	if err != nil {
		return ot, err
	}
	for i := range t.Rows {
		s, err := t.Int(i, sc)
		if err != nil {
			return ot, err
		}
		o, err := t.Int(i, oc)
		if err != nil {
			return ot, err
		}
		ot.seeds, ot.orders = append(ot.seeds, s), append(ot.orders, o)
	}
	for _, c := range cols {
		if ot.cols[c], err = t.Floats(c); err != nil {
			return ot, err
		}
	}
	if len(ot.seeds) == 0 {
		return ot, fmt.Errorf("%s: no rows", path)
	}
	return ot, nil
}

// orderList returns the distinct orders, sorted.
func (t orderTable) orderList() []int {
	out := slices.Clone(t.orders)
	slices.Sort(out)
	return slices.Compact(out)
}

// seedSeries returns col against order for one seed.
func (t orderTable) seedSeries(seed int, col string) (x, y []float64) {
	for i, s := range t.seeds {
		if s == seed {
			x, y = append(x, float64(t.orders[i])), append(y, t.cols[col][i])
		}
	}
	return x, y
}

// quartiles returns, per order, the median and the quartiles of col over
// the seeds, as a series with a band.
func (t orderTable) quartiles(name, col string) plots.Series {
	s := plots.Series{Name: name, Points: true}
	for _, o := range t.orderList() {
		var v []float64
		for i, oi := range t.orders {
			if oi == o {
				v = append(v, t.cols[col][i])
			}
		}
		s.X = append(s.X, float64(o))
		s.Y = append(s.Y, results.Median(v))
		s.Lo = append(s.Lo, results.Quantile(v, 0.25))
		s.Hi = append(s.Hi, results.Quantile(v, 0.75))
	}
	return s
}

// picks returns, per order, the fraction of seeds whose col is best there
// (largest, or smallest if min).
func (t orderTable) picks(name, col string, min bool) plots.Series {
	best := map[int]int{} // seed → row of its best order
	for i, s := range t.seeds {
		j, ok := best[s]
		v, w := t.cols[col][i], 0.0
		if ok {
			w = t.cols[col][j]
		}
		if !ok || (!min && v > w) || (min && v < w) {
			best[s] = i
		}
	}
	s := plots.Series{Name: name, Points: true}
	for _, o := range t.orderList() {
		n := 0
		for _, j := range best {
			if t.orders[j] == o {
				n++
			}
		}
		s.X, s.Y = append(s.X, float64(o)), append(s.Y, float64(n)/float64(len(best)))
	}
	return s
}

// orderTicks puts integer ticks at the orders.
func orderTicks(p *plot.Plot, orders []int) {
	var ticks plot.ConstantTicks
	for _, o := range orders {
		ticks = append(ticks, plot.Tick{Value: float64(o), Label: fmt.Sprint(o)})
	}
	p.X.Tick.Marker = ticks
	p.X.Min, p.X.Max = p.X.Min-0.3, p.X.Max+0.3
}

// linregMargin is the room, in nats, left above and below the points of
// the zoomed panel of fig10_9.
const linregMargin = 2

// PlotLinreg draws fig10_9 and dsouza_fig1_2 from linreg_orders.csv,
// dsouza.csv and linreg_data.csv.
func PlotLinreg(dir string) error {
	if err := plotFig10_9(dir); err != nil {
		return err
	}
	return plotDSouza(dir)
}

// fig10_9Zoom returns the y range of fig10_9's zoomed panel: every order
// from the one where the bound or the evidence peaks upwards (the decline
// past the peak that the text's figure shows), with linregMargin nats either
// side, and the orders it leaves below the range (below the peak, hundreds
// of nats lower: they show in the panel of every order). Orders whose bound
// or evidence is not finite count for nothing; ok is false when none is.
func fig10_9Zoom(x, yf, ye []float64) (lo, hi float64, below []int, ok bool) {
	finite := func(i int) bool {
		return !math.IsNaN(yf[i]) && !math.IsInf(yf[i], 0) && !math.IsNaN(ye[i]) && !math.IsInf(ye[i], 0)
	}
	peak, top := 0.0, math.Inf(-1)
	for i := range x {
		if v := max(yf[i], ye[i]); finite(i) && v > top {
			top, peak = v, x[i]
		}
	}
	if math.IsInf(top, -1) {
		return 0, 0, nil, false
	}
	lo = top
	for i := range x {
		if finite(i) && x[i] >= peak {
			lo = min(lo, yf[i], ye[i])
		}
	}
	lo, hi = lo-linregMargin, top+linregMargin
	for i := range x {
		if finite(i) && min(yf[i], ye[i]) < lo {
			below = append(below, int(x[i]))
		}
	}
	return lo, hi, below, true
}

// plotFig10_9 draws, for data set 0, (a) the bound and the exact ln p(t)
// against the order on a range that holds every order and (b) the same
// zoomed on the orders from the peak up, as the text's figure is (a
// linear axis in both, so that differences read as nats everywhere; the
// orders below the peak lie hundreds of nats lower, and one range cannot
// show them and a difference of a nat at once), then (c) the fraction of
// data sets whose bound or evidence peaks at each order and (d) the gap
// ln p(t) − F, median and quartiles over the data sets.
func plotFig10_9(dir string) error {
	t, err := readOrderTable(dir, "linreg_orders.csv", "F", "ln_p_exact", "F_minus_exact")
	if err != nil {
		return err
	}
	orders := t.orderList()
	xf, yf := t.seedSeries(0, "F")
	xe, ye := t.seedSeries(0, "ln_p_exact")
	if !slices.Equal(xf, xe) || len(xf) == 0 {
		return fmt.Errorf("linreg_orders.csv: data set 0 has orders %v for F and %v for ln_p_exact", xf, xe)
	}
	evidence := func(title string) (*plot.Plot, error) {
		p, _, err := plots.Lines(plots.Axes{Title: title, XLabel: "polynomial order", YLabel: "nats"},
			plots.Series{Name: "bound L(q)", X: xf, Y: yf, Points: true}, plots.Series{Name: "exact ln p(t)", X: xe, Y: ye, Points: true})
		if err != nil {
			return nil, err
		}
		orderTicks(p, orders)
		return p, nil
	}
	pa, err := evidence("(a) data set 0: bound and evidence, every order")
	if err != nil {
		return err
	}
	lo, hi, below, zoomed := fig10_9Zoom(xf, yf, ye)
	zoomTitle := "(b) zoom on the peak"
	if len(below) > 0 {
		zoomTitle += fmt.Sprintf("; %s lie below", orderNames(below))
	}
	pb, err := evidence(zoomTitle)
	if err != nil {
		return err
	}
	if zoomed {
		pb.Y.Min, pb.Y.Max = lo, hi
	}
	pc, _, err := plots.Lines(plots.Axes{Title: fmt.Sprintf("(c) order picked, %d data sets", len(t.seeds)/len(orders)), XLabel: "polynomial order", YLabel: "fraction of data sets"},
		t.picks("by the bound", "F", false), t.picks("by ln p(t)", "ln_p_exact", false))
	if err != nil {
		return err
	}
	orderTicks(pc, orders)
	gap := t.quartiles("ln p(t) − L(q)", "F_minus_exact")
	for i := range gap.Y {
		gap.Y[i], gap.Lo[i], gap.Hi[i] = -gap.Y[i], -gap.Hi[i], -gap.Lo[i]
	}
	pd, _, err := plots.Lines(plots.Axes{Title: "(d) ln p(t) − L(q): median, quartiles", XLabel: "polynomial order", YLabel: "nats"}, gap)
	if err != nil {
		return err
	}
	orderTicks(pd, orders)
	return experiments.SaveFigure(dir, "fig10_9", plots.Figure{Rows: 2, Cols: 2, Panels: []*plot.Plot{pa, pb, pc, pd},
		Title: "PRML Fig. 10.9: VB bound against polynomial order, beside the exact evidence"})
}

// orderNames lists orders as "order 2" or "orders 0, 1, 2".
func orderNames(os []int) string {
	if len(os) == 1 {
		return fmt.Sprintf("order %d", os[0])
	}
	s := make([]string, len(os))
	for i, o := range os {
		s[i] = fmt.Sprint(o)
	}
	return "orders " + strings.Join(s, ", ")
}

// plotDSouza draws (a) data set 0 with the least-squares fits of the
// orders, (b) the training MSE and the LOO-CV error and (c) the exact
// evidence and the bound, medians and quartiles over the data sets.
func plotDSouza(dir string) error {
	t, err := readOrderTable(dir, "dsouza.csv", "mse", "loo_cv", "ln_p_exact", "F")
	if err != nil {
		return err
	}
	orders := t.orderList()
	dt, err := results.ReadCSV(filepath.Join(dir, "linreg_data.csv"))
	if err != nil {
		return err
	}
	c := dt.Columns()
	seeds, parts, xs, tv := c.Floats("seed"), c.Strings("part"), c.Floats("x"), c.Floats("t")
	if err := c.Err(); err != nil {
		return err
	}
	var x, y []float64
	for i := range xs {
		if seeds[i] == 0 && parts[i] == "dsouza" {
			x, y = append(x, xs[i]), append(y, tv[i])
		}
	}
	if len(x) == 0 {
		return fmt.Errorf("%s: no D'Souza data for data set 0", filepath.Join(dir, "linreg_data.csv"))
	}
	lo, hi := slices.Min(x), slices.Max(x)
	var fits []plots.Series
	for _, o := range orders {
		w, err := leastSquares(x, y, o)
		if err != nil {
			return err
		}
		s := plots.Series{Name: fmt.Sprintf("order %d", o)}
		for k := 0; k <= 100; k++ {
			u := lo + (hi-lo)*float64(k)/100
			s.X, s.Y = append(s.X, u), append(s.Y, polyval(w, u))
		}
		fits = append(fits, s)
	}
	pa, _, err := plots.Lines(plots.Axes{Title: "(a) data set 0, least-squares fits", XLabel: "x", YLabel: "t"}, fits...)
	if err != nil {
		return err
	}
	pts := make(plotter.XYs, len(x))
	for i := range x {
		pts[i] = plotter.XY{X: x[i], Y: y[i]}
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	sc.GlyphStyle = plots.GlyphStyle(len(orders))
	pa.Add(sc)
	// Keep the plot on the data: an order-6 fit may swing far out.
	ymin, ymax := slices.Min(y), slices.Max(y)
	pa.Y.Min, pa.Y.Max = ymin-0.5*(ymax-ymin), ymax+0.5*(ymax-ymin)
	pb, _, err := plots.Lines(plots.Axes{Title: "(b) MSE and LOO-CV (median, quartiles)", XLabel: "polynomial order", YLabel: "mean squared error", LogY: true},
		t.quartiles("training MSE", "mse"), t.quartiles("LOO-CV", "loo_cv"))
	if err != nil {
		return err
	}
	orderTicks(pb, orders)
	pb.Legend.Top, pb.Legend.Left = false, true
	pc, _, err := plots.Lines(plots.Axes{Title: "(c) evidence and bound (median, quartiles)", XLabel: "polynomial order", YLabel: "nats"},
		t.quartiles("exact ln p(t)", "ln_p_exact"), t.quartiles("bound L(q)", "F"))
	if err != nil {
		return err
	}
	orderTicks(pc, orders)
	pc.Legend.Top = false
	return experiments.SaveFigure(dir, "dsouza_fig1_2", plots.Figure{Rows: 1, Cols: 3, Panels: []*plot.Plot{pa, pb, pc},
		Title: "D'Souza Fig. 1.2 analogue: MSE, evidence and LOO-CV of polynomials"})
}
