package appdiag

import (
	"slices"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

func TestDefaultNoiseSplit(t *testing.T) {
	for tb, want := range map[string]NoiseSplit{
		"mackey-glass": {Split: "test"}, "narma5": {Split: "test"}, "driven-mg": {Split: "test"},
		"ettm1": {Split: "train", Units: 32}, "ettm2": {Split: "train", Units: 32},
	} {
		if got := DefaultNoiseSplit(tb); got != want {
			t.Errorf("%s: %+v, want %+v", tb, got, want)
		}
	}
}

// TestOfRun trains the quick Mackey–Glass Full and DW runs into a temporary directory and measures
// both diagnostics at their best checkpoints, end to end.
func TestOfRun(t *testing.T) {
	opt := experiment.Options{RunsDir: t.TempDir(), DataCache: t.TempDir()}
	full, err := experiment.Resolve(experiment.Quick, "mackey-glass", "full", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	dw, err := experiment.Resolve(experiment.Quick, "mackey-glass", "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []experiment.RunConfig{full, dw} {
		if _, err := experiment.Run(c, opt); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := experiment.LoadData(full, opt)
	if err != nil {
		t.Fatal(err)
	}
	u, err := UtilityOfRun(full, opt, UtilityConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := min(DefaultPairs, len(ds.Train), len(ds.Test)); len(u.Pairs) != want || u.K != full.Train.K || len(u.A[0]) != u.K {
		t.Errorf("%d pairs (want %d), K = %d", len(u.Pairs), want, u.K)
	}
	if u.A[0][0] != 1 || u.Seconds <= 0 {
		t.Errorf("A(1) = %v, seconds %v", u.A[0][0], u.Seconds)
	}
	r, err := NoiseResponseOfRun(dw, opt, DefaultNoiseSplit("mackey-glass"), NoiseConfig{Batches: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Windows) != len(ds.Test) || len(r.Levels) != 3 || r.Levels[0].Calibrations != 3 {
		t.Errorf("%d windows for %d test units, %d levels, %d calibrations", len(r.Windows), len(ds.Test), len(r.Levels), r.Levels[0].Calibrations)
	}
	if _, err := NoiseResponseOfRun(dw, opt, NoiseSplit{Split: "holdout"}, NoiseConfig{Batches: 4}, nil); err == nil {
		t.Error("an unknown split was accepted")
	}
	best, err := AttributionOfRun(dw, opt, AtBest, AttributionConfig{Windows: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	init, err := AttributionOfRun(dw, opt, AtInit, AttributionConfig{Windows: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(best.Total) != dw.Train.K*best.L || !slices.Equal(best.Windows, init.Windows) || slices.Equal(best.Total, init.Total) {
		t.Errorf("attribution at best %v and at init %v: same windows, different parameters expected", best.Total[:2], init.Total[:2])
	}
	last, err := AttributionOfRun(dw, opt, AtLast, AttributionConfig{Windows: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(last.Total) != len(best.Total) || slices.Equal(last.Total, init.Total) {
		t.Errorf("attribution at the last epoch %v, at init %v", last.Total[:2], init.Total[:2])
	}
	if _, err := AttributionOfRun(dw, opt, "final", AttributionConfig{}, nil); err == nil || !strings.Contains(err.Error(), `"final"`) {
		t.Errorf("unknown parameters: %v", err)
	}
}
