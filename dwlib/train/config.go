package train

import (
	"fmt"
	"slices"
)

// Methods lists the training methods.
var Methods = []string{"full", "clip", "jreg", "tbptt", "static", "dw"}

// Config is one training run's optimisation settings (the model and data are separate).
type Config struct {
	Method      string  `json:"method"`
	K           int     `json:"K"`            // rollout steps
	BatchSize   int     `json:"batch_size"`   // rollout windows per minibatch (32)
	LR          float64 `json:"lr"`           // Adam learning rate (1e-4)
	WeightDecay float64 `json:"weight_decay"` // 1e-4
	ClipNorm    float64 `json:"clip_norm"`    // global-norm cap: 1 for primary arms, the Clip threshold for "clip"
	JRegCoef    float64 `json:"jreg_coef,omitempty"`
	JRegEps     float64 `json:"jreg_eps,omitempty"` // 1e-3
	Segment     int     `json:"segment,omitempty"`  // TBPTT segment length
	StaticGain  float64 `json:"static_gain,omitempty"`
	Warmup      int     `json:"warmup"`  // DW: fully open warm-up minibatches (8)
	Period      int     `json:"period"`  // DW: calibration period (4)
	Sampler     string  `json:"sampler"` // DW noise sampler ("generic")
	Seed        uint64  `json:"seed"`    // minibatch sampling, probe signs and JReg directions
}

// Defaults fills zero fields with the paper's values for the method.
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
	if c.WeightDecay == 0 {
		c.WeightDecay = 1e-4
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
	return c
}

// Validate reports the first invalid field by name.
func (c Config) Validate() error {
	if !slices.Contains(Methods, c.Method) {
		return fmt.Errorf("train: unknown method %q, valid methods are %q", c.Method, Methods)
	}
	switch {
	case c.K < 1:
		return fmt.Errorf("train: Config.K = %d, must be >= 1", c.K)
	case c.BatchSize < 1:
		return fmt.Errorf("train: Config.BatchSize = %d, must be >= 1", c.BatchSize)
	case !(c.LR > 0):
		return fmt.Errorf("train: Config.LR = %v, must be > 0", c.LR)
	case c.WeightDecay < 0:
		return fmt.Errorf("train: Config.WeightDecay = %v, must be >= 0", c.WeightDecay)
	case !(c.ClipNorm > 0):
		return fmt.Errorf("train: Config.ClipNorm = %v, must be > 0", c.ClipNorm)
	case c.Method == "tbptt" && (c.Segment < 1 || c.Segment > c.K):
		return fmt.Errorf("train: Config.Segment = %d, must be in [1, K=%d]", c.Segment, c.K)
	case c.Method == "static" && !(c.StaticGain >= 0 && c.StaticGain <= 1):
		return fmt.Errorf("train: Config.StaticGain = %v, must be in [0, 1]", c.StaticGain)
	case c.Method == "jreg" && !(c.JRegCoef > 0 && c.JRegEps > 0):
		return fmt.Errorf("train: Config.JRegCoef = %v and JRegEps = %v must be > 0", c.JRegCoef, c.JRegEps)
	}
	return nil
}
