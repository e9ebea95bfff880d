package data

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/fields"
)

// ShearName is the registry name of the shear-flow field testbed.
const ShearName = "shear"

// Shear grids (Options.FieldGrid): the simulated NX (NY = 2·NX). The paper's layout is 64 × 128
// (The Well's 256 × 512 subsampled by 4); 32 × 64 is what 2 CPU cores can generate and train on.
const (
	ShearGridPaper = 64
	ShearGridCPU   = 32
)

// ShearDataConfig is the shear testbed's generation: NumTraj trajectories of the simulation Sim
// (Sim.Frames frames each; Sim.Seed is ignored: trajectory i is simulated from a seed drawn from
// (Seed, i)), every Subsample-th grid point kept in each direction.
//
// The subsampling and the sequence cut (SeqLen, SeqStride) are applied after the cache: the cache
// holds whole raw trajectories on the simulated grid, so different subsamplings and cuts share one
// file (and one simulation).
type ShearDataConfig struct {
	Sim       fields.ShearConfig
	NumTraj   int
	Subsample int
	SeqLen    int // frames per sequence (a Dataset unit); the paper: 64
	SeqStride int // frames between the starts of consecutive sequences; the paper: 16
	Seed      uint64
}

// ShearSim is the simulation at a grid (ShearGridPaper or ShearGridCPU), frames 0.1 time units
// apart. At 64 × 128 it is fields.DefaultShear (Re = 2000). At 32 × 64 it is Re = 3000 with
// thicker layers (a = .06) and DT = 5e-3: the layers roll up by frame 25 and the flow stays
// active (v's RMS .15–.3 through frame 100), where the 64-grid's Re = 2000 would be resolved
// but thinner layers would not.
func ShearSim(grid int) (fields.ShearConfig, error) {
	switch grid {
	case ShearGridPaper:
		return fields.DefaultShear(0), nil
	case ShearGridCPU:
		return fields.ShearConfig{
			Flow:  fields.FlowConfig{NX: 32, NY: 64, LX: 1, LY: 2, Re: 3000, Sc: 2, DT: 5e-3},
			Width: 0.06, Amp: 0.05, Modes: 4, StepsPerFrame: 20, Frames: 200,
		}, nil
	}
	return fields.ShearConfig{}, fmt.Errorf("data: shear: FieldGrid = %d, want %d (the paper's 64 x 128) or %d (32 x 64, CPU size)",
		grid, ShearGridPaper, ShearGridCPU)
}

// DefaultShearDataConfig is the paper's shear testbed: 40 trajectories of 200 frames on the
// 64 × 128 grid, cut into 64-frame sequences with stride 16.
func DefaultShearDataConfig() ShearDataConfig {
	sim, _ := ShearSim(ShearGridPaper)
	return ShearDataConfig{Sim: sim, NumTraj: 40, Subsample: 1, SeqLen: 64, SeqStride: 16, Seed: DefaultGenSeed}
}

// Field is the layout of the generated states: the four channels of fields.Channels on the
// subsampled grid (NY/Subsample rows of NX/Subsample values).
func (c ShearDataConfig) Field() Field {
	s := max(c.Subsample, 1)
	return Field{Channels: len(fields.Channels), Height: c.Sim.Flow.NY / s, Width: c.Sim.Flow.NX / s, Names: slices.Clone(fields.Channels)}
}

func (c ShearDataConfig) validate() error {
	if err := c.Sim.Validate(); err != nil {
		return fmt.Errorf("data: shear: %w", err)
	}
	switch {
	case c.NumTraj < 3:
		return fmt.Errorf("data: shear: NumTraj = %d, need at least 3 (one per split)", c.NumTraj)
	case c.Subsample < 1 || c.Sim.Flow.NX%c.Subsample != 0 || c.Sim.Flow.NY%c.Subsample != 0:
		return fmt.Errorf("data: shear: Subsample = %d must be >= 1 and divide the %d x %d grid", c.Subsample, c.Sim.Flow.NX, c.Sim.Flow.NY)
	case c.SeqLen < 2 || c.SeqLen > c.Sim.Frames:
		return fmt.Errorf("data: shear: SeqLen = %d must be in [2, %d] (the frames per trajectory)", c.SeqLen, c.Sim.Frames)
	case c.SeqStride < 1:
		return fmt.Errorf("data: shear: SeqStride = %d, must be >= 1", c.SeqStride)
	}
	return nil
}

