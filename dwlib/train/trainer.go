package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/internal-dw/dwgo/dwlib/calib"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// Trainer runs training steps of one forecaster with one method. An optimizer step is one or
// more microbatches (Accumulate), each adding its weighted gradient to in-store accumulators and,
// for Internal-DW, running Algorithm 1's calibrate/commit on its own, followed by one Apply (clip,
// weight decay, Adam). Step is the common case of one microbatch per optimizer step.
type Trainer struct {
	cfg     Config
	model   Model
	ctrl    *calib.Controller // DW only
	src     *rand.PCG         // state of rng, saved in checkpoints
	rng     *rand.Rand        // probe signs and JReg directions
	task    *mlmodel.Exec     // microbatch gradient without probes
	probe   *mlmodel.Exec     // DW calibration microbatch (task + both probes)
	apply   *mlmodel.Exec     // optimizer step from the accumulated gradient
	gains   []float64         // fixed gains of the non-DW methods
	engine  *stepEngine       // the step engine (nil: unrolled graphs, task and probe)
	hook    graphHook         // inspection only (Graphs)
	bk      compute.Backend
	steps   int // microbatches run
	pending int // microbatches accumulated since the last Apply
	// lrVar is Adam's learning-rate variable (LRCosine or LRWarmup only: Apply sets it to the step's rate
	// before each optimizer step); total is the run's optimizer steps T (SetTotalSteps).
	lrVar *mlmodel.Variable
	total int
}

// StepResult reports one microbatch (and, from Step, its optimizer step).
type StepResult struct {
	Loss        float64 // task rel-L2 of the microbatch, before the update
	GradNorm    float64 // global norm of the accumulated gradient before clipping (Step and Apply only)
	Calibration bool    // whether this microbatch ran the route probes
	// Gains are the gains this microbatch's task backward used, [K][L][2] flat: for Internal-DW
	// the gains committed before it (a calibration of this microbatch acts from the next one on).
	Gains []float64
	// Probes are the route moments of this microbatch's two probes (Internal-DW calibration
	// microbatches only, nil otherwise), exactly as passed to calib.Controller.Stage.
	Probes *ProbeMoments
	// JReg summarises the gains JReg's penalty saw in this microbatch (method jreg only, nil
	// otherwise).
	JReg *JRegStats
}

// ProbeMoments are one calibration's raw probe observations (App. C.3): for every rollout step k
// and layer l (index k*L+l), the reduced two-route moments (1/D_l)·dᵀd, summed over the batch, of
// the total probe q_tot (Tot) and of the noise probe q_noise (Noise); Ready[k] says whether the
// noise sampler had a committed template at step k (where it had not, Noise is not an estimate of
// R and the controller ignores it). Feeding them to a calib.Controller in the same order
// reproduces the trainer's gains.
type ProbeMoments struct {
	Tot, Noise []wiener.Sym2
	Ready      []bool
}

// Energy sums the traces of the two probes' moments over the routes whose step k was ready: the
// calibration's own noise share, before any averaging across calibrations, is Noise / Tot.
func (p *ProbeMoments) Energy() ProbeEnergy {
	var e ProbeEnergy
	if len(p.Ready) == 0 {
		return e
	}
	L := len(p.Tot) / len(p.Ready)
	for i := range p.Tot {
		if p.Ready[i/L] {
			e.Tot += p.Tot[i].II + p.Tot[i].JJ
			e.Noise += p.Noise[i].II + p.Noise[i].JJ
		}
	}
	return e
}

// ProbeEnergy is the route energy Σ tr of Internal-DW's total probe (Tot) and noise probe (Noise):
// one calibration's raw observations, or the controller's committed averages T̂ and R̂.
type ProbeEnergy struct {
	Tot   float64 `json:"tot"`
	Noise float64 `json:"noise"`
}

// Share returns Noise / Tot, or NaN when Tot is not positive.
func (e ProbeEnergy) Share() float64 {
	if !(e.Tot > 0) {
		return math.NaN()
	}
	return e.Noise / e.Tot
}

