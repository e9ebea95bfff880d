package kernelext

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// legendGap is the space left between the legend's lowest entry and the data's highest value.
var legendGap = vg.Points(4)

// RoomForLegend raises the top of p's y axis so that a legend at the top of the panel (the
// default of FitChart, LineChart and BarChart) sits above every plotted value when p is drawn
// w×h: a legend with many entries (the baselines) would otherwise cover the points it explains.
// Call it last, after every plotter and AddLevels, with the size the panel is drawn at (for
// ShowGrid, the figure's size divided by the panel count, less GridPad); a larger panel keeps the
// room, a smaller one shrinks it. It fails, changing nothing, when the legend would leave the
// data less than a quarter of the panel's height.
func RoomForLegend(p *plot.Plot, w, h vg.Length) error {
	if !p.Legend.Top {
		return fmt.Errorf("kernelext: RoomForLegend: the legend of %q is at the bottom; the room is made at the top", p.Title.Text)
	}
	c := draw.Canvas{Canvas: new(recorder.Canvas), Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}}
	data := p.DataCanvas(c)
	area := data.Max.Y - data.Min.Y
	legend := p.Legend.Rectangle(data)
	need := legend.Max.Y - legend.Min.Y + legendGap
	if area-need < area/4 {
		return fmt.Errorf("kernelext: RoomForLegend: a %.1f×%.1f cm panel %q leaves %.1f cm for data under a %.1f cm legend; draw it taller",
			cm(w), cm(h), p.Title.Text, cm(area-need), cm(need))
	}
	p.Y.Max = p.Y.Min + (p.Y.Max-p.Y.Min)*float64(area/(area-need))
	return nil
}

// cm is a length in centimetres, for messages.
func cm(l vg.Length) float64 { return float64(l / vg.Centimeter) }
