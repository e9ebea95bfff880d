package kernelext

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// FitSeries is one group of measured points with the curve fitted to them, e.g. one method's
// test error per training horizon K and its quadratic fit, with the fitted optimum K* marked.
type FitSeries struct {
	Name string
	X, Y []float64
	// Fit is the fitted curve, drawn over the chart's x range (nil: none).
	Fit func(x float64) float64
	// Mark is drawn as a dashed vertical line in the series' colour (NaN: none).
	Mark float64
}

// FitChart draws each series' points and fitted curve in its own colour, over [xMin, xMax], with
// ReadableTicks on the y axis (errors that differ in the second decimal keep exact labels). The
// legend is at the top: call RoomForLegend last to keep it off the points.
func FitChart(title, xLabel, yLabel string, xMin, xMax float64, series ...FitSeries) (*plot.Plot, error) {
	items, legend, err := fitItems(title, xMin, xMax, series)
	if err != nil {
		return nil, err
	}
	p := newLegendPlot(title, xLabel, yLabel, items, legend)
	p.Y.Tick.Marker = ReadableTicks{}
	return p, nil
}

// fitItems builds FitChart's plotters: per series its points, its curve (sampled at 101 x) and
// its mark, the marks spanning the range of every point and curve value.
func fitItems(title string, xMin, xMax float64, series []FitSeries) ([]plot.Plotter, []legendEntry, error) {
	if len(series) == 0 {
		return nil, nil, fmt.Errorf("kernelext: FitChart %q: no series", title)
	}
	if !(xMax > xMin) {
		return nil, nil, fmt.Errorf("kernelext: FitChart %q: x range [%v, %v] is empty", title, xMin, xMax)
	}
	var items, marks []plot.Plotter
	var legend []legendEntry
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, s := range series {
		if len(s.X) != len(s.Y) {
			return nil, nil, fmt.Errorf("kernelext: FitChart %q, series %q: %d x but %d y", title, s.Name, len(s.X), len(s.Y))
		}
		pts := make(plotter.XYs, len(s.X))
		for k := range s.X {
			pts[k] = plotter.XY{X: s.X[k], Y: s.Y[k]}
			lo, hi = math.Min(lo, s.Y[k]), math.Max(hi, s.Y[k])
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, nil, fmt.Errorf("kernelext: FitChart %q, series %q: %w", title, s.Name, err)
		}
		sc.Color, sc.Shape = plotutil.Color(i), plotutil.Shape(i)
		items = append(items, sc)
		legend = append(legend, legendEntry{s.Name, sc})
		if s.Fit != nil {
			curve := make(plotter.XYs, 101)
			for k := range curve {
				x := xMin + (xMax-xMin)*float64(k)/100
				curve[k] = plotter.XY{X: x, Y: s.Fit(x)}
				lo, hi = math.Min(lo, curve[k].Y), math.Max(hi, curve[k].Y)
			}
			l, err := plotter.NewLine(curve)
			if err != nil {
				return nil, nil, fmt.Errorf("kernelext: FitChart %q, fit of %q: %w", title, s.Name, err)
			}
			l.Color, l.Width = plotutil.Color(i), vg.Points(1.5)
			items = append(items, l)
		}
	}
	for i, s := range series {
		if math.IsNaN(s.Mark) {
			continue
		}
		m, err := plotter.NewLine(plotter.XYs{{X: s.Mark, Y: lo}, {X: s.Mark, Y: hi}})
		if err != nil {
			return nil, nil, err
		}
		m.Color, m.Dashes = plotutil.Color(i), []vg.Length{vg.Points(4), vg.Points(3)}
		marks = append(marks, m)
	}
	return append(items, marks...), legend, nil
}
