package experiment

import (
	"fmt"
	"slices"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/prior"
)

// withNoiseSampler returns cfg with the DW noise sampler attached when the sampler needs the
// data: "prior-ar" (DW-Prior for any series, dwlib/prior) gets a bank of cross-fitted ridge-AR
// residual trajectories built from the run's training split only, with the run's K and seed.
// Other samplers (noise.New builds them from their name) leave cfg as it is. The bank follows
// from the configuration, so it is not part of the run's JSON; a checkpoint stores it in the
// controller's sampler state.
//
// "spectral" (the field prior, noise.Spectral) gets its SpectralConfig from the dataset's field
// layout (data.FieldShape), which noise.New cannot see either.
func withNoiseSampler(cfg RunConfig, ds *data.Dataset) (RunConfig, error) {
	if cfg.Train.Method != "dw" {
		return cfg, nil
	}
	if cfg.Train.Sampler == noise.SpectralName {
		f, ok := data.FieldShape(ds)
		if !ok {
			return cfg, fmt.Errorf("experiment: %s: the %q sampler needs a field testbed (%s); %s has no spatial layout", cfg.Name(), noise.SpectralName, data.ShearName, cfg.Testbed)
		}
		s, err := noise.NewSpectral(noise.SpectralConfig{Channels: f.Channels, Height: f.Height, Width: f.Width})
		if err != nil {
			return cfg, fmt.Errorf("experiment: %s: %w", cfg.Name(), err)
		}
		cfg.Train.NoiseSampler = s
		return cfg, nil
	}
	if cfg.Train.Sampler != prior.ARName {
		return cfg, nil
	}
	s, _, err := prior.NewARSampler(ds.Train, cfg.Train.K, cfg.Train.Seed)
	if err != nil {
		return cfg, fmt.Errorf("experiment: %s: the %q sampler's bank from the training split: %w", cfg.Name(), prior.ARName, err)
	}
	cfg.Train.NoiseSampler = s
	return cfg, nil
}

// validateSampler refuses a DW noise sampler that cannot serve the testbed: the spectral field
// prior on a time series (it has no spatial layout), and on a field the DW-Prior banks (a ridge
// AR over the full state, not attempted on thousands of coordinates).
func (c RunConfig) validateSampler() error {
	field := data.IsField(c.Testbed) && c.Data.CSV == nil
	switch {
	case c.Train.Sampler == noise.SpectralName && !field:
		return fmt.Errorf("experiment: sampler %q needs a field testbed (%s), not %s; use generic there", noise.SpectralName, data.ShearName, c.Testbed)
	case field && c.Train.Method == "dw" && slices.Contains([]string{prior.Name, prior.ARName}, c.Train.Sampler):
		return fmt.Errorf("experiment: sampler %q is not offered on the field testbed %s (its bank fits a full-state AR); use %s or generic",
			c.Train.Sampler, c.Testbed, noise.SpectralName)
	}
	return nil
}
