package kernelext

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func TestScatterChart(t *testing.T) {
	series := []Points{
		{Name: "ours", X: []float64{0, .57, .3, 0}, Y: []float64{.4, 0, .6, .401}, Labels: []string{"MG", "NARMA", "", "ETTm1"}},
		{Name: "sweep", X: []float64{.03, .3, .8}, Y: []float64{.6, .5, .3}, Line: true},
	}
	p, err := ScatterChart("map", "Ψ_D", "ΔΨ_H", series...)
	if err != nil {
		t.Fatal(err)
	}
	items, legend, box, err := scatterItems("map", series)
	if err != nil || len(legend) != 2 {
		t.Fatalf("%d legend entries, %v", len(legend), err)
	}
	var lines, scatters, labels int
	for _, it := range items {
		switch v := it.(type) {
		case *plotter.Line:
			lines++
			if lines == 1 && (v.XYs[0].Y != 0 || v.XYs[1].Y != 0) {
				t.Errorf("first line %v is not the y = 0 reference", v.XYs)
			}
		case *plotter.Scatter:
			scatters++
		case *plotter.Labels:
			labels++
			switch v.Labels[0] {
			case "NARMA":
				if v.XYs[0].X != .57 || v.Offset.Y != vg.Points(2) {
					t.Errorf("label NARMA at %v, offset %v", v.XYs, v.Offset)
				}
			case "ETTm1": // coincides with MG and lies (slightly) higher: one line up
				if v.Offset.Y != vg.Points(12) {
					t.Errorf("label ETTm1 offset %v, want one line above MG's", v.Offset)
				}
			}
		}
	}
	if lines != 3 || scatters != 2 || labels != 3 {
		t.Errorf("%d lines (2 references + 1 path), %d scatters, %d labels (3 non-empty)", lines, scatters, labels)
	}
	// The origin and every point are inside the axes, with a margin and room for a 2-entry legend.
	if !(box[0] < 0 && box[1] > .8 && box[2] < 0 && box[3] > .6+.2*.6) || p.X.Min != box[0] || p.Y.Max != box[3] {
		t.Errorf("box %v, plot x [%v, %v] y [%v, %v]", box, p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	if _, err := Render("scatter", 12*vg.Centimeter, 9*vg.Centimeter, p.Draw); err != nil {
		t.Fatal(err)
	}
	if _, err := ScatterChart("bad", "", "", Points{Name: "short", X: []float64{1}, Y: nil}); err == nil || !strings.Contains(err.Error(), `"short"`) {
		t.Errorf("mismatched series: %v", err)
	}
	if _, err := ScatterChart("nan", "", "", Points{Name: "n", X: []float64{math.NaN()}, Y: []float64{0}}); err == nil {
		t.Error("NaN point accepted")
	}
}
