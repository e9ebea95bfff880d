package kernelext

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Bars is one series of a bar chart: one value per category (NaN: the series has none there, and
// draws nothing), with optional symmetric error bars (nil: none; NaN entries draw no bar).
type Bars struct {
	Name   string
	Values []float64
	Errors []float64
}

// BarChart draws grouped bars, one group per label and one bar per series, with error bars where
// given and a legend when there is more than one series. The y axis starts at yMin (NaN: zero)
// and leaves room above the tallest bar for the legend.
func BarChart(title, yLabel string, labels []string, yMin float64, series ...Bars) (*plot.Plot, error) {
	items, legend, top, err := barItems(title, labels, series)
	if err != nil {
		return nil, err
	}
	p := newLegendPlot(title, "", yLabel, items, legend)
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5 // whole bars at the edges too
	if math.IsNaN(yMin) {
		yMin = 0
	}
	p.Y.Min = yMin
	p.Y.Max = top + 0.25*(top-yMin)
	return p, nil
}

type legendEntry struct {
	name  string
	thumb plot.Thumbnailer
}

// newLegendPlot is the plot every chart here starts from: titled axes, its plotters, and its
// legend entries at the top.
func newLegendPlot(title, xLabel, yLabel string, items []plot.Plotter, legend []legendEntry) *plot.Plot {
	p := NewPlot(title, xLabel, yLabel)
	p.Add(items...)
	for _, e := range legend {
		p.Legend.Add(e.name, e.thumb)
	}
	p.Legend.Top = true
	return p
}

// barItems builds BarChart's plotters, its legend entries and the top of the tallest bar.
func barItems(title string, labels []string, series []Bars) ([]plot.Plotter, []legendEntry, float64, error) {
	if len(series) == 0 {
		return nil, nil, 0, fmt.Errorf("kernelext: BarChart %q: no series", title)
	}
	var items []plot.Plotter
	var legend []legendEntry
	// Bars are placed in data units (category j at x = j, series spread over 0.8 of the category)
	// so that error bars land on their centres; the width in points suits a figure of about
	// 12–18 cm with up to eight categories.
	n := float64(len(series))
	w := vg.Points(math.Max(8, 44/n))
	top := math.Inf(-1)
	for i, s := range series {
		if len(s.Values) != len(labels) || (s.Errors != nil && len(s.Errors) != len(labels)) {
			return nil, nil, 0, fmt.Errorf("kernelext: BarChart %q: series %q has %d values and %d errors for %d labels", title, s.Name, len(s.Values), len(s.Errors), len(labels))
		}
		// One bar per value, so a category without a value (NaN: a method not run on a testbed)
		// draws nothing at all rather than an empty outline at zero.
		shift := (float64(i) - (n-1)/2) * 0.8 / n
		var thumb plot.Thumbnailer
		var pts plotter.XYs
		var errs plotter.YErrors
		for j, v := range s.Values {
			if math.IsNaN(v) {
				continue
			}
			b, err := plotter.NewBarChart(plotter.Values{v}, w)
			if err != nil {
				return nil, nil, 0, fmt.Errorf("kernelext: BarChart %q, series %q: %w", title, s.Name, err)
			}
			b.Color, b.XMin = plotutil.Color(i+1), float64(j)+shift
			items = append(items, b)
			if thumb == nil {
				thumb = b
			}
			e := 0.0
			if s.Errors != nil && !math.IsNaN(s.Errors[j]) {
				e = s.Errors[j]
				pts, errs = append(pts, plotter.XY{X: float64(j) + shift, Y: v}), append(errs, struct{ Low, High float64 }{e, e})
			}
			top = math.Max(top, v+e)
		}
		if len(series) > 1 && thumb != nil {
			legend = append(legend, legendEntry{s.Name, thumb})
		}
		if len(pts) == 0 {
			continue
		}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{pts, errs})
		if err != nil {
			return nil, nil, 0, fmt.Errorf("kernelext: BarChart %q, series %q: %w", title, s.Name, err)
		}
		items = append(items, eb)
	}
	return items, legend, top, nil
}

// Curve is one line of a line chart: Y[i] at x = X0 + i.
type Curve struct {
	Name string
	Y    []float64
	X0   float64
}

// From is the curve from x = x0 on: what a plot shows when the first points (a validation loss
// falling from its initial value) would flatten the part that matters. A curve that starts at
// or after x0 is returned as it is; one that ends before x0 keeps no points.
func (c Curve) From(x0 float64) Curve {
	skip := int(math.Ceil(x0 - c.X0))
	if skip <= 0 {
		return c
	}
	skip = min(skip, len(c.Y))
	return Curve{Name: c.Name, Y: c.Y[skip:], X0: c.X0 + float64(skip)}
}

// LineChart draws curves in distinct colours and dash patterns with a legend; logY selects a
// log-scaled y axis (every value must then be positive; the y data are then log10 of the values,
// labelled with the values, as in BandChart). Vertical marks (e.g. K*_grad) are drawn
// as dotted lines spanning the data.
func LineChart(title, xLabel, yLabel string, logY bool, marks []float64, curves ...Curve) (*plot.Plot, error) {
	items, legend, err := lineItems(title, logY, marks, curves)
	if err != nil {
		return nil, err
	}
	p := newLegendPlot(title, xLabel, yLabel, items, legend)
	if logY {
		p.Y.Tick.Marker = LogValueTicks{}
	}
	return p, nil
}

// lineItems builds LineChart's plotters (the curves, then the marks) and legend entries.
func lineItems(title string, logY bool, marks []float64, curves []Curve) ([]plot.Plotter, []legendEntry, error) {
	if len(curves) == 0 {
		return nil, nil, fmt.Errorf("kernelext: LineChart %q: no curves", title)
	}
	var items []plot.Plotter
	var legend []legendEntry
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, c := range curves {
		pts := make(plotter.XYs, len(c.Y))
		for k, v := range c.Y {
			if logY && !(v > 0) {
				return nil, nil, fmt.Errorf("kernelext: LineChart %q: curve %q has %v at x=%v on a log axis", title, c.Name, v, c.X0+float64(k))
			}
			y := logValue(logY, v)
			pts[k] = plotter.XY{X: c.X0 + float64(k), Y: y}
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, nil, fmt.Errorf("kernelext: LineChart %q, curve %q: %w", title, c.Name, err)
		}
		l.Color, l.Width, l.Dashes = plotutil.Color(i), vg.Points(1.5), plotutil.Dashes(i)
		items = append(items, l)
		legend = append(legend, legendEntry{c.Name, l})
	}
	for _, x := range marks {
		m, err := plotter.NewLine(plotter.XYs{{X: x, Y: lo}, {X: x, Y: hi}})
		if err != nil {
			return nil, nil, err
		}
		m.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		items = append(items, m)
	}
	return items, legend, nil
}
