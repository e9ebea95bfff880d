package noise

import (
	"encoding/json"
	"math/rand/v2"
)

// Sampler is a noise sampler Q_d (App. D). Trajectory slices are flat and
// row-major with layout [n][K][D]: sample i, 0-based horizon k (the paper's
// k+1), coordinate d is at index (i*K+k)*D+d.
//
// A Sampler is not safe for concurrent use.
type Sampler interface {
	// Name is the registry name of the sampler, e.g. "generic".
	Name() string

	// Ready reports, for each 0-based horizon k < K, whether the committed state
	// can produce noise at k ("noise probes at a horizon begin only after its
	// template is initialized", App. D.1). The noise moments R_{k,l} of a
	// horizon that is not ready must not be updated.
	Ready(K int) []bool

	// Sample draws n noise trajectories laid out [n][K][D], using rng and only
	// the previously COMMITTED state. Horizons that are not ready are zero.
	// It fails if n, K or D are invalid, rng is nil, or D disagrees with the
	// dimension of the committed state.
	Sample(rng *rand.Rand, n, K, D int) ([]float64, error)

	// Stage records this minibatch's detached residuals e = x* - xhat, laid out
	// [n][K][D]. Several calls before a Commit are treated as parts of one
	// minibatch (in call order). Nothing visible changes until Commit. On error
	// the staged state is left unchanged.
	Stage(residuals []float64, n, K, D int) error

	// Commit makes the staged statistics current. It is called once per
	// minibatch after the task backward and the parameter update (Algorithm 1,
	// last line), on every minibatch whether or not it calibrates, and also
	// per minibatch when gradients are accumulated over several minibatches
	// before an optimizer step (App. D.1). It is a no-op when nothing is staged.
	Commit()

	// Discard drops the staged update, e.g. when a minibatch is skipped.
	Discard()

	// MarshalJSON / UnmarshalJSON serialise the whole state, configuration,
	// committed and staged statistics, so that it round-trips exactly (float64
	// bit-exact). UnmarshalJSON refuses corrupt input with an error and leaves
	// the receiver unchanged.
	json.Marshaler
	json.Unmarshaler
}

// Config is a sampler-specific configuration, such as [GenericConfig]. Its
// SamplerName must match the name given to [New].
type Config interface {
	SamplerName() string
}
