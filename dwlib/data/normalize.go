package data

import "math"

// Affine is a per-coordinate standardisation z = (v - Mean) / Std.
//
// The zero value (nil Mean and Std) is the identity, used for drives that
// keep their raw scale (NARMA inputs, the Mackey–Glass drive).
type Affine struct {
	Mean, Std []float64
}

// IsIdentity reports whether a is the identity map.
func (a Affine) IsIdentity() bool { return a.Mean == nil }

// FitAffine computes the per-coordinate mean and population standard
// deviation over every row of every block. Coordinates with zero (or
// non-finite) spread get a unit scale, so constant coordinates are centred
// but not blown up. A coordinate whose training values are all equal is
// recognised exactly, not through its computed spread: the rounding of the
// mean would otherwise leave a spread of ~1e-17 and scale later values (a
// calendar phase that first changes after training, a drive that is
// constant during training) by ~1e17. It returns the identity when there
// are no rows.
func FitAffine(blocks ...[][]float64) Affine {
	dim, n := 0, 0
	var ref []float64 // the first row: a coordinate is constant when every row equals it there
	for _, b := range blocks {
		if len(b) > 0 {
			dim = len(b[0])
			if ref == nil {
				ref = b[0]
			}
		}
		n += len(b)
	}
	if n == 0 || dim == 0 {
		return Affine{}
	}
	mean := make([]float64, dim)
	constant := make([]bool, dim)
	for j := range constant {
		constant[j] = true
	}
	for _, b := range blocks {
		for _, r := range b {
			for j, v := range r {
				mean[j] += v
				constant[j] = constant[j] && v == ref[j]
			}
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	// Second pass on centred values: numerically stable for offset data
	// such as ETT oil temperature.
	std := make([]float64, dim)
	for _, b := range blocks {
		for _, r := range b {
			for j, v := range r {
				dv := v - mean[j]
				std[j] += dv * dv
			}
		}
	}
	for j := range std {
		std[j] = math.Sqrt(std[j] / float64(n))
		if constant[j] {
			mean[j], std[j] = ref[j], 1
		}
		if !(std[j] > 0) || math.IsInf(std[j], 0) {
			std[j] = 1
		}
	}
	return Affine{Mean: mean, Std: std}
}

// Apply returns (v - Mean) / Std as a new slice.
func (a Affine) Apply(v []float64) []float64 {
	out := append([]float64(nil), v...)
	if a.IsIdentity() {
		return out
	}
	for j := range out {
		out[j] = (out[j] - a.Mean[j]) / a.Std[j]
	}
	return out
}

// Invert returns z*Std + Mean as a new slice.
func (a Affine) Invert(z []float64) []float64 {
	out := append([]float64(nil), z...)
	if a.IsIdentity() {
		return out
	}
	for j := range out {
		out[j] = out[j]*a.Std[j] + a.Mean[j]
	}
	return out
}

// ApplyRows applies a to every row (nil stays nil).
func (a Affine) ApplyRows(rows [][]float64) [][]float64 { return mapRows(rows, a.Apply) }

// InvertRows inverts a on every row (nil stays nil).
func (a Affine) InvertRows(rows [][]float64) [][]float64 { return mapRows(rows, a.Invert) }

func mapRows(rows [][]float64, f func([]float64) []float64) [][]float64 {
	if rows == nil {
		return nil
	}
	out := make([][]float64, len(rows))
	for i, r := range rows {
		out[i] = f(r)
	}
	return out
}

// Normalizer maps raw series to model coordinates and back. State and drive
// are standardised separately (Appendix F.1, ETT: "State and calendar
// coordinates are standardized separately"), each with its own training
// statistics; Drive is the identity where the drive keeps its raw scale.
type Normalizer struct {
	State Affine
	Drive Affine
}

// FitNormalizer fits the normaliser on the given (training) series only.
func FitNormalizer(train []Series, standardizeDrive bool) Normalizer {
	xs := make([][][]float64, len(train))
	ds := make([][][]float64, 0, len(train))
	for i, s := range train {
		xs[i] = s.X
		if s.Drive != nil {
			ds = append(ds, s.Drive)
		}
	}
	n := Normalizer{State: FitAffine(xs...)}
	if standardizeDrive {
		n.Drive = FitAffine(ds...)
	}
	return n
}

// Apply returns the standardised copy of s.
func (n Normalizer) Apply(s Series) Series {
	return Series{X: n.State.ApplyRows(s.X), Drive: n.Drive.ApplyRows(s.Drive)}
}

// Invert maps a standardised series back to raw coordinates.
func (n Normalizer) Invert(s Series) Series {
	return Series{X: n.State.InvertRows(s.X), Drive: n.Drive.InvertRows(s.Drive)}
}
