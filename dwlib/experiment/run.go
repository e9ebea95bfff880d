package experiment

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gomlx/compute"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/progress"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// Files of a run directory.
const (
	ConfigFile     = "config.json" // the RunConfig, written when the run starts
	ResultFile     = "result.json"
	CheckpointFile = "last.ckpt" // resumable state after the last finished epoch
	BestFile       = "best.ckpt" // the minimum-validation parameters
)

// Options says where a run writes and how it treats what is already there.
type Options struct {
	// RunsDir is the root of the run directories ("": <repo>/data/runs).
	RunsDir string
	// Resume continues from the run directory's checkpoint when there is one.
	Resume bool
	// Force discards an existing result and checkpoints and starts over.
	Force bool
	// Reporter shows the training loop's progress (nil: none).
	Reporter progress.Reporter
	// Log receives one line per epoch (nil: none).
	Log io.Writer
	// Backend runs the graphs (nil: backend.Shared()).
	Backend compute.Backend
	// DataCache is the directory of generated trajectories ("": data's default).
	DataCache string
	// ETTDir holds the ETT CSV files ("": data's default, ../shared/data/ett).
	ETTDir string
	// DataFile, when set, is read instead of the path a CSV run recorded (the file moved); its
	// SHA-256 must still be the run's.
	DataFile string
	// StopAfter > 0 ends this call after that many epochs (checkpoint written) with ErrStopped,
	// e.g. to fit a long run into time-limited jobs; Resume continues it.
	StopAfter int
}

// DefaultRunsDir is <repo>/data/runs.
func DefaultRunsDir() (string, error) {
	root, err := data.FindRepoRoot("")
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "data", "runs"), nil
}

