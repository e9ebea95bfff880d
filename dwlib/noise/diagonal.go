package noise

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// DiagonalName is the registry name of the diagonal-Gaussian sampler.
const DiagonalName = "diagonal-gaussian"

// DefaultDiagonalFloor is the relative variance floor of [Diagonal]: a numerical guard, not a
// noise prior (the released code's 1e-8 of the mean second moment).
const DefaultDiagonalFloor = 1e-8

func init() {
	Register(DiagonalName, func(cfg Config) (Sampler, error) {
		if cfg == nil {
			return NewDiagonal(DiagonalConfig{})
		}
		switch c := cfg.(type) {
		case DiagonalConfig:
			return NewDiagonal(c)
		case *DiagonalConfig:
			return NewDiagonal(*c)
		}
		return nil, fmt.Errorf("noise: diagonal-gaussian sampler needs a DiagonalConfig, got %T", cfg)
	})
}

// DiagonalConfig configures [Diagonal].
type DiagonalConfig struct {
	// Beta is the EMA coefficient of the per-horizon residual moments, 0 < Beta < 1.
	// Zero selects DefaultGenericBeta (0.99, the released residual EMA).
	Beta float64
	// Floor is the variance floor relative to the mean second moment of a horizon, ≥ 0.
	// Zero selects DefaultDiagonalFloor; a negative value is refused.
	Floor float64
}

// SamplerName implements [Config].
func (DiagonalConfig) SamplerName() string { return DiagonalName }

// Diagonal is the diagonal-Gaussian noise model of the authors' released code, the one their
// known-SNR study uses (the paper's text names DW-Generic for every testbed). At horizon k it
// keeps EMAs of the residual mean mu_k and second moment s_k per coordinate and draws
//
//	eps_{i,k,d} = sqrt(max(s_{k,d} - mu_{k,d}^2, 0) + floor * mean_d s_{k,d}) * z,   z ~ N(0, 1),
//
// independently for every sample, horizon and coordinate. Unlike DW-Generic it keeps no
// pattern across coordinates or horizons: only each coordinate's variance. The moments are
// initialised by the first minibatch that reaches a horizon and then follow
// m <- beta m + (1 - beta) (minibatch mean), both committed only after the minibatch (the
// per-minibatch protocol of the package doc).
type Diagonal struct {
	beta, floor float64
	cur         diagonalMoments
	staged      *diagonalMoments // sums and counts of the pending minibatch; nil when none
}

// diagonalMoments holds, per horizon, the residual mean and second moment per coordinate
// (committed: EMAs, with count the minibatches seen; staged: sums, with count the residuals).
type diagonalMoments struct {
	dim          int
	mean, second [][]float64 // [H][D]
	count        []int       // [H]
}

// NewDiagonal returns an empty diagonal-Gaussian sampler; no horizon is ready until the first
// Commit after a Stage.
func NewDiagonal(cfg DiagonalConfig) (*Diagonal, error) {
	beta, floor := cfg.Beta, cfg.Floor
	if beta == 0 {
		beta = DefaultGenericBeta
	}
	if floor == 0 {
		floor = DefaultDiagonalFloor
	}
	if !(beta > 0 && beta < 1) {
		return nil, fmt.Errorf("noise: DiagonalConfig.Beta = %v, must be in (0, 1)", cfg.Beta)
	}
	if !(floor >= 0) || math.IsInf(floor, 0) {
		return nil, fmt.Errorf("noise: DiagonalConfig.Floor = %v, must be finite and ≥ 0", cfg.Floor)
	}
	return &Diagonal{beta: beta, floor: floor}, nil
}

// Name implements [Sampler].
func (g *Diagonal) Name() string { return DiagonalName }

// Beta returns the residual-moment EMA coefficient.
func (g *Diagonal) Beta() float64 { return g.beta }

// Variance returns the per-coordinate noise variance drawn at horizon k (floor included), or
// nil if k is not ready.
func (g *Diagonal) Variance(k int) []float64 {
	if k < 0 || k >= len(g.cur.mean) {
		return nil
	}
	mean, second := g.cur.mean[k], g.cur.second[k]
	scale := 0.0
	for _, s := range second {
		scale += s
	}
	floor := g.floor * math.Max(scale/float64(len(second)), 1e-20)
	v := make([]float64, len(mean))
	for d := range v {
		v[d] = math.Max(second[d]-mean[d]*mean[d], 0) + floor
	}
	return v
}

