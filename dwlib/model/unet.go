package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// UNetConfig configures the residual U-Net forecaster of fields (the paper's "U-Net-32", channel
// multiplier 2, two-frame input; the authors' UNetFieldModel).
type UNetConfig struct {
	// Channels, Height and Width are the field's layout: a state is Channels fields of Height rows
	// of Width values, channel-major (D = Channels·Height·Width), as dwlib/fields writes frames.
	Channels, Height, Width int
	// Frames is how many frames the step reads: the current one and Frames−1 before it (default 2).
	Frames int
	// Base is the first level's width (default 32), Mult the width factor per level (default 2),
	// Depth the number of levels (default 4), Groups the group-norm groups (default 8, fewer where
	// a width is not divisible).
	Base, Mult, Depth, Groups int
	// NoGrid leaves out the two coordinate channels the authors append to the input.
	NoGrid bool
	// Window is the observed frames before each origin (default Frames): the first Window−1 are
	// consumed teacher-forced to fill the frame buffer. BurnIn as in Spec (default 0).
	Window, BurnIn int
	Seed           uint64
	DType          dtypes.DType // Float32 (default) or Float64
}

// Defaults fills zero fields.
func (c UNetConfig) Defaults() UNetConfig {
	set := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	set(&c.Frames, 2)
	set(&c.Base, 32)
	set(&c.Mult, 2)
	set(&c.Depth, 4)
	set(&c.Groups, 8)
	set(&c.Window, c.Frames)
	if c.DType == dtypes.InvalidDType {
		c.DType = dtypes.Float32
	}
	return c
}

// Validate names the first invalid field.
func (c UNetConfig) Validate() error {
	for _, f := range []struct {
		name   string
		v, min int
	}{{"Channels", c.Channels, 1}, {"Height", c.Height, 1}, {"Width", c.Width, 1}, {"Frames", c.Frames, 1},
		{"Base", c.Base, 1}, {"Mult", c.Mult, 1}, {"Depth", c.Depth, 1}, {"Groups", c.Groups, 1}, {"BurnIn", c.BurnIn, 0}} {
		if f.v < f.min {
			return fmt.Errorf("model: UNetConfig.%s = %d, must be >= %d", f.name, f.v, f.min)
		}
	}
	if c.Window < c.Frames {
		return fmt.Errorf("model: UNetConfig.Window = %d, must be >= Frames = %d (the frames before the origin fill the buffer)", c.Window, c.Frames)
	}
	// GoMLX's bilinear interpolation has no gradient from maps of 3 or fewer points (see
	// graph.Interpolate): the coarsest level must keep at least 4 in each direction.
	if h, w := levelSize(c.Height, c.Depth-1), levelSize(c.Width, c.Depth-1); c.Depth > 1 && (h < 4 || w < 4) {
		return fmt.Errorf("model: UNetConfig: a %d x %d field at Depth %d has a %d x %d coarsest level; it needs at least 4 x 4", c.Height, c.Width, c.Depth, h, w)
	}
	if c.DType != dtypes.Float32 && c.DType != dtypes.Float64 {
		return fmt.Errorf("model: UNetConfig.DType = %s, must be Float32 or Float64", c.DType)
	}
	return nil
}

// levelSize is a side after `levels` stride-2 convolutions with padding 1: ceil halvings.
func levelSize(n, levels int) int {
	for range levels {
		n = (n + 1) / 2
	}
	return n
}

// UNet is the residual U-Net forecaster of fields: per step it maps the last Frames frames (and
// two coordinate channels) through a U-Net whose 2·Depth+1 residual blocks
// act(branch(x) + skip(x)) are the routed merges (route.Merge: α on the skip path, a 1×1
// projection where the width changes, m on the branch), and returns the next frame. It implements
// what dwlib/train needs (Store, NumLayers, Spec, Rollout, and Stepper for the step engine), so
// every method trains it.
type UNet struct {
	cfg    UNetConfig
	store  *mlmodel.Store
	inBlk  resBlock
	down   []conv // stride-2 convolutions between levels
	downB  []resBlock
	mid    [2]resBlock
	upB    []resBlock // coarse to fine
	outCv  conv
	outGN  groupNorm
	outPrj conv
}

