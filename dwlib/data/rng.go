package data

import "math/rand/v2"

// Stream purposes. Each random quantity gets its own PCG stream, keyed by
// purpose and by the indices (trajectory, channel, draw) it belongs to. This
// keeps generators deterministic under parallel generation and makes
// parameter sweeps "common random numbers": e.g. driven-mg at any drive scale
// uses exactly the same initial histories and drive realisations, and its
// initial histories are those of the autonomous mackey-glass testbed.
const (
	purposeAR1 uint64 = iota + 1
	purposeAR1Continuation
	purposeMGHistory
	purposeMGDrive
	purposeNARMAInput
	purposeSplit
	purposeMGAuthorsHistory // appended last: earlier purposes keep their values
	purposeIEEGStimulus
	purposeIEEGMixing
	purposeIEEGResponse
	purposeIEEGLatent
	purposeIEEGNoise
	purposeFMRIStimulus
	purposeFMRIResponse
	purposeFMRISubject
	purposeShear // the shear-flow trajectories' simulation seeds
)

// splitmix64 is the standard 64-bit finaliser; it decorrelates nearby keys.
func splitmix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// newStream returns a PCG-backed generator for (seed, purpose, idx...).
func newStream(seed, purpose uint64, idx ...int) *rand.Rand {
	k := splitmix64(purpose)
	for _, i := range idx {
		k = splitmix64(k ^ splitmix64(uint64(i)))
	}
	return rand.New(rand.NewPCG(seed, k))
}
