package train

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// poison sets every value of the forecaster's first parameter to NaN.
func poison(t *testing.T, f Model) {
	t.Helper()
	vs, err := saveVars(f.Store(), ModelScope)
	if err != nil {
		t.Fatal(err)
	}
	for i := range vs[0].F32 {
		vs[0].F32[i] = float32(math.NaN())
	}
	for i := range vs[0].F64 {
		vs[0].F64[i] = math.NaN()
	}
	if err := loadVars(f.Store(), vs[:1], false); err != nil {
		t.Fatal(err)
	}
}

// TestDivergenceIsNamed: in every method a NaN loss stops training with the epoch, the quantity
// and the learning rate named, and nothing counted for the epoch.
func TestDivergenceIsNamed(t *testing.T) {
	for _, method := range Methods {
		t.Run(method, func(t *testing.T) {
			f, err := model.New(fitModel)
			if err != nil {
				t.Fatal(err)
			}
			tc := fitTrain
			tc.Method, tc.Segment = method, 2
			s, err := NewSession(backend.MustShared(), f, tc, fitFit, waveUnits(3, 30, 1), waveUnits(2, 30, 2), "wave")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.RunEpoch(nil); err != nil {
				t.Fatal(err)
			}
			poison(t, s.f)
			err = s.Fit(nil, nil)
			var de *DivergedError
			if !errors.As(err, &de) || !errors.Is(err, ErrDiverged) {
				t.Fatalf("Fit after a NaN parameter: %v, want a *DivergedError", err)
			}
			for _, want := range []string{"diverged at epoch 2 (loss = NaN", "try a smaller learning rate than lr = 0.003"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			if s.Epoch() != 1 || len(s.History()) != 1 {
				t.Errorf("the diverged epoch was counted: epoch %d, %d records", s.Epoch(), len(s.History()))
			}
		})
	}
}

// TestDWDivergenceAtCalibration: a loss that turns NaN on a DW calibration microbatch is reported
// as the divergence it is, not as the controller's refusal of NaN probe moments.
func TestDWDivergenceAtCalibration(t *testing.T) {
	batch := benchBatch(4, 3, 4, 3, 11)
	f := tinyModel(t, "mlp")
	tr, err := NewTrainer(backend.MustShared(), f, Config{Method: "dw", K: 4, BatchSize: 4, LR: 1e-3, Warmup: 1, Period: 1, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := tr.Step(batch); err != nil || r.Calibration {
		t.Fatalf("warm-up step: calibration %v, %v", r.Calibration, err)
	}
	poison(t, f)
	if !tr.Controller().IsCalibration() {
		t.Fatal("the second minibatch is not a calibration minibatch")
	}
	_, err = tr.Step(batch)
	var de *DivergedError
	if !errors.As(err, &de) || de.Quantity != "loss" || !strings.Contains(err.Error(), "(loss = NaN in microbatch 2)") {
		t.Fatalf("NaN loss on a calibration microbatch: %v", err)
	}
	if strings.Contains(err.Error(), "calib") {
		t.Errorf("the error speaks of calibration: %v", err)
	}
}

// TestNaNValidationStops: a NaN validation forecast stops training at once (it could never become the
// best, and the run could not report one) instead of training on.
func TestNaNValidationStops(t *testing.T) {
	f, err := model.New(fitModel)
	if err != nil {
		t.Fatal(err)
	}
	val := waveUnits(2, 30, 2)
	// A validation unit beyond float32's range: the (float32) forecasts overflow to NaN, as those
	// of a model that diverges do, while the training loss stays finite.
	for _, row := range val[1].X {
		row[0] = 1e39
	}
	s, err := NewSession(backend.MustShared(), f, Config{Method: "full", K: 4, BatchSize: 4, LR: 3e-3, Seed: 1}, fitFit, waveUnits(3, 30, 1), val, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Fit(nil, nil)
	if !errors.Is(err, ErrDiverged) || !strings.Contains(err.Error(), "diverged at epoch 1 (validation forecast = NaN)") {
		t.Fatalf("Fit with a NaN validation loss: %v", err)
	}
	if s.Epoch() != 0 {
		t.Errorf("epoch %d counted after a NaN validation loss", s.Epoch())
	}
}

// TestFitContextStops: a cancelled context stops training between minibatches, with the cause,
// and the half-done epoch is not counted.
func TestFitContextStops(t *testing.T) {
	s := newFitSession(t, "dw", "wave")
	ctx, cancel := context.WithCancel(context.Background())
	err := s.FitContext(ctx, nil, func(rec EpochRecord) error {
		if rec.Epoch == 1 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "epoch 2 stopped after 0 minibatches") {
		t.Fatalf("FitContext cancelled after epoch 1: %v", err)
	}
	if s.Epoch() != 1 {
		t.Errorf("epoch %d after stopping in epoch 2", s.Epoch())
	}
}
