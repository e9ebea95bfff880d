package data

import (
	"fmt"
	"math"
)

// Series is one trajectory or unit of a testbed.
//
// X[t][d] is the state at step t (coordinate d); it is raw when a generator
// returns it and standardised once it is part of a [Dataset].
//
// Drive[t][j] is the observed drive (external input) associated with step t,
// or nil for autonomous testbeds. The convention throughout the package is
// that Drive[t] is the input acting over the step t -> t+1, i.e. it is known
// when X[t+1] is forecast from X[t]:
//   - narma5: Drive[t] = u_t, which enters y_{t+1};
//   - driven-mg: Drive[t] = u_j for the unit interval [t, t+1) in which it is
//     held constant (Options.Generator "authors" instead pairs X[t] with the
//     interval [t-1, t) that produced it, as the release does);
//   - ettm1/ettm2: Drive[t] = calendar features of X[t]'s own timestamp
//     (deterministic, so the forecaster may equally read Drive[t+1]).
//
// len(Drive) == len(X) whenever Drive is non-nil.
type Series struct {
	X     [][]float64
	Drive [][]float64
}

// Len is the number of time steps.
func (s Series) Len() int { return len(s.X) }

// Clone returns a deep copy, so that callers may modify it freely.
func (s Series) Clone() Series {
	return Series{X: cloneRows(s.X), Drive: cloneRows(s.Drive)}
}

func cloneRows(rows [][]float64) [][]float64 {
	if rows == nil {
		return nil
	}
	out := make([][]float64, len(rows))
	for i, r := range rows {
		out[i] = append([]float64(nil), r...)
	}
	return out
}

// Dataset is a testbed ready for training: three disjoint splits of
// standardised series plus the normaliser that produced them.
//
// Norm holds training-split statistics only (Appendix F.1: "standardized
// using the mean and standard deviation of the corresponding training
// trajectories only"). Norm.State covers every state coordinate, per
// coordinate by default or with one pooled scalar (Options.ScalarNorm).
// Norm.Drive is the identity (raw drive) unless the testbed standardises its
// drive (ETT calendar features). NARMA inputs and the unit-variance
// Mackey–Glass drive keep their raw scale.
type Dataset struct {
	Name               string
	StateDim, DriveDim int // DriveDim is 0 for autonomous testbeds.
	Train, Val, Test   []Series
	Norm               Normalizer

	// Split records which source trajectories (synthetic testbeds) or
	// chronological units (ETT, counted from the first row) ended up in each
	// split, for provenance and for matching units across drive scales.
	Split Split

	// Files are the data files the dataset was read from, with their
	// SHA-256 (ETT: the CSV); nil for the generated testbeds, which their
	// options determine. A run's identity includes them.
	Files []FileDigest

	// Subjects is true when every series of every split is one whole subject
	// (fmri-synth, a manifest with subjects): all series of a split are
	// aligned in time (equal length, the same stimulus at the same step) and
	// the splits are disjoint sets of subjects. The subject-AR prior
	// (dw -sampler prior-subject) needs it; elsewhere series are chunks or
	// trajectories with no subject identity.
	Subjects bool
	// Field is the spatial layout of a field testbed's states (see [Field] and [FieldShape]);
	// nil for the time-series testbeds.
	Field *Field
}

// NewDataset validates raw splits, fits the normaliser on train only and
// returns the standardised dataset. The inputs are not modified.
//
// standardizeDrive selects whether drive coordinates are standardised too
// (with their own training statistics) or kept on their raw scale.
func NewDataset(name string, train, val, test []Series, standardizeDrive bool) (*Dataset, error) {
	return newDataset(name, train, val, test, func(tr []Series) Normalizer { return FitNormalizer(tr, standardizeDrive) })
}

