package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gomlx/compute"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/progress"
)

// FitConfig is the epoch loop of App. F.2: at most Epochs epochs, stop after Patience epochs
// without a new minimum validation loss, keep the minimum-validation parameters.
type FitConfig struct {
	Epochs        int    `json:"epochs"`          // at most this many epochs (paper: 100)
	Patience      int    `json:"patience"`        // epochs without improvement before stopping (paper: 20)
	StartsPerUnit int    `json:"starts_per_unit"` // random rollout windows per training unit per epoch (paper: 16)
	ValOrigins    int    `json:"val_origins"`     // deterministic origins per validation unit (ours: 16)
	EvalBatch     int    `json:"eval_batch"`      // windows per forward-only rollout call (64)
	Seed          uint64 `json:"seed"`            // window sampling

	// Grouping is how an epoch is cut into optimizer steps. "windows" (default): StartsPerUnit
	// random windows per unit, shuffled, one optimizer step per minibatch of BatchSize windows.
	// "trajectories" (the authors' code): shuffled units in microbatches of MicroTrajectories,
	// StartsPerUnit starts shared by a microbatch's trajectories, one optimizer step per
	// Accumulate microbatches (and one for the remainder at the end of the epoch); DW's
	// calibration clock ticks once per microbatch.
	Grouping          string `json:"grouping,omitempty"`
	MicroTrajectories int    `json:"micro_trajectories,omitempty"`
	Accumulate        int    `json:"accumulate,omitempty"`
	// Chunk caps the windows of one graph call (memory): a larger microbatch runs as chunks whose
	// gradients are accumulated with weights in proportion to their size, which is the same
	// gradient. DW calibration microbatches always run whole (their probe moments are not additive).
	// 0: no cap.
	Chunk int `json:"chunk,omitempty"`
	// AccumulateScale weights the microbatches of an optimizer step: "mean" (default) by their
	// share of the step's windows, so the step follows the mean loss over all of them; "authors"
	// by 1/Accumulate each, as the released code divides every microbatch loss by its accumulation
	// count (with 28 trajectories in microbatches of 4 and Accumulate 8 that is 7/8 of the mean).
	AccumulateScale string `json:"accumulate_scale,omitempty"`
}

// Accumulation scales (FitConfig.AccumulateScale).
const (
	ScaleMean    = "mean"
	ScaleAuthors = "authors"
)

// Epoch groupings (FitConfig.Grouping).
const (
	GroupWindows      = "windows"
	GroupTrajectories = "trajectories"
)

// Defaults fills zero fields with the paper's values (ValOrigins and EvalBatch are ours).
func (c FitConfig) Defaults() FitConfig {
	set := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	set(&c.Epochs, 100)
	set(&c.Patience, 20)
	set(&c.StartsPerUnit, 16)
	set(&c.ValOrigins, 16)
	set(&c.EvalBatch, 64)
	if c.Grouping == "" {
		c.Grouping = GroupWindows
	}
	if c.Grouping == GroupTrajectories {
		set(&c.MicroTrajectories, 4)
		set(&c.Accumulate, 1)
	}
	if c.AccumulateScale == "" {
		c.AccumulateScale = ScaleMean
	}
	return c
}

