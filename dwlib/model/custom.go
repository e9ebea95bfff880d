package model

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// Spec is what a trainer needs to know of a forecaster besides its graph: the shapes of its data,
// the number of routed residual layers per step, its dtype and a name. A Forecaster's Spec is
// derived from its Config; a Custom model is built from one.
type Spec struct {
	// Name identifies the model in checkpoints (with the variables' names and shapes): a model
	// checkpoint of one Name is not loaded into another.
	Name     string
	StateDim int // D, the forecast state's dimension
	DriveDim int // J, observed drive channels (0 if none)
	Layers   int // L, routed residual merges per step
	Window   int // observed steps before each origin (default 16; a stateless cell reads the last)
	BurnIn   int // leading steps of each unit never used (default 32)
	// HiddenDim is the width of a RecurrentCell's hidden state (FromRecurrentCell; at least 1);
	// 0 for a stateless Cell (FromCell).
	HiddenDim int
	DType     dtypes.DType
	// Seed seeds the GoMLX initialisers (the store's random generator) when FromCell creates the
	// cell's variables, so the same Seed gives the same initial parameters.
	Seed uint64
	// Shift is the window shift the Trainer and Predictor apply around the model (shift.go): ""
	// (none), "last" or "mean".
	Shift string
}

// Defaults returns s with zero fields set: Name "custom", Window 16, BurnIn 32, Float32.
func (s Spec) Defaults() Spec {
	if s.Name == "" {
		s.Name = "custom"
	}
	if s.Window == 0 {
		s.Window = 16
	}
	if s.BurnIn == 0 {
		s.BurnIn = 32
	}
	if s.DType == dtypes.InvalidDType {
		s.DType = dtypes.Float32
	}
	return s
}

// Validate reports the first invalid field by name.
func (s Spec) Validate() error {
	for _, f := range []struct {
		name   string
		v, min int
	}{{"StateDim", s.StateDim, 1}, {"DriveDim", s.DriveDim, 0}, {"Layers", s.Layers, 1}, {"Window", s.Window, 1}, {"BurnIn", s.BurnIn, 0}, {"HiddenDim", s.HiddenDim, 0}} {
		if f.v < f.min {
			return fmt.Errorf("model: Spec.%s = %d, must be >= %d", f.name, f.v, f.min)
		}
	}
	if s.DType != dtypes.Float32 && s.DType != dtypes.Float64 {
		return fmt.Errorf("model: Spec.DType = %s, must be Float32 or Float64", s.DType)
	}
	return checkShift("Spec.Shift", s.Shift)
}

// Spec returns the forecaster's Spec (Name is its Kind).
func (f *Forecaster) Spec() Spec {
	c := f.cfg
	return Spec{Name: c.Kind, StateDim: c.StateDim, DriveDim: c.DriveDim, Layers: c.Layers, Window: c.Window,
		BurnIn: c.BurnIn, DType: c.DType, Seed: c.Seed, Shift: c.Shift}
}

// Merge builds residual merge l (0 ≤ l < Spec.Layers) of the current step: x + F(x). Inside a
// routed rollout it is route.Router.Block with the gains (k, l) of the rollout step k; elsewhere
// (the teacher-forced context, evaluation, the JReg probes) a plain x + F(x).
type Merge func(l int, x *Node, F func(*Node) *Node) *Node

// Cell is one step of a user's own stateless forecaster: Step maps the state x [N, D] (and the drive
// d [N, J], nil without drive) to the next state [N, D], building each of its Spec.Layers residual
// merges, once per step, with merge. Everything else (read-in, read-out, the increment x + Δ) is
// the cell's business; the outer autoregressive update is not a routed merge.
//
// scope is a fresh scope at ModelScope of the model's store on every call: create or reuse the
// variables there (scope.In("block0"), layers.Dense(...), scope.VariableWithShape(...)), so every
// step of a rollout shares them. FromCell creates them once, before training.
type Cell interface {
	Step(scope *mlmodel.Scope, x, d *Node, merge Merge) *Node
}

// CellFunc is a function used as a Cell.
type CellFunc func(scope *mlmodel.Scope, x, d *Node, merge Merge) *Node

// Step implements Cell.
func (f CellFunc) Step(scope *mlmodel.Scope, x, d *Node, merge Merge) *Node {
	return f(scope, x, d, merge)
}