// NewUNet builds a U-Net and initialises its parameters from cfg.Seed (PyTorch's default
// initialisation of convolutions: U(±1/√fan_in) weights and biases; group norms at gain 1, bias 0).
func NewUNet(cfg UNetConfig) (*UNet, error) {
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	u := &UNet{cfg: cfg, store: mlmodel.NewStore()}
	p := &paramInit{store: u.store, rng: rand.New(rand.NewPCG(cfg.Seed, 0x756e6574)), dtype: cfg.DType}
	chs := make([]int, cfg.Depth)
	for i := range chs {
		chs[i] = cfg.Base * int(math.Pow(float64(cfg.Mult), float64(i)))
	}
	in := cfg.Frames * cfg.Channels
	if !cfg.NoGrid {
		in += 2
	}
	l := 0
	block := func(in, out int) resBlock {
		b := newResBlock(p, fmt.Sprintf("block%d", l), in, out, cfg.Groups)
		l++
		return b
	}
	u.inBlk = block(in, chs[0])
	for i := range cfg.Depth - 1 {
		u.down = append(u.down, newConv(p, fmt.Sprintf("down%d", i), 3, chs[i], chs[i]))
		u.downB = append(u.downB, block(chs[i], chs[i+1]))
	}
	u.mid = [2]resBlock{block(chs[cfg.Depth-1], chs[cfg.Depth-1]), block(chs[cfg.Depth-1], chs[cfg.Depth-1])}
	for i := cfg.Depth - 2; i >= 0; i-- {
		u.upB = append(u.upB, block(chs[i+1]+chs[i], chs[i]))
	}
	u.outCv = newConv(p, "out/conv", 3, chs[0], chs[0])
	u.outGN = newGroupNorm(p, "out/norm", chs[0], cfg.Groups)
	u.outPrj = newConv(p, "out/proj", 1, chs[0], cfg.Channels)
	return u, nil
}

// Config returns the configuration with defaults applied.
func (u *UNet) Config() UNetConfig { return u.cfg }

// Store returns the variable store (parameters under ModelScope).
func (u *UNet) Store() *mlmodel.Store { return u.store }

// NumLayers is L = 2·Depth + 1, the routed residual blocks per step.
func (u *UNet) NumLayers() int { return 2*u.cfg.Depth + 1 }

// Spec describes the U-Net to a trainer: D = Channels·Height·Width, no drive.
func (u *UNet) Spec() Spec {
	c := u.cfg
	return Spec{Name: "unet", StateDim: c.Channels * c.Height * c.Width, Layers: u.NumLayers(), Window: c.Window,
		BurnIn: c.BurnIn, DType: c.DType, Seed: c.Seed}
}

// NumParameters counts the scalar parameters.
func (u *UNet) NumParameters() int {
	n := 0
	for v := range u.store.IterVariables() {
		if strings.HasPrefix(v.Path(), ModelScope+"/") {
			n += v.Shape().Size()
		}
	}
	return n
}

// String describes the U-Net.
func (u *UNet) String() string {
	c := u.cfg
	return fmt.Sprintf("unet-%d (%d x %d x %d fields, depth %d, L=%d, %d parameters)", c.Base, c.Channels, c.Height, c.Width, c.Depth, u.NumLayers(), u.NumParameters())
}

// StateShapes is the frame buffer: the Frames−1 frames before the current one, [n, (Frames−1)·D].
func (u *UNet) StateShapes(n int) []shapes.Shape {
	if u.cfg.Frames == 1 {
		return nil
	}
	return []shapes.Shape{shapes.Make(u.cfg.DType, n, (u.cfg.Frames-1)*u.Spec().StateDim)}
}

// Rollout implements train.Model (see rolloutSteps).
func (u *UNet) Rollout(router *route.Router, in Inputs, K int, opts RolloutOptions) Rollout {
	return rolloutSteps(u, u.Spec(), router, in, K, opts)
}

