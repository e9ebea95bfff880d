package model_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// tinyUNet is a float64 U-Net small enough for finite differences: 2 channels of 8 × 8, two
// levels (8 × 8 and 4 × 4), width 4 then 8, a projection skip in every block that changes width.
func tinyUNet(t *testing.T) *model.UNet {
	t.Helper()
	u, err := model.NewUNet(model.UNetConfig{Channels: 2, Height: 8, Width: 8, Base: 4, Depth: 2, Groups: 2, Window: 3, Seed: 5, DType: dtypes.Float64})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// unetLoss builds ½ Σ_k ‖x̂_k − x*_k‖² of a K-step rollout (in: history, target, gains).
func unetLoss(u *model.UNet, in []*Node, K int, routed bool) *Node {
	var router *route.Router
	if routed {
		router = route.NewRouter(in[2])
	}
	preds := u.Rollout(router, model.Inputs{History: in[0]}, K, model.RolloutOptions{}).Preds
	e := Sub(Stack(preds, 1), in[1])
	return MulScalar(ReduceAllSum(Mul(e, e)), 0.5)
}

// TestUNetGradient: with every route open the routed rollout's gradient equals plain BPTT's and
// central finite differences of the loss (sampled entries of every variable, float64); gains in
// (0, 1) leave the loss bit-identical and change the gradient of the input block, which sits
// below every routed merge.
func TestUNetGradient(t *testing.T) {
	const K, batch = 2, 2
	u := tinyUNet(t)
	spec := u.Spec()
	rng := rand.New(rand.NewPCG(3, 3))
	hist := tensors.FromFlatDataAndDimensions(randn(rng, batch*spec.Window*spec.StateDim, 1), batch, spec.Window, spec.StateDim)
	target := tensors.FromFlatDataAndDimensions(randn(rng, batch*K*spec.StateDim, 1), batch, K, spec.StateDim)
	L := u.NumLayers()
	open := gainsTensor(K, L, func(int, int) (float64, float64) { return 1, 1 })
	mixed := gainsTensor(K, L, func(int, int) (float64, float64) { return 0.1 + 0.8*rng.Float64(), 0.1 + 0.8*rng.Float64() })
	var vars []*mlmodel.Variable
	for v := range u.Store().IterVariables() {
		vars = append(vars, v)
	}
	grad := func(routed bool, gains *tensors.Tensor) (float64, [][]float64) {
		out := model.MustNewLiveExec(backend.MustShared(), u.Store(), func(scope *mlmodel.Scope, in []*Node) []*Node {
			loss := unetLoss(u, in, K, routed)
			return append([]*Node{loss}, scope.BuildTrainableVariablesGradientsGraph(loss)...)
		}).MustCall(hist, target, gains)
		if len(out) != 1+len(vars) {
			t.Fatalf("%d gradients for %d variables: a variable is not used", len(out)-1, len(vars))
		}
		g := make([][]float64, len(vars))
		for i := range vars {
			g[i] = tensors.MustCopyFlatData[float64](out[i+1])
		}
		return tensors.MustCopyFlatData[float64](out[0])[0], g
	}
	loss, routedOpen := grad(true, open)
	plainLoss, plain := grad(false, open)
	if loss != plainLoss {
		t.Errorf("loss %.17g routed open, %.17g plain", loss, plainLoss)
	}
	for i, v := range vars {
		if d := relDiff(routedOpen[i], plain[i]); !(d <= 1e-12) {
			t.Errorf("%s: open routed gradient differs from plain BPTT by %.3g", v.Path(), d)
		}
	}
	mixedLoss, mixedGrad := grad(true, mixed)
	if math.Float64bits(mixedLoss) != math.Float64bits(loss) {
		t.Errorf("gains changed the forward loss: %.17g vs %.17g", mixedLoss, loss)
	}
	changed := false
	for i, v := range vars {
		if strings.HasPrefix(v.Path(), "/model/block0/conv1") && relDiff(mixedGrad[i], plain[i]) > 1e-2 {
			changed = true
		}
	}
	if !changed {
		t.Error("gains in (0, 1) did not change the input block's gradient")
	}

	lossOf := model.MustNewLiveExec(backend.MustShared(), u.Store(), func(scope *mlmodel.Scope, in []*Node) *Node {
		return unetLoss(u, in, K, false)
	})
	eval := func() float64 { return tensors.MustCopyFlatData[float64](lossOf.MustCall(hist, target, open)[0])[0] }
	const step = 1e-6
	scale := 0.0
	for _, g := range plain {
		scale = math.Max(scale, maxAbs(g))
	}
	checked := 0
	for i, v := range vars {
		theta := values64(t, v)
		for range 4 { // four entries of every variable
			j := rng.IntN(len(theta))
			orig := theta[j]
			theta[j] = orig + step
			setValues64(t, v, theta)
			up := eval()
			theta[j] = orig - step
			setValues64(t, v, theta)
			down := eval()
			theta[j] = orig
			setValues64(t, v, theta)
			fd := (up - down) / (2 * step)
			if err := math.Abs(fd-plain[i][j]) / (math.Abs(plain[i][j]) + 1e-3*scale); !(err <= 1e-5) {
				t.Errorf("%s[%d]: gradient %.10g, central difference %.10g (relative error %.3g)", v.Path(), j, plain[i][j], fd, err)
			}
			checked++
		}
	}
	t.Logf("%d variables, %d entries checked, ‖∇‖_∞ %.3g", len(vars), checked, scale)
}

// TestUNetConfig: bad configurations are refused by field name.
func TestUNetConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  model.UNetConfig
		want string
	}{
		{model.UNetConfig{Channels: 0, Height: 8, Width: 8}, "Channels"},
		{model.UNetConfig{Channels: 1, Height: 8, Width: 8, Frames: 3, Window: 2}, "Window"},
		{model.UNetConfig{Channels: 1, Height: 8, Width: 8, Depth: 3}, "coarsest level"},
		{model.UNetConfig{Channels: 1, Height: 8, Width: 8, Depth: 2, DType: dtypes.Int32}, "DType"},
	} {
		if _, err := model.NewUNet(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one naming %q", tc.cfg, err, tc.want)
		}
	}
}