// RecurrentCell is one step of a user's own recurrent forecaster: besides the forecast state x
// [N, D] it carries a hidden state h [N, Spec.HiddenDim] from step to step (a GRU's or an SSM's
// memory), zero before the first observed step. Step returns the next state and the next hidden
// state; merges, scope and drive are as for Cell.
//
// In a rollout the Window−1 observed states before the origin are consumed teacher-forced (plain
// merges, predictions discarded) to build h, as the paper's Mamba does; DetachContext stops the
// gradient through that h, TruncateEvery (TBPTT) through x and h, and JReg's perturbed steps
// start from the current h without advancing it.
type RecurrentCell interface {
	Step(scope *mlmodel.Scope, x, h, d *Node, merge Merge) (next, hNext *Node)
}

// RecurrentCellFunc is a function used as a RecurrentCell.
type RecurrentCellFunc func(scope *mlmodel.Scope, x, h, d *Node, merge Merge) (next, hNext *Node)

// Step implements RecurrentCell.
func (f RecurrentCellFunc) Step(scope *mlmodel.Scope, x, h, d *Node, merge Merge) (*Node, *Node) {
	return f(scope, x, h, d, merge)
}

// stepFunc is either kind of cell: a stateless one takes and returns a nil h.
type stepFunc func(scope *mlmodel.Scope, x, h, d *Node, merge Merge) (next, hNext *Node)

// Custom is a forecaster built from a user's Cell: it implements what dwlib/train needs (Store,
// NumLayers, Spec, Rollout with every RolloutOptions), so a user's GoMLX step trains with every
// method, is evaluated and checkpointed like a Forecaster.
type Custom struct {
	spec  Spec
	cell  stepFunc
	store *mlmodel.Store
}

// FromCell builds a Custom model from a stateless Cell: it checks spec, runs the cell once on a
// batch of one to create and initialise its variables under ModelScope (GoMLX initialisers seeded
// by spec.Seed), and checks that the step builds each of the spec.Layers merges exactly once and
// returns a state of the input's shape.
func FromCell(bk compute.Backend, spec Spec, cell Cell) (*Custom, error) {
	if cell == nil {
		return nil, errors.New("model: FromCell: nil cell")
	}
	if spec.HiddenDim != 0 {
		return nil, fmt.Errorf("model: FromCell: Spec.HiddenDim = %d, but a Cell has no hidden state (use FromRecurrentCell)", spec.HiddenDim)
	}
	return newCustom(bk, spec, func(scope *mlmodel.Scope, x, _, d *Node, merge Merge) (*Node, *Node) {
		return cell.Step(scope, x, d, merge), nil
	})
}

// FromRecurrentCell builds a Custom model from a RecurrentCell, with the checks of FromCell and
// one more: the cell returns a hidden state of the shape it was given, [N, spec.HiddenDim].
func FromRecurrentCell(bk compute.Backend, spec Spec, cell RecurrentCell) (*Custom, error) {
	if cell == nil {
		return nil, errors.New("model: FromRecurrentCell: nil cell")
	}
	if spec.HiddenDim < 1 {
		return nil, fmt.Errorf("model: FromRecurrentCell: Spec.HiddenDim = %d, must be >= 1 (the hidden state's width)", spec.HiddenDim)
	}
	return newCustom(bk, spec, cell.Step)
}

