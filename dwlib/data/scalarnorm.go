package data

import "math"

// FitScalarAffine pools every coordinate of every row into one mean and one
// population standard deviation: the authors' normalisation of the synthetic
// testbeds (docs/paper-vs-code.md §2.1, §9.6 item 25), where all channels
// share one law and so one scale. The result is an ordinary [Affine] whose
// Mean and Std repeat the two scalars in every coordinate, so Apply, Invert
// and every consumer of Normalizer work unchanged. A zero or non-finite
// spread gives a unit scale, as in the release. It returns the identity when
// there are no entries.
func FitScalarAffine(blocks ...[][]float64) Affine {
	dim, n := 0, 0
	for _, b := range blocks {
		if len(b) > 0 {
			dim = len(b[0])
		}
		for _, r := range b {
			n += len(r)
		}
	}
	if n == 0 || dim == 0 {
		return Affine{}
	}
	sum := 0.0
	for _, b := range blocks {
		for _, r := range b {
			for _, v := range r {
				sum += v
			}
		}
	}
	mean := sum / float64(n)
	ss := 0.0 // second pass on centred values, as in FitAffine
	for _, b := range blocks {
		for _, r := range b {
			for _, v := range r {
				ss += (v - mean) * (v - mean)
			}
		}
	}
	std := math.Sqrt(ss / float64(n))
	if !(std > 0) || math.IsInf(std, 0) {
		std = 1
	}
	a := Affine{Mean: make([]float64, dim), Std: make([]float64, dim)}
	for j := range dim {
		a.Mean[j], a.Std[j] = mean, std
	}
	return a
}

// FitScalarNormalizer is FitNormalizer with scalar state statistics. The
// drive is standardised per coordinate when standardizeDrive is set and kept
// raw otherwise, which is what the release does for the NARMA input and the
// Mackey–Glass drive.
func FitScalarNormalizer(train []Series, standardizeDrive bool) Normalizer {
	n := FitNormalizer(train, standardizeDrive)
	xs := make([][][]float64, len(train))
	for i, s := range train {
		xs[i] = s.X
	}
	n.State = FitScalarAffine(xs...)
	return n
}