// StepState maps the current frame x [N, D] and the frame buffer to the next frame and buffer.
func (u *UNet) StepState(router *route.Router, k int, x, d *Node, state []*Node) (*Node, []*Node) {
	c := u.cfg
	g := x.Graph()
	n, D := x.Shape().Dimensions[0], u.Spec().StateDim
	frames := x
	if c.Frames > 1 {
		frames = Concatenate([]*Node{state[0], x}, -1) // oldest first
	}
	// [N, F·D] channel-major per frame → [N, H, W, F·C]
	img := Transpose(Reshape(frames, n, c.Frames*c.Channels, c.Height, c.Width), 1, 2) // [N, H, F·C, W]
	img = Transpose(img, 2, 3)                                                         // [N, H, W, F·C]
	if !c.NoGrid {
		img = Concatenate([]*Node{img, u.grid(g, n)}, -1)
	}
	layer := 0
	apply := func(b resBlock, v *Node) *Node {
		out := b.apply(router, k, layer, v)
		layer++
		return out
	}
	h := apply(u.inBlk, img)
	skips := []*Node{h}
	for i := range u.down {
		h = apply(u.downB[i], u.down[i].applyStride2(h))
		skips = append(skips, h)
	}
	h = apply(u.mid[0], h)
	h = apply(u.mid[1], h)
	for j, b := range u.upB {
		skip := skips[len(skips)-2-j]
		sd := skip.Shape().Dimensions
		h = upsampleBilinear(h, sd[1], sd[2])
		h = apply(b, Concatenate([]*Node{h, skip}, -1))
	}
	h = silu(u.outGN.apply(u.outCv.apply(h)))
	h = u.outPrj.apply(h) // [N, H, W, C]
	next := Reshape(Transpose(Transpose(h, 2, 3), 1, 2), n, D)
	if c.Frames == 1 {
		return next, nil
	}
	buf := Slice(frames, AxisRange(), AxisRangeToEnd(D)) // drop the oldest frame
	return next, []*Node{buf}
}

// grid is the two coordinate channels, linspace(0, 1) down the rows and across the columns.
func (u *UNet) grid(g *Graph, n int) *Node {
	c := u.cfg
	dt := c.DType
	lin := func(m int) *Node {
		if m == 1 {
			return Zeros(g, shapes.Make(dt, 1))
		}
		return DivScalar(Iota(g, shapes.Make(dt, m), 0), float64(m-1))
	}
	gy := BroadcastToDims(Reshape(lin(c.Height), 1, c.Height, 1, 1), n, c.Height, c.Width, 1)
	gx := BroadcastToDims(Reshape(lin(c.Width), 1, 1, c.Width, 1), n, c.Height, c.Width, 1)
	return Concatenate([]*Node{gy, gx}, -1)
}

// conv is a 2-D convolution with bias, kernel [s, s, in, out], channels last.
type conv struct {
	w, b *mlmodel.Variable
	size int
}

func newConv(p *paramInit, scope string, size, in, out int) conv {
	bound := fanIn(in * size * size)
	return conv{w: p.uniform(scope, "w", bound, size, size, in, out), b: p.uniform(scope, "b", bound, out), size: size}
}

// apply is the stride-1 convolution with zero padding (size−1)/2 (the authors' padding=1 for 3×3).
func (c conv) apply(x *Node) *Node {
	pad := (c.size - 1) / 2
	y := Convolve(x, c.w.NodeValue(x.Graph())).PaddingPerDim([][2]int{{pad, pad}, {pad, pad}}).Done()
	return Add(y, Reshape(c.b.NodeValue(x.Graph()), 1, 1, 1, -1))
}

// applyStride2 is the stride-2 convolution with padding 1: ceil(side/2) outputs.
func (c conv) applyStride2(x *Node) *Node {
	y := Convolve(x, c.w.NodeValue(x.Graph())).StridePerAxis(2, 2).PaddingPerDim([][2]int{{1, 1}, {1, 1}}).Done()
	return Add(y, Reshape(c.b.NodeValue(x.Graph()), 1, 1, 1, -1))
}

// groupNorm normalises channel groups over space and the group's channels (eps 1e-5), then
// scales and shifts per channel.
type groupNorm struct {
	gain, bias *mlmodel.Variable
	groups     int
}

