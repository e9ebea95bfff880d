package model

import (
	"fmt"
	"math/rand/v2"
	"strings"

	. "github.com/gomlx/gomlx/core/graph"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// Forecaster is an autoregressive forecaster: linear read-in, Layers residual blocks, two-layer
// read-out predicting an increment. Its variables live in Store(), under ModelScope.
type Forecaster struct {
	cfg      Config
	store    *mlmodel.Store
	stemNorm norm // Stem "layernorm-gelu" only
	readIn   dense
	blocks   []block
	headNorm norm // Head "layernorm-gelu" only
	readOut  [2]dense
}

// New builds a forecaster and initialises its variables from cfg.Seed.
func New(cfg Config) (*Forecaster, error) {
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	f := &Forecaster{cfg: cfg, store: mlmodel.NewStore()}
	p := &paramInit{store: f.store, rng: rand.New(rand.NewPCG(cfg.Seed, 0x6d6f64656c)), dtype: cfg.DType}
	in, out := cfg.StateDim+cfg.DriveDim, cfg.StateDim
	if cfg.ChannelIndependent {
		in, out = 1+cfg.DriveDim, 1
		if cfg.ChannelDrive == ChannelDriveOwn {
			in = 2
		}
	}
	if cfg.Stem == StemLayerNormGELU {
		f.stemNorm = newNorm(p, "read_in_norm", NormLayer, in)
	}
	f.readIn = linearInit(p, cfg.Init, "read_in", in, cfg.Hidden, fanIn(in), true)
	for l := range cfg.Layers {
		switch cfg.Kind {
		case "mamba":
			f.blocks = append(f.blocks, newMambaBlock(p, l, cfg))
		case "mlp":
			f.blocks = append(f.blocks, newMLPBlock(p, l, cfg.Hidden, cfg.Layers))
		}
	}
	if cfg.Head == HeadLayerNormGELU {
		f.headNorm = newNorm(p, "read_out_norm", NormLayer, cfg.Hidden)
	}
	f.readOut[0] = linearInit(p, cfg.Init, "read_out1", cfg.Hidden, cfg.Hidden, fanIn(cfg.Hidden), true)
	// The last read-out layer starts tiny (weights of order 1e-3/√H, zero bias), so the initial
	// forecaster is persistence up to a drift of order 1e-3 per step. A larger start lets the
	// first rollouts drift by several units over K steps; DW-Generic's residual-mean EMA
	// (β = .99, initialised by the first minibatch) then remembers that drift for hundreds of
	// minibatches and counts it as noise, closing every route.
	// (InitTorch: PyTorch's default, U(±1/√H) weights and bias.)
	f.readOut[1] = linearInit(p, cfg.Init, "read_out2", cfg.Hidden, out, 1e-3*fanIn(cfg.Hidden), true)
	return f, nil
}

// Config returns the forecaster's configuration with defaults applied.
func (f *Forecaster) Config() Config { return f.cfg }

// ModelScope is the store scope of the forecaster's parameters; everything else a training store
// holds (Adam's moments, step counters, the learning rate) is optimizer state.
const ModelScope = "/model"

// Store returns the variable store holding the forecaster's parameters (under ModelScope). A
// trainer adds its optimizer state to the same store.
func (f *Forecaster) Store() *mlmodel.Store { return f.store }

// NumLayers is L, the routed residual layers per rollout step.
func (f *Forecaster) NumLayers() int { return f.cfg.Layers }

// NumParameters counts the forecaster's scalar parameters (the variables under ModelScope; an
// optimizer sharing the store keeps its state elsewhere).
func (f *Forecaster) NumParameters() int {
	n := 0
	for v := range f.store.IterVariables() {
		if strings.HasPrefix(v.Path(), ModelScope+"/") {
			n += v.Shape().Size()
		}
	}
	return n
}

// String describes the forecaster.
func (f *Forecaster) String() string {
	return fmt.Sprintf("%s-%d (L=%d, D=%d, J=%d, %d parameters)", f.cfg.Kind, f.cfg.Hidden, f.cfg.Layers, f.cfg.StateDim, f.cfg.DriveDim, f.NumParameters())
}

// Inputs of one rollout, as graph nodes.
type Inputs struct {
	// History holds the Window observed states before the origin, [N, Window, D]; its last entry
	// is the current state x_o from which the rollout starts.
	History *Node
	// Drive is the observed drive aligned with the steps' inputs, [N, Window−1+K, J], or nil when
	// DriveDim is 0: entry t is the drive acting over the step that consumes input t.
	Drive *Node
}

// RolloutOptions changes how gradients flow through a rollout; the zero value is full BPTT.
type RolloutOptions struct {
	// TruncateEvery > 0 stops gradients through the fed-back state and the recurrent state every
	// TruncateEvery steps (TBPTT with that segment length). The forward value is unchanged.
	TruncateEvery int
	// JacobianDirection, if not nil ([N, D], unit rows), makes Rollout also return, per step, the
	// finite-difference forward-Jacobian norms ‖(step(x+εu) − step(x))/ε‖ for JReg, computed with the
	// step's current recurrent state (which the perturbed step does not advance).
	JacobianDirection *Node
	// JacobianEps is ε for JacobianDirection (paper: 1e-3).
	JacobianEps float64
	// JacobianAuthors computes the JReg gain as the authors' code does: at the first rollout step
	// only (JacobianNorms then has one node), with the recurrent state detached, a step
	// δ = ε·RMS(x)·u (RMS over the state's coordinates, floor 1e-3) along the given direction u, a
	// central difference, and the gain RMS_d((step(x+δ) − step(x−δ))/(2ε·RMS(x))). With
	// u ∈ {±1}^D this is ‖J û‖ for the unit direction û = u/√D.
	JacobianAuthors bool
	// DetachContext stops gradients through the recurrent state built by the teacher-forced
	// context, so training differentiates the K rollout steps only (the authors' no-grad burn-in).
	DetachContext bool
}

// Rollout is the result of Forecaster.Rollout.
type Rollout struct {
	// Preds holds x̂_{o+1..o+K}, K nodes of shape [N, D].
	Preds []*Node
	// JacobianNorms holds K nodes of shape [N] when RolloutOptions.JacobianDirection is set.
	JacobianNorms []*Node
}

// Rollout builds a K-step closed-loop rollout. The first Window−1 observed states are consumed
// teacher-forced with every route open; rollout step k (0-based) uses the gains (k, ℓ) of router,
// or plain residual merges if router is nil.
func (f *Forecaster) Rollout(router *route.Router, in Inputs, K int, opts RolloutOptions) Rollout {
	if router != nil && (router.K < K || router.L != f.cfg.Layers) {
		panic(fmt.Errorf("model: router covers K=%d, L=%d but the rollout needs K=%d, L=%d", router.K, router.L, K, f.cfg.Layers))
	}
	hist := in.History
	n, window := hist.Shape().Dimensions[0], hist.Shape().Dimensions[1]
	g := hist.Graph()
	state := make([][]*Node, len(f.blocks))
	for l, b := range f.blocks {
		state[l] = b.initState(g, f.rows(n))
	}
	fns := f.bind(g, f.rows(n))
	driveAt := func(t int) *Node {
		if in.Drive == nil {
			return nil
		}
		return Reshape(Slice(in.Drive, AxisRange(), AxisElem(t), AxisRange()), n, f.cfg.DriveDim)
	}
	// Teacher-forced window: only the recurrent state matters (the MLP stepper has none).
	if f.cfg.Kind == "mamba" {
		for t := 0; t < window-1; t++ {
			x := Reshape(Slice(hist, AxisRange(), AxisElem(t), AxisRange()), n, f.cfg.StateDim)
			_ = f.step(fns, nil, -1, x, driveAt(t), state)
		}
	}
	x := Reshape(Slice(hist, AxisRange(), AxisElem(window-1), AxisRange()), n, f.cfg.StateDim)
	if opts.DetachContext {
		for l := range state {
			for i, h := range state[l] {
				state[l][i] = StopGradient(h)
			}
		}
	}
	var out Rollout
	for k := range K {
		if s := opts.TruncateEvery; s > 0 && k > 0 && k%s == 0 {
			x = StopGradient(x)
			for l := range state {
				for i, h := range state[l] {
					state[l][i] = StopGradient(h)
				}
			}
		}
		d := driveAt(window - 1 + k)
		if u := opts.JacobianDirection; u != nil && (k == 0 || !opts.JacobianAuthors) {
			if opts.JacobianAuthors {
				out.JacobianNorms = append(out.JacobianNorms, f.jacobianGainCentral(fns, x, d, u, opts.JacobianEps, state))
			} else {
				out.JacobianNorms = append(out.JacobianNorms, f.jacobianNorm(fns, x, d, u, opts.JacobianEps, state))
			}
		}
		x = f.step(fns, router, k, x, d, state)
		out.Preds = append(out.Preds, x)
	}
	return out
}

// jacobianNorm is ‖(step(x+εu) − step(x))/ε‖ per row, with copies of the recurrent state.
func (f *Forecaster) jacobianNorm(fns []blockFn, x, d, u *Node, eps float64, state [][]*Node) *Node {
	cp := func() [][]*Node {
		c := make([][]*Node, len(state))
		for l := range state {
			c[l] = append([]*Node(nil), state[l]...)
		}
		return c
	}
	base := f.step(fns, nil, -1, x, d, cp())
	moved := f.step(fns, nil, -1, Add(x, MulScalar(ConvertDType(u, x.DType()), eps)), d, cp())
	diff := DivScalar(Sub(moved, base), eps)
	return Sqrt(ReduceSum(Mul(diff, diff), -1))
}

// jacobianGainCentral is the authors' JReg gain (see RolloutOptions.JacobianAuthors).
func (f *Forecaster) jacobianGainCentral(fns []blockFn, x, d, u *Node, eps float64, state [][]*Node) *Node {
	detached := func() [][]*Node {
		c := make([][]*Node, len(state))
		for l := range state {
			for _, h := range state[l] {
				c[l] = append(c[l], StopGradient(h))
			}
		}
		return c
	}
	g := x.Graph()
	rms := Max(Sqrt(ReduceAndKeep(Mul(x, x), ReduceMean, -1)), Scalar(g, x.DType(), 1e-3)) // [N, 1]
	delta := Mul(MulScalar(ConvertDType(u, x.DType()), eps), rms)
	plus := f.step(fns, nil, -1, Add(x, delta), d, detached())
	minus := f.step(fns, nil, -1, Sub(x, delta), d, detached())
	jv := Div(Sub(plus, minus), MulScalar(rms, 2*eps))
	return Sqrt(ReduceMean(Mul(jv, jv), -1))
}

// rows is the number of rows the blocks see for a batch of n states: n, or n·D when the
// forecaster is channel independent.
func (f *Forecaster) rows(n int) int {
	if f.cfg.ChannelIndependent {
		return n * f.cfg.StateDim
	}
	return n
}

// bind returns the blocks' F for batches of n rows in graph g (see block.bind; n is f.rows of
// the batch).
func (f *Forecaster) bind(g *Graph, n int) []blockFn {
	fns := make([]blockFn, len(f.blocks))
	for l, b := range f.blocks {
		fns[l] = b.bind(g, n)
	}
	return fns
}

// step applies one forecaster step from state x (and drive d) with the blocks' functions fns
// (from bind), updating the blocks' recurrent state in place, and returns x + Δ. k < 0 or a nil
// router means plain, fully open merges.
func (f *Forecaster) step(fns []blockFn, router *route.Router, k int, x, d *Node, state [][]*Node) *Node {
	u := x
	if f.cfg.ChannelIndependent {
		// Row i·D + c is coordinate c of state i, with state i's whole drive beside it, or (own
		// drive) its column c.
		n, D := x.Shape().Dimensions[0], f.cfg.StateDim
		u = Reshape(x, n*D, 1)
		switch {
		case d != nil && f.cfg.ChannelDrive == ChannelDriveOwn:
			d = Reshape(d, n*D, 1)
		case d != nil:
			J := f.cfg.DriveDim
			d = Reshape(BroadcastToDims(InsertAxes(d, 1), n, D, J), n*D, J)
		}
	}
	if d != nil {
		u = Concatenate([]*Node{u, ConvertDType(d, x.DType())}, -1)
	}
	if f.cfg.Stem == StemLayerNormGELU {
		u = f.stemNorm.apply(u)
	}
	z := f.readIn.apply(u)
	if f.cfg.Stem == StemLayerNormGELU {
		z = gelu(z)
	}
	for l, apply := range fns {
		if router != nil && k >= 0 {
			z, state[l] = router.BlockWithState(k, l, z, state[l], apply)
		} else {
			out, next := apply(z, state[l])
			z, state[l] = Add(z, out), next
		}
	}
	var delta *Node
	if f.cfg.Head == HeadLayerNormGELU {
		delta = f.readOut[1].apply(gelu(f.readOut[0].apply(f.headNorm.apply(z))))
	} else {
		delta = f.readOut[1].apply(silu(f.readOut[0].apply(z)))
	}
	if f.cfg.ChannelIndependent {
		delta = Reshape(delta, x.Shape().Dimensions...)
	}
	return Add(x, delta)
}

// Step applies the forecaster's step map once with every route open and a fresh recurrent state;
// it is the map whose forward Jacobian JReg regularises (see dwlib/train).
func (f *Forecaster) Step(x, d *Node) *Node {
	g, n := x.Graph(), x.Shape().Dimensions[0]
	state := make([][]*Node, len(f.blocks))
	for l, b := range f.blocks {
		state[l] = b.initState(g, f.rows(n))
	}
	return f.step(f.bind(g, f.rows(n)), nil, -1, x, d, state)
}
