package train

import (
	"fmt"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// The step engine's graphs. Each holds one rollout step, so its size is independent of K, of the
// context length and of the horizon; the rollout is a Go loop of calls whose carried values (the
// fed-back state, the recurrent state and, backwards, their gradients) stay on the device.
//
//	forward:  (x, [d], s…)                                   → (x', s'…)
//	backward: (x, x*, gains, weight, lossOn, x̄', [d], s…, s̄'…, [u, jregOn])
//	                                                         → (loss, x̄, s̄…, [JReg sums]), accumulators += weight·∂θ
//	probe:    (x, x*, [d], s…, ε, x̄'_tot, s̄'_tot…, x̄'_ε, s̄'_ε…)
//	                                                         → (M_tot, M_ε, x̄_tot, s̄_tot…, x̄_ε, s̄_ε…)
//
// The backward graph recomputes the step (its activations are not kept between calls) and
// differentiates the surrogate lossOn·ℓ_k(x') + ⟨x', x̄'⟩ + Σ⟨s', s̄'⟩ (+ the step's JReg penalty):
// its gradient with respect to (θ, x, s) is exactly what the unrolled graph's backward pass sends
// through step k, given what the later steps sent back (x̄', s̄'). The probe graph runs the two
// fully open probes of Algorithm 1 on a recomputed step (route.Router.ProbeMomentsWith), each
// with its own carried gradients, and returns their route moments [L, 3].

// stepInputs indexes the backward graph's fixed inputs.
const (
	inX = iota
	inTarget
	inGains
	inWeight
	inLossOn
	inXBar
	numFixedInputs
)

// graphHook, when set, is called with every step-engine or unrolled graph after it is built; an
// inspection (Graphs) uses it to count nodes and then stops the build before anything compiles.
type graphHook func(name string, g *Graph, in []*Node)

// stepLayout describes the variable part of the step graphs' inputs.
type stepLayout struct {
	hasDrive bool
	nState   int
	jreg     bool
}

func (s stepLayout) numInputs() int {
	n := numFixedInputs + 2*s.nState
	if s.hasDrive {
		n++
	}
	if s.jreg {
		n += 2
	}
	return n
}

// buildForwardStep is the forward step graph: plain merges (the forward value of every method).
func buildForwardStep(m model.Stepper, hasDrive bool, hook graphHook) func(scope *mlmodel.Scope, in []*Node) []*Node {
	return func(scope *mlmodel.Scope, in []*Node) []*Node {
		x, i := in[0], 1
		var d *Node
		if hasDrive {
			d, i = in[1], 2
		}
		next, state := m.StepState(nil, -1, x, d, in[i:])
		out := append([]*Node{next}, state...)
		if hook != nil {
			hook("step-forward", x.Graph(), in)
		}
		return out
	}
}

// buildBackwardStep is the backward step graph for the run's method: routed merges for dw and
// static, plain ones otherwise. vars and accums are as in
// buildGradient. nk is N·K for the loss scale (N the call's windows).
func buildBackwardStep(m model.Stepper, nLayers int, cfg Config, vars, accums []*mlmodel.Variable, layout stepLayout, hook graphHook) func(scope *mlmodel.Scope, in []*Node) []*Node {
	return func(scope *mlmodel.Scope, in []*Node) []*Node {
		if len(in) != layout.numInputs() {
			panic(fmt.Errorf("train: step backward graph: %d inputs, want %d", len(in), layout.numInputs()))
		}
		x, target, gains, weight, lossOn, xBar := in[inX], in[inTarget], in[inGains], in[inWeight], in[inLossOn], in[inXBar]
		g := x.Graph()
		n := x.Shape().Dimensions[0]
		i := numFixedInputs
		var d *Node
		if layout.hasDrive {
			d, i = in[i], i+1
		}
		state := in[i : i+layout.nState]
		sBar := in[i+layout.nState : i+2*layout.nState]
		i += 2 * layout.nState
		var dirs, jregOn *Node
		if layout.jreg {
			dirs, jregOn, i = in[i], in[i+1], i+2
		}

		var router *route.Router
		if routed(cfg.Method) {
			router = route.NewRouter(Reshape(gains, 1, nLayers, 2))
		}
		pred, next := m.StepState(router, 0, x, d, state)
		nk := float64(n * cfg.K)
		loss := stepLoss(cfg.Loss, pred, target, nk)
		objective := Add(Mul(loss, ConvertDType(lossOn, loss.DType())), carried(pred, xBar, next, sBar))
		var jregSums *Node
		if layout.jreg {
			penalty, gain := jregPenalty(m, cfg, x, d, dirs, state, n)
			objective = Add(objective, Mul(penalty, ConvertDType(jregOn, loss.DType())))
			jregSums = jregStatsNode(gain)
		}
		wrt := make([]*Node, 0, len(vars)+1+len(state))
		for _, v := range vars {
			wrt = append(wrt, v.NodeValue(g))
		}
		wrt = append(wrt, x)
		wrt = append(wrt, state...)
		grads := Gradient(objective, wrt...)
		for j, a := range accums {
			acc := a.NodeValue(g)
			a.SetNodeValue(Add(acc, Mul(ConvertDType(grads[j], acc.DType()), ConvertDType(weight, acc.DType()))))
		}
		outs := append([]*Node{Mul(loss, ConvertDType(lossOn, loss.DType()))}, grads[len(vars):]...)
		if jregSums != nil {
			outs = append(outs, jregSums)
		}
		if hook != nil {
			hook("step-backward", g, in)
		}
		return outs
	}
}

// Probe graph inputs: x, x*, [d], s…, ε, x̄'_tot, s̄'_tot…, x̄'_ε, s̄'_ε….
//
// buildProbeStep is the probe step graph: the two fully open probes of Algorithm 1 on one
// recomputed rollout step, each carrying its own gradients; outputs M_tot [L, 3], M_ε [L, 3],
// x̄_tot, s̄_tot…, x̄_ε, s̄_ε…. A calibration microbatch calls it beside the backward graph (the
// task gradient), so neither graph holds three backward passes.
func buildProbeStep(m model.Stepper, nLayers int, cfg Config, layout stepLayout, hook graphHook) func(scope *mlmodel.Scope, in []*Node) []*Node {
	return func(scope *mlmodel.Scope, in []*Node) []*Node {
		if want := probeInputs(layout); len(in) != want {
			panic(fmt.Errorf("train: step probe graph: %d inputs, want %d", len(in), want))
		}
		x, target := in[0], in[1]
		g := x.Graph()
		n := x.Shape().Dimensions[0]
		i := 2
		var d *Node
		if layout.hasDrive {
			d, i = in[i], i+1
		}
		ns := layout.nState
		state := in[i : i+ns]
		i += ns
		noise := in[i]
		xTot, sTot := in[i+1], in[i+2:i+2+ns]
		i += 2 + ns
		xNoise, sNoise := in[i], in[i+1:i+1+ns]
		// The probes differentiate with every route open: the gains only mark the merges.
		router := route.NewRouter(Ones(g, shapes.Make(x.DType(), 1, nLayers, 2)))
		pred, next := m.StepState(router, 0, x, d, state)
		nk := float64(n * cfg.K)
		e := Sub(pred, target)
		qTot := Add(MulScalar(ReduceAllSum(Mul(e, e)), 0.5/nk), carried(pred, xTot, next, sTot))
		qNoise := Add(MulScalar(ReduceAllSum(Mul(pred, ConvertDType(noise, pred.DType()))), 1/nk), carried(pred, xNoise, next, sNoise))
		extra := append([]*Node{x}, state...)
		mTot, gTot := router.ProbeMomentsWith(qTot, extra...)
		mNoise, gNoise := router.ProbeMomentsWith(qNoise, extra...)
		outs := []*Node{Reshape(mTot, nLayers, 3), Reshape(mNoise, nLayers, 3)}
		outs = append(outs, gTot...)
		outs = append(outs, gNoise...)
		if hook != nil {
			hook("step-probe", g, in)
		}
		return outs
	}
}

func probeInputs(l stepLayout) int {
	n := 2 + 3*l.nState + 3
	if l.hasDrive {
		n++
	}
	return n
}

// stepLoss is one rollout step's share of the task loss: TaskLoss over [N, K, D] is the mean over
// windows and steps (and coordinates for MSE), so step k contributes its sum divided by N·K.
func stepLoss(name string, pred, target *Node, nk float64) *Node {
	g := pred.Graph()
	e := Sub(pred, target)
	if name == LossMSE {
		d := float64(pred.Shape().Dimensions[pred.Rank()-1])
		return MulScalar(ReduceAllSum(Mul(e, e)), 1/(nk*d))
	}
	num := Sqrt(Add(ReduceSum(Mul(e, e), -1), Scalar(g, e.DType(), 1e-12)))
	den := Max(Sqrt(ReduceSum(Mul(target, target), -1)), Scalar(g, e.DType(), 1e-8))
	return MulScalar(ReduceAllSum(Div(num, den)), 1/nk)
}

// carried is ⟨x', x̄'⟩ + Σ_j ⟨s'_j, s̄'_j⟩: its gradient is the vector-Jacobian product of the
// step with what the later steps sent back.
func carried(pred, xBar *Node, next, sBar []*Node) *Node {
	sum := ReduceAllSum(Mul(pred, xBar))
	for j, s := range next {
		sum = Add(sum, ReduceAllSum(Mul(s, sBar[j])))
	}
	return sum
}

// jregPenalty is one step's share of JReg's penalty coef·mean(max(gain − 1, 0)²): the mean runs
// over windows and the steps that carry a gain (K for the text's reading, the first step only for
// the authors'), computed as model.Forecaster.Rollout does, from the step's state, which the
// perturbed steps do not advance (detached for the authors' reading). It also returns the step's
// gains [N], for JRegStats.
func jregPenalty(m model.Stepper, cfg Config, x, d, dirs *Node, state []*Node, n int) (penalty, gain *Node) {
	st := state
	if cfg.JRegStyle == JRegAuthors {
		st = make([]*Node, len(state))
		for j, s := range state {
			st[j] = StopGradient(s)
		}
	}
	plain := func(x *Node) *Node { y, _ := m.StepState(nil, -1, x, d, st); return y }
	steps := cfg.K
	if cfg.JRegStyle == JRegAuthors {
		gain = model.JacobianGainCentral(plain, x, dirs, cfg.JRegEps)
		steps = 1
	} else {
		gain = model.JacobianNorm(plain, x, dirs, cfg.JRegEps)
	}
	over := SubScalar(gain, 1)
	excess := Max(over, ZerosLike(over))
	return MulScalar(ReduceAllSum(Mul(excess, excess)), cfg.JRegCoef/float64(n*steps)), gain
}