// newCustom checks spec, creates the cell's variables by running it once and checks what it built.
func newCustom(bk compute.Backend, spec Spec, cell stepFunc) (c *Custom, err error) {
	spec = spec.Defaults()
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	c = &Custom{spec: spec, cell: cell, store: mlmodel.NewStore()}
	if err := c.store.SetRNGStateFromSeed(int64(spec.Seed)); err != nil {
		return nil, err
	}
	exec, err := NewLiveExec(bk, c.store, func(scope *mlmodel.Scope, in []*Node) *Node {
		var d *Node
		if spec.DriveDim > 0 {
			d = in[1]
		}
		var h *Node
		if spec.HiddenDim > 0 {
			h = Zeros(in[0].Graph(), shapes.Make(spec.DType, 1, spec.HiddenDim))
		}
		built := make([]int, spec.Layers)
		merge := func(l int, x *Node, F func(*Node) *Node) *Node {
			if l < 0 || l >= spec.Layers {
				panic(fmt.Errorf("model: cell %q built merge %d, its Spec has Layers = %d", spec.Name, l, spec.Layers))
			}
			built[l]++
			return Add(x, F(x))
		}
		y, hNext := cell(c.scope(), in[0], h, d, merge)
		for l, n := range built {
			if n != 1 {
				panic(fmt.Errorf("model: cell %q built merge %d %d times in one step, want once (Spec.Layers = %d)", spec.Name, l, n, spec.Layers))
			}
		}
		if y == nil || !y.Shape().Equal(in[0].Shape()) {
			panic(fmt.Errorf("model: cell %q returned %v from a state of shape %s", spec.Name, shapeOf(y), in[0].Shape()))
		}
		if h != nil && (hNext == nil || !hNext.Shape().Equal(h.Shape())) {
			panic(fmt.Errorf("model: cell %q returned a hidden state %v from one of shape %s (Spec.HiddenDim = %d)", spec.Name, shapeOf(hNext), h.Shape(), spec.HiddenDim))
		}
		return y
	})
	if err != nil {
		return nil, fmt.Errorf("model: building cell %q: %w", spec.Name, err)
	}
	args := []any{tensors.FromShape(shapes.Make(spec.DType, 1, spec.StateDim))}
	if spec.DriveDim > 0 {
		args = append(args, tensors.FromShape(shapes.Make(spec.DType, 1, spec.DriveDim)))
	}
	outs, err := exec.Call(args...)
	if err != nil {
		return nil, fmt.Errorf("model: building cell %q: running it once: %w", spec.Name, err)
	}
	for _, o := range outs {
		o.FinalizeAll()
	}
	// The store's random state only served the initialisers; checkpoints keep parameters only.
	if v := c.store.GetVariable("/" + mlmodel.RNGStateVariableName); v != nil {
		if err := c.store.DeleteVariable(v.Path()); err != nil {
			return nil, err
		}
	}
	n := 0
	for v := range c.store.IterVariables() {
		if !strings.HasPrefix(v.Path(), ModelScope+"/") {
			return nil, fmt.Errorf("model: cell %q created variable %s outside %s: use the scope Step is given", spec.Name, v.Path(), ModelScope)
		}
		if v.Trainable {
			n++
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("model: cell %q has no trainable variables", spec.Name)
	}
	return c, nil
}

func shapeOf(n *Node) any {
	if n == nil {
		return "nil"
	}
	return n.Shape()
}

// scope is a fresh scope at ModelScope (sub-scopes may be entered again on every step).
func (c *Custom) scope() *mlmodel.Scope { return c.store.Scope(ModelScope) }

// Spec returns the model's Spec with defaults applied.
func (c *Custom) Spec() Spec { return c.spec }

// Store returns the variable store holding the cell's parameters (under ModelScope).
func (c *Custom) Store() *mlmodel.Store { return c.store }

// NumLayers is L, the routed residual merges per step.
func (c *Custom) NumLayers() int { return c.spec.Layers }

// NumParameters counts the scalar parameters under ModelScope.
func (c *Custom) NumParameters() int {
	n := 0
	for v := range c.store.IterVariables() {
		if strings.HasPrefix(v.Path(), ModelScope+"/") {
			n += v.Shape().Size()
		}
	}
	return n
}

// String describes the model.
func (c *Custom) String() string {
	if c.spec.HiddenDim > 0 {
		return fmt.Sprintf("%s (L=%d, D=%d, J=%d, hidden %d, %d parameters)", c.spec.Name, c.spec.Layers, c.spec.StateDim, c.spec.DriveDim, c.spec.HiddenDim, c.NumParameters())
	}
	return fmt.Sprintf("%s (L=%d, D=%d, J=%d, %d parameters)", c.spec.Name, c.spec.Layers, c.spec.StateDim, c.spec.DriveDim, c.NumParameters())
}

// step applies the cell once from x and the hidden state h (nil for a stateless cell); k < 0 or
// a nil router means plain merges.
func (c *Custom) step(router *route.Router, k int, x, h, d *Node) (*Node, *Node) {
	merge := func(l int, z *Node, F func(*Node) *Node) *Node {
		if router != nil && k >= 0 {
			return router.Block(k, l, z, F)
		}
		return Add(z, F(z))
	}
	return c.cell(c.scope(), x, h, d, merge)
}

// initHidden is the hidden state before the first step for a batch of n (nil when stateless).
func (c *Custom) initHidden(g *Graph, n int) *Node {
	if c.spec.HiddenDim == 0 {
		return nil
	}
	return Zeros(g, shapes.Make(c.spec.DType, n, c.spec.HiddenDim))
}

// Step applies the cell once with every merge plain (the map JReg regularises), from a zero
// hidden state.
func (c *Custom) Step(x, d *Node) *Node {
	y, _ := c.step(nil, -1, x, c.initHidden(x.Graph(), x.Shape().Dimensions[0]), d)
	return y
}

// Rollout builds a K-step closed-loop rollout from the last History state, as Forecaster.Rollout:
// rollout step k uses the gains (k, ℓ) of router (plain merges if router is nil). A recurrent
// cell first consumes the Window−1 states before the origin with plain merges to build its hidden
// state (DetachContext stops the gradient through it); a stateless cell does not run the context,
// so DetachContext changes nothing for it. TruncateEvery stops the gradient through the fed-back
// state and the hidden state; JacobianDirection adds the JReg norms, from the current hidden
// state (detached for JacobianAuthors), which the perturbed steps do not advance.
func (c *Custom) Rollout(router *route.Router, in Inputs, K int, opts RolloutOptions) Rollout {
	if router != nil && (router.K < K || router.L != c.spec.Layers) {
		panic(fmt.Errorf("model: router covers K=%d, L=%d but the rollout needs K=%d, L=%d", router.K, router.L, K, c.spec.Layers))
	}
	hist := in.History
	n, window := hist.Shape().Dimensions[0], hist.Shape().Dimensions[1]
	driveAt := func(t int) *Node {
		if in.Drive == nil {
			return nil
		}
		return Reshape(Slice(in.Drive, AxisRange(), AxisElem(t), AxisRange()), n, c.spec.DriveDim)
	}
	stateAt := func(t int) *Node {
		return Reshape(Slice(hist, AxisRange(), AxisElem(t), AxisRange()), n, c.spec.StateDim)
	}
	h := c.initHidden(hist.Graph(), n)
	if h != nil {
		for t := 0; t < window-1; t++ {
			_, h = c.step(nil, -1, stateAt(t), h, driveAt(t))
		}
		if opts.DetachContext {
			h = StopGradient(h)
		}
	}
	stop := func(n *Node) *Node {
		if n == nil {
			return nil
		}
		return StopGradient(n)
	}
	x := stateAt(window - 1)
	var out Rollout
	for k := range K {
		if s := opts.TruncateEvery; s > 0 && k > 0 && k%s == 0 {
			x, h = StopGradient(x), stop(h)
		}
		d := driveAt(window - 1 + k)
		if u := opts.JacobianDirection; u != nil && (k == 0 || !opts.JacobianAuthors) {
			hj := h
			if opts.JacobianAuthors {
				hj = stop(h)
			}
			plain := func(x *Node) *Node { y, _ := c.step(nil, -1, x, hj, d); return y }
			if opts.JacobianAuthors {
				out.JacobianNorms = append(out.JacobianNorms, jacobianGainCentralOf(plain, x, u, opts.JacobianEps))
			} else {
				out.JacobianNorms = append(out.JacobianNorms, jacobianNormOf(plain, x, u, opts.JacobianEps))
			}
		}
		x, h = c.step(router, k, x, h, d)
		out.Preds = append(out.Preds, x)
	}
	return out
}

// JacobianNorm is ‖(step(x+εu) − step(x))/ε‖ per row, JReg's gain in the text's reading (see
// RolloutOptions.JacobianDirection); step maps a state [N, D] to the next with whatever recurrent
// state the caller holds fixed.
func JacobianNorm(step func(*Node) *Node, x, u *Node, eps float64) *Node {
	return jacobianNormOf(step, x, u, eps)
}

// JacobianGainCentral is the authors' JReg gain (see RolloutOptions.JacobianAuthors) of step.
func JacobianGainCentral(step func(*Node) *Node, x, u *Node, eps float64) *Node {
	return jacobianGainCentralOf(step, x, u, eps)
}

// jacobianNormOf is ‖(step(x+εu) − step(x))/ε‖ per row (see RolloutOptions.JacobianDirection).
func jacobianNormOf(step func(*Node) *Node, x, u *Node, eps float64) *Node {
	base := step(x)
	moved := step(Add(x, MulScalar(ConvertDType(u, x.DType()), eps)))
	diff := DivScalar(Sub(moved, base), eps)
	return Sqrt(ReduceSum(Mul(diff, diff), -1))
}

// jacobianGainCentralOf is the authors' JReg gain (see RolloutOptions.JacobianAuthors).
func jacobianGainCentralOf(step func(*Node) *Node, x, u *Node, eps float64) *Node {
	g := x.Graph()
	rms := Max(Sqrt(ReduceAndKeep(Mul(x, x), ReduceMean, -1)), Scalar(g, x.DType(), 1e-3)) // [N, 1]
	delta := Mul(MulScalar(ConvertDType(u, x.DType()), eps), rms)
	plus := step(Add(x, delta))
	minus := step(Sub(x, delta))
	jv := Div(Sub(plus, minus), MulScalar(rms, 2*eps))
	return Sqrt(ReduceMean(Mul(jv, jv), -1))
}
