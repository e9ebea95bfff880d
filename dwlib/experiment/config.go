package experiment

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gomlx/compute/dtypes"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/prior"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// DataConfig selects the testbed's data. Zero sizes mean the testbed's defaults (App. F.1).
type DataConfig struct {
	NumTraj    int     `json:"num_traj,omitempty"`    // synthetic trajectories (40; known-SNR 100)
	Length     int     `json:"length,omitempty"`      // trajectory length (2048) or ETT unit length (256)
	DriveScale float64 `json:"drive_scale,omitempty"` // driven-mg λ_D (.08)
	Generator  string  `json:"generator,omitempty"`   // "" (this project's) or "authors" (the released code's MG/driven-MG scheme)
	ScalarNorm bool    `json:"scalar_norm,omitempty"` // one scalar mean and sd over all training entries (the authors')
	GenSeed    uint64  `json:"gen_seed,omitempty"`    // data-generation seed (data.DefaultGenSeed)
	MaxUnits   int     `json:"max_units,omitempty"`   // use at most this many units per split (evenly spaced; 0: all)
	// NoCalendar drops ETT's six calendar drive coordinates (data.Options.NoCalendar): the
	// trained-ett recipe, where validation prefers the series alone on both ETT testbeds.
	NoCalendar bool `json:"no_calendar,omitempty"`
	// Channels and Participant choose the ieeg-synth participant (40 or 80 channels; 0: 40) and
	// the fmri-synth parcel count (0: 32); see data.Options.
	Channels    int `json:"channels,omitempty"`
	Participant int `json:"participant,omitempty"`
	// The field testbed (shear; refused by the others, see data.Options): the simulated grid's NX
	// (64 or 32), the spatial subsampling factor, and the frames per sequence (a unit: 64) and
	// between sequence starts (16). NumTraj and Length are its trajectories (40) and frames (200).
	FieldGrid int `json:"field_grid,omitempty"`
	Subsample int `json:"subsample,omitempty"`
	SeqLen    int `json:"seq_len,omitempty"`
	SeqStride int `json:"seq_stride,omitempty"`
	// CSV is the user's CSV data set that replaces a built-in testbed (nil for the testbeds); Length,
	// when set, overrides its spec's unit length, as for ETT.
	CSV *CSVData `json:"csv,omitempty"`
	// Manifest is the user's real data set read through a JSON manifest (nil otherwise).
	Manifest *ManifestData `json:"manifest,omitempty"`
}

// ModelConfig is model.Config without the data-dependent dimensions, with the dtype as a name.
type ModelConfig struct {
	Kind      string `json:"kind"`
	Hidden    int    `json:"hidden"`
	Layers    int    `json:"layers"`
	SSMState  int    `json:"ssm_state"`
	ConvWidth int    `json:"conv_width"`
	Expand    int    `json:"expand"`
	Window    int    `json:"window"`
	BurnIn    int    `json:"burn_in"`
	DType     string `json:"dtype"`
	// Architecture variants (model.Config): "" is the project's reading of the paper's text.
	Norm string `json:"norm,omitempty"`
	Stem string `json:"stem,omitempty"`
	Head string `json:"head,omitempty"`
	Init string `json:"init,omitempty"`
	// ChannelIndependent runs the step on each state coordinate alone with shared weights
	// (model.Config.ChannelIndependent); false, the default, mixes the coordinates in the read-in.
	ChannelIndependent bool `json:"channel_independent,omitempty"`
	// ChannelDrive is the drive a channel-independent step sees (model.Config.ChannelDrive): ""
	// (the whole drive) or "own" (coordinate c sees drive column c; the drive must have one column
	// per coordinate, as driven-mg and narma5 have).
	ChannelDrive string `json:"channel_drive,omitempty"`
	// Shift is the level-invariant read-in (model.Config.Shift): "" (none), "last" (forecast the
	// motion from each window's last observed state) or "mean" (from its observed mean). A shifted
	// model trains with train.loss "mse" (train.NewTrainer refuses rel-L2 there).
	Shift string `json:"shift,omitempty"`
	// The U-Net (Kind "unet", model.UNetConfig; absent for the other kinds): the field layout
	// Channels × Height × Width (the testbed's, data.FieldShape), the first level's width Base,
	// the width factor per level Mult, the number of levels Depth and the frames each step reads
	// (Frames, 2: the paper's two-frame input). Window is then the observed frames before an
	// origin (at least Frames).
	Channels int `json:"channels,omitempty"`
	Height   int `json:"height,omitempty"`
	Width    int `json:"width,omitempty"`
	Base     int `json:"base,omitempty"`
	Mult     int `json:"mult,omitempty"`
	Depth    int `json:"depth,omitempty"`
	Frames   int `json:"frames,omitempty"`
}

