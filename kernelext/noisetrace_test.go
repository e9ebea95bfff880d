package kernelext

import (
	"math"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/experiment"
	"gonum.org/v1/plot/plotter"
)

func TestNoiseTraceChart(t *testing.T) {
	trace := []experiment.NoiseTraceEpoch{
		{Epoch: 1, Committed: math.NaN()}, // warm-up: nothing calibrated yet
		{Epoch: 2, Committed: 0.5, Calibrations: []float64{0.5}},
		{Epoch: 3, Committed: 20, Calibrations: []float64{100, 0.1, 0}}, // 0: no positive share, left out
	}
	line, points := noiseTracePoints(trace)
	want := plotter.XYs{{X: 2, Y: math.Log10(0.5)}, {X: 3, Y: math.Log10(20)}}
	if len(line) != 2 || line[0] != want[0] || math.Abs(line[1].Y-want[1].Y) > 1e-12 {
		t.Errorf("committed line %v, want %v", line, want)
	}
	// Epoch 2's one calibration sits mid-epoch; epoch 3's at its quarters.
	if len(points) != 3 || points[0].X != 1.5 || points[1].X != 2.25 || points[1].Y != 2 || points[2].X != 2.5 || math.Abs(points[2].Y+1) > 1e-12 {
		t.Errorf("calibration points %v", points)
	}
	p, err := NoiseTraceChart("seed 0", trace)
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Min > -1+1e-12 || p.Y.Max < 2 {
		t.Errorf("y range [%v, %v] does not hold the points (log10 -1 to 2)", p.Y.Min, p.Y.Max)
	}
	if _, err := NoiseTraceChart("empty", []experiment.NoiseTraceEpoch{{Epoch: 1, Committed: math.NaN()}}); err == nil {
		t.Error("a trace with nothing to draw gave no error")
	}
}
