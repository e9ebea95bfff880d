package kernelext

import (
	"bytes"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/experiment"
	"github.com/internal-dw/dwgo/dwlib/train"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// fakeResult is a run with a per-horizon test error and three epochs.
func fakeResult(scale float64) *experiment.Result {
	r := &experiment.Result{Test: experiment.TestScore{PerHorizon: []float64{0.2 * scale, 0.5 * scale, 0.8 * scale, 0.9 * scale}}}
	for e := 1; e <= 3; e++ {
		r.Epochs = append(r.Epochs, train.EpochRecord{Epoch: e, TrainLoss: scale / float64(e), ValLoss: 1.1 * scale / float64(e)})
	}
	return r
}

func TestRunPlots(t *testing.T) {
	runs := []StyledRun{FullRun(fakeResult(1)), DWRun(fakeResult(0.9))}
	bl := &experiment.BaselineSet{}
	for i, name := range experiment.BaselineNames() {
		bl.Scores = append(bl.Scores, experiment.BaselineScore{Name: name, Test: experiment.TestScore{PerHorizon: []float64{1, 1, 1, 1.2 - 0.1*float64(i)}}})
	}
	hp, err := PerHorizonPlot("per horizon", runs, bl, 2)
	if err != nil {
		t.Fatal(err)
	}
	lines := linesOf(hp)
	// Two runs, three baselines and the K mark, which rises to 1.05 × the highest error.
	if len(lines) != 6 {
		t.Fatalf("%d lines, want 2 runs + 3 baselines + 1 mark", len(lines))
	}
	if mark := lines[5]; mark.XYs[0].X != 2 || mark.XYs[1].Y != 1.05*1.2 || mark.Color != MarkColor {
		t.Errorf("K mark %v", mark.XYs)
	}
	if lines[0].Width != vg.Points(4) || lines[1].Width != vg.Points(1.5) || len(lines[2].Dashes) == 0 {
		t.Errorf("styles: Full %v, DW %v, baseline dashes %v", lines[0].Width, lines[1].Width, lines[2].Dashes)
	}
	if hp.Y.Min != 0 {
		t.Errorf("y axis from %v, want 0", hp.Y.Min)
	}
	if _, err := PerHorizonPlot("no baselines", runs, nil, 2); err != nil {
		t.Errorf("without baselines: %v", err)
	}
	if _, err := PerHorizonPlot("missing", runs, &experiment.BaselineSet{}, 2); err == nil {
		t.Errorf("a baseline set without scores was accepted")
	}

	lp, err := LossPlot("loss", runs)
	if err != nil {
		t.Fatal(err)
	}
	if lines := linesOf(lp); len(lines) != 4 || lines[1].XYs[0].Y != 1.1 || len(lines[1].Dashes) == 0 || len(lines[0].Dashes) != 0 {
		t.Errorf("loss lines: %d, validation of Full %v", len(lines), lines[1].XYs)
	}
	if _, err := LossPlot("empty", []StyledRun{FullRun(&experiment.Result{})}); err == nil {
		t.Errorf("a run without epochs was accepted")
	}

	dir, _ := figuresIn(t)
	if err := ShowGrid([][]*plot.Plot{{hp, lp}}, "runs", 10*vg.Inch, 4*vg.Inch); err != nil {
		t.Fatal(err)
	}
	svg := checkWellFormed(t, dir, "runs", 10*vg.Inch, 4*vg.Inch)
	for _, s := range []string{">Full BPTT<", ">Internal-DW<", ">baseline: ridge-ar<", "> training horizon K = 2<"} {
		if !bytes.Contains(svg, []byte(s)) {
			t.Errorf("SVG lacks %s", s)
		}
	}
}

// linesOf returns p's lines in order.
func linesOf(p *plot.Plot) []*plotter.Line {
	var out []*plotter.Line
	for _, pl := range plottersOf(p) {
		if l, ok := pl.(*plotter.Line); ok {
			out = append(out, l)
		}
	}
	return out
}