// RunConfig is everything that determines a run's numbers.
type RunConfig struct {
	Profile     string          `json:"profile"`
	Testbed     string          `json:"testbed"`
	Seed        uint64          `json:"seed"`
	Data        DataConfig      `json:"data"`
	Model       ModelConfig     `json:"model"`
	Train       train.Config    `json:"train"`
	Fit         train.FitConfig `json:"fit"`
	EvalOrigins int             `json:"eval_origins"` // at most this many test origins per unit (64)
	HEval       int             `json:"h_eval"`       // evaluation horizon, ceil(1.5 K)
	// EvalWindow is the test context: observed states before each test origin (the authors' test
	// evaluator uses 16 while training and validation use 32). EvalBurnIn leading steps of each test
	// unit are never used (the authors: 0). The validation loss uses the training geometry.
	EvalWindow int `json:"eval_window"`
	EvalBurnIn int `json:"eval_burn_in"`
	// Prior overrides the cross-fitting grid of a DW-Prior bank (prior-factor, prior-subject);
	// nil: the defaults PriorGrid documents.
	Prior *PriorGrid `json:"prior,omitempty"`
}

// Methods lists the training methods (train.Methods).
func Methods() []string { return slices.Clone(train.Methods) }

// Testbeds lists the testbeds (data.Names).
func Testbeds() []string { return data.Names() }

// Name is the run's directory, relative to the runs root: profile/testbed/method-K<K>-s<seed>. For
// a CSV data set the testbed is CSVData.Testbed, csv-<name>-<hash8>. A DW run with a DW-Prior
// sampler (dwlib/prior) or the spectral field prior names it after the method,
// dw-prior-ar-K<K>-s<seed> or dw-spectral-K<K>-s<seed>, so that it does not share a directory with
// the profile's DW-Generic run. A control run whose selected value differs from the profile's
// (SelectControls) names it too, clip-c0.3-K32-s0 (controls.go).
func (c RunConfig) Name() string {
	method := c.Train.Method
	if method == "dw" && (prior.IsName(c.Train.Sampler) || c.Train.Sampler == noise.SpectralName) {
		method += "-" + c.Train.Sampler
	}
	method += c.controlSuffix()
	return fmt.Sprintf("%s/%s/%s-K%d-s%d", c.Profile, c.Testbed+c.dataSuffix(), method, c.Train.K, c.Seed)
}

// dataSuffix tells apart, in the run directory, the data sets of one testbed that
// data.channels and data.participant select (ieeg-synth-c80-p1): "" at the defaults, so the
// default runs keep their directories.
func (c RunConfig) dataSuffix() string {
	s := ""
	if c.Data.Channels != 0 {
		s += fmt.Sprintf("-c%d", c.Data.Channels)
	}
	if c.Data.Participant != 0 {
		s += fmt.Sprintf("-p%d", c.Data.Participant)
	}
	return s
}

// JSON is the run configuration as indented JSON.
func (c RunConfig) JSON() []byte {
	b, _ := json.MarshalIndent(c, "", "  ")
	return b
}

// dataOptions converts to data.Options for the run's seed.
func (c RunConfig) dataOptions() data.Options {
	return data.Options{Seed: c.Seed, GenSeed: c.Data.GenSeed, NumTraj: c.Data.NumTraj, Length: c.Data.Length, DriveScale: c.Data.DriveScale,
		Generator: c.Data.Generator, ScalarNorm: c.Data.ScalarNorm,
		Channels: c.Data.Channels, Participant: c.Data.Participant,
		FieldGrid: c.Data.FieldGrid, Subsample: c.Data.Subsample, SeqLen: c.Data.SeqLen, SeqStride: c.Data.SeqStride,
		NoCalendar: c.Data.NoCalendar}
}

// modelConfig completes the model configuration with the dataset's dimensions.
func (c RunConfig) modelConfig(stateDim, driveDim int) (model.Config, error) {
	dt, err := parseDType(c.Model.DType)
	if err != nil {
		return model.Config{}, err
	}
	m := c.Model
	return model.Config{Kind: m.Kind, StateDim: stateDim, DriveDim: driveDim, Hidden: m.Hidden, Layers: m.Layers,
		SSMState: m.SSMState, ConvWidth: m.ConvWidth, Expand: m.Expand, Window: m.Window, BurnIn: m.BurnIn,
		DType: dt, Seed: c.Seed, Norm: m.Norm, Stem: m.Stem, Head: m.Head, Init: m.Init,
		ChannelIndependent: m.ChannelIndependent, ChannelDrive: m.ChannelDrive, Shift: m.Shift}, nil
}

