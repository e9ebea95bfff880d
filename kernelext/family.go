package kernelext

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// FamilyColor is member i of n of an ordered family of lines (one per epoch, say): light blue for
// the first, dark blue for the last, and dark blue for a family of one.
func FamilyColor(i, n int) color.Color {
	f := 1.0
	if n > 1 {
		f = float64(i) / float64(n-1)
	}
	return color.RGBA{R: uint8(170 - 150*f), G: uint8(200 - 150*f), B: uint8(240 - 110*f), A: 255}
}

// FamilyTraces returns one trace per member of ys (ys[i][j] at x = x0 + j), coloured from light
// (first) to dark (last) by FamilyColor, 1.5 points wide with dots: later members are drawn on
// top, so where lines coincide the darkest (latest) shows.
func FamilyTraces(x0 float64, ys [][]float64) []Trace {
	out := make([]Trace, len(ys))
	for i, y := range ys {
		out[i] = Trace{X0: x0, Y: y, Color: FamilyColor(i, len(ys)), Width: vg.Points(1.5), Dots: vg.Points(2)}
	}
	return out
}

// LineFamily returns a plot, with a background grid, of one line per member of an ordered family
// (FamilyTraces): how a curve moved over epochs, from light (early) to dark (late).
func LineFamily(title, xLabel, yLabel string, x0 float64, ys [][]float64) (*plot.Plot, error) {
	p := NewPlot(title, xLabel, yLabel)
	p.Add(plotter.NewGrid())
	if err := AddTraces(p, FamilyTraces(x0, ys)...); err != nil {
		return nil, err
	}
	return p, nil
}
