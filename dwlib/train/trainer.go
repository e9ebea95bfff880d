package train

import (
	"fmt"
	"math/rand/v2"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/internal-dw/dwgo/dwlib/calib"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// Trainer runs training steps of one forecaster with one method.
type Trainer struct {
	cfg   Config
	model *model.Forecaster
	ctrl  *calib.Controller // DW only
	src   *rand.PCG         // state of rng, saved in checkpoints
	rng   *rand.Rand        // probe signs and JReg directions
	task  *context.Exec     // step without probes
	probe *context.Exec     // DW calibration step (task + both probes)
	gains []float64         // fixed gains of the non-DW methods
	steps int
}

// StepResult reports one training step.
type StepResult struct {
	Loss        float64 // task rel-L2 of the minibatch, before the update
	GradNorm    float64 // global gradient norm before clipping
	Calibration bool    // whether this minibatch ran the route probes
}

// NewTrainer compiles nothing yet: graphs are built on the first step of each kind.
func NewTrainer(bk backends.Backend, f *model.Forecaster, cfg Config) (*Trainer, error) {
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	mc := f.Config()
	src := rand.NewPCG(cfg.Seed, 0x7472616e)
	t := &Trainer{cfg: cfg, model: f, src: src, rng: rand.New(src)}
	opt := newAdam(cfg)
	hasDrive := mc.DriveDim > 0
	var err error
	if t.task, err = context.NewExec(bk, f.Context(), buildStep(f, cfg, opt, hasDrive, false)); err != nil {
		return nil, err
	}
	L := f.NumLayers()
	switch cfg.Method {
	case "dw":
		sampler, err := noise.New(cfg.Sampler)
		if err != nil {
			return nil, err
		}
		cc := calib.DefaultConfig(cfg.K, L)
		cc.Warmup, cc.Period = cfg.Warmup, cfg.Period
		if t.ctrl, err = calib.New(cc, sampler); err != nil {
			return nil, err
		}
		if t.probe, err = context.NewExec(bk, f.Context(), buildStep(f, cfg, opt, hasDrive, true)); err != nil {
			return nil, err
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

// Step runs one training minibatch: Algorithm 1 for DW, a plain step otherwise.
func (t *Trainer) Step(b *Batch) (StepResult, error) {
	if err := b.Validate(); err != nil {
		return StepResult{}, err
	}
	mc := t.model.Config()
	if b.K != t.cfg.K || b.D != mc.StateDim || b.J != mc.DriveDim || b.Window != mc.Window {
		return StepResult{}, fmt.Errorf("train: batch (K=%d, D=%d, J=%d, Window=%d) does not match the run (K=%d, D=%d, J=%d, Window=%d)",
			b.K, b.D, b.J, b.Window, t.cfg.K, mc.StateDim, mc.DriveDim, mc.Window)
	}
	dt, L := mc.DType, t.model.NumLayers()
	calibrate := t.ctrl != nil && t.ctrl.IsCalibration()
	args := []any{
		ToTensor(dt, b.History, b.N, b.Window, b.D),
		ToTensor(dt, b.Targets, b.N, b.K, b.D),
		ToTensor(dt, t.Gains(), t.cfg.K, L, 2),
	}
	if b.J > 0 {
		args = append(args, ToTensor(dt, b.Drive, b.N, b.Window-1+b.K, b.J))
	}
	var ready []bool
	if calibrate {
		s := t.ctrl.Sampler()
		ready = s.Ready(t.cfg.K)
		eps, err := s.Sample(t.rng, b.N, b.K, b.D)
		if err != nil {
			return StepResult{}, err
		}
		args = append(args, ToTensor(dt, eps, b.N, b.K, b.D))
	}
	if t.cfg.Method == "jreg" {
		args = append(args, ToTensor(dt, t.directions(b.N, b.D), b.N, b.D))
	}
	exec := t.task
	if calibrate {
		exec = t.probe
	}
	outs, err := exec.Exec(args...)
	if err != nil {
		return StepResult{}, fmt.Errorf("train: step %d: %w", t.steps, err)
	}
	res := StepResult{
		Loss:        tensors.ToScalar[float64](convert(outs[outLoss])),
		GradNorm:    tensors.ToScalar[float64](convert(outs[outGradNorm])),
		Calibration: calibrate,
	}
	if t.ctrl != nil {
		// Algorithm 1: the update above used the committed gains; now stage and commit.
		if calibrate {
			tot, nz := toSym2(FromTensor(outs[outMomentsTot])), toSym2(FromTensor(outs[outMomentsNoise]))
			if err := t.ctrl.Stage(tot, nz, ready); err != nil {
				return res, err
			}
		}
		if err := t.ctrl.Sampler().Stage(FromTensor(outs[outResiduals]), b.N, b.K, b.D); err != nil {
			return res, err
		}
		t.ctrl.Commit()
	}
	for _, o := range outs {
		o.FinalizeAll()
	}
	t.steps++
	return res, nil
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

// directions draws one random unit direction per sample for the JReg penalty.
func (t *Trainer) directions(n, d int) []float64 {
	u := make([]float64, n*d)
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
