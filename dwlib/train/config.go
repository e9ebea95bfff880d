package train

import (
	"fmt"
	"math"
	"slices"

	"github.com/internal-dw/dwgo/dwlib/noise"
)

// Methods lists the training methods.
var Methods = []string{"full", "clip", "jreg", "tbptt", "static", "dw"}

// Config is one training run's optimisation settings (the model and data are separate).
type Config struct {
	Method      string  `json:"method"`
	K           int     `json:"K"`            // rollout steps
	BatchSize   int     `json:"batch_size"`   // rollout windows per minibatch (32)
	LR          float64 `json:"lr"`           // Adam learning rate (1e-4); with a schedule, its value at the first optimizer step
	WeightDecay float64 `json:"weight_decay"` // paper: 1e-4; 0 is no weight decay (not a default)
	ClipNorm    float64 `json:"clip_norm"`    // global-norm cap: 1 for primary arms, the Clip threshold for "clip"
	JRegCoef    float64 `json:"jreg_coef,omitempty"`
	JRegEps     float64 `json:"jreg_eps,omitempty"` // 1e-3
	Segment     int     `json:"segment,omitempty"`  // TBPTT segment length
	StaticGain  float64 `json:"static_gain,omitempty"`
	Warmup      int     `json:"warmup"`  // DW: fully open warm-up minibatches (8)
	Period      int     `json:"period"`  // DW: calibration period (4)
	Sampler     string  `json:"sampler"` // DW noise sampler ("generic")
	Seed        uint64  `json:"seed"`    // minibatch sampling, probe signs and JReg directions

	// WeightDecayMode is how WeightDecay enters: "l2" adds λθ to the clipped gradient before Adam
	// (PyTorch's Adam(weight_decay), what the authors' code runs), "decoupled" decays the parameters
	// inside the update (AdamW, GoMLX's Adam option). Default "l2".
	WeightDecayMode string `json:"weight_decay_mode"`
	// DetachContext stops gradients at the end of the teacher-forced context: the context steps
	// only build the recurrent state (the authors' no-grad burn-in). False differentiates through
	// them as well.
	DetachContext bool `json:"detach_context,omitempty"`
	// JRegStyle is "text" (default, our reading of the paper: at every rollout step, a unit
	// Gaussian direction, a one-sided difference through the live state) or "authors" (the released
	// code: the first rollout step only, detached state, a Rademacher direction, a central difference
	// scaled by the state's RMS; see model.RolloutOptions.JacobianAuthors). Both penalise
	// max(gain − 1, 0)².
	JRegStyle string `json:"jreg_style,omitempty"`
	// NoiseGroup > 1 gives consecutive groups of that many windows of a microbatch one noise draw
	// (the first window's) in DW's probe: the authors draw one sign per trajectory and reuse it over
	// the trajectory's starts (grouping "trajectories" orders windows trajectory-major). 0 or 1:
	// one draw per window.
	NoiseGroup int `json:"noise_group,omitempty"`
	// NoiseScale multiplies DW's sampled noise trajectories by √NoiseScale before the noise probe,
	// so the noise route moment R̂ is NoiseScale times the sampler's (the probe is linear in the
	// noise). 0 and 1 are the method as published. An ablation, not a setting of the paper: it
	// asks whether gains closed by a noise moment above the total one (tr R̂ > tr T̂) cause a
	// result.
	NoiseScale float64 `json:"noise_scale,omitempty"`
	// AdamEps is Adam's ε (0: GoMLX's 1e-7; PyTorch's, which the authors run, is 1e-8).
	AdamEps float64 `json:"adam_eps,omitempty"`
	// Loss is the training task loss: "" or LossRelL2 (the paper's eq. 8 per window and step, what
	// every testbed trains on) or LossMSE (the mean squared error over windows, steps and
	// coordinates: the released known-SNR runs). Evaluation is eq. 8 either way.
	Loss string `json:"loss,omitempty"`
	// Engine is how rollouts become compiled graphs: EngineAuto (the default: the DW_ENGINE
	// environment variable, else the step engine on XLA and the unrolled graphs on the pure-Go
	// backend), EngineSteps or EngineUnrolled (see engine.go). It changes no result beyond the
	// summation order, so it is not part of a run's identity.
	Engine string `json:"-"`
	// LRSchedule is the learning-rate schedule over the run's optimizer steps: "" or LRConstant
	// (LR throughout) or LRCosine (one cosine from LR at the first optimizer step to LRMin:
	// lr_t = LRMin + (LR − LRMin)·(1 + cos(π·t/T))/2 for optimizer step t = 0, 1, ... of T, held
	// at LRMin from t = T on; see ScheduledLR). T is the run's total optimizer steps, which a
	// Session sets (Trainer.SetTotalSteps); patience only stops earlier.
	LRSchedule string `json:"lr_schedule,omitempty"`
	// LRMin is the cosine schedule's final learning rate (0 <= LRMin <= LR; cosine only).
	LRMin float64 `json:"lr_min,omitempty"`
	// LRWarmup is the fraction of the run's optimizer steps (in [0, 1)) over which the rate rises
	// linearly to LR before the schedule starts: with w = ceil(LRWarmup·T) warm-up steps, step
	// t < w uses LR·(t+1)/w and step t >= w the schedule at t − w of T − w. Adam's first steps
	// divide by second-moment estimates built from a handful of gradients; a warm-up keeps those
	// steps small. 0 (the default) has no warm-up.
	LRWarmup float64 `json:"lr_warmup,omitempty"`
	// NoiseSampler, when non-nil, is DW's noise sampler itself, built by the caller, and Sampler
	// must be its Name: a DW-Prior bank sampler (dwlib/prior) is built from the training split,
	// which noise.New does not see. Nil: noise.New(Sampler). Not serialised: its content must
	// follow from the rest of the run's configuration (the bank from the training split and
	// Seed), and a checkpoint restores the sampler's state from its own JSON (noise.New(Sampler)
	// then UnmarshalJSON).
	NoiseSampler noise.Sampler `json:"-"`
}