// Validate names the first invalid field.
func (c FitConfig) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"Epochs", c.Epochs}, {"Patience", c.Patience}, {"StartsPerUnit", c.StartsPerUnit}, {"ValOrigins", c.ValOrigins}, {"EvalBatch", c.EvalBatch}} {
		if f.v < 1 {
			return fmt.Errorf("train: FitConfig.%s = %d, must be >= 1", f.name, f.v)
		}
	}
	switch c.Grouping {
	case GroupWindows:
		if c.MicroTrajectories != 0 || c.Accumulate > 1 {
			return fmt.Errorf("train: FitConfig.MicroTrajectories = %d and Accumulate = %d apply to Grouping %q only", c.MicroTrajectories, c.Accumulate, GroupTrajectories)
		}
	case GroupTrajectories:
		if c.MicroTrajectories < 1 || c.Accumulate < 1 {
			return fmt.Errorf("train: FitConfig.MicroTrajectories = %d and Accumulate = %d must be >= 1", c.MicroTrajectories, c.Accumulate)
		}
	default:
		return fmt.Errorf("train: FitConfig.Grouping = %q, must be %q or %q", c.Grouping, GroupWindows, GroupTrajectories)
	}
	if c.AccumulateScale != ScaleMean && c.AccumulateScale != ScaleAuthors {
		return fmt.Errorf("train: FitConfig.AccumulateScale = %q, must be %q or %q", c.AccumulateScale, ScaleMean, ScaleAuthors)
	}
	if c.Chunk < 0 {
		return fmt.Errorf("train: FitConfig.Chunk = %d, must be >= 0", c.Chunk)
	}
	return nil
}

// EpochRecord is what one epoch reports; a run's JSON result holds one per epoch.
type EpochRecord struct {
	Epoch        int       `json:"epoch"` // 1-based
	TrainLoss    float64   `json:"train_loss"`
	ValLoss      float64   `json:"val_loss"`
	GradNorm     float64   `json:"grad_norm"`       // mean global norm before clipping
	Batches      int       `json:"batches"`         // minibatches (grouping "trajectories": microbatches)
	Steps        int       `json:"optimizer_steps"` // Adam steps
	Calibrations int       `json:"calibrations"`    // DW probe minibatches in this epoch
	TrainSeconds float64   `json:"train_seconds"`   // the training loop only (no validation, no I/O)
	ValSeconds   float64   `json:"val_seconds"`
	Gains        []float64 `json:"gains,omitempty"` // DW: committed gains at the epoch's end, [K][L][2] flat
	// Probes are DW's calibrations in this epoch, each its raw route energy (ProbeMoments.Energy),
	// and Moments the committed averages Σ tr T̂, Σ tr R̂ at the epoch's end: together they show
	// whether a noise share the controller carries comes from single calibrations or from averaging.
	Probes  []ProbeEnergy `json:"probes,omitempty"`
	Moments *ProbeEnergy  `json:"moments,omitempty"`
	// JReg summarises the gains JReg's penalty saw over the epoch's microbatches (method jreg
	// only): whether any gain exceeded 1, the only gains the penalty acts on.
	JReg *JRegStats `json:"jreg,omitempty"`
}

// Session trains one forecaster with one method on one dataset, epoch by epoch, and can be
// checkpointed and resumed between epochs (see checkpoint.go). Validation loss is the relative L2
// of eq. (8) over horizons 1..K, on ValOrigins deterministic, evenly spaced origins per
// validation unit: the task loss, on held-out units, with the evaluation protocol's origins.
//
// Every epoch draws StartsPerUnit windows per training unit (uniform origins), shuffles them and
// runs len/BatchSize full minibatches; the remainder (fewer than BatchSize windows) is dropped so
// every step has the same shape.
type Session struct {
	cfg   FitConfig
	meta  any
	geo   Geometry
	f     Model
	tr    *Trainer
	pred  *Predictor
	train []data.Series
	val   []eval.Unit

	winSrc *rand.PCG
	win    *rand.Rand

	epoch     int
	history   []EpochRecord
	bestEpoch int
	bestVal   float64
	sinceBest int
	best      []savedVar // model parameters at bestEpoch
}

