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

// geometry returns the burn-in, context, horizon and origins the spec scores with. modelBurnIn is
// the burn-in training really used (the model's, after its defaults: a configured 0 runs as 32, the
// deviation in docs/profiles.md), so the validation protocol is the one that chose the best epoch.
func (s EvalSpec) geometry(cfg RunConfig, modelBurnIn int) (burnIn, window, H, origins int, err error) {
	switch s.Protocol {
	case "", SplitTest:
		burnIn, window, H, origins = cfg.EvalBurnIn, cfg.EvalWindow, cfg.HEval, cfg.EvalOrigins
	case SplitVal:
		burnIn, window, H, origins = modelBurnIn, cfg.Model.Window, cfg.Train.K, cfg.Fit.ValOrigins
	default:
		return 0, 0, 0, 0, fmt.Errorf("experiment: EvalSpec.Protocol %q: want %q or %q", s.Protocol, SplitTest, SplitVal)
	}
	if s.H < 0 || s.Origins < 0 {
		return 0, 0, 0, 0, fmt.Errorf("experiment: EvalSpec H = %d and Origins = %d must not be negative", s.H, s.Origins)
	}
	if s.H > 0 {
		H = s.H
	}
	if s.Origins > 0 {
		origins = s.Origins
	}
	return burnIn, window, H, origins, nil
}

// units returns the spec's split of ds.
func (s EvalSpec) units(ds *data.Dataset) ([]data.Series, error) {
	switch s.Split {
	case "", SplitTest:
		return ds.Test, nil
	case SplitVal:
		return ds.Val, nil
	}
	return nil, fmt.Errorf("experiment: EvalSpec.Split %q: want %q or %q", s.Split, SplitTest, SplitVal)
}

// EvaluateRunSpec scores the best checkpoint of the run in dir as spec says. With the zero spec it
// is the run's test score; with Split and Protocol "val" it is the validation loss that chose the
// best epoch (Result.BestVal), recomputed.
func EvaluateRunSpec(dir string, spec EvalSpec, opt Options) (RunConfig, TestScore, error) {
	cfg, err := readRunConfig(filepath.Join(dir, ConfigFile))
	if err != nil {
		return RunConfig{}, TestScore{}, err
	}
	if _, _, _, _, err := spec.geometry(cfg, 0); err != nil {
		return cfg, TestScore{}, err // bad input is refused before any data is read
	}
	ds, f, err := loadBestFrom(dir, cfg, opt)
	if err != nil {
		return cfg, TestScore{}, err
	}
	burnIn, window, H, origins, _ := spec.geometry(cfg, f.Spec().BurnIn)
	units, err := spec.units(ds)
	if err != nil {
		return cfg, TestScore{}, err
	}
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
	score, err := evaluateTest(p, units, c)
	return cfg, score, err
}
