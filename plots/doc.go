// Package plots holds the figure primitives of the workbench, built on
// gonum/plot. It takes plain data (slices and mat.Matrix values) and knows
// nothing of models, experiments or files: it imports only gonum/plot,
// gonum/mat and the standard library.
//
// The pieces are:
//
//   - Lines draws Series (bound traces against iteration, scores against a
//     swept setting) with an optional translucent band such as an
//     interquartile range, on linear, log10 or log2 axes. Points that
//     cannot be drawn (NaN, ±Inf, or ≤ 0 on a log axis) are dropped by
//     Clean and reported as Dropped records for the caller's warnings;
//     they never make a plot fail.
//   - Hinton is a plot.Plotter for Hinton diagrams of weight matrices
//     (white squares for positive, black for negative, side ∝ √|w|, on
//     grey), as used for the factor loadings and the ARD-pruned LDS
//     matrices of Beal (2003) chapters 4 and 5; HintonPlot frames one with
//     row 0 at the top.
//   - Network is a plot.Plotter of a directed graph on a circle (signed
//     arcs with arrowheads, self-connections, highlighted arcs, node
//     names), as used for the gene-interaction network of Figure 5.13;
//     NetworkPlot frames one with the axes hidden.
//   - HeatMap shows a matrix as an image of coloured blocks above a colour
//     bar whose axis gives the value of each colour, for any gonum
//     palette.ColorMap; LinearMap is one that interpolates between evenly
//     spaced colours (DivergingMap, blue-white-red for signed matrices;
//     GrayMap, white to black), as used for the interaction matrices of
//     Figure 5.12. GrayImage shows a matrix in grey levels without a bar.
//     ColorBar is a panel of a colour bar alone, for heat maps on data
//     axes that share one colour scale (Turner & Sahani Figs 1.6, 1.7).
//   - Figure and Render lay panels out on a grid with aligned data areas
//     and encode them as SVG or PNG bytes; RenderPlot does one plot.
//     Writing the bytes to disk (atomically) is the caller's job.
//   - PlaceLegend puts a plot's legend, at draw time, where it covers the
//     fewest of the plot's lines, markers and bands (Lines, ErrorBars and
//     StackedBars register theirs), on a translucent card when no place
//     is free.
//   - InlineLabels writes labels on the lines they name (the levels of a
//     contour map), each on a white card that breaks the line beneath.
//   - Ticks, the default of every linear axis, labels ticks in the
//     shortest exact form (TickLabel: 25, 2.5, 0.25); IntegerTicks ticks
//     counts at integers only; NamedTicks labels the rows or columns of a
//     Hinton diagram by name (digits 0-9).
//   - Render and RenderPlot never clip a title: Wrap breaks it to the
//     figure's or the panel's width.
//   - style.go fixes panel sizes, font sizes, the PNG resolution, and the
//     colour, dash and marker cycles, so that series i looks the same in
//     every figure.
//
// Tests check the geometry handed to the canvas (squares, ranges, ticks)
// and properties of the encoded output, never golden images.
package plots