// Dir returns the run directory of cfg under opt.RunsDir.
func (opt Options) Dir(cfg RunConfig) (string, error) {
	root := opt.RunsDir
	if root == "" {
		var err error
		if root, err = DefaultRunsDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(root, filepath.FromSlash(cfg.Name())), nil
}

// ErrExists is returned (wrapped) when a run directory already holds a checkpoint and neither
// Resume nor Force was given.
var ErrExists = errors.New("run directory already has a checkpoint")

// ErrStopped is returned (wrapped) when Options.StopAfter ended a run before it finished.
var ErrStopped = errors.New("stopped before the end of training; resume to continue")

// Run trains and evaluates one configuration (see the package doc). A finished run with the same
// configuration is not repeated: its result is read back. With Resume, an interrupted run
// continues from its last epoch checkpoint and ends with the same numbers as an uninterrupted run.
func Run(cfg RunConfig, opt Options) (*Result, error) {
	start := time.Now()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	dir, err := opt.Dir(cfg)
	if err != nil {
		return nil, err
	}
	resultPath, ckptPath, bestPath := filepath.Join(dir, ResultFile), filepath.Join(dir, CheckpointFile), filepath.Join(dir, BestFile)
	if opt.Force {
		for _, p := range []string{resultPath, ckptPath, bestPath} {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
		}
	}
	if r, err := ReadResult(resultPath); err == nil {
		if bytes.Equal(mustCanonical(r.Config.identity()), mustCanonical(cfg.identity())) {
			return r, nil
		}
		return nil, fmt.Errorf("experiment: %s holds a result for another configuration; use Force to replace it", resultPath)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w (use Force to replace it)", err)
	}
	_, statErr := os.Stat(ckptPath)
	hasCkpt := statErr == nil
	if hasCkpt && !opt.Resume {
		return nil, fmt.Errorf("experiment: %s: %w; resume it or force a fresh start", ckptPath, ErrExists)
	}

	ds, f, err := setup(cfg, opt)
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(dir, ConfigFile), append(cfg.JSON(), '\n')); err != nil {
		return nil, err
	}
	bk, err := opt.backend()
	if err != nil {
		return nil, err
	}
	s, err := train.NewSession(bk, f, cfg.Train, cfg.Fit, ds.Train, ds.Val, cfg.identity())
	if err != nil {
		return nil, fmt.Errorf("experiment: %s: %w", cfg.Name(), err)
	}
	if hasCkpt {
		if err := s.Load(ckptPath); err != nil {
			return nil, err
		}
	}
	resumedAt := s.Epoch()
	onEpoch := func(rec train.EpochRecord) error {
		if opt.Log != nil {
			be, bv := s.Best()
			fmt.Fprintf(opt.Log, "%s: epoch %d/%d train %.5f val %.5f (best %.5f @%d) %.1fs\n",
				cfg.Name(), rec.Epoch, cfg.Fit.Epochs, rec.TrainLoss, rec.ValLoss, bv, be, rec.TrainSeconds)
		}
		if be, _ := s.Best(); be == rec.Epoch {
			if err := s.SaveModel(bestPath); err != nil {
				return err
			}
		}
		if err := s.Save(ckptPath); err != nil {
			return err
		}
		if opt.StopAfter > 0 && s.Epoch()-resumedAt >= opt.StopAfter && !s.Done() {
			return fmt.Errorf("after epoch %d: %w", s.Epoch(), ErrStopped)
		}
		return nil
	}
	if err := s.Fit(opt.Reporter, onEpoch); err != nil {
		return nil, fmt.Errorf("experiment: %s: %w", cfg.Name(), err)
	}
	if err := s.RestoreBest(); err != nil {
		return nil, err
	}
	score, err := evaluateTest(s.Predictor(), ds.Test, cfg)
	if err != nil {
		return nil, fmt.Errorf("experiment: %s: test evaluation: %w", cfg.Name(), err)
	}
	be, bv := s.Best()
	r := &Result{
		Version: resultVersion, Config: cfg, Model: f.String(), Parameters: f.NumParameters(),
		Backend: backend.Config(), Epochs: s.History(), BestEpoch: be, BestVal: bv, StopReason: s.StopReason(),
		Test: score, SecondsPerEpoch: medianTrainSeconds(s.History()), WallSeconds: time.Since(start).Seconds(),
		ResumedAt: resumedAt,
	}
	if ctrl := s.Trainer().Controller(); ctrl != nil {
		r.GainHistory = ctrl.History()
		L := ctrl.Config().L
		for i := range ctrl.Config().K * L {
			rt := ctrl.Route(i/L, i%L)
			r.RouteT, r.RouteR, r.RouteP = append(r.RouteT, rt.T), append(r.RouteR, rt.R), append(r.RouteP, rt.P)
		}
	}
	if err := WriteResult(resultPath, r); err != nil {
		return nil, err
	}
	return r, nil
}

