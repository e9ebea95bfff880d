package kernelext

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Dash patterns for Trace.Dashes.
var (
	Dashed = []vg.Length{vg.Points(4), vg.Points(3)}
	Dotted = []vg.Length{vg.Points(1.5), vg.Points(2)}
)

// Trace is one curve drawn in a style of the caller's choosing (LineChart, by contrast, styles
// its curves itself): Y[i] at x = X[i], or at x = X0 + i when X is nil.
type Trace struct {
	// Name is the legend entry; "" adds none.
	Name string
	X    []float64
	X0   float64
	Y    []float64
	// Color (nil: black), Width (0: 1 point) and Dashes (nil: solid) style the line.
	Color  color.Color
	Width  vg.Length
	Dashes []vg.Length
	// Dots is the radius of a ring drawn at every value, in the line's colour; 0 draws none.
	Dots vg.Length
}

// NewPlot returns a plot with a title and axis labels, for AddTraces and the other Add helpers.
func NewPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xLabel, yLabel
	return p
}

// AddTraces adds the traces to p in order (later ones on top), each with a legend entry if it
// has a name; the entry shows the line, and the ring if the trace has dots.
func AddTraces(p *plot.Plot, traces ...Trace) error {
	for _, t := range traces {
		if t.X != nil && len(t.X) != len(t.Y) {
			return fmt.Errorf("kernelext: trace %q has %d x and %d y values", t.Name, len(t.X), len(t.Y))
		}
		xy := make(plotter.XYs, len(t.Y))
		for i, y := range t.Y {
			x := t.X0 + float64(i)
			if t.X != nil {
				x = t.X[i]
			}
			xy[i] = plotter.XY{X: x, Y: y}
		}
		var thumbs []plot.Thumbnailer
		if t.Dots > 0 {
			l, s, err := plotter.NewLinePoints(xy)
			if err != nil {
				return fmt.Errorf("kernelext: trace %q: %w", t.Name, err)
			}
			styleLine(l, t)
			s.Color, s.Radius = l.Color, t.Dots
			p.Add(l, s)
			thumbs = []plot.Thumbnailer{l, s}
		} else {
			l, err := plotter.NewLine(xy)
			if err != nil {
				return fmt.Errorf("kernelext: trace %q: %w", t.Name, err)
			}
			styleLine(l, t)
			p.Add(l)
			thumbs = []plot.Thumbnailer{l}
		}
		if t.Name != "" {
			p.Legend.Add(t.Name, thumbs...)
		}
	}
	return nil
}

// styleLine applies t's style to l, keeping gonum's defaults where t has none.
func styleLine(l *plotter.Line, t Trace) {
	if t.Color != nil {
		l.Color = t.Color
	}
	if t.Width > 0 {
		l.Width = t.Width
	}
	if t.Dashes != nil {
		l.Dashes = t.Dashes
	}
}
