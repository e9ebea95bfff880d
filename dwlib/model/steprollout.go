package model

import (
	"fmt"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// rolloutSteps builds the K-step closed-loop rollout of a Stepper as one graph, with the semantics
// of Forecaster.Rollout: the Window−1 observed states before the origin are consumed teacher-forced
// with plain merges to build the recurrent state (when there is one; DetachContext stops the
// gradient through it), rollout step k is routed with router's gains (k, ℓ), TruncateEvery stops
// the gradient through the fed-back state and the recurrent state, and JacobianDirection adds the
// JReg gains from the current state, which the perturbed steps do not advance (detached for
// JacobianAuthors). Models whose step is all they define (the U-Net) get their Rollout from it.
func rolloutSteps(s Stepper, spec Spec, router *route.Router, in Inputs, K int, opts RolloutOptions) Rollout {
	if router != nil && (router.K < K || router.L != spec.Layers) {
		panic(fmt.Errorf("model: router covers K=%d, L=%d but the rollout needs K=%d, L=%d", router.K, router.L, K, spec.Layers))
	}
	hist := in.History
	n, window := hist.Shape().Dimensions[0], hist.Shape().Dimensions[1]
	g := hist.Graph()
	driveAt := func(t int) *Node {
		if in.Drive == nil {
			return nil
		}
		return Reshape(Slice(in.Drive, AxisRange(), AxisElem(t), AxisRange()), n, spec.DriveDim)
	}
	stateAt := func(t int) *Node {
		return Reshape(Slice(hist, AxisRange(), AxisElem(t), AxisRange()), n, spec.StateDim)
	}
	var state []*Node
	for _, sh := range s.StateShapes(n) {
		state = append(state, Zeros(g, sh))
	}
	stop := func(ns []*Node) []*Node {
		out := make([]*Node, len(ns))
		for i, v := range ns {
			out[i] = StopGradient(v)
		}
		return out
	}
	if len(state) > 0 {
		for t := 0; t < window-1; t++ {
			_, state = s.StepState(nil, -1, stateAt(t), driveAt(t), state)
		}
		if opts.DetachContext {
			state = stop(state)
		}
	}
	x := stateAt(window - 1)
	var out Rollout
	for k := range K {
		if e := opts.TruncateEvery; e > 0 && k > 0 && k%e == 0 {
			x, state = StopGradient(x), stop(state)
		}
		d := driveAt(window - 1 + k)
		if u := opts.JacobianDirection; u != nil && (k == 0 || !opts.JacobianAuthors) {
			sj := state
			if opts.JacobianAuthors {
				sj = stop(state)
			}
			plain := func(x *Node) *Node { y, _ := s.StepState(nil, -1, x, d, sj); return y }
			if opts.JacobianAuthors {
				out.JacobianNorms = append(out.JacobianNorms, jacobianGainCentralOf(plain, x, u, opts.JacobianEps))
			} else {
				out.JacobianNorms = append(out.JacobianNorms, jacobianNormOf(plain, x, u, opts.JacobianEps))
			}
		}
		x, state = s.StepState(router, k, x, d, state)
		out.Preds = append(out.Preds, x)
	}
	return out
}
