package kernelext

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ShowPlot renders p at w×h, saves <figures>/<name>.svg and .png (see
// FiguresDir) and displays it (see Figure.Show). It is the one call a
// notebook makes per figure, so the files in figures/ always match what the
// notebook shows.
func ShowPlot(p *plot.Plot, name string, w, h vg.Length) error {
	fig, err := SavePlot(p, name, w, h)
	if err != nil {
		return err
	}
	return fig.Show()
}

// SavePlot renders p at w×h and saves it under FiguresDir, without displaying.
func SavePlot(p *plot.Plot, name string, w, h vg.Length) (*Figure, error) {
	fig, err := Render(name, w, h, p.Draw)
	if err != nil {
		return nil, err
	}
	return fig, saveToFigures(fig)
}

func saveToFigures(fig *Figure) error {
	dir, err := FiguresDir()
	if err != nil {
		return err
	}
	return fig.Save(dir)
}

// drawFunc adapts a *plot.Plot for Render; nil plots draw nothing.
func drawFunc(p *plot.Plot) func(draw.Canvas) {
	return func(c draw.Canvas) {
		if p != nil {
			p.Draw(c)
		}
	}
}