// cacheKey names the algorithm and every generation parameter (the subsampling and the sequence
// cut are not generation parameters).
func (c ShearDataConfig) cacheKey() string {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	f, s := c.Sim.Flow, c.Sim
	return fmt.Sprintf("gen=shear-ifrk4/v1;n=%d;frames=%d;nx=%d;ny=%d;lx=%s;ly=%s;re=%s;sc=%s;dt=%s;width=%s;amp=%s;modes=%d;spf=%d;seed=%d",
		c.NumTraj, s.Frames, f.NX, f.NY, g(f.LX), g(f.LY), g(f.Re), g(f.Sc), g(f.DT), g(s.Width), g(s.Amp), s.Modes, s.StepsPerFrame, c.Seed)
}

// GenerateShear simulates the raw trajectories on the simulated grid (one Series per trajectory,
// X[t] = frame t in the Field layout of Subsample 1, no drive), in parallel over trajectories;
// each depends on its index and the seed only. Load subsamples them after the cache.
func GenerateShear(c ShearDataConfig) ([]Series, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	out := make([]Series, c.NumTraj)
	errs := make([]error, c.NumTraj)
	parallelFor(c.NumTraj, func(i int) {
		sim := c.Sim
		sim.Seed = newStream(c.Seed, purposeShear, i).Uint64()
		frames, err := fields.Shear(sim)
		if err != nil {
			errs[i] = fmt.Errorf("data: shear trajectory %d: %w", i, err)
			return
		}
		out[i] = Series{X: frames}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// subsampleFrames keeps every s-th point of each channel in both directions (point sampling, as a
// strided view of the fine grid: the coarse values are exact simulation values, not averages).
func subsampleFrames(frames [][]float64, nx, ny, s int) [][]float64 {
	if s == 1 {
		return frames
	}
	n := nx * ny
	w, h := nx/s, ny/s
	out := make([][]float64, len(frames))
	for t, fr := range frames {
		row := make([]float64, 0, len(fields.Channels)*w*h)
		for c := range len(fields.Channels) {
			for y := 0; y < ny; y += s {
				for x := 0; x < nx; x += s {
					row = append(row, fr[c*n+y*nx+x])
				}
			}
		}
		out[t] = row
	}
	return out
}

// SequenceStarts are the first frames of the sequences cut from a trajectory of T frames: 0,
// stride, 2·stride, … while a whole sequence fits (the paper: T = 200, 64-frame sequences with
// stride 16 give 9 per trajectory).
func SequenceStarts(T, seqLen, stride int) []int {
	var out []int
	for s := 0; s+seqLen <= T; s += stride {
		out = append(out, s)
	}
	return out
}

// cutSequences cuts each trajectory into sequences. The sequences share the trajectory's rows
// (overlapping sequences hold the same frames; a Dataset's rows are never modified in place).
func cutSequences(trajs []Series, seqLen, stride int) []Series {
	var out []Series
	for _, tr := range trajs {
		for _, s := range SequenceStarts(tr.Len(), seqLen, stride) {
			out = append(out, Series{X: tr.X[s : s+seqLen : s+seqLen]})
		}
	}
	return out
}

// FieldSplitCounts is the paper's 80/10/10 trajectory split of the field testbeds (32/4/4 of
// 40): val = test = round(0.1 n), at least 1 each, train the rest.
func FieldSplitCounts(n int) (train, val, test int, err error) {
	if n < 3 {
		return 0, 0, 0, fmt.Errorf("data: need at least 3 trajectories to split, got %d", n)
	}
	val = max(1, int(math.Round(0.1*float64(n))))
	return n - 2*val, val, val, nil
}

// FieldSplit is the fixed trajectory split of the field testbeds: the first train trajectories
// for training, the next val for validation, the last test for testing. The paper uses The
// Well's supplied partitions "without reshuffling trajectories", so the split does not depend on
// the experimental seed (which still seeds the model, the windows and the probes); the
// trajectories are independent draws, so a contiguous partition is as random as any. Sequences
// are cut within each split's trajectories afterwards, so no sequence crosses a trajectory or a
// split.
func FieldSplit(n int) (Split, error) {
	ntr, nva, _, err := FieldSplitCounts(n)
	if err != nil {
		return Split{}, err
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return Split{Train: slices.Clone(idx[:ntr]), Val: slices.Clone(idx[ntr : ntr+nva]), Test: slices.Clone(idx[ntr+nva:])}, nil
}

// shearConfig is the generation that opt asks for.
func shearConfig(opt Options) (ShearDataConfig, error) {
	c := DefaultShearDataConfig()
	grid := opt.FieldGrid
	if grid == 0 {
		grid = ShearGridPaper
	}
	sim, err := ShearSim(grid)
	if err != nil {
		return c, err
	}
	c.Sim = sim
	c.Seed = opt.genSeed()
	if err := opt.sizes(&c.NumTraj, &c.Sim.Frames); err != nil {
		return c, err
	}
	if opt.Subsample < 0 || opt.SeqLen < 0 || opt.SeqStride < 0 {
		return c, fmt.Errorf("data: shear: Subsample (%d), SeqLen (%d) and SeqStride (%d) must not be negative", opt.Subsample, opt.SeqLen, opt.SeqStride)
	}
	if opt.Subsample > 0 {
		c.Subsample = opt.Subsample
	}
	if opt.SeqLen > 0 {
		c.SeqLen = opt.SeqLen
	}
	if opt.SeqStride > 0 {
		c.SeqStride = opt.SeqStride
	}
	return c, c.validate()
}

// ShearField is the field layout Load("shear", opt) will produce, computed without generating
// anything (a model can be configured before the data exist).
func ShearField(opt Options) (Field, error) {
	c, err := shearConfig(opt)
	if err != nil {
		return Field{}, err
	}
	return c.Field(), nil
}

// loadShear builds the shear testbed: raw trajectories from the cache (or the simulator), the
// fixed trajectory-level split (FieldSplit: Options.Seed does not change it), and the sequences
// cut within each split.
//
// The states keep their raw scale (the identity Normalizer): the paper applies "no extra
// standardisation" to the fields, the rel-L2 loss is scale-free per sequence, and the spectral
// sampler standardises residuals itself. Options.ScalarNorm is refused rather than ignored.
func loadShear(name string, opt Options) (*Dataset, error) {
	if err := opt.onlyProjectGenerator(name); err != nil {
		return nil, err
	}
	if opt.ScalarNorm {
		return nil, fmt.Errorf("data: %s: Options.ScalarNorm true is refused: the field testbed keeps its raw scale (the paper's \"no extra standardisation\")", name)
	}
	if opt.DriveScale != 0 {
		return nil, fmt.Errorf("data: %s is autonomous; DriveScale %v applies to driven-mg only", name, opt.DriveScale)
	}
	c, err := shearConfig(opt)
	if err != nil {
		return nil, err
	}
	dir, err := opt.cacheDir()
	if err != nil {
		return nil, err
	}
	raw, _, err := loadOrGenerate(dir, name, c.cacheKey(), func() ([]Series, error) { return GenerateShear(c) })
	if err != nil {
		return nil, err
	}
	for i := range raw {
		raw[i].X = subsampleFrames(raw[i].X, c.Sim.Flow.NX, c.Sim.Flow.NY, c.Subsample)
	}
	sp, err := FieldSplit(len(raw))
	if err != nil {
		return nil, fmt.Errorf("data: %s: %w", name, err)
	}
	f := c.Field()
	d := &Dataset{Name: name, StateDim: f.Dim(), Split: sp, Field: &f,
		Train: cutSequences(Pick(raw, sp.Train), c.SeqLen, c.SeqStride),
		Val:   cutSequences(Pick(raw, sp.Val), c.SeqLen, c.SeqStride),
		Test:  cutSequences(Pick(raw, sp.Test), c.SeqLen, c.SeqStride)}
	if len(d.Train) == 0 {
		return nil, fmt.Errorf("data: %s: no %d-frame sequence fits a %d-frame trajectory", name, c.SeqLen, c.Sim.Frames)
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return d, nil
}

// checkFieldOptions refuses the field-only options for a time-series testbed.
func (o Options) checkFieldOptions(name string) error {
	if IsField(name) {
		return nil
	}
	var set []string
	for _, f := range []struct {
		name string
		v    int
	}{{"FieldGrid", o.FieldGrid}, {"Subsample", o.Subsample}, {"SeqLen", o.SeqLen}, {"SeqStride", o.SeqStride}} {
		if f.v != 0 {
			set = append(set, fmt.Sprintf("%s = %d", f.name, f.v))
		}
	}
	if len(set) > 0 {
		return fmt.Errorf("data: %s: %s apply to the field testbed %s only", name, strings.Join(set, ", "), ShearName)
	}
	return nil
}
