package kernelext

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Level is a named constant, such as a baseline's error, drawn across a chart.
type Level struct {
	Name string
	Y    float64
}

// levelGrey is the colour of every level line: levels are references, not results.
var levelGrey = Ink

// levelMargin is how far beyond the data's y range, as a fraction of that range, a level is still
// drawn: further out it would flatten the data it is there to put in context.
const levelMargin = 0.5

// AddLevels draws each level as a grey horizontal line over [xMin, xMax], each with its own dash
// pattern and a legend entry, so results can be read against references (the baselines) on one
// axis. Call it after the data are added: a level further from the data's y range than half that
// range is not drawn but named in the legend with its value and side ("below", "above"), so a distant
// reference never squashes the data. A NaN level is skipped (a baseline not scored); an infinite
// one is an error.
func AddLevels(p *plot.Plot, xMin, xMax float64, levels ...Level) error {
	items, legend, lo, hi, err := levelItems(xMin, xMax, p.Y.Min, p.Y.Max, levels)
	if err != nil {
		return err
	}
	p.Add(items...)
	p.Y.Min, p.Y.Max = lo, hi
	for _, e := range legend {
		p.Legend.Add(e.name, e.thumb)
	}
	return nil
}

// levelDashes are the dash patterns of successive levels.
var levelDashes = [][]vg.Length{{vg.Points(1), vg.Points(2)}, {vg.Points(5), vg.Points(3)}, {vg.Points(8), vg.Points(2), vg.Points(1), vg.Points(2)}}

// levelItems builds AddLevels' lines and legend entries for data spanning [lo, hi] in y (lo > hi:
// no data yet, so every level is drawn) and returns the y range that shows the data and the drawn
// levels.
func levelItems(xMin, xMax, lo, hi float64, levels []Level) ([]plot.Plotter, []legendEntry, float64, float64, error) {
	if !(xMax > xMin) {
		return nil, nil, lo, hi, fmt.Errorf("kernelext: AddLevels: x range [%v, %v] is empty", xMin, xMax)
	}
	reach := func(y float64) bool { return true }
	if lo <= hi {
		m := levelMargin * math.Max(hi-lo, 0.01*math.Abs(hi))
		reach = func(y float64) bool { return y >= lo-m && y <= hi+m }
	}
	var items []plot.Plotter
	var legend []legendEntry
	for i, lv := range levels {
		if math.IsNaN(lv.Y) {
			continue
		}
		if math.IsInf(lv.Y, 0) {
			return nil, nil, lo, hi, fmt.Errorf("kernelext: AddLevels: level %q is %v", lv.Name, lv.Y)
		}
		l, err := plotter.NewLine(plotter.XYs{{X: xMin, Y: lv.Y}, {X: xMax, Y: lv.Y}})
		if err != nil {
			return nil, nil, lo, hi, err
		}
		l.Color, l.Dashes = levelGrey, levelDashes[i%len(levelDashes)]
		if !reach(lv.Y) {
			where := "below"
			if lv.Y > hi {
				where = "above"
			}
			legend = append(legend, legendEntry{fmt.Sprintf("%s %.3g (%s)", lv.Name, lv.Y, where), l})
			continue
		}
		items = append(items, l)
		legend = append(legend, legendEntry{lv.Name, l})
		lo, hi = math.Min(lo, lv.Y), math.Max(hi, lv.Y)
	}
	return items, legend, lo, hi, nil
}