// NewSession prepares a session. meta (any JSON-serialisable value, may be nil) identifies the run
// beyond the model and training configs, e.g. the dataset; a checkpoint is only resumed by a
// session with the same meta and configs.
func NewSession(bk compute.Backend, f Model, tcfg Config, fcfg FitConfig, train, val []data.Series, meta any) (*Session, error) {
	fcfg = fcfg.Defaults()
	if err := fcfg.Validate(); err != nil {
		return nil, err
	}
	tr, err := NewTrainer(bk, f, tcfg)
	if err != nil {
		return nil, err
	}
	mc := f.Spec()
	geo := Geometry{Window: mc.Window, K: tr.cfg.K, BurnIn: mc.BurnIn}
	if len(train) == 0 || len(val) == 0 {
		return nil, fmt.Errorf("train: NewSession: %d training and %d validation units, need at least one of each", len(train), len(val))
	}
	if err := geo.CheckUnits("train", train); err != nil {
		return nil, err
	}
	// Validation rolls out from origins at BurnIn+Window-1 through K steps: the same fit.
	if err := geo.CheckUnits("validation", val); err != nil {
		return nil, err
	}
	if n := len(train) * fcfg.StartsPerUnit; fcfg.Grouping == GroupWindows && n < tr.cfg.BatchSize {
		return nil, fmt.Errorf("train: %d training units × %d starts = %d windows per epoch, fewer than one minibatch of %d",
			len(train), fcfg.StartsPerUnit, n, tr.cfg.BatchSize)
	}
	pred, err := tr.predictor(fcfg.EvalBatch)
	if err != nil {
		return nil, err
	}
	src := rand.NewPCG(fcfg.Seed, windowStream)
	s := &Session{
		cfg: fcfg, meta: meta, geo: geo, f: f, tr: tr, pred: pred, train: train, val: Units(val, mc.BurnIn),
		winSrc: src, win: rand.New(src), bestVal: math.Inf(1),
	}
	// The learning-rate schedule runs over the whole run's optimizer steps (patience only stops
	// earlier).
	if err := tr.SetTotalSteps(fcfg.Epochs * s.StepsPerEpoch()); err != nil {
		return nil, err
	}
	return s, nil
}

// windowStream is the PCG stream of a session's window draws (seeded with FitConfig.Seed).
const windowStream = 0x77696e646f7773

// WindowRand returns the generator a Session with FitConfig.Seed = seed draws its training
// windows from (EpochPicks, epoch after epoch): stepping a Trainer by hand through the minibatches
// drawn from it reproduces the session's first minibatches exactly.
func WindowRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, windowStream)) }

// Trainer returns the session's trainer.
func (s *Session) Trainer() *Trainer { return s.tr }

// Predictor returns a forward-only predictor of the session's forecaster.
func (s *Session) Predictor() *Predictor { return s.pred }

// Config returns the epoch-loop configuration with defaults applied.
func (s *Session) Config() FitConfig { return s.cfg }

// Epoch is the number of completed epochs.
func (s *Session) Epoch() int { return s.epoch }

// History returns the completed epochs' records.
func (s *Session) History() []EpochRecord { return s.history }

// Best returns the 1-based epoch with the minimum validation loss so far and that loss
// (0, +Inf before the first epoch).
func (s *Session) Best() (epoch int, val float64) { return s.bestEpoch, s.bestVal }

// BatchesPerEpoch is the number of minibatches (grouping "trajectories": microbatches) in one epoch.
func (s *Session) BatchesPerEpoch() int {
	if s.cfg.Grouping == GroupTrajectories {
		return (len(s.train) + s.cfg.MicroTrajectories - 1) / s.cfg.MicroTrajectories
	}
	return len(s.train) * s.cfg.StartsPerUnit / s.tr.cfg.BatchSize
}

// StepsPerEpoch is the number of optimizer steps in one epoch: BatchesPerEpoch, or for grouping
// "trajectories" its microbatches in groups of Accumulate (the last group may be smaller).
func (s *Session) StepsPerEpoch() int {
	if s.cfg.Grouping == GroupTrajectories {
		return (s.BatchesPerEpoch() + s.cfg.Accumulate - 1) / s.cfg.Accumulate
	}
	return s.BatchesPerEpoch()
}

// Done reports whether training has ended: Epochs reached, or Patience epochs without improvement.
func (s *Session) Done() bool {
	return s.epoch >= s.cfg.Epochs || (s.epoch > 0 && s.sinceBest >= s.cfg.Patience)
}

