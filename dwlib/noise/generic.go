package noise

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// GenericName is the registry name of DW-Generic.
const GenericName = "generic"

// DefaultGenericBeta is the residual-moment EMA coefficient beta of App. D.1
// (".99" in the training-settings table).
const DefaultGenericBeta = 0.99

func init() {
	Register(GenericName, func(cfg Config) (Sampler, error) {
		if cfg == nil {
			return NewGeneric(GenericConfig{})
		}
		switch c := cfg.(type) {
		case GenericConfig:
			return NewGeneric(c)
		case *GenericConfig:
			return NewGeneric(*c)
		}
		return nil, fmt.Errorf("noise: generic sampler needs a GenericConfig, got %T", cfg)
	})
}

// GenericConfig configures [Generic].
type GenericConfig struct {
	// Beta is the EMA coefficient of the per-horizon residual mean, 0 < Beta < 1.
	// Zero selects DefaultGenericBeta (0.99).
	Beta float64
}

// SamplerName implements [Config].
func (GenericConfig) SamplerName() string { return GenericName }

// Generic is DW-Generic (App. D.1, eq. generic-noise-sampler): the noise is a
// centered, lagged training-residual trajectory with one random sign,
//
//	eps_{i,k} = xi_i (check e_{n-1,k} - mu_{n-1,k}),   xi_i = ±1 w.p. 1/2,
//
// where the template check e_{n,k} is the residual of the FIRST sample of
// minibatch n at horizon k and mu_{n,k} is an EMA over all of minibatch n's
// residuals at horizon k,
//
//	mu_{n,k} = beta mu_{n-1,k} + (1-beta)/|B_n| sum_{j in B_n} e_{j,k},
//
// initialised by the first observed minibatch mean of each horizon (not zero).
// One sign is shared across coordinates and horizons of a sample, which keeps
// the joint error pattern of the template and makes the draws zero mean.
//
// Only one residual vector per horizon is stored (H_max x D entries), plus
// the staged replacement while an update is pending.
type Generic struct {
	beta   float64
	cur    genericCommitted
	staged *genericStaged // nil when nothing is staged
}

// genericCommitted is the state probes sample from.
type genericCommitted struct {
	dim      int         // D; 0 until the first commit
	template [][]float64 // [H][D] residual of sample 0, per horizon
	mean     [][]float64 // [H][D] EMA mean mu
	count    []int       // [H] minibatches that updated each horizon
}

// genericStaged accumulates the current minibatch until Commit.
type genericStaged struct {
	dim      int
	template [][]float64 // [Hs][D] residual of the first staged sample
	sum      [][]float64 // [Hs][D] sum of residuals
	n        []int       // [Hs] residuals summed, |B_n| > 0 (Stage covers 0..K-1)
}

// NewGeneric returns an empty DW-Generic sampler; no horizon is ready until
// the first Commit after a Stage.
func NewGeneric(cfg GenericConfig) (*Generic, error) {
	beta := cfg.Beta
	if beta == 0 {
		beta = DefaultGenericBeta
	}
	if !(beta > 0 && beta < 1) {
		return nil, fmt.Errorf("noise: GenericConfig.Beta = %v, must be in (0, 1)", cfg.Beta)
	}
	return &Generic{beta: beta}, nil
}

// Name implements [Sampler].
func (g *Generic) Name() string { return GenericName }

// Beta returns the residual-mean EMA coefficient.
func (g *Generic) Beta() float64 { return g.beta }

// Dim returns the coordinate dimension D of the committed state (0 if none).
func (g *Generic) Dim() int { return g.cur.dim }

// Horizons returns the number of committed horizons H; horizons k < H are ready.
func (g *Generic) Horizons() int { return len(g.cur.template) }

// Template returns a copy of the committed template at horizon k, or nil.
func (g *Generic) Template(k int) []float64 {
	if k < 0 || k >= len(g.cur.template) {
		return nil
	}
	return slices.Clone(g.cur.template[k])
}

// Mean returns a copy of the committed EMA mean at horizon k, or nil.
func (g *Generic) Mean(k int) []float64 {
	if k < 0 || k >= len(g.cur.mean) {
		return nil
	}
	return slices.Clone(g.cur.mean[k])
}

// Count returns how many committed minibatches updated horizon k.
func (g *Generic) Count(k int) int {
	if k < 0 || k >= len(g.cur.count) {
		return 0
	}
	return g.cur.count[k]
}

// Staged reports whether an update is pending.
func (g *Generic) Staged() bool { return g.staged != nil }

// Ready implements [Sampler]: horizon k is ready once a template is committed.
func (g *Generic) Ready(K int) []bool {
	if K < 0 {
		K = 0
	}
	r := make([]bool, K)
	for k := range min(K, len(g.cur.template)) {
		r[k] = true
	}
	return r
}

// checkSample validates Sample's arguments against a committed dimension (0: none yet).
func checkSample(rng *rand.Rand, n, K, D, dim int) error {
	if rng == nil {
		return errors.New("noise: Sample: nil rng")
	}
	if err := checkLayout("Sample", n*K*D, n, K, D); err != nil {
		return err
	}
	if dim != 0 && D != dim {
		return fmt.Errorf("noise: Sample: D=%d differs from the committed dimension %d", D, dim)
	}
	return nil
}

// checkStage validates Stage's residuals against the committed and staged dimensions (0: none).
func checkStage(residuals []float64, n, K, D, dim, stagedDim int) error {
	if err := checkLayout("Stage residuals", len(residuals), n, K, D); err != nil {
		return err
	}
	if dim != 0 && D != dim {
		return fmt.Errorf("noise: Stage: D=%d differs from the committed dimension %d", D, dim)
	}
	if stagedDim != 0 && D != stagedDim {
		return fmt.Errorf("noise: Stage: D=%d differs from the staged dimension %d", D, stagedDim)
	}
	return checkFinite("residual", residuals, K, D)
}

// checkFinite returns an error naming the first non-finite entry of a [n][K][D]
// slice.
func checkFinite(what string, x []float64, K, D int) error {
	for idx, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			i, rem := idx/(K*D), idx%(K*D)
			return fmt.Errorf("noise: %s is %v at minibatch sample %d, horizon %d, coordinate %d",
				what, v, i, rem/D, rem%D)
		}
	}
	return nil
}

// checkLayout validates the [n][K][D] layout of a flat slice.
func checkLayout(what string, length, n, K, D int) error {
	if n <= 0 || K <= 0 || D <= 0 {
		return fmt.Errorf("noise: %s: n, K, D must be positive, got n=%d K=%d D=%d", what, n, K, D)
	}
	if n > math.MaxInt/K/D {
		return fmt.Errorf("noise: %s: n*K*D overflows (n=%d K=%d D=%d)", what, n, K, D)
	}
	if length != n*K*D {
		return fmt.Errorf("noise: %s: length %d != n*K*D = %d*%d*%d = %d", what, length, n, K, D, n*K*D)
	}
	return nil
}
