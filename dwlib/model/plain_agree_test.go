package model

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
)

// relL2Graph is dwlib/train's task loss (a copy: dwlib/train imports this package).
func relL2Graph(pred, target *Node) *Node {
	g := pred.Graph()
	e := Sub(pred, target)
	num := Sqrt(Add(ReduceSum(Mul(e, e), -1), Scalar(g, e.DType(), 1e-12)))
	den := Max(Sqrt(ReduceSum(Mul(target, target), -1)), Scalar(g, e.DType(), 1e-8))
	return ReduceAllMean(Div(num, den))
}

// graphStep returns the GoMLX training step's loss and gradients (in store order) as an
// executable of (history [N, Window, D], target [N, K, D]).
func graphStep(f *Forecaster, K int) *mlmodel.Exec {
	return MustNewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, hist, target *Node) []*Node {
		loss := relL2Graph(Stack(f.Rollout(nil, Inputs{History: hist}, K, RolloutOptions{}).Preds, 1), target)
		return append([]*Node{loss}, scope.BuildTrainableVariablesGradientsGraph(loss)...)
	})
}

// stepData is a random (history, target) pair in T.
func stepData[T real](rng *rand.Rand, n, window, K, D int) (hist, target []T) {
	hist, target = make([]T, n*window*D), make([]T, n*K*D)
	for i := range hist {
		hist[i] = T(rng.NormFloat64())
	}
	for i := range target {
		target[i] = T(rng.NormFloat64())
	}
	return hist, target
}

// perturbParams adds N(0, std²) noise to every parameter, so that the near-persistence
// initialisation (tiny read-out, unit gains, D = 1) does not hide a wrongly wired term.
func perturbParams[T real](t testing.TB, f *Forecaster, rng *rand.Rand, std float64) {
	t.Helper()
	for v := range f.Store().IterVariables() {
		x := tensors.MustCopyFlatData[T](v.MustValue())
		for i := range x {
			x[i] += T(std * rng.NormFloat64())
		}
		if err := v.SetValue(tensors.FromFlatDataAndDimensions(x, v.Shape().Dimensions...)); err != nil {
			t.Fatal(err)
		}
	}
}

// checkPlainStep compares the plain-Go step with the GoMLX step on cfg: the loss and every
// variable's gradient must agree to tol (relative, in the 2-norm over the variable).
func checkPlainStep[T real](t *testing.T, cfg Config, n, K int, tol float64) {
	f, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := f.Config()
	rng := rand.New(rand.NewPCG(7, uint64(c.Hidden)))
	perturbParams[T](t, f, rng, 0.2)
	hist, target := stepData[T](rng, n, c.Window, K, c.StateDim)
	out := graphStep(f, K).MustCall(tensors.FromFlatDataAndDimensions(hist, n, c.Window, c.StateDim),
		tensors.FromFlatDataAndDimensions(target, n, K, c.StateDim))

	ref, err := newPlainStep[T](f, n, K)
	if err != nil {
		t.Fatal(err)
	}
	loss := ref.lossAndGradients(hist, target)
	graphLoss := tensors.MustCopyFlatData[T](out[0])[0]
	if d := math.Abs(float64(loss-graphLoss)) / math.Abs(float64(graphLoss)); !(d <= tol) {
		t.Errorf("loss: plain Go %.9g, graph %.9g (relative difference %.3g)", loss, graphLoss, d)
	}
	i, worst := 1, 0.0
	for v := range f.Store().IterVariables() {
		graph := tensors.MustCopyFlatData[T](out[i])
		i++
		pp, ok := ref.params[v.Path()]
		if !ok {
			t.Fatalf("plain-Go step has no parameter %s", v.Path())
		}
		num, den := 0.0, 0.0
		for j := range graph {
			d := float64(pp.grad[j] - graph[j])
			num, den = num+d*d, den+float64(graph[j])*float64(graph[j])
		}
		d := math.Sqrt(num / den)
		worst = math.Max(worst, d)
		if !(d <= tol) || den == 0 {
			t.Errorf("%s: gradient differs by %.3g (relative), ‖graph‖ = %.3g", v.Path(), d, math.Sqrt(den))
		}
	}
	if i-1 != len(ref.params) {
		t.Errorf("graph has %d gradients, plain-Go step %d parameters", i-1, len(ref.params))
	}
	t.Logf("loss %.6g, worst relative gradient difference %.3g", loss, worst)
}

// TestPlainStepMatchesGraph checks the plain-Go reference step (the benchmark's yardstick)
// against the GoMLX step: to rounding in float64, and to float32 accuracy in the precision the
// benchmark runs.
func TestPlainStepMatchesGraph(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		n, K int
	}{
		{"h8", Config{StateDim: 2, Hidden: 8, Layers: 2, SSMState: 4, ConvWidth: 4, Window: 6}, 3, 4},
		// Window shorter than the convolution; Hidden 20 gives a rank-2 Δ projection.
		{"h20/short-window", Config{StateDim: 3, Hidden: 20, Layers: 3, SSMState: 3, ConvWidth: 3, Window: 2}, 2, 5},
		{"width1/window1", Config{StateDim: 1, Hidden: 8, Layers: 1, SSMState: 2, ConvWidth: 1, Expand: 1, Window: 1}, 2, 3},
	} {
		for _, dt := range []struct {
			dtype dtypes.DType
			tol   float64
		}{{dtypes.Float64, 1e-12}, {dtypes.Float32, 1e-4}} {
			t.Run(fmt.Sprintf("%s/%s", tc.name, dt.dtype), func(t *testing.T) {
				cfg := tc.cfg
				cfg.Kind, cfg.DType, cfg.Seed = "mamba", dt.dtype, 3
				if dt.dtype == dtypes.Float64 {
					checkPlainStep[float64](t, cfg, tc.n, tc.K, dt.tol)
				} else {
					checkPlainStep[float32](t, cfg, tc.n, tc.K, dt.tol)
				}
			})
		}
	}
}
