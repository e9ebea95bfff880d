package experiment

import (
	"math"
	"slices"
)

// NoiseTraceEpoch is one epoch of a DW run's noise-share trace.
type NoiseTraceEpoch struct {
	Epoch              int
	TrainLoss, ValLoss float64
	// Committed is Σ tr R̂ / Σ tr T̂ of the controller's averaged moments at the epoch's end (NaN
	// before the first calibration): what the solve sees.
	Committed float64
	// Calibrations are the epoch's calibrations' own shares, Σ tr Noise / Σ tr Tot of their raw
	// probes, in order; Tot and Noise their energies.
	Calibrations []float64
	Tot, Noise   []float64
}

// MaxCalibration returns the largest share among the epoch's calibrations (NaN if none).
func (e NoiseTraceEpoch) MaxCalibration() float64 {
	if len(e.Calibrations) == 0 {
		return math.NaN()
	}
	return slices.Max(e.Calibrations)
}

// NoiseTrace returns a DW run's per-epoch noise-share trace (train.EpochRecord's Probes and
// Moments), or nil for a run that did not record one (Full, or a DW run trained before the
// records existed). Because R̂ and T̂ are averaged with one coefficient, the committed share is a
// weighted mean of the calibrations' Noise over their Tot: it can never exceed the largest
// single calibration's share, so the trace tells a share carried by a few calibrations from one
// every calibration sees.
func NoiseTrace(r *Result) []NoiseTraceEpoch {
	var out []NoiseTraceEpoch
	for _, e := range r.Epochs {
		if e.Moments == nil {
			continue
		}
		t := NoiseTraceEpoch{Epoch: e.Epoch, TrainLoss: e.TrainLoss, ValLoss: e.ValLoss, Committed: e.Moments.Share()}
		for _, p := range e.Probes {
			t.Calibrations = append(t.Calibrations, p.Share())
			t.Tot = append(t.Tot, p.Tot)
			t.Noise = append(t.Noise, p.Noise)
		}
		out = append(out, t)
	}
	return out
}
