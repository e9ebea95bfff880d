package kernelext

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/appdiag"
	"github.com/internal-dw/dwgo/dwlib/experiment"
	"github.com/internal-dw/dwgo/kernelext/runcache"
)

// checkpointKey identifies a run's best parameters in the cache keys of UtilityOf and
// NoiseResponseOf: a retrained run (another best epoch or validation loss) is measured again. Its
// fields and their order are the ones notebook 05 keys its cells with, so the notebook and
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

// UtilityOf measures appdiag.UtilityOfRun (A(k) and U(k), the held-out gradient utility) at the
// best checkpoint of the finished run cfg (a *MissingRunError when it is not on this machine),
// once: the result is kept in the run cache (Cached)
// under the run, its best epoch and validation loss, and ucfg with its defaults filled. It
// returns the run's result too.
func UtilityOf(cfg experiment.RunConfig, ucfg appdiag.UtilityConfig, opt experiment.Options) (*appdiag.UtilityResult, *experiment.Result, error) {
	c, err := runcache.Default()
	if err != nil {
		return nil, nil, err
	}
	return UtilityOfIn(c, cfg, ucfg, opt)
}

// UtilityOfIn is UtilityOf with its measurement kept in the cache c.
func UtilityOfIn(c *runcache.Cache, cfg experiment.RunConfig, ucfg appdiag.UtilityConfig, opt experiment.Options) (*appdiag.UtilityResult, *experiment.Result, error) {
	res, ck, err := bestOf(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	ucfg = ucfg.Defaults()
	u, err := CachedIn(c, "appdiag-utility", struct {
		Checkpoint checkpointKey
		Config     appdiag.UtilityConfig
	}{ck, ucfg}, 0, func() (*appdiag.UtilityResult, error) {
		return appdiag.UtilityOfRun(cfg, opt, ucfg, NewReporter())
	})
	return u, res, err
}

// NoiseResponseOf measures appdiag.NoiseResponseOfRun (the gains' response to added noise, with
// the forecasting parameters frozen) at the best checkpoint of the finished run cfg on the units
// of split, once, cached like UtilityOf under the run's best checkpoint, split and ncfg with its
// defaults filled. It returns the run's result too.
func NoiseResponseOf(cfg experiment.RunConfig, split appdiag.NoiseSplit, ncfg appdiag.NoiseConfig, opt experiment.Options) (*appdiag.NoiseResponse, *experiment.Result, error) {
	c, err := runcache.Default()
	if err != nil {
		return nil, nil, err
	}
	return NoiseResponseOfIn(c, cfg, split, ncfg, opt)
}

// NoiseResponseOfIn is NoiseResponseOf with its measurement kept in the cache c.
func NoiseResponseOfIn(c *runcache.Cache, cfg experiment.RunConfig, split appdiag.NoiseSplit, ncfg appdiag.NoiseConfig, opt experiment.Options) (*appdiag.NoiseResponse, *experiment.Result, error) {
	res, ck, err := bestOf(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	ncfg = ncfg.Defaults()
	if err := ncfg.Validate(); err != nil {
		return nil, nil, err
	}
	r, err := CachedIn(c, "appdiag-noise", struct {
		Checkpoint checkpointKey
		Split      appdiag.NoiseSplit
		Config     appdiag.NoiseConfig
	}{ck, split, ncfg}, 0, func() (*appdiag.NoiseResponse, error) {
		return appdiag.NoiseResponseOfRun(cfg, opt, split, ncfg, NewReporter())
	})
	return r, res, err
}
