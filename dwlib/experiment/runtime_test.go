package experiment

import (
	"math"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/progress"
)

// TestCompareRuntimeByHand: a fake clock whose epochs are known, so the warm-up discard, the
// median, the alternating order and the paired mean ± sd can be worked out by hand.
func TestCompareRuntimeByHand(t *testing.T) {
	full, err := Resolve(Quick, "mackey-glass", "full", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	dw, err := Resolve(Quick, "mackey-glass", "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Call i (0-based, in call order) returns warm-up 100 then epochs base+{3, 1, 2}·δ.
	var order []string
	call := 0
	clock := func(cfg RunConfig, epochs int) (EpochTimes, error) {
		if epochs != 4 {
			t.Fatalf("clock asked for %d epochs, want 1 warm-up + 3", epochs)
		}
		order = append(order, cfg.Train.Method)
		base := map[string]float64{"full": 10, "dw": 13}[cfg.Train.Method] + float64(call)
		call++
		tr := []float64{100, base + 3, base + 1, base + 2} // median base + 2
		return EpochTimes{Train: tr, WithValidation: []float64{100, base + 4, base + 4, base + 4}}, nil
	}
	c, err := CompareRuntime(full, dw, RuntimeProtocol{Warmup: 1, Timed: 3, Repeats: 3}, clock)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, ","); got != "full,dw,dw,full,full,dw" {
		t.Errorf("order %s, want alternating full,dw,dw,full,full,dw", got)
	}
	// Repeat 0: full call 0 → 12, dw call 1 → 16. Repeat 1: dw call 2 → 17, full call 3 → 15.
	// Repeat 2: full call 4 → 16, dw call 5 → 20.
	wantFull, wantDW := []float64{12, 15, 16}, []float64{16, 17, 20}
	var inc []float64
	for i, r := range c.Repeats {
		if r.Full != wantFull[i] || r.DW != wantDW[i] {
			t.Errorf("repeat %d: %v / %v s, want %v / %v", i, r.Full, r.DW, wantFull[i], wantDW[i])
		}
		inc = append(inc, 100*(wantDW[i]/wantFull[i]-1))
		if math.Abs(r.IncreaseWithVal-100*((wantDW[i]+2)/(wantFull[i]+2)-1)) > 1e-12 {
			t.Errorf("repeat %d: increase with validation %v", i, r.IncreaseWithVal)
		}
	}
	mean := (inc[0] + inc[1] + inc[2]) / 3
	sd := math.Sqrt(((inc[0]-mean)*(inc[0]-mean) + (inc[1]-mean)*(inc[1]-mean) + (inc[2]-mean)*(inc[2]-mean)) / 2)
	if math.Abs(c.Increase-mean) > 1e-12 || math.Abs(c.IncreaseSD-sd) > 1e-12 {
		t.Errorf("increase %v ± %v, want %v ± %v", c.Increase, c.IncreaseSD, mean, sd)
	}
	if math.Abs(c.Full-43.0/3) > 1e-12 || math.Abs(c.DW-53.0/3) > 1e-12 {
		t.Errorf("means %v / %v, want 43/3 / 53/3", c.Full, c.DW)
	}
	md := RuntimeMarkdown([]RuntimeComparison{c})
	for _, w := range []string{"| mackey-glass | quick |", "21.28 ± 0.09, 27.43 ± 0.42, 28.9 ± 1.7", "3 paired repeats",
		// Every repeat, in the order it ran: repeat 2 timed DW first, 17 s against Full's 15 s.
		"| mackey-glass | 1 | Full, DW | 12.00 | 16.00 | +33.3 | 14.00 | 18.00 | +28.6 |",
		"| mackey-glass | 2 | DW, Full | 15.00 | 17.00 | +13.3 | 17.00 | 19.00 | +11.8 |"} {
		if !strings.Contains(md, w) {
			t.Errorf("table lacks %q:\n%s", w, md)
		}
	}
}

func TestCompareRuntimeRefuses(t *testing.T) {
	full, _ := Resolve(Quick, "mackey-glass", "full", 0, 0)
	dw, _ := Resolve(Quick, "narma5", "dw", 0, 0)
	clock := func(RunConfig, int) (EpochTimes, error) { return EpochTimes{}, nil }
	for _, tc := range []struct {
		name     string
		dw       RunConfig
		p        RuntimeProtocol
		wantText string
	}{
		{"other testbed", dw, PaperRuntimeProtocol, "Full is quick/mackey-glass but DW is quick/narma5"},
		{"no timed epochs", full, RuntimeProtocol{Warmup: 1, Timed: 0, Repeats: 3}, "timed 0"},
		{"short clock", full, PaperRuntimeProtocol, "timed 0 epochs, want 4"},
	} {
		_, err := CompareRuntime(full, tc.dw, tc.p, clock)
		if err == nil || !strings.Contains(err.Error(), tc.wantText) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.wantText)
		}
	}
}

// TestTrainingClock trains a quick run for real: three epochs, positive times, validation on top.
func TestTrainingClock(t *testing.T) {
	cfg, err := Resolve(Quick, "mackey-glass", "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Fit.Epochs = 3
	opt := quickOptions(t)
	rec := &progress.Recorder{}
	opt.Reporter = rec
	tm, err := TrainingClock(opt)(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Done != 3 || len(rec.Events) != 3 || !strings.Contains(rec.Events[2], "epoch 3/3") {
		t.Errorf("progress: %d epochs reported, events %q; want one step per epoch", rec.Done, rec.Events)
	}
	if len(tm.Train) != 3 {
		t.Fatalf("%d epochs timed, want 3", len(tm.Train))
	}
	for i := range tm.Train {
		if !(tm.Train[i] > 0) || !(tm.WithValidation[i] > tm.Train[i]) {
			t.Errorf("epoch %d: train %v s, with validation %v s", i+1, tm.Train[i], tm.WithValidation[i])
		}
	}
	if got := PaperRuntimeProtocol.ProtocolEpochs(); got != 24 {
		t.Errorf("the paper's protocol trains %d epochs per testbed, want 2 methods × 3 repeats × (1 + 3) = 24", got)
	}
	if _, err := TrainingClock(quickOptions(t))(cfg, 4); err == nil {
		t.Error("a clock asked for more epochs than the run has did not refuse")
	}
}