// StopReason says why Done is true ("epochs" or "patience"), or "" while training continues.
func (s *Session) StopReason() string {
	switch {
	case !s.Done():
		return ""
	case s.sinceBest >= s.cfg.Patience && s.epoch < s.cfg.Epochs:
		return "patience"
	default:
		return "epochs"
	}
}

// RunEpoch trains one epoch and validates. rep (may be nil) gets one Step per minibatch. A
// non-finite loss, gradient norm, probe moment or validation loss ends it with a *DivergedError
// (errors.Is ErrDiverged) naming the epoch.
func (s *Session) RunEpoch(rep progress.Reporter) (EpochRecord, error) {
	return s.runEpoch(context.Background(), rep)
}

// runEpoch is RunEpoch, stopped between microbatches once ctx is done (see FitContext).
func (s *Session) runEpoch(ctx context.Context, rep progress.Reporter) (EpochRecord, error) {
	rep = progress.OrNop(rep)
	if s.Done() {
		return EpochRecord{}, fmt.Errorf("train: RunEpoch: training already ended after %d epochs (%s)", s.epoch, s.StopReason())
	}
	groups, err := s.epochGroups()
	if err != nil {
		return EpochRecord{}, err
	}
	rec := EpochRecord{Epoch: s.epoch + 1}
	per := 1
	if s.cfg.Grouping == GroupTrajectories {
		per = s.cfg.Accumulate
	}
	start := time.Now()
	steps := 0
	for i := 0; i < len(groups); i += per {
		step := groups[i:min(i+per, len(groups))]
		total := 0
		for _, g := range step {
			total += len(g)
		}
		for _, picks := range step {
			if err := ctx.Err(); err != nil {
				return rec, fmt.Errorf("train: epoch %d stopped after %d minibatches: %w", rec.Epoch, rec.Batches, context.Cause(ctx))
			}
			b, err := MakeBatch(s.train, picks, s.geo)
			if err != nil {
				return rec, err
			}
			w := float64(len(picks)) / float64(total)
			if s.cfg.AccumulateScale == ScaleAuthors {
				w = 1 / float64(per)
			}
			r, err := s.accumulate(b, w)
			if err != nil {
				if errors.Is(err, ErrDiverged) {
					return rec, atEpoch(err, rec.Epoch)
				}
				return rec, fmt.Errorf("epoch %d: %w", rec.Epoch, err)
			}
			rec.TrainLoss += r.Loss
			mergeJReg(&rec.JReg, r.JReg)
			rec.Batches++
			if r.Calibration {
				rec.Calibrations++
				if r.Probes != nil {
					rec.Probes = append(rec.Probes, r.Probes.Energy())
				}
			}
			rep.Step(1, fmt.Sprintf("epoch %d/%d loss %.4f", rec.Epoch, s.cfg.Epochs, r.Loss))
		}
		norm, err := s.tr.Apply()
		if err != nil {
			if errors.Is(err, ErrDiverged) {
				return rec, atEpoch(err, rec.Epoch)
			}
			return rec, fmt.Errorf("epoch %d: %w", rec.Epoch, err)
		}
		rec.GradNorm += norm
		steps++
	}
	rec.TrainSeconds = time.Since(start).Seconds()
	rec.TrainLoss /= float64(rec.Batches)
	rec.GradNorm /= float64(steps)
	rec.Steps = steps

	start = time.Now()
	v, err := s.Validate()
	var nonFinite *eval.NonFinitePredictionError
	if errors.As(err, &nonFinite) {
		return rec, &DivergedError{Epoch: rec.Epoch, Quantity: "validation forecast", Value: nonFinite.Value, LR: s.tr.cfg.LR}
	}
	if err != nil {
		return rec, fmt.Errorf("train: epoch %d validation: %w", rec.Epoch, err)
	}
	// A non-finite validation forecast or loss would never become the best, so training would go
	// on for nothing and the run could not report a best epoch: stop here, before the epoch counts.
	if !finite(v) {
		return rec, &DivergedError{Epoch: rec.Epoch, Quantity: "validation loss", Value: v, LR: s.tr.cfg.LR}
	}
	rec.ValLoss = v
	rec.ValSeconds = time.Since(start).Seconds()
	if s.tr.ctrl != nil {
		rec.Gains = s.tr.ctrl.Gains()
		tot, noise := s.tr.ctrl.RouteEnergy()
		rec.Moments = &ProbeEnergy{Tot: tot, Noise: noise}
	}

	s.epoch++
	s.history = append(s.history, rec)
	if v < s.bestVal {
		s.bestVal, s.bestEpoch, s.sinceBest = v, s.epoch, 0
		if s.best, err = saveVars(s.f.Store(), ModelScope); err != nil {
			return rec, err
		}
	} else {
		s.sinceBest++
	}
	return rec, nil
}

