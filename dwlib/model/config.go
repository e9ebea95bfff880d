package model

import (
	"fmt"
	"slices"

	"github.com/gomlx/compute/dtypes"
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

	// Architecture variants (see arch.go): the paper's text reading is the default, the authors'
	// released code is "layer", "layernorm-gelu", "layernorm-gelu" and "torch".
	Norm string // block pre-norm: "rms" (default) or "layer"
	Stem string // read-in: "linear" (default) or "layernorm-gelu"
	Head string // read-out: "silu" (default: Linear → SiLU → Linear) or "layernorm-gelu"
	Init string // "normal" (default) or "torch" (PyTorch's default uniform initialisation)

	// ChannelIndependent applies the step to each of the D state coordinates on its own, with
	// shared weights: the read-in sees one coordinate (and the whole drive), the blocks run on
	// N·D rows, and the read-out predicts that coordinate's increment. Coordinates then interact
	// only through the drive. It is the right prior where the coordinates are independent copies
	// of one system (Mackey–Glass's 8 channels, NARMA's) and a common regulariser elsewhere
	// (PatchTST's "channel independence" on ETT); a residual block is still y = x + F(x), so
	// every method, Internal-DW included, is unchanged.
	ChannelIndependent bool

	// ChannelDrive says which drive a channel-independent step sees: ChannelDriveAll ("", every
	// coordinate sees the whole drive) or ChannelDriveOwn (coordinate c sees drive column c only;
	// DriveDim must equal StateDim). With shared weights and no coordinate index, a coordinate
	// cannot tell which of the whole drive's columns is its own forcing; where column c drives
	// coordinate c alone (driven Mackey–Glass's 8 copies, each with its own forcing) "own" is the
	// structure of the data.
	ChannelDrive string

	// Shift is the level-invariant read-in (shift.go): "" (none, the paper's), "last" or "mean".
	Shift string
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
	def := func(p *string, v string) {
		if *p == "" {
			*p = v
		}
	}
	def(&c.Norm, NormRMS)
	def(&c.Stem, StemLinear)
	def(&c.Head, HeadSiLU)
	def(&c.Init, InitNormal)
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
	for _, f := range []struct {
		name, v string
		valid   []string
	}{{"Norm", c.Norm, []string{NormRMS, NormLayer}}, {"Stem", c.Stem, []string{StemLinear, StemLayerNormGELU}},
		{"Head", c.Head, []string{HeadSiLU, HeadLayerNormGELU}}, {"Init", c.Init, []string{InitNormal, InitTorch}}} {
		if !slices.Contains(f.valid, f.v) {
			return fmt.Errorf("model: Config.%s = %q, valid values are %q", f.name, f.v, f.valid)
		}
	}
	if c.DType != dtypes.Float32 && c.DType != dtypes.Float64 {
		return fmt.Errorf("model: Config.DType = %s, must be Float32 or Float64", c.DType)
	}
	if err := checkChannelDrive(c); err != nil {
		return err
	}
	return checkShift("Config.Shift", c.Shift)
}

// Channel drives of Config.ChannelDrive.
const (
	ChannelDriveAll = ""    // every coordinate sees the whole drive
	ChannelDriveOwn = "own" // coordinate c sees drive column c
)

func checkChannelDrive(c Config) error {
	switch c.ChannelDrive {
	case ChannelDriveAll:
		return nil
	case ChannelDriveOwn:
		if !c.ChannelIndependent {
			return fmt.Errorf("model: Config.ChannelDrive %q needs ChannelIndependent", c.ChannelDrive)
		}
		if c.DriveDim != c.StateDim {
			return fmt.Errorf("model: Config.ChannelDrive %q pairs drive column c with coordinate c: DriveDim (%d) must equal StateDim (%d)", c.ChannelDrive, c.DriveDim, c.StateDim)
		}
		return nil
	}
	return fmt.Errorf("model: Config.ChannelDrive = %q, valid values are \"\" (the whole drive) and %q", c.ChannelDrive, ChannelDriveOwn)
}
