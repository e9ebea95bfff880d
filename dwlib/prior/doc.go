// Package prior builds DW-Prior, the template-based noise samplers of
// Internal-DW (Section 3.3, Table 1, Algorithm 2, App. "Prior Samplers:
// Predicting Reproducible Structure First").
//
// Why a prior sampler. DW-Generic treats the model's own recent residual as
// noise, so anything the model has not yet learned counts as noise. A prior
// sampler first predicts the structure that should repeat across separated
// time blocks or subjects with a simple "domain-supported" predictor, and
// treats only what that predictor cannot forecast out of fold as noise.
// Cross-fitting is what makes the residuals honest: every residual trajectory
// comes from a predictor fit without its held-out block or subject.
//
// The package has three layers:
//
//   - The bank and its bootstrap ([Bank], [Sampler]; eq.
//     prior-template-bootstrap): at most 1024 cross-fitted residual
//     trajectories [K][D], centred by the bank mean per horizon; a draw is one
//     bank trajectory times one random sign, the same at every horizon. The
//     Sampler implements noise.Sampler, so calibration uses it unchanged
//     (App. "How Sampler Outputs Enter Internal-DW"). It is registered in the
//     noise registry as "prior" and "prior-ar" (this package imports noise,
//     not the reverse, so there is no import cycle).
//   - Three predictors that fill the bank:
//     the iEEG factor-AR predictor ([BuildFactorBank]; contiguous time blocks
//     with a purge gap, PCA factors, a ridge AR(p) per factor),
//     the fMRI subject-AR predictor ([BuildSubjectBank]; subject folds, the
//     shared response of the fit subjects, a ridge AR(p) per parcel), and,
//     beyond the paper, a ridge vector AR for any series ([BuildARBank]; this
//     project's baseline.Ridge fit per fold, drive included), so that DW-Prior
//     exists on every testbed.
//   - The shared numerical pieces: time folds with purge gaps ([TimeFolds]),
//     the Gram-scaled ridge AR fit ([FitScalarAR]) and the root-radius cap
//     ([CapRadius]).
//
// Origin convention. As in dwlib/eval, an origin o is the index of the first
// forecast target: the predictor observes rows < o and forecasts rows
// o, ..., o+K-1. The paper's x_{i,r} (last observed) is row o-1 and its
// x_{i,r+k} is row o+k-1.
//
// Every random choice (subject folds, the subsample of bank trajectories, the
// bootstrap draws) comes from an explicit seed or a caller-owned rng.
//
// The package is plain float64 Go with gonum for the linear algebra; it does
// not import GoMLX.
package prior
