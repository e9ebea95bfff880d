// Package eval implements the forecasting-evaluation and analysis statistics
// of the Internal-DW paper in plain float64 Go (no GoMLX, no accelerator).
//
// The package is organised as one concept per file:
//
//   - origins.go: deterministic, evenly spaced forecast origins per test unit
//     (Appendix "How Forecasting Error Is Evaluated").
//   - rell2.go: the dense multi-start relative L2 of eq. (8)
//     (label eq:dense-multistart-rel-l2), its per-horizon curve, and
//     H_eval = ceil(1.5 K).
//   - forecaster.go / evaluate.go: a small Forecaster contract so any model
//     can be plugged into the evaluation protocol, and Evaluate, which streams
//     the rollouts unit by unit without holding all predictions in memory.
//   - paired.go: matched-seed statistics (Appendix "Matched-seed
//     uncertainty"): paired differences with a Student-t interval, mean and
//     sample standard deviation, percentage change.
//   - horizonfit.go: least-squares quadratic training-horizon fits with
//     nonnegative curvature and their fitted optimum K* (Section "Fitted
//     optimal training-horizon range", Appendix "Per-seed fitted curves").
//   - prefixrisk.go: the known-SNR prefix-risk decomposition, per-horizon SNR,
//     noise fraction and relative gradient RMS (Appendix "Controlled
//     Known-SNR Study", labels eq:known-snr-gradient-snr and
//     eq:known-snr-prefix-decomposition).
//
// Conventions used throughout:
//
//   - Time series are [][]float64 indexed [t][d]: one row per model step.
//   - Forecast steps are 1-based in the paper (h = 1..H, k = 1..K); slices in
//     this package are 0-based, so index i holds step i+1. Error messages
//     report the paper's 1-based step ("step h=3").
//   - Functions return errors (never panic) on malformed input, and the error
//     text names the offending values so that a failed run is diagnosable
//     from its log alone.
package eval
