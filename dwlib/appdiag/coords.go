package appdiag

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// DefaultCoords is the size of the parameter-coordinate sample: the authors' default for sequence
// testbeds (250 000; their probe script's coord_subsample). A model with no more parameters than
// that is measured on all of its coordinates.
const DefaultCoords = 250_000

// CoordSample is one fixed sample of parameter coordinates, drawn uniformly with replacement from
// 0..Total−1, with the full-dimensional scaling Scale = Total/Size: for vectors a, b of Total
// entries, Scale·Σ_{i∈sample} a_i b_i is an unbiased estimate of ⟨a, b⟩ (each draw has
// expectation ⟨a, b⟩/Total). When the requested size is not below Total (or ≤ 0) the sample is
// every coordinate once, Index is nil and Scale is 1: inner products are then exact.
type CoordSample struct {
	Total int     // parameter coordinates of the model
	Index []int   // sampled coordinates (with repetitions), nil for all
	Scale float64 // Total / len(Index), or 1 for all coordinates
}

// NewCoordSample draws size coordinates out of total from seed. It fails if total < 1.
func NewCoordSample(total, size int, seed uint64) (CoordSample, error) {
	if total < 1 {
		return CoordSample{}, fmt.Errorf("appdiag: NewCoordSample: total = %d, must be >= 1", total)
	}
	if size <= 0 || size >= total {
		return CoordSample{Total: total, Scale: 1}, nil
	}
	rng := rand.New(rand.NewPCG(seed, streamCoords))
	idx := make([]int, size)
	for i := range idx {
		idx[i] = rng.IntN(total)
	}
	return CoordSample{Total: total, Index: idx, Scale: float64(total) / float64(size)}, nil
}

// Size is the number of sampled coordinates (Total when all are used).
func (s CoordSample) Size() int {
	if s.Index == nil {
		return s.Total
	}
	return len(s.Index)
}

// Unique is the number of distinct sampled coordinates.
func (s CoordSample) Unique() int {
	if s.Index == nil {
		return s.Total
	}
	seen := make(map[int]bool, len(s.Index))
	for _, i := range s.Index {
		seen[i] = true
	}
	return len(seen)
}

// Project returns the sampled entries of a full vector of Total entries (a copy).
func (s CoordSample) Project(full []float64) []float64 {
	if len(full) != s.Total {
		panic(fmt.Sprintf("appdiag: CoordSample.Project: vector of %d entries, want %d", len(full), s.Total))
	}
	if s.Index == nil {
		return append([]float64(nil), full...)
	}
	out := make([]float64, len(s.Index))
	for j, i := range s.Index {
		out[j] = full[i]
	}
	return out
}

// Dot is the scaled inner product Scale·Σ a_j b_j of two projected vectors: the estimate of the
// full-dimensional ⟨a, b⟩.
func (s CoordSample) Dot(a, b []float64) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("appdiag: CoordSample.Dot: lengths %d and %d", len(a), len(b)))
	}
	sum := 0.0
	for j := range a {
		sum += a[j] * b[j]
	}
	return s.Scale * sum
}

// Norm is √(Scale·Σ a_j²) of a projected vector: the estimate of the full-dimensional ‖a‖.
func (s CoordSample) Norm(a []float64) float64 {
	return math.Sqrt(math.Max(s.Dot(a, a), 0))
}

// Random streams of the package (the second PCG word), so that draws for different purposes
// from the same seed are independent.
const (
	streamCoords      = 0x636f6f7264 // "coord"
	streamPairsA      = 0x7061697241 // "pairA"
	streamPairsB      = 0x7061697242 // "pairB"
	streamNoise       = 0x6e6f697365 // "noise"
	streamProbeSign   = 0x7369676e73 // "signs"
	streamAttribution = 0x6174747269 // "attri"
	streamReplay      = 0x7265706c61 // "repla"
)
