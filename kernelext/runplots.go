package kernelext

import (
	"fmt"
	"image/color"

	"github.com/internal-dw/dwgo/dwlib/experiment"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// StyledRun is a trained run drawn beside others by PerHorizonPlot and LossPlot.
type StyledRun struct {
	Name   string
	Result *experiment.Result
	Color  color.Color
	Width  vg.Length
}

// FullRun and DWRun style a Full BPTT and an Internal-DW run for comparison: Full wide and grey,
// DW narrow and blue (drawn after Full, on top), so that identical curves stay visible.
func FullRun(r *experiment.Result) StyledRun {
	return StyledRun{"Full BPTT", r, color.RGBA{R: 160, G: 160, B: 160, A: 255}, vg.Points(4)}
}

// DWRun: see FullRun.
func DWRun(r *experiment.Result) StyledRun {
	return StyledRun{"Internal-DW", r, color.RGBA{R: 31, G: 119, B: 180, A: 255}, vg.Points(1.5)}
}

// PerHorizonPlot draws each run's test rel-L2 per horizon h = 1..H_eval (Result.Test.PerHorizon,
// with a dot per horizon), the baselines' under the same protocol (dotted; bl may be nil), and a
// dashed mark at the training horizon K. The legend sits at the bottom right, where errors are
// usually high.
func PerHorizonPlot(title string, runs []StyledRun, bl *experiment.BaselineSet, K int) (*plot.Plot, error) {
	p := NewPlot(title, "forecast horizon h", "rel-L2")
	p.Add(plotter.NewGrid())
	var traces []Trace
	for _, r := range runs {
		traces = append(traces, Trace{Name: r.Name, Y: r.Result.Test.PerHorizon, X0: 1, Color: r.Color, Width: r.Width, Dots: 0.75 * r.Width})
	}
	if bl != nil {
		for i, name := range experiment.BaselineNames() {
			b, ok := bl.Get(name)
			if !ok {
				return nil, fmt.Errorf("kernelext: PerHorizonPlot: baseline %q missing from %s", name, bl.Path)
			}
			traces = append(traces, Trace{Name: "baseline: " + name, Y: b.Test.PerHorizon, X0: 1, Color: plotutil.Color(i + 3), Width: vg.Points(1.2), Dashes: Dotted})
		}
	}
	if err := AddTraces(p, traces...); err != nil {
		return nil, err
	}
	top := 0.0
	for _, t := range traces {
		for _, v := range t.Y {
			top = max(top, v)
		}
	}
	if err := AddVMark(p, float64(K), 0, 1.05*top, fmt.Sprintf(" training horizon K = %d", K)); err != nil {
		return nil, err
	}
	p.Y.Min = 0
	p.Legend.XOffs, p.Legend.YOffs = -vg.Points(8), vg.Points(8)
	return p, nil
}

// lossDashes is LossPlot's validation line.
var lossDashes = []vg.Length{vg.Points(5), vg.Points(3)}

// LossPlot draws each run's training loss (solid) and validation loss (dashed) per epoch
// (Result.Epochs), with a dot per epoch and integer epoch ticks. There is no legend: say in the
// title which run is which.
func LossPlot(title string, runs []StyledRun) (*plot.Plot, error) {
	p := NewPlot(title, "epoch", "rel-L2 over h = 1..K")
	p.Add(plotter.NewGrid())
	for _, r := range runs {
		if len(r.Result.Epochs) == 0 {
			return nil, fmt.Errorf("kernelext: LossPlot: run %q has no epochs", r.Name)
		}
		var tr, va []float64
		for _, e := range r.Result.Epochs {
			tr, va = append(tr, e.TrainLoss), append(va, e.ValLoss)
		}
		x0 := float64(r.Result.Epochs[0].Epoch)
		err := AddTraces(p, Trace{Y: tr, X0: x0, Color: r.Color, Width: r.Width, Dots: 0.75 * r.Width},
			Trace{Y: va, X0: x0, Color: r.Color, Width: r.Width, Dashes: lossDashes, Dots: 0.75 * r.Width})
		if err != nil {
			return nil, err
		}
	}
	p.X.Tick.Marker = IntegerTicks{}
	return p, nil
}

// ValidationCurve is r's validation loss per epoch (Result.Epochs), a LineChart curve from epoch 1.
func ValidationCurve(name string, r *experiment.Result) Curve {
	y := make([]float64, len(r.Epochs))
	for i, e := range r.Epochs {
		y[i] = e.ValLoss
	}
	return Curve{Name: name, Y: y, X0: 1}
}

// FlatCurve is a horizontal LineChart curve at v over epochs 1..n: the score of something that
// is not trained (a baseline), beside validation curves.
func FlatCurve(name string, v float64, n int) Curve {
	y := make([]float64, n)
	for i := range y {
		y[i] = v
	}
	return Curve{Name: name, Y: y, X0: 1}
}