func newGroupNorm(p *paramInit, scope string, ch, groups int) groupNorm {
	groups = max(1, min(groups, ch))
	for ch%groups != 0 {
		groups--
	}
	return groupNorm{gain: p.constant(scope, "gain", 1, ch), bias: p.constant(scope, "bias", 0, ch), groups: groups}
}

func (gn groupNorm) apply(x *Node) *Node {
	d := x.Shape().Dimensions
	n, h, w, ch := d[0], d[1], d[2], d[3]
	grouped := Reshape(x, n, h, w, gn.groups, ch/gn.groups)
	mean := ReduceAndKeep(grouped, ReduceMean, 1, 2, 4)
	centred := Sub(grouped, mean)
	variance := ReduceAndKeep(Mul(centred, centred), ReduceMean, 1, 2, 4)
	normed := Reshape(Div(centred, Sqrt(AddScalar(variance, 1e-5))), n, h, w, ch)
	g := x.Graph()
	return Add(Mul(normed, Reshape(gn.gain.NodeValue(g), 1, 1, 1, ch)), Reshape(gn.bias.NodeValue(g), 1, 1, 1, ch))
}

// resBlock is the authors' ResidualBlock: act(GN(conv(act(GN(conv(x))))) + skip(x)), with a 1×1
// projection skip where the width changes.
type resBlock struct {
	c1, c2 conv
	n1, n2 groupNorm
	proj   *conv
}

func newResBlock(p *paramInit, scope string, in, out, groups int) resBlock {
	b := resBlock{c1: newConv(p, scope+"/conv1", 3, in, out), n1: newGroupNorm(p, scope+"/norm1", out, groups),
		c2: newConv(p, scope+"/conv2", 3, out, out), n2: newGroupNorm(p, scope+"/norm2", out, groups)}
	if in != out {
		pr := newConv(p, scope+"/skip", 1, in, out)
		b.proj = &pr
	}
	return b
}

// apply is the block as routed merge l of rollout step k (plain when router is nil or k < 0).
func (b resBlock) apply(router *route.Router, k, l int, x *Node) *Node {
	branch := func(v *Node) *Node { return b.n2.apply(b.c2.apply(silu(b.n1.apply(b.c1.apply(v))))) }
	skip := func(v *Node) *Node {
		if b.proj != nil {
			return b.proj.apply(v)
		}
		return v
	}
	if router != nil && k >= 0 {
		return silu(router.Merge(k, l, x, skip, branch))
	}
	out := branch(x) // the nodes in Merge's order, so gains of 1 sum gradients as plain blocks do
	return silu(Add(skip(x), out))
}

// upsampleBilinear resizes x [N, H, W, C] to [N, outH, outW, C] bilinearly with half-pixel centres
// (PyTorch's interpolate(mode="bilinear", align_corners=False)), as two products with constant
// interpolation matrices. GoMLX's graph.Interpolate computes the same forward values, but its
// gradient disagrees with finite differences (seen with v0.28.0, nearest and bilinear alike:
// TestUpsampleBilinear), and a matrix product's gradient is a matrix product.
func upsampleBilinear(x *Node, outH, outW int) *Node {
	d := x.Shape().Dimensions
	g, dt := x.Graph(), x.DType()
	uh := Const(g, interpMatrix(outH, d[1]))
	uw := Const(g, interpMatrix(outW, d[2]))
	y := Einsum("oh,nhwc->nowc", ConvertDType(uh, dt), x)
	return Einsum("pw,nowc->nopc", ConvertDType(uw, dt), y)
}

// interpMatrix is the [out, in] linear interpolation matrix with half-pixel centres: output i
// samples the input at s = (i + ½)·in/out − ½, clamped to [0, in − 1].
func interpMatrix(out, in int) [][]float64 {
	m := make([][]float64, out)
	for i := range m {
		m[i] = make([]float64, in)
		s := max((float64(i)+0.5)*float64(in)/float64(out)-0.5, 0)
		i0 := min(int(math.Floor(s)), in-1)
		i1 := min(i0+1, in-1)
		lam := s - float64(i0)
		m[i][i0] += 1 - lam
		m[i][i1] += lam
	}
	return m
}
