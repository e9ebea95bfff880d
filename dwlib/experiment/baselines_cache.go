package experiment

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/internal-dw/dwgo/dwlib/baseline"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
)

// baselinesVersion is bumped when BaselineSet's layout or the way baselines are scored changes,
// so that older cache files are recomputed.
const baselinesVersion = 1

// BaselineKey is everything a baseline score depends on: the testbed and seed (which choose the
// split), the data options, the evaluation protocol of the runs (BaselineProtocol), the ridge
// grid and a fingerprint of the loaded dataset itself. It does not depend on the method, the
// model or the training settings. A cache file whose key differs from the run's is recomputed.
type BaselineKey struct {
	Testbed string     `json:"testbed"`
	Seed    uint64     `json:"seed"`
	Data    DataConfig `json:"data"`
	// The protocol (baseline.Protocol): burn-in, observed states before each origin, horizon and
	// origins per unit, as the runs' test evaluation uses them.
	BurnIn     int `json:"burn_in"`
	History    int `json:"history"`
	H          int `json:"h"`
	MaxOrigins int `json:"max_origins"`
	// The ridge's validation grid (W larger than History is dropped by baseline.SelectRidge); null
	// for a field testbed, whose linear baseline is the Fourier AR with the grid FourierOrders ×
	// FourierLambdas (orders above History dropped), absent for the time series.
	RidgeWindows   []int     `json:"ridge_windows"`
	RidgeLambdas   []float64 `json:"ridge_lambdas"`
	FourierOrders  []int     `json:"fourier_orders,omitempty"`
	FourierLambdas []float64 `json:"fourier_lambdas,omitempty"`
	// DataSHA256 fingerprints the standardised train, validation and test units, so a change of
	// the generator or the data files is noticed even when the options are unchanged.
	DataSHA256 string `json:"data_sha256"`
}

// Protocol is the key's evaluation protocol.
func (k BaselineKey) Protocol() baseline.Protocol {
	return baseline.Protocol{BurnIn: k.BurnIn, History: k.History, H: k.H, MaxOrigins: k.MaxOrigins}
}

// BaselineScore is one baseline's score in a BaselineSet.
type BaselineScore struct {
	Name   string `json:"name"`   // baseline.NameZero, NameDamped and NameRidge (a field: NameFourierAR)
	Params string `json:"params"` // the fitted hyper-parameters in one line (baseline.Result.Params)
	// Phi is the damping factor fitted on the training units (damped persistence); W, Lambda and
	// Drive are the ridge's validation-selected lag order, strength and drive features (the
	// Fourier AR's order and relative ridge).
	Phi    float64 `json:"phi,omitempty"`
	W      int     `json:"w,omitempty"`
	Lambda float64 `json:"lambda,omitempty"`
	Drive  bool    `json:"drive,omitempty"`
	// ValRelL2 is eq. (8) on the validation units; Test is eq. (8) on the test units, the number
	// to read beside a run's Result.Test.
	ValRelL2 float64   `json:"val_rel_l2"`
	Test     TestScore `json:"test"`
}

// BaselineSet is the three baselines of one testbed and seed under one protocol, as cached in
// <runs>/<profile>/<testbed>/baselines-K<K>-s<seed>.json.
type BaselineSet struct {
	Version int             `json:"version"`
	Key     BaselineKey     `json:"key"`
	Scores  []BaselineScore `json:"baselines"` // zero, damped persistence, ridge AR
	Seconds float64         `json:"seconds"`   // time taken to load the data and score them

	// Path is the cache file; Reused says whether the scores were read back from it (not stored).
	Path   string `json:"-"`
	Reused bool   `json:"-"`
}

// Get returns the score of the named baseline.
func (s *BaselineSet) Get(name string) (BaselineScore, bool) {
	for _, b := range s.Scores {
		if b.Name == name {
			return b, true
		}
	}
	return BaselineScore{}, false
}

// baselineNames is the order of baselines in a set and in the tables.
var baselineNames = []string{baseline.NameZero, baseline.NameDamped, baseline.NameRidge}

// fieldBaselineNames is baselineNames of a field testbed: the full-state ridge AR is not attempted
// on thousands of coordinates; the Fourier AR takes its place.
var fieldBaselineNames = []string{baseline.NameZero, baseline.NameDamped, baseline.NameFourierAR}

// BaselineNames lists the baselines in table order (the time-series testbeds').
func BaselineNames() []string { return slices.Clone(baselineNames) }

