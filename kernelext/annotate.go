package kernelext

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Rect is an axis-aligned rectangle in data coordinates: [Min[0], Max[0]] × [Min[1], Max[1]].
type Rect struct{ Min, Max [2]float64 }

// VeilColor pales what AddVeil covers: translucent white.
var VeilColor color.Color = color.NRGBA{R: 255, G: 255, B: 255, A: 150}

// AddVeil covers the part of outer that lies outside inner with VeilColor, so that a heat map
// stays readable but the region that matters (a feasible box, say) stands out.
func AddVeil(p *plot.Plot, outer, inner Rect) error {
	o, i := outer, inner
	for _, r := range [][4]float64{
		{i.Max[0], o.Min[1], o.Max[0], o.Max[1]}, // right
		{o.Min[0], o.Min[1], i.Max[0], i.Min[1]}, // below
		{o.Min[0], i.Max[1], i.Max[0], o.Max[1]}, // above
		{o.Min[0], i.Min[1], i.Min[0], i.Max[1]}, // left
	} {
		poly, err := plotter.NewPolygon(plotter.XYs{{X: r[0], Y: r[1]}, {X: r[2], Y: r[1]}, {X: r[2], Y: r[3]}, {X: r[0], Y: r[3]}})
		if err != nil {
			return fmt.Errorf("kernelext: AddVeil: %w", err)
		}
		poly.Color, poly.LineStyle.Width = VeilColor, 0
		p.Add(poly)
	}
	return nil
}

// AddOutline draws the outline of r: a closed line in colour c (nil: black), width w.
func AddOutline(p *plot.Plot, r Rect, c color.Color, w vg.Length) error {
	l, err := plotter.NewLine(plotter.XYs{{X: r.Min[0], Y: r.Min[1]}, {X: r.Max[0], Y: r.Min[1]},
		{X: r.Max[0], Y: r.Max[1]}, {X: r.Min[0], Y: r.Max[1]}, {X: r.Min[0], Y: r.Min[1]}})
	if err != nil {
		return fmt.Errorf("kernelext: AddOutline: %w", err)
	}
	if c != nil {
		l.Color = c
	}
	l.Width = w
	p.Add(l)
	return nil
}

// LabelledPoint is a point marked by a glyph, with a label beside it.
type LabelledPoint struct {
	Label string
	At    [2]float64
	// Shape (nil: a ring) and Color (nil: black) of the glyph, 5 points in radius.
	Shape draw.GlyphDrawer
	Color color.Color
	// Offset moves the label's lower left corner from the point, in points (x right, y up).
	Offset vg.Point
}

// PointLabelSize is the font size of LabelledPoint labels.
var PointLabelSize = vg.Points(11)

// AddLabelledPoints draws the points, each glyph followed by its label.
func AddLabelledPoints(p *plot.Plot, pts ...LabelledPoint) error {
	for _, m := range pts {
		xy := plotter.XYs{{X: m.At[0], Y: m.At[1]}}
		s, err := plotter.NewScatter(xy)
		if err != nil {
			return fmt.Errorf("kernelext: point %q: %w", m.Label, err)
		}
		shape, col := m.Shape, m.Color
		if shape == nil {
			shape = draw.RingGlyph{}
		}
		if col == nil {
			col = color.Black
		}
		s.GlyphStyle = draw.GlyphStyle{Shape: shape, Radius: vg.Points(5), Color: col}
		l, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: []string{m.Label}})
		if err != nil {
			return fmt.Errorf("kernelext: point %q: %w", m.Label, err)
		}
		l.Offset = m.Offset
		l.TextStyle[0].Font.Size = PointLabelSize
		p.Add(s, l)
	}
	return nil
}

// MarkColor and MarkDashes style AddVMark's line: dashed dark red.
var (
	MarkColor  color.Color = color.RGBA{R: 200, A: 255}
	MarkDashes             = Dashed
)

// AddVMark draws a vertical dashed line at x from y0 to y1 (a training horizon, say), with label
// written from its top end (nothing if label is "").
func AddVMark(p *plot.Plot, x, y0, y1 float64, label string) error {
	m, err := plotter.NewLine(plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}})
	if err != nil {
		return fmt.Errorf("kernelext: AddVMark: %w", err)
	}
	m.Color, m.Dashes = MarkColor, MarkDashes
	p.Add(m)
	if label == "" {
		return nil
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: y1}}, Labels: []string{label}})
	if err != nil {
		return fmt.Errorf("kernelext: AddVMark: %w", err)
	}
	p.Add(l)
	return nil
}
