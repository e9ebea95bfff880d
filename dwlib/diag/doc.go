// Package diag holds the small, exact computations behind the teaching notebooks, so their cells
// only load, plot and print:
//
//   - notebooks/01-method.ipynb: why delayed gradients grow, the route risk of Theorem 1 on a
//     grid, the gap between clipping and the true box-constrained optimum, the gains as the
//     signal-to-noise ratio changes, the route-law non-identifiability example, what sampler error
//     costs, and a toy residual block whose backward routes can be written out by hand;
//   - notebooks/03-mackey-glass.ipynb (gains.go): DW gain maps over (horizon, layer) per epoch,
//     the noise share of the route moments, per-horizon error comparisons, and what a checkpoint
//     stores.
//
// Everything here is a thin layer over dwlib/wiener (and, for the toy block, dwlib/route), so the
// notebook's figures and tables come from tested code and its cells stay short. Nothing in this
// package is used by training.
//
// Paper references (/work/shared/paper/internal-dw.tex):
//
//   - Section 3.1 and Appendix B, eq. forced-sensitivity-recurrence to scalar-forced-rms-regimes:
//     the forced recurrence z_{k+1} = J z_k + μ + ε_k, its mean and controllability Gramian
//     (ForcedMoments) and the scalar regimes: plateau, linear and √k, exponential
//     (ScalarForcedRMS).
//   - Eq. dual-route-jacobian: the routed backward v ↦ α·v + m·J_Fᵀv of y = x + F(x) (ToyBlock).
//   - Theorem 1, Eq. dual-wiener-risk and oracle-internal-dw-optimum: Risk(w) = (w-1)ᵀP(w-1) +
//     wᵀRw, w_unc = T⁻¹P1, w* = argmin over [0,1]² (RiskGrid, RiskSurface, LevelSet,
//     Unconstrained, GainsVsSNR).
//   - Appendix C.4: the constrained solve is not the clipped unconstrained one when routes are
//     correlated (ClippedVsConstrained).
//   - Section 3.3, "Route-law non-identifiability", and its proof in the appendix (Proposition
//     "The open route law does not identify the split"): every 0 ⪯ R ⪯ T gives the same observed
//     law N(0, T) but a different w_unc = T⁻¹(T-R)1 (NonIdentifiable, SampleCov, CrossRisk).
//   - Appendix D.3, "How sampler error changes the estimated gains": the first-order gain error
//     of eq. plugin-gain-perturbation (FirstOrderGainError) and the bias/variance split of the
//     excess route risk of eq. plugin-excess-risk (DecomposeGainError), on gains calibrated from
//     finite probes and a mis-scaled sampler (SampledGains).
package diag
