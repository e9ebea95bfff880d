package kernelext

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// GridPad is the padding between and around panels of ShowGrid.
var GridPad = vg.Points(6)

// ShowGrid lays out plots as a multi-panel figure, rows × columns, with axes
// aligned across panels (plot.Align), then saves and displays it like
// ShowPlot. w×h is the size of the whole figure. Rows must all have the same
// length; a nil plot leaves its panel empty.
func ShowGrid(plots [][]*plot.Plot, name string, w, h vg.Length) error {
	fig, err := SaveGrid(plots, name, w, h)
	if err != nil {
		return err
	}
	return fig.Show()
}

// SaveGrid is ShowGrid without displaying.
func SaveGrid(plots [][]*plot.Plot, name string, w, h vg.Length) (*Figure, error) {
	if len(plots) == 0 || len(plots[0]) == 0 {
		return nil, fmt.Errorf("kernelext: grid %q has no panels", name)
	}
	rows, cols := len(plots), len(plots[0])
	for i, row := range plots {
		if len(row) != cols {
			return nil, fmt.Errorf("kernelext: grid %q row %d has %d panels, row 0 has %d", name, i, len(row), cols)
		}
	}
	tiles := draw.Tiles{
		Rows: rows, Cols: cols,
		PadX: GridPad, PadY: GridPad,
		PadTop: GridPad, PadBottom: GridPad, PadLeft: GridPad, PadRight: GridPad,
	}
	fig, err := Render(name, w, h, func(c draw.Canvas) {
		canvases := plot.Align(plots, tiles, c)
		for i := range plots {
			for j := range plots[i] {
				drawFunc(plots[i][j])(canvases[i][j])
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return fig, saveToFigures(fig)
}
