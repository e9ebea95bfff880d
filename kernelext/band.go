package kernelext

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Colours of the paper's application-diagnostics figure: magnitude A(k) in ink, held-out utility
// U(k) in purple.
var (
	Ink    color.Color = color.NRGBA{R: 0x22, G: 0x22, B: 0x22, A: 0xff}
	Purple color.Color = color.NRGBA{R: 0x7b, G: 0x3f, B: 0xa0, A: 0xff}
)

// Band is a centre curve with a shaded range around it: Lo[i] ≤ Hi[i] at x = X0 + i, e.g. a
// median with its interquartile range. Color (nil: the palette's) colours both; a band without a
// Name has no legend entry.
type Band struct {
	Name        string
	Mid, Lo, Hi []float64
	X0          float64
	Color       color.Color
}

// BandChart draws each band as a translucent polygon between Lo and Hi with its Mid line on top,
// in distinct colours, a legend, and dotted horizontal reference lines at refs (e.g. 0 or 1);
// logY selects a log-scaled y axis (every value must then be positive): the plot's y data are
// then log10 of the values, labelled with the values (LogValueTicks), so a plotter added to it
// later must use log10 units too.
func BandChart(title, xLabel, yLabel string, logY bool, refs []float64, bands ...Band) (*plot.Plot, error) {
	items, legend, err := bandItems(title, logY, refs, bands)
	if err != nil {
		return nil, err
	}
	p := newLegendPlot(title, xLabel, yLabel, items, legend)
	if logY {
		p.Y.Tick.Marker = LogValueTicks{}
	}
	return p, nil
}

// bandItems builds BandChart's plotters (every band's polygon, then every band's line, then the
// reference lines) and its legend entries.
func bandItems(title string, logY bool, refs []float64, bands []Band) ([]plot.Plotter, []legendEntry, error) {
	if len(bands) == 0 {
		return nil, nil, fmt.Errorf("kernelext: BandChart %q: no bands", title)
	}
	var fills, lines []plot.Plotter
	var legend []legendEntry
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for i, b := range bands {
		n := len(b.Mid)
		if n == 0 || len(b.Lo) != n || len(b.Hi) != n {
			return nil, nil, fmt.Errorf("kernelext: BandChart %q: band %q has %d, %d and %d points (Mid, Lo, Hi)", title, b.Name, n, len(b.Lo), len(b.Hi))
		}
		c := b.Color
		if c == nil {
			c = plotutil.Color(i)
		}
		mid := make(plotter.XYs, n)
		poly := make(plotter.XYs, 0, 2*n)
		for k := range n {
			x := b.X0 + float64(k)
			for _, v := range []float64{b.Mid[k], b.Lo[k], b.Hi[k]} {
				if math.IsNaN(v) || logY && !(v > 0) {
					return nil, nil, fmt.Errorf("kernelext: BandChart %q: band %q has %v at x=%v%s", title, b.Name, v, x, map[bool]string{true: " on a log axis"}[logY])
				}
			}
			if b.Lo[k] > b.Hi[k] {
				return nil, nil, fmt.Errorf("kernelext: BandChart %q: band %q has Lo %v > Hi %v at x=%v", title, b.Name, b.Lo[k], b.Hi[k], x)
			}
			mid[k] = plotter.XY{X: x, Y: logValue(logY, b.Mid[k])}
			poly = append(poly, plotter.XY{X: x, Y: logValue(logY, b.Lo[k])})
			xlo, xhi = math.Min(xlo, x), math.Max(xhi, x)
		}
		for k := n - 1; k >= 0; k-- {
			poly = append(poly, plotter.XY{X: b.X0 + float64(k), Y: logValue(logY, b.Hi[k])})
		}
		pg, err := plotter.NewPolygon(poly)
		if err != nil {
			return nil, nil, fmt.Errorf("kernelext: BandChart %q, band %q: %w", title, b.Name, err)
		}
		r, g, bl, _ := c.RGBA()
		pg.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: 0x44}
		pg.LineStyle.Width = 0
		fills = append(fills, pg)
		l, err := plotter.NewLine(mid)
		if err != nil {
			return nil, nil, fmt.Errorf("kernelext: BandChart %q, band %q: %w", title, b.Name, err)
		}
		l.Color, l.Width = c, vg.Points(1.5)
		lines = append(lines, l)
		if b.Name != "" {
			legend = append(legend, legendEntry{b.Name, l})
		}
	}
	items := append(fills, lines...)
	for _, y := range refs {
		if logY && !(y > 0) {
			return nil, nil, fmt.Errorf("kernelext: BandChart %q: reference line at %v on a log axis", title, y)
		}
		ref, err := plotter.NewLine(plotter.XYs{{X: xlo, Y: logValue(logY, y)}, {X: xhi, Y: logValue(logY, y)}})
		if err != nil {
			return nil, nil, err
		}
		ref.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		ref.Color = color.Gray{Y: 0x70}
		items = append(items, ref)
	}
	return items, legend, nil
}