// epochGroups draws the epoch's microbatches as pick lists.
func (s *Session) epochGroups() ([][]Pick, error) {
	if s.cfg.Grouping == GroupTrajectories {
		return TrajectoryMicrobatches(s.win, s.train, s.cfg.MicroTrajectories, s.cfg.StartsPerUnit, s.geo)
	}
	picks, err := EpochPicks(s.win, s.train, s.cfg.StartsPerUnit, s.geo)
	if err != nil {
		return nil, err
	}
	bs := s.tr.cfg.BatchSize
	var groups [][]Pick
	for i := 0; i+bs <= len(picks); i += bs {
		groups = append(groups, picks[i:i+bs])
	}
	return groups, nil
}

// accumulate runs one microbatch with weight w, in chunks of at most Chunk windows unless it is a
// DW calibration microbatch; the reported loss is the chunks' size-weighted mean.
func (s *Session) accumulate(b *Batch, w float64) (StepResult, error) {
	c := s.cfg.Chunk
	if c == 0 || b.N <= c || (s.tr.ctrl != nil && s.tr.ctrl.IsCalibration()) {
		return s.tr.Accumulate(b, w)
	}
	return s.tr.AccumulateChunks(b, w, c)
}

// Validate returns the validation loss of the current parameters.
func (s *Session) Validate() (float64, error) {
	r, err := eval.EvaluateBatch(s.pred, s.val, s.geo.Window, s.geo.K, s.cfg.ValOrigins)
	if err != nil {
		return 0, err
	}
	return r.RelL2, nil
}

// Fit runs epochs until Done. After each epoch it calls onEpoch (may be nil), e.g. to write a
// checkpoint; an error from onEpoch stops training. rep (may be nil) shows one bar over the
// remaining minibatches of all epochs (an upper bound when patience stops training early).
func (s *Session) Fit(rep progress.Reporter, onEpoch func(EpochRecord) error) error {
	return s.FitContext(context.Background(), rep, onEpoch)
}

// FitContext is Fit, stopped once ctx is done (e.g. on SIGINT): between microbatches, with an
// error wrapping context.Cause(ctx). The epoch it stopped in is abandoned half-done, so the
// session must not be saved afterwards: the checkpoint of the last finished epoch (written by
// onEpoch) is where a resumed run continues, with the numbers of an uninterrupted one.
func (s *Session) FitContext(ctx context.Context, rep progress.Reporter, onEpoch func(EpochRecord) error) error {
	rep = progress.OrNop(rep)
	rep.Start((s.cfg.Epochs-s.epoch)*s.BatchesPerEpoch(), "training "+s.tr.cfg.Method)
	defer rep.Finish()
	for !s.Done() {
		rec, err := s.runEpoch(ctx, rep)
		if err != nil {
			return err
		}
		if onEpoch != nil {
			if err := onEpoch(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// RestoreBest loads the minimum-validation parameters into the forecaster (no-op before the first
// epoch). The optimizer state is left as it is.
func (s *Session) RestoreBest() error {
	if s.best == nil {
		return nil
	}
	return loadVars(s.f.Store(), s.best, false)
}
