package train

// WorstRise measures how far a run's training loss ever climbed back up: the largest ratio of an
// epoch's training loss to the lowest one before it, and that epoch (1-based). Training that only
// improves gives 1 and epoch 0. A blow-up that stays finite, which the divergence checks
// (DivergedError) rightly let through, shows as a ratio far above 1 at the epoch the loss peaked;
// where a run's loss curve is too long to read, this says in one number whether it was stable.
// Epochs whose loss is not finite and positive are skipped.
func WorstRise(epochs []EpochRecord) (ratio float64, epoch int) {
	ratio, low := 1.0, 0.0
	for _, e := range epochs {
		v := e.TrainLoss
		if !finite(v) || v <= 0 {
			continue
		}
		if low > 0 && v/low > ratio {
			ratio, epoch = v/low, e.Epoch
		}
		if low == 0 || v < low {
			low = v
		}
	}
	return ratio, epoch
}
