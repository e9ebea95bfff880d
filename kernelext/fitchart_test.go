package kernelext

import (
	"math"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func TestFitChart(t *testing.T) {
	quad := func(x float64) float64 { return (x - 20) * (x - 20) / 100 }
	series := []FitSeries{
		{Name: "Full", X: []float64{8, 16, 32}, Y: []float64{1.5, 0.2, 1.4}, Fit: quad, Mark: 20},
		{Name: "DW", X: []float64{8, 32}, Y: []float64{1, 2}, Mark: math.NaN()},
	}
	items, legend, err := fitItems("k", 8, 32, series)
	if err != nil {
		t.Fatal(err)
	}
	var scatters, lines int
	for _, it := range items {
		switch v := it.(type) {
		case *plotter.Scatter:
			scatters++
		case *plotter.Line:
			lines++
			if len(v.XYs) == 101 && (v.XYs[0].X != 8 || v.XYs[100].X != 32 || v.XYs[50].Y != quad(20)) {
				t.Errorf("fitted curve not sampled over [8, 32]: %v .. %v", v.XYs[0], v.XYs[100])
			}
			if len(v.XYs) == 2 && (v.XYs[0] != plotter.XY{X: 20, Y: 0} || v.XYs[1] != plotter.XY{X: 20, Y: 2}) {
				t.Errorf("mark %v, want x = 20 over every point and curve value, [0, 2]", v.XYs)
			}
		}
	}
	if scatters != 2 || lines != 2 || len(legend) != 2 {
		t.Errorf("%d scatters, %d lines, %d legend entries; want 2 point sets, 1 curve + 1 mark, 2 entries", scatters, lines, len(legend))
	}
	p, err := FitChart("k", "K", "rel-L2", 8, 32, series...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Render("fit", 12*vg.Centimeter, 8*vg.Centimeter, p.Draw); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]FitSeries{nil, {{Name: "x", X: []float64{1}, Y: nil}}} {
		if _, err := FitChart("k", "K", "y", 8, 32, bad...); err == nil {
			t.Errorf("series %v accepted", bad)
		}
	}
	if _, err := FitChart("k", "K", "y", 8, 8, series...); err == nil {
		t.Error("an empty x range was accepted")
	}
}
