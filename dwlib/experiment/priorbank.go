package experiment

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/prior"
)

// PriorBank rebuilds the DW-Prior bank of a run (method "dw" with a prior sampler: prior-ar,
// prior-factor or prior-subject) exactly as Run builds it, from the run's training split with its
// K, seed and grid, and returns it with the record of its selection and the dataset. Nothing is
// trained or written: it is how a notebook holds the noise a run injected against the model's
// residuals or, on a stand-in, against the true noise (TrueNoise).
func PriorBank(cfg RunConfig, opt Options) (*prior.Bank, *PriorRecord, *data.Dataset, error) {
	ds, err := LoadData(cfg, opt)
	if err != nil {
		return nil, nil, nil, err
	}
	if cfg.Train.Method != "dw" || !prior.IsName(cfg.Train.Sampler) {
		return nil, nil, nil, fmt.Errorf("experiment: PriorBank: %s is not a DW-Prior run (method %q, sampler %q)", cfg.Name(), cfg.Train.Method, cfg.Train.Sampler)
	}
	withBank, rec, err := withNoiseSampler(cfg, ds)
	if err != nil {
		return nil, nil, nil, err
	}
	s, ok := withBank.Train.NoiseSampler.(*prior.Sampler)
	if !ok || rec == nil {
		return nil, nil, nil, fmt.Errorf("experiment: PriorBank: %s: sampler %q builds no bank", cfg.Name(), cfg.Train.Sampler)
	}
	return s.Bank(), rec, ds, nil
}

// TrueNoise returns the covariance of the true K-horizon noise of a run's stand-in testbed
// (ieeg-synth, fmri-synth: data.TrueResidualCov) in the model coordinates of ds, the dataset the
// run loads (LoadData or PriorBank). Testbeds without a known generating model are an error.
func TrueNoise(cfg RunConfig, ds *data.Dataset) ([]float64, error) {
	return data.TrueResidualCov(cfg.Testbed, cfg.dataOptions(), ds, cfg.Train.K)
}
