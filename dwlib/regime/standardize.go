package regime

import "math"

// SDFloor is the smallest standard deviation a [Scaler] divides by. The paper standardises every
// probe feature "with a standard-deviation floor of 1e-5": a feature that is constant over the
// fitting examples (a calendar coordinate that never changes within a split, a drive column of an
// autonomous testbed) is centred but not blown up.
const SDFloor = 1e-5

// Scaler standardises columns with the mean and population standard deviation of the fitting
// rows. Query rows are transformed with the same statistics, never their own: the probes must not
// see the query split's scale.
type Scaler struct {
	Mean, SD []float64
}

// FitScaler computes per-column statistics over rows (all of the same width). The standard
// deviation is the population one (divide by n), floored at SDFloor. With no rows it returns the
// zero Scaler, whose Apply is the identity on zero-width rows.
func FitScaler(rows [][]float64) Scaler {
	if len(rows) == 0 {
		return Scaler{}
	}
	p := len(rows[0])
	s := Scaler{Mean: make([]float64, p), SD: make([]float64, p)}
	n := float64(len(rows))
	for _, r := range rows {
		for j, v := range r {
			s.Mean[j] += v
		}
	}
	for j := range s.Mean {
		s.Mean[j] /= n
	}
	// Second pass on centred values: stable for offset data (ETT oil temperature).
	for _, r := range rows {
		for j, v := range r {
			d := v - s.Mean[j]
			s.SD[j] += d * d
		}
	}
	for j := range s.SD {
		s.SD[j] = math.Max(math.Sqrt(s.SD[j]/n), SDFloor)
	}
	return s
}

// Apply returns standardised copies of rows; the input is not modified.
func (s Scaler) Apply(rows [][]float64) [][]float64 {
	out := make([][]float64, len(rows))
	flat := make([]float64, len(rows)*len(s.Mean))
	p := len(s.Mean)
	for i, r := range rows {
		o := flat[i*p : (i+1)*p : (i+1)*p]
		for j, v := range r {
			o[j] = (v - s.Mean[j]) / s.SD[j]
		}
		out[i] = o
	}
	return out
}
