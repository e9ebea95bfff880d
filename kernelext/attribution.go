package kernelext

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/appdiag"
	"github.com/internal-dw/dwgo/dwlib/experiment"
	"github.com/internal-dw/dwgo/kernelext/runcache"
	"github.com/internal-dw/dwgo/runmeasure"
)

// AttributionOf measures appdiag.AttributionOfRun for the run cfg at parameters at, once: the
// result is kept in the run cache (runcache.Default), keyed by the run, the parameters (for the
// best checkpoint its epoch and validation loss, for the last its epoch count and final training
// loss, so a retrained run is measured again) and acfg, so a notebook and `dw attribution` share
// it. At the best and last checkpoints it also returns the run's own logged noise share at the end
// of training (NaN at init, and for runs without a controller). It is runmeasure.AttributionOf
// with this package's progress display.
func AttributionOf(cfg experiment.RunConfig, at appdiag.Checkpoint, acfg appdiag.AttributionConfig, opt experiment.Options) (*appdiag.Attribution, float64, error) {
	c, err := runcache.Default()
	if err != nil {
		return nil, math.NaN(), err
	}
	return runmeasure.AttributionOf(c, cfg, at, acfg, opt, NewReporter())
}

// ReplayOf runs appdiag.ReplayOfRun for the DW run cfg at parameters at, once (kept in the run
// cache like AttributionOf, keyed by the run, the parameters, epochs and seed).
func ReplayOf(cfg experiment.RunConfig, at appdiag.Checkpoint, epochs int, seed uint64, opt experiment.Options) (*appdiag.Replay, error) {
	key := struct {
		Run       experiment.RunConfig
		At        appdiag.Checkpoint
		Epochs    int
		Seed      uint64
		Epoch     int     `json:",omitempty"`
		Val, Loss float64 `json:",omitempty"`
	}{Run: cfg, At: at, Epochs: epochs, Seed: seed}
	if at != appdiag.AtInit {
		r, _, err := experiment.ReadFinished(cfg, opt)
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, fmt.Errorf("run %s has not finished", cfg.Name())
		}
		key.Epoch, key.Val, key.Loss = len(r.Epochs), r.BestVal, r.Epochs[len(r.Epochs)-1].TrainLoss
	}
	return Cached("appdiag-replay", key, 0, func() (*appdiag.Replay, error) {
		return appdiag.ReplayOfRun(cfg, opt, at, epochs, seed, NewReporter())
	})
}
