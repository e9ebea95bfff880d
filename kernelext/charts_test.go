package kernelext

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func TestBarChart(t *testing.T) {
	labels := []string{"full", "dw", "oracle"}
	series := []Bars{{Name: "ours", Values: []float64{1, .4, .2}, Errors: []float64{0, .1, math.NaN()}},
		{Name: "paper", Values: []float64{1, .52, .35}}}
	p, err := BarChart("risk", "ratio", labels, math.NaN(), series...)
	if err != nil {
		t.Fatal(err)
	}
	items, legend, top, err := barItems("risk", labels, series)
	if err != nil || len(legend) != 2 || top != 1 {
		t.Fatalf("barItems: %d legend entries, top %v, %v", len(legend), top, err)
	}
	var bars, errBars int
	for _, pl := range items {
		switch b := pl.(type) {
		case *plotter.BarChart:
			// One bar per value: the first series' three at j − 0.2, then the second's at j + 0.2.
			j, shift := bars%3, -0.2
			if bars >= 3 {
				shift = 0.2
			}
			if len(b.Values) != 1 || math.Abs(b.XMin-(float64(j)+shift)) > 1e-12 || b.Values[0] != series[bars/3].Values[j] {
				t.Errorf("bar %d: %v at %v, want %v at %v", bars, b.Values, b.XMin, series[bars/3].Values[j], float64(j)+shift)
			}
			bars++
		case *plotter.YErrorBars:
			errBars++
			if len(b.XYs) != 2 || b.XYs[1].X != 1-0.2 || b.YErrors[1].High != .1 {
				t.Errorf("error bars %+v %+v: want the first series' two finite errors, on its bars", b.XYs, b.YErrors)
			}
		}
	}
	if bars != 6 || errBars != 1 {
		t.Errorf("%d bars and %d error bar sets, want 6 and 1", bars, errBars)
	}
	if p.X.Min != -0.5 || p.X.Max != 2.5 {
		t.Errorf("x range [%v, %v], want [-0.5, 2.5]: half a category beyond the outer bars", p.X.Min, p.X.Max)
	}
	if p.Y.Min != 0 || !(p.Y.Max > 1.1) {
		t.Errorf("y range [%v, %v], want from 0 with room above 1.1", p.Y.Min, p.Y.Max)
	}
	if _, err := Render("bars", 12*vg.Centimeter, 8*vg.Centimeter, p.Draw); err != nil {
		t.Fatal(err)
	}
	if _, err := BarChart("bad", "", labels, 0, Bars{Name: "short", Values: []float64{1}}); err == nil || !strings.Contains(err.Error(), `series "short" has 1 values`) {
		t.Errorf("mismatched series: %v", err)
	}
	// A series without a value in some category (a method not run on a testbed) draws nothing
	// there: no error, and its NaN neither sets the top nor gets an error bar.
	gappy := []Bars{{Name: "clip", Values: []float64{2, math.NaN(), 0.5}, Errors: []float64{math.NaN(), 3, 0.1}}, {Name: "dw", Values: []float64{1, 1.5, 0.7}}}
	if _, err := BarChart("gaps", "", labels, math.NaN(), gappy...); err != nil {
		t.Fatalf("a NaN value: %v", err)
	}
	items, _, top, err = barItems("gaps", labels, gappy)
	if err != nil || top != 2 {
		t.Errorf("barItems with a gap: top %v, want 2; %v", top, err)
	}
	for _, pl := range items {
		switch b := pl.(type) {
		case *plotter.BarChart:
			if math.Abs(b.XMin-(1-0.2)) < 1e-12 {
				t.Errorf("the gap got a bar: %v at %v", b.Values, b.XMin)
			}
		case *plotter.YErrorBars:
			if len(b.XYs) != 1 || b.XYs[0].X != 2-0.2 || b.YErrors[0].High != 0.1 {
				t.Errorf("clip's error bars %+v %+v, want only category 2's", b.XYs, b.YErrors)
			}
		}
	}
}

func TestCurveFrom(t *testing.T) {
	c := Curve{Name: "val", Y: []float64{9, 5, 3, 2}, X0: 1}
	for _, tc := range []struct {
		x0   float64
		want Curve
	}{
		{0, c},
		{1, c},
		{3, Curve{Name: "val", Y: []float64{3, 2}, X0: 3}},
		{2.5, Curve{Name: "val", Y: []float64{3, 2}, X0: 3}},
		{9, Curve{Name: "val", Y: []float64{}, X0: 5}},
	} {
		got := c.From(tc.x0)
		if got.Name != tc.want.Name || got.X0 != tc.want.X0 || !slices.Equal(got.Y, tc.want.Y) {
			t.Errorf("From(%v) = %+v, want %+v", tc.x0, got, tc.want)
		}
	}
}

func TestLineChart(t *testing.T) {
	curves := []Curve{{Name: "rms", Y: []float64{1, 2, 4}, X0: 1}, {Name: "snr", Y: []float64{9, 3, 1}, X0: 1}}
	p, err := LineChart("a", "k", "ratio", true, []float64{2}, curves...)
	if err != nil {
		t.Fatal(err)
	}
	items, _, err := lineItems("a", true, []float64{2}, curves)
	if err != nil {
		t.Fatal(err)
	}
	var lines int
	for _, pl := range items {
		if l, ok := pl.(*plotter.Line); ok {
			lines++
			if lines == 1 && (l.XYs[0].X != 1 || l.XYs[2].Y != math.Log10(4)) {
				t.Errorf("first curve %+v, want log10 of the values on the log axis", l.XYs)
			}
			if lines == 3 && (l.XYs[0] != plotter.XY{X: 2, Y: 0} || l.XYs[1] != plotter.XY{X: 2, Y: math.Log10(9)}) {
				t.Errorf("mark %+v, want a vertical line at x=2 over the data range [1, 9] (log10 units)", l.XYs)
			}
		}
	}
	if lines != 3 {
		t.Errorf("%d lines, want 2 curves and 1 mark", lines)
	}
	if _, err := Render("lines", 12*vg.Centimeter, 8*vg.Centimeter, p.Draw); err != nil {
		t.Fatal(err)
	}
	if _, err := LineChart("b", "", "", true, nil, Curve{Name: "zero", Y: []float64{1, 0}}); err == nil || !strings.Contains(err.Error(), `curve "zero" has 0 at x=1 on a log axis`) {
		t.Errorf("non-positive value on a log axis: %v", err)
	}
}
