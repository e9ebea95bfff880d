package experiment

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/train"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// TestRegimeMapByHand writes finished results with known numbers and checks the point: matched
// seeds only, the paired DW − Full, tr R/tr T, the closed share and the mean gains.
func TestRegimeMapByHand(t *testing.T) {
	dir := t.TempDir()
	write := func(method string, seed uint64, rel float64, gains []float64, T, R []wiener.Sym2) {
		cfg, err := Resolve(Quick, "mackey-glass", method, seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		r := &Result{Version: resultVersion, Config: cfg, BestEpoch: 1, Test: TestScore{RelL2: rel, PerHorizon: make([]float64, cfg.HEval)},
			Epochs: []train.EpochRecord{{Epoch: 1, Steps: 3, Gains: gains}, {Epoch: 2, Steps: 3, Gains: gains}}, RouteT: T, RouteR: R}
		if err := WriteResult(filepath.Join(dir, cfg.Name(), ResultFile), r); err != nil {
			t.Fatal(err)
		}
	}
	T := []wiener.Sym2{{II: 2, JJ: 2}, {II: 1, JJ: 3}} // tr T = 8
	R := []wiener.Sym2{{II: 1, JJ: 1}, {II: 1, JJ: 1}} // tr R = 4
	write("full", 0, 0.90, nil, nil, nil)
	write("dw", 0, 0.95, []float64{1, 0, 0, 0.5}, T, R) // 2 of 4 gains closed, mean α .5, mean m .25
	write("full", 1, 0.80, nil, nil, nil)
	write("dw", 1, 0.82, []float64{1, 0, 0, 0.5}, T, R)
	write("full", 2, 0.70, nil, nil, nil) // no DW partner: skipped
	pts, err := RegimeMap(Options{RunsDir: dir}, "mackey-glass", []string{Quick, Standard}, []uint64{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 || len(pts[1].Seeds) != 0 {
		t.Fatalf("points %+v: want quick with data and standard empty", pts)
	}
	p := pts[0]
	if len(p.Seeds) != 2 || p.Paired == nil || math.Abs(p.Paired.Mean-0.035) > 1e-12 {
		t.Fatalf("seeds %v, paired %+v: want 2 matched seeds and DW − Full = mean(0.05, 0.02) = 0.035", p.Seeds, p.Paired)
	}
	if math.Abs(p.Percent-100*(0.885-0.85)/0.85) > 1e-9 {
		t.Errorf("percent %g, want %g", p.Percent, 100*(0.885-0.85)/0.85)
	}
	md := RegimeMarkdown("mackey-glass", pts, nil)
	for _, want := range []string{"| quick | 6; 3 | 0.003 | 2 |", "+0.0350 [", "| 0.50 | 50% | 0.50 / 0.25 |", "| standard | not run |"} {
		if !strings.Contains(md, want) {
			t.Errorf("RegimeMarkdown lacks %q:\n%s", want, md)
		}
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"tr R / tr T", p.NoiseShare, 0.5}, {"closed share", p.ClosedShare, 0.5}, {"mean α", p.MeanAlpha, 0.5},
		{"mean m", p.MeanM, 0.25}, {"steps", p.Steps, 6}, {"steps per epoch", p.StepsPerEpoch, 3}, {"steps to Full's best", p.BestSteps, 3}} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
}
