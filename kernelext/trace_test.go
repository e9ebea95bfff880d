package kernelext

import (
	"bytes"
	"image/color"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func TestAddTraces(t *testing.T) {
	p := NewPlot("traces", "x", "y")
	red := color.RGBA{R: 255, A: 255}
	err := AddTraces(p,
		Trace{Name: "even", Y: []float64{1, 2, 3}, X0: 1},
		Trace{Name: "uneven", X: []float64{1, 10, 100}, Y: []float64{3, 2, 1}, Color: red, Width: 2, Dashes: Dotted, Dots: 3},
		Trace{Y: []float64{0, 0}}) // no name: no legend entry
	if err != nil {
		t.Fatal(err)
	}
	if p.Title.Text != "traces" || p.X.Label.Text != "x" || p.Y.Label.Text != "y" {
		t.Errorf("labels %q %q %q", p.Title.Text, p.X.Label.Text, p.Y.Label.Text)
	}
	var lines []*plotter.Line
	var dots []*plotter.Scatter
	for _, pl := range plottersOf(p) {
		switch v := pl.(type) {
		case *plotter.Line:
			lines = append(lines, v)
		case *plotter.Scatter:
			dots = append(dots, v)
		}
	}
	if len(lines) != 3 || len(dots) != 1 {
		t.Fatalf("%d lines and %d dot sets, want 3 and 1", len(lines), len(dots))
	}
	if lines[0].XYs[2].X != 3 || lines[1].XYs[2].X != 100 || lines[2].XYs[1].X != 1 {
		t.Errorf("x values %v, %v, %v", lines[0].XYs, lines[1].XYs, lines[2].XYs)
	}
	if lines[0].Width != plotter.DefaultLineStyle.Width || lines[0].Color != plotter.DefaultLineStyle.Color || len(lines[0].Dashes) != 0 {
		t.Errorf("an unstyled trace lost gonum's default style: %+v", lines[0].LineStyle)
	}
	if lines[1].Color != color.Color(red) || lines[1].Width != 2 || len(lines[1].Dashes) != 2 || dots[0].Color != color.Color(red) || dots[0].Radius != 3 {
		t.Errorf("styled trace %+v, dots %+v", lines[1].LineStyle, dots[0].GlyphStyle)
	}
	if p.X.Min != 0 || p.X.Max != 100 {
		t.Errorf("x range [%v, %v], want [0, 100]", p.X.Min, p.X.Max)
	}
	if err := AddTraces(p, Trace{Name: "bad", X: []float64{1}, Y: []float64{1, 2}}); err == nil {
		t.Errorf("a trace with 1 x and 2 y values was accepted")
	}
	dir, _ := figuresIn(t)
	if err := ShowPlot(p, "traces", 4*vg.Inch, 3*vg.Inch); err != nil {
		t.Fatal(err)
	}
	svg := checkWellFormed(t, dir, "traces", 4*vg.Inch, 3*vg.Inch)
	for _, name := range []string{">even<", ">uneven<"} {
		if !bytes.Contains(svg, []byte(name)) {
			t.Errorf("legend lacks %s", name)
		}
	}
}

func TestLineFamily(t *testing.T) {
	ys := [][]float64{{0.1, 0.2}, {0.4, 0.5}, {0.9, 1}}
	p, err := LineFamily("family", "k", "alpha", 1, ys)
	if err != nil {
		t.Fatal(err)
	}
	var cols []color.Color
	for _, pl := range plottersOf(p) {
		if l, ok := pl.(*plotter.Line); ok {
			cols = append(cols, l.Color)
			if l.XYs[0].X != 1 {
				t.Errorf("family line starts at x = %v, want 1", l.XYs[0].X)
			}
		}
	}
	if len(cols) != 3 {
		t.Fatalf("%d lines, want 3", len(cols))
	}
	// Light to dark: the sum of the channels falls from the first member to the last.
	lum := func(c color.Color) uint32 { r, g, b, _ := c.RGBA(); return r + g + b }
	if !(lum(cols[0]) > lum(cols[1]) && lum(cols[1]) > lum(cols[2])) {
		t.Errorf("colours %v are not light to dark", cols)
	}
	if !sameColor(cols[0], color.RGBA{R: 170, G: 200, B: 240, A: 255}) || !sameColor(cols[2], color.RGBA{R: 20, G: 50, B: 130, A: 255}) {
		t.Errorf("ends %v, %v", cols[0], cols[2])
	}
	if !sameColor(FamilyColor(0, 1), cols[2]) {
		t.Errorf("a family of one is %v, want the darkest", FamilyColor(0, 1))
	}
	dir, _ := figuresIn(t)
	if err := ShowPlot(p, "family", 4*vg.Inch, 3*vg.Inch); err != nil {
		t.Fatal(err)
	}
	checkWellFormed(t, dir, "family", 4*vg.Inch, 3*vg.Inch)
}
