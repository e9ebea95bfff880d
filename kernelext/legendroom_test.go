package kernelext

import (
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// TestRoomForLegend draws a panel whose highest point would sit under a five-entry legend and
// checks, in the drawn coordinates, that after RoomForLegend the point is below the legend's box.
func TestRoomForLegend(t *testing.T) {
	w, h := 10*vg.Centimeter, 9*vg.Centimeter
	newPanel := func() (*plot.Plot, plotter.XYs) {
		pts := plotter.XYs{{X: 0, Y: 0.95}, {X: 1, Y: 1.0}, {X: 2, Y: 1.06}}
		p := plot.New()
		p.Title.Text = "panel"
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			t.Fatal(err)
		}
		p.Add(sc)
		for _, name := range []string{"Full BPTT", "Internal-DW", "baseline: zero", "baseline: damped", "baseline: ridge"} {
			p.Legend.Add(name, sc)
		}
		p.Legend.Top = true
		return p, pts
	}
	top := func(p *plot.Plot, pts plotter.XYs) (point, legendBottom vg.Length) {
		c := draw.Canvas{Canvas: new(recorder.Canvas), Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}}
		data := p.DataCanvas(c)
		_, y := p.Transforms(&data)
		r := p.Legend.Rectangle(data)
		return y(pts[2].Y), r.Min.Y
	}
	p, pts := newPanel()
	if y, l := top(p, pts); y < l {
		t.Fatalf("the test's panel does not overlap to begin with: point at %v, legend from %v", y, l)
	}
	if err := RoomForLegend(p, w, h); err != nil {
		t.Fatal(err)
	}
	if p.Y.Min != 0.95 {
		t.Errorf("the bottom of the axis moved to %v", p.Y.Min)
	}
	if y, l := top(p, pts); y+legendGap > l+vg.Points(0.01) {
		t.Errorf("the highest point is drawn at %v, within %v of the legend's bottom %v", y, legendGap, l)
	}

	short, _ := newPanel()
	if err := RoomForLegend(short, w, 3*vg.Centimeter); err == nil {
		t.Error("a 3 cm panel under a five-entry legend was accepted")
	} else if short.Y.Max != 1.06 {
		t.Errorf("a refused panel's axis changed to %v", short.Y.Max)
	}
	bottom, _ := newPanel()
	bottom.Legend.Top = false
	if err := RoomForLegend(bottom, w, h); err == nil {
		t.Error("a legend at the bottom was accepted")
	}
}
