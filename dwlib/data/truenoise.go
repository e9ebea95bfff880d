package data

import "fmt"

// TrueResidualCov returns the covariance of the "true" K-horizon noise of a
// synthetic stand-in with known structure (ieeg-synth, fmri-synth): the
// residual e_{o,1:K} of the oracle predictor that knows the generating
// model, the observed drive and the latent state at the last observed step,
// i.e. the innovations and observation noise propagated over K horizons.
// No predictor of x from its own past can do better, so this is the target
// a residual bank's second moments (prior.Bank.Covariance) are judged
// against: the paper's identifying assumption ("what the domain predictor
// cannot forecast out of fold is noise") made testable.
//
// The matrix is (K*D)×(K*D), row-major, in a prior bank's [k][d] layout
// (index k*D+d), in the model coordinates of ds: each coordinate divided by
// its training standard deviation ds.Norm.State.Std (the centring does not
// change a covariance). opt must be the options ds was loaded with. With
// Options.ScalarNorm the one pooled scale applies to every coordinate.
func TrueResidualCov(name string, opt Options, ds *Dataset, K int) ([]float64, error) {
	if ds == nil {
		return nil, fmt.Errorf("data: TrueResidualCov: no dataset")
	}
	var scale []float64
	if st := ds.Norm.State; !st.IsIdentity() {
		scale = make([]float64, ds.StateDim)
		for d := range scale {
			scale[d] = st.Std[min(d, len(st.Std)-1)]
		}
	}
	switch name {
	case "ieeg-synth":
		c, err := ieegConfig(name, opt)
		if err != nil {
			return nil, err
		}
		if c.Channels != ds.StateDim {
			return nil, fmt.Errorf("data: TrueResidualCov: options give %d channels, the dataset has %d", c.Channels, ds.StateDim)
		}
		return c.Model().TrueResidualCov(K, scale)
	case "fmri-synth":
		c, err := fmriConfig(name, opt)
		if err != nil {
			return nil, err
		}
		if c.Parcels != ds.StateDim {
			return nil, fmt.Errorf("data: TrueResidualCov: options give %d parcels, the dataset has %d", c.Parcels, ds.StateDim)
		}
		return c.Model().TrueResidualCov(K, scale)
	}
	return nil, fmt.Errorf("data: TrueResidualCov: %q has no known true noise (only ieeg-synth and fmri-synth)", name)
}
