// Package data builds the forecasting testbeds of the Internal-DW paper as
// plain float64 arrays, with no dependency on GoMLX.
//
// Every testbed is returned as a [Dataset]: train / validation / test lists
// of [Series] (one trajectory or unit each), already standardised with
// training-split statistics only, plus the [Normalizer] needed to go back to
// raw coordinates. The testbeds are:
//
//   - "known-snr": the 8-dimensional diagonal AR(1) process of Appendix E.1,
//     whose conditional future is known in closed form ([ConditionalMean])
//     and whose future innovations can be resampled from a fixed state
//     ([Continuations]); this is what makes gradient SNR measurable.
//   - "mackey-glass": eight independent Mackey–Glass delay equations
//     (Appendix F.1), tau=30, integrated by RK4 with step .1.
//   - "driven-mg": the same dynamics with an additive, observed AR(1) drive
//     (Appendix "Controlled Test of Strong Observed Drive" and the
//     predictive-regime probe validation); the drive scale is a parameter so
//     the drive sweep can reuse identical histories, drives and splits.
//   - "narma5": bounded NARMA-5 with observed inputs (Appendix F.1).
//   - "ettm1", "ettm2": the ETT 15-minute transformer records with calendar
//     drive, read from the shared data directory (never copied into the
//     project, never cached).
//   - "ieeg-synth", "fmri-synth": seeded stand-ins for the paper's iEEG and
//     movie-fMRI data with known reproducible structure (latent long-memory
//     factors and a stimulus response; a shared stimulus-locked response and
//     subject AR deviations), so that DW-Prior banks can be judged against the
//     true noise ([TrueResidualCov]); see [IEEGSynthConfig], [FMRISynthConfig].
//
// The real iEEG and fMRI arrays, for users who have them, come in through a
// JSON [Manifest] (Load("manifest:/path/m.json", opt)).
//   - "shear": the spatial field testbed, two-dimensional shear flows simulated
//     by dwlib/fields (tracer, pressure, u, v flattened channel-major, see
//     [Field] and [FieldShape]), a fixed 32/4/4 trajectory split and 64-frame
//     sequences with stride 16 within each split, kept at their raw scale.
//
// Any other time series comes in through the general CSV path, of which the
// ETT testbeds are one configuration ([ETTSpec]): [LoadCSV] reads a file
// (optionally gzip-compressed) as a [CSVSpec] says — time, state and
// observed-drive columns, a calendar drive derived from the timestamps, the
// step inferred and checked row by row, a chronological split by
// fractions, dates or rows, non-overlapping units, training-only
// standardisation — and refuses malformed, missing, non-finite or
// irregularly spaced rows with the file, line and field.
//
// Use [Load] with a name from [Names]. Synthetic trajectories are generated
// from a fixed generation seed (Options.GenSeed) and cached under
// <repo>/data/cache; the experimental seed (Options.Seed) only chooses the
// 28/6/6 (70/15/15) split of those trajectories, as in the paper, so the three
// matched seeds see the same trajectories in different roles.
//
// Options.Generator "authors" switches mackey-glass, driven-mg and narma5 to
// the data recipe of the authors' released code (initial history, frozen-delay
// RK4, sampling offset, drive alignment, NARMA index layout; see
// docs/paper-vs-code.md §2 and §9.6), and Options.ScalarNorm to its scalar
// standardisation. Both default to this project's behaviour.
//
// Randomness is always explicit: each trajectory/channel/purpose draws from
// its own math/rand/v2 PCG stream derived from the seed, so the same seed
// gives bit-identical data on a given architecture, independently of
// goroutine scheduling, and changing one generator parameter (e.g. the drive
// scale) does not shift the random numbers used elsewhere.
package data