func parseDType(s string) (dtypes.DType, error) {
	switch strings.ToLower(s) {
	case "float32", "":
		return dtypes.Float32, nil
	case "float64":
		return dtypes.Float64, nil
	}
	return dtypes.InvalidDType, fmt.Errorf("experiment: model dtype %q, want float32 or float64", s)
}

// defaultSizes are the testbed's default number of trajectories (0 for ETT, whose units follow
// from the chronological split) and unit length, as dwlib/data generates them.
func defaultSizes(testbed string) (numTraj, length int) {
	switch {
	case strings.HasPrefix(testbed, "ett"):
		return 0, data.ETTUnitLen
	case testbed == "known-snr":
		c := data.DefaultAR1Config()
		return c.NumTraj, c.Length
	case testbed == "narma5":
		c := data.DefaultNARMAConfig()
		return c.NumTraj, c.Length
	case testbed == "ieeg-synth":
		c := data.DefaultIEEGSynthConfig()
		return c.Recordings, c.Length
	case testbed == "fmri-synth":
		c := data.DefaultFMRISynthConfig()
		return c.Subjects, c.Length
	case data.IsField(testbed):
		c := data.DefaultShearDataConfig()
		return c.NumTraj, c.Sim.Frames
	default:
		c := data.DefaultMGConfig()
		return c.NumTraj, c.Length
	}
}

// unitLength is the length of the testbed's units under this configuration: for the field
// testbed a sequence (Data.SeqLen, default 64), not a trajectory.
func (c RunConfig) unitLength() int {
	if c.Testbed == "ieeg-synth" { // the movie is cut into chunks: the unit is a chunk
		p, err := data.IEEGSplitPlan(c.Data.Length)
		if err != nil {
			return 0
		}
		return p.ChunkLen
	}
	if data.IsField(c.Testbed) && c.Data.CSV == nil {
		if c.Data.SeqLen > 0 {
			return c.Data.SeqLen
		}
		return data.DefaultShearDataConfig().SeqLen
	}
	if c.Data.Length > 0 {
		return c.Data.Length
	}
	if c.Data.CSV != nil {
		return c.Data.CSV.unitLen()
	}
	if c.Data.Manifest != nil {
		return c.Data.Manifest.UnitLen
	}
	_, n := defaultSizes(c.Testbed)
	return n
}

