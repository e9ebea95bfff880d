// Package calib is the Internal-DW calibration controller (paper Algorithm 1,
// App. C.3 "How the Route Moments Are Calibrated" and C.5 "When Calibration
// Runs").
//
// For a model with K rollout steps and L routed residual layers it keeps, per
// (k, l), the route gains w = (alpha, m) applied in the backward pass, the EMA
// route moments T̂ and R̂ of eq. plugin-route-moments, P̂ = Π_PSD(T̂ - R̂),
// probe counts and the last solve's diagnostics. Graph construction, probes
// and the reduction (1/D_l) dᵀd of route messages happen in the caller; this
// package is pure bookkeeping plus the 2×2 Wiener solve of package wiener.
//
// # Minibatch counter and schedule
//
// The controller numbers minibatches b = 0, 1, 2, ... (0-based); b is the
// number of Commit calls so far, so the minibatch being processed between two
// Commits is b. With warm-up W and period C:
//
//   - b < W: fully open warm-up, gains are (1, 1) and no probe runs;
//   - b ≥ W and (b-W) mod C = 0: calibration minibatch (Algorithm 1, line 4).
//
// With the paper's W/C = 8/4 the calibration minibatches are b = 8, 12, 16, ...
//
// # Per-minibatch call sequence (Algorithm 1)
//
//	gains := ctrl.Gains()                 // committed gains: the task backward uses these
//	if ctrl.IsCalibration() {
//	    // draw eps from the committed sampler state, run the two fully open
//	    // probes, reduce (1/D_l) dᵀd per (k, l) ...
//	    ctrl.Stage(tot, noise, sampler.Ready(K))  // stages EMAs, P̂ and gains
//	}
//	sampler.Stage(residuals, n, K, D)     // every minibatch (App. D.1)
//	// task backward with `gains`, optimizer step
//	ctrl.Commit()                         // commit moments, gains, sampler; b++
//
// Staged moments and gains become visible only at Commit, after the task
// backward and the parameter update, so neither probe noise nor a gain change
// enters the current task update (App. C.5).
//
// # Checkpoints
//
// The controller's whole state (configuration, counter, gains, moments, probe
// counts, gain history and, when it owns one, the noise sampler by name and
// JSON) round-trips exactly through MarshalJSON/UnmarshalJSON, as App. C.5
// requires of checkpoints ("gains, moments, probe counts, and sampler
// configuration").
package calib
