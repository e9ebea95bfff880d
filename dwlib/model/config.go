package model

import (
	"fmt"
	"slices"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
)

// Kinds lists the stepper kinds New accepts.
var Kinds = []string{"mamba", "mlp"}

// Config describes a forecaster. Zero fields take the paper's defaults (see Defaults).
type Config struct {
	Kind      string // "mamba" (paper) or "mlp"
	StateDim  int    // D, the forecast state's dimension
	DriveDim  int    // J, observed drive channels fed to the read-in (0 if none)
	Hidden    int    // model width (Mamba-128: 128)
	Layers    int    // routed residual blocks (4)
	SSMState  int    // Mamba state size per channel (16)
	ConvWidth int    // Mamba causal convolution width (4)
	Expand    int    // Mamba expansion factor (2)
	Window    int    // observed steps consumed teacher-forced before each rollout (16)
	BurnIn    int    // leading steps of each unit never used (32)
	DType     dtypes.DType
	Seed      uint64 // parameter initialisation seed
}

// Defaults returns c with zero fields set to the paper's values.
func (c Config) Defaults() Config {
	set := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	if c.Kind == "" {
		c.Kind = "mamba"
	}
	set(&c.Hidden, 128)
	set(&c.Layers, 4)
	set(&c.SSMState, 16)
	set(&c.ConvWidth, 4)
	set(&c.Expand, 2)
	set(&c.Window, 16)
	set(&c.BurnIn, 32)
	if c.DType == dtypes.InvalidDType {
		c.DType = dtypes.Float32
	}
	return c
}

// Validate reports the first invalid field by name.
func (c Config) Validate() error {
	if !slices.Contains(Kinds, c.Kind) {
		return fmt.Errorf("model: unknown Kind %q, valid kinds are %q", c.Kind, Kinds)
	}
	for _, f := range []struct {
		name string
		v    int
		min  int
	}{{"StateDim", c.StateDim, 1}, {"DriveDim", c.DriveDim, 0}, {"Hidden", c.Hidden, 1}, {"Layers", c.Layers, 1},
		{"SSMState", c.SSMState, 1}, {"ConvWidth", c.ConvWidth, 1}, {"Expand", c.Expand, 1}, {"Window", c.Window, 1},
		{"BurnIn", c.BurnIn, 0}} {
		if f.v < f.min {
			return fmt.Errorf("model: Config.%s = %d, must be >= %d", f.name, f.v, f.min)
		}
	}
	if c.DType != dtypes.Float32 && c.DType != dtypes.Float64 {
		return fmt.Errorf("model: Config.DType = %s, must be Float32 or Float64", c.DType)
	}
	return nil
}