// NewTrainer compiles nothing yet: graphs are built on the first step of each kind. It adds the
// gradient accumulators (scope "/accum", not trainable) to the forecaster's store.
func NewTrainer(bk compute.Backend, f Model, cfg Config) (*Trainer, error) {
	return newTrainer(bk, f, cfg, nil)
}

// newTrainer is NewTrainer with an inspection hook on every graph it builds.
func newTrainer(bk compute.Backend, f Model, cfg Config, hook graphHook) (*Trainer, error) {
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	mc := f.Spec()
	if mc.Shift != model.ShiftNone && cfg.Loss != LossMSE {
		return nil, fmt.Errorf("train: the model's Shift %q needs Loss %q (Config.Loss is %q): a shift leaves the squared error unchanged, not the relative L2's denominator", mc.Shift, LossMSE, cfg.Loss)
	}
	src := rand.NewPCG(cfg.Seed, 0x7472616e)
	t := &Trainer{cfg: cfg, model: f, src: src, rng: rand.New(src), hook: hook, bk: bk}
	vars := trainables(f)
	if len(vars) == 0 {
		return nil, fmt.Errorf("train: the forecaster has no trainable variables under %s", ModelScope)
	}
	accums := make([]*mlmodel.Variable, len(vars))
	for j, v := range vars {
		path := accumScope + v.Path()
		if accums[j] = f.Store().GetVariable(path); accums[j] == nil {
			accums[j] = f.Store().VariableWithValue(path, tensors.FromShape(v.Shape()))
		}
		accums[j].SetTrainable(false)
	}
	opt := newAdam(cfg)
	if cfg.scheduled() {
		// The variable Adam reads its rate from (it reuses an existing one): created here, so that
		// Apply can set it before the first optimizer step's graph is built.
		t.lrVar = optimizer.LearningRateVar(f.Store().RootScope(), vars[0].DType(), cfg.LR)
	}
	hasDrive := mc.DriveDim > 0
	engine, err := ResolveEngine(bk, cfg.Engine)
	if err != nil {
		return nil, err
	}
	if engine == EngineSteps {
		m, err := stepperOf(f)
		if err != nil {
			return nil, err
		}
		if t.engine, err = newStepEngine(bk, f, m, cfg, vars, accums, t.hook); err != nil {
			return nil, err
		}
	} else if t.task, err = model.NewTrainingExec(bk, f.Store(), hooked("unrolled-gradient", t.hook, buildGradient(f, cfg, vars, accums, hasDrive, false))); err != nil {
		return nil, err
	}
	if t.apply, err = model.NewTrainingExec(bk, f.Store(), buildApply(cfg, opt, vars, accums, t.hook)); err != nil {
		return nil, err
	}
	L := f.NumLayers()
	switch cfg.Method {
	case "dw":
		sampler := cfg.NoiseSampler
		if sampler == nil {
			if sampler, err = noise.New(cfg.Sampler); err != nil {
				return nil, err
			}
		}
		cc := calib.DefaultConfig(cfg.K, L)
		cc.Warmup, cc.Period = cfg.Warmup, cfg.Period
		if t.ctrl, err = calib.New(cc, sampler); err != nil {
			return nil, err
		}
		if t.engine == nil {
			if t.probe, err = model.NewTrainingExec(bk, f.Store(), hooked("unrolled-probe", t.hook, buildGradient(f, cfg, vars, accums, hasDrive, true))); err != nil {
				return nil, err
			}
		}
	default:
		c := 1.0
		if cfg.Method == "static" {
			c = cfg.StaticGain
		}
		t.gains = make([]float64, cfg.K*L*2)
		for i := range t.gains {
			t.gains[i] = c
		}
	}
	return t, nil
}

// predictor returns a Predictor of the trainer's model on the trainer's engine, sharing its
// forward-step executable (validation then compiles nothing new but its batch size).
func (t *Trainer) predictor(maxBatch int) (*Predictor, error) {
	if t.engine != nil {
		return newPredictor(t.bk, t.model, maxBatch, EngineSteps, t.engine.fwd, t.hook)
	}
	return newPredictor(t.bk, t.model, maxBatch, EngineUnrolled, nil, t.hook)
}

// Engine returns the engine the trainer runs (EngineSteps or EngineUnrolled).
func (t *Trainer) Engine() string {
	if t.engine != nil {
		return EngineSteps
	}
	return EngineUnrolled
}