// Task losses (Config.Loss).
const (
	LossRelL2 = "rel-l2"
	LossMSE   = "mse"
)

// JReg styles (Config.JRegStyle).
const (
	JRegText    = "text"
	JRegAuthors = "authors"
)

// Learning-rate schedules (Config.LRSchedule).
const (
	LRConstant = "constant"
	LRCosine   = "cosine"
)

// ScheduledLR is the learning rate of optimizer step t (0-based) of a run of total optimizer
// steps. After the warm-up (see LRWarmup; none by default) it is LR for the constant schedule and
// for LRCosine LRMin + (LR − LRMin)·(1 + cos(π·t/total))/2 while t < total, LRMin from t = total
// on, with t and total counted from the warm-up's end.
func (c Config) ScheduledLR(t, total int) float64 {
	if t < 0 {
		t = 0
	}
	if w := c.warmupSteps(total); w > 0 {
		if t < w {
			return c.LR * float64(t+1) / float64(w)
		}
		t, total = t-w, total-w
	}
	if c.LRSchedule != LRCosine {
		return c.LR
	}
	if t >= total {
		return c.LRMin
	}
	return c.LRMin + (c.LR-c.LRMin)*(1+math.Cos(math.Pi*float64(t)/float64(total)))/2
}

// warmupSteps is the number of warm-up steps of a run of total optimizer steps: ceil(LRWarmup·
// total), at most total − 1 so that the schedule keeps a step.
func (c Config) warmupSteps(total int) int {
	if !(c.LRWarmup > 0) || total < 2 {
		return 0
	}
	return min(int(math.Ceil(c.LRWarmup*float64(total))), total-1)
}

// scheduled reports whether the learning rate changes over the run (a schedule or a warm-up), so
// the trainer must know the run's total optimizer steps and set the rate before each step.
func (c Config) scheduled() bool { return c.LRSchedule == LRCosine || c.LRWarmup > 0 }

// Weight-decay modes (Config.WeightDecayMode).
const (
	WeightDecayL2        = "l2"
	WeightDecayDecoupled = "decoupled"
)

// Defaults fills zero fields with the paper's values for the method. WeightDecay is the exception:
// zero is a meaningful value there (no weight decay), so it is never replaced; the paper's 1e-4 has
// to be asked for (the experiment profiles do).
func (c Config) Defaults() Config {
	if c.Method == "" {
		c.Method = "full"
	}
	if c.BatchSize == 0 {
		c.BatchSize = 32
	}
	if c.LR == 0 {
		c.LR = 1e-4
	}
	if c.ClipNorm == 0 {
		c.ClipNorm = 1
	}
	if c.JRegEps == 0 {
		c.JRegEps = 1e-3
	}
	if c.Method == "jreg" && c.JRegCoef == 0 {
		c.JRegCoef = 1
	}
	if c.Method == "tbptt" && c.Segment == 0 {
		c.Segment = 8
	}
	if c.Method == "static" && c.StaticGain == 0 {
		c.StaticGain = 0.6
	}
	if c.Warmup == 0 {
		c.Warmup = 8
	}
	if c.Period == 0 {
		c.Period = 4
	}
	if c.Sampler == "" {
		c.Sampler = "generic"
	}
	if c.WeightDecayMode == "" {
		c.WeightDecayMode = WeightDecayL2
	}
	if c.JRegStyle == "" {
		c.JRegStyle = JRegText
	}
	return c
}

