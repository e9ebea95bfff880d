package kernelext

import (
	"bytes"
	"image/color"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func TestAnnotations(t *testing.T) {
	p := NewPlot("box", "alpha", "m")
	outer, box := Rect{Min: [2]float64{-0.1, -0.1}, Max: [2]float64{1.7, 1.1}}, Rect{Max: [2]float64{1, 1}}
	if err := AddVeil(p, outer, box); err != nil {
		t.Fatal(err)
	}
	if err := AddOutline(p, box, nil, vg.Points(1.5)); err != nil {
		t.Fatal(err)
	}
	green := color.RGBA{G: 150, A: 255}
	if err := AddLabelledPoints(p,
		LabelledPoint{Label: "w*", At: [2]float64{1, 0.65}, Shape: draw.CircleGlyph{}, Color: green, Offset: vg.Point{X: 8, Y: -4}},
		LabelledPoint{Label: "plain", At: [2]float64{0.5, 0.5}}); err != nil {
		t.Fatal(err)
	}
	if err := AddVMark(p, 0.5, 0, 1, " K = 16"); err != nil {
		t.Fatal(err)
	}
	var polys []*plotter.Polygon
	var lines []*plotter.Line
	var glyphs []*plotter.Scatter
	var labels []*plotter.Labels
	for _, pl := range plottersOf(p) {
		switch v := pl.(type) {
		case *plotter.Polygon:
			polys = append(polys, v)
		case *plotter.Line:
			lines = append(lines, v)
		case *plotter.Scatter:
			glyphs = append(glyphs, v)
		case *plotter.Labels:
			labels = append(labels, v)
		}
	}
	if len(polys) != 4 || len(lines) != 2 || len(glyphs) != 2 || len(labels) != 3 {
		t.Fatalf("%d veils, %d lines, %d glyphs, %d labels; want 4, 2, 2, 3", len(polys), len(lines), len(glyphs), len(labels))
	}
	// The veils cover outer exactly once outside the box: their areas add up to outer minus box.
	area := 0.0
	for _, v := range polys {
		r := v.XYs[0]
		area += (r[2].X - r[0].X) * (r[2].Y - r[0].Y)
		if v.Color != VeilColor || v.LineStyle.Width != 0 {
			t.Errorf("veil style %v, width %v", v.Color, v.LineStyle.Width)
		}
	}
	if want := 1.8*1.2 - 1; area < want-1e-12 || area > want+1e-12 {
		t.Errorf("veils cover %v, want %v", area, want)
	}
	if out := lines[0]; len(out.XYs) != 5 || out.XYs[2] != (plotter.XY{X: 1, Y: 1}) || out.Width != vg.Points(1.5) || out.Color != color.Color(color.Black) {
		t.Errorf("outline %v, style %+v", out.XYs, out.LineStyle)
	}
	if g := glyphs[0].GlyphStyle; g.Color != color.Color(green) || g.Radius != vg.Points(5) || g.Shape != (draw.CircleGlyph{}) {
		t.Errorf("glyph style %+v", g)
	}
	if g := glyphs[1].GlyphStyle; g.Shape != (draw.RingGlyph{}) || g.Color != color.Color(color.Black) {
		t.Errorf("default glyph %+v", g)
	}
	if labels[0].Offset != (vg.Point{X: 8, Y: -4}) || labels[0].TextStyle[0].Font.Size != PointLabelSize {
		t.Errorf("label offset %v, size %v", labels[0].Offset, labels[0].TextStyle[0].Font.Size)
	}
	if m := lines[1]; m.XYs[0] != (plotter.XY{X: 0.5, Y: 0}) || m.XYs[1] != (plotter.XY{X: 0.5, Y: 1}) || m.Color != MarkColor {
		t.Errorf("mark %v, colour %v", m.XYs, m.Color)
	}
	dir, _ := figuresIn(t)
	if err := ShowPlot(p, "annotated", 5*vg.Inch, 4*vg.Inch); err != nil {
		t.Fatal(err)
	}
	svg := checkWellFormed(t, dir, "annotated", 5*vg.Inch, 4*vg.Inch)
	for _, s := range []string{">w*<", ">plain<", "> K = 16<"} {
		if !bytes.Contains(svg, []byte(s)) {
			t.Errorf("SVG lacks %s", s)
		}
	}
}

func TestTicks(t *testing.T) {
	ticks := IntegerTicks{}.Ticks(0.5, 4.5)
	if len(ticks) != 4 || ticks[0].Value != 1 || ticks[3].Value != 4 || ticks[0].Label != "1" {
		t.Errorf("IntegerTicks(0.5, 4.5) = %v, want 1..4", ticks)
	}
	ticks = IntegerTicks{}.Ticks(1, 32)
	if len(ticks) != 8 || ticks[1].Value != 5 || ticks[7].Value != 29 {
		t.Errorf("IntegerTicks(1, 32) = %v, want every 4th integer from 1", ticks)
	}
	at := TicksAt(0, 0.5, 1, 1.5).Ticks(-0.1, 1.1)
	if len(at) != 4 || at[1].Label != "0.5" || at[3].Value != 1.5 {
		t.Errorf("TicksAt = %v", at)
	}
	var _ plot.Ticker = IntegerTicks{}
}
