package kernelext

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func TestBandChart(t *testing.T) {
	bands := []Band{
		{Name: "A(k)", Mid: []float64{1, 2, 4}, Lo: []float64{1, 1.5, 3}, Hi: []float64{1, 3, 6}, X0: 1},
		{Name: "U(k)", Mid: []float64{0.5, 1, 2}, Lo: []float64{0.2, 0.5, 1}, Hi: []float64{0.6, 2, 3}, X0: 1},
	}
	p, err := BandChart("utility", "k", "value", true, []float64{1}, bands...)
	if err != nil {
		t.Fatal(err)
	}
	items, legend, err := bandItems("utility", true, []float64{1}, bands)
	if err != nil || len(legend) != 2 {
		t.Fatalf("%d legend entries, %v", len(legend), err)
	}
	var polys, lines int
	for _, it := range items {
		switch v := it.(type) {
		case *plotter.Polygon:
			polys++
			if polys == 1 {
				// Lo from left to right, then Hi from right to left: a closed ribbon, in log10 units
				// on the log axis.
				lg := math.Log10
				want := []plotter.XY{{X: 1, Y: 0}, {X: 2, Y: lg(1.5)}, {X: 3, Y: lg(3)}, {X: 3, Y: lg(6)}, {X: 2, Y: lg(3)}, {X: 1, Y: 0}}
				for i, w := range want {
					if v.XYs[0][i] != w {
						t.Fatalf("ribbon %+v, want %+v", v.XYs[0], want)
					}
				}
			}
			if lines > 0 {
				t.Error("a ribbon is drawn over a centre line")
			}
		case *plotter.Line:
			lines++
			if lines == 3 && (v.XYs[0] != plotter.XY{X: 1, Y: 0} || v.XYs[1] != plotter.XY{X: 3, Y: 0}) {
				t.Errorf("reference line %+v, want y = 1 (log10: 0) over x in [1, 3]", v.XYs)
			}
		}
	}
	if polys != 2 || lines != 3 {
		t.Errorf("%d ribbons and %d lines, want 2 and 3 (two centre lines, one reference)", polys, lines)
	}
	if _, err := Render("band", 12*vg.Centimeter, 8*vg.Centimeter, p.Draw); err != nil {
		t.Fatal(err)
	}
	bands[1].Name = ""
	if _, legend, _ := bandItems("utility", true, nil, bands); len(legend) != 1 {
		t.Errorf("%d legend entries, want 1: a band without a name has none", len(legend))
	}
	for _, c := range []struct {
		bands []Band
		logY  bool
		want  string
	}{
		{nil, false, "no bands"},
		{[]Band{{Name: "short", Mid: []float64{1, 2}, Lo: []float64{1}, Hi: []float64{1, 2}}}, false, `band "short" has 2, 1 and 2 points`},
		{[]Band{{Name: "flip", Mid: []float64{1}, Lo: []float64{2}, Hi: []float64{0}}}, false, "Lo 2 > Hi 0"},
		{[]Band{{Name: "neg", Mid: []float64{-1}, Lo: []float64{-1}, Hi: []float64{1}}}, true, "on a log axis"},
	} {
		if _, err := BandChart("bad", "", "", c.logY, nil, c.bands...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an error containing %q, got %v", c.want, err)
		}
	}
}
