package train

import (
	"math"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

func tinyModel(t *testing.T, kind string) *model.Forecaster {
	t.Helper()
	f, err := model.New(model.Config{Kind: kind, StateDim: 3, Hidden: 8, Layers: 2, SSMState: 4, Window: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestConfigValidation(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Method: "magic", K: 4}, `unknown method "magic"`},
		{Config{Method: "full", K: 0}, "Config.K = 0"},
		{Config{Method: "tbptt", K: 4, Segment: 9}, "Config.Segment = 9"},
		{Config{Method: "static", K: 4, StaticGain: 1.5}, "Config.StaticGain = 1.5"},
	} {
		err := tc.cfg.Defaults().Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want an error containing %q", tc.cfg, err, tc.want)
		}
	}
}

func TestEveryMethodTrains(t *testing.T) {
	batch := benchBatch(4, 3, 4, 3, 9)
	for _, method := range Methods {
		t.Run(method, func(t *testing.T) {
			cfg := Config{Method: method, K: 4, BatchSize: 4, LR: 3e-3, Segment: 2, Warmup: 1, Period: 2, Seed: 3}
			tr, err := NewTrainer(backend.MustShared(), tinyModel(t, "mamba"), cfg)
			if err != nil {
				t.Fatal(err)
			}
			first, last := 0.0, 0.0
			for i := range 12 {
				r, err := tr.Step(batch)
				if err != nil {
					t.Fatal(err)
				}
				if math.IsNaN(r.Loss) || math.IsNaN(r.GradNorm) {
					t.Fatalf("step %d: loss %v, grad norm %v", i, r.Loss, r.GradNorm)
				}
				if i == 0 {
					first = r.Loss
				}
				last = r.Loss
			}
			if !(last < first) {
				t.Errorf("%s: loss did not decrease on a fixed batch: %v -> %v", method, first, last)
			}
		})
	}
}

// TestDWFollowsAlgorithm1 checks the update order: the calibration step's task update uses the
// gains committed before it, and the gains it stages become visible only at the next step.
func TestDWFollowsAlgorithm1(t *testing.T) {
	batch := benchBatch(4, 3, 4, 3, 11)
	tr, err := NewTrainer(backend.MustShared(), tinyModel(t, "mlp"), Config{Method: "dw", K: 4, BatchSize: 4, Warmup: 2, Period: 1, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	ctrl := tr.Controller()
	for step := range 6 {
		before := append([]float64(nil), tr.Gains()...)
		r, err := tr.Step(batch)
		if err != nil {
			t.Fatal(err)
		}
		if want := step >= 2; r.Calibration != want {
			t.Fatalf("step %d: calibration = %v, want %v (W=2, C=1)", step, r.Calibration, want)
		}
		if step < 2 {
			for _, g := range before {
				if g != 1 {
					t.Fatalf("step %d: warm-up gain %v, want 1", step, g)
				}
			}
		}
		if r.Calibration {
			route := ctrl.Route(0, 0)
			if route.TotProbes == 0 {
				t.Fatalf("step %d: no probe counted", step)
			}
			w, _ := wiener.Solve(route.T, route.R)
			if got := ctrl.Gains()[:2]; got[0] != w[0] || got[1] != w[1] {
				t.Errorf("step %d: committed gains %v, wiener.Solve of the committed moments %v", step, got, w)
			}
		}
	}
	if ctrl.Calibrations() != 4 {
		t.Errorf("calibrations = %d, want 4", ctrl.Calibrations())
	}
}
