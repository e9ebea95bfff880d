package model

import (
	"fmt"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// Stepper is a forecaster whose rollout can be built one step at a time: the step engine of
// dwlib/train compiles one step (forward, or forward and backward) into a small graph and runs the
// rollout as a loop of calls, so the graphs' size does not grow with K, the context or the
// horizon. The recurrent state carried between steps is a flat list of tensors whose shapes
// StateShapes gives; it is zero before the first observed step.
//
// StepState must build exactly the step that Rollout builds at the same place: with router == nil
// or k < 0 plain merges (the teacher-forced context, evaluation, the JReg probes), otherwise the
// merges of rollout step k routed with router's gains (k, ℓ). Forecaster and Custom implement it.
type Stepper interface {
	StateShapes(n int) []shapes.Shape
	StepState(router *route.Router, k int, x, d *Node, state []*Node) (next *Node, stateNext []*Node)
}

var (
	_ Stepper = (*Forecaster)(nil)
	_ Stepper = (*Custom)(nil)
	_ Stepper = (*UNet)(nil)
)

// StateShapes lists the shapes of the blocks' recurrent state for a batch of n (n·D rows for a
// channel-independent forecaster), block after block
// (a Mamba block: the SSM state [n, E, S] and the convolution buffer, W−1 × [n, E]; an MLP block:
// none).
func (f *Forecaster) StateShapes(n int) []shapes.Shape {
	n = f.rows(n)
	var out []shapes.Shape
	for _, b := range f.blocks {
		if mb, ok := b.(*mambaBlock); ok {
			dt := mb.aLog.DType()
			out = append(out, shapes.Make(dt, n, mb.e, mb.s))
			for range mb.width - 1 {
				out = append(out, shapes.Make(dt, n, mb.e))
			}
		}
	}
	return out
}

// stateCounts is the number of state entries per block, in the order of StateShapes.
func (f *Forecaster) stateCounts() []int {
	counts := make([]int, len(f.blocks))
	for l, b := range f.blocks {
		if mb, ok := b.(*mambaBlock); ok {
			counts[l] = mb.width
		}
	}
	return counts
}

// StepState applies one forecaster step (see Stepper); state is flat, as StateShapes lists it.
func (f *Forecaster) StepState(router *route.Router, k int, x, d *Node, state []*Node) (*Node, []*Node) {
	counts := f.stateCounts()
	nested := make([][]*Node, len(f.blocks))
	i := 0
	for l, c := range counts {
		if c > 0 {
			nested[l] = append([]*Node(nil), state[i:i+c]...)
		}
		i += c
	}
	if i != len(state) {
		panic(fmt.Errorf("model: StepState: %d state tensors, the forecaster carries %d", len(state), i))
	}
	n := x.Shape().Dimensions[0]
	next := f.step(f.bind(x.Graph(), f.rows(n)), router, k, x, d, nested)
	var flat []*Node
	for _, s := range nested {
		flat = append(flat, s...)
	}
	return next, flat
}

// StateShapes is the hidden state's shape for a recurrent cell ([n, HiddenDim]), none for a
// stateless one.
func (c *Custom) StateShapes(n int) []shapes.Shape {
	if c.spec.HiddenDim == 0 {
		return nil
	}
	return []shapes.Shape{shapes.Make(c.spec.DType, n, c.spec.HiddenDim)}
}

// StepState applies the cell once (see Stepper).
func (c *Custom) StepState(router *route.Router, k int, x, d *Node, state []*Node) (*Node, []*Node) {
	var h *Node
	if len(state) > 0 {
		h = state[0]
	}
	y, hNext := c.step(router, k, x, h, d)
	if hNext == nil {
		return y, nil
	}
	return y, []*Node{hNext}
}
