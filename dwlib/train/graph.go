package train

import (
	"github.com/gomlx/gomlx/pkg/core/dtypes"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/train/optimizers"
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

// stepOutputs indexes the outputs of the training graph.
const (
	outLoss = iota
	outGradNorm
	outResiduals
	outMomentsTot
	outMomentsNoise
)

// buildStep is the training graph: rollout, task loss, routed gradient, clip, Adam update, and on
// calibration graphs the open-route probes. Inputs: history, targets, gains [K, L, 2], and then
// drive (if J > 0), noise [N, K, D] (if calibrate), JReg directions [N, D] (if jreg).
func buildStep(f *model.Forecaster, cfg Config, opt gradientOptimizer, hasDrive, calibrate bool) func(ctx *context.Context, in []*Node) []*Node {
	return func(ctx *context.Context, in []*Node) []*Node {
		hist, target, gains := in[0], in[1], in[2]
		i := 3
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
		opts := model.RolloutOptions{JacobianDirection: dirs, JacobianEps: cfg.JRegEps}
		if cfg.Method == "tbptt" {
			opts.TruncateEvery = cfg.Segment
		}
		ro := f.Rollout(router, model.Inputs{History: hist, Drive: drive}, cfg.K, opts)
		pred := Stack(ro.Preds, 1)
		loss := relL2(pred, target)
		objective := loss
		if dirs != nil {
			over := SubScalar(Stack(ro.JacobianNorms, 1), 1)
			excess := Max(over, ZerosLike(over))
			objective = Add(objective, MulScalar(ReduceAllMean(Mul(excess, excess)), cfg.JRegCoef))
		}

		grads := ctx.BuildTrainableVariablesGradientsGraph(objective)
		norm := globalNorm(grads)
		// Global-norm clip: g ← g · min(1, c/‖g‖).
		scale := Min(ScalarOne(norm.Graph(), norm.DType()), Div(Scalar(norm.Graph(), norm.DType(), cfg.ClipNorm), Max(norm, Scalar(norm.Graph(), norm.DType(), 1e-30))))
		for j := range grads {
			grads[j] = Mul(grads[j], ConvertDType(scale, grads[j].DType()))
		}
		outs := []*Node{loss, norm, StopGradient(Sub(target, pred))}
		if calibrate {
			// Probes (App. C.3): q_tot = ½ mean_{i,k} ‖x̂ − x*‖², q_noise = mean_{i,k} x̂ᵀε, differentiated
			// with every route open; only their route moments leave the graph.
			n, k := float64(pred.Shape().Dimensions[0]), float64(cfg.K)
			e := Sub(pred, target)
			qTot := MulScalar(ReduceAllSum(Mul(e, e)), 0.5/(n*k))
			qNoise := MulScalar(ReduceAllSum(Mul(pred, ConvertDType(noise, pred.DType()))), 1/(n*k))
			outs = append(outs, router.ProbeMoments(qTot), router.ProbeMoments(qNoise))
		}
		opt.UpdateGraphWithGradients(ctx, grads, loss.DType())
		return outs
	}
}

// routed reports whether a method reweights routed merges (and so builds them).
func routed(method string) bool { return method == "dw" || method == "static" }

// gradientOptimizer is the part of GoMLX's Adam the step uses: an update from given (clipped)
// gradients instead of from a loss.
type gradientOptimizer interface {
	UpdateGraphWithGradients(ctx *context.Context, grads []*Node, lossDType dtypes.DType)
}

// newAdam returns GoMLX's Adam with the run's learning rate and weight decay.
func newAdam(cfg Config) gradientOptimizer {
	return optimizers.Adam().LearningRate(cfg.LR).WeightDecay(cfg.WeightDecay).Done().(gradientOptimizer)
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
