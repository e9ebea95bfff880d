// Package runcache memoizes expensive, deterministic computations (training
// runs, sweeps) on disk as JSON, so re-running a notebook does not redo them.
//
// Correctness over convenience: a cached result is reused only if it was
// produced by exactly the same computation. Each entry is identified by
//
//	key = {version, name, type of the result, data seed, JSON of the config}
//
// The entry file is named after the SHA-256 of the "slot" (the key without
// the version), and stores the full key JSON, its SHA-256, and a SHA-256 of
// the payload. On lookup:
//
//   - no file: Miss, compute and store;
//   - stored key differs from the requested one (e.g. Version was bumped
//     after a code change, or the result type changed shape): Stale,
//     reported and recomputed;
//   - unreadable JSON (e.g. a truncated write), missing fields, or payload
//     checksum mismatch: Corrupt, reported and recomputed;
//   - otherwise: Hit.
//
// Stale and corrupt entries are never silently reused; every non-hit is
// reported to Cache.Log. Writes are atomic (temporary file in the same
// directory, fsync, rename), so a crash mid-write leaves either the old
// entry or the new one, never a half-written file under the entry name.
//
// JSON cannot encode NaN or ±Inf floats: a result holding them is returned
// but not stored (Get reports an error alongside the value).
package runcache
