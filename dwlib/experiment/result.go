package experiment

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/calib"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/train"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// resultVersion is bumped when Result's layout changes.
const resultVersion = 1

// TestScore is eq. (8) on the test split for the minimum-validation parameters.
type TestScore struct {
	RelL2      float64   `json:"rel_l2"`
	PerHorizon []float64 `json:"per_horizon"` // h = 1..HEval
	PerUnit    []float64 `json:"per_unit"`
	Units      int       `json:"units"`
	Origins    int       `json:"origins"` // total over units
}

// Result is what a run writes to result.json.
type Result struct {
	Version    int               `json:"version"`
	Config     RunConfig         `json:"config"`
	DataFiles  []data.FileDigest `json:"data_files,omitempty"` // the files the data were read from (ETT), with their SHA-256
	Model      string            `json:"model"`
	Parameters int               `json:"parameters"`
	Backend    string            `json:"backend"`
	// Build names the code that trained the run (buildID): its commit and GoMLX version. One
	// build repeats its numbers exactly; another may not, at float32 (environment.md).
	Build      string              `json:"build,omitempty"`
	Epochs     []train.EpochRecord `json:"epochs"`
	BestEpoch  int                 `json:"best_epoch"`
	BestVal    float64             `json:"best_val"`
	StopReason string              `json:"stop_reason"` // "epochs" or "patience"
	Test       TestScore           `json:"test"`
	// ValAtTest is the same checkpoint scored on the validation split under the test protocol
	// (EvalWindow, HEval, EvalOrigins): BestVal scores h = 1..K, so it cannot be set beside a
	// baseline's validation score (h = 1..HEval) or compare profiles at the horizon the test reads.
	// Profiles are chosen on it (ChooseByValidation, ByValAtTest). Nil in a result written before
	// it existed; RecordValAtTest (dw eval -record) adds it from the run's checkpoint.
	ValAtTest *TestScore `json:"val_at_test,omitempty"`
	// SecondsPerEpoch is the median training-loop time per epoch (no validation, no I/O), the
	// paper's timing convention without its warm-up epoch when there are more than two epochs.
	SecondsPerEpoch float64              `json:"seconds_per_epoch"`
	WallSeconds     float64              `json:"wall_seconds"`           // this process, data to result (a resumed run counts only its own part)
	ResumedAt       int                  `json:"resumed_at"`             // epochs already done when this process started (0: fresh)
	GainHistory     []calib.HistoryEntry `json:"gain_history,omitempty"` // DW: gains at every change (latest 256)
	// RouteT, RouteR and RouteP are the DW controller's final committed route moments, [K][L] flat.
	RouteT []wiener.Sym2 `json:"route_T,omitempty"`
	RouteR []wiener.Sym2 `json:"route_R,omitempty"`
	RouteP []wiener.Sym2 `json:"route_P,omitempty"`
	// Prior is how a DW-Prior run's bank was built: its grid, the selected (rho, p), p or (W,
	// lambda), every candidate's held-out MSE (-1: failed) and the bank's size; nil otherwise.
	Prior *PriorRecord `json:"prior,omitempty"`
	// Checksum is the SHA-256 of everything else in the file (resultsum.go), written by
	// WriteResult and checked by ReadResult, so that a score edited by hand or a damaged archive
	// is refused by name. "" in a result written before checksums existed: read without the
	// check, and callers say so (HasChecksum).
	Checksum string `json:"sha256,omitempty"`
}

// HasChecksum reports whether r was read with its checksum verified (false for a result written
// before checksums existed).
func (r *Result) HasChecksum() bool { return r.Checksum != "" }

// EpochSeconds is the time spent in the run's epochs, training and validation, summed over every
// epoch, including those of earlier processes of a resumed run (WallSeconds counts only the last
// process, but from data to result).
func (r *Result) EpochSeconds() float64 {
	s := 0.0
	for _, e := range r.Epochs {
		s += e.TrainSeconds + e.ValSeconds
	}
	return s
}

// medianTrainSeconds is the median epoch time, skipping the first (compilation) epoch when more
// than two epochs ran.
func medianTrainSeconds(eps []train.EpochRecord) float64 {
	var xs []float64
	for i, e := range eps {
		if i == 0 && len(eps) > 2 {
			continue
		}
		xs = append(xs, e.TrainSeconds)
	}
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	if n := len(xs); n%2 == 1 {
		return xs[n/2]
	} else {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
}

// WriteResult writes r as indented JSON, atomically; a path ending in ".gz" gets compact,
// gzip-compressed JSON (the archive's form: a DW run's per-epoch gains are most of its size).
func WriteResult(path string, r *Result) error {
	r, err := withChecksum(r)
	if err != nil {
		return err
	}
	if strings.HasSuffix(path, ".gz") {
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("experiment: encoding result: %w", err)
		}
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		return writeFileAtomic(path, z.Bytes())
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("experiment: encoding result: %w", err)
	}
	return writeFileAtomic(path, append(b, '\n'))
}

// ReadResult reads and checks a result file: it must decode with no unknown field, have this
// version, match its checksum (when it has one: results written before checksums existed are
// read without, and have HasChecksum false), and hold a finite test score with one value per
// horizon.
func ReadResult(path string) (*Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err == nil {
			b, err = io.ReadAll(zr)
		}
		if err != nil {
			return nil, fmt.Errorf("experiment: %s is not a valid gzip file: %w", path, err)
		}
	}
	var r Result
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("experiment: %s is not a valid result: %w", path, err)
	}
	if err := verifyChecksum(path, b, r.Checksum); err != nil {
		return nil, err
	}
	switch {
	case r.Version != resultVersion:
		return nil, fmt.Errorf("experiment: %s has result version %d, want %d", path, r.Version, resultVersion)
	case math.IsNaN(r.Test.RelL2) || math.IsInf(r.Test.RelL2, 0) || r.Test.RelL2 < 0:
		return nil, fmt.Errorf("experiment: %s: test rel_l2 = %v", path, r.Test.RelL2)
	case len(r.Test.PerHorizon) != r.Config.HEval:
		return nil, fmt.Errorf("experiment: %s: %d per-horizon values for h_eval %d", path, len(r.Test.PerHorizon), r.Config.HEval)
	case len(r.Epochs) == 0:
		return nil, fmt.Errorf("experiment: %s: no epochs", path)
	}
	return &r, nil
}
