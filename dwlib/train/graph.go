package train

import (
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// relL2 is the task loss: mean_{i,k} ‖x̂ − x*‖ / max(‖x*‖, 1e-8), over [N, K, D] nodes.
func relL2(pred, target *Node) *Node {
	g := pred.Graph()
	e := Sub(pred, target)
	num := Sqrt(Add(ReduceSum(Mul(e, e), -1), Scalar(g, e.DType(), 1e-12)))
	den := Max(Sqrt(ReduceSum(Mul(target, target), -1)), Scalar(g, e.DType(), 1e-8))
	return ReduceAllMean(Div(num, den))
}

// TaskLoss is the training loss named by Config.Loss ("" is LossRelL2) between predictions and
// targets whose last axis is the state ([N, K, D] here; [N, D] for one step's loss).
func TaskLoss(name string, pred, target *Node) *Node {
	if name == LossMSE {
		e := Sub(pred, target)
		return ReduceAllMean(Mul(e, e))
	}
	return relL2(pred, target)
}

// accumScope holds one gradient accumulator per trainable model variable, at the variable's path
// below it: the sum over the microbatches of an optimizer step of weight × gradient.
const accumScope = "/accum"

// gradOutputs indexes the outputs of the gradient graph.
const (
	outLoss = iota
	outResiduals
	outMomentsTot
	outMomentsNoise
)

// trainables lists the forecaster's trainable variables in store order: the order of the
// accumulators, of the gradients and of Adam's updates.
func trainables(f Model) []*mlmodel.Variable {
	var vs []*mlmodel.Variable
	for v := range f.Store().IterVariables() {
		if v.Trainable && inScope(v.Scope(), ModelScope) {
			vs = append(vs, v)
		}
	}
	return vs
}

// buildGradient is the microbatch graph: rollout, task loss, the task gradient with the committed
// gains added (times the input weight) into the accumulators, and on calibration graphs the
// open-route probes. Inputs: history, targets, gains [K, L, 2], weight (scalar), and then drive (if
// J > 0), noise [N, K, D] (if calibrate), JReg directions [N, D] (if jreg). Outputs (gradOutputs): loss,
// residuals, the probe moments (if calibrate) and, last, JReg's statistics sums (if jreg).
func buildGradient(f Model, cfg Config, vars, accums []*mlmodel.Variable, hasDrive, calibrate bool) func(scope *mlmodel.Scope, in []*Node) []*Node {
	return func(scope *mlmodel.Scope, in []*Node) []*Node {
		hist, target, gains, weight := in[0], in[1], in[2], in[3]
		i := 4
		var drive, noise, dirs *Node
		if hasDrive {
			drive, i = in[i], i+1
		}
		if calibrate {
			noise, i = in[i], i+1
		}
		if cfg.Method == "jreg" {
			dirs = in[i]
		}
		// Full BPTT and its clip/JReg/TBPTT controls build plain residual merges: no routing nodes at all.
		var router *route.Router
		if routed(cfg.Method) {
			router = route.NewRouter(gains)
		}
		opts := model.RolloutOptions{JacobianDirection: dirs, JacobianEps: cfg.JRegEps, JacobianAuthors: cfg.JRegStyle == JRegAuthors,
			DetachContext: cfg.DetachContext}
		if cfg.Method == "tbptt" {
			opts.TruncateEvery = cfg.Segment
		}
		ro := f.Rollout(router, model.Inputs{History: hist, Drive: drive}, cfg.K, opts)
		pred := Stack(ro.Preds, 1)
		loss := TaskLoss(cfg.Loss, pred, target)
		objective := loss
		var jregSums *Node
		if dirs != nil {
			gain := Stack(ro.JacobianNorms, 1)
			over := SubScalar(gain, 1)
			excess := Max(over, ZerosLike(over))
			objective = Add(objective, MulScalar(ReduceAllMean(Mul(excess, excess)), cfg.JRegCoef))
			jregSums = jregStatsNode(gain)
		}
		nodes := make([]*Node, len(vars))
		for j, v := range vars {
			nodes[j] = v.NodeValue(hist.Graph())
		}
		grads := Gradient(objective, nodes...)
		for j, a := range accums {
			acc := a.NodeValue(hist.Graph())
			a.SetNodeValue(Add(acc, Mul(ConvertDType(grads[j], acc.DType()), ConvertDType(weight, acc.DType()))))
		}
		outs := []*Node{loss, StopGradient(Sub(target, pred))}
		if calibrate {
			// Probes (App. C.3): q_tot = ½ mean_{i,k} ‖x̂ − x*‖², q_noise = mean_{i,k} x̂ᵀε, differentiated
			// with every route open; only their route moments leave the graph.
			n, k := float64(pred.Shape().Dimensions[0]), float64(cfg.K)
			e := Sub(pred, target)
			qTot := MulScalar(ReduceAllSum(Mul(e, e)), 0.5/(n*k))
			qNoise := MulScalar(ReduceAllSum(Mul(pred, ConvertDType(noise, pred.DType()))), 1/(n*k))
			outs = append(outs, router.ProbeMoments(qTot), router.ProbeMoments(qNoise))
		}
		if jregSums != nil {
			outs = append(outs, jregSums) // last: JRegStats' sums (JReg never calibrates)
		}
		return outs
	}
}

// buildApply is the optimizer-step graph: the accumulated gradient, its global norm, the clip
// g ← g · min(1, c/‖g‖), the coupled L2 term (WeightDecayMode "l2": g ← g + λθ after the clip, as
// PyTorch's Adam applies weight_decay), Adam's update (decoupled decay for "decoupled"), and the
// accumulators reset to zero. Output: the norm before clipping.
func buildApply(cfg Config, opt gradientOptimizer, vars, accums []*mlmodel.Variable, hook graphHook) func(scope *mlmodel.Scope, g *Graph) *Node {
	return func(scope *mlmodel.Scope, g *Graph) *Node {
		if hook != nil {
			defer hook("optimizer-step", g, nil)
		}
		for _, v := range vars { // mark every parameter as used, so Adam pairs them with grads
			_ = v.NodeValue(g)
		}
		grads := make([]*Node, len(accums))
		for j, a := range accums {
			grads[j] = a.NodeValue(g)
		}
		norm := globalNorm(grads)
		scale := Min(ScalarOne(g, norm.DType()), Div(Scalar(g, norm.DType(), cfg.ClipNorm), Max(norm, Scalar(g, norm.DType(), 1e-30))))
		for j, v := range vars {
			grads[j] = Mul(grads[j], ConvertDType(scale, grads[j].DType()))
			if cfg.WeightDecayMode == WeightDecayL2 && cfg.WeightDecay > 0 {
				grads[j] = Add(grads[j], MulScalar(v.NodeValue(g), cfg.WeightDecay))
			}
		}
		opt.UpdateGraphWithGradients(scope, grads, vars[0].DType())
		for _, a := range accums {
			a.SetNodeValue(ZerosLike(a.NodeValue(g)))
		}
		return norm
	}
}

// routed reports whether a method reweights routed merges (and so builds them).
func routed(method string) bool { return method == "dw" || method == "static" }

// gradientOptimizer is the part of GoMLX's Adam the step uses: an update from given (clipped)
// gradients instead of from a loss.
type gradientOptimizer interface {
	UpdateGraphWithGradients(scope *mlmodel.Scope, grads []*Node, lossDType dtypes.DType)
}

// newAdam returns GoMLX's Adam with the run's learning rate; its own (decoupled) weight decay only
// for WeightDecayMode "decoupled".
func newAdam(cfg Config) gradientOptimizer {
	wd := 0.0
	if cfg.WeightDecayMode == WeightDecayDecoupled {
		wd = cfg.WeightDecay
	}
	adam := optimizer.Adam().LearningRate(cfg.LR).WeightDecay(wd)
	if cfg.AdamEps > 0 {
		adam = adam.Epsilon(cfg.AdamEps)
	}
	return adam.Done().(gradientOptimizer)
}

func globalNorm(grads []*Node) *Node {
	var sum *Node
	for _, g := range grads {
		s := ReduceAllSum(Mul(g, g))
		if sum == nil {
			sum = s
		} else {
			sum = Add(sum, s)
		}
	}
	return Sqrt(sum)
}

// hooked wraps a graph function so that hook (if set) sees the graph once it is built.
func hooked(name string, hook graphHook, fn func(scope *mlmodel.Scope, in []*Node) []*Node) func(scope *mlmodel.Scope, in []*Node) []*Node {
	if hook == nil {
		return fn
	}
	return func(scope *mlmodel.Scope, in []*Node) []*Node {
		out := fn(scope, in)
		hook(name, in[0].Graph(), in)
		return out
	}
}