// Validate checks names and sizes before any work starts: an unknown testbed or method is refused
// with the valid names, and a K (or evaluation horizon) too long for the units is refused with
// the sizes involved, however large (no ceil(1.5 K) is computed before K is known to fit).
func (c RunConfig) Validate() error {
	if err := c.checkNameLengths(); err != nil {
		return err
	}
	if c.Data.CSV != nil {
		if err := c.Data.CSV.check(c.Testbed); err != nil {
			return err
		}
		if d := c.Data; d.NumTraj != 0 || d.DriveScale != 0 || d.Generator != "" || d.ScalarNorm || d.GenSeed != 0 {
			return fmt.Errorf("experiment: %s: num_traj, drive_scale, generator, scalar_norm and gen_seed apply to the synthetic testbeds, not to a CSV data set", c.Testbed)
		}
	} else if c.Data.Manifest != nil {
		if err := c.Data.Manifest.check(c.Testbed); err != nil {
			return err
		}
		if d := c.Data; d.NumTraj != 0 || d.Length != 0 || d.DriveScale != 0 || d.Generator != "" || d.GenSeed != 0 || d.Channels != 0 {
			return fmt.Errorf("experiment: %s: num_traj, length, drive_scale, generator, gen_seed and channels apply to the synthetic testbeds, not to a manifest (its files fix them)", c.Testbed)
		}
	} else if !slices.Contains(Testbeds(), c.Testbed) {
		return fmt.Errorf("experiment: unknown testbed %q; valid testbeds: %s (or a CSV file: dw train -data FILE)", c.Testbed, strings.Join(Testbeds(), ", "))
	}
	if d := c.Data; (d.Channels != 0 || d.Participant != 0 && d.Manifest == nil) && c.Testbed != "ieeg-synth" && c.Testbed != "fmri-synth" {
		return fmt.Errorf("experiment: %s: data.channels (%d) and data.participant (%d) apply to ieeg-synth and fmri-synth only", c.Testbed, d.Channels, d.Participant)
	}
	if c.Data.NoCalendar && c.Testbed != "ettm1" && c.Testbed != "ettm2" {
		return fmt.Errorf("experiment: %s: data.no_calendar applies to ettm1 and ettm2 only (a CSV data set sets \"calendar\" in its spec)", c.Testbed)
	}
	if c.Model.ChannelIndependent && c.Model.Kind == KindUNet {
		return fmt.Errorf("experiment: model.channel_independent applies to the mamba and mlp forecasters, not to the %s", KindUNet)
	}
	switch {
	case c.Model.ChannelDrive != model.ChannelDriveAll && c.Model.ChannelDrive != model.ChannelDriveOwn:
		return fmt.Errorf("experiment: model.channel_drive = %q, valid values are \"\" (the whole drive) and %q", c.Model.ChannelDrive, model.ChannelDriveOwn)
	case c.Model.ChannelDrive == model.ChannelDriveOwn && !c.Model.ChannelIndependent:
		return fmt.Errorf("experiment: model.channel_drive %q needs model.channel_independent", c.Model.ChannelDrive)
	}
	if c.Model.Shift != model.ShiftNone {
		if !slices.Contains(model.Shifts, c.Model.Shift) {
			return fmt.Errorf("experiment: model.shift = %q, valid values are \"\" (none), %q and %q", c.Model.Shift, model.ShiftLast, model.ShiftMean)
		}
		if c.Model.Kind == KindUNet {
			return fmt.Errorf("experiment: model.shift applies to the mamba and mlp forecasters, not to the %s", KindUNet)
		}
		if c.Train.Loss != train.LossMSE {
			return fmt.Errorf("experiment: model.shift %q needs train.loss %q (it is %q): a shift leaves the squared error unchanged, not the relative L2's denominator", c.Model.Shift, train.LossMSE, c.Train.Loss)
		}
	}
	if p := c.Prior; p != nil && (p.Folds < 0 || p.Purge < 0) {
		return fmt.Errorf("experiment: prior.folds (%d) and prior.purge (%d) must not be negative", p.Folds, p.Purge)
	}
	if !slices.Contains(Methods(), c.Train.Method) {
		return fmt.Errorf("experiment: unknown method %q; valid methods: %s", c.Train.Method, strings.Join(Methods(), ", "))
	}
	if !validName(c.Profile) {
		return fmt.Errorf("experiment: profile name %q must be non-empty and use only a-z, 0-9, '-' and '_' (it names the run directory)", c.Profile)
	}
	// Sizes first, each against the unit length, so that no sum or ceil(1.5 K) below can overflow.
	if c.Data.Length > maxUnitLength {
		return fmt.Errorf("experiment: data length %d is too long (at most %d)", c.Data.Length, maxUnitLength)
	}
	n := c.unitLength()
	for _, f := range []struct {
		name string
		v    int
	}{{"K", c.Train.K}, {"model window", c.Model.Window}, {"model burn-in", c.Model.BurnIn}, {"EvalWindow", c.EvalWindow}, {"EvalBurnIn", c.EvalBurnIn}} {
		if f.v > n {
			return fmt.Errorf("experiment: %s = %d is too long for %s: units have %d steps", f.name, f.v, c.Testbed, n)
		}
	}
	if err := c.Train.Defaults().Validate(); err != nil {
		return err
	}
	if err := c.Fit.Defaults().Validate(); err != nil {
		return err
	}
	if err := c.validateModel(); err != nil {
		return err
	}
	if err := c.validateSampler(); err != nil {
		return err
	}
	if c.HEval != eval.HEval(c.Train.K) {
		return fmt.Errorf("experiment: HEval = %d, want ceil(1.5 K) = %d", c.HEval, eval.HEval(c.Train.K))
	}
	if c.EvalOrigins < 1 {
		return fmt.Errorf("experiment: EvalOrigins = %d, must be >= 1", c.EvalOrigins)
	}
	if c.EvalWindow < 1 || c.EvalBurnIn < 0 {
		return fmt.Errorf("experiment: EvalWindow = %d must be >= 1 and EvalBurnIn = %d >= 0", c.EvalWindow, c.EvalBurnIn)
	}
	need := c.EvalBurnIn + c.EvalWindow + c.HEval
	if need > n {
		return fmt.Errorf("experiment: K = %d is too long for %s: test burn-in %d + window %d + evaluation horizon ceil(1.5K) = %d needs %d steps, but units have %d",
			c.Train.K, c.Testbed, c.EvalBurnIn, c.EvalWindow, c.HEval, need, n)
	}
	if need := c.Model.BurnIn + c.Model.Window + c.Train.K; need > n {
		return fmt.Errorf("experiment: K = %d is too long for %s: burn-in %d + window %d + K needs %d steps, but units have %d",
			c.Train.K, c.Testbed, c.Model.BurnIn, c.Model.Window, need, n)
	}
	return nil
}

// maxUnitLength bounds Data.Length, so that sums of sizes below it never overflow an int.
const maxUnitLength = 1 << 30

// validName reports whether s can name a directory level: [a-z0-9_-]+.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