// BaselineNamesOf lists the baselines of a testbed in table order: zero, damped persistence and
// the ridge AR, or for a field testbed (data.IsField) the Fourier AR instead of the ridge.
func BaselineNamesOf(testbed string) []string { return slices.Clone(baselineNamesOf(testbed)) }

func baselineNamesOf(testbed string) []string {
	if data.IsField(testbed) {
		return fieldBaselineNames
	}
	return baselineNames
}

// baselineGrid is the ridge grid the baselines are scored with, made explicit so the key records
// it.
func baselineGrid() baseline.Grid {
	return baseline.Grid{Windows: slices.Clone(baseline.DefaultWindows), Lambdas: baseline.DefaultLambdas()}
}

// BaselinesPath is the cache file of cfg's baselines: <runs>/<profile>/<testbed>/baselines-K<K>-s<seed>.json,
// beside the testbed's run directories.
func BaselinesPath(cfg RunConfig, opt Options) (string, error) {
	dir, err := opt.Dir(cfg)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(dir), fmt.Sprintf("baselines-K%d-s%d.json", cfg.Train.K, cfg.Seed)), nil
}

// baselineKey is the key of cfg's baselines on ds.
func baselineKey(cfg RunConfig, ds *data.Dataset) BaselineKey {
	p, g := BaselineProtocol(cfg), baselineGrid()
	k := BaselineKey{Testbed: cfg.Testbed, Seed: cfg.Seed, Data: cfg.identity().Data,
		BurnIn: p.BurnIn, History: p.History, H: p.H, MaxOrigins: p.MaxOrigins,
		RidgeWindows: g.Windows, RidgeLambdas: g.Lambdas, DataSHA256: datasetSHA256(ds)}
	if _, ok := data.FieldShape(ds); ok {
		k.RidgeWindows, k.RidgeLambdas = nil, nil
		k.FourierOrders, k.FourierLambdas = slices.Clone(baseline.DefaultFourierOrders), slices.Clone(baseline.DefaultFourierLambdas)
	}
	return k
}

// ScoreBaselines loads cfg's data (LoadData) and scores the three baselines with baseline.Score
// under BaselineProtocol(cfg), without reading or writing any cache.
func ScoreBaselines(cfg RunConfig, opt Options) (*BaselineSet, error) {
	start := time.Now()
	key, ds, err := loadBaselineKey(cfg, opt)
	if err != nil {
		return nil, err
	}
	return scoreBaselines(key, ds, start)
}

// loadBaselineKey validates cfg, loads its data and returns the key its baselines are scored
// under.
func loadBaselineKey(cfg RunConfig, opt Options) (BaselineKey, *data.Dataset, error) {
	if err := cfg.Validate(); err != nil {
		return BaselineKey{}, nil, err
	}
	ds, err := LoadData(cfg, opt)
	if err != nil {
		return BaselineKey{}, nil, err
	}
	return baselineKey(cfg, ds), ds, nil
}

func scoreBaselines(key BaselineKey, ds *data.Dataset, start time.Time) (*BaselineSet, error) {
	var rs []baseline.Result
	var err error
	if _, ok := data.FieldShape(ds); ok {
		rs, err = baseline.ScoreField(ds, key.Protocol(), baseline.FourierGrid{Orders: key.FourierOrders, Lambdas: key.FourierLambdas})
	} else {
		rs, err = baseline.Score(ds, key.Protocol(), baseline.Grid{Windows: key.RidgeWindows, Lambdas: key.RidgeLambdas})
	}
	if err != nil {
		return nil, fmt.Errorf("experiment: baselines of %s seed %d: %w", key.Testbed, key.Seed, err)
	}
	set := &BaselineSet{Version: baselinesVersion, Key: key}
	for _, r := range rs {
		set.Scores = append(set.Scores, BaselineScore{Name: r.Name, Params: r.Params(), Phi: r.Phi, W: r.W, Lambda: r.Lambda,
			Drive: r.Drive, ValRelL2: r.Val.RelL2, Test: testScoreOf(r.Test)})
	}
	set.Seconds = time.Since(start).Seconds()
	return set, set.check()
}

// testScoreOf packs an eq. (8) result as a TestScore, as the runs report theirs.
func testScoreOf(r eval.Result) TestScore {
	n := 0
	for _, o := range r.NumOrigins {
		n += o
	}
	return TestScore{RelL2: r.RelL2, PerHorizon: r.PerHorizon, PerUnit: r.PerUnit, Units: len(r.PerUnit), Origins: n}
}

