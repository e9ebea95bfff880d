package appdiag

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// DefaultPairs is the number of train–test pairs the authors' launcher requests for every
// sequence testbed (8; run_real_heldout_gradient_utility_single_gpu.sh SEQ_PAIRS, the ETT
// launcher's NUM_PAIRS). The pairs drawn are at most the number of test units: Mackey–Glass and
// NARMA-5 have 6 test trajectories, which is the paper's "6 pairs", and ETTm1/2 have enough for 8.
const DefaultPairs = 8

// DefaultStartFraction is the relative position of every example's rollout start within its
// unit's admissible range (the authors' start_fraction 0.5: the middle).
const DefaultStartFraction = 0.5

// Example is one rollout window: a unit of a split and the origin o (index of the last observed
// state x_o; the targets are x_{o+1..o+K}).
type Example struct {
	Unit, Origin int
}

// Pair is a training example A and a held-out (test) example B.
type Pair struct {
	A, B Example
}

// StartAt returns the origin at relative position f ∈ [0, 1] of a unit of n steps under geometry
// g: lo + round(f·(hi − lo)) over the admissible origins [lo, hi] (train.Geometry.OriginRange),
// rounding halves to even as Python's round does.
func StartAt(g train.Geometry, n int, f float64) (int, error) {
	if !(f >= 0 && f <= 1) {
		return 0, fmt.Errorf("appdiag: start fraction %v outside [0, 1]", f)
	}
	lo, hi, err := g.OriginRange(n)
	if err != nil {
		return 0, err
	}
	return lo + int(math.RoundToEven(f*float64(hi-lo))), nil
}

// DrawPairs draws n pairs (fewer when a split has fewer usable units): distinct training units for
// A and distinct test units for B, each in a random order from its own stream of seed, zipped;
// every example starts at the same relative position fraction of its unit (at most one start per
// unit, as the authors' candidate pool takes one start per loader item). Units too short for the
// geometry are skipped. It fails when no pair can be formed.
func DrawPairs(trainUnits, testUnits []data.Series, g train.Geometry, n int, fraction float64, seed uint64) ([]Pair, error) {
	if n < 1 {
		return nil, fmt.Errorf("appdiag: DrawPairs: n = %d, must be >= 1", n)
	}
	pool := func(units []data.Series, stream uint64) ([]Example, error) {
		rng := rand.New(rand.NewPCG(seed, stream))
		var out []Example
		for _, u := range rng.Perm(len(units)) {
			o, err := StartAt(g, units[u].Len(), fraction)
			if err != nil {
				continue
			}
			out = append(out, Example{Unit: u, Origin: o})
		}
		return out, nil
	}
	a, _ := pool(trainUnits, streamPairsA)
	b, _ := pool(testUnits, streamPairsB)
	m := min(n, len(a), len(b))
	if m < 1 {
		return nil, fmt.Errorf("appdiag: DrawPairs: %d usable training and %d usable test units for geometry %+v", len(a), len(b), g)
	}
	out := make([]Pair, m)
	for i := range out {
		out[i] = Pair{A: a[i], B: b[i]}
	}
	return out, nil
}
