package experiment

import (
	"fmt"
	"path/filepath"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// EvalSpec says which split a checkpoint is scored on and under which protocol. A run scores two
// ways: model selection on the validation split with the training geometry (context Window after
// BurnIn, horizons 1..K, ValOrigins origins per unit) and the reported number on the test split
// with the test geometry (EvalWindow after EvalBurnIn, horizons 1..HEval, EvalOrigins origins).
// Crossing the two separates a difference between splits from one between protocols: on ETT the
// splits are consecutive stretches of time, and the authors test with 16 context steps where
// they validate with 32.
type EvalSpec struct {
	Split    string // "test" ("" too) or "val"
	Protocol string // "test" ("" too) or "val"
	// H and Origins override the protocol's horizon and origins per unit (0: the protocol's).
	H, Origins int
}

// Splits and protocols an EvalSpec accepts.
const (
	SplitTest = "test"
	SplitVal  = "val"
)

// check refuses a split, protocol or override the spec does not know, naming it.
func (s EvalSpec) check() error {
	for _, f := range []struct{ name, v string }{{"Split", s.Split}, {"Protocol", s.Protocol}} {
		if f.v != "" && f.v != SplitTest && f.v != SplitVal {
			return fmt.Errorf("experiment: EvalSpec.%s %q: want %q or %q", f.name, f.v, SplitTest, SplitVal)
		}
	}
	if s.H < 0 || s.Origins < 0 {
		return fmt.Errorf("experiment: EvalSpec H = %d and Origins = %d must not be negative (0: the protocol's)", s.H, s.Origins)
	}
	return nil
}

// geometry returns the burn-in, context, horizon and origins a checked spec scores with.
// modelBurnIn is the burn-in training really used (the model's, after its defaults: a configured
// 0 runs as 32, the deviation in docs/profiles.md), so the validation protocol is the one that
// chose the best epoch.
func (s EvalSpec) geometry(cfg RunConfig, modelBurnIn int) (burnIn, window, H, origins int) {
	burnIn, window, H, origins = cfg.EvalBurnIn, cfg.EvalWindow, cfg.HEval, cfg.EvalOrigins
	if s.Protocol == SplitVal {
		burnIn, window, H, origins = modelBurnIn, cfg.Model.Window, cfg.Train.K, cfg.Fit.ValOrigins
	}
	if s.H > 0 {
		H = s.H
	}
	if s.Origins > 0 {
		origins = s.Origins
	}
	return burnIn, window, H, origins
}

// units returns a checked spec's split of ds.
func (s EvalSpec) units(ds *data.Dataset) []data.Series {
	if s.Split == SplitVal {
		return ds.Val
	}
	return ds.Test
}

// EvaluateRunSpec scores the best checkpoint of the run in dir as spec says. With the zero spec it
// is the run's test score; with Split and Protocol "val" it is the validation loss that chose the
// best epoch (Result.BestVal), recomputed.
func EvaluateRunSpec(dir string, spec EvalSpec, opt Options) (RunConfig, TestScore, error) {
	cfg, err := readRunConfig(filepath.Join(dir, ConfigFile))
	if err != nil {
		return RunConfig{}, TestScore{}, err
	}
	if err := spec.check(); err != nil {
		return cfg, TestScore{}, err // refused before any data is read
	}
	ds, f, err := loadBestFrom(dir, cfg, opt)
	if err != nil {
		return cfg, TestScore{}, err
	}
	burnIn, window, H, origins := spec.geometry(cfg, f.Spec().BurnIn)
	if err := ds.CheckHorizon(burnIn+window, H); err != nil {
		return cfg, TestScore{}, fmt.Errorf("experiment: H = %d: %w", H, err)
	}
	bk, err := opt.backend()
	if err != nil {
		return cfg, TestScore{}, err
	}
	p, err := train.NewPredictor(bk, f, cfg.Fit.EvalBatch)
	if err != nil {
		return cfg, TestScore{}, err
	}
	c := cfg
	c.EvalBurnIn, c.EvalWindow, c.HEval, c.EvalOrigins = burnIn, window, H, origins
	score, err := evaluateTest(p, spec.units(ds), c)
	return cfg, score, err
}
