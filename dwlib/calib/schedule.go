package calib

// IsCalibration reports whether the 0-based minibatch b is a calibration
// minibatch: after the W warm-up minibatches, every C-th one starting at W
// (Algorithm 1, line 4). c must be valid (Period ≥ 1).
func (c Config) IsCalibration(b int) bool {
	return b >= c.Warmup && (b-c.Warmup)%c.Period == 0
}

// CalibrationsBefore returns how many calibration minibatches lie in [0, b).
func (c Config) CalibrationsBefore(b int) int {
	if b <= c.Warmup {
		return 0
	}
	return (b-c.Warmup-1)/c.Period + 1
}
