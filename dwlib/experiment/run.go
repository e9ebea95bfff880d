package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gomlx/compute"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/internal/atomicfile"
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
	// Force discards an existing result and checkpoints and starts over (not with Resume).
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
	// Archive is a read-only tree of finished results laid out like RunsDir (archive.go), read
	// when a run directory holds no result ("": <repo>/data/results/runs when RunsDir is also the
	// default, none otherwise).
	Archive string
	// NoArchive reads no archive at all, e.g. when the caller needs a run's parameters, which the
	// archive does not keep: a run with only an archived result is then trained (or resumed).
	NoArchive bool
	// DataFile, when set, is read instead of the path a CSV run recorded (the file moved); its
	// SHA-256 must still be the run's.
	DataFile string
	// StopAfter > 0 ends this call after that many epochs (checkpoint written) with ErrStopped,
	// e.g. to fit a long run into time-limited jobs; Resume continues it.
	StopAfter int
	// Jobs is the number of runs Sweep trains at once (<= 1: one after another). The runs share
	// the backend; GoMLX's Go backend runs a graph's ops in parallel only while it executes alone,
	// so concurrent runs fill the cores that one run's sequential stretches leave idle.
	Jobs int
	// Context, once done (e.g. on SIGINT), stops training between minibatches with an
	// *InterruptedError; the checkpoint of the last finished epoch is where Resume continues.
	// nil: never.
	Context context.Context
	// AfterRun, when set, is called by Sweep in a run's worker after each run that ends with a
	// result (trained, resumed or read back), before that worker starts another run. Its error
	// becomes the run's Outcome.Err; the Result is kept. It is how a sweep keeps each finished
	// run safe at once (ArchiveAfterRun), rather than at the end of a sweep that may never end.
	AfterRun func(Outcome) error
}

// validate refuses contradictory options.
func (opt Options) validate() error {
	if opt.Resume && opt.Force {
		return errors.New("experiment: Resume and Force contradict each other: Resume continues a run's checkpoint, Force discards it")
	}
	if opt.StopAfter < 0 {
		return fmt.Errorf("experiment: StopAfter = %d, must be >= 0 (0: train to the end)", opt.StopAfter)
	}
	return nil
}

