package experiment

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/prior"
)

// withNoiseSampler returns cfg with the DW noise sampler attached when the sampler needs the
// data: "prior-ar" (DW-Prior for any series, dwlib/prior) gets a bank of cross-fitted ridge-AR
// residual trajectories built from the run's training split only, with the run's K and seed.
// Other samplers (noise.New builds them from their name) leave cfg as it is. The bank follows
// from the configuration, so it is not part of the run's JSON; a checkpoint stores it in the
// controller's sampler state.
func withNoiseSampler(cfg RunConfig, ds *data.Dataset) (RunConfig, error) {
	if cfg.Train.Method != "dw" || cfg.Train.Sampler != prior.ARName {
		return cfg, nil
	}
	s, _, err := prior.NewARSampler(ds.Train, cfg.Train.K, cfg.Train.Seed)
	if err != nil {
		return cfg, fmt.Errorf("experiment: %s: the %q sampler's bank from the training split: %w", cfg.Name(), prior.ARName, err)
	}
	cfg.Train.NoiseSampler = s
	return cfg, nil
}
