package kernelext

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Points is one series of a scatter chart: points (X[i], Y[i]), optional text beside each point
// (Labels, "" for none), and optionally a line joining them in order (a path through settings,
// e.g. increasing drive strength).
type Points struct {
	Name   string
	X, Y   []float64
	Labels []string
	Line   bool
}

// ScatterChart draws point series in distinct colours and glyph shapes with a legend, for maps
// whose origin means "nothing detected" (the predictive-regime map): the axes always include
// (0, 0), with grey dashed reference lines at x = 0 and y = 0, a margin around the points so that
// labels stay inside, and room above them for the legend. A label whose point (nearly) coincides
// with an earlier labelled point is moved a line away from it (up when its point is higher, down
// otherwise) instead of being printed over it.
func ScatterChart(title, xLabel, yLabel string, series ...Points) (*plot.Plot, error) {
	items, legend, box, err := scatterItems(title, series)
	if err != nil {
		return nil, err
	}
	p := newLegendPlot(title, xLabel, yLabel, items, legend)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = box[0], box[1], box[2], box[3]
	return p, nil
}

// scatterItems builds ScatterChart's plotters (reference lines, then per series its line, points
// and labels), its legend entries and the axis box [xmin, xmax, ymin, ymax].
func scatterItems(title string, series []Points) ([]plot.Plotter, []legendEntry, [4]float64, error) {
	box := [4]float64{0, 0, 0, 0} // the origin is always inside
	if len(series) == 0 {
		return nil, nil, box, fmt.Errorf("kernelext: ScatterChart %q: no series", title)
	}
	for _, s := range series {
		if len(s.Y) != len(s.X) || (s.Labels != nil && len(s.Labels) != len(s.X)) {
			return nil, nil, box, fmt.Errorf("kernelext: ScatterChart %q: series %q has %d x, %d y and %d labels", title, s.Name, len(s.X), len(s.Y), len(s.Labels))
		}
		for i := range s.X {
			if math.IsNaN(s.X[i]) || math.IsNaN(s.Y[i]) || math.IsInf(s.X[i], 0) || math.IsInf(s.Y[i], 0) {
				return nil, nil, box, fmt.Errorf("kernelext: ScatterChart %q: series %q point %d is (%v, %v)", title, s.Name, i, s.X[i], s.Y[i])
			}
			box[0], box[1] = math.Min(box[0], s.X[i]), math.Max(box[1], s.X[i])
			box[2], box[3] = math.Min(box[2], s.Y[i]), math.Max(box[3], s.Y[i])
		}
	}
	// A margin of 8% of the span (at least 0.05) on every side, 20% on the right for labels and
	// 8% per legend entry at the top.
	mx, my := math.Max(box[1]-box[0], 0.05/0.08), math.Max(box[3]-box[2], 0.05/0.08)
	box = [4]float64{box[0] - 0.08*mx, box[1] + 0.2*mx, box[2] - 0.08*my, box[3] + (0.08+0.08*float64(len(series)))*my}
	dashed := []vg.Length{vg.Points(3), vg.Points(3)}
	var items []plot.Plotter
	for _, ref := range []plotter.XYs{{{X: box[0], Y: 0}, {X: box[1], Y: 0}}, {{X: 0, Y: box[2]}, {X: 0, Y: box[3]}}} {
		l, err := plotter.NewLine(ref)
		if err != nil {
			return nil, nil, box, err
		}
		l.Dashes, l.Color = dashed, color.Gray{Y: 150}
		items = append(items, l)
	}
	var legend []legendEntry
	var placed []plotter.XY // labelled points so far, to move coinciding labels apart
	for i, s := range series {
		pts := make(plotter.XYs, len(s.X))
		for j := range s.X {
			pts[j] = plotter.XY{X: s.X[j], Y: s.Y[j]}
		}
		if s.Line && len(pts) > 1 {
			l, err := plotter.NewLine(pts)
			if err != nil {
				return nil, nil, box, fmt.Errorf("kernelext: ScatterChart %q, series %q: %w", title, s.Name, err)
			}
			l.Color, l.Width = plotutil.Color(i), vg.Points(1)
			items = append(items, l)
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, nil, box, fmt.Errorf("kernelext: ScatterChart %q, series %q: %w", title, s.Name, err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: plotutil.Color(i), Shape: plotutil.Shape(i), Radius: vg.Points(3.5)}
		items = append(items, sc)
		legend = append(legend, legendEntry{s.Name, sc})
		for j, text := range s.Labels {
			if text == "" {
				continue
			}
			shift := 0.0 // in lines: away from every earlier label that it would overprint
			for _, q := range placed {
				if math.Abs(q.X-pts[j].X) < 0.03*mx && math.Abs(q.Y-pts[j].Y) < 0.04*my {
					if pts[j].Y > q.Y {
						shift++
					} else {
						shift--
					}
				}
			}
			placed = append(placed, pts[j])
			lb, err := plotter.NewLabels(plotter.XYLabels{XYs: pts[j : j+1], Labels: []string{text}})
			if err != nil {
				return nil, nil, box, fmt.Errorf("kernelext: ScatterChart %q, series %q: %w", title, s.Name, err)
			}
			lb.Offset = vg.Point{X: vg.Points(5), Y: vg.Points(2 + 10*shift)}
			lb.TextStyle[0].Font.Size = vg.Points(8)
			lb.TextStyle[0].Color = plotutil.Color(i)
			items = append(items, lb)
		}
	}
	return items, legend, box, nil
}