// Config returns the run's configuration with defaults applied.
func (t *Trainer) Config() Config { return t.cfg }

// Controller returns the DW calibration controller (nil for other methods).
func (t *Trainer) Controller() *calib.Controller { return t.ctrl }

// Gains returns the gains the next task backward will use, [K][L][2] flat.
func (t *Trainer) Gains() []float64 {
	if t.ctrl != nil {
		return t.ctrl.Gains()
	}
	return t.gains
}

// Step runs one training minibatch as its own optimizer step: Accumulate with weight 1, then Apply.
func (t *Trainer) Step(b *Batch) (StepResult, error) {
	res, err := t.Accumulate(b, 1)
	if err != nil {
		return res, err
	}
	res.GradNorm, err = t.Apply()
	return res, err
}

// Accumulate runs one microbatch: its task gradient (with the committed gains), times weight, is
// added to the accumulated gradient; for Internal-DW this microbatch is also one tick of Algorithm
// 1's clock (a calibration microbatch runs the probes; the residual template and gains are staged
// and committed). The parameters do not change until Apply.
func (t *Trainer) Accumulate(b *Batch, weight float64) (StepResult, error) {
	return t.AccumulateChunks(b, weight, 0)
}

// AccumulateChunks is Accumulate with the microbatch run as graph calls of at most chunk windows
// (0: one call), each weighted by its share of the windows: the same accumulated gradient with a
// bounded memory. A DW calibration microbatch always runs whole: its probe moments are not additive.
func (t *Trainer) AccumulateChunks(b *Batch, weight float64, chunk int) (StepResult, error) {
	if err := b.Validate(); err != nil {
		return StepResult{}, err
	}
	if !(weight > 0) || math.IsInf(weight, 0) {
		return StepResult{}, fmt.Errorf("train: Accumulate: weight = %v, must be finite and > 0", weight)
	}
	mc := t.model.Spec()
	if b.K != t.cfg.K || b.D != mc.StateDim || b.J != mc.DriveDim || b.Window != mc.Window {
		return StepResult{}, fmt.Errorf("train: batch (K=%d, D=%d, J=%d, Window=%d) does not match the run (K=%d, D=%d, J=%d, Window=%d)",
			b.K, b.D, b.J, b.Window, t.cfg.K, mc.StateDim, mc.DriveDim, mc.Window)
	}
	b, err := ShiftBatch(b, mc.Shift) // the model's read-in (model.Spec.Shift); none: b itself
	if err != nil {
		return StepResult{}, err
	}
	calibrate := t.ctrl != nil && t.ctrl.IsCalibration()
	if chunk <= 0 || calibrate || b.N <= chunk {
		chunk = b.N
	}
	res := StepResult{Calibration: calibrate, Gains: t.Gains()}
	var residuals []float64
	var tot, nz []wiener.Sym2
	var ready []bool
	for lo := 0; lo < b.N; lo += chunk {
		part := b
		if chunk < b.N {
			part = b.Rows(lo, min(lo+chunk, b.N))
		}
		share := float64(part.N) / float64(b.N)
		out, err := t.call(part, weight*share, calibrate)
		if err != nil {
			return res, err
		}
		res.Loss += share * out.loss
		mergeJReg(&res.JReg, out.jreg)
		residuals = append(residuals, out.residuals...)
		tot, nz, ready = out.tot, out.nz, out.ready
	}
	// A non-finite loss or probe moment is a divergence: name it before the controller sees it.
	if !finite(res.Loss) {
		return res, &DivergedError{Quantity: "loss", Value: res.Loss, Where: fmt.Sprintf("microbatch %d", t.steps+1), LR: t.cfg.LR}
	}
	if calibrate {
		if err := checkMoments(t.model.NumLayers(), t.cfg.LR, tot, nz); err != nil {
			return res, err
		}
		res.Probes = &ProbeMoments{Tot: slices.Clone(tot), Noise: slices.Clone(nz), Ready: slices.Clone(ready)}
	}
	if t.ctrl != nil {
		// Algorithm 1: the gradient above used the committed gains; now stage and commit.
		if calibrate {
			if err := t.ctrl.Stage(tot, nz, ready); err != nil {
				return res, err
			}
		}
		if err := t.ctrl.Sampler().Stage(residuals, b.N, b.K, b.D); err != nil {
			return res, err
		}
		t.ctrl.Commit()
	}
	t.steps++
	t.pending++
	return res, nil
}

