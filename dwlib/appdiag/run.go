package appdiag

import (
	"fmt"
	"strings"

	"github.com/gomlx/compute"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/experiment"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/progress"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// Geometry is the rollout geometry a run trains with: its model's context window and unused
// leading steps, and its training horizon K.
func Geometry(cfg experiment.RunConfig) train.Geometry {
	return train.Geometry{Window: cfg.Model.Window, K: cfg.Train.K, BurnIn: cfg.Model.BurnIn}
}

// UtilityOfRun measures HeldOutUtility at the best checkpoint of the run cfg (under opt.RunsDir;
// it must have finished), on the run's training and test splits, in its training geometry and with
// its DetachContext (the authors use a Full BPTT checkpoint of seed 0).
func UtilityOfRun(cfg experiment.RunConfig, opt experiment.Options, ucfg UtilityConfig, rep progress.Reporter) (*UtilityResult, error) {
	ds, f, err := experiment.LoadBestModel(cfg, opt)
	if err != nil {
		return nil, err
	}
	bk, err := runBackend(opt)
	if err != nil {
		return nil, err
	}
	return HeldOutUtility(bk, Forecaster{F: f, DetachContext: cfg.Train.DetachContext}, ds.Train, ds.Test, Geometry(cfg), ucfg, rep)
}

// NoiseSplit says which units the authors' added-noise probe rolls out: the split and how many
// of its units (in order; 0: all).
type NoiseSplit struct {
	Split string // "train", "val" or "test"
	Units int
}

// DefaultNoiseSplit is the authors' choice per testbed: every test trajectory for the synthetic
// testbeds (their probe's data-preprocess mackey_glass_test / narma_test, batch 0 = all) and the
// first 32 training units for ETTm1/2 (train_state, batch 32).
func DefaultNoiseSplit(testbed string) NoiseSplit {
	if strings.HasPrefix(testbed, "ett") {
		return NoiseSplit{Split: "train", Units: 32}
	}
	return NoiseSplit{Split: "test"}
}

// Units returns the split's units of ds.
func (s NoiseSplit) units(ds *data.Dataset) ([]data.Series, error) {
	var u []data.Series
	switch s.Split {
	case "train":
		u = ds.Train
	case "val":
		u = ds.Val
	case "test":
		u = ds.Test
	default:
		return nil, fmt.Errorf("appdiag: split %q, want train, val or test", s.Split)
	}
	if s.Units > 0 && s.Units < len(u) {
		u = u[:s.Units]
	}
	return u, nil
}

// NoiseResponseOfRun measures GainResponse at the best checkpoint of the run cfg (the authors use
// the Internal-DW checkpoint of seed 0; only its forecasting parameters matter, the controller
// starts afresh) on the units of split, in the run's training geometry; cfg's sampler is used
// unless ncfg names one. The field prior (noise.SpectralName) is given the field's layout unless
// ncfg.SamplerConfig sets it.
func NoiseResponseOfRun(cfg experiment.RunConfig, opt experiment.Options, split NoiseSplit, ncfg NoiseConfig, rep progress.Reporter) (*NoiseResponse, error) {
	ds, f, err := experiment.LoadBestModel(cfg, opt)
	if err != nil {
		return nil, err
	}
	units, err := split.units(ds)
	if err != nil {
		return nil, err
	}
	bk, err := runBackend(opt)
	if err != nil {
		return nil, err
	}
	if ncfg.Sampler == "" {
		ncfg.Sampler = cfg.Train.Sampler
	}
	if ncfg.Sampler == noise.SpectralName && ncfg.SamplerConfig == nil {
		fs, ok := data.FieldShape(ds)
		if !ok {
			return nil, fmt.Errorf("appdiag: the %q sampler needs a field testbed; %s has no spatial layout", noise.SpectralName, cfg.Testbed)
		}
		ncfg.SamplerConfig = noise.SpectralConfig{Channels: fs.Channels, Height: fs.Height, Width: fs.Width}
	}
	return GainResponse(bk, f, units, Geometry(cfg), cfg.Train.DetachContext, ncfg, rep)
}

// Checkpoint says which of a run's forecasting parameters a diagnostic reads.
type Checkpoint string

const (
	AtBest Checkpoint = "best" // the minimum-validation checkpoint (best.ckpt; the run must have finished)
	AtInit Checkpoint = "init" // as the run's seed initialises them, before any step
	AtLast Checkpoint = "last" // the last finished epoch (last.ckpt), where the result's final controller state was measured
)

// loadAt returns the run's dataset, its model (of any kind) at the parameters at, and the backend.
func loadAt(cfg experiment.RunConfig, opt experiment.Options, at Checkpoint) (*data.Dataset, train.Model, compute.Backend, error) {
	load := map[Checkpoint]func(experiment.RunConfig, experiment.Options) (*data.Dataset, train.Model, error){
		AtBest: experiment.LoadBestModel, AtLast: experiment.LoadLastModel, AtInit: experiment.LoadInitModel}[at]
	if load == nil {
		return nil, nil, nil, fmt.Errorf("appdiag: checkpoint %q, want %q, %q or %q", at, AtBest, AtLast, AtInit)
	}
	ds, f, err := load(cfg, opt)
	if err != nil {
		return nil, nil, nil, err
	}
	bk, err := runBackend(opt)
	return ds, f, bk, err
}

// AttributionOfRun measures NoiseAttribution at the parameters at of the run cfg (under
// opt.RunsDir) on its training units, in its training geometry and with its DetachContext: where
// the generic sampler's noise moment comes from at the best checkpoint (AtBest), where training
// stopped (AtLast) or before it starts (AtInit).
func AttributionOfRun(cfg experiment.RunConfig, opt experiment.Options, at Checkpoint, acfg AttributionConfig, rep progress.Reporter) (*Attribution, error) {
	ds, f, bk, err := loadAt(cfg, opt, at)
	if err != nil {
		return nil, fmt.Errorf("appdiag: AttributionOfRun: %w", err)
	}
	return NoiseAttribution(bk, f, ds.Train, Geometry(cfg), cfg.Train.DetachContext, acfg, rep)
}

// ReplayOfRun runs ReplayController for `epochs` epochs at the parameters at of the DW run cfg, on
// its training units with its own training and fit configuration.
func ReplayOfRun(cfg experiment.RunConfig, opt experiment.Options, at Checkpoint, epochs int, seed uint64, rep progress.Reporter) (*Replay, error) {
	ds, f, bk, err := loadAt(cfg, opt, at)
	if err != nil {
		return nil, fmt.Errorf("appdiag: ReplayOfRun: %w", err)
	}
	return ReplayController(bk, f, ds.Train, Geometry(cfg), cfg.Train, cfg.Fit, epochs, seed, rep)
}

// runBackend returns opt.Backend, or the process-wide one.
func runBackend(opt experiment.Options) (compute.Backend, error) {
	if opt.Backend != nil {
		return opt.Backend, nil
	}
	return backend.Shared()
}
