package prior

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// DefaultMaxBank is the largest bank the paper reports ("Each reported bank
// contains at most 1024 training-only cross-fitted trajectories sampled
// without replacement").
const DefaultMaxBank = 1024

// Bank is a set of cross-fitted residual trajectories e_{i,o,1:K}, each a
// flat row of K*D values laid out [k][d] (horizon k, coordinate d at index
// k*D+d). The rows are stored uncentred, as the predictors produced them;
// the bootstrap centres them by the bank mean per horizon ([Bank.Mean]).
//
// A Bank is immutable after construction.
type Bank struct {
	k, d int
	rows [][]float64
	mean []float64
}

// NewBank copies rows into a bank of K-step, D-dimensional trajectories.
// Every row must have K*D finite values; at least one row is needed.
func NewBank(K, D int, rows [][]float64) (*Bank, error) {
	if K < 1 || D < 1 {
		return nil, fmt.Errorf("prior: NewBank: K=%d and D=%d must be >= 1", K, D)
	}
	if len(rows) == 0 {
		return nil, errors.New("prior: NewBank: no trajectories")
	}
	b := &Bank{k: K, d: D, rows: make([][]float64, len(rows))}
	for i, r := range rows {
		if len(r) != K*D {
			return nil, fmt.Errorf("prior: NewBank: trajectory %d has %d values, want K*D=%d", i, len(r), K*D)
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("prior: NewBank: trajectory %d value %d (horizon %d, coordinate %d) is %v", i, j, j/D, j%D, v)
			}
		}
		b.rows[i] = slices.Clone(r)
	}
	b.mean = bankMean(b.rows, K*D)
	return b, nil
}

// bankMean is ē_k of eq. prior-template-bootstrap, per horizon and coordinate.
func bankMean(rows [][]float64, n int) []float64 {
	m := make([]float64, n)
	for _, r := range rows {
		for j, v := range r {
			m[j] += v
		}
	}
	inv := 1 / float64(len(rows))
	for j := range m {
		m[j] *= inv
	}
	return m
}

// K is the number of horizons of each trajectory.
func (b *Bank) K() int { return b.k }

// D is the state dimension.
func (b *Bank) D() int { return b.d }

// Len is the number of trajectories.
func (b *Bank) Len() int { return len(b.rows) }

// Row returns a copy of trajectory i, uncentred, [K][D] flat.
func (b *Bank) Row(i int) []float64 { return slices.Clone(b.rows[i]) }

// Mean returns a copy of the bank mean ē per horizon and coordinate, [K][D] flat.
func (b *Bank) Mean() []float64 { return slices.Clone(b.mean) }

// Covariance returns the bank's empirical second moment about its mean,
// (1/N) Σ_i (e_i - ē)(e_i - ē)ᵀ, as a (K*D)×(K*D) row-major matrix: the
// coordinate and cross-horizon covariance that the bootstrap preserves
// exactly (population normalisation 1/N, since a draw picks a row uniformly).
func (b *Bank) Covariance() []float64 {
	n := b.k * b.d
	c := make([]float64, n*n)
	x := make([]float64, n)
	for _, r := range b.rows {
		for j := range x {
			x[j] = r[j] - b.mean[j]
		}
		for a := range n {
			for bb := range n {
				c[a*n+bb] += x[a] * x[bb]
			}
		}
	}
	inv := 1 / float64(len(b.rows))
	for j := range c {
		c[j] *= inv
	}
	return c
}

// chooseWithoutReplacement returns min(n, limit) distinct indices of 0..n-1 in
// increasing order: all of them when n <= limit, otherwise a uniformly random
// subset of size limit drawn with rng. It is how a bank keeps at most
// DefaultMaxBank candidate (sequence, origin) pairs.
func chooseWithoutReplacement(rng *rand.Rand, n, limit int) []int {
	if limit <= 0 || n <= limit {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	perm := rng.Perm(n)[:limit]
	slices.Sort(perm)
	return perm
}
