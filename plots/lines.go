package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// Series is one curve of a line plot: a bound trace, or a score against a
// swept setting.
type Series struct {
	// Name labels the series in the legend. Unnamed series get no entry.
	Name string

	// X and Y are the coordinates of the points, in drawing order.
	// They must have the same length.
	X, Y []float64

	// Lo and Hi optionally give a band around the curve (for example the
	// interquartile range over seeds), drawn as a translucent polygon in
	// the series' colour. Either both are nil or both have len(X).
	Lo, Hi []float64

	// Points asks for a marker at every point as well as the line.
	Points bool

	// Markers draws the points as markers only, with no line joining
	// them (a scatter, such as every run behind a median); its legend
	// entry shows the marker alone.
	Markers bool
}

// hasBand reports whether s carries a band.
func (s Series) hasBand() bool { return s.Lo != nil || s.Hi != nil }

// check returns an error when the lengths of s's slices disagree.
func (s Series) check() error {
	if len(s.Y) != len(s.X) {
		return fmt.Errorf("len(Y) = %d, want len(X) = %d", len(s.Y), len(s.X))
	}
	if s.hasBand() && (len(s.Lo) != len(s.X) || len(s.Hi) != len(s.X)) {
		return fmt.Errorf("band lengths len(Lo) = %d, len(Hi) = %d, want len(X) = %d",
			len(s.Lo), len(s.Hi), len(s.X))
	}
	return nil
}

// Axes describes the frame of a line plot.
type Axes struct {
	Title, XLabel, YLabel string

	// LogX and LogY put the axis on a logarithmic scale with ticks at
	// powers of ten (Log10Ticks).
	LogX, LogY bool

	// Log2X puts the x axis on a logarithmic scale with ticks at powers
	// of two, labelled 1, 2, 4, 8, …; it implies LogX.
	Log2X bool

	// IntegerX marks a linear x axis at integers only (IntegerTicks), for
	// counts such as the number of hidden states.
	IntegerX bool
}

// logX reports whether the x axis is logarithmic.
func (ax Axes) logX() bool { return ax.LogX || ax.Log2X }

// Dropped reports the points of one series that Lines left out.
type Dropped struct {
	Index int    // position of the series among the arguments of Lines
	Name  string // the series' Name
	N     int    // number of points dropped, as counted by Clean
}

// String returns a one-line warning suitable for a results manifest.
func (d Dropped) String() string {
	noun := "points"
	if d.N == 1 {
		noun = "point"
	}
	return fmt.Sprintf("plots: series %d (%q): dropped %d %s (NaN, ±Inf, or ≤ 0 on a log axis)",
		d.Index, d.Name, d.N, noun)
}

// drawable reports whether v can be placed on an axis.
func drawable(v float64, log bool) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	return !log || v > 0
}

// Clean returns a copy of s without the points that cannot be drawn: NaN,
// ±Inf, or values ≤ 0 on a logarithmic axis. A point whose X or Y cannot be
// drawn is removed together with its band. A point whose X and Y are fine but
// whose Lo or Hi cannot be drawn keeps its line vertex; its Lo and Hi are set
// to NaN, which Lines draws as a gap in the band. The count n is the number
// of indices at which anything was removed.
//
// Clean panics if the lengths of s's slices disagree (Lines returns an error
// instead). The input is never modified.
func Clean(s Series, logX, logY bool) (clean Series, n int) {
	if err := s.check(); err != nil {
		panic("plots: Clean: " + err.Error())
	}
	clean = Series{Name: s.Name, Points: s.Points, Markers: s.Markers}
	band := s.hasBand()
	clean.X = make([]float64, 0, len(s.X))
	clean.Y = make([]float64, 0, len(s.X))
	if band {
		clean.Lo = make([]float64, 0, len(s.X))
		clean.Hi = make([]float64, 0, len(s.X))
	}
	for i, x := range s.X {
		y := s.Y[i]
		if !drawable(x, logX) || !drawable(y, logY) {
			n++
			continue
		}
		clean.X = append(clean.X, x)
		clean.Y = append(clean.Y, y)
		if !band {
			continue
		}
		lo, hi := s.Lo[i], s.Hi[i]
		if !drawable(lo, logY) || !drawable(hi, logY) {
			n++
			lo, hi = math.NaN(), math.NaN()
		}
		clean.Lo = append(clean.Lo, lo)
		clean.Hi = append(clean.Hi, hi)
	}
	return clean, n
}

// bandRings returns the polygons of a cleaned series' band: one ring per
// run of at least two consecutive points whose Lo and Hi are not NaN.
func bandRings(s Series) []plotter.XYs {
	var rings []plotter.XYs
	start := -1
	flush := func(end int) {
		if start >= 0 && end-start >= 2 {
			ring := make(plotter.XYs, 0, 2*(end-start))
			for i := start; i < end; i++ {
				ring = append(ring, plotter.XY{X: s.X[i], Y: s.Lo[i]})
			}
			for i := end - 1; i >= start; i-- {
				ring = append(ring, plotter.XY{X: s.X[i], Y: s.Hi[i]})
			}
			rings = append(rings, ring)
		}
		start = -1
	}
	for i := range s.X {
		if math.IsNaN(s.Lo[i]) || math.IsNaN(s.Hi[i]) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(s.X))
	return rings
}

