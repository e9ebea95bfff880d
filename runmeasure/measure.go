package runmeasure

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/appdiag"
	"github.com/internal-dw/dwgo/dwlib/experiment"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/progress"
	"github.com/internal-dw/dwgo/kernelext/runcache"
)

// checkpointKey identifies a run's best parameters in the cache keys of UtilityOfIn and
// NoiseResponseOfIn: a retrained run (another best epoch or validation loss) is measured again.
// Its fields and their order are the ones notebook 05 keys its cells with, so the notebook and
// `dw diagnose` share one cache entry per run.
type checkpointKey struct {
	Run       experiment.RunConfig
	BestEpoch int
	BestVal   float64
}

// MissingRunError says that a measurement at a run's best checkpoint cannot be made on this
// machine: the run has not finished, or it finished elsewhere (an archived result keeps no
// parameters). Training the run removes it.
type MissingRunError struct {
	Run      string // the run's name, profile/testbed/method-K-seed
	Finished bool   // finished, but its best checkpoint is not under the runs directory
}

func (e *MissingRunError) Error() string {
	if e.Finished {
		return fmt.Sprintf("run %s finished elsewhere: its best checkpoint is not under the runs directory (an archived result keeps no parameters)", e.Run)
	}
	return fmt.Sprintf("run %s has not finished", e.Run)
}

// bestOf returns the finished run cfg and the key of its best checkpoint, or a *MissingRunError
// when the checkpoint is not on this machine.
func bestOf(cfg experiment.RunConfig, opt experiment.Options) (*experiment.Result, checkpointKey, error) {
	r, _, err := experiment.ReadFinished(cfg, opt)
	if err != nil {
		return nil, checkpointKey{}, err
	}
	if r == nil {
		return nil, checkpointKey{}, &MissingRunError{Run: cfg.Name()}
	}
	has, err := opt.HasBest(cfg)
	if err != nil {
		return nil, checkpointKey{}, err
	}
	if !has {
		return nil, checkpointKey{}, &MissingRunError{Run: cfg.Name(), Finished: true}
	}
	return r, checkpointKey{cfg, r.BestEpoch, r.BestVal}, nil
}

// cached is runcache.Get's value.
func cached[T any](c *runcache.Cache, name string, config any, compute func() (T, error)) (T, error) {
	v, _, err := runcache.Get(c, name, config, 0, compute)
	return v, err
}

// AttributionOf measures appdiag.AttributionOfRun for the run cfg at parameters at, once, in the
// cache c: keyed by the run, the parameters (for the best checkpoint its epoch and validation
// loss, for the last its epoch count and final training loss, so a retrained run is measured
// again) and acfg. At the best and last checkpoints it also returns the run's own logged noise
// share at the end of training (NaN at init, and for runs without a controller). rep shows the
// measurement's progress.
func AttributionOf(c *runcache.Cache, cfg experiment.RunConfig, at appdiag.Checkpoint, acfg appdiag.AttributionConfig, opt experiment.Options, rep progress.Reporter) (*appdiag.Attribution, float64, error) {
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
	a, err := cached(c, "appdiag-attribution", key, func() (*appdiag.Attribution, error) {
		return appdiag.AttributionOfRun(cfg, opt, at, acfg, rep)
	})
	return a, logged, err
}

// UtilityOfIn measures appdiag.UtilityOfRun (A(k) and U(k), the held-out gradient utility) at the
// best checkpoint of the finished run cfg (a *MissingRunError when it is not on this machine),
// once, in the cache c under the run, its best epoch and validation loss, and ucfg with its
// defaults filled. It returns the run's result too.
func UtilityOfIn(c *runcache.Cache, cfg experiment.RunConfig, ucfg appdiag.UtilityConfig, opt experiment.Options, rep progress.Reporter) (*appdiag.UtilityResult, *experiment.Result, error) {
	res, ck, err := bestOf(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	ucfg = ucfg.Defaults()
	u, err := cached(c, "appdiag-utility", struct {
		Checkpoint checkpointKey
		Config     appdiag.UtilityConfig
	}{ck, ucfg}, func() (*appdiag.UtilityResult, error) {
		return appdiag.UtilityOfRun(cfg, opt, ucfg, rep)
	})
	return u, res, err
}

// NoiseResponseOfIn measures appdiag.NoiseResponseOfRun (the gains' response to added noise, with
// the forecasting parameters frozen) at the best checkpoint of the finished run cfg on the units
// of split, once, in the cache c under the run's best checkpoint, split and ncfg with its defaults
// filled. It returns the run's result too.
func NoiseResponseOfIn(c *runcache.Cache, cfg experiment.RunConfig, split appdiag.NoiseSplit, ncfg appdiag.NoiseConfig, opt experiment.Options, rep progress.Reporter) (*appdiag.NoiseResponse, *experiment.Result, error) {
	res, ck, err := bestOf(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	if ncfg.Sampler == "" && cfg.Train.Sampler == noise.SpectralName {
		// A field run's DW calibrates with the field prior, not DW-Generic (the default); the
		// prior's layout is the run's data's, so the key need not name it.
		ncfg.Sampler = noise.SpectralName
	}
	ncfg = ncfg.Defaults()
	if err := ncfg.Validate(); err != nil {
		return nil, nil, err
	}
	r, err := cached(c, "appdiag-noise", struct {
		Checkpoint checkpointKey
		Split      appdiag.NoiseSplit
		Config     appdiag.NoiseConfig
	}{ck, split, ncfg}, func() (*appdiag.NoiseResponse, error) {
		return appdiag.NoiseResponseOfRun(cfg, opt, split, ncfg, rep)
	})
	return r, res, err
}