// applyNoiseGroup gives each consecutive group of g rows (of row values each) the first row's
// draw, in place; g <= 1 changes nothing.
func applyNoiseGroup(eps []float64, n, row, g int) []float64 {
	if g <= 1 {
		return eps
	}
	for i := range n {
		if first := i - i%g; first != i {
			copy(eps[i*row:(i+1)*row], eps[first*row:(first+1)*row])
		}
	}
	return eps
}

// scaleNoise multiplies eps by √s in place, so that the noise probe's route moment scales by s;
// s = 0 or 1 changes nothing (Config.NoiseScale).
func scaleNoise(eps []float64, s float64) {
	if s == 0 || s == 1 {
		return
	}
	c := math.Sqrt(s)
	for i := range eps {
		eps[i] *= c
	}
}

// callResult is what one graph call returns to the Go side.
type callResult struct {
	loss      float64
	residuals []float64 // DW only
	tot, nz   []wiener.Sym2
	ready     []bool
	jreg      *JRegStats // JReg only
}

// call runs the gradient graph on one (part of a) microbatch.
func (t *Trainer) call(b *Batch, weight float64, calibrate bool) (callResult, error) {
	mc := t.model.Spec()
	dt, L := mc.DType, t.model.NumLayers()
	var r callResult
	var eps, dirs []float64
	if calibrate {
		s := t.ctrl.Sampler()
		r.ready = s.Ready(t.cfg.K)
		var err error
		if eps, err = s.Sample(t.rng, b.N, b.K, b.D); err != nil {
			return r, err
		}
		eps = applyNoiseGroup(eps, b.N, b.K*b.D, t.cfg.NoiseGroup)
		scaleNoise(eps, t.cfg.NoiseScale)
	}
	if t.cfg.Method == "jreg" {
		dirs = t.directions(b.N, b.D)
	}
	if t.engine != nil {
		ready := r.ready
		r, err := t.engine.run(t, b, weight, calibrate, eps, dirs)
		r.ready = ready
		return r, err
	}
	args := []any{
		ToTensor(dt, b.History, b.N, b.Window, b.D),
		ToTensor(dt, b.Targets, b.N, b.K, b.D),
		ToTensor(dt, t.Gains(), t.cfg.K, L, 2),
		ToTensor(dt, []float64{weight}),
	}
	if b.J > 0 {
		args = append(args, ToTensor(dt, b.Drive, b.N, b.Window-1+b.K, b.J))
	}
	if calibrate {
		args = append(args, ToTensor(dt, eps, b.N, b.K, b.D))
	}
	if dirs != nil {
		args = append(args, ToTensor(dt, dirs, b.N, b.D))
	}
	exec := t.task
	if calibrate {
		exec = t.probe
	}
	outs, err := exec.Call(args...)
	if err != nil {
		return r, fmt.Errorf("train: microbatch %d: %w", t.steps, err)
	}
	defer func() {
		for _, o := range outs {
			o.FinalizeAll()
		}
	}()
	r.loss = tensors.ToScalar[float64](convert(outs[outLoss]))
	if t.ctrl != nil {
		r.residuals = FromTensor(outs[outResiduals])
	}
	if calibrate {
		r.tot, r.nz = toSym2(FromTensor(outs[outMomentsTot])), toSym2(FromTensor(outs[outMomentsNoise]))
	}
	if dirs != nil {
		st := jregStatsOf(FromTensor(outs[len(outs)-1]), b.N*t.jregSteps())
		r.jreg = &st
	}
	return r, nil
}

// SetTotalSteps sets the run's total optimizer steps T, over which LRWarmup and LRSchedule
// LRCosine shape the learning rate (a Session sets it to epochs × optimizer steps per epoch); n >= 1.
func (t *Trainer) SetTotalSteps(n int) error {
	if n < 1 {
		return fmt.Errorf("train: SetTotalSteps(%d): must be >= 1", n)
	}
	t.total = n
	return nil
}

