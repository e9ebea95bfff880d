// Package baseline scores simple, honest forecasting baselines with exactly
// the evaluation protocol of the trained models, so that their eq. (8)
// numbers can be read side by side with Full BPTT and Internal-DW.
//
// Why this matters. Eq. (8) divides each step's error by the norm of the
// target state, and the testbeds are standardised with training statistics,
// so the forecast that always returns the training mean (zero in
// standardised units) scores close to 1 by construction. The paper's
// Mackey–Glass test errors (Full 1.054, Internal-DW 0.9997) sit at that
// level: a "5% improvement" there is an improvement from slightly worse than
// the mean forecast to about the mean forecast. A model only shows skill when
// it beats these baselines, and a method comparison only means something
// when both methods do. Three baselines are provided:
//
//   - [Zero]: predicts the training mean (0) at every step; rel-L2 ≈ 1.
//   - [Damped]: damped persistence x̂_{o+h} = φ^h x_o, decaying from the last
//     observed state to the training mean, with φ fitted on the training
//     units by least squares over the evaluation horizons ([FitDamped]).
//   - [Ridge]: a linear autoregression on the last W states (plus the
//     observed drive of the step and an intercept), fitted by one-step ridge
//     regression on the training units and rolled out closed loop for H
//     steps; W and the ridge strength λ are chosen on the validation units by
//     eq. (8) itself ([SelectRidge]).
//
// All three implement eval.Forecaster and eval.BatchForecaster, so they go
// through the same eval.Evaluate call as the trained models. [Score] runs the
// whole comparison on a data.Dataset for a [Protocol] (burn-in, history
// window, H = eval.HEval(K), origins per unit) that mirrors the model
// evaluation in dwlib/experiment: units are the test series with the first
// BurnIn steps dropped, History is the model's Window, and the forecast of
// step h from origin o targets X[o+h-1] after observing X[o-History : o].
//
// Drive convention (as in dwlib/model and dwlib/data): Drive[t] acts over
// the step t -> t+1, so the forecast of X[o] uses HistoryDrive's last row
// and the forecast of X[o+k] (k >= 1) uses FutureDrive[k-1].
//
// The package is plain float64 Go (gonum for the linear solves) and does not
// import GoMLX.
package baseline