// setup loads the data and builds the (untrained) forecaster of a run.
func setup(cfg RunConfig, opt Options) (*data.Dataset, *model.Forecaster, error) {
	ds, err := LoadData(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	mc, err := cfg.modelConfig(ds.StateDim, ds.DriveDim)
	if err != nil {
		return nil, nil, err
	}
	f, err := model.New(mc)
	if err != nil {
		return nil, nil, err
	}
	return ds, f, nil
}

// LoadBest returns the run's dataset and its forecaster with the minimum-validation parameters
// (best.ckpt of the run directory, which must exist: run it first).
func LoadBest(cfg RunConfig, opt Options) (*data.Dataset, *model.Forecaster, error) {
	dir, err := opt.Dir(cfg)
	if err != nil {
		return nil, nil, err
	}
	return loadBestFrom(dir, cfg, opt)
}

func loadBestFrom(dir string, cfg RunConfig, opt Options) (*data.Dataset, *model.Forecaster, error) {
	ds, f, err := setup(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	if err := train.LoadModel(filepath.Join(dir, BestFile), f); err != nil {
		return nil, nil, err
	}
	return ds, f, nil
}

// backend returns opt.Backend, or the process-wide one.
func (opt Options) backend() (compute.Backend, error) {
	if opt.Backend != nil {
		return opt.Backend, nil
	}
	return backend.Shared()
}

// EvaluateRun evaluates the best checkpoint of the run in dir on its test split through horizon H
// (0: the run's HEval) with at most origins origins per unit (0: the run's EvalOrigins). It is how
// a checkpoint trained at one K is scored at another fixed horizon.
func EvaluateRun(dir string, H, origins int, opt Options) (RunConfig, TestScore, error) {
	cfg, err := ReadConfig(filepath.Join(dir, ConfigFile))
	if err != nil {
		return RunConfig{}, TestScore{}, err
	}
	if H == 0 {
		H = cfg.HEval
	}
	if origins == 0 {
		origins = cfg.EvalOrigins
	}
	if H < 1 || origins < 1 {
		return cfg, TestScore{}, fmt.Errorf("experiment: H = %d and origins = %d must be >= 1", H, origins)
	}
	ds, f, err := loadBestFrom(dir, cfg, opt)
	if err != nil {
		return cfg, TestScore{}, err
	}
	if err := ds.CheckHorizon(cfg.EvalBurnIn+cfg.EvalWindow, H); err != nil {
		return cfg, TestScore{}, fmt.Errorf("experiment: H = %d: %w", H, err)
	}
	bk, err := opt.backend()
	if err != nil {
		return cfg, TestScore{}, err
	}
	p, err := train.NewPredictor(bk, f, cfg.Fit.EvalBatch)
	if err != nil {
		return cfg, TestScore{}, err
	}
	c := cfg
	c.HEval, c.EvalOrigins = H, origins
	score, err := evaluateTest(p, ds.Test, c)
	return cfg, score, err
}

func writeFileAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// LoadData loads the run's testbed for its seed (or its CSV file) and keeps at most Data.MaxUnits
// units per split.
func LoadData(cfg RunConfig, opt Options) (*data.Dataset, error) {
	ds, err := loadDataset(cfg, opt)
	if err != nil {
		return nil, err
	}
	if m := cfg.Data.MaxUnits; m > 0 {
		ds.Train, ds.Val, ds.Test = evenlySpaced(ds.Train, m), evenlySpaced(ds.Val, m), evenlySpaced(ds.Test, m)
	}
	// Validation rolls out K steps after the training geometry's burn-in and window, the test
	// HEval steps after the test's: check both against every unit before training starts.
	if err := ds.CheckHorizon(cfg.Model.BurnIn+cfg.Model.Window, cfg.Train.K); err != nil {
		return nil, fmt.Errorf("experiment: K = %d: %w", cfg.Train.K, err)
	}
	if err := ds.CheckHorizon(cfg.EvalBurnIn+cfg.EvalWindow, cfg.HEval); err != nil {
		return nil, fmt.Errorf("experiment: evaluation horizon %d: %w", cfg.HEval, err)
	}
	return ds, nil
}

func evenlySpaced(units []data.Series, m int) []data.Series {
	if len(units) <= m {
		return units
	}
	out := make([]data.Series, m)
	for i := range m {
		out[i] = units[i*len(units)/m]
	}
	return out
}

func evaluateTest(p *train.Predictor, test []data.Series, cfg RunConfig) (TestScore, error) {
	res, err := eval.EvaluateBatch(p, train.Units(test, cfg.EvalBurnIn), cfg.EvalWindow, cfg.HEval, cfg.EvalOrigins)
	if err != nil {
		return TestScore{}, err
	}
	n := 0
	for _, o := range res.NumOrigins {
		n += o
	}
	return TestScore{RelL2: res.RelL2, PerHorizon: res.PerHorizon, PerUnit: res.PerUnit, Units: len(res.PerUnit), Origins: n}, nil
}

func mustCanonical(v any) []byte {
	b, _ := json.Marshal(v)
	var g any
	_ = json.Unmarshal(b, &g)
	b, _ = json.Marshal(g)
	return b
}
