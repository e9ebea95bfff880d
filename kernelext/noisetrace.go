package kernelext

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/experiment"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// NoiseTraceChart draws a DW run's noise share through training on a log axis
// (experiment.NoiseTrace): every calibration's own share Σ tr Noise / Σ tr Tot as a point, spread
// across its epoch, and the share of the controller's averaged moments at each epoch's end as a
// line, against the level 1 at which R̂ takes all of T̂ and the solve closes the gains. Shares
// that are not positive (none drawn yet) are left out.
func NoiseTraceChart(title string, trace []experiment.NoiseTraceEpoch) (*plot.Plot, error) {
	committed, single := noiseTracePoints(trace)
	if len(committed) == 0 && len(single) == 0 {
		return nil, fmt.Errorf("kernelext: NoiseTraceChart %q: no positive share to draw (not a DW run with a trace?)", title)
	}
	var items []plot.Plotter
	var legend []legendEntry
	if len(single) > 0 {
		s, err := plotter.NewScatter(single)
		if err != nil {
			return nil, fmt.Errorf("kernelext: NoiseTraceChart %q: %w", title, err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: Purple, Radius: vg.Points(1.6), Shape: draw.CircleGlyph{}}
		items = append(items, s)
		legend = append(legend, legendEntry{"one calibration", s})
	}
	if len(committed) > 0 {
		l, err := plotter.NewLine(committed)
		if err != nil {
			return nil, fmt.Errorf("kernelext: NoiseTraceChart %q: %w", title, err)
		}
		l.Color, l.Width = Ink, vg.Points(1.5)
		items = append(items, l)
		legend = append(legend, legendEntry{"averaged R̂ / T̂ (what the solve sees)", l})
	}
	p := newLegendPlot(title, "epoch", "Σ tr R / Σ tr T", items, legend)
	p.Y.Tick.Marker = LogValueTicks{}
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, xys := range []plotter.XYs{committed, single} {
		for _, xy := range xys {
			x0, x1 = math.Min(x0, xy.X), math.Max(x1, xy.X)
		}
	}
	if !(x1 > x0) {
		x0, x1 = x0-0.5, x1+0.5
	}
	if err := AddLevels(p, x0, x1, Level{Name: "R = T", Y: 0}); err != nil {
		return nil, err
	}
	return p, nil
}

// noiseTracePoints returns NoiseTraceChart's points in log10: the committed share at each epoch's
// end and every calibration's own share at its place within its epoch.
func noiseTracePoints(trace []experiment.NoiseTraceEpoch) (committed, single plotter.XYs) {
	for _, e := range trace {
		if e.Committed > 0 && !math.IsInf(e.Committed, 0) {
			committed = append(committed, plotter.XY{X: float64(e.Epoch), Y: math.Log10(e.Committed)})
		}
		for i, s := range e.Calibrations {
			if s > 0 && !math.IsInf(s, 0) {
				x := float64(e.Epoch-1) + float64(i+1)/float64(len(e.Calibrations)+1)
				single = append(single, plotter.XY{X: x, Y: math.Log10(s)})
			}
		}
	}
	return committed, single
}
