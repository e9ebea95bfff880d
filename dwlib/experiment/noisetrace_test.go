package experiment

import (
	"math"
	"slices"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/train"
)

func TestNoiseTrace(t *testing.T) {
	r := &Result{Epochs: []train.EpochRecord{
		{Epoch: 1, TrainLoss: 2, ValLoss: 3}, // an old record: no trace
		{Epoch: 2, TrainLoss: 1, ValLoss: 1.5, Moments: &train.ProbeEnergy{Tot: 4, Noise: 2},
			Probes: []train.ProbeEnergy{{Tot: 2, Noise: 1}, {Tot: 1, Noise: 3}}},
		{Epoch: 3, Moments: &train.ProbeEnergy{}},
	}}
	got := NoiseTrace(r)
	if len(got) != 2 || got[0].Epoch != 2 || got[1].Epoch != 3 {
		t.Fatalf("epochs %+v, want 2 and 3", got)
	}
	e := got[0]
	if e.Committed != 0.5 || !slices.Equal(e.Calibrations, []float64{0.5, 3}) || e.MaxCalibration() != 3 ||
		!slices.Equal(e.Tot, []float64{2, 1}) || !slices.Equal(e.Noise, []float64{1, 3}) || e.TrainLoss != 1 || e.ValLoss != 1.5 {
		t.Errorf("epoch 2: %+v", e)
	}
	if !math.IsNaN(got[1].Committed) || !math.IsNaN(got[1].MaxCalibration()) {
		t.Errorf("epoch 3 before any calibration: committed %v, max %v; want NaN", got[1].Committed, got[1].MaxCalibration())
	}
	if NoiseTrace(&Result{Epochs: []train.EpochRecord{{Epoch: 1}}}) != nil {
		t.Error("a run without records has a trace")
	}
}

func TestGainTrace(t *testing.T) {
	r := &Result{Epochs: []train.EpochRecord{
		{Epoch: 1}, // Full, or before the first calibration: no gains
		{Epoch: 2, ValLoss: 0.5, Gains: []float64{1, 0, 0.5, 0.25}}, // (α, m) for two routes
		{Epoch: 3, Gains: []float64{0, 0, 0, 0}},
	}}
	got := GainTrace(r)
	want := []GainEpoch{{Epoch: 2, MeanAlpha: 0.75, MeanM: 0.125, Closed: 0.25, ValLoss: 0.5}, {Epoch: 3, Closed: 1}}
	if !slices.Equal(got, want) {
		t.Errorf("GainTrace = %+v, want %+v", got, want)
	}
	if GainTrace(&Result{Epochs: []train.EpochRecord{{Epoch: 1}}}) != nil {
		t.Error("a run without gains has a trace")
	}
}
