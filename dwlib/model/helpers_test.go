package model_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// newForecaster builds a forecaster or fails the test.
func newForecaster(t testing.TB, cfg model.Config) *model.Forecaster {
	t.Helper()
	f, err := model.New(cfg)
	if err != nil {
		t.Fatalf("model.New(%+v): %v", cfg, err)
	}
	return f
}

// randn returns n entries drawn from N(0, std²).
func randn(rng *rand.Rand, n int, std float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = std * rng.NormFloat64()
	}
	return out
}

// variables lists the forecaster's variables in ctx.IterVariables order.
func variables(f *model.Forecaster) []*mlmodel.Variable {
	var vs []*mlmodel.Variable
	for v := range f.Store().IterVariables() {
		vs = append(vs, v)
	}
	return vs
}

// values64 reads a float64 variable's current value.
func values64(t testing.TB, v *mlmodel.Variable) []float64 {
	t.Helper()
	if v.DType() != dtypes.Float64 {
		t.Fatalf("variable %s is %s, want Float64", v.Path(), v.DType())
	}
	return tensors.MustCopyFlatData[float64](v.MustValue())
}

// setValues64 replaces a float64 variable's value, keeping its shape.
func setValues64(t testing.TB, v *mlmodel.Variable, data []float64) {
	t.Helper()
	if err := v.SetValue(tensors.FromFlatDataAndDimensions(data, v.Shape().Dimensions...)); err != nil {
		t.Fatalf("SetValue(%s): %v", v.Path(), err)
	}
}

// perturbVariables adds N(0, std²) noise to every parameter of a Float64 forecaster, so that the
// constant initial values (unit norm gains, zero biases, D = 1) do not hide a wrongly wired term.
func perturbVariables(t testing.TB, f *model.Forecaster, rng *rand.Rand, std float64) {
	t.Helper()
	for _, v := range variables(f) {
		data := values64(t, v)
		for i := range data {
			data[i] += std * rng.NormFloat64()
		}
		setValues64(t, v, data)
	}
}

// gainsTensor returns a [K, L, 2] gains tensor filled by fn(k, l) = (α, m).
func gainsTensor(K, L int, fn func(k, l int) (alpha, m float64)) *tensors.Tensor {
	data := make([]float64, K*L*2)
	for k := range K {
		for l := range L {
			data[(k*L+l)*2], data[(k*L+l)*2+1] = fn(k, l)
		}
	}
	return tensors.FromFlatDataAndDimensions(data, K, L, 2)
}

func openGains(K, L int) *tensors.Tensor {
	return gainsTensor(K, L, func(int, int) (float64, float64) { return 1, 1 })
}

// rolloutInputs splits the graph inputs of the test executables: history, then the drive when the
// forecaster has drive channels.
func rolloutInputs(f *model.Forecaster, in []*Node) model.Inputs {
	inputs := model.Inputs{History: in[0]}
	if f.Config().DriveDim > 0 {
		inputs.Drive = in[1]
	}
	return inputs
}

// rolloutLoss is ½ Σ_k w_k ‖x̂_k − T_k‖² averaged over the batch, with w_k = 1 + k/K so that every
// step weighs differently; target is [N, K, D].
func rolloutLoss(preds []*Node, target *Node) *Node {
	g := target.Graph()
	K := len(preds)
	diff := Sub(Stack(preds, 1), target)
	w := make([]float64, K)
	for k := range w {
		w[k] = 1 + float64(k)/float64(K)
	}
	wk := Reshape(ConvertDType(Const(g, w), target.DType()), 1, K, 1)
	n := float64(target.Shape().Dimensions[0])
	return MulScalar(ReduceAllSum(Mul(wk, Mul(diff, diff))), 0.5/n)
}

// lossAndGradExec returns an executable computing, for (history[, drive], target, gains), the rollout
// loss followed by its gradients w.r.t. every trainable variable in ctx.IterVariables order. With
// routed = false the rollout uses a nil router (plain residual merges) and ignores the gains input.
func lossAndGradExec(f *model.Forecaster, K int, routed bool) *mlmodel.Exec {
	return model.MustNewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, in []*Node) []*Node {
		n := len(in)
		target, gains := in[n-2], in[n-1]
		var router *route.Router
		if routed {
			router = route.NewRouter(gains)
		}
		loss := rolloutLoss(f.Rollout(router, rolloutInputs(f, in), K, model.RolloutOptions{}).Preds, target)
		return append([]*Node{loss}, scope.BuildTrainableVariablesGradientsGraph(loss)...)
	})
}

// lossExec is lossAndGradExec without the gradients (for finite differences).
func lossExec(f *model.Forecaster, K int) *mlmodel.Exec {
	return model.MustNewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, in []*Node) *Node {
		n := len(in)
		return rolloutLoss(f.Rollout(route.NewRouter(in[n-1]), rolloutInputs(f, in), K, model.RolloutOptions{}).Preds, in[n-2])
	})
}

// maxAbs is ‖x‖_∞.
func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// relDiff is ‖a − b‖₂ / ‖b‖₂ (0 when both are zero, +Inf when only b is). Callers compare it with
// !(d >= x) or !(d <= x), so that a NaN fails both "must differ" and "must agree" checks.
func relDiff(a, b []float64) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("relDiff: lengths %d and %d", len(a), len(b)))
	}
	num, den := 0.0, 0.0
	for i := range a {
		num += (a[i] - b[i]) * (a[i] - b[i])
		den += b[i] * b[i]
	}
	switch {
	case num == 0:
		return 0
	case den == 0:
		return math.Inf(1)
	}
	return math.Sqrt(num / den)
}
