package kernelext

import (
	"github.com/internal-dw/dwgo/dwlib/appdiag"
	"github.com/internal-dw/dwgo/dwlib/experiment"
	"github.com/internal-dw/dwgo/kernelext/runcache"
	"github.com/internal-dw/dwgo/runmeasure"
)

// MissingRunError says that a measurement at a run's best checkpoint cannot be made on this
// machine: the run has not finished, or it finished elsewhere (an archived result keeps no
// parameters). Training the run removes it. (runmeasure's, which the command line shares.)
type MissingRunError = runmeasure.MissingRunError

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

// UtilityOfIn is UtilityOf with its measurement kept in the cache c (runmeasure.UtilityOfIn with
// this package's progress display).
func UtilityOfIn(c *runcache.Cache, cfg experiment.RunConfig, ucfg appdiag.UtilityConfig, opt experiment.Options) (*appdiag.UtilityResult, *experiment.Result, error) {
	return runmeasure.UtilityOfIn(c, cfg, ucfg, opt, NewReporter())
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

// NoiseResponseOfIn is NoiseResponseOf with its measurement kept in the cache c
// (runmeasure.NoiseResponseOfIn with this package's progress display).
func NoiseResponseOfIn(c *runcache.Cache, cfg experiment.RunConfig, split appdiag.NoiseSplit, ncfg appdiag.NoiseConfig, opt experiment.Options) (*appdiag.NoiseResponse, *experiment.Result, error) {
	return runmeasure.NoiseResponseOfIn(c, cfg, split, ncfg, opt, NewReporter())
}
