package experiment

import (
	"math"
	"strings"
	"testing"
)

// TestEvaluateRunSpec: the zero spec is the run's test score, the validation split under the
// validation protocol is the loss that chose its best epoch, and the crossed specs score with
// the geometry they name.
func TestEvaluateRunSpec(t *testing.T) {
	opt := quickOptions(t)
	cfg := quickCfg(t, "dw", 0)
	cfg.EvalWindow = cfg.Model.Window / 2 // the protocols differ in context, as the authors' do
	cfg.Model.BurnIn = 0                  // runs as 32 (docs/profiles.md): validation must use what ran
	r, err := Run(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := opt.Dir(cfg)
	score := func(spec EvalSpec) TestScore {
		t.Helper()
		_, s, err := EvaluateRunSpec(dir, spec, opt)
		if err != nil {
			t.Fatalf("%+v: %v", spec, err)
		}
		return s
	}
	if s := score(EvalSpec{}); s.RelL2 != r.Test.RelL2 || s.Origins != r.Test.Origins {
		t.Errorf("zero spec: %v over %d origins, the run's test score %v over %d", s.RelL2, s.Origins, r.Test.RelL2, r.Test.Origins)
	}
	if s := score(EvalSpec{Split: SplitVal, Protocol: SplitVal}); math.Abs(s.RelL2-r.BestVal) > 1e-12*r.BestVal {
		t.Errorf("validation split and protocol: %v, the run's best validation loss %v", s.RelL2, r.BestVal)
	}
	for _, tc := range []struct {
		spec             EvalSpec
		horizons, origin int // per-horizon length and origins per unit at most
	}{
		{EvalSpec{Split: SplitTest, Protocol: SplitVal}, cfg.Train.K, cfg.Fit.ValOrigins},
		{EvalSpec{Split: SplitVal, Protocol: SplitTest}, cfg.HEval, cfg.EvalOrigins},
		{EvalSpec{Split: SplitVal, H: 3, Origins: 2}, 3, 2},
	} {
		s := score(tc.spec)
		if len(s.PerHorizon) != tc.horizons || s.Origins > tc.origin*s.Units || s.Origins == 0 || math.IsNaN(s.RelL2) {
			t.Errorf("%+v: %d horizons, %d origins on %d units; want %d horizons, at most %d origins per unit",
				tc.spec, len(s.PerHorizon), s.Origins, s.Units, tc.horizons, tc.origin)
		}
	}
	for _, tc := range []struct {
		spec EvalSpec
		want string
	}{
		{EvalSpec{Split: "train"}, `Split "train"`},
		{EvalSpec{Protocol: "dense"}, `Protocol "dense"`},
		{EvalSpec{H: -1}, "H = -1"},
		{EvalSpec{H: 100000}, "H = 100000"},
	} {
		if _, _, err := EvaluateRunSpec(dir, tc.spec, opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error naming %s", tc.spec, err, tc.want)
		}
	}
}
