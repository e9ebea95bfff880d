// Package knownsnr runs the controlled known-SNR study of the paper (Section 5.1, Appendix E,
// Figure "Known-SNR mechanism closure"). In the known-SNR process the conditional future of a
// state is known exactly, so a horizon's gradient splits into its conditional-mean signal and the
// innovation noise, and route moments split into P and R.
//
// With the forecaster's parameters fixed:
//
//   - GradientSplit (panels a, b): per-horizon parameter gradients of the horizon losses
//     L_k = K⁻¹‖x̂_{t+k} − x_{t+k}‖² on a batch of test trajectories, one rollout start each. The
//     signal s_k is the gradient with the target replaced by its conditional mean A^k x_t; the noise
//     n_k^(b) = g_k^(b) − s_k comes from independent innovation continuations of the same state.
//     They give the per-horizon gradient RMS, SNR and noise fraction, and the prefix risk
//     decomposed into missing signal and accumulated innovation (eval.PrefixRisk).
//   - RouteRisk (panel c): the DW controller calibrates on the training set while the route risk
//     R(w) = (w−1)ᵀP(w−1) + wᵀRw of Theorem 1 is evaluated with the exact signal moment P (probe
//     with the conditional mean as target) and a noise moment R from independent draws of the true
//     process, for full BPTT (w = 1), the DW gains, the same gains misplaced (shifted by half the
//     horizons within each layer) and the noise-informed oracle (gains solved from P and another
//     draw-based R).
//
// Panel d (forecasting) is a set of ordinary training runs: see the experiment preset "known-snr".
//
// Coordinates. Targets and conditional means are computed in raw simulator coordinates and passed
// through the training normalisation of the checkpoint's dataset before any loss is
// differentiated (App. E.1).
//
// Gradient cost. A per-horizon gradient is one vector-Jacobian product of the batch rollout, so
// GradientSplit costs K·(1+Draws) backward passes per replicate; the draws are streamed through
// eval.PrefixAccumulator, so memory stays O(K·P).
package knownsnr