// span accumulates the range of drawable values on one axis.
type span struct{ min, max float64 }

func newSpan() span { return span{math.Inf(1), math.Inf(-1)} }

func (s *span) add(vs ...float64) {
	for _, v := range vs {
		if math.IsNaN(v) {
			continue
		}
		s.min = math.Min(s.min, v)
		s.max = math.Max(s.max, v)
	}
}

// setRange sets the axis to the span, with fall-backs for an empty or a
// single-valued span that keep a log axis strictly positive.
func (s span) setRange(a *plot.Axis, log bool, base float64) {
	lo, hi := s.min, s.max
	switch {
	case lo > hi && log: // no data
		lo, hi = 1, base
	case lo > hi:
		lo, hi = 0, 1
	case lo == hi && log:
		lo, hi = lo/math.Sqrt(base), hi*math.Sqrt(base)
	case lo == hi:
		d := math.Max(math.Abs(lo)*0.05, 1)
		lo, hi = lo-d, hi+d
	}
	a.Min, a.Max = lo, hi
}

// Lines draws series as lines on the frame ax and returns the plot with,
// for every series that lost points, a Dropped record (see Clean). Points
// that cannot be drawn never make Lines fail; the line joins the
// neighbours of a dropped point, and a series left with no points is drawn
// as a legend entry only. Lines returns an error only when a series'
// slices have mismatched lengths.
//
// Series i is drawn with LineStyle(i) and, when Points is set,
// GlyphStyle(i), except that a series named as an earlier one is drawn in
// that one's style and shares its legend entry (several runs of one kind),
// later series keeping their own index; bands are drawn first, beneath
// every line. A legend
// appears when more than one series is named, placed by PlaceLegend where
// it covers the fewest of the series' lines, markers and bands.
func Lines(ax Axes, series ...Series) (*plot.Plot, []Dropped, error) {
	for i, s := range series {
		if err := s.check(); err != nil {
			return nil, nil, fmt.Errorf("plots: series %d (%q): %v", i, s.Name, err)
		}
	}

	p := newPlot(ax.Title)
	p.X.Label.Text = ax.XLabel
	p.Y.Label.Text = ax.YLabel

	var dropped []Dropped
	clean := make([]Series, len(series))
	xs, ys := newSpan(), newSpan()
	for i, s := range series {
		c, n := Clean(s, ax.logX(), ax.LogY)
		if n > 0 {
			dropped = append(dropped, Dropped{Index: i, Name: s.Name, N: n})
		}
		clean[i] = c
		xs.add(c.X...)
		ys.add(c.Y...)
		ys.add(c.Lo...)
		ys.add(c.Hi...)
	}

	// style[i] is the style index of series i: its own, or that of the
	// first series of the same name.
	style := make([]int, len(series))
	first := map[string]int{}
	for i, s := range series {
		style[i] = i
		if s.Name == "" {
			continue
		}
		if j, ok := first[s.Name]; ok {
			style[i] = j
		} else {
			first[s.Name] = i
		}
	}

	// Bands first, so that no band veils another series' line.
	for i, c := range clean {
		if !c.hasBand() {
			continue
		}
		for _, ring := range bandRings(c) {
			poly, err := plotter.NewPolygon(ring)
			if err != nil {
				return nil, nil, fmt.Errorf("plots: series %d (%q) band: %v", i, c.Name, err)
			}
			poly.Color = BandColor(style[i])
			poly.LineStyle.Width = 0
			p.Add(poly)
		}
	}

	named := len(first)
	for i, c := range clean {
		line := &plotter.Line{LineStyle: LineStyle(style[i])}
		var marks *plotter.Scatter
		if c.Points || c.Markers || len(c.X) == 1 { // a lone point is invisible without a marker
			marks = &plotter.Scatter{GlyphStyle: GlyphStyle(style[i])}
		}
		if len(c.X) > 0 {
			xys := make(plotter.XYs, len(c.X))
			for j := range c.X {
				xys[j] = plotter.XY{X: c.X[j], Y: c.Y[j]}
			}
			if !c.Markers {
				line.XYs = xys
				p.Add(line)
			}
			if marks != nil {
				marks.XYs = xys
				p.Add(marks)
			}
		}
		if named > 1 && c.Name != "" && style[i] == i {
			switch {
			case c.Markers:
				p.Legend.Add(c.Name, marks)
			case c.Points:
				p.Legend.Add(c.Name, line, marks)
			default:
				p.Legend.Add(c.Name, line)
			}
		}
	}

	if named > 1 {
		PlaceLegend(p, SeriesMarks(ax.logX(), ax.LogY, series...))
	}

	xbase := 10.0
	if ax.Log2X {
		xbase = 2
	}
	xs.setRange(&p.X, ax.logX(), xbase)
	ys.setRange(&p.Y, ax.LogY, 10)
	switch {
	case ax.Log2X:
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = Log2Ticks{}
	case ax.LogX:
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = Log10Ticks{}
	case ax.IntegerX:
		p.X.Tick.Marker = IntegerTicks{}
	}
	if ax.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = Log10Ticks{}
	}
	return p, dropped, nil
}