// Ready implements [Sampler]: horizon k is ready once its moments are committed.
func (g *Diagonal) Ready(K int) []bool {
	r := make([]bool, max(K, 0))
	for k := range min(len(r), len(g.cur.mean)) {
		r[k] = true
	}
	return r
}

// Sample implements [Sampler]: independent Gaussian draws with each ready horizon's committed
// per-coordinate variance; horizons not ready are zero. One rng.NormFloat64 is consumed per
// entry of a ready horizon, none for the others.
func (g *Diagonal) Sample(rng *rand.Rand, n, K, D int) ([]float64, error) {
	if err := checkSample(rng, n, K, D, g.cur.dim); err != nil {
		return nil, err
	}
	ready := min(K, len(g.cur.mean))
	sd := make([][]float64, ready)
	for k := range ready {
		sd[k] = g.Variance(k)
		for d, v := range sd[k] {
			sd[k][d] = math.Sqrt(v)
		}
	}
	out := make([]float64, n*K*D)
	for i := range n {
		for k := range ready {
			row := out[(i*K+k)*D : (i*K+k+1)*D]
			for d := range row {
				row[d] = sd[k][d] * rng.NormFloat64()
			}
		}
	}
	return out, nil
}

// Stage implements [Sampler]: it adds the n residuals and their squares to the pending sums
// of each horizon.
func (g *Diagonal) Stage(residuals []float64, n, K, D int) error {
	stagedDim := 0
	if g.staged != nil {
		stagedDim = g.staged.dim
	}
	if err := checkStage(residuals, n, K, D, g.cur.dim, stagedDim); err != nil {
		return err
	}
	s := g.staged.clone()
	if s == nil {
		s = &diagonalMoments{dim: D}
	}
	for len(s.count) < K {
		s.mean = append(s.mean, make([]float64, D))
		s.second = append(s.second, make([]float64, D))
		s.count = append(s.count, 0)
	}
	for k := range K {
		for i := range n {
			for d, v := range residuals[(i*K+k)*D : (i*K+k+1)*D] {
				s.mean[k][d] += v
				s.second[k][d] += v * v
			}
		}
		for d := range D {
			if math.IsInf(s.second[k][d], 0) {
				return fmt.Errorf("noise: Stage: residual second moment overflows at horizon %d, coordinate %d", k, d)
			}
		}
		s.count[k] += n
	}
	g.staged = s
	return nil
}

// Commit implements [Sampler]: each staged horizon's minibatch moments initialise its EMAs
// (first time) or enter them with weight 1 - beta.
func (g *Diagonal) Commit() {
	s := g.staged
	if s == nil {
		return
	}
	g.staged = nil
	c := &g.cur
	c.dim = s.dim
	for k, n := range s.count {
		mean, second := make([]float64, s.dim), make([]float64, s.dim)
		for d := range s.dim {
			mean[d], second[d] = s.mean[k][d]/float64(n), s.second[k][d]/float64(n)
		}
		if k >= len(c.mean) { // staged horizons are contiguous from 0
			c.mean, c.second, c.count = append(c.mean, mean), append(c.second, second), append(c.count, 1)
			continue
		}
		for d := range s.dim {
			c.mean[k][d] = g.beta*c.mean[k][d] + (1-g.beta)*mean[d]
			c.second[k][d] = g.beta*c.second[k][d] + (1-g.beta)*second[d]
		}
		c.count[k]++
	}
}

// Discard implements [Sampler].
func (g *Diagonal) Discard() { g.staged = nil }

func (m *diagonalMoments) clone() *diagonalMoments {
	if m == nil {
		return nil
	}
	c := &diagonalMoments{dim: m.dim, count: append([]int(nil), m.count...)}
	for k := range m.mean {
		c.mean = append(c.mean, append([]float64(nil), m.mean[k]...))
		c.second = append(c.second, append([]float64(nil), m.second[k]...))
	}
	return c
}
