package kernelext

import (
	"math"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

func TestAddLevels(t *testing.T) {
	levels := []Level{{"zero", 1}, {"damped", math.NaN()}, {"ridge", 0.7}, {"far", 0.1}}
	for _, c := range []struct {
		name          string
		lo, hi        float64 // the data's y range
		drawn         []string
		legend        []string
		wantLo, wantH float64
	}{
		{"no data: every level drawn", math.Inf(1), math.Inf(-1), []string{"zero", "ridge", "far"}, []string{"zero", "ridge", "far"}, 0.1, 1},
		{"data at 0.75..0.95: far is off the axis", 0.75, 0.95, []string{"zero", "ridge"}, []string{"zero", "ridge", "far 0.1 (below)"}, 0.7, 1},
		{"data at 0.85..0.9: every level off the axis", 0.85, 0.9, []string{}, nil, 0, 0},
	} {
		items, legend, lo, hi, err := levelItems(8, 48, c.lo, c.hi, levels)
		if err != nil {
			t.Fatal(err)
		}
		if c.legend == nil { // margin 0.025: 1 and 0.7 and 0.1 are all out
			if len(items) != 0 || len(legend) != 3 || lo != c.lo || hi != c.hi {
				t.Errorf("%s: %d lines, legend %v, range [%v, %v]; want none drawn and the range kept", c.name, len(items), legend, lo, hi)
			}
			continue
		}
		var names []string
		for _, e := range legend {
			names = append(names, e.name)
		}
		if len(items) != len(c.drawn) || len(names) != len(c.legend) || lo != c.wantLo || hi != c.wantH {
			t.Errorf("%s: %d lines, legend %v, range [%v, %v]; want %v drawn, legend %v, [%v, %v]", c.name, len(items), names, lo, hi, c.drawn, c.legend, c.wantLo, c.wantH)
			continue
		}
		for i := range names {
			if names[i] != c.legend[i] {
				t.Errorf("%s: legend %v, want %v", c.name, names, c.legend)
			}
		}
		if l := items[1].(*plotter.Line); l.XYs[0] != (plotter.XY{X: 8, Y: 0.7}) || l.XYs[1] != (plotter.XY{X: 48, Y: 0.7}) {
			t.Errorf("%s: ridge line %v, want y = 0.7 over [8, 48]", c.name, l.XYs)
		}
	}
	// A level off the axis says on which side it is.
	_, legend, _, _, err := levelItems(8, 48, 0.2, 0.3, levels)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"zero 1 (above)", "ridge 0.7 (above)", "far 0.1 (below)"}
	for i, e := range legend {
		if i >= len(want) || e.name != want[i] {
			t.Errorf("data at 0.2..0.3: legend entry %d is %q, want %v", i, e.name, want)
		}
	}
	for _, bad := range []struct{ lo, hi, y float64 }{{8, 8, 1}, {8, 48, math.Inf(1)}} {
		if err := AddLevels(plot.New(), bad.lo, bad.hi, Level{"x", bad.y}); err == nil {
			t.Errorf("range [%v, %v], level %v accepted", bad.lo, bad.hi, bad.y)
		}
	}
	// On a chart: the data's range is kept but for the near level, which widens it.
	p, err := FitChart("k", "K", "rel-L2", 8, 48, FitSeries{Name: "Full", X: []float64{8, 48}, Y: []float64{0.75, 0.95}, Mark: math.NaN()})
	if err != nil {
		t.Fatal(err)
	}
	if err := AddLevels(p, 8, 48, levels...); err != nil {
		t.Fatal(err)
	}
	if p.Y.Min != 0.7 || p.Y.Max != 1 {
		t.Errorf("y range [%v, %v], want [0.7, 1]", p.Y.Min, p.Y.Max)
	}
	if _, err := p.WriterTo(100, 100, "svg"); err != nil {
		t.Fatal(err)
	}
}
