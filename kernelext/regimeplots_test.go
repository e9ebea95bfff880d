package kernelext

import (
	"bytes"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/experiment"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

func TestRegimePlots(t *testing.T) {
	pts := []experiment.RegimePoint{
		{Profile: "short", Steps: 100, Seeds: []uint64{0, 1}, Full: []float64{1.05, 1.1}, DW: []float64{1.5, 1.9},
			Paired: &eval.PairedDiff{Mean: 0.6, Lo: 0.1, Hi: 1.1}},
		{Profile: "unfinished"},
		{Profile: "long", Steps: 175, Seeds: []uint64{0}, Full: []float64{1.04}, DW: []float64{0.99}},
	}
	bls := [][]float64{{1, 0.91, 0.69}, {1, 0.9, 0.7}, {1, 0.92, 0.68}}
	diff, scores, ok, err := RegimePlots(pts, bls)
	if err != nil || !ok {
		t.Fatalf("RegimePlots: ok %v, %v", ok, err)
	}
	if diff.Y.Min != 0 || scores.Y.Min != 0 {
		t.Errorf("y axes from %v and %v, want 0 (no negative difference)", diff.Y.Min, scores.Y.Min)
	}
	dir, _ := figuresIn(t)
	if err := ShowGrid([][]*plot.Plot{{diff, scores}}, "regime", 30*vg.Centimeter, 11*vg.Centimeter); err != nil {
		t.Fatal(err)
	}
	svg := checkWellFormed(t, dir, "regime", 30*vg.Centimeter, 11*vg.Centimeter)
	for _, s := range []string{"short (100 steps)", "long (175 steps)", "ridge AR"} {
		if !bytes.Contains(svg, []byte(s)) {
			t.Errorf("SVG lacks %q", s)
		}
	}
	if bytes.Contains(svg, []byte("unfinished")) {
		t.Errorf("a budget without matched seeds is drawn")
	}
	// DW better: the axis reaches below the difference's interval.
	pts[0].Paired = &eval.PairedDiff{Mean: -0.05, Lo: -0.08, Hi: -0.02}
	if diff, _, _, _ := RegimePlots(pts, bls); !(diff.Y.Min < -0.08) {
		t.Errorf("y axis from %v, want below -0.08", diff.Y.Min)
	}
	if _, _, ok, err := RegimePlots(pts[1:2], bls[1:2]); ok || err != nil {
		t.Errorf("no finished budget: ok %v, err %v; want false, nil", ok, err)
	}
	if _, _, _, err := RegimePlots(pts, bls[:1]); err == nil {
		t.Errorf("mismatched baselines accepted")
	}
}

func TestValidationAndFlatCurves(t *testing.T) {
	r := fakeResult(1)
	c := ValidationCurve("Full", r)
	if c.Name != "Full" || c.X0 != 1 || len(c.Y) != 3 || c.Y[1] != r.Epochs[1].ValLoss {
		t.Errorf("ValidationCurve = %+v", c)
	}
	f := FlatCurve("zero", 0.9, 4)
	if len(f.Y) != 4 || f.Y[0] != 0.9 || f.Y[3] != 0.9 || f.X0 != 1 {
		t.Errorf("FlatCurve = %+v", f)
	}
}