func (opt Options) context() context.Context {
	if opt.Context == nil {
		return context.Background()
	}
	return opt.Context
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

// Run trains and evaluates one configuration (see the package doc). A finished run with the same
// configuration (and data files) is not repeated: its result is read back. With Resume, an
// interrupted run continues from its last epoch checkpoint and ends with the same numbers as an
// uninterrupted run.
//
// Unless it reads a finished run back, Run takes the run directory's lock (see runLock): a second
// Run on the same directory is refused at once, naming the first. Everything is checked before
// anything is written: the configuration and options, the backend (before any data is loaded or any
// directory is made), an existing result, the data, and on Resume the checkpoint (its whole
// identity, data files included) and best.ckpt. A best.ckpt that is missing, unreadable, of another run or of another
// epoch than the checkpoint's best is rewritten from the best parameters that last.ckpt holds (it
// always holds them after the first epoch), and the rewrite is logged. Only then are config.json,
// and with Force the removal of the old files, written.
func Run(cfg RunConfig, opt Options) (*Result, error) {
	start := time.Now()
	runsActive.Add(1)
	defer runsActive.Add(-1)
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	dir, err := opt.Dir(cfg)
	if err != nil {
		return nil, err
	}
	// A finished run is read back without the lock (its files are only ever replaced atomically),
	// so reading results never waits for, or is refused by, a run working in the same directory.
	// An archived result that is there but unreadable or of another run is refused, naming its
	// file, as ReadFinished's other callers (dw table) refuse it: training over it would silently
	// replace a finished run by another. One in the run directory is refused by runLocked, under
	// the lock, as before.
	if !opt.Force {
		r, p, err := ReadFinished(cfg, opt)
		switch {
		case err != nil && p != filepath.Join(dir, ResultFile):
			return nil, fmt.Errorf("%w (an archived result: restore or remove it, or use Force to train anew)", err)
		case err == nil && r != nil:
			return r, nil
		}
	}
	// Before the backend, the lock or any graph: a size that cannot fit is refused by name.
	if err := cfg.checkMemory(); err != nil {
		return nil, err
	}
	bk, err := opt.backend()
	if err != nil {
		return nil, fmt.Errorf("experiment: %s: backend: %w", cfg.Name(), err)
	}
	lock, err := lockRunDir(dir)
	if err != nil {
		return nil, err
	}
	r, err := runLocked(cfg, opt, bk, dir, start)
	if uerr := lock.release(); uerr != nil && err == nil {
		return nil, uerr
	}
	return r, err
}

// runLocked is Run holding the run directory's lock.
func runLocked(cfg RunConfig, opt Options, bk compute.Backend, dir string, start time.Time) (*Result, error) {
	resultPath, ckptPath, bestPath := filepath.Join(dir, ResultFile), filepath.Join(dir, CheckpointFile), filepath.Join(dir, BestFile)
	if !opt.Force {
		if r, err := ReadResult(resultPath); err == nil {
			if err := sameRun(r, cfg, opt, resultPath); err != nil {
				return nil, err
			}
			return r, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w (use Force to replace it)", err)
		}
	}
	_, statErr := os.Stat(ckptPath)
	hasCkpt := statErr == nil && !opt.Force
	if hasCkpt && !opt.Resume {
		return nil, fmt.Errorf("experiment: %s: %w; resume it or force a fresh start", ckptPath, ErrExists)
	}

	ds, f, err := setupModel(cfg, opt)
	if err != nil {
		return nil, err
	}
	id := identityOf(cfg, ds)
	tcfg, priorRec, err := withNoiseSampler(cfg, ds)
	if err != nil {
		return nil, err
	}
	logPrior(opt.Log, cfg, priorRec)
	s, err := train.NewSession(bk, f, tcfg.Train, cfg.Fit, ds.Train, ds.Val, id)
	if err != nil {
		return nil, fmt.Errorf("experiment: %s: %w", cfg.Name(), err)
	}
	rewriteBest := false
	if hasCkpt {
		if err := s.Load(ckptPath); err != nil {
			return nil, explainIdentity(err, cfg, id)
		}
		if s.Epoch() > 0 {
			if err := s.CheckBest(bestPath); err != nil {
				rewriteBest = true
				if opt.Log != nil {
					be, _ := s.Best()
					fmt.Fprintf(opt.Log, "%s: %s is not this run's best checkpoint (%v); rewriting it from %s (best epoch %d)\n",
						cfg.Name(), BestFile, err, CheckpointFile, be)
				}
			}
		}
	}

	// Everything is checked: now write.
	if opt.Force {
		for _, p := range []string{resultPath, ckptPath, bestPath} {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
		}
	}
	if err := writeFileAtomic(filepath.Join(dir, ConfigFile), append(cfg.JSON(), '\n')); err != nil {
		return nil, err
	}
	if rewriteBest {
		if err := s.SaveModel(bestPath); err != nil {
			return nil, err
		}
	}
	resumedAt := s.Epoch()
	if !s.Done() {
		// Every graph is built and compiled here, before the first step (on XLA, concurrently):
		// the one stretch of a run that cannot stop at a minibatch, which BuildingOnly reports.
		runsBuilding.Add(1)
		times, wall, err := s.Compile()
		runsBuilding.Add(-1)
		if err != nil {
			return nil, fmt.Errorf("experiment: %s: %w", cfg.Name(), err)
		}
		if opt.Log != nil && (s.Trainer().Engine() == train.EngineSteps || !backend.IsGo(bk)) {
			fmt.Fprintf(opt.Log, "%s: compiled %d graphs (%s engine) in %.1f s:%s\n", cfg.Name(), len(times), s.Trainer().Engine(), wall, compileList(times))
		}
	}
	onEpoch := func(rec train.EpochRecord) error {
		if opt.Log != nil {
			be, bv := s.Best()
			jreg := ""
			if rec.JReg != nil {
				jreg = "; " + rec.JReg.String()
			}
			fmt.Fprintf(opt.Log, "%s: epoch %d/%d train %.5f val %.5f (best %.5f @%d) %.1fs%s\n",
				cfg.Name(), rec.Epoch, cfg.Fit.Epochs, rec.TrainLoss, rec.ValLoss, bv, be, rec.TrainSeconds, jreg)
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
	ctx := opt.context()
	if err := s.FitContext(ctx, opt.Reporter, onEpoch); err != nil {
		if ctx.Err() != nil && errors.Is(err, context.Cause(ctx)) {
			return nil, &InterruptedError{Run: cfg.Name(), Dir: dir, Epoch: s.Epoch()}
		}
		return nil, fmt.Errorf("experiment: %s: %w", cfg.Name(), err)
	}
	if err := s.RestoreBest(); err != nil {
		return nil, err
	}
	score, err := evaluateTest(s.Predictor(), ds.Test, cfg)
	if err != nil {
		return nil, fmt.Errorf("experiment: %s: test evaluation: %w", cfg.Name(), err)
	}
	// The validation split under the test protocol; a split whose units are too short for it (a
	// CSV data set's) leaves the field empty rather than losing the run.
	var valAtTest *TestScore
	if valFitsTest(ds.Val, cfg) {
		v, err := evaluateTest(s.Predictor(), ds.Val, cfg)
		if err != nil {
			return nil, fmt.Errorf("experiment: %s: validation under the test protocol: %w", cfg.Name(), err)
		}
		valAtTest = &v
	}
	be, bv := s.Best()
	r := &Result{
		Version: resultVersion, Config: cfg, DataFiles: ds.Files, Model: f.String(), Parameters: f.NumParameters(),
		Backend: backend.Config(), Build: buildID(), Epochs: s.History(), BestEpoch: be, BestVal: bv, StopReason: s.StopReason(),
		Test: score, ValAtTest: valAtTest, SecondsPerEpoch: medianTrainSeconds(s.History()), WallSeconds: time.Since(start).Seconds(),
		ResumedAt: resumedAt, Prior: priorRec,
	}
	if ctrl := s.Trainer().Controller(); ctrl != nil {
		r.GainHistory = ctrl.History()
		L := ctrl.Config().L
		for i := range ctrl.Config().K * L {
			rt := ctrl.Route(i/L, i%L)
			r.RouteT, r.RouteR, r.RouteP = append(r.RouteT, rt.T), append(r.RouteR, rt.R), append(r.RouteP, rt.P)
		}
	}
	// The caller gets the result as written, checksum included (what reading it back would give).
	r, err = withChecksum(r)
	if err != nil {
		return nil, err
	}
	if err := WriteResult(resultPath, r); err != nil {
		return nil, err
	}
	return r, nil
}

// sameRun checks that a finished run's result is the one cfg asks for: the same configuration, and
// where the result records data files (ETT), the same files now.
func sameRun(r *Result, cfg RunConfig, opt Options, path string) error {
	if !sameConfig(r.Config, cfg) {
		return fmt.Errorf("experiment: %s holds a result for another configuration (%s, the result's first); use Force to replace it",
			path, diffSummary(configDiff(r.Config, cfg)))
	}
	if len(r.DataFiles) == 0 {
		return nil // a generated testbed, or a result written before data files were recorded
	}
	do := cfg.dataOptions()
	do.ETTDir = opt.ETTDir
	now, err := data.SourceFiles(cfg.Testbed, do)
	if err != nil {
		return err
	}
	if !slices.Equal(now, r.DataFiles) {
		return fmt.Errorf("experiment: %s was computed from %s, but the data file now is %s; put the original back, or use Force to re-run",
			path, fileList(r.DataFiles), fileList(now))
	}
	return nil
}

// setup loads the data and builds the (untrained) forecaster of a run; a run of another model
// kind (the U-Net of a field testbed) is refused with a *KindError naming what asked.
func setup(cfg RunConfig, opt Options, what string) (*data.Dataset, *model.Forecaster, error) {
	ds, m, err := setupModel(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	f, err := forecasterOf(cfg, m, what)
	if err != nil {
		return nil, nil, err
	}
	return ds, f, nil
}

// LoadBest returns the run's dataset and its forecaster with the minimum-validation parameters
// (best.ckpt of the run directory, which must exist: run it first).
//
// It is the diagnostics' entry point and supports the Mamba/MLP forecaster only: a U-Net run is
// refused with a *KindError (LoadBestModel loads any kind).
func LoadBest(cfg RunConfig, opt Options) (*data.Dataset, *model.Forecaster, error) {
	if cfg.isUNet() {
		return nil, nil, &KindError{Run: cfg.Name(), Testbed: cfg.Testbed, Kind: cfg.Model.Kind, What: "LoadBest"}
	}
	ds, m, err := LoadBestModel(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	f, err := forecasterOf(cfg, m, "LoadBest")
	return ds, f, err
}

// LoadBestModel is LoadBest for a model of any kind (the U-Net included), as a train.Model.
func LoadBestModel(cfg RunConfig, opt Options) (*data.Dataset, train.Model, error) {
	dir, err := opt.Dir(cfg)
	if err != nil {
		return nil, nil, err
	}
	return loadBestFrom(dir, cfg, opt)
}

// LoadInit returns the run's dataset and its forecaster as training starts it: the parameters
// its seed initialises, before any step (a diagnostic's reference point; nothing is read from the
// run directory).
func LoadInit(cfg RunConfig, opt Options) (*data.Dataset, *model.Forecaster, error) {
	if cfg.isUNet() {
		return nil, nil, &KindError{Run: cfg.Name(), Testbed: cfg.Testbed, Kind: cfg.Model.Kind, What: "LoadInit"}
	}
	return setup(cfg, opt, "LoadInit")
}

// LoadInitModel is LoadInit for a model of any kind (the U-Net included), as a train.Model.
func LoadInitModel(cfg RunConfig, opt Options) (*data.Dataset, train.Model, error) {
	return setupModel(cfg, opt)
}

// LoadLast returns the run's dataset and its forecaster with the parameters of its last finished
// epoch (last.ckpt of the run directory, verified as the run's own): where training stopped, and
// where the final controller state a result records was measured.
func LoadLast(cfg RunConfig, opt Options) (*data.Dataset, *model.Forecaster, error) {
	if _, err := opt.Dir(cfg); err != nil {
		return nil, nil, err
	}
	if cfg.isUNet() {
		return nil, nil, &KindError{Run: cfg.Name(), Testbed: cfg.Testbed, Kind: cfg.Model.Kind, What: "LoadLast"}
	}
	ds, m, err := LoadLastModel(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	f, err := forecasterOf(cfg, m, "LoadLast")
	return ds, f, err
}

// LoadLastModel is LoadLast for a model of any kind (the U-Net included), as a train.Model.
func LoadLastModel(cfg RunConfig, opt Options) (*data.Dataset, train.Model, error) {
	dir, err := opt.Dir(cfg)
	if err != nil {
		return nil, nil, err
	}
	bk, err := opt.backend()
	if err != nil {
		return nil, nil, err
	}
	ds, m, err := setupModel(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	id := identityOf(cfg, ds)
	tcfg, _, err := withNoiseSampler(cfg, ds)
	if err != nil {
		return nil, nil, err
	}
	s, err := train.NewSession(bk, m, tcfg.Train, cfg.Fit, ds.Train, ds.Val, id)
	if err != nil {
		return nil, nil, fmt.Errorf("experiment: %s: %w", cfg.Name(), err)
	}
	if err := s.Load(filepath.Join(dir, CheckpointFile)); err != nil {
		return nil, nil, explainIdentity(err, cfg, id)
	}
	return ds, m, nil
}

// HasBest says whether the run directory of cfg holds its best parameters (best.ckpt), which
// LoadBest, EvaluateRun and the diagnostics at a checkpoint need. A finished run read from the
// archive has its scores there but not its parameters, so it has none.
func (opt Options) HasBest(cfg RunConfig) (bool, error) {
	dir, err := opt.Dir(cfg)
	if err != nil {
		return false, err
	}
	switch _, err := os.Stat(filepath.Join(dir, BestFile)); {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	default:
		return false, fmt.Errorf("experiment: run %s: %w", cfg.Name(), err)
	}
}

// loadBestFrom loads best.ckpt of dir, which must be the best checkpoint of the run cfg describes
// (its whole identity, data files included: the best parameters of another method, profile, seed
// or data file are refused, naming both runs).
func loadBestFrom(dir string, cfg RunConfig, opt Options) (*data.Dataset, runModel, error) {
	ds, f, err := setupModel(cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	id := identityOf(cfg, ds)
	if err := train.LoadModel(filepath.Join(dir, BestFile), f, id); err != nil {
		return nil, nil, explainIdentity(err, cfg, id)
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
// a checkpoint trained at one K is scored at another fixed horizon. [EvaluateRunSpec] scores other
// splits and protocols.
func EvaluateRun(dir string, H, origins int, opt Options) (RunConfig, TestScore, error) {
	return EvaluateRunSpec(dir, EvalSpec{H: H, Origins: origins}, opt)
}

// writeFileAtomic replaces path with b (see dwlib/internal/atomicfile).
func writeFileAtomic(path string, b []byte) error {
	if err := atomicfile.Write(path, b, 0o644); err != nil {
		return fmt.Errorf("experiment: %w", err)
	}
	return nil
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

// valFitsTest reports whether every validation unit holds the test protocol's burn-in, context and
// horizon, so that Result.ValAtTest scores all of them.
func valFitsTest(val []data.Series, cfg RunConfig) bool {
	for _, s := range val {
		if len(s.X) < cfg.EvalBurnIn+cfg.EvalWindow+cfg.HEval {
			return false
		}
	}
	return len(val) > 0
}

// compileList is " name N nodes… a.b s" for each graph.
func compileList(times []train.CompileTime) string {
	var b strings.Builder
	for _, t := range times {
		fmt.Fprintf(&b, " %s %.1f s;", t.Name, t.Seconds)
	}
	return strings.TrimSuffix(b.String(), ";")
}