// Validate reports the first invalid field by name.
func (c Config) Validate() error {
	if !slices.Contains(Methods, c.Method) {
		return fmt.Errorf("train: unknown method %q, valid methods are %q", c.Method, Methods)
	}
	if c.NoiseSampler != nil && c.NoiseSampler.Name() != c.Sampler {
		return fmt.Errorf("train: Config.NoiseSampler is a %q sampler, but Config.Sampler = %q", c.NoiseSampler.Name(), c.Sampler)
	}
	switch {
	case c.K < 1:
		return fmt.Errorf("train: Config.K = %d, must be >= 1", c.K)
	case c.BatchSize < 1:
		return fmt.Errorf("train: Config.BatchSize = %d, must be >= 1", c.BatchSize)
	case !(c.LR > 0):
		return fmt.Errorf("train: Config.LR = %v, must be > 0", c.LR)
	case c.LRSchedule != "" && c.LRSchedule != LRConstant && c.LRSchedule != LRCosine:
		return fmt.Errorf("train: Config.LRSchedule = %q, must be %q, %q or empty (constant)", c.LRSchedule, LRConstant, LRCosine)
	case !(c.LRMin >= 0) || c.LRMin > c.LR:
		return fmt.Errorf("train: Config.LRMin = %v, must be in [0, LR=%v]", c.LRMin, c.LR)
	case c.LRMin != 0 && c.LRSchedule != LRCosine:
		return fmt.Errorf("train: Config.LRMin = %v is set, but only LRSchedule %q uses it (LRSchedule = %q)", c.LRMin, LRCosine, c.LRSchedule)
	case !(c.LRWarmup >= 0 && c.LRWarmup < 1):
		return fmt.Errorf("train: Config.LRWarmup = %v, must be a fraction of the run's optimizer steps in [0, 1)", c.LRWarmup)
	case c.WeightDecay < 0:
		return fmt.Errorf("train: Config.WeightDecay = %v, must be >= 0", c.WeightDecay)
	case !(c.ClipNorm > 0):
		return fmt.Errorf("train: Config.ClipNorm = %v, must be > 0", c.ClipNorm)
	case c.Method == "tbptt" && (c.Segment < 1 || c.Segment > c.K):
		return fmt.Errorf("train: Config.Segment = %d, must be in [1, K=%d]", c.Segment, c.K)
	case c.Method == "static" && !(c.StaticGain >= 0 && c.StaticGain <= 1):
		return fmt.Errorf("train: Config.StaticGain = %v, must be in [0, 1]", c.StaticGain)
	case c.WeightDecayMode != WeightDecayL2 && c.WeightDecayMode != WeightDecayDecoupled:
		return fmt.Errorf("train: Config.WeightDecayMode = %q, must be %q or %q", c.WeightDecayMode, WeightDecayL2, WeightDecayDecoupled)
	case c.JRegStyle != JRegText && c.JRegStyle != JRegAuthors:
		return fmt.Errorf("train: Config.JRegStyle = %q, must be %q or %q", c.JRegStyle, JRegText, JRegAuthors)
	case c.NoiseGroup < 0:
		return fmt.Errorf("train: Config.NoiseGroup = %d, must be >= 0", c.NoiseGroup)
	case !(c.NoiseScale >= 0) || math.IsInf(c.NoiseScale, 0):
		return fmt.Errorf("train: Config.NoiseScale = %v, must be finite and >= 0 (0 or 1: unscaled)", c.NoiseScale)
	case c.Loss != "" && c.Loss != LossRelL2 && c.Loss != LossMSE:
		return fmt.Errorf("train: Config.Loss = %q, must be %q (the default) or %q", c.Loss, LossRelL2, LossMSE)
	case c.AdamEps < 0:
		return fmt.Errorf("train: Config.AdamEps = %v, must be >= 0", c.AdamEps)
	case c.Engine != EngineAuto && c.Engine != EngineSteps && c.Engine != EngineUnrolled:
		return fmt.Errorf("train: Config.Engine = %q, must be %q, %q or empty (automatic)", c.Engine, EngineSteps, EngineUnrolled)
	case c.Method == "jreg" && !(c.JRegCoef > 0 && c.JRegEps > 0):
		return fmt.Errorf("train: Config.JRegCoef = %v and JRegEps = %v must be > 0", c.JRegCoef, c.JRegEps)
	}
	return nil
}
