package kernelext

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// HeatGridLayout places panels (rows × columns, axes aligned) and one vertical colour bar in a
// figure: the panels fill the figure but for a strip at the right, where the bar stands.
// DefaultHeatGridLayout is what ShowHeatGrid uses; set fields of a copy to change it.
type HeatGridLayout struct {
	// Strip is the width kept at the right of the figure for the colour bar, its ticks and label.
	Strip vg.Length
	// Pad is the padding around the panels and Between the padding between them. A single panel
	// with Pad 0 fills its area exactly.
	Pad, Between vg.Length
	// BarLeft and BarRight are the bar's margins inside the strip (the bar's plot, with its tick
	// labels and axis label, lies between them); BarBottom and BarTop its margins from the bottom
	// and top of the figure.
	BarLeft, BarRight, BarBottom, BarTop vg.Length
}

// DefaultHeatGridLayout: a 0.9 inch strip, 8 points around and 16 points between panels, the bar
// 0.4 inch from the top and bottom of the figure.
var DefaultHeatGridLayout = HeatGridLayout{
	Strip: 0.9 * vg.Inch, Pad: vg.Points(8), Between: vg.Points(16),
	BarLeft: 0.05 * vg.Inch, BarRight: 0.05 * vg.Inch, BarBottom: 0.4 * vg.Inch, BarTop: 0.4 * vg.Inch,
}

// ShowHeatGrid lays out panels with the colour bar of s at the right (DefaultHeatGridLayout),
// then saves and displays the figure like ShowPlot. w×h is the size of the whole figure, s
// the scale the panels were drawn with (with a fixed range: see HeatScale.Fit). Rows must all
// have the same length; a nil plot leaves its panel empty.
func ShowHeatGrid(panels [][]*plot.Plot, s HeatScale, name string, w, h vg.Length) error {
	return DefaultHeatGridLayout.Show(panels, s, name, w, h)
}

// Show is ShowHeatGrid with layout l.
func (l HeatGridLayout) Show(panels [][]*plot.Plot, s HeatScale, name string, w, h vg.Length) error {
	fig, err := l.Save(panels, s, name, w, h)
	if err != nil {
		return err
	}
	return fig.Show()
}

// Save is Show without displaying: it renders the figure and saves it under FiguresDir.
func (l HeatGridLayout) Save(panels [][]*plot.Plot, s HeatScale, name string, w, h vg.Length) (*Figure, error) {
	fig, err := l.Render(panels, s, name, w, h)
	if err != nil {
		return nil, err
	}
	return fig, saveToFigures(fig)
}

// Render draws the figure without saving it.
func (l HeatGridLayout) Render(panels [][]*plot.Plot, s HeatScale, name string, w, h vg.Length) (*Figure, error) {
	if len(panels) == 0 || len(panels[0]) == 0 {
		return nil, fmt.Errorf("kernelext: heat grid %q has no panels", name)
	}
	rows, cols := len(panels), len(panels[0])
	for i, row := range panels {
		if len(row) != cols {
			return nil, fmt.Errorf("kernelext: heat grid %q row %d has %d panels, row 0 has %d", name, i, len(row), cols)
		}
	}
	if l.Strip >= w {
		return nil, fmt.Errorf("kernelext: heat grid %q: colour bar strip %v wider than the figure %v", name, l.Strip, w)
	}
	bar, err := s.ColorBar()
	if err != nil {
		return nil, fmt.Errorf("kernelext: heat grid %q: %w", name, err)
	}
	return Render(name, w, h, func(c draw.Canvas) {
		area := draw.Crop(c, 0, -l.Strip, 0, 0)
		if rows == 1 && cols == 1 && l.Pad == 0 {
			drawFunc(panels[0][0])(area)
		} else {
			tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: l.Between, PadY: l.Between,
				PadTop: l.Pad, PadBottom: l.Pad, PadLeft: l.Pad, PadRight: l.Pad}
			canvases := plot.Align(panels, tiles, area)
			for i := range panels {
				for j := range panels[i] {
					drawFunc(panels[i][j])(canvases[i][j])
				}
			}
		}
		bar.Draw(draw.Crop(c, w-l.Strip+l.BarLeft, -l.BarRight, l.BarBottom, -l.BarTop))
	})
}
