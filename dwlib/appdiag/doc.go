// Package appdiag computes the paper's application-data diagnostics (Section 5.2, Figure
// "Application-data reliability and estimator response", Appendix "How Per-Horizon Gradient
// Utility Is Measured") at a fixed checkpoint, without training:
//
//   - Held-out gradient utility (utility.go): pair training examples A with test examples B, take
//     per forecast step k the parameter gradient g_k^A of that step's loss and the full-horizon
//     held-out gradient ḡ^B = (1/K) Σ_j g_j^B over one fixed sample of parameter coordinates
//     with full-dimensional scaling (coords.go), and report A(k) = ‖g_k^A‖/‖g_1^A‖ and
//     U(k) = ⟨g_k^A/‖g_k^A‖, ḡ^B⟩ per pair, their medians, the 10–90% band of A, the
//     interquartile band of U and the fraction of forecast steps with a negative median U.
//   - Gain response to added noise (noise.go): with the forecasting parameters frozen, add
//     independent Gaussian noise to the targets at residual-to-added-noise ratios 4, 1 and 0.25
//     (L/M/H), drive a fresh DW calibration (dwlib/calib, DW-Generic sampler from dwlib/noise,
//     the route probes of dwlib/route) on every batch, and report the mean identity gain α and
//     nonlinear gain m it converges to.
//
// Every diagnostic works on any train.Model (the Mamba/MLP forecaster of the time-series testbeds,
// the U-Net of the field testbed shear): it needs only the model's store and routed rollout; the
// ...OfRun functions load a run of any kind (experiment.LoadBestModel, LoadInitModel,
// LoadLastModel).
//
// Every random draw (pairs, coordinate sample, added noise, probe signs) comes from an explicit
// seed. Where the paper's text and the authors' released code differ, both are options and the
// code is the default; docs/paper-vs-code.md, section "Application diagnostics", lists each
// choice with the file it comes from.
package appdiag
