package train

import (
	"slices"
)

// GradNormRange summarises the gradient norms a run's optimizer saw: the largest and the median of
// its epochs' mean global norms before clipping (EpochRecord.GradNorm), and the epoch (1-based) of
// the largest. A backward pass whose distant routes explode shows a largest value orders of
// magnitude above the median; a run that stays in the exploding regime shows a median that is far
// up too, so the pair tells a passing spike from a run that never came back. Clipping hides both
// from the loss curve, since every step is cut to the same length. The median of an even count is
// the mean of the middle two. Epochs whose norm is not finite, or that took no step (norm 0), are
// skipped; with none left, all three are 0.
func GradNormRange(epochs []EpochRecord) (largest, median float64, epoch int) {
	var norms []float64
	for _, e := range epochs {
		v := e.GradNorm
		if !finite(v) || v <= 0 {
			continue
		}
		norms = append(norms, v)
		if v > largest {
			largest, epoch = v, e.Epoch
		}
	}
	if len(norms) == 0 {
		return 0, 0, 0
	}
	slices.Sort(norms)
	n := len(norms)
	median = norms[n/2]
	if n%2 == 0 {
		median = (norms[n/2-1] + norms[n/2]) / 2
	}
	return largest, median, epoch
}
