package model_test

import (
	"fmt"
	"slices"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// Example builds a small Mamba forecaster and runs a routed K-step rollout: the gains (α, m) of every
// rollout step k and layer ℓ are a [K, L, 2] graph input, so changing them never recompiles, and the
// forward forecast does not depend on them (only the backward pass does).
func Example() {
	f, err := model.New(model.Config{
		Kind:     "mamba", // the paper's stepper; "mlp" is a fast residual MLP
		StateDim: 3,       // D: the forecast state
		Hidden:   16,
		Layers:   2,
		SSMState: 4,
		Window:   8, // observed steps consumed teacher-forced before the origin
		Seed:     1,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(f)

	const batch, K = 4, 5
	cfg := f.Config()
	exec := model.MustNewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, hist, gains *Node) *Node {
		router := route.NewRouter(gains) // one per graph
		rollout := f.Rollout(router, model.Inputs{History: hist}, K, model.RolloutOptions{})
		return Stack(rollout.Preds, 1) // K nodes [N, D] → [N, K, D]
	})

	// An observed window [N, Window, D]: its last entry is the state the rollout starts from.
	hist := make([]float32, batch*cfg.Window*cfg.StateDim)
	for i := range hist {
		hist[i] = float32(i%7) / 7
	}
	gains := make([]float32, K*f.NumLayers()*2)
	for i := range gains {
		gains[i] = 0.5
	}
	preds := exec.MustCall(
		tensors.FromFlatDataAndDimensions(hist, batch, cfg.Window, cfg.StateDim),
		tensors.FromFlatDataAndDimensions(gains, K, f.NumLayers(), 2),
	)[0]
	fmt.Println("forecast:", preds.Shape())

	// Output:
	// mamba-16 (L=2, D=3, J=0, 4835 parameters)
	// forecast: (Float32)[4, 5, 3]
}

// Example_routedGradient differentiates a loss of a routed rollout. The gains reweight only the
// backward pass (paper, eq. 2): the loss is the same for open and routed gains, its gradient is not.
func Example_routedGradient() {
	f, err := model.New(model.Config{Kind: "mlp", StateDim: 2, Hidden: 8, Layers: 3, Window: 4, Seed: 3})
	if err != nil {
		panic(err)
	}
	const batch, K = 2, 4
	cfg := f.Config()
	exec := model.MustNewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, hist, target, gains *Node) []*Node {
		preds := f.Rollout(route.NewRouter(gains), model.Inputs{History: hist}, K, model.RolloutOptions{}).Preds
		diff := Sub(Stack(preds, 1), target)
		loss := ReduceAllMean(Mul(diff, diff))
		// One gradient per trainable variable, in ctx.IterVariables order: what an optimizer applies.
		return append([]*Node{loss}, scope.BuildTrainableVariablesGradientsGraph(loss)...)
	})

	hist := make([]float32, batch*cfg.Window*cfg.StateDim)
	target := make([]float32, batch*K*cfg.StateDim)
	for i := range hist {
		hist[i] = float32(i%5) / 5
	}
	for i := range target {
		target[i] = 1
	}
	run := func(alpha, m float32) (float32, []float32) {
		gains := make([]float32, 0, K*f.NumLayers()*2)
		for range K * f.NumLayers() {
			gains = append(gains, alpha, m)
		}
		out := exec.MustCall(
			tensors.FromFlatDataAndDimensions(hist, batch, cfg.Window, cfg.StateDim),
			tensors.FromFlatDataAndDimensions(target, batch, K, cfg.StateDim),
			tensors.FromFlatDataAndDimensions(gains, K, f.NumLayers(), 2))
		// out[1] is the gradient of the first variable, the read-in weight /model/read_in::w.
		return tensors.MustCopyFlatData[float32](out[0])[0], tensors.MustCopyFlatData[float32](out[1])
	}
	openLoss, openGrad := run(1, 1)         // full BPTT
	routedLoss, routedGrad := run(0.5, 0.8) // Internal-DW with fixed gains
	fmt.Println("variables:", f.Store().NumVariables())
	fmt.Println("same loss:", openLoss == routedLoss)
	fmt.Println("same read-in gradient:", slices.Equal(openGrad, routedGrad))

	// Output:
	// variables: 18
	// same loss: true
	// same read-in gradient: false
}
