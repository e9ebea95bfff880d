package kernelext

import (
	"fmt"
	"image/color"
	"slices"

	"github.com/internal-dw/dwgo/dwlib/prior"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Fold-chart colours: what a fold's predictor is fitted on, what it forecasts, and what neither
// may touch.
var (
	foldFitColor  = color.RGBA{R: 0x4c, G: 0x72, B: 0xb0, A: 0xff}
	foldHeldColor = color.RGBA{R: 0xdd, G: 0x84, B: 0x52, A: 0xff}
	foldGapColor  = color.RGBA{R: 0xc8, G: 0xc8, B: 0xc8, A: 0xff}
)

// FoldChart draws blocked cross-fitting (prior.TimeFolds): one row per fold over the concatenated
// training timeline, its fit segments in blue, its held-out pieces in orange and the purge gaps
// around the block in grey, with a dotted line at every sequence boundary (lengths, in order).
// The picture is the sampler's promise: no held-out residual comes from a predictor that saw its
// rows or their neighbours.
func FoldChart(title string, folds []prior.TimeFold, lengths []int) (*plot.Plot, error) {
	if len(folds) == 0 {
		return nil, fmt.Errorf("kernelext: FoldChart %q: no folds", title)
	}
	n := 0
	for _, l := range lengths {
		n += l
	}
	p := NewPlot(title, "row of the concatenated training timeline", "fold")
	bars, bounds, err := foldItems(folds, lengths)
	if err != nil {
		return nil, fmt.Errorf("kernelext: FoldChart %q: %w", title, err)
	}
	for _, b := range bars {
		p.Add(b)
	}
	for _, b := range bounds {
		p.Add(b)
	}
	for _, e := range []struct {
		name string
		c    color.Color
	}{{"fit", foldFitColor}, {"held out", foldHeldColor}, {"purge gap", foldGapColor}} {
		r, err := plotter.NewPolygon(plotter.XYs{{}, {X: 1}, {X: 1, Y: 1}})
		if err != nil {
			return nil, err
		}
		r.Color, r.LineStyle.Width = e.c, 0
		p.Legend.Add(e.name, r)
	}
	p.Legend.Top = true
	p.X.Min, p.X.Max = 0, float64(n)
	p.Y.Min, p.Y.Max = 0.4, float64(len(folds))+2 // room for the legend above the last fold
	p.Y.Tick.Marker = plot.ConstantTicks(foldTicks(len(folds)))
	p.X.Tick.Marker = IntegerTicks{}
	return p, nil
}

// foldTicks labels the fold rows 1..n.
func foldTicks(n int) []plot.Tick {
	out := make([]plot.Tick, n)
	for i := range out {
		out[i] = plot.Tick{Value: float64(i + 1), Label: fmt.Sprint(i + 1)}
	}
	return out
}

// foldItems builds FoldChart's bars (per fold: its gap, then its fit segments and held-out pieces
// on top) and its sequence-boundary lines.
func foldItems(folds []prior.TimeFold, lengths []int) (bars []*plotter.Polygon, bounds []*plotter.Line, err error) {
	n := 0
	for _, l := range lengths {
		n += l
	}
	bar := func(s prior.Span, y float64, c color.Color) error {
		if s.Len() <= 0 {
			return nil
		}
		poly, err := plotter.NewPolygon(plotter.XYs{{X: float64(s.Start), Y: y - 0.35}, {X: float64(s.End), Y: y - 0.35},
			{X: float64(s.End), Y: y + 0.35}, {X: float64(s.Start), Y: y + 0.35}})
		if err != nil {
			return err
		}
		poly.Color, poly.LineStyle.Width = c, 0
		bars = append(bars, poly)
		return nil
	}
	for f, tf := range folds {
		y := float64(f + 1)
		gap := prior.Span{Start: max(tf.Block.Start-tf.Gap, 0), End: min(tf.Block.End+tf.Gap, max(n, tf.Block.End))}
		if err := bar(gap, y, foldGapColor); err != nil {
			return nil, nil, err
		}
		for _, s := range append(slices.Clone(tf.Fit), tf.Held...) {
			c := foldFitColor
			if slices.Contains(tf.Held, s) {
				c = foldHeldColor
			}
			if err := bar(s, y, c); err != nil {
				return nil, nil, err
			}
		}
	}
	at := 0
	for _, l := range lengths[:max(len(lengths)-1, 0)] {
		at += l
		ln, err := plotter.NewLine(plotter.XYs{{X: float64(at), Y: 0.4}, {X: float64(at), Y: float64(len(folds)) + 0.6}})
		if err != nil {
			return nil, nil, err
		}
		ln.Color, ln.Width, ln.Dashes = color.Gray{Y: 0x60}, vg.Points(0.5), []vg.Length{vg.Points(1), vg.Points(2)}
		bounds = append(bounds, ln)
	}
	return bars, bounds, nil
}
