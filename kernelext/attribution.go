package kernelext

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/appdiag"
	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// AttributionOf measures appdiag.AttributionOfRun for the run cfg at parameters at, once: the
// result is kept in the run cache (Cached), keyed by the run, the parameters (for the best
// checkpoint its epoch and validation loss, for the last its epoch count and final training loss,
// so a retrained run is measured again) and acfg, so a notebook and `dw attribution` share it. At
// the best and last checkpoints it also returns the run's own logged noise share at the end of
// training (NaN at init, and for runs without a controller).
func AttributionOf(cfg experiment.RunConfig, at appdiag.Checkpoint, acfg appdiag.AttributionConfig, opt experiment.Options) (*appdiag.Attribution, float64, error) {
	type point struct {
		At        appdiag.Checkpoint
		BestEpoch int
		BestVal   float64
		LastEpoch int     `json:",omitempty"` // omitted at best and init, so their keys stay as they were
		LastLoss  float64 `json:",omitempty"`
	}
	key := struct {
		Run    experiment.RunConfig
		Point  point
		Config appdiag.AttributionConfig
	}{cfg, point{At: at}, acfg.Defaults()}
	logged := math.NaN()
	switch at {
	case appdiag.AtBest:
		r, ck, err := bestOf(cfg, opt)
		if err != nil {
			return nil, logged, err
		}
		key.Point.BestEpoch, key.Point.BestVal = ck.BestEpoch, ck.BestVal
		logged = r.NoiseShare()
	case appdiag.AtLast:
		r, _, err := experiment.ReadFinished(cfg, opt)
		if err != nil {
			return nil, logged, err
		}
		if r == nil {
			return nil, logged, &MissingRunError{Run: cfg.Name()}
		}
		key.Point.LastEpoch = len(r.Epochs)
		key.Point.LastLoss = r.Epochs[len(r.Epochs)-1].TrainLoss
		logged = r.NoiseShare()
	}
	a, err := Cached("appdiag-attribution", key, 0, func() (*appdiag.Attribution, error) {
		return appdiag.AttributionOfRun(cfg, opt, at, acfg, NewReporter())
	})
	return a, logged, err
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