// newDataset is NewDataset with the normaliser fit supplied by the caller
// (per-coordinate or scalar, see Options.ScalarNorm); fit sees train only.
func newDataset(name string, train, val, test []Series, fit func(train []Series) Normalizer) (*Dataset, error) {
	if len(train) == 0 {
		return nil, fmt.Errorf("data: dataset %q: empty training split", name)
	}
	d := &Dataset{Name: name, Train: train, Val: val, Test: test}
	d.StateDim = width(train[0].X)
	d.DriveDim = width(train[0].Drive)
	if err := d.Validate(); err != nil {
		return nil, err
	}
	d.Norm = fit(train)
	d.Train = applyAll(d.Norm, train)
	d.Val = applyAll(d.Norm, val)
	d.Test = applyAll(d.Norm, test)
	// Standardising finite numbers can still overflow in pathological
	// cases; check again so a Dataset is always finite.
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("after standardisation: %w", err)
	}
	return d, nil
}

func width(rows [][]float64) int {
	if len(rows) == 0 {
		return 0
	}
	return len(rows[0])
}

func applyAll(n Normalizer, ss []Series) []Series {
	out := make([]Series, len(ss))
	for i, s := range ss {
		out[i] = n.Apply(s)
	}
	return out
}

// Validate checks that every series has consistent shapes (StateDim state
// coordinates, DriveDim drive coordinates aligned with X) and only finite
// values. Errors name the dataset, split, unit, time step and coordinate.
func (d *Dataset) Validate() error {
	for _, sp := range d.splits() {
		for u, s := range sp.series {
			if len(s.X) == 0 {
				return fmt.Errorf("data: dataset %q %s unit %d: empty series", d.Name, sp.name, u)
			}
			if d.DriveDim == 0 && s.Drive != nil && width(s.Drive) != 0 {
				return fmt.Errorf("data: dataset %q %s unit %d: unexpected drive in an autonomous dataset", d.Name, sp.name, u)
			}
			if d.DriveDim > 0 && len(s.Drive) != len(s.X) {
				return fmt.Errorf("data: dataset %q %s unit %d: %d drive steps for %d state steps", d.Name, sp.name, u, len(s.Drive), len(s.X))
			}
			if err := checkRows(d.Name, sp.name, u, "state", s.X, d.StateDim); err != nil {
				return err
			}
			if d.DriveDim > 0 {
				if err := checkRows(d.Name, sp.name, u, "drive", s.Drive, d.DriveDim); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func checkRows(name, split string, unit int, kind string, rows [][]float64, dim int) error {
	for t, r := range rows {
		if len(r) != dim {
			return fmt.Errorf("data: dataset %q %s unit %d time %d: %d %s coordinates, want %d", name, split, unit, t, len(r), kind, dim)
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("data: dataset %q %s unit %d time %d %s coordinate %d: non-finite value %v", name, split, unit, t, kind, j, v)
			}
		}
	}
	return nil
}

type namedSplit struct {
	name   string
	series []Series
}

func (d *Dataset) splits() []namedSplit {
	return []namedSplit{{"train", d.Train}, {"val", d.Val}, {"test", d.Test}}
}

// CheckHorizon reports whether every unit in every split is long enough for
// a model that reads `window` observed steps and then forecasts K steps,
// i.e. window+K <= unit length. Otherwise it returns a descriptive error
// naming the first unit that is too short; call it once before training
// instead of discovering a short unit mid-epoch.
func (d *Dataset) CheckHorizon(window, K int) error {
	if window < 1 || K < 1 {
		return fmt.Errorf("data: dataset %q: window (%d) and horizon K (%d) must both be >= 1", d.Name, window, K)
	}
	need := window + K
	for _, sp := range d.splits() {
		for u, s := range sp.series {
			if s.Len() < need {
				return fmt.Errorf("data: dataset %q: window %d + horizon %d = %d steps exceeds %s unit %d, which has only %d steps",
					d.Name, window, K, need, sp.name, u, s.Len())
			}
		}
	}
	return nil
}