// RunBaselines returns cfg's baselines, read back from BaselinesPath when that file holds a valid
// set with the same key (version, testbed, seed, data options, protocol, ridge grid and data
// fingerprint), and otherwise scored with ScoreBaselines and written there atomically. The data
// is always loaded, to fingerprint it; scoring takes seconds. opt.Force rescores. When something
// is scored, one line goes to opt.Log.
func RunBaselines(cfg RunConfig, opt Options) (*BaselineSet, error) {
	start := time.Now()
	key, ds, err := loadBaselineKey(cfg, opt)
	if err != nil {
		return nil, err
	}
	path, err := BaselinesPath(cfg, opt)
	if err != nil {
		return nil, err
	}
	why := "forced"
	if !opt.Force {
		old, err := ReadBaselines(path)
		switch {
		case err == nil && bytes.Equal(mustCanonical(old.Key), mustCanonical(key)):
			old.Reused = true
			return old, nil
		case err == nil:
			why = "stale: " + keyDiff(old.Key, key)
		case errors.Is(err, os.ErrNotExist):
			why = "new"
		default:
			why = "unreadable: " + err.Error()
		}
	}
	set, err := scoreBaselines(key, ds, start)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(set, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("experiment: encoding baselines: %w", err)
	}
	if err := writeFileAtomic(path, append(b, '\n')); err != nil {
		return nil, err
	}
	set.Path = path
	if opt.Log != nil {
		fmt.Fprintf(opt.Log, "baselines %s s%d (history %d, H %d): scored in %.1f s (%s) -> %s\n",
			cfg.Testbed, cfg.Seed, key.History, key.H, set.Seconds, why, path)
	}
	return set, nil
}

// keyDiff names the top-level key fields that differ.
func keyDiff(a, b BaselineKey) string {
	var ma, mb map[string]json.RawMessage
	_ = json.Unmarshal(mustCanonical(a), &ma)
	_ = json.Unmarshal(mustCanonical(b), &mb)
	var diff []string
	for k, v := range mb {
		if !bytes.Equal(ma[k], v) {
			diff = append(diff, k)
		}
	}
	slices.Sort(diff)
	if len(diff) == 0 {
		return "key"
	}
	return fmt.Sprint(diff)
}

// ReadBaselines reads a cached BaselineSet: it must decode with no unknown field, have this
// version, and hold the three baselines in order with finite scores.
func ReadBaselines(path string) (*BaselineSet, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s BaselineSet
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("experiment: %s is not a valid baselines file: %w", path, err)
	}
	if s.Version != baselinesVersion {
		return nil, fmt.Errorf("experiment: %s has baselines version %d, want %d", path, s.Version, baselinesVersion)
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("experiment: %s: %w", path, err)
	}
	s.Path = path
	return &s, nil
}

// check verifies the set's shape: the three baselines of its testbed in order, finite, one value
// per horizon.
func (s *BaselineSet) check() error {
	names := baselineNamesOf(s.Key.Testbed)
	if len(s.Scores) != len(names) {
		return fmt.Errorf("%d baselines, want %d", len(s.Scores), len(names))
	}
	for i, b := range s.Scores {
		switch {
		case b.Name != names[i]:
			return fmt.Errorf("baseline %d is %q, want %q", i, b.Name, names[i])
		case !finite(b.Test.RelL2) || !finite(b.ValRelL2):
			return fmt.Errorf("%s: test rel-L2 %v, validation %v", b.Name, b.Test.RelL2, b.ValRelL2)
		case len(b.Test.PerHorizon) != s.Key.H:
			return fmt.Errorf("%s: %d per-horizon values for H = %d", b.Name, len(b.Test.PerHorizon), s.Key.H)
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) && x >= 0 }

// datasetSHA256 fingerprints a dataset's dimensions and the values of its three splits.
func datasetSHA256(ds *data.Dataset) string {
	h := sha256.New()
	io.WriteString(h, ds.Name)
	putInts(h, ds.StateDim, ds.DriveDim)
	for _, split := range [][]data.Series{ds.Train, ds.Val, ds.Test} {
		putInts(h, len(split))
		for _, s := range split {
			putRows(h, s.X)
			putRows(h, s.Drive)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func putInts(h hash.Hash, xs ...int) {
	var b [8]byte
	for _, x := range xs {
		binary.LittleEndian.PutUint64(b[:], uint64(x))
		h.Write(b[:])
	}
}

func putRows(h hash.Hash, rows [][]float64) {
	putInts(h, len(rows))
	var b [8]byte
	for _, r := range rows {
		putInts(h, len(r))
		for _, v := range r {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			h.Write(b[:])
		}
	}
}
