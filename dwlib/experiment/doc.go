// Package experiment turns (profile, testbed, method, seed, K) into a complete, reproducible
// training run, and runs grids of them: the layer under cmd/dw and the notebooks.
//
// A run is described by a RunConfig (everything that determines its numbers, as JSON). Run
// loads the testbed, builds the forecaster, trains it with dwlib/train (checkpointing every
// epoch, resumable), evaluates the minimum-validation parameters on the test split with eq. (8),
// and writes a Result as JSON under <runs>/<profile>/<testbed>/<method>-K<K>-s<seed>/.
//
// A run directory cannot be corrupted by the ways runs end or collide: it is locked while a Run
// works there (lock.go), everything is checked before anything is written (Run), every file is
// replaced atomically and flushed to disk (dwlib/internal/atomicfile), checkpoints carry the run's
// whole identity including its data files' SHA-256 (identity.go), a -config file is read strictly
// (configfile.go), and a divergence or an interruption ends a run with a message that names it and
// the checkpoint it can be resumed from (stop.go, dwlib/train's DivergedError).
//
// Profiles (see profile.go for the numbers):
//
//   - quick: a smoke run of seconds per run on 2 CPU cores, used by the tests and CI.
//   - standard: sized so the table (Mackey–Glass, NARMA-5 and driven MG: Full and DW for
//     seeds 0–2, Clip, JReg, TBPTT and Static for seed 0; 30 runs) takes about an hour on 2 CPU
//     cores with the pure-Go backend. The data, K, batch, starts per unit and calibration
//     schedule are the paper's; the model is a Mamba-24 (paper: Mamba-128) with the paper's four
//     blocks, state 16, convolution 4 and expansion 2, trained for 10 epochs (paper: up to 100)
//     at learning rate 2e-3 (paper: 1e-4) so that so few steps still train.
//   - paper: the paper's settings (App. F.2), meant for a GPU through the XLA backend.
//   - shear-cpu, shear-paper: the field testbed "shear" (dwlib/fields simulations) with the
//     residual U-Net (ModelConfig.Kind "unet") and DW's spectral field prior; they run no other
//     testbed and shear runs with no other profile (profile_shear.go). The loaders that return
//     the Mamba forecaster (LoadBest, LoadInit, LoadLast) refuse a U-Net run with a KindError;
//     LoadBestModel, LoadInitModel and LoadLastModel load a run of any kind as a train.Model.
//
// A user's own time series runs the same way: NewCSVData reads and fingerprints a CSV file (see
// data.CSVSpec), ResolveCSV turns it into a RunConfig whose testbed is csv-<name>-<hash8> and
// whose Data.CSV records the file's SHA-256 and the resolved spec; every later load of the data
// checks the hash, so a run's directory can only ever hold results of one file's content.
//
// Seeds. The experimental seed s chooses the 28/6/6 split of the cached trajectories (shear keeps
// one fixed split, as the paper keeps The Well's partitions), the
// initial parameters, the window sampling and the probe signs, so Full and DW with the same seed
// start from the same model on the same split (the paper's matched seeds).
//
// Method hyperparameters are the paper's validation-selected values (its Table "Validation-selected
// hyperparameters"). Where the paper did not evaluate a control on a testbed (TBPTT and Static on
// NARMA-5, every control on driven MG) we use the Mackey–Glass values.
package experiment