// TotalSteps is the run's total optimizer steps set by SetTotalSteps (0: not set).
func (t *Trainer) TotalSteps() int { return t.total }

// OptimizerSteps is the number of optimizer steps taken: GoMLX's global step counter in the model's
// store, which checkpoints save and restore with the other variables (so a resumed run continues
// its schedule).
func (t *Trainer) OptimizerSteps() int {
	v := t.model.Store().GetVariable(optimizer.GlobalStepVariableName)
	if v == nil {
		return 0
	}
	return int(tensors.ToScalar[int64](v.MustValue()))
}

// LearningRate is the learning rate of the next optimizer step: Config.ScheduledLR at
// OptimizerSteps of TotalSteps.
func (t *Trainer) LearningRate() float64 {
	return t.cfg.ScheduledLR(t.OptimizerSteps(), t.total)
}

// Pending is the number of microbatches accumulated since the last Apply.
func (t *Trainer) Pending() int { return t.pending }

// Apply takes one optimizer step from the accumulated gradient (clip, weight decay, Adam) and
// resets it; it returns the gradient's global norm before clipping (a *DivergedError if that is not
// finite).
func (t *Trainer) Apply() (float64, error) {
	if t.pending == 0 {
		return 0, fmt.Errorf("train: Apply without an accumulated microbatch")
	}
	if t.lrVar != nil {
		if t.total < 1 {
			return 0, fmt.Errorf("train: Apply: LRSchedule %q with LRWarmup %v needs the run's total optimizer steps (Trainer.SetTotalSteps)", t.cfg.LRSchedule, t.cfg.LRWarmup)
		}
		lr := tensors.FromScalar(t.LearningRate())
		if t.lrVar.DType() == dtypes.Float32 {
			lr = tensors.FromScalar(float32(t.LearningRate()))
		}
		if err := t.lrVar.SetValue(lr); err != nil {
			return 0, fmt.Errorf("train: setting the learning rate of optimizer step %d: %w", t.OptimizerSteps(), err)
		}
	}
	out, err := t.apply.Call()
	if err != nil {
		return 0, fmt.Errorf("train: optimizer step after microbatch %d: %w", t.steps, err)
	}
	norm := tensors.ToScalar[float64](convert(out[0]))
	out[0].FinalizeAll()
	t.pending = 0
	if !finite(norm) {
		return norm, &DivergedError{Quantity: "gradient norm", Value: norm, Where: fmt.Sprintf("the optimizer step after microbatch %d", t.steps), LR: t.cfg.LR}
	}
	return norm, nil
}

func convert(t *tensors.Tensor) *tensors.Tensor {
	if t.DType() == dtypes.Float64 {
		return t
	}
	return tensors.FromScalar(float64(tensors.ToScalar[float32](t)))
}

func toSym2(flat []float64) []wiener.Sym2 {
	out := make([]wiener.Sym2, len(flat)/3)
	for i := range out {
		out[i] = wiener.Sym2{II: flat[3*i], IJ: flat[3*i+1], JJ: flat[3*i+2]}
	}
	return out
}

// jregSteps is the number of rollout steps whose gain JReg penalises: K in the text's reading,
// the first step only in the authors'.
func (t *Trainer) jregSteps() int {
	if t.cfg.JRegStyle == JRegAuthors {
		return 1
	}
	return t.cfg.K
}

// directions draws one random direction per sample for the JReg penalty: a unit Gaussian
// direction (style "text") or a Rademacher vector in {±1}^D (style "authors").
func (t *Trainer) directions(n, d int) []float64 {
	u := make([]float64, n*d)
	if t.cfg.JRegStyle == JRegAuthors {
		for i := range u {
			u[i] = float64(2*t.rng.IntN(2) - 1)
		}
		return u
	}
	for i := range n {
		s := 0.0
		for j := range d {
			v := t.rng.NormFloat64()
			u[i*d+j] = v
			s += v * v
		}
		s = 1 / sqrtOr1(s)
		for j := range d {
			u[i*d+j] *= s
		}
	}
	return u
}
