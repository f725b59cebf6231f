package plots

import (
	"image/color"
	"math"
	"runtime"
	"sync"
	"weak"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Marks lists, in data coordinates, what a legend should not cover:
// polylines whose every segment counts, markers whose every point counts,
// and the outlines of translucent bands, which count a quarter as much
// (text stays readable over a band).
type Marks struct {
	Lines, Points, Bands []plotter.XYs
}

// SeriesMarks returns the marks Lines draws for series: each series' line
// (unless Markers is set), its markers when Points or Markers is set (or
// when it has a single point), and its band. Points that cannot be drawn count for nothing.
func SeriesMarks(logX, logY bool, series ...Series) Marks {
	var m Marks
	for _, s := range series {
		if s.check() != nil {
			continue
		}
		c, _ := Clean(s, logX, logY)
		xys := make(plotter.XYs, len(c.X))
		for i := range c.X {
			xys[i] = plotter.XY{X: c.X[i], Y: c.Y[i]}
		}
		if !c.Markers {
			m.Lines = append(m.Lines, xys)
		}
		if c.Points || c.Markers || len(xys) == 1 {
			m.Points = append(m.Points, xys)
		}
		if c.hasBand() {
			m.Bands = append(m.Bands, bandRings(c)...)
		}
	}
	return m
}

// legendMargin is the room a legend keeps from the marks it avoids: more
// than a marker's radius, so that a glyph or an error bar beside the text
// does not read as part of it.
const legendMargin = 3 * GlyphRadius

// legendRoom is how many multiples of legendMargin of clear room around a
// legend that touches nothing still count in choosing its place.
const legendRoom = 3

// less orders costs lexicographically.
func less(a, b [3]float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// legendSpot is one place a legend may go: a corner, or the middle of a
// side, of the data area.
type legendSpot struct {
	top, left  bool
	midX, midY bool // centred horizontally / vertically
	name       string
}

// legendSpots are the candidate places in order of preference: the four
// corners (top right first, gonum's default), then the middles of the
// sides.
var legendSpots = []legendSpot{
	{top: true, name: "top right"},
	{top: true, left: true, name: "top left"},
	{name: "bottom right"},
	{left: true, name: "bottom left"},
	{midY: true, name: "middle right"},
	{midY: true, left: true, name: "middle left"},
	{top: true, midX: true, name: "top middle"},
	{midX: true, name: "bottom middle"},
}

// PlaceLegend adds m to the marks p's legend must avoid. Each time p is
// drawn, the legend goes to the corner of the data area (or, failing every
// corner, the middle of a side) where it covers the fewest of the marks
// given so far, measured on the canvas the plot is drawn on, so the choice
// holds at any panel size. It counts first the number of lines, point sets
// and bands touched, then the segments and points touched; ties go to the
// earlier place in the order top right, top left, bottom right, bottom
// left, middle right, middle left, top middle, bottom middle. It sets
// p.Legend's Top, Left, XOffs and YOffs, overriding any set by hand. When
// every place covers some mark, the legend is drawn on a translucent white
// card (LegendCard).
//
// Lines calls it for the series it draws and ErrorBars for its bars; a
// caller that adds other plotters to a plot with a legend calls it for
// them.
func PlaceLegend(p *plot.Plot, m Marks) {
	lp := placerOf(p)
	lp.marks.Lines = append(lp.marks.Lines, m.Lines...)
	lp.marks.Points = append(lp.marks.Points, m.Points...)
	lp.marks.Bands = append(lp.marks.Bands, m.Bands...)
}

// placers maps a plot to its legendPlacer. Its keys are weak, and an entry
// goes when its plot is collected, so the map holds no plot alive.
var placers sync.Map // weak.Pointer[plot.Plot] → *legendPlacer

// placerOf returns p's legendPlacer, adding one to p on first use.
func placerOf(p *plot.Plot) *legendPlacer {
	k := weak.Make(p)
	if v, ok := placers.Load(k); ok {
		return v.(*legendPlacer)
	}
	lp := &legendPlacer{}
	placers.Store(k, lp)
	runtime.AddCleanup(p, func(k weak.Pointer[plot.Plot]) { placers.Delete(k) }, k)
	p.Add(lp)
	return lp
}

// legendPlacer is the invisible plotter behind PlaceLegend. Its Plot runs
// before the legend is drawn (plot.Plot draws the legend last); it reads
// only its marks, so plotters added after it are avoided too.
type legendPlacer struct {
	marks Marks
	spot  legendSpot // the last choice, for tests
	cost  [3]float64
}

// Plot implements plot.Plotter: it draws nothing and places the legend.
func (lp *legendPlacer) Plot(c draw.Canvas, p *plot.Plot) {
	w, h := legendSize(&p.Legend)
	if w == 0 {
		return
	}
	trX, trY := p.Transforms(&c)
	toCanvas := func(xys plotter.XYs) []vg.Point {
		pts := make([]vg.Point, 0, len(xys))
		for _, xy := range xys {
			pts = append(pts, vg.Point{X: trX(xy.X), Y: trY(xy.Y)})
		}
		return pts
	}
	type group struct {
		pts    []vg.Point
		line   bool
		weight float64
	}
	var groups []group
	for _, l := range lp.marks.Lines {
		groups = append(groups, group{toCanvas(l), true, 1})
	}
	for _, l := range lp.marks.Points {
		groups = append(groups, group{toCanvas(l), false, 1})
	}
	for _, b := range lp.marks.Bands {
		ring := toCanvas(b)
		if len(ring) > 0 {
			ring = append(ring, ring[0])
		}
		groups = append(groups, group{ring, true, 0.25})
	}

	// cover returns the weighted number of groups and of segments or
	// points that come within margin of a w×h legend at spot s.
	cover := func(s legendSpot, margin vg.Length) (groupsHit, hits float64) {
		r := spotRect(c.Rectangle, s, w, h)
		r.Min.X, r.Min.Y = r.Min.X-margin, r.Min.Y-margin
		r.Max.X, r.Max.Y = r.Max.X+margin, r.Max.Y+margin
		for _, g := range groups {
			if n := touches(r, g.pts, g.line); n > 0 {
				groupsHit += g.weight
				hits += g.weight * float64(n)
			}
		}
		return groupsHit, hits
	}
	best := -1
	var bestCost [3]float64
	for i, s := range legendSpots {
		var cost [3]float64
		cost[0], cost[1] = cover(s, legendMargin)
		// Among spots that touch nothing, prefer more room, up to
		// legendRoom levels of legendMargin.
		for k := 2; cost[0] == 0 && k <= legendRoom; k++ {
			if g, _ := cover(s, vg.Length(k)*legendMargin); g > 0 {
				break
			}
			cost[2]--
		}
		if best < 0 || less(cost, bestCost) {
			best, bestCost = i, cost
		}
	}
	s := legendSpots[best]
	lp.spot, lp.cost = s, bestCost
	p.Legend.Top, p.Legend.Left = s.top, s.left
	p.Legend.XOffs, p.Legend.YOffs = 0, 0
	if s.midX {
		p.Legend.Left = true
		p.Legend.XOffs = (c.Max.X - c.Min.X - w) / 2
	}
	if s.midY {
		p.Legend.Top = false
		p.Legend.YOffs = (c.Max.Y - c.Min.Y - h) / 2
	}
	if bestCost[0] > 0 {
		// No place is free: a translucent white card keeps the legend
		// readable over the marks it covers (they show through faintly).
		r := spotRect(c.Rectangle, s, w, h)
		pad := vg.Points(3)
		c.FillPolygon(LegendCard, []vg.Point{
			{X: r.Min.X - pad, Y: r.Min.Y - pad}, {X: r.Max.X + pad, Y: r.Min.Y - pad},
			{X: r.Max.X + pad, Y: r.Max.Y + pad}, {X: r.Min.X - pad, Y: r.Max.Y + pad},
		})
	}
}

// LegendCard is the colour of the card PlaceLegend draws under a legend
// that cannot avoid every mark: white, mostly opaque.
var LegendCard color.Color = color.NRGBA{R: 0xFF, G: 0xFF, B: 0xFF, A: 0xD8}

// legendSize returns the width and height of l's entries as Legend.Draw
// lays them out (zero without entries).
func legendSize(l *plot.Legend) (w, h vg.Length) {
	// plot.Legend keeps its entries private; its Rectangle measures them
	// (its horizontal placement is mirrored, its size is right).
	r := l.Rectangle(draw.Canvas{})
	return r.Max.X - r.Min.X, r.Max.Y - r.Min.Y
}

// spotRect returns the rectangle a w×h legend occupies at spot s of the
// data area a.
func spotRect(a vg.Rectangle, s legendSpot, w, h vg.Length) vg.Rectangle {
	var r vg.Rectangle
	switch {
	case s.midX:
		r.Min.X = a.Min.X + (a.Max.X-a.Min.X-w)/2
	case s.left:
		r.Min.X = a.Min.X
	default:
		r.Min.X = a.Max.X - w
	}
	switch {
	case s.midY:
		r.Min.Y = a.Min.Y + (a.Max.Y-a.Min.Y-h)/2
	case s.top:
		r.Min.Y = a.Max.Y - h
	default:
		r.Min.Y = a.Min.Y
	}
	r.Max = vg.Point{X: r.Min.X + w, Y: r.Min.Y + h}
	return r
}

// touches counts the points of pts inside r or, for a line, the segments
// of the polyline pts that meet r.
func touches(r vg.Rectangle, pts []vg.Point, line bool) int {
	n := 0
	if !line || len(pts) == 1 {
		for _, q := range pts {
			if inside(r, q) {
				n++
			}
		}
		return n
	}
	for i := 1; i < len(pts); i++ {
		if segmentMeets(r, pts[i-1], pts[i]) {
			n++
		}
	}
	return n
}

func inside(r vg.Rectangle, q vg.Point) bool {
	return q.X >= r.Min.X && q.X <= r.Max.X && q.Y >= r.Min.Y && q.Y <= r.Max.Y
}

// segmentMeets reports whether the segment a–b meets the rectangle r
// (Liang–Barsky clipping).
func segmentMeets(r vg.Rectangle, a, b vg.Point) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	for _, e := range [4][2]float64{
		{-dx, float64(a.X - r.Min.X)},
		{dx, float64(r.Max.X - a.X)},
		{-dy, float64(a.Y - r.Min.Y)},
		{dy, float64(r.Max.Y - a.Y)},
	} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}
