// Package regime measures how much observed drive and state history are worth for prediction,
// the paper's predictive-regime probes (App. "How History and Observed Drive Are Measured":
// probe construction, regime scores, and their validation by a Mackey–Glass drive sweep).
//
// Why: Internal-DW preserves delayed credit that the state history carries. Whether a testbed
// has such history (and whether an observed drive explains most of its future instead) decides
// which regime it belongs to, and so where the method should or should not help. The probes answer
// that without any forecasting model: two simple held-out predictors, one linear and one local,
// are fitted with and without history features and their risks compared.
//
// For each horizon k the probes predict the standardised state x[s+k-1] from
//
//   - drive-only features D: the observed drive over the k future steps (none for autonomous
//     testbeds, whose drive-only predictor is then the fitting mean, so Ψ_D = 0 exactly);
//   - drive-plus-history features D+H: D and the W states before s, each projected on the
//     leading principal components of the training states.
//
// With R_mean, R_D and R_{D+H} the held-out risks of the fitting-mean predictor and of a probe
// on D and on D+H, the scores are Ψ_D = 1 − R_D/R_mean and Ψ_H = 1 − R_{D+H}/R_D. A finite
// probe gains a little from any extra features by chance, so Ψ_H is compared with the same
// probe fitted on history that no longer belongs to its examples (the null): ΔΨ_H = Ψ_H − Ψ_H^null.
// The long-horizon scores average the per-horizon values over k ≥ 8.
//
// One concept per file: [Scaler] (standardize.go), [Ridge] (ridge.go), [KNN] (knn.go), [PCA]
// (pca.go), examples and features (examples.go), the history nulls (null.go), the width selection
// (window.go), risks and scores (scores.go), the whole procedure [Run] (probe.go) with its
// [Config] (config.go), the paper's per-testbed settings and values (settings.go, paper.go), the
// averaged and clipped map (map.go), the Mackey–Glass term magnitudes (terms.go) and the drive
// sweep (sweep.go).
//
// The paper's text and the authors' released probe code differ in a few places (the null, the
// split that is scored in the drive sweep); [Config] offers both and defaults to the code.
// docs/paper-vs-code.md §11 lists every such choice.
//
// Every random draw (subsets of units, PCA frames, examples, null permutations and shifts) comes
// from its own PCG stream derived from Config.Seed, so a result is a deterministic function of
// its data and configuration.
package regime
